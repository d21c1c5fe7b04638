"""Forms of the organiser screens: they parse and check input; services change the data."""

import re

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.forms.renderers import Jinja2
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.selectors import HOSTS_LISTED
from organiser import selectors, services
from organiser.backups import restore
from tournament import validation
from tournament.models import ROUND_MINUTES_RANGE, HostOrganisation, Tournament
from tournament.names import sorted_by_surname
from tournament.selectors import final_round, free_slug

FIELDSETS = [
    (_("The event"), ["name", "slug", "date"]),
    (_("Rounds and seating"), ["rounds_planned", "seating_method", "players_per_organisation", "move_seconds"]),
    (_("Final"), ["final", "final_games", "final_release"]),
    (
        _("Scoring"),
        [
            "joker_penalty",
            "initial_meld",
            "opening_penalty_mode",
            "penalty_not_possible",
            "penalty_possible_not_done",
            "penalty_drawn_last_round",
            "penalty_first_move",
            "pool_exhausted_scoring",
            "big_point_unit",
            "big_point_places",
        ],
    ),
    (_("Results in public"), ["visibility", "auto_freeze", "public_language"]),
    (_("Entries from the organisations"), ["entries_until", "capacity"]),
]


def parse_places(text):
    """ "4, 3, 1, 0" → [4, 3, 1, 0]; raises ValidationError with a plain message."""
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    if len(parts) <= validation.MAX_PLACES and not all(p.isdecimal() for p in parts):
        raise forms.ValidationError(_("Use whole numbers of 0 or more, separated by commas, e.g. 4, 3, 1, 0."))
    return validation.check_places([int(p) if p.isdecimal() else -1 for p in parts])


def host_choice(hosts):
    """The field asking which of `hosts` (the host organisations the user organises) a new
    tournament belongs to; only those can be chosen."""
    return forms.TypedChoiceField(
        label=_("Organisation"),
        coerce=int,
        choices=[("", _("Choose the organisation")), *((host.pk, host.name) for host in hosts)],
        help_text=_("The organisation whose tournament this is: its team works on it."),
        error_messages={
            "required": _("Choose the organisation whose tournament this is."),
            "invalid_choice": _("Choose one of the organisations listed."),
        },
    )


class HostLookupField(forms.CharField):
    """The organisation a new tournament belongs to, typed by its short address or its name, when
    the user may choose among more than a list shows (`accounts.selectors.HOSTS_LISTED`); `find`
    (`organised_hosts_named` for the user) looks it up among those they may choose. Cleans to the
    HostOrganisation."""

    def __init__(self, find):
        super().__init__(
            label=_("Organisation"),
            max_length=200,
            help_text=_(
                "The short address of the organisation whose tournament this is (as in its page's address "
                "…/o/address/), or its full name: its team works on it."
            ),
            error_messages={"required": _("Enter the short address or the name of the organisation.")},
        )
        self.find = find

    def clean(self, value):
        text = super().clean(value)
        found = self.find(text)
        if not found:
            raise forms.ValidationError(
                _("No organisation you may choose has this short address or name."), code="no_host"
            )
        if len(found) > 1:
            raise forms.ValidationError(
                _("Several organisations have this name: enter the short address instead."), code="several_hosts"
            )
        return found[0]


def host_field(hosts, find):
    """A list of `hosts` to choose from, or, when there are more than a list shows, a field taking
    the address or the name (`HostLookupField`)."""
    if len(hosts) > HOSTS_LISTED and find is not None:
        return HostLookupField(find)
    return host_choice(hosts)


def chosen_host(hosts, chosen, *, asked):
    """The host organisation a new tournament goes into: the one chosen or looked up (`asked`), or
    the only one offered; None when none was offered (the server's only one is taken)."""
    if asked:
        if isinstance(chosen, HostOrganisation):
            return chosen
        return {host.pk: host for host in hosts}.get(chosen)
    return hosts[0] if len(hosts) == 1 else None


