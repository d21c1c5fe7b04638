"""The season's form in Chromium, on a phone and on a tablet, in Polish: an organisation with 25
tournaments offers the newest 20; a tournament checked on the first page stays checked on top
while the organiser turns to the older ones (htmx swaps the form in place), and both are saved."""

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from playwright.sync_api import expect

from accounts.models import Membership, Role
from tests.support.browser import PHONE, TABLET, assert_no_horizontal_scroll, screenshot
from tests.support.lists import service
from tournament.models import Season

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def polish_page(new_page, live_server, client, user, viewport):
    client.force_login(user)
    page = new_page(viewport, locale="pl-PL")
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])
    return page


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone", "tablet"])
def test_a_tournament_chosen_on_one_page_stays_chosen_on_the_next_and_is_saved(new_page, live_server, client, viewport):
    host = service(1, 25)[0]
    user = User.objects.create_user("org")
    Membership.objects.create(user=user, host=host, role=Role.ORGANISER)
    page = polish_page(new_page, live_server, client, user, viewport)
    page.goto(f"{live_server.url}/staff/seasons/new/")
    boxes = page.locator('input[name="tournaments"]')
    expect(boxes).to_have_count(20)
    page.fill("#id_name", "Sezon wiosenny")
    page.fill("#id_slug", "wiosna")
    page.get_by_label("Turniej 000-24 · 2020-06-17").check()
    assert_no_horizontal_scroll(page)
    screenshot(page, f"season-form-{viewport['width']}")

    page.evaluate("window.notReloaded = true")
    page.get_by_role("button", name="Starsze turnieje").click()
    expect(boxes).to_have_count(6)  # the chosen one on top, then the 5 oldest
    assert page.evaluate("window.notReloaded") is True
    expect(page.get_by_label("Turniej 000-24 · 2020-06-17")).to_be_checked()
    expect(page.locator("#id_name")).to_have_value("Sezon wiosenny")
    page.get_by_label("Turniej 000-0 · 2020-01-01").check()
    assert_no_horizontal_scroll(page)
    screenshot(page, f"season-form-older-{viewport['width']}")

    page.get_by_role("button", name="Utwórz sezon").click()
    expect(page).to_have_url(f"{live_server.url}/staff/seasons/wiosna/")
    season = Season.objects.get(slug="wiosna")
    assert sorted(t.slug for t in season.tournaments.all()) == ["t-000-0", "t-000-24"]


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone", "tablet"])
def test_a_superuser_chooses_the_organisation_then_searches_its_tournaments(new_page, live_server, client, viewport):
    service(25, 2)
    page = polish_page(new_page, live_server, client, User.objects.create_superuser("op", password="x"), viewport)
    page.goto(f"{live_server.url}/staff/seasons/new/")
    assert_no_horizontal_scroll(page)
    screenshot(page, f"season-organisation-choice-{viewport['width']}")
    page.get_by_role("link", name="Klub 003").click()
    expect(page.locator('input[name="tournaments"]')).to_have_count(2)
    page.fill("#season-q", "003-1")
    page.get_by_role("button", name="Szukaj", exact=True).click()
    expect(page.locator('input[name="tournaments"]')).to_have_count(1)
    expect(page.get_by_label("Turniej 003-1 · 2020-01-11")).to_be_visible()
    assert_no_horizontal_scroll(page)
    screenshot(page, f"season-form-search-{viewport['width']}")
