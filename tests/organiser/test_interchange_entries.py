"""The organisations' entries travel in the staff's interchange file (the optional `entries` list,
SPEC §11): export → import keeps every entry, its state, its contact and consent, its times, the
waiting list's order and the player it became; a file without them imports as before; a bad value
is refused with its JSON path; contact details deleted after the tournament are not brought back."""

import datetime
import gzip
import hashlib
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import Membership
from organiser.backups import files, snapshots
from organiser.backups.restore import restore
from organiser.interchange import InterchangeError, decode, dumps, export_tournament, import_tournament
from organiser.models import Entry
from organiser.services.entries import (
    EntryData,
    confirm_entry,
    delete_old_contacts,
    refuse_entry,
    submit_entry,
    withdraw_entry,
)
from tests.factories import tournament_data
from tests.support.entries import open_tournament
from tests.support.tasks import run_queued_tasks
from tests.support.uploads import named, token_of
from tournament.models import Player, Tournament

pytestmark = pytest.mark.django_db

MINUTE = datetime.timedelta(minutes=1)


def enter(tournament, n, at):
    entry = submit_entry(
        tournament,
        EntryData(
            f"UTW Miasto {n}", f"Kowalska{n}", "Anna", 1940 + n, f"Kontakt {n}", f"utw{n}@example.pl", "", "Zgoda"
        ),
        form_key=f"form-key-of-entry-{n}",
        client="10.0.0.1",
        site="http://sala.example/",
        now=at,
    )
    Entry.objects.filter(pk=entry.pk).update(created_at=at)  # entered then (`auto_now_add` says now)
    return entry


def entered():
    """Capacity 2 and seven entries: 1 and 2 confirmed (players), then 3, 5 and 4 (waiting, in
    that order of confirmation); 2 withdraws, so 3 takes its place and the waiting list is 5, 4;
    6 is refused while unconfirmed and 7 still waits for confirmation."""
    tournament = open_tournament(capacity=2)
    t0 = timezone.now().replace(microsecond=0) - datetime.timedelta(hours=1)
    entries = {n: enter(tournament, n, t0 + n * MINUTE) for n in range(1, 8)}
    for minute, n in enumerate((1, 2, 3, 5, 4), start=10):
        confirm_entry(entries[n], now=t0 + minute * MINUTE)
    withdraw_entry(entries[2], now=t0 + 20 * MINUTE)
    refuse_entry(entries[6], reason="Brak zgody zawodnika", user=None, now=t0 + 21 * MINUTE)
    return tournament, t0


def by_organisation(tournament):
    return {e.organisation: e for e in Entry.objects.filter(tournament=tournament).select_related("player")}


def test_the_export_carries_every_entry_with_its_state_contact_and_player():
    tournament, t0 = entered()
    data = export_tournament(tournament)
    rows = {row["organisation"]: row for row in data["entries"]}
    assert [row["organisation"] for row in data["entries"]] == [f"UTW Miasto {n}" for n in range(1, 8)]
    assert {o[-1]: row["state"] for o, row in rows.items()} == {
        "1": "player",
        "2": "withdrawn",
        "3": "player",
        "4": "waiting",
        "5": "waiting",
        "6": "refused",
        "7": "pending",
    }
    assert {o[-1]: row["waiting_place"] for o, row in rows.items() if row["waiting_place"]} == {"5": 1, "4": 2}
    ids = {p.pk: p.ext_id for p in Player.objects.filter(tournament=tournament)}
    entries = by_organisation(tournament)
    assert rows["UTW Miasto 3"]["player"] == ids[entries["UTW Miasto 3"].player_id]
    assert rows["UTW Miasto 2"]["player"] is None  # withdrawn: its player was removed
    third = rows["UTW Miasto 3"]
    assert third["surname"] == "Kowalska3" and third["given_names"] == "Anna" and third["birth_year"] == 1943
    assert third["contact_name"] == "Kontakt 3" and third["contact_email"] == "utw3@example.pl"
    assert third["consent_text"] == "Zgoda"
    assert third["consent_at"] == third["entered_at"] == (t0 + 3 * MINUTE).isoformat()
    assert third["confirmed_at"] == (t0 + 12 * MINUTE).isoformat()
    assert rows["UTW Miasto 2"]["ended_at"] == (t0 + 20 * MINUTE).isoformat()
    assert rows["UTW Miasto 6"]["reason"] == "Brak zgody zawodnika"
    assert "token" not in json.dumps(data["entries"])  # the entry's private link stays on its server


