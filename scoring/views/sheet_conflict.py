"""What the score-sheet page shows a tablet whose save was refused because the sheet moved on."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from scoring.views.audit_log import ChangeView
from tournament.models import Player


@dataclass
class ConflictSeat:
    """One seat on the conflict screen: its rack and score as saved now, and as this tablet has them."""

    letter: str
    player: Player
    saved: str
    saved_score: int | None
    mine: str
    mine_score: int | None

    @property
    def differs(self):
        return (self.saved, self.saved_score) != (self.mine, self.mine_score)


@dataclass
class Conflict:
    """What a tablet whose save was refused (the sheet moved on) sees next to its save button:
    what was saved since it loaded the sheet and, when that includes this game, the game as
    saved now beside this tablet's values, which saving now would put in their place."""

    changes: list[ChangeView]  # every change saved since the form was loaded, oldest first
    by: str = ""  # who saved this game meanwhile ("" when nobody did: other games or the sheet changed)
    at: datetime | None = None
    saved_ending: str = ""
    mine_ending: str = ""
    seats: list[ConflictSeat] = field(default_factory=list)

    @property
    def game_saved(self):
        """Whether this game is stored now (saving overwrites it), not only other parts of the sheet."""
        return bool(self.seats)

    @property
    def ending_differs(self):
        return self.saved_ending != self.mine_ending
