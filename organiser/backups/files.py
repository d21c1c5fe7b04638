"""A tournament's snapshot files: `BACKUP_DIR/tournaments/<uid>/<UTC time>_<trigger>.json.gz`.

Snapshots belong to a tournament, not to its address: the folder is named by the tournament's
own identity (`Tournament.uid`, made once and never reused), so a tournament created later under
the same address never sees them. A restore that replaces a tournament hands its identity on to
the restored one, which keeps the snapshots (the one written just before the restore too). When
a tournament is deleted its folder moves to `BACKUP_DIR/deleted/` (`set_aside`), which no page
lists: only whoever runs the server sees it.

A snapshot is written to a hidden temporary file in the same folder, flushed to disk and then
renamed over its final name (`os.replace`), so a crash leaves either the whole file or none.
The newest KEEP files are kept. A failure is remembered in `.last-failure.json` (when the disk
still takes that much) until the next snapshot succeeds. `tournament.json` names the tournament
(address and name) for whoever looks at the folders.

Snapshots of the earlier layout, `BACKUP_DIR/<slug>/`, move into the new one the first time the
tournament with that address asks for its snapshots (`adopt_legacy`): those taken since that
tournament was created are its own; older ones belonged to an earlier tournament at that address
(or to this one before a restore re-created it) and are set aside under `deleted/` like a
deleted tournament's.
"""

from __future__ import annotations

import datetime
import gzip
import json
import os
import re
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

KEEP = 50
SUFFIX = ".json.gz"
NAME_RE = re.compile(r"^(\d{8}-\d{6}-\d{6})_([a-z0-9-]{1,40})\.json\.gz$")
FAILURE = ".last-failure.json"
ABOUT = "tournament.json"
STALE_TEMPORARY = datetime.timedelta(hours=1)
TOURNAMENTS = "tournaments"
DELETED = "deleted"


@dataclass
class Snapshot:
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


def save_snapshot(tournament, text, trigger):
    """Write a snapshot of `text` (the JSON backup), prune to the newest KEEP; returns its path."""
    where = folder(tournament)
    path = where / snapshot_name(trigger)
    write_atomically(path, gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0))
    label = about(tournament)
    try:
        if (where / ABOUT).read_bytes() != label:
            write_atomically(where / ABOUT, label)
    except FileNotFoundError:
        write_atomically(where / ABOUT, label)
    prune(tournament)
    (where / FAILURE).unlink(missing_ok=True)
    return path


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
        found.append(Snapshot(entry.name, when, NAME_RE.match(entry.name).group(2), size))
    return sorted(found, key=lambda s: s.name, reverse=True)


def snapshots(tournament):
    """The tournament's snapshots, newest first."""
    return listed(folder(tournament))


def snapshot_path(tournament, name):
    """The path of the snapshot `name` of this tournament, or None when there is no such snapshot."""
    if not NAME_RE.match(name or ""):
        return None
    path = folder(tournament) / name
    return path if path.is_file() else None


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
    """Remember a failed snapshot for the backups page (best effort: the disk may be full)."""
    text = json.dumps(
        {"when": datetime.datetime.now(datetime.UTC).isoformat(), "trigger": trigger, "error": str(error)}
    )
    try:
        write_atomically(folder(tournament) / FAILURE, text.encode("utf-8"))
    except OSError:
        pass


def last_failure(tournament):
    """The last failed snapshot not followed by a good one: {"when", "trigger", "error"} or None."""
    try:
        data = json.loads((folder(tournament) / FAILURE).read_text(encoding="utf-8"))
        data["when"] = datetime.datetime.fromisoformat(data["when"])
        return data
    except (OSError, ValueError, KeyError, TypeError):
        return None


def set_aside(uid, *, slug, name):
    """Move a deleted tournament's snapshots to `BACKUP_DIR/deleted/<time>_<slug>_<uid>/`, out of
    every page's sight. Returns the new folder, or None when there were none."""
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
