"""Live rounds keep SPEC §5's order: late arrivals, withdrawals, disqualifications.

The draws are judged by ``counts`` below, written from the raw seatings without any
engine code: repeat pairs, the worst pair, and each player's 3-table seats.
"""

import itertools
import random
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.seating import draw as draw_module
from engine.seating import draw_round
from engine.tests.examples import examples, spread


def counts(rounds):
    """(repeat pairs, worst pair) over ``rounds``: pairs who shared a table more than
    once, and the most tables any pair shared."""
    shared: dict[tuple[int, int], int] = {}
    for seating in rounds:
        for table in seating:
            for pair in itertools.combinations(sorted(table.values()), 2):
                shared[pair] = shared.get(pair, 0) + 1
    return sum(1 for times in shared.values() if times > 1), max(shared.values(), default=0)


def three_table_seats(rounds):
    """Each player's 3-table seats in ``rounds``."""
    seats: dict[int, int] = {}
    for seating in rounds:
        for table in seating:
            for pid in table.values():
                seats[pid] = seats.get(pid, 0) + (len(table) == 3)
    return seats


def unfair_three_seats(history, seating):
    """Players of ``seating`` at a 3-table while a 4-table player has had fewer 3-table seats."""
    before = three_table_seats(history)
    at_four = [before.get(pid, 0) for table in seating if len(table) == 4 for pid in table.values()]
    fewest = min(at_four, default=None)
    return [
        pid
        for table in seating
        if len(table) == 3
        for pid in table.values()
        if fewest is not None and before.get(pid, 0) > fewest
    ]


def swapped(seating, a, b):
    """``seating`` with players a and b in each other's seats."""
    return [{letter: b if pid == a else a if pid == b else pid for letter, pid in table.items()} for table in seating]


def draw_before_the_last_pass(*args, **kwargs):
    """The draw as it was before the last pass (the pass replaced by doing nothing)."""
    with mock.patch.object(draw_module, "settled", lambda ids, seating, *rest: seating):
        return draw_round(*args, **kwargs)


def check_live_round(history, players, seed, remaining_rounds, effort=0.1):
    """Draw a round after ``history`` and check it against the draw before the last pass."""
    seating = draw_round(players, history, seed=seed, remaining_rounds=remaining_rounds, effort=effort)
    before = draw_before_the_last_pass(players, history, seed=seed, remaining_rounds=remaining_rounds, effort=effort)
    assert sorted(pid for table in seating for pid in table.values()) == sorted(players)
    # (repeat pairs, worst pair, unfair 3-table seats) never worse, in this order of priority
    after_key = (*counts(history + [seating]), len(unfair_three_seats(history, seating)))
    before_key = (*counts(history + [before]), len(unfair_three_seats(history, before)))
    assert after_key <= before_key
    # Nobody sits at a 3-table with more 3-table seats than a 4-table player who has had the
    # fewest, unless their swap adds a repeat pair or makes the worst pair worse.
    seats = three_table_seats(history)
    at_four = [pid for table in seating if len(table) == 4 for pid in table.values()]
    fewest = min((seats.get(pid, 0) for pid in at_four), default=0)
    for pid in unfair_three_seats(history, seating):
        for other in at_four:
            if seats.get(other, 0) == fewest:
                assert counts(history + [swapped(seating, pid, other)]) > counts(history + [seating])
    return seating


@pytest.mark.parametrize("remaining_rounds", [1, 2])
def test_the_late_arrival_case_of_the_issue(remaining_rounds):
    # 14 players at tables of 4, 4, 3, 3; player 15 arrives for round 2 (4, 4, 4, 3).
    round1 = [
        {"A": 1, "B": 2, "C": 3, "D": 4},
        {"A": 5, "B": 6, "C": 7, "D": 8},
        {"A": 9, "B": 10, "C": 11},
        {"A": 12, "B": 13, "C": 14},
    ]
    players = list(range(1, 16))
    for seed in range(1, 9):
        seating = draw_round(players, [round1], seed=seed, remaining_rounds=remaining_rounds)
        three = next(set(table.values()) for table in seating if len(table) == 3)
        # By hand: the 3-table's players must have had no 3-table yet (1-8 or 15) and must
        # not have met (at most one of 1-4, one of 5-8): so 15, one of 1-4 and one of 5-8.
        assert 15 in three
        assert len(three & {1, 2, 3, 4}) == len(three & {5, 6, 7, 8}) == 1
        assert counts([round1, seating]) == (0, 1)


@pytest.mark.parametrize("n", spread(range(9, 41)))  # make test: every third size, 9 and 40 included
def test_late_arrivals_and_withdrawals_at_every_size(n):
    players = list(range(1, n + 1))
    history = [draw_round(players, [], seed=n)]
    players = players + [100]  # a late arrival
    history.append(check_live_round(history, players, seed=n + 1, remaining_rounds=3))
    players = [pid for pid in players if pid != 2] + [101, 102]  # a withdrawal, two arrivals
    history.append(check_live_round(history, players, seed=n + 2, remaining_rounds=2))
    players = [pid for pid in players if pid not in (3, 5)]  # a withdrawal and a disqualification
    last = check_live_round(history, players, seed=n + 3, remaining_rounds=1)
    assert draw_round(players, history, seed=n + 3, remaining_rounds=1, effort=0.1) == last  # same seed


@settings(max_examples=examples(20), deadline=None)
@given(
    n=st.integers(min_value=9, max_value=40),
    seed=st.integers(min_value=0, max_value=10**6),
    changes=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=3),
    extra_rounds=st.integers(min_value=0, max_value=3),
)
def test_live_rounds_with_random_arrivals_and_withdrawals(n, seed, changes, extra_rounds):
    rng = random.Random(seed)
    players = list(range(1, n + 1))
    history = [draw_round(players, [], seed=seed)]
    newcomers = itertools.count(1000)
    for number, (arrivals, leaving) in enumerate(changes, start=2):
        gone = set(rng.sample(players, min(leaving, len(players) - 6)))
        if not gone and not arrivals:
            arrivals = 1  # someone arrives or leaves before every round
        players = [pid for pid in players if pid not in gone] + [next(newcomers) for _ in range(arrivals)]
        remaining = len(changes) + 1 - number + extra_rounds
        history.append(check_live_round(history, players, seed=seed + number, remaining_rounds=remaining))
