"""Benchmark: standings of a 500-player, 8-round tournament with random results.

Prints the time to compute the standings (median and worst of 5 runs; the import is timed
separately and not counted) and the number of queries, next to the queries for a field a
fifth the size: they must be the same (constant, whatever the number of players).
Budget: under 0.1 s. Runs in a throwaway test database: SQLite in a temporary folder, or a
`test_…` database next to the one in DATABASE_URL. `--smoke`: 40 and 8 players, 2 rounds.

Usage: .venv/bin/python bench/bench_standings.py [--smoke]   (or `make bench-standings`)
"""

import os
import statistics
import time

import throwaway_database

throwaway_database.prepare("bench-standings-")

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from organiser.demo import random_tournament  # noqa: E402
from organiser.interchange import import_tournament  # noqa: E402
from scoring.selectors.standings import compute_standings  # noqa: E402

BUDGET_SECONDS, RUNS = 0.1, 5


def queries_for(tournament):
    with CaptureQueriesContext(connection) as queries:
        compute_standings(tournament)
    return len(queries)


def main(players, rounds):
    start = time.perf_counter()
    tournament = import_tournament(random_tournament(players, rounds))
    smaller = import_tournament(random_tournament(max(players // 5, 4), rounds, slug="smaller"))
    print(
        f"import: {players} players, {rounds} rounds in {time.perf_counter() - start:.1f} s (not counted); "
        f"{connection.vendor}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    timings = []
    for _ in range(RUNS):
        start = time.perf_counter()
        rows = compute_standings(tournament)
        timings.append(time.perf_counter() - start)
    median, worst = statistics.median(timings), max(timings)
    queries, fewer = queries_for(tournament), queries_for(smaller)
    print(
        f"standings: {len(rows)} rows, median {median:.3f} s, worst {worst:.3f} s of {RUNS} runs; "
        f"{queries} queries ({fewer} for {smaller.players.count()} players)"
    )
    ok = median < BUDGET_SECONDS and queries == fewer
    print(f"budget: < {BUDGET_SECONDS} s, queries constant: {'PASS' if ok else 'FAIL'}")
    return ok


if __name__ == "__main__":
    throwaway_database.command_line(main, __doc__, full=(500, 8), smoke=(40, 2))
