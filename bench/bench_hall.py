"""A full hall: the whole venue at once, driven by Locust, on SQLite or PostgreSQL.

A 120-player tournament of 8 rounds is in its 5th round (4 rounds verified, 30 tables seated,
their sheets empty). The app is served the way docs/venue/network.md says:
`bin/serve`, exactly as `make run` starts it (gunicorn with config/gunicorn.conf.py, WhiteNoise, DEBUG
off, plain HTTP, the secret key made in its VAR_DIR). Then
Locust (its own process, headless: bench/hall_scenario.py) plays the hall for 3 minutes after a
30 s ramp:
- 30 tablets, each signed in through its own device link, enter their table's 4 games as the
  score sheet does (a score preview per choice typed, then the save, with htmx's headers and
  the CSRF token) and submit the sheet;
- the head referee verifies the submitted sheets; the organiser watches the dashboard (and its
  10 s poll), opens the round page and prints the seating PDF;
- 300 phones find their table by name, open their player page and the leaderboard, and poll it
  every 30 s as the page does (HX-Request, If-None-Match); a projector pages the leaderboard;
- a checker polls standings.json after each verification until it shows the sheet.

Prints per request kind: count, p50, p95, p99, failures, then
`hall: N requests, p95 X ms, errors E, lost saves L, freshness F s`, and the budgets
(PASS/FAIL): p95 < 200 ms and p99 < 500 ms for every kind, no error, no lost save (a save the
tablet saw succeed that the database does not hold at the end), freshness within the
leaderboard's poll interval + 1 s.

`--postgres`: on a throwaway PostgreSQL cluster (as bench_entry.py). `--faults`: during the load,
reload gunicorn (HUP), stop one worker (TERM) and kill one (-9); prints the failed requests
after each and whether every client recovered. `--gunicorn "-w 3"`: another gunicorn setting to
try; `--players`/`--phones`: a larger hall. `--smoke`: 16 players, a few phones, 14 seconds.

Usage: .venv/bin/python bench/bench_hall.py [--postgres] [--faults] [--smoke] [--gunicorn OPTIONS]
       (or `make bench-hall`, `make bench-hall BENCH_ARGS=--postgres`)
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
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
import urllib.request
from pathlib import Path

from bench_entry import HOST, free_port, postgresql_cluster, start_server, stop_server
from hall_report import compare_saves, freshness_seconds, print_report

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = Path(__file__).with_name("hall_scenario.py")
SLUG = "hall"
WORKERS_MAX = 4  # the warm-up reaches every worker of up to this many
POLL_SECONDS = 30  # the leaderboard page's htmx poll (templates/public/standings.html)


@dataclasses.dataclass(frozen=True)
class Size:
    players: int
    played_rounds: int
    phones: int
    ramp_seconds: int
    run_seconds: int
    pace: float  # the think times of the scenario, 1.0 = a person's


FULL = Size(players=120, played_rounds=4, phones=300, ramp_seconds=30, run_seconds=180, pace=1.0)
SMOKE = Size(players=16, played_rounds=2, phones=6, ramp_seconds=2, run_seconds=12, pace=0.02)
FIXED_USERS = 4  # the head referee, the organiser, the projector and the freshness checker


def tournament_data(size):
    """The tournament as the interchange format: `played_rounds` verified, the next one seated, empty."""
    from organiser.demo import random_tournament

    data = random_tournament(size.players, size.played_rounds + 1, slug=SLUG)
    data["tournament"]["name"] = "Hala"
    data["tournament"]["settings"]["rounds_planned"] = 8
    current = data["rounds"][-1]
    current["state"] = "started"
    for table in current["tables"]:
        table["games"], table["state"] = [], "empty"
    return data


def prepare(env, size):
    """Migrate, import the tournament, create the staff and the tablets' links (bin/serve collects
    the static files). Runs in this process (Django set up on the throwaway database); returns the scenario's data."""
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connections

    from accounts.models import Role, TournamentRole
    from accounts.services import create_device_link
    from organiser.interchange import import_tournament

    call_command("migrate", verbosity=0)
    data = tournament_data(size)
    tournament = import_tournament(data)
    logins = {}
    for username, role in (("sedzia-glowny", Role.HEAD_REFEREE), ("organizator", Role.ORGANISER)):
        password = secrets.token_urlsafe(12)
        user = User.objects.create_user(username, password=password)
        TournamentRole.objects.create(user=user, tournament=tournament, role=role)
        logins[role.value] = [username, password]
    tables = {str(t["number"]): t["seats"] for t in data["rounds"][-1]["tables"]}
    tokens = {number: create_device_link(tournament, label=f"Stół {number}")[1] for number in tables}
    connections.close_all()
    return {
        "slug": SLUG,
        "round": size.played_rounds + 1,
        "pace": size.pace,
        "poll_seconds": POLL_SECONDS,
        "logins": logins,
        "tables": tables,
        "tokens": tokens,
        "players": {p["id"]: p["name"] for p in data["players"]},
    }


