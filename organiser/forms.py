"""Forms of the organiser screens: they parse and check input; services change the data."""

import re

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from organiser import selectors, services
from organiser.backups import restore
from tournament import validation
from tournament.models import Tournament
from tournament.selectors import slug_taken
from tournament.text import slug_from, sorted_polish

FIELDSETS = [
    (_("The event"), ["name", "slug", "date"]),
    (_("Rounds and seating"), ["rounds_planned", "seating_method", "players_per_organisation", "move_seconds"]),
    (_("Final"), ["final", "final_games"]),
    (_("Scoring"), [
        "joker_penalty", "initial_meld", "opening_penalty_mode", "penalty_not_possible", "penalty_possible_not_done",
        "penalty_drawn_last_round", "penalty_first_move", "pool_exhausted_scoring", "big_point_unit", "big_point_places",
    ]),
    (_("Results in public"), ["visibility", "auto_freeze"]),
]


def parse_places(text):
    """ "4, 3, 1, 0" → [4, 3, 1, 0]; raises ValidationError with a plain message."""
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    if len(parts) <= validation.MAX_PLACES and not all(p.isdecimal() for p in parts):
        raise forms.ValidationError(_("Use whole numbers of 0 or more, separated by commas, e.g. 4, 3, 1, 0."))
    return validation.check_places([int(p) if p.isdecimal() else -1 for p in parts])


