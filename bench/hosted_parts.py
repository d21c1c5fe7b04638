"""The hosted service's components on loopback, for `make hosted-test` (bench/hosted_test.py).

Each runs from Debian's package or from this checkout, in a temporary folder, in a process group
of its own: `Processes` kills a group by its leader's pid (`kill -9` = a machine that died) and
stops every group it started when the test ends, whatever happened. A missing program is an
error (never a skip): the test fails.

The app servers, the release step and the worker start as an operator without containers starts
them (docs/hosted/without-containers.md): the command and environment of their systemd units
(deploy/systemd/) with the settings file written in the form of deploy/hosted.env.example, this
checkout in place of /opt/rummikub and the test's folder in place of /etc/rummikub and
/var/lib/rummikub. HAProxy reads the same file (deploy/systemd/haproxy.service.d/).
PostgreSQL is a cluster of the test's own (`Database`), which it restarts and stops.
"""

import os
import re
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
SYSTEMD = ROOT / "deploy" / "systemd"
ENV_EXAMPLE = ROOT / "deploy" / "hosted.env.example"
CHECKOUT, SETTINGS, STATE = "/opt/rummikub", "/etc/rummikub", "/var/lib/rummikub"  # as the units say
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
        """SIGTERM to every group, SIGKILL to those still there 30 s later; {name: exit status}."""
        for process in self.running.values():
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
        statuses = {}
        for name, process in self.running.items():
            try:
                statuses[name] = process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                statuses[name] = process.wait()
        self.running.clear()
        return statuses

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


def read_env_file(path):
    """{name: value} of a settings file as systemd's EnvironmentFile reads deploy/hosted.env.example's
    form: `NAME=value` lines; blank lines and `#` comments skipped."""
    values = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$", line)
        if match:
            values[match.group(1)] = match.group(2).strip()
    return values


def write_env_file(folder, values):
    """The operator's settings file (SETTINGS/hosted.env) in `folder`: every setting of the example
    that is not left at its default, with `values` in place of the example's; returns what it holds."""
    settings = {**read_env_file(ENV_EXAMPLE), **values}
    (folder / "hosted.env").write_text("".join(f"{name}={value}\n" for name, value in settings.items()))
    (folder / "hosted.env").chmod(0o600)
    return settings


def unit(name, folder, instance=""):
    """(command, environment) of deploy/systemd/<name> as systemd starts it, here: this checkout,
    the test's folder for the settings file and the state folders; EnvironmentFile= wins over
    Environment=, as with systemd. The state folder (VAR_DIR) is made."""
    text = (SYSTEMD / name).read_text(encoding="utf-8").replace("%i", instance)
    text = text.replace(CHECKOUT, str(ROOT)).replace(SETTINGS, str(folder)).replace(STATE, str(folder / "var"))
    environment, files, command = {}, [], None
    for line in text.splitlines():
        key, _, value = line.partition("=")
        if key == "Environment":
            environment.update(pair.split("=", 1) for pair in value.split())
        elif key == "EnvironmentFile":
            files.append(value.lstrip("-"))
        elif key == "ExecStart":
            command = value.split()
    for path in files:
        environment.update(read_env_file(path))
    environment.update(PATH=os.environ.get("PATH", "/usr/bin:/bin"), PYTHON=sys.executable)
    Path(environment["VAR_DIR"]).mkdir(parents=True, exist_ok=True)
    return command, environment


def start_app(processes, name, folder, port):
    """An app server as an operator starts one: `systemctl start rummikub-app@PORT`."""
    processes.start(name, *unit("rummikub-app@.service", folder, str(port)))


def start_worker(processes, folder):
    """The task worker, as an operator starts it: `systemctl start rummikub-worker`."""
    processes.start("worker", *unit("rummikub-worker.service", folder))


def release(folder):
    """The release step, `systemctl start rummikub-release` (the migrations), once; exits on failure."""
    command, environment = unit("rummikub-release.service", folder)
    with open(folder / "release.log", "wb") as log:
        if subprocess.run(command, cwd=ROOT, env=environment, stdout=log, stderr=log).returncode:
            raise SystemExit(f"hosted-test: the release step failed:\n{(folder / 'release.log').read_text()[-2000:]}")


class Database:
    """A PostgreSQL cluster of the test's own in `folder` on a free port, restarted and stopped at will."""

    def __init__(self, folder):
        bins = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))
        if not bins:
            raise SystemExit("hosted-test: PostgreSQL is missing (no /usr/lib/postgresql/*/bin)")
        self.bin, self.folder, self.port = bins[-1], folder / "postgresql", free_port()
        self.as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.folder.mkdir()
        if self.as_postgres:
            shutil.chown(folder, "postgres", "postgres")
            shutil.chown(self.folder, "postgres", "postgres")
        self.run("initdb", "-D", self.folder / "data", "--auth=trust", "-E", "UTF8")
        self.start()
        self.run("createdb", "-h", HOST, "-p", self.port, "-U", "postgres", "rummikub")
        self.url = f"postgres://postgres@{HOST}:{self.port}/rummikub"

    def run(self, program, *args):
        command = [*self.as_postgres, str(self.bin / program), *map(str, args)]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def pg_ctl(self, *args):
        options = f"-p {self.port} -k {self.folder} -c listen_addresses={HOST} -c max_connections=100"
        self.run("pg_ctl", "-D", self.folder / "data", "-l", self.folder / "postgresql.log", "-o", options, *args)

    def start(self):
        """Started; returns when it accepts connections (pg_ctl -w)."""
        self.pg_ctl("-w", "start")

    def restart(self):
        """`pg_ctl restart -m fast`: every connection cut, the server up again; returns when it accepts."""
        self.pg_ctl("-m", "fast", "-w", "restart")

    def stop(self):
        self.pg_ctl("-m", "fast", "-w", "stop")

    def close(self):
        try:
            self.pg_ctl("-m", "immediate", "stop")
        except subprocess.CalledProcessError:
            pass  # already stopped


def proxy_settings(folder, app_ports):
    """HAProxy's settings in the settings file: plain HTTP on loopback, the two app servers."""
    return {
        "PROXY_BIND": f"{HOST}:{free_port()}",
        "PROXY_TLS": "",
        "PROXY_HTTP_BIND": f"{HOST}:{free_port()}",
        "STATS_SOCKET": str(folder / "haproxy.sock"),
        "APP1": f"{HOST}:{app_ports[0]}",
        "APP2": f"{HOST}:{app_ports[1]}",
    }


class Proxy:
    """HAProxy with deploy/haproxy.cfg in front of the two app servers, reading the settings file as
    Debian's haproxy.service does with the project's drop-in; and its stats socket."""

    def __init__(self, processes, folder):
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **read_env_file(folder / "hosted.env")}
        self.port, self.socket = int(env["PROXY_BIND"].rsplit(":", 1)[1]), env["STATS_SOCKET"]
        self.http_port = int(env["PROXY_HTTP_BIND"].rsplit(":", 1)[1])
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