def test_export_import_export_keeps_every_entry_and_links_them_to_the_imported_players():
    tournament, _ = entered()
    data = export_tournament(tournament)
    copy = import_tournament(json.loads(dumps(data)), slug="copy")
    again = export_tournament(copy)
    assert again["entries"] == data["entries"]
    assert dumps({**again, "tournament": data["tournament"]}) == dumps(data)
    original, restored = by_organisation(tournament), by_organisation(copy)
    for organisation, entry in restored.items():
        before = original[organisation]
        assert (entry.state, entry.contact_email, entry.created_at, entry.confirmed_at) == (
            before.state,
            before.contact_email,
            before.created_at,
            before.confirmed_at,
        )
        assert entry.token != before.token  # a link of its own
    for n in (1, 3):
        player = restored[f"UTW Miasto {n}"].player
        assert player.tournament == copy and player.name == f"Anna Kowalska{n}"
        assert player.ext_id == original[f"UTW Miasto {n}"].player.ext_id


def test_the_restored_waiting_list_promotes_in_its_order():
    tournament, t0 = entered()
    copy = import_tournament(export_tournament(tournament), slug="copy")
    entries = by_organisation(copy)
    withdraw_entry(entries["UTW Miasto 1"], now=t0 + 30 * MINUTE)
    entries = by_organisation(copy)
    assert entries["UTW Miasto 5"].state == Entry.State.PLAYER  # place 1 of the waiting list
    assert entries["UTW Miasto 4"].state == Entry.State.WAITING


def test_a_file_without_entries_imports_as_before_and_exports_none():
    tournament = import_tournament(tournament_data(4))
    assert not Entry.objects.filter(tournament=tournament).exists()
    assert "entries" not in export_tournament(tournament)


def test_contact_details_of_a_tournament_held_long_ago_are_not_brought_back(settings):
    """A snapshot taken before the worker deleted the contacts (30 days after the tournament)
    restores the entries with their contacts blank and marked deleted."""
    settings.ENTRY_CONTACT_DAYS = 30
    tournament, _ = entered()
    data = export_tournament(tournament)
    data["tournament"]["date"] = (timezone.localdate() - datetime.timedelta(days=31)).isoformat()
    copy = import_tournament(data, slug="copy")
    restored = Entry.objects.filter(tournament=copy)
    assert restored.count() == 7
    assert set(restored.values_list("contact_name", "contact_email", "contact_phone")) == {("", "", "")}
    assert restored.filter(contact_deleted_at__isnull=True).count() == 0
    data["tournament"]["date"] = (timezone.localdate() - datetime.timedelta(days=30)).isoformat()
    kept = import_tournament(data, slug="kept")
    assert Entry.objects.get(tournament=kept, organisation="UTW Miasto 3").contact_email == "utw3@example.pl"


def entry_file():
    data = tournament_data(2)
    data["tournament"]["date"] = (timezone.localdate() + datetime.timedelta(days=10)).isoformat()
    data["entries"] = [
        {
            "state": "player",
            "organisation": "UTW Kraków",
            "surname": "Nowak",
            "given_names": "Anna",
            "birth_year": 1950,
            "contact_name": "Jan Sekretarz",
            "contact_email": "jan@example.pl",
            "contact_phone": "+48 600 100 200",
            "consent_text": "Zgoda",
            "consent_at": "2026-01-10T10:00:00+00:00",
            "entered_at": "2026-01-10T10:00:00+00:00",
            "confirm_by": "2026-01-12T10:00:00+00:00",
            "confirmed_at": "2026-01-10T11:00:00+00:00",
            "player": "p1",
        },
        {
            "state": "waiting",
            "organisation": "UTW Łódź",
            "surname": "Wiśniewska",
            "consent_text": "Zgoda",
            "consent_at": "2026-01-10T10:05:00+00:00",
            "entered_at": "2026-01-10T10:05:00+00:00",
            "confirm_by": "2026-01-12T10:05:00+00:00",
            "confirmed_at": "2026-01-10T11:05:00+00:00",
            "waiting_place": 1,
        },
    ]
    return data


