"""Does the venue address answer? The server asks itself there (docs/venue/network.md).

A saved venue address may lead nowhere: the server listens on 127.0.0.1 only (`make run` without
HOST=0.0.0.0), the port is wrong, a firewall is in the way. So when an organiser saves it, and
when the print menu or the tablets' page opens, the server sends a GET to
`<address>/accounts/venue-check/<nonce>/` with a short timeout. The nonce is signed with this
server's key and valid for a minute; the answer is a second signature of it, so only a server
holding this key answers it rightly: another server at that address does not count. Nothing is
stored to check a nonce, so several servers sharing the key answer for each other.

The result is kept in the cache: used again for a minute without asking (a print menu opened
twice asks once), and shown by the dashboard for a day (it asks only when no result is known).
It is the cache the servers share (`tournament.shared_cache`): when it cannot be reached, the
address is asked each time instead.
"""

from __future__ import annotations

import datetime
import http.client
import secrets
import time
import urllib.request
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac

from tournament import shared_cache

SALT = "accounts.venue_check"
NONCE_MAX_AGE = 60  # seconds a nonce is answered after it was made
FRESH = 60  # seconds a result is used again without asking
KEPT = 24 * 3600  # seconds the dashboard shows the last result


@dataclass(frozen=True)
class VenueCheck:
    """Whether `base` answered when it was asked, at `checked_at` (time.time())."""

    base: str
    answers: bool
    checked_at: float

    @property
    def checked_at_local(self):
        """When it was asked, as an aware datetime for templates."""
        return datetime.datetime.fromtimestamp(self.checked_at, tz=datetime.UTC)


def new_nonce() -> str:
    return signing.TimestampSigner(salt=SALT).sign(secrets.token_urlsafe(16))


def answer(nonce: str) -> str | None:
    """What this server answers to `nonce`, or None when it did not make it in the last minute."""
    try:
        signing.TimestampSigner(salt=SALT).unsign(nonce, max_age=NONCE_MAX_AGE)
    except signing.BadSignature:
        return None
    return salted_hmac(f"{SALT}.answer", nonce).hexdigest()


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer of another server, never followed: following it would let an
    address's server send this one to any address (its own loopback included)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None  # urllib then raises HTTPError: "does not answer as this server"


def ask(base: str, timeout: float) -> bool:
    """True when this server (one holding its key) answers at `base` within `timeout` seconds.
    Only `base` is asked: never through a proxy, never following a redirect."""
    nonce = new_nonce()
    url = base + reverse("accounts:venue_check", kwargs={"nonce": nonce})
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirects())
    try:
        with opener.open(url, timeout=timeout) as response:
            body = response.read(200).decode("ascii", "replace")
    except (OSError, ValueError, http.client.HTTPException):
        return False
    return constant_time_compare(body, answer(nonce))


def _key(base: str) -> str:
    return f"venue-check:{base}"


def check(base: str) -> VenueCheck | None:
    """Whether `base` answers: the result of the last minute, else asked now (at most
    VENUE_CHECK_TIMEOUT seconds). None when checks are off (VENUE_CHECK_TIMEOUT = 0)."""
    timeout = settings.VENUE_CHECK_TIMEOUT
    if not timeout:
        return None
    known = last_check(base)
    if known is not None and time.time() - known.checked_at < FRESH:
        return known
    result = VenueCheck(base, ask(base, timeout), time.time())
    shared_cache.set(_key(base), result, KEPT)
    return result


def last_check(base: str) -> VenueCheck | None:
    """The last result for `base` (of the last day), without asking; None if none."""
    return shared_cache.get(_key(base)) if settings.VENUE_CHECK_TIMEOUT else None


def forget(base: str) -> None:
    """Ask again next time (the organiser saved the address anew)."""
    shared_cache.delete(_key(base))


def check_venue(venue) -> VenueCheck | None:
    """Whether a saved venue address (an accounts.venue.VenueAddress) answers, asked at most once
    a minute; None for the other addresses (PUBLIC_URL, the one the browser used, the network's)."""
    return check(venue.base) if venue.source == "saved" else None


def known_venue_check(venue) -> VenueCheck | None:
    """For the dashboard: the last result of the day for a saved venue address, asked only when
    none is known (this server process just started), so that it rarely waits."""
    if venue.source != "saved":
        return None
    return last_check(venue.base) or check(venue.base)
