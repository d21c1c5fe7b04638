"""Small things seen on the day, in Chromium: "where do I sit" on a phone with its keyboard up,
the move timer on a 360 px phone, and the ceremony asking before it reveals a place."""

import time

import pytest
from playwright.sync_api import expect

from tests.factories import build, build_hall
from tests.support.browser import PHONE, screenshot, signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KEYBOARD_UP = {"width": 390, "height": 400}  # a phone's screen above its on-screen keyboard


def answer_box_once_above_the_keyboard(page, timeout=15.0):
    """The answer's box, polled from Python (the Content-Security-Policy refuses wait_for_function's
    eval) until the page has scrolled it into view, for as long as Playwright waits for anything
    else; no box while htmx swaps a later answer in."""
    answer = page.locator("#find-results .match").first
    deadline = time.monotonic() + timeout
    while True:
        box = answer.bounding_box()
        if (box and box["y"] + 60 <= KEYBOARD_UP["height"]) or time.monotonic() > deadline:
            return box
        page.wait_for_timeout(100)


def test_where_do_i_sit_finds_a_club_and_shows_the_answer_above_the_keyboard(live_server, new_page):
    build_hall()
    page = new_page(PHONE)
    page.goto(f"{live_server.url}/t/test/")
    page.click("#find-q")
    page.set_viewport_size(KEYBOARD_UP)
    page.keyboard.type("lodz")
    expect(page.locator("#find-results")).to_contain_text("Nowak Anna")
    expect(page.locator("#find-results")).to_contain_text("UTW Łódź")
    answer = answer_box_once_above_the_keyboard(page)
    assert answer is not None, "no answer shown"
    field = page.locator("#find-q").bounding_box()
    assert field["y"] >= 0, "the search field went out of view"
    assert answer["y"] + 60 <= KEYBOARD_UP["height"], f"the answer starts at {answer['y']} px, under the keyboard"
    screenshot(page, "where-do-i-sit-keyboard-up")


def test_the_move_timer_fits_a_360_px_phone(live_server, new_page):
    build(4, settings={"move_seconds": 40})
    page = new_page({"width": 360, "height": 640}, locale="pl-PL")
    page.goto(f"{live_server.url}/t/test/timer")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    sound = page.locator("#sound")
    assert sound.evaluate("button => button.scrollWidth <= button.clientWidth"), "the sound button's label overflows"
    box = sound.bounding_box()
    assert box["x"] + box["width"] <= 360
    digits = page.locator("#digits").bounding_box()
    assert digits["x"] >= 0 and digits["x"] + digits["width"] <= 360
    screenshot(page, "timer-360")


def test_revealing_a_ceremony_place_asks_first_and_warns_when_results_are_not_final(
    live_server, new_page, head_referee, client
):
    tournament = build_hall()  # round 3 has a sheet that is not verified, round 4 is not played
    page = signed_in_page(new_page, live_server, client, head_referee, {"width": 1280, "height": 800})
    page.goto(f"{live_server.url}/t/test/ceremony/")
    expect(page.locator(".stage__warning")).to_contain_text("The results are not final")
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.click("a.button:has-text('Reveal place 3')")  # asks on the page, never in a browser dialog
    expect(page.locator(".confirm")).to_contain_text("The results are not final. Reveal place 3 on the screen anyway?")
    page.click("a.button:has-text('Cancel')")  # cancelled: nothing is revealed
    expect(page.locator(".confirm")).to_have_count(0)
    tournament.refresh_from_db()
    assert tournament.ceremony_step == 0
    page.click("a.button:has-text('Reveal place 3')")
    page.click("button[name=ceremony][value=next]")  # confirmed
    expect(page.locator(".podium__place--3")).to_have_class("podium__place podium__place--3 podium__place--shown")
    expect(page.locator(".stage__outcome")).to_have_text("Place 3 is revealed.")
    tournament.refresh_from_db()
    assert tournament.ceremony_step == 1 and dialogs == []
    screenshot(page, "ceremony-warning")


@pytest.mark.parametrize("viewport", [PHONE, {"width": 768, "height": 1024}], ids=["390", "768"])
def test_the_ceremony_controls_on_a_phone_and_a_tablet_never_cover_its_buttons(
    live_server, new_page, head_referee, client, viewport
):
    tournament = build_hall()
    tournament.ceremony_step = 2
    tournament.save(update_fields=["ceremony_step"])
    page = signed_in_page(new_page, live_server, client, head_referee, viewport)
    page.goto(f"{live_server.url}/t/test/ceremony/")
    expect(page.locator(".screen__tools a")).to_be_visible()
    expect(page.locator(".stage__control .button").first).to_be_visible()
    assert page.evaluate("document.fonts.ready.then(() => document.fonts.status)") == "loaded"  # the boxes are final
    tools = [page.locator(".screen__tools a").bounding_box()]
    buttons = [box for box in (b.bounding_box() for b in page.locator(".stage__control .button").all()) if box]
    assert buttons
    for tool in tools:
        for button in buttons:
            apart = (
                tool["y"] >= button["y"] + button["height"]
                or button["y"] >= tool["y"] + tool["height"]
                or tool["x"] >= button["x"] + button["width"]
                or button["x"] >= tool["x"] + tool["width"]
            )
            assert apart, f"the screen's controls {tool} cover a ceremony button {button}"
    screenshot(page, f"ceremony-controls-{viewport['width']}")


def test_the_ceremony_and_projector_buttons_on_a_phone_stand_apart(live_server, new_page, head_referee, client):
    build_hall()
    page = signed_in_page(new_page, live_server, client, head_referee, PHONE)
    page.goto(f"{live_server.url}/t/test/results-control/")
    ceremony = page.locator("a.button[href$='/ceremony/']").bounding_box()
    projector = page.locator("a.button[href$='/projector/']").bounding_box()
    below = projector["y"] >= ceremony["y"] + ceremony["height"] + 8
    beside = projector["x"] >= ceremony["x"] + ceremony["width"] + 8
    assert below or beside, f"the buttons touch: {ceremony} {projector}"
    screenshot(page, "results-control-390")
