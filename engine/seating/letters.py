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

LETTER_COUNT = 4
D = 3
# Tables ``refine`` tries other letter orders for (about a millisecond each).
_REFINE_TABLES = 150


def balanced(counts, four_seats):
    """Whether letter counts ``(a, b, c, d)`` are balanced for ``four_seats`` 4-table seats."""
    a, b, c, d = counts
    return max(a, b, c) - min(a, b, c) <= 1 and four_seats // 4 <= d <= -(-four_seats // 4)


def excess(counts, four_seats):
    """How far letter counts are from balanced (0 = balanced)."""
    a, b, c, d = counts
    abc = max(a, b, c) - min(a, b, c) - 1
    low, high = four_seats // 4, -(-four_seats // 4)
    return max(0, abc) + max(0, low - d, d - high)


def options(counts, four_seats, size):
    """Bit mask of the letters that leave a player as balanced as possible after one more
    seat at a table of ``size`` (bit i = letter i)."""
    best, mask = None, 0
    f = four_seats + (size == 4)
    for letter in range(size):
        after = list(counts)
        after[letter] += 1
        e = excess(after, f)
        if best is None or e < best:
            best, mask = e, 1 << letter
        elif e == best:
            mask |= 1 << letter
    return mask


_MATCHABLE = {}


def matchable(masks, size):
    """Whether players with these letter masks (at most ``size`` of them) can take
    different letters of a table of ``size``, one each."""
    key = (tuple(sorted(masks)), size)
    found = _MATCHABLE.get(key)
    if found is None:
        found = any(all(m >> letter & 1 for m, letter in zip(key[0], perm))
                    for perm in itertools.permutations(range(size), len(masks)))
        _MATCHABLE[key] = found
    return found


class TableCheck:
    """Whether a table of given players can be given balanced letters, in O(1) per change.

    A table's players are summarised by a code: the sum of ``8 ** mask`` over them
    (masks at that table size), so a player leaving or joining changes it by one term.
    A table being filled (fewer players than its size) is ok while its players can
    still take different letters.
    """

    def __init__(self, masks3, masks4):
        self.term = {3: [8**m for m in masks3], 4: [8**m for m in masks4]}
        self._known = {}

    def code(self, players, size):
        term = self.term[size]
        return sum(term[p] for p in players)

    def ok(self, code, size):
        key = (code, size)
        found = self._known.get(key)
        if found is None:
            masks = []
            for m in range(16):
                masks += [m] * ((code >> (3 * m)) & 7)
            found = matchable(masks, size)
            self._known[key] = found
        return found


def letter_check(counts, four_seats):
    """The ``TableCheck`` of players with these letter counts and 4-table seats."""
    masks3 = [options(c, f, 3) for c, f in zip(counts, four_seats)]
    masks4 = [options(c, f, 4) for c, f in zip(counts, four_seats)]
    return TableCheck(masks3, masks4)


# ---------------------------------------------------------------------------
# Letters of planned rounds (Konig colourings, earlier rounds taken into account)
# ---------------------------------------------------------------------------


def _augment(start, adjacency, mate_x, mate_y):
    """Augment a bipartite matching along a shortest path from the free vertex ``start``
    of side X (``adjacency``: X -> Y lists; ``mate_x``/``mate_y``: partners).  Vertices
    matched before stay matched.  Returns whether a path was found."""
    prev = {}
    queue, seen = [start], {start}
    for x in queue:
        for y in adjacency[x]:
            if y in prev:
                continue
            prev[y] = x
            x2 = mate_y.get(y)
            if x2 is None:
                while True:
                    x = prev[y]
                    old = mate_x.get(x)
                    mate_x[x] = y
                    mate_y[y] = x
                    if x == start:
                        return True
                    y = old
            if x2 not in seen:
                seen.add(x2)
                queue.append(x2)
    return False


