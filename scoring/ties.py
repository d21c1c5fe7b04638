"""Ties the head referee decides (SPEC §4): across the last seat of the final table, and at a
medal place once the results are final; a decision (lot or play-off) orders the tie.

They sit with scoring: the head referee records them on the referee pages, and the standings
they order are scoring's. The organiser's final seating asks `final_candidates`.
"""

from collections import defaultdict

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import Role
from accounts.roles import has_role
from tournament.audit import log_change
from scoring.models import TieDecision
from scoring.standings import compute_standings
from tournament.errors import ActionRefused
from tournament.models import Player, Round, Tournament
from tournament.queries import latest_round, qualifying_over

FINAL_SIZE = 4


def final_cut_tie(rows):
    """The standings rows tied across the last seat of the final table (the whole tied group,
    whatever their status), or an empty list."""
    active = [row for row in rows if row.player.status == Player.Status.ACTIVE]
    if len(active) > FINAL_SIZE and active[FINAL_SIZE].rank == active[FINAL_SIZE - 1].rank:
        return [row for row in rows if row.rank == active[FINAL_SIZE - 1].rank]
    return []


def final_candidates(tournament):
    """The standings rows of the players who would sit at the final table, best first.

    Raises ActionRefused when a tie decides who plays in the final and nobody has decided it.
    """
    rows = compute_standings(tournament)
    active = [row for row in rows if row.player.status == Player.Status.ACTIVE]
    if len(active) < 3:
        raise ActionRefused(_("At least 3 active players are needed for the final."))
    tied = final_cut_tie(rows)
    if tied:
        raise ActionRefused(
            _("Place %(place)s is tied (%(names)s): the head referee must record a decision before the final is seated.")
            % {"place": FINAL_SIZE, "names": ", ".join(row.player.name for row in tied)}
        )
    return active[:FINAL_SIZE]


def ties_to_decide(tournament):
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


@transaction.atomic
def decide_tie(tournament, order, reason, *, user):
    """Record the head referee's order of tied players, best first (lot or play-off, SPEC §4).

    `order` lists the player ids (from the import file) of exactly one tie to decide now.
    """
    if not has_role(user, tournament, Role.HEAD_REFEREE):
        raise ActionRefused(_("Only the head referee can decide a tie."))
    reason = reason.strip()
    if not reason:
        raise ActionRefused(_("Say how the tie was decided, e.g. a lot drawn by the head referee."), field="reason")
    Tournament.objects.select_for_update().get(pk=tournament.pk)  # one decision at a time
    tie = next(
        (rows for rows in ties_to_decide(tournament) if sorted(row.player.ext_id for row in rows) == sorted(order)),
        None,
    )
    if tie is None:
        raise ActionRefused(_("These players are no longer tied on a place to decide. Reload the page."))
    names = {row.player.ext_id: row.player.name for row in tie}
    decision = TieDecision.objects.create(tournament=tournament, order=list(order), reason=reason, decided_by=user)
    log_change(
        tournament, user, "tie_decision", reason=reason,
        before={"place": tie[0].rank_label}, after={"order": list(order), "names": [names[i] for i in order]},
    )
    return decision
