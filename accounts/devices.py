"""Device sign-in links (SPEC §6, issue 4): one link signs one tablet in as a referee, once.

The token carries 256 random bits (`secrets.token_urlsafe(32)`); only its SHA-256 is stored,
so the token is shown once, when the link is created. Opening the link shows a confirmation
page; confirming exchanges the token for a session of the link's dedicated user, whose only
grant is `TournamentRole(referee)` for the link's tournament. The exchange happens once: a
photographed or forwarded link cannot sign in a second device, and revoking the link ends
the one session it opened.
"""

import datetime
import hashlib
import secrets

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import DeviceLink, Role, TournamentRole
from accounts.venue import absolute_url

TOKEN_BYTES = 32
VALID_HOURS_CHOICES = (4, 16, 72)
DEFAULT_VALID_HOURS = 16


def token_hash(token):
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def create_device_link(tournament, label, *, valid_hours=DEFAULT_VALID_HOURS, created_by=None):
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
    return link, token


def sign_in_url(request, token):
    """The link a tablet opens: at the venue address (see `accounts.venue`), never a loopback one."""
    return absolute_url(request, reverse("accounts:device_sign_in", kwargs={"token": token}))


def find_link(token):
    """The link of a token (whatever its state), or None."""
    if not token or len(token) > 200:
        return None
    return DeviceLink.objects.select_related("tournament", "user").filter(token_hash=token_hash(token)).first()


def usable_link(token):
    """The link a token opens, or None when it is unknown, revoked, expired or already used."""
    link = find_link(token)
    if link is None or not link.is_usable(timezone.now()) or not link.user.is_active:
        return None
    return link


@transaction.atomic
def redeem_device_link(token):
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
    return link


@transaction.atomic
def revoke_device_link(link):
    """Revoke a link: the tablet's user is deactivated, so its session ends at the next request."""
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
    link.user.is_active = False
    link.user.save(update_fields=["is_active"])
    TournamentRole.objects.filter(user=link.user).delete()
    return link


def active_links(tournament):
    """The tournament's links that still sign a tablet in (neither revoked nor expired)."""
    return DeviceLink.objects.filter(tournament=tournament, revoked_at__isnull=True, expires_at__gt=timezone.now())


@transaction.atomic
def revoke_earlier_links(tournament, *, unused_only):
    """Revoke the active links (only those never used, with `unused_only`); returns how many."""
    links = active_links(tournament).select_related("user")
    if unused_only:
        links = links.filter(used_at__isnull=True)
    links = list(links)
    for link in links:
        revoke_device_link(link)
    return len(links)
