"""Two tablets on one sheet in Chromium: the refused save is explained where the referee looks,
next to the save button and on the screen, saying what the other tablet saved and what saving
now would do."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from accounts.services import make_member
from scoring.models import Game
from tests.support.browser import TABLET, screenshot, signed_in_page
from tests.support.browser_steps import open_empty_sheet
from tournament.models import AuditEntry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHEET = "/referee/test/round/1/table/1/"


def other_tablet(live_server, new_page, client):
    user = User.objects.create_user("tablet-2")
    make_member(user, "referee")
    page = signed_in_page(new_page, live_server, client, user, viewport=TABLET)
    page.goto(f"{live_server.url}{SHEET}")
    return page


def enter_game_one(page, b_tiles):
    """A goes out; B keeps `b_tiles`, C 10 and a joker, D could not lay out."""
    page.click("label[for=g1-ending-A]")
    page.fill("#g1-B-tiles", b_tiles)
    page.fill("#g1-C-tiles", "10")
    page.click("label[for=g1-C-jokers-1]")
    page.click("label[for=g1-D-opening-not_possible]")
    expect(page.locator("#g1-B-score")).to_have_text(f"−{b_tiles}")


def test_the_conflict_is_next_to_the_save_button_and_on_the_screen_of_a_tablet(live_server, new_page, client):
    mine = open_empty_sheet(live_server, new_page)  # signed in as "tablet"
    other = other_tablet(live_server, new_page, client)
    enter_game_one(mine, "23")
    enter_game_one(other, "12")
    other.click("#game-1 .save-button")
    other.wait_for_selector("#g1-status .status--saved")

    mine.click("#game-1 .save-button")
    box = mine.locator("#g1-conflict .conflict")
    expect(box).to_be_visible()
    save = mine.locator("#game-1 .save-button")
    # Both on the 768×1024 screen, the message right above the button (sheet.js scrolls them in).
    expect(box).to_be_in_viewport(ratio=1)
    expect(save).to_be_in_viewport(ratio=1)
    box_at, save_at = box.bounding_box(), save.bounding_box()
    assert 0 <= box_at["y"] and save_at["y"] + save_at["height"] <= TABLET["height"]
    assert 0 <= save_at["y"] - (box_at["y"] + box_at["height"]) <= 40, (box_at, save_at)
    screenshot(mine, "sheet-conflict-next-to-save")

    # What the other tablet saved, beside this tablet's values, and what saving now does.
    text = " ".join(box.inner_text().split())
    assert "Someone else saved this sheet after you opened it" in text
    assert "Game 1 was saved by tablet-2 at" in text and "Nothing of yours was saved." in text
    rows = [" ".join(row.inner_text().split()) for row in box.locator(".conflict__compare tbody tr").all()]
    assert rows[2] == "B Gracz 2 12 in tiles and 0 jokers, laid out: −12 23 in tiles and 0 jokers, laid out: −23"
    assert box.locator(".conflict__compare tr.is-changed").count() == 2  # B's rack and A's score
    assert "Tapping “Save game 1” now overwrites what is saved with your values." in text
    assert mine.locator("#g1-B-tiles").input_value() == "23"  # this tablet's values stay in the form
    assert Game.objects.get().results.get(letter="B").tiles == 12

    # Saving after looking does what the message said: these values replace the saved ones.
    save.click()
    mine.wait_for_selector("#g1-status .status--saved")
    assert mine.locator("#g1-conflict .conflict").count() == 0
    assert Game.objects.get().results.get(letter="B").tiles == 23
    assert AuditEntry.objects.filter(action="save_game").count() == 2
