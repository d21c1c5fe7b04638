"""The server's error log moved to a test's own file (settings.LOGGING writes ERROR_LOG)."""

from __future__ import annotations

import contextlib
import logging
from logging.handlers import RotatingFileHandler
from pathlib import Path


@contextlib.contextmanager
def error_log_at(path: Path):
    """Errors logged meanwhile (by the test, its live server's thread) go to `path`, not to the
    file named when logging was configured; the handler goes back to that file afterwards."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handlers = [h for h in logging.getLogger().handlers if isinstance(h, RotatingFileHandler)]
    before = [_point(handler, str(path)) for handler in handlers]
    try:
        yield path
    finally:
        for handler, name in zip(handlers, before):
            _point(handler, name)


def _point(handler: RotatingFileHandler, name: str) -> str:
    """Close the handler's open file and name the next one (opened on the next record)."""
    with handler.lock:
        previous = handler.baseFilename
        if handler.stream:
            handler.stream.close()
            handler.stream = None
        handler.baseFilename = name
    return previous
