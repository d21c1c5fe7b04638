"""The season's form: its name, address, points table, best K, and the tournaments it gathers.

A season belongs to one organisation (`host`, chosen before the form) and gathers that
organisation's tournaments only. The form never lists them all: it offers a page of them, the
newest first, searched by name or address (diacritics ignored), and keeps the ones already
chosen on top, checked, whatever page or search is shown. A tournament of another organisation,
or one the form did not offer, is "not a valid choice" and nothing is written.
"""

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.selectors import season_tournament_page, season_tournaments_chosen
from organiser import services
from tournament import validation
from tournament.listing import search_of

MAX_CHOSEN = 200  # tournaments in one season, far above a year's
FIELDS = ("name", "slug", "place_points", "best_count", "reason")


def _label(tournament):
    return f"{tournament.name} · {tournament.date:%Y-%m-%d}"


class SeasonForm(forms.Form):
    """`host`'s season; `search` and `number` pick the page of its tournaments offered; `editing`
    asks for the reason of the change."""

    name = forms.CharField(label=_("season name"), max_length=200, validators=[validation.validate_name])
    slug = forms.SlugField(
        label=_("short address"), max_length=80, help_text=_("The season's public page: /s/<address>/, e.g. zima-2026.")
    )
    tournaments = forms.MultipleChoiceField(
        label=_("tournaments in the season"), required=False, widget=forms.CheckboxSelectMultiple
    )
    place_points = forms.CharField(
        label=_("points for places 1, 2, 3…"),
        max_length=600,
        help_text=_("Separated by commas; places further down score 0; a disqualified player scores 0."),
    )
    best_count = forms.IntegerField(
        label=_("best tournaments counted"),
        required=False,
        min_value=1,
        max_value=100,
        help_text=_("Empty: every tournament counts."),
    )

    def __init__(self, data=None, *, host, search="", number=1, editing=False, **kwargs):
        super().__init__(data, **kwargs)
        self.host = host
        self.search = search_of(search)
        slugs = self._chosen_slugs()
        self.chosen = season_tournaments_chosen(host, slugs) if slugs else []
        self.page = season_tournament_page(host, search=self.search, number=number)
        kept = {t.slug for t in self.chosen}
        offered = [t for t in self.page.object_list if t.slug not in kept]
        groups = []
        if self.chosen:
            groups.append((_("Chosen"), [(t.slug, _label(t)) for t in self.chosen]))
        if offered:
            groups.append((_("Found") if self.search else _("Newest first"), [(t.slug, _label(t)) for t in offered]))
        self.fields["tournaments"].choices = groups
        if editing:
            self.fields["reason"] = forms.CharField(label=_("reason for the change"), max_length=500)

    @staticmethod
    def kept_from(data):
        """The initial values of a form shown again from what was sent (`data`), saving nothing."""
        return {name: data.get(name, "") for name in FIELDS} | {"tournaments": data.getlist("tournaments")}

    def _chosen_slugs(self):
        sent = self.data.getlist("tournaments") if self.is_bound else self.initial.get("tournaments") or []
        return list(dict.fromkeys(str(slug)[:80] for slug in sent))[:MAX_CHOSEN]

    def clean_place_points(self):
        parts = [p for p in re.split(r"[\s,;]+", self.cleaned_data["place_points"].strip()) if p]
        if not parts or not all(p.isdecimal() and len(p) <= 5 for p in parts):
            raise forms.ValidationError(_("Use whole numbers of 0 or more, separated by commas, e.g. 25, 20, 16."))
        return tuple(int(p) for p in parts)

    def season_data(self):
        data = self.cleaned_data
        return services.SeasonData(
            data["name"], data["slug"], tuple(data["tournaments"]), data["place_points"], data["best_count"]
        )
