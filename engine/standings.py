"""Standings maths (SPEC §4): totals, shared ranks, tie decisions, the final, DQ last.

Data in: the players (`Entrant`), each seat's round totals at its table (`table_totals` turns a
table's scored games into them), the players seated at the final and the head referee's tie
decisions. Data out: `StandingRow`s in standings order. `scoring.selectors.standings` reads the inputs
from the database.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from engine import rules
from engine.discipline import ACTIVE, DISQUALIFIED, derived_status

MEDALS = {1: "gold", 2: "silver", 3: "bronze"}
MEDAL_PLACES = len(MEDALS)
Key = TypeVar("Key", bound=Hashable)  # the caller's key of a player


@dataclass
class Totals:
    """Big points, small points and games won, summed."""

    big_points: int = 0
    small_points: int = 0
    games_won: int = 0

    def add(self, other: Mapping[str, int]) -> None:
        """Add a round's totals (a dict with the same three keys)."""
        self.big_points += other["big_points"]
        self.small_points += other["small_points"]
        self.games_won += other["games_won"]


@dataclass(frozen=True)
class Entrant:
    """A player as the standings see them.

    `key` is the caller's key (a database id), `ext_id` the id tie decisions name, `status` the
    status in these standings, `record` the caller's own object, handed back as `StandingRow.player`.
    """

    key: Hashable
    ext_id: str
    name: str
    organisation: str
    start_number: int
    status: str
    record: Any = None  # whatever the caller's record is: the engine only hands it back


@dataclass
class StandingRow:
    """One line of the standings: the player, his totals and his rank."""

    entrant: Entrant
    qualifying: Totals = field(default_factory=Totals)
    final: Totals | None = None  # set for the players seated at the final table
    rank: int | None = None
    rank_to: int | None = None  # the last place of a shared rank ("5–6")
    unresolved_tie: bool = False  # a tie at a medal place without a head referee's decision
    decided_places: tuple[int, int] | None = None  # the shared places a tie decision settled for this row
    qualifying_places: tuple[int, int] | None = None  # the row's place in the qualifying order ("4", "4–5")
    qualifying_decided_places: tuple[int, int] | None = None  # the qualifying places a tie decision settled
    decided_by: tuple[str, ...] | None = None  # the tie decision (its order of player ids) that ordered this row

    @property
    def decided_tie(self) -> bool:
        """Whether a head referee's decision settled this row's place (see `decided_places`)."""
        return self.decided_places is not None

    @property
    def decided_label(self) -> str:
        """The places the decision settled as shown: "4–5" ("" when none)."""
        if self.decided_places is None:
            return ""
        return "–".join(str(place) for place in self.decided_places)

    @property
    def qualifying_rank(self) -> int | None:
        """The row's first place in the qualifying order (None for a disqualified player)."""
        return None if self.qualifying_places is None else self.qualifying_places[0]

    @property
    def qualifying_rank_label(self) -> str:
        """The qualifying place as shown: "4" or a shared "4–5" ("" for a disqualified player)."""
        if self.qualifying_places is None:
            return ""
        first, last = self.qualifying_places
        return str(first) if first == last else f"{first}–{last}"

    @property
    def qualifying_decided_label(self) -> str:
        """The qualifying places a tie decision settled as shown: "4–5" ("" when none)."""
        if self.qualifying_decided_places is None:
            return ""
        return "–".join(str(place) for place in self.qualifying_decided_places)

    @property
    def in_final(self) -> bool:
        """Whether the player sat at the final table: the row is placed by the final."""
        return self.final is not None

    @property
    def points(self) -> Totals:
        """The totals that place this row, which every standings output shows: the final's for a
        player at the final table, the qualifying rounds' for everyone else."""
        return self.qualifying if self.final is None else self.final

    @property
    def player(self) -> Any:
        """The caller's own record of the player (``Entrant.record``)."""
        return self.entrant.record

    @property
    def status(self) -> str:
        """The player's status in these standings."""
        return self.entrant.status

    @property
    def total(self) -> Totals:
        """Qualifying and final totals together."""
        if self.final is None:
            return self.qualifying
        return Totals(
            self.qualifying.big_points + self.final.big_points,
            self.qualifying.small_points + self.final.small_points,
            self.qualifying.games_won + self.final.games_won,
        )

    @property
    def is_disqualified(self) -> bool:
        """Whether the player is disqualified (listed last, without a rank)."""
        return self.status == DISQUALIFIED

    @property
    def rank_label(self) -> str:
        """The rank as shown: "5", a shared "5–6", or "DQ"."""
        if self.rank is None:
            return "DQ"
        if self.rank_to and self.rank_to != self.rank:
            return f"{self.rank}–{self.rank_to}"
        return str(self.rank)

    @property
    def medal(self) -> str | None:
        """ "gold", "silver" or "bronze" for places 1–3, else None."""
        if self.is_disqualified or self.rank is None:
            return None
        return MEDALS.get(self.rank)

    def as_json(self) -> dict[str, object]:
        """The row of SPEC §9's standings JSON: the figures that place the row (`points`, as every
        other output shows them); a finalist's row adds its `qualifying` part (with the
        qualifying rank) and its `final` part."""
        row: dict[str, object] = {
            "rank": self.rank,
            "player_id": self.entrant.ext_id,
            "player": self.entrant.name,
            "organisation": self.entrant.organisation,
            **_figures(self.points),
            "status": self.status,
        }
        if self.final is not None:
            row["qualifying"] = {**_figures(self.qualifying), "rank": self.qualifying_rank}
            row["final"] = _figures(self.final)
        return row


