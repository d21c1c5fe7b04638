"""Every staff form is safe to send twice: a one-time submission token (issue 28).

A double tap, a retry after a timeout or a form sent again from the browser's history sends the
same form twice. Each POST form of the staff pages carries `{% submission_token %}` beside
`{% csrf_token %}`: a hidden field with a random token made when the page was rendered.
`SubmissionMiddleware` runs the view of a POST carrying one in a single transaction that first
inserts the token (`SubmissionToken`, unique) and, before committing, records where the answer
redirected. The change the view makes and the token commit together or not at all:

- a second arrival after the first committed finds the token: the view does not run, and the
  answer is a redirect to the first one's result (or, when the first answer was no redirect,
  back to the page the form was on) with the message that this was already done;
- a second arrival while the first is still running waits for it (PostgreSQL: the insert
  waits on the unique index; SQLite: its write lock, `BEGIN IMMEDIATE`), then is answered as
  above; if the first failed (an exception, a 5xx) nothing of it stays, the token included,
  and the second runs as if it were the first.

A token is issued to one user: it carries a signature of its random part and the user's id
(`new_token`). Sent by another user (a shared tablet's browser history), it is refused before
the view runs and written nowhere, so it neither runs that user's form nor uses up the owner's.
An answer that changed nothing in the database and redirected nowhere (a form shown again with
its errors, a refusal) gives its token back: the same form, corrected, may be sent with it.

A POST without a well-formed token (a test's, a script's, the sheet's saves guarded by the
sheet's version compare-and-swap, the sign-in forms) runs as before; so does one from a
signed-out visitor or to a view that checks its own CSRF token after reading the request's size
(`csrf_exempt`: its body is not read here). Tokens are kept a day (`KEEP`), pruned at most every
`PRUNE_EVERY`.
"""

from __future__ import annotations

import base64
import datetime
import logging
import re
import secrets
import time
from urllib.parse import urlsplit

from django.contrib import messages
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect

from tournament.models import SubmissionToken
from tournament.navigation import htmx_page, return_path

FIELD = "submission"  # the hidden field's name; no form of the app has a field of that name
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{20,64}")  # whole value only (fullmatch): "$" would let a final newline in
NONCE_LENGTH = 32  # characters of the random part (24 bytes, URL-safe base64); the signature follows
SIGNATURE_LENGTH = 22  # characters (16 bytes of the HMAC, URL-safe base64 without padding)
KEEP = datetime.timedelta(days=1)
PRUNE_EVERY = 600  # seconds, per process
REDIRECTS = {301, 302, 303, 307, 308}

logger = logging.getLogger(__name__)
_last_prune: float | None = None  # time.monotonic() of this process's last prune


def _signature(nonce: str, user) -> str:
    digest = salted_hmac("tournament.submissions", f"{user.pk}:{nonce}", algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest[:16]).decode("ascii").rstrip("=")


def new_token(user) -> str:
    """A new token for a form rendered for `user`: a random part and its signature for that user."""
    nonce = secrets.token_urlsafe(24)
    return nonce + _signature(nonce, user)


def issued_to(token: str, user) -> bool:
    """Whether `token` was made for `user` (by `new_token`)."""
    nonce, signature = token[:NONCE_LENGTH], token[NONCE_LENGTH:]
    return len(signature) == SIGNATURE_LENGTH and constant_time_compare(signature, _signature(nonce, user))


def posted_token(request: HttpRequest) -> str | None:
    """The token of a POST a signed-in user sent, or None (then the POST runs unguarded)."""
    if request.method != "POST" or not request.user.is_authenticated:
        return None
    value = request.POST.get(FIELD, "")
    return value if TOKEN_RE.fullmatch(value) else None


def redirect_location(response: HttpResponse) -> str:
    """Where an answer sends the browser: a redirect's Location or htmx's client-side redirect."""
    if response.status_code in REDIRECTS:
        return response.get("Location", "")
    return response.get("HX-Redirect", "") or response.get("HX-Location", "")


