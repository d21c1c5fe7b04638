"""The round's clock in Chromium: it counts down the seconds the server sent, by the time passed
on the device, whatever the device's own time of day says (issue 36, item 11)."""

import datetime

import pytest
from django.utils import timezone

from organiser import services
from tests.factories import checked_in
from tests.support.browser import TABLET
from tournament.clock import format_seconds
from tournament.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_projectors_clock_counts_the_servers_seconds_down_to_time_is_up(live_server, new_page, organiser):
    tournament = checked_in(8)
    round_ = services.draw_round(tournament, user=organiser)
    services.start_round(round_, user=organiser)
    # 60 minutes from a start 59 min 40 s ago: 20 seconds left by the server's clock.
    started = timezone.now() - datetime.timedelta(minutes=59, seconds=40)
    Round.objects.filter(pk=round_.pk).update(started_at=started)
    page = new_page(TABLET)
    page.clock.install(time=datetime.datetime(2001, 1, 1, 8, 0))  # the device's own clock is 25 years off
    page.goto(f"{live_server.url}/t/test/projector/")
    time_left = page.locator("#round-clock .time-left")
    for _ in range(50):  # the page asks for the clock at once; htmx swaps it in on its own timers
        if time_left.count():
            break
        page.clock.run_for(100)
        page.wait_for_timeout(100)
    seconds = int(time_left.get_attribute("data-seconds-left"))
    assert 10 <= seconds <= 20
    page.clock.run_for(5_000)
    # 5 s on the device's clock, and the real time the test itself took (under load, up to a second)
    assert time_left.inner_text() in {format_seconds(seconds - 5), format_seconds(seconds - 6)}
    page.clock.run_for(20_000)  # past zero, before the clock's 30 s refresh
    assert time_left.inner_text() == "Time is up"
    assert "is-up" in time_left.get_attribute("class")
    assert not page.locator("#round-clock .round-clock__label").is_visible()  # no "Time left: Time is up"
