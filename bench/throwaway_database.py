"""A throwaway test database for the benchmarks that run in-process (standings, PDFs).

`prepare(prefix)` before anything imports Django's models sets Django up as a server process is
(`config.wsgi`). SQLite goes to a temporary folder (so a benchmark never touches a running test
suite's database), or, with DATABASE_URL, a `test_…` database next to that one. `run(main, *args)` builds the database, calls `main`
and removes the database (and the folder) again; `command_line(...)` does that with the
arguments of a full run or of `--smoke`, and exits 1 when a full run misses its budget.
"""

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

_folder = None


def prepare(prefix):
    global _folder
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("TESTING", "1")
    if "DATABASE_URL" not in os.environ:
        _folder = os.environ["VAR_DIR"] = tempfile.mkdtemp(prefix=prefix)
    import config.wsgi  # noqa: F401  (set up as a server process is, garbage collector included)


def run(main, *args):
    from django.test.runner import DiscoverRunner
    from django.test.utils import setup_test_environment

    setup_test_environment()
    runner = DiscoverRunner(verbosity=0)
    databases = runner.setup_databases()
    try:
        return main(*args)
    finally:
        runner.teardown_databases(databases)
        if _folder:
            shutil.rmtree(_folder, ignore_errors=True)


def command_line(main, description, full, smoke):
    """Run `main(*full)`, or `main(*smoke)` with --smoke; a full run whose budget fails exits 1."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="the smallest setting, a few seconds")
    is_smoke = parser.parse_args().smoke
    passed = run(main, *(smoke if is_smoke else full))
    sys.exit(0 if passed or is_smoke else 1)
