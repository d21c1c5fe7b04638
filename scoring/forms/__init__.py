"""Forms of the referee tablets: one game of a score sheet, a score override, a card (given or
withdrawn), a tie.

`GameForm` parses what the tablet posted into a plain value; the rules engine checks the game
once (`scoring.services.entry.check_game`). Every message comes from `tournament.refusals`, so
each SPEC §3 validation shows next to its field in the user's language.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from typing import NamedTuple

from django import forms
from django.utils.translation import gettext_lazy as _

from engine import rules
from scoring.forms.widgets import ChoiceButtons, EndingButtons, RememberingRenderer, TextBox
from scoring.models import Card, SeatResult
from scoring.selectors.sheets import results_of
from scoring.services.cards import confirmation_needed, disqualifies_now
from scoring.services.entry import POOL, EnteredGame, SeatEntry
from tournament.refusals import MESSAGES, message_for


class RefereeForm(forms.Form):
    """A form of the score-sheet page: its widgets drawn by Django's Jinja2 templates (a sheet has
    some 400 inputs, which Django's template engine drew at a third of a millisecond each), each
    distinct one once (`widgets.RememberingRenderer`)."""

    default_renderer = RememberingRenderer()


KEYPAD_BACK = "back"
KEYPAD_CLEAR = "clear"
KEYPAD_TEXT_MAX = 400  # characters of a keypad field: far more than any rack's faces ("13 " × 106)
KEYPAD_KEY_MAX = 5  # characters of a pressed key read: "13", "J", "back", "clear"
FACE_DIGITS_MAX = 2  # a longer number is no tile face (and is never converted: 5,000 digits would raise)
JOKER_CHOICES = [(str(n), str(n)) for n in range(rules.MAX_JOKERS + 1)]
SEAT_FIELDS = ("tiles", "jokers", "opening", "first_move", "keypad")


def parse_faces(text):
    """Tile faces from the keypad field ("7 13 J" → [7, 13, "J"]); unknown tokens, numbers of
    more than two digits among them, are kept as text (the rules refuse them as faces)."""
    faces = []
    for token in re.split(r"[\s,;]+", (text or "").strip()):
        if not token:
            continue
        if token.upper() == rules.JOKER:
            faces.append(rules.JOKER)
        elif token.isdecimal() and len(token) <= FACE_DIGITS_MAX:
            faces.append(int(token))
        else:
            faces.append(token)
    return faces


def faces_text(faces):
    return " ".join(str(face) for face in faces)


KEYPAD_KEY_PREFIX = "key-"  # a keypad key's name: `key-B` for seat B's


def keypad_key_pressed(data):
    """A keypad key was pressed without JavaScript: the post is a preview, never a save."""
    return any(str(name).startswith(KEYPAD_KEY_PREFIX) for name in data)


def with_keypad_key(data, letters):
    """Apply a keypad key pressed without JavaScript (`key-B=7`, `back`, `clear`) to a copy of `data`.

    A keypad field over its length is left as posted, for the form to refuse.
    """
    data = data.copy()
    for letter in letters:
        key = str(data.get(f"{KEYPAD_KEY_PREFIX}{letter}") or "")[:KEYPAD_KEY_MAX]
        text = str(data.get(f"{letter}-keypad") or "")
        if not key or len(text) > KEYPAD_TEXT_MAX:
            continue
        faces = parse_faces(text)
        if key == KEYPAD_BACK:
            faces = faces[:-1]
        elif key == KEYPAD_CLEAR:
            faces = []
        else:
            faces += parse_faces(key)[:1]
        data[f"{letter}-keypad"] = faces_text(faces)
    return data


def stored_initial(game, version):
    """The initial values of a game form showing a stored game."""
    initial = {"version": version, "ending": game.winner or POOL}
    for result in results_of(game):
        if result.went_out:
            continue
        letter = result.letter
        if result.keypad is not None:
            initial[f"{letter}-keypad"] = faces_text(result.keypad)
        else:
            initial[f"{letter}-tiles"] = result.tiles
            initial[f"{letter}-jokers"] = result.jokers
        initial[f"{letter}-opening"] = result.opening
        initial[f"{letter}-first_move"] = result.first_move_case
    return initial


class EndingField(forms.ChoiceField):
    widget = EndingButtons

    def to_python(self, value):
        endings = list(dict.fromkeys(value or ()))
        if len(endings) > 1:
            raise forms.ValidationError(MESSAGES["two_winners"], code="two_winners")
        return endings[0] if endings else ""


class KeypadField(forms.Field):
    """The tile faces tapped on the keypad, as text ("7 13 J"); cleaned to a list of faces.
    Longer than KEYPAD_TEXT_MAX characters, it is refused next to the keypad."""

    widget = TextBox

    def to_python(self, value):
        text = str(value or "")
        if len(text) > KEYPAD_TEXT_MAX:
            raise forms.ValidationError(MESSAGES["keypad_too_long"], code="keypad_too_long")
        return parse_faces(text)


class SeatFields(NamedTuple):
    """The fields of one seat of a game form."""

    tiles: forms.BoundField
    jokers: forms.BoundField
    opening: forms.BoundField
    first_move: forms.BoundField
    keypad: forms.BoundField


@functools.lru_cache(maxsize=64)
def seat_form_fields(number, letter):
    """The form fields of one seat: `B-tiles`, `B-jokers`, `B-opening`, `B-first_move`, `B-keypad`.

    Made once for each game and seat and shared by the forms (a field holds no state of a form:
    what a form reads and its errors live on the form)."""
    typed = {
        "class": f"g{number}-typed",
        "inputmode": "numeric",
        "autocomplete": "off",
        "aria-describedby": f"g{number}-{letter}-tiles-hint g{number}-{letter}-tiles-errors",
    }
    faces = {
        "class": "keypad__faces",
        "readonly": True,
        "placeholder": "–",
        "aria-describedby": f"g{number}-{letter}-keypad-total g{number}-{letter}-keypad-errors",
    }
    buttons: dict[str, str] = {}  # no class: `.choices > input` in referee.css (132 radios a sheet)
    return {
        f"{letter}-tiles": forms.IntegerField(
            label=_("Tiles left (sum)"),
            required=False,
            widget=TextBox(attrs=typed),
            error_messages={"invalid": MESSAGES["tiles_not_integer"]},
        ),
        f"{letter}-jokers": forms.IntegerField(
            label=_("Jokers left"),
            required=False,
            initial=0,
            widget=ChoiceButtons(attrs=buttons, choices=JOKER_CHOICES, default="0"),
            error_messages={"invalid": MESSAGES["jokers_not_integer"]},
        ),
        f"{letter}-opening": forms.ChoiceField(
            label=_("First laying out"),
            required=False,
            initial=rules.OPENED,
            choices=SeatResult.Opening.choices,
            widget=ChoiceButtons(attrs=buttons, default=rules.OPENED),
            error_messages={"invalid_choice": MESSAGES["opening_unknown"]},
        ),
        f"{letter}-first_move": forms.BooleanField(
            label=_("Laid out in own first move; the game ended in another player's first move"), required=False
        ),
        f"{letter}-keypad": KeypadField(label=_("Tiles entered"), required=False, widget=TextBox(attrs=faces)),
    }


class GameForm(RefereeForm):
    """One game as posted by a tablet: who went out, and a field per seat and rack value.

    Cleaning parses every value; `entered_game()` is the game as posted, a plain value that the
    service checks (`entry.check_game`: the racks read, what is missing, the rules).

    With `require_complete=False` (the live preview) who went out may still be missing.
    A correction of a verified sheet (`correcting`) needs a reason.
    """

    use_required_attribute = False  # the keypad keys and "Compute" post unfinished games too

    version = forms.IntegerField(
        min_value=0,
        widget=forms.HiddenInput,
        error_messages=dict.fromkeys(("required", "invalid", "min_value"), MESSAGES["form_expired"]),
    )
    reason = forms.CharField(
        label=_("Reason for the correction"),
        required=False,
        max_length=2000,
        widget=TextBox,
        error_messages={"required": MESSAGES["reason_required"]},
    )
    confirm_tiles = forms.BooleanField(
        label=_("Yes, I am sure: more than 200 points of tiles are left on a rack."),
        required=False,
        widget=forms.CheckboxInput(attrs={"hx-preserve": True}),
    )

    def __init__(self, data=None, *, players, number, require_complete=True, correcting=False, initial=None):
        super().__init__(data, initial=initial, auto_id=f"g{number}-%s")
        self.letters = tuple(players)
        self.fields["ending"] = EndingField(
            choices=[(letter, player.name) for letter, player in players.items()] + [(POOL, _("Pool exhausted"))],
            required=require_complete,
            widget=EndingButtons(),
            error_messages={"required": MESSAGES["ending_missing"], "invalid_choice": MESSAGES["winner_not_at_table"]},
        )
        for letter in self.letters:
            self.fields.update(seat_form_fields(number, letter))
        self.fields["reason"].required = correcting and require_complete

    def seat_fields(self, letter):
        return SeatFields(*(self[f"{letter}-{name}"] for name in SEAT_FIELDS))

    def entered_game(self):
        """The game as posted (validated as a form: each value parsed), a plain value for the
        rules (`entry.check_game`): the seats whose values could not be read are left out."""
        self.is_valid()
        data, errors = self.cleaned_data, self.errors
        entries = {}
        for letter in self.letters:
            names = [f"{letter}-{name}" for name in SEAT_FIELDS]
            if not any(name in errors for name in names):
                tiles, jokers, opening, first_move, faces = (data.get(name) for name in names)
                entries[letter] = SeatEntry(tiles, jokers, opening, first_move, tuple(faces or ()))
        return EnteredGame(
            seats=self.letters,
            ending=data.get("ending") or None,
            entries=entries,
            confirm_tiles=bool(data.get("confirm_tiles")),
            readable=len(entries) == len(self.letters) and "ending" not in errors,
        )


def _as_int(text):
    try:
        return int(str(text).strip())
    except (TypeError, ValueError):
        return None


class OverrideForm(RefereeForm):
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


class CardForm(RefereeForm):
    """A warning, yellow or red card with its reason (red only for the head referee), for `player`
    whose cards so far are `cards` (the withdrawn ones too, oldest first).

    A card that would disqualify the player (the second yellow, a red) needs its confirmation:
    `confirm` holds the colour confirmed, and `confirmations` are the colours that need one, each
    with the sentence naming the disqualification. The service refuses the card unconfirmed.
    """

    colour = forms.ChoiceField(
        label=_("Card"), choices=Card.Colour.choices, widget=ChoiceButtons(attrs={"class": "choice-input"})
    )
    reason = forms.CharField(label=_("Reason"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))
    round = forms.IntegerField(required=False, widget=forms.HiddenInput)
    next = forms.CharField(required=False, widget=forms.HiddenInput)
    confirm = forms.MultipleChoiceField(
        required=False,
        choices=[(Card.Colour.YELLOW.value, ""), (Card.Colour.RED.value, "")],
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, player=None, cards=(), allow_red=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.player = player
        self.cards = list(cards)
        labels = dict(Card.Colour.choices)
        colours = [Card.Colour.WARNING, Card.Colour.YELLOW] + ([Card.Colour.RED] if allow_red else [])
        self.fields["colour"].choices = [(colour.value, labels[colour]) for colour in colours]
        self.fields["colour"].error_messages["required"] = message_for("card_colour")
        self.fields["colour"].error_messages["invalid_choice"] = message_for("card_colour")
        self.fields["reason"].error_messages["required"] = message_for("reason_required")
        self.colours = colours

    @property
    def counting(self):
        """The player's cards that count (not withdrawn), oldest first."""
        return [card for card in self.cards if not card.is_withdrawn]

    @functools.cached_property
    def confirmations(self):
        """The cards on offer that would disqualify the player now, each a Confirmation: the
        sentence naming the disqualification and its checkbox (`refused`: the card was sent unconfirmed)."""
        if self.player is None:
            return []
        colours = Counter(card.colour for card in self.counting)
        ticked = self["confirm"].value() or []
        errors = self.errors.get("confirm", [])
        rows = []
        for colour in self.colours:
            if disqualifies_now(self.player, colour, colours):
                sentence = confirmation_needed(self.player, colour).message
                rows.append(
                    Confirmation(
                        colour.value,
                        sentence,
                        _("I confirm the disqualification of %(player)s.") % {"player": self.player.name},
                        f"{self['confirm'].auto_id}-{colour.value}",
                        colour.value in ticked,
                        sentence in errors,
                    )
                )
        return rows

    @property
    def other_confirm_errors(self):
        """Errors of the confirmation that are not a confirmation's own sentence (shown on their own)."""
        sentences = {row.sentence for row in self.confirmations}
        return [error for error in self.errors.get("confirm", []) if error not in sentences]

    @property
    def confirmed(self):
        """The card sent is confirmed (its colour is among those confirmed)."""
        return self.cleaned_data.get("colour") in self.cleaned_data.get("confirm", [])


