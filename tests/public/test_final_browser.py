"""After the final, in Chromium: the standings' caption is read before the rows on a phone and on
the projector, and the board still fits the screen (screenshots in test-artifacts/ with SCREENSHOTS=1)."""

import pytest

from tests.factories import FINAL_CAPTION, after_the_final
from tests.support.browser import PHONE, assert_no_horizontal_scroll, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_phone_shows_the_caption_above_the_final_and_the_rest(live_server, new_page):
    after_the_final()
    phone = new_page(PHONE)
    phone.goto(live_server.url + "/t/test/standings/")
    caption = phone.locator("caption.standings__caption")
    assert " ".join(caption.inner_text().split()) == FINAL_CAPTION
    first_row = phone.locator("table.standings tbody tr").first
    assert caption.bounding_box()["y"] < first_row.bounding_box()["y"]  # read before the rows
    assert phone.locator("table.standings tbody tr .tag--final").count() == 4
    assert_no_horizontal_scroll(phone)
    screenshot(phone, "standings-after-the-final-390")


def test_the_projector_shows_the_caption_and_every_row_on_one_screen(live_server, new_page):
    after_the_final()
    screen = new_page({"width": 1920, "height": 1080})
    screen.goto(live_server.url + "/t/test/projector/")
    assert " ".join(screen.locator(".board__caption").inner_text().split()) == FINAL_CAPTION
    last_row = screen.locator(".board__table tbody tr").last
    box = last_row.bounding_box()
    assert box["y"] + box["height"] <= 1080, "the board's last row is below the screen"
    assert screen.locator(".board__final").count() == 4
    screenshot(screen, "projector-after-the-final-1920")
