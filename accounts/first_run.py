"""The first organiser account of a fresh install, without the admin or a terminal.

While no organiser account exists, `make run` (config/serve.py; the container writes it to its
log) prints a one-time setup code and the address of the setup page. Whoever types that code
there creates the first organiser. The code, not the client's address, is the guard: 12
characters of 32 (60 bits) are not guessed. It is kept in VAR_DIR (mode 0600) and used once.

Wrong codes do not drop it (anyone on the venue's network could then block the first run):
each client address has MAX_TRIES tries per WAIT, counted in the database (`SetupCodeTries`,
one atomic update per try, the same on SQLite and PostgreSQL); then that address waits. Behind a
container's port or a proxy every browser has the same address: then a stranger's tries can make
the organiser wait, never more than WAIT. A code that is gone (its file deleted, or the server
started without printing one) is said plainly on the page: a restart prints a new one.

A hosted service (settings.HOSTED) has none of this: several app servers would each keep their
own code, and its operator makes organisations and their first organisers with
`manage.py create_organisation`. There the setup page is not found and no code is made.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import F, Q
from django.utils import timezone

from accounts.models import Role, SetupCodeTries

FILE_NAME = "setup-code"
MAX_TRIES = 10  # per client address and WAIT
WAIT = datetime.timedelta(minutes=15)
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud or typed from a screen


def setup_exists() -> bool:
    """Whether this server has the first run's setup at all (not on a hosted service)."""
    return not getattr(settings, "HOSTED", False)


def needs_setup() -> bool:
    """No account can organise yet: no superuser, no organiser in a host organisation's team.
    Never on a hosted service, whose operator makes the organisers."""
    if not setup_exists():
        return False
    organisers = Q(is_superuser=True) | Q(memberships__role=Role.ORGANISER)
    return not get_user_model().objects.filter(organisers, is_active=True).exists()


def code_file() -> Path:
    return Path(settings.VAR_DIR) / FILE_NAME


def _read() -> dict | None:
    try:
        data = json.loads(code_file().read_text(encoding="ascii"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("code"), str) else None


def _write(data: dict) -> None:
    path = code_file()
    temporary = path.with_name(f".{FILE_NAME}.{os.getpid()}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        json.dump(data, file)
    os.replace(temporary, path)


def setup_code() -> str | None:
    """The code to print at start: the one kept, or a new one; None once an organiser exists."""
    if not needs_setup():
        code_file().unlink(missing_ok=True)
        return None
    kept = _read()
    if kept is not None:
        return kept["code"]
    code = "-".join("".join(secrets.choice(ALPHABET) for _ in range(4)) for _ in range(3))
    _write({"code": code})
    return code


def normalised(code: str) -> str:
    return "".join(ch for ch in (code or "").upper() if ch.isalnum())


def code_kept() -> bool:
    """Whether a setup code is there to be typed (else a restart prints a new one)."""
    return _read() is not None


def take_try(address: str) -> int | None:
    """Count one try of the setup code from `address`: None when it may be checked, else the
    minutes that address waits. Each step is one statement that commits by itself (autocommit)."""
    now = timezone.now()
    row, _created = SetupCodeTries.objects.get_or_create(address=address[:64], defaults={"since": now})
    SetupCodeTries.objects.filter(pk=row.pk, since__lte=now - WAIT).update(tries=0, since=now)  # a new window
    if SetupCodeTries.objects.filter(pk=row.pk, tries__lt=MAX_TRIES).update(tries=F("tries") + 1):
        return None
    since = SetupCodeTries.objects.filter(pk=row.pk).values_list("since", flat=True).first() or now
    return max(1, math.ceil((since + WAIT - now).total_seconds() / 60))


def check_code(code: str) -> bool:
    """Whether `code` is the setup code kept."""
    kept = _read()
    if kept is None:
        return False
    # As bytes: compare_digest refuses non-ASCII strings (a typed "Ż" was a server error).
    return secrets.compare_digest(normalised(code).encode(), normalised(kept["code"]).encode())


def code_used() -> None:
    code_file().unlink(missing_ok=True)
    SetupCodeTries.objects.all().delete()