def _figures(totals: Totals) -> dict[str, int]:
    return {"big_points": totals.big_points, "small_points": totals.small_points, "games_won": totals.games_won}


def table_totals(
    games_by_table: Mapping[Key, Iterable[tuple[dict[str, int], Iterable[str]]]], settings: rules.Settings
) -> dict[tuple[Key, str], dict[str, int]]:
    """{(table, letter): round totals} from each table's scored games.

    `games_by_table`: {table: iterable of (scores by letter, winner letters)}, the scores with
    the referee's overrides applied.
    """
    totals: dict[tuple[Key, str], dict[str, int]] = {}
    for table, games in games_by_table.items():
        scored = [rules.GameResult(scores=scores, winners=frozenset(winners), minus={}) for scores, winners in games]
        for letter, values in rules.table_round(scored, settings).items():
            totals[(table, letter)] = values
    return totals


def competition_ranks(rows: list[StandingRow], key: Callable[[StandingRow], object], start: int = 1) -> None:
    """Give rows (already sorted) ranks; rows with an equal key share the best rank."""
    position = start
    index = 0
    while index < len(rows):
        end = index
        while end + 1 < len(rows) and key(rows[end + 1]) == key(rows[index]):
            end += 1
        for row in rows[index : end + 1]:
            row.rank, row.rank_to = position, position + (end - index)
        position += end - index + 1
        index = end + 1


def apply_tie_decisions(rows: list[StandingRow], decisions: Iterable[Sequence[str]]) -> None:
    """Order tied groups as the head referee decided; decided rows get their own ranks.

    `decisions`: orders of player ids (`Entrant.ext_id`), best first. A decision orders a tie
    only when it names the whole tied group.
    """
    for order in decisions:
        position_of = {ext_id: i for i, ext_id in enumerate(order)}
        groups: defaultdict[int, list[StandingRow]] = defaultdict(list)
        for row in rows:
            if row.entrant.ext_id in position_of and row.rank is not None:
                groups[row.rank].append(row)
        for rank, group in groups.items():
            tied = [r for r in rows if r.rank == rank]
            if len(group) < 2 or len(group) != len(tied):
                continue
            group.sort(key=lambda row: position_of[row.entrant.ext_id])
            first = rows.index(tied[0])
            for offset, row in enumerate(group):
                rows[first + offset] = row
                row.rank = row.rank_to = rank + offset
                row.decided_by = tuple(order)


Places = tuple[int, int]  # a row's first and last place: (5, 6) for a shared "5–6"


