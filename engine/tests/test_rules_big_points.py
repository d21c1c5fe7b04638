"""Big points and a table's round totals (`engine/rules.py`, SPEC §2 and §4, regulations §8.5
and §9), worked out by hand."""

from __future__ import annotations

from engine.rules import (
    NOT_POSSIBLE,
    POSSIBLE_NOT_DONE,
    UNIT_ROUND,
    GameResult,
    Rack,
    Settings,
    game_big_points,
    round_big_points,
    score_game,
    table_round,
)
from engine.tests.games import ABC, DIFF_S, GERMAN, opened, out, pool

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
