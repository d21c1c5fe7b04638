"""Small builders for tests: a tournament as an interchange dict, imported in one call."""

import copy

from organiser.interchange import import_tournament

BASE = {
    "format": "rummikub-tournament/1",
    "tournament": {"name": "Senioriada Test", "slug": "test", "date": "2026-02-10", "settings": {}},
    "players": [],
    "rounds": [],
}


def players(n, prefix="p"):
    """n players p1…pn, each from an organisation of their own."""
    return [{"id": f"{prefix}{i}", "name": f"Gracz {i}", "organisation": f"Klub {i}"} for i in range(1, n + 1)]


def out_game(number, winner, **racks):
    """A game where `winner` went out; racks as letter=(tiles, jokers[, opening])."""
    return {
        "number": number, "ending": "out", "winner": winner,
        "racks": {letter: _rack(value) for letter, value in racks.items()},
    }


def _rack(value):
    if isinstance(value, dict):
        return value
    tiles, jokers, *opening = value
    return {"tiles": tiles, "jokers": jokers, "opening": opening[0] if opening else "opened"}


def table(number, seats, games=(), state=None):
    data = {"number": number, "seats": dict(zip("ABCD", seats)), "games": list(games)}
    if state:
        data["state"] = state
    return data


def tournament_data(n_players=8, rounds=(), settings=None, **extra):
    data = copy.deepcopy(BASE)
    data["players"] = players(n_players)
    data["rounds"] = list(rounds)
    data["tournament"]["settings"] = dict(settings or {})
    data.update(extra)
    return data


def build(n_players=8, rounds=(), settings=None, **extra):
    return import_tournament(tournament_data(n_players, rounds, settings, **extra))
