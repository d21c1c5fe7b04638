"""Who works for which organisation: a membership gives a role for all of a host organisation's
tournaments, a tournament role for one tournament (`roles.py` reads both)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import HostOrganisation, Tournament


class Role(models.TextChoices):
    """Staff roles, weakest first (SPEC §6)."""

    REFEREE = "referee", _("referee")
    HEAD_REFEREE = "head_referee", _("head referee")
    ORGANISER = "organiser", _("organiser")


class Membership(models.Model):
    """A person in a host organisation's team, with a role for all its tournaments."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("user")
    )
    host = models.ForeignKey(
        HostOrganisation, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("host organisation")
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [models.UniqueConstraint(fields=["user", "host"], name="membership_unique_user")]

    def __str__(self):
        return f"{self.user} · {self.host} · {self.get_role_display()}"


class TournamentRole(models.Model):
    """A role that holds for one tournament only (e.g. a tablet signed in by a device link)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles", verbose_name=_("user")
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="staff_roles", verbose_name=_("tournament")
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)

    class Meta:
        verbose_name = _("tournament role")
        verbose_name_plural = _("tournament roles")
        constraints = [models.UniqueConstraint(fields=["user", "tournament"], name="tournament_role_unique_user")]

    def __str__(self):
        return f"{self.user} · {self.tournament} · {self.get_role_display()}"


class DeviceLink(models.Model):
    """A sign-in link for one tablet: opening it signs the tablet in as a referee of one tournament.

    A link signs in once (`used_at`); a second tablet with the same link is refused. Only the
    SHA-256 of the token is stored; the token itself is shown once, as a QR code.
    Each link has a dedicated user holding a `TournamentRole(referee)` for its tournament, so a
    revoked link (the user is deactivated) ends that tablet's session at its next request.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="device_links")
    label = models.CharField(_("tablet name"), max_length=80)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="device_link")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("valid until"))
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    used_at = models.DateTimeField(_("signed in"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("device link")
        verbose_name_plural = _("device links")

    def __str__(self):
        return f"{self.label} · {self.tournament}"

    def is_usable(self, now):
        """Neither revoked, nor expired, nor used yet."""
        return self.revoked_at is None and self.expires_at > now and self.used_at is None


class Invitation(models.Model):
    """A one-time link that puts a person in a host organisation's team: with a role for all its
    tournaments, or (with `tournament`) for that one tournament only. Only the SHA-256 of the
    token is stored; the link is shown once, to the organiser who made it."""

    host = models.ForeignKey(
        HostOrganisation, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("host organisation")
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="invitations",
        verbose_name=_("tournament"),
    )
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("valid until"))
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self):
        return f"{self.host} · {self.get_role_display()}"

    def is_usable(self, now):
        """Neither revoked, nor expired, nor accepted yet."""
        return self.revoked_at is None and self.expires_at > now and self.accepted_at is None


class TournamentVenue(models.Model):
    """The address tablets and phones use to reach this server for one tournament's links, set by
    its organisers on the venue address page (accounts/venue.py says what it may be). PUBLIC_URL,
    when set, wins."""

    tournament = models.OneToOneField(
        "tournament.Tournament",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="venue",
        verbose_name=_("tournament"),
    )
    address = models.CharField(_("venue address"), max_length=200)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("venue address")
        verbose_name_plural = _("venue addresses")
        constraints = [models.CheckConstraint(condition=~models.Q(address=""), name="venue_address_not_empty")]

    def __str__(self):
        return self.address


class SetupCodeTries(models.Model):
    """How many times one client address typed a setup code in its current window
    (accounts.first_run): counted in the database, each try one atomic update."""

    address = models.CharField(max_length=64, unique=True)
    tries = models.PositiveIntegerField(default=0)
    since = models.DateTimeField()  # the window's first try

    def __str__(self):
        return f"{self.address}: {self.tries}"
