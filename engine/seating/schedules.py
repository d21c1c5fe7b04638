"""The built-in zero-repeat schedules (``engine.seating.designs``) laid over round 1.

While the rounds planned fit a schedule for the field of round 1 (its 3-tables filled up
with absent "virtual" players), "mixed" draws follow it instead of searching:
``design_round`` gives the next round, also after withdrawals, late arrivals and rounds
seated otherwise.  With two or three virtual players the search is used instead where it
does better (``_search_does_better``).
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Hashable, Mapping, Sequence

from engine.seating import designs, letters
from engine.seating.plan import MAX_LOOKAHEAD, org_matrix
from engine.seating.quality import quality_report
from engine.seating.search import fair_order, field_plan, lookahead, plan_rounds
from engine.seating.tables import (
    LETTERS,
    HistoryCounts,
    Organisations,
    PlayerId,
    Seating,
    Tables,
    history_counts,
    index_seating,
    plan_seed,
    round_players,
    sort_key,
    stable_order,
    table_sizes,
    to_seating,
)

# Other sets of schedule rounds (or letterings of a schedule) tried for organisations
# kept apart with balanced letters.
_ORG_TRIES = 6

Round1 = tuple[tuple[PlayerId, ...], ...]  # round 1's tables, players in letter order
OrgPairs = tuple[tuple[PlayerId, Hashable], ...]  # (player, organisation), sorted by player
Classes = list[list[list[int]]]  # the schedule's rounds: blocks of points
Label = list[PlayerId | None]  # the player on each point (None: a virtual player)
# The schedule over round 1: labels, classes, their playing order, the rounds after round 1.
DesignPlan = tuple[Label, Classes, list[int], list[Seating]]


@functools.lru_cache(maxsize=32)
def _design_plan(round1: Round1, organisations: OrgPairs | None, total: int) -> DesignPlan | None:
    """The built-in schedule laid over the players of round 1, or None.

    ``round1``: round 1's tables (tuples of player ids in letter order);
    ``organisations``: sorted (player, organisation) pairs or None; ``total``: rounds
    planned.  Returns ``(label, classes, order, seatings)``: ``label[point]`` is a
    player id or None (a virtual player), ``classes`` the schedule's rounds (lists of
    point blocks), ``order`` the classes in the order to play them (round 1's class
    first, the others fair to 3-table players, see ``fair_order``) and ``seatings``
    rounds 2..``total`` with their letters.  None when the tournament does not fit the
    schedule (see ``_Layout``).

    Within a block, a player takes the point whose letter in round 1 is his: the
    letters of the rounds to play are chosen first, on the points, all together
    (``letters.colour_rounds``), so everyone's letters stay balanced.  With
    organisations, players of a block then exchange points where that keeps players
    of one organisation apart (organisations come first), and the rounds to play are
    lettered again after round 1 (``letters.assign``); other sets of rounds are tried
    while that leaves a clash or unbalanced letters.
    """
    layout = _Layout.over(round1, total)
    if layout is None:
        return None
    best: tuple[tuple[int, int], Label, list[int], list[list[list[PlayerId]]]] | None = None
    for attempt in range(_ORG_TRIES if organisations else 1):
        if attempt and 3 not in layout.sizes:
            # Any of the rounds will do: try other sets for organisations and letters.
            layout.order = layout.rng.sample(layout.order, len(layout.order))
        label, rounds, key = _labelled_rounds(round1, layout, organisations, total)
        if best is None or key < best[0]:
            best = key, label, layout.order, rounds
        if not any(best[0]):
            break
    assert best is not None  # there is always a first attempt
    _, label, order, rounds = best
    return label, layout.classes, [layout.first] + order, [to_seating(seating) for seating in rounds]


class _Layout:
    """Where round 1 lies in the schedule: its class, the virtual points, the other classes.

    Round 1's 3-tables are the blocks of its class that hold a virtual point; with two
    or three virtual points these lie in one block, whose class is left out (it would
    need a 2- or 1-table).  Round 1's tables go to the blocks at random, but seeded by
    round 1, so the same at every later draw and unknown before round 1 is drawn.
    """

    def __init__(
        self,
        classes: Classes,
        sizes: list[int],
        rng: random.Random,
        first: int,
        virtual_points: list[int],
        others: list[int],
    ) -> None:
        """Round 1's blocks and the ``others`` classes are shuffled with ``rng``, then
        those classes are put in an order fair to 3-table players."""
        self.classes = classes
        self.size = sum(map(len, classes[0]))  # points of the schedule
        self.sizes = sizes
        self.rng = rng
        self.first = first  # round 1's class
        self.virtual = set(virtual_points)
        threes = [block for block in classes[first] if self.virtual.intersection(block)]
        fours = [block for block in classes[first] if not self.virtual.intersection(block)]
        rng.shuffle(threes)
        rng.shuffle(fours)
        self.round1_blocks = threes + fours  # in the order of round 1's tables, 3-tables first
        rng.shuffle(others)
        prior = [0] * self.size
        for block in threes:
            for point in block:
                prior[point] = 1
        fair = fair_order([self.tables_of(c) for c in others], sizes, prior)
        self.order = [others[i] for i in fair]  # the classes after round 1's, in playing order

    @classmethod
    def over(cls, round1: Round1, total: int) -> _Layout | None:
        """The layout of the schedule over ``round1`` for ``total`` rounds, or None."""
        player_count = sum(map(len, round1))
        sizes = table_sizes(player_count)
        # The schedule that seats the field with its 3-tables filled up by virtual players.
        classes = designs.schedule(player_count + sizes.count(3))
        if classes is None or sorted(map(len, round1), reverse=True) != sizes:
            return None
        size = sum(map(len, classes[0]))
        players = [pid for table in round1 for pid in table]
        rng = random.Random(plan_seed([to_seating(round1)], players, "design"))
        first, skip, virtual_points = _place_virtual_points(classes, size - player_count, rng)
        others = [c for c in range(len(classes)) if c not in (first, skip)]
        if total > len(others) + 1:
            return None
        return cls(classes, sizes, rng, first, virtual_points, others)

    def tables_of(self, number: int) -> Tables:
        """The tables of class ``number`` (real points only), the largest first."""
        tables = [[point for point in block if point not in self.virtual] for block in self.classes[number]]
        return sorted(tables, key=len, reverse=True)


def _place_virtual_points(
    classes: Classes, virtual_count: int, rng: random.Random
) -> tuple[int, int | None, list[int]]:
    """Round 1's class, the class left out (or None) and the virtual points, at random."""
    skip = None
    if virtual_count <= 1:
        first = rng.randrange(len(classes))
        virtual_points = [rng.choice(rng.choice(classes[first]))] if virtual_count else []
    else:
        skip = rng.randrange(len(classes))
        block = rng.choice(classes[skip])
        virtual_points = rng.sample(block, virtual_count)
        first = rng.choice([c for c in range(len(classes)) if c != skip])
    return first, skip, virtual_points


