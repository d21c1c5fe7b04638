"""The day's timetable and when each round started and was completed travel in the interchange
file (the optional `timetable` list, `rounds[].started_at` and `completed_at`): export → import
→ export keeps them, a file without them imports as before, a bad value is refused with its
JSON path. So does the plan for the final's results (`final_release`). The venue address stays
on its server: not in the file, kept by a restore over the same tournament."""

import datetime
import io
import json

import pytest
from django.urls import reverse

from accounts.models import TournamentVenue
from organiser.interchange import InterchangeError, dumps, export_tournament, import_json_text, import_tournament
from organiser.services.timetable import save_timetable
from scoring.selectors.standings import compute_standings
from tests.factories import build, four_games, started_round, table, tournament_data
from tests.support.tasks import run_queued_tasks
from tournament import clock
from tournament.models import AuditEntry, Round, RoundTime, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("backup_dir")]

UTC = datetime.UTC
ROUND_1 = (
    datetime.datetime(2026, 2, 10, 9, 32, 15, tzinfo=UTC),
    datetime.datetime(2026, 2, 10, 10, 21, 40, tzinfo=UTC),
)
ROUND_2 = datetime.datetime(2026, 2, 10, 10, 48, 5, 250000, tzinfo=UTC)
# Round 3 is planned but not drawn yet; round 4 has a length and no planned start.
TIMETABLE = {
    1: (datetime.time(9, 30), 50),
    2: (datetime.time(10, 45), 45),
    3: (datetime.time(11, 40, 30), 40),
    4: (None, 75),
}


def played(organiser):
    """Round 1 completed, round 2 playing, the timetable set by the organiser (one audit entry)."""
    tournament = build(
        8,
        rounds=[
            started_round(table(1, ["p1", "p2", "p3", "p4"], four_games(), state="verified"), state="completed"),
            started_round(table(1, ["p1", "p2", "p3", "p4"]), table(2, ["p5", "p6", "p7", "p8"]), number=2),
        ],
    )
    Round.objects.filter(tournament=tournament, number=1).update(started_at=ROUND_1[0], completed_at=ROUND_1[1])
    Round.objects.filter(tournament=tournament, number=2).update(started_at=ROUND_2)
    save_timetable(tournament, lines=TIMETABLE, user=organiser)
    return tournament


def test_the_export_carries_the_timetable_and_each_rounds_start_and_end(organiser):
    exported = export_tournament(played(organiser))
    assert exported["timetable"] == [
        {"round": 1, "planned_start": "09:30", "length_minutes": 50},
        {"round": 2, "planned_start": "10:45", "length_minutes": 45},
        {"round": 3, "planned_start": "11:40:30", "length_minutes": 40},
        {"round": 4, "planned_start": None, "length_minutes": 75},
    ]
    first, second = exported["rounds"]
    assert (first["started_at"], first["completed_at"]) == ("2026-02-10T09:32:15+00:00", "2026-02-10T10:21:40+00:00")
    assert (second["started_at"], second["completed_at"]) == ("2026-02-10T10:48:05.250000+00:00", None)


def test_export_import_export_keeps_the_timetable_and_the_round_clock(organiser):
    first = dumps(export_tournament(played(organiser)))
    Tournament.objects.all().delete()
    restored = import_tournament(json.loads(first))
    assert dumps(export_tournament(restored)) == first
    times = {
        line.number: (line.planned_start, line.length_minutes) for line in RoundTime.objects.filter(tournament=restored)
    }
    assert times == TIMETABLE
    rounds = {r.number: (r.started_at, r.completed_at) for r in Round.objects.filter(tournament=restored)}
    assert rounds == {1: ROUND_1, 2: (ROUND_2, None)}
    # Round 2 started at 10:48:05.25 and lasts 45 minutes: at 11:30:00 UTC, 3 min 5.25 s are left,
    # shown as 3:06 (a started second counts).
    running = clock.clock_of(
        Round.objects.get(tournament=restored, number=2), 45, datetime.datetime(2026, 2, 10, 11, 30, tzinfo=UTC)
    )
    assert (
        running.ends_at == datetime.datetime(2026, 2, 10, 11, 33, 5, 250000, tzinfo=UTC) and running.time_left == "3:06"
    )
    # The organiser's change of the timetable is in the restored audit log, as the file's word.
    entry = AuditEntry.objects.get(tournament=restored, action="timetable_change")
    assert entry.from_file and entry.after["1"] == {"start": "09:30", "minutes": 50}


def test_a_file_without_them_imports_as_before():
    tournament = import_tournament(tournament_data(4, [started_round(table(1, ["p1", "p2", "p3", "p4"]))]))
    assert not RoundTime.objects.exists()
    assert Round.objects.get(tournament=tournament).started_at is None
    exported = export_tournament(tournament)
    assert exported["timetable"] == [] and exported["rounds"][0]["started_at"] is None


def test_a_line_without_its_length_gets_the_default_and_a_time_with_another_offset_is_kept_as_that_moment():
    data = tournament_data(
        4, [{**started_round(table(1, ["p1", "p2", "p3", "p4"])), "started_at": "2026-02-10T10:15:00+01:00"}]
    )
    data["timetable"] = [
        {"round": 2, "planned_start": "13:05"},
        {"round": 1, "planned_start": None, "length_minutes": 10},
    ]
    tournament = import_tournament(data)
    assert Round.objects.get(tournament=tournament).started_at == datetime.datetime(2026, 2, 10, 9, 15, tzinfo=UTC)
    assert export_tournament(tournament)["timetable"] == [
        {"round": 1, "planned_start": None, "length_minutes": 10},
        {"round": 2, "planned_start": "13:05", "length_minutes": 60},
    ]


