"""Words stay whole (issue 36.7): names and organisations wrap between words, never inside one,
on a 390 px phone and a 768 px tablet, on the staff players list, the public standings and
seating, and the referee pages, with long Polish surnames and organisation names. A word split
over two lines has client rectangles on two lines; a hyphenated surname may wrap after its hyphen."""

import pytest

from organiser.interchange import import_tournament
from tests.factories import hall_data
from tests.support.browser import PHONE, TABLET, assert_no_horizontal_scroll, screenshot, signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_NAMES = [
    ("Władysław Gołębiowski", "Uniwersytet Trzeciego Wieku Politechniki Świętokrzyskiej"),
    ("Krzysztof Kaczmarek", "Stowarzyszenie Przyjaciół Rummikuba w Bydgoszczy"),
    ("Grzegorz Brzęczyszczykiewicz", "Klub Seniora „Złota Jesień” Szczebrzeszyn"),
    ("Małgorzata Szczebrzeszyńska-Wiśniewska", "UTW Kraków"),
    ("Bożena Przybyszewska-Dziewięcka", "Towarzystwo Uniwersytetów Trzeciego Wieku"),
    ("Zbigniew Chrząszczewski", "UTW Łódź"),
    ("Jadwiga Wierzbięta-Konopczyńska", "Międzypokoleniowe Stowarzyszenie Seniorów"),
    ("Józef Wierzchosławski", "UTW Toruń"),
]

# Every name and organisation element of the pages below.
NAME_ELEMENTS = ", ".join(
    [
        ".player-row__name",
        ".player-row__org",
        ".who",
        ".org",
        ".seat-card__name",
        ".rack__name",
        ".choice__name",
        ".seat__who",
        "main li a",
        "main td",
    ]
)

SPLIT_WORDS = """(selector) => {
  const split = [];
  for (const element of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/[^\\s-]+-?/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (lines.size > 1) split.push(`${element.className || element.tagName}: ${match[0]}`);
      }
    }
  }
  return split;
}"""

PAGES = {
    "staff-players": ("organiser", "/staff/test/players/"),
    "standings": (None, "/t/test/standings/"),
    "seating": (None, "/t/test/round/4/"),
    "referee-players": ("organiser", "/referee/test/players/"),
    "referee-sheet": ("organiser", "/referee/test/round/3/table/2/"),
}


@pytest.fixture
def hall(organiser):
    data = hall_data()
    for player, (name, organisation) in zip(data["players"], LONG_NAMES):
        player["name"], player["organisation"] = name, organisation
    return import_tournament(data)


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["390", "768"])
@pytest.mark.parametrize("name", list(PAGES))
def test_no_name_or_organisation_is_split_inside_a_word(live_server, new_page, client, hall, organiser, viewport, name):
    role, path = PAGES[name]
    page = signed_in_page(new_page, live_server, client, organiser, viewport) if role else new_page(viewport)
    page.context.add_cookies([{"name": "django_language", "value": "pl", "url": live_server.url}])
    page.goto(live_server.url + path)
    assert page.locator(NAME_ELEMENTS).count() >= 8
    screenshot(page, f"whole-words-{name}-{viewport['width']}")
    assert page.evaluate(SPLIT_WORDS, NAME_ELEMENTS) == []
    assert_no_horizontal_scroll(page)
