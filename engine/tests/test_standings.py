"""Standings maths (`engine/standings.py`) and discipline (`engine/discipline.py`), SPEC §4 and §7.

Plain data in, rows out: no database. The numbers are worked out by hand in the comments.
"""

import datetime

from hypothesis import given
from hypothesis import strategies as st

from engine import rules
from engine.discipline import ACTIVE, DISQUALIFIED, WITHDRAWN, derived_status, disqualifies
from engine.standings import Entrant, decision_stands, final_places, rank, statuses_as_of, table_totals


def entrant(number, status=ACTIVE):
    return Entrant(
        key=number,
        ext_id=f"p{number}",
        name=f"Gracz {number}",
        organisation=f"Klub {number}",
        start_number=number,
        status=status,
        record=f"record {number}",
    )


def totals(big, small, won):
    return {"big_points": big, "small_points": small, "games_won": won}


def labels(rows):
    return [(row.entrant.ext_id, row.rank_label) for row in rows]


def test_big_points_then_small_points_then_games_won_and_shared_ranks():
    rows = rank(
        [entrant(n) for n in range(1, 6)],
        [
            (1, False, totals(2, 50, 2)),
            (2, False, totals(3, -10, 3)),  # most big points: first despite the small points
            (3, False, totals(2, 50, 1)),  # p1's big and small points, fewer games won: third
            (4, False, totals(2, 80, 2)),  # 2 big points like p1, more small points: second
            (5, False, totals(2, 50, 1)),  # the same as p3 in everything: they share 4th–5th
        ],
        finalists=(),
        decisions=(),
    )
    assert labels(rows) == [("p2", "1"), ("p4", "2"), ("p1", "3"), ("p3", "4–5"), ("p5", "4–5")]
    assert [row.rank for row in rows] == [1, 2, 3, 4, 4]
    assert rows[0].player == "record 2"
    assert rows[0].as_json() == {
        "rank": 1,
        "player_id": "p2",
        "player": "Gracz 2",
        "organisation": "Klub 2",
        "big_points": 3,
        "small_points": -10,
        "games_won": 3,
        "status": "active",
    }


def test_totals_of_several_rounds_add_up():
    rows = rank(
        [entrant(1), entrant(2)],
        [
            (1, False, totals(1, 20, 1)),
            (1, False, totals(0, -15, 0)),  # 1 big, +5 small, 1 won
            (2, False, totals(1, 3, 1)),  # 1 big, +3 small: second on small points
        ],
        finalists=(),
        decisions=(),
    )
    assert labels(rows) == [("p1", "1"), ("p2", "2")]
    assert (rows[0].total.big_points, rows[0].total.small_points, rows[0].total.games_won) == (1, 5, 1)


def test_disqualified_players_come_last_by_name_without_a_rank_or_medal_and_withdrawn_stay_ranked():
    rows = rank(
        [entrant(1, DISQUALIFIED), entrant(2, WITHDRAWN), entrant(3), entrant(4, DISQUALIFIED)],
        [(1, False, totals(9, 900, 9)), (2, False, totals(2, 0, 2)), (3, False, totals(1, 0, 1))],
        finalists=(),
        decisions=(),
    )
    assert labels(rows) == [("p2", "1"), ("p3", "2"), ("p1", "DQ"), ("p4", "DQ")]
    assert rows[2].rank is None and rows[2].medal is None
    assert [row.medal for row in rows[:2]] == ["gold", "silver"]


def test_a_tie_at_a_medal_place_is_flagged_until_a_decision_orders_it():
    players = [entrant(n) for n in range(1, 5)]
    results = [
        (1, False, totals(3, 0, 3)),
        (2, False, totals(2, 0, 2)),
        (3, False, totals(2, 0, 2)),
        (4, False, totals(0, 0, 0)),
    ]
    undecided = rank(players, results, finalists=(), decisions=())
    assert labels(undecided) == [("p1", "1"), ("p2", "2–3"), ("p3", "2–3"), ("p4", "4")]
    assert [row.unresolved_tie for row in undecided] == [False, True, True, False]

    decided = rank(players, results, finalists=(), decisions=[["p3", "p2"]])
    assert labels(decided) == [("p1", "1"), ("p3", "2"), ("p2", "3"), ("p4", "4")]
    assert [row.decided_tie for row in decided] == [False, True, True, False]
    assert [row.decided_label for row in decided] == ["", "2–3", "2–3", ""]
    assert not any(row.unresolved_tie for row in decided)


