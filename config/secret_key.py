"""Django's signing key without a terminal: made once, kept in VAR_DIR, read by every start.

`SECRET_KEY` in the environment wins. Otherwise the key is read from `VAR_DIR/secret_key`;
the first start (of the server or of any `manage.py` command) writes a random one there, only
readable by its owner (mode 0600). The file appears whole or not at all: it is written under a
temporary name and linked into place, so two processes starting at once agree on one key.

A hosted service (settings.HOSTED) never makes the file: its app servers must share one key, so
it comes from the environment or the start is refused (each server's own file would sign staff
out whenever the proxy switched servers).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

FILE_NAME = "secret_key"
MINIMUM_LENGTH = 40


class SecretKeyError(RuntimeError):
    """The key file exists but cannot serve as a key."""


def read_key(path: Path) -> str:
    key = path.read_text(encoding="ascii").strip()
    if len(key) < MINIMUM_LENGTH:
        raise SecretKeyError(f"{path} holds no usable secret key: delete the file and start again to make a new one.")
    return key


def write_private_file(path: Path, text: str) -> None:
    """Create `path` (mode 0600) holding `text`; FileExistsError when it exists."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())


def write_new_key(path: Path) -> None:
    """Write a random key to `path` unless another process has just written one."""
    key = secrets.token_urlsafe(50) + "\n"
    temporary = path.with_name(f".{FILE_NAME}.{os.getpid()}.{secrets.token_hex(4)}")
    try:
        write_private_file(temporary, key)
        os.link(temporary, path)  # whole or not at all; fails if another process linked first
    except FileExistsError:
        pass  # another process made the key first: use theirs
    except OSError:  # a file system without hard links
        try:
            write_private_file(path, key)
        except FileExistsError:
            pass
    finally:
        temporary.unlink(missing_ok=True)


def secret_key(var_dir: Path, *, hosted: bool = False) -> str:
    """The key from the environment, else (not `hosted`) from `var_dir`, made there on first use."""
    if os.environ.get("SECRET_KEY", "").strip():
        return os.environ["SECRET_KEY"].strip()
    if hosted:
        raise SecretKeyError("a hosted service (HOSTED=1) takes it from SECRET_KEY, the same on every app server.")
    path = Path(var_dir) / FILE_NAME
    if not path.exists():
        write_new_key(path)
    return read_key(path)
