"""A demo tournament: the 42 sample players, two rounds seated by the engine, random results.

Used by `manage.py load_demo` (and `make run` on an empty database) and by benchmarks.
"""

import csv
import datetime
import random
from pathlib import Path

from engine import seating

PLAYERS_CSV = Path(__file__).with_name("players-42.csv")
DEMO_SLUG = "senioriada-demo"


def random_game(rng, number, letters):
    """A plausible finished game: mostly someone goes out, sometimes the pool runs dry."""
    winner = rng.choice(letters) if rng.random() < 0.9 else None
    racks, jokers_left = {}, 2
    for letter in letters:
        if letter == winner:
            continue
        jokers = rng.choice([0, 0, 0, 0, 1]) if jokers_left else 0
        jokers_left -= jokers
        opening = rng.choice(["opened"] * 10 + ["not_possible", "possible_not_done"])
        racks[letter] = {"tiles": rng.randint(0, 70), "jokers": jokers, "opening": opening}
    game = {"number": number, "ending": "out" if winner else "pool_exhausted", "racks": racks}
    if winner:
        game["winner"] = winner
    return game


def random_tournament(n_players, n_rounds, *, slug="bench", seed=2026):
    """A large tournament for benchmarks: players shuffled into 4-tables, random verified results."""
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(1, n_players + 1)]
    rounds = []
    for number in range(1, n_rounds + 1):
        rng.shuffle(ids)
        tables = [
            {
                "number": t + 1,
                "seats": dict(zip("ABCD", ids[4 * t : 4 * t + 4])),
                "games": [random_game(rng, g, "ABCD") for g in range(1, 5)],
            }
            for t in range(n_players // 4)
        ]
        rounds.append({"number": number, "state": "completed", "tables": tables})
    return {
        "format": "rummikub-tournament/1",
        "tournament": {
            "name": "Benchmark",
            "slug": slug,
            "date": "2026-02-10",
            "settings": {"final": False, "rounds_planned": max(n_rounds, 1)},
        },
        "players": [
            {"id": f"p{i}", "name": f"Gracz {i}", "organisation": f"Klub {i}"} for i in range(1, n_players + 1)
        ],
        "rounds": rounds,
    }


def sample_players():
    with PLAYERS_CSV.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return [
        {"id": f"p{i}", "name": row["name"].strip(), "organisation": row["organisation"].strip(), "present": True}
        for i, row in enumerate(rows, start=1)
    ]


def played_rounds(player_ids, n_rounds, seed):
    """`n_rounds` completed rounds seated by the engine (mixed), every sheet verified."""
    rng = random.Random(seed)
    history, rounds = [], []
    for number in range(1, n_rounds + 1):
        round_seed = f"{seed}-{number}"
        tables = seating.draw_round(player_ids, history, seed=round_seed, method="mixed")
        history.append(tables)
        rounds.append(
            {
                "number": number,
                "kind": "qualifying",
                "state": "completed",
                "seed": round_seed,
                "method": "random" if number == 1 else "mixed",
                "tables": [
                    {
                        "number": index,
                        "seats": seats,
                        "state": "verified",
                        "games": [random_game(rng, g, "".join(sorted(seats))) for g in range(1, len(seats) + 1)],
                    }
                    for index, seats in enumerate(tables, start=1)
                ],
            }
        )
    return rounds


def demo_data(seed=2026, n_rounds=2):
    players = sample_players()
    return {
        "format": "rummikub-tournament/1",
        "tournament": {
            "name": "Senioriada — turniej pokazowy",
            "slug": DEMO_SLUG,
            "date": datetime.date.today().isoformat(),
            "settings": {"rounds_planned": 5, "final": True},
        },
        "players": players,
        "rounds": played_rounds([p["id"] for p in players], n_rounds, seed),
    }
