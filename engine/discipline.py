"""Discipline (SPEC §7, regulations §11): when cards disqualify a player."""

from collections.abc import Mapping

ACTIVE = "active"
WITHDRAWN = "withdrawn"
DISQUALIFIED = "disqualified"
STATUSES = (ACTIVE, WITHDRAWN, DISQUALIFIED)

YELLOW = "yellow"
RED = "red"
WARNING = "warning"
COLOURS = (YELLOW, RED, WARNING)
YELLOWS_TO_DISQUALIFY = 2


def disqualifies(colours: Mapping[str, int]) -> bool:
    """Whether cards counted by colour disqualify: a red card, or the second yellow."""
    return colours.get(RED, 0) > 0 or colours.get(YELLOW, 0) >= YELLOWS_TO_DISQUALIFY


def derived_status(stored: str, colours: Mapping[str, int]) -> str:
    """SPEC §9: two yellow cards or a red card disqualify, whatever the stored status says."""
    return DISQUALIFIED if disqualifies(colours) else stored
