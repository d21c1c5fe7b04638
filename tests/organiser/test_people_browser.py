"""Add from earlier tournaments in a browser: typing filters the people without a reload (htmx),
ticked people are registered with their person; and the people page's search."""

from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from organiser.interchange import import_tournament
from tests.factories import build, tournament_data
from tests.support.browser import PHONE, TABLET, assert_no_horizontal_scroll, screenshot, signed_in_page
from tournament.models import Person, Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["768", "390"])
def test_typing_filters_the_people_and_the_ticked_ones_are_registered(
    live_server, new_page, client, organiser, viewport
):
    data = tournament_data(0, settings={"players_per_organisation": 4})
    data["tournament"].update(slug="styczen", name="Styczeń", date="2026-01-10")
    data["players"] = [
        {"id": "p1", "name": "Łucja Żak", "organisation": "UTW Kraków"},
        {"id": "p2", "name": "Jan Lis", "organisation": "UTW Kraków"},
    ]
    import_tournament(data)
    build(0)
    page = signed_in_page(new_page, live_server, client, organiser, viewport)
    page.goto(f"{live_server.url}/staff/test/players/earlier/")
    expect(page.locator("#people-found li")).to_have_count(2)
    # On a busy machine the keys may come more than the 300 ms debounce apart: wait for the answer
    # to the whole search, or a late one would swap the list (and its ticked box) after the tick.
    with page.expect_response(lambda response: parse_qs(urlsplit(response.url).query).get("q") == ["lucja zak"]):
        page.locator("#people-q").press_sequentially("lucja zak")
    expect(page.locator("#people-found li")).to_have_count(1)
    expect(page.locator("#people-q.htmx-request")).to_have_count(0)
    assert page.url.endswith("/players/earlier/")  # filtered in place, no reload
    page.locator("#people-found input[type=checkbox]").check()
    screenshot(page, f"add-from-earlier-{viewport['width']}")
    assert_no_horizontal_scroll(page)
    page.locator("button[form=add-people]").click()
    page.wait_for_url(f"{live_server.url}/staff/test/players/")
    player = Player.objects.get(tournament__slug="test")
    assert player.person == Person.objects.get(surname="Żak")
    assert player.organisation.name == "UTW Kraków"
