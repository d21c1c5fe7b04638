"""State changes of the staff accounts: the first organiser of a fresh install, a tournament's
referees and head referees, tablet sign-in links made, used and revoked; the venue address saved.

Each runs in one transaction. Changes to a tournament's staff and links write the audit log (who
made or revoked which link; a token or a password is never stored or logged).
"""

from __future__ import annotations

import datetime
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts import first_run
from accounts.devices import DEFAULT_VALID_HOURS, TOKEN_BYTES, token_hash
from accounts.models import DeviceLink, Role, TournamentRole, TournamentVenue
from accounts.selectors import active_links, usable_link
from tournament.audit import log_change
from tournament.refusals import Refused

EARLIER_KEEP, EARLIER_UNUSED, EARLIER_ALL = "keep", "unused", "all"


def _described(link: DeviceLink) -> dict[str, Any]:
    return {"link": link.pk, "label": link.label, "expires": link.expires_at.isoformat(timespec="minutes")}


@transaction.atomic
def create_device_link(tournament: Any, *, label: str, valid_hours: int = DEFAULT_VALID_HOURS,
                       created_by: Any = None) -> tuple[DeviceLink, str]:
    """Create a link and its referee user; returns (link, token). The token is not stored."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    user = get_user_model().objects.create_user(
        username=f"device-{tournament.pk}-{secrets.token_hex(6)}", first_name=label[:150]
    )
    user.set_unusable_password()
    user.save(update_fields=["password"])
    TournamentRole.objects.create(user=user, tournament=tournament, role=Role.REFEREE)
    link = DeviceLink.objects.create(
        tournament=tournament, label=label, token_hash=token_hash(token), user=user, created_by=created_by,
        expires_at=timezone.now() + datetime.timedelta(hours=valid_hours),
    )
    log_change(tournament, created_by, "device_link_created", after=_described(link))
    return link, token


@transaction.atomic
def create_device_sheet(tournament: Any, *, label: str, count: int, valid_hours: int, earlier: str,
                        created_by: Any) -> list[tuple[DeviceLink, str]]:
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
        TournamentVenue.objects.update_or_create(tournament=tournament, defaults={"address": address, "updated_by": user})
    else:
        TournamentVenue.objects.filter(tournament=tournament).delete()
    log_change(tournament, user, "venue_address", before={"address": before_address} if before_address else None,
               after={"address": address} if address else None)


@transaction.atomic
def create_first_organiser(*, code: str, username: str, password: str) -> Any:
    """The first organiser account of a fresh install (accounts.first_run); Refused when an
    organiser exists already or the setup code is wrong."""
    if not first_run.needs_setup():
        raise Refused("setup_done")
    if not first_run.check_code(code):
        raise Refused("setup_code_wrong", field="code")
    if get_user_model().objects.filter(username__iexact=username).exists():
        raise Refused("username_taken", field="username")
    user = _new_account(username=username, password=password, is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=Role.ORGANISER.value)[0])
    first_run.code_used()
    return user


def _new_account(**fields: Any) -> Any:
    """A new user account; Refused (`username_taken`) when another request made one of that name
    after it was checked."""
    try:
        with transaction.atomic():
            return get_user_model().objects.create_user(**fields)
    except IntegrityError:
        raise Refused("username_taken", field="username") from None


@transaction.atomic
def add_staff_member(tournament: Any, *, username: str, role: str, password: str, added_by: Any) -> tuple[Any, bool]:
    """Give `username` a referee or head referee role for `tournament`, making the account with
    `password` when there is none; returns (user, whether the account is new). Audited."""
    user = get_user_model().objects.filter(username__iexact=username).first()
    created = user is None
    if created:
        user = _new_account(username=username, password=password)
    elif hasattr(user, "device_link"):
        raise Refused("staff_name_taken", field="username")
    before = TournamentRole.objects.filter(user=user, tournament=tournament).values_list("role", flat=True).first()
    try:
        with transaction.atomic():
            TournamentRole.objects.update_or_create(user=user, tournament=tournament, defaults={"role": role})
    except IntegrityError:  # the same grant made by another request meanwhile
        TournamentRole.objects.filter(user=user, tournament=tournament).update(role=role)
    log_change(tournament, added_by, "staff_added", before={"user": user.get_username(), "role": before} if before else None,
               after={"user": user.get_username(), "role": role, "new_account": created})
    return user, created


@transaction.atomic
def remove_staff_member(tournament: Any, *, grant_id: int, removed_by: Any) -> str | None:
    """Take a tournament role away (the account stays, without it); returns the user name, or
    None when the grant is gone already (a second tap). Audited."""
    grant = TournamentRole.objects.select_related("user").filter(
        pk=grant_id, tournament=tournament, user__device_link__isnull=True).first()
    if grant is None:
        return None
    grant.delete()
    log_change(tournament, removed_by, "staff_removed", before={"user": grant.user.get_username(), "role": grant.role})
    return grant.user.get_username()
