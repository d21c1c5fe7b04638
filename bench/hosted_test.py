"""`make hosted-test`: the hosted service on real components, under load, while parts of it fail.

Starts on loopback, each in a temporary folder and stopped by its pid at the end whatever happens
(bench/hosted_parts.py): a PostgreSQL cluster of its own, redis-server, then, as an operator without
containers starts them (the systemd units of deploy/systemd/ and a settings file in the form of
deploy/hosted.env.example), the release step, two app servers and one task worker, and HAProxy with
deploy/haproxy.cfg (active health checks on /healthz, retries on the other server, port 80's
redirect). It prepares three organisations with two tournaments each (bench/hosted_checks.py), then
through the proxy plays the hall scenario for all six at once with Locust (bench/hosted_scenario.py,
its own process; everyone signs in at a moment of their own over the first SIGN_IN_SPREAD seconds),
while:
- Redis loses everything (FLUSHALL);
- one app server is killed with `kill -9` (its whole process group: the machine died), then
  started again once the proxy has marked it down;
- PostgreSQL restarts (`pg_ctl restart -m fast`), and later stops for 15 s and starts again;
- the worker is killed after a burst of verifications, and started again;
- a restore is previewed on one server (on its own port) and confirmed on the other, twice at once.

Checks: no save a tablet saw acknowledged is missing from the database; no more requests failed,
outside the database's outages, than the killed server held in flight; no 5xx answers a request
that started 2 s or more after the database accepted connections again; the worker outlived both
outages (the same process) and the one started after its kill exits 0 when stopped; no staff member
was sent back to the sign-in page; the newest snapshot of each tournament holds every verified
sheet; the restore applied once; the app servers' VAR_DIRs hold nothing but collected static files;
the proxy marked the dead server down within 2 s and redirects plain HTTP to https. Prints one line:
`hosted: N requests, p95 X ms (steady state S ms, sign-ins G ms), errors E (in flight at the kill K),
lost saves 0, signed out 0, snapshots missing 0, restores applied 1, files on app servers 0, 5xx after
the database returned 0, worker exits 0`
(what went wrong, if anything, before it on standard error) and exits 1 when a check fails.
Fails, never skips, when PostgreSQL, redis-server or haproxy is missing.

Usage: .venv/bin/python bench/hosted_test.py [--keep] [--set NAME=VALUE ...]   (or `make hosted-test`)
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
from hall_report import lines, locust_rows, milliseconds
from hosted_parts import (
    HOST,
    ROOT,
    Database,
    Processes,
    Proxy,
    free_port,
    program,
    proxy_settings,
    release,
    start_app,
    start_redis,
    start_worker,
    write_env_file,
)
from page_forms import form_fields

SCENARIO = Path(__file__).with_name("hosted_scenario.py")
PACE = 0.3  # the scenario's think times: a third of a person's
PHONES = 24
RAMP_SECONDS, RUN_SECONDS = 10, 110
SIGN_IN_SPREAD = 40  # seconds over which people sign in (as at a venue, at the scenario's pace)
# Seconds into the load (after the ramp) of each fault; the worker is killed after a burst of
# verifications or at WORKER_KILL_BY.
FLUSH_AT, KILL_AT, DB_RESTART_AT, DB_STOP_AT, WORKER_KILL_BY, RESTORE_AT = 10, 20, 35, 50, 85, 90
DB_STOP_FOR = 15
VERIFICATIONS_BEFORE_WORKER_KILL = 6
DOWN_WITHIN = 2.0  # seconds for the proxy to mark a dead server down


def say(text):
    print(f"hosted-test: {text}", file=sys.stderr, flush=True)


class Service:
    """The running components and what happened to them during the load."""

    def __init__(self, folder, processes, database):
        self.folder, self.processes, self.database = folder, processes, database
        self.ports = [free_port(), free_port()]
        self.var_dirs = [folder / "var" / f"app-{port}" for port in self.ports]
        self.notes = {"in_flight": 0, "down_after": None, "restore": [], "outages": [], "worker": {}}

    def start_app(self, index):
        name = f"app{index + 1}"
        start_app(self.processes, name, self.folder, self.ports[index])
        return name

    def start(self):
        names = [self.start_app(0), self.start_app(1)]  # both collect their static files at once
        for name, port in zip(names, self.ports, strict=True):
            self.processes.wait_for_port(name, port)
        start_worker(self.processes, self.folder)
        self.proxy = Proxy(self.processes, self.folder)
        for name in names:
            if self.proxy.wait_for(name, "UP", 20) is None:
                raise SystemExit(f"hosted-test: the proxy never saw {name} up")
        self.notes["redirect"] = plain_http_redirect(self.proxy.http_port)

    def flush_redis(self, url):
        import redis

        redis.Redis.from_url(url).flushall()
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

    def restart_database(self):
        """`pg_ctl restart -m fast`; noted as an outage from the restart to its accepting connections."""
        down = time.time()
        self.database.restart()
        self.notes["outages"].append((down, time.time()))
        say(f"PostgreSQL restarted in {time.time() - down:.1f} s")

    def stop_database(self, seconds):
        down = time.time()
        self.database.stop()
        say(f"PostgreSQL stopped for {seconds} s")
        time.sleep(max(0.0, down + seconds - time.time()))
        self.database.start()
        self.notes["outages"].append((down, time.time()))
        say(f"PostgreSQL accepts connections again after {time.time() - down:.1f} s")

    def kill_worker(self, out, deadline):
        """After a burst of verifications (or at `deadline`), kill -9 the worker and start it again;
        notes whether it had outlived the database's outages (the same process, still running)."""
        while time.time() < deadline and sum(1 for _ in lines(out, "verified")) < VERIFICATIONS_BEFORE_WORKER_KILL:
            time.sleep(0.5)
        first = self.processes.running["worker"]
        self.notes["worker"]["outlived"] = first.poll() is None and first.pid == self.notes["worker"]["pid"]
        self.processes.kill("worker")
        say(f"worker killed after {sum(1 for _ in lines(out, 'verified'))} verifications")
        time.sleep(2)
        start_worker(self.processes, self.folder)


