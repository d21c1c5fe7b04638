"""What a person sees of the places, in Chromium (issue 48.1 and 48.8), on a phone (390×844) and on
a 1280×720 projector; screenshots in test-artifacts/ with SCREENSHOTS=1.

Before the last round: no medal disc, and "after round N of M" above the rows. After the final:
the medals, and the final's figures beside the qualifying ones in their own labelled columns."""

import pytest
from playwright.sync_api import expect

from tests.factories import after_the_final, build_hall
from tests.support.browser import PHONE, assert_no_horizontal_scroll, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROJECTOR = {"width": 1280, "height": 720}


@pytest.mark.parametrize("viewport, name", [(PHONE, "390"), (PROJECTOR, "1280")])
def test_no_medal_while_the_qualifying_rounds_go_on(live_server, new_page, viewport, name):
    build_hall()  # rounds 1–2 completed, round 3 in play, 5 planned, no final
    page = new_page(viewport)
    page.goto(live_server.url + "/t/test/standings/")
    expect(page.locator(".standings-progress")).to_have_text("After round 2 of 5 · Round 3 is being played")
    expect(page.locator("table.standings tbody tr")).to_have_count(8)
    assert page.locator(".medal").count() == 0
    assert_no_horizontal_scroll(page)
    screenshot(page, f"standings-round-3-{name}")
    page.goto(live_server.url + "/t/test/projector/")
    expect(page.locator(".board__phase")).to_contain_text("After round 2 of 5")
    expect(page.locator(".board__table tbody tr")).to_have_count(8)
    assert page.locator(".medal").count() == 0
    screenshot(page, f"projector-round-3-{name}")


@pytest.mark.parametrize("viewport, name", [(PHONE, "390"), (PROJECTOR, "1280")])
def test_after_the_final_its_figures_and_the_qualifying_ones_stand_apart(live_server, new_page, viewport, name):
    after_the_final()
    page = new_page(viewport)
    page.goto(live_server.url + "/t/test/standings/")
    expect(page.locator(".standings-progress")).to_have_text("Final standings")
    expect(page.locator(".medal")).to_have_count(3)
    # the big points of both parts are on screen, each under its own label, on a phone too
    headers = page.locator("table.standings thead th:visible")
    labels = [" ".join(text.split()) for text in headers.all_inner_texts()]
    if viewport is PHONE:  # short labels, the figure's name for screen readers
        assert "Final Big points" in labels and "Qual. Big points" in labels, labels
    else:
        assert "Final Big points" in labels and "Qualifying Big points" in labels, labels
    winner, fifth = page.locator("table.standings tbody tr").nth(0), page.locator("table.standings tbody tr").nth(4)
    # Gracz 7 won the final with 2 big points (1 in the qualifying round); Gracz 2, 5th, was not in it (1)
    assert winner.locator("td.part--final").first.inner_text().strip() == "2"
    assert winner.locator("td.part--qualifying").first.inner_text().strip() == "1"
    assert fifth.locator("td.part--final").first.inner_text().split("\n")[0] == "–"  # then "not in the final", unseen
    assert fifth.locator("td.part--qualifying").first.inner_text().strip() == "1"
    assert_no_horizontal_scroll(page)
    screenshot(page, f"standings-after-the-final-split-{name}")
    page.goto(live_server.url + "/t/test/projector/")
    expect(page.locator(".board__table th.part--final").first).to_be_visible()
    expect(page.locator(".board__table th.part--qualifying").first).to_be_visible()
    expect(page.locator(".medal")).to_have_count(3)
    last_row = page.locator(".board__table tbody tr").last
    box = last_row.bounding_box()
    assert box["y"] + box["height"] <= viewport["height"] or viewport is PHONE, "the board's last row is off screen"
    screenshot(page, f"projector-after-the-final-split-{name}")


def test_in_polish_the_split_table_fits_a_phone(live_server, new_page):
    # "Eliminacje" is long: a phone shows "Elim." (its full word in the title) and no column
    # pushes the page sideways
    after_the_final()
    page = new_page(PHONE)
    page.goto(f"{live_server.url}/language/?language=pl&next=/t/test/standings/")
    expect(page.locator(".standings-progress")).to_have_text("Klasyfikacja końcowa")
    expect(page.locator("th.part--qualifying abbr:visible")).to_have_text("Elim.")
    assert_no_horizontal_scroll(page)
    screenshot(page, "standings-after-the-final-split-pl-390")
