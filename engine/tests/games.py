"""Small builders for the rules tests: games, racks and a refused game's violation."""

from __future__ import annotations

import pytest

from engine.rules import DIFFERENCE, OPENED, SUM, Game, Rack, RuleViolation, Settings, score_game, validate_game

ABCD = ("A", "B", "C", "D")
ABC = ("A", "B", "C")
GERMAN = (4, 3, 1, 0)
SUM_S = Settings(pool_exhausted_scoring=SUM)
DIFF_S = Settings(pool_exhausted_scoring=DIFFERENCE)


def out(winner: str, seats=ABCD, **racks: Rack) -> Game:
    """A normal end: `winner` went out, every other seat has a rack."""
    return Game(seats=tuple(seats), winner=winner, racks=racks)


def pool(seats=ABCD, **racks: Rack) -> Game:
    """A pool-exhausted game: nobody went out, every seat has a rack."""
    return Game(seats=tuple(seats), winner=None, racks=racks)


def opened(tiles: int = 0, jokers: int = 0) -> Rack:
    return Rack(tiles=tiles, jokers=jokers, opening=OPENED)


def violation(game: Game) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        validate_game(game)
    # score_game validates first, so it must refuse the same game the same way
    with pytest.raises(RuleViolation) as info2:
        score_game(game)
    assert (info2.value.code, info2.value.path) == (info.value.code, info.value.path)
    return info.value
