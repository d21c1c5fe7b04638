"""The first organiser account of a fresh install, without the admin or a terminal.

While no organiser account exists, `make run` (config/serve.py; the container writes it to its
log) prints a one-time setup code and the address of the setup page. Whoever types that code
there creates the first organiser. The code, not the client's address, is the guard: behind a
container's port or a proxy every browser looks the same. It is kept in VAR_DIR (mode 0600),
used once, and dropped after MAX_WRONG wrong tries (the next start prints a new one).
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Q

from accounts.models import Role

FILE_NAME = "setup-code"
MAX_WRONG = 10
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud or typed from a screen


def needs_setup() -> bool:
    """No account can organise yet: no superuser, nobody in the organisers' group."""
    organisers = Q(is_superuser=True) | Q(groups__name=Role.ORGANISER.value)
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
    _write({"code": code, "wrong": 0})
    return code


def normalised(code: str) -> str:
    return "".join(ch for ch in (code or "").upper() if ch.isalnum())


def check_code(code: str) -> bool:
    """Whether `code` is the setup code; a wrong one counts, and too many drop the code."""
    kept = _read()
    if kept is None:
        return False
    if secrets.compare_digest(normalised(code), normalised(kept["code"])):
        return True
    kept["wrong"] = int(kept.get("wrong", 0)) + 1
    if kept["wrong"] >= MAX_WRONG:
        code_file().unlink(missing_ok=True)
    else:
        _write(kept)
    return False


def code_used() -> None:
    code_file().unlink(missing_ok=True)
