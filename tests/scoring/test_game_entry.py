"""A game entered on a tablet goes one way: the form parses it into a plain value
(`EnteredGame`), the service checks it once (`entry.check_game`), and the page shows the result."""

import pytest
from django.http import QueryDict
from django.test import RequestFactory

from engine import rules
from scoring.forms import GameForm
from scoring.services.entry import EnteredGame, SeatEntry, check_game
from tournament.models import Player
from tournament.navigation import htmx_or_page

PLAYERS = {letter: Player(name=f"Player {letter}") for letter in "ABCD"}
SETTINGS = rules.Settings()


def posted(**values):
    data = QueryDict(mutable=True)
    data.update({"version": "0", **values})
    return data


def test_the_form_parses_a_game_into_a_plain_value():
    form = GameForm(
        posted(ending="A", **{"B-tiles": "23", "C-keypad": "7 3 J", "D-opening": "not_possible"}),
        players=PLAYERS,
        number=1,
    )
    entered = form.entered_game()
    assert entered == EnteredGame(
        seats=("A", "B", "C", "D"),
        ending="A",
        readable=True,
        confirm_tiles=False,
        entries={
            "A": SeatEntry(),
            "B": SeatEntry(tiles=23),
            "C": SeatEntry(faces=(7, 3, "J")),
            "D": SeatEntry(opening="not_possible"),
        },
    )


def test_a_value_the_form_cannot_read_leaves_its_seat_out():
    form = GameForm(posted(ending="A", **{"B-tiles": "x", "C-tiles": "4", "D-tiles": "5"}), players=PLAYERS, number=1)
    entered = form.entered_game()
    assert "B" not in entered.entries and not entered.readable
    assert form.errors["B-tiles"]  # the form says why, next to the field
    assert not check_game(entered, SETTINGS).complete  # so nothing is scored


def test_the_service_check_scores_spec_example_one():
    """SPEC §3 example 1: B 23; C 7 + 3 and a joker (10 + 50); D could not lay out (100); A takes 183."""
    entered = EnteredGame(
        seats=tuple("ABCD"),
        ending="A",
        entries={"B": SeatEntry(tiles=23), "C": SeatEntry(faces=(7, 3, "J")), "D": SeatEntry(opening="not_possible")},
    )
    checked = check_game(entered, SETTINGS)
    assert checked.problems == []
    assert checked.result.scores == {"A": 183, "B": -23, "C": -60, "D": -100}
    assert checked.racks["C"] == rules.Rack(10, 1) and checked.keypad == {"C": [7, 3, "J"]}


@pytest.mark.parametrize("complete, fields", [(True, ["racks.B.tiles", "racks.D.tiles"]), (False, [])])
def test_a_missing_rack_is_a_problem_only_when_the_game_is_saved(complete, fields):
    entered = EnteredGame(
        seats=tuple("ABCD"), ending="A", entries={"B": SeatEntry(), "C": SeatEntry(tiles=4), "D": SeatEntry()}
    )
    checked = check_game(entered, SETTINGS, require_complete=complete)
    assert [problem.field for problem in checked.problems] == fields
    assert checked.minus == {"C": 4} and checked.result is None


def test_more_than_two_hundred_points_needs_the_confirmation():
    seats = {"B": SeatEntry(tiles=201), "C": SeatEntry(tiles=0), "D": SeatEntry(tiles=0)}
    refused = check_game(EnteredGame(seats=tuple("ABCD"), ending="A", entries=seats), SETTINGS)
    assert [(p.code, p.field) for p in refused.problems] == [("confirm_tiles", "racks.B.tiles")]
    confirmed = check_game(EnteredGame(seats=tuple("ABCD"), ending="A", entries=seats, confirm_tiles=True), SETTINGS)
    assert confirmed.problems == [] and confirmed.result.scores["A"] == 201


def test_an_htmx_request_gets_the_fragment_and_any_other_the_page():
    request = RequestFactory().get("/")
    answers = {"fragment": lambda: "fragment", "page": lambda: "page"}
    request.htmx = True
    assert htmx_or_page(request, answers["fragment"], answers["page"]) == "fragment"
    request.htmx = False
    assert htmx_or_page(request, answers["fragment"], answers["page"]) == "page"