def _labelled_rounds(
    round1: Round1, layout: _Layout, organisations: OrgPairs | None, total: int
) -> tuple[Label, list[list[list[PlayerId]]], tuple[int, int]]:
    """One lettering of the schedule's rounds with players on its points.

    Returns ``(label, rounds, key)``: the player of each point, rounds 2..``total`` as
    tables of player ids in letter order, and (organisation clashes, letter excess).
    """
    order = layout.order[: total - 1]
    planned = [layout.tables_of(layout.first)] + [layout.tables_of(c) for c in order]
    coloured = letters.colour_rounds(planned, layout.rng)
    assert coloured is not None  # without earlier letters a colouring always exists
    at_block = {frozenset(table): table for table in coloured[0]}
    label: Label = [None] * layout.size
    for table, block in zip(sorted(round1, key=len), layout.round1_blocks):
        points = at_block[frozenset(point for point in block if point not in layout.virtual)]
        for pid, point in zip(table, points):
            label[point] = pid
    if not organisations:
        return label, [[[label[point] for point in table] for table in tables] for tables in coloured[1:]], (0, 0)
    played = [layout.classes[c] for c in order]
    clashes = _separate_organisations(label, played, layout.classes[layout.first], dict(organisations))
    rounds = [[[label[point] for point in table] for table in tables] for tables in coloured[1:]]
    rounds, excess = _reletter_after_round1(round1, rounds, layout.rng)
    return label, rounds, (clashes, excess)


