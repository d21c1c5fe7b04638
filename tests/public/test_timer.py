"""The move timer at /t/<slug>/timer: public, self-contained, counts down the move time."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.factories import build
from tests.support.browser import PHONE


@pytest.mark.django_db
def test_the_timer_is_public_and_counts_the_tournaments_move_seconds(client):
    build(4, settings={"move_seconds": 25})
    response = client.get("/t/test/timer")
    assert response.status_code == 200
    assert reverse("public:timer", kwargs={"slug": "test"}) == "/t/test/timer"
    html = response.content.decode()
    assert re.search(r'<div class="digits" id="digits">25</div>', html)
    assert '<body data-seconds="25"' in html


@pytest.mark.django_db
def test_the_timer_loads_only_its_own_script_and_stylesheet(client):
    """No inline script (the Content-Security-Policy forbids it) and nothing from elsewhere."""
    build(4)
    html = client.get("/t/test/timer").content.decode()
    assert re.findall(r"<script[^>]*>", html) == ['<script src="/static/js/timer.js">']
    assert re.findall(r"<link[^>]*>", html) == ['<link rel="stylesheet" href="/static/css/timer.css">']
    assert "<style" not in html and " on" + "click" not in html
    script = (Path(__file__).parents[2] / "static/js/timer.js").read_text()
    assert "fetch(" not in script and "XMLHttpRequest" not in script and "url(" not in script


@pytest.mark.django_db
def test_the_timers_back_link_leads_staff_to_the_tables_and_anyone_else_to_the_tournament(client, referee):
    from accounts.models import TournamentRole

    tournament = build(4)
    assert '<a class="back" href="/t/test/">' in client.get("/t/test/timer").content.decode()
    TournamentRole.objects.create(user=referee, tournament=tournament, role="referee")
    client.force_login(referee)
    assert '<a class="back" href="/referee/test/">' in client.get("/t/test/timer").content.decode()


@pytest.mark.django_db
def test_an_unknown_tournament_has_no_timer(client):
    assert client.get("/t/nope/timer").status_code == 404


BEEP_COUNTER = """
window.__oscillators = 0;
const original = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.__oscillators++; return original.call(this); };
"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_timer_warns_at_ten_seconds_beeps_at_zero_and_restarts_on_a_tap_offline(live_server, new_page):
    build(4, settings={"move_seconds": 12})
    page = new_page(PHONE)
    context = page.context
    page.clock.install()
    page.add_init_script(BEEP_COUNTER)
    page.goto(f"{live_server.url}/t/test/timer")
    context.set_offline(True)  # everything it needs is already on the page
    digits = page.locator("#digits")
    assert digits.inner_text() == "12"
    page.mouse.click(200, 500)
    page.clock.run_for(1500)
    assert digits.inner_text() == "11"
    assert "is-warning" not in (page.locator("body").get_attribute("class") or "")
    page.clock.run_for(1000)
    assert digits.inner_text() == "10"
    assert "is-warning" in page.locator("body").get_attribute("class")
    page.clock.run_for(10_000)
    assert digits.inner_text() == "0"
    assert "is-over" in page.locator("body").get_attribute("class")
    assert page.evaluate("window.__oscillators") == 3
    page.mouse.click(200, 500)  # tap anywhere: start again
    page.clock.run_for(200)
    assert digits.inner_text() == "12"
    assert "is-over" not in page.locator("body").get_attribute("class")
