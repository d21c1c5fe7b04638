"""Benchmark of the seating engine: python bench/bench_seating.py [--quick | --smoke].

1. Zero-repeat rounds for N = 13..64 players: for each N, plans of R = 2, 3, ...
   rounds are drawn as the app draws them (round by round, "mixed", the seed
   derived per round) and the repeat pairs of each are printed up to the known
   maximum of rounds without a repeat (N divisible by 4: the social golfer
   optima; otherwise a counting bound, see ``upper_bound``), next to that
   figure.  Then the rows of the issue's table.
2. Speed: seconds per round at 200 players (budget: under 2 s a round), and the
   engine against the best of many plain random draws at a few sizes.

Timings are wall-clock and noisy on a shared machine.
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.seating import plan_tournament, quality_report, table_sizes  # noqa: E402

# Most rounds with no repeat meeting for tables of 4 (social golfer problem, groups of
# 4).  44 is not in the published tables; 14 rounds is the counting bound, and reached.
KNOWN_BEST = {16: 5, 20: 5, 24: 7, 28: 9, 32: 10, 36: 11, 40: 13, 44: 14, 48: 15, 52: 17, 56: 18, 60: 19, 64: 21}
ISSUE_ROWS = [(28, 8), (28, 9), (32, 10), (36, 11), (40, 13), (44, 14)]
SPEED_SIZES = [13, 16, 24, 41, 100, 200]


def upper_bound(n):
    """Most rounds that counting allows without a repeat meeting for ``n`` players.

    A 4-table seats 6 pairs and a 3-table 3, and there are n(n-1)/2 pairs; a player
    meets 3 others at a 4-table and 2 at a 3-table, and n-1 at most, so over R rounds
    he needs at least 3R-(n-1) 3-table seats, and a round has 3 per 3-table.
    """
    sizes = table_sizes(n)
    fours, threes = sizes.count(4), sizes.count(3)
    r = 1
    while True:
        nxt = r + 1
        pairs_ok = nxt * (6 * fours + 3 * threes) <= n * (n - 1) // 2
        seats_ok = 3 * threes * nxt >= n * max(0, 3 * nxt - (n - 1))
        if not (pairs_ok and seats_ok):
            return r
        r = nxt


def run(n, rounds, seed):
    start = time.perf_counter()
    plan, report = plan_tournament(n, rounds, method="mixed", seed=seed)
    return report, (time.perf_counter() - start) / rounds


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


def best_random(n, rounds, draws, seed):
    rng = random.Random(seed)
    best = None
    for _ in range(draws):
        report = quality_report(random_plan(n, rounds, rng))
        key = (report["repeat_pairs"], report["worst_pair"], report["seat_spread"])
        if best is None or key < best[0]:
            best = (key, report)
    return best[1]


def zero_repeat_table(sizes, seed, max_extra):
    """Per N: repeat pairs for R = 2.. up to the known best (or bound) + max_extra."""
    print("Zero-repeat rounds: repeat pairs for R = 2, 3, ... rounds (seed %d)" % seed)
    print(
        "  best = known most rounds without a repeat (N divisible by 4), else ~ = "
        "counting bound; reached = most rounds with 0 repeats here"
    )
    print(f"{'N':>4} {'tables':>8} {'best':>5} {'reached':>7} {'s/round':>7}  repeat pairs by R")
    rows = {}
    for n in sizes:
        sizes_n = table_sizes(n)
        best = KNOWN_BEST.get(n)
        target = best if best is not None else upper_bound(n)
        found, reached, slowest = [], 1, 0.0
        for r in range(2, target + 1 + max_extra):
            report, per_round = run(n, r, seed)
            found.append(report["repeat_pairs"])
            slowest = max(slowest, per_round)
            if report["repeat_pairs"] == 0 and reached == r - 1:
                reached = r
            if report["repeat_pairs"] and r >= target:
                break
        rows[n] = (target, reached)
        tables = f"{sizes_n.count(4)}x4" + (f"+{sizes_n.count(3)}x3" if 3 in sizes_n else "")
        label = f"{best}" if best is not None else f"~{target}"
        print(
            f"{n:>4} {tables:>8} {label:>5} {reached:>7} {slowest:>7.2f}  " + " ".join(str(x) for x in found),
            flush=True,
        )
    return rows


def sizes_of(args):
    """(sizes for the zero-repeat table, sizes and rounds for the speed table) of a setting."""
    if args.smoke:
        return [13, 16], [16], [3]
    if args.quick:
        return [13, 16, 20, 24, 27, 28, 36, 40, 44], [16, 200], [4]
    return list(range(13, 65)), SPEED_SIZES, [4, 8]


def check_known_best(rows, smoke, line):
    print()
    print("The issue's rows: repeat pairs next to the known best (0)")
    for n, r in [] if smoke else ISSUE_ROWS:
        report, per_round = run(n, r, 3)
        line(
            f"{n} players x {r:>2} rounds (seed 3): {report['repeat_pairs']} repeat pairs "
            f"(known best 0), worst pair {report['worst_pair']}, seat spread "
            f"{report['seat_spread']}, {per_round:.2f} s/round",
            report["repeat_pairs"] == 0,
        )
    for n, (target, reached) in sorted(rows.items()):
        if n in KNOWN_BEST:
            line(f"{n} players: {reached} rounds without a repeat (known best {target})", reached >= target)


def check_speed(speed, rounds_speed, seed, line):
    print()
    print("Speed and quality against the best of plain random draws")
    print("  unb = players whose seat letters are not balanced (engine.seating.letters)")
    print(
        f"{'N':>4} {'R':>2} | {'rep':>4} {'worst':>5} {'spread':>6} {'unb':>4} {'3rep':>4} {'s/round':>8}"
        f" | {'random':>7} {'rep':>4} {'worst':>5} {'spread':>6}"
    )
    for n in speed:
        for r in rounds_speed:
            report, per_round = run(n, r, seed)
            draws = max(10, min(200, 2_000_000 // (n * n * r)))
            rnd = best_random(n, r, draws, seed)
            print(
                f"{n:>4} {r:>2} | {report['repeat_pairs']:>4} {report['worst_pair']:>5}"
                f" {report['seat_spread']:>6} {report['unbalanced']:>4} {report['three_table_repeats']:>4}"
                f" {per_round:>8.3f} | {draws:>7} {rnd['repeat_pairs']:>4}"
                f" {rnd['worst_pair']:>5} {rnd['seat_spread']:>6}",
                flush=True,
            )
            if n == 200:
                line(f"200 players x {r} rounds: under 2 s a round (got {per_round:.2f} s)", per_round < 2.0)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a subset of the sizes")
    parser.add_argument("--smoke", action="store_true", help="the smallest setting, a few seconds")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    t0 = time.perf_counter()
    sizes, speed, rounds_speed = sizes_of(args)
    rows = zero_repeat_table(sizes, args.seed, 0)
    ok_all = True

    def line(label, ok):
        nonlocal ok_all
        ok_all &= ok
        print(f"  {'PASS' if ok else 'FAIL'}  {label}")

    check_known_best(rows, args.smoke, line)
    check_speed(speed, rounds_speed, args.seed, line)
    print()
    print(
        f"{'all budgets met' if ok_all else 'SOME BUDGETS FAILED'}; "
        f"total {time.perf_counter() - t0:.0f} s (wall clock; the machine may be shared)"
    )


if __name__ == "__main__":
    main()
