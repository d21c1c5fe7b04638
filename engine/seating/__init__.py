"""Seating engine for Rummikub tournaments (plain Python, standard library only).

A round's seating is a list of tables, table 1 first; each table is a dict
seat letter -> player id ("A".."D" at a 4-table, "A".."C" at a 3-table).
Player ids are opaque hashable values (ints or strings).  Callers write
``from engine import seating`` and ``seating.draw_round(...)``.

Public API:

* ``table_sizes(player_count)`` -- table sizes for that many players (4-tables first).
* ``draw_round(players, history, *, seed, method, ...)`` -- one round's seating.
* ``quality_report(rounds)`` -- repeat meetings, 3-table repeats, seat balance.
* ``swap_players(seating, player_a, player_b)`` -- a new seating with two players' seats
  exchanged.
* ``plan_tournament(player_count, round_count, *, method, seed)`` -- a whole plan for
  players ``1..player_count`` plus its report (used by the ``seating_plan`` command and the
  benchmark).
* ``derive_seed``, ``SeatingError``, ``METHODS``, ``LETTERS``.

Quality, in this order of priority: no pair meets twice where possible; the
worst pair's meeting count as low as possible; no player at a 3-table twice
before everyone has had one; players of one organisation kept apart; seat
letters balanced after every round (``letters`` says what balanced means with
3-tables).  Everything is deterministic for a given seed: all randomness comes
from ``random.Random(seed)`` and the search is bounded by work counters, never
by the clock.

Modules, each importing only those listed before it:

* ``tables`` -- letters, methods, ``SeatingError``, ``table_sizes``, player order,
  seeds, seatings as dicts or as tables of player indices, counts from history;
* ``colouring`` -- bipartite matchings and edge colourings (Konig) for ``letters``;
* ``letters`` -- when a player's seat letters are balanced, and how tables get them;
* ``designs`` -- the built-in schedules in which nobody meets twice;
* ``plan`` -- the search state ``Plan``: cost weights and incremental cost;
* ``tabu`` -- the tabu search and the steepest descent over a ``Plan``;
* ``quality`` -- ``quality_report``;
* ``settle`` -- single swaps in the order above: the last pass over a round drawn after
  players arrived or left, or (rules only) over a plan's round to play;
* ``search`` -- greedy rounds, look-ahead plans (their round to play mended by ``settle``),
  a plan followed over later draws and the per-process cache of plans;
* ``schedules`` -- the built-in schedules laid over round 1;
* ``draw`` -- ``draw_round`` (mixed, swiss, random), ``swap_players``, ``plan_tournament``.
"""

from engine.seating.draw import draw_round, plan_tournament, swap_players
from engine.seating.quality import quality_report
from engine.seating.tables import LETTERS, METHODS, SeatingError, derive_seed, table_sizes

__all__ = [
    "LETTERS",
    "METHODS",
    "SeatingError",
    "derive_seed",
    "draw_round",
    "plan_tournament",
    "quality_report",
    "swap_players",
    "table_sizes",
]
