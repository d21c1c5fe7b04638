"""The audit log (SPEC §6): every change to a result says who, when, before, after and why."""

from scoring.models import AuditEntry


def log_change(tournament, user, action, *, before=None, after=None, reason="", sheet=None):
    """Write one audit entry; every door that changes a result calls this through its service."""
    return AuditEntry.objects.create(
        tournament=tournament, sheet=sheet, user=user, user_name=user.get_username() if user else "",
        action=action, before=before, after=after, reason=reason,
    )
