"""Seat letters: when a player's letters are balanced, and how tables get their letters.

Plain Python, standard library only.  Letters are numbered 0-3 (A-D); a 4-table has
A-D, a 3-table A-C.

Balanced letters (SPEC §5: "a player's A/B/C/D counts differ by at most 1 where
possible").  A player who has sat ``f`` times at a 4-table is balanced when

* his A, B and C counts differ by at most 1, and
* his D count is ``f / 4`` rounded down or up.

For a player who always sat at 4-tables this is exactly "the A-D counts differ by at
most 1"; for one who always sat at 3-tables, "the A-C counts differ by at most 1".  A
player who sat at a 3-table missed D there, and D cannot always be made up: a round has
one D seat per 4-table, fewer than a quarter of the players when there is a 3-table, so
in a field with a 3-table somebody's D count falls behind his A-C counts once 4 rounds
are played (15 players, 4 rounds: 12 D seats for 15 players).  The D seats are shared
in proportion to 4-table seats instead, which is always possible (below).

The engine keeps every player balanced after every round, not only at the end, so a
withdrawal, a late arrival or a tournament cut short leaves everybody balanced.  In
terms of a player's seats in round order: each run of 4 consecutive 4-table seats
(1-4, 5-8, ...) holds exactly one D, and each run of 3 consecutive seats without D
holds A, B and C once each (the last, unfinished runs: no letter twice).

Why this is always possible when the letters of all rounds are chosen together: take
the bipartite graph of (round, 4-table) against (player, run of 4-table seats); every
table has degree 4 and every run at most 4, so by Konig's theorem its edges have a
proper 4-colouring, and one colour class gives each table one D and each full run
exactly one.  The seats without D then form a graph of (round, table) against (player,
run of 3 seats without D) with degree 3 and at most 3: a proper 3-colouring gives
A, B, C (``colour_rounds``).  Once earlier rounds are played their letters are fixed,
and a round can only be balanced if each of its tables can be given letters that keep
its players balanced (``options``, ``TableCheck``); the seating search takes that into
account, and ``assign`` completes the letters of planned rounds.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Hashable, Sequence
from typing import Protocol, TypeVar, cast

from engine.seating.colouring import augment, edge_colouring

P = TypeVar("P", bound=Hashable)  # a player: an index, or an id
_Key = TypeVar("_Key", contravariant=True)
_Value = TypeVar("_Value", covariant=True)


class ByPlayer(Protocol[_Key, _Value]):
    """Something per player: a list by player index or a dict by player id."""

    def __getitem__(self, player: _Key, /) -> _Value: ...


Rounds = Sequence[Sequence[Sequence[P]]]  # rounds of tables of players
Lettered = list[list[list[P]]]  # rounds of tables of players in letter order
LetterState = tuple[Sequence[int], int]  # a player's letter counts and 4-table seats

LETTER_COUNT = 4
D = 3
# Tables ``refine`` tries other letter orders for (about a millisecond each).
_REFINE_TABLES = 150


def balanced(counts: Sequence[int], four_seats: int) -> bool:
    """Whether letter counts (A, B, C, D) are balanced for ``four_seats`` 4-table seats."""
    abc, d_seats = counts[:D], counts[D]
    return max(abc) - min(abc) <= 1 and four_seats // 4 <= d_seats <= -(-four_seats // 4)


def excess(counts: Sequence[int], four_seats: int) -> int:
    """How far letter counts (A, B, C, D) are from balanced (0 = balanced)."""
    abc, d_seats = counts[:D], counts[D]
    spread = max(abc) - min(abc) - 1
    low, high = four_seats // 4, -(-four_seats // 4)
    return max(0, spread) + max(0, low - d_seats, d_seats - high)


def options(counts: Sequence[int], four_seats: int, size: int) -> int:
    """Bit mask of the letters that leave a player as balanced as possible after one more
    seat at a table of ``size`` (bit i = letter i)."""
    best: int | None = None
    mask = 0
    fours_after = four_seats + (size == 4)
    for letter in range(size):
        after = list(counts)
        after[letter] += 1
        off = excess(after, fours_after)
        if best is None or off < best:
            best, mask = off, 1 << letter
        elif off == best:
            mask |= 1 << letter
    return mask


_MATCHABLE: dict[tuple[tuple[int, ...], int], bool] = {}


def matchable(masks: Sequence[int], size: int) -> bool:
    """Whether players with these letter masks (at most ``size`` of them) can take
    different letters of a table of ``size``, one each."""
    key = (tuple(sorted(masks)), size)
    found = _MATCHABLE.get(key)
    if found is None:
        found = any(
            all(mask >> letter & 1 for mask, letter in zip(key[0], perm))
            for perm in itertools.permutations(range(size), len(masks))
        )
        _MATCHABLE[key] = found
    return found


class TableCheck:
    """Whether a table of given players can be given balanced letters, in O(1) per change.

    A table's players are summarised by a code: the sum of ``8 ** mask`` over them
    (masks at that table size), so a player leaving or joining changes it by one term.
    A table being filled (fewer players than its size) is ok while its players can
    still take different letters.
    """

    def __init__(self, masks3: Sequence[int], masks4: Sequence[int]) -> None:
        self.term = {3: [8**mask for mask in masks3], 4: [8**mask for mask in masks4]}
        self._known: dict[tuple[int, int], bool] = {}

    def code(self, players: Sequence[int], size: int) -> int:
        """The code of a table of ``size`` holding ``players``."""
        term = self.term[size]
        return sum(term[p] for p in players)

    def ok(self, code: int, size: int) -> bool:
        """Whether the players of a table with this code can keep balanced letters."""
        key = (code, size)
        found = self._known.get(key)
        if found is None:
            masks: list[int] = []
            for mask in range(16):
                masks += [mask] * ((code >> (3 * mask)) & 7)
            found = matchable(masks, size)
            self._known[key] = found
        return found


def letter_check(counts: Sequence[Sequence[int]], four_seats: Sequence[int]) -> TableCheck:
    """The ``TableCheck`` of players with these letter counts and 4-table seats."""
    masks3 = [options(letter_counts, fours, 3) for letter_counts, fours in zip(counts, four_seats)]
    masks4 = [options(letter_counts, fours, 4) for letter_counts, fours in zip(counts, four_seats)]
    return TableCheck(masks3, masks4)


# ---------------------------------------------------------------------------
# Letters of planned rounds (Konig colourings, earlier rounds taken into account)
# ---------------------------------------------------------------------------


def _d_runs(
    rounds: Rounds[P], start: Callable[[P], LetterState]
) -> tuple[list[tuple[int, int]], dict[tuple[int, int, P], tuple[P, int]], dict[tuple[P, int], bool]]:
    """The planned 4-tables and the runs of 4-table seats that may take their D.

    Returns ``(tables, run_of, runs)``: the (round, table) of each planned 4-table;
    for a seat (round, table, player), the run (player, run number) it belongs to when
    that run may still take a D; and for each such run whether it is finished (it must
    take one).
    """
    tables: list[tuple[int, int]] = []
    run_of: dict[tuple[int, int, P], tuple[P, int]] = {}
    runs: dict[tuple[P, int], bool] = {}
    planned: dict[P, int] = {}
    for t, round_tables in enumerate(rounds):
        for j, table in enumerate(round_tables):
            if len(table) == 4:
                tables.append((t, j))
                for p in table:
                    planned[p] = planned.get(p, 0) + 1
    seen: dict[P, int] = {}
    for t, j in tables:
        for p in rounds[t][j]:
            counts, fours = start(p)
            position = fours % 4
            had_d = min(1, max(0, counts[D] - fours // 4))
            i = seen.get(p, 0)
            seen[p] = i + 1
            run = (position + i) // 4
            room = 1 - had_d if run == 0 else 1
            if room:
                finished = position + planned[p] >= 4 * (run + 1)
                key = (p, run)
                runs.setdefault(key, finished)
                run_of[(t, j, p)] = key
    return tables, run_of, runs


def _choose_d(rounds: Rounds[P], start: Callable[[P], LetterState], rng: random.Random) -> set[tuple[int, int, P]]:
    """The D seat of every planned 4-table, as a set of (round, table, player).

    Each player's 4-table seats, counted on from his earlier ones, fall into runs of
    four; a run may hold one D and a finished run must.  Tables and runs are matched
    (first every run that must have a D, then every table; each step keeps the
    vertices matched before, so both succeed together whenever possible).  A table
    left without a D gives it to the player it unbalances least.
    """
    tables, run_of, runs = _d_runs(rounds, start)
    table_adj: dict[int, list[tuple[P, int]]] = {i: [] for i in range(len(tables))}
    run_adj: dict[tuple[P, int], list[int]] = {key: [] for key in runs}
    for i, (t, j) in enumerate(tables):
        for p in rounds[t][j]:
            key = run_of.get((t, j, p))
            if key is not None:
                table_adj[i].append(key)
                run_adj[key].append(i)
    for runs_at_table in table_adj.values():
        rng.shuffle(runs_at_table)
    for tables_of_run in run_adj.values():
        rng.shuffle(tables_of_run)
    table_run: dict[int, tuple[P, int]] = {}
    run_table: dict[tuple[P, int], int] = {}
    must = [key for key, finished in runs.items() if finished]
    rng.shuffle(must)
    for key in must:
        augment(key, run_adj, run_table, table_run)
    for i in rng.sample(range(len(tables)), len(tables)):
        if i not in table_run:
            augment(i, table_adj, table_run, run_table)
    chosen: set[tuple[int, int, P]] = set()
    for i, (t, j) in enumerate(tables):
        key = table_run.get(i)
        if key is not None:
            chosen.add((t, j, key[0]))
        else:
            chosen.add((t, j, min(rounds[t][j], key=lambda p: (_d_harm(start(p)), rng.random()))))
    return chosen


def _d_harm(state: LetterState) -> int:
    """A player's excess after one more seat at D (``state``: his letter counts and
    4-table seats)."""
    counts, fours = state
    after = list(counts)
    after[D] += 1
    return excess(after, fours + 1)


def colour_rounds(
    rounds: Rounds[P],
    rng: random.Random,
    counts: ByPlayer[P, Sequence[int]] | None = None,
    four_seats: ByPlayer[P, int] | None = None,
) -> Lettered[P] | None:
    """Letters for planned rounds, every player balanced after every round if it can be.

    ``rounds[t]`` is a list of tables (lists of players, 3 or 4 each); ``counts[p]`` and
    ``four_seats[p]`` are player p's letter counts and 4-table seats in earlier rounds
    (none if omitted).  Returns the rounds with each table's players in letter order
    (A first), or None if the A-C colouring ran into earlier letters.  Without earlier
    rounds it always succeeds (see the module notes).
    """

    def start(p: P) -> LetterState:
        """Player p's letter counts and 4-table seats before the planned rounds."""
        if counts is None or four_seats is None:
            return (0, 0, 0, 0), 0
        return counts[p], four_seats[p]

    has_d = _choose_d(rounds, start, rng)
    # A-C: (round, table) against (player, run of three seats without D).
    tables = [(t, j) for t, round_tables in enumerate(rounds) for j in range(len(round_tables))]
    runs: dict[tuple[P, int], int] = {}
    edges: list[tuple[int, int]] = []
    seats: list[tuple[int, int, P]] = []
    taken: dict[int, list[int]] = {}
    plain: dict[P, int] = {}
    for i, (t, j) in enumerate(tables):
        for p in rounds[t][j]:
            if (t, j, p) in has_d:
                continue
            if p not in plain:
                abc = start(p)[0][:3]
                used = [letter for letter in range(3) if abc[letter] > min(abc)]
                plain[p] = len(used)
                if used:
                    taken[len(runs)] = used
            seat = plain[p]
            plain[p] = seat + 1
            if (p, seat // 3) not in runs:
                runs[(p, seat // 3)] = len(runs)
            edges.append((i, runs[(p, seat // 3)]))
            seats.append((t, j, p))
    colour = edge_colouring(edges, len(tables), len(runs), 3, rng, taken)
    if colour is None:
        return None
    lettered: list[list[list[P | None]]] = [[[None] * len(table) for table in round_tables] for round_tables in rounds]
    for t, j, p in has_d:
        lettered[t][j][D] = p
    for edge, (t, j, p) in enumerate(seats):
        lettered[t][j][colour[edge]] = p
    return cast("Lettered[P]", lettered)  # every seat is taken now


def total_excess(rounds: Rounds[P], counts: ByPlayer[P, Sequence[int]], four_seats: ByPlayer[P, int]) -> int:
    """Sum over players and planned rounds (in letter order) of the excess after each."""
    state: dict[P, tuple[list[int], int]] = {}
    total = 0
    for tables in rounds:
        for table in tables:
            for letter, p in enumerate(table):
                letter_counts, fours = state.get(p) or (list(counts[p]), four_seats[p])
                letter_counts = list(letter_counts)
                letter_counts[letter] += 1
                fours += len(table) == 4
                state[p] = (letter_counts, fours)
        total += sum(excess(letter_counts, fours) for letter_counts, fours in state.values())
    return total


def _greedy(
    rounds: Rounds[P], counts: ByPlayer[P, Sequence[int]], four_seats: ByPlayer[P, int], rng: random.Random
) -> Lettered[P]:
    """Round after round, each table the letters that unbalance its players least."""
    state: dict[P, LetterState] = {}
    lettered: Lettered[P] = []
    for tables in rounds:
        lettered_tables = []
        for table in tables:
            chosen = list(rng.choice(_least_excess_orders(table, state, counts, four_seats)))
            fours_more = len(table) == 4
            for letter, p in enumerate(chosen):
                letter_counts, fours = state.get(p) or (counts[p], four_seats[p])
                letter_counts = list(letter_counts)
                letter_counts[letter] += 1
                state[p] = (letter_counts, fours + fours_more)
            lettered_tables.append(chosen)
        lettered.append(lettered_tables)
    return lettered


def _least_excess_orders(
    table: Sequence[P], state: dict[P, LetterState], counts: ByPlayer[P, Sequence[int]], four_seats: ByPlayer[P, int]
) -> list[tuple[P, ...]]:
    """The letter orders of a table that leave its players' excess least."""
    best: int | None = None
    orders: list[tuple[P, ...]] = []
    for perm in itertools.permutations(table):
        total = 0
        for letter, p in enumerate(perm):
            letter_counts, fours = state.get(p) or (counts[p], four_seats[p])
            after = list(letter_counts)
            after[letter] += 1
            total += excess(after, fours + (len(table) == 4))
        if best is None or total < best:
            best, orders = total, [perm]
        elif total == best:
            orders.append(perm)
    return orders


def refine(
    rounds: Lettered[P], counts: ByPlayer[P, Sequence[int]], four_seats: ByPlayer[P, int], tables: int = _REFINE_TABLES
) -> int:
    """Improve letters in place, one table at a time: each table of each round (in
    round order, at most ``tables`` of them where someone is unbalanced) takes the
    letter order that lowers its players' excess summed over the rounds.  Returns the
    total excess (``total_excess``)."""
    seats: dict[P, list[tuple[int, list[P]]]] = {}
    for t, round_tables in enumerate(rounds):
        for table in round_tables:
            for p in table:
                seats.setdefault(p, []).append((t, table))
    round_count = len(rounds)

    def player_excess(p: P) -> int:
        """Player p's excess summed over the rounds, each round's counted until his next seat."""
        letter_counts, fours = list(counts[p]), four_seats[p]
        total = 0
        places = seats[p]
        for i, (t, table) in enumerate(places):
            letter_counts[table.index(p)] += 1
            fours += len(table) == 4
            until = places[i + 1][0] if i + 1 < len(places) else round_count
            total += excess(letter_counts, fours) * (until - t)
        return total

    improved = True
    while improved and tables > 0:
        improved = False
        for round_tables in rounds:
            for table in round_tables:
                cost = sum(player_excess(p) for p in table)
                if not cost or tables <= 0:
                    continue
                tables -= 1
                best = table[:]
                for perm in itertools.permutations(best):
                    table[:] = perm
                    now = sum(player_excess(p) for p in table)
                    if now < cost:
                        cost, best, improved = now, list(perm), True
                table[:] = best
    return total_excess(rounds, counts, four_seats)


def assign(
    rounds: Rounds[P],
    counts: ByPlayer[P, Sequence[int]],
    four_seats: ByPlayer[P, int],
    rng: random.Random,
    tries: int = 8,
    refined: bool = True,
) -> tuple[Lettered[P], int]:
    """Letters for planned ``rounds`` after earlier ones, as balanced as can be found.

    Up to ``tries`` colourings (``colour_rounds``, each from other random choices) and a
    round-by-round greedy assignment; the first with every player balanced after every
    round is taken, else the one with the least total excess, improved table by table
    (``refine``, unless ``refined`` is false).  Returns ``(rounds in letter order,
    total excess)``.
    """
    best: Lettered[P] | None = None
    best_excess = 0
    for _ in range(tries):
        lettered = colour_rounds(rounds, rng, counts, four_seats)
        if lettered is None:
            continue
        off = total_excess(lettered, counts, four_seats)
        if best is None or off < best_excess:
            best, best_excess = lettered, off
        if off == 0:
            return best, 0
    lettered = _greedy(rounds, counts, four_seats, rng)
    off = total_excess(lettered, counts, four_seats)
    if best is None or off < best_excess:
        best, best_excess = lettered, off
    if refined:
        best_excess = refine(best, counts, four_seats)
    return best, best_excess
