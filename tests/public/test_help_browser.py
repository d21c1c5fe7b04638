"""The help in Chromium: the help pages read on phones and tablets without sideways scrolling,
and the header's help link on staff pages is a full-size target that overlaps nothing."""

import pytest

from tests.factories import build, table
from tests.support.browser import PHONE, TABLET, assert_no_horizontal_scroll, screenshot, signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STARTED = {
    "number": 1,
    "state": "started",
    "tables": [table(1, ["p1", "p2", "p3", "p4"]), table(2, ["p5", "p6", "p7", "p8"])],
}
# The boxes of the header's other controls, and of its help link.
HEADER_BOXES = """() => {
  const box = e => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; };
  const header = document.querySelector(".site-header__inner");
  const others = [...header.querySelectorAll(".brand, .site-nav a, button")].filter(e => !e.closest(".help-link"));
  return {help: box(header.querySelector(".help-link")), others: others.map(box)};
}"""


def overlap(a, b):
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone", "tablet"])
def test_the_help_pages_read_on_phones_and_tablets(live_server, new_page, viewport):
    page = new_page(viewport, locale="pl-PL")
    for path in ("/help/", "/help/organiser/", "/help/head-referee/", "/help/referee/"):
        page.goto(live_server.url + path)
        assert page.locator("h1").first.is_visible()
        assert_no_horizontal_scroll(page)
        screenshot(page, f"help{path.rstrip('/').replace('/', '-')}-{viewport['width']}")


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone", "tablet"])
def test_the_help_link_is_a_full_size_target_beside_the_other_header_controls(
    live_server, new_page, client, organiser, referee, viewport
):
    build(8, rounds=[STARTED])
    for user, path, help_path in (
        (organiser, "/staff/test/", "/help/organiser/"),
        (referee, "/referee/test/round/1/table/1/", "/help/referee/"),
    ):
        page = signed_in_page(new_page, live_server, client, user, viewport)
        page.goto(live_server.url + path)
        boxes = page.evaluate(HEADER_BOXES)
        help_box = boxes["help"]
        assert help_box["height"] >= 44 and help_box["width"] >= 44, help_box
        assert 0 <= help_box["x"] and help_box["x"] + help_box["width"] <= viewport["width"], help_box
        assert not [other for other in boxes["others"] if overlap(help_box, other)], boxes
        screenshot(page, f"help-link{path.rstrip('/').replace('/', '-')}-{viewport['width']}")
        page.locator(".site-header .help-link").click()
        assert page.url == live_server.url + help_path