def _reletter_after_round1(
    round1: Round1, rounds: list[list[list[PlayerId]]], rng: random.Random
) -> tuple[list[list[list[PlayerId]]], int]:
    """Letters for ``rounds`` (tables of player ids) after ``round1`` (tables of player
    ids in letter order), as balanced as ``letters.assign`` finds them, and
    their total excess."""
    counts: dict[PlayerId, list[int]] = {}
    fours: dict[PlayerId, int] = {}
    for table in round1:
        for letter, pid in enumerate(table):
            counts[pid] = [int(letter == i) for i in range(letters.LETTER_COUNT)]
            fours[pid] = int(len(table) == 4)
    return letters.assign(rounds, counts, fours, rng)


def _separate_organisations(
    label: Label, classes: Classes, first_blocks: list[list[int]], organisations: Mapping[PlayerId, Hashable]
) -> int:
    """Exchange the labels of two players within round 1's blocks while that lowers the number
    of same-organisation pairs at a table in ``classes`` (round 1 stays as drawn).
    Returns the number of such pairs left."""
    blocks_of: dict[int, list[list[int]]] = {}
    for tables in classes:
        for block in tables:
            for point in block:
                blocks_of.setdefault(point, []).append(block)
    for block in first_blocks:
        for point in block:
            blocks_of.setdefault(point, [])

    def clashes(point: int) -> int:
        """Same-organisation tablemates of the player on ``point`` in ``classes``."""
        org = organisations.get(label[point]) if label[point] is not None else None
        if org is None:
            return 0
        return sum(
            1
            for block in blocks_of[point]
            for other in block
            if other != point and label[other] is not None and organisations.get(label[other]) == org
        )

    improved = True
    while improved:
        improved = False
        for block in first_blocks:
            for i, point in enumerate(block):
                for other in block[i + 1 :]:
                    if label[point] is None or label[other] is None:
                        continue  # an absent player's place stays where the schedule's 3-table is
                    before = clashes(point) + clashes(other)
                    if before == 0:
                        continue
                    label[point], label[other] = label[other], label[point]
                    if clashes(point) + clashes(other) < before:
                        improved = True
                    else:
                        label[point], label[other] = label[other], label[point]
    return sum(clashes(point) for block in first_blocks for point in block) // 2


def design_round(
    ids: Sequence[PlayerId], history: Sequence[Seating], total: int, organisations: Organisations | None, effort: float
) -> Seating | None:
    """This round from the built-in schedule laid over round 1, or None.

    Used while the tournament fits the schedule (rounds planned at most the rounds it
    has) and round 1 was seated as a random draw of the schedule's size.  While every
    round so far was seated as planned, the next planned round (with its letters) is
    the answer.  Otherwise rounds already played are matched to the schedule's rounds
    by the pairs they share; the next round is an unplayed schedule round, restricted
    to the players now active (withdrawn players leave a 3-table; late arrivals take
    the place of a virtual player), that is fair to 3-table players and meets nobody
    again, and whose letters keep everyone balanced where one can.  When the
    restricted rounds no longer fit the table sizes (several players gone, or more
    arrived than there are virtual places) they are the starting point of the usual
    search.
    """
    designed = _design_plan(*_design_key(history[0], organisations), total)
    if designed is None:
        return None
    label, classes, order, planned = designed
    if label.count(None) >= 2 and _search_does_better(history, total, organisations, effort, planned):
        return None
    if set(ids) == set(label) - {None}:
        done = len(history) - 1
        if done < len(planned) and list(history[1:]) == planned[:done]:
            return planned[done]
    placed = _with_arrivals(label, ids)
    if placed is None:
        return None
    played = _played_classes(history[1:], placed, classes, order)
    rounds = _unplayed_rounds(ids, placed, classes, [c for c in order if c not in played])
    if not rounds:
        return None
    sizes = table_sizes(len(ids))
    base = history_counts(ids, history)
    fitting = [tables for tables in rounds if [len(table) for table in tables] == sizes]
    fitting = [tables for tables in fitting if not _meets_again(tables, base.meetings)]
    needed = total - len(history)
    if len(fitting) < needed:
        initial = [_fit_sizes(tables, sizes) for tables in rounds[: max(needed, 1)]]
        rng = random.Random(plan_seed(history, ids, total))
        return plan_rounds(ids, history, len(initial), rng, organisations, effort, initial=initial)[0]
    chosen = _schedule_choice(fitting, max(needed, 1), sizes, history, ids, total, organisations, base)
    return index_seating(ids, chosen)