class Confirmation(NamedTuple):
    """The confirmation a disqualifying card needs on the card form."""

    colour: str
    sentence: str  # "This is X's second yellow card: X will be disqualified."
    label: str  # the checkbox's
    id: str
    checked: bool
    refused: bool  # the card was sent without it


class WithdrawCardForm(forms.Form):
    """The head referee withdraws one card, with a reason."""

    card = forms.IntegerField(min_value=1, max_value=2**31 - 1, widget=forms.HiddenInput)
    reason = forms.CharField(
        label=_("Reason for the withdrawal"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reason"].error_messages["required"] = message_for("reason_required")
        self.fields["card"].error_messages.update(
            dict.fromkeys(("required", "invalid", "min_value", "max_value"), message_for("card_unknown"))
        )


class TieDecisionForm(forms.Form):
    """The head referee's order of one tie: a place for each tied player, and how it was decided."""

    reason = forms.CharField(
        label=_("How was the tie decided?"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
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


class SetAsideForm(forms.Form):
    """The head referee sets aside a tie decision whose players are no longer tied, with a reason."""

    decision = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**31 - 1)
    reason = forms.CharField(
        label=_("Why is it set aside?"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("For example: the players are no longer tied after the new scoring settings."),
    )

    def __init__(self, decision_id, *args, **kwargs):
        kwargs.setdefault("auto_id", f"aside-{decision_id}-%s")
        kwargs.setdefault("initial", {"decision": decision_id})
        super().__init__(*args, **kwargs)
        self.decision_id = decision_id
        self.fields["reason"].error_messages["required"] = message_for("reason_required")

    @staticmethod
    def posted_decision(data):
        """The id of the decision `data` sets aside, or None when it is not a set-aside form."""
        value = data.get("decision", "") if "set_aside" in data else ""
        return int(value) if value.isdecimal() and len(value) < 10 else None
