"""The day's timetable in an interchange file: the optional top-level `timetable` list.

Each line is ``{"round": n, "planned_start": "09:30" or null, "length_minutes": 60}``, by round
number. The timetable is its own list rather than a field of each round because a line is
planned before the day, for rounds not drawn yet (`RoundTime`). A planned start is a time of day
on the tournament's own clock (no offset: the day is the tournament's `date`). A file without the
list, or a line without `length_minutes`, gives the defaults (no planned start, 60 minutes).
"""

from __future__ import annotations

from organiser.interchange.checks import (
    check_known_keys,
    checked_int,
    checked_list,
    checked_object,
    checked_time_of_day,
    fail,
)
from tournament.models import DEFAULT_ROUND_MINUTES, ROUND_MINUTES_RANGE, RoundTime

LINE_KEYS = ("round", "planned_start", "length_minutes")


def time_of_day(value):
    """ "09:30", with the seconds only when there are some."""
    if value.second or value.microsecond:
        return value.isoformat()
    return value.isoformat(timespec="minutes")


def export_timetable(tournament):
    """The tournament's timetable lines, by round number."""
    return [
        {
            "round": line.number,
            "planned_start": time_of_day(line.planned_start) if line.planned_start else None,
            "length_minutes": line.length_minutes,
        }
        for line in RoundTime.objects.filter(tournament=tournament).order_by("number")
    ]


def parse_timetable(data):
    """The file's timetable lines, checked: [{number, planned_start, length_minutes}]."""
    lines, numbers = [], set()
    for i, line in enumerate(checked_list(data, "timetable")):
        path = f"timetable[{i}]"
        line = checked_object(line, path)
        check_known_keys(line, path, LINE_KEYS)
        number = checked_int(line.get("round"), f"{path}.round", 1, 100)
        if number in numbers:
            fail(f"{path}.round", f"round {number} appears twice in the timetable")
        numbers.add(number)
        start = line.get("planned_start")
        lines.append(
            {
                "number": number,
                "planned_start": None if start is None else checked_time_of_day(start, f"{path}.planned_start"),
                "length_minutes": checked_int(
                    line.get("length_minutes", DEFAULT_ROUND_MINUTES), f"{path}.length_minutes", *ROUND_MINUTES_RANGE
                ),
            }
        )
    return lines


def load_timetable(tournament, lines):
    RoundTime.objects.bulk_create(RoundTime(tournament=tournament, **line) for line in lines)
