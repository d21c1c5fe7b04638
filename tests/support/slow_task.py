"""A task for the worker's tests only: notes its start, sleeps, then records its effect once."""

import time
from pathlib import Path

from django_tasks import task


@task()
def sleep_then_record(log, seconds):
    """Append "started" to `log`, sleep, then append "finished" unless a run before finished it."""
    path = Path(log)
    with path.open("a") as handle:
        handle.write("started\n")
    time.sleep(seconds)
    if "finished" not in path.read_text().split():
        with path.open("a") as handle:
            handle.write("finished\n")
