"""Where a signed-in organiser and the server's operator land (/accounts/) leads to seasons and,
for a superuser, to the operator's page of organisations, which says what it is for (issue 48,
point 5). Screenshots at 390 × 844 and 768 × 1024 with SCREENSHOTS=1."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests.support.browser import PHONE, TABLET, assert_no_horizontal_scroll, screenshot, signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["390", "768"])
def test_an_organiser_finds_the_seasons_from_the_landing_page(live_server, new_page, client, organiser, viewport):
    page = signed_in_page(new_page, live_server, client, organiser, viewport)
    page.goto(f"{live_server.url}/accounts/")
    expect(page.get_by_role("link", name="Organisations on this server")).to_have_count(0)  # not an operator
    assert_no_horizontal_scroll(page)
    screenshot(page, f"accounts-home-organiser-{viewport['width']}")
    page.get_by_role("link", name="Seasons (a ranking over several tournaments)").click()
    expect(page).to_have_url(f"{live_server.url}/staff/seasons/")


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["390", "768"])
def test_a_superuser_lands_on_a_way_to_the_operators_page_and_its_help(live_server, new_page, client, viewport):
    operator = User.objects.create_superuser("operator", password="a-long-pass-phrase-2026")
    page = signed_in_page(new_page, live_server, client, operator, viewport)
    page.goto(f"{live_server.url}/accounts/")
    screenshot(page, f"accounts-home-operator-{viewport['width']}")
    page.get_by_role("link", name="Organisations on this server").click()
    expect(page).to_have_url(f"{live_server.url}/accounts/operator/organisations/")
    help_box = page.locator("#operator-help")
    expect(help_box).to_contain_text("Only the server's operator (a superuser) sees this page.")
    expect(help_box).to_contain_text("manage.py create_organisation")
    assert_no_horizontal_scroll(page)
    screenshot(page, f"operator-organisations-{viewport['width']}")
    page.get_by_role("link", name="Back to the tournaments").click()
    expect(page).to_have_url(f"{live_server.url}/accounts/")
