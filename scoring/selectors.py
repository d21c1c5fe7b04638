"""Scoring's reads for the pages, printouts and exports: players and their cards, whether the
results are final, and the ties the head referee must decide.

(Standings and round results have modules of their own: `scoring.standings`, `scoring.results`.)
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.standings import StandingRow
from scoring.models import Card, ScoreSheet
from scoring.standings import compute_standings
from tournament.models import Player, Round, Tournament
from tournament.selectors import latest_round, qualifying_over

FINAL_SIZE = 4


# ---------------------------------------------------------------- players, cards, ties, final results

def players_with_card_counts(tournament: Tournament) -> list[Player]:
    """The players by start number, each with `warnings`, `yellows` and `reds` counted."""
    return list(
        Player.objects.filter(tournament=tournament).select_related("organisation")
        .annotate(
            yellows=Count("cards", filter=Q(cards__colour=Card.Colour.YELLOW)),
            warnings=Count("cards", filter=Q(cards__colour=Card.Colour.WARNING)),
            reds=Count("cards", filter=Q(cards__colour=Card.Colour.RED)),
        )
        .order_by("start_number")
    )


def cards_of_player(player: Player) -> list[Card]:
    """A player's cards, oldest first, with their round and who gave them."""
    return list(Card.objects.filter(player=player).select_related("round", "given_by"))


def cards_given(tournament: Tournament, *, newest_first: bool = False) -> list[Card]:
    """Every card of the tournament with its player and round."""
    order = ("-created_at", "-pk") if newest_first else ("created_at", "pk")
    return list(Card.objects.filter(tournament=tournament).select_related("player", "round").order_by(*order))


def results_are_final(tournament: Tournament) -> bool:
    """The final is completed (when the tournament has one), else the last planned qualifying round."""
    completed = Round.objects.filter(tournament=tournament, state=Round.State.COMPLETED)
    if tournament.final:
        return completed.filter(kind=Round.Kind.FINAL).exists()
    return completed.filter(kind=Round.Kind.QUALIFYING, number__gte=tournament.rounds_planned).exists()


def unverified_sheet_count(tournament: Tournament) -> int:
    sheets = ScoreSheet.objects.filter(table__round__tournament=tournament)
    return sheets.exclude(state=ScoreSheet.State.VERIFIED).count()


def sheets_in_play_count(tournament: Tournament) -> int:
    """How many sheets are being entered or wait to be verified."""
    in_play = [ScoreSheet.State.IN_PROGRESS, ScoreSheet.State.SUBMITTED]
    return ScoreSheet.objects.filter(table__round__tournament=tournament, state__in=in_play).count()


def unfinished_results(tournament: Tournament, rows: list[StandingRow]) -> list[str]:
    """What keeps the results from being final, as sentences for the head referee (none: final).

    `rows` are the standings (every verified sheet): a tie at a medal place must be decided.
    """
    reasons = []
    if not results_are_final(tournament):
        reasons.append(_("The final is not completed.") if tournament.final else _("The last qualifying round is not completed."))
    unverified = unverified_sheet_count(tournament)
    if unverified:
        reasons.append(ngettext(
            "%(count)d score sheet is not verified.", "%(count)d score sheets are not verified.", unverified,
        ) % {"count": unverified})
    if any(row.unresolved_tie for row in rows):
        reasons.append(_("A tie at a medal place is not decided."))
    return reasons


def final_cut_tie(rows: list[StandingRow]) -> list[StandingRow]:
    """The standings rows tied across the last seat of the final table (the whole tied group,
    whatever their status), or an empty list."""
    active = [row for row in rows if row.player.status == Player.Status.ACTIVE]
    if len(active) > FINAL_SIZE and active[FINAL_SIZE].rank == active[FINAL_SIZE - 1].rank:
        return [row for row in rows if row.rank == active[FINAL_SIZE - 1].rank]
    return []


def ties_to_decide(tournament: Tournament) -> list[list[StandingRow]]:
    """The ties the head referee must decide now (SPEC §4), each a list of tied standings rows.

    Once the last qualifying round is completed: while the final is to be seated, a tie across
    its last seat; when the results are final, a tie at a medal place. Before that, none: the
    places may still change, and a decision taken early would order a later tie unasked.
    """
    latest = latest_round(tournament)
    if latest is None or latest.state != Round.State.COMPLETED or not qualifying_over(tournament, latest):
        return []
    rows = compute_standings(tournament)
    if tournament.final and not latest.is_final:
        tied = final_cut_tie(rows)
        return [tied] if tied else []
    medal_ties = defaultdict(list)
    for row in rows:
        if row.unresolved_tie:
            medal_ties[row.rank].append(row)
    return list(medal_ties.values())
