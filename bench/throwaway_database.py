"""A throwaway test database for the benchmarks that run in-process (standings, PDFs).

`prepare(prefix)` before anything imports Django's models sets Django up as a server process is
(`config.wsgi`). SQLite goes to a temporary folder (so a benchmark never touches a running test
suite's database), or, with DATABASE_URL, a `test_…` database next to that one. `run(main, *args)` builds the database, calls `main`
and removes the database (and the folder) again.
"""

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
