"""Cards in the interchange file: when and by whom each was given, a withdrawn card as such (when,
by whom, why), all kept by export → import → export; the audit entries an import writes are
marked as the file's word."""

import datetime
import io
import json

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from engine import rules
from organiser.interchange import InterchangeError, dumps, export_tournament, import_json_text, import_tournament
from scoring.models import Card, ScoreSheet
from scoring.services import cards
from scoring.services import sheets as services
from tests.factories import build, four_games, sheet_url, started_round, table, tournament_data
from tests.support.tasks import run_queued_tasks
from tournament.models import AuditEntry, Player, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("backup_dir")]

GIVEN = "2026-02-10T09:30:00+00:00"
WITHDRAWN = "2026-02-10T10:05:00+00:00"


def carded(head_referee, referee):
    """Round 1 verified; p2 got two yellow cards (disqualified) and the head referee withdrew the
    second (the disqualification lifted); p3 a warning; a game corrected on the sheet."""
    tournament = build(4, rounds=[started_round(table(1, ["p1", "p2", "p3", "p4"], four_games(), state="verified"))])
    p2 = Player.objects.get(ext_id="p2")
    cards.give_card(p2, "yellow", "untidy table", user=referee, round=tournament.rounds.get())
    second = cards.give_card(p2, "yellow", "talking during a move", user=referee, confirmed=True)
    cards.withdraw_card(p2, second.pk, reason="given to the wrong player", user=head_referee)
    cards.give_card(Player.objects.get(ext_id="p3"), "warning", "phone on the table", user=referee)
    sheet = ScoreSheet.objects.get(table__round__tournament=tournament)
    game = rules.Game(seats=tuple("ABCD"), winner="B", racks={x: rules.Rack(tiles=7) for x in "ACD"})
    services.save_game(sheet, 1, game, version=sheet.version, user=head_referee, reason="recounted with the players")
    return tournament


def test_the_export_carries_when_and_by_whom_each_card_was_given_and_a_withdrawn_card_as_such(head_referee, referee):
    exported = export_tournament(carded(head_referee, referee))["cards"]
    first, second, warning = exported
    assert (
        first["player"] == "p2" and first["round"] == 1 and first["given_by"] == "referee" and "withdrawn" not in first
    )
    assert second["withdrawn"]["by"] == "head" and second["withdrawn"]["reason"] == "given to the wrong player"
    assert second["given_at"].endswith("+00:00") and second["withdrawn"]["at"] >= second["given_at"]
    assert set(warning) == {"player", "round", "colour", "reason", "given_at", "given_by"}


def test_export_import_export_keeps_every_card_its_times_and_its_withdrawal(head_referee, referee):
    tournament = carded(head_referee, referee)
    original = {c.reason: (c.created_at, c.withdrawn_at) for c in Card.objects.filter(tournament=tournament)}
    first = dumps(export_tournament(tournament))
    Tournament.objects.all().delete()
    User.objects.all().delete()  # staff accounts are not in the backup
    restored = import_tournament(json.loads(first))
    assert dumps(export_tournament(restored)) == first  # byte for byte, the audit log included
    kept = {c.reason: (c.created_at, c.withdrawn_at) for c in Card.objects.filter(tournament=restored)}
    assert kept == original  # a restore no longer stamps the cards with its own time
    second = Card.objects.get(tournament=restored, reason="talking during a move")
    assert second.is_withdrawn and (second.withdrawn_by, second.withdrawn_by_name) == (None, "head")
    assert (second.given_by, second.giver, second.withdrawer) == (None, "referee", "head")
    assert Player.objects.get(tournament=restored, ext_id="p2").status == "active"  # the withdrawn card does not count


def test_the_audit_entries_of_a_file_are_marked_as_its_word_and_the_mark_is_not_exported(head_referee, referee):
    first = dumps(export_tournament(carded(head_referee, referee)))
    assert "from_file" not in first
    Tournament.objects.all().delete()
    restored = import_tournament(json.loads(first))
    entries = AuditEntry.objects.filter(tournament=restored)
    assert entries.count() == len(json.loads(first)["audit"]) and all(e.from_file and e.user is None for e in entries)
    assert set(entries.values_list("user_name", flat=True)) == {"referee", "head"}  # kept as text, linked to no account
    again = dumps(export_tournament(restored))
    assert again == first and "as a restored file says" not in again


def test_the_sheet_log_names_a_restored_entry_as_the_files_word(head_referee, referee, head_referee_client):
    first = dumps(export_tournament(carded(head_referee, referee)))
    Tournament.objects.all().delete()
    import_tournament(json.loads(first))
    html = head_referee_client.get(sheet_url("sheet_log")).content.decode()
    assert "head (as a restored file says)" in html


