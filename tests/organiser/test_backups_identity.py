"""Snapshots belong to a tournament, not to its address; staged restores are rows, one per user and
tournament, capped in all and expiring; a preview on one server is confirmed on another;
simultaneous confirmations restore once."""

import datetime
import gzip
import importlib
import io
import json

import pytest
from django.apps import apps as django_apps
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from accounts.services import make_member
from organiser.backups import files, restore, snapshots
from organiser.interchange import dumps, export_tournament
from organiser.models import Snapshot, StagedRestore
from tests.factories import build
from tests.support.race import at_once
from tests.support.tasks import run_queued_tasks
from tournament.models import AuditEntry, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("backup_dir")]


def named(content, name="backup.json"):
    handle = io.BytesIO(content if isinstance(content, bytes) else content.encode())
    handle.name = name
    return handle


def token_of(html):
    return html.split('name="token" value="')[1].split('"')[0]


def staged():
    return sorted(StagedRestore.objects.filter(status="staged").values_list("token", flat=True))


def restores_queued():
    return DBTaskResult.objects.filter(task_path=restore.apply_restore.module_path).count()


# ---------------------------------------------------------------- snapshots and the tournament's identity


def test_a_new_tournament_at_a_deleted_ones_address_does_not_see_its_snapshots(
    organiser_client, backup_dir, django_capture_on_commit_callbacks
):
    old = build(4)
    old_snapshot = snapshots.take_snapshot(old, "round-1")
    old_file = backup_dir / "tournaments" / str(old.uid) / old_snapshot.name
    assert old_file.is_file()
    with django_capture_on_commit_callbacks(execute=True):
        old.delete()
    kept = Snapshot.objects.get()  # kept, out of sight
    assert kept.tournament_uid == old.uid and kept.set_aside_at is not None and kept.slug == "test"
    assert not old_file.exists()
    [aside] = (backup_dir / "deleted").iterdir()
    assert aside.name.endswith(f"_test_{old.uid}") and (aside / old_snapshot.name).is_file()
    assert json.loads((aside / "tournament.json").read_text())["name"] == "Senioriada Test"

    new = build(6)
    assert new.slug == old.slug and new.uid != old.uid
    assert files.snapshots(new) == []
    page = organiser_client.get("/staff/test/backups/").content.decode()
    assert old_snapshot.name not in page
    assert organiser_client.get(f"/staff/test/backups/{old_snapshot.name}/").status_code == 404
    assert organiser_client.post(f"/staff/test/backups/{old_snapshot.name}/restore/").status_code == 404


def test_a_deletion_rolled_back_keeps_the_snapshots(backup_dir):
    tournament = build(4)
    snapshot = snapshots.take_snapshot(tournament, "round-1")
    with pytest.raises(RuntimeError), transaction.atomic():
        Tournament.objects.filter(pk=tournament.pk).delete()
        raise RuntimeError("the deletion never commits")
    assert [s.name for s in files.snapshots(tournament)] == [snapshot.name]
    assert (backup_dir / "tournaments" / str(tournament.uid) / snapshot.name).is_file()
    assert not (backup_dir / "deleted").exists()


def test_snapshot_files_of_the_earlier_layout_go_to_the_tournament_created_before_them(backup_dir):
    """The earlier layout kept snapshot files by address (`BACKUP_DIR/<slug>/`). At the next file
    written, the tournament at that address takes those written since it was created; older ones
    were an earlier tournament's and are set aside."""
    tournament = build(4)
    legacy = backup_dir / "test"
    legacy.mkdir(parents=True)
    before = files.snapshot_name("round-1", tournament.created_at - datetime.timedelta(days=30))
    after = files.snapshot_name("verify-r1-t1", tournament.created_at + datetime.timedelta(seconds=5))
    for name in (before, after):
        (legacy / name).write_bytes(gzip.compress(b"{}"))
    (legacy / ".half.json.gz.1-2.tmp").write_bytes(b"half")

    written = snapshots.take_snapshot(tournament, "round-2")
    own = backup_dir / "tournaments" / str(tournament.uid)
    assert {s.name for s in files.listed(own)} == {written.name, after}
    assert not legacy.exists()
    assert (backup_dir / "deleted" / "earlier-layout_test" / before).is_file()


