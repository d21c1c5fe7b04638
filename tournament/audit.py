"""The audit log (SPEC §6): every change to a result or to the tournament's day says who, when,
before, after and why, whichever app makes it (referees' sheets, the organiser's actions, tablet
sign-in links). Every service that changes something calls `log_change` in its transaction.

The entries are `tournament.AuditEntry` rows, in this lowest app, so every app above can write
to the one log.
"""

from __future__ import annotations

from typing import Any

from tournament.models import AuditEntry


def log_change(
    tournament: Any,
    user: Any,
    action: str,
    *,
    before: Any = None,
    after: Any = None,
    reason: str = "",
    sheet: Any = None,
    host: Any = None,
) -> Any:
    """Write one audit entry; every door that changes a result calls this through its service.
    An organisation's own change (its team, an invitation) passes `host` and no tournament."""
    return AuditEntry.objects.create(
        tournament=tournament,
        host=host,
        sheet=sheet,
        user=user,
        user_name=user.get_username() if user else "",
        action=action,
        before=before,
        after=after,
        reason=reason,
    )