def page_of_the_form(request: HttpRequest) -> str:
    """The page the form was sent from (htmx says so; else the Referer on this site), else the staff home."""
    home = reverse("accounts:home")
    current = htmx_page(request, "")
    if current:
        return current
    try:
        referer = urlsplit(request.META.get("HTTP_REFERER", ""))
    except ValueError:  # not an address ("http://[x")
        return home
    if referer.netloc != request.get_host():
        return home
    path = referer.path + (f"?{referer.query}" if referer.query else "")
    return return_path(request, path, home)


def already_done(request: HttpRequest, first: SubmissionToken | None) -> HttpResponse:
    """The answer to a second arrival: the first one's result (or the form's page), and why."""
    location = first.location if first is not None and first.user_id == request.user.pk else ""
    if location:
        messages.warning(request, _("This form had already been sent: it was done once. Here is the result."))
    else:
        messages.warning(
            request, _("This form had already been sent and was not done again. Here is the page as it is now.")
        )
    return back_to(request, location or page_of_the_form(request))


def not_yours(request: HttpRequest) -> HttpResponse:
    """The answer to a token made for another user: nothing done, nothing written, and why."""
    messages.warning(
        request,
        _(
            "This form was opened by another signed-in person and was not sent. "
            "Here is the page: fill the form in again."
        ),
    )
    return back_to(request, page_of_the_form(request))


def back_to(request: HttpRequest, target: str) -> HttpResponse:
    if getattr(request, "htmx", None):
        return HttpResponseClientRedirect(target)
    return HttpResponseRedirect(target)


class WriteWatch:
    """A database execute wrapper noting whether a statement that changes data ran."""

    CHANGES = ("INSERT", "UPDATE", "DELETE", "REPLACE", "MERGE")

    def __init__(self):
        self.changed = False

    def __call__(self, execute, sql, params, many, context):
        if not self.changed and str(sql).lstrip()[:7].upper().startswith(self.CHANGES):
            self.changed = True
        return execute(sql, params, many, context)


def run_once(request: HttpRequest, token: str, view, args, kwargs) -> HttpResponse:
    """Run `view` in one transaction with the token's row; a token already there runs nothing."""
    with transaction.atomic():
        try:
            with transaction.atomic():
                SubmissionToken.objects.create(token=token, user=request.user)
        except IntegrityError:
            return already_done(request, SubmissionToken.objects.filter(token=token).first())
        watch = WriteWatch()
        with connection.execute_wrapper(watch):
            response = view(request, *args, **kwargs)
        if response.status_code >= 500:
            transaction.set_rollback(True)  # nothing of a failed answer stays, the token included
            return response
        location = redirect_location(response)
        if location:
            SubmissionToken.objects.filter(token=token).update(location=location)
        elif not watch.changed:  # refused or shown again with errors: the token stays usable
            SubmissionToken.objects.filter(token=token).delete()
        return response


def prune(now: datetime.datetime | None = None) -> int:
    """Delete the tokens older than `KEEP`; returns how many."""
    cutoff = (now or timezone.now()) - KEEP
    deleted, _by_model = SubmissionToken.objects.filter(created_at__lt=cutoff).delete()
    return deleted


def prune_now_and_then() -> None:
    global _last_prune
    if _last_prune is not None and time.monotonic() - _last_prune < PRUNE_EVERY:
        return
    _last_prune = time.monotonic()
    try:
        prune()
    except DatabaseError:  # a busy database: the next turn prunes them
        logger.warning("Old submission tokens were not pruned", exc_info=True)


class SubmissionMiddleware:
    """Runs a POST that carries a submission token once (see the module's docstring).

    After the CSRF check (a refused request never reaches `process_view`), sessions, users and
    messages (the second arrival is told what happened).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        if request.method != "POST" or getattr(view, "csrf_exempt", False):
            return None
        token = posted_token(request)
        if token is None:
            return None
        if not issued_to(token, request.user):
            return not_yours(request)
        try:
            return run_once(request, token, view, args, kwargs)
        finally:
            prune_now_and_then()
