"""What the organiser's backups keep in the database, where every app server reaches it: each
tournament's automatic snapshots (`Snapshot`, the last failed one in `SnapshotFailure`) and the
backups uploaded for a restore between the preview and the confirmation (`StagedRestore`).

Rows in the database rather than files (or Django's storage API with S3 through django-storages):
the database is the one store every app server already shares, a snapshot row is written in the
same transaction as what it records, and no second service is needed (docs/venue/backups.md).
"""

from django.conf import settings
from django.db import models


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
