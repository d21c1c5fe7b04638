"""A season's table (SPEC §10): people ranked over the final standings of several tournaments.

Data in: the season's tournaments in date order, each with every person's place in its final
standings (`Placing`: tied places share the better place, a disqualified person has none), and
the season's scoring (`Scoring`). Data out: `SeasonRow`s in order.

The rules, each a setting of the season:
- a place gives the points the table lists for it (`place_points[0]` for 1st place); places
  beyond the table give 0; a disqualified person scores 0 in that tournament (the result is still
  listed); a withdrawn one scores by the place the standings give;
- a person listed twice in one tournament (two records of one person, merged later) keeps the
  better result there;
- each person's best `best_count` results count (None: all of them); between equal results the
  earlier tournament counts;
- order: points, then tournaments won (1st place), then the best single place, then equal: equal
  rows share the rank (1, 2, 2, 4). Tournaments won and the best place look at every result listed,
  counted or not.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from engine.discipline import DISQUALIFIED

DEFAULT_PLACE_POINTS = (25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)


@dataclass(frozen=True)
class Scoring:
    """Points for places 1, 2, 3… (`place_points[0]` for the winner) and how many of each
    person's best results count (None: all)."""

    place_points: tuple[int, ...] = DEFAULT_PLACE_POINTS
    best_count: int | None = None

    def points_for(self, place: int | None, status: str) -> int:
        """The points of one place: 0 when disqualified, without a place or beyond the table."""
        if status == DISQUALIFIED or place is None or not 1 <= place <= len(self.place_points):
            return 0
        return self.place_points[place - 1]


@dataclass(frozen=True)
class Placing:
    """A person's place in one tournament's final standings (None: disqualified, no place)."""

    person: Hashable
    place: int | None
    status: str


@dataclass(frozen=True)
class TournamentPlacings:
    """One tournament of the season (`key` is the caller's) and the places of its people."""

    key: Hashable
    placings: Sequence[Placing]


@dataclass(frozen=True)
class Result:
    """A person's result in one tournament: the place, its points and whether they count."""

    tournament: Hashable
    place: int | None
    status: str
    points: int
    counted: bool


@dataclass
class SeasonRow:
    """A person's line of the season table."""

    person: Hashable
    results: list[Result] = field(default_factory=list)
    rank: int = 0

    @property
    def points(self) -> int:
        return sum(result.points for result in self.results if result.counted)

    @property
    def tournaments(self) -> int:
        """How many of the season's tournaments the person played (every result listed)."""
        return len(self.results)

    @property
    def wins(self) -> int:
        return sum(1 for result in self.results if result.place == 1 and result.status != DISQUALIFIED)

    @property
    def best_place(self) -> int | None:
        places = [result.place for result in self.results if result.place is not None and result.status != DISQUALIFIED]
        return min(places) if places else None

    def order_key(self) -> tuple[int, int, int]:
        """Bigger points, more wins, a better best place first; equal keys share a rank."""
        best = self.best_place
        return (-self.points, -self.wins, best if best is not None else 1_000_000)


def mark_counted(results: Sequence[Result], best_count: int | None) -> list[Result]:
    """The results (in tournament order) with the best `best_count` marked as counted; between
    equal points the earlier tournament counts."""
    if best_count is None or best_count >= len(results):
        return [_with_counted(result, True) for result in results]
    by_points = sorted(range(len(results)), key=lambda i: (-results[i].points, i))
    counted = set(by_points[:best_count])
    return [_with_counted(result, i in counted) for i, result in enumerate(results)]


def _with_counted(result: Result, counted: bool) -> Result:
    return Result(result.tournament, result.place, result.status, result.points, counted)


def season_table(tournaments: Iterable[TournamentPlacings], scoring: Scoring) -> list[SeasonRow]:
    """The season's rows in order, each with its results in tournament order and its rank.
    People first met earlier come first among equal rows."""
    results: dict[Hashable, list[Result]] = {}
    for tournament in tournaments:
        for placing in tournament.placings:
            points = scoring.points_for(placing.place, placing.status)
            result = Result(tournament.key, placing.place, placing.status, points, counted=False)
            listed = results.setdefault(placing.person, [])
            if listed and listed[-1].tournament == tournament.key:  # two records of one person: the better counts
                listed[-1] = max(listed[-1], result, key=lambda r: (r.points, -(r.place or 1_000_000)))
            else:
                listed.append(result)
    rows = [SeasonRow(person, mark_counted(listed, scoring.best_count)) for person, listed in results.items()]
    rows.sort(key=SeasonRow.order_key)
    previous: tuple[int, int, int] | None = None
    for position, row in enumerate(rows, start=1):
        key = row.order_key()
        row.rank = rows[position - 2].rank if key == previous else position
        previous = key
    return rows