def _places(row: StandingRow) -> Places:
    assert row.rank is not None and row.rank_to is not None  # every row placed here has its rank
    return row.rank, row.rank_to


def _qualifying_key(row: StandingRow) -> tuple[int, int, int]:
    """Big points, small points, games won of the qualifying rounds: best first."""
    return (-row.qualifying.big_points, -row.qualifying.small_points, -row.qualifying.games_won)


def _order(
    rows: Sequence[StandingRow], decisions: Sequence[Sequence[str]]
) -> tuple[list[StandingRow], dict[int, Places]]:
    """The rows (in qualifying order) placed under `decisions`, in order (their ranks set), and each
    row's qualifying places by `id(row)`: the finalists first, ranked by the final, then the others
    in qualifying order."""
    ranked = list(rows)
    competition_ranks(ranked, _qualifying_key)
    apply_tie_decisions(ranked, decisions)
    qualifying = {id(row): _places(row) for row in ranked}
    at_final = [row for row in ranked if row.final is not None]
    if not at_final:
        return ranked, qualifying
    others = [row for row in ranked if row.final is None]

    def final_key(row: StandingRow) -> tuple[int, int, int]:
        """The final's big points, small points, then the qualifying rank."""
        final = row.final
        assert final is not None  # only finalists are ordered by the final
        return (-final.big_points, -final.small_points, qualifying[id(row)][0])

    at_final.sort(key=lambda row: (final_key(row), row.entrant.start_number))
    competition_ranks(at_final, final_key)
    competition_ranks(others, _qualifying_key, start=len(at_final) + 1)
    apply_tie_decisions(others, decisions)
    return at_final + others, qualifying


def _mark_decided(
    rows: list[StandingRow],
    undecided: Mapping[int, Places],
    undecided_qualifying: Mapping[int, Places],
    qualifying: Mapping[int, Places],
) -> None:
    """Set `decided_places` on the rows whose place a decision settled, and
    `qualifying_decided_places` on those whose qualifying place one settled.

    A row's place was settled by a decision when without the decisions it would share places
    (`undecided`, by `id(row)`): those places are named. A player left out of the final by a
    decision at its last seat keeps the qualifying places of that tie ("4–5"): the final, not
    the decision, placed the finalist of that tie, who gets no mark.
    """
    final_ties = {undecided_qualifying[id(row)] for row in rows if row.final is not None}
    for row in rows:
        if qualifying[id(row)] != undecided_qualifying[id(row)]:
            row.qualifying_decided_places = undecided_qualifying[id(row)]
        before = undecided[id(row)]
        if _places(row) != before:
            row.decided_places = before
        elif (
            row.final is None
            and undecided_qualifying[id(row)] in final_ties
            and (qualifying[id(row)] != undecided_qualifying[id(row)])
        ):
            row.decided_places = undecided_qualifying[id(row)]


def decision_stands(rows: Iterable[StandingRow], order: Sequence[str]) -> bool:
    """Whether a tie decision still orders a tie: the players it names (those not disqualified,
    at least two) are tied with one another, and with nobody else.

    `rows`: the standings rows (their totals count, not their ranks); `order`: the decision's
    player ids. Tied means equal qualifying totals (big points, small points, games won);
    between players who all sat at the final table, equal big and small points of the final
    as well. A result or a setting changed after the decision can undo the tie: the decision
    then orders nothing the head referee decided, and must be looked at again.
    """
    named = set(order)
    ranked = [row for row in rows if not row.is_disqualified]
    players = [row for row in ranked if row.entrant.ext_id in named]
    if len(players) < 2:
        return False
    at_final = all(row.final is not None for row in players)
    pool = [row for row in ranked if row.final is not None] if at_final else ranked

    def key(row: StandingRow) -> tuple[int, ...]:
        q = row.qualifying
        values: tuple[int, ...] = (q.big_points, q.small_points, q.games_won)
        if at_final and row.final is not None:
            values += (row.final.big_points, row.final.small_points)
        return values

    keys = {key(row) for row in players}
    if len(keys) != 1:
        return False
    tied = {row.entrant.ext_id for row in pool if key(row) in keys}
    return tied == {row.entrant.ext_id for row in players}


