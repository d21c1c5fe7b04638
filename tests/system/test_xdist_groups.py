"""The tests of one xdist_group (a module's shared server) run on one worker under make test's
`--dist loadgroup`, so that the module starts its server once (tests/conftest.py)."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import os
import pytest

pytestmark = pytest.mark.xdist_group("one-server")


@pytest.mark.parametrize("n", range(4))
def test_grouped(n):
    print("WORKER", os.environ["PYTEST_XDIST_WORKER"])
"""
CONFTEST = """
from tests.conftest import keep_xdist_groups_together


def pytest_collection_modifyitems(config, items):
    keep_xdist_groups_together(config, items)
"""


def test_the_tests_of_one_group_run_on_one_worker(tmp_path):
    (tmp_path / "test_probe.py").write_text(PROBE)
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    finished = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-c", str(tmp_path / "pytest.ini")]
        + ["--rootdir", str(tmp_path), "-n", "2", "--dist", "loadgroup", "-v", str(tmp_path / "test_probe.py")],
        cwd=ROOT,
        env={
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(ROOT),
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "TESTING": "1",
            "VAR_DIR": str(tmp_path / "var"),
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert finished.returncode == 0, finished.stdout[-2000:] + finished.stderr[-2000:]
    passed = re.findall(r"\[(gw\d)\] .*PASSED .*test_grouped\[\d\]@one-server", finished.stdout)
    assert len(passed) == 4 and len(set(passed)) == 1, finished.stdout[-2000:]
