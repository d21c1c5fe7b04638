"""Print a seating plan for players 1..N over R rounds, with its quality report."""

import json
import random
import time

from django.core.management.base import BaseCommand, CommandError

from engine.seating import METHODS, SeatingError, plan_tournament


class Command(BaseCommand):
    help = "Draw a seating plan for players numbered 1..N and print its quality report."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True, help="number of players (N)")
        parser.add_argument("--rounds", type=int, required=True, help="number of rounds (R)")
        parser.add_argument("--method", choices=METHODS, default="mixed")
        parser.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
        parser.add_argument("--json", action="store_true", help="print JSON")

    def handle(self, *args, players, rounds, method, seed, **options):
        if players < 3:
            raise CommandError(f"At least 3 players are needed ({players} given).")
        if players == 5:
            raise CommandError("5 players cannot be seated at tables of 3 or 4 players.")
        if rounds < 1:
            raise CommandError(f"At least one round is needed ({rounds} given).")
        if seed is None:
            seed = random.SystemRandom().randrange(10**9)
        start = time.perf_counter()
        try:
            plan, report = plan_tournament(players, rounds, method=method, seed=seed)
        except SeatingError as exc:
            raise CommandError(str(exc)) from exc
        seconds = round(time.perf_counter() - start, 3)
        if options["json"]:
            self.stdout.write(
                json.dumps(
                    {
                        "players": players,
                        "rounds": [
                            [{"table": j, "seats": table} for j, table in enumerate(seating, start=1)]
                            for seating in plan
                        ],
                        "report": report,
                        "seconds": seconds,
                        "seed": seed,
                        "method": method,
                    }
                )
            )
            return
        out = self.stdout.write
        out(f"Seating plan: {players} players, {rounds} rounds, method {method}, seed {seed}")
        for r, seating in enumerate(plan, start=1):
            out(f"Round {r}")
            for j, table in enumerate(seating, start=1):
                seats = "  ".join(f"{letter}:{pid}" for letter, pid in table.items())
                out(f"  Table {j:>3}  {seats}")
        out(f"Repeat pairs: {report['repeat_pairs']}")
        for item in report["pairs"]:
            a, b = item["pair"]
            out(f"  {a}-{b} met {item['count']} times")
        out(f"Worst pair: {report['worst_pair']}")
        out(f"3-table repeats: {report['three_table_repeats']}")
        out(f"Seat spread: {report['seat_spread']}")
        out(f"Time: {seconds} s")
