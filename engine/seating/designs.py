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
from collections.abc import Sequence

Blocks = tuple[tuple[tuple[int, ...], ...], ...]  # rounds of blocks of points

# Affine spaces over GF(4): n -> dimension.
_AFFINE: dict[int, int] = {16: 2, 64: 3}

# Schedules with GF(2)^3 as symmetries: n -> per orbit of rounds, the mask of the round
# action and the base blocks (point 8*i + v, v in GF(2)^3, i in 0..3; see ``_binary_rounds``).
_BINARY: dict[int, tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]] = {
    32: (
        (0, ((0, 5, 26, 31), (8, 12, 19, 23))),
        (0, ((0, 3, 4, 7), (8, 15, 26, 29), (16, 18, 21, 23))),
        (0, ((0, 6, 17, 23), (8, 11, 13, 14), (24, 26, 28, 30))),
        (0, ((0, 14, 20, 30),)),
        (2, ((0, 12, 21, 29), (2, 15, 18, 27))),
        (2, ((0, 10, 18, 28), (2, 13, 17, 26))),
        (4, ((0, 2, 9, 11), (4, 12, 18, 31), (20, 23, 24, 27))),
    )
}

# n -> (m, f, eps, seed): n = 3m + f players, m rounds.  eps None: no symmetry asked.
_CYCLIC: dict[int, tuple[int, int, int | None, int]] = {
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


def sizes() -> list[int]:
    """Numbers of players with a built-in schedule, ascending."""
    return sorted(set(_AFFINE) | set(_BINARY) | set(_CYCLIC))


def rounds_available(player_count: int) -> int:
    """Rounds of the built-in schedule for exactly ``player_count`` players (0 if none)."""
    if player_count in _AFFINE or player_count in _BINARY:
        return (player_count - 1) // 3
    params = _CYCLIC.get(player_count)
    return params[0] if params else 0


@functools.cache
def _schedule(player_count: int) -> Blocks:
    """The built-in schedule's rounds (tuples of point blocks), checked by ``verify``."""
    if player_count in _AFFINE:
        rounds = _affine_rounds(_AFFINE[player_count])
    elif player_count in _BINARY:
        rounds = _binary_rounds(_BINARY[player_count])
    else:
        orbit, fixed, multiplier, seed = _CYCLIC[player_count]
        base = _base_round(orbit, fixed, multiplier, seed)
        if base is None:  # pragma: no cover - the parameters above are tested
            raise RuntimeError(f"no base round for {player_count} players")
        rounds = tuple(
            tuple(tuple(_translate(point, shift, orbit) for point in block) for block in base) for shift in range(orbit)
        )
    if verify(rounds, player_count) != 0:  # pragma: no cover - a broken construction must not seat anyone
        raise RuntimeError(f"the schedule for {player_count} players has repeat meetings")
    return rounds


def schedule(player_count: int) -> list[list[list[int]]] | None:
    """The rounds of the built-in schedule for ``player_count`` players, or None.

    Each round is a list of blocks (lists of 4 points); points are ``0 .. player_count-1``.
    No pair of points shares a block twice.  Computed once per process (well under a
    second).
    """
    if rounds_available(player_count) == 0:
        return None
    return [[list(block) for block in blocks] for blocks in _schedule(player_count)]


def verify(rounds: Sequence[Sequence[Sequence[int]]], point_count: int) -> int:
    """Number of repeat meetings in ``rounds``; raises ValueError unless each round
    seats every point of ``0 .. point_count-1`` exactly once."""
    seen: set[tuple[int, int]] = set()
    repeats = 0
    for blocks in rounds:
        points = sorted(point for block in blocks for point in block)
        if points != list(range(point_count)):
            raise ValueError("a round does not seat every point exactly once")
        for block in blocks:
            for i, point in enumerate(block):
                for other in block[i + 1 :]:
                    pair = (point, other) if point < other else (other, point)
                    if pair in seen:
                        repeats += 1
                    seen.add(pair)
    return repeats


# GF(4) = {0, 1, w, w+1} numbered 0, 1, 2, 3: addition is XOR, and w*w = w+1.
_GF4_MUL = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))


def _affine_rounds(dimension: int) -> Blocks:
    """Parallel classes of lines of the affine space AG(dimension, 4): 4**dimension points,
    4-point lines.

    A point is a vector over GF(4), numbered in base 4.  Each direction (a nonzero vector
    whose first nonzero coordinate is 1; (4**dimension - 1)/3 of them) gives a round: its
    lines ``{p + c*d : c in GF(4)}`` partition the points.  Two points lie on exactly one
    line, so no pair meets twice.
    """
    point_count = 4**dimension
    directions = [
        vector
        for vector in (_gf4_vector(point, dimension) for point in range(1, point_count))
        if next(c for c in vector if c) == 1
    ]
    rounds: list[tuple[tuple[int, ...], ...]] = []
    for direction in directions:
        seen: set[int] = set()
        lines: list[tuple[int, ...]] = []
        for point in range(point_count):
            if point in seen:
                continue
            vector = _gf4_vector(point, dimension)
            line = [_gf4_number([a ^ _GF4_MUL[c][b] for a, b in zip(vector, direction)]) for c in range(4)]
            seen.update(line)
            lines.append(tuple(line))
        rounds.append(tuple(lines))
    return tuple(rounds)


