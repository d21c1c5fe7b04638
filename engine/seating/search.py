"""Planning rounds by search: greedy rounds improved by the tabu search, with look-ahead.

``plan_rounds`` plans the round to draw together with later ones when meetings are
scarce (``lookahead``), from several seeded greedy starts, and letters the rounds in an
order fair to 3-table players (``fair_order``).  A plan is made when a field starts and
followed by the later draws (``continued_round``); plans are kept per process
(``field_plan``), since every later draw recomputes the same one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.seating import letters
from engine.seating.plan import BASE_BUDGET, LETTER_WEIGHT, MAX_LOOKAHEAD, PAIR_WEIGHT, THREE_WEIGHT, Plan, org_matrix
from engine.seating.settle import settle, worst_pair_so_far
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
    table_sizes,
    to_seating,
)
from engine.seating.tabu import improve, tabu_search

# At most this many seeded attempts per plan.
_MAX_ATTEMPTS = 12


def _greedy_round(plan: Plan, sizes: list[int], rng: random.Random) -> Tables:
    """One round built table by table, each time adding the player who adds least cost.

    3-tables are filled first so they get the players with fewest 3-table seats.
    Uses (and updates) the plan's running counters; returns the tables.
    """
    unplaced = list(range(plan.player_count))
    rng.shuffle(unplaced)
    tables: Tables = [[] for _ in sizes]
    # The first planned round also keeps its tables able to take balanced letters.
    check = plan.letter_check if not plan.members else None
    for j in sorted(range(len(sizes)), key=lambda j: (sizes[j], j)):
        size = sizes[j]
        if size == 3:
            first = min(unplaced, key=lambda p: plan.three_seats[p])
        else:
            first = unplaced[0]
        unplaced.remove(first)
        table = [first]
        while len(table) < size:
            cheapest = _cheapest_to_add(plan, table, size, unplaced, check)
            unplaced.remove(cheapest)
            table.append(cheapest)
        tables[j] = table
        plan.evaluations += plan.player_count * size
    return tables


def _cheapest_to_add(
    plan: Plan, table: list[int], size: int, unplaced: list[int], check: letters.TableCheck | None
) -> int:
    """The unplaced player who adds least cost to ``table`` (the first of equals)."""
    if check is not None:
        terms = check.term[size]
        code = check.code(table, size)
    best, best_cost = unplaced[0], None
    for q in unplaced:
        join = plan.join_cost[q]
        cost = 0
        for x in table:
            cost += join[x]
        if size == 3:
            cost += plan.three_weight * plan.three_seats[q]
        if check is not None and not check.ok(code + terms[q], size):
            cost += LETTER_WEIGHT
        if best_cost is None or cost < best_cost:
            best, best_cost = q, cost
    return best


def lookahead(player_count: int, total_rounds: int, max_seat: int) -> int:
    """How many rounds to plan together (1 = this round alone).

    Looking ahead only pays when meetings are scarce, i.e. when all the rounds
    would use a good part of each player's possible partners.
    """
    if total_rounds * (max_seat - 1) * 2 <= player_count - 1:
        return 1
    return MAX_LOOKAHEAD


def plan_rounds(
    ids: Sequence[PlayerId],
    history: Sequence[Seating],
    round_count: int,
    rng: random.Random,
    organisations: Organisations | None,
    effort: float,
    initial: Sequence[Tables] | None = None,
) -> list[Seating]:
    """Plan ``round_count`` rounds after ``history`` for players ``ids`` (mixed method).

    Several seeded attempts (alternately putting 3-table rotation before or
    after repeat meetings) within the work budget; the best plan is kept, and
    the attempts stop as soon as one has no repeat, fair 3-tables and balanced
    letters.  Returns a list of seatings (lists of table dicts); the first is
    the round to play, the others keep it from blocking later rounds.
    ``initial``: rounds (lists of tables of player indices) to start the first
    attempt from instead of a greedy draw.
    """
    sizes = table_sizes(len(ids))
    base = history_counts(ids, history)
    org_weights = org_matrix(ids, organisations)
    first = None if org_weights else _only_round(ids, history)
    # After round 1 alone its letters do not constrain the plan (see _letters).
    check = None if first is not None else letters.letter_check(base.letter_counts, base.four_seats)
    budget = int(BASE_BUDGET * effort)
    mixed_sizes = 3 in sizes and 4 in sizes
    used = 0
    best: tuple[tuple[int, ...], list[Tables]] | None = None  # (quality, lettered rounds)
    for attempt in range(_MAX_ATTEMPTS):
        plan = Plan(sizes, base, org_weights, random.Random(rng.random()), letter_check=check)
        if mixed_sizes and attempt % 2 == 1:
            plan.three_weight = 3 * PAIR_WEIGHT  # fair 3-tables first, then repeats
        start = initial if attempt == 0 else None
        _search(plan, round_count, start, max(budget - used, budget // 8))
        improve(plan, budget // 8)
        used += plan.evaluations
        order = fair_order(plan.members, sizes, base.three_seats, keep_first=check is not None)
        planned = [plan.members[t] for t in order]
        if len(history) == 1:
            plan, planned = _mended(plan, planned, base, history, budget)
        lettered, excess = _letters(planned, first, base.letter_counts, base.four_seats, plan.rng)
        key = (*plan.quality_key(), excess)
        if best is None or key < best[0]:
            best = key, lettered
        if (not plan.conflicts() and not excess) or used >= budget:
            break
    assert best is not None  # there is always a first attempt
    best_key, best_rounds = best
    if best_key[-1]:
        letters.refine(best_rounds, base.letter_counts, base.four_seats)
    return [to_seating([[ids[p] for p in table] for table in tables]) for tables in best_rounds]


def _mended(
    plan: Plan, planned: list[Tables], base: HistoryCounts, history: Sequence[Seating], budget: int
) -> tuple[Plan, list[Tables]]:
    """The plan with its first round (the round to play) keeping SPEC §5's first rules
    against the rounds played, and the planned rounds in the order to play them.

    A plan counts each player's 3-table seats and repeat meetings over all its rounds,
    not which round gives them, so even the fairest of its rounds may seat someone at a
    3-table again while a 4-table player has had none, or keep a repeat pair that one
    exchange avoids (18 players' round 2 after a random round 1: about one draw in
    three).  Then the single swaps that mend a repeat pair, the worst pair or a 3-table
    repeat (``settle``, rules only) are made in the first round, and the later rounds are
    planned again after it (with a full search budget), so that the draws to come still
    follow one plan.  Only for the round after round 1: later, when meetings are scarce,
    mending the round to play against the rounds played trades away the rounds to come
    (28 players, 9 rounds planned afresh each round after a manual swap: 18 repeat pairs
    instead of 8).
    """
    first = planned[0]
    mended = settle(first, base, worst_pair_so_far(history), plan.org_weights, rules_only=True)
    if _table_sets(mended) == _table_sets(first):
        return plan, planned
    rest, work = planned[1:], 0
    if rest:
        ids = list(range(plan.player_count))
        after = history_counts(ids, [to_seating(mended)])
        after = after._replace(
            meetings=[[b + a for b, a in zip(rb, ra)] for rb, ra in zip(base.meetings, after.meetings)],
            three_seats=[b + a for b, a in zip(base.three_seats, after.three_seats)],
        )
        later = Plan(plan.sizes, after, plan.org_weights, plan.rng)
        _search(later, len(rest), rest, budget)
        improve(later, budget // 8)
        order = fair_order(later.members, plan.sizes, after.three_seats)
        rest, work = [later.members[t] for t in order], later.evaluations
    whole = Plan(plan.sizes, base, plan.org_weights, plan.rng, letter_check=plan.letter_check)
    whole.load([mended, *rest])
    whole.evaluations = plan.evaluations + work
    return whole, [mended, *rest]


def _table_sets(tables: Tables) -> list[frozenset[int]]:
    """A round's tables as sets of players, letters aside."""
    return [frozenset(table) for table in tables]