def _edge_colouring(edges, n_left, n_right, k, rng, taken=None):
    """A proper edge colouring with ``k`` colours of a bipartite graph of maximum degree
    at most ``k``, by alternating paths; ``edges`` are (left, right) pairs.

    ``taken[v]``: colours right vertex v already has from earlier rounds (its degree
    here is at most ``k`` minus their number).  Without them this always succeeds (Konig);
    with them an alternating path may run into one, and None is returned when no
    choice of colours avoids that.
    """
    left = [[None] * k for _ in range(n_left)]
    right = [[None] * k for _ in range(n_right)]
    for v, colours in (taken or {}).items():
        for c in colours:
            right[v][c] = -1
    colour = [None] * len(edges)
    order = list(range(len(edges)))
    rng.shuffle(order)
    for e in order:
        u, v = edges[e]
        free_u = [c for c in range(k) if left[u][c] is None]
        free_v = [c for c in range(k) if right[v][c] is None]
        common = [c for c in free_u if c in free_v]
        if common:
            a, path = rng.choice(common), []
        else:
            choices = [(a, b) for a in free_u for b in free_v]
            rng.shuffle(choices)
            for a, b in choices:
                # The path from v alternating a, b; swapped, it frees a at v (it cannot
                # reach u).  It may not pass a colour taken in earlier rounds.
                path, x, on_right, c = [], v, True, a
                while True:
                    e2 = (right if on_right else left)[x][c]
                    if e2 is None:
                        break
                    if e2 == -1:
                        path = None
                        break
                    path.append(e2)
                    x = edges[e2][0] if on_right else edges[e2][1]
                    on_right = not on_right
                    c = b if c == a else a
                if path is not None:
                    break
            else:
                return None
            for e2 in path:
                u2, v2 = edges[e2]
                left[u2][colour[e2]] = None
                right[v2][colour[e2]] = None
            for e2 in path:
                u2, v2 = edges[e2]
                colour[e2] = b if colour[e2] == a else a
                left[u2][colour[e2]] = e2
                right[v2][colour[e2]] = e2
        colour[e] = a
        left[u][a] = e
        right[v][a] = e
    return colour


