"""Ties the head referee decides (SPEC §4): across the last seat of the final table, and at a
medal place once the results are final; a decision (lot or play-off) orders the tie.

They sit with scoring: the head referee records them on the referee pages, and the standings
they order are scoring's. The organiser's final seating asks `final_candidates`; which ties
wait for a decision is read by `scoring.selectors.ties_to_decide`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from accounts.models import Role
from accounts.roles import has_role
from engine.standings import StandingRow
from scoring.models import TieDecision
from scoring.selectors import FINAL_SIZE, final_cut_tie, ties_to_decide
from scoring.standings import compute_standings
from tournament.audit import log_change
from tournament.models import Player, Tournament
from tournament.refusals import Refused


def final_candidates(tournament: Tournament) -> list[StandingRow]:
    """The standings rows of the players who would sit at the final table, best first.

    Refused when a tie decides who plays in the final and nobody has decided it.
    """
    rows = compute_standings(tournament)
    active = [row for row in rows if row.player.status == Player.Status.ACTIVE]
    if len(active) < 3:
        raise Refused("final_too_few")
    tied = final_cut_tie(rows)
    if tied:
        raise Refused("final_cut_tied", place=FINAL_SIZE, names=", ".join(row.player.name for row in tied))
    return active[:FINAL_SIZE]


@transaction.atomic
def decide_tie(tournament: Tournament, *, order: Sequence[str], reason: str, user: Any) -> TieDecision:
    """Record the head referee's order of tied players, best first (lot or play-off, SPEC §4).

    `order` lists the player ids (from the import file) of exactly one tie to decide now.
    """
    if not has_role(user, tournament, Role.HEAD_REFEREE):
        raise Refused("tie_head_referee_only")
    reason = reason.strip()
    if not reason:
        raise Refused("tie_reason_required", field="reason")
    Tournament.objects.select_for_update().get(pk=tournament.pk)  # one decision at a time
    tie = next(
        (rows for rows in ties_to_decide(tournament) if sorted(row.player.ext_id for row in rows) == sorted(order)),
        None,
    )
    if tie is None:
        raise Refused("tie_gone")
    names = {row.player.ext_id: row.player.name for row in tie}
    decision = TieDecision.objects.create(tournament=tournament, order=list(order), reason=reason, decided_by=user)
    log_change(
        tournament, user, "tie_decision", reason=reason,
        before={"place": tie[0].rank_label}, after={"order": list(order), "names": [names[i] for i in order]},
    )
    return decision
