"""Forms of the referee tablets: one game of a score sheet, a score override, a card.

`GameForm` only parses what the tablet posted and asks the rules engine; every message comes
from `tournament.refusals`, so each SPEC §3 validation shows next to its field in the user's
language. Nothing here computes a score by itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from engine import rules
from tournament.refusals import message_for, violation_message
from scoring.models import Card

POOL = "pool"  # the value of the "pool exhausted" ending button
KEYPAD_BACK = "back"
KEYPAD_CLEAR = "clear"
INCOMPLETE = {"ending_missing", "rack_missing"}  # not shown while the referee is still typing


def parse_faces(text):
    """Tile faces from the keypad field ("7 13 J" → [7, 13, "J"]); unknown tokens are kept as text."""
    faces = []
    for token in re.split(r"[\s,;]+", (text or "").strip()):
        if not token:
            continue
        if token.upper() == rules.JOKER:
            faces.append(rules.JOKER)
        elif token.isdecimal():
            faces.append(int(token))
        else:
            faces.append(token)
    return faces


def faces_text(faces):
    return " ".join(str(face) for face in faces)


def with_keypad_key(data, letters):
    """Apply a keypad key pressed without JavaScript (`key-B=7`, `back`, `clear`) to a copy of `data`."""
    data = data.copy()
    for letter in letters:
        key = data.get(f"key-{letter}")
        if not key:
            continue
        faces = parse_faces(data.get(f"{letter}-keypad"))
        if key == KEYPAD_BACK:
            faces = faces[:-1]
        elif key == KEYPAD_CLEAR:
            faces = []
        else:
            faces += parse_faces(key)[:1]
        data[f"{letter}-keypad"] = faces_text(faces)
    return data


def game_data(game, version):
    """The form data of a stored game (so a saved game shows in the same form)."""
    data = QueryDict(mutable=True)
    data["version"] = str(version)
    data["ending"] = game.winner or POOL
    for result in game.results.all():
        if result.went_out:
            continue
        letter = result.letter
        if result.keypad is not None:
            data[f"{letter}-keypad"] = faces_text(result.keypad)
        else:
            data[f"{letter}-tiles"] = str(result.tiles)
            data[f"{letter}-jokers"] = str(result.jokers)
        data[f"{letter}-opening"] = result.opening
        if result.first_move_case:
            data[f"{letter}-first_move"] = "on"
    return data


def blank_data(version):
    data = QueryDict(mutable=True)
    data["version"] = str(version)
    return data


@dataclass
class SeatEntry:
    """One seat of a game form, as the template shows it."""

    letter: str
    tiles: str = ""
    jokers: str = "0"
    opening: str = rules.OPENED
    first_move: bool = False
    keypad: str = ""
    keypad_total: tuple[int, int] | None = None  # (tiles, jokers) added up from the keypad
    went_out: bool = False
    has_rack: bool = False
    minus: int | None = None  # the rack's minus points, once the rack is complete
    score: int | None = None  # the game score, once the whole game is valid
    is_winner: bool = False
    errors: dict[str, list[str]] = field(default_factory=dict)
    player: object = None  # set by the page: who sits here
    stored: object = None  # set by the page: the stored SeatResult of this game, if any

    @property
    def uses_keypad(self):
        return bool(self.keypad.strip())

    @property
    def shown_score(self):
        """The game score once known, else the rack's minus points."""
        if self.score is not None:
            return self.score
        return None if self.minus is None else -self.minus


