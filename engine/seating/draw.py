"""Drawing rounds: ``draw_round`` with its methods, swiss tables, ``swap_players`` and
``plan_tournament``."""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import cast

from engine.seating import letters
from engine.seating.plan import BASE_BUDGET, SWISS_WEIGHT, Plan, SwissGroups, org_matrix
from engine.seating.quality import QualityReport, quality_report
from engine.seating.schedules import design_round
from engine.seating.search import continued_round, lookahead, plan_rounds
from engine.seating.settle import settled
from engine.seating.tables import (
    METHODS,
    HistoryCounts,
    Organisations,
    Player,
    PlayerId,
    Seating,
    SeatingError,
    Seed,
    Tables,
    derive_seed,
    history_counts,
    index_seating,
    round_players,
    stable_order,
    table_sizes,
)
from engine.seating.tabu import improve, tabu_search


def draw_round(
    players: Iterable[Player],
    history: Iterable[Sequence[Mapping[str, Player]]] | None = (),
    *,
    seed: Seed,
    method: str = "mixed",
    standings: Iterable[Player] | None = None,
    organisations: Mapping[Player, Hashable] | None = None,
    remaining_rounds: int = 0,
    continue_plan: bool = True,
    effort: float = 1.0,
) -> list[dict[str, Player]]:
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
    "mixed" follows it instead (see ``schedules.design_round``).  A "mixed" round for
    players who are not those of the last round (late arrivals, withdrawals,
    disqualifications) is then settled by single swaps in SPEC §5's order (``settle``).
    ``effort``: scales the search work (1.0 = default).
    """
    if method not in METHODS:
        raise SeatingError(f"Unknown seating method {method!r}.", "unknown_method")
    ids = stable_order(players)
    sizes = table_sizes(len(ids))
    rng = random.Random(seed)
    played = [seating for seating in (history or ()) if seating]
    base = history_counts(ids, played)
    budget = int(BASE_BUDGET * effort)
    if method == "random":
        drawn = _random_round(ids, sizes, base, rng)
    elif not any(base.three_seats) and not any(base.four_seats):
        drawn = _first_round(ids, sizes, base, organisations, rng, budget)
    elif method == "swiss":
        drawn = _swiss_round(ids, sizes, base, standings, organisations, rng, budget)
    else:
        drawn = _mixed_round(ids, played, rng, organisations, remaining_rounds, continue_plan, effort)
        if round_players(played[-1]) != set(ids):
            # Players arrived or left since the last round: no plan for this field is followed
            # yet, so the last pass settles the round against the rounds played.
            drawn = settled(ids, drawn, played, base, organisations)
    return cast("list[dict[str, Player]]", drawn)  # its seats hold the ids of ``players``


def _mixed_round(
    ids: Sequence[PlayerId],
    history: Sequence[Seating],
    rng: random.Random,
    organisations: Organisations | None,
    remaining_rounds: int,
    continue_plan: bool,
    effort: float,
) -> Seating:
    """A round after round 1 with as few repeat meetings as the rounds to come allow: the
    built-in schedule while it fits, else the plan made when the field started while it is
    followed, else a new plan (looking ahead when meetings are scarce)."""
    sizes = table_sizes(len(ids))
    total = len(history) + 1 + max(0, remaining_rounds)
    if continue_plan:
        designed = design_round(ids, history, total, organisations, effort)
        if designed is not None:
            return designed
    ahead = lookahead(len(ids), total, max(sizes))
    if ahead > 1 and continue_plan:
        continued = continued_round(ids, history, total, organisations, effort)
        if continued is not None:
            return continued
    ahead = min(ahead, 1 + max(0, remaining_rounds))
    return plan_rounds(ids, history, ahead, rng, organisations, effort)[0]


def _random_round(ids: Sequence[PlayerId], sizes: list[int], base: HistoryCounts, rng: random.Random) -> Seating:
    """A plain draw; the letters of its tables keep players balanced where they can."""
    order = list(range(len(ids)))
    rng.shuffle(order)
    lettered, _ = letters.assign([_chunk(order, sizes)], base.letter_counts, base.four_seats, rng)
    return index_seating(ids, lettered[0])


def _first_round(
    ids: Sequence[PlayerId],
    sizes: list[int],
    base: HistoryCounts,
    organisations: Organisations | None,
    rng: random.Random,
    budget: int,
) -> Seating:
    """The first round: a random draw (organisations kept apart if asked)."""
    org_weights = org_matrix(ids, organisations)
    plan = Plan(sizes, base, org_weights, rng)
    order = list(range(len(ids)))
    rng.shuffle(order)
    plan.load([_chunk(order, sizes)])
    if org_weights:
        improve(plan, budget)
    return index_seating(ids, plan.members[0])


def _swiss_round(
    ids: Sequence[PlayerId],
    sizes: list[int],
    base: HistoryCounts,
    standings: Iterable[PlayerId] | None,
    organisations: Organisations | None,
    rng: random.Random,
    budget: int,
) -> Seating:
    """Tables by standings, leaders at table 1; a player may move one table to avoid a repeat."""
    swiss = _home_tables(ids, standings, sizes)
    plan = Plan(
        sizes,
        base,
        org_matrix(ids, organisations),
        rng,
        swiss,
        letter_check=letters.letter_check(base.letter_counts, base.four_seats),
    )
    order = sorted(range(len(ids)), key=lambda p: swiss.home_table[p])
    plan.load([_chunk(order, sizes)])
    tabu_search(plan, budget)
    improve(plan, budget // 4)
    lettered, _ = letters.assign(plan.members, base.letter_counts, base.four_seats, rng)
    return index_seating(ids, lettered[0])


def _chunk(order: list[int], sizes: list[int]) -> Tables:
    """Players in ``order`` cut into tables of ``sizes``."""
    tables: Tables = []
    start = 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables


def _home_tables(ids: Sequence[PlayerId], standings: Iterable[PlayerId] | None, sizes: list[int]) -> SwissGroups:
    """Standings table index of each player, and the cost of moving him a table.

    Unranked players go to the end.  Moving a better-placed player costs more
    (up to twice as much for the leader), so table 1 keeps the strongest.
    """
    index = {pid: i for i, pid in enumerate(ids)}
    order: list[int] = []
    seen: set[int] = set()
    for pid in standings or ():
        p = index.get(pid)
        if p is not None and p not in seen:
            order.append(p)
            seen.add(p)
    order.extend(p for p in range(len(ids)) if p not in seen)
    count = len(ids)
    home_table = [0] * count
    away_cost = [0] * count
    for j, table in enumerate(_chunk(order, sizes)):
        for p in table:
            home_table[p] = j
    for rank, p in enumerate(order):
        away_cost[p] = SWISS_WEIGHT * (2 * count - rank) // count
    return SwissGroups(home_table, away_cost)


def swap_players(
    seating: Sequence[Mapping[str, Player]], player_a: Player, player_b: Player
) -> list[dict[str, Player]]:
    """A new seating in which players ``player_a`` and ``player_b`` have exchanged seats."""
    if player_a == player_b:
        raise SeatingError("Choose two different players to swap.", "same_player")
    where: dict[Player, tuple[int, str]] = {}
    for j, table in enumerate(seating):
        for letter, pid in table.items():
            where[pid] = (j, letter)
    for pid in (player_a, player_b):
        if pid not in where:
            raise SeatingError(f"Player {pid!r} is not seated in this round.", "not_seated")
    swapped = [dict(table) for table in seating]
    (table_a, letter_a), (table_b, letter_b) = where[player_a], where[player_b]
    swapped[table_a][letter_a] = player_b
    swapped[table_b][letter_b] = player_a
    return swapped


def plan_tournament(
    player_count: int, round_count: int, *, method: str = "mixed", seed: object = 0, effort: float = 1.0
) -> tuple[list[list[dict[str, int]]], QualityReport]:
    """Draw ``round_count`` rounds for players ``1..player_count`` as the app would.

    Round r uses the seed ``derive_seed(seed, r)``; "mixed" looks ahead to the
    remaining rounds; "swiss" uses the start order 1..player_count as standings.
    Returns ``(rounds, quality_report(rounds))``.
    """
    if round_count < 1:
        raise SeatingError("At least one round is needed.", "no_rounds")
    players = list(range(1, player_count + 1))
    table_sizes(player_count)
    rounds: list[list[dict[str, int]]] = []
    for number in range(1, round_count + 1):
        rounds.append(
            draw_round(
                players,
                rounds,
                seed=derive_seed(seed, number),
                method=method,
                standings=players if method == "swiss" else None,
                remaining_rounds=round_count - number,
                effort=effort,
            )
        )
    return rounds, quality_report(rounds)
