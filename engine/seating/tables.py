"""Tables and seats: what the seating modules share.

A round's seating is a list of tables, table 1 first; each table is a dict seat letter ->
player id ("A".."D" at a 4-table, "A".."C" at a 3-table).  Player ids are opaque hashable
values (ints or strings).  Inside the engine the players are indices into ``stable_order``
of the ids, and a table is a list of indices in letter order; ``p``, ``q``, ``x`` and ``y``
name such indices throughout, ``pid`` a player id.

Here: the letters and methods, ``SeatingError``, ``table_sizes``, the players' order, the
seeds, conversions between the two forms of a seating, and what earlier rounds count.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple, TypeVar, cast

# The callers' player ids: opaque hashable values (ints or strings), sorted naturally
# when all of one type.  ``Player`` keeps the callers' own type in the public functions.
PlayerId = Hashable
Player = TypeVar("Player", bound=Hashable)
Table = Mapping[str, PlayerId]  # seat letter -> player id
Seating = Sequence[Table]  # one round, table 1 first
Tables = list[list[int]]  # one round as tables of player indices, in letter order
Organisations = Mapping[Any, Hashable]  # player id -> organisation (None: none)
Seed = int | float | str | bytes | bytearray | None  # what ``random.Random`` accepts

LETTERS = ("A", "B", "C", "D")
_LETTER_INDEX = {letter: i for i, letter in enumerate(LETTERS)}
METHODS = ("mixed", "swiss", "random")


class SeatingError(ValueError):
    """A seating cannot be made; ``code`` is a stable machine-readable reason."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def table_sizes(player_count: int) -> list[int]:
    """Table sizes for ``player_count`` players: as many 4-tables as possible, 3-tables last.

    >>> table_sizes(10)
    [4, 3, 3]
    """
    if player_count < 3:
        raise SeatingError(f"At least 3 players are needed to seat a round ({player_count} given).", "too_few_players")
    if player_count == 5:
        raise SeatingError("5 players cannot be seated at tables of 3 or 4 players.", "five_players")
    threes = (4 - player_count % 4) % 4
    fours = (player_count - 3 * threes) // 4
    return [4] * fours + [3] * threes


def stable_order(players: Iterable[Player]) -> list[Player]:
    """Players in a canonical order, so the result does not depend on query order."""
    listed = list(players)
    try:
        ordered = sorted(cast("list[Any]", listed))  # ids of one type sort naturally
    except TypeError:
        ordered = sorted(listed, key=lambda pid: (type(pid).__name__, repr(pid)))
    for pid, following in zip(ordered, ordered[1:]):
        if pid == following:
            raise SeatingError(f"Player {pid!r} is listed twice.", "duplicate_player")
    return ordered


def sort_key(pid: PlayerId) -> tuple[str, Any]:
    """Sort key for player ids of any types (ints and strings apart, by type name)."""
    return (type(pid).__name__, pid) if isinstance(pid, (int, str)) else (type(pid).__name__, repr(pid))


def derive_seed(seed: object, round_number: int) -> int:
    """A per-round integer seed derived from a tournament seed (stable across runs)."""
    digest = hashlib.sha256(f"{seed}:{round_number}".encode()).hexdigest()
    return int(digest[:12], 16)


def plan_seed(prefix: Sequence[Seating], ids: Iterable[PlayerId], total: int | str) -> int:
    """Seed of a plan continued over several rounds: derived from its starting point."""
    text = repr(
        (
            sorted(repr(pid) for pid in ids),
            [sorted(sorted(repr(pid) for pid in table.values()) for table in seating) for seating in prefix],
            total,
        )
    )
    return int(hashlib.sha256(text.encode()).hexdigest()[:16], 16)


def to_seating(tables: Iterable[Sequence[PlayerId]]) -> list[dict[str, PlayerId]]:
    """A seating from tables of player ids in letter order."""
    return [{LETTERS[i]: pid for i, pid in enumerate(table)} for table in tables]


def index_seating(ids: Sequence[PlayerId], tables: Tables) -> list[dict[str, PlayerId]]:
    """A seating from tables of player indices in letter order."""
    return to_seating([[ids[p] for p in table] for table in tables])


def round_players(seating: Seating) -> set[PlayerId]:
    """The set of players seated in a round."""
    return {pid for table in seating for pid in table.values()}


class HistoryCounts(NamedTuple):
    """What earlier rounds count for players ``0 .. n-1`` (indices into the ids)."""

    meetings: list[list[int]]  # meetings[p][x]: how often p and x sat at one table
    three_seats: list[int]  # 3-table seats of each player
    letter_counts: list[list[int]]  # per player, seats at A, B, C and D
    four_seats: list[int]  # 4-table seats of each player


def history_counts(ids: Sequence[PlayerId], history: Iterable[Seating] | None) -> HistoryCounts:
    """Meetings, 3-table seats, letter counts and 4-table seats of players ``ids`` so far."""
    index = {pid: i for i, pid in enumerate(ids)}
    count = len(ids)
    meetings = [[0] * count for _ in range(count)]
    three_seats = [0] * count
    letter_counts = [[0, 0, 0, 0] for _ in range(count)]
    four_seats = [0] * count
    for seating in history or ():
        for table in seating:
            here = [index[pid] for pid in table.values() if pid in index]
            three = len(table) == 3
            for letter, pid in table.items():
                p = index.get(pid)
                if p is None:
                    continue
                if letter in _LETTER_INDEX:
                    letter_counts[p][_LETTER_INDEX[letter]] += 1
                if three:
                    three_seats[p] += 1
                else:
                    four_seats[p] += 1
            for p in here:
                met = meetings[p]
                for x in here:
                    if x != p:
                        met[x] += 1
    return HistoryCounts(meetings, three_seats, letter_counts, four_seats)
