"""The backups page: download, preview, confirmation, and refusal of every kind of bad file."""

import gzip
import json

import pytest
from django.contrib.auth.models import User

from accounts.models import Role, TournamentRole
from organiser.backups import files, snapshots
from organiser.interchange import dumps, export_tournament
from organiser.models import StagedRestore
from tests.factories import build, out_game, table, tournament_data
from tests.support.tasks import run_queued_tasks
from tests.support.uploads import named, token_of
from tournament.models import AuditEntry, Player, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("backup_dir")]


def played_data(slug="test", name="Senioriada Test"):
    data = tournament_data(
        8,
        [
            {
                "number": 1,
                "tables": [
                    table(
                        1, ["p1", "p2", "p3", "p4"], [out_game(1, "A", B=(23, 0), C=(10, 1), D=(0, 0, "not_possible"))]
                    ),
                    table(2, ["p5", "p6", "p7", "p8"]),
                ],
            }
        ],
    )
    data["tournament"].update(slug=slug, name=name)
    data["cards"] = [{"player": "p2", "round": 1, "colour": "yellow", "reason": "untidy table"}]
    return data


def test_only_the_organiser_sees_the_backups_page(client, head_referee, organiser):
    build(4)
    assert client.get("/staff/test/backups/").status_code == 302
    client.force_login(head_referee)
    assert client.get("/staff/test/backups/").status_code == 403
    assert client.get("/staff/test/backups/download/").status_code == 403
    assert client.post("/staff/new/restore/", {"file": named("{}", "x.json")}).status_code == 403
    client.force_login(organiser)
    html = client.get("/staff/test/backups/").content.decode()
    assert "Staff accounts, passwords and the venue address are not in it" in html and "Restore from a file" in html
    assert "/staff/test/backups/" in client.get("/staff/test/").content.decode()
    assert "/staff/new/restore/" in client.get("/staff/").content.decode()


def test_the_download_is_the_export(organiser_client):
    tournament = build(4)
    response = organiser_client.get("/staff/test/backups/download/")
    assert response["Content-Disposition"].startswith('attachment; filename="test-')
    assert response.content.decode() == dumps(export_tournament(tournament))


@pytest.mark.django_db(transaction=True)
def test_a_new_tournament_is_previewed_then_restored_on_confirmation(organiser_client):
    text = json.dumps(played_data())
    response = organiser_client.post("/staff/new/restore/", {"file": named(text, "backup.json")})
    html = response.content.decode()
    for shown in (
        "Senioriada Test",
        "<code>test</code>",
        "10 February 2026",
        "<dd>8</dd>",
        "1 with results, 1 verified",
        "will be created",
    ):
        assert shown in html, shown
    assert not Tournament.objects.exists()
    token = token_of(html)
    response = organiser_client.post("/staff/new/restore/confirm/", {"token": token}, follow=True)
    assert response.redirect_chain[-1][0] == f"/staff/new/restore/{token}/"
    assert "The backup is being restored" in response.content.decode()
    assert not Tournament.objects.exists()  # the worker restores it
    run_queued_tasks()
    tournament = Tournament.objects.get(slug="test")
    assert tournament.players.count() == 8
    assert AuditEntry.objects.filter(tournament=tournament, action="restore").count() == 1
    done = organiser_client.get(f"/staff/new/restore/{token}/").content.decode()
    assert "has been restored from the backup" in done and 'href="/staff/test/"' in done
    # Confirmed again (a second tap): it is shown as confirmed, and nothing is restored twice.
    again = organiser_client.post("/staff/new/restore/confirm/", {"token": token}, follow=True)
    assert "already being restored" in again.content.decode()
    run_queued_tasks()
    assert Tournament.objects.count() == 1 and AuditEntry.objects.filter(action="restore").count() == 1


@pytest.mark.django_db(transaction=True)
def test_restoring_over_a_tournament_names_it_and_replaces_it_whole_after_the_box_is_ticked(
    organiser_client, referee, backup_dir
):
    old = build(4)
    TournamentRole.objects.create(user=referee, tournament=old, role=Role.REFEREE)
    text = gzip.compress(json.dumps(played_data(name="Senioriada z kopii")).encode())
    html = organiser_client.post("/staff/test/backups/", {"file": named(text, "b.json.gz")}).content.decode()
    assert "The tournament “Senioriada Test” will be replaced" in html
    assert "Replace “Senioriada Test”" in html
    token = token_of(html)
    refused = organiser_client.post("/staff/new/restore/confirm/", {"token": token}).content.decode()
    assert "Tick the box to confirm the replacement." in refused
    assert Tournament.objects.get(slug="test").pk == old.pk
    organiser_client.post("/staff/new/restore/confirm/", {"token": token, "replace": "on"})
    run_queued_tasks()  # the restore, then the "restore" snapshot it queued
    restored = Tournament.objects.get(slug="test")
    assert restored.pk != old.pk and restored.name == "Senioriada z kopii" and Tournament.objects.count() == 1
    assert restored.players.count() == 8
    assert TournamentRole.objects.get(user=referee).tournament == restored
    assert restored.uid == old.uid  # the same tournament's snapshots, the one before the restore too
    assert [s.trigger for s in files.snapshots(restored)] == ["restore", "before-restore"]
    before = json.loads(gzip.decompress(files.snapshot_named(restored, files.snapshots(restored)[1].name).content))
    assert len(before["players"]) == 4
    folder = backup_dir / "tournaments" / str(old.uid)  # a laptop's file copies
    assert [p.name.split("_", 1)[1] for p in sorted(folder.glob("*.json.gz"))] == [
        "before-restore.json.gz",
        "restore.json.gz",
    ]


