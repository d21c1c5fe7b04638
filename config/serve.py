"""The production start (`bin/serve`: `make run`, the container, `make bench-hall`).

Prepares what the server needs, in one process: the database's migrations, the demo tournament
on an empty database (unless DEMO=0), the static files collected for WhiteNoise, the secret key
in VAR_DIR (config/secret_key.py, made by the first settings import); prints where tablets and
phones open the server; then becomes gunicorn with config/gunicorn.conf.py (the same process,
so a signal sent to it reaches gunicorn's master). DEBUG is always off here: the development
server with its debug pages is `make dev`.

Environment: HOST (127.0.0.1; 0.0.0.0 serves the venue's network), PORT (8000), VAR_DIR,
DATABASE_URL, PUBLIC_URL, DEMO=0; GUNICORN_CMD_ARGS adds or overrides gunicorn's options.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

CONFIG = Path(__file__).with_name("gunicorn.conf.py")


def use_production_environment() -> None:
    """DEBUG off and never the test settings, for this process and gunicorn after it."""
    os.environ.pop("TESTING", None)
    os.environ.update(DEBUG="0", DJANGO_SETTINGS_MODULE="config.settings")
    os.environ["HOST"] = os.environ.get("HOST") or "127.0.0.1"
    os.environ["PORT"] = os.environ.get("PORT") or "8000"
    os.environ["LISTEN_HOST"] = os.environ["HOST"]


def static_fingerprint() -> str:
    """A digest of every static file's name, size and time: what collectstatic would collect."""
    from django.contrib.staticfiles.finders import get_finders

    digest = hashlib.sha256()
    for finder in get_finders():
        for name, storage in sorted(finder.list([]), key=lambda found: found[0]):
            status = os.stat(storage.path(name))
            digest.update(f"{name}\0{status.st_size}\0{status.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def collect_static_files() -> None:
    """collectstatic (compressing every file for WhiteNoise takes a while), only when a file changed."""
    from django.conf import settings
    from django.core.management import call_command

    stamp = Path(settings.STATIC_ROOT) / ".collected"
    fingerprint = static_fingerprint()
    if stamp.exists() and stamp.read_text() == fingerprint:
        return
    call_command("collectstatic", interactive=False, verbosity=0)
    stamp.write_text(fingerprint)


def prepare(*, load_demo: bool) -> None:
    """Migrate, load the demo on an empty database, collect the static files."""
    import django
    from django.core.management import call_command
    from django.db import connections

    django.setup()
    call_command("migrate", interactive=False, verbosity=0)
    if load_demo:
        call_command("load_demo", if_empty=True)
    collect_static_files()
    connections.close_all()


def announce() -> None:
    """Where tablets and phones open the server, and how to stop it."""
    from django.conf import settings

    from accounts import first_run
    from accounts.venue import startup_lines

    for line in startup_lines(os.environ["HOST"], os.environ["PORT"], settings.PUBLIC_URL):
        print(line)
    code = first_run.setup_code()
    if code is not None:
        print(
            f"No organiser account yet: create it at http://localhost:{os.environ['PORT']}/accounts/setup/ "
            f"with the setup code {code}"
        )
    print(f"Staff sign in at /accounts/login/. Data and logs: {settings.VAR_DIR}. Stop: Ctrl+C.", flush=True)


def main() -> None:
    use_production_environment()
    prepare(load_demo=os.environ.get("DEMO", "1") != "0")
    announce()
    os.execv(sys.executable, [sys.executable, "-m", "gunicorn", "--config", str(CONFIG)])


if __name__ == "__main__":
    main()
