"""Ties the head referee decides (SPEC §4), as he reads them: who would sit at the final table
(`final_candidates`, which the organiser's final seating asks) and the decisions that no longer
order a tie (`decisions_to_review`). The decisions themselves are made in `scoring.services.ties`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.standings import StandingRow, decision_stands
from scoring.models import TieDecision
from scoring.selectors.sheets import FINAL_SIZE, final_cut_tie, tie_decisions
from scoring.selectors.standings import compute_standings
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


@dataclass
class DecisionReview:
    """A tie decision whose players are no longer tied: `rows` are their standings rows now (in
    the decision's order; a player no longer in the standings is left out)."""

    decision: TieDecision
    rows: list[StandingRow]

    @property
    def names(self) -> list[str]:
        return [row.player.name for row in self.rows]


def decisions_to_review(tournament: Tournament, rows: list[StandingRow] | None = None) -> list[DecisionReview]:
    """The tie decisions that no longer order a tie (oldest first): the head referee must look
    at them again. `rows`: the standings (every verified sheet), when the caller has them."""
    decisions = tie_decisions(tournament)
    if not decisions:
        return []
    if rows is None:
        rows = compute_standings(tournament)
    by_id = {row.player.ext_id: row for row in rows}
    return [
        DecisionReview(decision, [by_id[ext_id] for ext_id in decision.order if ext_id in by_id])
        for decision in decisions
        if not decision_stands(rows, decision.order)
    ]
