"""The worker, `manage.py run_tasks`: a task left RUNNING by a worker killed with kill -9 is put
back in the queue when a worker starts again, and completes once."""

import datetime
import os
import uuid

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from organiser.management.commands.run_tasks import abandoned, forget_finished, new_worker_id, requeue_abandoned
from tests.support.server import Server, kill_9_once, stopping, wait_for
from tests.support.slow_task import sleep_then_record

LEASE = datetime.timedelta(minutes=30)
NOW = datetime.datetime(2026, 2, 10, 12, 0, tzinfo=datetime.UTC)
ME = "venue-laptop:4242:aaaa1111"


@pytest.mark.parametrize(
    "worker_id, minutes_running, gone",
    [
        ("venue-laptop:4242:bbbb2222", 1, True),  # this very pid under another random part: a reused pid
        ("venue-laptop:4242:aaaa1111", 90, False),  # this worker itself
        ("venue-laptop:{alive}:cccc3333", 90, False),  # a live process on this machine (the test's own)
        ("venue-laptop:999999999:cccc3333", 1, True),  # a process gone from this machine
        ("app-2:4242:dddd4444", 29, False),  # another machine, within the lease
        ("app-2:4242:dddd4444", 31, True),  # another machine, past the lease
        ("a0b1c2d3e4f5", 31, True),  # a worker id of another kind (`db_worker`): the lease
    ],
)
def test_a_running_task_is_abandoned_when_its_worker_is_gone(worker_id, minutes_running, gone):
    started = NOW - datetime.timedelta(minutes=minutes_running)
    worker_id = worker_id.format(alive=os.getpid())
    assert abandoned(worker_id, started, me=ME, now=NOW, lease=LEASE) is gone


@pytest.mark.django_db
def test_the_worker_puts_back_only_the_abandoned_running_tasks(tmp_path):
    me = new_worker_id()
    host = me.split(":")[0]
    long_ago = timezone.now() - datetime.timedelta(minutes=31)
    workers = {
        "gone here": f"{host}:999999999:aaaa1111",
        "alive here": f"{host}:{os.getppid()}:bbbb2222",
        "another machine, past the lease": "app-2:4242:cccc3333",
    }
    ids = {}
    for label, worker in workers.items():
        ids[label] = sleep_then_record.enqueue(str(tmp_path / "log"), 0).id
        DBTaskResult.objects.filter(pk=ids[label]).update(status="RUNNING", started_at=long_ago, worker_ids=[worker])
    assert requeue_abandoned(me) == 2
    status = dict(DBTaskResult.objects.values_list("pk", "status"))
    assert {label: status[uuid.UUID(str(pk))] for label, pk in ids.items()} == {
        "gone here": "READY",
        "alive here": "RUNNING",
        "another machine, past the lease": "READY",
    }
    assert DBTaskResult.objects.filter(status="READY", started_at__isnull=False).count() == 0


@pytest.mark.django_db
def test_the_queue_forgets_tasks_finished_more_than_a_week_ago(tmp_path):
    now = timezone.now()
    finished = {}
    for label, days_ago, status in (("8 days", 8, "SUCCESSFUL"), ("6 days", 6, "FAILED"), ("queued", 9, "READY")):
        finished[label] = sleep_then_record.enqueue(str(tmp_path / "log"), 0).id
        DBTaskResult.objects.filter(pk=finished[label]).update(
            status=status, finished_at=now - datetime.timedelta(days=days_ago)
        )
    assert forget_finished(now) == 1
    left = {str(pk) for pk in DBTaskResult.objects.values_list("pk", flat=True)}
    assert left == {str(finished["6 days"]), str(finished["queued"])}


ENQUEUE = """
from tests.support.slow_task import sleep_then_record
print(sleep_then_record.enqueue({log!r}, {seconds}).id)
"""
STATUS = """
import json
from django_tasks_db.models import DBTaskResult
task = DBTaskResult.objects.get(pk={pk!r})
print(json.dumps([task.status, task.worker_ids]))
"""


@pytest.mark.server
def test_a_task_of_a_worker_killed_with_kill_9_runs_again_and_completes_once(tmp_path):
    log = tmp_path / "effect.log"
    with Server(tmp_path / "var") as server:
        pk = server.manage("shell", "-v", "0", "-c", ENQUEUE.format(log=str(log), seconds=3)).stdout.strip()

        def status():
            return server.shell(STATUS.format(pk=pk))

        first = server.worker()
        kill_9_once(first, started=lambda: log.exists() and "started" in log.read_text())
        assert log.read_text().split() == ["started"]
        assert status()[0] == "RUNNING"  # django-tasks-db alone would leave it so

        with stopping(server.worker()) as second:
            wait_for(lambda: status()[0] == "SUCCESSFUL", timeout=60)
        assert log.read_text().split() == ["started", "started", "finished"]
        workers = status()[1]
        assert len(workers) == 2 and workers[0].split(":")[1] == str(first.pid)
        assert workers[1].split(":")[1] == str(second.pid)
