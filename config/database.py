"""The database as a service meets it: bounded statements and the errors that mean "away".

A statement on PostgreSQL runs at most STATEMENT_TIMEOUT seconds (settings; the worker and the
release step have WORKER_STATEMENT_TIMEOUT): libpq's `options` sets `statement_timeout` on each
new connection. A request whose statement was cancelled, or whose database cannot be reached
(restarting, stopped), answers the app's 503 page (config/errors.py) rather than a 500.
"""

from __future__ import annotations


def statement_timeout_option(seconds: float) -> str:
    """libpq's `options` for a statement bound of `seconds` (0: none)."""
    return f"-c statement_timeout={round(seconds * 1000)}"


def use_statement_timeout(seconds: float) -> None:
    """From now on this process's connections have this bound (the worker, the release step):
    the open ones are closed, the next ones are made with it. Nothing on SQLite."""
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        connection.close()
    settings_dict = connections["default"].settings_dict
    if settings_dict["ENGINE"] == "django.db.backends.postgresql":
        settings_dict.setdefault("OPTIONS", {})["options"] = statement_timeout_option(seconds)


def database_unavailable(error: BaseException | None) -> bool:
    """Whether `error` says the database is away or too slow, not that the app is wrong: a refused
    or cut connection, a restart, a cancelled statement (Django's OperationalError and
    InterfaceError wrap them all). SQLite reports a missing table or column as an OperationalError
    too: that is the app's fault (a 500), not an outage."""
    from django.db import InterfaceError, OperationalError

    if isinstance(error, OperationalError) and str(error).startswith(SQLITE_SCHEMA_ERRORS):
        return False
    return isinstance(error, (OperationalError, InterfaceError))


SQLITE_SCHEMA_ERRORS = ("no such table", "no such column")
