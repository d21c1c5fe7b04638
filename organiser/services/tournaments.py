"""Tournament settings: creating a tournament and changing its settings (scores recomputed)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Count, Max
from django.utils.translation import gettext as _

from tournament.audit import log_change
from scoring.services import recompute_scores
from scoring.visibility import set_visibility
from tournament.models import Player, Round, Tournament

SCORING_FIELDS = (
    "joker_penalty", "opening_penalty_mode", "penalty_not_possible", "penalty_possible_not_done",
    "penalty_drawn_last_round", "penalty_first_move", "pool_exhausted_scoring", "big_point_unit",
    "big_point_places",
)


@transaction.atomic
def save_tournament(form, *, user):
    """Save a valid TournamentForm; rescore stored games when a scoring setting changed.

    Returns (tournament, number of seat results whose score changed).
    """
    tournament = form.instance
    creating = tournament.pk is None
    old_visibility = None if creating else Tournament.objects.get(pk=tournament.pk).visibility
    new_visibility = form.cleaned_data.get("visibility", tournament.visibility)
    if not creating:
        tournament.visibility = old_visibility  # changed below, through the audited path
    tournament = form.save()
    if creating:
        log_change(tournament, user, "tournament_create", after={"name": tournament.name, "slug": tournament.slug})
        return tournament, 0
    if new_visibility != old_visibility:
        set_visibility(tournament, new_visibility, user=user, reason=_("changed in the tournament settings"))
    rescored = 0
    if any(name in form.changed_data for name in SCORING_FIELDS):
        rescored = recompute_scores(tournament)
        log_change(tournament, user, "settings_rescore", after={name: form.cleaned_data[name] for name in SCORING_FIELDS})
    return tournament, rescored


def settings_limits(tournament):
    """What the data already fixes: the largest organisation and the qualifying rounds drawn."""
    largest = (
        Player.objects.filter(tournament=tournament).values("organisation").annotate(n=Count("pk"))
        .aggregate(m=Max("n"))["m"] or 0
    )
    rounds = Round.objects.filter(tournament=tournament, kind=Round.Kind.QUALIFYING).aggregate(m=Max("number"))["m"] or 0
    has_final = Round.objects.filter(tournament=tournament, kind=Round.Kind.FINAL).exists()
    return largest, rounds, has_final
