"""State changes of the staff accounts: the first organiser of a fresh install, a tournament's
referees and head referees (added, removed, restored), tablet sign-in links made, used and
revoked; the venue address saved.

Each runs in one transaction. Changes to a tournament's staff and links write the audit log (who
made or revoked which link; a token or a password is never stored or logged).
"""

from __future__ import annotations

import datetime
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts import first_run
from accounts.devices import DEFAULT_VALID_HOURS, TOKEN_BYTES, token_hash
from accounts.models import DeviceLink, Membership, Role, TournamentRole, TournamentVenue
from accounts.roles import RANK, is_organiser_anywhere
from accounts.selectors import active_links, usable_link
from tournament.audit import log_change
from tournament.models import LAPTOP_HOST, HostOrganisation, sole_host_organisation
from tournament.refusals import Refused

EARLIER_KEEP, EARLIER_UNUSED, EARLIER_ALL = "keep", "unused", "all"


def _described(link: DeviceLink) -> dict[str, Any]:
    return {"link": link.pk, "label": link.label, "expires": link.expires_at.isoformat(timespec="minutes")}


@transaction.atomic
def create_device_link(
    tournament: Any, *, label: str, valid_hours: int = DEFAULT_VALID_HOURS, created_by: Any = None
) -> tuple[DeviceLink, str]:
    """Create a link and its referee user; returns (link, token). The token is not stored."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    user = get_user_model().objects.create_user(
        username=f"device-{tournament.pk}-{secrets.token_hex(6)}", first_name=label[:150]
    )
    user.set_unusable_password()
    user.save(update_fields=["password"])
    TournamentRole.objects.create(user=user, tournament=tournament, role=Role.REFEREE)
    link = DeviceLink.objects.create(
        tournament=tournament,
        label=label,
        token_hash=token_hash(token),
        user=user,
        created_by=created_by,
        expires_at=timezone.now() + datetime.timedelta(hours=valid_hours),
    )
    log_change(tournament, created_by, "device_link_created", after=_described(link))
    return link, token


@transaction.atomic
def create_device_sheet(
    tournament: Any, *, label: str, count: int, valid_hours: int, earlier: str, created_by: Any
) -> list[tuple[DeviceLink, str]]:
    """Links "label 1" … "label count" for a printed sheet, after revoking earlier links as
    `earlier` says (keep, unused, all); returns [(link, token)]."""
    if earlier in (EARLIER_UNUSED, EARLIER_ALL):
        revoke_earlier_links(tournament, unused_only=earlier == EARLIER_UNUSED, revoked_by=created_by)
    return [
        create_device_link(tournament, label=f"{label} {number}", valid_hours=valid_hours, created_by=created_by)
        for number in range(1, count + 1)
    ]


@transaction.atomic
def redeem_device_link(token: str) -> DeviceLink | None:
    """Mark a usable link as used and return it (the view then signs its user in), else None.

    A compare-and-swap on `used_at`: of two tablets confirming at the same moment, one wins.
    """
    link = usable_link(token)
    if link is None:
        return None
    now = timezone.now()
    if not DeviceLink.objects.filter(pk=link.pk, used_at__isnull=True).update(used_at=now):
        return None
    link.used_at = now
    log_change(link.tournament, link.user, "device_link_used", after=_described(link))
    return link


@transaction.atomic
def revoke_device_link(link: DeviceLink, *, revoked_by: Any = None) -> DeviceLink:
    """Revoke a link: the tablet's user is deactivated, so its session ends at the next request."""
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
        log_change(link.tournament, revoked_by, "device_link_revoked", before=_described(link))
    link.user.is_active = False
    link.user.save(update_fields=["is_active"])
    TournamentRole.objects.filter(user=link.user).delete()
    return link


@transaction.atomic
def revoke_earlier_links(tournament: Any, *, unused_only: bool, revoked_by: Any = None) -> int:
    """Revoke the active links (only those never used, with `unused_only`); returns how many."""
    links = active_links(tournament).select_related("user", "tournament")
    if unused_only:
        links = links.filter(used_at__isnull=True)
    revoked = list(links)
    for link in revoked:
        revoke_device_link(link, revoked_by=revoked_by)
    return len(revoked)


@transaction.atomic
def save_venue_address(tournament: Any, address: str, *, user: Any) -> None:
    """Save (or with '' forget) the address tablets and phones use for `tournament`'s links;
    `address` is already checked (accounts.venue.normalise_venue_address). A change is audited."""
    before = TournamentVenue.objects.select_for_update().filter(tournament=tournament).first()
    before_address = before.address if before else ""
    if address == before_address:
        return
    if address:
        TournamentVenue.objects.update_or_create(
            tournament=tournament, defaults={"address": address, "updated_by": user}
        )
    else:
        TournamentVenue.objects.filter(tournament=tournament).delete()
    log_change(
        tournament,
        user,
        "venue_address",
        before={"address": before_address} if before_address else None,
        after={"address": address} if address else None,
    )