def test_a_hand_written_file_with_entries_imports():
    tournament = import_tournament(entry_file())
    first, second = Entry.objects.filter(tournament=tournament).select_related("player")
    assert first.player.ext_id == "p1" and first.contact_phone == "+48 600 100 200"
    assert second.state == Entry.State.WAITING and second.given_names == "" and second.birth_year is None
    assert second.created_at == datetime.datetime(2026, 1, 10, 10, 5, tzinfo=datetime.UTC)


@pytest.mark.parametrize(
    ("change", "path", "message"),
    [
        (lambda e: e[0].update(state="lost"), "entries[0].state", "must be one of pending"),
        (lambda e: e[0].update(player="p9"), "entries[0].player", "unknown player 'p9'"),
        (lambda e: e[1].update(player="p1", state="player"), "entries[1].player", "also entries[0]"),
        (lambda e: e[1].update(player="p2"), "entries[1].player", "state waiting is no player"),
        (lambda e: e[0].update(contact_email="jan(at)example"), "entries[0].contact_email", "e-mail address"),
        (lambda e: e[0].update(birth_year=1899), "entries[0].birth_year", "must be 1900–"),
        (lambda e: e[0].update(surname="Nowak\x00"), "entries[0].surname", ""),
        (lambda e: e[0].pop("consent_at"), "entries[0].consent_at", "is required"),
        (lambda e: e[1].update(confirmed_at=None), "entries[1].confirmed_at", "its time is required"),
        (lambda e: e[1].update(waiting_place=2), "entries[1].waiting_place", "at place 1, not 2"),
        (lambda e: e[0].update(waiting_place=1), "entries[0].waiting_place", "only a waiting entry"),
        (
            lambda e: e[0].update(contact_deleted_at="2026-03-01T00:00:00+00:00"),
            "entries[0].contact_deleted_at",
            "has none",
        ),
        (lambda e: e[0].update(token="abc"), "entries[0].token", "unknown field"),
        (lambda e: e.append("entry"), "entries[2]", "must be an object"),
    ],
)
def test_a_bad_entry_is_refused_with_its_json_path_and_nothing_is_written(change, path, message):
    data = entry_file()
    change(data["entries"])
    with pytest.raises(InterchangeError) as error:
        import_tournament(data)
    assert str(error.value).startswith(f"{path}: ")
    assert message in str(error.value)
    assert not Entry.objects.exists() and not Player.objects.exists()


def test_only_the_organiser_downloads_the_entries_with_their_contacts(client, organiser, referee):
    tournament, _ = entered()
    url = reverse("organiser:backup_download", args=[tournament.slug])
    client.force_login(referee)
    assert "utw3@example.pl" not in client.get(url).content.decode()
    client.force_login(organiser)
    response = client.get(url)
    assert response.status_code == 200
    rows = json.loads(response.content)["entries"]
    assert [row["contact_email"] for row in rows] == [f"utw{n}@example.pl" for n in range(1, 8)]


@pytest.mark.usefixtures("backup_dir")
def test_a_restore_over_itself_keeps_the_entries_and_their_players(organiser):
    tournament, t0 = entered()
    Membership.objects.filter(user=organiser).update(host=tournament.host)
    before = export_tournament(tournament)["entries"]
    restored = restore(dumps(export_tournament(tournament)), user=organiser, replace=tournament)
    assert export_tournament(restored)["entries"] == before
    entries = by_organisation(restored)
    assert entries["UTW Miasto 3"].player.tournament_id == restored.pk
    withdraw_entry(entries["UTW Miasto 3"], now=t0 + 30 * MINUTE)  # its new link works as the old one did
    assert by_organisation(restored)["UTW Miasto 5"].state == Entry.State.PLAYER


