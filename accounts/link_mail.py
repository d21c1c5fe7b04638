"""A one-time link sent by e-mail (issue 47): an invitation into a team, or a new organiser's
link to set a password. The page that shows the link once offers "send by e-mail" beside it; the
message goes through the outbox (`tournament.services.mail`), audited. Only a link the server
made and that still works is sent: never any text a form carries."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.urls import Resolver404, resolve
from django.utils import timezone
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode
from django.utils.translation import gettext as _

from accounts.selectors import hosts_to_offer, invitation_by_token
from tournament.audit import log_change
from tournament.refusals import Refused
from tournament.services.mail import mail_configured, queue_mail


def mail_invitation(host: Any, *, token: str, link: str, to: str, user: Any) -> None:
    """Write the invitation's link (of `token`, one of `host`'s, still usable) to the outbox for `to`."""
    invitation = invitation_by_token(token)
    if invitation is None or invitation.host_id != host.pk or not invitation.is_usable(timezone.now()):
        raise Refused("invitation_unusable")
    with transaction.atomic():
        queue_mail(
            to=to,
            kind="invitation",
            template="invitation",
            context={
                "host": host,
                "link": link,
                "role": invitation.get_role_display(),
                "tournament": invitation.tournament,
            },
            language=settings.LANGUAGE_CODE,
            host=host,
        )
        log_change(None, user, "invitation_mailed", after={"invitation": invitation.pk}, host=host)


def set_password_user(path: str) -> Any:
    """The user of a set-password link's path while the link works, else None."""
    try:
        match = resolve(path)
    except Resolver404:
        return None
    if match.view_name != "accounts:set_password":
        return None
    try:
        pk = force_str(urlsafe_base64_decode(match.kwargs["uidb64"]))
        user = get_user_model().objects.filter(pk=pk).first()
    except (ValueError, TypeError, OverflowError):
        return None
    if user is None or not default_token_generator.check_token(user, match.kwargs["token"]):
        return None
    return user


def mail_set_password(*, path: str, link: str, to: str, user: Any) -> None:
    """Write a new organiser's set-password link (of `path`, still working) to the outbox for `to`."""
    organiser = set_password_user(path)
    hosts = hosts_to_offer(organiser) if organiser is not None else []
    if organiser is None or not hosts:
        raise Refused("invitation_unusable")
    host = hosts[0]
    with transaction.atomic():
        queue_mail(
            to=to,
            kind="set_password",
            template="set_password",
            context={"link": link, "host": host, "username": organiser.get_username()},
            language=settings.LANGUAGE_CODE,
            host=host,
        )
        log_change(None, user, "set_password_mailed", after={"user": organiser.get_username()}, host=host)


def mail_queued_message(address: str) -> str:
    """What the page says once the message is in the outbox."""
    if mail_configured():
        return _("The link is on its way to %(address)s.") % {"address": address}
    return _(
        "The message to %(address)s waits in the outbox: no mail server is set up (EMAIL_HOST). Copy the link instead."
    ) % {"address": address}
