"""Results visibility (SPEC §8): what the public may see of the results.

Every public route (pages, htmx fragments, JSON, PDFs) asks `public_scope` and shows
nothing more than it allows; staff always see everything.

The final's results follow the tournament's plan (`Tournament.final_release`): under
"hidden until the ceremony" the final's start hides the public results (`hide_for_the_final`)
and the ceremony's last reveal, 1st place, makes them live again; under "live" nothing
changes by itself (auto-freeze, when ticked, still freezes them at the final's start).
"""

from dataclasses import dataclass

from scoring.selectors.standings import compute_standings
from tournament.models import Round, Tournament
from tournament.selectors import final_round


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


def final_order_public(tournament):
    """True when the public may see the final's results: it has started and the visibility shows its round."""
    final = final_round(tournament)
    return final is not None and final.is_locked and public_scope(tournament).shows_round(final.number)


CEREMONY_PLACES = (3, 2, 1)  # the order in which the ceremony reveals the medal places


def revealed_places(tournament):
    """The medal places the ceremony has revealed so far, in the order they were revealed."""
    return CEREMONY_PLACES[: tournament.ceremony_step]


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


@dataclass(frozen=True)
class Progress:
    """Which rounds the public standings count, as the projector's heading says it."""

    after: int  # the last qualifying round completed and counted (0: none yet)
    of: int  # the qualifying rounds planned
    finished: bool  # the final standings: the final (or, without one, the last round) is completed
    playing: Round | None  # a round in play whose verified tables already count (live results only)


def standings_progress(tournament, rounds, up_to_round):
    """`rounds`: the public rounds in order (`public.selectors.public_rounds_in_order`); `up_to_round` the
    frozen round (None: live results). `finished` is what allows medal marks (issue 48.1): before it the
    leaders of the qualifying rounds are not the medallists, and every output says "after round N of M"."""
    counted = [r for r in rounds if up_to_round is None or r.number <= up_to_round]
    completed = [r for r in counted if r.state == Round.State.COMPLETED]
    after = max((r.number for r in completed if not r.is_final), default=0)
    finished = any(r.is_final for r in completed) or (not tournament.final and after >= tournament.rounds_planned)
    playing = [r for r in rounds if r.state == Round.State.STARTED] if up_to_round is None else []
    return Progress(after, tournament.rounds_planned, finished, None if finished or not playing else playing[-1])