def _search(plan: Plan, round_count: int, initial: Sequence[Tables] | None, budget: int) -> None:
    """One attempt: greedy rounds (or ``initial``) improved by the tabu search within
    ``budget``; the plan ends with the usual 3-table weight."""
    rounds: list[Tables] = []
    if initial is not None:
        rounds = [[table[:] for table in tables] for tables in initial]
    else:
        plan.load([])
        for _ in range(round_count):
            rounds.append(_greedy_round(plan, plan.sizes, plan.rng))
            plan.load(rounds)
    plan.load(rounds)
    tabu_search(plan, budget)
    plan.three_weight = THREE_WEIGHT
    plan.load(plan.snapshot())


def _only_round(ids: Sequence[PlayerId], history: Sequence[Seating]) -> Tables | None:
    """Round 1's tables (player indices in letter order) if it is the only round
    played and it seated exactly ``ids``, else None."""
    if len(history) != 1 or round_players(history[0]) != set(ids):
        return None
    index = {pid: i for i, pid in enumerate(ids)}
    return [[index[table[letter]] for letter in LETTERS if letter in table] for table in history[0]]


def _letters(
    rounds: list[Tables],
    first: Tables | None,
    letter_counts: list[list[int]],
    four_seats: list[int],
    rng: random.Random,
) -> tuple[list[Tables], int]:
    """Seat letters for planned rounds (tables of player indices), and their total excess.

    After round 1 alone (``first``: its tables in letter order), the players of each
    round-1 table are interchangeable: exchanging two of them in every planned round
    changes no meeting, 3-table count or seat of round 1.  So round 1 and the plan
    are lettered together from nothing (always balanced, ``letters.colour_rounds``)
    and the players of each round-1 table then take the places whose round-1 letter
    is theirs.  Otherwise ``letters.assign`` continues from the letters so far.
    """
    if first is None:
        return letters.assign(rounds, letter_counts, four_seats, rng, refined=False)
    coloured = letters.colour_rounds([first] + rounds, rng)
    assert coloured is not None  # without earlier letters a colouring always exists
    place = {}
    for slots, table in zip(coloured[0], first):
        for slot, p in zip(slots, table):
            place[slot] = p
    return [[[place[slot] for slot in table] for table in tables] for tables in coloured[1:]], 0


