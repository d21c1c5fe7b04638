"""Automatic snapshots: after every verified (or corrected) sheet and every completed round.

The change that asks for a snapshot queues the task `write_snapshot` in its own transaction (a
row of the task queue, `DBTaskResult`): it commits or rolls back with the change, and the worker
(`manage.py run_tasks`) writes the snapshot after the response. A tournament already waiting for
its snapshot (a queued task not started yet) is not queued again: the snapshot taken then holds
every change so far. Two changes at once may both queue one; the second snapshot is a harmless
twin. `settings.BACKUP_SNAPSHOTS` is `on` (the default) or `off` (the default in tests).
A failing snapshot (a full disk) is logged and shown on the backups page, never raised.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction
from django_tasks import task
from django_tasks_db.models import DBTaskResult

from organiser.backups import files
from organiser.interchange import dumps, export_tournament
from tournament.selectors import tournament_with_pk

logger = logging.getLogger(__name__)


def take_snapshot(tournament, trigger, text=None):
    """Write a snapshot of `tournament` now (`text`: its backup, if made already); returns its row,
    or None when it failed (logged)."""
    try:
        return files.save_snapshot(tournament, text or dumps(export_tournament(tournament)), trigger)
    except Exception as error:  # a snapshot must never break what triggered it
        logger.exception("snapshot of %s (%s) failed", tournament.slug, trigger)
        files.record_failure(tournament, trigger, error)
        return None


@task()
def write_snapshot(tournament_id, trigger):
    """The task: a snapshot of the tournament as it is now. Run twice (a worker died after writing
    it), the second run finds the same content under the same trigger newest and writes nothing."""
    tournament = tournament_with_pk(tournament_id)
    if tournament is None:  # deleted meanwhile
        return
    try:
        text = dumps(export_tournament(tournament))
    except Exception:
        text = None  # take_snapshot tries again, and records the failure
    last = files.newest(tournament)
    if text and last is not None and last.trigger == trigger and last.digest == files.digest_of(text):
        return
    take_snapshot(tournament, trigger, text)


def snapshot_waiting(tournament_id):
    """Whether a snapshot task of this tournament is queued and not started yet."""
    return (
        DBTaskResult.objects.ready()
        .filter(task_path=write_snapshot.module_path, args_kwargs__args__0=tournament_id)
        .exists()
    )


def queue_snapshot(tournament_id, trigger):
    """Queue a snapshot of the tournament in the current transaction (see the module's docstring)."""
    if getattr(settings, "BACKUP_SNAPSHOTS", "on") == "off":
        return
    with transaction.atomic():
        if not snapshot_waiting(tournament_id):
            write_snapshot.enqueue(tournament_id, trigger)


def on_sheet_verified(sender, tournament_id, trigger, **kwargs):
    """Receiver of `scoring.signals.sheet_verified` (connected in OrganiserConfig.ready), sent in
    the transaction that verified the sheet."""
    queue_snapshot(tournament_id, trigger)


def on_tournament_deleted(sender, instance, **kwargs):
    """Receiver of the Tournament's `post_delete` (connected in OrganiserConfig.ready): in the
    deletion's transaction its snapshots are set aside, out of every page's sight; on a laptop
    its folder moves once the deletion commits (`files.set_aside`)."""
    uid, slug, name = instance.uid, instance.slug, instance.name
    files.set_aside_rows(uid)

    def set_aside_folder():
        try:
            files.set_aside(uid, slug=slug, name=name)
        except OSError:
            logger.exception("the snapshots of the deleted tournament %s (%s) could not be set aside", slug, uid)

    transaction.on_commit(set_aside_folder)
