"""Password checks that cannot starve the tablets: at most settings.PASSWORD_CHECKS_AT_ONCE at a
time in each server process.

Django's PBKDF2 (1,000,000 iterations) costs about a second of a core per sign-in, on purpose. Ten
staff signing in at once at the start of a day would take every core of a small server for ten
seconds and queue every score-sheet save behind them. Here a sign-in past the bound waits for the
one before it (a sign-in takes a second or two longer in a burst) while the other threads keep
serving saves. The hashes are Django's own (same algorithm name): nothing stored changes.
"""

from __future__ import annotations

import threading

from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher

_bound: threading.BoundedSemaphore | None = None
_made = threading.Lock()


def checks_at_once() -> threading.BoundedSemaphore:
    """This process's bound, made on first use from the settings."""
    global _bound
    with _made:
        if _bound is None:
            _bound = threading.BoundedSemaphore(max(1, int(getattr(settings, "PASSWORD_CHECKS_AT_ONCE", 1))))
        return _bound


class BoundedPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    """Django's default hasher; each hashing (a check, a new password, the timing-safe dummy
    check of an unknown user) holds one place of the bound."""

    def encode(self, password: str, salt: str, iterations: int | None = None) -> str:
        with checks_at_once():
            return super().encode(password, salt, iterations)
