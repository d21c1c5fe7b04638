"""The checks every door applies to a tournament's settings and to names.

The settings form, the player forms, the CSV/XLSX player import and the JSON import
(`organiser.interchange`) call these same functions, so a value refused in one door is refused
in all of them. Each check raises `ValidationError` with a message for the user.
"""

import unicodedata

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

MAX_NAME = 200
MAX_SLUG = 80
MAX_PLACE_POINTS = 1000
MAX_PLACES = 4
RESERVED_SLUGS = frozenset({"new", "seasons"})  # /staff/new/ creates a tournament; /staff/seasons/ lists the seasons
SLUG_TAKEN = _("Another tournament already has this address: choose another one.")

# Whole-number settings: (lowest, highest) allowed.
SETTING_RANGES = {
    "joker_penalty": (0, 10_000),
    "penalty_not_possible": (0, 10_000),
    "penalty_possible_not_done": (0, 10_000),
    "penalty_drawn_last_round": (0, 10_000),
    "penalty_first_move": (0, 10_000),
    "players_per_organisation": (1, 50),
    "rounds_planned": (1, 20),
    "move_seconds": (5, 600),
    "final_games": (1, 12),
    "initial_meld": (0, 1000),
}

# Characters a name may not hold: control characters (Cc), format characters such as
# zero-width spaces and bidirectional overrides (Cf), surrogates (Cs), private-use (Co) and
# unassigned code points (Cn), and line/paragraph separators (Zl, Zp).
FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
FORBIDDEN_MESSAGE = _("Invisible or control character %(code)s: type the text again without it.")


def name_key(text):
    """Two names are the same name when they differ only in case and white space."""
    return " ".join(text.split()).casefold()


def forbidden_character(text):
    """The first invisible or control character in `text` as "U+202E", or None."""
    for char in text:
        if unicodedata.category(char) in FORBIDDEN_CATEGORIES:
            return f"U+{ord(char):04X}"
    return None


def clean_name(text, max_length=MAX_NAME):
    """A name with runs of white space collapsed; refuses invisible or control characters,
    an empty name and one longer than `max_length`."""
    code = forbidden_character(text)
    if code:
        raise ValidationError(FORBIDDEN_MESSAGE, code="forbidden_character", params={"code": code})
    name = " ".join(text.split())
    if not name:
        raise ValidationError(_("This field is required."), code="required")
    if len(name) > max_length:
        raise ValidationError(at_most_characters(max_length), code="max_length", params={"count": max_length})
    return name


def at_most_characters(count):
    return ngettext("At most %(count)s character.", "At most %(count)s characters.", count)


def validate_name(text):
    """A form field validator: `clean_name` without the result."""
    clean_name(text)


def check_slug(slug):
    """A tournament's short address: letters, digits, - and _, not a reserved word."""
    if len(slug) > MAX_SLUG:
        raise ValidationError(at_most_characters(MAX_SLUG), code="max_length", params={"count": MAX_SLUG})
    validate_slug(slug)
    if slug in RESERVED_SLUGS:
        raise ValidationError(_("This address is reserved: choose another one."), code="reserved")
    return slug


def check_places(places):
    """Big points for 1st, 2nd, 3rd and 4th place: 1 to 4 whole numbers 0–1000, never rising."""
    if not places:
        raise ValidationError(_("Enter the points for 1st place, then 2nd, 3rd and 4th, e.g. 1, 0, 0, 0."))
    if len(places) > MAX_PLACES:
        raise ValidationError(_("A table has at most 4 places: enter at most 4 numbers."))
    if any(p < 0 for p in places):
        raise ValidationError(_("Use whole numbers of 0 or more, separated by commas, e.g. 4, 3, 1, 0."))
    if any(p > MAX_PLACE_POINTS for p in places):
        raise ValidationError(
            ngettext(
                "Each place gets at most %(max)s point.", "Each place gets at most %(max)s points.", MAX_PLACE_POINTS
            )
            % {"max": MAX_PLACE_POINTS}
        )
    if any(later > earlier for earlier, later in zip(places, places[1:])):
        raise ValidationError(_("A lower place cannot get more points than a higher one."))
    return list(places)


def limit_problems(settings, *, largest, rounds_drawn, has_final):
    """What the tournament's data forbids in `settings` (a dict of setting values): a quota
    below the largest organisation, fewer rounds planned than drawn, no final once it is seated.

    Returns {setting name: message}.
    """
    problems = {}
    quota = settings.get("players_per_organisation")
    if quota is not None and quota < largest:
        problems["players_per_organisation"] = ngettext(
            "An organisation already has %(count)s player: the limit cannot be lower.",
            "An organisation already has %(count)s players: the limit cannot be lower.",
            largest,
        ) % {"count": largest}
    planned = settings.get("rounds_planned")
    if planned is not None and planned < rounds_drawn:
        problems["rounds_planned"] = ngettext(
            "%(count)s round has already been drawn: plan at least that many.",
            "%(count)s rounds have already been drawn: plan at least that many.",
            rounds_drawn,
        ) % {"count": rounds_drawn}
    if has_final and settings.get("final") is False:
        problems["final"] = _("The final has already been seated.")
    return problems