def stored_games(number):
    """{(table, game): (winner, {letter: [tiles, jokers, opening]})} of round `number`, as stored."""
    from scoring.models import Game

    games = Game.objects.filter(sheet__table__round__tournament__slug=SLUG, sheet__table__round__number=number)
    stored = {}
    for game in games.select_related("sheet__table").prefetch_related("results"):
        racks = {r.letter: [r.tiles, r.jokers, r.opening] for r in game.results.all() if not r.went_out}
        stored[(game.sheet.table.number, game.number)] = (game.winner, racks)
    return stored


def sheet_states(number):
    from django.db.models import Count

    from scoring.models import ScoreSheet

    sheets = ScoreSheet.objects.filter(table__round__tournament__slug=SLUG, table__round__number=number)
    return dict(sheets.values_list("state").annotate(n=Count("pk")))


def warm_up(port):
    """Open the public pages a few times, as the first visitors would before the hall fills (each
    worker reads its templates once); returns the standings the checker compares verifications with."""
    for _ in range(2 * WORKERS_MAX):
        for path in (
            "/accounts/login/",
            f"/t/{SLUG}/",
            f"/t/{SLUG}/standings/",
            f"/t/{SLUG}/projector/",
            f"/t/{SLUG}/player/p1/",
        ):
            urllib.request.urlopen(f"http://{HOST}:{port}{path}", timeout=30).read()
    with urllib.request.urlopen(f"http://{HOST}:{port}/t/{SLUG}/standings.json", timeout=30) as answer:
        return json.load(answer)


def server_times(access_log):
    """{request kind: [ms]} from gunicorn's access log (the scenario names each request's kind in a header)."""
    times = {}
    for line in access_log.read_text().splitlines():
        method, path, status, microseconds, kind = line.split(" ", 4)
        times.setdefault(kind, []).append(int(microseconds) / 1000)
    return times


def worker_pids(master):
    try:
        return [int(p) for p in Path(f"/proc/{master}/task/{master}/children").read_text().split()]
    except OSError:
        return []


def cpu_ticks(pid):
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])  # utime + stime


def busy_worker(master, tries=200, windows=3):
    """A worker that has been working for a while (its CPU time grew in `windows` looks of 50 ms in
    a row), so that the signal hits a long request in flight; any worker after `tries` looks."""
    streak = {}
    for _ in range(tries):
        before = {pid: cpu_ticks(pid) for pid in worker_pids(master)}
        time.sleep(0.05)
        streak = {pid: streak.get(pid, 0) + 1 if cpu_ticks(pid) > ticks else 0 for pid, ticks in before.items()}
        busy = [pid for pid, count in streak.items() if count >= windows]
        if busy:
            return busy[0]
    pids = worker_pids(master)
    return pids[0] if pids else None


def inject_faults(master, start, run_seconds, faults, stop):
    """Reload gunicorn, stop one worker, kill one, spread over the run; notes (time, what) in `faults`."""
    steps = [
        (0.25, signal.SIGHUP, "gunicorn reloaded (HUP to the master)"),
        (0.45, signal.SIGTERM, "one worker stopped (TERM)"),
        (0.65, signal.SIGKILL, "one worker killed (kill -9)"),
    ]
    for fraction, sig, what in steps:
        if stop.wait(max(0.0, start + fraction * run_seconds - time.time())):
            return
        if sig == signal.SIGHUP:
            os.kill(master, sig)
        elif (pid := busy_worker(master)) is not None:
            os.kill(pid, sig)
        faults.append((time.time(), what))


