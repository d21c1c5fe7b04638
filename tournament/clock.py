"""The clock of the day: each round's length and planned start (the timetable), and the time
left in a started round, always by the server's clock (a tablet's own clock is never asked).

A round's clock runs from its `started_at` for the minutes its timetable line gives
(`RoundTime`, or `DEFAULT_ROUND_MINUTES` when the organiser set none). The pages render the
seconds left and `static/js/round-clock.js` only counts them down between refreshes.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import DEFAULT_ROUND_MINUTES, Round, RoundTime, Tournament


@dataclass(frozen=True)
class RoundClock:
    """A started round's clock at one moment of the server's time."""

    round: Round
    length_minutes: int
    ends_at: datetime.datetime
    seconds_left: int  # never below 0: 0 when the time is up

    @property
    def is_up(self) -> bool:
        return self.seconds_left == 0

    @property
    def time_left(self) -> str:
        """ "42:07", or "1:05:09" from an hour up: what the page shows before its script counts."""
        return format_seconds(self.seconds_left)


def format_seconds(seconds: int) -> str:
    hours, rest = divmod(max(seconds, 0), 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def length_of(number: int, times: dict[int, RoundTime]) -> int:
    line = times.get(number)
    return line.length_minutes if line else DEFAULT_ROUND_MINUTES


def clock_of(round_: Round, length_minutes: int, now: datetime.datetime | None = None) -> RoundClock | None:
    """The clock of a started round (None for a round that is not playing now)."""
    if round_.state != Round.State.STARTED or round_.started_at is None:
        return None
    now = now or timezone.now()
    ends_at = round_.started_at + datetime.timedelta(minutes=length_minutes)
    return RoundClock(round_, length_minutes, ends_at, max(0, int((ends_at - now).total_seconds() + 0.999)))


def round_label(tournament: Tournament, number: int, round_: Round | None) -> str:
    """ "Round 3", or "Final" for the line after the last qualifying round of a tournament with one."""
    if round_ is not None:
        return str(round_)
    if tournament.final and number == tournament.rounds_planned + 1:
        return _("Final")
    return _("Round %(number)s") % {"number": number}


def timetable_numbers(tournament: Tournament, rounds: list[Round]) -> list[int]:
    """The round numbers of the day: the qualifying rounds planned, the final if there is one, and
    any round drawn beyond them."""
    planned = tournament.rounds_planned + (1 if tournament.final else 0)
    return sorted(set(range(1, planned + 1)) | {round_.number for round_ in rounds})


def planned_end(tournament: Tournament, line: RoundTime | None, length_minutes: int) -> datetime.time | None:
    if line is None or line.planned_start is None:
        return None
    start = datetime.datetime.combine(tournament.date, line.planned_start)
    return (start + datetime.timedelta(minutes=length_minutes)).time()