def test_with_a_final_ahead_a_qualifying_tie_at_places_1_to_3_is_no_medal_tie():
    # p2 and p3 share places 2–3 after the qualifying rounds; the final will hand out the medals.
    players = [entrant(n) for n in range(1, 6)]
    qualifying = [
        (1, False, totals(3, 0, 3)),
        (2, False, totals(2, 0, 2)),
        (3, False, totals(2, 0, 2)),
        (4, False, totals(1, 0, 1)),
        (5, False, totals(0, 0, 0)),
    ]
    before_the_final = rank(players, qualifying, finalists=(), decisions=(), final_planned=True)
    assert labels(before_the_final) == [("p1", "1"), ("p2", "2–3"), ("p3", "2–3"), ("p4", "4"), ("p5", "5")]
    assert not any(row.unresolved_tie for row in before_the_final)

    # At the final p1 and p4 both score 1 big point and +10: they share place 2 of the final
    # only if the qualifying rank did not order them, and it does (p1 1st, p4 4th): no tie.
    final = [
        (1, True, totals(1, 10, 1)),
        (2, True, totals(2, 20, 2)),
        (3, True, totals(0, -30, 0)),
        (4, True, totals(1, 10, 1)),
    ]
    after_the_final = rank(players, qualifying + final, finalists=(1, 2, 3, 4), decisions=(), final_planned=True)
    assert labels(after_the_final)[:4] == [("p2", "1"), ("p1", "2"), ("p4", "3"), ("p3", "4")]
    assert not any(row.unresolved_tie for row in after_the_final)


def test_a_decision_that_names_only_part_of_a_tie_changes_nothing():
    players = [entrant(n) for n in range(1, 4)]
    results = [(n, False, totals(1, 0, 1)) for n in range(1, 4)]
    rows = rank(players, results, finalists=(), decisions=[["p3", "p2"]])
    assert labels(rows) == [("p1", "1–3"), ("p2", "1–3"), ("p3", "1–3")]


def test_a_decision_stands_while_its_players_are_tied_with_one_another_and_nobody_else():
    players = [entrant(n) for n in range(1, 5)]
    tied = [
        (1, False, totals(3, 0, 3)),
        (2, False, totals(2, 5, 2)),
        (3, False, totals(2, 5, 2)),
        (4, False, totals(0, 0, 0)),
    ]
    assert decision_stands(rank(players, tied, finalists=(), decisions=[["p3", "p2"]]), ["p3", "p2"])
    # a changed result: p2 now has more small points than p3, nobody is tied any more
    apart = [*tied[:1], (2, False, totals(2, 9, 2)), *tied[2:]]
    assert not decision_stands(rank(players, apart, finalists=(), decisions=[["p3", "p2"]]), ["p3", "p2"])
    # p4 joins the tie: the decision names only part of it
    wider = [*tied[:3], (4, False, totals(2, 5, 2))]
    assert not decision_stands(rank(players, wider, finalists=(), decisions=()), ["p3", "p2"])
    # one of two disqualified: nobody left to order
    dq = [entrant(1), entrant(2, DISQUALIFIED), entrant(3), entrant(4)]
    assert not decision_stands(rank(dq, tied, finalists=(), decisions=()), ["p3", "p2"])


def test_a_decision_on_the_last_seat_of_the_final_stands_on_the_qualifying_totals():
    players = [entrant(n) for n in range(1, 7)]
    qualifying = [
        (1, False, totals(5, 0, 5)),
        (2, False, totals(4, 0, 4)),
        (3, False, totals(3, 0, 3)),
        (4, False, totals(2, 0, 2)),
        (5, False, totals(2, 0, 2)),
        (6, False, totals(0, 0, 0)),
    ]
    final = [(n, True, totals(4 - n, 0, 4 - n)) for n in (1, 2, 3, 4)]  # p4 won the seat by lot, p5 did not
    rows = rank(players, qualifying + final, finalists={1, 2, 3, 4}, decisions=[["p4", "p5"]])
    assert decision_stands(rows, ["p4", "p5"])
    # two finalists tied in the final and in qualifying: a medal tie, the final's points count too
    medal = [(n, False, totals(2, 0, 2)) for n in (1, 2, 3, 4)] + [(n, True, totals(1, 0, 1)) for n in (1, 2)]
    rows = rank(
        players, medal + [(3, True, totals(0, 0, 0)), (4, True, totals(0, 0, 0))], finalists={1, 2, 3, 4}, decisions=()
    )
    assert decision_stands(rows, ["p2", "p1"])
    rows = rank(
        players,
        medal + [(3, True, totals(0, 0, 0)), (4, True, totals(0, 0, 0)), (1, True, totals(0, 5, 0))],
        finalists={1, 2, 3, 4},
        decisions=(),
    )
    assert not decision_stands(rows, ["p2", "p1"])


