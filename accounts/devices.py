"""Device sign-in links (SPEC §6): one link signs one tablet in as a referee, once.

The token carries 256 random bits (`secrets.token_urlsafe(32)`); only its SHA-256 is stored,
so the token is shown once, when the link is created. Opening the link shows a confirmation
page; confirming exchanges the token for a session of the link's dedicated user, whose only
grant is `TournamentRole(referee)` for the link's tournament. The exchange happens once: a
photographed or forwarded link cannot sign in a second device, and revoking the link ends
the one session it opened.

This module holds the tokens and reads the links; creating, redeeming and revoking them are
services (`accounts.services`), each audited.
"""

import hashlib

from django.urls import reverse
from django.utils import timezone

from accounts.models import DeviceLink
from accounts.venue import absolute_url

TOKEN_BYTES = 32
VALID_HOURS_CHOICES = (4, 16, 72)
DEFAULT_VALID_HOURS = 16


def token_hash(token):
    return hashlib.sha256(token.encode()).hexdigest()


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


def active_links(tournament):
    """The tournament's links that still sign a tablet in (neither revoked nor expired)."""
    return DeviceLink.objects.filter(tournament=tournament, revoked_at__isnull=True, expires_at__gt=timezone.now())
