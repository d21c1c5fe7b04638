"""The reads of the referee pages and the score-sheet services: every queryset they need.

A sheet's table (with its round, seats, players and score sheet) and its stored games (with
their seat results) are read in one query each: the rows come joined, and the related rows are
put where `prefetch_related` would have put them, so `table.seats.all()` and
`game.results.all()` need no further query.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import models
from django.db.models import Count, OuterRef, Subquery
from django.db.models.lookups import Exact

from scoring.models import AuditEntry, Card, Game, ScoreSheet, SeatResult
from tournament.models import Player, Round, Seat, Table, Tournament

SHEET_ACTIONS = ("save_game", "correct_game", "override", "submit", "verify")


def as_prefetched(instance: models.Model, relation: str, *, objects: Iterable[models.Model]) -> None:
    """Make `instance.<relation>.all()` return `objects` without a query, as `prefetch_related` does."""
    queryset = getattr(instance, relation).all()
    queryset._result_cache = list(objects)
    queryset._prefetch_done = True
    if not hasattr(instance, "_prefetched_objects_cache"):
        instance._prefetched_objects_cache = {}
    instance._prefetched_objects_cache[relation] = queryset


def sheet_table(tournament: Tournament, *, round_number: int, table_number: int) -> Table | None:
    """A table of a round that is not a draft, with its round, seats, players and score sheet (one query).

    `table.sheet` is missing when the table has no score sheet yet.
    """
    seats = list(
        Seat.objects.filter(
            table__round__tournament=tournament, table__round__number=round_number, table__number=table_number,
        )
        .exclude(table__round__state=Round.State.DRAFT)
        .select_related("player", "table__round", "table__sheet__verified_by")
        .order_by("letter")
    )
    if not seats:
        return None
    table = seats[0].table
    table.round.tournament = tournament
    for seat in seats:
        seat.table = table
    as_prefetched(table, "seats", objects=seats)
    return table


def sheet_of(table: Table) -> ScoreSheet | None:
    """The table's score sheet as read with it, or None when it has none yet."""
    try:
        sheet = table.sheet
    except ScoreSheet.DoesNotExist:
        return None
    sheet.table = table
    return sheet


def sheet_games(sheet: ScoreSheet) -> dict[int, Game]:
    """The stored games of a sheet by number, each with its seat results (one query)."""
    games: dict[int, Game] = {}
    results: dict[int, list[SeatResult]] = {}
    for result in SeatResult.objects.filter(game__sheet=sheet).select_related("game").order_by("game__number", "letter"):
        game = games.setdefault(result.game.number, result.game)
        result.game = game
        results.setdefault(game.number, []).append(result)
    for number, game in games.items():
        game.sheet = sheet
        as_prefetched(game, "results", objects=results[number])
    return games


def current_sheet(sheet: ScoreSheet) -> ScoreSheet:
    """The sheet as stored now (state, version, who verified it), keeping the caller's table."""
    current = ScoreSheet.objects.select_related("verified_by").get(pk=sheet.pk)
    current.table = sheet.table
    return current


def entered_game_numbers(sheet: ScoreSheet) -> set[int]:
    return set(Game.objects.filter(sheet=sheet).values_list("number", flat=True))


def holds_games(count: int) -> Exact:
    """A condition on score sheets: games 1 to `count` are all stored."""
    stored = (
        Game.objects.filter(sheet=OuterRef("pk"), number__range=(1, count))
        .values("sheet").annotate(entered=Count("pk")).values("entered")
    )
    return Exact(Subquery(stored), count)


def changes_since(sheet: ScoreSheet, version: int) -> list[AuditEntry]:
    """The audit entries of `sheet` written after it had `version`, oldest first."""
    entries = AuditEntry.objects.filter(sheet=sheet, action__in=SHEET_ACTIONS).select_related("user")
    newer = [e for e in entries if isinstance(e.after, dict) and (e.after.get("version") or 0) > version]
    return sorted(newer, key=lambda e: (e.after["version"], e.pk))


def sheet_log(sheet: ScoreSheet) -> list[AuditEntry]:
    """Every change of a sheet, newest first."""
    return list(AuditEntry.objects.filter(sheet=sheet).select_related("user").order_by("-created_at", "-pk"))


def referee_rounds(tournament: Tournament) -> list[Round]:
    """The rounds the referees see (every round but a draft), in order."""
    return list(Round.objects.filter(tournament=tournament).exclude(state=Round.State.DRAFT).order_by("number"))


def round_tables(round_: Round) -> list[Table]:
    """The tables of a round with their score sheets, seats and players, in order."""
    seats = models.Prefetch("seats", Seat.objects.select_related("player").order_by("letter"))
    return list(Table.objects.filter(round=round_).select_related("sheet").prefetch_related(seats).order_by("number"))


def tournament_games(tournament: Tournament) -> models.QuerySet[Game]:
    """Every stored game of a tournament, with its seat results."""
    return Game.objects.filter(sheet__table__round__tournament=tournament).prefetch_related("results")


def card_colours(player: Player) -> list[str]:
    """The colour of every card a player has been given."""
    return list(Card.objects.filter(player=player).values_list("colour", flat=True))
