"""The one refusal: the rules say no to a change, and nothing was written.

Every service raises `Refused(code, **params)`; `MESSAGES`, the one catalogue, turns the code
into a message in the active language with the params filled in (Polish plurals through
ngettext_lazy). The engine's `RuleViolation` and `SeatingError` become a `Refused` at the
boundary (`Refused.from_violation`). `field` names the form field a refusal belongs to, and
`problems` lists further refusals (an import's lines).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

MESSAGES = {
    # SPEC §3: the rules engine
    "tiles_not_integer": _("Enter the sum of the tiles as a whole number."),
    "tiles_range": _("The sum of the tiles must be between 0 and %(max)s."),
    "jokers_not_integer": _("Enter the number of jokers as a whole number."),
    "jokers_range": ngettext_lazy("A rack can hold at most %(max)s joker.", "A rack can hold at most %(max)s jokers.", "max"),
    "opening_unknown": _("Choose one of the four answers about the first laying out."),
    "first_move_case_not_bool": _("Tick the box or leave it empty."),
    "seat_letter": _("Seats are A, B, C and D."),
    "seat_twice": _("A seat appears twice."),
    "table_size": _("A table seats 3 or 4 players."),
    "seat_not_at_table": _("This seat is not at this table."),
    "rack_missing": _("Enter the tiles left on the rack of seat %(seat)s (0 if none)."),
    "winner_not_at_table": _("The player who went out must sit at this table."),
    "winner_has_rack": _("Seat %(seat)s went out, so it has no rack: clear these values."),
    "jokers_per_game": ngettext_lazy(
        "The set has only %(max)s joker: at most %(max)s can be left in one game.",
        "The set has only %(max)s jokers: at most %(max)s can be left in one game.", "max",
    ),
    "keypad_face": _("A tile is a number from 1 to 13 or a joker."),
    "keypad_jokers": ngettext_lazy("The set has only %(max)s joker.", "The set has only %(max)s jokers.", "max"),
    "keypad_copies": ngettext_lazy(
        "The set has only %(max)s tile numbered %(face)s: check the racks of this game.",
        "The set has only %(max)s tiles numbered %(face)s: check the racks of this game.", "max",
    ),
    "override_reason": _("A changed score needs a reason."),
    # the score-sheet form
    "ending_missing": _("Tap the player who went out, or “pool exhausted”."),
    "two_winners": _("Only one player can go out in a game."),
    "confirm_tiles": ngettext_lazy(
        "More than %(limit)s point of tiles: are you sure? Tick the box to confirm.",
        "More than %(limit)s points of tiles: are you sure? Tick the box to confirm.", "limit",
    ),
    "score_not_integer": _("Enter the score as a whole number, e.g. -80."),
    "score_range": _("Enter a score between −%(max)s and %(max)s."),
    "form_expired": _("This form is out of date. Reload the page; your values are kept on this tablet."),
    # refused changes (scoring.services)
    "stale_version": _("Someone else saved this sheet after you opened it. Nothing of yours was saved yet."),
    "sheet_verified": _("This sheet has been verified. Only the head referee can change it."),
    "reason_required": _("Give a reason for this change."),
    "head_referee_only": _("Only the head referee can do this."),
    "game_number": _("This table has no game %(number)s."),
    "game_not_entered": _("Game %(number)s has not been entered yet."),
    "not_in_progress": _("This sheet cannot be submitted: it is %(state)s."),
    "sheet_incomplete": _("Enter every game before submitting. Missing: %(games)s."),
    "not_submitted": _("Only a submitted sheet can be verified; this one is %(state)s."),
    "card_colour": _("Choose a warning, a yellow card or a red card."),
    "card_round": _("That round belongs to another tournament."),
    # staff accounts (accounts.services)
    "setup_done": _("An organiser account exists already: sign in with it."),
    "setup_code_wrong": _("This is not the setup code. Copy it from the window where the server was started (or the container's log)."),
    "staff_name_taken": _("This name belongs to a tablet's sign-in link: choose another name."),
    "username_taken": _("This user name is taken: choose another."),
}

FALLBACK = _("This value is not allowed.")


def message_for(code: str, params: dict[str, Any] | None = None) -> str:
    """The message for an error code in the active language, with its params filled in."""
    template = MESSAGES.get(code)
    if template is None:
        return str(FALLBACK)
    try:
        return str(template % (params or {}))
    except (KeyError, TypeError, ValueError):
        return str(FALLBACK)


class Refused(Exception):
    """A change the rules do not allow: `code` picks the message, `params` fill it in."""

    def __init__(self, code: str, *, field: str | None = None, problems: Iterable[Refused] = (), **params: Any):
        super().__init__(code)
        self.code = code
        self.params = params
        self.field = field
        self.problems = list(problems)

    @classmethod
    def from_violation(cls, error: Any, *, field: str | None = None) -> Refused:
        """The refusal for an engine error that carries a `code` and `params` (RuleViolation, SeatingError)."""
        return cls(error.code, field=field, **getattr(error, "params", {}))

    @property
    def message(self) -> str:
        """The message in the active language."""
        return message_for(self.code, self.params)

    def __str__(self) -> str:
        return self.code


def violation_message(error: Any) -> str:
    """The message for any error with a `code` and `params` (a Refused or an engine violation)."""
    return message_for(error.code, getattr(error, "params", {}))
