"""The hall scenario (bench/bench_hall.py, Locust) cannot rot: its smallest setting, about 10 s of a
handful of tablets, staff, phones and a projector against gunicorn, ends with no failed request
and every save a tablet saw acknowledged in the database. (Its latencies are not checked: the
budgets belong to the full run on a quiet machine.)

Locust runs in a process of its own, started by the bench (never inside pytest: it patches the
standard library with gevent). tests/system/test_benchmarks.py leaves this bench to this test.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.server import smoke_environment

BENCH = Path(__file__).resolve().parents[2] / "bench"
SUMMARY = re.compile(
    r"^hall: (\d+) requests, p95 (\d+) ms, errors (\d+), lost saves (\d+), freshness ([\d.]+|None) s$", re.M
)

pytestmark = [pytest.mark.full, pytest.mark.server, pytest.mark.own_database]


def test_a_short_hall_loses_no_save_and_fails_no_request():
    finished = subprocess.run(
        [sys.executable, str(BENCH / "bench_hall.py"), "--smoke"],
        cwd=BENCH.parent,
        env=smoke_environment(),
        capture_output=True,
        text=True,
        timeout=180,
    )
    output = finished.stdout + finished.stderr
    assert finished.returncode == 0, output[-3000:]
    summary = SUMMARY.search(finished.stdout)
    assert summary, output[-3000:]
    requests, _, errors, lost, _ = summary.groups()
    assert int(requests) > 100
    assert (int(errors), int(lost)) == (0, 0), output[-3000:]
    saves = re.search(r"(\d+) saves acknowledged", finished.stdout)
    assert saves and int(saves.group(1)) >= 4, output[-3000:]  # 4 tablets, 4 games each when the machine is quiet
