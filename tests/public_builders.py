"""A small tournament for the public-page tests, with distinctive scores to look for.

Eight players with Polish names, four rounds:
1 completed and verified (player p1 wins a game with an overridden score of ROUND1_SCORE),
2 completed and verified, 3 started (table 1 verified with LATE_SCORE, table 2 submitted
but not verified with UNVERIFIED_SCORE), 4 published (seating only), 5 a draft.
"""

from organiser.interchange import import_tournament
from tests.factories import out_game, table, tournament_data

ROUND1_SCORE = 3917  # verified, round 1: public in live and frozen (as of round 2) modes
LATE_SCORE = 4321  # verified, round 3 (after the freeze): public only in live mode
UNVERIFIED_SCORE = 2789  # never public: the sheet is not verified

NAMES = [
    ("Jan Łęcki", "UTW Kraków"), ("Anna Nowak", "UTW Łódź"), ("Zofia Żółkiewska", "Klub Seniora Gdańsk"),
    ("Stanisław Ćwik", "UTW Poznań"), ("Małgorzata Wiśniewska", "UTW Wrocław"), ("Józef Kowalski", "UTW Lublin"),
    ("Halina Dąbrowska", "UTW Opole"), ("Ryszard Gęba", "UTW Toruń"),
]


def _override(game, score):
    game["winner_override"] = {"score": score, "reason": "counted again by the referee"}
    return game


def games(a_score=None):
    """Four games at a 4-table; the winner of game 1 (seat A) may get an overridden score."""
    first = out_game(1, "A", B=(23, 0), C=(10, 1), D=(0, 0, "not_possible"))
    if a_score is not None:
        _override(first, a_score)
    return [
        first,
        out_game(2, "B", A=(12, 0), C=(7, 0), D=(30, 0)),
        out_game(3, "C", A=(5, 0), B=(40, 0), D=(9, 0)),
        out_game(4, "D", A=(8, 0), B=(6, 0), C=(21, 0)),
    ]


def hall_data(visibility="live", frozen_round=None, players=8, slug="test"):
    data = tournament_data(players, settings={"final": False, "rounds_planned": 5, "visibility": visibility})
    data["tournament"]["slug"] = slug
    if frozen_round is not None:
        data["tournament"]["settings"]["frozen_round"] = frozen_round
    for player, (name, organisation) in zip(data["players"], NAMES):
        player["name"], player["organisation"] = name, organisation
    ids = [p["id"] for p in data["players"]]
    quads = [ids[i : i + 4] for i in range(0, len(ids) - len(ids) % 4, 4)]
    rotated = [q[1:] + q[:1] for q in quads]
    data["rounds"] = [
        {"number": 1, "state": "completed", "tables": [
            table(n, quad, games(ROUND1_SCORE if n == 1 else None)) for n, quad in enumerate(quads, start=1)]},
        {"number": 2, "state": "completed", "tables": [
            table(n, quad, games()) for n, quad in enumerate(rotated, start=1)]},
        {"number": 3, "state": "started", "tables": [
            table(n, quad, games(LATE_SCORE if n == 1 else UNVERIFIED_SCORE if n == 2 else None),
                  state="verified" if n != 2 else "submitted")
            for n, quad in enumerate(quads, start=1)]},
        {"number": 4, "state": "published", "tables": [
            table(n, quad) for n, quad in enumerate(reversed(rotated), start=1)]},
        {"number": 5, "state": "draft", "tables": [table(n, quad) for n, quad in enumerate(quads, start=1)]},
    ]
    return data


def build_hall(visibility="live", frozen_round=None, players=8, slug="test"):
    return import_tournament(hall_data(visibility, frozen_round, players, slug))
