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


EARLIER_KEEP, EARLIER_UNUSED, EARLIER_ALL = "keep", "unused", "all"


class DeviceSheetForm(DeviceLinkForm):
    """Several numbered links at once, printed on one sheet (their tokens are never stored).

    `earlier` says what happens to the links of earlier sheets that still work; the printing
    view asks for it when there are any.
    """

    count = forms.IntegerField(label=_("How many tablets"), min_value=1, max_value=40, initial=3)
    earlier = forms.ChoiceField(
        label=_("Links made earlier that still work"), required=False, widget=forms.RadioSelect,
        choices=[
            (EARLIER_KEEP, _("Keep them: the earlier codes keep working")),
            (EARLIER_UNUSED, _("Revoke the ones never used; tablets already signed in stay signed in")),
            (EARLIER_ALL, _("Revoke all of them: tablets signed in with them are signed out")),
        ],
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["label"].initial = _("Tablet")
        self.fields["label"].help_text = _("The tablets are numbered: “Tablet 1”, “Tablet 2”…")
