"""Ties the head referee decides (SPEC §4): across the last seat of the final table, and at a
medal place once the results are final; a decision (lot or play-off) orders the tie.

They sit with scoring: the head referee records them on the referee pages, and the standings
they order are scoring's. Which ties wait for a decision is read by
`scoring.selectors.sheets.ties_to_decide`; the final's candidates and the decisions to review
by `scoring.selectors.ties`.

A decision orders the players who were tied when it was made. When a result changes later (a
correction, a card, new scoring settings) they may no longer be tied: the decision then orders
nothing it was made for, and `decisions_to_review` lists it for the head referee, who sets it
aside (`set_decision_aside`, with a reason) and decides any new tie.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from accounts.models import Role
from accounts.roles import has_role
from engine.standings import decision_stands
from scoring.models import TieDecision
from scoring.selectors.sheets import ties_to_decide
from scoring.selectors.standings import compute_standings
from tournament.audit import log_change
from tournament.models import Tournament
from tournament.refusals import Refused
from tournament.selectors import locked_tournament


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
    locked_tournament(tournament.pk)  # one decision at a time
    tie = next(
        (rows for rows in ties_to_decide(tournament) if sorted(row.player.ext_id for row in rows) == sorted(order)),
        None,
    )
    if tie is None:
        raise Refused("tie_gone")
    names = {row.player.ext_id: row.player.name for row in tie}
    decision = TieDecision.objects.create(tournament=tournament, order=list(order), reason=reason, decided_by=user)
    log_change(
        tournament,
        user,
        "tie_decision",
        reason=reason,
        before={"place": tie[0].rank_label},
        after={"order": list(order), "names": [names[i] for i in order]},
    )
    return decision


@transaction.atomic
def set_decision_aside(tournament: Tournament, decision_id: int, *, reason: str, user: Any) -> None:
    """The head referee sets aside a tie decision whose players are no longer tied, with a reason
    (audited with what the decision said); a decision that still orders a tie stays."""
    if not has_role(user, tournament, Role.HEAD_REFEREE):
        raise Refused("tie_head_referee_only")
    reason = reason.strip()
    if not reason:
        raise Refused("reason_required", field="reason")
    locked_tournament(tournament.pk)  # one decision at a time
    decision = TieDecision.objects.filter(tournament=tournament, pk=decision_id).first()
    if decision is None:
        raise Refused("tie_decision_gone")
    rows = compute_standings(tournament)
    if decision_stands(rows, decision.order):
        raise Refused("tie_decision_stands")
    names = {row.player.ext_id: row.player.name for row in rows}
    log_change(
        tournament,
        user,
        "tie_decision_set_aside",
        reason=reason,
        before={
            "order": list(decision.order),
            "names": [names.get(ext_id, ext_id) for ext_id in decision.order],
            "reason": decision.reason,
        },
    )
    decision.delete()
