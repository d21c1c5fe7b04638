"""One game as a tablet entered it, checked once.

A form parses what the tablet posted into an `EnteredGame` (plain values, nothing checked yet);
`check_game` reads the racks (a keypad's faces added up), asks for what is missing and for a
confirmation above 200 points of tiles, and has the rules engine validate and score the game:
every refusal names its field, so the page shows it next to the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine import rules
from tournament.refusals import Refused

POOL = "pool"  # the ending of a game nobody went out of: the pool was exhausted


@dataclass(frozen=True)
class SeatEntry:
    """One seat's values as entered: the tiles left (None: not entered) and jokers, or the tile
    faces tapped on the keypad (then the count is theirs), and the opening answers."""

    tiles: int | None = None
    jokers: int = 0
    opening: str = rules.OPENED
    first_move: bool = False
    faces: tuple = ()

    @property
    def field(self) -> str:
        """Where this seat's count shows: the keypad when tapped there, else the tiles."""
        return "keypad" if self.faces else "tiles"


@dataclass(frozen=True)
class EnteredGame:
    """A game as read from a tablet: who went out (a seat, `POOL`, or None while not said yet)
    and the values of every seat that could be read (`readable`: every value could, so the game
    can be scored once nothing is missing). `confirm_tiles`: "yes, more than 200 points"."""

    seats: tuple[str, ...]
    ending: str | None
    entries: Mapping[str, SeatEntry]
    confirm_tiles: bool = False
    readable: bool = True

    @classmethod
    def of(cls, game: rules.Game, keypad: Mapping[str, list] | None = None) -> EnteredGame:
        """A game given whole (`rules.Game`, `keypad` the faces of racks entered tile by tile)."""
        keypad = keypad or {}
        entries = {
            letter: SeatEntry(
                rack.tiles, rack.jokers, rack.opening, rack.first_move_case, tuple(keypad.get(letter, ()))
            )
            for letter, rack in game.racks.items()
        }
        return cls(seats=tuple(game.seats), ending=game.winner or POOL, entries=entries, confirm_tiles=True)

    @property
    def winner(self) -> str | None:
        return None if self.ending == POOL else self.ending

    def field(self, letter: str, name: str) -> str:
        """Where a problem with a rack's `name` (tiles, jokers, ...) shows: a keypad rack's on the keypad."""
        entry = self.entries.get(letter)
        if name in ("tiles", "jokers") and entry is not None and entry.faces:
            name = "keypad"
        return f"racks.{letter}.{name}"


@dataclass
class CheckedGame:
    """What the rules found in an entered game: its problems (each names its field), the racks
    read (a keypad's from its faces), the minus points of every valid rack and, for a complete
    valid game, the game and its scores."""

    entered: EnteredGame
    problems: list[Refused] = field(default_factory=list)
    racks: dict[str, rules.Rack] = field(default_factory=dict)
    on_keypad: set[str] = field(default_factory=set)  # the seats whose rack was read from keypad faces
    minus: dict[str, int] = field(default_factory=dict)
    game: rules.Game | None = None
    result: rules.GameResult | None = None

    @property
    def keypad(self) -> dict[str, list]:
        """The faces to store, per keypad rack (the winner has none)."""
        entered = self.entered
        return {
            letter: list(entered.entries[letter].faces)
            for letter in entered.seats
            if letter in self.on_keypad and letter != entered.winner
        }

    @property
    def complete(self) -> bool:
        """Who went out and every other seat's rack are known, and every value could be read."""
        entered = self.entered
        others = [letter for letter in entered.seats if letter != entered.winner]
        return bool(entered.ending) and entered.readable and all(letter in self.racks for letter in others)


