"""The round's clock in Chromium: it counts down the seconds the server sent, by the time passed
on the device, whatever the device's own time of day says (issue 36, item 11)."""

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from organiser import services
from tests.factories import checked_in
from tests.support.browser import TABLET
from tests.support.clock import ServerClock
from tournament.clock import format_seconds
from tournament.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_projectors_clock_counts_the_servers_seconds_down_to_time_is_up(
    live_server, new_page, organiser, monkeypatch
):
    tournament = checked_in(8)
    round_ = services.draw_round(tournament, user=organiser)
    services.start_round(round_, user=organiser)
    # The server's clock stands 59 min 40 s after the start of a 60-minute round: 20 s left, however
    # long the page takes to load on a busy machine.
    started = timezone.now()
    Round.objects.filter(pk=round_.pk).update(started_at=started)
    ServerClock(monkeypatch, at=started + datetime.timedelta(minutes=59, seconds=40))
    page = new_page(TABLET)
    device_time = datetime.datetime(2001, 1, 1, 8, 0)  # the device's own clock is 25 years off
    page.clock.install(time=device_time)
    page.clock.pause_at(device_time + datetime.timedelta(seconds=1))  # it moves only when the test moves it
    page.goto(f"{live_server.url}/t/test/projector/")
    time_left = page.locator("#round-clock .time-left")
    expect(time_left).to_have_text("0:20")  # the page asks for the clock at once and shows the server's answer
    assert time_left.get_attribute("data-seconds-left") == "20"
    page.clock.run_for(5_000)  # 5 s on the device's clock: 20 - 5
    expect(time_left).to_have_text(format_seconds(15))
    page.clock.run_for(20_000)  # past zero, before the clock's 30 s refresh
    expect(time_left).to_have_text("Time is up")
    expect(time_left).to_have_class("time-left is-up")
    expect(page.locator("#round-clock .round-clock__label")).to_be_hidden()  # no "Time left: Time is up"
