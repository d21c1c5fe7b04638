"""Score-sheet entry under load: 30 referees saving games at once against a real server.

Starts the production server exactly as `make run` does (bin/serve: gunicorn with
config/gunicorn.conf.py, DEBUG off, plain HTTP as at a venue) on a free port of 127.0.0.1 over a
throwaway database, creates a tournament with one table per referee, and lets 30 threads save games
(each save is a compare-and-swap on the sheet version plus an audit entry). Prints the server
time per save, p50 and p95, read from gunicorn's access log (request time in microseconds), and
the client-side latency for comparison. Budget: p95 server time under 100 ms.

That stress run is a closed loop (each referee saves again as soon as the last save is answered):
it says how fast saves can go, not how many tablets a server serves. A hall is an open loop:
each tablet saves every few seconds (SAVE_INTERVAL) whatever the server's pace, so a slow answer
does not slow the next tablet down but queues behind it. The second part plays that hall with
more and more tablets, one step per rate (RATES_PER_SECOND: rate × SAVE_INTERVAL tablets, each
on a table of its own, their saves spread evenly over the interval), each save sent on time on
a connection of its own whether or not the earlier ones were answered. It prints each step's
p95 as the tablets waited (queueing for the server included) and as the server's access log
says; the knee is the highest rate whose tablets' p95 stays under 100 ms with every save
answered, and it is printed next to the stress figure. Last, `bench/sheet_ratios.py` prints the
score-sheet page's and a save's cost next to a bare Django view (in one process, one run).

The database is SQLite in a temporary folder, or with `--postgres` a PostgreSQL cluster
started for the run in a temporary folder (initdb and pg_ctl from /usr/lib/postgresql; as the
user postgres when run as root) and removed afterwards. `--smoke`: 3 referees, 3 saves each, and
two short steps of the open loop.

Usage: .venv/bin/python bench/bench_entry.py [--postgres] [--smoke]
       (or `make bench-entry`, `make bench-entry BENCH_ARGS=--postgres`)
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from http.cookies import SimpleCookie
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES_PER_TABLE = 4
TIME_LIMIT = 240  # seconds for the whole run; the bench stops by itself
BUDGET_MS = 100
RATES_PER_SECOND = (1, 2, 5, 10, 20, 30, 40, 50, 60, 80)  # the open loop's steps (saves per second over all tablets)
SAVE_INTERVAL = 3  # seconds between two saves of one tablet in the open loop
STEP_SECONDS = 12
HOST = "127.0.0.1"


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def prepare_database(env, referees):
    """Migrate the empty database, create the tournament, the referees and their sessions.

    `referees` tables, one referee each (the open loop's tablets too). Runs in this process;
    returns each referee's session key (the tablets are signed in already, so no password
    hashing weighs on the figures).
    """
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command
    from django.db import connections

    from accounts.services import make_member
    from tests.factories import build, table

    call_command("migrate", verbosity=0)
    tables = [
        table(n, [f"p{4 * n - 3}", f"p{4 * n - 2}", f"p{4 * n - 1}", f"p{4 * n}"], state="empty")
        for n in range(1, referees + 1)
    ]
    build(4 * referees, rounds=[{"number": 1, "kind": "qualifying", "state": "started", "tables": tables}])
    users = User.objects.bulk_create(
        User(username=f"ref{n}", password=make_password(None)) for n in range(1, referees + 1)
    )
    for user in users:
        make_member(user, "referee")
    sessions = {}
    for user in User.objects.filter(username__startswith="ref"):
        session = SessionStore()
        session.update(
            {
                SESSION_KEY: str(user.pk),
                BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                HASH_SESSION_KEY: user.get_session_auth_hash(),
            }
        )
        session.create()
        sessions[user.username] = session.session_key
    connections.close_all()
    return sessions


class Referee:
    """One tablet: a cookie jar and an HTTP connection to the server."""

    def __init__(self, port, number, session_key):
        self.conn = http.client.HTTPConnection(HOST, port, timeout=15)
        self.cookies = {"sessionid": session_key}
        self.table = number
        self.name = f"ref{number}"
        self.latencies = []
        self.conflicts = 0
        self.failures = 0

    def request(self, method, path, body=None, headers=None):
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body is not None:
            body = urllib.parse.urlencode(body, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        text = response.read().decode()
        for header in response.headers.get_all("Set-Cookie") or []:
            for key, morsel in SimpleCookie(header).items():
                self.cookies[key] = morsel.value
        return response.status, text

    def sheet_path(self):
        return f"/referee/test/round/1/table/{self.table}/"

    def save_games(self, saves, deadline):
        status, page = self.request("GET", self.sheet_path())
        if status != 200:
            raise RuntimeError(f"{self.name}: sheet page answered {status}")
        version = int(re.search(r'id="g1-version" value="(\d+)"', page).group(1))
        for i in range(saves):
            if time.monotonic() > deadline:
                break
            number = i % GAMES_PER_TABLE + 1
            data = save_data(i, version)
            started = time.perf_counter()
            status, fragment = self.request(
                "POST",
                f"{self.sheet_path()}game/{number}/",
                data,
                {"HX-Request": "true", "X-CSRFToken": self.cookies["csrftoken"], "Referer": f"http://{HOST}/"},
            )
            self.latencies.append(time.perf_counter() - started)
            if status != 200 or "data-just-saved" not in fragment:
                if "Someone else saved this sheet" in fragment:
                    self.conflicts += 1
                else:
                    self.failures += 1
            match = re.search(rf'id="g{number}-version" value="(\d+)"', fragment)
            if match:
                version = int(match.group(1))


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


@contextlib.contextmanager
def postgresql_cluster(workdir, *, shared_buffers=None):
    """A throwaway PostgreSQL cluster in `workdir` on a free port; yields its DATABASE_URL.
    `shared_buffers`: PostgreSQL's own cache (initdb's default, 128 MB, is for the smallest machines)."""
    bins = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))
    if not bins:
        raise SystemExit("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin)")
    pg_bin, data, port = bins[-1], workdir / "pgdata", free_port()
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if as_postgres:
        shutil.chown(workdir, "postgres", "postgres")

    def run(*command):
        subprocess.run([*as_postgres, *command], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    run(pg_bin / "initdb", "-D", data, "--auth=trust", "-E", "UTF8")
    options = f"-p {port} -k {workdir} -c listen_addresses={HOST} -c max_connections=100"
    if shared_buffers:
        options += f" -c shared_buffers={shared_buffers}"
    run(pg_bin / "pg_ctl", "-D", data, "-l", workdir / "postgresql.log", "-o", options, "-w", "start")
    try:
        run(pg_bin / "createdb", "-h", HOST, "-p", str(port), "-U", "postgres", "rummikub")
        yield f"postgres://postgres@{HOST}:{port}/rummikub"
    finally:
        run(pg_bin / "pg_ctl", "-D", data, "-m", "immediate", "stop")


SAVE_LINE = re.compile(r"^POST /referee/test/round/1/table/\d+/game/\d+/ 200 (\d+)$")
START_SECONDS = 300  # a first start migrates and compresses the static files: slow on a busy machine


def start_server(env, port, access_log, *, options=(), log=subprocess.DEVNULL, log_format=""):
    """The production start (bin/serve, as `make run` runs it; no demo) on `port`, with an access log
    giving each request's time in µs; `options` override gunicorn's (config/gunicorn.conf.py)."""
    gunicorn_args = [
        *options,
        "--access-logfile",
        str(access_log),
        "--access-logformat",
        f"'%(m)s %(U)s %(s)s %(D)s{log_format}'",
    ]
    server = subprocess.Popen(
        [str(ROOT / "bin" / "serve")],
        cwd=ROOT,
        stdout=log,
        stderr=log,
        env={
            **env,
            "HOST": HOST,
            "PORT": str(port),
            "DEMO": "0",
            "PYTHON": sys.executable,
            "GUNICORN_CMD_ARGS": " ".join(gunicorn_args),
        },
    )
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("the server stopped at its start")
        try:
            socket.create_connection((HOST, port), timeout=0.2).close()
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError(f"the server did not start within {START_SECONDS} s")


def stop_server(server):
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()


def run_referees(port, sessions, count, saves):
    """`count` referees save `saves` games each at once; returns (referees, errors, seconds)."""
    referees = [Referee(port, n, sessions[f"ref{n}"]) for n in range(1, count + 1)]
    deadline = time.monotonic() + TIME_LIMIT
    errors = []

    def run(referee):
        try:
            referee.save_games(saves, deadline)
        except Exception as error:  # report, do not hang the bench
            errors.append(f"{referee.name}: {error}")

    threads = [threading.Thread(target=run, args=(r,)) for r in referees]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=TIME_LIMIT + 30)
    return referees, errors, time.perf_counter() - started


class OpenLoop:
    """The hall as an open loop: tablets that each save every SAVE_INTERVAL seconds, on time
    whatever the answers' pace, each save on a connection of its own; a tablet's next save
    carries the version its last answer gave (a save still unanswered when the next is due
    leaves that one to be refused as a conflict, which is counted)."""

    def __init__(self, port, sessions, interval):
        self.port, self.sessions, self.interval = port, sessions, interval
        self.tablets = []
        self.lock = threading.Lock()
        self.versions = {}
        self.sent = 0
        self.failures = 0
        self.conflicts = 0

    def add_tablets(self, count):
        """Up to `count` tablets in all, each opening its table's sheet first (before the step's clock)."""
        for number in range(len(self.tablets) + 1, count + 1):
            tablet = Referee(self.port, number, self.sessions[f"ref{number}"])
            try:
                page = tablet.request("GET", tablet.sheet_path())[1]
            except OSError:
                page = ""  # the first save is refused as a conflict whose answer carries the version
            match = re.search(r'id="g1-version" value="(\d+)"', page)
            self.versions[number] = int(match.group(1)) if match else 0
            self.tablets.append(tablet)

    def save(self, tablet, i, waited):
        with self.lock:
            version = self.versions[tablet.table]
        one = Referee(self.port, tablet.table, tablet.cookies["sessionid"])
        one.cookies = dict(tablet.cookies)
        number = i % GAMES_PER_TABLE + 1
        started = time.perf_counter()
        try:
            status, fragment = one.request(
                "POST",
                f"{one.sheet_path()}game/{number}/",
                save_data(i, version),
                {"HX-Request": "true", "X-CSRFToken": one.cookies.get("csrftoken", ""), "Referer": f"http://{HOST}/"},
            )
        except OSError:  # a timeout or a refused connection: counted, the loop goes on
            status, fragment = None, ""
        match = re.search(rf'id="g{number}-version" value="(\d+)"', fragment)
        with self.lock:
            waited.append((time.perf_counter() - started) * 1000)
            if match:
                self.versions[tablet.table] = max(self.versions[tablet.table], int(match.group(1)))
            if status != 200:
                self.failures += 1
            elif "Someone else saved this sheet" in fragment:
                self.conflicts += 1

    def step(self, rate, seconds):
        """`rate` × interval tablets save for `seconds`, each every `interval` seconds, their saves
        spread evenly; returns the tablets' waits (ms) once every answer is in."""
        tablets = self.tablets[: max(1, round(rate * self.interval))]
        threads, waited, started = [], [], time.monotonic()
        for i in range(int(rate * seconds)):
            time.sleep(max(0.0, started + i / rate - time.monotonic()))
            tablet = tablets[i % len(tablets)]
            thread = threading.Thread(target=self.save, args=(tablet, self.sent + i, waited))
            thread.start()
            threads.append(thread)
        for thread in threads:
            thread.join(timeout=60)
        self.sent += len(threads)
        return waited


