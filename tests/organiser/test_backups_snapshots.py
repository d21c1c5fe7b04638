"""Automatic snapshots: queued as a task in the transaction of a verified sheet or a completed
round, written by the worker as rows (and on a laptop as files), pruned to 50, atomic, and never
a reason for a verification to fail."""

import datetime
import gzip
import json
import os

import pytest
from django.db import transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from organiser import services
from organiser.backups import files, snapshots
from organiser.models import Snapshot
from scoring.models import ScoreSheet
from scoring.services import sheets as scoring
from tests.factories import sheet_url, submitted_and_verified
from tests.support.tasks import run_queued_tasks
from tournament.models import AuditEntry

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def tournament():
    """One sheet submitted, one verified (the verification tests' tournament)."""
    return submitted_and_verified()


@pytest.fixture(autouse=True)
def backup_dir(settings, tmp_path, tournament):
    """The tournament's snapshot folder (a laptop's file copies)."""
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.BACKUP_SNAPSHOTS = "on"
    return settings.BACKUP_DIR / "tournaments" / str(tournament.uid)


def snapshot_data(snapshot):
    return json.loads(gzip.decompress(snapshot.content))


def queued_snapshots():
    return DBTaskResult.objects.filter(task_path=snapshots.write_snapshot.module_path)


def test_a_verified_sheet_queues_a_snapshot_that_the_worker_writes_as_a_row_and_a_file(
    head_referee_client, tournament, backup_dir
):
    sheet = ScoreSheet.objects.get(table__round__tournament=tournament, table__number=1)
    head_referee_client.post(sheet_url("sheet_verify"), {"version": sheet.version})
    [queued] = queued_snapshots()
    assert queued.status == "READY" and queued.args_kwargs["args"] == [tournament.pk, "verify-r1-t1"]
    assert not Snapshot.objects.exists() and not backup_dir.exists()  # the worker writes it
    run_queued_tasks()
    [written] = files.snapshots(tournament)
    assert written.trigger == "verify-r1-t1" and written.slug == "test" and written.host_id == tournament.host_id
    row = Snapshot.objects.get()
    assert [t["state"] for t in snapshot_data(row)["rounds"][0]["tables"]] == ["verified", "verified"]
    assert row.size == len(row.content) and len(row.digest) == 64
    assert (backup_dir / written.name).read_bytes() == bytes(row.content)  # the laptop's copy
    html = head_referee_client.get("/staff/test/backups/")
    assert html.status_code == 403  # the page is the organiser's


def test_a_queued_snapshot_rolls_back_with_its_transaction(head_referee, tournament):
    sheet = ScoreSheet.objects.get(table__round__tournament=tournament, table__number=1)
    with pytest.raises(RuntimeError), transaction.atomic():
        scoring.verify_sheet(sheet, version=sheet.version, user=head_referee)
        assert queued_snapshots().count() == 1
        raise RuntimeError("the verification fails after all")
    assert not queued_snapshots().exists()
    run_queued_tasks()
    assert not Snapshot.objects.exists()


def test_two_verifications_before_the_worker_runs_queue_one_snapshot(head_referee, tournament):
    ScoreSheet.objects.filter(table__round__tournament=tournament).update(state="submitted")
    for sheet in ScoreSheet.objects.filter(table__round__tournament=tournament).order_by("table__number"):
        scoring.verify_sheet(sheet, version=sheet.version, user=head_referee)
    assert queued_snapshots().count() == 1
    run_queued_tasks()
    [written] = files.snapshots(tournament)
    assert written.trigger == "verify-r1-t1"  # the first one's; it holds both verifications
    assert [t["state"] for t in snapshot_data(Snapshot.objects.get())["rounds"][0]["tables"]] == ["verified"] * 2
    snapshots.queue_snapshot(tournament.pk, "round-1")  # once it has run, the next change queues a new one
    assert queued_snapshots().filter(status="READY").count() == 1


def test_the_snapshot_task_run_twice_writes_one_snapshot(tournament):
    snapshots.write_snapshot.call(tournament.pk, "round-1")
    snapshots.write_snapshot.call(tournament.pk, "round-1")  # a worker died after the first run
    assert [s.trigger for s in files.snapshots(tournament)] == ["round-1"]