def _choose_d(rounds, start, rng):
    """The D seat of every planned 4-table, as a set of (round, table, player).

    Each player's 4-table seats, counted on from his earlier ones, fall into runs of
    four; a run may hold one D and a finished run must.  Tables and runs are matched
    (first every run that must have a D, then every table; each step keeps the
    vertices matched before, so both succeed together whenever possible).  A table
    left without a D gives it to the player it unbalances least.
    """
    tables, run_of, runs = [], {}, {}
    planned = {}
    for t, rnd in enumerate(rounds):
        for j, tbl in enumerate(rnd):
            if len(tbl) == 4:
                tables.append((t, j))
                for p in tbl:
                    planned[p] = planned.get(p, 0) + 1
    seen = {}
    for t, j in tables:
        for p in rounds[t][j]:
            counts, f = start(p)
            position = f % 4
            had_d = min(1, max(0, counts[D] - f // 4))
            i = seen.get(p, 0)
            seen[p] = i + 1
            run = (position + i) // 4
            room = 1 - had_d if run == 0 else 1
            if room:
                finished = position + planned[p] >= 4 * (run + 1)
                key = (p, run)
                runs.setdefault(key, finished)
                run_of[(t, j, p)] = key
    table_adj = {i: [] for i in range(len(tables))}
    run_adj = {key: [] for key in runs}
    for i, (t, j) in enumerate(tables):
        for p in rounds[t][j]:
            key = run_of.get((t, j, p))
            if key is not None:
                table_adj[i].append(key)
                run_adj[key].append(i)
    for adj in itertools.chain(table_adj.values(), run_adj.values()):
        rng.shuffle(adj)
    table_run, run_table = {}, {}
    must = [key for key, finished in runs.items() if finished]
    rng.shuffle(must)
    for key in must:
        _augment(key, run_adj, run_table, table_run)
    for i in rng.sample(range(len(tables)), len(tables)):
        if i not in table_run:
            _augment(i, table_adj, table_run, run_table)
    chosen = set()
    for i, (t, j) in enumerate(tables):
        key = table_run.get(i)
        if key is not None:
            chosen.add((t, j, key[0]))
        else:
            def harm(p):
                counts, f = start(p)
                after = list(counts)
                after[D] += 1
                return excess(after, f + 1)
            chosen.add((t, j, min(rounds[t][j], key=lambda p: (harm(p), rng.random()))))
    return chosen


def colour_rounds(rounds, rng, counts=None, four_seats=None):
    """Letters for planned rounds, every player balanced after every round if it can be.

    ``rounds[t]`` is a list of tables (lists of players, 3 or 4 each); ``counts[p]`` and
    ``four_seats[p]`` are player p's letter counts and 4-table seats in earlier rounds
    (none if omitted).  Returns the rounds with each table's players in letter order
    (A first), or None if the A-C colouring ran into earlier letters.  Without earlier
    rounds it always succeeds (see the module notes).
    """
    def start(p):
        if counts is None:
            return (0, 0, 0, 0), 0
        return counts[p], four_seats[p]

    has_d = _choose_d(rounds, start, rng)
    # A-C: (round, table) against (player, run of three seats without D).
    tables = [(t, j) for t, rnd in enumerate(rounds) for j in range(len(rnd))]
    runs, edges, seats, taken = {}, [], [], {}
    plain = {}
    for i, (t, j) in enumerate(tables):
        for p in rounds[t][j]:
            if (t, j, p) in has_d:
                continue
            if p not in plain:
                c = start(p)[0][:3]
                used = [letter for letter in range(3) if c[letter] > min(c)]
                plain[p] = len(used)
                if used:
                    taken[len(runs)] = used
            k = plain[p]
            plain[p] = k + 1
            if (p, k // 3) not in runs:
                runs[(p, k // 3)] = len(runs)
            edges.append((i, runs[(p, k // 3)]))
            seats.append((t, j, p))
    colour = _edge_colouring(edges, len(tables), len(runs), 3, rng, taken)
    if colour is None:
        return None
    out = [[[None] * len(tbl) for tbl in rnd] for rnd in rounds]
    for (t, j, p) in has_d:
        out[t][j][D] = p
    for e, (t, j, p) in enumerate(seats):
        out[t][j][colour[e]] = p
    return out


def total_excess(rounds, counts, four_seats):
    """Sum over players and planned rounds (in letter order) of the excess after each."""
    state = {}
    total = 0
    for rnd in rounds:
        for tbl in rnd:
            for letter, p in enumerate(tbl):
                c, f = state.get(p) or (list(counts[p]), four_seats[p])
                c = list(c)
                c[letter] += 1
                f += len(tbl) == 4
                state[p] = (c, f)
        total += sum(excess(c, f) for c, f in state.values())
    return total


def _greedy(rounds, counts, four_seats, rng):
    """Round after round, each table the letters that unbalance its players least."""
    state = {}
    out = []
    for rnd in rounds:
        new = []
        for tbl in rnd:
            size = len(tbl)
            best, perms = None, []
            for perm in itertools.permutations(tbl):
                e = 0
                for letter, p in enumerate(perm):
                    c, f = state.get(p) or (counts[p], four_seats[p])
                    after = list(c)
                    after[letter] += 1
                    e += excess(after, f + (size == 4))
                if best is None or e < best:
                    best, perms = e, [perm]
                elif e == best:
                    perms.append(perm)
            chosen = list(rng.choice(perms))
            for letter, p in enumerate(chosen):
                c, f = state.get(p) or (counts[p], four_seats[p])
                c = list(c)
                c[letter] += 1
                state[p] = (c, f + (size == 4))
            new.append(chosen)
        out.append(new)
    return out


def refine(rounds, counts, four_seats, tables=_REFINE_TABLES):
    """Improve letters in place, one table at a time: each table of each round (in
    round order, at most ``tables`` of them where someone is unbalanced) takes the
    letter order that lowers its players' excess summed over the rounds.  Returns the
    total excess (``total_excess``)."""
    seats = {}
    for t, rnd in enumerate(rounds):
        for tbl in rnd:
            for p in tbl:
                seats.setdefault(p, []).append((t, tbl))
    n_rounds = len(rounds)

    def player_excess(p):
        c, f = list(counts[p]), four_seats[p]
        total = 0
        places = seats[p]
        for i, (t, tbl) in enumerate(places):
            c[tbl.index(p)] += 1
            f += len(tbl) == 4
            until = places[i + 1][0] if i + 1 < len(places) else n_rounds
            total += excess(c, f) * (until - t)
        return total

    improved = True
    while improved and tables > 0:
        improved = False
        for rnd in rounds:
            for tbl in rnd:
                cost = sum(player_excess(p) for p in tbl)
                if not cost or tables <= 0:
                    continue
                tables -= 1
                best = tbl[:]
                for perm in itertools.permutations(best):
                    tbl[:] = perm
                    now = sum(player_excess(p) for p in tbl)
                    if now < cost:
                        cost, best, improved = now, list(perm), True
                tbl[:] = best
    return total_excess(rounds, counts, four_seats)


def assign(rounds, counts, four_seats, rng, tries=8, refined=True):
    """Letters for planned ``rounds`` after earlier ones, as balanced as can be found.

    Up to ``tries`` colourings (``colour_rounds``, each from other random choices) and a
    round-by-round greedy assignment; the first with every player balanced after every
    round is taken, else the one with the least total excess, improved table by table
    (``refine``, unless ``refined`` is false).  Returns ``(rounds in letter order,
    total excess)``.
    """
    best, best_excess = None, None
    for _ in range(tries):
        out = colour_rounds(rounds, rng, counts, four_seats)
        if out is None:
            continue
        e = total_excess(out, counts, four_seats)
        if best is None or e < best_excess:
            best, best_excess = out, e
        if e == 0:
            return best, 0
    out = _greedy(rounds, counts, four_seats, rng)
    e = total_excess(out, counts, four_seats)
    if best is None or e < best_excess:
        best, best_excess = out, e
    if refined:
        best_excess = refine(best, counts, four_seats)
    return best, best_excess
