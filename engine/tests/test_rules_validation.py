"""Refused games and keypad racks (`engine/rules.py`, SPEC §3 "Validation")."""

from __future__ import annotations

import pytest

from engine.rules import (
    DRAWN_LAST_ROUND,
    JOKER,
    MAX_TILES,
    Game,
    Rack,
    RuleViolation,
    keypad_rack,
    score_game,
    validate_game,
    validate_keypad_racks,
)
from engine.tests.games import ABC, ABCD, opened, out, pool, violation

# Validation (SPEC §3 "Validation")
# ---------------------------------------------------------------------------------------

GOOD = {"B": opened(1), "C": opened(2), "D": opened(3)}


@pytest.mark.parametrize(
    "game, code, path",
    [
        # pool exhausted needs a rack for every seat
        (pool(A=opened(1), B=opened(2), C=opened(3)), "rack_missing", "racks.D"),
        (pool(B=opened(1), C=opened(2), D=opened(3)), "rack_missing", "racks.A"),
        (pool(), "rack_missing", "racks.A"),
        # a normal end needs a rack for every loser
        (out("A", B=opened(1), C=opened(2)), "rack_missing", "racks.D"),
        (out("B", ABC, A=opened(1)), "rack_missing", "racks.C"),
        # no rack for the winner
        (out("A", A=opened(0), **GOOD), "winner_has_rack", "racks.A"),
        # winner must sit at the table
        (out("D", ABC, A=opened(1), B=opened(2), C=opened(3)), "winner_not_at_table", "winner"),
        (out("E", A=opened(1), B=opened(2), C=opened(3), D=opened(4)), "winner_not_at_table", "winner"),
        (out("", **GOOD), "winner_not_at_table", "winner"),
        # racks only for seats at the table
        (out("A", ABC, B=opened(1), C=opened(2), D=opened(3)), "seat_not_at_table", "racks.D"),
        (pool(ABC, A=opened(1), B=opened(2), C=opened(3), D=opened(3)), "seat_not_at_table", "racks.D"),
        (out("A", B=opened(1), C=opened(2), D=opened(3), E=opened(4)), "seat_letter", "racks.E"),
        # seat letters A–D
        (out("A", ("A", "B", "E"), B=opened(1), E=opened(2)), "seat_letter", "seats"),
        (out("a", ("a", "b", "c"), b=opened(1), c=opened(2)), "seat_letter", "seats"),
        # duplicated seats
        (out("A", ("A", "B", "B", "C"), B=opened(1), C=opened(2)), "seat_twice", "seats"),
        (out("A", ("A", "A", "B"), B=opened(1)), "seat_twice", "seats"),
        # table size 3 or 4
        (out("A", ("A", "B"), B=opened(1)), "table_size", "seats"),
        (pool(()), "table_size", "seats"),
        (pool(("A",), A=opened(1)), "table_size", "seats"),
        # tiles: whole number 0–728
        (out("A", B=Rack(tiles=-3), C=opened(), D=opened()), "tiles_range", "racks.B.tiles"),
        (out("A", B=opened(), C=Rack(tiles=729), D=opened()), "tiles_range", "racks.C.tiles"),
        (out("A", B=opened(), C=opened(), D=Rack(tiles=10_000)), "tiles_range", "racks.D.tiles"),
        # values of the wrong type on purpose: the rules refuse what a file or form may hold
        (out("A", B=Rack(tiles=12.5), C=opened(), D=opened()), "tiles_not_integer", "racks.B.tiles"),  # type: ignore[arg-type]
        (out("A", B=Rack(tiles=12.0), C=opened(), D=opened()), "tiles_not_integer", "racks.B.tiles"),  # type: ignore[arg-type]
        (out("A", B=Rack(tiles="12"), C=opened(), D=opened()), "tiles_not_integer", "racks.B.tiles"),  # type: ignore[arg-type]
        (out("A", B=Rack(tiles=None), C=opened(), D=opened()), "tiles_not_integer", "racks.B.tiles"),  # type: ignore[arg-type]
        (out("A", B=Rack(tiles=True), C=opened(), D=opened()), "tiles_not_integer", "racks.B.tiles"),
        (out("A", B=Rack(tiles=False), C=opened(), D=opened()), "tiles_not_integer", "racks.B.tiles"),
        # jokers 0–2 per rack
        (out("A", B=opened(), C=Rack(jokers=3), D=opened()), "jokers_range", "racks.C.jokers"),
        (out("A", B=opened(), C=Rack(jokers=-1), D=opened()), "jokers_range", "racks.C.jokers"),
        (out("A", B=opened(), C=Rack(jokers=True), D=opened()), "jokers_not_integer", "racks.C.jokers"),
        (out("A", B=opened(), C=Rack(jokers=1.0), D=opened()), "jokers_not_integer", "racks.C.jokers"),  # type: ignore[arg-type]
        # at most 2 jokers per game at a table
        (out("A", B=opened(0, 2), C=opened(0, 1), D=opened()), "jokers_per_game", "racks"),
        (pool(A=opened(0, 1), B=opened(0, 1), C=opened(0, 1), D=opened()), "jokers_per_game", "racks"),
        (pool(A=opened(0, 2), B=opened(0, 2), C=opened(), D=opened()), "jokers_per_game", "racks"),
        # opening must be known
        (out("A", B=Rack(opening="closed"), C=opened(), D=opened()), "opening_unknown", "racks.B.opening"),
        (out("A", B=Rack(opening="OPENED"), C=opened(), D=opened()), "opening_unknown", "racks.B.opening"),
        (out("A", B=Rack(opening=None), C=opened(), D=opened()), "opening_unknown", "racks.B.opening"),  # type: ignore[arg-type]
        # first_move_case must be a bool
        (
            out("A", B=Rack(first_move_case="yes"), C=opened(), D=opened()),  # type: ignore[arg-type]
            "first_move_case_not_bool",
            "racks.B.first_move_case",
        ),
        (
            out("A", B=Rack(first_move_case=1), C=opened(), D=opened()),  # type: ignore[arg-type]
            "first_move_case_not_bool",
            "racks.B.first_move_case",
        ),
    ],
)
def test_validation_rejects(game, code, path):
    err = violation(game)
    assert err.code == code
    assert err.path == path
    assert err.message
    assert str(err) == f"{path}: {err.message}"
    assert isinstance(err, ValueError)


