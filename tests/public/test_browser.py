"""The public pages in Chromium: readable on phones and tablets, find-my-table as you type, live polling."""

import re

import pytest
from playwright.sync_api import expect

from scoring.services.visibility import advance_ceremony
from tests.factories import build_hall

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGES = [
    "/",
    "/t/test/",
    "/t/test/?q=a",
    "/t/test/standings/",
    "/t/test/player/p1/",
    "/t/test/round/3/",
    "/t/test/projector/",
    "/t/test/ceremony/",
]
# For every element that shows text: the smallest font size, the lowest contrast against the
# nearest opaque background (WCAG 2: 4.5, or 3 for large text), and the sideways overflow.
MEASURE = """() => {
  const rgb = c => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => {
    v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const background = element => {
    for (let e = element; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length < 4 || c[3] > 0) return c;
    }
    return [255, 255, 255];
  };
  let smallest = 1000, where = "", worst = 100, worstWhere = "";
  for (const element of document.body.querySelectorAll("*")) {
    const own = [...element.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    const style = getComputedStyle(element);
    if (!own || !element.getClientRects().length || style.visibility === "hidden") continue;
    if (element.closest(".visually-hidden")) continue;
    const size = parseFloat(style.fontSize);
    const label = element.tagName + "." + element.className + ": " + element.textContent.trim().slice(0, 40);
    if (size < smallest) { smallest = size; where = label; }
    const [a, b] = [lum(rgb(style.color)), lum(background(element))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const large = size >= 24 || (size >= 18.66 && parseInt(style.fontWeight) >= 700);
    const margin = ratio / (large ? 3 : 4.5);
    if (margin < worst) { worst = margin; worstWhere = label + " (" + ratio.toFixed(2) + ")"; }
  }
  return {smallest, where, worst, worstWhere,
          overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth};
}"""


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("width, height", [(390, 844), (768, 1024)])
@pytest.mark.parametrize("visibility", ["live", "hidden"])
def test_every_public_page_is_readable_on_phones_and_tablets(live_server, browser, visibility, width, height):
    build_hall(visibility, players=12)
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    for path in PAGES:
        page.goto(live_server.url + path)
        measured = page.evaluate(MEASURE)
        assert measured["overflow"] <= 0, f"{path} scrolls sideways by {measured['overflow']} px"
        assert measured["smallest"] >= 18, f"{path}: {measured['where']} is {measured['smallest']} px"
        assert measured["worst"] >= 1, f"{path}: {measured['worstWhere']} is below WCAG AA contrast"
    context.close()


def test_find_my_table_answers_while_typing(live_server, phone):
    build_hall()
    phone.goto(live_server.url + "/t/test/")
    phone.get_by_label("Find my table").press_sequentially("lecki", delay=50)
    expect(phone.locator("#find-results")).to_contain_text("Table 2, seat D")
    assert phone.url.endswith("/t/test/")  # answered in place, no page load


def test_the_ceremony_screen_shows_a_revealed_place_by_itself(live_server, browser):
    tournament = build_hall()
    screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    screen.clock.install()  # the page's own clock: the test moves it past the screen's 3 s poll
    screen.goto(live_server.url + "/t/test/ceremony/")
    expect(screen.locator(".podium")).not_to_contain_text("Zofia")
    advance_ceremony(tournament)
    screen.clock.run_for(3_500)
    expect(screen.locator(".podium")).to_contain_text("Zofia Żółkiewska")
    expect(screen.locator(".podium")).not_to_contain_text("Anna Nowak")
    screen.context.close()


def test_the_head_referee_confirms_a_ceremony_step_on_the_screen_and_is_told_what_happened(
    live_server, new_page, client, head_referee
):
    """No browser dialog (a dismissed one looks like nothing happened): the question is on the
    page, "Cancel" takes it away, "Yes" reveals the place and says so; the screen is in the
    tournament's language although this browser asks for English."""
    from tests.support.browser import signed_in_page
    from tournament.models import Tournament

    tournament = build_hall()
    Tournament.objects.filter(pk=tournament.pk).update(public_language="pl")
    screen = signed_in_page(new_page, live_server, client, head_referee, {"width": 1280, "height": 1024})
    dialogs = []
    screen.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    screen.clock.install()  # the page's own clock, which the test moves past the screen's poll
    screen.goto(live_server.url + "/t/test/ceremony/")
    screen.get_by_role("link", name="Odsłoń miejsce 3").click()
    expect(screen.locator(".confirm")).to_contain_text("odsłonić miejsce 3")
    expect(screen.locator("#ceremony-stage")).not_to_have_attribute("hx-trigger", re.compile("every"))  # no poll
    screen.clock.run_for(3_500)  # longer than the screen's poll: the question stays
    expect(screen.locator(".confirm")).to_contain_text("odsłonić miejsce 3")
    screen.get_by_role("link", name="Anuluj").click()
    expect(screen.locator(".confirm")).to_have_count(0)
    screen.get_by_role("link", name="Odsłoń miejsce 3").click()
    screen.get_by_role("button", name="Tak, odsłoń miejsce 3").click()
    expect(screen.locator(".stage__outcome")).to_have_text("Odsłonięto miejsce 3.")
    expect(screen.locator(".podium")).to_contain_text("Zofia Żółkiewska")
    tournament.refresh_from_db()
    assert tournament.ceremony_step == 1 and dialogs == []
