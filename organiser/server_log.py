"""The server's errors, as an organisation's dashboard reports them (tournament/server_errors.py).

An organiser sees the errors of their own organisation's pages and never another's; errors of no
organisation's page go to superusers only (the operator). On a laptop the notice also names the
rotating log file (settings.ERROR_LOG) with the tracebacks; a hosted service has none.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from tournament.models import ServerError, Tournament

SHOWN = 5


@dataclass(frozen=True)
class LoggedErrors:
    """The newest errors (time, method, path), newest first, and the log file (None when hosted)."""

    errors: list[ServerError]
    path: Path | None

    @property
    def when(self) -> datetime.datetime:
        return timezone.localtime(max(error.when for error in self.errors))


def errors_seen_by(tournament: Tournament, user: Any) -> LoggedErrors | None:
    """The newest errors of `tournament`'s organisation (with no organisation's for a superuser),
    those of its staff's requests first (anonymous requests cannot crowd them out), or None when
    there are none. The page shows each path escaped and cut to 120 characters."""
    own = Q(host_id=tournament.host_id)
    if user.is_superuser:
        own |= Q(host__isnull=True)
    found = ServerError.objects.filter(own).only("when", "method", "path", "signed_in")
    errors = list(found.order_by("-signed_in", "-when", "-pk")[:SHOWN])
    if not errors:
        return None
    log_file = getattr(settings, "ERROR_LOG", None)
    return LoggedErrors(errors=errors, path=Path(log_file) if log_file else None)
