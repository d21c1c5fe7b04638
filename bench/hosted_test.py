"""`make hosted-test`: the hosted service on real components, under load, while parts of it fail.

Starts on loopback, each in a temporary folder and stopped by its pid at the end whatever happens
(bench/hosted_parts.py): a PostgreSQL cluster, redis-server, two app servers from `bin/serve` in
hosted mode (HOSTED=1, PROXY=1, one SECRET_KEY, a VAR_DIR each), one task worker, and HAProxy with
deploy/haproxy.cfg (active health checks, retries on the other server). It prepares three
organisations with two tournaments each (bench/hosted_checks.py), then through the proxy plays the
hall scenario for all six at once with Locust (bench/hosted_scenario.py, its own process), while:
- Redis loses everything (FLUSHALL);
- one app server is killed with `kill -9` (its whole process group: the machine died), then
  started again once the proxy has marked it down;
- the worker is killed after a burst of verifications, and started again;
- a restore is previewed on one server (on its own port) and confirmed on the other, twice at once.

Checks: no save a tablet saw acknowledged is missing from the database; no more requests failed
than the killed server held in flight; no staff member was sent back to the sign-in page; the
newest snapshot of each tournament holds every verified sheet; the restore applied once; the
app servers' VAR_DIRs hold nothing but collected static files; the proxy marked the dead server
down within 2 s. Prints one line:
`hosted: N requests, p95 X ms, errors E (in flight at the kill K), lost saves 0, signed out 0,
snapshots missing 0, restores applied 1, files on app servers 0`
(what went wrong, if anything, before it on standard error) and exits 1 when a check fails.
Fails, never skips, when PostgreSQL, redis-server or haproxy is missing.

Usage: .venv/bin/python bench/hosted_test.py [--keep]   (or `make hosted-test`)
"""

import argparse
import contextlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import hosted_checks as checks
from bench_entry import postgresql_cluster
from hall_report import lines, locust_rows, milliseconds
from hosted_parts import HOST, ROOT, Processes, Proxy, free_port, program, start_app, start_redis, start_worker
from page_forms import form_fields

SCENARIO = Path(__file__).with_name("hosted_scenario.py")
PACE = 0.3  # the scenario's think times: a third of a person's
PHONES = 24
RAMP_SECONDS, RUN_SECONDS = 10, 80
FLUSH_AT, KILL_AT, RESTORE_AT = 10, 20, 45  # seconds into the load
VERIFICATIONS_BEFORE_WORKER_KILL = 6
DOWN_WITHIN = 2.0  # seconds for the proxy to mark a dead server down


def say(text):
    print(f"hosted-test: {text}", file=sys.stderr, flush=True)


class Service:
    """The running components and what happened to them during the load."""

    def __init__(self, folder, processes, env):
        self.folder, self.processes, self.env = folder, processes, env
        self.ports = [free_port(), free_port()]
        self.var_dirs = [folder / "app1-var", folder / "app2-var"]
        self.notes = {"in_flight": 0, "down_after": None, "restore": []}

    def start_app(self, index):
        name = f"app{index + 1}"
        start_app(self.processes, name, self.env, self.ports[index], self.var_dirs[index])
        return name

    def start(self):
        names = [self.start_app(0), self.start_app(1)]  # both collect their static files at once
        for name, port in zip(names, self.ports, strict=True):
            self.processes.wait_for_port(name, port)
        start_worker(self.processes, self.env, self.folder / "worker-var")
        self.proxy = Proxy(self.processes, self.folder, self.ports)
        for name in names:
            if self.proxy.wait_for(name, "UP", 20) is None:
                raise SystemExit(f"hosted-test: the proxy never saw {name} up")

    def flush_redis(self):
        import redis

        redis.Redis.from_url(self.env["REDIS_URL"]).flushall()
        say("Redis flushed (FLUSHALL)")

    def kill_app(self):
        """kill -9 of app1 mid-load; how long the proxy took to mark it down; then it starts again."""
        before = self.proxy.busiest("app1")
        self.processes.kill("app1")
        self.notes["in_flight"] = max(before, self.proxy.servers()["app1"][1])
        self.notes["down_after"] = self.proxy.wait_for("app1", "DOWN", 10)
        down = self.notes["down_after"]
        say(f"app1 killed holding {self.notes['in_flight']} requests; down after {down and round(down, 2)} s")
        self.start_app(0)
        self.processes.wait_for_port("app1", self.ports[0])
        self.proxy.wait_for("app1", "UP", 20)
        say("app1 started again and up")

    def kill_worker(self, out, deadline):
        """After a burst of verifications (or at `deadline`), kill -9 the worker and start it again."""
        while time.time() < deadline and sum(1 for _ in lines(out, "verified")) < VERIFICATIONS_BEFORE_WORKER_KILL:
            time.sleep(0.5)
        self.processes.kill("worker")
        say(f"worker killed after {sum(1 for _ in lines(out, 'verified'))} verifications")
        time.sleep(2)
        start_worker(self.processes, self.env, self.folder / "worker-var")