def test_a_tie_below_the_medals_is_not_flagged():
    rows = rank(
        [entrant(n) for n in range(1, 6)],
        [(1, False, totals(4, 0, 4)), (2, False, totals(3, 0, 3)), (3, False, totals(2, 0, 2))],
        finalists=(),
        decisions=(),
    )
    assert labels(rows)[3:] == [("p4", "4–5"), ("p5", "4–5")]
    assert not any(row.unresolved_tie for row in rows)


def test_the_final_ranks_its_players_first_then_the_rest_in_qualifying_order():
    players = [entrant(n) for n in range(1, 7)]
    qualifying = [(n, False, totals(10 - n, 0, 10 - n)) for n in range(1, 7)]  # qualifying order p1 … p6
    final = [
        (1, True, totals(1, -20, 1)),  # final: 1 big point
        (2, True, totals(2, 30, 2)),  # 2 big points: champion
        (3, True, totals(1, -20, 1)),  # like p1 in the final: the qualifying rank decides, p1 before p3
        (4, True, totals(0, 10, 0)),
    ]
    rows = rank(players, qualifying + final, finalists={1, 2, 3, 4}, decisions=())
    assert labels(rows) == [("p2", "1"), ("p1", "2"), ("p3", "3"), ("p4", "4"), ("p5", "5"), ("p6", "6")]
    # the total adds qualifying and final: p2 had 8 big points, then 2 in the final; the row
    # shows (and is placed by) the final's alone
    assert rows[0].total.big_points == 10
    assert [row.points.big_points for row in rows] == [2, 1, 1, 0, 5, 4]
    assert [row.in_final for row in rows] == [True] * 4 + [False] * 2
    assert final_places(rows) == 4


def test_finalists_without_results_keep_their_qualifying_order():
    players = [entrant(n) for n in range(1, 6)]
    qualifying = [(n, False, totals(10 - n, 0, 0)) for n in range(1, 6)]
    rows = rank(players, qualifying, finalists={1, 2, 3, 4}, decisions=())
    assert labels(rows) == [("p1", "1"), ("p2", "2"), ("p3", "3"), ("p4", "4"), ("p5", "5")]
    assert rows[0].final is not None and rows[4].final is None
    assert final_places(rows) == 4 and final_places(rows[4:]) == 0


def final_after_a_tie_at_the_cut(decisions):
    """Qualifying: p1 3 big points, p2 2, p3 1 (+10), p4 and p5 1 (+5) each: tied at 4–5; p6 0.
    The head referee put p4 in the final (`decisions`), which p4 won: 2 big points."""
    players = [entrant(n) for n in range(1, 7)]
    qualifying = [
        (1, False, totals(3, 0, 3)),
        (2, False, totals(2, 0, 2)),
        (3, False, totals(1, 10, 1)),
        (4, False, totals(1, 5, 1)),
        (5, False, totals(1, 5, 1)),
        (6, False, totals(0, 0, 0)),
    ]
    final = [
        (4, True, totals(2, 30, 2)),
        (1, True, totals(1, 0, 1)),
        (2, True, totals(1, -10, 1)),
        (3, True, totals(0, -20, 0)),
    ]
    return rank(players, qualifying + final, finalists={1, 2, 3, 4}, decisions=decisions)


def test_a_decision_at_the_last_seat_of_the_final_marks_the_player_left_out_not_the_medallist():
    rows = final_after_a_tie_at_the_cut([["p4", "p5"]])
    assert labels(rows) == [("p4", "1"), ("p1", "2"), ("p2", "3"), ("p3", "4"), ("p5", "5"), ("p6", "6")]
    # p4's gold came from the final; p5 is 5th because the decision gave the seat to p4
    assert [row.decided_label for row in rows] == ["", "", "", "", "4–5", ""]
    assert not any(row.unresolved_tie for row in rows)


