"""A whole four-game score sheet entered on a 768×1024 tablet, counting what the referee does:
taps, digits and other keys, and how far the referee scrolls for each game (to bring each
field or button on the screen before tapping it; the page itself scrolls the next game up
after a save).

Goal (issue "a shorter sheet"): at most 30 taps and keys besides the digits, and at most three
screen heights of scrolling per game. The figures are printed (run with `-s` to see them).
"""

import pytest

from scoring.models import ScoreSheet
from tests.support.browser import TABLET, screenshot
from tests.support.browser_steps import open_empty_sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MOST_TAPS = 30
MOST_SCREENS_PER_GAME = 3


class Referee:
    """Drives the sheet as a referee would and counts every tap and key."""

    def __init__(self, page):
        self.page = page
        self.taps = self.digits = self.other_keys = 0
        self.scrolled = 0  # pixels the referee scrolled to reach what was tapped

    def tap(self, selector):
        """Scroll (as a finger would) until the target is on the screen, then tap it."""
        target = self.page.locator(selector)
        before = self.page.evaluate("scrollY")
        target.scroll_into_view_if_needed()
        self.scrolled += abs(self.page.evaluate("scrollY") - before)
        self.taps += 1
        target.click()

    def type_number(self, selector, number):
        """Tap the field, then type the digits on the tablet's keyboard."""
        self.tap(selector)
        self.digits += len(number)
        self.page.keyboard.type(number)

    def save(self, n):
        self.tap(f"#game-{n} .save-button")
        self.page.wait_for_selector(f"#g{n}-status .status--saved")
        # The saved game folds up and the page moves on to the next one.
        self.page.wait_for_selector(f"#game-{n} details.game__details:not([open])", state="attached")


@pytest.fixture(params=["pl-PL", "en-GB"])
def tablet(request, live_server, new_page):
    """The sheet in Polish (the venue's language: longer labels) and in English."""
    page = open_empty_sheet(live_server, new_page, locale=request.param)
    yield page
    page.wait_for_load_state("networkidle")


def game_one(referee):
    """SPEC §3 example 1: A goes out; B 23; C 10 and a joker; D could not lay out."""
    referee.tap("label[for=g1-ending-A]")
    referee.type_number("#g1-B-tiles", "23")
    referee.type_number("#g1-C-tiles", "10")
    referee.tap("label[for=g1-C-jokers-1]")
    referee.tap("label[for=g1-D-opening-not_possible]")


def game_two(referee):
    """C goes out; A 15, B 8, D 31."""
    referee.tap("label[for=g2-ending-C]")
    for letter, tiles in (("A", "15"), ("B", "8"), ("D", "31")):
        referee.type_number(f"#g2-{letter}-tiles", tiles)


def game_three(referee):
    """SPEC §3 example 2: the pool runs out; A 12, B 7, C 7; D could lay out but did not."""
    referee.tap("label[for=g3-ending-pool]")
    for letter, tiles in (("A", "12"), ("B", "7"), ("C", "7")):
        referee.type_number(f"#g3-{letter}-tiles", tiles)
    referee.tap("label[for=g3-D-opening-possible_not_done]")


def game_four(referee):
    """B goes out; A 44 and two jokers; C 9; D's rack tile by tile on the keypad: 7 and 10."""
    referee.tap("label[for=g4-ending-B]")
    referee.type_number("#g4-A-tiles", "44")
    referee.tap("label[for=g4-A-jokers-2]")
    referee.type_number("#g4-C-tiles", "9")
    referee.tap("#game-4 .rack--D .keypad summary")
    referee.tap("#game-4 button[name=key-D][value='7']")
    referee.tap("#game-4 button[name=key-D][value='10']")


def test_a_whole_sheet_takes_few_taps_and_little_scrolling(tablet):
    page = tablet
    referee = Referee(page)
    screens = []
    for n, enter in enumerate((game_one, game_two, game_three, game_four), start=1):
        assert page.locator(f"#game-{n} details.game__details[open]").count() == 1
        assert page.locator("details.game__details[open]").count() == 1  # only the game being entered
        referee.scrolled = 0
        enter(referee)
        referee.save(n)
        screens.append(referee.scrolled / TABLET["height"])
        if n == 1:
            screenshot(page, f"sheet-entry-after-game-1-{page.evaluate('document.documentElement.lang')}")
    referee.tap(".confirm-submit summary")
    with page.expect_navigation():
        referee.tap(".confirm-submit__form button[type=submit]")
    screenshot(page, f"sheet-entry-submitted-{page.evaluate('document.documentElement.lang')}")

    sheet = ScoreSheet.objects.get()
    assert sheet.state == ScoreSheet.State.SUBMITTED
    scores = {game.number: {r.letter: r.score for r in game.results.all()} for game in sheet.games.all()}
    assert scores == {
        1: {"A": 183, "B": -23, "C": -60, "D": -100},
        2: {"A": -15, "B": -8, "C": 54, "D": -31},
        3: {"A": -12, "B": 106, "C": 106, "D": -200},
        4: {"A": -144, "B": 170, "C": -9, "D": -17},
    }
    language = page.evaluate("document.documentElement.lang")
    print(
        f"\nFull 4-game sheet ({language}) at {TABLET['width']}×{TABLET['height']}: {referee.taps} taps, "
        f"{referee.other_keys} other keys, {referee.digits} digits; scrolling per game "
        + ", ".join(f"{value:.2f}" for value in screens)
        + " screen heights"
    )
    assert referee.taps + referee.other_keys <= MOST_TAPS
    assert max(screens) <= MOST_SCREENS_PER_GAME
    # Each finished game is one line: who went out and every seat's score.
    assert page.locator("details.game__details[open]").count() == 0
    scores = page.locator("#g1-scores").inner_text()
    assert scores.split()[-8:] == ["A", "+183", "B", "−23", "C", "−60", "D", "−100"]
    assert {"en": "A Gracz 1 went out", "pl": "Wszystko wyłożone: A Gracz 1"}[language] in " ".join(scores.split())
    if language == "en":
        assert page.locator("#g3-scores").inner_text().startswith("Pool exhausted")
    page.click("#game-2 summary.game__head")
    assert page.locator("#game-2 details.game__details[open]").count() == 1  # a tap opens it again