def fair_order(rounds: Sequence[Tables], sizes: list[int], prior: list[int], keep_first: bool = False) -> list[int]:
    """Order of planned rounds giving 3-table seats to those who had fewest so far.

    Greedy: next comes the round with fewest players at a 3-table while a
    4-table player of that round has had fewer 3-table seats (``keep_first``:
    the first round stays first if no other is fairer).
    """
    if 3 not in sizes or 4 not in sizes or len(rounds) < 2:
        return list(range(len(rounds)))
    three_seats = prior[:]
    left = list(range(len(rounds)))
    order: list[int] = []
    while left:
        t = min(
            left, key=lambda t: (_unfair_seats(rounds[t], sizes, three_seats), t if order or not keep_first else t != 0)
        )
        left.remove(t)
        order.append(t)
        for j, table in enumerate(rounds[t]):
            if sizes[j] == 3:
                for p in table:
                    three_seats[p] += 1
    return order


def _unfair_seats(tables: Tables, sizes: list[int], three_seats: list[int]) -> int:
    """Players of a round at a 3-table while a 4-table player has had fewer 3-table seats."""
    fewest = min(three_seats[p] for j, table in enumerate(tables) if sizes[j] == 4 for p in table)
    return sum(1 for j, table in enumerate(tables) if sizes[j] == 3 for p in table if three_seats[p] > fewest)


def _grouping(seating: Seating) -> set[frozenset[PlayerId]]:
    """A round's tables as sets of players, letters aside."""
    return {frozenset(table.values()) for table in seating}


# Plans recomputed at every later draw of a field are kept (per process) for the
# next draws: the same inputs give the same plan, so this only saves time.
_PLANS: dict[str, list[Seating]] = {}
_PLANS_KEPT = 16


def field_plan(
    ids: Sequence[PlayerId],
    prefix: Sequence[Seating],
    total: int,
    round_count: int,
    organisations: Organisations | None,
    effort: float,
) -> tuple[list[Seating], random.Random]:
    """The plan of ``round_count`` rounds after ``prefix`` for the field ``ids`` (kept per
    process), and its rng."""
    rng = random.Random(plan_seed(prefix, ids, total))
    key = repr((ids, prefix, total, sorted((organisations or {}).items(), key=repr), effort))
    planned = _PLANS.get(key)
    if planned is None:
        planned = plan_rounds(ids, prefix, round_count, rng, organisations, effort)
        _PLANS[key] = planned
        while len(_PLANS) > _PLANS_KEPT:
            _PLANS.pop(next(iter(_PLANS)))
    return planned, rng


def continued_round(
    ids: Sequence[PlayerId], history: Sequence[Seating], total: int, organisations: Organisations | None, effort: float
) -> Seating | None:
    """This round of the plan made when the current field started, if still followed.

    The plan starts after the first round of the longest run of latest rounds
    seated with exactly the current players; it is recomputed (deterministic)
    and used if the rounds played since match its groupings.  If their letters
    differ from the plan's (a manual swap), the letters of the rest of the plan
    are chosen again from the actual ones.
    """
    active = set(ids)
    start = len(history)
    while start > 0 and round_players(history[start - 1]) == active:
        start -= 1
    if start == len(history):
        return None  # the field changed just now: plan afresh
    prefix = history[: start + 1]
    done = len(history) - len(prefix)
    round_count = min(total - len(prefix), MAX_LOOKAHEAD)
    if done >= round_count:
        return None
    planned, rng = field_plan(ids, prefix, total, round_count, organisations, effort)
    for i in range(done):
        if _grouping(planned[i]) != _grouping(history[len(prefix) + i]):
            return None
    if list(history[len(prefix) :]) == planned[:done]:
        return planned[done]
    index = {pid: i for i, pid in enumerate(ids)}
    base = history_counts(ids, history)
    rounds = [[[index[pid] for pid in table.values()] for table in seating] for seating in planned[done:]]
    lettered, _ = letters.assign(rounds, base.letter_counts, base.four_seats, rng)
    return index_seating(ids, lettered[0])