def create_first_organiser(
    *, code: str, username: str, password: str, address: str, organisation: str = LAPTOP_HOST["name"]
) -> Any:
    """The first organiser account of a fresh install (accounts.first_run), typed from the client
    `address`; Refused when an organiser exists already, no code is kept, that address must wait,
    or the code is wrong. The try is counted before the check and stays counted."""
    if not first_run.needs_setup():
        raise Refused("setup_done")
    if not first_run.code_kept():
        raise Refused("setup_code_gone", field="code")
    wait = first_run.take_try(address)
    if wait is not None:
        raise Refused("setup_wait", field="code", minutes=wait)
    if not first_run.check_code(code):
        raise Refused("setup_code_wrong", field="code")
    return _first_organiser(username=username, password=password, organisation=organisation)


@transaction.atomic
def _first_organiser(*, username: str, password: str, organisation: str = LAPTOP_HOST["name"]) -> Any:
    if not first_run.needs_setup():
        raise Refused("setup_done")
    if get_user_model().objects.filter(username__iexact=username).exists():
        raise Refused("username_taken", field="username")
    user = _new_account(username=username, password=password)
    membership = make_member(user, Role.ORGANISER)
    _name_laptop_organisation(membership.host, organisation, user)
    first_run.code_used()
    return user


def _name_laptop_organisation(host: HostOrganisation, name: str, organiser: Any) -> None:
    """The laptop's organisation takes the name typed at setup, while its new organiser is its only
    member (an organisation with a team keeps the name it has)."""
    name = name.strip() or LAPTOP_HOST["name"]
    if host.name != name and not Membership.objects.filter(host=host).exclude(user=organiser).exists():
        host.name = name
        host.save(update_fields=["name"])


def make_member(user: Any, role: str, host: HostOrganisation | None = None) -> Membership:
    """`user` in the team of `host` (None: the server's only host organisation, made on a fresh
    laptop) with `role` for all its tournaments; a membership held already takes the new role."""
    host_id = host.pk if host is not None else sole_host_organisation()
    membership, _created = Membership.objects.update_or_create(user=user, host_id=host_id, defaults={"role": role})
    return membership


def _new_account(*, taken: str = "username_taken", **fields: Any) -> Any:
    """A new user account; Refused (`taken`) when another request made one of that name after it
    was checked."""
    try:
        with transaction.atomic():
            return get_user_model().objects.create_user(**fields)
    except IntegrityError:
        raise Refused(taken, field="username") from None


STAFF_ROLES = (Role.REFEREE.value, Role.HEAD_REFEREE.value)  # the roles the staff page gives and takes
UNDO_SALT = "accounts.staff_undo"
UNDO_HOURS = 12  # a removal can be undone until the end of the day's play


@transaction.atomic
def add_staff_member(tournament: Any, *, username: str, role: str, password: str, added_by: Any) -> Any:
    """A new account with `password` and a referee or head referee role for `tournament`; returns
    the user. The staff page only makes accounts: a name in use (any account's, a tablet's) is
    refused with one neutral message, and no role is ever attached to an existing account."""
    if role not in STAFF_ROLES:
        raise Refused("staff_role_not_given", field="role")
    if get_user_model().objects.filter(username__iexact=username).exists():
        raise Refused("staff_name_unavailable", field="username")
    user = _new_account(username=username, password=password, taken="staff_name_unavailable")
    TournamentRole.objects.create(user=user, tournament=tournament, role=role)
    log_change(
        tournament, added_by, "staff_added", after={"user": user.get_username(), "role": role, "new_account": True}
    )
    return user


def _organises_host(user: Any, host_id: int) -> bool:
    """Whether `user` is an organiser in the team of the organisation `host_id` (a superuser: any)."""
    return user.is_superuser or Membership.objects.filter(user=user.pk, host=host_id, role=Role.ORGANISER).exists()


def _removable(grant: TournamentRole, removed_by: Any) -> bool:
    """The organisation's organisers take back any role given for one of its tournaments (SPEC
    §10); an organiser of this one tournament, a referee's or head referee's that is not held by
    an organiser. Nobody takes their own."""
    if grant.user_id == removed_by.pk:
        return False
    if _organises_host(removed_by, grant.tournament.host_id):
        return True
    return grant.role in STAFF_ROLES and not is_organiser_anywhere(grant.user)


