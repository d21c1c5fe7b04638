"""Forms of the staff accounts: the first organiser, a tournament's staff, device links for
tablets, the venue address."""

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from accounts.devices import DEFAULT_VALID_HOURS, VALID_HOURS_CHOICES
from accounts.models import DeviceLink, Role
from accounts.services import EARLIER_ALL, EARLIER_KEEP, EARLIER_UNUSED
from accounts.team import REMOVE
from accounts.venue import VenueAddressError, machine_names, normalise_venue_address
from tournament.models import LAPTOP_HOST

LABEL_LENGTH = DeviceLink._meta.get_field("label").max_length


class DeviceLinkForm(forms.Form):
    label = forms.CharField(
        label=_("Tablet name"), max_length=LABEL_LENGTH, help_text=_("For example “Tablet 3” or the referee's name.")
    )
    valid_hours = forms.TypedChoiceField(
        label=_("Valid for"),
        coerce=int,
        initial=DEFAULT_VALID_HOURS,
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
        label=_("Links made earlier that still work"),
        required=False,
        widget=forms.RadioSelect,
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


class VenueAddressForm(forms.Form):
    """The address tablets and phones use: this computer's IP address (or a name the server is
    configured for) and the port, normalised (accounts.venue.normalise_venue_address)."""

    REASONS = {
        "characters": _("Enter only letters, digits, dots, colons and slashes, for example http://192.168.1.23:8000."),
        "form": _(
            "Enter only the start of an address: http://, this computer's address and the port, "
            "for example http://192.168.1.23:8000."
        ),
        "ambiguous": _("Write the address as four numbers from 0 to 255 separated by dots, for example 192.168.1.23."),
        "loopback": _(
            "This address means “this device” on every tablet and phone: enter this computer's "
            "address on the venue's network instead."
        ),
        "unusable": _(
            "Tablets and phones cannot open this address: enter this computer's address on the "
            "venue's network, for example http://192.168.1.23:8000."
        ),
        "name": _(
            "This server does not answer to this name: enter this computer's IP address on the "
            "venue's network, for example http://192.168.1.23:8000."
        ),
        "https": _("This server speaks plain HTTP: the address must start with http://."),
    }

    address = forms.CharField(
        label=_("Venue address"),
        max_length=200,
        help_text=_(
            "For example http://192.168.1.23:8000 — this computer's address on the venue's network and the port."
        ),
    )

    def __init__(self, *args, secure=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.secure = secure

    def clean_address(self):
        served_names = [*settings.SERVED_HOSTS, *machine_names()]
        try:
            return normalise_venue_address(self.cleaned_data["address"], served_names=served_names, secure=self.secure)
        except VenueAddressError as error:
            raise forms.ValidationError(self.REASONS[error.reason], code=error.reason) from None


USERNAME_RULE = UnicodeUsernameValidator(
    message=_("Use only letters, digits and the characters . @ + - _ (no spaces).")
)


class NewAccountForm(forms.Form):
    """A user name and a password typed twice, checked by the password rules (settings)."""

    # The help and the error name the same characters: those Django's user model takes (\w . @ + -).
    username = forms.CharField(
        label=_("User name"),
        max_length=150,
        validators=[USERNAME_RULE],
        help_text=_("Letters, digits and the characters . @ + - _ only, no spaces; for example anna.nowak."),
    )
    password = forms.CharField(label=_("Password"), widget=forms.PasswordInput, strip=False, max_length=128)
    password_again = forms.CharField(label=_("Password again"), widget=forms.PasswordInput, strip=False, max_length=128)

    def clean(self):
        cleaned = super().clean()
        password, again = cleaned.get("password"), cleaned.get("password_again")
        if password and again and password != again:
            self.add_error("password_again", _("The two passwords differ."))
        elif password:
            try:
                # The user name is checked against too (a password like the name is refused).
                validate_password(password, user=get_user_model()(username=cleaned.get("username") or ""))
            except forms.ValidationError as error:
                self.add_error("password", error)
        return cleaned


class FirstOrganiserForm(NewAccountForm):
    """The first organiser of a fresh install, with the setup code the server printed."""

    code = forms.CharField(
        label=_("Setup code"),
        max_length=40,
        help_text=_("Printed when the server started, for example K7QM-2XPA-9RTD."),
    )
    organisation = forms.CharField(
        label=_("Organisation name"),
        max_length=200,
        required=False,
        initial=LAPTOP_HOST["name"],
        help_text=_("Who runs the tournaments, for example “UTW Kraków”; you can leave it as it is."),
    )
    field_order = ["code", "organisation", "username", "password", "password_again"]


class StaffMemberForm(NewAccountForm):
    """A referee or head referee of one tournament; the password makes a new account (an existing
    account keeps its own)."""

    role = forms.ChoiceField(
        label=_("Role"),
        choices=[(Role.REFEREE.value, Role.REFEREE.label), (Role.HEAD_REFEREE.value, Role.HEAD_REFEREE.label)],
    )
    field_order = ["username", "role", "password", "password_again"]


ROLE_CHOICES = [(role.value, role.label) for role in reversed(Role)]  # organiser first


class TeamChangeForm(forms.Form):
    """Another role for a member of an organisation's team, or out of the team, and why."""

    role = forms.ChoiceField(label=_("New role"), choices=[*ROLE_CHOICES, (REMOVE, _("remove from the team"))])
    reason = forms.CharField(label=_("Reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 2}))


class StaffRemovalForm(forms.Form):
    """Why a role for one tournament is taken back (kept in the audit log)."""

    reason = forms.CharField(
        label=_("Reason"), max_length=500, required=False, widget=forms.Textarea(attrs={"rows": 2})
    )


ALL_TOURNAMENTS = ""


class InvitationForm(forms.Form):
    """An invitation into the team: a role for all the organisation's tournaments or for one."""

    role = forms.ChoiceField(label=_("Role"), choices=ROLE_CHOICES, initial=Role.REFEREE.value)
    tournament = forms.ChoiceField(
        label=_("For"), required=False, help_text=_("The upcoming tournaments and the most recent ones.")
    )

    def __init__(self, *args, tournaments=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tournament"].choices = [
            (ALL_TOURNAMENTS, _("all the organisation's tournaments")),
            *[(str(t.pk), t.name) for t in tournaments],
        ]


class OrganisationForm(forms.Form):
    """A new host organisation and the user name of its first organiser (a new account)."""

    name = forms.CharField(label=_("Organisation name"), max_length=200)
    slug = forms.SlugField(
        label=_("Short address"), max_length=80, help_text=_("Letters, digits and hyphens, for example utw-krakow.")
    )
    username = forms.CharField(
        label=_("Organiser's user name"),
        max_length=150,
        validators=[USERNAME_RULE],
        help_text=_("A new account: a name in use is refused."),
    )


class LinkMailForm(forms.Form):
    """Send a one-time link shown on the page by e-mail: the address, and which link (the server
    checks that it made it and that it still works)."""

    email = forms.EmailField(
        label=_("E-mail address"),
        max_length=254,
        error_messages={"invalid": _("Enter an e-mail address such as name@example.pl.")},
    )
    link = forms.CharField(widget=forms.HiddenInput, max_length=500)
