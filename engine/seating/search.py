"""Planning rounds by search: greedy rounds improved by the tabu search, with look-ahead.

``plan_rounds`` plans the round to draw together with later ones when meetings are
scarce (``lookahead``), from several seeded greedy starts, and letters the rounds in an
order fair to 3-table players (``fair_order``).  A plan is made when a field starts and
followed by the later draws (``continued_round``); plans are kept per process
(``field_plan``), since every later draw recomputes the same one.
"""

from __future__ import annotations

import random

from engine.seating import letters
from engine.seating.plan import BASE_BUDGET, MAX_LOOKAHEAD, W_LETTER, W_PAIR, W_THREE, Plan, org_matrix
from engine.seating.tabu import improve, tabu_search
from engine.seating.tables import (
    LETTERS,
    history_counts,
    index_seating,
    plan_seed,
    round_players,
    table_sizes,
    to_seating,
)

# At most this many seeded attempts per plan.
_MAX_ATTEMPTS = 12


def _greedy_round(plan, sizes, rng):
    """One round built table by table, each time adding the player who adds least cost.

    3-tables are filled first so they get the players with fewest 3-table seats.
    Uses (and updates) the plan's running counters; returns the tables.
    """
    n = plan.n
    order = list(range(n))
    rng.shuffle(order)
    unplaced = order[:]
    tables = [None] * len(sizes)
    U, K3 = plan.U, plan.K3
    # The first planned round also keeps its tables able to take balanced letters.
    check = plan.letter_check if not plan.members else None
    for j in sorted(range(len(sizes)), key=lambda j: (sizes[j], j)):
        size = sizes[j]
        if size == 3:
            first = min(unplaced, key=lambda p: K3[p])
        else:
            first = unplaced[0]
        unplaced.remove(first)
        tbl = [first]
        while len(tbl) < size:
            best, best_c = None, None
            if check is not None:
                term = check.term[size]
                code = check.code(tbl, size)
            for q in unplaced:
                c = 0
                Uq = U[q]
                for x in tbl:
                    c += Uq[x]
                if size == 3:
                    c += plan.w_three * K3[q]
                if check is not None and not check.ok(code + term[q], size):
                    c += W_LETTER
                if best_c is None or c < best_c:
                    best, best_c = q, c
            unplaced.remove(best)
            tbl.append(best)
        tables[j] = tbl
        plan.evals += n * size
    return tables


def lookahead(n, total_rounds, max_seat):
    """How many rounds to plan together (1 = this round alone).

    Looking ahead only pays when meetings are scarce, i.e. when all the rounds
    would use a good part of each player's possible partners.
    """
    if total_rounds * (max_seat - 1) * 2 <= n - 1:
        return 1
    return MAX_LOOKAHEAD