@transaction.atomic
def remove_staff_member(tournament: Any, *, grant_id: int, removed_by: Any, reason: str = "") -> tuple[str, str] | None:
    """Take a role for this tournament away (the account stays, without it); returns the user name
    and a signed note that undoes it (`restore_staff_member`), or None when the grant is gone
    already (a second tap). Who may take which: `_removable`. Audited, with the reason given."""
    grant = (
        TournamentRole.objects.select_for_update(of=("self",))
        .select_related("user", "tournament")
        .filter(pk=grant_id, tournament=tournament, user__device_link__isnull=True)
        .first()
    )
    if grant is None:
        return None
    if not _removable(grant, removed_by):
        raise Refused("staff_not_removable")
    grant.delete()
    name = grant.user.get_username()
    log_change(
        tournament,
        removed_by,
        "staff_removed",
        before={"user": name, "role": grant.role},
        reason=" ".join(reason.split()),
    )
    undo = signing.dumps(
        {"tournament": tournament.pk, "user": grant.user_id, "name": name, "role": grant.role}, salt=UNDO_SALT
    )
    return name, undo


def removed_grant(tournament: Any, undo: str) -> dict[str, Any] | None:
    """What a removal's signed note says (user, name, role), while it can still be undone."""
    try:
        removed = signing.loads(undo, salt=UNDO_SALT, max_age=datetime.timedelta(hours=UNDO_HOURS))
    except signing.BadSignature:  # forged, or older than UNDO_HOURS (SignatureExpired)
        return None
    if not isinstance(removed, dict) or removed.get("tournament") != tournament.pk or removed.get("role") not in RANK:
        return None
    return removed


@transaction.atomic
def restore_staff_member(tournament: Any, *, undo: str, restored_by: Any) -> str | None:
    """Undo a removal: the same account gets the same role back; returns its name, or None when
    it holds a role for this tournament again already (a second tap). An organiser's role is given
    back by the organisation's organisers only. Audited."""
    removed = removed_grant(tournament, undo)
    user = (
        None
        if removed is None
        else get_user_model().objects.filter(pk=removed["user"], is_active=True, device_link__isnull=True).first()
    )
    if removed is None or user is None:
        raise Refused("staff_undo_expired")
    if removed["role"] not in STAFF_ROLES and not _organises_host(restored_by, tournament.host_id):
        raise Refused("staff_not_removable")
    _grant, created = TournamentRole.objects.get_or_create(
        user=user, tournament=tournament, defaults={"role": removed["role"]}
    )
    if not created:
        return None
    log_change(tournament, restored_by, "staff_restored", after={"user": user.get_username(), "role": removed["role"]})
    return user.get_username()


@transaction.atomic
def create_organisation(*, name: str, slug: str, organiser: str, by: Any = None) -> Any:
    """A new host organisation and a new account, its organiser, with no usable password yet (the
    operator hands them a one-time link to set one, `accounts.passwords`); returns the user.
    `by`: the operator who adds it on the operator's page, kept in the log (None from the command).
    Refused when the short address or the user name is taken: an existing account is never used."""
    if HostOrganisation.objects.filter(slug__iexact=slug).exists():
        raise Refused("organisation_slug_taken", field="slug")
    if get_user_model().objects.filter(username__iexact=organiser).exists():
        raise Refused("username_taken", field="username")
    host = HostOrganisation.objects.create(name=name, slug=slug)
    user = _new_account(username=organiser)  # no password given: an unusable one
    make_member(user, Role.ORGANISER, host)
    log_change(None, by, "organisation_created", after={"name": name, "slug": slug, "organiser": organiser}, host=host)
    return user


@transaction.atomic
def set_password_once(user: Any, *, checked_hash: str, password: str) -> bool:
    """Set `user`'s password from a one-time link checked against the password hash
    `checked_hash`: a compare-and-set on that hash, so of six browsers posting the link at once one
    sets it; False for the others (the link is used)."""
    user.set_password(password)
    return bool(get_user_model().objects.filter(pk=user.pk, password=checked_hash).update(password=user.password))


def set_password_path(user: Any) -> str:
    """The path of a one-time link where `user` sets a password (Django's password-reset token:
    it stops working once a password is set, and after PASSWORD_RESET_TIMEOUT)."""
    uidb64 = urlsafe_base64_encode(force_bytes(user.pk))
    return reverse(
        "accounts:set_password", kwargs={"uidb64": uidb64, "token": default_token_generator.make_token(user)}
    )
