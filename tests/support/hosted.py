"""A hosted service's settings (HOSTED=1) started in a fresh process, as a server's is: `HOSTED` is
what its app servers must share (nothing is connected to), `start` runs `django.setup()` and some
code under it with the environment of the tests' own process left out."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DROPPED = {
    "DEBUG",
    "TESTING",
    "SECRET_KEY",
    "PUBLIC_URL",
    "PROXY",
    "DATABASE_URL",
    "REDIS_URL",
    "SENTRY_DSN",
    "HOSTED",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
}
HOSTED = {
    "HOSTED": "1",
    "SECRET_KEY": "one-key-for-every-app-server-of-the-service-0123456789",
    "DATABASE_URL": "postgres://rummikub@127.0.0.1:1/rummikub",  # never connected to here
    "REDIS_URL": "redis://127.0.0.1:1/0",
}


def start(var_dir, code, **env):
    """`django.setup()` and then `code`, in a fresh process with the given environment."""
    environment = {k: v for k, v in os.environ.items() if k not in DROPPED}
    environment.update(VAR_DIR=str(var_dir), DJANGO_SETTINGS_MODULE="config.settings", **env)
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