def plain_http_redirect(port):
    """Where the proxy's plain-HTTP port sends a page: its Location (an https address), or the status."""
    import requests

    reply = requests.get(f"http://{HOST}:{port}/t/some/standings/?x=1", allow_redirects=False, timeout=10)
    return reply.headers.get("Location") if reply.status_code == 301 else f"status {reply.status_code}"


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
        service.notes["worker"]["pid"] = service.processes.running["worker"].pid
        at(FLUSH_AT)
        service.flush_redis(service.env["REDIS_URL"])
        at(KILL_AT)
        service.kill_app()
        at(DB_RESTART_AT)
        service.restart_database()
        at(DB_STOP_AT)
        service.stop_database(DB_STOP_FOR)
        service.kill_worker(out, started + RAMP_SECONDS + WORKER_KILL_BY)
        at(RESTORE_AT)
        service.notes["restore"] = restore_across_servers(
            service, json.loads((service.folder / "data.json").read_text())
        )
        say(f"restore previewed on app1, confirmed twice at once on app2: answers {service.notes['restore']}")
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
    service.notes["started"] = started
    faults = threading.Thread(target=play_faults, args=(service, out, started, errors))
    faults.start()
    with open(service.folder / "locust.log", "w") as log:
        subprocess.run(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, timeout=RUN_SECONDS + 120)
    faults.join()
    return errors


def problems_of(service, out, figures):
    """What failed, one sentence each."""
    notes, down_after = service.notes, service.notes["down_after"]
    found = [
        *(
            [
                f"{figures['errors']} requests failed outside the database's outages, more than the "
                f"{notes['in_flight']} in flight at the kill"
            ]
            if figures["errors"] > notes["in_flight"]
            else []
        ),
        *(f"lost save: {slug} table {table} game {game}" for slug, table, game in figures["lost"]),
        *([] if figures["acknowledged"] else ["no save was acknowledged"]),
        *([] if checks.verified_sheets() else ["no sheet was verified"]),
        *(f"snapshot missing: {slug} table {table} verified" for slug, table in figures["missing"]),
        *([f"{figures['left']} tasks still queued or running"] if figures["left"] else []),
        *([] if figures["applied"] == 1 else [f"the restore applied {figures['applied']} times ({notes['restore']})"]),
        *(f"file on an app server: {path}" for path in figures["files"]),
        *(f"5xx after the database returned: {r['status']} {r['name']}" for r in figures["after_return"]),
        *([] if notes["worker"].get("outlived") else ["the worker did not outlive the database's outages"]),
        *([] if figures["worker_exit"] == 0 else [f"the worker exited {figures['worker_exit']} when stopped"]),
        *([] if str(notes.get("redirect")).startswith("https://") else [f"port 80 answered {notes.get('redirect')}"]),
        *([f"{figures['signed_out']} staff requests sent back to the sign-in page"] if figures["signed_out"] else []),
        *([] if len(notes["outages"]) == 2 else [f"the database's faults ran {len(notes['outages'])} of 2 times"]),
    ]
    if down_after is None or down_after > DOWN_WITHIN:
        found.append(f"the proxy marked the killed server down after {down_after} s (limit {DOWN_WITHIN} s)")
    return found


