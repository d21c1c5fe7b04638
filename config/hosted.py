"""A hosted service (HOSTED=1): what it refuses to start without, and how it logs.

Several app servers behind a proxy share one PostgreSQL database, one Redis cache and one
secret key, so nothing they must agree on may come from a server's own disk. The settings call
`missing_for_hosting` and refuse to start (one line, naming what is missing) unless SECRET_KEY,
a PostgreSQL DATABASE_URL and a REDIS_URL are set; only the addresses' schemes are checked,
nothing is connected to. Logs go to standard output one line per event (`OneLineJsonFormatter`:
a traceback is folded into its line), for whatever collects the servers' output; SENTRY_DSN
sends errors to Sentry too (`start_sentry`).
"""

from __future__ import annotations

import datetime
import json
import logging
from urllib.parse import urlsplit

POSTGRESQL_SCHEMES = {"postgres", "postgresql", "pgsql", "postgis"}
REDIS_SCHEMES = {"redis", "rediss", "unix"}


def scheme_of(url: str) -> str:
    return urlsplit(url.strip()).scheme.lower() if url.strip() else ""


def missing_for_hosting(environ: dict[str, str]) -> list[str]:
    """What a hosted start lacks, as the operator would set it; empty when all is there."""
    missing = []
    if not environ.get("SECRET_KEY", "").strip():
        missing.append("SECRET_KEY")
    if scheme_of(environ.get("DATABASE_URL", "")) not in POSTGRESQL_SCHEMES:
        missing.append("DATABASE_URL (postgres://…)")
    if scheme_of(environ.get("REDIS_URL", "")) not in REDIS_SCHEMES:
        missing.append("REDIS_URL (redis://…)")
    return missing


def refusal(missing: list[str]) -> str:
    return f"A hosted service (HOSTED=1) needs these settings in the environment: {', '.join(missing)}."


class OneLineJsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, and the traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        event = {
            "time": datetime.datetime.fromtimestamp(record.created, tz=datetime.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            event["traceback"] = self.formatException(record.exc_info)
        elif record.exc_text:
            event["traceback"] = record.exc_text
        return json.dumps(event, ensure_ascii=False)


def start_sentry(dsn: str) -> None:
    """Errors to Sentry as well, without the users' personal data (names, addresses, cookies)."""
    import sentry_sdk
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(dsn=dsn, integrations=[DjangoIntegration()], send_default_pii=False)
