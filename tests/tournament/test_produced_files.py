"""Files made by a task (tournament/services/files.py): a task run again after its worker died
makes the file again, a file whose worker stopped long ago gives way to a new one, and only the
newest few finished files of a kind are kept."""

import datetime

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from tests.factories import build
from tournament.models import ProducedFile
from tournament.services import files

pytestmark = pytest.mark.django_db


class Task:
    """Stands in for a task: counts what was queued."""

    def __init__(self):
        self.queued = []

    def enqueue(self, pk):
        self.queued.append(pk)


def request(version=1, kind="results_site"):
    return files.FileRequest(kind, "test-results-site.zip", "application/zip", "/staff/test/exports/x", version)


def test_a_task_run_again_after_its_worker_died_makes_the_file_again():
    tournament = build(4)
    asked = files.ask_for_file(tournament, request(), Task())
    ProducedFile.objects.filter(pk=asked.pk).update(status="running", done=3, total=9)  # the worker died here
    steps = []

    def make(produced, progress):
        for done in range(1, 4):
            steps.append(ProducedFile.objects.get(pk=produced.pk).done)
            progress(done, 3)
        return b"PK made again"

    files.produce_file(asked.pk, make)
    made = ProducedFile.objects.get(pk=asked.pk)
    assert steps == [0, 1, 2]  # started again from nothing
    assert (made.status, made.done, made.total, bytes(made.content)) == ("done", 3, 3, b"PK made again")
    files.produce_file(asked.pk, lambda *args: pytest.fail("a finished file is not made again"))


def test_a_failure_is_recorded_and_raised_for_the_worker_to_log():
    tournament = build(4)
    asked = files.ask_for_file(tournament, request(), Task())

    def broken(produced, progress):
        raise OSError("disk full")

    with pytest.raises(OSError):
        files.produce_file(asked.pk, broken)
    failed = ProducedFile.objects.get(pk=asked.pk)
    assert (failed.status, failed.error) == ("failed", "OSError: disk full") and failed.finished_at
    assert files.ask_for_file(tournament, request(), Task()).pk != asked.pk  # asking again makes it anew


def test_a_file_whose_worker_stopped_long_ago_gives_way_to_a_new_one():
    tournament = build(4)
    task = Task()
    stuck = files.ask_for_file(tournament, request(), task)
    assert files.ask_for_file(tournament, request(), task).pk == stuck.pk  # still alive: the same one
    long_ago = timezone.now() - files.STALE_AFTER - datetime.timedelta(seconds=1)
    ProducedFile.objects.filter(pk=stuck.pk).update(status="running", updated_at=long_ago)
    assert files.is_stale(ProducedFile.objects.get(pk=stuck.pk))
    fresh = files.ask_for_file(tournament, request(), task)
    assert fresh.pk != stuck.pk and task.queued == [stuck.pk, fresh.pk]
    assert ProducedFile.objects.get(pk=stuck.pk).status == "failed"
    files.produce_file(stuck.pk, lambda *args: pytest.fail("a file given up is left as it is"))


def test_only_the_newest_three_finished_files_of_a_kind_are_kept():
    tournament = build(4)
    made = []
    for version in range(1, 6):
        asked = files.ask_for_file(tournament, request(version), Task())
        files.produce_file(asked.pk, lambda produced, progress: b"PK")
        made.append(asked.pk)
    other_kind = files.ask_for_file(tournament, request(1, kind="score_sheets"), Task())
    files.produce_file(other_kind.pk, lambda produced, progress: b"%PDF")
    kept = set(ProducedFile.objects.values_list("pk", flat=True))
    assert kept == {*made[2:], other_kind.pk}


def test_the_row_and_its_task_are_one_transaction(monkeypatch):
    """A task that cannot be queued leaves no row waiting for it."""
    tournament = build(4)

    class Broken:
        def enqueue(self, pk):
            raise RuntimeError("the queue is gone")

    with pytest.raises(RuntimeError):
        files.ask_for_file(tournament, request(), Broken())
    assert not ProducedFile.objects.exists() and not DBTaskResult.objects.exists()
