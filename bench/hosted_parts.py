"""The hosted service's components on loopback, for `make hosted-test` (bench/hosted_test.py).

Each runs from Debian's package or from this checkout, in a temporary folder, in a process group
of its own: `Processes` kills a group by its leader's pid (`kill -9` = a machine that died) and
stops every group it started when the test ends, whatever happened. A missing program is an
error (never a skip): the test fails.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
HAPROXY_CONFIG = ROOT / "deploy" / "haproxy.cfg"  # the one compose.hosted.yaml mounts
START_SECONDS = 240  # a first start collects and compresses the static files: slow on a busy machine


def free_port():
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def program(name):
    """The path of a program the test needs; fails when it is not installed."""
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin:/sbin:/bin")
    if found is None:
        raise SystemExit(f"hosted-test: {name} is missing (bin/system-packages ci installs it)")
    return found


class Processes:
    """Processes started by the test, by name, each the leader of its own process group."""

    def __init__(self, folder):
        self.folder, self.running = folder, {}

    def start(self, name, command, env=None):
        log = open(self.folder / f"{name}.log", "ab")
        self.running[name] = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()
        return self.running[name]

    def kill(self, name):
        """kill -9 of the whole group: the server and its workers die at once, as with their machine."""
        process = self.running.pop(name)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()

    def stop_all(self):
        for process in self.running.values():
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
        for process in self.running.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        self.running.clear()

    def wait_for_port(self, name, port, seconds=START_SECONDS):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.running[name].poll() is not None:
                log = (self.folder / f"{name}.log").read_text(errors="replace")[-2000:]
                raise SystemExit(f"hosted-test: {name} stopped at its start:\n{log}")
            try:
                socket.create_connection((HOST, port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit(f"hosted-test: {name} did not listen on {port} within {seconds} s")


def start_redis(processes, folder):
    """redis-server on a free port, nothing saved to disk; returns its URL."""
    port = free_port()
    command = [program("redis-server"), "--port", str(port), "--bind", HOST, "--save", "", "--appendonly", "no"]
    processes.start("redis", [*command, "--daemonize", "no", "--dir", str(folder)])
    processes.wait_for_port("redis", port, seconds=20)
    return f"redis://{HOST}:{port}/0"


def start_app(processes, name, env, port, var_dir):
    """An app server as an operator starts one: bin/serve in hosted mode, its own VAR_DIR."""
    var_dir.mkdir(exist_ok=True)
    server_env = {**env, "VAR_DIR": str(var_dir), "HOST": HOST, "PORT": str(port), "PYTHON": sys.executable}
    processes.start(name, [str(ROOT / "bin" / "serve")], server_env)


def start_worker(processes, env, var_dir):
    """The task worker, as an operator starts it: `bin/serve worker`."""
    var_dir.mkdir(exist_ok=True)
    worker_env = {**env, "VAR_DIR": str(var_dir), "PYTHON": sys.executable}
    processes.start("worker", [str(ROOT / "bin" / "serve"), "worker"], worker_env)


class Proxy:
    """HAProxy with deploy/haproxy.cfg in front of the two app servers, and its stats socket."""

    def __init__(self, processes, folder, app_ports):
        self.port, self.socket = free_port(), str(folder / "haproxy.sock")
        env = {
            **os.environ,
            "PROXY_BIND": f"{HOST}:{self.port}",
            "STATS_SOCKET": self.socket,
            "APP1": f"{HOST}:{app_ports[0]}",
            "APP2": f"{HOST}:{app_ports[1]}",
        }
        processes.start("haproxy", [program("haproxy"), "-f", str(HAPROXY_CONFIG), "-db"], env)
        processes.wait_for_port("haproxy", self.port, seconds=20)
        self.url = f"http://{HOST}:{self.port}"

    def servers(self):
        """{server name: (status, sessions in flight)} from `show stat`."""
        with socket.socket(socket.AF_UNIX) as admin:
            admin.connect(self.socket)
            admin.sendall(b"show stat\n")
            text = b""
            while chunk := admin.recv(65536):
                text += chunk
        lines = text.decode().splitlines()
        columns = lines[0].lstrip("# ").split(",")
        rows = [dict(zip(columns, line.split(","), strict=False)) for line in lines[1:] if line]
        return {
            row["svname"]: (row["status"], int(row["scur"] or 0))
            for row in rows
            if row["pxname"] == "app" and row["svname"] not in ("FRONTEND", "BACKEND")
        }

    def busiest(self, name, seconds=0.1):
        """The most requests server `name` held at once over the last `seconds` (sampled every 5 ms)."""
        most, until = 0, time.monotonic() + seconds
        while time.monotonic() < until:
            most = max(most, self.servers()[name][1])
            time.sleep(0.005)
        return most

    def wait_for(self, name, status, seconds):
        """Seconds until the proxy shows server `name` in `status` (UP, DOWN), or None."""
        began = time.monotonic()
        while time.monotonic() - began < seconds:
            if self.servers()[name][0].startswith(status):
                return time.monotonic() - began
            time.sleep(0.02)
        return None
