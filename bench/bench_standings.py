"""Benchmark: standings of a 500-player, 8-round tournament with random results.

Prints the time to compute the standings (the import is timed separately and excluded) and
the number of queries. Budget: under 0.5 s and at most 10 queries.
Runs on a temporary SQLite database (or the one in DATABASE_URL).
"""

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("TESTING", "1")
if "DATABASE_URL" not in os.environ:
    os.environ["VAR_DIR"] = tempfile.mkdtemp(prefix="bench-standings-")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from scoring.demo import random_tournament  # noqa: E402
from scoring.interchange import import_tournament  # noqa: E402
from scoring.standings import compute_standings  # noqa: E402

PLAYERS, ROUNDS, BUDGET_SECONDS, BUDGET_QUERIES = 500, 8, 0.5, 10


def main():
    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    tournament = import_tournament(random_tournament(PLAYERS, ROUNDS))
    print(f"import: {PLAYERS} players, {ROUNDS} rounds in {time.perf_counter() - start:.1f} s (not counted)")
    timings = []
    for _ in range(5):
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            rows = compute_standings(tournament)
            timings.append(time.perf_counter() - start)
    median, worst = statistics.median(timings), max(timings)
    ok = median < BUDGET_SECONDS and len(queries) <= BUDGET_QUERIES
    print(f"standings: {len(rows)} rows, median {median:.3f} s, worst {worst:.3f} s of 5 runs, {len(queries)} queries")
    print(f"budget: < {BUDGET_SECONDS} s and <= {BUDGET_QUERIES} queries: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
