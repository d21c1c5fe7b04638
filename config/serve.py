"""The production start (`bin/serve`: `make run`, the container, `make bench-hall`, a service).

One argument picks the mode:

`bin/serve`          the web server. On a laptop (`make run`, the container) it prepares what the
                     server needs: the database's migrations, the demo tournament on an empty
                     database (unless DEMO=0), the static files collected for WhiteNoise, the
                     secret key in VAR_DIR (config/secret_key.py, made by the first settings
                     import); prints where tablets and phones open the server; then runs gunicorn
                     (config/gunicorn.conf.py) and the task worker beside it, as one command: a
                     Ctrl+C or SIGTERM reaches both, the worker is started again if it dies, and
                     the command ends when gunicorn ends.
                     On a hosted service (HOSTED=1) it neither migrates nor loads the demo nor
                     runs a worker: it collects the static files into its own VAR_DIR, refuses to
                     start while migrations are pending (run `bin/serve release`), and becomes
                     gunicorn (the same process, so a signal sent to it reaches gunicorn's master).
`bin/serve release`  the release step, once per release before the new servers start: `migrate`
                     (which installs the public-version triggers again, public/versions.py), then
                     every public version is raised once, for changes made while they were off.
`bin/serve worker`   the task worker only (`manage.py run_tasks`): a service runs one or more.

Servers are replaced one at a time, so for a while the previous release's servers run on the new
schema: each release's migrations must leave the database usable by the release before it (add
a column nullable or with a default and drop it a release later; never rename a column in use).

DEBUG is always off here: the development server with its debug pages is `make dev`.
Environment: HOST (127.0.0.1; 0.0.0.0 serves the venue's network), PORT (8000), VAR_DIR,
DATABASE_URL, PUBLIC_URL, DEMO=0, HOSTED; GUNICORN_CMD_ARGS adds or overrides gunicorn's options.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

CONFIG = Path(__file__).with_name("gunicorn.conf.py")
GUNICORN = [sys.executable, "-m", "gunicorn", "--config", str(CONFIG)]
WORKER = [sys.executable, "-m", "django", "run_tasks"]
MODES = ("web", "release", "worker")
RESTART_PAUSE = 2.0  # seconds between a worker's death and its next start


def use_production_environment() -> None:
    """DEBUG off and never the test settings, for this process and what it starts."""
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


def pending_migrations() -> list[str]:
    """The migrations the database lacks, as `app.name`."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [f"{migration.app_label}.{migration.name}" for migration, _backwards in plan]


def migrate() -> None:
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)


def prepare_laptop(*, load_demo: bool) -> None:
    """Migrate, load the demo on an empty database, collect the static files."""
    from django.core.management import call_command
    from django.db import connections

    migrate()
    if load_demo:
        call_command("load_demo", if_empty=True)
    collect_static_files()
    connections.close_all()


def prepare_hosted() -> None:
    """Collect the static files; stop (exit 1) while the database lacks migrations."""
    from django.db import connections

    pending = pending_migrations()
    if pending:
        sys.exit(
            f"The database lacks {len(pending)} migration(s) of this release ({pending[0]}…): "
            "run `bin/serve release` once, then start the servers."
        )
    collect_static_files()
    connections.close_all()


def release() -> None:
    """The release step: migrate (the public-version triggers come back with it), then raise every
    public version once: changes made while the triggers were off are then seen."""
    import django
    from django.db.models import F

    django.setup()
    from django.conf import settings

    from config.database import use_statement_timeout
    from public.models import PublicVersion

    use_statement_timeout(settings.WORKER_STATEMENT_TIMEOUT)  # a migration may take longer than a request
    migrate()
    PublicVersion.objects.update(version=F("version") + 1)
    print("Migrated: the release's servers may start.", flush=True)


def announce() -> None:
    """Where tablets and phones open the server, and how to stop it (a laptop's terminal)."""
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


class Supervisor:
    """gunicorn and the task worker as children of one command (the laptop's `make run`)."""

    def __init__(self) -> None:
        self.stopping = False
        self.server = subprocess.Popen(GUNICORN)
        self.worker = subprocess.Popen(WORKER)
        self.worker_started = time.monotonic()

    def forward(self, signum: int, _frame: object = None) -> None:
        """A stop for this command stops both: gunicorn gets the same signal, the worker SIGTERM."""
        self.stopping = True
        for child, sent in ((self.server, signum), (self.worker, signal.SIGTERM)):
            if child.poll() is None:
                child.send_signal(sent)

    def run(self) -> int:
        """Until gunicorn ends: start the worker again whenever it dies. Then stop the worker."""
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, self.forward)
        while self.server.poll() is None:
            if self.worker.poll() is not None and not self.stopping:
                if time.monotonic() - self.worker_started >= RESTART_PAUSE:
                    print("The task worker stopped: starting it again.", file=sys.stderr, flush=True)
                    self.worker = subprocess.Popen(WORKER)
                    self.worker_started = time.monotonic()
            time.sleep(0.2)
        self.stop_worker()
        return self.server.returncode

    def stop_worker(self) -> None:
        if self.worker.poll() is None:
            self.worker.terminate()
        try:
            self.worker.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.worker.kill()
            self.worker.wait()


def main(argv: list[str]) -> None:
    mode = argv[0] if argv else "web"
    if len(argv) > 1 or mode not in MODES:
        sys.exit("Usage: bin/serve [release | worker]  (no argument: the web server)")
    use_production_environment()
    if mode == "worker":
        os.execv(sys.executable, WORKER)
    if mode == "release":
        release()
        return
    import django
    from django.conf import settings

    django.setup()
    if getattr(settings, "HOSTED", False):
        prepare_hosted()  # gunicorn logs where it listens, as a JSON line like every other event
        os.execv(sys.executable, GUNICORN)
    prepare_laptop(load_demo=os.environ.get("DEMO", "1") != "0")
    announce()
    sys.exit(Supervisor().run())


if __name__ == "__main__":
    main(sys.argv[1:])