class GameForm(forms.Form):
    """One game as posted by the tablet: `seats` hold the values and errors per seat; validation
    sets `game` (a rules.Game), `keypad` (faces per seat) and `result` (the rules engine's scores).

    With `require_complete=False` (the live preview) a game that is not finished yet shows no
    errors for what is still missing, and the minus points of every complete rack.
    """

    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    ending = forms.CharField(required=False, max_length=10)
    reason = forms.CharField(label=_("Reason for the correction"), required=False, max_length=2000)
    confirm_tiles = forms.BooleanField(required=False)

    def __init__(self, data, *, letters, number, settings, require_complete=True):
        super().__init__(data, auto_id=f"g{number}-%s")
        self.letters = tuple(letters)
        self.number = number
        self.settings = settings
        self.require_complete = require_complete
        self.seat_errors = False  # errors shown next to a seat's fields (kept in `seats`)
        self.game = None
        self.keypad = {}
        self.result = None
        self.incomplete = False
        self._read_seats()

    def _read_seats(self):
        """The raw values per seat (also for showing a form that is not validated)."""
        data = self.data
        self.endings = [v for v in data.getlist("ending") if v]
        ending = self.endings[-1] if self.endings else None
        self.winner = ending if ending in self.letters else None
        self.pool_exhausted = ending == POOL
        self.seats = {}
        for letter in self.letters:
            seat = SeatEntry(
                letter,
                tiles=(data.get(f"{letter}-tiles") or "").strip(),
                jokers=(data.get(f"{letter}-jokers") or "0").strip(),
                opening=(data.get(f"{letter}-opening") or rules.OPENED).strip(),
                first_move=_checked(data.get(f"{letter}-first_move")),
                keypad=(data.get(f"{letter}-keypad") or "")[:400].strip(),
                went_out=letter == self.winner,
            )
            if seat.uses_keypad:
                try:
                    seat.keypad_total = rules.keypad_rack(parse_faces(seat.keypad))
                except rules.RuleViolation:
                    pass  # reported by validation
            seat.has_rack = bool(
                seat.tiles or seat.keypad or seat.jokers not in ("", "0") or seat.opening != rules.OPENED
                or seat.first_move
            )
            self.seats[letter] = seat

    @property
    def seat_list(self):
        return [self.seats[letter] for letter in self.letters]

    @property
    def needs_confirmation(self):
        """Some rack holds more than 200 points of tiles: the form asks "are you sure?"."""
        for seat in self.seats.values():
            tiles = seat.keypad_total[0] if seat.keypad_total else _as_int(seat.tiles)
            if not seat.went_out and (tiles or 0) > rules.CONFIRM_TILES_ABOVE:
                return True
        return False

    @property
    def ending_errors(self):
        return self.errors.get("ending", [])

    # -- errors next to their fields

    def _add(self, letter, name, code, params=None):
        if not self.require_complete and code in INCOMPLETE:
            self.incomplete = True
            return
        self.seats[letter].errors.setdefault(name, []).append(message_for(code, params))
        self.seat_errors = True

    def _ending_error(self, code, params=None):
        if not self.require_complete and code in INCOMPLETE:
            self.incomplete = True
            return
        self.add_error("ending", message_for(code, params))

    def add_violation(self, error):
        """Show a rules.RuleViolation (or a Refused) next to its field."""
        parts = (getattr(error, "path", "") or "").split(".")
        if error.code == "jokers_per_game":
            for letter, seat in self.seats.items():
                jokers = seat.keypad_total[1] if seat.keypad_total else _as_int(seat.jokers)
                if not seat.went_out and jokers:
                    self._add(letter, "keypad" if seat.uses_keypad else "jokers", error.code, error.params)
        elif len(parts) >= 2 and parts[0] == "racks" and parts[1] in self.seats:
            letter = parts[1]
            name = parts[2] if len(parts) > 2 and parts[2] in ("jokers", "opening", "keypad") else "tiles"
            if name in ("tiles", "jokers") and self.seats[letter].uses_keypad:
                name = "keypad"
            self._add(letter, name, error.code, error.params)
        elif parts[0] == "winner":
            self._ending_error(error.code, error.params)
        elif error.code == "reason_required":
            self.add_error("reason", violation_message(error))
        else:
            self.add_error(None, violation_message(error))

    # -- validation

    def is_valid(self):
        return super().is_valid() and not self.seat_errors

    def clean(self):
        cleaned = super().clean()
        if "version" in self.errors:
            del self.errors["version"]
            self.add_error(None, message_for("form_expired"))
        if len(set(self.endings)) > 1:
            self._ending_error("two_winners")
        elif not self.endings:
            self._ending_error("ending_missing")
        elif self.winner is None and not self.pool_exhausted:
            self._ending_error("winner_not_at_table")
        racks = {}
        for letter, seat in self.seats.items():
            rack = self._clean_seat(letter, seat)
            if rack is not None:
                racks[letter] = rack
        if self.keypad:
            try:
                rules.validate_keypad_racks(self.keypad)
            except rules.RuleViolation as error:
                self.add_violation(error)
        if self.errors or self.seat_errors or self.incomplete:
            return cleaned
        self.game = rules.Game(seats=self.letters, winner=self.winner, racks=racks)
        try:
            self.result = rules.score_game(self.game, self.settings)
        except rules.RuleViolation as error:
            self.game = None
            self.add_violation(error)
            return cleaned
        for letter, score in self.result.scores.items():
            self.seats[letter].score = score
            self.seats[letter].is_winner = letter in self.result.winners
        return cleaned

    def _clean_seat(self, letter, seat):
        """The rules.Rack of one seat, or None (the winner, or an error was recorded)."""
        if seat.went_out:
            if seat.has_rack:
                self._add(letter, "keypad" if seat.uses_keypad else "tiles", "winner_has_rack", {"seat": letter})
            return None
        if seat.uses_keypad:
            faces = parse_faces(seat.keypad)
            try:
                tiles, jokers = rules.keypad_rack(faces)
            except rules.RuleViolation as error:
                self._add(letter, "keypad", error.code, error.params)
                return None
            self.keypad[letter] = faces
        else:
            tiles, jokers = _as_int(seat.tiles), _as_int(seat.jokers)
            if seat.tiles and tiles is None:
                self._add(letter, "tiles", "tiles_not_integer", {"value": seat.tiles})
                return None
            if jokers is None:
                self._add(letter, "jokers", "jokers_not_integer", {"value": seat.jokers})
                return None
        if tiles is None:
            # With a flat penalty that replaces the rack count, the tiles do not matter.
            probe = rules.Rack(jokers=jokers, opening=seat.opening, first_move_case=seat.first_move)
            if not rules.has_flat_penalty(probe) or self.settings.opening_penalty_mode == rules.ADD:
                self._add(letter, "tiles", "rack_missing", {"seat": letter})
                return None
            tiles = 0
        rack = rules.Rack(tiles=tiles, jokers=jokers, opening=seat.opening, first_move_case=seat.first_move)
        try:
            rules.validate_rack(rack, f"racks.{letter}")
        except rules.RuleViolation as error:
            self.add_violation(error)
            return None
        if tiles > rules.CONFIRM_TILES_ABOVE and not self.cleaned_data.get("confirm_tiles"):
            name = "keypad" if seat.uses_keypad else "tiles"
            self._add(letter, name, "confirm_tiles", {"limit": rules.CONFIRM_TILES_ABOVE})
        seat.minus = rules.rack_minus(rack, self.settings)
        return rack


