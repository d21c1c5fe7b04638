"""The public season page on a phone reads like the tournament standings (issue 48.7): surname
first, the club smaller beside the name, one line per person where it fits, so that a phone's
screen's height holds the whole table of ten (before: about three rows a screen); on 1280×720 too. Screenshots with SCREENSHOTS=1."""

import pytest
from playwright.sync_api import expect

from tests.factories import SEASON_PUBLIC_TABLE, season_of_three
from tests.support.browser import PHONE, assert_no_horizontal_scroll, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def line_boxes(page):
    """[(name, club, name's box, club's box, row's height)] of the season table's rows."""
    rows = page.locator(".season-table tbody tr")
    found = []
    for index in range(rows.count()):
        row = rows.nth(index)
        name, club = row.locator(".who a"), row.locator(".who .org")
        found.append(
            (
                name.inner_text(),
                club.inner_text(),
                name.bounding_box(),
                club.bounding_box(),
                row.bounding_box()["height"],
            )
        )
    return found


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 720}], ids=["390", "1280"])
def test_one_line_per_person_with_the_club_beside_the_name(live_server, new_page, viewport):
    season = season_of_three()
    page = new_page(viewport)
    page.goto(f"{live_server.url}/s/{season.slug}/")
    expect(page.locator(".season-table tbody tr")).to_have_count(len(SEASON_PUBLIC_TABLE))
    screenshot(page, f"season-public-{viewport['width']}")
    boxes = line_boxes(page)
    assert [(name, club) for name, club, *_ in boxes] == [(row[1], row[2]) for row in SEASON_PUBLIC_TABLE]
    one_line = 0
    for name, _club, name_box, club_box, height in boxes:
        assert name_box["height"] >= 44, name  # still a finger's target
        if club_box["y"] < name_box["y"] + name_box["height"] and club_box["x"] > name_box["x"]:
            one_line += 1  # the club on the name's line, beside it
            assert height <= name_box["height"] + 24, (name, height)
    # every name with its club fits on one line on the projector; on a phone all but the longest
    # (counted by hand at 390 px: Kowalski, Lewandowski, Szymańska and Wiśniewska wrap their club)
    assert one_line >= (len(boxes) if viewport["width"] > 1000 else 6), one_line
    rows = page.locator(".season-table tbody tr")
    top, last = rows.first.bounding_box(), rows.last.bounding_box()
    if viewport is PHONE:  # (a wide screen shows the table in the hall's big type instead)
        assert last["y"] + last["height"] - top["y"] <= viewport["height"], "the ten rows take more than a screen"
    # "Nowak Anna" is no smaller than before; the club is smaller than the name
    size = page.locator(".season-table .who a").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    club_size = page.locator(".season-table .who .org").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert club_size < size
    assert_no_horizontal_scroll(page)
