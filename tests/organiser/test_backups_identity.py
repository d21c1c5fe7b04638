"""Snapshots belong to a tournament, not to its address; staged restores are one per user and
tournament, capped in all and cleaned after use; simultaneous confirmations restore once."""

import datetime
import gzip
import io
import json
import os
import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from accounts.services import make_member
from organiser.backups import files, restore, snapshots
from organiser.interchange import dumps, export_tournament
from tests.factories import build
from tournament.models import AuditEntry, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("backup_dir")]


def named(content, name="backup.json"):
    handle = io.BytesIO(content if isinstance(content, bytes) else content.encode())
    handle.name = name
    return handle


def token_of(html):
    return html.split('name="token" value="')[1].split('"')[0]


def staged(backup_dir):
    folder = backup_dir / ".staged"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


# ---------------------------------------------------------------- snapshots and the tournament's identity


def test_a_new_tournament_at_a_deleted_ones_address_does_not_see_its_snapshots(
    organiser_client, backup_dir, django_capture_on_commit_callbacks
):
    old = build(4)
    old_snapshot = snapshots.take_snapshot(old, "round-1")
    assert old_snapshot.parent == backup_dir / "tournaments" / str(old.uid)
    with django_capture_on_commit_callbacks(execute=True):
        old.delete()
    assert not old_snapshot.exists()
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


def test_a_deletion_rolled_back_keeps_the_snapshots(backup_dir, django_capture_on_commit_callbacks):
    tournament = build(4)
    path = snapshots.take_snapshot(tournament, "round-1")
    with django_capture_on_commit_callbacks(execute=False):  # the deletion never commits
        Tournament.objects.filter(pk=tournament.pk).delete()
    assert path.is_file() and not (backup_dir / "deleted").exists()


def test_snapshots_of_the_earlier_layout_go_to_the_tournament_created_before_them(backup_dir):
    """The earlier layout kept snapshots by address (`BACKUP_DIR/<slug>/`). On first access the
    tournament at that address takes those written since it was created; older ones were an
    earlier tournament's and are set aside, unlisted."""
    tournament = build(4)
    legacy = backup_dir / "test"
    legacy.mkdir(parents=True)
    before = files.snapshot_name("round-1", tournament.created_at - datetime.timedelta(days=30))
    after = files.snapshot_name("verify-r1-t1", tournament.created_at + datetime.timedelta(seconds=5))
    for name in (before, after):
        (legacy / name).write_bytes(gzip.compress(b"{}"))
    (legacy / ".half.json.gz.1-2.tmp").write_bytes(b"half")

    assert [s.name for s in files.snapshots(tournament)] == [after]
    assert not legacy.exists()
    assert (backup_dir / "deleted" / "earlier-layout_test" / before).is_file()
    assert files.snapshot_path(tournament, before) is None


