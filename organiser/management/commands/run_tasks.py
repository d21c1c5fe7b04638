"""The worker: runs the tasks queued in the database (snapshots, batch PDFs, restores).

django-tasks-db leaves a task RUNNING for ever when the worker running it dies (kill -9, a power
cut). This worker puts such tasks back in the queue, at its start and then every CHECK_EVERY
seconds: each worker is named `hostname:pid:random`, and a RUNNING task is abandoned when its
last worker ran on this machine and that process is gone (or is this very process, under another
random part: a pid reused), or, for a worker on another machine, when it has run longer than
`settings.TASK_LEASE_SECONDS`. Every task is written to be safe to run twice. The same look
forgets the records of tasks finished more than KEEP_FINISHED ago (their files and snapshots are
kept where they belong; the queue's rows are only its log).
"""

import logging
import os
import secrets
import socket
import threading
import time
from datetime import timedelta

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import close_old_connections, connection
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from organiser.services.entries import entries_round
from tournament.services.mail import send_overdue

logger = logging.getLogger(__name__)
CHECK_EVERY = 60  # seconds between two looks for abandoned tasks
DEFAULT_LEASE = 30 * 60  # seconds a task of a worker on another machine may run before it is retried
KEEP_FINISHED = timedelta(days=7)  # how long the queue remembers a finished task


def new_worker_id():
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"


def process_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def abandoned(worker_id, started_at, *, me, now, lease):
    """Whether a task RUNNING since `started_at` under `worker_id` has lost its worker."""
    host, _, rest = worker_id.partition(":")
    pid, _, random_part = rest.partition(":")
    my_host, my_pid, my_random = me.split(":")
    if host == my_host and pid.isdigit() and random_part:
        if int(pid) == int(my_pid):
            return random_part != my_random
        return not process_alive(int(pid))
    return started_at is None or started_at < now - lease


def requeue_abandoned(me):
    """Put the RUNNING tasks whose worker is gone back in the queue (READY); returns how many."""
    now = timezone.now()
    lease = timedelta(seconds=getattr(settings, "TASK_LEASE_SECONDS", DEFAULT_LEASE))
    requeued = 0
    for pk, worker_ids, started_at in DBTaskResult.objects.running().values_list("pk", "worker_ids", "started_at"):
        last = worker_ids[-1] if worker_ids else ""
        if abandoned(last, started_at, me=me, now=now, lease=lease):
            # Compare-and-set: a task finished or claimed again meanwhile is left alone.
            requeued += DBTaskResult.objects.filter(
                pk=pk, status=TaskResultStatus.RUNNING, started_at=started_at
            ).update(status=TaskResultStatus.READY, started_at=None)
    if requeued:
        logger.warning("%s abandoned task(s) put back in the queue", requeued)
    return requeued


def forget_finished(now=None):
    """Delete the queue's rows of tasks finished before KEEP_FINISHED ago; returns how many."""
    cutoff = (now or timezone.now()) - KEEP_FINISHED
    return DBTaskResult.objects.finished().filter(finished_at__lt=cutoff).delete()[0]


def mail_and_entries_round():
    """The entries' and the outbox's round: expire unconfirmed entries, send reminders and
    results links, blank old contact details, queue the messages waiting for a mail server."""
    try:
        entries_round()
        send_overdue()
    except Exception:
        logger.exception("the entries' and the outbox's round failed")


def keep_requeueing(me):
    """Look for abandoned tasks every CHECK_EVERY seconds (a daemon thread beside the worker);
    the entries' and the outbox's round at the same pace."""
    while True:
        time.sleep(CHECK_EVERY)
        try:
            close_old_connections()
            requeue_abandoned(me)
            forget_finished()
            mail_and_entries_round()
        except Exception:
            logger.exception("looking for abandoned tasks failed")
        finally:
            connection.close()


class Command(BaseCommand):
    help = "Run the queued tasks (snapshots, a round's PDFs, the results-site zip, restores) until stopped."

    def add_arguments(self, parser):
        parser.add_argument("--batch", action="store_true", help="Run what is queued, then stop.")

    def handle(self, *args, batch=False, verbosity=1, **options):
        me = new_worker_id()
        requeue_abandoned(me)
        mail_and_entries_round()
        if not batch:
            threading.Thread(target=keep_requeueing, args=(me,), daemon=True, name="requeue").start()
        call_command(
            "db_worker",
            "--queue-name",
            "*",
            "--worker-id",
            me,
            "--no-reload",
            *(["--batch", "--no-startup-delay"] if batch else []),
            verbosity=verbosity,
        )
