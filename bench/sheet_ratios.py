"""The score sheet's cost next to a bare Django view, in one process and one run.

Production settings with `/bench/ping` added (`bench/public_settings.py`), a throwaway SQLite
database, Django's test client (no network, no server threads): the same middleware answers a bare
view, the heaviest score-sheet page (no game entered yet: every game's inputs) and an htmx game
save, taken in turns, each timed in processor time (this thread's, so that other processes on the
machine weigh little on the figures) and in wall time (what the tablet waits for: the processor
time plus the waits for the database and the disk). Prints each median and its ratios to the bare
view's. Budgets, on both times: the sheet page <= 30x, an htmx save <= 20x; the sheet page's HTML
<= 60 KB.

Usage: .venv/bin/python bench/sheet_ratios.py [--smoke]   (run by bench/bench_entry.py)
"""

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench_entry import save_data

ROOT = Path(__file__).resolve().parent.parent
BUDGETS = {"sheet page": 30, "htmx save": 20}
PAGE_KB = 60
SHEET = "/referee/test/round/1/table/{}/"


def prepare(workdir):
    """Migrate a throwaway database; one referee, signed in, and two empty tables."""
    os.environ.update(
        {"VAR_DIR": str(workdir), "LOG_LEVEL": "ERROR", "DJANGO_SETTINGS_MODULE": "bench.public_settings"}
    )
    for name in ("DATABASE_URL", "TESTING"):
        os.environ.pop(name, None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client

    from accounts.services import make_member
    from tests.factories import build, table

    call_command("migrate", verbosity=0)
    tables = [table(n, [f"p{4 * n - 3}", f"p{4 * n - 2}", f"p{4 * n - 1}", f"p{4 * n}"], state="empty") for n in (1, 2)]
    build(8, rounds=[{"number": 1, "kind": "qualifying", "state": "started", "tables": tables}])
    user = User.objects.create_user("ref1")
    make_member(user, "referee")
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    return client


def timed(call):
    """The processor time a request takes (this thread's: the load of other processes does not
    count, as it does in the elapsed time) and its wall time."""
    started, wall = time.thread_time(), time.perf_counter()
    response = call()
    return (time.thread_time() - started, time.perf_counter() - wall), response


def measure(client, rounds):
    """Medians (seconds) of the bare view, the empty sheet page and an htmx save, taken in turns."""
    times = {"bare view": [], "sheet page": [], "htmx save": []}
    version, size = 0, 0
    for i in range(rounds):
        seconds, response = timed(lambda: client.get("/bench/ping"))
        times["bare view"].append(seconds)
        seconds, response = timed(lambda: client.get(SHEET.format(2)))
        assert response.status_code == 200, response.status_code
        times["sheet page"].append(seconds)
        size = len(response.content)
        data = save_data(i, version)
        seconds, response = timed(
            lambda data=data: client.post(f"{SHEET.format(1)}game/1/", data, HTTP_HX_REQUEST="true")
        )
        html = response.content.decode()
        assert "data-just-saved" in html, html[:500]
        times["htmx save"].append(seconds)
        version = int(re.search(r'id="g1-version" value="(\d+)"', html).group(1))
    return {
        name: tuple(statistics.median(kind[len(kind) // 5 :]) for kind in zip(*values))
        for name, values in times.items()
    }, size


def report(medians, size):
    """Print the figures; True when every budget holds."""
    bare_cpu, bare_wall = medians["bare view"]
    print(f"  bare view {bare_cpu * 1000:.2f} ms processor, {bare_wall * 1000:.2f} ms wall")
    ok = size <= PAGE_KB * 1024
    for name, budget in BUDGETS.items():
        cpu, wall = medians[name]
        ratios = (cpu / bare_cpu, wall / bare_wall)
        holds = max(ratios) <= budget
        ok = ok and holds
        print(
            f"  {name} {cpu * 1000:.1f} ms processor, {wall * 1000:.1f} ms wall: {ratios[0]:.0f}x and "
            f"{ratios[1]:.0f}x the bare view (budget <= {budget}x: {'PASS' if holds else 'FAIL'})"
        )
    print(
        f"  sheet page {size / 1024:.0f} KB of HTML (budget <= {PAGE_KB} KB: {'PASS' if size <= PAGE_KB * 1024 else 'FAIL'})"
    )
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="a few rounds only")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="bench-ratios-"))
    try:
        client = prepare(workdir)
        medians, size = measure(client, 10 if args.smoke else 200)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"sheet ratios (in one process, Django's test client, SQLite; load average {os.getloadavg()[0]:.1f}):")
    ok = report(medians, size)
    return 0 if ok or args.smoke else 1


if __name__ == "__main__":
    sys.exit(main())
