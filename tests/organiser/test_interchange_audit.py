"""The audit log travels in the interchange file (the optional `audit` list) and round-trips."""

import json

import pytest
from django.contrib.auth.models import User

from engine import rules
from organiser.interchange import InterchangeError, dumps, export_tournament, import_json_text, import_tournament
from scoring.models import ScoreSheet
from scoring.services import cards
from scoring.services import sheets as services
from tests.factories import build, started_round, table, tournament_data
from tournament.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db


def played(head_referee):
    """Table 1 of round 1: game 1 saved, corrected after verification with a reason, and a card."""
    tournament = build(
        8, rounds=[started_round(table(1, ["p1", "p2", "p3", "p4"]), table(2, ["p5", "p6", "p7", "p8"]))]
    )
    sheet = ScoreSheet.objects.get(table__round__tournament=tournament, table__number=1)
    first = rules.Game(seats=("A", "B", "C", "D"), winner="A", racks={x: rules.Rack(tiles=5) for x in "BCD"})
    services.save_game(sheet, 1, first, version=0, user=head_referee)
    ScoreSheet.objects.filter(pk=sheet.pk).update(state="verified")
    sheet.refresh_from_db()
    services.save_game(
        sheet,
        1,
        rules.Game(seats=("A", "B", "C", "D"), winner="B", racks={x: rules.Rack(tiles=7) for x in "ACD"}),
        version=1,
        user=head_referee,
        reason="recounted with the players",
    )
    cards.give_card(tournament.players.get(ext_id="p3"), "warning", "untidy table", user=head_referee)
    return tournament


def test_the_export_carries_the_audit_log_oldest_first_with_the_user_name(head_referee):
    data = export_tournament(played(head_referee))
    assert [(e["what"], e["who"], e["sheet"]) for e in data["audit"]] == [
        ("save_game", "head", {"round": 1, "table": 1}),
        ("correct_game", "head", {"round": 1, "table": 1}),
        ("card", "head", None),
    ]
    correction = data["audit"][1]
    assert correction["reason"] == "recounted with the players"
    assert correction["before"]["game"]["winner"] == "A" and correction["after"]["game"]["winner"] == "B"
    assert correction["when"].endswith("+00:00")


def test_audit_entries_round_trip_byte_identical_even_without_the_staff_accounts(head_referee):
    first = dumps(export_tournament(played(head_referee)))
    Tournament.objects.all().delete()
    User.objects.all().delete()  # staff accounts are not in the backup
    restored = import_tournament(json.loads(first))
    assert dumps(export_tournament(restored)) == first
    entry = AuditEntry.objects.get(tournament=restored, action="correct_game")
    assert (entry.user, entry.user_name, entry.sheet.table.number) == (None, "head", 1)
    # The sheet goes on from the version its history reached: a stale form still conflicts.
    assert entry.sheet.version == 2


def test_a_file_without_audit_imports_as_before():
    tournament = import_tournament(tournament_data(4))
    assert not AuditEntry.objects.filter(tournament=tournament).exists()
    assert export_tournament(tournament)["audit"] == []


@pytest.mark.parametrize(
    "entry, path",
    [
        ({"when": "yesterday", "what": "verify"}, "audit[0].when"),
        ({"when": "2026-02-10T09:30:00", "what": "verify"}, "audit[0].when"),
        ({"when": "2026-02-10T09:30:00+00:00", "what": ""}, "audit[0].what"),
        ({"when": "2026-02-10T09:30:00+00:00", "what": "verify", "sheet": {"round": 2, "table": 1}}, "audit[0].sheet"),
        ({"when": "2026-02-10T09:30:00+00:00", "what": "verify", "before": [1]}, "audit[0].before"),
        (
            {"when": "2026-02-10T09:30:00+00:00", "what": "verify", "after": {"version": 10**30}},
            "audit[0].after.version",
        ),
        ({"when": "2026-02-10T09:30:00+00:00", "what": "verify", "colour": "red"}, "audit[0].colour"),
    ],
)
def test_a_broken_audit_entry_is_refused_with_its_path_and_nothing_is_written(entry, path):
    text = json.dumps(tournament_data(4, audit=[entry])).replace(str(10**30), "1" * 40)
    with pytest.raises(InterchangeError) as refused:
        import_json_text(text)
    assert str(refused.value).startswith(path + ":")
    assert not Tournament.objects.exists()
