"""The day's timetable: the organiser sets each round's planned start and length (audited); the
dashboard shows the rounds as planned and as played, and the tables still playing when a
round's time is up (issue 36, item 11)."""

import datetime

import pytest
from django.utils import timezone

from organiser import selectors, services
from scoring.models import ScoreSheet
from tests.factories import checked_in
from tournament.models import AuditEntry, Round, RoundTime

pytestmark = pytest.mark.django_db


def form_data(**lines):
    """start_1=…, minutes_1=… for rounds 1–6 of a 5-round tournament with a final; the defaults elsewhere."""
    data = {f"minutes_{n}": "60" for n in range(1, 7)}
    data.update({key: str(value) for key, value in lines.items()})
    return data


def started_minutes_ago(tournament, organiser, minutes):
    round_ = services.draw_round(tournament, user=organiser)
    services.start_round(round_, user=organiser)
    Round.objects.filter(pk=round_.pk).update(started_at=timezone.now() - datetime.timedelta(minutes=minutes))
    return round_


def test_the_timetable_lists_the_planned_rounds_and_the_final_with_the_default_length():
    tournament = checked_in(8)  # 5 qualifying rounds and a final
    lines = selectors.day_timetable(tournament)
    assert [(line.number, line.label, line.length_minutes, line.planned_start) for line in lines] == [
        (1, "Round 1", 60, None),
        (2, "Round 2", 60, None),
        (3, "Round 3", 60, None),
        (4, "Round 4", 60, None),
        (5, "Round 5", 60, None),
        (6, "Final", 60, None),
    ]


def test_the_organiser_sets_starts_and_lengths_once_and_it_is_audited(organiser_client):
    tournament = checked_in(8)
    response = organiser_client.post(
        "/staff/test/timetable/", form_data(start_1="09:30", minutes_2="75", start_2="10:45")
    )
    assert response.status_code == 302
    times = {
        line.number: (line.planned_start, line.length_minutes)
        for line in RoundTime.objects.filter(tournament=tournament)
    }
    assert times == {1: (datetime.time(9, 30), 60), 2: (datetime.time(10, 45), 75)}
    entry = AuditEntry.objects.get(action="timetable_change")
    assert entry.before == {"1": {"start": None, "minutes": 60}, "2": {"start": None, "minutes": 60}}
    assert entry.after == {"1": {"start": "09:30", "minutes": 60}, "2": {"start": "10:45", "minutes": 75}}
    # 10:45 + 75 minutes = 12:00, shown as the planned end.
    assert [(line.planned_end) for line in selectors.day_timetable(tournament)][:2] == [
        datetime.time(10, 30),
        datetime.time(12, 0),
    ]
    # The same form again changes nothing and writes nothing.
    response = organiser_client.post(
        "/staff/test/timetable/", form_data(start_1="09:30", minutes_2="75", start_2="10:45"), follow=True
    )
    assert "Nothing was changed in the timetable." in response.content.decode()
    assert AuditEntry.objects.filter(action="timetable_change").count() == 1


@pytest.mark.parametrize(
    "field, value", [("minutes_3", "5"), ("minutes_3", "301"), ("minutes_3", ""), ("start_3", "25:00")]
)
def test_a_bad_length_or_time_is_named_next_to_its_field_and_nothing_is_saved(organiser_client, field, value):
    checked_in(8)
    response = organiser_client.post("/staff/test/timetable/", form_data(**{field: value}))
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert not RoundTime.objects.exists() and not AuditEntry.objects.filter(action="timetable_change").exists()


def test_the_head_referee_reads_the_timetable_but_cannot_change_it(head_referee_client):
    checked_in(8)
    response = head_referee_client.get("/staff/test/timetable/")
    assert response.status_code == 200 and response.context["form"] is None
    assert head_referee_client.post("/staff/test/timetable/", form_data(minutes_1="90")).status_code == 403
    assert not RoundTime.objects.exists()


def test_when_the_time_is_up_the_dashboard_names_the_tables_still_playing(organiser_client, organiser):
    tournament = checked_in(11)  # tables of 4, 4 and 3
    round_ = started_minutes_ago(tournament, organiser, 70)
    sheets = ScoreSheet.objects.filter(table__round=round_)
    sheets.filter(table__number=1).update(state=ScoreSheet.State.SUBMITTED)
    sheets.filter(table__number=3).update(state=ScoreSheet.State.IN_PROGRESS)
    line = selectors.day_timetable(tournament)[0]
    assert line.clock.is_up and [table.number for table in line.still_playing] == [2, 3]
    html = organiser_client.get("/staff/test/").content.decode()
    assert "Time is up. Tables still playing (no sheet submitted): 2, 3" in html


def test_before_the_time_is_up_no_table_is_called_still_playing(organiser, organiser_client):
    tournament = checked_in(8)
    RoundTime.objects.create(tournament=tournament, number=1, length_minutes=90)
    started_minutes_ago(tournament, organiser, 70)  # 90 minutes: 20 left
    line = selectors.day_timetable(tournament)[0]
    assert not line.clock.is_up and line.still_playing == []
    html = organiser_client.get("/staff/test/timetable/", headers={"HX-Request": "true"}).content.decode()
    assert 'id="timetable"' in html and "Time is up." not in html and "data-seconds-left" in html


def test_a_completed_round_shows_when_it_was_played(organiser, organiser_client):
    tournament = checked_in(8)
    round_ = started_minutes_ago(tournament, organiser, 50)
    ScoreSheet.objects.filter(table__round=round_).update(state=ScoreSheet.State.VERIFIED)
    services.complete_round(round_, user=organiser)
    round_.refresh_from_db()
    assert selectors.day_timetable(tournament)[0].clock is None
    played = f"played {timezone.localtime(round_.started_at):%H:%M}–{timezone.localtime(round_.completed_at):%H:%M}"
    assert played in organiser_client.get("/staff/test/timetable/").content.decode()
