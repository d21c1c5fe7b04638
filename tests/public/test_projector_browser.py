"""The projector in Chromium at the hall's two usual sizes (issue 36.6): the controls never cover
a row and fade after a few seconds, every row is whole on the screen, the heading says after
which round of how many, withdrawn and disqualified players are marked, and a published round's
seating is shown by surname until it starts (screenshots in test-artifacts/ with SCREENSHOTS=1)."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.factories import build_hall
from tests.support.browser import screenshot
from tournament.models import Player, Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = [{"width": 1280, "height": 720}, {"width": 1920, "height": 1080}]
# Every visible row's box, and the boxes of the controls that are visible.
BOXES = """() => {
  const box = e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const shown = e => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden";
  return {
    rows: [...document.querySelectorAll("#board tr")].filter(shown).map(box),
    tools: [...document.querySelectorAll(".screen__tools > *")].filter(shown).map(box),
  };
}"""


def hall_of_42(*, seating=False):
    """42 players (40 seated a round), in Polish; player 5 withdrew, player 9 was disqualified.
    With `seating`, round 3 is completed, so round 4 (published) waits to start."""
    tournament = build_hall(players=42)
    Tournament.objects.filter(pk=tournament.pk).update(public_language="pl")
    Player.objects.filter(tournament=tournament, start_number=5).update(status="withdrawn")
    Player.objects.filter(tournament=tournament, start_number=9).update(status="disqualified")
    if seating:
        Round.objects.filter(tournament=tournament, number=3).update(state="completed")
    return tournament


def overlaps(a, b):
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def assert_fits_and_is_uncovered(screen):
    """No row overflows the screen, and no control covers a row (woken by a key, if faded)."""
    screen.keyboard.press("Shift")
    expect(screen.locator(".screen__tools")).to_be_visible()
    boxes = screen.evaluate(BOXES)
    size = screen.viewport_size
    assert boxes["rows"] and boxes["tools"]
    for row in boxes["rows"]:
        assert (
            0 <= row["top"] and row["bottom"] <= size["height"] and 0 <= row["left"] and row["right"] <= size["width"]
        )
        assert not any(overlaps(row, tool) for tool in boxes["tools"]), f"a control covers the row at {row}"
    assert screen.evaluate("document.documentElement.scrollHeight") <= size["height"]


@pytest.mark.parametrize("viewport", SCREENS, ids=lambda v: f"{v['width']}x{v['height']}")
def test_the_standings_fit_the_screen_with_the_round_and_the_marks(live_server, new_page, viewport):
    hall_of_42()
    screen = new_page(viewport)
    screen.clock.install()  # the page's own clock: the test moves it past the tools' fading
    marked = []
    for page in (1, 2):
        screen.goto(f"{live_server.url}/t/test/projector/?page={page}")
        expect(screen.locator(".board__meta")).to_contain_text("Po rundzie 2 z 5 · Trwa runda 3")
        expect(screen.locator(".board__meta")).to_contain_text(f"Strona {page} z 2")
        assert_fits_and_is_uncovered(screen)
        screenshot(screen, f"projector-standings-{page}-{viewport['width']}")
        marked += [" ".join(text.split()) for text in screen.locator("#board tr:has(.board__status)").all_inner_texts()]
    assert len(marked) == 2
    assert "Wiśniewska Małgorzata wycofanie z turnieju · UTW Wrocław" in marked[0]
    assert marked[-1].startswith("dyskw. 9 Gracz dyskwalifikacja · Klub 9")  # listed last, marked as on phones
    tools = screen.locator(".screen__tools")
    screen.clock.run_for(10_000)
    expect(tools).to_be_hidden()  # faded a few seconds after the mouse last moved
    screen.mouse.move(100, 100)
    expect(tools).to_be_visible()  # back at the mouse, and still beside the rows
    assert_fits_and_is_uncovered(screen)


@pytest.mark.parametrize("viewport", SCREENS, ids=lambda v: f"{v['width']}x{v['height']}")
def test_a_published_round_shows_its_seating_by_surname_then_the_standings(live_server, new_page, viewport):
    tournament = hall_of_42(seating=True)
    screen = new_page(viewport)
    screen.goto(f"{live_server.url}/t/test/projector/")
    expect(screen.locator(".board__phase")).to_have_text("Rozstawienie: runda 4 z 5")
    rows = screen.locator(".board__seating tbody tr")
    expect(rows).to_have_count(40)  # 40 seated players fit one page
    last = rows.last
    expect(last.locator("td.who")).to_contain_text("Żółkiewska Zofia")
    expect(last.locator("td.num")).to_have_text(["10", "B"])  # table 10, seat B
    assert_fits_and_is_uncovered(screen)
    screenshot(screen, f"projector-seating-{viewport['width']}")
    Round.objects.filter(tournament=tournament, number=4).update(state="started")
    screen.evaluate("htmx.trigger('#board', 'every')")  # the board's poll, without waiting 15 s
    expect(screen.locator(".board__phase")).to_have_text("Po rundzie 3 z 5 · Trwa runda 4", timeout=20_000)
    assert_fits_and_is_uncovered(screen)


def test_a_long_field_still_fits_at_1280x720(live_server, new_page):
    """120 players: three pages of 40 in two columns of 20; the type shrinks until the last row
    ends above the controls."""
    build_hall(players=120)
    screen = new_page(SCREENS[0])
    for page in (1, 3):
        screen.goto(f"{live_server.url}/t/test/projector/?page={page}")
        assert_fits_and_is_uncovered(screen)
    screenshot(screen, "projector-standings-120-1280")


def test_on_a_tablet_the_clock_sits_above_the_board_and_the_controls_below_its_last_row(live_server, new_page):
    tournament = hall_of_42()
    Round.objects.filter(tournament=tournament, number=3).update(state="started", started_at=timezone.now())
    screen = new_page({"width": 768, "height": 1024})
    screen.goto(f"{live_server.url}/t/test/projector/")
    expect(screen.locator("#round-clock .time-left")).to_be_visible()
    screen.keyboard.press("Shift")
    boxes = screen.evaluate(BOXES)
    clock = screen.locator("#round-clock").bounding_box()
    board = screen.locator("#board").bounding_box()
    last_row = boxes["rows"][-1]
    assert clock["y"] + clock["height"] <= board["y"], "the clock runs into the board"
    assert all(last_row["bottom"] + 8 <= tool["top"] for tool in boxes["tools"]), (
        f"the controls meet the last row {last_row}"
    )
    screenshot(screen, "projector-clock-768")