def _checked(value):
    return (value or "") not in ("", "0", "false", "off")


def _as_int(text):
    try:
        return int(str(text).strip())
    except (TypeError, ValueError):
        return None


class OverrideForm(forms.Form):
    """The head referee sets a seat's score by hand (empty score: back to the computed one)."""

    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    seat = forms.ChoiceField(label=_("Seat"), choices=[(s, s) for s in rules.SEAT_LETTERS])
    score = forms.CharField(label=_("Score"), required=False, max_length=12)
    reason = forms.CharField(label=_("Reason"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, letters=rules.SEAT_LETTERS, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [(s, s) for s in letters]
        self.fields["reason"].error_messages["required"] = message_for("reason_required")

    def clean_score(self):
        text = self.cleaned_data["score"].strip().replace("−", "-")
        if not text:
            return None
        value = _as_int(text)
        if value is None:
            raise forms.ValidationError(message_for("score_not_integer"))
        if abs(value) > rules.MAX_OVERRIDE:
            raise forms.ValidationError(message_for("score_range", {"max": rules.MAX_OVERRIDE}))
        return value


class CardForm(forms.Form):
    """A warning, yellow or red card with its reason (red only for the head referee)."""

    colour = forms.ChoiceField(label=_("Card"), choices=Card.Colour.choices, widget=forms.RadioSelect)
    reason = forms.CharField(label=_("Reason"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))
    round = forms.IntegerField(required=False, widget=forms.HiddenInput)
    next = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, allow_red=False, **kwargs):
        super().__init__(*args, **kwargs)
        labels = dict(Card.Colour.choices)
        colours = [Card.Colour.WARNING, Card.Colour.YELLOW] + ([Card.Colour.RED] if allow_red else [])
        self.fields["colour"].choices = [(colour.value, labels[colour]) for colour in colours]
        self.fields["colour"].error_messages["required"] = message_for("card_colour")
        self.fields["colour"].error_messages["invalid_choice"] = message_for("card_colour")
        self.fields["reason"].error_messages["required"] = message_for("reason_required")


class TieDecisionForm(forms.Form):
    """The head referee's order of one tie: a place for each tied player, and how it was decided."""

    reason = forms.CharField(
        label=_("How was the tie decided?"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("For example: a lot drawn by the head referee, or a play-off game."),
    )

    def __init__(self, rows, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.rows = rows
        places = [("", "—")] + [(str(place), str(place)) for place in range(rows[0].rank, rows[0].rank + len(rows))]
        for row in rows:
            self.fields[self.place_field(row)] = forms.ChoiceField(label=row.player.name, choices=places)
        self.fields["reason"].error_messages["required"] = message_for("reason_required")

    @staticmethod
    def place_field(row):
        return f"place-{row.player.pk}"

    def is_for(self, data):
        """Whether posted `data` answers this tie (the page has one form per tie)."""
        return all(self.place_field(row) in data for row in self.rows)

    def place_fields(self):
        return [(row, self[self.place_field(row)]) for row in self.rows]

    def clean(self):
        places = [self.cleaned_data.get(self.place_field(row)) for row in self.rows]
        if all(places) and len(set(places)) != len(places):
            raise forms.ValidationError(_("Give each player a different place."))
        return self.cleaned_data

    def order(self):
        """The tied players' ids (from the import file), best first."""
        ranked = sorted(self.rows, key=lambda row: int(self.cleaned_data[self.place_field(row)]))
        return [row.player.ext_id for row in ranked]
