"""Tournament settings: creating a tournament and changing its settings (scores recomputed)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from scoring.services import recompute_scores
from scoring.visibility import set_visibility
from tournament.audit import log_change
from tournament.models import Tournament
from tournament.refusals import Refused
from tournament.selectors import slug_taken

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

SCORING_FIELDS = (
    "joker_penalty", "opening_penalty_mode", "penalty_not_possible", "penalty_possible_not_done",
    "penalty_drawn_last_round", "penalty_first_move", "pool_exhausted_scoring", "big_point_unit",
    "big_point_places",
)


@transaction.atomic
def save_tournament(form: forms.ModelForm, *, user: AbstractBaseUser | None) -> tuple[Tournament, int]:
    """Save a valid TournamentForm; rescore stored games when a scoring setting changed.

    Returns (tournament, number of seat results whose score changed). Refused (`slug_taken`) when
    another tournament took the address after the form was checked (two organisers at once).
    """
    tournament = form.instance
    creating = tournament.pk is None
    old_visibility = None if creating else Tournament.objects.get(pk=tournament.pk).visibility
    new_visibility = form.cleaned_data.get("visibility", tournament.visibility)
    if not creating:
        tournament.visibility = old_visibility  # changed below, through the audited path
    try:
        with transaction.atomic():
            tournament = form.save()
    except IntegrityError:
        if creating and slug_taken(tournament.slug):
            raise Refused("slug_taken", field="slug") from None
        raise
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
