"""The clock of the round being played: the time left by the server's clock (issue 36, item 11)."""

import datetime

import pytest
from django.utils import timezone

from organiser import services
from tests.factories import checked_in
from tournament.clock import clock_of, format_seconds
from tournament.models import Round, RoundTime
from tournament.selectors import playing_clock

pytestmark = pytest.mark.django_db

TEN = datetime.datetime(2026, 2, 10, 10, 0, tzinfo=datetime.UTC)


def started(tournament, organiser, minutes_ago):
    round_ = services.draw_round(tournament, user=organiser)
    services.start_round(round_, user=organiser)
    Round.objects.filter(pk=round_.pk).update(started_at=timezone.now() - datetime.timedelta(minutes=minutes_ago))
    return round_


def test_time_left_is_start_plus_length_minus_the_servers_now():
    round_ = Round(number=2, state=Round.State.STARTED, started_at=TEN)
    # 10:00 + 60 min = 11:00; at 10:42:10 there are 17 min 50 s = 1070 s left.
    clock = clock_of(round_, 60, now=TEN + datetime.timedelta(minutes=42, seconds=10))
    assert (clock.seconds_left, clock.time_left, clock.is_up) == (1070, "17:50", False)
    assert clock.ends_at == TEN + datetime.timedelta(hours=1)
    # At 11:00:00 and after, the time is up and never negative.
    assert clock_of(round_, 60, now=TEN + datetime.timedelta(hours=1)).is_up
    assert clock_of(round_, 60, now=TEN + datetime.timedelta(hours=2)).seconds_left == 0
    # 75 minutes from 10:00, asked at 10:00:01: 4499 s = 1 h 14 min 59 s.
    assert clock_of(round_, 75, now=TEN + datetime.timedelta(seconds=1)).time_left == "1:14:59"


def test_only_a_started_round_has_a_clock():
    for state in (Round.State.DRAFT, Round.State.PUBLISHED, Round.State.COMPLETED):
        assert clock_of(Round(number=1, state=state, started_at=TEN), 60, now=TEN) is None


def test_seconds_are_written_as_minutes_and_seconds_or_hours():
    assert [format_seconds(s) for s in (0, 59, 61, 3599, 3600, 3909)] == [
        "0:00",
        "0:59",
        "1:01",
        "59:59",
        "1:00:00",
        "1:05:09",
    ]


def test_the_clock_runs_by_the_timetables_length_of_that_round(organiser):
    tournament = checked_in(8)
    started(tournament, organiser, minutes_ago=10)
    assert playing_clock(tournament).length_minutes == 60  # no timetable line: the default
    RoundTime.objects.create(tournament=tournament, number=1, length_minutes=75)
    clock = playing_clock(tournament)
    # 75 − 10 = 65 minutes left, less the time the test takes.
    assert clock.length_minutes == 75 and 65 * 60 - 60 <= clock.seconds_left <= 65 * 60


def test_the_clock_fragment_sends_the_seconds_left_and_is_never_cached(client, organiser):
    tournament = checked_in(8)
    started(tournament, organiser, minutes_ago=45)
    response = client.get("/t/test/clock/")
    html = response.content.decode()
    assert "no-cache" in response["Cache-Control"] and "max-age=0" in response["Cache-Control"]
    seconds = int(html.split('data-seconds-left="')[1].split('"')[0])
    assert 15 * 60 - 60 <= seconds <= 15 * 60  # less the time the test takes on a busy machine
    assert "Round 1" in html and "Time left" in html and 'hx-trigger="every 30s"' in html


def test_between_rounds_the_clock_is_empty_and_asks_again_in_30_seconds(client, organiser):
    checked_in(8)
    html = client.get("/t/test/clock/").content.decode()
    # Never "load": the answer would ask again as soon as it is on the page, for ever.
    assert "data-seconds-left" not in html and 'hx-trigger="every 30s"' in html
    # A page without the clock (the projector's, cached for every visitor) asks at once.
    assert 'hx-trigger="load, every 30s"' in client.get("/t/test/projector/").content.decode()


def test_when_the_time_is_up_the_clock_says_so(client, organiser):
    tournament = checked_in(8)
    started(tournament, organiser, minutes_ago=61)
    html = client.get("/t/test/clock/").content.decode()
    assert 'data-seconds-left="0"' in html and ">Time is up<" in html


def test_the_projector_asks_for_the_clock_in_the_halls_language(client, organiser):
    tournament = checked_in(8)
    tournament.public_language = "pl"
    tournament.save()
    started(tournament, organiser, minutes_ago=5)
    assert 'hx-get="/t/test/clock/?hall=1"' in client.get("/t/test/projector/").content.decode()
    assert "Pozostały czas" in client.get("/t/test/clock/?hall=1").content.decode()
    assert "Time left" in client.get("/t/test/clock/").content.decode()


def test_the_referees_tables_show_the_time_left(referee_client, organiser):
    tournament = checked_in(8)
    started(tournament, organiser, minutes_ago=20)
    html = referee_client.get("/referee/test/").content.decode()
    seconds = int(html.split('data-seconds-left="')[1].split('"')[0])
    assert 40 * 60 - 60 <= seconds <= 40 * 60


def test_a_score_sheet_asks_for_the_clock_without_reading_it_itself(referee_client, organiser):
    tournament = checked_in(8)
    started(tournament, organiser, minutes_ago=20)
    html = referee_client.get("/referee/test/round/1/table/1/").content.decode()
    assert 'hx-get="/t/test/clock/"' in html and "load, every 30s" in html
