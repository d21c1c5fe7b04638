"""The season's table (`engine/season.py`): points by place, disqualification, best K, order and
shared ranks, worked by hand; and Hypothesis properties of the table."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.discipline import ACTIVE, DISQUALIFIED, WITHDRAWN
from engine.season import Placing, Scoring, TournamentPlacings, mark_counted, season_table

SMALL = Scoring(place_points=(10, 6, 3))


def placings(key, *rows):
    return TournamentPlacings(key, [Placing(person, place, status) for person, place, status in rows])


def table_of(rows):
    """[(rank, person, points, tournaments, wins, best place, [(tournament, place, points, counted)])]."""
    return [
        (
            row.rank,
            row.person,
            row.points,
            row.tournaments,
            row.wins,
            row.best_place,
            [(r.tournament, r.place, r.points, r.counted) for r in row.results],
        )
        for row in rows
    ]


def test_points_by_place_beyond_the_table_zero_and_disqualified_zero():
    assert [SMALL.points_for(place, ACTIVE) for place in (1, 2, 3, 4, 15)] == [10, 6, 3, 0, 0]
    assert SMALL.points_for(1, DISQUALIFIED) == 0
    assert SMALL.points_for(None, DISQUALIFIED) == 0
    assert SMALL.points_for(2, WITHDRAWN) == 6  # a withdrawn player scores by the place the standings give
    assert Scoring().points_for(1, ACTIVE) == 25 and Scoring().points_for(15, ACTIVE) == 1
    assert Scoring().points_for(16, ACTIVE) == 0


def test_a_season_worked_by_hand():
    # T1: ann 1, bob 2, cid 2 (a tie shares the better place), dan DQ.
    # T2: bob 1, ann 3 (withdrawn), dan 2.   T3: cid 1, dan 2, ann 4.
    season = [
        placings("T1", ("ann", 1, ACTIVE), ("bob", 2, ACTIVE), ("cid", 2, ACTIVE), ("dan", None, DISQUALIFIED)),
        placings("T2", ("bob", 1, ACTIVE), ("dan", 2, ACTIVE), ("ann", 3, WITHDRAWN)),
        placings("T3", ("cid", 1, ACTIVE), ("dan", 2, ACTIVE), ("ann", 4, ACTIVE)),
    ]
    # ann 10+3+0 = 13, 1 win; bob 6+10 = 16, 1 win; cid 6+10 = 16, 1 win; dan 0+6+6 = 12.
    # bob and cid: equal points, equal wins, equal best place (1): equal, rank 1 shared.
    assert table_of(season_table(season, SMALL)) == [
        (1, "bob", 16, 2, 1, 1, [("T1", 2, 6, True), ("T2", 1, 10, True)]),
        (1, "cid", 16, 2, 1, 1, [("T1", 2, 6, True), ("T3", 1, 10, True)]),
        (3, "ann", 13, 3, 1, 1, [("T1", 1, 10, True), ("T2", 3, 3, True), ("T3", 4, 0, True)]),
        (4, "dan", 12, 3, 0, 2, [("T1", None, 0, True), ("T2", 2, 6, True), ("T3", 2, 6, True)]),
    ]
    # Best 1: ann 10; bob 10; cid 10 (each one win, best place 1: equal, in the order first met);
    # dan 6 (T2 and T3 equal: the earlier, T2, counts).
    best_one = table_of(season_table(season, Scoring((10, 6, 3), best_count=1)))
    assert [(rank, person, points) for rank, person, points, *_ in best_one] == [
        (1, "ann", 10),
        (1, "bob", 10),
        (1, "cid", 10),
        (4, "dan", 6),
    ]
    assert best_one[3][6] == [("T1", None, 0, False), ("T2", 2, 6, True), ("T3", 2, 6, False)]


def test_ties_broken_by_wins_then_by_best_place():
    season = [
        placings("T1", ("fay", 1, ACTIVE), ("eve", 2, ACTIVE), ("gus", 3, ACTIVE), ("hal", 5, ACTIVE)),
        placings("T2", ("eve", 2, ACTIVE), ("gus", 3, ACTIVE), ("fay", 9, ACTIVE), ("hal", 3, ACTIVE)),
        placings("T3", ("gus", 2, ACTIVE), ("hal", 3, ACTIVE)),
    ]
    # eve 12 (0 wins, best 2); fay 10 (1 win); gus 3+3+6 = 12 (0 wins, best 2); hal 0+3+3 = 6.
    rows = season_table(season, SMALL)
    assert [(row.rank, row.person, row.points, row.wins, row.best_place) for row in rows] == [
        (1, "eve", 12, 0, 2),
        (1, "gus", 12, 0, 2),
        (3, "fay", 10, 1, 1),
        (4, "hal", 6, 0, 3),
    ]
    # The same points: the winner goes first (a: 10 with a win, b: 5 + 5 = 10 without).
    season = [placings("T1", ("b", 2, ACTIVE), ("a", 1, ACTIVE)), placings("T2", ("b", 2, ACTIVE), ("c", 3, ACTIVE))]
    rows = season_table(season, Scoring((10, 5, 5)))
    assert [(row.rank, row.person, row.points, row.wins) for row in rows] == [
        (1, "a", 10, 1),
        (2, "b", 10, 0),
        (3, "c", 5, 0),
    ]
    # The same points and no win: the better best place goes first (x: 6 + 3 best 2; y: 6 + 3 best 3).
    season = [placings("T1", ("y", 3, ACTIVE), ("x", 2, ACTIVE)), placings("T2", ("y", 5, ACTIVE), ("x", 4, ACTIVE))]
    rows = season_table(season, Scoring((9, 6, 6, 3, 3)))
    assert [(row.rank, row.person, row.points, row.best_place) for row in rows] == [(1, "x", 9, 2), (2, "y", 9, 3)]


def test_best_count_keeps_the_best_and_the_earlier_of_equals():
    results = season_table([placings(t, ("p", place, ACTIVE)) for t, place in zip("ABCD", (3, 1, 2, 1))], SMALL)[
        0
    ].results
    assert [r.counted for r in mark_counted(results, 2)] == [False, True, False, True]
    assert [r.counted for r in mark_counted(results, 3)] == [False, True, True, True]
    assert [r.counted for r in mark_counted(results, 1)] == [False, True, False, False]
    assert all(r.counted for r in mark_counted(results, None))


# ---------------------------------------------------------------- properties

people = st.sampled_from(["a", "b", "c", "d", "e", "f"])
statuses = st.sampled_from([ACTIVE, ACTIVE, ACTIVE, WITHDRAWN, DISQUALIFIED])


@st.composite
def seasons(draw):
    tournaments = []
    for key in range(draw(st.integers(0, 5))):
        who = draw(st.lists(people, unique=True, max_size=6))
        rows = []
        for person in who:
            status = draw(statuses)
            place = None if status == DISQUALIFIED else draw(st.integers(1, 20))
            rows.append(Placing(person, place, status))
        tournaments.append(TournamentPlacings(key, rows))
    return tournaments


scorings = st.builds(
    Scoring, place_points=st.lists(st.integers(0, 30), max_size=16).map(tuple), best_count=st.none() | st.integers(1, 6)
)


@given(seasons(), scorings)
def test_ranks_follow_the_order_and_equal_keys_share_them(season, scoring):
    rows = season_table(season, scoring)
    keys = [row.order_key() for row in rows]
    assert keys == sorted(keys)
    for position, row in enumerate(rows, start=1):
        first = next(i for i, key in enumerate(keys, start=1) if key == row.order_key())
        assert row.rank == first <= position


@given(seasons(), scorings)
def test_points_are_the_counted_results_and_never_more_than_best_count(season, scoring):
    for row in season_table(season, scoring):
        counted = [r for r in row.results if r.counted]
        assert row.points == sum(r.points for r in counted)
        if scoring.best_count is not None:
            assert len(counted) == min(scoring.best_count, len(row.results))
            # no uncounted result beats a counted one
            assert all(u.points <= c.points for u in row.results if not u.counted for c in counted)


@given(seasons(), scorings, people)
def test_adding_a_zero_point_result_never_changes_points(season, scoring, person):
    before = {row.person: row.points for row in season_table(season, scoring)}
    zero = TournamentPlacings("extra", [Placing(person, None, DISQUALIFIED)])
    after = {row.person: row.points for row in season_table([*season, zero], scoring)}
    assert {p: after[p] for p in before} == before
    assert after[person] == before.get(person, 0)


@given(seasons(), scorings)
def test_a_disqualified_result_gives_nothing(season, scoring):
    for row in season_table(season, scoring):
        assert all(r.points == 0 for r in row.results if r.status == DISQUALIFIED)


def test_two_records_of_one_person_in_one_tournament_keep_the_better_result():
    season = [placings("T1", ("p", 3, ACTIVE), ("q", 2, ACTIVE), ("p", 1, ACTIVE))]
    rows = season_table(season, SMALL)
    assert [(row.person, row.points, row.tournaments) for row in rows] == [("p", 10, 1), ("q", 6, 1)]
