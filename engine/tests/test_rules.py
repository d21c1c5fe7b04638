"""The Rummikub rules engine (`engine/rules.py`) against SPEC §2–§4 and regulations §7–§9.

Plain pytest: no database, no Django. Every expected number is worked out by hand in the
comment beside it; the Hypothesis properties at the end check the invariants of the contract
(zero-sum, winners, ties, renaming seats, monotonicity) on random valid games.
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from hypothesis import HealthCheck, assume, given, settings as hyp_settings
from hypothesis import strategies as st

from engine.rules import (
    ADD,
    DIFFERENCE,
    DRAWN_LAST_ROUND,
    JOKER,
    MAX_JOKERS,
    MAX_TILES,
    NOT_POSSIBLE,
    OPENED,
    OPENINGS,
    POSSIBLE_NOT_DONE,
    REPLACE,
    SEAT_LETTERS,
    SUM,
    UNIT_GAME,
    UNIT_ROUND,
    Game,
    GameResult,
    Rack,
    RuleViolation,
    Settings,
    flat_penalty,
    game_big_points,
    keypad_rack,
    rack_minus,
    round_big_points,
    score_game,
    table_round,
    validate_game,
    validate_keypad_racks,
)

ABCD = ("A", "B", "C", "D")
ABC = ("A", "B", "C")
GERMAN = (4, 3, 1, 0)


def out(winner: str, seats=ABCD, **racks: Rack) -> Game:
    """A normal end: `winner` went out, every other seat has a rack."""
    return Game(seats=tuple(seats), winner=winner, racks=racks)


def pool(seats=ABCD, **racks: Rack) -> Game:
    """A pool-exhausted game: nobody went out, every seat has a rack."""
    return Game(seats=tuple(seats), winner=None, racks=racks)


def opened(tiles: int = 0, jokers: int = 0) -> Rack:
    return Rack(tiles=tiles, jokers=jokers, opening=OPENED)


def violation(game: Game) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        validate_game(game)
    # score_game validates first, so it must refuse the same game the same way
    with pytest.raises(RuleViolation) as info2:
        score_game(game)
    assert (info2.value.code, info2.value.path) == (info.value.code, info.value.path)
    return info.value


# ---------------------------------------------------------------------------------------
# SPEC §3 worked examples (4-table, standard variant, `replace`, `sum`)
# ---------------------------------------------------------------------------------------


def test_worked_example_1_normal_end():
    # B 23 opened -> 23; C 10 + 1 joker x 50 -> 60; D not_possible -> 100.
    # A went out: 23 + 60 + 100 = 183.
    game = out("A", B=opened(23), C=opened(10, 1), D=Rack(opening=NOT_POSSIBLE))
    result = score_game(game)
    assert result.scores == {"A": 183, "B": -23, "C": -60, "D": -100}
    assert result.winners == {"A"}
    assert result.minus == {"A": 0, "B": 23, "C": 60, "D": 100}
    assert list(result.scores) == list(ABCD)  # seat order
    assert game_big_points(result) == {"A": 1, "B": 0, "C": 0, "D": 0}


def test_worked_example_2_pool_exhausted_sum():
    # A 12, B 7, C 7 (all opened), D possible_not_done -> 200. Lowest 7: winners B and C.
    # Non-winners: A -12, D -200; B and C share 12 + 200 = 212 -> 106 each.
    game = pool(A=opened(12), B=opened(7), C=opened(7), D=Rack(opening=POSSIBLE_NOT_DONE))
    result = score_game(game)
    assert result.scores == {"A": -12, "B": 106, "C": 106, "D": -200}
    assert result.winners == {"B", "C"}
    assert game_big_points(result) == {"A": 0, "B": 1, "C": 1, "D": 0}


def test_worked_example_3_pool_exhausted_difference():
    # Same racks, `difference`: lowest 7. A -(12-7) = -5, D -(200-7) = -193;
    # B and C share 5 + 193 = 198 -> 99 each.
    game = pool(A=opened(12), B=opened(7), C=opened(7), D=Rack(opening=POSSIBLE_NOT_DONE))
    result = score_game(game, Settings(pool_exhausted_scoring=DIFFERENCE))
    assert result.scores == {"A": -5, "B": 99, "C": 99, "D": -193}
    assert result.winners == {"B", "C"}


def test_worked_example_4_first_move_case():
    # C goes out in the first move of the game; A had laid out in own first move -> 100
    # (first-move case; A's rack content is irrelevant in `replace`), B and D not_possible
    # -> 100 each. C: 100 + 100 + 100 = 300.
    game = out(
        "C",
        A=Rack(tiles=35, jokers=1, opening=OPENED, first_move_case=True),
        B=Rack(tiles=80, opening=NOT_POSSIBLE),
        D=Rack(tiles=12, opening=NOT_POSSIBLE),
    )
    result = score_game(game)
    assert result.scores == {"A": -100, "B": -100, "C": 300, "D": -100}
    assert result.winners == {"C"}


# ---------------------------------------------------------------------------------------
# rack_minus (SPEC §3 "Minus points of a rack", regulations §7)
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rack, joker_penalty, expected",
    [
        (opened(23), 50, 23),  # tiles only
        (opened(0), 50, 0),  # empty rack (possible in a pool-exhausted game)
        (opened(10, 1), 50, 60),  # 10 + 1 x 50
        (opened(10, 2), 50, 110),  # 10 + 2 x 50
        (opened(10, 2), 30, 70),  # Twist/Expert: 10 + 2 x 30
        (opened(10, 1), 30, 40),  # 10 + 1 x 30
        (opened(10, 2), 7, 24),  # arbitrary penalty: 10 + 2 x 7
        (opened(0, 2), 0, 0),  # a 0 penalty makes jokers free
        (opened(MAX_TILES, 2), 50, 828),  # 728 + 100
    ],
)
def test_rack_minus_opened(rack, joker_penalty, expected):
    assert rack_minus(rack, Settings(joker_penalty=joker_penalty)) == expected
    # `add` mode changes nothing for an opened rack without the first-move case
    assert rack_minus(rack, Settings(joker_penalty=joker_penalty, opening_penalty_mode=ADD)) == expected


@pytest.mark.parametrize(
    "opening, first_move_case, expected",
    [
        (NOT_POSSIBLE, False, 100),
        (POSSIBLE_NOT_DONE, False, 200),
        (DRAWN_LAST_ROUND, False, 100),
        (OPENED, True, 100),  # first-move case only
        (POSSIBLE_NOT_DONE, True, 200),  # two apply: max(200, 100)
        (NOT_POSSIBLE, True, 100),  # two apply: max(100, 100)
        (DRAWN_LAST_ROUND, True, 100),  # two apply: max(100, 100)
    ],
)
def test_rack_minus_replace_mode_is_the_flat_penalty(opening, first_move_case, expected):
    # `replace` (default): the flat penalty is the whole minus score, jokers included —
    # the rack content (40 + 2 jokers = 140 at 50) is ignored.
    rack = Rack(tiles=40, jokers=2, opening=opening, first_move_case=first_move_case)
    assert rack_minus(rack, Settings()) == expected
    assert flat_penalty(rack, Settings()) == expected
    # an empty rack gets the same penalty
    assert rack_minus(Rack(opening=opening, first_move_case=first_move_case), Settings()) == expected


def test_flat_penalty_is_zero_for_an_opened_rack():
    assert flat_penalty(opened(40, 2), Settings()) == 0


@pytest.mark.parametrize(
    "opening, first_move_case, expected",
    [
        # penalties: not_possible 90, possible_not_done 250, drawn_last_round 80, first move 120
        (NOT_POSSIBLE, False, 90),
        (POSSIBLE_NOT_DONE, False, 250),
        (DRAWN_LAST_ROUND, False, 80),
        (OPENED, True, 120),
        (NOT_POSSIBLE, True, 120),  # max(90, 120): the first-move penalty is the larger
        (DRAWN_LAST_ROUND, True, 120),  # max(80, 120)
        (POSSIBLE_NOT_DONE, True, 250),  # max(250, 120)
    ],
)
def test_rack_minus_custom_penalties_take_the_larger(opening, first_move_case, expected):
    custom = Settings(
        penalty_not_possible=90,
        penalty_possible_not_done=250,
        penalty_drawn_last_round=80,
        penalty_first_move=120,
    )
    rack = Rack(tiles=5, jokers=1, opening=opening, first_move_case=first_move_case)
    assert rack_minus(rack, custom) == expected


@pytest.mark.parametrize(
    "rack, joker_penalty, expected",
    [
        # add mode: rack count + flat penalty
        (Rack(tiles=40, jokers=1, opening=NOT_POSSIBLE), 50, 190),  # 40 + 50 + 100
        (Rack(tiles=5, opening=POSSIBLE_NOT_DONE), 50, 205),  # 5 + 200
        (Rack(tiles=0, opening=DRAWN_LAST_ROUND), 50, 100),  # 0 + 100
        (Rack(tiles=12, jokers=1, opening=OPENED, first_move_case=True), 30, 142),  # 12 + 30 + 100
        (Rack(tiles=3, jokers=2, opening=POSSIBLE_NOT_DONE, first_move_case=True), 50, 303),  # 3 + 100 + max(200, 100)
        (Rack(tiles=3, jokers=2, opening=NOT_POSSIBLE), 13, 129),  # 3 + 26 + 100
    ],
)
def test_rack_minus_add_mode(rack, joker_penalty, expected):
    assert rack_minus(rack, Settings(joker_penalty=joker_penalty, opening_penalty_mode=ADD)) == expected


def test_add_mode_in_a_whole_game():
    # add mode, joker 30: A went out. B opened 23 -> 23; C not_possible 10 + 1 joker -> 10 + 30 + 100 = 140;
    # D possible_not_done 4 -> 204. A: 23 + 140 + 204 = 367.
    game = out("A", B=opened(23), C=Rack(tiles=10, jokers=1, opening=NOT_POSSIBLE), D=Rack(tiles=4, opening=POSSIBLE_NOT_DONE))
    result = score_game(game, Settings(opening_penalty_mode=ADD, joker_penalty=30))
    assert result.scores == {"A": 367, "B": -23, "C": -140, "D": -204}
    # the same game in replace mode: C 100, D 200 -> A 323
    assert score_game(game, Settings(joker_penalty=30)).scores == {"A": 323, "B": -23, "C": -100, "D": -200}


@pytest.mark.parametrize(
    "kwargs",
    [
        {"opening_penalty_mode": "both"},
        {"pool_exhausted_scoring": "average"},
        {"big_point_unit": "tournament"},
        {"big_point_places": ()},
    ],
)
def test_settings_reject_unknown_choices(kwargs):
    with pytest.raises(ValueError):
        Settings(**kwargs)


def test_settings_defaults_match_spec_section_2():
    s = Settings()
    assert s.joker_penalty == 50
    assert (s.penalty_not_possible, s.penalty_possible_not_done, s.penalty_drawn_last_round, s.penalty_first_move) == (100, 200, 100, 100)
    assert s.opening_penalty_mode == REPLACE
    assert s.pool_exhausted_scoring == SUM
    assert s.big_point_unit == UNIT_GAME
    assert s.big_point_places == (1, 0, 0, 0)
    assert Settings(big_point_places=[4, 3, 1, 0]).big_point_places == GERMAN  # list -> tuple


# ---------------------------------------------------------------------------------------
# Normal end (regulations §8.1–8.3)
# ---------------------------------------------------------------------------------------


def test_normal_end_winner_gets_the_sum_of_the_others():
    # D went out. A 5, B 30, C 1 joker -> 50. D: 5 + 30 + 50 = 85.
    result = score_game(out("D", A=opened(5), B=opened(30), C=opened(0, 1)))
    assert result.scores == {"A": -5, "B": -30, "C": -50, "D": 85}
    assert result.winners == {"D"}


def test_normal_end_three_table():
    # 3-table A, B, C. B went out. A 15; C 2 jokers -> 100. B: 115.
    result = score_game(out("B", ABC, A=opened(15), C=opened(0, 2)))
    assert result.scores == {"A": -15, "B": 115, "C": -100}
    assert "D" not in result.scores
    assert result.winners == {"B"}


def test_normal_end_three_table_twist_variant():
    # joker 30. C went out. A 7 + 1 joker -> 37; B drawn_last_round -> 100. C: 137.
    result = score_game(out("C", ABC, A=opened(7, 1), B=Rack(tiles=60, opening=DRAWN_LAST_ROUND)), Settings(joker_penalty=30))
    assert result.scores == {"A": -37, "B": -100, "C": 137}


def test_normal_end_losers_with_empty_racks():
    # All losers at 0 (unusual, but valid): the winner scores 0 and is still the only winner.
    result = score_game(out("A", B=opened(), C=opened(), D=opened()))
    assert result.scores == {"A": 0, "B": 0, "C": 0, "D": 0}
    assert result.winners == {"A"}
    assert game_big_points(result) == {"A": 1, "B": 0, "C": 0, "D": 0}


def test_maximum_rack():
    # B holds every numbered tile left (728) and both jokers (100): A gets 828.
    result = score_game(out("A", B=opened(MAX_TILES, 2), C=opened(), D=opened()))
    assert result.scores == {"A": 828, "B": -828, "C": 0, "D": 0}


def test_seat_order_of_input_does_not_matter():
    # seats and racks given out of order: results still come back in A–D order.
    game = Game(seats=("D", "B", "A", "C"), winner="A", racks={"D": Rack(opening=NOT_POSSIBLE), "C": opened(10, 1), "B": opened(23)})
    result = score_game(game)
    assert list(result.scores.items()) == [("A", 183), ("B", -23), ("C", -60), ("D", -100)]


# ---------------------------------------------------------------------------------------
# Pool exhausted (regulations §8.4–8.5, SPEC §3 `sum` / `difference`)
# ---------------------------------------------------------------------------------------

SUM_S = Settings(pool_exhausted_scoring=SUM)
DIFF_S = Settings(pool_exhausted_scoring=DIFFERENCE)


def test_pool_exhausted_single_winner_sum():
    # A 12, B 3, C 30, D 1 joker -> 50. Winner B (3); B's own rack is not counted:
    # B gets 12 + 30 + 50 = 92.
    result = score_game(pool(A=opened(12), B=opened(3), C=opened(30), D=opened(0, 1)), SUM_S)
    assert result.scores == {"A": -12, "B": 92, "C": -30, "D": -50}
    assert result.winners == {"B"}
    assert result.minus == {"A": 12, "B": 3, "C": 30, "D": 50}


def test_pool_exhausted_single_winner_difference():
    # lowest 3: A -(12-3) = -9, C -(30-3) = -27, D -(50-3) = -47; B: 9 + 27 + 47 = 83.
    result = score_game(pool(A=opened(12), B=opened(3), C=opened(30), D=opened(0, 1)), DIFF_S)
    assert result.scores == {"A": -9, "B": 83, "C": -27, "D": -47}
    assert result.winners == {"B"}


def test_pool_exhausted_two_winners_odd_sum_remainder_to_earliest_seat():
    # A 5, B 2, C 2, D 8. Winners B, C (2). They share 5 + 8 = 13: 13 // 2 = 6, remainder 1
    # to the earlier seat B -> B 7, C 6.
    result = score_game(pool(A=opened(5), B=opened(2), C=opened(2), D=opened(8)), SUM_S)
    assert result.scores == {"A": -5, "B": 7, "C": 6, "D": -8}
    assert result.winners == {"B", "C"}


def test_pool_exhausted_remainder_goes_by_seat_not_by_input_order():
    # A 2, B 6, C 7, D 2. Winners A and D share 6 + 7 = 13 -> A (earliest seat) 7, D 6,
    # even though D's rack and seat are listed first.
    game = Game(seats=("D", "C", "B", "A"), winner=None, racks={"D": opened(2), "C": opened(7), "B": opened(6), "A": opened(2)})
    result = score_game(game, SUM_S)
    assert result.scores == {"A": 7, "B": -6, "C": -7, "D": 6}


def test_pool_exhausted_two_winners_difference_remainder():
    # A 2, B 6, C 7, D 2, difference: lowest 2; B -4, C -5; A and D share 9 -> A 5, D 4.
    result = score_game(pool(A=opened(2), B=opened(6), C=opened(7), D=opened(2)), DIFF_S)
    assert result.scores == {"A": 5, "B": -4, "C": -5, "D": 4}


def test_pool_exhausted_three_winners_remainder_two_all_to_the_first():
    # A 1, B 1, C 1, D 14. Winners A, B, C share 14: 14 // 3 = 4, remainder 2 -> all of the
    # remainder to A: A 6, B 4, C 4.
    result = score_game(pool(A=opened(1), B=opened(1), C=opened(1), D=opened(14)), SUM_S)
    assert result.scores == {"A": 6, "B": 4, "C": 4, "D": -14}
    assert result.winners == {"A", "B", "C"}


def test_pool_exhausted_three_winners_difference():
    # A 1, B 1, C 1, D 15, difference: D -(15-1) = -14 -> A 6, B 4, C 4.
    result = score_game(pool(A=opened(1), B=opened(1), C=opened(1), D=opened(15)), DIFF_S)
    assert result.scores == {"A": 6, "B": 4, "C": 4, "D": -14}


def test_pool_exhausted_winners_with_flat_penalties():
    # Nobody opened: A not_possible 100, B possible_not_done 200, C drawn_last_round 100,
    # D not_possible + first move -> max(100, 100) = 100. Winners A, C, D (100).
    # sum: they share 200 -> 66 r 2 -> A 68, C 66, D 66.
    game = pool(
        A=Rack(tiles=3, opening=NOT_POSSIBLE),
        B=Rack(opening=POSSIBLE_NOT_DONE),
        C=Rack(opening=DRAWN_LAST_ROUND),
        D=Rack(jokers=1, opening=NOT_POSSIBLE, first_move_case=True),
    )
    result = score_game(game, SUM_S)
    assert result.scores == {"A": 68, "B": -200, "C": 66, "D": 66}
    assert result.winners == {"A", "C", "D"}
    # difference: B -(200-100) = -100 -> 33 r 1 -> A 34, C 33, D 33.
    assert score_game(game, DIFF_S).scores == {"A": 34, "B": -100, "C": 33, "D": 33}


@pytest.mark.parametrize("scoring", [SUM, DIFFERENCE])
@pytest.mark.parametrize(
    "racks",
    [
        {"A": opened(9), "B": opened(9), "C": opened(9), "D": opened(9)},
        {"A": opened(0), "B": opened(0), "C": opened(0), "D": opened(0)},
        {s: Rack(tiles=20, opening=NOT_POSSIBLE) for s in ABCD},  # all 100
    ],
)
def test_pool_exhausted_all_tied(scoring, racks):
    # every seat on the same minus: all score 0 and all are winners.
    result = score_game(Game(seats=ABCD, winner=None, racks=racks), Settings(pool_exhausted_scoring=scoring))
    assert result.scores == {"A": 0, "B": 0, "C": 0, "D": 0}
    assert result.winners == set(ABCD)
    assert game_big_points(result) == {"A": 1, "B": 1, "C": 1, "D": 1}
    assert game_big_points(result, Settings(big_point_places=GERMAN)) == {"A": 4, "B": 4, "C": 4, "D": 4}


@pytest.mark.parametrize("scoring", [SUM, DIFFERENCE])
def test_pool_exhausted_all_tied_via_different_racks(scoring):
    # not_possible penalty set to 50: A 50 tiles, B 1 joker (50), C 1 joker (50),
    # D not_possible (50, its 3 tiles ignored in replace mode). All 50 -> all tied, all 0.
    s = Settings(penalty_not_possible=50, pool_exhausted_scoring=scoring)
    result = score_game(pool(A=opened(50), B=opened(0, 1), C=opened(0, 1), D=Rack(tiles=3, opening=NOT_POSSIBLE)), s)
    assert result.minus == {"A": 50, "B": 50, "C": 50, "D": 50}
    assert result.scores == {"A": 0, "B": 0, "C": 0, "D": 0}
    assert result.winners == set(ABCD)


def test_pool_exhausted_three_table():
    # A 4, B 9, C 4. sum: A and C share 9 -> A 5, C 4.
    game = pool(ABC, A=opened(4), B=opened(9), C=opened(4))
    assert score_game(game, SUM_S).scores == {"A": 5, "B": -9, "C": 4}
    # difference: B -(9-4) = -5 -> A 3, C 2.
    assert score_game(game, DIFF_S).scores == {"A": 3, "B": -5, "C": 2}
    assert score_game(game, DIFF_S).winners == {"A", "C"}


def test_pool_exhausted_joker_penalty_decides_the_winner():
    # A 40 + 0 jokers; B 5 + 1 joker. At 50: B 55 > A 40 -> A wins. At 30: B 35 < 40 -> B wins.
    game = pool(ABC, A=opened(40), B=opened(5, 1), C=opened(60))
    at_50 = score_game(game, Settings(joker_penalty=50))
    assert at_50.winners == {"A"}
    assert at_50.scores == {"A": 115, "B": -55, "C": -60}  # 55 + 60
    at_30 = score_game(game, Settings(joker_penalty=30))
    assert at_30.winners == {"B"}
    assert at_30.scores == {"A": -40, "B": 100, "C": -60}  # 40 + 60


# ---------------------------------------------------------------------------------------
# Big points (SPEC §2 / §4, regulations §8.5 and §9)
# ---------------------------------------------------------------------------------------


def test_big_points_default_game_unit_normal_end():
    # regulations §9: the winner 1, places 2–4 0
    r = score_game(out("B", A=opened(3), C=opened(40), D=opened(1)))
    assert game_big_points(r) == {"A": 0, "B": 1, "C": 0, "D": 0}


def test_big_points_default_tied_winners_get_one_each():
    # regulations §8.5: A 2, B 2, C 2, D 9 -> three winners, 1 each
    r = score_game(pool(A=opened(2), B=opened(2), C=opened(2), D=opened(9)))
    assert r.scores == {"A": 3, "B": 3, "C": 3, "D": -9}
    assert game_big_points(r) == {"A": 1, "B": 1, "C": 1, "D": 0}


def test_big_points_german_normal_end():
    # worked example 1: A +183, B -23, C -60, D -100 -> places 1, 2, 3, 4 -> 4, 3, 1, 0
    r = score_game(out("A", B=opened(23), C=opened(10, 1), D=Rack(opening=NOT_POSSIBLE)))
    assert game_big_points(r, Settings(big_point_places=GERMAN)) == {"A": 4, "B": 3, "C": 1, "D": 0}


def test_big_points_german_losers_tied_for_second():
    # A out; B -20, C -20 tie on place 2 -> 3 each; D -50 is 4th (index 3) -> 0.
    r = score_game(out("A", B=opened(20), C=opened(20), D=opened(50)))
    assert game_big_points(r, Settings(big_point_places=GERMAN)) == {"A": 4, "B": 3, "C": 3, "D": 0}


def test_big_points_german_losers_tied_for_third():
    # A out; B -20 is 2nd -> 3; C -50 and D -50 share 3rd -> 1 each.
    r = score_game(out("A", B=opened(20), C=opened(50), D=opened(50)))
    assert game_big_points(r, Settings(big_point_places=GERMAN)) == {"A": 4, "B": 3, "C": 1, "D": 1}


def test_big_points_german_all_losers_tied():
    # A out; B, C, D all -10 -> all share 2nd -> 3 each.
    r = score_game(out("A", B=opened(10), C=opened(10), D=opened(10)))
    assert game_big_points(r, Settings(big_point_places=GERMAN)) == {"A": 4, "B": 3, "C": 3, "D": 3}


def test_big_points_german_two_pool_winners_push_next_to_third():
    # worked example 2: winners B, C (+106) take place 1 -> 4 each; A (-12) is next but is
    # placed after two winners: 3rd place -> 1; D (-200) 4th -> 0. Nobody gets 3 points.
    r = score_game(pool(A=opened(12), B=opened(7), C=opened(7), D=Rack(opening=POSSIBLE_NOT_DONE)))
    assert game_big_points(r, Settings(big_point_places=GERMAN)) == {"A": 1, "B": 4, "C": 4, "D": 0}


def test_big_points_german_two_pool_winners_unequal_shares_still_equal_points():
    # A 5, B 2, C 2, D 8 -> B 7, C 6 (remainder) but both are winners -> 4 each;
    # A -5 is 3rd -> 1; D -8 4th -> 0.
    r = score_game(pool(A=opened(5), B=opened(2), C=opened(2), D=opened(8)))
    assert game_big_points(r, Settings(big_point_places=GERMAN)) == {"A": 1, "B": 4, "C": 4, "D": 0}


def test_big_points_german_three_pool_winners():
    # A, B, C winners -> 4 each; D 4th -> 0.
    r = score_game(pool(A=opened(1), B=opened(1), C=opened(1), D=opened(14)))
    assert game_big_points(r, Settings(big_point_places=GERMAN)) == {"A": 4, "B": 4, "C": 4, "D": 0}


def test_big_points_german_difference_two_winners_two_tied_losers():
    # difference: A 2, B 2, C 7, D 7 -> C -5, D -5, A +5, B +5. Winners 4 each; C and D
    # share 3rd -> 1 each.
    r = score_game(pool(A=opened(2), B=opened(2), C=opened(7), D=opened(7)), DIFF_S)
    assert r.scores == {"A": 5, "B": 5, "C": -5, "D": -5}
    assert game_big_points(r, Settings(big_point_places=GERMAN)) == {"A": 4, "B": 4, "C": 1, "D": 1}


def test_big_points_german_three_table():
    # B out; A -15 2nd -> 3, C -100 3rd -> 1.
    r = score_game(out("B", ABC, A=opened(15), C=opened(0, 2)))
    assert game_big_points(r, Settings(big_point_places=GERMAN)) == {"A": 3, "B": 4, "C": 1}


def test_big_points_places_list_shorter_than_table():
    r = score_game(out("A", B=opened(23), C=opened(10, 1), D=Rack(opening=NOT_POSSIBLE)))
    # places (5, 2): A 1st 5, B 2nd 2, C and D have no place listed -> 0
    assert game_big_points(r, Settings(big_point_places=(5, 2))) == {"A": 5, "B": 2, "C": 0, "D": 0}
    # places (3,): only the winner scores
    assert game_big_points(r, Settings(big_point_places=(3,))) == {"A": 3, "B": 0, "C": 0, "D": 0}


def test_big_points_places_list_longer_than_table():
    # a 5-entry list at a 3-table: only the first three places are used
    r = score_game(out("C", ABC, A=opened(1), B=opened(2)))
    assert game_big_points(r, Settings(big_point_places=(9, 7, 5, 3, 1))) == {"A": 7, "B": 5, "C": 9}


def test_settings_place_points():
    s = Settings(big_point_places=(4, 3))
    assert [s.place_points(i) for i in range(5)] == [4, 3, 0, 0, 0]


def test_round_big_points_by_small_point_totals():
    # German scheme, round totals A 150, B -20, C -20, D -110: A 1st 4; B, C share 2nd -> 3;
    # D 4th -> 0.
    totals = {"A": 150, "B": -20, "C": -20, "D": -110}
    assert round_big_points(totals, Settings(big_point_places=GERMAN)) == {"A": 4, "B": 3, "C": 3, "D": 0}
    assert round_big_points(totals) == {"A": 1, "B": 0, "C": 0, "D": 0}


def test_round_big_points_tie_at_the_top():
    # A 50, B 50 share 1st -> 4 each (default 1 each); C -40 is 3rd -> 1; D -60 4th -> 0.
    totals = {"A": 50, "B": 50, "C": -40, "D": -60}
    assert round_big_points(totals, Settings(big_point_places=GERMAN)) == {"A": 4, "B": 4, "C": 1, "D": 0}
    assert round_big_points(totals) == {"A": 1, "B": 1, "C": 0, "D": 0}


def round_four_table() -> list[GameResult]:
    """Four scored games of one round at a 4-table (default replace/sum, joker 50)."""
    g1 = score_game(out("A", B=opened(23), C=opened(10, 1), D=Rack(opening=NOT_POSSIBLE)))
    # g1: A +183, B -23, C -60, D -100
    g2 = score_game(pool(A=opened(12), B=opened(7), C=opened(7), D=Rack(opening=POSSIBLE_NOT_DONE)))
    # g2: A -12, B +106, C +106, D -200 (B and C win)
    g3 = score_game(out("D", A=opened(5), B=opened(30), C=opened(0, 1)))
    # g3: A -5, B -30, C -50, D +85
    g4 = score_game(out("B", A=opened(10), C=opened(10), D=opened(40)))
    # g4: A -10, B +60, C -10, D -40
    assert g1.scores == {"A": 183, "B": -23, "C": -60, "D": -100}
    assert g2.scores == {"A": -12, "B": 106, "C": 106, "D": -200}
    assert g3.scores == {"A": -5, "B": -30, "C": -50, "D": 85}
    assert g4.scores == {"A": -10, "B": 60, "C": -10, "D": -40}
    return [g1, g2, g3, g4]


def test_table_round_unit_game_default():
    # small: A 183-12-5-10 = 156; B -23+106-30+60 = 113; C -60+106-50-10 = -14;
    #        D -100-200+85-40 = -255 (sum 0).
    # games won: A 1 (g1), B 2 (g2 shared, g4), C 1 (g2 shared), D 1 (g3).
    # big (1 per game won, shared wins count): same as games won.
    assert table_round(round_four_table()) == {
        "A": {"small_points": 156, "big_points": 1, "games_won": 1},
        "B": {"small_points": 113, "big_points": 2, "games_won": 2},
        "C": {"small_points": -14, "big_points": 1, "games_won": 1},
        "D": {"small_points": -255, "big_points": 1, "games_won": 1},
    }


def test_table_round_unit_game_german():
    # g1: A 4, B 3, C 1, D 0
    # g2: B 4, C 4 (winners), A 1 (3rd after two winners), D 0
    # g3: D 4, A 3 (-5), B 1 (-30), C 0 (-50)
    # g4: B 4, A and C tie at -10 -> 3 each, D 0
    # totals: A 4+1+3+3 = 11, B 3+4+1+4 = 12, C 1+4+0+3 = 8, D 0+0+4+0 = 4
    table = table_round(round_four_table(), Settings(big_point_places=GERMAN))
    assert {s: v["big_points"] for s, v in table.items()} == {"A": 11, "B": 12, "C": 8, "D": 4}
    assert {s: v["games_won"] for s, v in table.items()} == {"A": 1, "B": 2, "C": 1, "D": 1}


def test_table_round_unit_round():
    # small totals A 156 > B 113 > C -14 > D -255
    games = round_four_table()
    default_round = table_round(games, Settings(big_point_unit=UNIT_ROUND))
    assert {s: v["big_points"] for s, v in default_round.items()} == {"A": 1, "B": 0, "C": 0, "D": 0}
    german_round = table_round(games, Settings(big_point_unit=UNIT_ROUND, big_point_places=GERMAN))
    assert {s: v["big_points"] for s, v in german_round.items()} == {"A": 4, "B": 3, "C": 1, "D": 0}
    # games won and small points do not depend on the unit
    assert {s: v["games_won"] for s, v in german_round.items()} == {"A": 1, "B": 2, "C": 1, "D": 1}
    assert {s: v["small_points"] for s, v in german_round.items()} == {"A": 156, "B": 113, "C": -14, "D": -255}


def test_table_round_three_table_tied_round_totals():
    # g1: A out, B -10, C -10 -> A +20
    # g2: B out, A -10, C -10 -> B +20
    # g3: C out, A -5, B -5 -> C +10
    # small: A 20-10-5 = 5, B -10+20-5 = 5, C -10-10+10 = -10.
    games = [
        score_game(out("A", ABC, B=opened(10), C=opened(10))),
        score_game(out("B", ABC, A=opened(10), C=opened(10))),
        score_game(out("C", ABC, A=opened(5), B=opened(5))),
    ]
    # unit round: A and B tie on 5 and share 1st; C 3rd.
    r = table_round(games, Settings(big_point_unit=UNIT_ROUND))
    assert r == {
        "A": {"small_points": 5, "big_points": 1, "games_won": 1},
        "B": {"small_points": 5, "big_points": 1, "games_won": 1},
        "C": {"small_points": -10, "big_points": 0, "games_won": 1},
    }
    german = table_round(games, Settings(big_point_unit=UNIT_ROUND, big_point_places=GERMAN))
    assert {s: v["big_points"] for s, v in german.items()} == {"A": 4, "B": 4, "C": 1}
    # unit game, German: every game 4 for the winner, 3 each for the two tied losers
    # -> 4 + 3 + 3 = 10 each.
    per_game = table_round(games, Settings(big_point_places=GERMAN))
    assert {s: v["big_points"] for s, v in per_game.items()} == {"A": 10, "B": 10, "C": 10}
    # unit game, default: one game won each
    assert {s: v["big_points"] for s, v in table_round(games).items()} == {"A": 1, "B": 1, "C": 1}


def test_table_round_games_won_counts_shared_wins():
    # g1 all tied (everyone wins), g2 A and B tie, g3 C out.
    games = [
        score_game(pool(ABC, A=opened(4), B=opened(4), C=opened(4))),
        score_game(pool(ABC, A=opened(4), B=opened(4), C=opened(9))),  # A 5, B 4, C -9
        score_game(out("C", ABC, A=opened(1), B=opened(2))),  # C +3
    ]
    r = table_round(games)
    assert {s: v["games_won"] for s, v in r.items()} == {"A": 2, "B": 2, "C": 2}
    assert {s: v["big_points"] for s, v in r.items()} == {"A": 2, "B": 2, "C": 2}
    # small: A 0+5-1 = 4, B 0+4-2 = 2, C 0-9+3 = -6
    assert {s: v["small_points"] for s, v in r.items()} == {"A": 4, "B": 2, "C": -6}


def test_table_round_no_games():
    assert table_round([]) == {}
    assert table_round([], Settings(big_point_unit=UNIT_ROUND)) == {}


# ---------------------------------------------------------------------------------------
# Validation (SPEC §3 "Validation")
# ---------------------------------------------------------------------------------------

GOOD = {"B": opened(1), "C": opened(2), "D": opened(3)}


@pytest.mark.parametrize(
    "game, code, path",
    [
        # pool exhausted needs a rack for every seat
        (pool(A=opened(1), B=opened(2), C=opened(3)), "rack_missing", "racks.D"),
        (pool(B=opened(1), C=opened(2), D=opened(3)), "rack_missing", "racks.A"),
        (pool(), "rack_missing", "racks.A"),
        # a normal end needs a rack for every loser
        (out("A", B=opened(1), C=opened(2)), "rack_missing", "racks.D"),
        (out("B", ABC, A=opened(1)), "rack_missing", "racks.C"),
        # no rack for the winner
        (out("A", A=opened(0), **GOOD), "winner_has_rack", "racks.A"),
        # winner must sit at the table
        (out("D", ABC, A=opened(1), B=opened(2), C=opened(3)), "winner_not_at_table", "winner"),
        (out("E", A=opened(1), B=opened(2), C=opened(3), D=opened(4)), "winner_not_at_table", "winner"),
        (out("", **GOOD), "winner_not_at_table", "winner"),
        # racks only for seats at the table
        (out("A", ABC, B=opened(1), C=opened(2), D=opened(3)), "seat_not_at_table", "racks.D"),
        (pool(ABC, A=opened(1), B=opened(2), C=opened(3), D=opened(3)), "seat_not_at_table", "racks.D"),
        (out("A", B=opened(1), C=opened(2), D=opened(3), E=opened(4)), "seat_letter", "racks.E"),
        # seat letters A–D
        (out("A", ("A", "B", "E"), B=opened(1), E=opened(2)), "seat_letter", "seats"),
        (out("a", ("a", "b", "c"), b=opened(1), c=opened(2)), "seat_letter", "seats"),
        # duplicated seats
        (out("A", ("A", "B", "B", "C"), B=opened(1), C=opened(2)), "seat_twice", "seats"),
        (out("A", ("A", "A", "B"), B=opened(1)), "seat_twice", "seats"),
        # table size 3 or 4
        (out("A", ("A", "B"), B=opened(1)), "table_size", "seats"),
        (pool(()), "table_size", "seats"),
        (pool(("A",), A=opened(1)), "table_size", "seats"),
        # tiles: whole number 0–728
        (out("A", B=Rack(tiles=-3), C=opened(), D=opened()), "tiles_range", "racks.B.tiles"),
        (out("A", B=opened(), C=Rack(tiles=729), D=opened()), "tiles_range", "racks.C.tiles"),
        (out("A", B=opened(), C=opened(), D=Rack(tiles=10_000)), "tiles_range", "racks.D.tiles"),
        (out("A", B=Rack(tiles=12.5), C=opened(), D=opened()), "tiles_not_integer", "racks.B.tiles"),
        (out("A", B=Rack(tiles=12.0), C=opened(), D=opened()), "tiles_not_integer", "racks.B.tiles"),
        (out("A", B=Rack(tiles="12"), C=opened(), D=opened()), "tiles_not_integer", "racks.B.tiles"),
        (out("A", B=Rack(tiles=None), C=opened(), D=opened()), "tiles_not_integer", "racks.B.tiles"),
        (out("A", B=Rack(tiles=True), C=opened(), D=opened()), "tiles_not_integer", "racks.B.tiles"),
        (out("A", B=Rack(tiles=False), C=opened(), D=opened()), "tiles_not_integer", "racks.B.tiles"),
        # jokers 0–2 per rack
        (out("A", B=opened(), C=Rack(jokers=3), D=opened()), "jokers_range", "racks.C.jokers"),
        (out("A", B=opened(), C=Rack(jokers=-1), D=opened()), "jokers_range", "racks.C.jokers"),
        (out("A", B=opened(), C=Rack(jokers=True), D=opened()), "jokers_not_integer", "racks.C.jokers"),
        (out("A", B=opened(), C=Rack(jokers=1.0), D=opened()), "jokers_not_integer", "racks.C.jokers"),
        # at most 2 jokers per game at a table
        (out("A", B=opened(0, 2), C=opened(0, 1), D=opened()), "jokers_per_game", "racks"),
        (pool(A=opened(0, 1), B=opened(0, 1), C=opened(0, 1), D=opened()), "jokers_per_game", "racks"),
        (pool(A=opened(0, 2), B=opened(0, 2), C=opened(), D=opened()), "jokers_per_game", "racks"),
        # opening must be known
        (out("A", B=Rack(opening="closed"), C=opened(), D=opened()), "opening_unknown", "racks.B.opening"),
        (out("A", B=Rack(opening="OPENED"), C=opened(), D=opened()), "opening_unknown", "racks.B.opening"),
        (out("A", B=Rack(opening=None), C=opened(), D=opened()), "opening_unknown", "racks.B.opening"),
        # first_move_case must be a bool
        (out("A", B=Rack(first_move_case="yes"), C=opened(), D=opened()), "first_move_case_not_bool", "racks.B.first_move_case"),
        (out("A", B=Rack(first_move_case=1), C=opened(), D=opened()), "first_move_case_not_bool", "racks.B.first_move_case"),
    ],
)
def test_validation_rejects(game, code, path):
    err = violation(game)
    assert err.code == code
    assert err.path == path
    assert err.message
    assert str(err) == f"{path}: {err.message}"
    assert isinstance(err, ValueError)


def test_tiles_negative_message():
    err = violation(out("A", B=Rack(tiles=-3), C=opened(), D=opened()))
    assert (err.code, err.path, err.message) == ("tiles_range", "racks.B.tiles", "must be 0–728, got -3")
    assert str(err) == "racks.B.tiles: must be 0–728, got -3"
    assert err.params == {"value": -3, "max": 728}


def test_tiles_too_large_message():
    err = violation(out("A", B=Rack(tiles=729), C=opened(), D=opened()))
    assert err.message == "must be 0–728, got 729"
    assert err.params["value"] == 729


def test_jokers_per_game_message():
    err = violation(out("A", B=opened(0, 2), C=opened(0, 1), D=opened()))
    assert err.params == {"value": 3, "max": 2}


def test_rack_missing_names_the_seat():
    err = violation(pool(A=opened(1), B=opened(2), C=opened(3)))
    assert err.params == {"seat": "D"}
    assert "D" in err.message


@pytest.mark.parametrize(
    "seats, codes",
    [
        # A table of 5 cannot be written with distinct letters A–D, so the letter or the
        # duplicate is what gets reported first (either is an acceptable answer on `seats`).
        (("A", "B", "C", "D", "E"), {"table_size", "seat_letter"}),
        (("A", "B", "C", "D", "A"), {"table_size", "seat_twice"}),
    ],
)
def test_validation_table_of_five(seats, codes):
    racks = {s: opened(1) for s in seats if s != "A"}
    err = violation(Game(seats=seats, winner="A", racks=racks))
    assert err.code in codes
    assert err.path == "seats"


@pytest.mark.parametrize(
    "game",
    [
        out("A", B=opened(0), C=opened(0), D=opened(0)),  # tiles 0
        out("A", B=opened(MAX_TILES), C=opened(0), D=opened(0)),  # tiles 728
        out("A", B=opened(0, 2), C=opened(), D=opened()),  # 2 jokers on one rack
        out("A", B=opened(0, 1), C=opened(0, 1), D=opened()),  # 2 jokers across the game
        pool(A=opened(0, 1), B=opened(), C=opened(), D=opened(0, 1)),
        pool(ABC, A=opened(MAX_TILES, 2), B=opened(), C=opened()),
        out("C", ABC, A=opened(5), B=opened(6)),
        out("D", ("B", "C", "D"), B=opened(5), C=opened(6)),  # any three letters
        out("A", B=Rack(tiles=5, opening=DRAWN_LAST_ROUND, first_move_case=True), C=opened(), D=opened()),
    ],
)
def test_validation_accepts_boundaries(game):
    validate_game(game)
    result = score_game(game)
    assert sum(result.scores.values()) == 0


# ---------------------------------------------------------------------------------------
# Keypad racks (tile by tile)
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "faces, expected",
    [
        ([], (0, 0)),
        ([1, 13, JOKER, 5], (19, 1)),  # 1 + 13 + 5 = 19, one joker
        (["J", "J"], (0, 2)),
        ([13, 13, 13, 13, 13, 13, 13, 13], (104, 0)),
        (list(range(1, 14)), (91, 0)),  # 1 + ... + 13 = 91
        (iter([7, "J", 3]), (10, 1)),  # any iterable
    ],
)
def test_keypad_rack(faces, expected):
    assert keypad_rack(faces) == expected


def test_keypad_full_set_is_max_tiles():
    # 104 numbered tiles = 8 copies of 1..13 = 8 x 91 = 728 = MAX_TILES
    assert keypad_rack([face for face in range(1, 14) for _ in range(8)]) == (MAX_TILES, 0)


@pytest.mark.parametrize("face", [0, 14, -1, "x", "j", "5", 5.0, True, False, None])
def test_keypad_rack_rejects_invalid_face(face):
    with pytest.raises(RuleViolation) as info:
        keypad_rack([3, face])
    assert info.value.code == "keypad_face"
    assert info.value.path == "keypad"
    with pytest.raises(RuleViolation) as info:
        validate_keypad_racks({"B": [3, face]})
    assert info.value.code == "keypad_face"


def test_keypad_eight_copies_across_the_game_ok():
    # 3 + 3 + 2 = 8 sevens
    validate_keypad_racks({"A": [7, 7, 7], "B": [7, 7, 7, 1], "C": [7, 7, "J"]})


def test_keypad_nine_copies_rejected():
    # 3 + 3 + 3 = 9 sevens: the ninth appears in C
    with pytest.raises(RuleViolation) as info:
        validate_keypad_racks({"A": [7, 7, 7], "B": [7, 7, 7], "C": [7, 7, 7]})
    assert info.value.code == "keypad_copies"
    assert info.value.path == "racks.C.keypad"
    assert info.value.params["face"] == 7
    assert info.value.params["max"] == 8


def test_keypad_nine_copies_in_one_rack_rejected():
    with pytest.raises(RuleViolation) as info:
        validate_keypad_racks({"D": [13] * 9})
    assert (info.value.code, info.value.path) == ("keypad_copies", "racks.D.keypad")


def test_keypad_full_set_ok():
    # every numbered tile and both jokers, spread over four racks
    everything = [face for face in range(1, 14) for _ in range(8)] + [JOKER, JOKER]
    validate_keypad_racks({s: everything[i::4] for i, s in enumerate(ABCD)})


@pytest.mark.parametrize(
    "racks, path",
    [
        ({"A": ["J"], "B": ["J", 3], "C": ["J"]}, "racks.C.keypad"),
        ({"B": ["J", "J", "J"]}, "racks.B.keypad"),
    ],
)
def test_keypad_three_jokers_rejected(racks, path):
    with pytest.raises(RuleViolation) as info:
        validate_keypad_racks(racks)
    assert info.value.code == "keypad_jokers"
    assert info.value.path == path


def test_keypad_two_jokers_ok():
    validate_keypad_racks({"A": ["J"], "B": [3], "C": ["J", 13]})
    validate_keypad_racks({"A": ["J", "J"]})


def test_keypad_accepts_generators():
    validate_keypad_racks({"A": (f for f in [1, 2, 3]), "B": iter(["J"])})


# ---------------------------------------------------------------------------------------
# Hypothesis: properties over random valid games
# ---------------------------------------------------------------------------------------

FAST = hyp_settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])

settings_strategy = st.builds(
    Settings,
    joker_penalty=st.integers(0, 100),
    opening_penalty_mode=st.sampled_from([REPLACE, ADD]),
    penalty_not_possible=st.integers(0, 500),
    penalty_possible_not_done=st.integers(0, 500),
    penalty_drawn_last_round=st.integers(0, 500),
    penalty_first_move=st.integers(0, 500),
    pool_exhausted_scoring=st.sampled_from([SUM, DIFFERENCE]),
    big_point_unit=st.sampled_from([UNIT_GAME, UNIT_ROUND]),
    # places in non-increasing order (as every real scheme), 1 to 5 entries
    big_point_places=st.lists(st.integers(0, 10), min_size=1, max_size=5).map(lambda p: tuple(sorted(p, reverse=True))),
)

# small tile values make ties (and so shared wins) frequent
tiles_strategy = st.one_of(st.integers(0, 15), st.integers(0, MAX_TILES))


@st.composite
def rack_strategy(draw, max_jokers: int = MAX_JOKERS) -> Rack:
    return Rack(
        tiles=draw(tiles_strategy),
        jokers=draw(st.integers(0, max_jokers)),
        opening=draw(st.sampled_from(OPENINGS)),
        first_move_case=draw(st.booleans()),
    )


@st.composite
def game_strategy(draw, pool_exhausted=None, seats=None) -> Game:
    if seats is None:
        size = draw(st.sampled_from([3, 4]))
        seats = tuple(sorted(draw(st.permutations(SEAT_LETTERS))[:size]))
    if pool_exhausted is None:
        pool_exhausted = draw(st.booleans())
    winner = None if pool_exhausted else draw(st.sampled_from(seats))
    racks = {}
    jokers_left = MAX_JOKERS
    for seat in draw(st.permutations([s for s in seats if s != winner])):
        rack = draw(rack_strategy(max_jokers=jokers_left))
        jokers_left -= rack.jokers
        racks[seat] = rack
    return Game(seats=seats, winner=winner, racks=racks)


@FAST
@given(game_strategy(), settings_strategy)
def test_prop_valid_games_validate_and_are_zero_sum(game, s):
    validate_game(game)
    result = score_game(game, s)
    assert set(result.scores) == set(game.seats)
    assert list(result.scores) == [x for x in SEAT_LETTERS if x in game.seats]
    assert sum(result.scores.values()) == 0
    assert all(isinstance(v, int) for v in result.scores.values())


@FAST
@given(game_strategy(), settings_strategy)
def test_prop_winners_nonnegative_others_nonpositive(game, s):
    result = score_game(game, s)
    assert result.winners, "there is always at least one winner"
    assert result.winners <= set(game.seats)
    for seat, score in result.scores.items():
        if seat in result.winners:
            assert score >= 0
        else:
            assert score <= 0
    if game.winner is not None:
        assert result.winners == {game.winner}
        assert result.scores[game.winner] == sum(rack_minus(r, s) for r in game.racks.values())


@FAST
@given(game_strategy(), settings_strategy)
def test_prop_minus_matches_rack_minus(game, s):
    result = score_game(game, s)
    for seat, rack in game.racks.items():
        assert result.minus[seat] == rack_minus(rack, s) >= 0
        if game.winner is not None:
            assert result.scores[seat] == -rack_minus(rack, s)


@FAST
@given(rack_strategy(), settings_strategy)
def test_prop_rack_minus_definition(rack, s):
    count = rack.tiles + rack.jokers * s.joker_penalty
    flagged = rack.opening != OPENED or rack.first_move_case
    applicable = {
        NOT_POSSIBLE: [s.penalty_not_possible],
        POSSIBLE_NOT_DONE: [s.penalty_possible_not_done],
        DRAWN_LAST_ROUND: [s.penalty_drawn_last_round],
        OPENED: [],
    }[rack.opening] + ([s.penalty_first_move] if rack.first_move_case else [])
    if not flagged:
        expected = count
    elif s.opening_penalty_mode == REPLACE:
        expected = max(applicable)
    else:
        expected = count + max(applicable)
    assert rack_minus(rack, s) == expected


@FAST
@given(game_strategy(pool_exhausted=True), settings_strategy)
def test_prop_pool_exhausted_winners_are_the_minimal_racks(game, s):
    result = score_game(game, s)
    minus = {seat: rack_minus(rack, s) for seat, rack in game.racks.items()}
    lowest = min(minus.values())
    assert result.winners == {seat for seat, m in minus.items() if m == lowest}
    losers = [seat for seat in game.seats if seat not in result.winners]
    for seat in losers:
        if s.pool_exhausted_scoring == SUM:
            assert result.scores[seat] == -minus[seat]
        else:
            assert result.scores[seat] == -(minus[seat] - lowest)
        assert result.scores[seat] < 0
    # winners share equally: shares differ by less than the number of winners, the
    # earliest seat holds the remainder
    ordered = [x for x in SEAT_LETTERS if x in result.winners]
    shares = [result.scores[x] for x in ordered]
    pot = -sum(result.scores[x] for x in losers)
    base, remainder = divmod(pot, len(ordered))
    assert shares == [base + remainder] + [base] * (len(ordered) - 1)
    if not losers:
        assert all(v == 0 for v in result.scores.values())


@FAST
@given(game_strategy(), settings_strategy)
def test_prop_big_points_equal_for_ties(game, s):
    result = score_game(game, s)
    big = game_big_points(result, s)
    assert set(big) == set(game.seats)
    allowed = set(s.big_point_places) | {0}
    assert set(big.values()) <= allowed
    for seat in result.winners:
        assert big[seat] == s.big_point_places[0]
    others = [x for x in game.seats if x not in result.winners]
    for a, b in itertools.combinations(others, 2):
        if result.scores[a] == result.scores[b]:
            assert big[a] == big[b]
        elif result.scores[a] > result.scores[b]:
            assert big[a] >= big[b]  # places are non-increasing
    for a in others:
        assert big[a] <= s.big_point_places[0]
    # the place of a non-winner: number of winners + number of non-winners strictly above
    for a in others:
        place = len(result.winners) + sum(1 for b in others if result.scores[b] > result.scores[a])
        assert big[a] == s.place_points(place)


@FAST
@given(st.dictionaries(st.sampled_from(SEAT_LETTERS), st.integers(-300, 300), min_size=3, max_size=4), settings_strategy)
def test_prop_round_big_points_ties_share_best_place(totals, s):
    big = round_big_points(totals, s)
    for a, b in itertools.combinations(totals, 2):
        if totals[a] == totals[b]:
            assert big[a] == big[b]
        elif totals[a] > totals[b]:
            assert big[a] >= big[b]
    best = max(totals.values())
    assert all(big[x] == s.big_point_places[0] for x in totals if totals[x] == best)


@st.composite
def round_strategy(draw):
    """A round at one table: one game per seat, all with the same seats."""
    size = draw(st.sampled_from([3, 4]))
    seats = SEAT_LETTERS[:size]
    return [draw(game_strategy(seats=seats)) for _ in range(size)]


@hyp_settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(round_strategy(), settings_strategy)
def test_prop_table_round(games, s):
    results = [score_game(g, s) for g in games]
    table = table_round(results, s)
    assert sum(v["small_points"] for v in table.values()) == 0
    assert sum(v["games_won"] for v in table.values()) == sum(len(r.winners) for r in results)
    for seat, v in table.items():
        assert v["small_points"] == sum(r.scores[seat] for r in results)
        assert v["games_won"] == sum(seat in r.winners for r in results)
    if s.big_point_unit == UNIT_ROUND:
        for a, b in itertools.combinations(table, 2):
            if table[a]["small_points"] == table[b]["small_points"]:
                assert table[a]["big_points"] == table[b]["big_points"]
    else:
        for seat in table:
            assert table[seat]["big_points"] == sum(game_big_points(r, s)[seat] for r in results)
        if s.big_point_places[1:] == (0,) * (len(s.big_point_places) - 1):
            # a winner-only scheme: big points = games won x places[0]
            for v in table.values():
                assert v["big_points"] == v["games_won"] * s.big_point_places[0]


def rename(game: Game, mapping: dict[str, str]) -> Game:
    return Game(
        seats=tuple(mapping[x] for x in game.seats),
        winner=None if game.winner is None else mapping[game.winner],
        racks={mapping[k]: v for k, v in game.racks.items()},
    )


@FAST
@given(game_strategy(pool_exhausted=False), settings_strategy, st.data())
def test_prop_renaming_seats_normal_end(game, s, data):
    # any permutation of the four letters (a 3-table may land on any three letters)
    perm = data.draw(st.permutations(SEAT_LETTERS))
    mapping = dict(zip(SEAT_LETTERS, perm))
    before = score_game(game, s)
    after = score_game(rename(game, mapping), s)
    for seat in game.seats:
        assert after.scores[mapping[seat]] == before.scores[seat]
        assert after.minus[mapping[seat]] == before.minus[seat]
    assert after.winners == {mapping[w] for w in before.winners}
    big_before, big_after = game_big_points(before, s), game_big_points(after, s)
    assert all(big_after[mapping[x]] == big_before[x] for x in game.seats)


@FAST
@given(game_strategy(pool_exhausted=True), settings_strategy, st.data())
def test_prop_renaming_seats_pool_exhausted(game, s, data):
    perm = data.draw(st.permutations(game.seats))
    mapping = dict(zip(game.seats, perm))
    before = score_game(game, s)
    after = score_game(rename(game, mapping), s)
    assert after.winners == {mapping[w] for w in before.winners}
    for seat in game.seats:
        assert after.minus[mapping[seat]] == before.minus[seat]
        if seat not in before.winners:
            assert after.scores[mapping[seat]] == before.scores[seat]
    # winners: the pot and the multiset of shares are the same; only who gets the
    # remainder (the earliest winner seat) can change
    assert sorted(after.scores[mapping[w]] for w in before.winners) == sorted(before.scores[w] for w in before.winners)
    ordered_before = [x for x in SEAT_LETTERS if x in before.winners]
    ordered_after = [x for x in SEAT_LETTERS if x in after.winners]
    if [mapping[x] for x in ordered_before] == ordered_after:
        # the renaming keeps the winners' order: identical scores seat by seat
        for seat in game.seats:
            assert after.scores[mapping[seat]] == before.scores[seat]
    big_before, big_after = game_big_points(before, s), game_big_points(after, s)
    assert all(big_after[mapping[x]] == big_before[x] for x in game.seats)


@FAST
@given(game_strategy(), settings_strategy, st.data())
def test_prop_adding_tiles_to_a_loser_never_raises_the_score(game, s, data):
    before_result = score_game(game, s)
    losers = sorted(set(game.racks) - before_result.winners)
    assume(losers)
    seat = data.draw(st.sampled_from(losers))
    base = game.racks[seat]
    rack = Rack(tiles=data.draw(st.integers(0, MAX_TILES - 1)), jokers=base.jokers, opening=OPENED, first_move_case=False)
    extra = data.draw(st.integers(1, MAX_TILES - rack.tiles))
    g1 = Game(seats=game.seats, winner=game.winner, racks={**game.racks, seat: rack})
    g2 = Game(seats=game.seats, winner=game.winner, racks={**game.racks, seat: Rack(tiles=rack.tiles + extra, jokers=rack.jokers)})
    r1, r2 = score_game(g1, s), score_game(g2, s)
    assert r2.scores[seat] <= r1.scores[seat]
    if seat not in r1.winners:
        # a loser stays a loser and loses strictly more (sum: -minus; difference:
        # -(minus - lowest) with the lowest unchanged)
        assert r2.scores[seat] < r1.scores[seat]
    if game.winner is not None:
        # the winner gains exactly what the loser lost
        assert r2.scores[game.winner] - r1.scores[game.winner] == extra


@FAST
@given(game_strategy(pool_exhausted=True), settings_strategy, st.data())
def test_prop_pool_exhausted_any_seat_more_tiles_never_helps(game, s, data):
    # stronger: in a pool-exhausted game, even a winner's score never rises with more tiles
    seat = data.draw(st.sampled_from(game.seats))
    base = game.racks[seat]
    tiles = data.draw(st.integers(0, MAX_TILES - 1))
    extra = data.draw(st.integers(1, MAX_TILES - tiles))
    g1 = Game(seats=game.seats, winner=None, racks={**game.racks, seat: Rack(tiles=tiles, jokers=base.jokers)})
    g2 = Game(seats=game.seats, winner=None, racks={**game.racks, seat: Rack(tiles=tiles + extra, jokers=base.jokers)})
    assert score_game(g2, s).scores[seat] <= score_game(g1, s).scores[seat]


@FAST
@given(game_strategy(), settings_strategy)
def test_prop_replace_mode_ignores_rack_content_of_flagged_racks(game, s):
    # In `replace` mode, changing tiles/jokers on a rack with an opening penalty changes nothing.
    s = dataclasses.replace(s, opening_penalty_mode=REPLACE)
    flagged = [x for x, r in game.racks.items() if r.opening != OPENED or r.first_move_case]
    assume(flagged)
    changed = {x: (Rack(tiles=(r.tiles + 1) % (MAX_TILES + 1), jokers=0, opening=r.opening, first_move_case=r.first_move_case) if x in flagged else r) for x, r in game.racks.items()}
    assert score_game(Game(game.seats, game.winner, changed), s).scores == score_game(game, s).scores


@FAST
@given(game_strategy(), st.sampled_from(["tiles", "jokers"]), st.data())
def test_prop_out_of_range_values_rejected(game, field_name, data):
    seat = data.draw(st.sampled_from(sorted(game.racks)))
    rack = game.racks[seat]
    if field_name == "tiles":
        bad = data.draw(st.one_of(st.integers(max_value=-1), st.integers(min_value=MAX_TILES + 1)))
        broken = Rack(tiles=bad, jokers=rack.jokers, opening=rack.opening, first_move_case=rack.first_move_case)
        code = "tiles_range"
    else:
        bad = data.draw(st.one_of(st.integers(max_value=-1), st.integers(min_value=MAX_JOKERS + 1)))
        broken = Rack(tiles=rack.tiles, jokers=bad, opening=rack.opening, first_move_case=rack.first_move_case)
        code = "jokers_range"
    with pytest.raises(RuleViolation) as info:
        score_game(Game(game.seats, game.winner, {**game.racks, seat: broken}))
    assert info.value.code == code
    assert info.value.path == f"racks.{seat}.{field_name}"


@FAST
@given(st.dictionaries(st.sampled_from(SEAT_LETTERS), st.lists(st.one_of(st.integers(1, 13), st.just(JOKER)), max_size=14), max_size=4))
def test_prop_keypad_racks_fit_the_tile_set(racks):
    faces = [f for rack in racks.values() for f in rack]
    fits = faces.count(JOKER) <= MAX_JOKERS and all(faces.count(n) <= 8 for n in range(1, 14))
    if fits:
        validate_keypad_racks(racks)
        for rack in racks.values():
            tiles, jokers = keypad_rack(rack)
            assert tiles == sum(f for f in rack if f != JOKER)
            assert jokers == rack.count(JOKER)
    else:
        with pytest.raises(RuleViolation) as info:
            validate_keypad_racks(racks)
        assert info.value.code in {"keypad_jokers", "keypad_copies"}
