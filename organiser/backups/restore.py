"""Restoring a backup: reading the file (size and decompression bounded), its preview, staging it
between the preview and the confirmation, and the restore itself.

Restoring over a tournament of the same slug that the restorer organises replaces it whole, in one transaction: a snapshot of
the tournament as it was is written first (trigger ``before-restore``), then the file is imported
and the old tournament deleted; its staff grants, tablet links, waiting invitations, venue
address, seasons and identity (`uid`, so its snapshots) move to the restored one: they belong to
this server, not to the file. A restore only ever writes into the restorer's host organisation: a tournament of the same
slug they do not organise (another organisation's) is neither named nor touched, and the backup
becomes a new tournament at a free address (`preview`). A file that fails any check changes nothing.

A checked upload waits for the confirmation as a row (`organiser.models.StagedRestore`), so a
preview on one app server is confirmed on another: one per user and tournament (a new upload
replaces the user's previous one for that tournament, or for a new tournament), for STAGED_FOR
at most, MAX_STAGED bytes in all (the oldest go first when a new one needs the room). The
confirmation turns it `applying` (a compare-and-set) and queues the task `apply_restore` in the
same transaction, so of five confirmations of one upload at once, on any servers, one restores
and writes the "before-restore" snapshot; the others are told it is already being restored.
The task ends it `applied` (in the restore's own transaction) or `failed`, which its progress
page shows. Restores of one tournament from different uploads wait for each other (the
tournament's row is locked), and all but the first are refused because the tournament changed.
"""

from __future__ import annotations

import datetime
import secrets
import uuid
import zlib
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django_tasks import task

from accounts.models import DeviceLink, Invitation, Role, TournamentRole, TournamentVenue
from accounts.roles import has_role
from organiser.backups.snapshots import queue_snapshot, take_snapshot
from organiser.interchange import InterchangeError, decode, import_tournament, parse
from organiser.models import StagedRestore
from tournament.audit import log_change
from tournament.models import Season, Tournament
from tournament.refusals import Refused
from tournament.selectors import free_slug, locked_tournament_with_slug, tournament_row, tournament_with_slug

MAX_UPLOAD = 20 * 1024 * 1024  # bytes of an uploaded file, compressed or not
MAX_JSON = 50 * 1024 * 1024  # bytes of JSON a compressed file may unpack to
GZIP_MAGIC = b"\x1f\x8b"
STAGED_FOR = datetime.timedelta(hours=1)
KEPT_FOR = datetime.timedelta(days=7)  # a finished restore's row (its progress page), without its content
MAX_STAGED = 4 * MAX_JSON  # bytes of all staged backups together
TOKEN_LENGTH = 32
NEW = "new"  # the staging scope of a backup of a tournament that does not exist here


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
    entries: int
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
        entries=len(plan["entries"]),
        replaces=replaces,
        file_slug=tournament["slug"],
    )


def scope_of(tournament):
    """What a staged backup is for: the tournament it would replace, or a new one."""
    return NEW if tournament is None else str(tournament.uid)


def prune_staged(now):
    """Delete the uploads waiting longer than STAGED_FOR, and finished restores' rows after KEPT_FOR."""
    StagedRestore.objects.filter(status=StagedRestore.Status.STAGED, created_at__lt=now - STAGED_FOR).delete()
    finished = (StagedRestore.Status.APPLIED, StagedRestore.Status.FAILED)
    StagedRestore.objects.filter(status__in=finished, created_at__lt=now - KEPT_FOR).delete()