def check_game(entered: EnteredGame, settings: rules.Settings, *, require_complete: bool = True) -> CheckedGame:
    """Read and validate an entered game (SPEC §3) and, when complete, score it: each rack is
    validated once (by the engine's scoring when the game is complete and whole).

    With `require_complete` False (the live preview) what is still missing is no problem.
    """
    checked = CheckedGame(entered)
    for letter in entered.seats:
        if letter in entered.entries:
            _read_rack(checked, letter, entered.entries[letter], settings, require_complete)
    keypad_problems = _keypad_problems(checked)
    if not checked.problems and not keypad_problems and checked.complete and entered.winner not in checked.racks:
        game = rules.Game(seats=entered.seats, winner=entered.winner, racks=dict(checked.racks))
        try:
            checked.result = rules.score_game(game, settings)
        except rules.RuleViolation as error:
            scoring_error = error
        else:
            checked.game = game
            checked.minus = {letter: minus for letter, minus in checked.result.minus.items() if letter != game.winner}
            return checked
    else:
        scoring_error = None
    rack_problems = _rack_problems(checked, settings)
    checked.problems += rack_problems + keypad_problems
    if scoring_error is not None and not rack_problems:
        checked.problems += _refusals(scoring_error, checked)
    return checked


def _read_rack(checked, letter, seat, settings, require_complete):
    """Read one seat's rack into `checked.racks` (the winner's only when something was entered),
    or say what is wrong with it."""
    entered = checked.entered
    tiles, jokers = seat.tiles, seat.jokers
    where = f"racks.{letter}.{seat.field}"
    if seat.faces:
        try:
            tiles, jokers = rules.keypad_rack(seat.faces)
        except rules.RuleViolation as error:
            checked.problems.append(Refused.from_violation(error, field=where))
            return
        checked.on_keypad.add(letter)
    if letter == entered.winner:
        if tiles is not None or jokers or seat.opening != rules.OPENED or seat.first_move:
            checked.racks[letter] = rules.Rack(tiles or 0, jokers, seat.opening, seat.first_move)
        return
    if tiles is None:
        if not _penalty_replaces_count(seat, settings):
            if require_complete:
                checked.problems.append(Refused("rack_missing", field=where, seat=letter))
            return
        tiles = 0
    if rules.CONFIRM_TILES_ABOVE < tiles <= rules.MAX_TILES and not entered.confirm_tiles:
        checked.problems.append(Refused("confirm_tiles", field=where, limit=rules.CONFIRM_TILES_ABOVE))
    checked.racks[letter] = rules.Rack(tiles, jokers, seat.opening, seat.first_move)


def _penalty_replaces_count(seat, settings):
    """A flat opening penalty that replaces the rack count: the tiles need not be entered."""
    rack = rules.Rack(opening=seat.opening, first_move_case=seat.first_move)
    return rules.has_flat_penalty(rack) and settings.opening_penalty_mode == rules.REPLACE


def _rack_problems(checked, settings):
    """Each rack validated on its own (a game not scored whole), its minus points kept when valid."""
    problems = []
    entered = checked.entered
    for letter, rack in checked.racks.items():
        if letter == entered.winner:
            problems.append(Refused("winner_has_rack", field=entered.field(letter, "tiles"), seat=letter))
            continue
        try:
            rules.validate_rack(rack, f"racks.{letter}")
        except rules.RuleViolation as error:
            problems += _refusals(error, checked)
            continue
        checked.minus[letter] = rules.rack_minus(rack, settings)
    return problems


def _keypad_problems(checked):
    """The keypad racks of the game must fit in one set of tiles."""
    try:
        rules.validate_keypad_racks(checked.keypad)
    except rules.RuleViolation as error:
        return _refusals(error, checked)
    return []


def _refusals(error: rules.RuleViolation, checked: CheckedGame) -> list[Refused]:
    """The engine's violation as refusals at the fields it concerns (too many jokers: every rack with one)."""
    entered = checked.entered
    if error.code == "jokers_per_game":
        return [
            Refused.from_violation(error, field=entered.field(letter, "jokers"))
            for letter, rack in checked.racks.items()
            if rack.jokers
        ]
    parts = error.path.split(".")
    if parts[0] == "racks" and len(parts) > 1:
        return [Refused.from_violation(error, field=entered.field(parts[1], parts[2] if len(parts) > 2 else "tiles"))]
    return [Refused.from_violation(error, field=error.path or None)]


class InvalidGame(Refused):
    """The game breaks rules of SPEC §3: `problems` say where; `checked` holds what could be counted."""

    def __init__(self, checked: CheckedGame):
        first = checked.problems[0]
        super().__init__(first.code, field=first.field, problems=checked.problems, **first.params)
        self.checked = checked
