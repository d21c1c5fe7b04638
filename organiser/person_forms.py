"""Forms of the people pages and of the players' form's question "who is it?": they parse; the
services (`organiser.services.people`, `organiser.matching`) decide."""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from organiser.forms import RefusalMixin
from organiser.matching import NEW_PERSON
from tournament import validation
from tournament.names import surname_first


def person_label(person, details=True):
    """How a person is offered: surname first, club, year of birth, tournaments played (without
    `details`, the name and club only: what an organiser of one tournament sees, SPEC §10)."""
    parts = [surname_first(person.given_names, person.surname), person.club]
    if not details:
        return " · ".join(part for part in parts if part)
    if person.birth_year:
        parts.append(str(person.birth_year))
    count = getattr(person, "tournament_count", None)
    if count is not None:
        parts.append(
            ngettext("%(count)s tournament", "%(count)s tournaments", count) % {"count": count}
            if count
            else str(_("no tournament yet"))
        )
    return " · ".join(part for part in parts if part)


def ask_person(form, candidates, details=True):
    """Turn the players' form's hidden `person` into the question: the candidates (`person_label`)
    and "a new person"."""
    form.fields["person"] = forms.ChoiceField(
        label=_("Who is it?"),
        required=False,
        widget=forms.RadioSelect,
        choices=[(str(person.pk), person_label(person, details)) for person in candidates]
        + [(NEW_PERSON, _("a new person, not one of these"))],
    )
    form._bound_fields_cache.pop("person", None)  # rendered anew as the question
    form.asked_person = True


class PersonForm(RefusalMixin, forms.Form):
    """A person's name, club and year of birth, corrected for every later tournament."""

    surname = forms.CharField(label=_("surname"), max_length=validation.MAX_NAME, validators=[validation.validate_name])
    given_names = forms.CharField(label=_("given names"), max_length=validation.MAX_NAME, required=False)
    club = forms.CharField(
        label=_("club or senior university"), max_length=validation.MAX_NAME, validators=[validation.validate_name]
    )
    birth_year = forms.IntegerField(label=_("year of birth"), required=False, min_value=1900, max_value=2100)

    def clean_given_names(self):
        text = self.cleaned_data["given_names"]
        return validation.clean_name(text) if text.strip() else ""


class MergeForm(RefusalMixin, forms.Form):
    """ "The same person as…": the record this one joins, and why."""

    # any person of the organisation (the service checks); the list offers a few (person_selectors)
    survivor = forms.IntegerField(label=_("The same person as"), min_value=1, max_value=10**12 - 1, widget=forms.Select)
    find = forms.CharField(required=False, widget=forms.HiddenInput)  # the list's search, kept
    reason = forms.CharField(
        label=_("reason"), max_length=1000, widget=forms.Textarea(attrs={"rows": 2}), help_text=_("Kept in the log.")
    )

    def offer(self, people):
        """The people the list shows (a few: `person_selectors.merge_choices`); returns the form."""
        self.fields["survivor"].widget.choices = [("", "—")] + [(person.pk, person_label(person)) for person in people]
        return self


class UndoMergeForm(RefusalMixin, forms.Form):
    reason = forms.CharField(
        label=_("reason"), max_length=1000, widget=forms.Textarea(attrs={"rows": 2}), help_text=_("Kept in the log.")
    )


class AddPeopleForm(RefusalMixin, forms.Form):
    """The people ticked on "add from earlier tournaments" (their numbers; the view finds them)."""

    people = forms.TypedMultipleChoiceField(coerce=int, required=False)

    def __init__(self, *args, people=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["people"].choices = [(person.pk, person_label(person)) for person in people]