class TournamentForm(forms.ModelForm):
    big_point_places = forms.CharField(
        label=_("big points by place"), max_length=40,
        error_messages={"required": _("Enter the points for 1st place, then 2nd, 3rd and 4th, e.g. 1, 0, 0, 0.")},
        help_text=_("Points for 1st, 2nd, 3rd and 4th place at the table, separated by commas: 1, 0, 0, 0 gives one point to each game's winner; a German club scheme is 4, 3, 1, 0."),
    )

    class Meta:
        model = Tournament
        fields = [name for _legend, names in FIELDSETS for name in names]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "opening_penalty_mode": forms.RadioSelect,
            "pool_exhausted_scoring": forms.RadioSelect,
            "big_point_unit": forms.RadioSelect,
            "seating_method": forms.RadioSelect,
            "visibility": forms.RadioSelect,
        }
        help_texts = {
            "name": _("As printed on the score sheets and diplomas."),
            "slug": _("Used in the addresses of the public pages, e.g. senioriada-2026. Leave empty to make one from the name."),
            "rounds_planned": _("How many rounds everyone plays before the final."),
            "seating_method": _("Round 1 is always a random draw. Mixed seats players with people they have not met yet; Swiss seats the leaders together at table 1; manual lets you move players yourself."),
            "players_per_organisation": _("How many players one club or university may enter. Above 1, players of one organisation are kept apart at the tables."),
            "move_seconds": _("Printed on the score sheets and used by the move timer."),
            "final_games": _("How many games the final table plays."),
            "initial_meld": _("The points needed for the first laying out (printed for information)."),
            "opening_penalty_mode": _("Whether a penalty for the first laying out replaces the tiles left on the rack or is added to them."),
            "penalty_possible_not_done": _("Penalty when the player could have laid out but did not."),
            "penalty_first_move": _("Penalty when the player laid out in the first move and the game ended during another player's first move."),
            "pool_exhausted_scoring": _("When nobody goes out and the pool is empty, the lowest rack wins. Sum: the winners get the others' racks added up. Difference: each rack counts only what it has more than the lowest."),
            "big_point_unit": _("Per game: table places are given after every game. Per round: once, from the round's total at the table."),
            "visibility": _("What the public pages show. Staff always see everything."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.editing = self.instance.pk is not None
        for name, (low, high) in validation.SETTING_RANGES.items():
            field = self.fields[name]
            field.min_value, field.max_value = low, high
            field.validators += [MinValueValidator(low), MaxValueValidator(high)]
            field.widget.attrs.update(min=low, max=high)
        self.initial["big_point_places"] = ", ".join(map(str, self.instance.big_point_places or [1, 0, 0, 0]))
        if self.editing:
            self.fields["slug"].disabled = True
            self.fields["slug"].help_text = _("The address cannot change once the tournament exists (printed links use it).")
        else:
            self.fields["slug"].required = False
            self.initial.setdefault("date", timezone.localdate())

    def fieldsets(self):
        return [(legend, [self[name] for name in names]) for legend, names in FIELDSETS]

    def clean_big_point_places(self):
        return parse_places(self.cleaned_data["big_point_places"])

    def clean_name(self):
        return validation.clean_name(self.cleaned_data["name"])

    def clean_slug(self):
        slug = self.cleaned_data.get("slug")
        if self.editing:
            return slug
        if slug:
            return validation.check_slug(slug)
        base = slug_from(self.data.get("name", ""))[:70] or "tournament"
        slug, number = base, 1
        while slug_taken(slug) or slug in validation.RESERVED_SLUGS:  # a tournament named "New" is new-2
            number += 1
            slug = f"{base}-{number}"
        return slug

    def clean(self):
        cleaned = super().clean()
        if not self.editing:
            return cleaned
        largest, rounds_drawn, has_final = selectors.settings_limits(self.instance)
        problems = validation.limit_problems(cleaned, largest=largest, rounds_drawn=rounds_drawn, has_final=has_final)
        for name, message in problems.items():
            self.add_error(name, message)
        return cleaned


class RefusalMixin:
    def add_refusal(self, refusal):
        """Show a service's refusal next to the field it concerns (or above the form)."""
        self.add_error(refusal.field if refusal.field in self.fields else None, refusal.message)


class PlayerForm(RefusalMixin, forms.Form):
    name = forms.CharField(
        label=_("name"), max_length=validation.MAX_NAME, validators=[validation.validate_name],
        help_text=_("First name and surname, e.g. Anna Nowak."),
    )
    organisation = forms.CharField(
        label=_("organisation"), max_length=validation.MAX_NAME, validators=[validation.validate_name],
        help_text=_("The club, university or association."),
        widget=forms.TextInput(attrs={"list": "organisations", "autocomplete": "off"}),
    )


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("player list"), allow_empty_file=True,
        help_text=_("A CSV or Excel (.xlsx) file whose first line names the columns: name, organisation."),
    )


class DrawForm(forms.Form):
    method = forms.ChoiceField(label=_("seating method"), widget=forms.RadioSelect)
    seed = forms.CharField(
        label=_("draw seed"), required=False, max_length=64,
        help_text=_("Leave empty for a new random draw. Enter the seed of an earlier draw to repeat it exactly."),
    )

    def __init__(self, *args, first_round, default, **kwargs):
        super().__init__(*args, **kwargs)
        if first_round:
            choices = [
                (services.RANDOM, _("random draw")),
                (Tournament.SeatingMethod.MANUAL, Tournament.SeatingMethod.MANUAL.label),
            ]
        else:
            choices = [(value, label) for value, label in Tournament.SeatingMethod.choices]
            choices.append((services.RANDOM, _("random draw")))
        self.fields["method"].choices = choices
        self.fields["method"].initial = services.RANDOM if first_round else default


class SwapForm(RefusalMixin, forms.Form):
    player_a = forms.TypedChoiceField(label=_("player"), coerce=int)
    player_b = forms.TypedChoiceField(label=_("swaps seats with"), coerce=int)
    reason = forms.CharField(
        label=_("reason"), required=False, max_length=1000, widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Required once the round has started; it is written to the log."),
    )

    def __init__(self, *args, seated, **kwargs):
        """`seated`: (player, table number, seat letter) of everyone seated in the round."""
        super().__init__(*args, **kwargs)
        self.players = {player.pk: player for player, _table, _letter in seated}
        choices = [("", "—")] + [
            (player.pk, gettext("%(name)s (no. %(number)s) — table %(table)s, seat %(seat)s") % {
                "name": player.name, "number": player.start_number, "table": table, "seat": letter,
            })
            for player, table, letter in sorted_polish(seated, key=lambda s: s[0].name)
        ]
        self.fields["player_a"].choices = choices
        self.fields["player_b"].choices = choices


class BackupUploadForm(forms.Form):
    file = forms.FileField(
        label=_("backup file"), allow_empty_file=True,
        help_text=_("A backup downloaded from this page (.json, or compressed .json.gz), at most 20 MB."),
    )

    def __init__(self, *args, **kwargs):
        """The browser refuses a file over the limit before sending it (config/static/js/backup-upload.js)."""
        super().__init__(*args, **kwargs)
        self.fields["file"].widget.attrs.update({
            "data-max-bytes": restore.MAX_UPLOAD, "data-too-large": restore.too_large().message,
        })


class RestoreConfirmForm(forms.Form):
    token = forms.CharField(widget=forms.HiddenInput, max_length=64)
    replace = forms.BooleanField(required=False)

    def __init__(self, *args, replaces=None, **kwargs):
        """`replaces`: the tournament the restore would replace, whose name the confirmation names."""
        super().__init__(*args, **kwargs)
        if replaces is not None:
            self.fields["replace"].required = True
            self.fields["replace"].label = _("Yes, replace the tournament “%(name)s” with this backup.") % {"name": replaces.name}
            self.fields["replace"].error_messages["required"] = _("Tick the box to confirm the replacement.")
