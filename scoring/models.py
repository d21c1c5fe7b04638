"""Score sheets, games, per-seat results, cards and tie decisions (the audit log is
`tournament.AuditEntry`)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from engine import discipline, rules
from tournament.models import SEAT_CHOICES, SEAT_LETTERS, Player, Round, Table, Tournament


class ScoreSheet(models.Model):
    """The record of one table in one round (a table belongs to exactly one round)."""

    stored_games: list["Game"]  # read with the sheet (scoring.selectors.sheets)

    class State(models.TextChoices):
        EMPTY = "empty", _("empty")
        IN_PROGRESS = "in_progress", _("in progress")
        SUBMITTED = "submitted", _("submitted")
        VERIFIED = "verified", _("verified")

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="sheet")
    state = models.CharField(_("state"), max_length=12, choices=State.choices, default=State.EMPTY)
    version = models.PositiveIntegerField(default=0, help_text=_("Raised by every save; stale saves are refused."))
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    submitted_at = models.DateTimeField(null=True, blank=True)
    verified_at = models.DateTimeField(null=True, blank=True)
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("score sheet")
        verbose_name_plural = _("score sheets")
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=["empty", "in_progress", "submitted", "verified"]), name="sheet_state_valid"
            )
        ]

    def __str__(self):
        return f"{self.table.round} · {self.table}"


class Game(models.Model):
    """One game of a score sheet; game k is started by seat k."""

    seat_results: list["SeatResult"]  # read with the game (scoring.selectors.sheets), in letter order

    class Ending(models.TextChoices):
        OUT = rules.OUT, _("a player went out")
        POOL_EXHAUSTED = rules.POOL_EXHAUSTED, _("pool exhausted")

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(_("game"))
    ending = models.CharField(_("ending"), max_length=16, choices=Ending.choices)
    winner = models.CharField(_("went out"), max_length=1, choices=SEAT_CHOICES, blank=True)

    class Meta:
        ordering = ["sheet", "number"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(fields=["sheet", "number"], name="game_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
            models.CheckConstraint(
                condition=(Q(ending=rules.OUT) & Q(winner__in=list(SEAT_LETTERS)))
                | (Q(ending=rules.POOL_EXHAUSTED) & Q(winner="")),
                name="game_winner_matches_ending",
            ),
        ]

    def __str__(self):
        return str(_("Game %(number)s") % {"number": self.number})


class SeatResult(models.Model):
    """One seat's result in one game: the raw rack input and the computed score."""

    class Opening(models.TextChoices):
        OPENED = rules.OPENED, _("laid out")
        NOT_POSSIBLE = rules.NOT_POSSIBLE, _("could not lay out")
        POSSIBLE_NOT_DONE = rules.POSSIBLE_NOT_DONE, _("could but did not")
        DRAWN_LAST_ROUND = rules.DRAWN_LAST_ROUND, _("tile drawn in the last round")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
    letter = models.CharField(_("seat"), max_length=1, choices=SEAT_CHOICES)
    went_out = models.BooleanField(_("went out"), default=False)
    tiles = models.PositiveSmallIntegerField(_("tiles left"), default=0)
    jokers = models.PositiveSmallIntegerField(_("jokers left"), default=0)
    opening = models.CharField(_("first laying out"), max_length=20, choices=Opening.choices, default=Opening.OPENED)
    first_move_case = models.BooleanField(_("first-move case"), default=False)
    keypad = models.JSONField(_("tiles entered one by one"), null=True, blank=True)
    score = models.IntegerField(_("computed score"))
    is_winner = models.BooleanField(default=False)
    override_score = models.IntegerField(_("score set by the referee"), null=True, blank=True)
    override_reason = models.TextField(_("reason for the override"), blank=True)

    class Meta:
        ordering = ["game", "letter"]
        verbose_name = _("seat result")
        verbose_name_plural = _("seat results")
        constraints = [
            models.UniqueConstraint(fields=["game", "letter"], name="seat_result_unique_letter"),
            models.CheckConstraint(condition=Q(letter__in=list(SEAT_LETTERS)), name="seat_result_letter_valid"),
            models.CheckConstraint(
                condition=Q(tiles__gte=0, tiles__lte=rules.MAX_TILES), name="seat_result_tiles_range"
            ),
            models.CheckConstraint(
                condition=Q(jokers__gte=0, jokers__lte=rules.MAX_JOKERS), name="seat_result_jokers_range"
            ),
            models.CheckConstraint(condition=Q(opening__in=list(rules.OPENINGS)), name="seat_result_opening_valid"),
            models.CheckConstraint(
                condition=Q(went_out=False) | Q(tiles=0, jokers=0, opening=rules.OPENED, first_move_case=False),
                name="seat_result_winner_has_no_rack",
            ),
            models.CheckConstraint(
                condition=Q(override_score__isnull=True) | ~Q(override_reason=""),
                name="seat_result_override_has_reason",
            ),
        ]

    def __str__(self):
        return f"{self.game} {self.letter}: {self.effective_score}"

    @property
    def effective_score(self):
        return self.score if self.override_score is None else self.override_score

    def rack(self) -> rules.Rack:
        return rules.Rack(
            tiles=self.tiles, jokers=self.jokers, opening=self.opening, first_move_case=self.first_move_case
        )