@pytest.mark.usefixtures("backup_dir")
def test_restoring_a_snapshot_older_than_the_deletion_of_the_contacts_does_not_bring_them_back(organiser, settings):
    """The tournament was held 31 days ago; a snapshot taken before the worker's deletion (day 30)
    still holds the contacts; restored after the deletion, they stay deleted."""
    settings.ENTRY_CONTACT_DAYS = 30
    tournament, _ = entered()
    Membership.objects.filter(user=organiser).update(host=tournament.host)
    Tournament.objects.filter(pk=tournament.pk).update(date=timezone.localdate() - datetime.timedelta(days=31))
    tournament.refresh_from_db()
    older = dumps(export_tournament(tournament))
    assert "utw3@example.pl" in older
    assert delete_old_contacts() == 7
    restored = restore(older, user=organiser, replace=tournament)
    assert "utw3@example.pl" not in dumps(export_tournament(restored))
    assert not Entry.objects.filter(tournament=restored, contact_deleted_at__isnull=True).exists()


@pytest.mark.usefixtures("backup_dir")
def test_a_snapshot_carries_the_entries_and_imports_them_back():
    tournament, _ = entered()
    snapshot = snapshots.take_snapshot(tournament, "manual")
    text = gzip.decompress(bytes(files.snapshot_named(tournament, snapshot.name).content)).decode()
    assert [row["state"] for row in json.loads(text)["entries"]] == [
        "player",
        "withdrawn",
        "player",
        "waiting",
        "waiting",
        "refused",
        "pending",
    ]
    copy = import_tournament(decode(text), slug="from-snapshot")
    assert export_tournament(copy)["entries"] == export_tournament(tournament)["entries"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("backup_dir")
def test_the_restore_preview_counts_the_entries_and_the_restore_brings_them(organiser_client):
    tournament, _ = entered()
    text = dumps(export_tournament(tournament))
    Tournament.objects.filter(pk=tournament.pk).delete()
    response = organiser_client.post("/staff/new/restore/", {"file": named(text, "backup.json")})
    html = response.content.decode()
    assert "<dt>Entries</dt><dd>7</dd>" in html
    organiser_client.post("/staff/new/restore/confirm/", {"token": token_of(html)})
    run_queued_tasks()
    restored = Tournament.objects.get(slug=tournament.slug)
    assert Entry.objects.filter(tournament=restored).count() == 7
    assert Entry.objects.get(tournament=restored, organisation="UTW Miasto 3").player.tournament == restored


@pytest.mark.usefixtures("backup_dir")
def test_deleting_the_contacts_rewrites_the_snapshots_taken_before_without_them(settings):
    """Held 31 days ago: the worker blanks the contacts of all 7 entries, and the two snapshots
    taken before (rows and a laptop's file copies) lose them too; they still restore the entries."""
    settings.ENTRY_CONTACT_DAYS = 30
    tournament, _ = entered()
    Tournament.objects.filter(pk=tournament.pk).update(date=timezone.localdate() - datetime.timedelta(days=31))
    tournament.refresh_from_db()
    taken = [snapshots.take_snapshot(tournament, trigger) for trigger in ("round-1", "manual")]
    folder = settings.BACKUP_DIR / "tournaments" / str(tournament.uid)
    assert all(b"utw3@example.pl" in gzip.decompress((folder / row.name).read_bytes()) for row in taken)
    assert delete_old_contacts() == 7
    for row in taken:
        stored = files.snapshot_named(tournament, row.name)
        content = bytes(stored.content)
        assert stored.digest == hashlib.sha256(content).hexdigest() and stored.size == len(content)
        assert (folder / row.name).read_bytes() == content
        text = gzip.decompress(content).decode()
        assert "utw3@example.pl" not in text and "Kontakt 3" not in text
        entries = json.loads(text)["entries"]
        assert [e["surname"] for e in entries] == [f"Kowalska{n}" for n in range(1, 8)]
        assert all(e["contact_deleted_at"] for e in entries)
        copy = import_tournament(decode(text), slug=f"copy-{row.trigger}")
        assert Entry.objects.filter(tournament=copy).count() == 7
