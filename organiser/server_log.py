"""The server's error log, as the organiser's dashboard reports it (settings.ERROR_LOG, rotated)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.utils import timezone


@dataclass(frozen=True)
class LoggedError:
    """The newest error written to the log: when, and the file to send to whoever helps."""

    when: datetime.datetime
    path: Path


def last_logged_error() -> LoggedError | None:
    """The log's newest entry time, or None when no error has been logged."""
    path = Path(settings.ERROR_LOG)
    try:
        status = path.stat()
    except OSError:
        return None
    if status.st_size == 0:
        return None
    when = datetime.datetime.fromtimestamp(status.st_mtime, tz=datetime.UTC)
    return LoggedError(when=timezone.localtime(when), path=path)
