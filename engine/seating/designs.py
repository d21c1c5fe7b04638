"""Seating schedules in which no two players meet twice (plain Python, standard library only).

A schedule of R rounds for n players at tables of 4 in which no pair meets twice is a
*resolvable packing* with blocks of size 4 (the "social golfer problem").  This module
builds the longest known ones for n = 16, 20, ..., 64, by one construction:

Points are ``Z_m x {0, 1, 2}`` (point ``(a, x)`` is numbered ``x*m + a``) plus ``f`` fixed
points numbered ``3m .. 3m+f-1``.  A *base round* partitions the points into blocks of 4;
round ``t`` (``t`` in ``Z_m``) is the base round translated by ``t``: ``(a, x) -> (a+t, x)``,
fixed points stay.  Translation maps a pair of points to a pair of the same *class*:

* two points of one orbit ``x``: the class is ``(x, ±d)`` with ``d`` the difference of
  their ``a`` values (a difference ``d`` with ``2d = 0`` would pair the same two points
  twice, so it is not allowed);
* points ``(a, x)``, ``(b, y)`` of two orbits ``x < y``: the class is ``(x, y, b - a)``;
* a fixed point and a point of orbit ``x``: the class is ``(fixed point, x)``.

Every class holds ``m`` pairs and the ``m`` translates of one pair are exactly its class,
so the ``m`` rounds have no repeat meeting if and only if no two pairs of the base round
are of the same class (two fixed points may not share a block: they would meet in every
round).  Such base rounds are found by a depth-first search; the search space is cut by
asking the base round to be invariant under ``tau: (a, x) -> (eps*a, x+1)`` with
``eps**3 = 1`` (mod m), which maps classes to classes, so blocks come in threes.  The
parameters ``(m, f, eps, seed)`` of each size below are ones for which the search ends
quickly; ``verify`` checks every result, and the tests check every size.

16 and 64 players use the affine plane and space over GF(4) instead (``_affine_rounds``),
and 32 players a schedule that has the translations of GF(2)^3 as symmetries
(``_binary_rounds``; the search above finds no base round for 32 in reasonable time).
This gives 5 rounds for 16 players, 5 for 20, 7 for 24, 9 for 28 and 13 for 40 (resolvable
2-(28,4,1) and 2-(40,4,1) designs: everyone meets everyone), 10 for 32 (a resolvable 4-GDD
of type 2^16: everyone meets everyone but one partner), 11 for 36, 14 for 44, 15 for 48,
17 for 52, 18 for 56, 19 for 60 and 21 for 64 players: each as many as counting allows
((n-1)/3 rounds, rounded down).
"""

from __future__ import annotations

import functools
import random

# Affine spaces over GF(4): n -> dimension.
_AFFINE = {16: 2, 64: 3}

# Schedules with GF(2)^3 as symmetries: n -> per orbit of rounds, the mask of the round
# action and the base blocks (point 8*i + v, v in GF(2)^3, i in 0..3; see ``_binary_rounds``).
_BINARY = {
    32: (
        (0, ((0, 5, 26, 31), (8, 12, 19, 23))),
        (0, ((0, 3, 4, 7), (8, 15, 26, 29), (16, 18, 21, 23))),
        (0, ((0, 6, 17, 23), (8, 11, 13, 14), (24, 26, 28, 30))),
        (0, ((0, 14, 20, 30),)),
        (2, ((0, 12, 21, 29), (2, 15, 18, 27))),
        (2, ((0, 10, 18, 28), (2, 13, 17, 26))),
        (4, ((0, 2, 9, 11), (4, 12, 18, 31), (20, 23, 24, 27))),
    ),
}

# n -> (m, f, eps, seed): n = 3m + f players, m rounds.  eps None: no symmetry asked.
_CYCLIC = {
    20: (5, 5, None, 0),
    24: (7, 3, 1, 0),
    28: (9, 1, 4, 0),
    36: (11, 3, 1, 0),
    40: (13, 1, 9, 5),
    44: (14, 2, 9, 69),
    48: (15, 3, 1, 98),
    52: (17, 1, 1, 0),
    56: (18, 2, 13, 44),
    60: (19, 3, 11, 1),
}


def sizes():
    """Numbers of players with a built-in schedule, ascending."""
    return sorted(set(_AFFINE) | set(_BINARY) | set(_CYCLIC))


def rounds_available(n):
    """Rounds of the built-in schedule for exactly ``n`` players (0 if none)."""
    if n in _AFFINE or n in _BINARY:
        return (n - 1) // 3
    params = _CYCLIC.get(n)
    return params[0] if params else 0