def save_data(i, version):
    """A game to save: a different winner and different racks each time."""
    winner = "ABCD"[i % 4]
    data = {"version": version, "ending": winner}
    for letter in "ABCD":
        if letter != winner:
            data.update(
                {
                    f"{letter}-tiles": str((i * 7 + ord(letter)) % 60),
                    f"{letter}-jokers": "0",
                    f"{letter}-opening": "opened",
                }
            )
    return data


def run_open_loop(port, sessions, access_log, rates, seconds, interval):
    """Each rate in turn; returns ([(rate, tablets' p95 ms, server's p95 ms)], failed saves, conflicts)."""
    loop = OpenLoop(port, sessions, interval)
    steps = []
    for rate in rates:
        loop.add_tablets(round(rate * interval))
        before = len(access_log.read_text().splitlines())
        failures = loop.failures
        waited = loop.step(rate, seconds)
        lines = access_log.read_text().splitlines()[before:]
        server_ms = [int(m.group(1)) / 1000 for line in lines if (m := SAVE_LINE.match(line))]
        tablets_p95 = percentile(waited, 0.95) if waited else None
        steps.append((rate, tablets_p95, percentile(server_ms, 0.95) if server_ms else None, loop.failures - failures))
        if tablets_p95 is None or tablets_p95 >= 2 * BUDGET_MS:
            break  # well past the knee
    return steps, loop.failures, loop.conflicts


