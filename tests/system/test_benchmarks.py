"""Every benchmark still runs: each `bench/bench_*.py` at its smallest setting (`--smoke`).

The budgets live in the benchmarks and are not checked here: a smoke run only has to finish
(exit 0) and print a figure. A new benchmark is picked up by its file name. Each runs in a
process of its own, on its own throwaway database, and may start servers on 127.0.0.1.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.server import smoke_environment

BENCH = Path(__file__).resolve().parents[2] / "bench"
SMOKE_SECONDS = 300  # a smoke run takes seconds; this only stops a hung one
FIGURE = re.compile(r"\d\s*(ms|s|req/s|saves/s|s/round)\b")
# Run by a test of their own that also checks what they print: not run a second time here.
COVERED_ELSEWHERE = {"bench_hall.py": "tests/system/test_bench_hall.py asserts no error and no lost save"}
RUNS = [[script.name, "--smoke"] for script in sorted(BENCH.glob("bench_*.py")) if script.name not in COVERED_ELSEWHERE]
RUNS.append(["bench_entry.py", "--smoke", "--postgres"])  # the PostgreSQL mode starts its own cluster
# make test runs the two quickest (a few seconds each: the shared command line, the throwaway
# database, the figures printed); the others are marked full (make test-full, .ci/run).
BEFORE_EVERY_COMMIT = {"bench_seating.py", "bench_standings.py"}

pytestmark = [pytest.mark.server, pytest.mark.own_database]


def param(run):
    return pytest.param(run, id=" ".join(run), marks=() if run[0] in BEFORE_EVERY_COMMIT else pytest.mark.full)


@pytest.mark.parametrize("command", [param(run) for run in RUNS])
def test_the_benchmark_runs_at_its_smallest_setting_and_prints_its_figures(command):
    script, *arguments = command
    assert (BENCH / script).exists()
    finished = subprocess.run(
        [sys.executable, str(BENCH / script), *arguments],
        cwd=BENCH.parent,
        env=smoke_environment(),
        capture_output=True,
        text=True,
        timeout=SMOKE_SECONDS,
    )
    output = finished.stdout + finished.stderr
    assert finished.returncode == 0, output[-3000:]
    assert FIGURE.search(finished.stdout), finished.stdout[-3000:]
