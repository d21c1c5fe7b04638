"""`bin/serve` run by the tests: its environment (`environment`, and `hosted_env`, a fixture: a hosted
server's over a fresh, empty PostgreSQL database), waiting until it serves its sign-in page
(`serving`) and waiting for a condition (`wait_for`). A module that uses the fixture imports it
(`from tests.support.serve import hosted_env  # noqa: F401`)."""

import os
import time
import urllib.request
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.support.server import free_port, wait_for  # noqa: F401 (the tests of bin/serve wait with it)

ROOT = Path(__file__).resolve().parents[2]
SERVE = str(ROOT / "bin" / "serve")
PASSED_ON = {"PATH", "HOME", "LANG", "LC_ALL", "PYTHON", "TMPDIR"}


def environment(var_dir, **extra):
    env = {k: v for k, v in os.environ.items() if k in PASSED_ON}
    env.update(VAR_DIR=str(var_dir), PORT=str(free_port()), **extra)
    return env


def serving(port, process, timeout=90):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, "bin/serve exited"
        try:
            return urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=2)
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"bin/serve did not serve within {timeout} s")


@pytest.fixture
def hosted_env(tmp_path):
    """A hosted server's environment over a fresh, empty PostgreSQL database, dropped afterwards."""
    import psycopg

    admin_url = os.environ["DATABASE_URL"]
    name = f"rummikub_hosted_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin_url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    url = urlunsplit(urlsplit(admin_url)._replace(path=f"/{name}"))
    env = environment(
        tmp_path,
        HOSTED="1",
        SECRET_KEY="one-key-for-every-app-server-" + uuid.uuid4().hex,
        DATABASE_URL=url,
        REDIS_URL="redis://127.0.0.1:1/0",  # not reached by the sign-in page
    )
    yield env
    with psycopg.connect(admin_url, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