def test_tiles_negative_message():
    err = violation(out("A", B=Rack(tiles=-3), C=opened(), D=opened()))
    assert (err.code, err.path, err.message) == ("tiles_range", "racks.B.tiles", "must be 0–728, got -3")
    assert str(err) == "racks.B.tiles: must be 0–728, got -3"
    assert err.params == {"value": -3, "max": 728}


def test_tiles_too_large_message():
    err = violation(out("A", B=Rack(tiles=729), C=opened(), D=opened()))
    assert err.message == "must be 0–728, got 729"
    assert err.params["value"] == 729


def test_jokers_per_game_message():
    err = violation(out("A", B=opened(0, 2), C=opened(0, 1), D=opened()))
    assert err.params == {"value": 3, "max": 2}


def test_rack_missing_names_the_seat():
    err = violation(pool(A=opened(1), B=opened(2), C=opened(3)))
    assert err.params == {"seat": "D"}
    assert "D" in err.message


@pytest.mark.parametrize(
    "seats, codes",
    [
        # A table of 5 cannot be written with distinct letters A–D, so the letter or the
        # duplicate is what gets reported first (either is an acceptable answer on `seats`).
        (("A", "B", "C", "D", "E"), {"table_size", "seat_letter"}),
        (("A", "B", "C", "D", "A"), {"table_size", "seat_twice"}),
    ],
)
def test_validation_table_of_five(seats, codes):
    racks = {s: opened(1) for s in seats if s != "A"}
    err = violation(Game(seats=seats, winner="A", racks=racks))
    assert err.code in codes
    assert err.path == "seats"