def test_a_finalists_json_row_shows_the_final_and_carries_both_parts():
    rows = final_after_a_tie_at_the_cut([["p4", "p5"]])
    # p4: qualifying 1 big, +5, 1 won, place 4 by the lot over p5; the final 2 big, +30, 2 won: gold.
    # The top-level figures are the final's (they place p4, as every output shows them).
    assert rows[0].as_json() == {
        "rank": 1,
        "player_id": "p4",
        "player": "Gracz 4",
        "organisation": "Klub 4",
        "big_points": 2,
        "small_points": 30,
        "games_won": 2,
        "status": "active",
        "qualifying": {"big_points": 1, "small_points": 5, "games_won": 1, "rank": 4},
        "final": {"big_points": 2, "small_points": 30, "games_won": 2},
    }
    assert (rows[0].qualifying_rank_label, rows[0].qualifying_decided_label, rows[0].decided_label) == ("4", "4–5", "")
    assert rows[0].decided_by == ("p4", "p5")
    # p5, left out of the final by the lot: qualifying figures, no parts
    assert rows[4].as_json() == {
        "rank": 5,
        "player_id": "p5",
        "player": "Gracz 5",
        "organisation": "Klub 5",
        "big_points": 1,
        "small_points": 5,
        "games_won": 1,
        "status": "active",
    }
    assert (rows[4].qualifying_rank_label, rows[4].qualifying_decided_label, rows[4].decided_by) == (
        "5",
        "4–5",
        ("p4", "p5"),
    )
    undecided = final_after_a_tie_at_the_cut([])
    assert undecided[0].qualifying_rank_label == "4–5" and undecided[0].as_json()["qualifying"]["rank"] == 4
    assert undecided[0].qualifying_decided_places is None and undecided[0].decided_by is None


def test_a_decision_that_breaks_a_tie_in_the_final_names_the_final_places():
    # p1 and p2 share qualifying 1–2; in the final both score 1 big point and +5: the final's own
    # points tie and so do their qualifying places, so they share 2–3 until the head referee decides
    players = [entrant(n) for n in range(1, 6)]
    qualifying = [
        (1, False, totals(3, 0, 3)),
        (2, False, totals(3, 0, 3)),
        (3, False, totals(2, 0, 2)),
        (4, False, totals(1, 0, 1)),
        (5, False, totals(0, 0, 0)),
    ]
    final = [
        (3, True, totals(2, 20, 2)),
        (1, True, totals(1, 5, 1)),
        (2, True, totals(1, 5, 1)),
        (4, True, totals(0, -30, 0)),
    ]
    undecided = rank(players, qualifying + final, finalists={1, 2, 3, 4}, decisions=())
    assert labels(undecided) == [("p3", "1"), ("p1", "2–3"), ("p2", "2–3"), ("p4", "4"), ("p5", "5")]
    assert [row.unresolved_tie for row in undecided] == [False, True, True, False, False]
    decided = rank(players, qualifying + final, finalists={1, 2, 3, 4}, decisions=[["p2", "p1"]])
    assert labels(decided) == [("p3", "1"), ("p2", "2"), ("p1", "3"), ("p4", "4"), ("p5", "5")]
    assert [row.decided_label for row in decided] == ["", "2–3", "2–3", "", ""]


def test_a_decision_whose_tie_the_final_settled_marks_nobody():
    # p1 and p2 tied at qualifying 1–2 and the head referee decided; the final then placed them
    # apart by its own points, so the decision placed nobody
    players = [entrant(n) for n in range(1, 5)]
    qualifying = [
        (1, False, totals(3, 0, 3)),
        (2, False, totals(3, 0, 3)),
        (3, False, totals(2, 0, 2)),
        (4, False, totals(1, 0, 1)),
    ]
    final = [
        (2, True, totals(2, 20, 2)),
        (1, True, totals(1, 5, 1)),
        (3, True, totals(1, -5, 1)),
        (4, True, totals(0, -20, 0)),
    ]
    rows = rank(players, qualifying + final, finalists={1, 2, 3, 4}, decisions=[["p1", "p2"]])
    assert labels(rows) == [("p2", "1"), ("p1", "2"), ("p3", "3"), ("p4", "4")]
    assert not any(row.decided_tie for row in rows)


