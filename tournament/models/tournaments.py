"""A tournament, its players' organisations and its players."""

import dataclasses
import uuid

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from engine import discipline, rules
from tournament import names
from tournament.models.hosts import HostOrganisation, listing_key, sole_host_organisation


def default_big_point_places():
    return [1, 0, 0, 0]


def default_public_language():
    """The site's language (settings.LANGUAGE_CODE: Polish)."""
    return settings.LANGUAGE_CODE


# The settings that decide scores (the engine's `rules.Settings`): a change to one rescores.
SCORING_FIELDS = tuple(field.name for field in dataclasses.fields(rules.Settings))


class Tournament(models.Model):
    class PenaltyMode(models.TextChoices):
        REPLACE = rules.REPLACE, _("replace: the penalty is the whole minus score")
        ADD = rules.ADD, _("add: the penalty is added to the rack count")

    class PoolScoring(models.TextChoices):
        SUM = rules.SUM, _("sum of the others' racks")
        DIFFERENCE = rules.DIFFERENCE, _("difference to the lowest rack")

    class BigPointUnit(models.TextChoices):
        GAME = rules.UNIT_GAME, _("per game")
        ROUND = rules.UNIT_ROUND, _("per round")

    class SeatingMethod(models.TextChoices):
        MIXED = "mixed", _("mixed: avoid repeat meetings")
        SWISS = "swiss", _("Swiss: by standings, leaders at table 1")
        MANUAL = "manual", _("manual")

    class Visibility(models.TextChoices):
        LIVE = "live", _("live: public standings follow verified sheets")
        FROZEN = "frozen", _("frozen: public standings stay as they were")
        HIDDEN = "hidden", _("hidden: no standings or scores in public")

    class FinalRelease(models.TextChoices):
        """How the final's results reach the public (SPEC §8, regulations §12.3)."""

        CEREMONY = "ceremony", _("hidden from the start of the final until the medal ceremony reveals them")
        LIVE = "live", _("live: public as soon as the final's score sheet is verified")

    host = models.ForeignKey(
        HostOrganisation, on_delete=models.PROTECT, related_name="tournaments", verbose_name=_("host organisation")
    )
    name = models.CharField(_("tournament name"), max_length=200)
    # Unique on the whole server, so within each organisation too: the public address /t/<slug>/,
    # printed on table cards and QR codes, names one tournament without its organisation's.
    slug = models.SlugField(_("short address"), max_length=80, unique=True)
    date = models.DateField(_("date"))

    joker_penalty = models.IntegerField(
        _("joker left on a rack"),
        default=50,
        validators=[MinValueValidator(0)],
        help_text=_("50 in the standard game, 30 in the Twist/Expert variant."),
    )
    opening_penalty_mode = models.CharField(
        _("opening penalty mode"), max_length=10, choices=PenaltyMode.choices, default=PenaltyMode.REPLACE
    )
    penalty_not_possible = models.IntegerField(
        _("could not lay out"),
        default=100,
        validators=[MinValueValidator(0)],
        help_text=_("Penalty when the player could not make the first laying out."),
    )
    penalty_possible_not_done = models.IntegerField(
        _("could lay out but did not"), default=200, validators=[MinValueValidator(0)]
    )
    penalty_drawn_last_round = models.IntegerField(
        _("needed tile drawn in the last round"),
        default=100,
        validators=[MinValueValidator(0)],
        help_text=_("The tile needed was drawn in the last round and the intention was declared."),
    )
    penalty_first_move = models.IntegerField(
        _("laid out in the first move, game ended in another's first move"),
        default=100,
        validators=[MinValueValidator(0)],
    )
    pool_exhausted_scoring = models.CharField(
        _("scoring when the pool runs out"), max_length=10, choices=PoolScoring.choices, default=PoolScoring.SUM
    )
    big_point_unit = models.CharField(
        _("big points awarded"), max_length=10, choices=BigPointUnit.choices, default=BigPointUnit.GAME
    )
    big_point_places = models.JSONField(
        _("big points by place"),
        default=default_big_point_places,
        help_text=_("Points for 1st, 2nd, 3rd and 4th place at the table, e.g. 1, 0, 0, 0 or 4, 3, 1, 0."),
    )
    players_per_organisation = models.PositiveSmallIntegerField(
        _("players per organisation"), default=1, validators=[MinValueValidator(1), MaxValueValidator(50)]
    )
    rounds_planned = models.PositiveSmallIntegerField(
        _("qualifying rounds"), default=5, validators=[MinValueValidator(1), MaxValueValidator(20)]
    )
    final = models.BooleanField(_("final table"), default=True, help_text=_("The top 4 play a final at one table."))
    final_games = models.PositiveSmallIntegerField(
        _("games in the final"), default=4, validators=[MinValueValidator(1), MaxValueValidator(12)]
    )
    move_seconds = models.PositiveSmallIntegerField(
        _("seconds per move"), default=40, validators=[MinValueValidator(5), MaxValueValidator(600)]
    )
    initial_meld = models.PositiveSmallIntegerField(_("initial meld threshold"), default=30)
    seating_method = models.CharField(
        _("seating after round 1"), max_length=10, choices=SeatingMethod.choices, default=SeatingMethod.MIXED
    )
    visibility = models.CharField(
        _("results visibility"), max_length=10, choices=Visibility.choices, default=Visibility.LIVE
    )
    auto_freeze = models.BooleanField(
        _("freeze results when the last round starts"),
        default=False,
        help_text=_("When the last qualifying round (or the final) starts, public results freeze."),
    )
    final_release = models.CharField(
        _("the final's results in public"),
        max_length=10,
        choices=FinalRelease.choices,
        default=FinalRelease.CEREMONY,
        help_text=_(
            "Hidden: when the final starts, the public results are hidden (regulations §12.3); the ceremony's "
            "last click, 1st place, makes them public. Live: phones and the projector show the final's order "
            "as soon as its sheet is verified, before the ceremony."
        ),
    )
    frozen_round = models.PositiveSmallIntegerField(
        _("public results as of round"),
        null=True,
        blank=True,
        help_text=_("In frozen mode the public sees results up to this round."),
    )
    ceremony_step = models.PositiveSmallIntegerField(_("ceremony places revealed"), default=0)
    # The hall's screens (projector, medal ceremony) speak the hall's language whatever their
    # browser is set to; phones keep their own language switch on the other public pages.
    public_language = models.CharField(
        _("language of the hall's screens"),
        max_length=8,
        choices=settings.LANGUAGES,
        default=default_public_language,
        help_text=_(
            "The projector and the medal ceremony always show this language, whatever the browser of the computer "
            "showing them is set to. Phones keep their own choice on the other public pages."
        ),
    )
    # Entries from the organisations (SPEC §11): open until this moment (None: closed), up to
    # `capacity` players (None: no limit); beyond it, confirmed entries wait on a waiting list.
    entries_until = models.DateTimeField(
        _("entries open until"),
        null=True,
        blank=True,
        help_text=_(
            "Organisations enter their players on the public entry page until this moment. Empty: entries are closed."
        ),
    )
    capacity = models.PositiveSmallIntegerField(
        _("capacity (players)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(1000)],
        help_text=_("Confirmed entries beyond this number of players wait on a waiting list. Empty: no limit."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The tournament's own identity, never reused (the slug may be, after a deletion): its
    # snapshots' folder (organiser/backups/files.py). A restore hands it on to the restored tournament.
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    # The name and short address folded for the lists' search (`listing_key`), kept by `save`.
    search_key = models.CharField(max_length=300, default="", editable=False)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        # The lists read one organisation's tournaments by date, or every one by date (a superuser's).
        indexes = [
            models.Index(fields=["host", "date"], name="tournament_host_date"),
            # A page of the lists (tournament/listing.py: upcoming by date, past by date descending,
            # then name) is the first rows of one of these, however many share a date.
            models.Index(fields=["date", "name", "id"], name="tournament_upcoming_order"),
            models.Index(fields=["-date", "name", "id"], name="tournament_past_order"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(players_per_organisation__gte=1), name="tournament_quota_positive"),
            models.CheckConstraint(condition=Q(rounds_planned__gte=1), name="tournament_rounds_positive"),
            models.CheckConstraint(condition=Q(joker_penalty__gte=0), name="tournament_joker_penalty_nonnegative"),
        ]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        """A tournament saved without its organisation goes to the server's only one (a laptop's)."""
        if self.host_id is None:
            self.host_id = sole_host_organisation()
        self.search_key = listing_key(self.name, self.slug)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = set(update_fields) | {"search_key"}
        super().save(*args, **kwargs)

    def rules_settings(self) -> rules.Settings:
        return rules.Settings(
            **{name: getattr(self, name) for name in SCORING_FIELDS}
            | {"big_point_places": tuple(self.big_point_places)}
        )


class Organisation(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="organisations")
    name = models.CharField(_("organisation"), max_length=200)

    class Meta:
        ordering = ["name"]
        verbose_name = _("organisation")
        verbose_name_plural = _("organisations")
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="organisation_unique_name")]

    def __str__(self):
        return self.name


class Player(models.Model):
    class Status(models.TextChoices):
        ACTIVE = discipline.ACTIVE, _("active")
        WITHDRAWN = discipline.WITHDRAWN, _("withdrawn")
        DISQUALIFIED = discipline.DISQUALIFIED, _("disqualified")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    organisation = models.ForeignKey(Organisation, on_delete=models.RESTRICT, related_name="players")
    surname = models.CharField(_("surname"), max_length=200)
    given_names = models.CharField(_("given names"), max_length=200, blank=True)
    # The whole name as it is read, "Anna Nowak": kept by `save` from the two parts (or split
    # into them when only it is given); what the JSON interchange, the standings and the
    # score sheets show.
    name = models.CharField(_("name"), max_length=200)
    start_number = models.PositiveIntegerField(_("start number"))
    ext_id = models.CharField(_("player id"), max_length=50, help_text=_("The id used in the JSON interchange file."))
    org_slot = models.PositiveSmallIntegerField(
        default=1, help_text=_("1…quota: backs the players-per-organisation limit in the database.")
    )
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.ACTIVE)
    present = models.BooleanField(_("checked in"), default=False)
    joins_from_round = models.PositiveSmallIntegerField(_("joins from round"), null=True, blank=True)
    # The person this player is, known to the host organisation across its tournaments.
    person = models.ForeignKey(
        "tournament.Person", on_delete=models.PROTECT, null=True, blank=True, related_name="players"
    )

    class Meta:
        ordering = ["start_number"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "start_number"], name="player_unique_start_number"),
            models.UniqueConstraint(fields=["tournament", "ext_id"], name="player_unique_ext_id"),
            models.UniqueConstraint(fields=["organisation", "org_slot"], name="player_one_per_org_slot"),
            models.UniqueConstraint(fields=["organisation", "name"], name="player_unique_name_in_org"),
            models.UniqueConstraint(fields=["tournament", "person"], name="player_one_per_person"),
            models.CheckConstraint(condition=Q(org_slot__gte=1), name="player_org_slot_positive"),
            models.CheckConstraint(condition=Q(status__in=list(discipline.STATUSES)), name="player_status_valid"),
            models.CheckConstraint(condition=~Q(surname=""), name="player_surname_not_empty"),
        ]

    def __str__(self):
        return self.name

    NAME_FIELDS = ("name", "given_names", "surname")

    @classmethod
    def from_db(cls, db, field_names, values):
        player = super().from_db(db, field_names, values)
        player._loaded_names = tuple(player.__dict__.get(field) for field in cls.NAME_FIELDS)
        return player

    def save(self, *args, **kwargs):
        """`name` follows the parts, which are saved with it. A player made with a `name`
        alone, or whose `name` alone was changed, gets it split ("Anna Nowak": Anna / Nowak)."""
        loaded = getattr(self, "_loaded_names", None)
        name_alone_changed = (
            loaded is not None and self.name != loaded[0] and (self.given_names, self.surname) == loaded[1:]
        )
        if not self.surname or name_alone_changed:
            self.given_names, self.surname = names.split_name(self.name, comma=False)
        self.name = names.full_name(self.given_names, self.surname)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and set(update_fields) & set(self.NAME_FIELDS):
            kwargs["update_fields"] = set(update_fields) | set(self.NAME_FIELDS)
        super().save(*args, **kwargs)
        self._loaded_names = (self.name, self.given_names, self.surname)

    @property
    def surname_first(self):
        """The name as the lists sorted by surname show it: "Nowak Anna"."""
        return names.surname_first(self.given_names, self.surname)

    @property
    def is_disqualified(self):
        return self.status == self.Status.DISQUALIFIED
