"""What the public pages read themselves: "find my table", players by a part of their name or
of their club; for the projector, the rounds its standings count and the seating it shows.

The round results, standings and visibility the public pages show are read by scoring
(`scoring.selectors.results`, `scoring.selectors.visibility`, `scoring.selectors`).
"""

from __future__ import annotations

from dataclasses import dataclass

from public.text import name_matches, search_terms
from tournament.models import Player, Round, Seat, Tournament
from tournament.names import sorted_by_surname, surname_key

MAX_SEARCH_MATCHES = 8


@dataclass
class Match:
    player: Player
    table: int | None
    letter: str | None


def find_players(tournament: Tournament, *, query: str, round_: Round | None) -> tuple[list[Match], int]:
    """Players whose name or club matches the query ("lodz" finds the players of a club in
    Łódź, "nowak anna" and "anna nowak" both find Anna Nowak), each with their table and seat
    in `round_`; matches by name come first, each kind in surname order.

    Returns (matches, more): at most MAX_SEARCH_MATCHES matches, and how many more there are.
    """
    terms = search_terms(query)
    if not terms:
        return [], 0
    players = sorted(
        (
            p
            for p in Player.objects.filter(tournament=tournament).select_related("organisation")
            if name_matches(terms, f"{p.name} {p.organisation.name}")
        ),
        key=lambda p: (not name_matches(terms, p.name), surname_key(p), p.start_number),
    )
    seats = {}
    if round_ is not None and players:
        seats = {
            player_id: (table, letter)
            for player_id, table, letter in Seat.objects.filter(
                round=round_, player__in=players[:MAX_SEARCH_MATCHES]
            ).values_list("player_id", "table__number", "letter")
        }
    matches = [Match(p, *seats.get(p.pk, (None, None))) for p in players[:MAX_SEARCH_MATCHES]]
    return matches, max(len(players) - MAX_SEARCH_MATCHES, 0)


def public_rounds_in_order(tournament: Tournament) -> list[Round]:
    """Every round past its draft (published, started or completed), in order: one query."""
    return list(Round.objects.filter(tournament=tournament).exclude(state=Round.State.DRAFT).order_by("number"))


def round_being_seated(rounds: list[Round]) -> Round | None:
    """The round whose seating the hall needs now: the latest published round while no round is
    in play (from its publication until it starts); None otherwise."""
    if any(r.state == Round.State.STARTED for r in rounds):
        return None
    return next((r for r in reversed(rounds) if r.state == Round.State.PUBLISHED), None)


def seating_by_surname(round_: Round) -> list[Match]:
    """Every player seated in `round_` with table and seat, in surname order (Polish alphabetical)."""
    seats = (
        Seat.objects.filter(round=round_)
        .select_related("player__organisation", "table")
        .order_by("player__start_number")
    )
    return [
        Match(seat.player, seat.table.number, seat.letter)
        for seat in sorted_by_surname(seats, lambda seat: seat.player)
    ]
