"""The score of one game (`engine/rules.py`, SPEC §3, regulations §7–§8): the worked
examples, the minus points of a rack, a normal end and a pool-exhausted game.

Every expected number is worked out by hand in the comment beside it.
"""

from __future__ import annotations

import pytest

from engine.rules import (
    ADD,
    DIFFERENCE,
    DRAWN_LAST_ROUND,
    MAX_TILES,
    NOT_POSSIBLE,
    OPENED,
    POSSIBLE_NOT_DONE,
    REPLACE,
    SUM,
    UNIT_GAME,
    Game,
    Rack,
    Settings,
    flat_penalty,
    game_big_points,
    rack_minus,
    score_game,
)
from engine.tests.games import ABC, ABCD, DIFF_S, GERMAN, SUM_S, opened, out, pool

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
        penalty_not_possible=90, penalty_possible_not_done=250, penalty_drawn_last_round=80, penalty_first_move=120
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
    game = out(
        "A", B=opened(23), C=Rack(tiles=10, jokers=1, opening=NOT_POSSIBLE), D=Rack(tiles=4, opening=POSSIBLE_NOT_DONE)
    )
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
    assert (s.penalty_not_possible, s.penalty_possible_not_done, s.penalty_drawn_last_round, s.penalty_first_move) == (
        100,
        200,
        100,
        100,
    )
    assert s.opening_penalty_mode == REPLACE
    assert s.pool_exhausted_scoring == SUM
    assert s.big_point_unit == UNIT_GAME
    assert s.big_point_places == (1, 0, 0, 0)
    assert Settings(big_point_places=[4, 3, 1, 0]).big_point_places == GERMAN  # type: ignore[arg-type]  # list -> tuple


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
    result = score_game(
        out("C", ABC, A=opened(7, 1), B=Rack(tiles=60, opening=DRAWN_LAST_ROUND)), Settings(joker_penalty=30)
    )
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
    game = Game(
        seats=("D", "B", "A", "C"),
        winner="A",
        racks={"D": Rack(opening=NOT_POSSIBLE), "C": opened(10, 1), "B": opened(23)},
    )
    result = score_game(game)
    assert list(result.scores.items()) == [("A", 183), ("B", -23), ("C", -60), ("D", -100)]


# ---------------------------------------------------------------------------------------
# Pool exhausted (regulations §8.4–8.5, SPEC §3 `sum` / `difference`)
# ---------------------------------------------------------------------------------------


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
    game = Game(
        seats=("D", "C", "B", "A"), winner=None, racks={"D": opened(2), "C": opened(7), "B": opened(6), "A": opened(2)}
    )
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