def _design_key(round1: Seating, organisations: Organisations | None) -> tuple[Round1, OrgPairs | None]:
    """Round 1 (tuples of player ids in letter order) and the organisations (sorted pairs
    or None) as ``_design_plan`` keeps them."""
    tables = tuple(tuple(table[letter] for letter in LETTERS if letter in table) for table in round1)
    if not organisations:
        return tables, None
    known = ((pid, org) for pid, org in organisations.items() if org is not None)
    return tables, tuple(sorted(known, key=lambda item: sort_key(item[0])))


def _with_arrivals(label: Label, ids: Sequence[PlayerId]) -> Label | None:
    """The schedule's labels with players new since round 1 on virtual points (in order),
    or None when there are more of them than virtual points."""
    label = list(label)
    free_points = [point for point, pid in enumerate(label) if pid is None]
    known = set(label)
    for pid in ids:
        if pid not in known:
            if not free_points:
                return None
            label[free_points.pop(0)] = pid
    return label


def _played_classes(rounds: Sequence[Seating], label: Label, classes: Classes, order: list[int]) -> set[int]:
    """The schedule's classes that ``rounds`` followed: for each round, the class sharing
    most of its pairs, if it shares at least half of them."""
    point_of = {pid: point for point, pid in enumerate(label) if pid is not None}
    played: set[int] = set()
    for seating in rounds:
        pairs = {
            frozenset((point_of[pid], point_of[other]))
            for table in seating
            for pid, other in itertools.combinations(table.values(), 2)
            if pid in point_of and other in point_of
        }
        shared = {
            c: sum(1 for block in classes[c] for pair in itertools.combinations(block, 2) if frozenset(pair) in pairs)
            for c in order
        }
        most = max(order, key=lambda c: shared[c])
        if 2 * shared[most] >= len(pairs):
            played.add(most)
    return played


def _unplayed_rounds(ids: Sequence[PlayerId], label: Label, classes: Classes, unplayed: list[int]) -> list[Tables]:
    """The ``unplayed`` classes as rounds of the players ``ids`` (tables of indices, the
    largest first; empty tables left out)."""
    index = {pid: i for i, pid in enumerate(ids)}
    rounds: list[Tables] = []
    for c in unplayed:
        tables = [[index[label[point]] for point in block if label[point] in index] for block in classes[c]]
        rounds.append(sorted((table for table in tables if table), key=len, reverse=True))
    return rounds


def _meets_again(tables: Tables, meetings: list[list[int]]) -> bool:
    """Whether two players of one of ``tables`` have met before."""
    return any(meetings[p][q] for table in tables for p in table for q in table if p != q)


