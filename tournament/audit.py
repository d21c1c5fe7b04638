"""The audit log (SPEC §6): every change to a result or to the tournament's day says who, when,
before, after and why, whichever app makes it (referees' sheets, the organiser's actions, tablet
sign-in links). Every service that changes something calls `log_change` in its transaction.

The entries are `scoring.AuditEntry` rows (the model stays where its table was made); this
lowest app reaches it by name, so every app above can write to the one log.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps


def log_change(tournament: Any, user: Any, action: str, *, before: Any = None, after: Any = None,
               reason: str = "", sheet: Any = None) -> Any:
    """Write one audit entry; every door that changes a result calls this through its service."""
    entry = apps.get_model("scoring", "AuditEntry")
    return entry.objects.create(
        tournament=tournament, sheet=sheet, user=user, user_name=user.get_username() if user else "",
        action=action, before=before, after=after, reason=reason,
    )