def test_a_decision_below_the_final_names_its_places():
    players = [entrant(n) for n in range(1, 8)]
    qualifying = [(n, False, totals(10 - n, 0, 0)) for n in range(1, 5)] + [
        (5, False, totals(2, 0, 2)),
        (6, False, totals(2, 0, 2)),
        (7, False, totals(0, 0, 0)),
    ]
    final = [(n, True, totals(n % 2, 0, n % 2)) for n in range(1, 5)]
    rows = rank(players, qualifying + final, finalists={1, 2, 3, 4}, decisions=[["p6", "p5"]])
    assert labels(rows)[4:] == [("p6", "5"), ("p5", "6"), ("p7", "7")]
    assert [row.decided_label for row in rows] == ["", "", "", "", "5–6", "5–6", ""]


def test_table_totals_of_two_games_at_a_four_table():
    # game 1: A went out; B 23, C 10 + a joker (60), D could not lay out (100) → A +183
    # game 2: pool exhausted; A 12, B 7, C 7, D could but did not (200) → B and C +106 each
    games = [
        ({"A": 183, "B": -23, "C": -60, "D": -100}, ["A"]),
        ({"A": -12, "B": 106, "C": 106, "D": -200}, ["B", "C"]),
    ]
    seats = table_totals({"t1": games}, rules.Settings())
    assert seats[("t1", "A")] == totals(1, 171, 1)
    assert seats[("t1", "B")] == totals(1, 83, 1)
    assert seats[("t1", "C")] == totals(1, 46, 1)
    assert seats[("t1", "D")] == totals(0, -300, 0)


def test_table_totals_per_round_with_german_places():
    # per round: small points A +50, B +10, C −20, D −40 → places 1–4 → 4, 3, 1, 0 big points
    games = [({"A": 80, "B": -10, "C": -30, "D": -40}, ["A"]), ({"A": -30, "B": 20, "C": 10, "D": 0}, ["B"])]
    settings = rules.Settings(big_point_unit=rules.UNIT_ROUND, big_point_places=(4, 3, 1, 0))
    seats = table_totals({1: games}, settings)
    assert [seats[(1, letter)]["big_points"] for letter in "ABCD"] == [4, 3, 1, 0]


def test_statuses_after_a_frozen_round():
    later_start = datetime.datetime(2026, 2, 10, 12, 0)
    before, after = later_start - datetime.timedelta(hours=1), later_start + datetime.timedelta(hours=1)
    statuses = {1: DISQUALIFIED, 2: DISQUALIFIED, 3: ACTIVE, 4: WITHDRAWN, 5: DISQUALIFIED}
    cards = [
        (1, "yellow", 1, before),
        (1, "yellow", 3, after),  # second yellow in round 3: active after round 2
        (2, "red", None, before),  # a red card before round 3 began: disqualified then already
        (3, "yellow", 2, before),
        (3, "yellow", None, before),  # two yellows by then: disqualified then
        (4, "warning", 1, before),  # a warning changes nothing
    ]  # player 5 was disqualified by the head referee without a card: that stands
    assert statuses_as_of(statuses, cards, 2, later_start) == {
        1: ACTIVE,
        2: DISQUALIFIED,
        3: DISQUALIFIED,
        4: WITHDRAWN,
        5: DISQUALIFIED,
    }
    # before any later round started, a card without a round counts
    assert statuses_as_of({6: DISQUALIFIED}, [(6, "red", None, after)], 2, None) == {6: DISQUALIFIED}


def test_two_yellows_or_a_red_disqualify_a_warning_never():
    assert not disqualifies({"yellow": 1, "warning": 5})
    assert disqualifies({"yellow": 2})
    assert disqualifies({"red": 1})
    assert derived_status(WITHDRAWN, {"yellow": 1}) == WITHDRAWN
    assert derived_status(WITHDRAWN, {"yellow": 2}) == DISQUALIFIED


scores = st.tuples(st.integers(0, 3), st.integers(-3, 3), st.integers(0, 2))


@given(st.lists(scores, min_size=1, max_size=12))
def test_tied_players_share_the_best_place_and_the_next_place_skips_them(values):
    players = [entrant(n) for n in range(1, len(values) + 1)]
    results = [(n, False, totals(*value)) for n, value in enumerate(values, start=1)]
    rows = rank(players, results, finalists=(), decisions=())
    for row in rows:
        mine = (row.total.big_points, row.total.small_points, row.total.games_won)
        better = sum(1 for value in values if value > mine)
        same = sum(1 for value in values if value == mine)
        assert row.rank == better + 1  # a shared rank is the best place of the group
        assert row.rank_to == better + same
    ranks = [row.rank for row in rows if row.rank is not None]
    assert len(ranks) == len(rows) and ranks == sorted(ranks)