def test_a_backup_of_another_tournament_is_refused_on_this_tournaments_page(organiser_client):
    build(4)
    html = organiser_client.post(
        "/staff/test/backups/", {"file": named(json.dumps(played_data(slug="other")), "b.json")}
    ).content.decode()
    assert "This is a backup of another tournament" in html
    assert not Tournament.objects.filter(slug="other").exists()


ZIP_BOMB = gzip.compress(b" " * (60 * 1024 * 1024), mtime=0)


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"format": ', "invalid JSON at line 1, column 12"),
        ('{"name": "a recipe", "format": "recipe/1"}', "format: must be &#x27;rummikub-tournament/1&#x27;"),
        ("[1, 2]", "must be an object, got list"),
        (json.dumps(played_data()).replace('"tiles": 23', '"tiles": -3'), "rounds[0].tables[0].games[0].racks.B.tiles"),
        (b"\xff\xfe\x00garbage", "it is not text"),
        (b"\x1f\x8b\x08\x00broken", "damaged or cut short"),
        (gzip.compress(b"x" * 1000, mtime=0)[:12] + b"garbage" * 10, "damaged or cut short"),
        (gzip.compress(json.dumps(played_data()).encode(), mtime=0)[:-20], "damaged or cut short"),
        (ZIP_BOMB, "unpacks to more than 50 MB"),
    ],
)
def test_a_bad_file_is_refused_next_to_the_field_and_nothing_is_written(organiser_client, content, message, backup_dir):
    response = organiser_client.post("/staff/new/restore/", {"file": named(content, "backup.json")})
    assert response.status_code == 200
    html = response.content.decode()
    assert message in html and 'id="id_file_errors"' in html
    assert not Tournament.objects.exists() and not StagedRestore.objects.exists()


def test_a_huge_upload_is_refused_by_its_size_before_the_body_is_read(organiser_client, organiser):
    build(4)
    body = b"x" * 100
    response = organiser_client.generic(
        "POST",
        "/staff/test/backups/",
        body,
        content_type="multipart/form-data; boundary=xyz",
        CONTENT_LENGTH=str(25 * 1024 * 1024),
    )
    assert response.status_code == 200
    assert "larger than 20 MB" in response.content.decode()
    assert Tournament.objects.count() == 1 and Player.objects.count() == 4


def test_the_upload_still_needs_the_csrf_token(organiser):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    assert client.post("/staff/new/restore/", {"file": named("{}", "x.json")}).status_code == 403


def test_a_tournament_organiser_may_not_create_other_tournaments_from_a_file(client):
    tournament = build(4)
    user = User.objects.create_user("local-organiser")
    TournamentRole.objects.create(user=user, tournament=tournament, role=Role.ORGANISER)
    client.force_login(user)
    assert client.get("/staff/test/backups/").status_code == 200
    assert (
        client.post("/staff/new/restore/", {"file": named(json.dumps(played_data(slug="x")), "b.json")}).status_code
        == 403
    )


@pytest.mark.django_db(transaction=True)
def test_a_snapshot_is_downloaded_and_restored_through_the_page(organiser_client, organiser):
    tournament = build(4)
    snapshot = snapshots.take_snapshot(tournament, "round-1")
    response = organiser_client.get(f"/staff/test/backups/{snapshot.name}/")
    assert response["Content-Type"] == "application/gzip"
    assert response["Content-Disposition"] == f'attachment; filename="test-{snapshot.name}"'
    assert gzip.decompress(response.content).decode() == dumps(export_tournament(tournament))
    Player.objects.filter(tournament=tournament, ext_id="p4").delete()

    html = organiser_client.post(f"/staff/test/backups/{snapshot.name}/restore/").content.decode()
    assert "The tournament “Senioriada Test” will be replaced" in html and "<dd>4</dd>" in html
    organiser_client.post("/staff/new/restore/confirm/", {"token": token_of(html), "replace": "on"})
    run_queued_tasks()
    assert Tournament.objects.get(slug="test").players.count() == 4
    assert [s.trigger for s in files.snapshots(Tournament.objects.get(slug="test"))] == [
        "restore",
        "before-restore",
        "round-1",
    ]


@pytest.mark.parametrize(
    "name", ["../../etc/passwd", "20260210-093000-000000_verify-r1-t1.json.gz", ".staged", "x.json.gz"]
)
def test_only_an_existing_snapshot_of_this_tournament_can_be_fetched(organiser_client, name):
    build(4)
    assert organiser_client.get(f"/staff/test/backups/{name}/").status_code == 404
    assert organiser_client.post(f"/staff/test/backups/{name}/restore/").status_code == 404