def plan_rounds(ids, history, n_rounds, rng, organisations, effort, initial=None):
    """Plan ``n_rounds`` rounds after ``history`` for players ``ids`` (mixed method).

    Several seeded attempts (alternately putting 3-table rotation before or
    after repeat meetings) within the work budget; the best plan is kept, and
    the attempts stop as soon as one has no repeat, fair 3-tables and balanced
    letters.  Returns a list of seatings (lists of table dicts); the first is
    the round to play, the others keep it from blocking later rounds.
    ``initial``: rounds (lists of tables of player indices) to start the first
    attempt from instead of a greedy draw.
    """
    n = len(ids)
    sizes = table_sizes(n)
    base_m, base_k3, base_lc, four = history_counts(ids, history)
    org_w = org_matrix(ids, organisations)
    first = None if org_w else _only_round(ids, history)
    # After round 1 alone its letters do not constrain the plan (see _letters).
    check = None if first is not None else letters.letter_check(base_lc, four)
    budget = int(BASE_BUDGET * effort)
    mixed_sizes = 3 in sizes and 4 in sizes
    used = 0
    best, best_key = None, None
    for attempt in range(_MAX_ATTEMPTS):
        plan = Plan(n, sizes, base_m, base_k3, org_w, random.Random(rng.random()),
                    letter_check=check)
        if mixed_sizes and attempt % 2 == 1:
            plan.w_three = 3 * W_PAIR  # fair 3-tables first, then repeats
        if initial is not None and attempt == 0:
            rounds = [[t[:] for t in tables] for tables in initial]
        else:
            plan.load([])
            rounds = []
            for _ in range(n_rounds):
                rounds.append(_greedy_round(plan, sizes, plan.rng))
                plan.load(rounds)
        plan.load(rounds)
        tabu_search(plan, max(budget - used, budget // 8))
        plan.w_three = W_THREE
        plan.load(plan.snapshot())
        improve(plan, budget // 8)
        used += plan.evals
        order = fair_order(plan.members, sizes, base_k3, keep_first=check is not None)
        lettered, excess = _letters([plan.members[t] for t in order], first, base_lc, four, plan.rng)
        key = (*plan.quality_key(), excess)
        if best is None or key < best_key:
            best, best_key = lettered, key
        if (not plan.conflicts() and not excess) or used >= budget:
            break
    if best_key[-1]:
        letters.refine(best, base_lc, four)
    return [to_seating([[ids[p] for p in tbl] for tbl in rnd]) for rnd in best]


def _only_round(ids, history):
    """Round 1's tables (player indices in letter order) if it is the only round
    played and it seated exactly ``ids``, else None."""
    if len(history) != 1 or round_players(history[0]) != set(ids):
        return None
    index = {pid: i for i, pid in enumerate(ids)}
    return [[index[table[letter]] for letter in LETTERS if letter in table] for table in history[0]]


def _letters(rounds, first, base_lc, four, rng):
    """Seat letters for planned rounds (tables of player indices), and their total excess.

    After round 1 alone (``first``: its tables in letter order), the players of each
    round-1 table are interchangeable: exchanging two of them in every planned round
    changes no meeting, 3-table count or seat of round 1.  So round 1 and the plan
    are lettered together from nothing (always balanced, ``letters.colour_rounds``)
    and the players of each round-1 table then take the places whose round-1 letter
    is theirs.  Otherwise ``letters.assign`` continues from the letters so far.
    """
    if first is None:
        return letters.assign(rounds, base_lc, four, rng, refined=False)
    coloured = letters.colour_rounds([first] + rounds, rng)
    place = {}
    for slots, table in zip(coloured[0], first):
        for slot, p in zip(slots, table):
            place[slot] = p
    return [[[place[slot] for slot in tbl] for tbl in rnd] for rnd in coloured[1:]], 0


def fair_order(rounds, sizes, prior, keep_first=False):
    """Order of planned rounds giving 3-table seats to those who had fewest so far.

    Greedy: next comes the round with fewest players at a 3-table while a
    4-table player of that round has had fewer 3-table seats (``keep_first``:
    the first round stays first if no other is fairer).
    """
    if 3 not in sizes or 4 not in sizes or len(rounds) < 2:
        return list(range(len(rounds)))
    prior = prior[:]
    left = list(range(len(rounds)))
    order = []

    def unfair(t):
        tables = rounds[t]
        least = min(prior[p] for j, tbl in enumerate(tables) if sizes[j] == 4 for p in tbl)
        return sum(
            1 for j, tbl in enumerate(tables) if sizes[j] == 3 for p in tbl if prior[p] > least
        )

    while left:
        t = min(left, key=lambda t: (unfair(t), t if order or not keep_first else t != 0))
        left.remove(t)
        order.append(t)
        for j, tbl in enumerate(rounds[t]):
            if sizes[j] == 3:
                for p in tbl:
                    prior[p] += 1
    return order


def _grouping(rnd):
    """A round's tables as sets of players, letters aside."""
    return {frozenset(table.values()) for table in rnd}


# Plans recomputed at every later draw of a field are kept (per process) for the
# next draws: the same inputs give the same plan, so this only saves time.
_PLANS = {}
_PLANS_KEPT = 16


def field_plan(ids, prefix, total, n_rounds, organisations, effort):
    """The plan of ``n_rounds`` rounds after ``prefix`` for the field ``ids`` (kept per process), and its rng."""
    rng = random.Random(plan_seed(prefix, ids, total))
    key = repr((ids, prefix, total, sorted((organisations or {}).items(), key=repr), effort))
    planned = _PLANS.get(key)
    if planned is None:
        planned = plan_rounds(ids, prefix, n_rounds, rng, organisations, effort)
        _PLANS[key] = planned
        while len(_PLANS) > _PLANS_KEPT:
            _PLANS.pop(next(iter(_PLANS)))
    return planned, rng


def continued_round(ids, history, total, organisations, effort):
    """This round of the plan made when the current field started, if still followed.

    The plan starts after the first round of the longest run of latest rounds
    seated with exactly the current players; it is recomputed (deterministic)
    and used if the rounds played since match its groupings.  If their letters
    differ from the plan's (a manual swap), the letters of the rest of the plan
    are chosen again from the actual ones.
    """
    active = set(ids)
    k = len(history)
    while k > 0 and round_players(history[k - 1]) == active:
        k -= 1
    if k == len(history):
        return None  # the field changed just now: plan afresh
    prefix = history[: k + 1]
    done = len(history) - len(prefix)
    n_rounds = min(total - len(prefix), MAX_LOOKAHEAD)
    if done >= n_rounds:
        return None
    planned, rng = field_plan(ids, prefix, total, n_rounds, organisations, effort)
    for i in range(done):
        if _grouping(planned[i]) != _grouping(history[len(prefix) + i]):
            return None
    if list(history[len(prefix) :]) == planned[:done]:
        return planned[done]
    index = {pid: i for i, pid in enumerate(ids)}
    _, _, base_lc, four = history_counts(ids, history)
    rounds = [[[index[pid] for pid in table.values()] for table in rnd] for rnd in planned[done:]]
    lettered, _ = letters.assign(rounds, base_lc, four, rng)
    return index_seating(ids, lettered[0])