def rank(
    entrants: Iterable[Entrant],
    results: Iterable[tuple[Hashable, bool, Mapping[str, int]]],
    finalists: Iterable[Hashable],
    decisions: Iterable[Sequence[str]],
    *,
    final_planned: bool = False,
) -> list[StandingRow]:
    """The standings rows in order (SPEC §4).

    `results`: (entrant key, at the final table?, round totals) per seat and round;
    `finalists`: keys of the players seated at the final table; `decisions`: see
    `apply_tie_decisions`. Big points, small points, games won, then shared ranks; the
    finalists first, ranked by the final (its big points, its small points, then the qualifying
    rank), the others after them in qualifying order; disqualified players last, without a rank.
    A row a decision placed names the places it settled (`StandingRow.decided_places`).
    `final_planned`: the medals are the final's, so a tie in the qualifying rounds at places 1–3
    is no tie at a medal place (`StandingRow.unresolved_tie` marks only finalists then).
    """
    rows = {entrant.key: StandingRow(entrant) for entrant in entrants}
    for key in finalists:
        rows[key].final = Totals()
    for key, at_final_table, values in results:
        row = rows[key]
        totals = row.final if at_final_table else row.qualifying
        if totals is None:
            raise ValueError(f"{key!r} has results at the final table but is not listed as a finalist")
        totals.add(values)

    players = sorted(
        (row for row in rows.values() if not row.is_disqualified),
        key=lambda row: (_qualifying_key(row), row.entrant.start_number),
    )
    disqualified = sorted(
        (row for row in rows.values() if row.is_disqualified),
        key=lambda row: (row.entrant.name, row.entrant.start_number),
    )
    decided = [list(order) for order in decisions]
    if decided:  # placed first without the decisions, to see which places they settled
        undecided_order, undecided_qualifying = _order(players, ())
        undecided = {id(row): _places(row) for row in undecided_order}
        ranked, qualifying = _order(players, decided)
        _mark_decided(ranked, undecided, undecided_qualifying, qualifying)
    else:
        ranked, qualifying = _order(players, ())
    for row in ranked:
        row.qualifying_places = qualifying[id(row)]

    for row in ranked:
        at_medal_place = row.rank is not None and row.rank <= MEDAL_PLACES
        row.unresolved_tie = at_medal_place and row.rank_to != row.rank and (not final_planned or row.final is not None)
    for row in disqualified:
        row.rank = row.rank_to = None
    return ranked + disqualified


def final_places(rows: Iterable[StandingRow]) -> int:
    """How many places the final decided (places 1 to this): its players who are not
    disqualified; 0 without a final."""
    return sum(1 for row in rows if row.final is not None and row.rank is not None)


def statuses_as_of(
    statuses: Mapping[Key, str],
    cards: Iterable[tuple[Key, str, int | None, datetime]],
    up_to_round: int,
    later_start: datetime | None,
) -> dict[Key, str]:
    """{player key: status} as it was after round `up_to_round` (frozen public standings).

    `statuses`: the stored statuses; `cards`: (player key, colour, round number or None, given
    at). Cards count when given in a round up to it; a card without a round counts when it was
    given before `later_start` (when the later rounds began; None: they have not). A
    disqualification that only later cards explain is not shown yet (the player was active);
    any other stored status stands.
    """
    then: defaultdict[Key, Counter[str]] = defaultdict(Counter)
    ever: defaultdict[Key, Counter[str]] = defaultdict(Counter)
    for key, colour, number, given_at in cards:
        ever[key][colour] += 1
        if number <= up_to_round if number is not None else (later_start is None or given_at < later_start):
            then[key][colour] += 1
    as_of: dict[Key, str] = {}
    for key, status in statuses.items():
        if derived_status(ACTIVE, then[key]) == DISQUALIFIED:
            status = DISQUALIFIED
        elif status == DISQUALIFIED and derived_status(ACTIVE, ever[key]) == DISQUALIFIED:
            status = ACTIVE
        as_of[key] = status
    return as_of
