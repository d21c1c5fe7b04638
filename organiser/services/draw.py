"""The draw: who is seated in the next round, the seating engine's tables stored as a draft
round, and the final table seated from the standings."""

from __future__ import annotations

import secrets
from collections import defaultdict

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine import seating
from tournament.audit import log_change
from scoring.services import ensure_sheet
from scoring.standings import compute_standings
from scoring.ties import final_candidates
from tournament.errors import ActionRefused
from tournament.models import Player, Round, Seat, Table, Tournament
from tournament.queries import latest_round, qualifying_over

RANDOM = "random"
FINAL_METHOD = "final"
METHOD_CHOICES = (RANDOM, *Tournament.SeatingMethod.values)


def eligible_players(tournament, number):
    """Players to seat in round `number`: active, checked in, and joining by then."""
    return Player.objects.filter(tournament=tournament, status=Player.Status.ACTIVE, present=True).filter(
        Q(joins_from_round__isnull=True) | Q(joins_from_round__lte=number)
    )


def qualifying_seatings(tournament, up_to=None):
    """{round number: [ {letter: player id}, … table 1 first ]} of the qualifying rounds."""
    seats = Seat.objects.filter(round__tournament=tournament, round__kind=Round.Kind.QUALIFYING)
    if up_to is not None:
        seats = seats.filter(round__number__lte=up_to)
    tables = defaultdict(dict)
    for number, table, letter, player_id in seats.values_list(
        "round__number", "table__number", "letter", "player_id"
    ).order_by("round__number", "table__number", "letter"):
        tables[(number, table)][letter] = player_id
    rounds = defaultdict(list)
    for (number, _table), seated in sorted(tables.items()):
        rounds[number].append(seated)
    return dict(rounds)


def table_counts(count):
    """(4-tables, 3-tables) for `count` players who can be seated."""
    sizes = seating.table_sizes(count)
    return sizes.count(4), sizes.count(3)


def check_field_size(count):
    """Raise ActionRefused when `count` players cannot be seated at tables of 3 and 4."""
    try:
        seating.table_sizes(count)
    except seating.SeatingError as error:
        if error.code == "five_players":
            message = _(
                "5 players cannot be seated: tables are for 3 or 4 players. "
                "Check in one more player or withdraw one."
            )
        else:
            message = ngettext(
                "At least 3 active, checked-in players are needed to seat a round; there is %(count)s.",
                "At least 3 active, checked-in players are needed to seat a round; there are %(count)s.",
                count,
            ) % {"count": count}
        raise ActionRefused(message) from None


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


def next_round_number(tournament):
    """The number of the round to draw next; raises ActionRefused when none may be drawn."""
    latest = latest_round(tournament)
    if latest is not None and latest.is_final:
        raise ActionRefused(_("The final has been seated: there are no more rounds to draw."))
    if latest is not None and latest.state != Round.State.COMPLETED:
        raise ActionRefused(
            _("Round %(number)s is not complete yet. Draw the next round once every sheet is verified and the round is completed.")
            % {"number": latest.number}
        )
    number = latest.number + 1 if latest else 1
    if number > tournament.rounds_planned:
        planned = tournament.rounds_planned
        if tournament.final:
            raise ActionRefused(ngettext(
                "The only qualifying round has been played: seat the final.",
                "All %(count)s qualifying rounds have been played: seat the final.", planned,
            ) % {"count": planned})
        raise ActionRefused(ngettext(
            "The only qualifying round has been played.", "All %(count)s qualifying rounds have been played.", planned,
        ) % {"count": planned})
    return number


def draw_round(tournament, *, method=None, seed=None, user):
    """Draw the next qualifying round as a draft and return it.

    Round 1 is a random draw; later rounds use `method` (default: the tournament's
    seating method). "manual" starts from the engine's mixed draw for the organiser to edit
    by swaps. The seed is recorded so the draw can be repeated.
    """
    try:
        with transaction.atomic():
            return _draw_round(tournament, method=method, seed=seed, user=user)
    except IntegrityError:
        raise ActionRefused(_("Someone else drew this round at the same moment. Reload the page.")) from None


def _draw_round(tournament, *, method, seed, user):
    number = next_round_number(tournament)
    method = method or (RANDOM if number == 1 else tournament.seating_method)
    if method not in METHOD_CHOICES:
        raise ActionRefused(_("Unknown seating method."))
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
        [pk for pk, _org in players], [history[n] for n in sorted(history)], seed=seed, method=str(engine_method),
        standings=standings, organisations=organisations, remaining_rounds=tournament.rounds_planned - number,
    )
    round_ = Round.objects.create(tournament=tournament, number=number, seed=seed, method=str(method))
    _store_tables(round_, tables)
    log_change(tournament, user, "round_draw", after={"round": number, "method": str(method), "seed": seed, "players": len(players)})
    return round_


@transaction.atomic
def seat_final(tournament, *, user):
    """Seat the top active players of the standings at the final table: A = 1st, B = 2nd, …"""
    if not tournament.final:
        raise ActionRefused(_("This tournament has no final (see the settings)."))
    latest = latest_round(tournament)
    if latest is not None and latest.is_final:
        raise ActionRefused(_("The final has already been seated."))
    if latest is None or not qualifying_over(tournament, latest) or latest.state != Round.State.COMPLETED:
        raise ActionRefused(
            _("The final is seated after the last qualifying round (round %(number)s) is completed.")
            % {"number": tournament.rounds_planned}
        )
    finalists = final_candidates(tournament)
    round_ = Round.objects.create(
        tournament=tournament, number=latest.number + 1, kind=Round.Kind.FINAL, method=FINAL_METHOD
    )
    _store_tables(round_, [dict(zip("ABCD", (row.player.pk for row in finalists)))])
    log_change(tournament, user, "final_seated", after={"players": [row.player.ext_id for row in finalists]})
    return round_
