"""A tournament's rounds, their planned times, tables and seats."""

from typing import Any

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from engine import rules
from tournament.models.tournaments import Player, Tournament

SEAT_LETTERS = rules.SEAT_LETTERS
SEAT_CHOICES = [(letter, letter) for letter in SEAT_LETTERS]


class Round(models.Model):
    class Kind(models.TextChoices):
        QUALIFYING = "qualifying", _("qualifying")
        FINAL = "final", _("final")

    class State(models.TextChoices):
        DRAFT = "draft", _("draft")
        PUBLISHED = "published", _("published")
        STARTED = "started", _("started")
        COMPLETED = "completed", _("completed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.QUALIFYING)
    state = models.CharField(_("state"), max_length=12, choices=State.choices, default=State.DRAFT)
    seed = models.CharField(_("draw seed"), max_length=64, blank=True)
    method = models.CharField(_("seating method"), max_length=10, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
            models.UniqueConstraint(fields=["tournament"], condition=Q(kind="final"), name="round_one_final"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self):
        if self.kind == self.Kind.FINAL:
            return str(_("Final"))
        return str(_("Round %(number)s") % {"number": self.number})

    def get_state_display(self):  # type: ignore[no-redef]  # replaces the one Django makes for `choices`
        """The state as said of this round: Polish agrees it with the noun ("Runda 2 opublikowana",
        but "Finał opublikowany": finał is masculine), so the final's states have their own messages."""
        if self.is_final:
            return str(FINAL_STATE_LABELS.get(self.state, self.state))
        return str(dict(self.State.choices).get(self.state, self.state))

    @property
    def is_final(self):
        return self.kind == self.Kind.FINAL

    @property
    def is_locked(self):
        """Seating is fixed once the round has started."""
        return self.state in (self.State.STARTED, self.State.COMPLETED)

    def games_per_table(self, seat_count):
        """Games a table of `seat_count` players plays: the final's setting, else one per seat."""
        return self.tournament.final_games if self.is_final else seat_count


# The states of the final: the same words as a round's, in the grammatical gender of "the final".
FINAL_STATE_LABELS = {
    Round.State.DRAFT: pgettext_lazy("state of the final", "draft"),
    Round.State.PUBLISHED: pgettext_lazy("state of the final", "published"),
    Round.State.STARTED: pgettext_lazy("state of the final", "started"),
    Round.State.COMPLETED: pgettext_lazy("state of the final", "completed"),
}


DEFAULT_ROUND_MINUTES = 60
ROUND_MINUTES_RANGE = (10, 300)


class RoundTime(models.Model):
    """A round's line in the day's timetable: when it is planned to start and how long it lasts.

    Kept by round number rather than on the round itself: a round exists only once drawn, and a
    discarded draw is deleted, while the timetable is planned before the day and outlives both.
    The clock runs from the round's `started_at` for `length_minutes`.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_times")
    number = models.PositiveSmallIntegerField(_("round"))
    planned_start = models.TimeField(_("planned start"), null=True, blank=True)
    length_minutes = models.PositiveSmallIntegerField(
        _("length in minutes"),
        default=DEFAULT_ROUND_MINUTES,
        validators=[MinValueValidator(ROUND_MINUTES_RANGE[0]), MaxValueValidator(ROUND_MINUTES_RANGE[1])],
    )

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round time")
        verbose_name_plural = _("round times")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_time_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_time_number_positive"),
            models.CheckConstraint(
                condition=Q(length_minutes__gte=ROUND_MINUTES_RANGE[0], length_minutes__lte=ROUND_MINUTES_RANGE[1]),
                name="round_time_length_in_range",
            ),
        ]

    def __str__(self):
        return f"{self.number}: {self.planned_start or '–'} {self.length_minutes}′"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    # Read with the score sheet (scoring.selectors.sheets): its seats in letter order, its stored
    # games by number (plain lists and dicts, as Prefetch(to_attr=...) leaves them).
    seated: list["Seat"]
    stored_games: dict[int, Any]

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self):
        return str(_("Table %(number)s") % {"number": self.number})


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats", editable=False)
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="seats")
    letter = models.CharField(_("seat"), max_length=1, choices=SEAT_CHOICES)

    class Meta:
        ordering = ["table", "letter"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "letter"], name="seat_unique_letter"),
            models.UniqueConstraint(fields=["round", "player"], name="seat_one_per_player_and_round"),
            models.CheckConstraint(condition=Q(letter__in=list(SEAT_LETTERS)), name="seat_letter_valid"),
        ]

    def __str__(self):
        return f"{self.table} {self.letter}: {self.player}"

    def save(self, *args, **kwargs):
        self.round_id = self.table.round_id
        super().save(*args, **kwargs)
