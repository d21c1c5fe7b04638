"""The worker: runs the tasks queued in the database (snapshots, batch PDFs, restores).

django-tasks-db leaves a task RUNNING for ever when the worker running it dies (kill -9, a power
cut). This worker puts such tasks back in the queue, at its start and then every CHECK_EVERY
seconds: each worker is named `hostname:pid:random`, and a RUNNING task is abandoned when its
last worker ran on this machine and that process is gone (or is this very process, under another
random part: a pid reused), or, for a worker on another machine, when it has run longer than
`settings.TASK_LEASE_SECONDS`. Every task is written to be safe to run twice. The same look
forgets the records of tasks finished more than KEEP_FINISHED ago (their files and snapshots are
kept where they belong; the queue's rows are only its log).

The worker outlives its database: when the database goes away (a restart, a stop) it logs one
line, waits for it with a growing pause (OUTAGE_PAUSES), logs one line when it is back, takes a
new worker id and puts back the task it was running (which may have stopped half-way: every task
is safe to run twice), and carries on as the same process. Its statements have their own bound,
settings.WORKER_STATEMENT_TIMEOUT (a request's is shorter).
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
from django.db import DatabaseError, InterfaceError, OperationalError, close_old_connections, connection
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from organiser.services.entries import entries_round
from tournament.services.mail import send_overdue

logger = logging.getLogger(__name__)
CHECK_EVERY = 60  # seconds between two looks for abandoned tasks
DEFAULT_LEASE = 30 * 60  # seconds a task of a worker on another machine may run before it is retried
KEEP_FINISHED = timedelta(days=7)  # how long the queue remembers a finished task
OUTAGE_PAUSES = (0.5, 1, 2, 4, 5)  # seconds between two tries to reach the database; then the last


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
    except DatabaseError:
        raise  # the database is away: the worker's loop waits for it
    except Exception:
        logger.exception("the entries' and the outbox's round failed")


def keep_requeueing(me):
    """Look for abandoned tasks every CHECK_EVERY seconds (a daemon thread beside the worker);
    the entries' and the outbox's round at the same pace. `me` is a one-item list holding the
    worker's current id."""
    while True:
        time.sleep(CHECK_EVERY)
        try:
            close_old_connections()
            requeue_abandoned(me[0])
            forget_finished()
            mail_and_entries_round()
        except DatabaseError:
            pass  # the database is away: the worker's loop says so, once
        except Exception:
            logger.exception("looking for abandoned tasks failed")
        finally:
            connection.close()


def use_worker_statement_timeout():
    """The worker's bound on a statement (settings.WORKER_STATEMENT_TIMEOUT) in place of a request's,
    for every connection this process makes from now on (they share the settings' dict)."""
    connection.close()
    if connection.vendor == "postgresql":
        milliseconds = round(settings.WORKER_STATEMENT_TIMEOUT * 1000)
        connection.settings_dict.setdefault("OPTIONS", {})["options"] = f"-c statement_timeout={milliseconds}"


def database_answers():
    try:
        connection.close()
        connection.ensure_connection()
    except DatabaseError:
        return False
    return True


def wait_for_database(error, sleep=time.sleep):
    """One line when the database went away, the pauses until it answers, one line when it is back."""
    logger.warning("The database is unreachable (%s): waiting for it.", str(error).strip().splitlines()[0][:200])
    began, tries = time.monotonic(), 0
    while not database_answers():
        sleep(OUTAGE_PAUSES[min(tries, len(OUTAGE_PAUSES) - 1)])
        tries += 1
    logger.warning("The database is back after %.1f s: the worker carries on.", time.monotonic() - began)


class Command(BaseCommand):
    help = "Run the queued tasks (snapshots, a round's PDFs, the results-site zip, restores) until stopped."

    def add_arguments(self, parser):
        parser.add_argument("--batch", action="store_true", help="Run what is queued, then stop.")

    def handle(self, *args, batch=False, verbosity=1, **options):
        use_worker_statement_timeout()
        me, looking = [new_worker_id()], None
        while True:
            try:
                requeue_abandoned(me[0])
                mail_and_entries_round()
                if not batch and looking is None:
                    looking = threading.Thread(target=keep_requeueing, args=(me,), daemon=True, name="requeue")
                    looking.start()
                self.work(me[0], batch, verbosity)
                return
            except (OperationalError, InterfaceError) as error:  # at the start too: a database not up yet
                if batch:
                    raise
                wait_for_database(error)
                # A new id: the task the old one was running counts as abandoned and goes back in the queue.
                me[0] = new_worker_id()

    def work(self, me, batch, verbosity):
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
