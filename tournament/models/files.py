"""Files made by a task rather than inside a request: a round's batch PDFs and the results-site zip.

A `ProducedFile` is asked for, queued as a task in the same transaction, made by a worker (which
reports its progress as it goes) and kept in the database, so that every app server can serve it.
Finished files are caches: the same request for unchanged data (the same `content_key`) is
answered with the finished file, and only the newest few of a tournament's kind are kept.
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models.tournaments import Tournament


class ProducedFile(models.Model):
    class Kind(models.TextChoices):
        SEATING_BY_TABLE = "seating_by_table", _("Seating by table")
        SEATING_ALPHABETICAL = "seating_alphabetical", _("Where do I sit (A–Ż)")
        SCORE_SHEETS = "score_sheets", _("Score sheets")
        TABLE_CARDS = "table_cards", _("Table cards")
        RESULTS_SITE = "results_site", _("Results website (ZIP)")

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    UNFINISHED = (Status.QUEUED, Status.RUNNING)

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="produced_files")
    kind = models.CharField(max_length=32, choices=Kind.choices)
    # What was asked, as a hash: the kind, its arguments, the language and the tournament's data version.
    content_key = models.CharField(max_length=64)
    arguments = models.JSONField(default=dict)  # what the task needs: the round, the venue address, the language
    source_path = models.CharField(max_length=500)  # the download address that asked for it ("try again")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    content = models.BinaryField(null=True, blank=True)
    file_name = models.CharField(max_length=200)
    content_type = models.CharField(max_length=100)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)  # the last sign of life: queued, started, progress, end
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("produced file")
        verbose_name_plural = _("produced files")
        indexes = [models.Index(fields=["tournament", "content_key", "status"], name="produced_file_lookup")]
        constraints = [
            # A double tap or two servers at once ask for one file, not two.
            models.UniqueConstraint(
                fields=["tournament", "content_key"],
                condition=Q(status__in=["queued", "running"]),
                name="one_unfinished_produced_file",
            ),
            models.CheckConstraint(condition=Q(done__lte=models.F("total")), name="produced_file_done_within_total"),
        ]

    def __str__(self):
        return f"{self.file_name} ({self.status})"

    @property
    def finished(self):
        return self.status in (self.Status.DONE, self.Status.FAILED)