def test_the_upgrade_copies_an_earlier_releases_snapshot_files_into_rows(backup_dir):
    tournament = build(4)
    folder = backup_dir / "tournaments" / str(tournament.uid)
    folder.mkdir(parents=True)
    start = datetime.datetime(2026, 2, 10, 9, 0, tzinfo=datetime.UTC)
    names = [files.snapshot_name(f"verify-r1-t{i}", start + datetime.timedelta(minutes=i)) for i in range(52)]
    for name in names:
        (folder / name).write_bytes(gzip.compress(b"{}", mtime=0))
    (folder / "tournament.json").write_text("{}")
    migration = importlib.import_module("organiser.migrations.0001_snapshots_and_staged_restores")
    migration.files_into_rows(django_apps, None)
    assert [s.name for s in files.snapshots(tournament)] == sorted(names, reverse=True)[:50]  # the newest 50
    newest = files.snapshot_named(tournament, names[-1])
    assert newest.trigger == "verify-r1-t51" and newest.taken_at == start + datetime.timedelta(minutes=51)
    assert gzip.decompress(newest.content) == b"{}" and newest.host_id == tournament.host_id


@pytest.mark.django_db(transaction=True)
def test_a_restore_hands_the_tournaments_identity_and_snapshots_to_the_restored_one(organiser_client, backup_dir):
    tournament = build(4)
    first = snapshots.take_snapshot(tournament, "round-1")
    html = organiser_client.post(f"/staff/test/backups/{first.name}/restore/").content.decode()
    organiser_client.post("/staff/new/restore/confirm/", {"token": token_of(html), "replace": "on"})
    run_queued_tasks()  # the restore, then the "restore" snapshot it queued
    restored = Tournament.objects.get(slug="test")
    assert restored.pk != tournament.pk and restored.uid == tournament.uid
    assert [s.trigger for s in files.snapshots(restored)] == ["restore", "before-restore", "round-1"]
    assert not (backup_dir / "deleted").exists()  # the replaced row went, its snapshots stayed


# ---------------------------------------------------------------- staging


def upload(client, text, url="/staff/test/backups/"):
    response = client.post(url, {"file": named(text)})
    assert response.status_code == 200
    return token_of(response.content.decode())


def test_a_new_upload_replaces_the_users_previous_one_for_that_tournament(organiser_client, organiser):
    tournament = build(4)
    text = dumps(export_tournament(tournament))
    first = upload(organiser_client, text)
    second = upload(organiser_client, text)
    row = StagedRestore.objects.get()
    assert (row.token, row.user, row.scope, bytes(row.content).decode()) == (
        second,
        organiser,
        str(tournament.uid),
        text,
    )
    gone = organiser_client.post("/staff/new/restore/confirm/", {"token": first, "replace": "on"}, follow=True)
    assert "expired or was already restored" in gone.content.decode()
    # An upload of a tournament that does not exist here is staged apart: both wait.
    other = json.loads(text)
    other["tournament"]["slug"] = "other"
    third = upload(organiser_client, json.dumps(other), url="/staff/new/restore/")
    assert staged() == sorted([second, third])
    assert StagedRestore.objects.get(token=third).scope == "new"


def test_another_users_upload_cannot_be_confirmed(organiser_client, client):
    tournament = build(4)
    token = upload(organiser_client, dumps(export_tournament(tournament)))
    other = User.objects.create_user("second-organiser")
    make_member(other, "organiser")
    client.force_login(other)
    answer = client.post("/staff/new/restore/confirm/", {"token": token, "replace": "on"}, follow=True)
    assert "expired or was already restored" in answer.content.decode()
    assert client.get(f"/staff/new/restore/{token}/").status_code == 404
    assert Tournament.objects.get(slug="test").pk == tournament.pk and staged() == [token]


def test_staging_is_capped_the_oldest_going_first_and_expires(organiser_client, monkeypatch):
    tournaments = [
        build(4, tournament={"name": f"Cup {n}", "slug": f"cup-{n}", "date": "2026-02-10", "settings": {}})
        for n in range(3)
    ]
    texts = [dumps(export_tournament(t)) for t in tournaments]
    monkeypatch.setattr(restore, "MAX_STAGED", len(texts[0].encode()) * 2 + 10)
    tokens = [upload(organiser_client, text, url=f"/staff/{t.slug}/backups/") for t, text in zip(tournaments, texts)]
    assert staged() == sorted(tokens[1:])
    StagedRestore.objects.update(created_at=timezone.now() - restore.STAGED_FOR - datetime.timedelta(minutes=1))
    expired = organiser_client.post("/staff/new/restore/confirm/", {"token": tokens[2], "replace": "on"}, follow=True)
    assert "This upload has expired or was already restored. Upload the file again." in expired.content.decode()
    assert restores_queued() == 0 and Tournament.objects.get(slug="cup-2").pk == tournaments[2].pk
    upload(organiser_client, texts[0], url="/staff/cup-0/backups/")
    assert len(staged()) == 1  # the expired ones went


