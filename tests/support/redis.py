"""A real Redis for tests: `redis-server` on a free loopback port in a temporary folder, nothing saved.

As a context manager (in tests, benchmarks, scripts):

    with RedisServer() as redis:
        redis.url            # redis://127.0.0.1:<port>/0, for REDIS_URL or CACHES["default"]["LOCATION"]
        redis.command("FLUSHALL")
        redis.stop()         # kill it: the port then refuses connections

As pytest fixtures: `redis_server` (a RedisServer for the test) and `redis_cache` (the test's
settings.CACHES pointed at it, as REDIS_URL would; the shared cache's memory of an outage is
forgotten before and after). Import them into the test module: `from tests.support.redis import
redis_cache, redis_server  # noqa: F401`.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.support.server import free_port

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
START_SECONDS = 10


class RedisServer:
    """`redis-server --port P --bind 127.0.0.1 --save '' --appendonly no` in a temporary folder."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None
        self._folder: tempfile.TemporaryDirectory | None = None

    def start(self) -> RedisServer:
        self._folder = tempfile.TemporaryDirectory(prefix="redis-")
        command = [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        command += ["--dir", self._folder.name, "--logfile", str(Path(self._folder.name) / "redis.log")]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + START_SECONDS
        while self.command("PING") != "+PONG":
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.05)
        return self

    def command(self, *words: str) -> str | None:
        """One command's first reply line (e.g. "+OK"), or None when nothing answers."""
        request = f"*{len(words)}\r\n" + "".join(f"${len(word.encode())}\r\n{word}\r\n" for word in words)
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=2) as connection:
                connection.sendall(request.encode())
                return connection.makefile("rb").readline().decode().strip()
        except OSError:
            return None

    def stop(self) -> None:
        """Kill the server (as a crash would) and remove its folder."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


@pytest.fixture
def redis_server():
    with RedisServer() as server:
        yield server


@pytest.fixture
def redis_cache(settings, redis_server):
    """The test's cache is Redis at `redis_server`, as with REDIS_URL set."""
    from tournament import shared_cache

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_server.url,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
    shared_cache.forget_outage()
    yield redis_server
    shared_cache.forget_outage()
