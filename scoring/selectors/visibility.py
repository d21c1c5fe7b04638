"""Results visibility (SPEC §8): what the public may see of the results.

Every public route (pages, htmx fragments, JSON, PDFs) asks `public_scope` and shows
nothing more than it allows; staff always see everything.
"""

from dataclasses import dataclass

from django.db import transaction

from tournament.audit import log_change
from scoring.selectors.standings import compute_standings
from tournament.models import Tournament
from tournament.selectors import last_completed_round


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
    log_change(
        tournament, user, "visibility", before=before,
        after={"visibility": tournament.visibility, "frozen_round": tournament.frozen_round}, reason=reason,
    )


CEREMONY_PLACES = (3, 2, 1)  # the order in which the ceremony reveals the medal places


def revealed_places(tournament):
    """The medal places the ceremony has revealed so far, in the order they were revealed."""
    return CEREMONY_PLACES[: tournament.ceremony_step]


@transaction.atomic
def _move_ceremony(tournament, expected, step, *, user, action):
    """Set the step if it is still `expected` (compare-and-swap); audited; returns the stored step."""
    moved = Tournament.objects.filter(pk=tournament.pk, ceremony_step=expected).update(ceremony_step=step)
    if moved and step != expected:
        log_change(
            tournament, user, action,
            before={"ceremony_step": expected}, after={"ceremony_step": step},
        )
    tournament.refresh_from_db(fields=["ceremony_step"])
    return tournament.ceremony_step


def advance_ceremony(tournament, *, user=None, seen_step=None):
    """Reveal the next medal place (3rd, then 2nd, then 1st); returns the step now stored.

    `seen_step` is the step the clicker's screen showed: when another screen has moved on
    meanwhile, the click changes nothing, so a double click never reveals two places.
    """
    expected = tournament.ceremony_step if seen_step is None else seen_step
    step = min(expected + 1, len(CEREMONY_PLACES))
    return _move_ceremony(tournament, expected, step, user=user, action="ceremony_advance")


def reset_ceremony(tournament, *, user=None):
    """Hide every medal place again, e.g. after a rehearsal."""
    return _move_ceremony(tournament, tournament.ceremony_step, 0, user=user, action="ceremony_reset")


def counts_any_game(rows):
    """True when a verified game counts in the standings rows (every game has a winner)."""
    return bool(rows) and any(row.total.games_won for row in rows)


def ceremony_podium(tournament):
    """[(place, rows at that place)] for the revealed places only, in reveal order.

    The ceremony reveals the final results (every verified sheet, whatever the visibility);
    places not revealed yet are never computed into the answer. A place can hold two rows
    (an undecided tie) or none (the place above is shared, or no result counts yet).
    """
    places = revealed_places(tournament)
    if not places:
        return []
    rows = compute_standings(tournament, verified_only=True)
    if not counts_any_game(rows):
        return [(place, []) for place in places]
    return [(place, [row for row in rows if row.medal and row.rank == place]) for place in places]