def test_a_confirmed_upload_is_restored_once_and_its_content_goes(organiser_client):
    tournament = build(4)
    token = upload(organiser_client, dumps(export_tournament(tournament)))
    organiser_client.post("/staff/new/restore/confirm/", {"token": token, "replace": "on"})
    assert StagedRestore.objects.get().status == "applying" and restores_queued() == 1
    restore.apply_restore.call(token)
    restore.apply_restore.call(token)  # run again (a worker died after the first run): nothing more
    row = StagedRestore.objects.get()
    assert row.status == "applied" and bytes(row.content) == b"" and row.tournament.slug == "test"
    assert Tournament.objects.get(slug="test").pk != tournament.pk
    assert AuditEntry.objects.filter(action="restore").count() == 1 and staged() == []


def test_a_refused_restore_shows_why_on_its_progress_page(organiser_client, organiser):
    tournament = build(4)
    token = upload(organiser_client, dumps(export_tournament(tournament)))
    organiser_client.post("/staff/new/restore/confirm/", {"token": token, "replace": "on"})
    Tournament.objects.filter(pk=tournament.pk).update(slug="moved")  # changed since the preview
    restore.apply_restore.call(token)
    row = StagedRestore.objects.get()
    assert row.status == "failed" and row.refusal == {"code": "backup_changed", "params": {"slug": "test"}}
    html = organiser_client.get(f"/staff/new/restore/{token}/").content.decode()
    assert "The backup was not restored." in html and "The tournament test changed since the preview" in html
    assert Tournament.objects.get().pk == tournament.pk


# ---------------------------------------------------------------- two servers, and confirmations at once


@pytest.mark.django_db(transaction=True)
def test_a_preview_on_one_server_is_confirmed_on_another(organiser, settings, tmp_path):
    tournament = build(4)
    server_a, server_b = Client(), Client()
    server_a.force_login(organiser)
    server_b.cookies.update(server_a.cookies)  # one browser, the proxy switching servers
    settings.VAR_DIR, settings.BACKUP_DIR = tmp_path / "a", tmp_path / "a" / "backups"
    token = upload(server_a, dumps(export_tournament(tournament)))
    settings.VAR_DIR, settings.BACKUP_DIR = tmp_path / "b", tmp_path / "b" / "backups"
    answer = server_b.post("/staff/new/restore/confirm/", {"token": token, "replace": "on"}, follow=True)
    assert answer.redirect_chain[-1][0] == f"/staff/new/restore/{token}/"
    run_queued_tasks()
    restored = Tournament.objects.get(slug="test")
    assert restored.pk != tournament.pk
    assert "has been restored from the backup" in server_a.get(f"/staff/new/restore/{token}/").content.decode()


def confirm_at_once(clients, tokens):
    """Each client posts its confirmation at the same moment; returns the answers."""
    return at_once(
        lambda index: clients[index].post("/staff/new/restore/confirm/", {"token": tokens[index], "replace": "on"}),
        len(clients),
    )


@pytest.mark.django_db(transaction=True)
def test_five_confirmations_of_one_upload_at_once_restore_once_with_one_snapshot_before(backup_dir):
    """A double tap, a retry, five taps on two servers: one confirmation queues the restore; the
    others are told it is already being restored. The worker restores it once."""
    tournament = build(4)
    organiser = User.objects.create_user("organiser-1")
    make_member(organiser, "organiser")
    tabs = []
    for _ in range(5):  # five tabs of one browser: one session
        tab = Client(raise_request_exception=False)
        tab.force_login(organiser) if not tabs else tab.cookies.update(tabs[0].cookies)
        tabs.append(tab)
    token = upload(tabs[0], dumps(export_tournament(tournament)))
    answers = confirm_at_once(tabs, [token] * 5)
    assert [answer.status_code for answer in answers] == [302] * 5
    assert {answer["Location"] for answer in answers} == {f"/staff/new/restore/{token}/"}
    assert restores_queued() == 1
    run_queued_tasks()
    restored = Tournament.objects.get(slug="test")
    assert restored.pk != tournament.pk and Tournament.objects.count() == 1
    assert [s.trigger for s in files.snapshots(restored)].count("before-restore") == 1
    assert AuditEntry.objects.filter(action="restore").count() == 1
    assert StagedRestore.objects.get().status == "applied"
