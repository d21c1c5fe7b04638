"""Jokers are counted apart from the rack's sum: the sheet says it at the field and on the keypad,
in Polish, and the referee's help says it too (issue 48, point 4). Screenshots at 768 × 1024 and
390 × 844 with SCREENSHOTS=1."""

import pytest

from tests.support.browser import PHONE, TABLET, assert_no_horizontal_scroll, screenshot
from tests.support.browser_steps import open_empty_sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["768", "390"])
def test_the_rack_field_and_the_keypad_say_jokers_are_counted_apart(live_server, new_page, viewport):
    page = open_empty_sheet(live_server, new_page, locale="pl-PL")
    page.set_viewport_size(viewport)
    rack = page.locator(".game-form").first.locator(".rack--A")
    field = rack.locator(".field--tiles input")
    hint = rack.locator(".rack__joker-note")
    # The tournament's joker penalty is 50: 41 points and a joker on the rack score −(41 + 50).
    assert hint.inner_text() == "Suma bez jokerów: jokery liczy się osobno (41 + 1 joker = −91)."
    assert hint.is_visible()
    assert hint.get_attribute("id") in field.get_attribute("aria-describedby").split()
    assert_no_horizontal_scroll(page)
    rack.locator(".keypad summary").click()
    keypad_hint = rack.locator(".keypad__hint")
    assert keypad_hint.is_visible()
    assert "jokery liczy się osobno" in keypad_hint.inner_text()
    assert_no_horizontal_scroll(page)  # the open keypad's seven keys a row fit a phone
    screenshot(page, f"sheet-joker-hint-{viewport['width']}")


def test_the_referees_help_says_jokers_are_never_in_the_sum(live_server, new_page):
    page = new_page(PHONE, locale="pl-PL")
    page.goto(f"{live_server.url}/help/referee/")
    step = page.locator("li", has_text="Jokerów nigdy nie wlicza się do sumy")
    assert step.is_visible()
    assert "41 punktów i 1 joker: wpisz 41 i 1 joker (wynik −91" in step.inner_text()
    assert_no_horizontal_scroll(page)
    screenshot(page, "help-referee-jokers-390")
