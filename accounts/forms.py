"""Forms of the staff accounts: a new device link."""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from accounts.devices import DEFAULT_VALID_HOURS, VALID_HOURS_CHOICES
from accounts.models import DeviceLink
from accounts.services import EARLIER_ALL, EARLIER_KEEP, EARLIER_UNUSED

LABEL_LENGTH = DeviceLink._meta.get_field("label").max_length


class DeviceLinkForm(forms.Form):
    label = forms.CharField(
        label=_("Tablet name"), max_length=LABEL_LENGTH, help_text=_("For example “Tablet 3” or the referee's name."),
    )
    valid_hours = forms.TypedChoiceField(
        label=_("Valid for"), coerce=int, initial=DEFAULT_VALID_HOURS,
        choices=[
            (h, ngettext_lazy("%(count)d hour", "%(count)d hours", h) % {"count": h}) for h in VALID_HOURS_CHOICES
        ],
    )


MAX_TABLETS = 40


class DeviceSheetForm(DeviceLinkForm):
    """Several numbered links at once, printed on one sheet (their tokens are never stored).

    `earlier` says what happens to the links of earlier sheets that still work; the printing
    view asks for it when there are any.
    """

    # "Tablet 12": the number and its space must fit in the stored name too.
    label = forms.CharField(label=_("Tablet name"), max_length=LABEL_LENGTH - len(f" {MAX_TABLETS}"))
    count = forms.IntegerField(label=_("How many tablets"), min_value=1, max_value=MAX_TABLETS, initial=3)
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
