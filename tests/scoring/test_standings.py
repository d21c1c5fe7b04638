"""SPEC §4: standings order, shared ranks, tie decisions, DQ last, the final, query count."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.selectors.standings import compute_standings
from tests.factories import build, out_game, table
from tournament.models import Player

pytestmark = pytest.mark.django_db

POOL_GAME = {
    "number": 1,
    "ending": "pool_exhausted",
    "racks": {
        "A": {"tiles": 12, "jokers": 0, "opening": "opened"},
        "B": {"tiles": 7, "jokers": 0, "opening": "opened"},
        "C": {"tiles": 7, "jokers": 0, "opening": "opened"},
        "D": {"tiles": 0, "jokers": 0, "opening": "possible_not_done"},
    },
}


def round_one(state_2=None):
    # Table 1: SPEC example 1 -> p1 +183, p2 -23, p3 -60, p4 -100.
    # Table 2: SPEC example 2 -> p5 -12, p6 +106, p7 +106, p8 -200 (p6 and p7 both win).
    return {
        "number": 1,
        "tables": [
            table(1, ["p1", "p2", "p3", "p4"], [out_game(1, "A", B=(23, 0), C=(10, 1), D=(0, 0, "not_possible"))]),
            table(2, ["p5", "p6", "p7", "p8"], [POOL_GAME], state=state_2),
        ],
    }


def summary(rows):
    return [(r.player.ext_id, r.rank_label, r.total.big_points, r.total.small_points, r.total.games_won) for r in rows]


def test_order_big_then_small_points_and_shared_ranks():
    tournament = build(8, [round_one()])
    rows = compute_standings(tournament)
    assert summary(rows) == [
        ("p1", "1", 1, 183, 1),
        ("p6", "2–3", 1, 106, 1),
        ("p7", "2–3", 1, 106, 1),
        ("p5", "4", 0, -12, 0),
        ("p2", "5", 0, -23, 0),
        ("p3", "6", 0, -60, 0),
        ("p4", "7", 0, -100, 0),
        ("p8", "8", 0, -200, 0),
    ]
    assert [r.medal for r in rows[:4]] == ["gold", "silver", "silver", None]
    # A final is ahead (the default): its table hands out the medals, so 2–3 is no medal tie yet.
    assert tournament.final and not any(r.unresolved_tie for r in rows)


def test_without_a_final_a_shared_medal_place_waits_for_the_head_referee():
    tournament = build(8, [round_one()], settings={"final": False})
    rows = compute_standings(tournament)
    assert [r.rank_label for r in rows[:4]] == ["1", "2–3", "2–3", "4"]
    assert [r.unresolved_tie for r in rows[:4]] == [False, True, True, False]


def test_only_verified_sheets_count_unless_staff_asks():
    tournament = build(8, [round_one(state_2="submitted")])
    public = {r.player.ext_id: r.total.small_points for r in compute_standings(tournament)}
    staff = {r.player.ext_id: r.total.small_points for r in compute_standings(tournament, verified_only=False)}
    assert public["p6"] == 0 and staff["p6"] == 106


def test_tie_decision_orders_the_tie():
    tournament = build(8, [round_one()], tie_decisions=[{"order": ["p7", "p6"], "reason": "lot"}])
    rows = compute_standings(tournament)
    assert summary(rows)[1:3] == [("p7", "2", 1, 106, 1), ("p6", "3", 1, 106, 1)]
    assert [r.medal for r in rows[1:3]] == ["silver", "bronze"]
    assert not rows[1].unresolved_tie and rows[1].decided_tie


def test_disqualified_players_are_last_without_rank_and_medal():
    tournament = build(8, [round_one()], cards=[{"player": "p1", "round": 1, "colour": "red", "reason": "cheating"}])
    rows = compute_standings(tournament)
    assert summary(rows)[0] == ("p6", "1–2", 1, 106, 1)
    assert summary(rows)[-1] == ("p1", "DQ", 1, 183, 1)
    assert rows[-1].rank is None and rows[-1].medal is None
    assert rows[-1].as_json()["status"] == "disqualified"


def test_withdrawn_players_stay_ranked():
    tournament = build(8, [round_one()])
    Player.objects.filter(ext_id="p1").update(status=Player.Status.WITHDRAWN)
    assert summary(compute_standings(tournament))[0] == ("p1", "1", 1, 183, 1)


def test_final_ranks_finalists_first_then_qualifying_order():
    # Final: p2 (seat D) goes out; A p6 -10, B p7 -20, C p5 -30, D p2 +60.
    final = {
        "number": 2,
        "kind": "final",
        "tables": [table(1, ["p6", "p7", "p5", "p2"], [out_game(1, "D", A=(10, 0), B=(20, 0), C=(30, 0))])],
    }
    tournament = build(8, [round_one(), final])
    rows = compute_standings(tournament)
    assert [(r.player.ext_id, r.rank) for r in rows] == [
        ("p2", 1),
        ("p6", 2),
        ("p7", 3),
        ("p5", 4),
        ("p1", 5),
        ("p3", 6),
        ("p4", 7),
        ("p8", 8),
    ]
    assert rows[0].final.small_points == 60 and rows[0].total.small_points == 60 - 23


def test_final_without_results_keeps_qualifying_order_among_finalists():
    final = {"number": 2, "kind": "final", "state": "started", "tables": [table(1, ["p7", "p6", "p5", "p2"])]}
    rows = compute_standings(build(8, [round_one(), final]))
    # p6 and p7 tie in qualifying (2–3) and in the empty final: they share rank 2.
    assert [(r.player.ext_id, r.rank_label) for r in rows[:5]] == [
        ("p6", "1–2"),
        ("p7", "1–2"),
        ("p5", "3"),
        ("p2", "4"),
        ("p1", "5"),
    ]


def test_big_points_per_round_with_german_places():
    # Two games at one table. Game 1: A out, B -10, C -20, D -30 (A +60).
    # Game 2: B out, A -5, C -50, D -45 (B +100).
    # Round totals: A 55, B 90, C -70, D -75 -> places B 1st (4), A 2nd (3), C 3rd (1), D 4th (0).
    round_ = {
        "number": 1,
        "tables": [
            table(
                1,
                ["p1", "p2", "p3", "p4"],
                [out_game(1, "A", B=(10, 0), C=(20, 0), D=(30, 0)), out_game(2, "B", A=(5, 0), C=(50, 0), D=(45, 0))],
            )
        ],
    }
    settings = {"big_point_unit": "round", "big_point_places": [4, 3, 1, 0]}
    rows = compute_standings(build(4, [round_], settings))
    assert summary(rows) == [
        ("p2", "1", 4, 90, 1),
        ("p1", "2", 3, 55, 1),
        ("p3", "3", 1, -70, 0),
        ("p4", "4", 0, -75, 0),
    ]


def many_rounds(n_players, n_rounds):
    rounds = []
    for number in range(1, n_rounds + 1):
        tables = []
        ids = [f"p{i}" for i in range(1, n_players + 1)]
        shift = number - 1
        ids = ids[shift:] + ids[:shift]
        for t in range(n_players // 4):
            seats = ids[4 * t : 4 * t + 4]
            tables.append(
                table(
                    t + 1,
                    seats,
                    [
                        out_game(
                            g, "ABCD"[g - 1], **{letter: (g + t, 0) for letter in "ABCD" if letter != "ABCD"[g - 1]}
                        )
                        for g in range(1, 5)
                    ],
                )
            )
        rounds.append({"number": number, "tables": tables})
    return rounds


@pytest.mark.parametrize("n_players", [8, 40])
def test_query_count_does_not_grow_with_players(n_players):
    tournament = build(n_players, many_rounds(n_players, 3))
    with CaptureQueriesContext(connection) as queries:
        rows = compute_standings(tournament)
    assert len(rows) == n_players
    assert len(queries) <= 4
