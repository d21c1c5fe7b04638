"""Drawing rounds: ``draw_round`` with its methods, swiss tables, ``swap_players`` and
``plan_tournament``."""

from __future__ import annotations

import random

from engine.seating import letters
from engine.seating.plan import BASE_BUDGET, W_SWISS, Plan, org_matrix
from engine.seating.quality import quality_report
from engine.seating.schedules import design_round
from engine.seating.search import continued_round, lookahead, plan_rounds
from engine.seating.tabu import improve, tabu_search
from engine.seating.tables import (
    METHODS,
    SeatingError,
    derive_seed,
    history_counts,
    index_seating,
    stable_order,
    table_sizes,
)


def draw_round(
    players,
    history=(),
    *,
    seed,
    method="mixed",
    standings=None,
    organisations=None,
    remaining_rounds=0,
    continue_plan=True,
    effort=1.0,
):
    """Seat one round and return its tables (list of dicts letter -> player id).

    ``players``: the active players to seat (any order: they are sorted first).
    ``history``: earlier rounds' seatings (may include players no longer active).
    ``seed``: anything ``random.Random`` accepts; same inputs + seed = same seating.
    ``method``: "mixed" (minimise repeat meetings), "swiss" (groups by
    ``standings``, a list of player ids best first, leaders at table 1; a player
    may move one table up or down to avoid a repeat) or "random" (plain draw).
    The first round (no history) is always a random draw.
    ``organisations``: optional map player id -> organisation (kept apart).
    ``remaining_rounds``: rounds still to be drawn after this one.  When
    meetings are scarce, "mixed" plans them too, so this round does not block
    them, and later calls continue that plan as long as the field is unchanged
    and earlier rounds were seated as planned (the plan's seed then comes from
    the history, not from ``seed``); ``continue_plan=False`` forces a fresh
    plan from ``seed`` (e.g. to redraw a round).  While the rounds planned fit a
    built-in zero-repeat schedule (``engine.seating.designs``) for the field of round 1,
    "mixed" follows it instead (see ``schedules.design_round``).
    ``effort``: scales the search work (1.0 = default).
    """
    if method not in METHODS:
        raise SeatingError(f"Unknown seating method {method!r}.", "unknown_method")
    ids = stable_order(players)
    n = len(ids)
    sizes = table_sizes(n)
    rng = random.Random(seed)
    history = [rnd for rnd in (history or ()) if rnd]

    base_m, base_k3, base_lc, four = history_counts(ids, history)

    if method == "random":
        # A plain draw; the letters of its tables keep players balanced where they can.
        order = list(range(n))
        rng.shuffle(order)
        lettered, _ = letters.assign([_chunk(order, sizes)], base_lc, four, rng)
        return index_seating(ids, lettered[0])

    org_w = org_matrix(ids, organisations)
    budget = int(BASE_BUDGET * effort)

    if not any(base_k3) and not any(four):
        # First round: a random draw (organisations kept apart if asked).
        plan = Plan(n, sizes, base_m, base_k3, org_w, rng)
        order = list(range(n))
        rng.shuffle(order)
        plan.load([_chunk(order, sizes)])
        if org_w:
            improve(plan, budget)
        return index_seating(ids, plan.members[0])

    if method == "swiss":
        natural, weight = _natural_tables(ids, standings, sizes)
        plan = Plan(n, sizes, base_m, base_k3, org_w, rng, natural, weight,
                    letter_check=letters.letter_check(base_lc, four))
        order = sorted(range(n), key=lambda p: natural[p])
        plan.load([_chunk(order, sizes)])
        tabu_search(plan, budget)
        improve(plan, budget // 4)
        lettered, _ = letters.assign(plan.members, base_lc, four, rng)
        return index_seating(ids, lettered[0])

    total = len(history) + 1 + max(0, remaining_rounds)
    if continue_plan:
        designed = design_round(ids, history, total, organisations, effort)
        if designed is not None:
            return designed
    ahead = min(lookahead(n, total, max(sizes)), 1 + max(0, remaining_rounds))
    if lookahead(n, total, max(sizes)) > 1 and continue_plan:
        continued = continued_round(ids, history, total, organisations, effort)
        if continued is not None:
            return continued
    return plan_rounds(ids, history, ahead, rng, organisations, effort)[0]


def _chunk(order, sizes):
    """Players in ``order`` cut into tables of ``sizes``."""
    tables, i = [], 0
    for s in sizes:
        tables.append(order[i : i + s])
        i += s
    return tables


def _natural_tables(ids, standings, sizes):
    """Standings table index of each player, and the cost of moving him a table.

    Unranked players go to the end.  Moving a better-placed player costs more
    (up to twice as much for the leader), so table 1 keeps the strongest.
    """
    index = {pid: i for i, pid in enumerate(ids)}
    order = []
    seen = set()
    for pid in standings or ():
        i = index.get(pid)
        if i is not None and i not in seen:
            order.append(i)
            seen.add(i)
    order.extend(i for i in range(len(ids)) if i not in seen)
    n = len(ids)
    natural = [0] * n
    weight = [0] * n
    for j, tbl in enumerate(_chunk(order, sizes)):
        for p in tbl:
            natural[p] = j
    for rank, p in enumerate(order):
        weight[p] = W_SWISS * (2 * n - rank) // n
    return natural, weight


def swap_players(seating, a, b):
    """A new seating in which players ``a`` and ``b`` have exchanged seats."""
    if a == b:
        raise SeatingError("Choose two different players to swap.", "same_player")
    where = {}
    for j, table in enumerate(seating):
        for letter, pid in table.items():
            where[pid] = (j, letter)
    for pid in (a, b):
        if pid not in where:
            raise SeatingError(f"Player {pid!r} is not seated in this round.", "not_seated")
    new = [dict(table) for table in seating]
    (ja, la), (jb, lb) = where[a], where[b]
    new[ja][la] = b
    new[jb][lb] = a
    return new


def plan_tournament(n_players, n_rounds, *, method="mixed", seed=0, effort=1.0):
    """Draw ``n_rounds`` rounds for players ``1..n_players`` as the app would.

    Round r uses the seed ``derive_seed(seed, r)``; "mixed" looks ahead to the
    remaining rounds; "swiss" uses the start order 1..n as standings.
    Returns ``(rounds, quality_report(rounds))``.
    """
    if n_rounds < 1:
        raise SeatingError("At least one round is needed.", "no_rounds")
    players = list(range(1, n_players + 1))
    table_sizes(n_players)
    rounds = []
    for r in range(1, n_rounds + 1):
        rounds.append(
            draw_round(
                players,
                rounds,
                seed=derive_seed(seed, r),
                method=method,
                standings=players if method == "swiss" else None,
                remaining_rounds=n_rounds - r,
                effort=effort,
            )
        )
    return rounds, quality_report(rounds)
