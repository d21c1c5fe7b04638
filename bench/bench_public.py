"""Benchmark: the public leaderboard under 100 concurrent clients, next to a bare Django view.

Builds a 200-player, 8-round tournament in a temporary SQLite database (or in VAR_DIR when
set), collects the static files and serves the app the production way: gunicorn with 2
workers, whitenoise, DEBUG off, HTTPS behind a TLS proxy (PUBLIC_URL=https://127.0.0.1 and PROXY=1;
every request carries `X-Forwarded-Proto: https`, as the proxy adds it).
Then 100 clients on 127.0.0.1, for a fixed time each, request
- `/bench/ping`: a bare Django view behind the same middleware (`bench/bare_urls.py`),
- the leaderboard as the htmx poller does (`HX-Request: true`, `If-None-Match` with the
  current ETag): nothing changed, so every answer is a 304, and
- the leaderboard page as a new viewer opens it (no ETag): every answer is a 200 with the page.
The three alternate in short spells, so that other load on the machine hits them alike.
Prints requests/s, p50 and p95 of each. Budget: polls and first loads each at least 0.8 times
the bare view's rate. `--smoke`: 12 players, 2 rounds, 10 clients, one short spell.

Usage: .venv/bin/python bench/bench_public.py [--smoke]   (or `make bench-public`)
"""

import argparse
import http.client
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKERS, MAX_REQUESTS, BUDGET = 2, 500_000, 0.8
SLUG = "bench"
LEADERBOARD = f"/t/{SLUG}/standings/"
BARE = "/bench/ping"
PROXY = {"X-Forwarded-Proto": "https"}  # what a TLS-terminating proxy adds to every request


@dataclass(frozen=True)
class Size:
    players: int
    rounds: int
    clients: int
    warmup_seconds: float
    spell_seconds: float
    spells: int
    collect_static: bool


FULL = Size(players=200, rounds=8, clients=100, warmup_seconds=2, spell_seconds=3, spells=6, collect_static=True)
SMOKE = Size(players=12, rounds=2, clients=10, warmup_seconds=0.3, spell_seconds=0.5, spells=1, collect_static=False)


def production_environment(var_dir):
    dropped = ("DATABASE_URL", "TESTING", "DEBUG", "PUBLIC_URL", "PROXY")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(
        {
            "VAR_DIR": str(var_dir),
            "PUBLIC_URL": "https://127.0.0.1",
            "PROXY": "1",
            "DJANGO_SETTINGS_MODULE": "bench.public_settings",
            "PYTHONPATH": str(ROOT),
        }
    )
    return env


def prepare(env, size):
    """Migrate, import the tournament and (full run) collect the static files, as a deployment would."""
    script = (
        "import django; django.setup()\n"
        "from django.core.management import call_command\n"
        "from organiser.interchange import import_tournament\n"
        "from organiser.demo import random_tournament\n"
        "from tournament.models import Tournament\n"
        "call_command('migrate', verbosity=0)\n"
        f"if {size.collect_static}: call_command('collectstatic', interactive=False, verbosity=0)\n"
        f"Tournament.objects.filter(slug={SLUG!r}).delete()\n"
        f"import_tournament(random_tournament({size.players}, {size.rounds}, slug={SLUG!r}))\n"
    )
    subprocess.run([sys.executable, "-c", script], text=True, env=env, cwd=ROOT, check=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port, path, headers):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path, headers={**PROXY, **headers})
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("ETag")
    finally:
        connection.close()


def serve(env, var_dir):
    port = free_port()
    log = open(Path(var_dir) / "gunicorn.log", "w")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--workers",
            str(WORKERS),
            "--bind",
            f"127.0.0.1:{port}",
            "--chdir",
            str(ROOT),
            "--backlog",
            "2048",
        ],
        env=env,
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            if get(port, BARE, {})[0] == 200:
                return server, port
        except OSError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            server.kill()
            raise SystemExit(f"gunicorn did not start; see {log.name}")
        time.sleep(0.2)


def load(port, path, headers, seconds, clients):
    """`clients` threads requesting `path` for `seconds`: [(latency, status)] and the elapsed time."""
    results, lock = [], threading.Lock()
    start = time.perf_counter()
    deadline = start + seconds

    def client():
        mine = []
        while time.perf_counter() < deadline and len(results) + len(mine) < MAX_REQUESTS:
            began = time.perf_counter()
            try:
                status = get(port, path, headers)[0]
            except OSError:
                status = 0
            mine.append((time.perf_counter() - began, status))
        with lock:
            results.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results, time.perf_counter() - start


def report(name, results, elapsed):
    latencies = sorted(latency for latency, _ in results)
    statuses = {}
    for _, status in results:
        statuses[status] = statuses.get(status, 0) + 1
    rate = len(results) / elapsed
    p50 = statistics.median(latencies) * 1000
    p95 = latencies[int(0.95 * (len(latencies) - 1))] * 1000
    counts = ", ".join(f"{status or 'error'}: {n}" for status, n in sorted(statuses.items()))
    print(f"{name:<44} {rate:8.0f} req/s   p50 {p50:6.1f} ms   p95 {p95:6.1f} ms   ({counts})")
    return rate


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="the smallest setting, a few seconds")
    size = SMOKE if parser.parse_args().smoke else FULL
    given = os.environ.get("VAR_DIR")
    var_dir = Path(given) if given else Path(tempfile.mkdtemp(prefix="bench-public-"))
    var_dir.mkdir(parents=True, exist_ok=True)
    env = production_environment(var_dir)
    started = time.perf_counter()
    prepare(env, size)
    print(
        f"{size.players} players, {size.rounds} rounds imported in {time.perf_counter() - started:.0f} s "
        f"(not counted); database in {var_dir}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    server, port = serve(env, var_dir)
    try:
        began = time.perf_counter()
        status, etag = get(port, LEADERBOARD, {"HX-Request": "true"})
        print(
            f"first leaderboard request (standings computed and rendered): {(time.perf_counter() - began) * 1000:.0f} ms"
        )
        targets = {
            "bare Django view " + BARE: (BARE, {}),
            "leaderboard polls (htmx, If-None-Match)": (LEADERBOARD, {"HX-Request": "true", "If-None-Match": etag}),
            "leaderboard first loads (page, no ETag)": (LEADERBOARD, {}),
        }
        for path, headers in targets.values():
            load(port, path, headers, size.warmup_seconds, size.clients)
        results = {name: [] for name in targets}
        elapsed = dict.fromkeys(targets, 0.0)
        for _ in range(size.spells):
            for name, (path, headers) in targets.items():
                spell, seconds = load(port, path, headers, size.spell_seconds, size.clients)
                results[name] += spell
                elapsed[name] += seconds
    finally:
        server.terminate()
        server.wait(timeout=30)
        if not given:
            shutil.rmtree(var_dir, ignore_errors=True)
    print(
        f"gunicorn, {WORKERS} workers, whitenoise, DEBUG off, HTTPS behind a proxy; {size.clients} clients, "
        f"{size.spells} spells of {size.spell_seconds} s on each target, alternating; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs:"
    )
    rates = {name: report(name, results[name], elapsed[name]) for name in targets}
    bare, *measured = rates
    ok = True
    for name in measured:
        ratio = rates[name] / rates[bare]
        ok &= ratio >= BUDGET
        print(
            f"budget: {name} >= {BUDGET}x the bare view's rate ({ratio:.2f}x): {'PASS' if ratio >= BUDGET else 'FAIL'}"
        )
    return 0 if ok or size is SMOKE else 1


if __name__ == "__main__":
    sys.exit(main())