def knee(steps):
    """The highest rate whose tablets waited p95 < BUDGET_MS with every save answered (0: none)."""
    held = [
        rate
        for rate, tablets_p95, _server, failed in steps
        if tablets_p95 is not None and tablets_p95 < BUDGET_MS and not failed
    ]
    return max(held, default=0)


def report_open_loop(steps, failures, conflicts, seconds, interval):
    print(
        f"bench-entry, open loop: tablets saving every {interval} s, whatever the answers' pace "
        f"({seconds} s a step): saves per second → p95 as the tablets waited (the server's own)"
    )
    for rate, tablets_p95, server_p95, failed in steps:
        if tablets_p95 is None:
            print(f"  {rate:>4} saves/s, {round(rate * interval):>3} tablets: no save answered")
            continue
        server = f"{server_p95:.1f} ms" if server_p95 is not None else "–"
        print(
            f"  {rate:>4} saves/s, {round(rate * interval):>3} tablets: p95 {tablets_p95:.1f} ms (server {server})"
            f"{f', {failed} failed' if failed else ''}"
        )
    print(
        f"  knee: {knee(steps)} saves/s held with p95 < {BUDGET_MS} ms "
        f"(failed saves: {failures}, refused as conflicts: {conflicts})"
    )


def report(referees, errors, elapsed, server_ms, database, steps):
    """The stress run, with the open loop's knee beside its figure; returns whether it held its budget."""
    client_ms = [s * 1000 for r in referees for s in r.latencies]
    saves = len(client_ms)
    print(
        f"bench-entry: {len(referees)} referees, {saves} game saves in {elapsed:.1f} s "
        f"({saves / elapsed if elapsed else 0:.0f} saves/s at full stress; knee {knee(steps)} saves/s held with "
        f"p95 < {BUDGET_MS} ms by tablets saving every few seconds), the production start (bin/serve), {database}"
    )
    ok = bool(server_ms) and percentile(server_ms, 0.95) < BUDGET_MS
    if server_ms:
        print(
            f"  server time per save (gunicorn access log): p50 {statistics.median(server_ms):.1f} ms, "
            f"p95 {percentile(server_ms, 0.95):.1f} ms, max {max(server_ms):.1f} ms  "
            f"(budget: p95 < {BUDGET_MS} ms: {'PASS' if ok else 'FAIL'})"
        )
    if client_ms:
        print(
            f"  client latency per save (includes queueing for the server's threads): p50 {statistics.median(client_ms):.1f} ms, "
            f"p95 {percentile(client_ms, 0.95):.1f} ms"
        )
    else:
        print("  no save was answered: no latency to report")
    print(f"  machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} (other processes slow the figures)")
    failures = sum(r.failures for r in referees)
    conflicts = sum(r.conflicts for r in referees)
    print(f"  refused as conflicts: {conflicts}, failed: {failures}, errors: {len(errors)}")
    for error in errors[:5]:
        print("   ", error)
    return ok and not failures and not errors


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", action="store_true", help="on a throwaway PostgreSQL cluster")
    parser.add_argument("--smoke", action="store_true", help="the smallest setting, a few seconds")
    args = parser.parse_args()
    referees, saves = (3, 3) if args.smoke else (30, 20)
    rates, seconds, interval = ((2, 4), 2, 1) if args.smoke else (RATES_PER_SECOND, STEP_SECONDS, SAVE_INTERVAL)
    workdir = Path(tempfile.mkdtemp(prefix="bench-entry-"))
    access_log = workdir / "access.log"
    env = {"VAR_DIR": str(workdir), "LOG_LEVEL": "ERROR"}
    for name in ("DATABASE_URL", "TESTING"):  # production settings, on the throwaway database only
        os.environ.pop(name, None)
    server = None
    try:
        with contextlib.ExitStack() as stack:
            if args.postgres:
                env["DATABASE_URL"] = stack.enter_context(postgresql_cluster(workdir))
            sessions = prepare_database(env, max(referees, round(max(rates) * interval)))
            port = free_port()
            server = start_server({**os.environ, **env}, port, access_log)
            try:
                referees, errors, elapsed = run_referees(port, sessions, referees, saves)
                stress_lines = len(access_log.read_text().splitlines())
                steps, open_failures, conflicts = run_open_loop(port, sessions, access_log, rates, seconds, interval)
            finally:
                stop_server(server)
        lines = access_log.read_text().splitlines()[:stress_lines]
        server_ms = [int(m.group(1)) / 1000 for line in lines if (m := SAVE_LINE.match(line))]
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    ok = report(referees, errors, elapsed, server_ms, "PostgreSQL" if args.postgres else "SQLite", steps)
    report_open_loop(steps, open_failures, conflicts, seconds, interval)
    ratios = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "sheet_ratios.py"), *(["--smoke"] if args.smoke else [])]
    )
    ok = ok and ratios.returncode == 0
    return 0 if ok or (args.smoke and server_ms and not errors) else 1


if __name__ == "__main__":
    sys.exit(main())
