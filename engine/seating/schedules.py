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

from engine.seating import designs, letters
from engine.seating.plan import MAX_LOOKAHEAD, org_matrix
from engine.seating.quality import quality_report
from engine.seating.search import fair_order, field_plan, lookahead, plan_rounds
from engine.seating.tables import (
    LETTERS,
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


def _design_size(n):
    """Points of the built-in schedule that seats ``n`` players (their 3-tables filled
    up with absent "virtual" players), or None."""
    size = n + table_sizes(n).count(3)
    return size if designs.rounds_available(size) else None


@functools.lru_cache(maxsize=32)
def _design_plan(round1, organisations, total):
    """The built-in schedule laid over the players of round 1, or None.

    ``round1``: round 1's tables (tuples of player ids in letter order);
    ``organisations``: sorted (player, organisation) pairs or None; ``total``: rounds
    planned.  Returns ``(label, classes, order, seatings)``: ``label[point]`` is a
    player id or None (a virtual player), ``classes`` the schedule's rounds (lists of
    point blocks), ``order`` the classes in the order to play them (round 1's class
    first, the others fair to 3-table players, see ``fair_order``) and ``seatings``
    rounds 2..``total`` with their letters.  None when the
    tournament does not fit the schedule.

    Round 1's 3-tables are the blocks of its class that hold a virtual point; with two
    or three virtual points these lie in one block, whose class is left out (it would
    need a 2- or 1-table).  Round 1's tables go to the blocks at random, but seeded by
    round 1, so the same at every later draw and unknown before round 1 is drawn.
    Within a block, a player takes the point whose letter in round 1 is his: the
    letters of the rounds to play are chosen first, on the points, all together
    (``letters.colour_rounds``), so everyone's letters stay balanced.  With
    organisations, players of a block then exchange points where that keeps players
    of one organisation apart (organisations come first), and the rounds to play are
    lettered again after round 1 (``letters.assign``).
    """
    players = [p for table in round1 for p in table]
    n = len(players)
    size = _design_size(n)
    if size is None or sorted(map(len, round1), reverse=True) != table_sizes(n):
        return None
    classes = designs.schedule(size)
    rng = random.Random(plan_seed([to_seating(round1)], players, "design"))
    virtual_count = size - n
    skip = None
    if virtual_count <= 1:
        first = rng.randrange(len(classes))
        virtual_points = [rng.choice(rng.choice(classes[first]))] if virtual_count else []
    else:
        skip = rng.randrange(len(classes))
        block = rng.choice(classes[skip])
        virtual_points = rng.sample(block, virtual_count)
        first = rng.choice([c for c in range(len(classes)) if c != skip])
    order = [c for c in range(len(classes)) if c not in (first, skip)]
    if total > len(order) + 1:
        return None
    virtual = set(virtual_points)
    threes = [b for b in classes[first] if virtual.intersection(b)]
    fours = [b for b in classes[first] if not virtual.intersection(b)]
    rng.shuffle(threes)
    rng.shuffle(fours)
    tables = sorted(round1, key=len)  # 3-tables first
    rng.shuffle(order)
    sizes = table_sizes(n)

    def tables_of(c):
        tables = [[p for p in block if p not in virtual] for block in classes[c]]
        return sorted(tables, key=len, reverse=True)

    prior = [0] * size
    for block in threes:
        for p in block:
            prior[p] = 1
    order = [order[i] for i in fair_order([tables_of(c) for c in order], sizes, prior)]
    best, best_key = None, None
    for attempt in range(_ORG_TRIES if organisations else 1):
        if attempt and 3 not in sizes:
            # Any of the rounds will do: try other sets for organisations and letters.
            order = rng.sample(order, len(order))
        planned = [tables_of(first)] + [tables_of(c) for c in order[: total - 1]]
        played = [classes[c] for c in order[: total - 1]]
        coloured = letters.colour_rounds(planned, rng)
        at_block = {frozenset(tbl): tbl for tbl in coloured[0]}
        label = [None] * size
        for table, block in zip(tables, threes + fours):
            points = at_block[frozenset(p for p in block if p not in virtual)]
            for pid, point in zip(table, points):
                label[point] = pid
        if not organisations:
            best = label, order, [[[label[p] for p in tbl] for tbl in rnd] for rnd in coloured[1:]]
            break
        clashes = _separate_organisations(label, played, classes[first], dict(organisations))
        rounds = [[[label[p] for p in tbl] for tbl in rnd] for rnd in coloured[1:]]
        rounds, excess = _reletter_after_round1(round1, rounds, rng)
        if best is None or (clashes, excess) < best_key:
            best, best_key = (label, order, rounds), (clashes, excess)
        if not any(best_key):
            break
    label, order, rounds = best
    return label, classes, [first] + order, [to_seating(rnd) for rnd in rounds]


def _reletter_after_round1(round1, rounds, rng):
    """Letters for ``rounds`` (tables of player ids) after ``round1`` (tables of player
    ids in letter order), as balanced as ``letters.assign`` finds them, and
    their total excess."""
    counts, fours = {}, {}
    for table in round1:
        for letter, pid in enumerate(table):
            counts[pid] = [int(letter == i) for i in range(letters.LETTER_COUNT)]
            fours[pid] = int(len(table) == 4)
    return letters.assign(rounds, counts, fours, rng)


def _separate_organisations(label, classes, first_blocks, organisations):
    """Exchange the labels of two players within round 1's blocks while that lowers the number
    of same-organisation pairs at a table in ``classes`` (round 1 stays as drawn).
    Returns the number of such pairs left."""
    others = [block for rnd in classes for block in rnd]
    where = {}
    for block in others:
        for p in block:
            where.setdefault(p, []).append(block)
    for block in first_blocks:
        for p in block:
            where.setdefault(p, [])

    def clashes(p):
        org = organisations.get(label[p]) if label[p] is not None else None
        if org is None:
            return 0
        return sum(
            1
            for block in where[p]
            for q in block
            if q != p and label[q] is not None and organisations.get(label[q]) == org
        )

    improved = True
    while improved:
        improved = False
        for block in first_blocks:
            for i, p in enumerate(block):
                for q in block[i + 1 :]:
                    if label[p] is None or label[q] is None:
                        continue  # an absent player's place stays where the schedule's 3-table is
                    before = clashes(p) + clashes(q)
                    if before == 0:
                        continue
                    label[p], label[q] = label[q], label[p]
                    if clashes(p) + clashes(q) < before:
                        improved = True
                    else:
                        label[p], label[q] = label[q], label[p]
    return sum(clashes(p) for block in first_blocks for p in block) // 2


def design_round(ids, history, total, organisations, effort):
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
    round1 = tuple(tuple(table[letter] for letter in LETTERS if letter in table) for table in history[0])
    orgs = None
    if organisations:
        orgs = tuple(sorted(((p, o) for p, o in organisations.items() if o is not None), key=lambda item: sort_key(item[0])))
    designed = _design_plan(round1, orgs, total)
    if designed is None:
        return None
    label, classes, order, planned = designed
    virtual_count = sum(1 for pid in label if pid is None)
    if virtual_count >= 2 and planned is not None and _search_does_better(history, total, organisations, effort, planned):
        return None
    if planned is not None and set(ids) == set(label) - {None}:
        done = len(history) - 1
        if done < len(planned) and list(history[1:]) == planned[:done]:
            return planned[done]
    label = list(label)
    free_points = [p for p, pid in enumerate(label) if pid is None]
    known = set(label)
    for pid in ids:
        if pid not in known:
            if not free_points:
                return None
            label[free_points.pop(0)] = pid
    point_of = {pid: p for p, pid in enumerate(label) if pid is not None}
    played = set()
    for rnd in history[1:]:
        pairs = {
            frozenset((point_of[a], point_of[b]))
            for table in rnd
            for a, b in itertools.combinations(table.values(), 2)
            if a in point_of and b in point_of
        }
        shared = {
            c: sum(1 for block in classes[c] for pair in itertools.combinations(block, 2) if frozenset(pair) in pairs)
            for c in order
        }
        best = max(order, key=lambda c: shared[c])
        if 2 * shared[best] >= len(pairs):
            played.add(best)
    left = [c for c in order if c not in played]
    if not left:
        return None
    n = len(ids)
    sizes = table_sizes(n)
    index = {pid: i for i, pid in enumerate(ids)}
    rounds = []
    for c in left:
        tables = [[index[label[p]] for p in block if label[p] in index] for block in classes[c]]
        rounds.append(sorted((t for t in tables if t), key=len, reverse=True))
    base_m, base_k3, base_lc, four = history_counts(ids, history)
    fitting = [r for r in rounds if [len(t) for t in r] == sizes]
    fitting = [r for r in fitting if not any(base_m[p][q] for t in r for p in t for q in t if p != q)]
    needed = total - len(history)
    if len(fitting) < needed:
        initial = [_fit_sizes(r, sizes) for r in rounds[: max(needed, 1)]]
        rng = random.Random(plan_seed(history, ids, total))
        return plan_rounds(ids, history, len(initial), rng, organisations, effort, initial=initial)[0]
    return index_seating(ids, _schedule_choice(fitting, max(needed, 1), sizes, history, ids, total, organisations, base_k3, base_lc, four))


def _schedule_choice(fitting, needed, sizes, history, ids, total, organisations, base_k3, base_lc, four):
    """The next round (tables of player indices in letter order) among unplayed
    schedule rounds that fit: ``needed`` of them are planned, 3-table fair first.

    Tried in turn until one keeps organisations apart and every letter balanced: the
    fair order; any ``needed`` rounds when there is no 3-table; each round that is as
    fair a start as the first.  The best is kept: fewest organisation clashes, then
    least letter excess in this round, then in the rounds after it.
    """
    rng = random.Random(plan_seed(history, ids, total))
    choices = [[fitting[t] for t in fair_order(fitting, sizes, base_k3)[:needed]]]
    if 3 not in sizes and len(fitting) > needed and organisations:
        choices += [rng.sample(fitting, needed) for _ in range(_ORG_TRIES)]
    for i in range(len(fitting)):
        ordered = [fitting[i]] + fitting[:i] + fitting[i + 1 :]
        order = fair_order(ordered, sizes, base_k3, keep_first=True)
        if order[0] == 0:
            choices.append([ordered[t] for t in order[:needed]])
    org_w = org_matrix(ids, organisations)
    check = letters.letter_check(base_lc, four)
    best, best_key = None, None
    for ahead in choices:
        clashes = sum(org_w[p][q] for t in ahead for tbl in t for p in tbl for q in tbl) if org_w else 0
        feasible = all(check.ok(check.code(tbl, s), s) for tbl, s in zip(ahead[0], sizes))
        if best is not None and (clashes, not feasible) > best_key[:2]:
            continue
        lettered, excess = letters.assign(ahead, base_lc, four, rng)
        first = letters.total_excess(lettered[:1], base_lc, four)
        key = (clashes, first > 0, first, excess)
        if best is None or key < best_key:
            best, best_key = lettered[0], key
        if not any(key):
            break
    return best


def _fit_sizes(tables, sizes):
    """Tables (lists of player indices) made to the given sizes with few moves.

    Tables are matched to sizes largest first; players over a table's size are moved to
    the tables short of players.
    """
    tables = sorted((t[:] for t in tables), key=len, reverse=True)
    while len(tables) < len(sizes):
        tables.append([])
    spare = []
    for t, s in zip(tables, sizes):
        while len(t) > s:
            spare.append(t.pop())
    for t in tables[len(sizes):]:
        spare.extend(t)
    out = tables[: len(sizes)]
    for t, s in zip(out, sizes):
        while len(t) < s:
            t.append(spare.pop())
    return out


def _search_does_better(history, total, organisations, effort, scheduled):
    """Whether the plain search seats the field of round 1 better than the schedule does.

    With two or three absent players the schedule's 3-tables are where they sit, so who
    sits at a 3-table is fixed by the schedule: where the search also meets nobody twice
    it rotates the 3-tables more fairly (SPEC §5: repeats, the worst pair, then 3-tables,
    then letters).  Decided from round 1 alone, so every later draw decides alike; when
    meetings are plentiful (no look-ahead) the search needs no comparison.
    """
    ids = stable_order(round_players(history[0]))
    n = len(ids)
    if lookahead(n, total, max(table_sizes(n))) == 1:
        return True
    if total - 1 > MAX_LOOKAHEAD:
        return False
    searched, _ = field_plan(ids, history[:1], total, total - 1, organisations, effort)

    def key(rounds):
        report = quality_report([history[0], *rounds])
        return report["repeat_pairs"], report["worst_pair"], report["three_table_repeats"], report["unbalanced"]

    return key(searched) < key(scheduled)