def test_a_restore_hands_the_tournaments_identity_and_snapshots_to_the_restored_one(
    organiser_client, backup_dir, django_capture_on_commit_callbacks
):
    tournament = build(4)
    first = snapshots.take_snapshot(tournament, "round-1")
    html = organiser_client.post(f"/staff/test/backups/{first.name}/restore/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):  # the "restore" snapshot follows the commit
        organiser_client.post("/staff/new/restore/confirm/", {"token": token_of(html), "replace": "on"})
    restored = Tournament.objects.get(slug="test")
    assert restored.pk != tournament.pk and restored.uid == tournament.uid
    assert [s.trigger for s in files.snapshots(restored)] == ["restore", "before-restore", "round-1"]
    assert not (backup_dir / "deleted").exists()  # the replaced row went, its snapshots stayed


# ---------------------------------------------------------------- staging


def upload(client, text, url="/staff/test/backups/"):
    response = client.post(url, {"file": named(text)})
    assert response.status_code == 200
    return token_of(response.content.decode())


def test_a_new_upload_replaces_the_users_previous_one_for_that_tournament(organiser_client, organiser, backup_dir):
    tournament = build(4)
    text = dumps(export_tournament(tournament))
    first = upload(organiser_client, text)
    second = upload(organiser_client, text)
    assert staged(backup_dir) == [f"{organiser.pk}_{tournament.uid}_{second}.json"]
    gone = organiser_client.post("/staff/new/restore/confirm/", {"token": first, "replace": "on"}, follow=True)
    assert "expired or was already restored" in gone.content.decode()
    # An upload of a tournament that does not exist here is staged apart: both wait.
    other = json.loads(text)
    other["tournament"]["slug"] = "other"
    third = upload(organiser_client, json.dumps(other), url="/staff/new/restore/")
    assert staged(backup_dir) == sorted(
        [f"{organiser.pk}_{tournament.uid}_{second}.json", f"{organiser.pk}_new_{third}.json"]
    )


def test_another_users_upload_cannot_be_confirmed(organiser_client, client, backup_dir):
    tournament = build(4)
    token = upload(organiser_client, dumps(export_tournament(tournament)))
    other = User.objects.create_user("second-organiser")
    make_member(other, "organiser")
    client.force_login(other)
    answer = client.post("/staff/new/restore/confirm/", {"token": token, "replace": "on"}, follow=True)
    assert "expired or was already restored" in answer.content.decode()
    assert Tournament.objects.get(slug="test").pk == tournament.pk and len(staged(backup_dir)) == 1


def test_staging_is_capped_the_oldest_going_first_and_expires(organiser_client, backup_dir, monkeypatch):
    tournaments = [
        build(4, tournament={"name": f"Cup {n}", "slug": f"cup-{n}", "date": "2026-02-10", "settings": {}})
        for n in range(3)
    ]
    texts = [dumps(export_tournament(t)) for t in tournaments]
    monkeypatch.setattr(restore, "MAX_STAGED", len(texts[0].encode()) * 2 + 10)
    tokens = [upload(organiser_client, text, url=f"/staff/{t.slug}/backups/") for t, text in zip(tournaments, texts)]
    assert {name.split("_")[2].removesuffix(".json") for name in staged(backup_dir)} == set(tokens[1:])
    old = (datetime.datetime.now() - restore.STAGED_FOR - datetime.timedelta(minutes=1)).timestamp()
    for path in (backup_dir / ".staged").iterdir():
        os.utime(path, (old, old))
    expired = organiser_client.post("/staff/new/restore/confirm/", {"token": tokens[2], "replace": "on"}, follow=True)
    assert "expired or was already restored" in expired.content.decode()
    upload(organiser_client, texts[0], url="/staff/cup-0/backups/")
    assert len(staged(backup_dir)) == 1  # the expired ones went


def test_the_staged_upload_goes_once_restored(organiser_client, backup_dir):
    tournament = build(4)
    token = upload(organiser_client, dumps(export_tournament(tournament)))
    organiser_client.post("/staff/new/restore/confirm/", {"token": token, "replace": "on"})
    assert Tournament.objects.get(slug="test").pk != tournament.pk
    assert staged(backup_dir) == []


@pytest.mark.parametrize(
    "code, kept", [("backup_changed", False), ("backup_invalid", False), ("backup_not_saved_first", True)]
)
def test_a_refused_restore_drops_the_staged_upload_unless_trying_again_may_help(organiser, backup_dir, code, kept):
    token = restore.stage("{}", user=organiser, scope=restore.NEW)
    with pytest.raises(restore.Refused):
        with restore.claimed(token, user=organiser) as text:
            assert text == "{}"
            assert restore.staged_path(token, user=organiser) is None  # held by this confirmation alone
            raise restore.Refused(code)
    assert (restore.staged_path(token, user=organiser) is not None) is kept


# ---------------------------------------------------------------- five confirmations at once


def confirm_at_once(clients, tokens):
    """Each client posts its confirmation at the same moment; returns the answers."""
    barrier = threading.Barrier(len(clients))
    answers = [None] * len(clients)

    def post(index):
        try:
            barrier.wait(timeout=30)
            answers[index] = clients[index].post(
                "/staff/new/restore/confirm/", {"token": tokens[index], "replace": "on"}
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(index,)) for index in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers


@pytest.mark.django_db(transaction=True)
def test_five_confirmations_of_one_upload_at_once_restore_once_with_one_snapshot_before(backup_dir):
    """A double tap, a retry, five taps: the staged upload is taken by one confirmation; the others
    find it gone (before or after it was restored)."""
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
    assert all(answer.status_code in (200, 302) for answer in answers)
    assert [answer.get("Location") for answer in answers].count("/staff/test/") == 1
    restored = Tournament.objects.get(slug="test")
    assert restored.pk != tournament.pk and Tournament.objects.count() == 1
    assert [s.trigger for s in files.snapshots(restored)].count("before-restore") == 1
    assert AuditEntry.objects.filter(action="restore").count() == 1
    assert staged(backup_dir) == []
