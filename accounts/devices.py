"""Device sign-in links (SPEC §6): one link signs one tablet in as a referee, once.

The token carries 256 random bits (`secrets.token_urlsafe(32)`); only its SHA-256 is stored,
so the token is shown once, when the link is created. Opening the link shows a confirmation
page; confirming exchanges the token for a session of the link's dedicated user, whose only
grant is `TournamentRole(referee)` for the link's tournament. The exchange happens once: a
photographed or forwarded link cannot sign in a second device, and revoking the link ends
the one session it opened.

This module holds the tokens; the links are read by `accounts.selectors`, and creating,
redeeming and revoking them are services (`accounts.services`), each audited.
"""

import hashlib

from django.urls import reverse

from accounts.venue import absolute_url

TOKEN_BYTES = 32
VALID_HOURS_CHOICES = (4, 16, 72)
DEFAULT_VALID_HOURS = 16


def token_hash(token):
    return hashlib.sha256(token.encode()).hexdigest()


def sign_in_url(request, tournament, token):
    """The link a tablet opens: at `tournament`'s venue address (see `accounts.venue`)."""
    return absolute_url(request, tournament, reverse("accounts:device_sign_in", kwargs={"token": token}))
