"""The empty sheet's keypads and rack notes, copied by sheet.js from the page's one copy (issue 50):
in Chromium each rack gets the names, ids and labels the server draws for a keypad holding
faces, and the notes show when they did before."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from accounts.services import make_member
from tests.factories import build, started_round, table
from tests.support.browser_steps import open_empty_sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KEYPAD = """(id) => {
  const field = document.getElementById(id + "-keypad");
  const rack = field.closest(".rack");
  return {
    name: field.name,
    describedby: field.getAttribute("aria-describedby"),
    readonly: field.readOnly,
    labelled: document.querySelector(`label[for="${id}-keypad"]`) !== null,
    total: document.getElementById(id + "-keypad-total") !== null,
    errors: document.getElementById(id + "-keypad-errors") !== null,
    keys: [...rack.querySelectorAll(".keypad__keys button")].map((key) => key.name + "=" + key.value),
    notes: rack.querySelectorAll(".rack__out, .rack__keypad-note").length,
  };
}"""


def test_every_rack_gets_its_own_keypad_and_notes(live_server, new_page):
    page = open_empty_sheet(live_server, new_page)
    assert page.locator("details[data-keypad]").count() == 0
    assert page.locator(".rack__out").count() == 16 and page.locator(".rack__keypad-note").count() == 16
    keypad = page.evaluate(KEYPAD, "g3-B")
    faces = [str(face) for face in range(1, 14)] + ["J", "back", "clear"]
    assert keypad == {
        "name": "B-keypad",
        "describedby": "g3-B-keypad-total g3-B-keypad-errors",
        "readonly": True,
        "labelled": True,
        "total": True,
        "errors": True,
        "keys": [f"key-B={face}" for face in faces],
        "notes": 2,
    }


def test_the_notes_show_when_a_seat_went_out_or_its_keypad_holds_faces(live_server, new_page):
    page = open_empty_sheet(live_server, new_page)
    expect(page.locator("#game-1 .rack--A .rack__out")).to_be_hidden()
    page.click("label[for=g1-ending-A]")
    expect(page.locator("#game-1 .rack--A .rack__out")).to_have_text("Went out: no rack to enter.")
    expect(page.locator("#game-1 .rack--A .rack__out")).to_be_visible()
    page.locator("#game-1 .rack--C .keypad summary").click()
    page.click("#game-1 button[name=key-C][value='7']")
    expect(page.locator("#game-1 .rack--C .rack__keypad-note")).to_be_visible()
    expect(page.locator("#g1-C-keypad-total")).to_have_text("= 7 in tiles and 0 jokers")
    expect(page.locator("#g1-C-tiles")).to_be_hidden()
    page.wait_for_load_state("networkidle")


def test_without_javascript_an_empty_keypad_shows_no_switch_and_the_sum_is_typed(live_server, new_page):
    """The keys of a keypad holding no faces come with sheet.js: without it, no switch that
    opens on nothing; the rack's sum and jokers are there as before."""
    build(4, rounds=[started_round(table(1, ["p1", "p2", "p3", "p4"], state="empty"))])
    user = User.objects.create_user("tablet", password="secret-pass-123")
    make_member(user, "referee")
    page = new_page(java_script_enabled=False)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "tablet")
    page.fill("input[name=password]", "secret-pass-123")
    page.click("form.narrow button[type=submit]")
    page.goto(f"{live_server.url}/referee/test/round/1/table/1/")
    expect(page.locator("#game-1 .rack--C .keypad")).to_be_hidden()
    expect(page.locator("#g1-C-tiles")).to_be_visible()
    expect(page.locator("label[for=g1-C-jokers-1]")).to_be_visible()
