"""The server's clock of the round, set by a test: the live server answers from a thread of the
test's own process, so the time it counts a round's seconds by (`tournament.clock`) is the test's
to set and to move, and a busy machine's slowness never shows in what the pages say."""

from __future__ import annotations

import datetime
from types import SimpleNamespace

import tournament.clock


class ServerClock:
    """The round clock's `now`, stopped at `at` until the test advances it."""

    def __init__(self, monkeypatch, at: datetime.datetime):
        self.now = at
        monkeypatch.setattr(tournament.clock, "timezone", SimpleNamespace(now=lambda: self.now))

    def advance(self, seconds: float) -> None:
        self.now += datetime.timedelta(seconds=seconds)