def _gf4_vector(point: int, dimension: int) -> list[int]:
    """The coordinates over GF(4) of a point numbered in base 4."""
    return [(point >> (2 * i)) & 3 for i in range(dimension)]


def _gf4_number(vector: Sequence[int]) -> int:
    """The number of a point from its coordinates over GF(4)."""
    return sum(c << (2 * i) for i, c in enumerate(vector))


def _binary_rounds(orbits: Sequence[tuple[int, Sequence[tuple[int, ...]]]]) -> Blocks:
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
    rounds: list[tuple[tuple[int, ...], ...]] = []
    for mask, base_blocks in orbits:
        halves: tuple[dict[tuple[int, ...], None], ...] = ({}, {}) if mask else ({},)
        for block in base_blocks:
            for translation in range(8):
                moved = tuple(sorted(point ^ translation for point in block))
                halves[bin(translation & mask).count("1") % 2][moved] = None
        rounds.extend(tuple(half) for half in halves)
    return tuple(rounds)


def _translate(point: int, shift: int, orbit: int) -> int:
    """Point ``(a, x)`` moved to ``(a + shift, x)`` in ``Z_orbit``; fixed points stay."""
    if point >= 3 * orbit:
        return point
    x, a = divmod(point, orbit)
    return x * orbit + (a + shift) % orbit


def _pair_classes(orbit: int, fixed: int) -> tuple[list[list[int]], int]:
    """classes[p][q]: the class number of the pair {p, q} of points, or -1 if it may not be
    in a block; and the number of classes."""
    finite = 3 * orbit
    point_count = finite + fixed
    numbers: dict[tuple[object, ...], int] = {}
    classes = [[-1] * point_count for _ in range(point_count)]
    for p in range(point_count):
        for q in range(point_count):
            if p == q or (p >= finite and q >= finite):
                continue
            key = _pair_class(p, q, orbit, finite)
            if key is not None:
                classes[p][q] = numbers.setdefault(key, len(numbers))
    return classes, len(numbers)


