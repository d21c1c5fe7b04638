"""A season's table read from the database, ranked by `engine.season`.

Every output of a season (its public page, a person's page, the staff page, the PDF, XLSX, CSV,
the results site and `manage.py season_standings`) reads its table here, once: `season_table`.

A tournament adds its places to the table once its results are final (`results_are_final`:
its final, or its last qualifying round, completed); the place is the one its final standings
give (`compute_standings`, every verified sheet, the final table placing its players; tied rows
share the better place). For the public (`public=True`) a tournament counts only while the public
may see all of its results (`public_scope`: not hidden, not frozen; under "hidden until the
ceremony" the final's start hides them until the ceremony's last reveal); the others are listed
as pending. Staff see every finished tournament.

A tournament's final placings are computed once per public version (`public.versions`: the
database raises it on every change its results, rounds, players or visibility see) and kept in the
shared cache (`placings_of`), so that a season of any number of tournaments reads its tournaments
and their versions in one query, their kept placings in one round trip to the cache, and its
people in one more: only a tournament changed since (or new to the cache) is computed again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import F

from engine import season as engine_season
from scoring.selectors.sheets import results_are_final
from scoring.selectors.standings import compute_standings
from scoring.selectors.visibility import public_scope
from tournament import names, release, shared_cache
from tournament.models import Person, Season, Tournament
from tournament.text import polish_sort_key

UNFINISHED = "unfinished"  # its results are not final yet
NOT_PUBLIC = "not_public"  # hidden, frozen, or its final awaits the ceremony


@dataclass(frozen=True)
class SeasonTournament:
    """One of the season's tournaments and whether it adds to this table (`pending`: why not)."""

    tournament: Tournament
    pending: str | None

    @property
    def counts(self) -> bool:
        return self.pending is None


@dataclass(frozen=True)
class SeasonResult:
    tournament: Tournament
    place: int | None  # None: disqualified
    status: str
    points: int
    counted: bool

    @property
    def disqualified(self) -> bool:
        return self.place is None


@dataclass
class SeasonLine:
    """A person's line of the table, as every output shows it."""

    rank: int
    person: Person
    name: str  # surname first
    club: str
    points: int
    tournaments: int
    wins: int
    best_place: int | None
    results: list[SeasonResult] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "person": str(self.person.uid),
            "name": self.person.name,
            "organisation": self.club,
            "points": self.points,
            "tournaments": self.tournaments,
            "wins": self.wins,
            "best_place": self.best_place,
            "results": [
                {"tournament": r.tournament.slug, "place": r.place, "points": r.points, "counted": r.counted}
                for r in self.results
            ],
        }


@dataclass
class SeasonTable:
    season: Season
    public: bool
    tournaments: list[SeasonTournament]
    lines: list[SeasonLine]

    @property
    def pending(self) -> list[SeasonTournament]:
        return [entry for entry in self.tournaments if not entry.counts]

    @property
    def counted(self) -> list[Tournament]:
        return [entry.tournament for entry in self.tournaments if entry.counts]

    @property
    def grid(self) -> list[tuple[SeasonLine, list[SeasonResult | None]]]:
        """Each line with its result in each counted tournament (None: not played), in their order."""
        counted = self.counted
        grid = []
        for line in self.lines:
            by_tournament = {result.tournament.pk: result for result in line.results}
            grid.append((line, [by_tournament.get(t.pk) for t in counted]))
        return grid

    def line_of(self, person: Person) -> SeasonLine | None:
        return next((line for line in self.lines if line.person.pk == person.pk), None)


PLACINGS_SECONDS = 7 * 24 * 3600  # a finished tournament's placings rarely change; a change makes a new key

# A tournament's kept placings: None while its results are not final, else (person id, place or
# None when disqualified, status, the club its player played for) for each player with a person.
Kept = list[tuple[int, int | None, str, str]] | None


def season_tournaments(season: Season) -> list[Tournament]:
    """The season's tournaments in date order, each with its public version (`version_now`)."""
    return list(season.tournaments.annotate(version_now=F("public_version__version")).order_by("date", "pk"))


def _placings_key(tournament: Tournament) -> str:
    return f"season-placings:{release.fingerprint()}:{tournament.pk}:{tournament.version_now}"  # type: ignore[attr-defined]