def restore_across_servers(service, data):
    """Preview a restore on app1 (its own port), confirm it on app2 twice at once; the answers' statuses."""
    import requests

    first, other = (f"http://{HOST}:{port}" for port in service.ports)
    slug = data["restored"]
    session = requests.Session()
    fields = dict(form_fields(session.get(f"{first}/accounts/login/", timeout=30).text, None))
    fields.update(zip(("username", "password"), data["restorer"], strict=True))
    session.post(f"{first}/accounts/login/", data=fields, allow_redirects=False, timeout=30)
    backup = session.get(f"{first}/staff/{slug}/backups/download/", timeout=30).content
    preview = session.post(
        f"{first}/staff/{slug}/backups/",
        data={"csrfmiddlewaretoken": session.cookies["csrftoken"]},
        files={"file": (f"{slug}.json", backup, "application/json")},
        timeout=60,
    ).text
    confirm = [*form_fields(preview, "/staff/new/restore/confirm/"), ("replace", "on")]
    cookies, answers = session.cookies.get_dict(), []

    def send():
        reply = requests.post(
            f"{other}/staff/new/restore/confirm/", data=confirm, cookies=cookies, allow_redirects=False, timeout=60
        )
        answers.append(reply.status_code)

    both = [threading.Thread(target=send) for _ in range(2)]
    for thread in both:
        thread.start()
    for thread in both:
        thread.join()
    return answers


def play_faults(service, out, started, errors):
    """The faults, on a timeline from the load's start (after the ramp); errors go to `errors`."""

    def at(seconds):
        time.sleep(max(0.0, started + RAMP_SECONDS + seconds - time.time()))

    try:
        at(FLUSH_AT)
        service.flush_redis()
        at(KILL_AT)
        service.kill_app()
        worker = threading.Thread(target=service.kill_worker, args=(out, started + RAMP_SECONDS + RESTORE_AT))
        worker.start()
        at(RESTORE_AT)
        service.notes["restore"] = restore_across_servers(
            service, json.loads((service.folder / "data.json").read_text())
        )
        say(f"restore previewed on app1, confirmed twice at once on app2: answers {service.notes['restore']}")
        worker.join()
    except BaseException as error:  # noqa: BLE001 (reported as a failed check, never lost in a thread)
        errors.append(repr(error))


