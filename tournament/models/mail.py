"""The outbox: every e-mail the app sends is first a row here, written in the transaction of the
change that causes it, then sent by the task worker (`tournament.services.mail`)."""

import uuid

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models.hosts import HostOrganisation
from tournament.models.tournaments import Tournament


def new_message_id():
    """A Message-ID fixed when the message is written: every attempt to send it carries the same one."""
    return f"<{uuid.uuid4().hex}@rummikub-tournament>"


class OutgoingMail(models.Model):
    """One e-mail to one address: its text and HTML are made when it is written (in the
    tournament's public language), so sending it later or again sends the same message."""

    class State(models.TextChoices):
        QUEUED = "queued", _("waiting to be sent")
        SENDING = "sending", _("being sent")
        SENT = "sent", _("sent")
        FAILED = "failed", _("not sent: the mail server kept refusing it")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    host = models.ForeignKey(HostOrganisation, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    kind = models.CharField(max_length=40)
    to = models.EmailField(max_length=254)
    subject = models.CharField(max_length=300)
    text = models.TextField()
    html = models.TextField(blank=True)
    message_id = models.CharField(max_length=100, unique=True, default=new_message_id, editable=False)
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    # Who is sending it now: the id of the task run that claimed it (a run after its worker died
    # carries the same id and takes it over).
    claim = models.CharField(max_length=64, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["state", "next_attempt_at"])]
        constraints = [
            models.CheckConstraint(
                condition=~Q(state="sent") | Q(sent_at__isnull=False), name="outgoing_mail_sent_has_time"
            )
        ]

    def __str__(self):
        return f"{self.kind} → {self.to} ({self.state})"