START = "2026-02-10T09:30:00+00:00"
END = "2026-02-10T10:30:00+00:00"


@pytest.mark.parametrize(
    "timetable, rounds, path",
    [
        ([{"round": 1, "planned_start": "9:30"}], {}, "timetable[0].planned_start"),
        ([{"round": 1, "planned_start": "24:00"}], {}, "timetable[0].planned_start"),
        ([{"round": 1, "planned_start": "09:30+01:00"}], {}, "timetable[0].planned_start"),
        ([{"round": 1, "planned_start": 930}], {}, "timetable[0].planned_start"),
        ([{"round": 1, "length_minutes": 9}], {}, "timetable[0].length_minutes"),
        ([{"round": 1, "length_minutes": 301}], {}, "timetable[0].length_minutes"),
        ([{"round": 1, "length_minutes": "60"}], {}, "timetable[0].length_minutes"),
        ([{"round": 0}], {}, "timetable[0].round"),
        ([{"planned_start": "09:30"}], {}, "timetable[0].round"),
        ([{"round": 1}, {"round": 1}], {}, "timetable[1].round"),
        ([{"round": 1, "start": "09:30"}], {}, "timetable[0].start"),
        ({"round": 1}, {}, "timetable"),
        ([], {"started_at": "2026-02-10T09:30:00"}, "rounds[0].started_at"),
        ([], {"started_at": "0001-01-01T00:00:00+01:00"}, "rounds[0].started_at"),
        ([], {"started_at": 1770715800}, "rounds[0].started_at"),
        ([], {"state": "published", "started_at": START}, "rounds[0].started_at"),
        ([], {"started_at": START, "completed_at": END}, "rounds[0].completed_at"),  # still started
        ([], {"state": "completed", "completed_at": END}, "rounds[0].completed_at"),
        ([], {"state": "completed", "started_at": END, "completed_at": START}, "rounds[0].completed_at"),
    ],
)
def test_a_bad_value_is_refused_with_its_path_and_nothing_is_written(timetable, rounds, path):
    data = tournament_data(4, [{**started_round(table(1, ["p1", "p2", "p3", "p4"])), **rounds}], timetable=timetable)
    with pytest.raises(InterchangeError) as refused:
        import_json_text(json.dumps(data))
    assert str(refused.value).startswith(path + ":")
    assert not Tournament.objects.exists() and not RoundTime.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_restore_keeps_the_timetable_and_this_servers_venue_address_which_the_file_does_not_carry(
    organiser, organiser_client
):
    tournament = played(organiser)
    TournamentVenue.objects.create(tournament=tournament, address="http://192.168.1.10:8000")
    backup = organiser_client.get(reverse("organiser:backup_download", kwargs={"slug": "test"})).content
    assert b"192.168.1.10" not in backup
    upload = io.BytesIO(backup)
    upload.name = "backup.json"
    html = organiser_client.post("/staff/test/backups/", {"file": upload}).content.decode()
    assert "tablet sign-in links and the venue address of the tournament stay valid" in html
    token = html.split('name="token" value="')[1].split('"')[0]
    organiser_client.post("/staff/new/restore/confirm/", {"token": token, "replace": "on"})
    run_queued_tasks()
    restored = Tournament.objects.get(slug="test")
    assert restored.pk != tournament.pk
    assert {line.number: (line.planned_start, line.length_minutes) for line in restored.round_times.all()} == TIMETABLE
    assert Round.objects.get(tournament=restored, number=2).started_at == ROUND_2
    assert TournamentVenue.objects.get().tournament == restored and restored.venue.address == "http://192.168.1.10:8000"


def test_frozen_standings_read_the_same_after_a_restore(organiser):
    """The standings as frozen after round 1: a red card without a round given 10 minutes into round 2
    counts only from round 2 on, which the restored file still knows by round 2's start."""
    tournament = played(organiser)
    red = {"player": "p3", "round": None, "colour": "red", "reason": "insults", "given_at": "2026-02-10T10:58:05+00:00"}
    data = export_tournament(tournament)
    data["cards"].append(red)
    Tournament.objects.all().delete()
    restored = import_tournament(data)
    frozen = {row.player.ext_id: row.status for row in compute_standings(restored, up_to_round=1)}
    now = {row.player.ext_id: row.status for row in compute_standings(restored)}
    assert (frozen["p3"], now["p3"]) == ("active", "disqualified")


@pytest.mark.parametrize("release", ["live", "ceremony"])
def test_the_plan_for_the_finals_results_travels(release):
    tournament = build(4, settings={"final_release": release})
    first = dumps(export_tournament(tournament))
    assert json.loads(first)["tournament"]["settings"]["final_release"] == release
    Tournament.objects.all().delete()
    restored = import_tournament(json.loads(first))
    assert restored.final_release == release and dumps(export_tournament(restored)) == first


def test_a_file_without_a_plan_for_the_finals_results_hides_them_until_the_ceremony_and_a_bad_plan_is_refused():
    assert build(4).final_release == "ceremony"
    Tournament.objects.all().delete()
    with pytest.raises(InterchangeError) as refused:
        build(4, settings={"final_release": "after_lunch"})
    assert str(refused.value).startswith("tournament.settings.final_release: must be one of ceremony, live")
