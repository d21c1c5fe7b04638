"""Benchmark of the seating engine: python bench/bench_seating.py [--quick].

For each field size N and number of rounds R, draws a plan with the engine
("mixed", as the app does round by round) and compares it with the best of
many plain random draws (best = fewest repeat pairs, then worst pair, then
seat spread).  Prints the budget lines (PASS/FAIL) and the known optima.
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tournament.seating import plan_tournament, quality_report, table_sizes  # noqa: E402

SIZES = [13, 16, 20, 24, 27, 28, 32, 41, 64, 100, 150, 200]
ROUNDS = [4, 5, 6, 7, 8]
KNOWN_OPTIMA = [(16, 5), (24, 7), (28, 9), (32, 10)]


def random_plan(n, rounds, rng):
    players = list(range(1, n + 1))
    sizes = table_sizes(n)
    plan = []
    for _ in range(rounds):
        rng.shuffle(players)
        seating, i = [], 0
        for s in sizes:
            seating.append({"ABCD"[k]: players[i + k] for k in range(s)})
            i += s
        plan.append(seating)
    return plan


def key(report):
    return (report["repeat_pairs"], report["worst_pair"], report["seat_spread"])


def best_random(n, rounds, draws, seed):
    rng = random.Random(seed)
    best = None
    for _ in range(draws):
        report = quality_report(random_plan(n, rounds, rng))
        if best is None or key(report) < key(best):
            best = report
    return best


def random_draws(n, rounds, quick):
    """How many random plans to draw (fewer for big fields, to stay within minutes)."""
    work = n * n * rounds
    draws = max(20, min(1000, 4_000_000 // work))
    return max(10, draws // 5) if quick else draws


def engine(n, rounds, seed):
    start = time.perf_counter()
    plan, report = plan_tournament(n, rounds, method="mixed", seed=seed)
    return report, (time.perf_counter() - start) / rounds


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a small subset")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sizes = [13, 16, 24, 41, 200] if args.quick else SIZES
    rounds_list = [4, 6] if args.quick else ROUNDS
    t0 = time.perf_counter()
    results = {}
    header = (
        f"{'N':>4} {'R':>2} | {'rep':>4} {'worst':>5} {'spread':>6} {'3rep':>4} {'s/round':>8}"
        f" | {'random':>7} {'rep':>4} {'worst':>5} {'spread':>6}"
    )
    print("engine (mixed) vs best of plain random draws")
    print(header)
    print("-" * len(header))
    for n in sizes:
        for r in rounds_list:
            report, per_round = engine(n, r, args.seed)
            results[(n, r)] = (report, per_round)
            draws = random_draws(n, r, args.quick)
            rnd = best_random(n, r, draws, args.seed)
            print(
                f"{n:>4} {r:>2} | {report['repeat_pairs']:>4} {report['worst_pair']:>5}"
                f" {report['seat_spread']:>6} {report['three_table_repeats']:>4}"
                f" {per_round:>8.3f} | {draws:>7} {rnd['repeat_pairs']:>4}"
                f" {rnd['worst_pair']:>5} {rnd['seat_spread']:>6}",
                flush=True,
            )

    print()
    print("budgets")
    ok_all = True

    def line(label, ok):
        nonlocal ok_all
        ok_all &= ok
        print(f"  {'PASS' if ok else 'FAIL'}  {label}")

    for n in (16, 20):
        for r in (4,):
            if (n, r) in results or not args.quick:
                report = results.get((n, r)) or (engine(n, r, args.seed)[0], None)
                line(f"{n} players x {r} rounds: 0 repeat pairs "
                     f"(got {report[0]['repeat_pairs']})", report[0]["repeat_pairs"] == 0)
    for (n, r), (report, _) in sorted(results.items()):
        if n >= 24 and r <= 6:
            line(f"{n} players x {r} rounds: 0 repeat pairs (got {report['repeat_pairs']})",
                 report["repeat_pairs"] == 0)
    for (n, r), (report, per_round) in sorted(results.items()):
        if n == 200:
            line(f"200 players x {r} rounds: under 2 s a round (got {per_round:.2f} s)",
                 per_round < 2.0)

    print()
    print("known zero-repeat schedules (social golfer): repeat pairs found")
    for n, r in ([(16, 5), (24, 7)] if args.quick else KNOWN_OPTIMA):
        report, per_round = engine(n, r, args.seed)
        print(f"  {n} players x {r:>2} rounds: {report['repeat_pairs']} repeat pairs, "
              f"worst pair {report['worst_pair']}, {per_round:.2f} s/round")
    print()
    print(f"{'all budgets met' if ok_all else 'SOME BUDGETS FAILED'}; "
          f"total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
