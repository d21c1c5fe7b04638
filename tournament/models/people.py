"""People who come back, and seasons: what a host organisation keeps from one tournament to the next.

A `Person` is someone an organisation knows; a tournament's `Player` is a person taking part in it
and keeps the name as it was printed then. A `Season` ranks people over some of the
organisation's tournaments.
"""

import uuid

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament import names
from tournament.models.hosts import HostOrganisation
from tournament.text import match_key

DEFAULT_SEASON_POINTS = [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]


def default_season_points():
    return list(DEFAULT_SEASON_POINTS)


class Person(models.Model):
    """Someone a host organisation knows, across its tournaments. `uid` is the stable id of the
    JSON interchange (`players[].person`). A record merged into another points to it
    (`merged_into`) and is no longer offered; the merge's undo clears the pointer."""

    host = models.ForeignKey(HostOrganisation, on_delete=models.CASCADE, related_name="people")
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    surname = models.CharField(_("surname"), max_length=200)
    given_names = models.CharField(_("given names"), max_length=200, blank=True)
    club = models.CharField(_("club or senior university"), max_length=200, blank=True)
    birth_year = models.PositiveSmallIntegerField(
        _("year of birth"), null=True, blank=True, validators=[MinValueValidator(1900), MaxValueValidator(2100)]
    )
    # The full name folded for matching (tournament.text.match_key), kept by `save`.
    name_key = models.CharField(max_length=400, db_index=True, editable=False)
    merged_into = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="merged_records"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # When the record last changed: a season's public pages show people's names (public/freshness.py).
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["surname", "given_names", "pk"]
        verbose_name = _("person")
        verbose_name_plural = _("people")
        constraints = [
            models.CheckConstraint(condition=~Q(surname=""), name="person_surname_not_empty"),
            models.CheckConstraint(condition=~Q(merged_into=models.F("pk")), name="person_not_merged_into_itself"),
        ]

    def __str__(self):
        return self.name

    @property
    def name(self):
        return names.full_name(self.given_names, self.surname)

    def save(self, *args, **kwargs):
        self.name_key = match_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = set(update_fields) | {"name_key", "updated_at"}
        super().save(*args, **kwargs)


class Season(models.Model):
    """A ranking of a host organisation's people over some of its tournaments. Its scoring is its
    own: points by final place (`place_points[0]` for the winner; places beyond the list score 0)
    and the number of each person's best tournaments that count (`best_count`; None: all)."""

    host = models.ForeignKey(HostOrganisation, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("season name"), max_length=200)
    slug = models.SlugField(_("short address"), max_length=80, unique=True)
    tournaments = models.ManyToManyField("tournament.Tournament", related_name="seasons", blank=True)
    place_points = models.JSONField(_("points for places 1, 2, 3…"), default=default_season_points)
    best_count = models.PositiveSmallIntegerField(
        _("best tournaments counted"), null=True, blank=True, help_text=_("Empty: every tournament counts.")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [models.CheckConstraint(condition=Q(best_count__gte=1), name="season_best_count_positive")]

    def __str__(self):
        return self.name
