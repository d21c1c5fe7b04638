"""Benchmark: the public leaderboard under 100 concurrent pollers, next to a bare Django view.

Builds a 200-player, 8-round tournament in a temporary SQLite database (or in VAR_DIR when
set), collects the static files and serves the app the production way: gunicorn with 2
workers, whitenoise, DEBUG off, a SECRET_KEY, ALLOWED_HOSTS=127.0.0.1. Then 100 pollers on
127.0.0.1, for a fixed time each, request
- `/bench/ping`: a bare Django view behind the same middleware (`bench/bare_urls.py`), and
- `/t/bench/standings/` as the htmx poller does: `HX-Request: true`, and `If-None-Match` with
  the last ETag on four requests in five (the fifth comes as a new viewer without it).
The two alternate in short spells, so that other load on the machine hits both alike.
Prints requests/s, p50 and p95 of each. Budget: the leaderboard at least half the bare rate.
"""

import http.client
import os
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAYERS, ROUNDS, POLLERS, WORKERS = 200, 8, 100, 2
WARMUP_SECONDS, SPELL_SECONDS, SPELLS, MAX_REQUESTS = 2, 3, 6, 500_000
SLUG = "bench"
LEADERBOARD = f"/t/{SLUG}/standings/"
BARE = "/bench/ping"


def production_environment(var_dir):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "TESTING", "DEBUG")}
    env.update({
        "VAR_DIR": str(var_dir), "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SETTINGS_MODULE": "bench.public_settings", "PYTHONPATH": str(ROOT),
    })
    return env


def prepare(env):
    """Migrate, import the tournament and collect the static files, as a deployment would."""
    script = (
        "import django; django.setup()\n"
        "from django.core.management import call_command\n"
        "from scoring.interchange import import_tournament\n"
        "from scoring.demo import random_tournament\n"
        "from tournament.models import Tournament\n"
        "call_command('migrate', verbosity=0)\n"
        "call_command('collectstatic', interactive=False, verbosity=0)\n"
        f"Tournament.objects.filter(slug={SLUG!r}).delete()\n"
        f"import_tournament(random_tournament({PLAYERS}, {ROUNDS}, slug={SLUG!r}))\n"
    )
    subprocess.run([sys.executable, "-c", script], text=True, env=env, cwd=ROOT, check=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port, path, headers):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("ETag")
    finally:
        connection.close()


def serve(env, var_dir):
    port = free_port()
    log = open(Path(var_dir) / "gunicorn.log", "w")
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--workers", str(WORKERS),
         "--bind", f"127.0.0.1:{port}", "--chdir", str(ROOT), "--backlog", "2048"],
        env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
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


def load(port, path, seconds):
    """POLLERS threads polling `path` for `seconds`: [(latency, status)] and the elapsed time."""
    results, lock = [], threading.Lock()
    start = time.perf_counter()
    deadline = start + seconds

    def poller():
        etag, sent, mine = None, 0, []
        while time.perf_counter() < deadline and len(results) + len(mine) < MAX_REQUESTS:
            headers = {"HX-Request": "true"}
            if etag and sent % 5:
                headers["If-None-Match"] = etag
            began = time.perf_counter()
            try:
                status, new_etag = get(port, path, headers)
            except OSError:
                status, new_etag = 0, None
            mine.append((time.perf_counter() - began, status))
            etag, sent = new_etag or etag, sent + 1
        with lock:
            results.extend(mine)

    threads = [threading.Thread(target=poller) for _ in range(POLLERS)]
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
    print(f"{name:<34} {rate:8.0f} req/s   p50 {p50:6.1f} ms   p95 {p95:6.1f} ms   ({counts})")
    return rate


def main():
    given = os.environ.get("VAR_DIR")
    var_dir = Path(given) if given else Path(tempfile.mkdtemp(prefix="bench-public-"))
    var_dir.mkdir(parents=True, exist_ok=True)
    env = production_environment(var_dir)
    started = time.perf_counter()
    prepare(env)
    print(f"{PLAYERS} players, {ROUNDS} rounds imported and static files collected in "
          f"{time.perf_counter() - started:.0f} s (not counted); database in {var_dir}")
    server, port = serve(env, var_dir)
    try:
        began = time.perf_counter()
        get(port, LEADERBOARD, {"HX-Request": "true"})
        print(f"first leaderboard request (standings computed and rendered): {(time.perf_counter() - began) * 1000:.0f} ms")
        for path in (BARE, LEADERBOARD):
            load(port, path, WARMUP_SECONDS)
        results = {BARE: [], LEADERBOARD: []}
        elapsed = {BARE: 0.0, LEADERBOARD: 0.0}
        for _ in range(SPELLS):
            for path in (BARE, LEADERBOARD):
                spell, seconds = load(port, path, SPELL_SECONDS)
                results[path] += spell
                elapsed[path] += seconds
    finally:
        server.terminate()
        server.wait(timeout=30)
        if not given:
            shutil.rmtree(var_dir, ignore_errors=True)
    print(f"gunicorn, {WORKERS} workers, whitenoise, DEBUG off; {POLLERS} pollers, "
          f"{SPELLS} spells of {SPELL_SECONDS} s on each target, alternating:")
    bare = report("bare Django view " + BARE, results[BARE], elapsed[BARE])
    board = report("leaderboard " + LEADERBOARD + " (htmx)", results[LEADERBOARD], elapsed[LEADERBOARD])
    ok = board >= bare / 2
    print(f"budget: leaderboard >= half the bare view's rate ({board / bare:.0%} of it): {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