class TournamentForm(forms.ModelForm):
    big_point_places = forms.CharField(
        label=_("big points by place"),
        max_length=40,
        error_messages={"required": _("Enter the points for 1st place, then 2nd, 3rd and 4th, e.g. 1, 0, 0, 0.")},
        help_text=_(
            "Points for 1st, 2nd, 3rd and 4th place at the table, separated by commas: 1, 0, 0, 0 gives one point to each game's winner; a German club scheme is 4, 3, 1, 0."
        ),
    )

    class Meta:
        model = Tournament
        fields = [name for _legend, names in FIELDSETS for name in names]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "entries_until": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
            "opening_penalty_mode": forms.RadioSelect,
            "pool_exhausted_scoring": forms.RadioSelect,
            "big_point_unit": forms.RadioSelect,
            "seating_method": forms.RadioSelect,
            "visibility": forms.RadioSelect,
            "final_release": forms.RadioSelect,
            "public_language": forms.RadioSelect,
        }
        error_messages = {"slug": {"unique": validation.SLUG_TAKEN}}
        help_texts = {
            "name": _("As printed on the score sheets and diplomas."),
            "slug": _(
                "Used in the addresses of the public pages, e.g. senioriada-2026. Leave empty to make one from the name."
            ),
            "rounds_planned": _("How many rounds everyone plays before the final."),
            "seating_method": _(
                "Round 1 is always a random draw. Mixed seats players with people they have not met yet; Swiss seats the leaders together at table 1; manual lets you move players yourself."
            ),
            "players_per_organisation": _(
                "How many players one club or university may enter. Above 1, players of one organisation are kept apart at the tables."
            ),
            "move_seconds": _("Printed on the score sheets and used by the move timer."),
            "final_games": _("How many games the final table plays."),
            "initial_meld": _("The points needed for the first laying out (printed for information)."),
            "opening_penalty_mode": _(
                "Whether a penalty for the first laying out replaces the tiles left on the rack or is added to them."
            ),
            "penalty_possible_not_done": _("Penalty when the player could have laid out but did not."),
            "penalty_first_move": _(
                "Penalty when the player laid out in the first move and the game ended during another player's first move."
            ),
            "pool_exhausted_scoring": _(
                "When nobody goes out and the pool is empty, the lowest rack wins. Sum: the winners get the others' racks added up. Difference: each rack counts only what it has more than the lowest."
            ),
            "big_point_unit": _(
                "Per game: table places are given after every game. Per round: once, from the round's total at the table."
            ),
            "visibility": _("What the public pages show. Staff always see everything."),
        }

    def __init__(self, *args, hosts=(), find_host=None, **kwargs):
        """`hosts`: when creating, the host organisations the user organises (`hosts_to_offer`); with
        several, the form asks which one the tournament belongs to (with one, it is that one); with
        more than a list shows, by address or name (`find_host`: `host_field`)."""
        super().__init__(*args, **kwargs)
        self.editing = self.instance.pk is not None
        self.slug_made = False
        self.hosts = list(hosts)
        if not self.editing and len(self.hosts) > 1:
            self.fields["host"] = host_field(self.hosts, find_host)
        for name, (low, high) in validation.SETTING_RANGES.items():
            field = self.fields[name]
            field.min_value, field.max_value = low, high
            field.validators += [MinValueValidator(low), MaxValueValidator(high)]
            field.widget.attrs.update(min=low, max=high)
        self.initial["big_point_places"] = ", ".join(map(str, self.instance.big_point_places or [1, 0, 0, 0]))
        if self.editing:
            self.fields["slug"].disabled = True
            self.fields["slug"].help_text = _(
                "The address cannot change once the tournament exists (printed links use it)."
            )
            final = final_round(self.instance)
            if final is not None and final.is_locked:
                self.fields["final_release"].disabled = True
                self.fields["final_release"].help_text = _(
                    "The final has started: its start applied this plan. The head referee shows or hides the "
                    "results on the results visibility page."
                )
        else:
            self.fields["slug"].required = False
            self.initial.setdefault("date", timezone.localdate())

    def fieldsets(self):
        event = ["host"] if "host" in self.fields else []
        return [
            (legend, [self[name] for name in (event if index == 0 else []) + names])
            for index, (legend, names) in enumerate(FIELDSETS)
        ]

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
        self.slug_made = True  # from the name: the service takes the next free one if it is taken meanwhile
        return free_slug(self.data.get("name", ""))

    def validate_unique(self):
        """The address is the one unique field: an address made from the name is not refused
        when another tournament takes it meanwhile (`services.create_tournament` moves on)."""
        if not self.slug_made:
            super().validate_unique()

    def clean(self):
        cleaned = super().clean()
        if not self.editing:
            host = chosen_host(self.hosts, cleaned.get("host"), asked="host" in self.fields)
            if host is not None:
                self.instance.host = host
            return cleaned
        largest, rounds_drawn, has_final = selectors.settings_limits(self.instance)
        problems = validation.limit_problems(cleaned, largest=largest, rounds_drawn=rounds_drawn, has_final=has_final)
        for name, message in problems.items():
            self.add_error(name, message)
        return cleaned


