"""What the organiser's backups keep in the database, where every app server reaches it: each
tournament's automatic snapshots (`Snapshot`, the last failed one in `SnapshotFailure`) and the
backups uploaded for a restore between the preview and the confirmation (`StagedRestore`); and the
entries the organisations send on the public entry page (`Entry`, SPEC §11).

Rows in the database rather than files (or Django's storage API with S3 through django-storages):
the database is the one store every app server already shares, a snapshot row is written in the
same transaction as what it records, and no second service is needed (docs/venue/backups.md).
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Snapshot(models.Model):
    """One automatic snapshot: the tournament's JSON backup, gzip-compressed, as it was `taken_at`.

    It belongs to the tournament's identity (`tournament_uid`), not to its address or its row, so it
    outlives a deleted tournament (`set_aside_at` then hides it from every page) and a restore hands
    it on. `name` is also the name of its file copy on a laptop (`organiser.backups.files`)."""

    tournament_uid = models.UUIDField(db_index=True)
    slug = models.CharField(max_length=80)  # the tournament's address and name when it was taken
    tournament_name = models.CharField(max_length=200)
    host = models.ForeignKey(
        "tournament.HostOrganisation", null=True, on_delete=models.SET_NULL, related_name="snapshots"
    )
    taken_at = models.DateTimeField()
    trigger = models.CharField(max_length=40)
    name = models.CharField(max_length=80)
    content = models.BinaryField()
    size = models.PositiveIntegerField()
    digest = models.CharField(max_length=64)  # SHA-256 of `content`
    set_aside_at = models.DateTimeField(null=True, blank=True)  # when its tournament was deleted

    class Meta:
        ordering = ["-taken_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["tournament_uid", "name"], name="snapshot_name_once")]
        indexes = [models.Index(fields=["tournament_uid", "-taken_at"], name="snapshot_newest")]

    def __str__(self):
        return f"{self.slug} {self.name}"


class SnapshotFailure(models.Model):
    """The last snapshot of a tournament that failed, until one succeeds again."""

    tournament_uid = models.UUIDField(unique=True)
    failed_at = models.DateTimeField()
    trigger = models.CharField(max_length=40)
    error = models.TextField()


class StagedRestore(models.Model):
    """An uploaded (or chosen) backup between its preview and its restore, and the restore's progress.

    The confirmation moves it from `staged` to `applying` (a compare-and-set, so it is applied once
    whoever confirms it, on whichever server) and queues the restore; the task ends it `applied`
    (with the restored tournament) or `failed` (with the refusal)."""

    class Status(models.TextChoices):
        STAGED = "staged"
        APPLYING = "applying"
        APPLIED = "applied"
        FAILED = "failed"

    token = models.CharField(max_length=32, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    scope = models.CharField(max_length=36)  # the uid of the tournament it would replace, or "new"
    content = models.BinaryField()  # the backup's JSON text, UTF-8; emptied once restored
    size = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.STAGED)
    # Filled in by the confirmation: where it is restored, in which organisation, replacing what.
    slug = models.CharField(max_length=80, blank=True)
    host = models.ForeignKey("tournament.HostOrganisation", null=True, on_delete=models.SET_NULL, related_name="+")
    replaces = models.ForeignKey("tournament.Tournament", null=True, on_delete=models.SET_NULL, related_name="+")
    tournament = models.ForeignKey("tournament.Tournament", null=True, on_delete=models.SET_NULL, related_name="+")
    refusal = models.JSONField(null=True, blank=True)  # {"code", "params"} of a failed restore
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "created_at"], name="staged_restore_age")]

    def __str__(self):
        return f"{self.token[:8]} {self.status}"


def new_entry_token():
    return secrets.token_urlsafe(32)


class Entry(models.Model):
    """One organisation's entry of one player (SPEC §11), from the public entry page.

    It waits for its contact's confirmation (48 h), then is a player (`player`) or waits on the
    waiting list in order of `confirmed_at`. `token` is the entry's own link (in every e-mail):
    whoever has it sees the entry and may withdraw it. The contact's name, e-mail and phone are for
    the organisation's organisers only, and are blanked a set time after the tournament
    (`contact_deleted_at`)."""

    class State(models.TextChoices):
        PENDING = "pending", _("waiting for confirmation")
        PLAYER = "player", _("player")
        WAITING = "waiting", _("waiting list")
        WITHDRAWN = "withdrawn", _("withdrawn")
        EXPIRED = "expired", _("expired: not confirmed in time")
        REFUSED = "refused", _("refused")

    HOLDING = (State.PENDING, State.PLAYER, State.WAITING)  # states that take the organisation's place

    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE, related_name="entries")
    organisation = models.CharField(_("organisation"), max_length=200)
    organisation_key = models.CharField(max_length=400, db_index=True, editable=False)
    surname = models.CharField(_("surname"), max_length=200)
    given_names = models.CharField(_("given names"), max_length=200, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("year of birth"), null=True, blank=True)
    contact_name = models.CharField(_("contact person"), max_length=200, blank=True)
    contact_email = models.EmailField(_("contact e-mail"), max_length=254, blank=True)
    contact_phone = models.CharField(_("contact phone"), max_length=40, blank=True)
    contact_deleted_at = models.DateTimeField(null=True, blank=True)
    consent_text = models.TextField(_("consent"))
    consent_at = models.DateTimeField(_("consent given"))
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.PENDING)
    token = models.CharField(max_length=64, unique=True, default=new_entry_token, editable=False)
    # The entry form's one-time key: a second sending of the same form (a double tap) finds the entry.
    form_key = models.CharField(max_length=64)
    # The server's address as the entry reached it (PUBLIC_URL, else the request's): the links of its e-mails.
    site = models.CharField(max_length=200)
    client_key = models.CharField(max_length=64, db_index=True)  # a hash of the client's address (the hourly limit)
    created_at = models.DateTimeField(_("entered"), auto_now_add=True)
    confirm_by = models.DateTimeField()
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    player = models.ForeignKey(
        "tournament.Player", on_delete=models.SET_NULL, null=True, blank=True, related_name="entries"
    )
    reminded_at = models.DateTimeField(null=True, blank=True)
    results_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "form_key"], name="entry_one_per_form"),
            models.CheckConstraint(condition=~Q(surname=""), name="entry_surname_not_empty"),
            models.CheckConstraint(
                condition=~Q(state="player") | Q(confirmed_at__isnull=False), name="entry_player_confirmed"
            ),
        ]

    def __str__(self):
        return f"{self.organisation}: {self.given_names} {self.surname}"

    @property
    def surname_first(self):
        return " ".join(f"{self.surname} {self.given_names}".split())

    @property
    def name(self):
        return " ".join(f"{self.given_names} {self.surname}".split())
