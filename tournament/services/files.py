"""Files made by a task (`ProducedFile`): asked for, queued, made with progress, kept, pruned.

`ask_for_file` answers a download: the finished file made for the same request (the same content
key) when there is one, else the one queued or being made, else a new row queued as a task in the
same transaction. Two requests at once make one row: the second one's insert meets the
constraint on unfinished files and takes the first one's. `produce_file` is what each task runs:
idempotent (a task run again after a worker died does it all again), and a failure is recorded
on the row and logged, never lost.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from tournament import selectors
from tournament.models import ProducedFile, Tournament

log = logging.getLogger(__name__)

KEEP_FINISHED = 3  # finished files kept per tournament and kind: caches, the newest few
# A file queued or being made that showed no sign of life for this long lost its worker: it is
# shown as failed (with "try again"), and the next request for it makes it anew.
STALE_AFTER = datetime.timedelta(minutes=10)
Progress = Callable[[int, int], None]  # (steps done, steps in all: tables, pages)


@dataclass(frozen=True)
class FileRequest:
    """What a download asks for: `arguments` are what the task needs (JSON), `version` the data's."""

    kind: str
    file_name: str
    content_type: str
    source_path: str
    version: int | None
    arguments: dict[str, Any] = field(default_factory=dict)

    def content_key(self) -> str:
        asked = json.dumps([self.kind, self.arguments, self.version], sort_keys=True)
        return hashlib.sha256(asked.encode()).hexdigest()


def is_stale(produced: ProducedFile, now: datetime.datetime | None = None) -> bool:
    return produced.status in ProducedFile.UNFINISHED and produced.updated_at < (now or timezone.now()) - STALE_AFTER


def ask_for_file(tournament: Tournament, request: FileRequest, task: Any) -> ProducedFile:
    """The file for `request`: finished (with its bytes), queued or being made, or queued now as
    `task(file id)` in the transaction that makes its row."""
    key = request.content_key()
    finished = selectors.finished_file(tournament, key)
    if finished is not None:
        return finished
    unfinished = selectors.unfinished_file(tournament, key)
    if unfinished is not None and not is_stale(unfinished):
        return unfinished
    if unfinished is not None:
        _fail(unfinished.pk, "The worker stopped before the file was ready.", ProducedFile.UNFINISHED)
    try:
        with transaction.atomic():
            produced = ProducedFile.objects.create(
                tournament=tournament,
                kind=request.kind,
                content_key=key,
                arguments=request.arguments,
                source_path=request.source_path,
                file_name=request.file_name,
                content_type=request.content_type,
            )
            task.enqueue(produced.pk)
    except IntegrityError:  # asked at the same moment by another request: that one's row
        return selectors.unfinished_file(tournament, key) or ask_for_file(tournament, request, task)
    return produced


def produce_file(pk: int, make: Callable[[ProducedFile, Progress], bytes]) -> None:
    """Make file `pk` with `make(file, progress)` (which calls `progress(done, total)` as it goes) and
    keep its bytes. A file finished or given up already is left as it is."""
    started = ProducedFile.objects.filter(pk=pk, status__in=ProducedFile.UNFINISHED).update(
        status=ProducedFile.Status.RUNNING, done=0, error="", updated_at=timezone.now()
    )
    produced = selectors.produced_file_by_pk(pk)
    if not started or produced is None:
        return
    try:
        content = make(produced, lambda done, total: _report(produced, done, total))
    except Exception as error:
        log.exception("Making %s (file %s of tournament %s) failed", produced.file_name, pk, produced.tournament_id)
        _fail(pk, f"{type(error).__name__}: {error}", [ProducedFile.Status.RUNNING])
        raise
    _finish(produced, content)


def _report(produced: ProducedFile, done: int, total: int) -> None:
    done = min(done, total)
    if (done, total) != (produced.done, produced.total):
        produced.done, produced.total = done, total
        ProducedFile.objects.filter(pk=produced.pk, status=ProducedFile.Status.RUNNING).update(
            done=done, total=total, updated_at=timezone.now()
        )


def _finish(produced: ProducedFile, content: bytes) -> None:
    with transaction.atomic():
        now = timezone.now()
        ProducedFile.objects.filter(pk=produced.pk, status=ProducedFile.Status.RUNNING).update(
            status=ProducedFile.Status.DONE, content=content, done=F("total"), finished_at=now, updated_at=now
        )
        older = selectors.older_finished_files(produced.tournament_id, produced.kind, KEEP_FINISHED)
        ProducedFile.objects.filter(pk__in=older).delete()


def _fail(pk: int, error: str, statuses: Any) -> None:
    now = timezone.now()
    ProducedFile.objects.filter(pk=pk, status__in=statuses).update(
        status=ProducedFile.Status.FAILED, error=error[:2000], finished_at=now, updated_at=now
    )