@functools.lru_cache(maxsize=None)
def _schedule(n):
    if n in _AFFINE:
        rounds = _affine_rounds(_AFFINE[n])
    elif n in _BINARY:
        rounds = _binary_rounds(_BINARY[n])
    else:
        m, f, eps, seed = _CYCLIC[n]
        base = _base_round(m, f, eps, seed)
        if base is None:  # pragma: no cover - the parameters above are tested
            raise RuntimeError(f"no base round for {n} players")
        rounds = tuple(
            tuple(tuple(_translate(p, t, m) for p in block) for block in base)
            for t in range(m)
        )
    if verify(rounds, n) != 0:  # pragma: no cover - a broken construction must not seat anyone
        raise RuntimeError(f"the schedule for {n} players has repeat meetings")
    return rounds


def schedule(n):
    """The rounds of the built-in schedule for ``n`` players, or None.

    Each round is a list of blocks (lists of 4 points); points are ``0 .. n-1``.  No pair of
    points shares a block twice.  Computed once per process (well under a second).
    """
    if rounds_available(n) == 0:
        return None
    return [[list(block) for block in rnd] for rnd in _schedule(n)]


def verify(rounds, n):
    """Number of repeat meetings in ``rounds``; raises ValueError unless each round
    seats every point of ``0 .. n-1`` exactly once."""
    seen = set()
    repeats = 0
    for rnd in rounds:
        points = sorted(p for block in rnd for p in block)
        if points != list(range(n)):
            raise ValueError("a round does not seat every point exactly once")
        for block in rnd:
            for i, p in enumerate(block):
                for q in block[i + 1 :]:
                    pair = (p, q) if p < q else (q, p)
                    if pair in seen:
                        repeats += 1
                    seen.add(pair)
    return repeats


# GF(4) = {0, 1, w, w+1} numbered 0, 1, 2, 3: addition is XOR, and w*w = w+1.
_GF4_MUL = (
    (0, 0, 0, 0),
    (0, 1, 2, 3),
    (0, 2, 3, 1),
    (0, 3, 1, 2),
)


def _affine_rounds(k):
    """Parallel classes of lines of the affine space AG(k, 4): 4**k points, 4-point lines.

    A point is a vector over GF(4), numbered in base 4.  Each direction (a nonzero vector
    whose first nonzero coordinate is 1; (4**k - 1)/3 of them) gives a round: its lines
    ``{p + c*d : c in GF(4)}`` partition the points.  Two points lie on exactly one line,
    so no pair meets twice.
    """
    n = 4**k

    def vector(p):
        return [(p >> (2 * i)) & 3 for i in range(k)]

    def number(v):
        return sum(c << (2 * i) for i, c in enumerate(v))

    directions = [v for v in map(vector, range(1, n)) if next(c for c in v if c) == 1]
    rounds = []
    for d in directions:
        seen = set()
        lines = []
        for p in range(n):
            if p in seen:
                continue
            v = vector(p)
            line = [number([a ^ _GF4_MUL[c][b] for a, b in zip(v, d)]) for c in range(4)]
            seen.update(line)
            lines.append(tuple(line))
        rounds.append(tuple(lines))
    return tuple(rounds)


def _binary_rounds(orbits):
    """The rounds developed from ``orbits`` by the translations of GF(2)^3.

    Points are ``(v, i)``, numbered ``8*i + v``, with ``v`` in GF(2)^3 (a 3-bit number)
    and ``i`` in 0..3; translation by ``g`` maps ``8*i + v`` to ``8*i + (v XOR g)``.  Each
    entry of ``orbits`` is ``(mask, base_blocks)``: an orbit of rounds under the
    translations, of 1 round (mask 0) or 2 rounds ``(k, 0)``, ``(k, 1)`` that a
    translation ``g`` swaps when ``g AND mask`` has an odd number of bits.  The base
    blocks lie in round ``(k, 0)``; their translate by ``g`` lies in round ``(k, c)``
    with ``c`` that parity.  So a round is a union of orbits of blocks, and the schedule
    has every translation as a symmetry.

    The 16 base blocks for 32 players were found by a computer search (a SAT model of
    the 32 x 10 problem restricted to schedules with this symmetry, the symmetry found
    in the published 10-round solution); 10 rounds of 8 blocks each, in which the 16
    pairs ``v, v XOR 1`` (same ``i``) never meet and every other pair meets once: a
    resolvable 4-GDD of type 2^16.  ``verify`` checks it, and the tests check it.
    """
    rounds = []
    for mask, base_blocks in orbits:
        halves = ({}, {}) if mask else ({},)
        for block in base_blocks:
            for g in range(8):
                moved = tuple(sorted(p ^ g for p in block))
                halves[bin(g & mask).count("1") % 2][moved] = None
        rounds.extend(tuple(half) for half in halves)
    return tuple(rounds)


def _translate(p, t, m):
    if p >= 3 * m:
        return p
    x, a = divmod(p, m)
    return x * m + (a + t) % m