class FinalReleaseForm(forms.Form):
    """The dashboard's change of how the final's results reach the public, with an optional reason for the log."""

    final_release = forms.ChoiceField(choices=Tournament.FinalRelease.choices)
    reason = forms.CharField(label=_("Reason (optional, kept in the log)"), required=False, max_length=500)


class RescoreForm(forms.Form):
    """The yes to what new settings change in verified results: the plan that was shown
    (`token`, see `scoring.services.rescore.RescorePlan.token`), the reason, and the button that confirms."""

    prefix = "rescore"
    token = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    reason = forms.CharField(
        label=_("Reason for changing these results"),
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Written to the log with every result that changes, with your name."),
    )
    confirm = forms.BooleanField(required=False)

    def confirmation(self):
        """The confirmation sent (a services.Confirmation), or None when the button was not the confirming one."""
        if not self.is_valid() or not self.cleaned_data["confirm"]:
            return None
        return services.Confirmation(token=self.cleaned_data["token"], reason=self.cleaned_data["reason"])

    @classmethod
    def for_plan(cls, refusal, posted):
        """The form shown with a plan (`refusal`: services.ResultsWouldChange): the plan's token
        and the reason typed so far, its error next to the field it concerns."""
        reason = posted.get(f"{cls.prefix}-reason", "") if posted is not None else ""
        form = cls({f"{cls.prefix}-token": refusal.plan.token, f"{cls.prefix}-reason": reason[:1000]})
        form.is_valid()
        if refusal.field == "reason":
            form.add_error("reason", refusal.message)
        return form


class RefusalMixin:
    def add_refusal(self, refusal):
        """Show a service's refusal next to the field it concerns (or above the form)."""
        self.add_error(refusal.field if refusal.field in self.fields else None, refusal.message)


class PlayerForm(RefusalMixin, forms.Form):
    """A player's surname, given names and organisation; with `late_round` (the round a player
    added now would play from, once round 1 has started) also whether the player is here."""

    HERE, NOT_YET = "here", "not-yet"

    surname = forms.CharField(
        label=_("surname"),
        max_length=validation.MAX_NAME,
        validators=[validation.validate_name],
        help_text=_("e.g. Nowak or Nowak-Kowalska"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "words"}),
    )
    given_names = forms.CharField(
        label=_("given names"),
        max_length=validation.MAX_NAME,
        required=False,
        help_text=_("e.g. Anna"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "words"}),
    )
    organisation = forms.CharField(
        label=_("organisation"),
        max_length=validation.MAX_NAME,
        validators=[validation.validate_name],
        help_text=_("The club, university or association."),
        widget=forms.TextInput(attrs={"list": "organisations", "autocomplete": "off"}),
    )
    arrival = forms.ChoiceField(label=_("Is the player here?"), required=False, widget=forms.RadioSelect)
    # Who the player is: "" (found by name), "new" or a person's number; asked when two could be.
    person = forms.RegexField(regex=r"^(|new|[0-9]{1,12})$", required=False, widget=forms.HiddenInput)
    asked_person = False

    def __init__(self, *args, late_round=None, **kwargs):
        super().__init__(*args, **kwargs)
        if late_round is None:
            del self.fields["arrival"]
        else:
            self.fields["arrival"].choices = [
                (self.HERE, _("Here now: checked in, plays from round %(number)s") % {"number": late_round}),
                (self.NOT_YET, _("Not here yet: check them in when they arrive")),
            ]
            self.fields["arrival"].initial = self.HERE

    def clean_given_names(self):
        text = self.cleaned_data["given_names"]
        return validation.clean_name(text) if text.strip() else ""

    def present(self):
        """Whether the player is here: None (the service's default) unless the form asked."""
        if "arrival" not in self.fields:
            return None
        return self.cleaned_data.get("arrival") != self.NOT_YET


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("player list"),
        allow_empty_file=True,
        help_text=_(
            "A CSV or Excel (.xlsx) file whose first line names the columns: name (or given names and surname), organisation."
        ),
    )


