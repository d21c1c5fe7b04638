"""Tournament settings: creating a tournament and changing its settings (scores recomputed).

A change of the scoring settings scores every stored game again. When that changes a verified
result (SPEC §6: a verified sheet changes only by the head referee, with a reason), nothing is
saved until the head referee or the organiser confirms exactly what changes (`Confirmation`,
naming the plan they were shown) with a reason: until then `ResultsWouldChange` carries the
plan (`scoring.services.rescore.RescorePlan`) and everything is rolled back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django import forms
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import Role
from accounts.roles import has_role
from organiser.services.entries import promote_waiting
from scoring.services.rescore import RescorePlan, log_plan, read_results
from scoring.services.sheets import recompute_scores
from scoring.services.visibility import set_visibility
from tournament.audit import log_change
from tournament.models import SCORING_FIELDS, Tournament
from tournament.refusals import Refused
from tournament.selectors import final_round, free_slug, locked_tournament, slug_taken, tournament_row

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

CREATE_ATTEMPTS = 10  # an address made from the name moves on when taken at the same moment


def create_tournament(form: forms.ModelForm, *, user: AbstractBaseUser | None) -> Tournament:
    """Save a valid TournamentForm of a new tournament.

    The form checked that the address was free, but another tournament may take it at the same
    moment: then a typed address is refused next to its field (`Refused("slug_taken")`), and
    one made from the name moves on to the next free one.
    """
    for _attempt in range(CREATE_ATTEMPTS):
        try:
            return save_tournament(form, user=user)[0]  # its own transaction (a savepoint in a submission's)
        except IntegrityError:
            slug = form.instance.slug
            if not slug_taken(slug):
                raise
            if not getattr(form, "slug_made", False):
                raise Refused("slug_taken", field="slug") from None
            form.instance.slug = free_slug(form.instance.name)
    raise Refused("slug_taken", field="slug")


@dataclass(frozen=True)
class Confirmation:
    """The head referee's or organiser's yes to the changes of verified results they were shown:
    `token` names that plan (`RescorePlan.token`), `reason` is written to each audit entry."""

    token: str
    reason: str


class ResultsWouldChange(Refused):
    """The new settings change verified results and were not confirmed (or not with a reason, or
    for another plan): nothing was saved. `plan` says what would change."""

    def __init__(self, code: str, plan: RescorePlan, *, field: str | None = None):
        super().__init__(code, field=field, count=len(plan.changes))
        self.plan = plan


@dataclass
class SettingsSaved:
    """What saving the settings did: `rescored` seat results scored differently (on any sheet),
    `plan` the verified results that changed (empty when none)."""

    rescored: int = 0
    plan: RescorePlan | None = None

    @property
    def verified_changes(self) -> int:
        return len(self.plan.changes) if self.plan else 0


@transaction.atomic
def save_tournament(
    form: forms.ModelForm, *, user: AbstractBaseUser | None, confirmation: Confirmation | None = None
) -> tuple[Tournament, SettingsSaved]:
    """Save a valid TournamentForm; rescore stored games when a scoring setting changed.

    A change that alters a verified result needs `confirmation` of exactly that change, with a
    reason, by the head referee or the organiser: else ResultsWouldChange, nothing saved.
    """
    tournament = form.instance
    creating = tournament.pk is None
    if creating:
        tournament = form.save()
        log_change(tournament, user, "tournament_create", after={"name": tournament.name, "slug": tournament.slug})
        return tournament, SettingsSaved()
    stored = locked_tournament(tournament.pk)
    new_visibility = form.cleaned_data.get("visibility", tournament.visibility)
    tournament.visibility = stored.visibility  # changed below, through the audited path
    changed = [
        name
        for name in SCORING_FIELDS
        if name in form.changed_data and getattr(stored, name) != form.cleaned_data[name]
    ]
    before = read_results(stored) if changed else None
    if stored.final_release != tournament.final_release:
        _log_final_release(stored, tournament.final_release, user=user, reason=_("changed in the tournament settings"))
    tournament = form.save()
    saved = SettingsSaved()
    if before is not None:
        saved.rescored = recompute_scores(tournament)
        saved.plan = RescorePlan.between(before, read_results(tournament))
        reason = ""
        if saved.plan:
            reason = _confirmed_reason(confirmation, saved.plan, tournament, user)
            log_plan(tournament, saved.plan, user=user, reason=reason)
        log_change(
            tournament,
            user,
            "settings_rescore",
            reason=reason,
            before={name: getattr(stored, name) for name in changed},
            after={name: form.cleaned_data[name] for name in changed},
        )
    if new_visibility != stored.visibility:
        set_visibility(tournament, new_visibility, user=user, reason=_("changed in the tournament settings"))
    _entries_settings_changed(stored, tournament, user)
    return tournament, saved


def _entries_settings_changed(stored: Tournament, tournament: Tournament, user: AbstractBaseUser | None) -> None:
    """Audit a change of the entries' settings; a larger capacity promotes waiting entries."""
    fields = ("entries_until", "capacity")
    if all(getattr(stored, name) == getattr(tournament, name) for name in fields):
        return

    def shown(value):
        return value.isoformat() if hasattr(value, "isoformat") else value

    log_change(
        tournament,
        user,
        "entries_settings",
        before={name: shown(getattr(stored, name)) for name in fields},
        after={name: shown(getattr(tournament, name)) for name in fields},
    )
    promote_waiting(tournament, user=user)


@transaction.atomic
def set_final_release(tournament: Tournament, release: str, *, user: AbstractBaseUser | None, reason: str = "") -> bool:
    """Choose how the final's results reach the public, before the final starts; audited.
    True when the plan changed (choosing the plan it has changes nothing and logs nothing)."""
    stored = locked_tournament(tournament.pk)
    if release not in Tournament.FinalRelease.values:
        raise Refused("final_release_unknown", field="final_release")
    if not stored.final:
        raise Refused("no_final")
    if stored.final_release == release:
        return False
    _log_final_release(stored, release, user=user, reason=reason)
    tournament_row(stored.pk).update(final_release=release)
    tournament.final_release = release
    return True


def _log_final_release(stored: Tournament, release: str, *, user, reason: str) -> None:
    """Refuse a change of the plan once the final has started (its start applied the plan); else log it."""
    final = final_round(stored)
    if final is not None and final.is_locked:
        raise Refused("final_release_started", field="final_release")
    log_change(
        stored,
        user,
        "final_release",
        before={"final_release": stored.final_release},
        after={"final_release": release},
        reason=reason,
    )


def _confirmed_reason(confirmation: Confirmation | None, plan: RescorePlan, tournament: Tournament, user) -> str:
    """The reason of `confirmation`; refuses (rolling everything back) unless it names this plan,
    with a reason, by the head referee or the organiser."""
    if confirmation is None:
        raise ResultsWouldChange("rescore_confirm", plan)
    if not has_role(user, tournament, Role.HEAD_REFEREE):
        raise ResultsWouldChange("rescore_head_referee_only", plan)
    if confirmation.token != plan.token:
        raise ResultsWouldChange("rescore_changed", plan)
    if not confirmation.reason.strip():
        raise ResultsWouldChange("rescore_reason_required", plan, field="reason")
    return confirmation.reason.strip()
