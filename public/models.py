"""The public version of each tournament (see `public.versions`)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import Tournament


class PublicVersion(models.Model):
    """A number that the database raises whenever anything the tournament's public pages show
    changes. Written only by the triggers of `public.versions`, never by Python code."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="public_version")
    version = models.BigIntegerField()

    class Meta:
        verbose_name = _("public version")
        verbose_name_plural = _("public versions")

    def __str__(self):
        return f"{self.tournament_id}: {self.version}"