@pytest.mark.parametrize(
    "game",
    [
        out("A", B=opened(0), C=opened(0), D=opened(0)),  # tiles 0
        out("A", B=opened(MAX_TILES), C=opened(0), D=opened(0)),  # tiles 728
        out("A", B=opened(0, 2), C=opened(), D=opened()),  # 2 jokers on one rack
        out("A", B=opened(0, 1), C=opened(0, 1), D=opened()),  # 2 jokers across the game
        pool(A=opened(0, 1), B=opened(), C=opened(), D=opened(0, 1)),
        pool(ABC, A=opened(MAX_TILES, 2), B=opened(), C=opened()),
        out("C", ABC, A=opened(5), B=opened(6)),
        out("D", ("B", "C", "D"), B=opened(5), C=opened(6)),  # any three letters
        out("A", B=Rack(tiles=5, opening=DRAWN_LAST_ROUND, first_move_case=True), C=opened(), D=opened()),
    ],
)
def test_validation_accepts_boundaries(game):
    validate_game(game)
    result = score_game(game)
    assert sum(result.scores.values()) == 0


# ---------------------------------------------------------------------------------------
# Keypad racks (tile by tile)
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "faces, expected",
    [
        ([], (0, 0)),
        ([1, 13, JOKER, 5], (19, 1)),  # 1 + 13 + 5 = 19, one joker
        (["J", "J"], (0, 2)),
        ([13, 13, 13, 13, 13, 13, 13, 13], (104, 0)),
        (list(range(1, 14)), (91, 0)),  # 1 + ... + 13 = 91
        (iter([7, "J", 3]), (10, 1)),  # any iterable
    ],
)
def test_keypad_rack(faces, expected):
    assert keypad_rack(faces) == expected


def test_keypad_full_set_is_max_tiles():
    # 104 numbered tiles = 8 copies of 1..13 = 8 x 91 = 728 = MAX_TILES
    assert keypad_rack([face for face in range(1, 14) for _ in range(8)]) == (MAX_TILES, 0)


@pytest.mark.parametrize("face", [0, 14, -1, "x", "j", "5", 5.0, True, False, None])
def test_keypad_rack_rejects_invalid_face(face):
    with pytest.raises(RuleViolation) as info:
        keypad_rack([3, face])
    assert info.value.code == "keypad_face"
    assert info.value.path == "keypad"
    with pytest.raises(RuleViolation) as info:
        validate_keypad_racks({"B": [3, face]})
    assert info.value.code == "keypad_face"


def test_keypad_eight_copies_across_the_game_ok():
    # 3 + 3 + 2 = 8 sevens
    validate_keypad_racks({"A": [7, 7, 7], "B": [7, 7, 7, 1], "C": [7, 7, "J"]})


def test_keypad_nine_copies_rejected():
    # 3 + 3 + 3 = 9 sevens: the ninth appears in C
    with pytest.raises(RuleViolation) as info:
        validate_keypad_racks({"A": [7, 7, 7], "B": [7, 7, 7], "C": [7, 7, 7]})
    assert info.value.code == "keypad_copies"
    assert info.value.path == "racks.C.keypad"
    assert info.value.params["face"] == 7
    assert info.value.params["max"] == 8


def test_keypad_nine_copies_in_one_rack_rejected():
    with pytest.raises(RuleViolation) as info:
        validate_keypad_racks({"D": [13] * 9})
    assert (info.value.code, info.value.path) == ("keypad_copies", "racks.D.keypad")


def test_keypad_full_set_ok():
    # every numbered tile and both jokers, spread over four racks
    everything = [face for face in range(1, 14) for _ in range(8)] + [JOKER, JOKER]
    validate_keypad_racks({s: everything[i::4] for i, s in enumerate(ABCD)})


@pytest.mark.parametrize(
    "racks, path",
    [({"A": ["J"], "B": ["J", 3], "C": ["J"]}, "racks.C.keypad"), ({"B": ["J", "J", "J"]}, "racks.B.keypad")],
)
def test_keypad_three_jokers_rejected(racks, path):
    with pytest.raises(RuleViolation) as info:
        validate_keypad_racks(racks)
    assert info.value.code == "keypad_jokers"
    assert info.value.path == path


def test_keypad_two_jokers_ok():
    validate_keypad_racks({"A": ["J"], "B": [3], "C": ["J", 13]})
    validate_keypad_racks({"A": ["J", "J"]})


def test_keypad_accepts_generators():
    validate_keypad_racks({"A": (f for f in [1, 2, 3]), "B": iter(["J"])})
