"""Results visibility (SPEC §8): the changes to what the public may see (the visibility of the
results, the medal ceremony's step). What the public may see is read by `scoring.selectors.visibility`.
"""

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.selectors.visibility import CEREMONY_PLACES
from tournament.audit import log_change
from tournament.models import Tournament
from tournament.selectors import final_round, last_completed_round, tournament_row


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
        tournament,
        user,
        "visibility",
        before=before,
        after={"visibility": tournament.visibility, "frozen_round": tournament.frozen_round},
        reason=reason,
    )


def hide_for_the_final(tournament, *, user=None):
    """The final has started: under the plan "hidden until the ceremony" the public results are
    hidden (regulations §12.3). True when the plan applies (the results are hidden now)."""
    if tournament.final_release != Tournament.FinalRelease.CEREMONY:
        return False
    if tournament.visibility != Tournament.Visibility.HIDDEN:
        set_visibility(
            tournament,
            Tournament.Visibility.HIDDEN,
            user=user,
            reason=_("the final started: results hidden until the medal ceremony"),
        )
    return True


def _release_after_the_ceremony(tournament, *, user):
    """The ceremony revealed 1st place: under the plan "hidden until the ceremony" the results go live."""
    tournament.refresh_from_db(fields=["visibility", "frozen_round", "final_release"])
    final = final_round(tournament)
    if (
        tournament.final_release == Tournament.FinalRelease.CEREMONY
        and tournament.visibility == Tournament.Visibility.HIDDEN
        and final is not None
        and final.is_locked
    ):
        set_visibility(
            tournament, Tournament.Visibility.LIVE, user=user, reason=_("the medal ceremony revealed 1st place")
        )


@transaction.atomic
def _move_ceremony(tournament, expected, step, *, user, action):
    """Set the step if it is still `expected` (compare-and-swap); audited; returns the stored step."""
    moved = tournament_row(tournament.pk, ceremony_step=expected).update(ceremony_step=step)
    if moved and step != expected:
        log_change(tournament, user, action, before={"ceremony_step": expected}, after={"ceremony_step": step})
    tournament.refresh_from_db(fields=["ceremony_step"])
    return tournament.ceremony_step


@transaction.atomic
def advance_ceremony(tournament, *, user=None, seen_step=None):
    """Reveal the next medal place (3rd, then 2nd, then 1st); returns the step now stored.

    `seen_step` is the step the clicker's screen showed: when another screen has moved on
    meanwhile, the click changes nothing, so a double click never reveals two places.
    Revealing 1st place after the final has started ends the hiding of the plan "hidden until
    the ceremony" (the same transaction).
    """
    expected = tournament.ceremony_step if seen_step is None else seen_step
    step = min(expected + 1, len(CEREMONY_PLACES))
    stored = _move_ceremony(tournament, expected, step, user=user, action="ceremony_advance")
    if stored == step == len(CEREMONY_PLACES) and step != expected:
        _release_after_the_ceremony(tournament, user=user)
    return stored


def reset_ceremony(tournament, *, user=None):
    """Hide every medal place again, e.g. after a rehearsal."""
    return _move_ceremony(tournament, tournament.ceremony_step, 0, user=user, action="ceremony_reset")
