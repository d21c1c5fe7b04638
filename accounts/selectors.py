"""Reads of the staff accounts for the pages: a tournament's staff."""

from __future__ import annotations

from typing import Any

from accounts.models import TournamentRole


def staff_grants(tournament: Any) -> list[TournamentRole]:
    """The people who hold a role for this tournament (tablets' own accounts are on the tablets page)."""
    return list(
        TournamentRole.objects.filter(tournament=tournament, user__device_link__isnull=True)
        .select_related("user").order_by("role", "user__username")
    )
