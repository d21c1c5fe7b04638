"""Benchmark: the results exports of a 500-player, 8-round tournament with random results.

Prints the time to write the spreadsheet (every round's sheet, the cards), the standings CSV
and the static results site (a .zip), each the median of 3 runs (the import is timed
separately and not counted), and the size of the site of 120 players × 8 rounds.
Budgets: XLSX < 3 s, CSV < 1 s, site < 5 s; the 120-player site < 5 MB. Runs in a throwaway
test database, as bench_standings.py does. `--smoke`: 40 and 24 players, 2 rounds.

Usage: .venv/bin/python bench/bench_exports.py [--smoke]   (or `make bench-exports`)
"""

import os
import statistics
import time

import throwaway_database

throwaway_database.prepare("bench-exports-")

from django.db import connection  # noqa: E402

from organiser.demo import random_tournament  # noqa: E402
from organiser.exports.downloads import EXPORT_FILES  # noqa: E402
from organiser.interchange import import_tournament  # noqa: E402

RUNS = 3
BUDGETS = {"xlsx": 3.0, "csv": 1.0, "site": 5.0}
SITE_SIZE_BUDGET_MB = 5.0


EXPORTS = {
    name: EXPORT_FILES[file][1]
    for name, file in (("xlsx", "results.xlsx"), ("csv", "standings.csv"), ("site", "results-site.zip"))
}


def timed(make, tournament):
    timings, size = [], 0
    for _ in range(RUNS):
        start = time.perf_counter()
        size = len(make(tournament))
        timings.append(time.perf_counter() - start)
    return statistics.median(timings), size


def main(players, rounds, site_players):
    start = time.perf_counter()
    tournament = import_tournament(random_tournament(players, rounds))
    smaller = import_tournament(random_tournament(site_players, rounds, slug="site-size"))
    print(
        f"import: {players} and {site_players} players, {rounds} rounds in {time.perf_counter() - start:.1f} s "
        f"(not counted); {connection.vendor}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    ok = True
    for name, make in EXPORTS.items():
        median, size = timed(make, tournament)
        passed = median < BUDGETS[name]
        ok &= passed
        print(
            f"{name}: {players} players × {rounds} rounds, median {median:.2f} s of {RUNS} runs, "
            f"{size / 1e6:.2f} MB; budget < {BUDGETS[name]:.0f} s: {'PASS' if passed else 'FAIL'}"
        )
    megabytes = len(EXPORTS["site"](smaller)) / 1e6
    passed = megabytes < SITE_SIZE_BUDGET_MB
    print(
        f"site size: {site_players} players × {rounds} rounds, {megabytes:.2f} MB; "
        f"budget < {SITE_SIZE_BUDGET_MB:.0f} MB: {'PASS' if passed else 'FAIL'}"
    )
    return ok and passed


if __name__ == "__main__":
    throwaway_database.command_line(main, __doc__, full=(500, 8, 120), smoke=(40, 2, 24))