def _schedule_choice(
    fitting: list[Tables],
    needed: int,
    sizes: list[int],
    history: Sequence[Seating],
    ids: Sequence[PlayerId],
    total: int,
    organisations: Organisations | None,
    base: HistoryCounts,
) -> Tables:
    """The next round (tables of player indices in letter order) among unplayed
    schedule rounds that fit: ``needed`` of them are planned, 3-table fair first.

    Tried in turn until one keeps organisations apart and every letter balanced: the
    fair order; any ``needed`` rounds when there is no 3-table; each round that is as
    fair a start as the first.  The best is kept: fewest organisation clashes, then
    least letter excess in this round, then in the rounds after it.
    """
    rng = random.Random(plan_seed(history, ids, total))
    choices = [[fitting[t] for t in fair_order(fitting, sizes, base.three_seats)[:needed]]]
    if 3 not in sizes and len(fitting) > needed and organisations:
        choices += [rng.sample(fitting, needed) for _ in range(_ORG_TRIES)]
    for i in range(len(fitting)):
        ordered = [fitting[i]] + fitting[:i] + fitting[i + 1 :]
        order = fair_order(ordered, sizes, base.three_seats, keep_first=True)
        if order[0] == 0:
            choices.append([ordered[t] for t in order[:needed]])
    org_weights = org_matrix(ids, organisations)
    check = letters.letter_check(base.letter_counts, base.four_seats)
    best: tuple[tuple[int, bool, int, int], Tables] | None = None  # (key, round)
    for ahead in choices:
        clashes = _clashes(ahead, org_weights)
        feasible = all(check.ok(check.code(table, size), size) for table, size in zip(ahead[0], sizes))
        if best is not None and (clashes, not feasible) > best[0][:2]:
            continue
        lettered, excess = letters.assign(ahead, base.letter_counts, base.four_seats, rng)
        first = letters.total_excess(lettered[:1], base.letter_counts, base.four_seats)
        key = (clashes, first > 0, first, excess)
        if best is None or key < best[0]:
            best = key, lettered[0]
        if not any(key):
            break
    assert best is not None  # the fair order is always a choice
    return best[1]


def _clashes(rounds: list[Tables], org_weights: list[list[int]] | None) -> int:
    """Organisation clash weight of ``rounds`` (each pair counted both ways)."""
    if not org_weights:
        return 0
    return sum(org_weights[p][q] for tables in rounds for table in tables for p in table for q in table)


def _fit_sizes(tables: Tables, sizes: list[int]) -> Tables:
    """Tables (lists of player indices) made to the given sizes with few moves.

    Tables are matched to sizes largest first; players over a table's size are moved to
    the tables short of players.
    """
    tables = sorted((table[:] for table in tables), key=len, reverse=True)
    while len(tables) < len(sizes):
        tables.append([])
    spare: list[int] = []
    for table, size in zip(tables, sizes):
        while len(table) > size:
            spare.append(table.pop())
    for table in tables[len(sizes) :]:
        spare.extend(table)
    fitted = tables[: len(sizes)]
    for table, size in zip(fitted, sizes):
        while len(table) < size:
            table.append(spare.pop())
    return fitted


def _search_does_better(
    history: Sequence[Seating], total: int, organisations: Organisations | None, effort: float, scheduled: list[Seating]
) -> bool:
    """Whether the plain search seats the field of round 1 better than the schedule does.

    With two or three absent players the schedule's 3-tables are where they sit, so who
    sits at a 3-table is fixed by the schedule: where the search also meets nobody twice
    it rotates the 3-tables more fairly (SPEC §5: repeats, the worst pair, then 3-tables,
    then letters).  Decided from round 1 alone, so every later draw decides alike; when
    meetings are plentiful (no look-ahead) the search needs no comparison.
    """
    ids = stable_order(round_players(history[0]))
    if lookahead(len(ids), total, max(table_sizes(len(ids)))) == 1:
        return True
    if total - 1 > MAX_LOOKAHEAD:
        return False
    searched, _ = field_plan(ids, history[:1], total, total - 1, organisations, effort)
    return _plan_quality(history[0], searched) < _plan_quality(history[0], scheduled)


def _plan_quality(round1: Seating, rounds: list[Seating]) -> tuple[int, int, int, int]:
    """SPEC §5's order for round 1 and the planned ``rounds``: repeats, the worst pair,
    3-table repeats, unbalanced letters (lower is better)."""
    report = quality_report([round1, *rounds])
    return report["repeat_pairs"], report["worst_pair"], report["three_table_repeats"], report["unbalanced"]
