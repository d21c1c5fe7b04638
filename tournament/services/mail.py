"""The outbox (SPEC §11): e-mail written with the change that causes it, sent by the task worker.

`queue_mail` writes an `OutgoingMail` row in the caller's transaction and, when a mail server is
set up (`settings.EMAIL_HOST`), queues the task `send_outgoing` in the same transaction: both commit
or neither does. Without a mail server the row waits (the organiser's pages say so and show the
links to pass on by hand); the worker's round (`send_overdue`) queues it once one is set up.

Sent once, as a recipient sees it:
- the message, its text, HTML and `Message-ID`, is made once, when the row is written; every
  attempt sends exactly those bytes;
- a run claims the row with a compare-and-set (queued → sending, with the run's task id) in its own
  short transaction, talks to the mail server, and marks the row sent in one UPDATE right after the
  server's "250 accepted". A second run (a duplicate task) finds the row claimed or sent and
  does nothing;
- a worker killed before the server accepted the message leaves the row claimed by its task; the
  worker that takes the abandoned task over (`manage.py run_tasks`) carries the same task id, takes
  the row back and sends it: the server has no copy, so the recipient gets one. Killed in the
  milliseconds between the server's acceptance and the UPDATE, the resend carries the same
  Message-ID, which mail programs show once.
A refusal or an absent server puts the row back in the queue with a backoff (1, 2, 4 … minutes,
at most an hour) for MAX_ATTEMPTS tries; then it is marked failed and the organiser sees it.
"""

from __future__ import annotations

import datetime
import logging
import smtplib
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django_tasks import TaskContext, task

from tournament.models import HostOrganisation, OutgoingMail, Tournament

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 15
BACKOFF_CAP = datetime.timedelta(hours=1)
OVERDUE = datetime.timedelta(minutes=2)  # a row this late has lost its task (or waited for a server)


def mail_configured() -> bool:
    """Whether a mail server is set up (EMAIL_HOST): without it the outbox only waits."""
    return bool(getattr(settings, "EMAIL_HOST", ""))


def backoff(attempts: int) -> datetime.timedelta:
    """The wait after the `attempts`-th failed try: 1, 2, 4 … minutes, at most an hour."""
    return min(datetime.timedelta(minutes=2 ** max(0, attempts - 1)), BACKOFF_CAP)


def render_mail(template: str, context: dict[str, Any], language: str) -> tuple[str, str, str]:
    """(subject, text, HTML) of `templates/mail/<template>.{txt,html}` in `language`; the text
    template's first line is the subject."""
    with translation.override(language):
        text = render_to_string(f"mail/{template}.txt", context).strip()
        html = render_to_string(f"mail/{template}.html", context).strip()
    subject, _blank, body = text.partition("\n")
    return " ".join(subject.split()), body.strip() + "\n", html


def queue_mail(
    *,
    to: str,
    kind: str,
    template: str,
    context: dict[str, Any],
    language: str,
    tournament: Tournament | None = None,
    host: HostOrganisation | None = None,
) -> OutgoingMail:
    """Write one message to the outbox in the caller's transaction and queue its sending."""
    subject, text, html = render_mail(template, context, language)
    with transaction.atomic():
        mail = OutgoingMail.objects.create(
            tournament=tournament, host=host, kind=kind, to=to, subject=subject[:300], text=text, html=html
        )
        if mail_configured():
            send_outgoing.enqueue(mail.pk)
    return mail


@task(takes_context=True)
def send_outgoing(context: TaskContext, mail_id: int) -> str:
    """The task: send one message of the outbox (see the module's docstring)."""
    return deliver(mail_id, claim=str(context.task_result.id))


def _claim(mail_id: int, claim: str) -> bool:
    mine = Q(state=OutgoingMail.State.QUEUED) | Q(state=OutgoingMail.State.SENDING, claim=claim)
    return bool(
        OutgoingMail.objects.filter(mine, pk=mail_id).update(
            state=OutgoingMail.State.SENDING, claim=claim, attempts=F("attempts") + 1
        )
    )


def _message(mail: OutgoingMail) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        subject=mail.subject,
        body=mail.text,
        to=[mail.to],
        headers={"Message-ID": mail.message_id},
        connection=get_connection(fail_silently=False),
    )
    if mail.html:
        message.attach_alternative(mail.html, "text/html")
    return message


def deliver(mail_id: int, *, claim: str) -> str:
    """Claim the message, send it, mark it sent; a refusal puts it back with a backoff. Returns
    what happened ("sent", "retry", "failed", "waiting", "taken")."""
    if not _claim(mail_id, claim):
        return "taken"  # sent already, or another run has it
    mail = OutgoingMail.objects.get(pk=mail_id)
    if not mail_configured():
        OutgoingMail.objects.filter(pk=mail_id, claim=claim).update(state=OutgoingMail.State.QUEUED, claim="")
        return "waiting"
    try:
        _message(mail).send()
    except (smtplib.SMTPException, OSError) as error:
        return _failed(mail, claim, error)
    OutgoingMail.objects.filter(pk=mail_id, claim=claim).update(
        state=OutgoingMail.State.SENT, sent_at=timezone.now(), last_error=""
    )
    return "sent"


def _failed(mail: OutgoingMail, claim: str, error: Exception) -> str:
    log.warning("mail %s to the mail server failed (attempt %s): %s", mail.pk, mail.attempts, error)
    text = f"{type(error).__name__}: {error}"[:1000]
    with transaction.atomic():
        if mail.attempts >= MAX_ATTEMPTS:
            OutgoingMail.objects.filter(pk=mail.pk, claim=claim).update(
                state=OutgoingMail.State.FAILED, last_error=text
            )
            return "failed"
        retry_at = timezone.now() + backoff(mail.attempts)
        OutgoingMail.objects.filter(pk=mail.pk, claim=claim).update(
            state=OutgoingMail.State.QUEUED, claim="", last_error=text, next_attempt_at=retry_at
        )
        send_outgoing.using(run_after=retry_at).enqueue(mail.pk)
    return "retry"


def send_overdue(now: datetime.datetime | None = None) -> int:
    """Queue the messages waiting longer than they should (written before a mail server was set
    up, or whose task was lost); returns how many. Run by the worker's round."""
    if not mail_configured():
        return 0
    late = (now or timezone.now()) - OVERDUE
    ids = list(
        OutgoingMail.objects.filter(state=OutgoingMail.State.QUEUED, next_attempt_at__lte=late).values_list(
            "pk", flat=True
        )
    )
    with transaction.atomic():
        for pk in ids:
            OutgoingMail.objects.filter(pk=pk).update(next_attempt_at=timezone.now())
            send_outgoing.enqueue(pk)
    return len(ids)