def test_a_withdrawn_card_in_a_file_does_not_disqualify():
    data = tournament_data(4)
    withdrawn = {"at": WITHDRAWN, "by": "head", "reason": "given to the wrong player"}
    data["cards"] = [
        {"player": "p1", "round": None, "colour": "yellow", "reason": "a", "given_at": GIVEN},
        {"player": "p1", "round": None, "colour": "yellow", "reason": "b", "given_at": GIVEN, "withdrawn": withdrawn},
        {"player": "p2", "round": None, "colour": "red", "reason": "c", "withdrawn": withdrawn},
    ]
    tournament = import_tournament(data)
    assert set(Player.objects.filter(tournament=tournament).values_list("status", flat=True)) == {"active"}
    card = Card.objects.get(tournament=tournament, reason="b")
    assert card.created_at == datetime.datetime(2026, 2, 10, 9, 30, tzinfo=datetime.UTC)
    assert card.withdrawn_at == datetime.datetime(2026, 2, 10, 10, 5, tzinfo=datetime.UTC)
    assert (card.withdrawn_by_name, card.withdrawal_reason, card.given_by_name) == (
        "head",
        "given to the wrong player",
        "",
    )


def test_a_file_of_the_earlier_format_imports_its_cards_as_before():
    data = tournament_data(4)
    data["cards"] = [{"player": "p1", "round": None, "colour": "warning", "reason": "a"}]
    tournament = import_tournament(data)
    card = Card.objects.get(tournament=tournament)
    assert not card.is_withdrawn and card.given_by_name == "" and card.created_at is not None
    assert export_tournament(tournament)["cards"][0]["given_by"] is None


CARD = {"player": "p1", "round": None, "colour": "yellow", "reason": "a"}


@pytest.mark.parametrize(
    "change, path",
    [
        ({"given_at": "yesterday"}, "cards[0].given_at"),
        ({"given_at": "2026-02-10T09:30:00"}, "cards[0].given_at"),
        ({"given_at": "0001-01-01T00:00:00+01:00"}, "cards[0].given_at"),  # the year 0 in UTC
        ({"given_by": "\u202eevil"}, "cards[0].given_by"),
        ({"given_by": "x" * 151}, "cards[0].given_by"),
        ({"withdrawn": True}, "cards[0].withdrawn"),
        ({"withdrawn": {"at": WITHDRAWN, "by": "head"}}, "cards[0].withdrawn.reason"),
        ({"withdrawn": {"at": WITHDRAWN, "reason": "   "}}, "cards[0].withdrawn.reason"),
        ({"withdrawn": {"reason": "a mistake"}}, "cards[0].withdrawn.at"),
        ({"withdrawn": {"at": WITHDRAWN, "reason": "a mistake", "from_file": False}}, "cards[0].withdrawn.from_file"),
        ({"given_at": WITHDRAWN, "withdrawn": {"at": GIVEN, "reason": "a mistake"}}, "cards[0].withdrawn.at"),
        ({"withdrawn_at": WITHDRAWN}, "cards[0].withdrawn_at"),
    ],
)
def test_a_broken_card_is_refused_with_its_path_and_nothing_is_written(change, path):
    with pytest.raises(InterchangeError) as refused:
        import_json_text(json.dumps(tournament_data(4, cards=[{**CARD, **change}])))
    assert str(refused.value).startswith(path + ":")
    assert not Tournament.objects.exists()


def test_a_file_cannot_mark_its_audit_entries_as_made_here():
    entry = {"when": GIVEN, "who": "organiser", "what": "verify", "from_file": False}
    with pytest.raises(InterchangeError) as refused:
        import_json_text(json.dumps(tournament_data(4, audit=[entry])))
    assert str(refused.value).startswith("audit[0].from_file:")


@pytest.mark.django_db(transaction=True)
def test_a_restore_through_the_backups_page_keeps_the_withdrawn_card_and_every_time(
    head_referee, referee, organiser_client
):
    tournament = carded(head_referee, referee)
    times = sorted(Card.objects.filter(tournament=tournament).values_list("created_at", "withdrawn_at"))
    backup = organiser_client.get(reverse("organiser:backup_download", kwargs={"slug": "test"})).content
    upload = io.BytesIO(backup)
    upload.name = "backup.json"
    html = organiser_client.post("/staff/test/backups/", {"file": upload}).content.decode()
    token = html.split('name="token" value="')[1].split('"')[0]
    organiser_client.post("/staff/new/restore/confirm/", {"token": token, "replace": "on"})
    run_queued_tasks()
    restored = Tournament.objects.get(slug="test")
    assert restored.pk != tournament.pk
    assert sorted(Card.objects.filter(tournament=restored).values_list("created_at", "withdrawn_at")) == times
    assert Card.objects.filter(tournament=restored, withdrawn_at__isnull=False).count() == 1
    restore = AuditEntry.objects.get(tournament=restored, action="restore")
    assert not restore.from_file  # the restore itself was made here, by the organiser
    assert AuditEntry.objects.filter(tournament=restored, from_file=True, action="withdraw_card").count() == 1
