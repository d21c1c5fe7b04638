"""Every unhandled exception of a request, kept as a `ServerError` row for the dashboards.

`ServerErrorHandler` is a logging handler on `django.request` at ERROR (settings.LOGGING), on a
laptop and on a hosted service alike. The tournament is the one the URL's `slug` names; its
organisation owns the error. Recording never raises and never writes into a broken transaction:
it writes in its own savepoint or transaction, and when that fails (the request's database
connection is gone or its transaction aborted) it only logs why. Only a real server error (a 5xx
answer) is kept: a request the app answered as it should (400, 404) is not one. At most KEPT rows
per organisation and source are kept (and KEPT with no organisation): the errors of signed-in
requests and those of anonymous ones each have their own KEPT, so that a flood of anonymous
requests cannot push out the errors its staff met. Older ones are deleted at each write.
"""

from __future__ import annotations

import logging
import traceback
from typing import Any

from django.db import DatabaseError, connection, transaction
from django.http import HttpRequest

KEPT = 50
PATH_KEPT = 2000
MESSAGE_KEPT = 2000
log = logging.getLogger(__name__)


class ServerErrorHandler(logging.Handler):
    """Record a request's unhandled exception (a record with a request and exc_info)."""

    def emit(self, record: logging.LogRecord) -> None:
        request = getattr(record, "request", None)
        if not isinstance(request, HttpRequest) or not record.exc_info or record.exc_info[1] is None:
            return
        if getattr(record, "status_code", 500) < 500:  # answered as it should: not a server error
            return
        try:
            record_error(request, record.exc_info[1])
        except Exception as error:  # a recording's failure must never become the request's
            log.warning("The server error of %s was not recorded: %r", request.path, error)


def record_error(request: HttpRequest, error: BaseException) -> None:
    from tournament.models import ServerError
    from tournament.selectors import tournament_and_host_ids

    if connection.in_atomic_block and connection.needs_rollback:
        log.warning("The server error of %s was not recorded: its transaction is broken.", request.path)
        return
    slug = _url_slug(request)
    user = getattr(request, "user", None)
    signed_in = bool(user is not None and user.is_authenticated)
    tournament_id, host_id = (tournament_and_host_ids(slug) if slug else None) or (None, None)
    try:
        with transaction.atomic():
            ServerError.objects.create(
                host_id=host_id,
                tournament_id=tournament_id,
                method=request.method or "",
                path=request.get_full_path()[:PATH_KEPT],
                exception=f"{type(error).__module__}.{type(error).__qualname__}"[:200],
                message=str(error)[:MESSAGE_KEPT],
                traceback="".join(traceback.format_exception(error)),
                signed_in=signed_in,
            )
            _prune(ServerError, host_id, signed_in)
    except DatabaseError as failure:
        log.warning("The server error of %s was not recorded: %r", request.path, failure)


def _url_slug(request: HttpRequest) -> str | None:
    match = getattr(request, "resolver_match", None)
    slug: Any = match.kwargs.get("slug") if match is not None else None
    return slug if isinstance(slug, str) else None


def _prune(model: Any, host_id: int | None, signed_in: bool) -> None:
    """Delete the organisation's rows of one source (signed in or not) beyond the KEPT newest."""
    rows = model.objects.filter(host_id=host_id, signed_in=signed_in)
    kept = list(rows.order_by("-when", "-pk").values_list("pk", flat=True)[:KEPT])
    rows.exclude(pk__in=kept).delete()
