"""Forms of the staff accounts: a new device link."""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from accounts.devices import DEFAULT_VALID_HOURS, VALID_HOURS_CHOICES


class DeviceLinkForm(forms.Form):
    label = forms.CharField(
        label=_("Tablet name"), max_length=80, help_text=_("For example “Tablet 3” or the referee's name."),
    )
    valid_hours = forms.TypedChoiceField(
        label=_("Valid for"), coerce=int, initial=DEFAULT_VALID_HOURS,
        choices=[
            (h, ngettext_lazy("%(count)d hour", "%(count)d hours", h) % {"count": h}) for h in VALID_HOURS_CHOICES
        ],
    )
