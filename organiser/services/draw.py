"""The draw: the seating engine's tables for the next round stored as a draft round (who may
be seated is read by `organiser.selectors`), and the final table seated from the standings."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction

from engine import seating
from organiser.selectors import eligible_players, qualifying_seatings
from scoring.selectors.standings import compute_standings
from scoring.selectors.ties import final_candidates
from scoring.services.sheets import ensure_sheet
from tournament.audit import log_change
from tournament.models import Round, Seat, Table, Tournament
from tournament.refusals import Refused
from tournament.selectors import latest_round, qualifying_over

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

RANDOM = "random"
FINAL_METHOD = "final"
METHOD_CHOICES = (RANDOM, *Tournament.SeatingMethod.values)


def table_counts(count: int) -> tuple[int, int]:
    """(4-tables, 3-tables) for `count` players who can be seated."""
    sizes = seating.table_sizes(count)
    return sizes.count(4), sizes.count(3)


def check_field_size(count: int) -> None:
    """Refuse when `count` players cannot be seated at tables of 3 and 4 (the engine's SeatingError)."""
    try:
        seating.table_sizes(count)
    except seating.SeatingError as error:
        raise Refused.from_violation(error, count=count) from None


# ------------------------------------------------------------------ rounds: the draw


def _store_tables(round_, tables):
    """Create tables, seats and an empty score sheet per table from the engine's seating."""
    created = Table.objects.bulk_create(Table(round=round_, number=i) for i in range(1, len(tables) + 1))
    Seat.objects.bulk_create(
        Seat(table=table, round=round_, player_id=player_id, letter=letter)
        for table, seated in zip(created, tables)
        for letter, player_id in seated.items()
    )
    for table in created:
        ensure_sheet(table)


def next_round_number(tournament: Tournament) -> int:
    """The number of the round to draw next; refused when none may be drawn."""
    latest = latest_round(tournament)
    if latest is not None and latest.is_final:
        raise Refused("no_round_after_final")
    if latest is not None and latest.state != Round.State.COMPLETED:
        raise Refused("round_not_complete", number=latest.number)
    number = latest.number + 1 if latest else 1
    if number > tournament.rounds_planned:
        raise Refused(
            "qualifying_played_seat_final" if tournament.final else "qualifying_played", count=tournament.rounds_planned
        )
    return number


def draw_round(
    tournament: Tournament, *, method: str | None = None, seed: str | int | None = None, user: AbstractBaseUser | None
) -> Round:
    """Draw the next qualifying round as a draft and return it.

    Round 1 is a random draw; later rounds use `method` (default: the tournament's
    seating method). "manual" starts from the engine's mixed draw for the organiser to edit
    by swaps. The seed is recorded so the draw can be repeated.
    """
    try:
        with transaction.atomic():
            return _draw_round(tournament, method=method, seed=seed, user=user)
    except IntegrityError:
        raise Refused("draw_clash") from None


def _draw_round(tournament, *, method, seed, user):
    number = next_round_number(tournament)
    method = method or (RANDOM if number == 1 else tournament.seating_method)
    if method not in METHOD_CHOICES:
        raise Refused("unknown_method")
    if number == 1 and method != Tournament.SeatingMethod.MANUAL:
        method = RANDOM  # nothing to mix or rank before the first round
    players = list(eligible_players(tournament, number).values_list("pk", "organisation_id"))
    check_field_size(len(players))
    seed = (str(seed).strip() if seed is not None else "")[:64] or str(secrets.randbelow(10**9))
    engine_method = Tournament.SeatingMethod.MIXED if method == Tournament.SeatingMethod.MANUAL else method
    history = qualifying_seatings(tournament)
    standings = None
    if engine_method == Tournament.SeatingMethod.SWISS:
        standings = [row.player.pk for row in compute_standings(tournament)]
    organisations = dict(players) if tournament.players_per_organisation > 1 else None
    tables = seating.draw_round(
        [pk for pk, _org in players],
        [history[n] for n in sorted(history)],
        seed=seed,
        method=str(engine_method),
        standings=standings,
        organisations=organisations,
        remaining_rounds=tournament.rounds_planned - number,
    )
    round_ = Round.objects.create(tournament=tournament, number=number, seed=seed, method=str(method))
    _store_tables(round_, tables)
    log_change(
        tournament,
        user,
        "round_draw",
        after={"round": number, "method": str(method), "seed": seed, "players": len(players)},
    )
    return round_


@transaction.atomic
def seat_final(tournament: Tournament, *, user: AbstractBaseUser | None) -> Round:
    """Seat the top active players of the standings at the final table: A = 1st, B = 2nd, …"""
    if not tournament.final:
        raise Refused("no_final")
    latest = latest_round(tournament)
    if latest is not None and latest.is_final:
        raise Refused("final_seated")
    if latest is None or not qualifying_over(tournament, latest) or latest.state != Round.State.COMPLETED:
        raise Refused("final_too_early", number=tournament.rounds_planned)
    finalists = final_candidates(tournament)
    round_ = Round.objects.create(
        tournament=tournament, number=latest.number + 1, kind=Round.Kind.FINAL, method=FINAL_METHOD
    )
    _store_tables(round_, [dict(zip("ABCD", (row.player.pk for row in finalists)))])
    log_change(tournament, user, "final_seated", after={"players": [row.player.ext_id for row in finalists]})
    return round_
