"""A tournament's automatic snapshots: rows of `organiser.models.Snapshot`, and on a laptop a copy of
each as a file, `BACKUP_DIR/tournaments/<uid>/<UTC time>_<trigger>.json.gz`.

The rows are what every page lists, downloads and restores: every app server reaches them. A
laptop (not `settings.HOSTED`) also writes each snapshot as a file outside the database file, a
copy that survives a broken database; the organiser restores one by uploading it (or with
`manage.py import_tournament`). A hosted service keeps nothing on an app server's disk.

Snapshots belong to a tournament, not to its address: rows and folder carry the tournament's own
identity (`Tournament.uid`, made once and never reused), so a tournament created later under the
same address never sees them. A restore that replaces a tournament hands its identity on to the
restored one, which keeps the snapshots (the one written just before the restore too). When a
tournament is deleted its rows are set aside (kept, listed by no page) and its folder moves to
`BACKUP_DIR/deleted/` (`set_aside`): only whoever runs the server sees them.

The newest KEEP snapshots are kept, rows and files alike. A file is written to a hidden temporary
file in the same folder, flushed to disk and then renamed over its final name (`os.replace`), so
a crash leaves either the whole file or none. A failure is remembered (`SnapshotFailure`) until
the next snapshot succeeds. `tournament.json` names the tournament (address and name) for whoever
looks at the folders.

Snapshot files of an earlier layout, `BACKUP_DIR/<slug>/`, move into the new one the first time a
file is written for the tournament with that address (`adopt_legacy`): those taken since that
tournament was created are its own; older ones belonged to an earlier tournament at that address
(or to this one before a restore re-created it) and are set aside under `deleted/` like a
deleted tournament's.
"""

from __future__ import annotations

import datetime
import gzip
import hashlib
import json
import os
import re
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone

from organiser.models import Snapshot, SnapshotFailure

KEEP = 50
SUFFIX = ".json.gz"
NAME_RE = re.compile(r"^(\d{8}-\d{6}-\d{6})_([a-z0-9-]{1,40})\.json\.gz$")
FAILURE = ".last-failure.json"  # of the earlier releases, moved with the earlier layout
ABOUT = "tournament.json"
STALE_TEMPORARY = datetime.timedelta(hours=1)
TOURNAMENTS = "tournaments"
DELETED = "deleted"


@dataclass
class SnapshotFile:
    name: str
    taken_at: datetime.datetime
    trigger: str
    size: int


def taken_at(name):
    """The UTC time in a snapshot's name, or None for another file."""
    match = NAME_RE.match(name)
    if match is None:
        return None
    return datetime.datetime.strptime(match.group(1), "%Y%m%d-%H%M%S-%f").replace(tzinfo=datetime.UTC)


def folder(tournament):
    """The tournament's snapshot folder (snapshots of the earlier layout moved into it first)."""
    adopt_legacy(tournament)
    return Path(settings.BACKUP_DIR) / TOURNAMENTS / str(tournament.uid)


def snapshot_name(trigger, now=None):
    now = now or datetime.datetime.now(datetime.UTC)
    return f"{now:%Y%m%d-%H%M%S-%f}_{re.sub(r'[^a-z0-9-]', '-', trigger.lower())[:40]}{SUFFIX}"


def write_atomically(path, data):
    """Write `data` (bytes) to `path` so that no reader ever sees a part of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.tmp")
    try:
        with open(temporary, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)  # the rename itself survives a power cut
    finally:
        os.close(directory)


def about(tournament):
    return json.dumps({"slug": tournament.slug, "name": tournament.name}, ensure_ascii=False).encode("utf-8")


def hosted():
    return getattr(settings, "HOSTED", False)


def compressed(text):
    """A snapshot's bytes: the JSON text gzip-compressed, the same bytes for the same text."""
    return gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0)


def digest_of(text):
    return hashlib.sha256(compressed(text)).hexdigest()


def save_snapshot(tournament, text, trigger):
    """Store a snapshot of `text` (the JSON backup) as a row, keep the newest KEEP, forget the last
    failure; on a laptop write its file copy too. Returns the row (`Snapshot`)."""
    content = compressed(text)
    now = datetime.datetime.now(datetime.UTC)
    with transaction.atomic():  # a savepoint inside the caller's transaction
        row = Snapshot.objects.create(
            tournament_uid=tournament.uid,
            slug=tournament.slug,
            tournament_name=tournament.name,
            host_id=tournament.host_id,
            taken_at=now,
            trigger=trigger[:40],
            name=snapshot_name(trigger, now),
            content=content,
            size=len(content),
            digest=hashlib.sha256(content).hexdigest(),
        )
        old = stored(tournament.uid).values_list("pk", flat=True)[KEEP:]
        Snapshot.objects.filter(pk__in=list(old)).delete()
        SnapshotFailure.objects.filter(tournament_uid=tournament.uid).delete()
    if not hosted():
        save_file_copy(tournament, row.name, content)
    return row


