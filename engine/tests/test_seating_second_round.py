"""The second round keeps SPEC §5's order, judged against what is possible.

After a random round 1 (and perhaps a late arrival), a round-2 draw must have no repeat
pair when a round 2 without one exists, and nobody at a 3-table for the second time when a
round 2 without a repeat pair and without that exists.  Whether such a round exists is
decided exactly, by a flow of players from their round-1 tables to the round-2 tables
(at most one player of a round-1 table at each round-2 table), written here without any
engine code.  When no such round exists, nobody sits at a 3-table twice whose place a
player without a 3-table seat at a 4-table could take without a repeat pair.
"""

import itertools
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.seating import draw_round
from engine.seating.schedules import design_round
from engine.seating.search import continued_round

# Examples of the property test: few in `make test` (derandomized: the same examples every run);
# `make bench-seating-rules` runs many.
EXAMPLES = int(os.environ.get("SEATING_RULE_EXAMPLES", "15"))


def sizes_of(count):
    """Round-2 table sizes: as many 4-tables as possible, the rest 3-tables (SPEC §5)."""
    threes = (4 - count % 4) % 4
    return [4] * ((count - 3 * threes) // 4) + [3] * threes


def max_flow(capacity, source, sink):
    """The largest flow from ``source`` to ``sink`` (``capacity``: dict of dicts)."""
    flow = 0
    while True:
        parents = {source: None}
        queue = [source]
        while queue and sink not in parents:
            node = queue.pop(0)
            for nxt, left in capacity[node].items():
                if left > 0 and nxt not in parents:
                    parents[nxt] = node
                    queue.append(nxt)
        if sink not in parents:
            return flow
        node, path = sink, []
        while parents[node] is not None:
            path.append((parents[node], node))
            node = parents[node]
        step = min(capacity[a][b] for a, b in path)
        for a, b in path:
            capacity[a][b] -= step
            capacity[b].setdefault(a, 0)
            capacity[b][a] += step
        flow += step


def round_two_exists(groups, had_three, fair):
    """Whether a round 2 without a repeat pair exists for players in ``groups`` (their
    round-1 tables; a late arrival is a group of one); with ``fair``, also one in which
    3-table seats go to players without one (``had_three``: groups that had one) first."""
    count = sum(len(group) for group in groups)
    sizes = sizes_of(count)
    fresh = sum(len(group) for i, group in enumerate(groups) if i not in had_three)
    three_seats = sum(size for size in sizes if size == 3)
    capacity: dict[object, dict[object, int]] = {"s": {}, "t": {}}
    for j, size in enumerate(sizes):
        capacity[("table", j)] = {"t": size}
    for i, group in enumerate(groups):
        capacity["s"][("group", i)] = len(group)
        edges: dict[object, int] = {}
        for j, size in enumerate(sizes):
            if fair and size == 3 and i in had_three and fresh >= three_seats:
                continue  # a fresh player must take this seat
            if fair and size == 4 and i not in had_three and fresh < three_seats:
                continue  # every fresh player sits at a 3-table
            edges[("table", j)] = 1
        capacity[("group", i)] = edges
    return max_flow(capacity, "s", "t") == count


def repeat_pairs(round1, round2):
    """Pairs of round 2 who already shared a table in round 1."""
    met = {frozenset(pair) for table in round1 for pair in itertools.combinations(table.values(), 2)}
    return [pair for table in round2 for pair in itertools.combinations(table.values(), 2) if frozenset(pair) in met]


def check_round_two(round1, players, round2, designed=False):
    """Round 2 against round 1 by the rules above; a round of a built-in schedule, which meets
    nobody again in any of the tournament's rounds, only for its repeat pairs."""
    seated = sorted(pid for table in round2 for pid in table.values())
    assert seated == sorted(players)
    assert [len(table) for table in round2] == sizes_of(len(players))
    groups = [list(table.values()) for table in round1]  # nobody has left
    had_three = {i for i, table in enumerate(round1) if len(table) == 3}
    groups += [[pid] for pid in players if not any(pid in group for group in groups)]  # late arrivals
    had = {pid for i in had_three for pid in groups[i]}
    threes = [pid for table in round2 if len(table) == 3 for pid in table.values()]
    fresh_at_four = [pid for table in round2 if len(table) == 4 for pid in table.values() if pid not in had]
    twice = [pid for pid in threes if pid in had] if fresh_at_four else []
    if round_two_exists(groups, had_three, fair=False):
        assert repeat_pairs(round1, round2) == []
    if designed:
        return
    if round_two_exists(groups, had_three, fair=True):
        assert twice == []
    repeats = len(repeat_pairs(round1, round2))
    for pid, other in itertools.product(twice, fresh_at_four):
        exchanged = [{k: other if v == pid else pid if v == other else v for k, v in t.items()} for t in round2]
        assert len(repeat_pairs(round1, exchanged)) > repeats


def draw_two_rounds(count, seed, late, remaining_rounds, effort=0.1):
    """Round 1 of ``count`` players at random, round 2 drawn as the app does; and whether round 2
    follows a built-in zero-repeat schedule of the whole tournament (``engine.seating.designs``)."""
    players = list(range(1, count + 1))
    round1 = draw_round(players, [], seed=seed)
    if late:
        players.append(count + 1)
    round2 = draw_round(players, [round1], seed=seed + 1, remaining_rounds=remaining_rounds, effort=effort)
    designed = design_round(sorted(players), [round1], 2 + remaining_rounds, None, effort) is not None
    return round1, players, round2, designed


# Why round 2 missed (issue 48, point 10): after round 1 a "mixed" draw follows a plan of all the
# rounds still to come (search.continued_round / plan_rounds). The plan's cost counts each
# player's 3-table seats and repeat meetings over all its rounds, not which round gives them, so
# even the fairest planned round could seat someone at a 3-table again. Now the plan's first round
# is mended by the rules-only swaps of settle.py and the rest of the plan is planned after it
# (search._mended), so the later draws still follow one plan.


@pytest.mark.parametrize("seed", [1, 3])
def test_the_round_two_of_18_players_of_the_issue(seed):
    # 18 players: tables of 4, 4, 4, 3, 3 (round-1 4-tables T1-T3, 3-tables U1, U2).  By
    # hand, round 2 needs neither a repeat pair nor a second 3-table seat: each 3-table takes
    # one player of each of T1, T2, T3; the 4-tables take one of U1, one of U2 and two of
    # T1+T2, T2+T3 and T1+T3.  The draw at the app's own effort must find such a round.
    round1, players, round2, _designed = draw_two_rounds(18, seed, late=False, remaining_rounds=3, effort=1.0)
    had = {pid for table in round1 if len(table) == 3 for pid in table.values()}
    assert {pid for table in round2 if len(table) == 3 for pid in table.values()}.isdisjoint(had)
    assert repeat_pairs(round1, round2) == []


def test_the_rounds_after_a_mended_round_two_still_follow_one_plan():
    # Seed 1 is one of the issue's draws whose planned round 2 is mended: the rest of the plan
    # is planned after the mended round, so round 3 still comes from the plan (no fresh plan
    # each round, which unbalanced seat letters and lost built-in schedules).
    round1, players, round2, _designed = draw_two_rounds(18, 1, late=False, remaining_rounds=3, effort=1.0)
    assert continued_round(players, [round1, round2], 5, None, 1.0) is not None


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(min_value=9, max_value=40),
    seed=st.integers(min_value=0, max_value=10**6),
    late=st.booleans(),
    remaining_rounds=st.integers(min_value=0, max_value=5),
)
def test_a_round_two_keeps_the_rules_whenever_it_can(count, seed, late, remaining_rounds):
    check_round_two(*draw_two_rounds(count, seed, late, remaining_rounds))


def test_the_oracle_knows_what_a_round_two_can_avoid():
    # 10, 11 and 12 players sit at three tables, one of 4: four players from three round-1
    # tables, so two of them met before.  13 players (4, 3, 3, 3) can avoid a repeat pair,
    # but not with fair 3-tables: the 4 players without a 3-table seat (one round-1 table)
    # would all sit at the three 3-tables, two of them together.
    for count in (10, 11, 12):
        groups = [list(range(start, start + size)) for start, size in zip((0, 10, 20), sizes_of(count))]
        assert not round_two_exists(groups, {i for i, g in enumerate(groups) if len(g) == 3}, fair=False)
    groups = [[1, 2, 3, 4], [5, 6, 7], [8, 9, 10], [11, 12, 13]]
    assert round_two_exists(groups, {1, 2, 3}, fair=False)
    assert not round_two_exists(groups, {1, 2, 3}, fair=True)
    groups = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15], [16, 17, 18]]
    assert round_two_exists(groups, {3, 4}, fair=True)
