"""What the printed documents read, in a fixed number of queries per document: a round's tables
with their players, the rounds with their table numbers (the print menu), every player who sat
at a table (the certificates)."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Prefetch

from tournament.models import Player, Round, Seat, Table, Tournament
from tournament.names import sorted_by_surname


def round_tables(round_: Round) -> list[Table]:
    """The tables of a round by number, with seats, players and organisations (two queries)."""
    seats = Seat.objects.select_related("player__organisation").order_by("letter")
    return list(round_.tables.order_by("number").prefetch_related(Prefetch("seats", queryset=seats)))


def rounds_with_table_numbers(tournament: Tournament) -> list[Round]:
    """The rounds in order, each with `table_numbers` (two queries)."""
    rounds = list(tournament.rounds.order_by("number"))
    table_numbers = defaultdict(list)
    tables = Table.objects.filter(round__tournament=tournament).order_by("number").values_list("round_id", "number")
    for round_id, number in tables:
        table_numbers[round_id].append(number)
    for round_ in rounds:
        round_.table_numbers = table_numbers[round_.pk]  # type: ignore[attr-defined]  # for the page only
    return rounds


def players_who_sat(tournament: Tournament) -> list[Player]:
    """Every player who sat at a table in at least one round, in surname order (Polish alphabetical)."""
    players = (
        Player.objects.filter(tournament=tournament, seats__isnull=False).distinct().select_related("organisation")
    )
    return sorted_by_surname(players)


def round_has_tables(round_: Round) -> bool:
    return round_.tables.exists()
