"""Automatic snapshots: written after verified sheets and completed rounds, pruned to 50, atomic,
and never a reason for a verification to fail."""

import datetime
import gzip
import json
import os

import pytest
from django.utils import timezone

from organiser import services
from organiser.backups import files, snapshots
from scoring.models import ScoreSheet
from scoring.services import sheets as scoring
from tests.factories import sheet_url, submitted_and_verified
from tournament.models import AuditEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    """One sheet submitted, one verified (the verification tests' tournament)."""
    return submitted_and_verified()


@pytest.fixture(autouse=True)
def backup_dir(settings, tmp_path, tournament):
    """The tournament's snapshot folder."""
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.BACKUP_SNAPSHOTS = "on"
    return settings.BACKUP_DIR / "tournaments" / str(tournament.uid)


def snapshot_data(path):
    return json.loads(gzip.decompress(path.read_bytes()))


def test_a_verified_sheet_writes_a_snapshot_after_the_commit(
    head_referee_client, tournament, backup_dir, django_capture_on_commit_callbacks
):
    sheet = ScoreSheet.objects.get(table__round__tournament=tournament, table__number=1)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        head_referee_client.post(sheet_url("sheet_verify"), {"version": sheet.version})
        assert not backup_dir.exists()  # nothing before the commit
    for callback in callbacks:
        callback()
    [written] = files.snapshots(tournament)
    assert written.trigger == "verify-r1-t1"
    data = snapshot_data(backup_dir / written.name)
    assert [t["state"] for t in data["rounds"][0]["tables"]] == ["verified", "verified"]
    html = head_referee_client.get("/staff/test/backups/")
    assert html.status_code == 403  # the page is the organiser's


def test_a_completed_round_writes_a_snapshot_listed_on_the_page(
    organiser, organiser_client, tournament, django_capture_on_commit_callbacks
):
    ScoreSheet.objects.filter(table__round__tournament=tournament).update(state="verified")
    with django_capture_on_commit_callbacks(execute=True):
        services.complete_round(tournament.rounds.get(number=1), user=organiser)
    [written] = files.snapshots(tournament)
    assert written.trigger == "round-1"
    html = organiser_client.get("/staff/test/backups/").content.decode()
    assert "round 1 completed" in html and written.name in html


def test_snapshots_are_pruned_to_the_newest_fifty(tournament, backup_dir):
    names = []
    for i in range(53):
        path = files.save_snapshot(tournament, "{}", f"t{i}")
        names.append(path.name)
    kept = [s.name for s in files.snapshots(tournament)]
    assert len(kept) == files.KEEP == 50
    assert kept == sorted(names[3:], reverse=True)


def test_a_failure_while_writing_leaves_only_complete_files(tournament, backup_dir, monkeypatch):
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
    assert [s.name for s in files.snapshots(tournament)] == [good.name]
    assert json.loads(gzip.decompress(good.read_bytes())) == {"complete": True}


def test_a_temporary_file_left_by_a_crash_is_not_listed_and_is_cleaned_up_later(tournament, backup_dir):
    files.save_snapshot(tournament, "{}", "first")
    leftover = backup_dir / ".20260210-093000-000000_verify-r1-t1.json.gz.123-456.tmp"
    leftover.write_bytes(b"half a file")
    assert len(files.snapshots(tournament)) == 1
    old = (datetime.datetime.now() - datetime.timedelta(hours=2)).timestamp()
    os.utime(leftover, (old, old))
    files.prune(tournament)
    assert not leftover.exists()


def test_a_full_disk_never_breaks_the_verification_and_the_page_warns(
    head_referee, organiser_client, tournament, monkeypatch, django_capture_on_commit_callbacks, caplog
):
    def disk_full(path, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files, "write_atomically", disk_full)
    sheet = ScoreSheet.objects.get(table__round__tournament=tournament, table__number=1)
    with django_capture_on_commit_callbacks(execute=True):
        scoring.verify_sheet(sheet, version=sheet.version, user=head_referee)
    sheet.refresh_from_db()
    assert sheet.state == "verified"
    assert "snapshot of test (verify-r1-t1) failed" in caplog.text
    assert files.snapshots(tournament) == []
    # Not even the failure could be written down; a minute after the change the page still warns.
    AuditEntry.objects.filter(action="verify").update(created_at=timezone.now() - datetime.timedelta(minutes=2))
    html = organiser_client.get("/staff/test/backups/").content.decode()
    assert "No automatic snapshot holds the latest verified results" in html


def test_a_recorded_failure_is_shown_until_a_snapshot_succeeds(organiser_client, tournament, monkeypatch):
    monkeypatch.setattr(
        files, "save_snapshot", lambda *a: (_ for _ in ()).throw(OSError(28, "No space left on device"))
    )
    assert snapshots.take_snapshot(tournament, "verify-r1-t1") is None
    html = organiser_client.get("/staff/test/backups/").content.decode()
    assert "failed: [Errno 28] No space left on device" in html
    monkeypatch.undo()
    assert snapshots.take_snapshot(tournament, "verify-r1-t2") is not None
    assert "failed" not in organiser_client.get("/staff/test/backups/").content.decode()
