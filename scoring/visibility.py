"""Results visibility (SPEC §8): what the public may see of the results.

Every public route (pages, htmx fragments, JSON, PDFs) asks `public_scope` and shows
nothing more than it allows; staff always see everything.
"""

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max

from scoring.models import AuditEntry
from scoring.standings import compute_standings
from tournament.models import Round, Tournament


@dataclass(frozen=True)
class Scope:
    visible: bool  # may the public see any result at all?
    up_to_round: int | None  # the last round the public may see (None: every round)

    def shows_round(self, number):
        return self.visible and (self.up_to_round is None or number <= self.up_to_round)


def public_scope(tournament):
    if tournament.visibility == Tournament.Visibility.HIDDEN:
        return Scope(False, None)
    if tournament.visibility == Tournament.Visibility.FROZEN:
        return Scope(True, tournament.frozen_round or 0)
    return Scope(True, None)


def public_standings(tournament):
    """The standings the public may see, or None when results are hidden."""
    scope = public_scope(tournament)
    if not scope.visible:
        return None
    return compute_standings(tournament, verified_only=True, up_to_round=scope.up_to_round)


def last_completed_round(tournament):
    return (
        Round.objects.filter(tournament=tournament, state=Round.State.COMPLETED).aggregate(n=Max("number"))["n"] or 0
    )


@transaction.atomic
def set_visibility(tournament, visibility, *, user=None, reason=""):
    """Change the results visibility; freezing keeps the public results as of the last completed round."""
    before = {"visibility": tournament.visibility, "frozen_round": tournament.frozen_round}
    tournament.visibility = visibility
    if visibility == Tournament.Visibility.FROZEN:
        tournament.frozen_round = last_completed_round(tournament)
    elif visibility == Tournament.Visibility.LIVE:
        tournament.frozen_round = None
    tournament.save(update_fields=["visibility", "frozen_round"])
    AuditEntry.objects.create(
        tournament=tournament, user=user, action="visibility", before=before,
        after={"visibility": tournament.visibility, "frozen_round": tournament.frozen_round}, reason=reason,
    )
