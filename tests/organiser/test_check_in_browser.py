"""Two taps on "Zaznacz obecność" in a browser (issue 36.4): both rows show the tick, the count
over the list reads 2 without a reload, and "check in everyone" goes once everyone is here."""

import pytest
from playwright.sync_api import expect

from tests.factories import build
from tests.support.browser import PHONE, TABLET, assert_no_horizontal_scroll, screenshot, signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["768", "390"])
def test_the_count_follows_each_tap(live_server, new_page, client, organiser, viewport):
    build(3)
    page = signed_in_page(new_page, live_server, client, organiser, viewport)
    page.context.add_cookies([{"name": "django_language", "value": "pl", "url": live_server.url}])
    page.goto(f"{live_server.url}/staff/test/players/")
    counts = page.locator("#player-counts")
    assert "obecność potwierdzona: 0" in counts.inner_text()
    for tapped in (1, 2):
        page.locator(".player-row:not(.player-row--present) .player-row__action button").first.click()
        page.locator(".player-row--present").nth(tapped - 1).wait_for()
        expect(counts).to_contain_text(f"obecność potwierdzona: {tapped}")
    assert page.locator(".player-row--present .badge--ok").count() == 2
    assert page.locator("#check-in-everyone button").count() == 1
    screenshot(page, f"players-after-check-ins-{viewport['width']}")
    assert_no_horizontal_scroll(page)
    page.locator(".player-row:not(.player-row--present) .player-row__action button").first.click()
    expect(counts).to_contain_text("obecność potwierdzona: 3")
    assert page.locator("#check-in-everyone button").count() == 0
