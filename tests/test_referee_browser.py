"""The score sheet in Chromium: live scores, the keypad, a save while the Wi-Fi is down, drafts."""

import pytest
from django.contrib.auth.models import Group, User
from playwright.sync_api import expect

from scoring.models import Game
from tests.browser import TABLET
from tests.factories import build, table
from tests.test_referee_sheet import started_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture
def sheet_page(live_server, new_page):
    build(4, rounds=[started_round(table(1, ["p1", "p2", "p3", "p4"], state="empty"))])
    user = User.objects.create_user("tablet", password="secret-pass-123")
    user.groups.add(Group.objects.get_or_create(name="referee")[0])
    page = new_page(TABLET, locale="en-GB")
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "tablet")
    page.fill("input[name=password]", "secret-pass-123")
    page.click("form.narrow button[type=submit]")
    page.goto(f"{live_server.url}/referee/test/round/1/table/1/")
    yield page
    page.wait_for_load_state("networkidle")


def enter_example_one(page):
    """SPEC §3 example 1, C's rack on the keypad: A +183, B −23, C −60, D −100."""
    page.click("label[for=g1-ending-A]")
    page.fill("#g1-B-tiles", "23")
    page.locator("#game-1 .rack--C .keypad summary").click()
    for face in ("7", "3", "J"):
        page.click(f"#game-1 button[name=key-C][value='{face}']")
    page.click("label[for=g1-D-opening-not_possible]")


def test_scores_appear_as_values_are_entered_and_the_game_saves(sheet_page):
    page = sheet_page
    enter_example_one(page)
    expect(page.locator("#g1-A-score")).to_have_text("+183")  # (wait_for_function would need eval: the CSP refuses it)
    assert page.locator("#g1-C-keypad-total").inner_text() == "= 10 in tiles and 1 joker"
    assert page.locator("#g1-D-score").inner_text() == "−100"
    assert not Game.objects.exists()
    page.click("#game-1 .save-button")
    page.wait_for_selector("#g1-status .status--saved")
    assert {r.letter: r.score for r in Game.objects.get().results.all()} == {"A": 183, "B": -23, "C": -60, "D": -100}
    assert page.locator("#g2-version").get_attribute("value") == "1"
    assert "+183" in page.locator("#sheet-summary").inner_text()


def test_a_save_without_network_keeps_the_values_and_is_sent_when_back_online(sheet_page):
    page = sheet_page
    enter_example_one(page)
    expect(page.locator("#g1-A-score")).to_have_text("+183")  # (wait_for_function would need eval: the CSP refuses it)
    page.context.set_offline(True)
    page.click("#game-1 .save-button")
    note = page.locator("#game-1 [data-send-state]")
    note.wait_for(state="visible")
    assert "no connection" in note.inner_text()
    assert page.locator("#g1-B-tiles").input_value() == "23"
    assert not Game.objects.exists()
    page.context.set_offline(False)  # the browser fires "online"
    page.wait_for_selector("#g1-status .status--saved")
    assert Game.objects.get().results.get(letter="A").score == 183


def test_typed_values_survive_a_reload(sheet_page):
    page = sheet_page
    page.click("label[for=g1-ending-A]")
    page.fill("#g1-B-tiles", "23")
    page.reload()
    assert page.locator("#g1-B-tiles").input_value() == "23"
    assert page.locator("#g1-ending-A").is_checked()
    assert "put back" in page.locator("#game-1 [data-send-state]").inner_text()
