"""Tables and seats: what the seating modules share.

A round's seating is a list of tables, table 1 first; each table is a dict seat letter ->
player id ("A".."D" at a 4-table, "A".."C" at a 3-table).  Player ids are opaque hashable
values (ints or strings).  Inside the engine the players are indices into ``stable_order``
of the ids, and a table is a list of indices in letter order.

Here: the letters and methods, ``SeatingError``, ``table_sizes``, the players' order, the
seeds, conversions between the two forms of a seating, and what earlier rounds count.
"""

from __future__ import annotations

import hashlib

LETTERS = ("A", "B", "C", "D")
_LETTER_INDEX = {letter: i for i, letter in enumerate(LETTERS)}
METHODS = ("mixed", "swiss", "random")


class SeatingError(ValueError):
    """A seating cannot be made; ``code`` is a stable machine-readable reason."""

    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


def table_sizes(n):
    """Table sizes for ``n`` players: as many 4-tables as possible, 3-tables last.

    >>> table_sizes(10)
    [4, 3, 3]
    """
    if n < 3:
        raise SeatingError(
            f"At least 3 players are needed to seat a round ({n} given).", "too_few_players"
        )
    if n == 5:
        raise SeatingError(
            "5 players cannot be seated at tables of 3 or 4 players.", "five_players"
        )
    threes = (4 - n % 4) % 4
    fours = (n - 3 * threes) // 4
    return [4] * fours + [3] * threes


def stable_order(players):
    """Players in a canonical order, so the result does not depend on query order."""
    players = list(players)
    try:
        ordered = sorted(players)
    except TypeError:
        ordered = sorted(players, key=lambda p: (type(p).__name__, repr(p)))
    for a, b in zip(ordered, ordered[1:]):
        if a == b:
            raise SeatingError(f"Player {a!r} is listed twice.", "duplicate_player")
    return ordered


def sort_key(pid):
    """Sort key for player ids of any types (ints and strings apart, by type name)."""
    return (type(pid).__name__, pid) if isinstance(pid, (int, str)) else (type(pid).__name__, repr(pid))


def derive_seed(seed, round_number):
    """A per-round integer seed derived from a tournament seed (stable across runs)."""
    digest = hashlib.sha256(f"{seed}:{round_number}".encode()).hexdigest()
    return int(digest[:12], 16)


def plan_seed(prefix, ids, total):
    """Seed of a plan continued over several rounds: derived from its starting point."""
    text = repr(
        (
            sorted(repr(p) for p in ids),
            [sorted(sorted(repr(p) for p in table.values()) for table in rnd) for rnd in prefix],
            total,
        )
    )
    return int(hashlib.sha256(text.encode()).hexdigest()[:16], 16)


def to_seating(tables):
    """A seating from tables of player ids in letter order."""
    return [{LETTERS[i]: pid for i, pid in enumerate(tbl)} for tbl in tables]


def index_seating(ids, tables):
    """A seating from tables of player indices in letter order."""
    return to_seating([[ids[p] for p in tbl] for tbl in tables])


def round_players(rnd):
    """The set of players seated in a round."""
    return {pid for table in rnd for pid in table.values()}


def history_counts(ids, history):
    """Meetings ``M``, 3-table seats, letter counts and 4-table seats of players ``ids``."""
    index = {pid: i for i, pid in enumerate(ids)}
    n = len(ids)
    M = [[0] * n for _ in range(n)]
    K3 = [0] * n
    LC = [[0, 0, 0, 0] for _ in range(n)]
    fours = [0] * n
    for rnd in history or ():
        for table in rnd:
            here = [index[pid] for pid in table.values() if pid in index]
            three = len(table) == 3
            for letter, pid in table.items():
                i = index.get(pid)
                if i is None:
                    continue
                if letter in _LETTER_INDEX:
                    LC[i][_LETTER_INDEX[letter]] += 1
                if three:
                    K3[i] += 1
                else:
                    fours[i] += 1
            for i in here:
                Mi = M[i]
                for x in here:
                    if x != i:
                        Mi[x] += 1
    return M, K3, LC, fours