class Card(models.Model):
    class Colour(models.TextChoices):
        YELLOW = discipline.YELLOW, _("yellow card")
        RED = discipline.RED, _("red card")
        WARNING = discipline.WARNING, _("warning")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="cards")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="cards")
    round = models.ForeignKey(Round, on_delete=models.SET_NULL, null=True, blank=True, related_name="cards")
    colour = models.CharField(_("card"), max_length=10, choices=Colour.choices)
    reason = models.TextField(_("reason"))
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    given_by_name = models.CharField(
        _("given by"),
        max_length=150,
        blank=True,
        help_text=_("The user's name when the card was given; kept when the account is gone or the card was restored."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # A card given by mistake is withdrawn by the head referee, with a reason: it stays on the
    # record, shown as withdrawn, and no longer counts (SPEC §7).
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    withdrawn_by_name = models.CharField(
        _("withdrawn by"),
        max_length=150,
        blank=True,
        help_text=_(
            "The user's name when the card was withdrawn; kept when the account is gone or the card was restored."
        ),
    )
    withdrawal_reason = models.TextField(_("reason for the withdrawal"), blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("card")
        verbose_name_plural = _("cards")
        constraints = [
            models.CheckConstraint(condition=Q(colour__in=list(discipline.COLOURS)), name="card_colour_valid"),
            models.CheckConstraint(
                condition=Q(withdrawn_at__isnull=True, withdrawal_reason="")
                | (Q(withdrawn_at__isnull=False) & ~Q(withdrawal_reason="")),
                name="card_withdrawal_has_reason",
            ),
        ]

    def __str__(self):
        return f"{self.get_colour_display()}: {self.player}"

    @property
    def is_withdrawn(self):
        return self.withdrawn_at is not None

    @property
    def giver(self):
        """Who gave the card, as the pages show it: the account's name, else the name kept as text."""
        return _account_name(self.given_by) or self.given_by_name

    @property
    def withdrawer(self):
        """Who withdrew the card (empty while it counts)."""
        return _account_name(self.withdrawn_by) or self.withdrawn_by_name


def _account_name(user):
    return (user.get_full_name() or user.get_username()) if user is not None else ""


class TieDecision(models.Model):
    """The head referee's decision on a tie at a medal place (lot or play-off)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tie_decisions")
    order = models.JSONField(_("order"), help_text=_("Player ids, best first."))
    reason = models.TextField(_("reason"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("tie decision")
        verbose_name_plural = _("tie decisions")

    def __str__(self):
        return ", ".join(self.order)