class DrawForm(forms.Form):
    method = forms.ChoiceField(label=_("seating method"), widget=forms.RadioSelect)
    seed = forms.CharField(
        label=_("draw seed"),
        required=False,
        max_length=64,
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
    """Two of the round's players and why they swap. Its widgets are drawn by Django's Jinja2
    templates: each list offers every seated player, which Django's template engine drew at a
    third of the round page's time."""

    default_renderer = Jinja2()
    player_a = forms.TypedChoiceField(label=_("player"), coerce=int)
    player_b = forms.TypedChoiceField(label=_("swaps seats with"), coerce=int)
    reason = forms.CharField(
        label=_("reason"),
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Required once the round has started; it is written to the log."),
    )

    def __init__(self, *args, seated, **kwargs):
        """`seated`: (player, table number, seat letter) of everyone seated in the round."""
        super().__init__(*args, **kwargs)
        self.players = {player.pk: player for player, _table, _letter in seated}
        choices = [("", "—")] + [
            (
                player.pk,
                gettext("%(name)s (no. %(number)s) — table %(table)s, seat %(seat)s")
                % {"name": player.surname_first, "number": player.start_number, "table": table, "seat": letter},
            )
            for player, table, letter in sorted_by_surname(seated, person=lambda s: s[0])
        ]
        self.fields["player_a"].choices = choices
        self.fields["player_b"].choices = choices


class BackupUploadForm(forms.Form):
    file = forms.FileField(
        label=_("backup file"),
        allow_empty_file=True,
        help_text=_("A backup downloaded from this page (.json, or compressed .json.gz), at most 20 MB."),
    )

    def __init__(self, *args, **kwargs):
        """The browser refuses a file over the limit before sending it (static/js/backup-upload.js)."""
        super().__init__(*args, **kwargs)
        self.fields["file"].widget.attrs.update(
            {"data-max-bytes": restore.MAX_UPLOAD, "data-too-large": restore.too_large().message}
        )


class RestoreConfirmForm(forms.Form):
    token = forms.CharField(widget=forms.HiddenInput, max_length=64)
    replace = forms.BooleanField(required=False)

    def __init__(self, *args, replaces=None, hosts=(), find_host=None, **kwargs):
        """`replaces`: the tournament the restore would replace, whose name the confirmation names;
        else `hosts`: the host organisations the user organises, one of which a new tournament
        goes into (asked when there are several: `host_field`, with `find_host`)."""
        super().__init__(*args, **kwargs)
        self.hosts = [] if replaces is not None else list(hosts)
        if replaces is not None:
            self.fields["replace"].required = True
            self.fields["replace"].label = _("Yes, replace the tournament “%(name)s” with this backup.") % {
                "name": replaces.name
            }
            self.fields["replace"].error_messages["required"] = _("Tick the box to confirm the replacement.")
        elif len(self.hosts) > 1:
            self.fields["host"] = host_field(self.hosts, find_host)

    def chosen_host(self):
        """The host organisation a new tournament goes into (None: the server's only one)."""
        return chosen_host(self.hosts, self.cleaned_data.get("host"), asked="host" in self.fields)


class TimetableForm(forms.Form):
    """Each round's planned start (a time of day, optional) and length in minutes."""

    def __init__(self, *args, lines, **kwargs):
        """`lines`: the day's timetable (`selectors.day_timetable`), one pair of fields per round."""
        super().__init__(*args, **kwargs)
        low, high = ROUND_MINUTES_RANGE
        self.rows = []
        for line in lines:
            self.fields[f"start_{line.number}"] = forms.TimeField(
                label=_("planned start"),
                required=False,
                initial=line.planned_start,
                widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            )
            self.fields[f"minutes_{line.number}"] = forms.IntegerField(
                label=_("length in minutes"),
                min_value=low,
                max_value=high,
                initial=line.length_minutes,
                widget=forms.NumberInput(attrs={"min": low, "max": high, "inputmode": "numeric"}),
            )
            self.rows.append((line, self[f"start_{line.number}"], self[f"minutes_{line.number}"]))

    def lines(self):
        """number: (planned start, minutes) of every round in the form."""
        return {
            line.number: (self.cleaned_data[f"start_{line.number}"], self.cleaned_data[f"minutes_{line.number}"])
            for line, _start, _minutes in self.rows
        }
