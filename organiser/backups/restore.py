"""Restoring a backup: reading the file (size and decompression bounded), its preview, staging it
between the preview and the confirmation, and the restore itself.

Restoring over a tournament of the same slug replaces it whole, in one transaction: a snapshot of
the tournament as it was is written first (trigger ``before-restore``), then the file is imported
and the old tournament deleted; its staff grants and tablet links move to the restored one.
A file that fails any check changes nothing.
"""

from __future__ import annotations

import datetime
import gzip
import secrets
import zlib
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import transaction

from accounts.models import DeviceLink, TournamentRole
from organiser.backups.snapshots import snapshot_after_commit, take_snapshot
from organiser.interchange import InterchangeError, decode, import_tournament, parse
from tournament.audit import log_change
from tournament.models import Tournament
from tournament.refusals import Refused
from tournament.selectors import tournament_with_slug

MAX_UPLOAD = 20 * 1024 * 1024  # bytes of an uploaded file, compressed or not
MAX_JSON = 50 * 1024 * 1024  # bytes of JSON a compressed file may unpack to
GZIP_MAGIC = b"\x1f\x8b"
STAGED_FOR = datetime.timedelta(hours=6)
TOKEN_LENGTH = 32


@dataclass
class Preview:
    """What a valid backup holds, shown before the organiser confirms the restore."""

    name: str
    slug: str
    date: datetime.date
    players: int
    rounds: int
    sheets: int
    verified: int
    cards: int
    audit: int
    replaces: Tournament | None


def too_large() -> Refused:
    """The refusal of a file over MAX_UPLOAD."""
    return Refused("backup_too_large", size=MAX_UPLOAD // 2**20)


def json_text(raw, *, max_size=MAX_UPLOAD):
    """The JSON text of a file's bytes: plain, or gzip-compressed and at most MAX_JSON unpacked.
    `max_size` bounds the file itself (None: any size). Refused when it is none of these."""
    if max_size is not None and len(raw) > max_size:
        raise too_large()
    if raw.startswith(GZIP_MAGIC):
        unpacker = zlib.decompressobj(wbits=31)
        try:
            raw = unpacker.decompress(raw, MAX_JSON + 1)
        except zlib.error:
            raw = None
        if raw is not None and len(raw) > MAX_JSON:
            raise Refused("backup_unpacks_too_large", size=MAX_JSON // 2**20)
        if raw is None or not unpacker.eof:
            raise Refused("backup_damaged")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Refused("backup_not_text") from None


def checked(text):
    """(decoded data, parsed plan) of a backup's text; the refusal names the JSON path of a problem."""
    try:
        data = decode(text)
        return data, parse(data)
    except InterchangeError as error:
        raise Refused("backup_invalid", problem=str(error)) from None


def preview(plan):
    tables = [t for r in plan["rounds"] for t in r["tables"]]
    tournament = plan["tournament"]
    return Preview(
        name=tournament["name"], slug=tournament["slug"], date=tournament["date"],
        players=len(plan["players"]), rounds=len(plan["rounds"]),
        sheets=sum(1 for t in tables if t["games"]), verified=sum(1 for t in tables if t["state"] == "verified"),
        cards=len(plan["cards"]), audit=len(plan["audit"]),
        replaces=tournament_with_slug(tournament["slug"]),
    )


def staging_folder():
    return Path(settings.BACKUP_DIR) / ".staged"


def stage(text):
    """Keep a checked backup's text until the organiser confirms; returns its token."""
    folder = staging_folder()
    folder.mkdir(parents=True, exist_ok=True)
    limit = datetime.datetime.now().timestamp() - STAGED_FOR.total_seconds()
    for old in folder.glob("*.json"):
        if old.stat().st_mtime < limit:
            old.unlink(missing_ok=True)
    token = secrets.token_hex(TOKEN_LENGTH // 2)
    (folder / f"{token}.json").write_text(text, encoding="utf-8")
    return token


def staged_path(token):
    if not (isinstance(token, str) and len(token) == TOKEN_LENGTH and all(c in "0123456789abcdef" for c in token)):
        return None
    path = staging_folder() / f"{token}.json"
    return path if path.is_file() else None


def staged_text(token):
    path = staged_path(token)
    if path is None:
        raise Refused("upload_expired")
    return path.read_text(encoding="utf-8")


def discard_staged(token):
    path = staged_path(token)
    if path is not None:
        path.unlink(missing_ok=True)


def restore(text, *, user, replace=None):
    """Restore a backup's text. A tournament of the same slug must be named as `replace` (the one
    the organiser confirmed); it is replaced whole. Returns the restored Tournament."""
    data, plan = checked(text)
    slug = plan["tournament"]["slug"]
    existing = tournament_with_slug(slug)
    if (existing and existing.pk) != (replace and replace.pk):
        raise Refused("backup_changed", slug=slug)
    if existing is not None and take_snapshot(existing, "before-restore") is None:
        raise Refused("backup_not_saved_first")
    with transaction.atomic():
        if existing is not None:
            Tournament.objects.filter(pk=existing.pk).update(slug=f"{slug[:40]}-replaced-{secrets.token_hex(4)}")
        try:
            tournament = import_tournament(data)
        except InterchangeError as error:
            raise Refused("backup_invalid", problem=str(error)) from None
        if existing is not None:
            TournamentRole.objects.filter(tournament=existing).update(tournament=tournament)
            DeviceLink.objects.filter(tournament=existing).update(tournament=tournament)
            existing.delete()
        log_change(tournament, user, "restore", after={"replaced": existing is not None})
    snapshot_after_commit(tournament.pk, "restore")  # after a submission's transaction too
    return tournament
