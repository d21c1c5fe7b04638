"""The public pages in Chromium: readable on a phone, find-my-table as you type, live polling."""

import os

import pytest
from playwright.sync_api import expect, sync_playwright

from scoring.visibility import advance_ceremony
from tests.public_builders import build_hall

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PAGES = [
    "/", "/t/test/", "/t/test/?q=a", "/t/test/standings/", "/t/test/player/p1/", "/t/test/round/3/",
    "/t/test/projector/", "/t/test/ceremony/",
]
# The smallest font size of any element that shows text, and the page's horizontal overflow.
MEASURE = """() => {
  let smallest = 1000, where = "";
  for (const element of document.body.querySelectorAll("*")) {
    const own = [...element.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    const style = getComputedStyle(element);
    if (!own || !element.getClientRects().length || style.visibility === "hidden") continue;
    if (element.closest(".visually-hidden")) continue;
    if (parseFloat(style.fontSize) < smallest) {
      smallest = parseFloat(style.fontSize);
      where = element.tagName + "." + element.className + ": " + element.textContent.trim().slice(0, 40);
    }
  }
  return {smallest, where, overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth};
}"""


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("visibility", ["live", "hidden"])
def test_every_public_page_is_readable_on_a_phone(live_server, phone, visibility):
    build_hall(visibility, players=12)
    for path in PAGES:
        phone.goto(live_server.url + path)
        measured = phone.evaluate(MEASURE)
        assert measured["overflow"] <= 0, f"{path} scrolls sideways by {measured['overflow']} px"
        assert measured["smallest"] >= 18, f"{path}: {measured['where']} is {measured['smallest']} px"


def test_find_my_table_answers_while_typing(live_server, phone):
    build_hall()
    phone.goto(live_server.url + "/t/test/")
    phone.get_by_label("Find my table").press_sequentially("lecki", delay=50)
    expect(phone.locator("#find-results")).to_contain_text("Table 2, seat D")
    assert phone.url.endswith("/t/test/")  # answered in place, no page load


def test_the_ceremony_screen_shows_a_revealed_place_by_itself(live_server, browser):
    tournament = build_hall()
    screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    screen.goto(live_server.url + "/t/test/ceremony/")
    expect(screen.locator(".podium")).not_to_contain_text("Zofia")
    advance_ceremony(tournament)
    expect(screen.locator(".podium")).to_contain_text("Zofia Żółkiewska", timeout=8000)
    expect(screen.locator(".podium")).not_to_contain_text("Anna Nowak")
    screen.context.close()
