"""The checks every value of an interchange file goes through, and decoding the JSON.

Each check returns the value or raises `InterchangeError`, whose one-line message starts with
the JSON path of the value (e.g. ``players[3].name: must be a non-empty text``).
"""

from __future__ import annotations

import datetime
import json
import re

from django.core.exceptions import ValidationError
from django.utils import timezone

from tournament import validation

MAX_DEPTH = 16  # the format nests 10 levels deep at most
MAX_DIGITS = 18  # a longer whole number in a file is refused where it stands
MAX_MESSAGE = 300
TEXT_CONTROLS = "\n\r\t"  # allowed in reasons, never in names or ids
TIME_OF_DAY_RE = re.compile(r"\d\d:\d\d(:\d\d(\.\d{1,6})?)?", re.ASCII)
JSON_TOKEN_RE = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


class InterchangeError(ValueError):
    """A file that cannot be imported; the message (one line) starts with the JSON path."""


class HugeNumber:
    """A whole number with too many digits to be meant, kept as its digit count (see `checked_int`)."""

    def __init__(self, digits):
        self.digits = digits

    def __repr__(self):
        return f"a number with {self.digits} digits"


def one_line(text):
    """`text` with every unprintable character escaped (\\n, \\ud800…), cut to a sane length."""
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def fail(path, message):
    raise InterchangeError(one_line(f"{path}: {message}" if path else message))


def shown(value):
    """A short description of a value for a message (never a huge or deeply nested repr)."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str) and len(value) > 40:
        return repr(value[:40]) + "…"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 60:
        return f"a number with about {int(value.bit_length() * 0.30103) + 1} digits"
    return repr(value)


def refusal_text(error):
    """The user's message of a shared check's ValidationError."""
    return " ".join(str(message) for message in error.messages)


def checked_object(value, path):
    if not isinstance(value, dict):
        fail(path, f"must be an object, got {type(value).__name__}")
    return value


def checked_list(value, path):
    if not isinstance(value, list):
        fail(path, f"must be a list, got {type(value).__name__}")
    return value


def checked_text(value, path, *, max_length=200, allowed_controls=""):
    """A non-empty text, stripped; refuses invisible and control characters but `allowed_controls`."""
    if not isinstance(value, str) or not value.strip():
        fail(path, "must be a non-empty text")
    if len(value) > max_length:
        fail(path, f"must be at most {max_length} characters long")
    code = validation.forbidden_character(value.translate({ord(c): " " for c in allowed_controls}))
    if code:
        fail(path, validation.FORBIDDEN_MESSAGE % {"code": code})
    return value.strip()


def checked_name(value, path):
    """A tournament, player or organisation name: the same check as the forms'."""
    if not isinstance(value, str):
        fail(path, "must be a non-empty text")
    try:
        return validation.clean_name(value)
    except ValidationError as error:
        fail(path, refusal_text(error))


def checked_int(value, path, low, high):
    if isinstance(value, HugeNumber):
        fail(path, f"must be {low}–{high}, got {value!r}")
    if not isinstance(value, int) or isinstance(value, bool):
        fail(path, f"must be a whole number, got {shown(value)}")
    if not low <= value <= high:
        fail(path, f"must be {low}–{high}, got {shown(value)}")
    return value


def checked_time(value, path):
    """A moment with its offset (ISO 8601, like 2026-02-10T09:30:00+00:00)."""
    try:
        when = datetime.datetime.fromisoformat(value)
        when = when.astimezone(datetime.UTC) if when.tzinfo else None  # years 1–9999 in UTC too
    except (TypeError, ValueError, OverflowError):
        when = None
    if when is None:
        fail(path, f"must be a time with its offset, like 2026-02-10T09:30:00+00:00, got {shown(value)}")
    return when


def checked_time_of_day(value, path):
    """A time of day on the tournament's own clock, without an offset: "09:30" (or "09:30:15")."""
    if not isinstance(value, str) or not TIME_OF_DAY_RE.fullmatch(value):
        fail(path, f"must be a time of day like 09:30, got {shown(value)}")
    try:
        return datetime.time.fromisoformat(value)
    except ValueError:
        fail(path, f"must be a time of day like 09:30, got {shown(value)}")


def optional_text(value, path, max_length):
    """A text that may be missing, null or empty (then "")."""
    if value is None or value == "":
        return ""
    return checked_text(value, path, max_length=max_length, allowed_controls=TEXT_CONTROLS)


def checked_choice(value, path, choices):
    if not isinstance(value, str) or value not in choices:
        fail(path, f"must be one of {', '.join(choices)}, got {shown(value)}")
    return value


def checked_player(value, path, players):
    if not isinstance(value, str) or value not in players:
        fail(path, f"unknown player {shown(value)}")
    return value


def check_known_keys(obj, path, keys):
    for key in obj:
        if key not in keys:
            fail(f"{path}.{key}" if path else key, "unknown field")


def check_depth(data):
    """Refuse nesting deeper than the format has, naming the path of the first too-deep value."""
    stack = [(data, "", 1)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            fail(path, f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, dict):
            stack.extend((child, f"{path}.{key}" if path else key, depth + 1) for key, child in value.items())
        elif isinstance(value, list):
            stack.extend((child, f"{path}[{i}]", depth + 1) for i, child in enumerate(value))


def _whole_number(text):
    digits = len(text.lstrip("-"))
    return int(text) if digits <= MAX_DIGITS else HugeNumber(digits)


def _too_deep_line(text):
    """The line where `text` first nests deeper than MAX_DEPTH (brackets inside strings do not count)."""
    depth = 0
    for token in JSON_TOKEN_RE.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return text.count("\n", 0, token.start()) + 1
        elif bracket in "]}":
            depth -= 1
    return 1


def decode(text):
    """The decoded file; raises InterchangeError ("invalid JSON at line N: …") for text that is not
    JSON or nests deeper than the format. A whole number with more than MAX_DIGITS digits becomes a
    HugeNumber, refused with its JSON path by `parse`."""
    try:
        return json.loads(text, parse_int=_whole_number)
    except json.JSONDecodeError as error:
        fail("", f"invalid JSON at line {error.lineno}, column {error.colno}: {error.msg}")
    except RecursionError:
        fail("", f"invalid JSON at line {_too_deep_line(text)}: nested more than {MAX_DEPTH} levels deep")


def checked_datetime(value, path):
    """An ISO date-time with its offset, e.g. "2026-05-10T20:00:00+02:00" (no offset: the server's time zone)."""
    if not isinstance(value, str) or len(value) > 40:
        fail(path, f"must be an ISO date-time such as 2026-05-10T20:00:00+02:00, got {shown(value)}")
    try:
        moment = datetime.datetime.fromisoformat(value)
    except ValueError:
        fail(path, f"must be an ISO date-time such as 2026-05-10T20:00:00+02:00, got {shown(value)}")
    if moment.tzinfo is None:
        moment = timezone.make_aware(moment)
    return moment
