"""Benchmark: the time an automatic snapshot adds to the request that verifies a score sheet.

A 500-player, 8-round tournament (125 tables a round) has its last round's sheets submitted;
the head referee verifies them one request at a time through Django's test client, first with
snapshots off, then with snapshots on (a task queued in the verification's transaction; the
worker writes it after the response, here between two requests, outside the timing). The figure
is the difference of the medians, next to the budget; the snapshot's own writing time (the
task's, after the response) is printed too. `--smoke`: 40 players, 2 rounds.

Usage: .venv/bin/python bench/bench_backup.py [--smoke]   (or `make bench-backup`)
"""

import os
import shutil
import statistics
import tempfile
import time

import throwaway_database

throwaway_database.prepare("bench-backup-")

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from accounts.services import make_member  # noqa: E402
from organiser.backups import files, snapshots  # noqa: E402
from organiser.demo import random_tournament  # noqa: E402
from organiser.interchange import import_tournament  # noqa: E402
from scoring.models import ScoreSheet  # noqa: E402

BUDGET_MS, SAMPLES = 50, 20


def verify_times(client, sheets):
    timings = []
    for sheet in sheets:
        url = f"/referee/bench/round/{sheet.table.round.number}/table/{sheet.table.number}/verify/"
        start = time.perf_counter()
        response = client.post(url, {"version": sheet.version})
        timings.append(time.perf_counter() - start)
        assert response.status_code == 302, response.status_code
        run_queue()  # each request is measured on its own, not beside the worker writing a snapshot
    return timings


def run_queue():
    """What the worker (`manage.py run_tasks`) does: run every queued task, here and now."""
    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", "--queue-name", "*", verbosity=0)


def main(players, rounds):
    settings.BACKUP_DIR = tempfile.mkdtemp(prefix="bench-backup-snapshots-")
    try:
        return measure(players, rounds)
    finally:
        shutil.rmtree(settings.BACKUP_DIR, ignore_errors=True)


def measure(players, rounds):
    data = random_tournament(players, rounds)
    data["rounds"][-1]["state"] = "started"
    for table in data["rounds"][-1]["tables"]:
        table["state"] = "submitted"
    tournament = import_tournament(data)
    head = User.objects.create_user("head")
    make_member(head, "head_referee")
    client = Client()
    client.force_login(head)
    sheets = list(
        ScoreSheet.objects.filter(table__round__tournament=tournament, state="submitted")
        .select_related("table__round")
        .order_by("table__number")
    )
    samples = min(SAMPLES, len(sheets) // 2)
    print(
        f"{players} players, {rounds} rounds; {connection.vendor}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    settings.BACKUP_SNAPSHOTS = "off"
    without = statistics.median(verify_times(client, sheets[:samples]))
    settings.BACKUP_SNAPSHOTS = "on"
    with_snapshots = statistics.median(verify_times(client, sheets[samples : 2 * samples]))
    written = files.snapshots(tournament)
    snapshots.queue_snapshot(tournament.pk, "bench")
    start = time.perf_counter()
    run_queue()
    writing = time.perf_counter() - start
    added_ms = (with_snapshots - without) * 1000
    print(
        f"verify request: median {without * 1000:.1f} ms without snapshots, {with_snapshots * 1000:.1f} ms with ({samples} each)"
    )
    print(
        f"snapshots written: {len(written)}, {written[0].size / 1024:.0f} KiB compressed; "
        f"writing one takes {writing:.2f} s, after the response"
    )
    ok = added_ms < BUDGET_MS and len(written) == samples
    print(f"added to the verify request: {added_ms:.1f} ms, budget < {BUDGET_MS} ms: {'PASS' if ok else 'FAIL'}")
    return ok


if __name__ == "__main__":
    throwaway_database.command_line(main, __doc__, full=(500, 8), smoke=(40, 2))