def _pair_class(p: int, q: int, orbit: int, finite: int) -> tuple[object, ...] | None:
    """The class of the pair {p, q} (see the module notes), or None if it may not be in a
    block (a difference d with 2d = 0)."""
    if p >= finite or q >= finite:
        point, fixed_point = (p, q) if q >= finite else (q, p)
        return ("fixed", fixed_point, point // orbit)
    x, a = divmod(p, orbit)
    y, b = divmod(q, orbit)
    if x == y:
        difference = (b - a) % orbit
        difference = min(difference, orbit - difference)
        if 2 * difference % orbit == 0:
            return None
        return ("pure", x, difference)
    if x > y:
        x, y, a, b = y, x, b, a
    return ("mixed", x, y, (b - a) % orbit)


def _base_round(
    orbit: int, fixed: int, multiplier: int | None, seed: int, node_limit: int = 200_000
) -> list[list[int]] | None:
    """A base round (list of blocks) whose pairs are of pairwise different classes, or None.

    ``orbit``, ``fixed``, ``multiplier``: m, f and eps of the module notes.  Depth-first:
    the lowest unplaced point (fixed points first) gets three partners.  With a
    ``multiplier``, the base round is invariant under tau (see the module notes): a block
    is added together with its images under tau and tau^2, and a block holding a fixed
    point that tau keeps is ``{fixed, P, tau P, tau^2 P}``.  Fixed points are kept by tau
    unless there are exactly three of them, which tau then cycles.
    """
    search = _BaseRoundSearch(orbit, fixed, multiplier, seed, node_limit)
    return search.blocks if search.solve() else None


def _symmetry(orbit: int, fixed: int, multiplier: int | None) -> list[int]:
    """tau as a list: point -> its image (the identity without a multiplier)."""
    finite = 3 * orbit
    if multiplier is None:
        return list(range(finite + fixed))
    tau = [((p // orbit + 1) % 3) * orbit + (multiplier * (p % orbit)) % orbit for p in range(finite)]
    tau += [finite + (j + 1) % 3 if fixed == 3 else finite + j for j in range(fixed)]
    return tau


class _BaseRoundSearch:
    """The depth-first search of ``_base_round``: blocks placed so far, pair classes and
    points in use, and the nodes visited (the search gives up past ``node_limit``)."""

    def __init__(self, orbit: int, fixed: int, multiplier: int | None, seed: int, node_limit: int) -> None:
        self.orbit = orbit
        self.finite = 3 * orbit
        self.point_count = self.finite + fixed
        self.pair_class, class_count = _pair_classes(orbit, fixed)
        self.rng = random.Random(seed)
        self.symmetric = multiplier is not None
        self.tau = _symmetry(orbit, fixed, multiplier)
        self.used = [False] * class_count
        self.free = [True] * self.point_count
        self.blocks: list[list[int]] = []
        self.nodes = 0
        self.node_limit = node_limit

    def images(self, points: list[int]) -> list[list[int]]:
        """The orbit of a list of points under tau (1 or 3 lists)."""
        if not self.symmetric:
            return [points]
        once = [self.tau[p] for p in points]
        return [points, once, [self.tau[p] for p in once]]

    def solve(self) -> bool:
        """Complete the base round from the blocks placed so far; whether it succeeded."""
        free = self.free
        fixed_left = [p for p in range(self.finite, self.point_count) if free[p]]
        if fixed_left:
            p = fixed_left[0]
        elif True in free:
            p = free.index(True)
        else:
            return True
        self.nodes += 1
        if self.nodes > self.node_limit:
            return False
        if self.symmetric and self.tau[p] == p:
            return self._fixed_point_block(p)
        starts = self.images([p])
        for (q,) in starts:
            free[q] = False
        partial = [list(start) for start in starts]
        candidates = [q for q in range(self.finite) if free[q]]
        self.rng.shuffle(candidates)
        if self._extend(partial, candidates, 0):
            return True
        for (q,) in starts:
            free[q] = True
        return False

    def _fixed_point_block(self, p: int) -> bool:
        """Place the block ``{p, P, tau P, tau^2 P}`` of a fixed point p that tau keeps."""
        tau = self.tau
        options = [[p, a, tau[a], tau[tau[a]]] for a in range(self.orbit)]
        self.rng.shuffle(options)
        for block in options:
            if not all(self.free[q] for q in block[1:]):
                continue
            taken = self._block_classes(block)
            if taken is None:
                continue
            self._commit(block, taken)
            if self.solve():
                return True
            self._undo(block, taken)
            if self.nodes > self.node_limit:
                return False
        return False

    def _block_classes(self, block: list[int]) -> list[int] | None:
        """Classes of the block's pairs, or None if one is taken or repeated."""
        taken: list[int] = []
        for i, p in enumerate(block):
            for q in block[i + 1 :]:
                pair_class = self.pair_class[p][q]
                if pair_class < 0 or self.used[pair_class] or pair_class in taken:
                    return None
                taken.append(pair_class)
        return taken

    def _commit(self, block: list[int], taken: list[int]) -> None:
        """Place ``block``, whose pairs are of the classes ``taken``."""
        for pair_class in taken:
            self.used[pair_class] = True
        for q in block:
            self.free[q] = False
        self.blocks.append(block)

    def _undo(self, block: list[int], taken: list[int]) -> None:
        """Take back the last block placed by ``_commit``."""
        for pair_class in taken:
            self.used[pair_class] = False
        for q in block:
            self.free[q] = True
        self.blocks.pop()

    def _extend(self, partial: list[list[int]], candidates: list[int], start: int) -> bool:
        """Add a partner (with its images) to the ``partial`` blocks from ``candidates[start:]``,
        until they hold 4 points; then go on with the next blocks."""
        if len(partial[0]) == 4:
            self.blocks.extend([block[:] for block in partial])
            if self.solve():
                return True
            del self.blocks[len(self.blocks) - len(partial) :]
            return False
        free = self.free
        for i in range(start, len(candidates)):
            joining = [image[0] for image in self.images([candidates[i]])]
            if not all(free[x] for x in joining) or len(set(joining)) != len(joining):
                continue
            taken = self._joining_classes(partial, joining)
            if taken is None:
                continue
            for pair_class in taken:
                self.used[pair_class] = True
            for block, x in zip(partial, joining):
                block.append(x)
                free[x] = False
            if self._extend(partial, candidates, i + 1):
                return True
            for block, x in zip(partial, joining):
                block.pop()
                free[x] = True
            for pair_class in taken:
                self.used[pair_class] = False
            if self.nodes > self.node_limit:
                return False
        return False

    def _joining_classes(self, partial: list[list[int]], joining: list[int]) -> list[int] | None:
        """Classes of the pairs the ``joining`` points make with the ``partial`` blocks, or
        None if one is taken or repeated."""
        taken: list[int] = []
        for block, x in zip(partial, joining):
            for y in block:
                pair_class = self.pair_class[x][y]
                if pair_class < 0 or self.used[pair_class] or pair_class in taken:
                    return None
                taken.append(pair_class)
        return taken
