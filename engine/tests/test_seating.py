"""Tests of the seating engine (plain Python, no database)."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.seating import LETTERS, SeatingError, draw_round, plan_tournament, quality_report, swap_players, table_sizes
from engine.tests.examples import examples


def seated(seating):
    return [pid for table in seating for pid in table.values()]


def check_round(seating, players):
    ids = seated(seating)
    assert sorted(ids) == sorted(players)
    sizes = [len(table) for table in seating]
    assert sizes == table_sizes(len(players))
    for table in seating:
        assert list(table) == list(LETTERS[: len(table)])


@pytest.mark.parametrize(
    "n, sizes",
    [
        (3, [3]),
        (4, [4]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [3, 3, 3]),
        (10, [4, 3, 3]),
        (11, [4, 4, 3]),
        (12, [4, 4, 4]),
        (13, [4, 3, 3, 3]),
        (42, [4] * 9 + [3, 3]),
    ],
)
def test_table_sizes(n, sizes):
    assert table_sizes(n) == sizes
    assert sum(sizes) == n


@pytest.mark.parametrize(
    "n, code", [(0, "too_few_players"), (1, "too_few_players"), (2, "too_few_players"), (5, "five_players")]
)
def test_table_sizes_errors(n, code):
    with pytest.raises(SeatingError) as info:
        table_sizes(n)
    assert info.value.code == code
    assert str(info.value)


def test_draw_round_rejects_five_players_and_bad_method():
    with pytest.raises(SeatingError):
        draw_round([1, 2, 3, 4, 5], [], seed=1)
    with pytest.raises(SeatingError) as info:
        draw_round([1, 2, 3, 4], [], seed=1, method="alphabetical")
    assert info.value.code == "unknown_method"


def test_same_seed_same_result_and_seed_matters():
    players = list(range(1, 21))
    first = draw_round(players, [], seed=42)
    assert draw_round(list(reversed(players)), [], seed=42) == first
    assert draw_round(players, [], seed=43) != first
    second = draw_round(players, [first], seed=7, remaining_rounds=2)
    assert draw_round(players, [first], seed=7, remaining_rounds=2) == second
    assert plan_tournament(13, 3, seed=5, effort=0.1) == plan_tournament(13, 3, seed=5, effort=0.1)


def test_string_ids_and_every_player_seated_once():
    players = [f"p{i}" for i in range(23)]
    history: list[list[dict[str, str]]] = []
    for r in range(4):
        seating = draw_round(players, history, seed=r, remaining_rounds=3 - r)
        check_round(seating, players)
        history.append(seating)


@pytest.mark.parametrize("method", ["mixed", "swiss", "random"])
def test_methods_seat_everyone(method):
    rounds, report = plan_tournament(18, 3, method=method, seed=3, effort=0.2)
    for seating in rounds:
        check_round(seating, list(range(1, 19)))
    assert report["rounds"] == 3


def test_sixteen_players_four_rounds_no_repeats_and_balanced_letters():
    rounds, report = plan_tournament(16, 4, seed=2024)
    assert report["repeat_pairs"] == 0
    assert report["worst_pair"] == 1
    assert report["seat_spread"] <= 1


def test_twenty_four_players_six_rounds_no_repeats():
    rounds, report = plan_tournament(24, 6, seed=1)
    assert report["repeat_pairs"] == 0


def test_history_with_inactive_players_and_late_arrival():
    players = list(range(1, 17))
    history = [draw_round(players, [], seed=1)]
    # player 16 withdraws, 17 and 18 arrive
    active = list(range(1, 16)) + [17, 18]
    seating = draw_round(active, history, seed=2, remaining_rounds=2)
    check_round(seating, active)
    report = quality_report(history + [seating])
    assert report["repeat_pairs"] == 0


def test_swiss_puts_leaders_at_table_one():
    players = list(range(1, 17))
    round1 = [
        {"A": 1, "B": 5, "C": 9, "D": 13},
        {"A": 2, "B": 6, "C": 10, "D": 14},
        {"A": 3, "B": 7, "C": 11, "D": 15},
        {"A": 4, "B": 8, "C": 12, "D": 16},
    ]
    standings = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
    seating = draw_round(players, [round1], seed=9, method="swiss", standings=standings)
    assert set(seating[0].values()) == {1, 2, 3, 4}
    assert quality_report([round1, seating])["repeat_pairs"] == 0
    # groups of the standings, nobody more than one table away from his group
    for j, table in enumerate(seating):
        for pid in table.values():
            assert abs((pid - 1) // 4 - j) <= 1


def test_swiss_moves_a_player_to_avoid_a_repeat():
    players = list(range(1, 13))
    round1 = [{"A": 1, "B": 2, "C": 9, "D": 10}, {"A": 3, "B": 5, "C": 7, "D": 11}, {"A": 4, "B": 6, "C": 8, "D": 12}]
    seating = draw_round(players, [round1], seed=1, method="swiss", standings=players)
    assert 1 in seating[0].values()  # the leader stays at table 1
    # Players 1-8 come from only three round-1 tables, so table 1 must hold a
    # repeat; the plain standings groups would hold five.
    assert quality_report([round1, seating])["repeat_pairs"] < 5


def test_organisations_kept_apart_when_possible():
    players = list(range(1, 17))
    organisations: dict[int, str | None] = {p: f"club{p % 4}" for p in players}  # four clubs of four
    organisations[16] = None
    seating = draw_round(players, [], seed=5, organisations=organisations)
    for table in seating:
        clubs = [organisations[p] for p in table.values() if organisations[p]]
        assert len(clubs) == len(set(clubs))
    history = [seating]
    seating2 = draw_round(players, history, seed=6, organisations=organisations, remaining_rounds=1)
    for table in seating2:
        clubs = [organisations[p] for p in table.values() if organisations[p]]
        assert len(clubs) == len(set(clubs))
    assert quality_report(history + [seating2])["repeat_pairs"] == 0


def test_three_table_rotation_fifteen_players():
    # 15 players: three 4-tables and one 3-table, so 3 players a round at the
    # 3-table: in 4 rounds 12 different players.
    rounds, report = plan_tournament(15, 4, seed=11)
    at_three = [pid for seating in rounds for table in seating if len(table) == 3 for pid in table.values()]
    assert len(at_three) == 12
    assert len(set(at_three)) == 12
    assert report["three_table_repeats"] == 0
    assert report["repeat_pairs"] == 0


def test_three_table_counts_thirteen_players():
    # 13 players: one 4-table and three 3-tables (nine 3-table seats a round).
    rounds, report = plan_tournament(13, 4, seed=11, effort=0.2)
    assert report["repeat_pairs"] == 0
    counts = sorted(p["three_tables"] for p in report["players"])
    assert sum(counts) == 36


def test_quality_report_hand_made():
    rounds = [
        [{"A": 1, "B": 2, "C": 3, "D": 4}, {"A": 5, "B": 6, "C": 7}],
        [{"A": 1, "B": 2, "C": 5, "D": 6}, {"A": 3, "B": 4, "C": 7}],
        [{"A": 2, "B": 1, "C": 6, "D": 7}, {"A": 3, "B": 4, "C": 5}],
    ]
    report = quality_report(rounds)
    assert report["rounds"] == 3
    # 1-2 and 3-4 met in every round; 1-6, 2-6, 5-6 and 6-7 twice
    assert report["pairs"] == [
        {"pair": [1, 2], "count": 3},
        {"pair": [3, 4], "count": 3},
        {"pair": [1, 6], "count": 2},
        {"pair": [2, 6], "count": 2},
        {"pair": [5, 6], "count": 2},
        {"pair": [6, 7], "count": 2},
    ]
    assert report["repeat_pairs"] == 6
    assert report["worst_pair"] == 3
    # Round 2: 7 (one 3-table already) at the 3-table while 1 and 2 (none) sit
    # at the 4-table.  Round 3: 3, 4 and 5 (one each) while 1 and 2 (none) do.
    assert report["three_table_repeat_seats"] == [
        {"round": 2, "player": 7},
        {"round": 3, "player": 3},
        {"round": 3, "player": 4},
        {"round": 3, "player": 5},
    ]
    assert report["three_table_repeats"] == 4
    by_player = {p["player"]: p for p in report["players"]}
    assert by_player[1]["seats"] == {"A": 2, "B": 1, "C": 0, "D": 0}
    assert by_player[1]["spread"] == 2
    assert by_player[3]["three_tables"] == 2
    assert by_player[6]["seats"] == {"A": 0, "B": 1, "C": 1, "D": 1}
    assert by_player[6]["spread"] == 1
    assert by_player[7]["seats"] == {"A": 0, "B": 0, "C": 2, "D": 1}
    assert by_player[7]["spread"] == 2  # sat at a 4-table, so D counts
    assert report["seat_spread"] == 2
    json.dumps(report)


def test_quality_report_empty_and_string_ids():
    assert quality_report([])["worst_pair"] == 0
    report = quality_report([[{"A": "b", "B": "a", "C": "c"}], [{"A": "a", "B": "b", "C": "d"}]])
    assert report["pairs"] == [{"pair": ["a", "b"], "count": 2}]


def test_swap_players():
    seating = [{"A": 1, "B": 2, "C": 3, "D": 4}, {"A": 5, "B": 6, "C": 7}]
    swapped = swap_players(seating, 2, 7)
    assert swapped == [{"A": 1, "B": 7, "C": 3, "D": 4}, {"A": 5, "B": 6, "C": 2}]
    assert seating[0]["B"] == 2  # the original is unchanged
    assert swap_players(seating, 1, 4) == [{"A": 4, "B": 2, "C": 3, "D": 1}, seating[1]]
    with pytest.raises(SeatingError):
        swap_players(seating, 1, 99)
    with pytest.raises(SeatingError):
        swap_players(seating, 1, 1)


def test_continued_plan_survives_a_manual_swap():
    players = list(range(1, 21))
    history = [draw_round(players, [], seed=1)]
    second = draw_round(players, history, seed=2, remaining_rounds=2)
    history.append(swap_players(second, 1, 2))
    third = draw_round(players, history, seed=3, remaining_rounds=1)
    check_round(third, players)


@settings(max_examples=examples(40), deadline=None)
@given(
    n=st.integers(min_value=3, max_value=60).filter(lambda n: n != 5),
    seed=st.integers(min_value=0, max_value=10**9),
    rounds=st.integers(min_value=1, max_value=3),
    method=st.sampled_from(["mixed", "swiss", "random"]),
)
def test_every_round_seats_everyone(n, seed, rounds, method):
    players = list(range(100, 100 + n))
    rng = random.Random(seed)
    history: list[list[dict[str, int]]] = []
    for r in range(rounds):
        standings = players[:]
        rng.shuffle(standings)
        seating = draw_round(
            players,
            history,
            seed=seed + r,
            method=method,
            standings=standings,
            remaining_rounds=rounds - r - 1,
            effort=0.05,
        )
        check_round(seating, players)
        history.append(seating)
