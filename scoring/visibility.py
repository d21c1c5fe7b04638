"""Results visibility (SPEC §8): what the public may see of the results.

Every public route (pages, htmx fragments, JSON, PDFs) asks `public_scope` and shows
nothing more than it allows; staff always see everything.

The final's results follow the tournament's plan (`Tournament.final_release`): under
"hidden until the ceremony" the final's start hides the public results (`hide_for_the_final`)
and the ceremony's last reveal, 1st place, makes them live again; under "live" nothing
changes by itself (auto-freeze, when ticked, still freezes them at the final's start).
"""

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.audit import log_change
from scoring.standings import compute_standings
from tournament.models import Tournament
from tournament.selectors import final_round, last_completed_round


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


def hide_for_the_final(tournament, *, user=None):
    """The final has started: under the plan "hidden until the ceremony" the public results are
    hidden (regulations §12.3). True when the plan applies (the results are hidden now)."""
    if tournament.final_release != Tournament.FinalRelease.CEREMONY:
        return False
    if tournament.visibility != Tournament.Visibility.HIDDEN:
        set_visibility(
            tournament, Tournament.Visibility.HIDDEN, user=user,
            reason=_("the final started: results hidden until the medal ceremony"),
        )
    return True


def final_order_public(tournament):
    """True when the public may see the final's results: it has started and the visibility shows its round."""
    final = final_round(tournament)
    return final is not None and final.is_locked and public_scope(tournament).shows_round(final.number)


def _release_after_the_ceremony(tournament, *, user):
    """The ceremony revealed 1st place: under the plan "hidden until the ceremony" the results go live."""
    tournament.refresh_from_db(fields=["visibility", "frozen_round", "final_release"])
    final = final_round(tournament)
    if (
        tournament.final_release == Tournament.FinalRelease.CEREMONY
        and tournament.visibility == Tournament.Visibility.HIDDEN
        and final is not None and final.is_locked
    ):
        set_visibility(
            tournament, Tournament.Visibility.LIVE, user=user, reason=_("the medal ceremony revealed 1st place"),
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