def test_a_completed_round_writes_a_snapshot_listed_on_the_page(organiser, organiser_client, tournament):
    ScoreSheet.objects.filter(table__round__tournament=tournament).update(state="verified")
    services.complete_round(tournament.rounds.get(number=1), user=organiser)
    run_queued_tasks()
    [written] = files.snapshots(tournament)
    assert written.trigger == "round-1"
    html = organiser_client.get("/staff/test/backups/").content.decode()
    assert "round 1 completed" in html and written.name in html


def test_no_file_copy_when_hosted(settings, tournament, backup_dir):
    settings.HOSTED = True
    snapshots.take_snapshot(tournament, "round-1")
    assert len(files.snapshots(tournament)) == 1
    assert not settings.BACKUP_DIR.exists()


def test_snapshots_are_pruned_to_the_newest_fifty(tournament, backup_dir):
    names = [files.save_snapshot(tournament, "{}", f"t{i}").name for i in range(53)]
    kept = [s.name for s in files.snapshots(tournament)]
    assert len(kept) == files.KEEP == 50 == Snapshot.objects.count()
    assert kept == sorted(names[3:], reverse=True)
    assert sorted(p.name for p in backup_dir.glob("*.json.gz")) == sorted(names[3:])


def test_a_failure_while_writing_a_file_leaves_only_complete_files(tournament, backup_dir, monkeypatch):
    good = files.save_snapshot(tournament, '{"complete": true}', "first")

    def fail_after_half(handle_write):
        def write(data):
            handle_write(data[: len(data) // 2])
            raise OSError(28, "No space left on device")

        return write

    real_open = open

    def half_open(path, mode="r", *args, **kwargs):
        handle = real_open(path, mode, *args, **kwargs)
        if "w" in mode and str(path).endswith(".tmp"):
            handle.write = fail_after_half(handle.write)
        return handle

    monkeypatch.setattr("builtins.open", half_open)
    with pytest.raises(OSError):
        files.save_snapshot(tournament, '{"complete": false}' * 1000, "second")
    monkeypatch.undo()
    assert sorted(os.listdir(backup_dir)) == [good.name, "tournament.json"]
    assert json.loads(gzip.decompress((backup_dir / good.name).read_bytes())) == {"complete": True}


def test_a_temporary_file_left_by_a_crash_is_cleaned_up_later(tournament, backup_dir):
    files.save_snapshot(tournament, "{}", "first")
    leftover = backup_dir / ".20260210-093000-000000_verify-r1-t1.json.gz.123-456.tmp"
    leftover.write_bytes(b"half a file")
    assert len(files.listed(backup_dir)) == 1
    old = (datetime.datetime.now() - datetime.timedelta(hours=2)).timestamp()
    os.utime(leftover, (old, old))
    files.prune(tournament)
    assert not leftover.exists()


def test_a_failing_snapshot_never_breaks_the_verification_and_the_page_warns(
    head_referee, organiser_client, tournament, monkeypatch, caplog
):
    def broken(*args):
        raise RuntimeError("the database is unreachable")

    monkeypatch.setattr(files, "save_snapshot", broken)
    monkeypatch.setattr(files, "record_failure", lambda *a: None)  # not even the failure is written down
    sheet = ScoreSheet.objects.get(table__round__tournament=tournament, table__number=1)
    scoring.verify_sheet(sheet, version=sheet.version, user=head_referee)
    run_queued_tasks()
    sheet.refresh_from_db()
    assert sheet.state == "verified"
    assert "snapshot of test (verify-r1-t1) failed" in caplog.text
    assert files.snapshots(tournament) == []
    # A minute after the change the page still warns.
    AuditEntry.objects.filter(action="verify").update(created_at=timezone.now() - datetime.timedelta(minutes=2))
    html = organiser_client.get("/staff/test/backups/").content.decode()
    assert "No automatic snapshot holds the latest verified results" in html


def test_a_recorded_failure_is_shown_until_a_snapshot_succeeds(organiser_client, tournament, monkeypatch):
    monkeypatch.setattr(files, "write_atomically", lambda *a: (_ for _ in ()).throw(OSError(28, "No space left")))
    assert snapshots.take_snapshot(tournament, "verify-r1-t1") is None  # a laptop's file copy failed
    html = organiser_client.get("/staff/test/backups/").content.decode()
    assert "failed: [Errno 28] No space left" in html
    monkeypatch.undo()
    assert snapshots.take_snapshot(tournament, "verify-r1-t2") is not None
    assert "failed" not in organiser_client.get("/staff/test/backups/").content.decode()