@transaction.atomic
def stage(text, *, user, scope):
    """Keep a checked backup's text (a row) until the user confirms; returns its token.

    It replaces the user's previous upload for the same `scope` (`scope_of`); expired uploads
    go, and the oldest others too while all of them would exceed MAX_STAGED.
    """
    data = text.encode("utf-8")
    prune_staged(timezone.now())
    waiting = StagedRestore.objects.filter(status=StagedRestore.Status.STAGED)
    waiting.filter(user=user, scope=scope).delete()
    total = len(data)
    for pk, size in waiting.order_by("-created_at").values_list("pk", "size"):
        total += size
        if total > MAX_STAGED:
            StagedRestore.objects.filter(pk=pk).delete()
    token = secrets.token_hex(TOKEN_LENGTH // 2)
    StagedRestore.objects.create(token=token, user=user, scope=scope, content=data, size=len(data))
    return token


def valid_token(token):
    return isinstance(token, str) and len(token) == TOKEN_LENGTH and all(c in "0123456789abcdef" for c in token)


def staged_row(token, *, user):
    """The user's upload `token` (any status), or None (unknown, another user's)."""
    if not valid_token(token):
        return None
    return StagedRestore.objects.filter(token=token, user=user).first()


def staged_text(token, *, user):
    """The text of the user's upload `token` waiting for its confirmation; refused when it is
    unknown, expired or already confirmed (`restore_already_confirmed`)."""
    row = staged_row(token, user=user)
    if row is not None and row.status != StagedRestore.Status.STAGED:
        raise Refused("restore_already_confirmed")
    if row is None or row.created_at < timezone.now() - STAGED_FOR:
        raise Refused("upload_expired")
    return bytes(row.content).decode("utf-8")


def confirm(token, *, user, replace, host, slug):
    """Mark the upload `applying` and queue its restore, in one transaction; returns its row. A
    compare-and-set on the status: of two confirmations at once (two servers), one queues the
    restore; the other is refused as `restore_already_confirmed` (so is a second tap)."""
    with transaction.atomic():
        claimed = StagedRestore.objects.filter(
            token=token if valid_token(token) else "",
            user=user,
            status=StagedRestore.Status.STAGED,
            created_at__gte=timezone.now() - STAGED_FOR,
        ).update(status=StagedRestore.Status.APPLYING, replaces=replace, host=host, slug=slug)
        if claimed:
            apply_restore.enqueue(token)
    row = staged_row(token, user=user)
    if row is None or row.status == StagedRestore.Status.STAGED:
        raise Refused("upload_expired")
    if not claimed:
        raise Refused("restore_already_confirmed")
    return row


class AppliedElsewhere(Exception):
    """The restore was applied by another run of the task meanwhile: this run's work rolls back."""


@task()
def apply_restore(token):
    """The task: restore the confirmed upload `token` and mark it `applied` in the same
    transaction, or `failed` with the refusal. Safe to run twice: a restore applied (committed)
    is never applied again, one interrupted by a dying worker left nothing and runs again."""
    row = StagedRestore.objects.filter(token=token, status=StagedRestore.Status.APPLYING).first()
    if row is None:
        return
    try:
        with transaction.atomic():
            tournament = restore(
                bytes(row.content).decode("utf-8"), user=row.user, replace=row.replaces, host=row.host, slug=row.slug
            )
            if not _finish(row, StagedRestore.Status.APPLIED, tournament=tournament):
                raise AppliedElsewhere
    except AppliedElsewhere:
        return
    except Refused as refusal:
        _finish(row, StagedRestore.Status.FAILED, refusal={"code": refusal.code, "params": _plain(refusal.params)})
    except Exception:
        _finish(row, StagedRestore.Status.FAILED, refusal={"code": "restore_failed", "params": {}})
        raise


def _plain(params):
    return {key: value if isinstance(value, int | float) else str(value) for key, value in params.items()}


def _finish(row, status, **fields):
    """End an `applying` restore (its content is no longer needed); False when it had ended already."""
    return StagedRestore.objects.filter(pk=row.pk, status=StagedRestore.Status.APPLYING).update(
        status=status, content=b"", finished_at=timezone.now(), **fields
    )


def refusal_message(row):
    """The message of a failed restore, in the active language."""
    refusal = row.refusal or {"code": "restore_failed", "params": {}}
    return Refused(refusal["code"], **refusal["params"]).message


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
                tournament_row(existing.pk).update(slug=existing.slug, uid=existing.uid)
            try:
                tournament = import_tournament(data, host=existing.host if existing else host, slug=slug)
            except InterchangeError as error:
                raise Refused("backup_invalid", problem=str(error)) from None
            if existing is not None:
                tournament.uid = identity
                tournament_row(tournament.pk).update(uid=identity)
                TournamentRole.objects.filter(tournament=existing).update(tournament=tournament)
                DeviceLink.objects.filter(tournament=existing).update(tournament=tournament)
                TournamentVenue.objects.filter(tournament=existing).update(tournament=tournament)
                Invitation.objects.filter(tournament=existing).update(tournament=tournament)
                Season.tournaments.through.objects.filter(tournament=existing).update(tournament=tournament)
                existing.delete()
            log_change(tournament, user, "restore", after={"replaced": existing is not None})
    except IntegrityError:  # a tournament of this slug was created meanwhile
        raise Refused("backup_changed", slug=slug) from None
    queue_snapshot(tournament.pk, "restore")
    return tournament