def run_locust(port, data_file, out, size, faults_wanted, master):
    users = len(json.loads(data_file.read_text())["tables"]) + FIXED_USERS + size.phones
    command = [
        sys.executable,
        "-m",
        "locust",
        "-f",
        str(SCENARIO),
        "--headless",
        "--only-summary",
        "-u",
        str(users),
        "-r",
        str(max(1, round(users / size.ramp_seconds))),
        "-t",
        f"{size.ramp_seconds + size.run_seconds}s",
        "--csv",
        str(out / "locust"),
        "--host",
        f"http://{HOST}:{port}",
        "--loglevel",
        "WARNING",
    ]
    env = {**os.environ, "HALL_DATA": str(data_file), "HALL_OUT": str(out)}
    for name in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL"):
        env.pop(name, None)
    faults, stop = [], threading.Event()
    started = time.time()
    injector = None
    if faults_wanted:
        injector = threading.Thread(
            target=inject_faults, args=(master, started + size.ramp_seconds, size.run_seconds, faults, stop)
        )
        injector.start()
    with open(out / "locust.log", "w") as log:
        subprocess.run(
            command,
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            timeout=size.ramp_seconds + size.run_seconds + 120,
        )
    stop.set()
    if injector:
        injector.join()
    return started, faults


def arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", action="store_true", help="on a throwaway PostgreSQL cluster")
    parser.add_argument("--faults", action="store_true", help="reload, stop and kill gunicorn workers during the load")
    parser.add_argument("--smoke", action="store_true", help="a handful of users for 14 s")
    parser.add_argument(
        "--gunicorn", default="", help='gunicorn options overriding config/gunicorn.conf.py\'s, e.g. "-w 3"'
    )
    parser.add_argument("--players", type=int, help="a larger or smaller hall: players (4 per table and tablet)")
    parser.add_argument("--phones", type=int, help="a larger or smaller hall: phones")
    parser.add_argument("--keep", action="store_true", help="keep the run's folder (logs, Locust's CSV)")
    return parser.parse_args()


def run_hall(args, size, workdir, env, out):
    """Prepare the hall, serve it and load it: what the report needs of the run."""
    with contextlib.ExitStack() as stack:
        if args.postgres:
            env["DATABASE_URL"] = stack.enter_context(postgresql_cluster(workdir))
        data = prepare(env, size)
        data_file = workdir / "hall.json"
        port = free_port()
        server_log = stack.enter_context(open(workdir / "gunicorn.log", "w"))
        server = start_server(
            {**os.environ, **env},
            port,
            workdir / "access.log",
            options=args.gunicorn.split(),
            log=server_log,
            log_format=" %({x-hall-kind}i)s",
        )
        try:
            data["baseline"] = warm_up(port)
            data_file.write_text(json.dumps(data))
            started, faults = run_locust(port, data_file, out, size, args.faults, server.pid)
        finally:
            stop_server(server)
        lost, acknowledged = compare_saves(out, stored_games(data["round"]))
        states = sheet_states(data["round"])
        from django.db import connections

        connections.close_all()
    return {"started": started, "faults": faults, "lost": lost, "acknowledged": acknowledged, "states": states}


def server_problems(workdir):
    return [
        line
        for line in (workdir / "gunicorn.log").read_text().splitlines()
        if "Traceback" in line or "locked" in line or "Error" in line
    ]


def main():
    args = arguments()
    size = SMOKE if args.smoke else FULL
    size = dataclasses.replace(size, players=args.players or size.players, phones=args.phones or size.phones)
    database = "PostgreSQL" if args.postgres else "SQLite"
    load_at_start = os.getloadavg()
    workdir = Path(tempfile.mkdtemp(prefix="bench-hall-"))
    out = workdir / "out"
    out.mkdir()
    env = {"VAR_DIR": str(workdir), "LOG_LEVEL": "ERROR"}
    for name in ("DATABASE_URL", "TESTING"):  # production settings, on the throwaway database only
        os.environ.pop(name, None)
    try:
        run = run_hall(args, size, workdir, env, out)
        budgets_hold, correct = print_report(
            out,
            database=database,
            setting=f"bin/serve {args.gunicorn}".strip(),
            size=size,
            load=(load_at_start, os.getloadavg()),
            freshness=freshness_seconds(out),
            server_ms=server_times(workdir / "access.log"),
            problems=server_problems(workdir),
            poll_seconds=POLL_SECONDS,
            **run,
        )
    finally:
        if args.keep:
            print(f"  run folder kept: {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0 if correct and (budgets_hold or args.smoke) else 1


if __name__ == "__main__":
    sys.exit(main())