def _pair_classes(m, f):
    """cls[p][q]: the class number of the pair {p, q}, or -1 if it may not be in a block."""
    nfin = 3 * m
    n = nfin + f
    ids = {}
    cls = [[-1] * n for _ in range(n)]
    for p in range(n):
        for q in range(n):
            if p == q or (p >= nfin and q >= nfin):
                continue
            if p >= nfin or q >= nfin:
                finite, fixed = (p, q) if q >= nfin else (q, p)
                key = ("fixed", fixed, finite // m)
            else:
                x, a = divmod(p, m)
                y, b = divmod(q, m)
                if x == y:
                    d = (b - a) % m
                    d = min(d, m - d)
                    if 2 * d % m == 0:
                        continue
                    key = ("pure", x, d)
                else:
                    if x > y:
                        x, y, a, b = y, x, b, a
                    key = ("mixed", x, y, (b - a) % m)
            cls[p][q] = ids.setdefault(key, len(ids))
    return cls, len(ids)


def _base_round(m, f, eps, seed, node_limit=200_000):
    """A base round (list of blocks) whose pairs are of pairwise different classes, or None.

    Depth-first: the lowest unplaced point (fixed points first) gets three partners.  With
    ``eps`` set, the base round is invariant under tau (see the module notes): a block is
    added together with its images under tau and tau^2, and a block holding a fixed point
    that tau keeps is ``{fixed, P, tau P, tau^2 P}``.  Fixed points are kept by tau unless
    there are exactly three of them, which tau then cycles.
    """
    nfin = 3 * m
    n = nfin + f
    cls, n_cls = _pair_classes(m, f)
    rng = random.Random(seed)
    if eps is None:
        tau = list(range(n))
    else:
        tau = [((p // m + 1) % 3) * m + (eps * (p % m)) % m for p in range(nfin)]
        tau += [nfin + (j + 1) % 3 if f == 3 else nfin + j for j in range(f)]
    used = [False] * n_cls
    free = [True] * n
    blocks = []
    nodes = 0

    def images(points):
        """The orbit of a list of points under tau (1 or 3 lists)."""
        if eps is None:
            return [points]
        once = [tau[p] for p in points]
        return [points, once, [tau[p] for p in once]]

    def place(new_blocks):
        """Classes of the new blocks' pairs, or None if one is taken or repeated."""
        taken = []
        for block in new_blocks:
            for i, p in enumerate(block):
                for q in block[i + 1 :]:
                    c = cls[p][q]
                    if c < 0 or used[c] or c in taken:
                        return None
                    taken.append(c)
        return taken

    def solve():
        nonlocal nodes
        fixed_left = [p for p in range(nfin, n) if free[p]]
        if fixed_left:
            p = fixed_left[0]
        elif True in free:
            p = free.index(True)
        else:
            return True
        nodes += 1
        if nodes > node_limit:
            return False
        if eps is not None and tau[p] == p:
            options = [[p, a, tau[a], tau[tau[a]]] for a in range(m)]
            rng.shuffle(options)
            for block in options:
                if not all(free[q] for q in block[1:]):
                    continue
                taken = place([block])
                if taken is None:
                    continue
                if _commit([block], taken, used, free, blocks) and solve():
                    return True
                _undo([block], taken, used, free, blocks)
                if nodes > node_limit:
                    return False
            return False
        starts = images([p])
        for (q,) in starts:
            free[q] = False
        partial = [list(s) for s in starts]
        candidates = [q for q in range(nfin) if free[q]]
        rng.shuffle(candidates)
        if extend(partial, candidates, 0):
            return True
        for (q,) in starts:
            free[q] = True
        return False

    def extend(partial, candidates, start):
        if len(partial[0]) == 4:
            blocks.extend([b[:] for b in partial])
            if solve():
                return True
            del blocks[len(blocks) - len(partial) :]
            return False
        for i in range(start, len(candidates)):
            q = candidates[i]
            qs = [img[0] for img in images([q])]
            if not all(free[x] for x in qs) or len(set(qs)) != len(qs):
                continue
            taken = []
            for block, x in zip(partial, qs):
                for y in block:
                    c = cls[x][y]
                    if c < 0 or used[c] or c in taken:
                        taken = None
                        break
                    taken.append(c)
                if taken is None:
                    break
            if taken is None:
                continue
            for c in taken:
                used[c] = True
            for block, x in zip(partial, qs):
                block.append(x)
                free[x] = False
            if extend(partial, candidates, i + 1):
                return True
            for block, x in zip(partial, qs):
                block.pop()
                free[x] = True
            for c in taken:
                used[c] = False
            if nodes > node_limit:
                return False
        return False

    return blocks if solve() else None


def _commit(new_blocks, taken, used, free, blocks):
    for c in taken:
        used[c] = True
    for block in new_blocks:
        for q in block:
            free[q] = False
        blocks.append(block)
    return True


def _undo(new_blocks, taken, used, free, blocks):
    for c in taken:
        used[c] = False
    for block in new_blocks:
        for q in block:
            free[q] = True
        blocks.pop()
