"""Per-tournament staff grants (global roles are Django groups, see `roles.py`)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import Tournament


class Role(models.TextChoices):
    """Staff roles, weakest first (SPEC §6)."""

    REFEREE = "referee", _("referee")
    HEAD_REFEREE = "head_referee", _("head referee")
    ORGANISER = "organiser", _("organiser")


class TournamentRole(models.Model):
    """A role that holds for one tournament only (e.g. a tablet signed in by a device link)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="staff_roles")
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)

    class Meta:
        verbose_name = _("tournament role")
        verbose_name_plural = _("tournament roles")
        constraints = [models.UniqueConstraint(fields=["user", "tournament"], name="tournament_role_unique_user")]

    def __str__(self):
        return f"{self.user} · {self.tournament} · {self.get_role_display()}"
