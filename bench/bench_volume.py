"""Benchmark: the size of a real service. Every page costs the same with 2 organisations as with 200.

On a throwaway PostgreSQL cluster (started for the run in a temporary folder, removed after it),
in one process with Django's test client: first a small service (2 organisations x 3 finished
tournaments, a season each) is built and every page below is measured (median wall time of RUNS
requests after a warm-up, and the queries of one); then the large service is added (ORGS
organisations x TOURNAMENTS finished tournaments of PLAYERS players and ROUNDS rounds, every game
verified, a season per organisation) and the same pages of the same small organisation are
measured again. Each service's first organisation gets its tournaments through the app's own door
for it, the JSON interchange import (`organiser.demo.random_tournament`,
`organiser.interchange.import_tournament`: the engine's rules and the models); the other
organisations get copies of them written by PostgreSQL (`volume_copies.py`: `INSERT ... SELECT`,
ids remapped, new addresses, names and people); seasons are made by `create_season`. It is checked:
the standings of sampled tournaments (every player ranked), an export -> import round trip (the
copy's standings are the original's), a copy against its original and `season_standings`. The
build prints how long it took and its parts (minutes at full size, not an hour).

Prints one line per page (small and large: median ms and queries, the ratio) and
`volume: P pages, worst ratio R× (page), most queries Q (page)`. Budgets: every page at most
RATIO_BUDGET times its small time, and the same number of queries at both sizes. Public pages are
measured as their first visitor after a change finds them (the shared cache emptied before each
request; a season's tournaments' kept placings stay, as they do between two changes).

Sizes: full (default) 200 x 25 x 32 players x 5 rounds; `--ci` 20 x 10; `--smoke` 3 x 2 of 8
players, 2 rounds, budgets not applied. Timings on a shared machine are noisy.

Usage: .venv/bin/python bench/bench_volume.py [--ci | --smoke]   (or `make bench-volume`)
"""

import argparse
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import throwaway_database
from bench_entry import postgresql_cluster

RATIO_BUDGET = 1.5
# A database server's own cache, sized as for a small server (a quarter of 4 GB, as PostgreSQL's
# manual advises): with initdb's 128 MB the large service's indexes were read again from the
# operating system's cache on each page, and pages reading the same rows at both sizes took 1.4x.
SHARED_BUFFERS = "1GB"


@dataclass(frozen=True)
class Size:
    orgs: int
    tournaments: int
    players: int
    rounds: int
    runs: int


FULL = Size(orgs=200, tournaments=25, players=32, rounds=5, runs=9)
CI = Size(orgs=20, tournaments=10, players=32, rounds=5, runs=9)
SMOKE = Size(orgs=3, tournaments=2, players=8, rounds=2, runs=2)
SMALL = (2, 3)  # the small service: organisations x tournaments


def arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ci", action="store_true", help="20 organisations x 10 tournaments (.ci/run)")
    parser.add_argument("--smoke", action="store_true", help="the smallest setting, budgets not applied")
    parser.add_argument(
        "--queries-only",
        action="store_true",
        help="hold the same queries at both sizes, print the times without holding them (a machine that may be busy)",
    )
    args = parser.parse_args()
    return args, SMOKE if args.smoke else CI if args.ci else FULL


def main():
    args, size = arguments()
    workdir = Path(tempfile.mkdtemp(prefix="bench-volume-"))
    try:
        with postgresql_cluster(workdir, shared_buffers=SHARED_BUFFERS) as url:
            os.environ["DATABASE_URL"] = url
            throwaway_database.prepare("bench-volume-")
            from volume_pages import run_benchmark

            budget = None if args.queries_only else RATIO_BUDGET
            passed = throwaway_database.run(run_benchmark, size, SMALL, budget)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0 if passed or args.smoke else 1


if __name__ == "__main__":
    started = time.perf_counter()
    code = main()
    print(f"bench-volume: {time.perf_counter() - started:.0f} s in all (wall clock; the machine may be shared)")
    sys.exit(code)
