"""The day's timetable: each round's planned start and length, set by the organiser (audited)."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from django.db import transaction

from tournament.audit import log_change
from tournament.models import DEFAULT_ROUND_MINUTES, RoundTime, Tournament

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser


def _as_logged(line: RoundTime | None) -> dict:
    if line is None:
        return {"start": None, "minutes": DEFAULT_ROUND_MINUTES}
    return {
        "start": line.planned_start.strftime("%H:%M") if line.planned_start else None,
        "minutes": line.length_minutes,
    }


@transaction.atomic
def save_timetable(
    tournament: Tournament, *, lines: dict[int, tuple[datetime.time | None, int]], user: AbstractBaseUser | None
) -> int:
    """Set the planned start and length of the rounds in `lines` (number: (start, minutes));
    returns how many lines changed. One audit entry holds every changed line, before and after;
    a round already playing runs on by its new length at once."""
    existing = {line.number: line for line in RoundTime.objects.select_for_update().filter(tournament=tournament)}
    before, after = {}, {}
    for number, (start, minutes) in sorted(lines.items()):
        line = existing.get(number)
        new = {"start": start.strftime("%H:%M") if start else None, "minutes": minutes}
        if _as_logged(line) == new:
            continue
        before[str(number)], after[str(number)] = _as_logged(line), new
        RoundTime.objects.update_or_create(
            tournament=tournament, number=number, defaults={"planned_start": start, "length_minutes": minutes}
        )
    if after:
        log_change(tournament, user, "timetable_change", before=before, after=after)
    return len(after)
