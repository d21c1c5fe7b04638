"""The quality figures of a seating plan: repeat meetings, 3-table rotation, seat letters."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from engine.seating import letters
from engine.seating.tables import LETTERS, PlayerId, Seating, sort_key


class PairCount(TypedDict):
    """A pair that met more than once, and how often."""

    pair: list[PlayerId]
    count: int


class RepeatSeat(TypedDict):
    """A 3-table seat given while someone at a 4-table had had fewer."""

    round: int
    player: PlayerId


class PlayerEntry(TypedDict):
    """One player's letters, 3-table seats and balance."""

    player: PlayerId
    seats: dict[str, int]
    three_tables: int
    spread: int
    balanced: bool


class QualityReport(TypedDict):
    """See ``quality_report``."""

    rounds: int
    repeat_pairs: int
    pairs: list[PairCount]
    worst_pair: int
    three_table_repeats: int
    three_table_repeat_seats: list[RepeatSeat]
    seat_spread: int
    unbalanced: int
    players: list[PlayerEntry]


def quality_report(rounds: Sequence[Seating]) -> QualityReport:
    """Quality figures of a list of rounds (each a list of table dicts).

    Returns a JSON-serialisable dict:

    * ``rounds``: number of rounds;
    * ``repeat_pairs``: pairs that met more than once; ``pairs``: those pairs,
      ``[{"pair": [a, b], "count": c}, ...]`` (pair sorted, list worst first);
    * ``worst_pair``: highest number of meetings of any pair (0 if nobody met);
    * ``three_table_repeats``: 3-table seats given to a player while another
      player of the same round, sitting at a 4-table, had had fewer 3-table
      seats so far (0 = 3-tables rotate fairly); ``three_table_repeat_seats``
      lists them as ``{"round": r, "player": p}`` (rounds numbered from 1);
    * ``seat_spread``: max over players of (most - least used letter), over
      A-D for players who sat at a 4-table at least once, else A-C;
    * ``unbalanced``: players whose letters are not balanced
      (``letters.balanced``: A-C counts within 1, D at a quarter of the
      4-table seats; for a player always at 4-tables, A-D counts within 1);
    * ``players``: per player ``{"player", "seats": {"A": .., "D": ..},
      "three_tables", "spread", "balanced"}``.
    """
    tally = _Tally()
    for number, seating in enumerate(rounds, start=1):
        tally.add_round(number, seating)
    repeats = _repeat_pairs(tally.meetings)
    players = [tally.player_entry(pid) for pid in sorted(tally.seats, key=sort_key)]
    return {
        "rounds": len(rounds),
        "repeat_pairs": len(repeats),
        "pairs": [{"pair": list(pair), "count": count} for pair, count in repeats],
        "worst_pair": max(tally.meetings.values(), default=0),
        "three_table_repeats": len(tally.repeat_seats),
        "three_table_repeat_seats": tally.repeat_seats,
        "seat_spread": max((entry["spread"] for entry in players), default=0),
        "unbalanced": sum(1 for entry in players if not entry["balanced"]),
        "players": players,
    }


def _repeat_pairs(meetings: dict[tuple[PlayerId, ...], int]) -> list[tuple[tuple[PlayerId, ...], int]]:
    """Pairs that met more than once with their counts, worst first."""
    return sorted(
        ((pair, count) for pair, count in meetings.items() if count > 1),
        key=lambda item: (-item[1], [sort_key(pid) for pid in item[0]]),
    )


class _Tally:
    """Meetings, letters and 3-table seats counted round by round."""

    def __init__(self) -> None:
        self.meetings: dict[tuple[PlayerId, ...], int] = {}  # sorted pair of ids -> tables shared
        self.seats: dict[PlayerId, dict[str, int]] = {}  # id -> letter -> seats
        self.threes: dict[PlayerId, int] = {}  # id -> 3-table seats
        self.fours: set[PlayerId] = set()  # ids who sat at a 4-table
        self.repeat_seats: list[RepeatSeat] = []

    def add_round(self, number: int, seating: Seating) -> None:
        """Count round ``number``: its seats, meetings and unfair 3-table seats."""
        in_three: list[PlayerId] = []
        at_four: list[PlayerId] = []
        for table in seating:
            three = len(table) == 3
            for letter, pid in table.items():
                counts = self.seats.setdefault(pid, dict.fromkeys(LETTERS, 0))
                if letter in counts:
                    counts[letter] += 1
                self.threes.setdefault(pid, 0)
                (in_three if three else at_four).append(pid)
                if len(table) == 4:
                    self.fours.add(pid)
            self._count_meetings(list(table.values()))
        if in_three and at_four:
            least_at_four = min(self.threes[pid] for pid in at_four)
            for pid in sorted(in_three, key=sort_key):
                if self.threes[pid] > least_at_four:
                    self.repeat_seats.append({"round": number, "player": pid})
        for pid in in_three:
            self.threes[pid] += 1

    def _count_meetings(self, pids: list[PlayerId]) -> None:
        """One more meeting for every pair of players at one table."""
        for i, pid in enumerate(pids):
            for other in pids[i + 1 :]:
                key = tuple(sorted((pid, other), key=sort_key))
                self.meetings[key] = self.meetings.get(key, 0) + 1

    def player_entry(self, pid: PlayerId) -> PlayerEntry:
        """The report's entry of one player: letters, 3-table seats, spread, balance."""
        counts = self.seats[pid]
        possible = LETTERS if pid in self.fours else LETTERS[:3]
        values = [counts[letter] for letter in possible]
        four_seats = sum(counts.values()) - self.threes[pid]
        return {
            "player": pid,
            "seats": counts,
            "three_tables": self.threes[pid],
            "spread": max(values) - min(values),
            "balanced": letters.balanced([counts[letter] for letter in LETTERS], four_seats),
        }
