"""Automatic snapshots: after every verified (or corrected) sheet and every completed round.

The request that verifies a sheet only queues the snapshot (after its transaction commits); one
background thread per process writes it after the response (START_DELAY later).
`settings.BACKUP_SNAPSHOTS` is `background` (the default), `inline` (written at once, for
tests) or `off`. A tournament already
waiting for its snapshot is not queued twice: the snapshot taken then holds every change so far.
A failing snapshot (a full disk) is logged and shown on the backups page, never raised.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections, connection, transaction

from organiser.backups import files
from organiser.interchange import dumps, export_tournament
from tournament.selectors import tournament_with_pk

logger = logging.getLogger(__name__)
_lock = threading.Lock()
_waiting: set[int] = set()  # tournament ids queued and not started yet
_executor = None
START_DELAY = 0.3  # seconds: the response goes out first, and verifications meanwhile share the snapshot


def take_snapshot(tournament, trigger):
    """Write a snapshot of `tournament` now; returns its path, or None when it failed (logged)."""
    try:
        return files.save_snapshot(tournament, dumps(export_tournament(tournament)), trigger)
    except Exception as error:  # a snapshot must never break what triggered it
        logger.exception("snapshot of %s (%s) failed", tournament.slug, trigger)
        files.record_failure(tournament, trigger, error)
        return None


def _run(tournament_id, trigger):
    time.sleep(START_DELAY)
    with _lock:
        _waiting.discard(tournament_id)
    try:
        close_old_connections()
        tournament = tournament_with_pk(tournament_id)
        if tournament is not None:
            take_snapshot(tournament, trigger)
    except Exception:
        logger.exception("snapshot of tournament %s (%s) failed", tournament_id, trigger)
    finally:
        connection.close()  # this thread's own connection


def schedule_snapshot(tournament_id, trigger):
    """Queue a snapshot of the tournament (see the module's docstring); returns at once."""
    global _executor
    mode = getattr(settings, "BACKUP_SNAPSHOTS", "background")
    if mode == "off":
        return
    if mode == "inline":
        tournament = tournament_with_pk(tournament_id)
        if tournament is not None:
            take_snapshot(tournament, trigger)
        return
    with _lock:
        if tournament_id in _waiting:
            return
        _waiting.add(tournament_id)
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="snapshot")
        _executor.submit(_run, tournament_id, trigger)


def wait_for_snapshots():
    """Block until every queued snapshot of this process is written (benchmarks, shutdown)."""
    with _lock:
        executor = _executor
    if executor is not None:
        executor.submit(lambda: None).result()


def snapshot_after_commit(tournament_id, trigger):
    """Queue a snapshot once the current transaction commits (at once outside a transaction)."""
    transaction.on_commit(lambda: schedule_snapshot(tournament_id, trigger))


def on_sheet_verified(sender, tournament_id, trigger, **kwargs):
    """Receiver of `scoring.signals.sheet_verified` (connected in OrganiserConfig.ready)."""
    schedule_snapshot(tournament_id, trigger)


def on_tournament_deleted(sender, instance, **kwargs):
    """Receiver of the Tournament's `post_delete` (connected in OrganiserConfig.ready): once the
    deletion commits, its snapshots move out of every page's sight (`files.set_aside`)."""
    uid, slug, name = instance.uid, instance.slug, instance.name

    def set_aside():
        try:
            files.set_aside(uid, slug=slug, name=name)
        except OSError:
            logger.exception("the snapshots of the deleted tournament %s (%s) could not be set aside", slug, uid)

    transaction.on_commit(set_aside)
