"""A tournament's snapshot files: `BACKUP_DIR/<slug>/<UTC time>_<trigger>.json.gz`.

A snapshot is written to a hidden temporary file in the same folder, flushed to disk and then
renamed over its final name (`os.replace`), so a crash leaves either the whole file or none.
The newest KEEP files are kept. A failure is remembered in `.last-failure.json` (when the disk
still takes that much) until the next snapshot succeeds.
"""

from __future__ import annotations

import datetime
import gzip
import json
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

KEEP = 50
SUFFIX = ".json.gz"
NAME_RE = re.compile(r"^(\d{8}-\d{6}-\d{6})_([a-z0-9-]{1,40})\.json\.gz$")
FAILURE = ".last-failure.json"
STALE_TEMPORARY = datetime.timedelta(hours=1)


@dataclass
class Snapshot:
    name: str
    taken_at: datetime.datetime
    trigger: str
    size: int


def folder(slug):
    return Path(settings.BACKUP_DIR) / slug


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


def save_snapshot(slug, text, trigger):
    """Write a snapshot of `text` (the JSON backup), prune to the newest KEEP; returns its path."""
    path = folder(slug) / snapshot_name(trigger)
    write_atomically(path, gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0))
    prune(slug)
    (folder(slug) / FAILURE).unlink(missing_ok=True)
    return path


def snapshots(slug):
    """The tournament's snapshots, newest first (temporary and foreign files are not listed)."""
    found = []
    try:
        entries = list(os.scandir(folder(slug)))
    except FileNotFoundError:
        return []
    for entry in entries:
        match = NAME_RE.match(entry.name)
        if match is None:
            continue
        try:
            size = entry.stat().st_size
        except FileNotFoundError:  # pruned by another process meanwhile
            continue
        taken_at = datetime.datetime.strptime(match.group(1), "%Y%m%d-%H%M%S-%f").replace(tzinfo=datetime.UTC)
        found.append(Snapshot(entry.name, taken_at, match.group(2), size))
    return sorted(found, key=lambda s: s.name, reverse=True)


def snapshot_path(slug, name):
    """The path of the snapshot `name` of this tournament, or None when there is no such snapshot."""
    if not NAME_RE.match(name or ""):
        return None
    path = folder(slug) / name
    return path if path.is_file() else None


def prune(slug):
    """Delete all but the newest KEEP snapshots, and temporary files a crash left behind."""
    for old in snapshots(slug)[KEEP:]:
        (folder(slug) / old.name).unlink(missing_ok=True)
    limit = datetime.datetime.now().timestamp() - STALE_TEMPORARY.total_seconds()
    for leftover in folder(slug).glob(".*.tmp"):
        try:
            if leftover.stat().st_mtime < limit:
                leftover.unlink()
        except FileNotFoundError:
            pass


def record_failure(slug, trigger, error):
    """Remember a failed snapshot for the backups page (best effort: the disk may be full)."""
    text = json.dumps({"when": datetime.datetime.now(datetime.UTC).isoformat(), "trigger": trigger, "error": str(error)})
    try:
        write_atomically(folder(slug) / FAILURE, text.encode("utf-8"))
    except OSError:
        pass


def last_failure(slug):
    """The last failed snapshot not followed by a good one: {"when", "trigger", "error"} or None."""
    try:
        data = json.loads((folder(slug) / FAILURE).read_text(encoding="utf-8"))
        data["when"] = datetime.datetime.fromisoformat(data["when"])
        return data
    except (OSError, ValueError, KeyError, TypeError):
        return None
