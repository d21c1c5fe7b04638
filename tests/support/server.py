"""A real server for tests and benchmarks: gunicorn on 127.0.0.1 over a database of its own.

On SQLite the database is a file in a temporary folder; when DATABASE_URL points at
PostgreSQL a fresh database is created next to it and dropped afterwards.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(condition, timeout=20):
    """Poll `condition` until it gives something true, and return that; fail after `timeout` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("waited in vain")


def kill_9_once(process, started):
    """Wait until `started()`, then kill -9 `process` (a power cut) and wait until it is gone."""
    try:
        wait_for(started, timeout=60)
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.wait(timeout=30)


@contextmanager
def stopping(process):
    """Hand `process` over, then stop it with SIGTERM, as a service manager would."""
    try:
        yield process
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


class Server:
    """gunicorn serving the project with production settings (DEBUG off, plain HTTP)."""

    def __init__(self, folder, *, workers=2, threads=1):
        self.folder = Path(folder)
        self.workers, self.threads = workers, threads
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None
        self.env = {
            k: v
            for k, v in os.environ.items()
            if k not in {"DEBUG", "TESTING", "DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}
        }
        self.env.update(
            SECRET_KEY="server-test-secret-key-" + uuid.uuid4().hex,
            ALLOWED_HOSTS="127.0.0.1,localhost",
            VAR_DIR=str(self.folder),
            DJANGO_SETTINGS_MODULE="config.settings",
            PYTHONPATH=str(ROOT),
        )
        self._pg_admin_url = None
        base = os.environ.get("DATABASE_URL", "")
        if base.startswith(("postgres://", "postgresql://")):
            name = f"rummikub_server_{uuid.uuid4().hex[:10]}"
            self._pg_admin_url, self._pg_name = base, name
            self._pg_execute(f'CREATE DATABASE "{name}"')
            parts = urlsplit(base)
            self.env["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{name}"))
        else:
            self.env.pop("DATABASE_URL", None)
        self.manage("migrate", "--noinput")

    def _pg_execute(self, sql):
        import psycopg

        with psycopg.connect(self._pg_admin_url, autocommit=True) as connection:
            connection.execute(sql)

    def manage(self, *args, input=None, check=True):
        """Run `manage.py` against the server's database; returns the CompletedProcess."""
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            input=input,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if check and result.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
        return result

    def shell(self, code):
        """Run `code` in `manage.py shell` on the server's database; what it prints, read as JSON."""
        return json.loads(self.manage("shell", "-v", "0", "-c", code).stdout)

    def worker(self):
        """Start a task worker (`manage.py run_tasks`) on the server's database."""
        return subprocess.Popen(
            [sys.executable, "manage.py", "run_tasks"],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def start(self):
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi",
                "-b",
                f"127.0.0.1:{self.port}",
                "-w",
                str(self.workers),
                "--threads",
                str(self.threads),
                "--timeout",
                "60",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=open(self.folder / "gunicorn.log", "ab"),
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("gunicorn exited: " + (self.folder / "gunicorn.log").read_text())
            try:
                urllib.request.urlopen(f"{self.url}/accounts/login/", timeout=2)
                return self
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.1)
        raise RuntimeError("gunicorn did not answer within 30 s")

    def kill(self):
        """kill -9 the whole server (master and workers), as a power cut would."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def stop(self):
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None

    def close(self):
        self.stop()
        if self._pg_admin_url:
            self._pg_execute(f'DROP DATABASE IF EXISTS "{self._pg_name}" WITH (FORCE)')

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class MakeRun:
    """`make run HOST=0.0.0.0 PORT=…` over a VAR_DIR (and so a database) of its own, as an
    organiser starts it (the install step is skipped: the test runs inside the installed environment);
    `make_args` adds make's variables, e.g. DEMO=0."""

    def __init__(self, folder, *, host="0.0.0.0", port=None, make_args=()):
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.folder = Path(folder)
        env = {
            key: value
            for key, value in os.environ.items()
            if key
            not in {
                "TESTING",
                "DATABASE_URL",
                "DJANGO_SETTINGS_MODULE",
                "DJANGO_ALLOW_ASYNC_UNSAFE",
                "PUBLIC_URL",
                "LISTEN_HOST",
                "MAKEFLAGS",
                "MFLAGS",
                "MAKELEVEL",
            }
        }
        env["VAR_DIR"] = str(self.folder)
        self.env = env
        self.output = []
        self.process = subprocess.Popen(
            [
                "make",
                "--no-print-directory",
                "-o",
                "system-packages",
                "-o",
                ".venv/.installed-run",
                "run",
                f"HOST={host}",
                f"PORT={self.port}",
                *make_args,
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def manage(self, *args):
        """Run `manage.py` as an organiser would in a terminal beside the server (same VAR_DIR)."""
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
            timeout=300,
        )

    def _read(self):
        for line in self.process.stdout:
            self.output.append(line)

    @property
    def text(self):
        return "".join(self.output)

    def wait(self, timeout=180):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"make run exited:\n{self.text}")
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/accounts/login/", timeout=2)
                return self
            except OSError:
                time.sleep(0.3)
        raise AssertionError(f"make run did not serve within {timeout} s:\n{self.text}")

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=15)


def smoke_environment():
    """This process's environment without what points at the suite's own database."""
    return {name: value for name, value in os.environ.items() if name not in ("DATABASE_URL", "VAR_DIR")}
