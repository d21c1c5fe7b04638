"""The forms of the entries (SPEC §11): the public entry form and the organiser's refusal. They
parse and check; `organiser.services.entries` changes the data."""

from __future__ import annotations

import re
import secrets
import unicodedata

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from organiser.services.entries import EntryData
from tournament import validation

MAX_PERSON_NAME = 100
MAX_ORGANISATION = 200
MAX_PHONE = 30
# Emoji, pictographs and other symbols (So), modifier symbols such as skin tones (Sk).
SYMBOL_CATEGORIES = frozenset({"So", "Sk"})
PHONE = re.compile(r"^\+?[0-9 ()\-/]{6,30}$")
FORM_KEY = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
CONSENT = _(
    "The player agrees that their name, organisation and results are published on the tournament's pages "
    "and results lists."
)


def checked_text(text: str, max_length: int) -> str:
    """A name: no invisible or control characters (NUL), no emoji, not empty, not too long."""
    text = validation.clean_name(text, max_length)
    for char in text:
        if unicodedata.category(char) in SYMBOL_CATEGORIES:
            raise ValidationError(
                _("Use letters, digits and punctuation only: “%(char)s” cannot be used here."),
                code="symbol",
                params={"char": char},
            )
    return text


class NameField(forms.CharField):
    def __init__(self, *, max_length: int, **kwargs):
        # The form's own length check runs on the cleaned text; the browser may send more (and is told).
        super().__init__(max_length=None, strip=False, **kwargs)
        self.name_max = max_length
        self.widget.attrs["maxlength"] = str(max_length)

    def clean(self, value):
        value = super().clean(value)
        if not value and not self.required:
            return ""
        return checked_text(value or "", self.name_max)


class EntryForm(forms.Form):
    organisation = NameField(
        label=_("Senior university, club or association"),
        max_length=MAX_ORGANISATION,
        help_text=_("The organisation the player represents, e.g. UTW Kraków."),
    )
    surname = NameField(label=_("Player's surname"), max_length=MAX_PERSON_NAME)
    given_names = NameField(label=_("Player's given names"), max_length=MAX_PERSON_NAME)
    birth_year = forms.IntegerField(label=_("Player's year of birth (optional)"), required=False)
    contact_name = NameField(
        label=_("Contact person"), max_length=MAX_PERSON_NAME, help_text=_("Who at the organisation sends this entry.")
    )
    contact_email = forms.EmailField(
        label=_("Contact e-mail"),
        max_length=254,
        help_text=_("We send the link to confirm the entry here. Only the tournament's organisers see it."),
        error_messages={"invalid": _("Enter an e-mail address such as name@example.pl.")},
    )
    contact_phone = forms.CharField(
        label=_("Contact phone (optional)"), required=False, max_length=MAX_PHONE, strip=True
    )
    consent = forms.BooleanField(
        label=CONSENT, error_messages={"required": _("The entry needs the player's consent: tick the box.")}
    )
    # A field people never see: a robot that fills in every field fills it in.
    website = forms.CharField(required=False, label=_("Leave this field empty"))
    form_key = forms.CharField(widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.initial.setdefault("form_key", secrets.token_urlsafe(24))
        this_year = timezone.localdate().year
        self.fields["birth_year"].widget.attrs.update(min=1900, max=this_year, inputmode="numeric")
        self.fields["birth_year"].error_messages["invalid"] = _("Enter the year as four digits, e.g. 1950.")
        self.fields["contact_email"].widget.attrs.update(autocomplete="email")
        self.fields["contact_phone"].widget.attrs.update(autocomplete="tel", inputmode="tel")
        self.fields["website"].widget.attrs.update(tabindex="-1", autocomplete="off")

    def clean_birth_year(self):
        year = self.cleaned_data.get("birth_year")
        this_year = timezone.localdate().year
        if year is not None and not 1900 <= year <= this_year:
            raise ValidationError(
                _("Enter a year from 1900 to %(year)s, or leave it empty."), params={"year": this_year}
            )
        return year

    def clean_contact_email(self):
        email = self.cleaned_data.get("contact_email", "")
        if validation.forbidden_character(email):
            raise ValidationError(_("Enter an e-mail address such as name@example.pl."))
        return email

    def clean_contact_phone(self):
        phone = self.cleaned_data.get("contact_phone", "")
        if phone and not PHONE.match(phone):
            raise ValidationError(_("Enter the phone number in digits, e.g. +48 600 100 200."))
        return phone

    def clean_form_key(self):
        key = self.cleaned_data.get("form_key", "")
        if not FORM_KEY.match(key):
            raise ValidationError(_("This form is out of date: reload the page."))
        return key

    @property
    def is_robot(self) -> bool:
        return bool(self.data.get("website"))

    def entry(self) -> EntryData:
        data = self.cleaned_data
        return EntryData(
            organisation=data["organisation"],
            surname=data["surname"],
            given_names=data["given_names"],
            birth_year=data.get("birth_year"),
            contact_name=data["contact_name"],
            contact_email=data["contact_email"],
            contact_phone=data.get("contact_phone", ""),
            consent_text=str(CONSENT),
        )


class RefuseEntryForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason (sent to the entry's contact)"),
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3}),
        error_messages={"required": _("Give the reason: it is sent to the entry's contact.")},
    )

    def clean_reason(self):
        reason = self.cleaned_data["reason"]
        if validation.forbidden_character(reason.replace("\n", " ").replace("\r", " ")):
            raise ValidationError(validation.FORBIDDEN_MESSAGE, params={"code": "?"})
        return reason
