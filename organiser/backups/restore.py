"""Restoring a backup: reading the file (size and decompression bounded), its preview, staging it
between the preview and the confirmation, and the restore itself.

Restoring over a tournament of the same slug that the restorer organises replaces it whole, in one transaction: a snapshot of
the tournament as it was is written first (trigger ``before-restore``), then the file is imported
and the old tournament deleted; its staff grants, tablet links, venue address and identity
(`uid`, so its snapshots) move to the restored one: they belong to this server, not to the
file. A restore only ever writes into the restorer's host organisation: a tournament of the same
slug they do not organise (another organisation's) is neither named nor touched, and the backup
becomes a new tournament at a free address (`preview`). A file that fails any check changes nothing.

A checked upload waits in `BACKUP_DIR/.staged/` for the confirmation: one per user and tournament
(a new upload replaces the user's previous one for that tournament, or for a new tournament), for
STAGED_FOR at most, MAX_STAGED bytes in all (the oldest go first when a new one needs the room),
and never after it has been restored. A confirmation takes the staged file for itself
(`claimed`), so of five confirmations of one upload at once, one restores and writes the
"before-restore" snapshot; the others find the upload gone. Restores of one tournament from
different uploads wait for each other (the tournament's row is locked), and all but the first
are refused because the tournament changed.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import re
import secrets
import threading
import time
import uuid
import zlib
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, transaction

from accounts.models import DeviceLink, Role, TournamentRole, TournamentVenue
from accounts.roles import has_role
from organiser.backups.files import write_atomically
from organiser.backups.snapshots import snapshot_after_commit, take_snapshot
from organiser.interchange import InterchangeError, decode, import_tournament, parse
from tournament.audit import log_change
from tournament.models import Tournament
from tournament.refusals import Refused
from tournament.selectors import free_slug, locked_tournament_with_slug, tournament_with_slug

MAX_UPLOAD = 20 * 1024 * 1024  # bytes of an uploaded file, compressed or not
MAX_JSON = 50 * 1024 * 1024  # bytes of JSON a compressed file may unpack to
GZIP_MAGIC = b"\x1f\x8b"
STAGED_FOR = datetime.timedelta(hours=1)
MAX_STAGED = 4 * MAX_JSON  # bytes of all staged backups together
TOKEN_LENGTH = 32
RETRY_AFTER = {"backup_not_saved_first"}  # refusals after which the staged upload is kept
NEW = "new"  # the staging scope of a backup of a tournament that does not exist here
STAGED_RE = re.compile(r"^(\d+)_([0-9a-f-]{36}|new)_([0-9a-f]{32})\.json$")


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
    file_slug: str  # the address in the file; `slug` is where it is restored

    @property
    def moved(self) -> bool:
        """Whether the file's address is taken by a tournament the restorer does not organise, so
        the backup becomes a new tournament at a free address."""
        return self.slug != self.file_slug


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


def preview(plan, *, user):
    """What restoring the plan would do for `user`. A tournament with the file's address is
    replaced only when `user` organises it; any other one (another organisation's) is neither
    named nor touched: the backup becomes a new tournament at a free address."""
    tables = [t for r in plan["rounds"] for t in r["tables"]]
    tournament = plan["tournament"]
    existing = tournament_with_slug(tournament["slug"])
    replaces = existing if existing is not None and has_role(user, existing, Role.ORGANISER) else None
    slug = tournament["slug"] if existing is None or replaces is not None else free_slug(tournament["slug"])
    return Preview(
        name=tournament["name"],
        slug=slug,
        date=tournament["date"],
        players=len(plan["players"]),
        rounds=len(plan["rounds"]),
        sheets=sum(1 for t in tables if t["games"]),
        verified=sum(1 for t in tables if t["state"] == "verified"),
        cards=len(plan["cards"]),
        audit=len(plan["audit"]),
        replaces=replaces,
        file_slug=tournament["slug"],
    )


def staging_folder():
    return Path(settings.BACKUP_DIR) / ".staged"


def scope_of(tournament):
    """What a staged backup is for: the tournament it would replace, or a new one."""
    return NEW if tournament is None else str(tournament.uid)


def _staged():
    """(path, user id, scope, modified, size) of every staged backup, oldest first; leftovers of
    a crash (temporary or claimed files) older than STAGED_FOR are deleted."""
    limit = time.time() - STAGED_FOR.total_seconds()
    found = []
    try:
        entries = list(os.scandir(staging_folder()))
    except FileNotFoundError:
        return []
    for entry in entries:
        try:
            stat = entry.stat()
        except FileNotFoundError:
            continue
        match = STAGED_RE.match(entry.name)
        if match is None:
            if stat.st_mtime < limit and entry.is_file():
                Path(entry.path).unlink(missing_ok=True)
            continue
        found.append((Path(entry.path), int(match.group(1)), match.group(2), stat.st_mtime, stat.st_size))
    return sorted(found, key=lambda f: f[3])


def stage(text, *, user, scope):
    """Keep a checked backup's text until the user confirms; returns its token.

    It replaces the user's previous upload for the same `scope` (`scope_of`); expired uploads
    go, and the oldest others too while all of them would exceed MAX_STAGED.
    """
    data = text.encode("utf-8")
    limit = time.time() - STAGED_FOR.total_seconds()
    kept = []
    for path, owner, where, modified, size in _staged():
        if modified < limit or (owner == user.pk and where == scope):
            path.unlink(missing_ok=True)
        else:
            kept.append((path, size))
    total = sum(size for _path, size in kept) + len(data)
    for path, size in kept:
        if total <= MAX_STAGED:
            break
        path.unlink(missing_ok=True)
        total -= size
    token = secrets.token_hex(TOKEN_LENGTH // 2)
    write_atomically(staging_folder() / f"{user.pk}_{scope}_{token}.json", data)
    return token


def staged_path(token, *, user):
    """The staged upload `token` of this user, or None (unknown, expired, another user's)."""
    if not (isinstance(token, str) and len(token) == TOKEN_LENGTH and all(c in "0123456789abcdef" for c in token)):
        return None
    limit = time.time() - STAGED_FOR.total_seconds()
    for path in staging_folder().glob(f"{int(user.pk)}_*_{token}.json"):
        try:
            if path.stat().st_mtime >= limit:
                return path
        except FileNotFoundError:
            pass
    return None


def staged_text(token, *, user):
    path = staged_path(token, user=user)
    try:
        if path is not None:
            return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        pass
    raise Refused("upload_expired")


@contextlib.contextmanager
def claimed(token, *, user):
    """The staged upload's text, held by this request alone (renamed away, atomically): a second
    confirmation of the same upload meanwhile is refused as `upload_expired`. Deleted when the
    block ends, but put back for another try when it fails by no fault of the file (an
    unexpected error, or the snapshot before the restore could not be written)."""
    path = staged_path(token, user=user)
    held = path and path.with_name(f"{path.name}.{os.getpid()}-{threading.get_ident()}.claimed")
    try:
        if path is None:
            raise FileNotFoundError
        os.rename(path, held)
    except FileNotFoundError:
        raise Refused("upload_expired") from None
    again = False
    try:
        yield held.read_text(encoding="utf-8")
    except Refused as refusal:
        again = refusal.code in RETRY_AFTER
        raise
    except BaseException:
        again = True
        raise
    finally:
        with contextlib.suppress(OSError):
            if again:
                os.rename(held, path)
            else:
                held.unlink()


def restore(text, *, user, replace=None, host=None, slug=None):
    """Restore a backup's text at the address `slug` (None: the file's). A tournament there must be
    named as `replace` (the one the organiser confirmed); it is replaced whole, in its own host
    organisation. Else the backup becomes a new tournament of `host` (None: the server's only
    one). Returns the restored Tournament."""
    data, plan = checked(text)
    slug = slug or plan["tournament"]["slug"]
    try:
        with transaction.atomic():
            # Locked until the commit: a second restore of this tournament waits, then finds it replaced.
            existing = locked_tournament_with_slug(slug)
            if (existing and existing.pk) != (replace and replace.pk):
                raise Refused("backup_changed", slug=slug)
            if existing is not None and take_snapshot(existing, "before-restore") is None:
                raise Refused("backup_not_saved_first")
            if existing is not None:
                identity = existing.uid  # the restored tournament's, with the snapshots
                existing.slug, existing.uid = f"{slug[:40]}-replaced-{secrets.token_hex(4)}", uuid.uuid4()
                Tournament.objects.filter(pk=existing.pk).update(slug=existing.slug, uid=existing.uid)
            try:
                tournament = import_tournament(data, host=existing.host if existing else host, slug=slug)
            except InterchangeError as error:
                raise Refused("backup_invalid", problem=str(error)) from None
            if existing is not None:
                tournament.uid = identity
                Tournament.objects.filter(pk=tournament.pk).update(uid=identity)
                TournamentRole.objects.filter(tournament=existing).update(tournament=tournament)
                DeviceLink.objects.filter(tournament=existing).update(tournament=tournament)
                TournamentVenue.objects.filter(tournament=existing).update(tournament=tournament)
                existing.delete()
            log_change(tournament, user, "restore", after={"replaced": existing is not None})
    except IntegrityError:  # a tournament of this slug was created meanwhile
        raise Refused("backup_changed", slug=slug) from None
    snapshot_after_commit(tournament.pk, "restore")  # after a submission's transaction too
    return tournament
