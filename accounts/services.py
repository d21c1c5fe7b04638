"""State changes of the staff accounts: tablet sign-in links made, used and revoked.

Each runs in one transaction and writes the audit log (who made or revoked which link; the
token itself is never stored or logged).
"""

from __future__ import annotations

import datetime
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from accounts.devices import DEFAULT_VALID_HOURS, TOKEN_BYTES, active_links, token_hash, usable_link
from accounts.models import DeviceLink, Role, TournamentRole
from tournament.audit import log_change

EARLIER_KEEP, EARLIER_UNUSED, EARLIER_ALL = "keep", "unused", "all"


def _described(link: DeviceLink) -> dict[str, Any]:
    return {"link": link.pk, "label": link.label, "expires": link.expires_at.isoformat(timespec="minutes")}


@transaction.atomic
def create_device_link(tournament: Any, label: str, *, valid_hours: int = DEFAULT_VALID_HOURS,
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
        create_device_link(tournament, f"{label} {number}", valid_hours=valid_hours, created_by=created_by)
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