def summary(service, out, fault_errors, left, statuses):
    """The one line, and the problems behind a failed check (on standard error); whether all hold."""
    total = {row["Name"]: row for row in locust_rows(out)}["Aggregated"]
    outages = service.notes["outages"]
    lost, acknowledged = checks.lost_saves(out)
    steady, sign_ins = checks.p95s(out, service.notes["started"] + SIGN_IN_SPREAD + 5, outages)
    figures = {
        "errors": len(checks.failures_outside(out, outages)),
        "lost": lost,
        "acknowledged": acknowledged,
        "signed_out": sum(1 for _ in lines(out, "signed-out")),
        "missing": checks.snapshots_missing(),
        "applied": checks.restores_applied(),
        "files": checks.files_on_app_servers(service.var_dirs),
        "left": left,
        "after_return": checks.errors_after_return(out, outages),
        "worker_exit": statuses.get("worker"),
    }
    problems = [*fault_errors, *problems_of(service, out, figures)]
    for (name, status, error), count in Counter(
        (f["name"], f.get("status"), f["error"]) for f in lines(out, "failures")
    ).most_common():
        say(f"{count} failed: {name} ({status}): {error}")
    for problem in problems:
        say(f"FAIL {problem}")
    print(
        f"hosted: {total['Request Count']} requests, p95 {milliseconds(total['95%']):.0f} ms (steady state "
        f"{steady:.0f} ms, sign-ins {sign_ins:.0f} ms), errors {figures['errors']} (in flight at the kill "
        f"{service.notes['in_flight']}), lost saves {len(lost)}, signed out {figures['signed_out']}, snapshots "
        f"missing {len(figures['missing'])}, restores applied {figures['applied']}, files on app servers "
        f"{len(figures['files'])}, 5xx after the database returned {len(figures['after_return'])}, worker exits "
        f"{figures['worker_exit']}",
        flush=True,
    )
    return not problems


def settings_file(folder, database_url, redis_url, app_ports, chosen):
    """The operator's settings file (deploy/hosted.env.example's form) for this service on loopback,
    with the settings `chosen` on the command line (--set NAME=VALUE)."""
    return write_env_file(
        folder,
        {
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "PUBLIC_URL": "",  # plain HTTP on loopback: no certificate here
            "LOG_LEVEL": "WARNING",
            **proxy_settings(folder, app_ports),
            **chosen,
        },
    )


def run(folder, chosen):
    program("redis-server"), program("haproxy")  # missing ones fail before anything starts
    out = folder / "out"
    out.mkdir()
    processes = Processes(folder)
    with contextlib.ExitStack() as stack:
        database = Database(folder)
        stack.callback(database.close)
        stack.callback(processes.stop_all)  # before the database stops
        service = Service(folder, processes, database)
        service.env = settings_file(folder, database.url, start_redis(processes, folder), service.ports, chosen)
        began = time.monotonic()
        release(folder)
        checks.setup({**service.env, "PATH": os.environ.get("PATH", ""), "VAR_DIR": str(folder / "test-var")})
        data = {**checks.prepare(), "pace": PACE, "sign_in_spread": SIGN_IN_SPREAD}
        (folder / "data.json").write_text(json.dumps(data))
        service.start()
        say(f"service up in {time.monotonic() - began:.0f} s; the load runs {RAMP_SECONDS + RUN_SECONDS} s")
        fault_errors = run_locust(service, out)
        left = checks.wait_for_tasks(30)  # the worker's last snapshots
        statuses = processes.stop_all()  # before the servers' files are counted
        try:
            return summary(service, out, fault_errors, left, statuses)
        finally:
            checks.close_connections()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keep", action="store_true", help="keep the run's folder (logs, Locust's CSV)")
    parser.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE", help="a setting of the service, e.g. CONN_MAX_AGE=0"
    )
    args = parser.parse_args()
    chosen = dict(pair.split("=", 1) for pair in args.set)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a stopped test still stops what it started
    folder = Path(tempfile.mkdtemp(prefix="hosted-test-"))
    try:
        passed = run(folder, chosen)
    finally:
        if args.keep:
            say(f"run folder kept: {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