def _compute_placings(tournament: Tournament) -> Kept:
    if not results_are_final(tournament):
        return None
    kept = []
    for row in compute_standings(tournament, verified_only=True):
        player = row.player
        if player.person_id is not None:
            kept.append((player.person_id, row.rank, row.status, player.organisation.name))
    return kept


def placings_of(tournaments: list[Tournament]) -> dict[int, Kept]:
    """{tournament id: its kept placings} for tournaments from `season_tournaments`: those kept for
    their public version are read from the cache at once, the others computed and kept."""
    keys = {tournament.pk: _placings_key(tournament) for tournament in tournaments}
    found = shared_cache.get_many(list(keys.values()))
    placings: dict[int, Kept] = {}
    made = {}
    for tournament in tournaments:
        key = keys[tournament.pk]
        if key in found:
            placings[tournament.pk] = found[key][0]
        else:
            placings[tournament.pk] = _compute_placings(tournament)
            if tournament.version_now is not None:  # type: ignore[attr-defined]
                made[key] = (placings[tournament.pk],)
    shared_cache.set_many(made, PLACINGS_SECONDS)
    return placings


def why_pending(tournament: Tournament, *, public: bool, kept: Kept) -> str | None:
    if kept is None:
        return UNFINISHED
    if public:
        scope = public_scope(tournament)
        if not scope.visible or scope.up_to_round is not None:
            return NOT_PUBLIC
    return None


def scoring_of(season: Season) -> engine_season.Scoring:
    return engine_season.Scoring(tuple(season.place_points), season.best_count)


def season_table(season: Season, *, public: bool) -> SeasonTable:
    """The season's table: staff (`public=False`) count every finished tournament, the public only
    those whose results are public."""
    tournaments = season_tournaments(season)
    kept = placings_of(tournaments)
    entries = [SeasonTournament(t, why_pending(t, public=public, kept=kept[t.pk])) for t in tournaments]
    placings: list[engine_season.TournamentPlacings] = []
    clubs: dict[int, str] = {}
    for entry in entries:
        if entry.counts:
            placings.append(_placings(entry.tournament, kept[entry.tournament.pk] or [], clubs))
    people = _people({placing.person for t in placings for placing in t.placings})
    merged = [
        engine_season.TournamentPlacings(
            t.key, [engine_season.Placing(people[p.person].pk, p.place, p.status) for p in t.placings]
        )
        for t in placings
    ]
    by_pk = {person.pk: person for person in people.values()}
    rows = engine_season.season_table(merged, scoring_of(season))
    lines = [_line(row, by_pk[row.person], clubs) for row in rows]
    lines.sort(key=lambda line: (line.rank, polish_sort_key(line.name)))
    return SeasonTable(season, public, entries, lines)


def _placings(tournament, kept, clubs):
    placings = []
    for person_id, place, status, club in kept:
        clubs[person_id] = club  # the latest tournament's club, when the person has none
        placings.append(engine_season.Placing(person_id, place, status))
    return engine_season.TournamentPlacings(tournament, placings)


def _people(pks):
    """{person id: the person it stands for}: a record merged into another stands for that one."""
    people = {person.pk: person for person in Person.objects.filter(pk__in=pks)}
    targets = {person.merged_into_id for person in people.values() if person.merged_into_id} - set(people)
    while targets:
        for person in Person.objects.filter(pk__in=targets):
            people[person.pk] = person
        targets = {person.merged_into_id for person in people.values() if person.merged_into_id} - set(people)

    def final(pk):
        seen = set()
        while people[pk].merged_into_id and pk not in seen:
            seen.add(pk)
            pk = people[pk].merged_into_id
        return people[pk]

    return {pk: final(pk) for pk in pks}


def _line(row, person, clubs):
    return SeasonLine(
        rank=row.rank,
        person=person,
        name=names.surname_first(person.given_names, person.surname),
        club=person.club or clubs.get(person.pk, ""),
        points=row.points,
        tournaments=row.tournaments,
        wins=row.wins,
        best_place=row.best_place,
        results=[SeasonResult(r.tournament, r.place, r.status, r.points, r.counted) for r in row.results],
    )


def person_history(season: Season, person: Person, *, public: bool) -> SeasonLine | None:
    """A person's line of the season's table (with every result of theirs), or None."""
    return season_table(season, public=public).line_of(person)


def seasons_of(tournament: Tournament) -> list[Season]:
    """The seasons a tournament is in, with their organisation."""
    return list(tournament.seasons.select_related("host").order_by("name"))