def save_file_copy(tournament, name, content):
    """A laptop's copy of a snapshot in `BACKUP_DIR/tournaments/<uid>/`, outside the database file,
    pruned like the rows."""
    where = folder(tournament)
    write_atomically(where / name, content)
    label = about(tournament)
    try:
        if (where / ABOUT).read_bytes() != label:
            write_atomically(where / ABOUT, label)
    except FileNotFoundError:
        write_atomically(where / ABOUT, label)
    prune(tournament)


def stored(uid):
    """The snapshot rows of a tournament's identity still in sight, newest first."""
    return Snapshot.objects.filter(tournament_uid=uid, set_aside_at__isnull=True).order_by("-taken_at", "-pk")


def newest(tournament):
    """The newest snapshot (without its content), or None."""
    return stored(tournament.uid).defer("content").first()


def listed(where):
    """The snapshots in a folder, newest first (temporary and foreign files are not listed)."""
    found = []
    try:
        entries = list(os.scandir(where))
    except FileNotFoundError:
        return []
    for entry in entries:
        when = taken_at(entry.name)
        if when is None:
            continue
        try:
            size = entry.stat().st_size
        except FileNotFoundError:  # pruned by another process meanwhile
            continue
        found.append(SnapshotFile(entry.name, when, NAME_RE.match(entry.name).group(2), size))
    return sorted(found, key=lambda s: s.name, reverse=True)


def snapshots(tournament):
    """The tournament's snapshots (rows without their content), newest first."""
    return list(stored(tournament.uid).defer("content"))


def snapshot_named(tournament, name):
    """The snapshot `name` of this tournament (a row), or None when there is no such snapshot."""
    if not NAME_RE.match(name or ""):
        return None
    return stored(tournament.uid).filter(name=name).first()


def prune(tournament):
    """Delete all but the newest KEEP snapshots, and temporary files a crash left behind."""
    where = folder(tournament)
    for old in listed(where)[KEEP:]:
        (where / old.name).unlink(missing_ok=True)
    limit = datetime.datetime.now().timestamp() - STALE_TEMPORARY.total_seconds()
    for leftover in where.glob(".*.tmp"):
        try:
            if leftover.stat().st_mtime < limit:
                leftover.unlink()
        except FileNotFoundError:
            pass


def record_failure(tournament, trigger, error):
    """Remember a failed snapshot for the backups page (best effort: the database may be what failed)."""
    try:
        with transaction.atomic():
            SnapshotFailure.objects.update_or_create(
                tournament_uid=tournament.uid,
                defaults={"failed_at": timezone.now(), "trigger": trigger[:40], "error": str(error)},
            )
    except DatabaseError:
        pass


def last_failure(tournament):
    """The last failed snapshot not followed by a good one: {"when", "trigger", "error"} or None."""
    failure = SnapshotFailure.objects.filter(tournament_uid=tournament.uid).first()
    if failure is None:
        return None
    return {"when": failure.failed_at, "trigger": failure.trigger, "error": failure.error}


def set_aside_rows(uid):
    """Hide a deleted tournament's snapshot rows from every page (they are kept, marked)."""
    Snapshot.objects.filter(tournament_uid=uid, set_aside_at__isnull=True).update(set_aside_at=timezone.now())
    SnapshotFailure.objects.filter(tournament_uid=uid).delete()


def set_aside(uid, *, slug, name):
    """Move a deleted tournament's snapshot files to `BACKUP_DIR/deleted/<time>_<slug>_<uid>/`, out
    of every page's sight. Returns the new folder, or None when there were none."""
    source = Path(settings.BACKUP_DIR) / TOURNAMENTS / str(uid)
    if not source.is_dir():
        return None
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M%S")
    target = Path(settings.BACKUP_DIR) / DELETED / f"{stamp}_{slug}_{uid}"
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(source, target)
    (target / ABOUT).write_text(
        json.dumps({"slug": slug, "name": name, "deleted": stamp}, ensure_ascii=False), encoding="utf-8"
    )
    return target


def adopt_legacy(tournament):
    """Move the snapshots of the earlier layout (`BACKUP_DIR/<slug>/`) into the tournament's own
    folder: those taken since it was created; the older ones go to `deleted/` (see the module's
    docstring). Does nothing when there is no such folder, so it costs one `stat` a call."""
    root = Path(settings.BACKUP_DIR)
    legacy = root / tournament.slug
    if not legacy.is_dir():
        return
    created = tournament.created_at
    own = root / TOURNAMENTS / str(tournament.uid)
    older = root / DELETED / f"earlier-layout_{tournament.slug}"
    for entry in sorted(os.scandir(legacy), key=lambda e: e.name):
        if not entry.is_file(follow_symlinks=False):
            continue
        when = taken_at(entry.name)
        if when is None and entry.name != FAILURE:
            continue
        target = own if when is not None and created is not None and when >= created else older
        target.mkdir(parents=True, exist_ok=True)
        try:
            os.replace(entry.path, target / entry.name)
        except FileNotFoundError:  # moved by another request meanwhile
            pass
    leftovers = [e.name for e in os.scandir(legacy)]
    if all(name.endswith(".tmp") for name in leftovers):
        shutil.rmtree(legacy, ignore_errors=True)
