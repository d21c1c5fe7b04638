"""What staff forms and results leave behind: the one-time tokens that make a form safe to send
twice, and the audit log; and the server's errors, for the dashboards."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models.hosts import HostOrganisation
from tournament.models.tournaments import Tournament


class SubmissionToken(models.Model):
    """One sending of a staff form: its one-time token, who sent it and where the answer led.

    The row is written in the transaction of the form's change (`tournament.submissions`), so a
    second arrival of the same token finds it and changes nothing. Pruned after a day.
    """

    token = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    location = models.TextField(blank=True)  # where the first answer redirected ("" if it did not)

    def __str__(self):
        return f"{self.token[:8]}… {self.location}"


class AuditEntry(models.Model):
    """Who changed what result, when, from what to what, and why (written by `tournament.audit`).

    The table keeps the name it was made with (`scoring_auditentry`), when the log lived in scoring.
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="audit_entries"
    )
    # An organisation's own entries (its team, its invitations) name its host and no tournament.
    host = models.ForeignKey(
        HostOrganisation,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="audit_entries",
        verbose_name=_("host organisation"),
    )
    sheet = models.ForeignKey(
        "scoring.ScoreSheet", on_delete=models.CASCADE, null=True, blank=True, related_name="audit_entries"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    user_name = models.CharField(
        _("user name"),
        max_length=150,
        blank=True,
        help_text=_("The user's name when the change was made; kept when the account is gone or the log was restored."),
    )
    created_at = models.DateTimeField(_("when"), auto_now_add=True)
    action = models.CharField(_("action"), max_length=40)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    from_file = models.BooleanField(
        _("from a restored file"),
        default=False,
        help_text=_("Restored from a backup or an imported file: who and when are what the file says, not checked."),
    )

    class Meta:
        db_table = "scoring_auditentry"
        ordering = ["-created_at", "-pk"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        indexes = [models.Index(fields=["tournament", "created_at"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(tournament__isnull=False) | models.Q(host__isnull=False),
                name="audit_entry_names_its_place",
            )
        ]

    def __str__(self):
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action}"

    @property
    def who(self):
        """The user name of whoever made the change, or None when unknown."""
        return self.user_name or (self.user.get_username() if self.user else None)


class ServerError(models.Model):
    """A request that ended in an unhandled exception (written by `tournament.server_errors`).

    In the database, not a server's file, so that every app server's errors reach the dashboard
    of the organisation they happened to, and no other's. Errors of no organisation's page have
    no host: the operator (a superuser) sees them. A bounded number is kept per organisation.
    """

    when = models.DateTimeField(default=timezone.now)
    host = models.ForeignKey(HostOrganisation, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    tournament = models.ForeignKey(Tournament, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    method = models.CharField(max_length=10)
    path = models.TextField()
    exception = models.CharField(max_length=200)  # the exception's class
    message = models.TextField(blank=True)
    traceback = models.TextField(blank=True)
    signed_in = models.BooleanField(default=False)  # a staff member's request, kept apart from anonymous ones

    class Meta:
        ordering = ["-when", "-pk"]
        indexes = [models.Index(fields=["host", "-when"])]

    def __str__(self):
        return f"{self.when:%Y-%m-%d %H:%M} {self.method} {self.path}: {self.exception}"