def run_locust(service, out):
    data = json.loads((service.folder / "data.json").read_text())
    users = len(data["tournaments"]) * (data["tables"] + 2) + PHONES
    command = [
        sys.executable,
        *("-m", "locust", "-f", str(SCENARIO), "--headless", "--only-summary"),
        *("-u", str(users), "-r", str(max(1, users // RAMP_SECONDS))),
        *("-t", f"{RAMP_SECONDS + RUN_SECONDS}s", "--csv", str(out / "locust"), "--host", service.proxy.url),
        *("--loglevel", "WARNING"),
    ]
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOSTED_DATA": str(service.folder / "data.json"),
        "HOSTED_OUT": str(out),
    }
    errors, started = [], time.time()
    faults = threading.Thread(target=play_faults, args=(service, out, started, errors))
    faults.start()
    with open(service.folder / "locust.log", "w") as log:
        subprocess.run(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, timeout=RUN_SECONDS + 120)
    faults.join()
    return errors


def summary(service, out, fault_errors, left):
    """The one line, and the problems behind a failed check (on standard error); whether all hold."""
    rows = {row["Name"]: row for row in locust_rows(out)}
    total = rows["Aggregated"]
    errors, in_flight = int(total["Failure Count"]), service.notes["in_flight"]
    lost, acknowledged = checks.lost_saves(out)
    signed_out = sum(1 for _ in lines(out, "signed-out"))
    missing = checks.snapshots_missing()
    applied = checks.restores_applied()
    files = checks.files_on_app_servers(service.var_dirs)
    down_after = service.notes["down_after"]
    problems = [
        *fault_errors,
        *([f"{errors} requests failed, more than the {in_flight} in flight at the kill"] if errors > in_flight else []),
        *(f"lost save: {slug} table {table} game {game}" for slug, table, game in lost),
        *([] if acknowledged else ["no save was acknowledged"]),
        *([] if checks.verified_sheets() else ["no sheet was verified"]),
        *(f"snapshot missing: {slug} table {table} verified" for slug, table in missing),
        *([f"{left} tasks still queued or running"] if left else []),
        *([] if applied == 1 else [f"the restore applied {applied} times (answers {service.notes['restore']})"]),
        *(f"file on an app server: {path}" for path in files),
    ]
    if down_after is None or down_after > DOWN_WITHIN:
        problems.append(f"the proxy marked the killed server down after {down_after} s (limit {DOWN_WITHIN} s)")
    if signed_out:
        problems.append(f"{signed_out} staff requests sent back to the sign-in page")
    for (name, error), count in Counter((f["name"], f["error"]) for f in lines(out, "failures")).most_common():
        say(f"{count} failed: {name}: {error}")
    for problem in problems:
        say(f"FAIL {problem}")
    print(
        f"hosted: {total['Request Count']} requests, p95 {milliseconds(total['95%']):.0f} ms, errors {errors} "
        f"(in flight at the kill {in_flight}), lost saves {len(lost)}, signed out {signed_out}, snapshots missing "
        f"{len(missing)}, restores applied {applied}, files on app servers {len(files)}",
        flush=True,
    )
    return not problems


def environment(database_url, redis_url):
    """What every app server, the worker and this process share (the operator's env file)."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOSTED": "1",
        "PROXY": "1",
        "PROXY_HOPS": "1",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DEMO": "0",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }


def release(env, folder):
    """The release step (`bin/serve release`: the migrations), once, before any server starts."""
    release_env = {**env, "VAR_DIR": str(folder / "release-var"), "PYTHON": sys.executable}
    with open(folder / "release.log", "wb") as log:
        if subprocess.run(
            [str(ROOT / "bin" / "serve"), "release"], cwd=ROOT, env=release_env, stdout=log, stderr=log
        ).returncode:
            raise SystemExit(f"hosted-test: the release step failed:\n{(folder / 'release.log').read_text()[-2000:]}")


def run(folder):
    program("redis-server"), program("haproxy")  # missing ones fail before anything starts
    out = folder / "out"
    out.mkdir()
    processes = Processes(folder)
    with contextlib.ExitStack() as stack:
        database_url = stack.enter_context(postgresql_cluster(folder))
        stack.callback(processes.stop_all)  # before the database stops
        env = environment(database_url, start_redis(processes, folder))
        began = time.monotonic()
        release(env, folder)
        checks.setup({**env, "VAR_DIR": str(folder / "test-var")})
        (folder / "data.json").write_text(json.dumps({**checks.prepare(), "pace": PACE}))
        service = Service(folder, processes, env)
        service.start()
        say(f"service up in {time.monotonic() - began:.0f} s; the load runs {RAMP_SECONDS + RUN_SECONDS} s")
        fault_errors = run_locust(service, out)
        left = checks.wait_for_tasks(30)  # the worker's last snapshots
        processes.stop_all()  # before the servers' files are counted
        try:
            return summary(service, out, fault_errors, left)
        finally:
            checks.close_connections()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keep", action="store_true", help="keep the run's folder (logs, Locust's CSV)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a stopped test still stops what it started
    folder = Path(tempfile.mkdtemp(prefix="hosted-test-"))
    try:
        passed = run(folder)
    finally:
        if args.keep:
            say(f"run folder kept: {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
