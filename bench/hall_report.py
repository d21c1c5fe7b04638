"""The figures of bench_hall.py: Locust's statistics per request kind, lost saves, freshness, faults."""

import csv
import json
import os
from collections import Counter, defaultdict

P95_MS, P99_MS = 200, 500
# Two kinds are not interactive, and have budgets of their own (p95, p99 in ms, and why).
OWN_BUDGETS = {
    "organiser: seating PDF": (3000, 3000, "a PDF is rendered once per round and worker; bench-pdf's budget"),
    "staff: sign in": (1000, 1000, "password hashing (PBKDF2) is slow on purpose; once a day per person"),
}
FRESHNESS_SLACK = 1.0  # seconds over the leaderboard's poll interval


def lines(out, kind):
    for path in sorted(out.glob(f"{kind}-*.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                yield json.loads(line)


def compare_saves(out, stored):
    """Saves the tablets saw succeed that the database does not hold: ([(table, game)], acknowledged)."""
    lost, acknowledged = [], 0
    for ack in lines(out, "acks"):
        acknowledged += 1
        key = (ack["table"], ack["game"])
        if stored.get(key) != (ack["winner"], ack["racks"]):
            lost.append(key)
    return lost, acknowledged


def freshness_seconds(out):
    """How long each verification took to show in standings.json; ([seen], [not seen by the end: age])."""
    return [line["seconds"] for line in lines(out, "freshness")], [line["seconds"] for line in lines(out, "unseen")]


def locust_rows(out):
    with open(out / "locust_stats.csv", newline="") as handle:
        return list(csv.DictReader(handle))


def milliseconds(value):
    return float(value) if value not in ("", "N/A") else 0.0


def print_kinds(rows, server_ms):
    """One line per request kind (client-side times in ms, and the server's own p95 from gunicorn's
    access log), with its PASS/FAIL; returns whether every kind holds."""
    print(
        f"  {'request kind':<30}{'count':>6}{'p50':>6}{'p95':>6}{'p99':>6}{'fail':>5}{'server p95':>11}"
        f"   budget p95 < {P95_MS} ms, p99 < {P99_MS} ms"
    )
    every = True
    for row in rows:
        if row["Name"] == "Aggregated":
            continue
        p50, p95, p99 = (milliseconds(row[k]) for k in ("50%", "95%", "99%"))
        budget_p95, budget_p99, why = OWN_BUDGETS.get(row["Name"], (P95_MS, P99_MS, ""))
        ok = p95 < budget_p95 and p99 < budget_p99
        every = every and ok
        server = server_ms.get(row["Name"])
        server = f"{percentile(server, 0.95):.0f}" if server else "–"
        own = f" (p95, p99 < {budget_p95} ms: {why})" if why else ""
        print(
            f"  {row['Name']:<30}{row['Request Count']:>6}{p50:>6.0f}{p95:>6.0f}{p99:>6.0f}{row['Failure Count']:>5}"
            f"{server:>11}   {'PASS' if ok else 'FAIL'}{own}"
        )
    return every


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def print_failures(out, started, faults):
    """Failed requests by kind and error; with faults, how many fell after each fault."""
    failures = list(lines(out, "failures"))
    if failures:
        print(f"  failed requests: {len(failures)}")
    for (name, error), count in Counter((f["name"], f["error"][:90]) for f in failures).most_common(8):
        print(f"    {count:>4} × {name}: {error}")
    for number, (at, what) in enumerate(faults):
        until = faults[number + 1][0] if number + 1 < len(faults) else float("inf")
        during = [f for f in failures if at <= f["at"] < until]
        users = {f["user"] for f in during}
        print(f"    at {at - started:5.0f} s {what}: {len(during)} failed requests from {len(users)} users afterwards")


def recovered(out, faults):
    """Every user whose request failed after the last fault has had a good answer since: None when
    there were no faults, else (users with a failure, users whose last request failed)."""
    if not faults:
        return None
    last_failure = defaultdict(float)
    for failure in lines(out, "failures"):
        last_failure[failure["user"]] = max(last_failure[failure["user"]], failure["at"])
    last_success = {line["user"]: line["at"] for line in lines(out, "last-success")}
    stuck = [user for user, at in last_failure.items() if last_success.get(user, 0) < at]
    return len(last_failure), stuck


def print_report(
    out,
    *,
    database,
    setting,
    size,
    load,
    started,
    faults,
    lost,
    acknowledged,
    states,
    freshness,
    server_ms,
    problems,
    poll_seconds,
):
    """Everything the run measured, with the budgets; returns (budgets hold, nothing lost or failed)."""
    rows = locust_rows(out)
    total = next(row for row in rows if row["Name"] == "Aggregated")
    print(
        f"bench-hall: {database}, {setting}, {size.players} players, {size.phones} phones, "
        f"{size.ramp_seconds} s ramp + {size.run_seconds} s"
    )
    print(
        f"  machine: {os.cpu_count()} CPUs, load average {load[0][0]:.1f} at the start, {load[1][0]:.1f} at the end "
        "(other processes and Locust itself share the CPUs: client-side times include their queueing)"
    )
    kinds_ok = print_kinds(rows, server_ms)
    requests, errors = int(total["Request Count"]), int(total["Failure Count"])
    p95 = milliseconds(total["95%"])
    shown = print_freshness(states, acknowledged, freshness, poll_seconds)
    recovery = print_server_side(out, started, faults, server_ms, problems)
    if lost:
        print(f"  lost saves (table, game): {lost[:10]}")
    print(
        f"hall: {requests} requests, p95 {p95:.0f} ms, errors {errors}, lost saves {len(lost)}, "
        f"freshness {shown if shown is None else round(shown, 1)} s"
    )
    budgets = hall_budgets(kinds_ok, errors, faults, lost, shown, poll_seconds, recovery)
    for text, ok in budgets:
        print(f"  budget: {text}: {'PASS' if ok else 'FAIL'}")
    correct = not lost and (errors == 0 or bool(faults)) and (recovery is None or not recovery[1])
    return all(ok for _, ok in budgets), correct


def print_freshness(states, acknowledged, freshness, poll_seconds):
    """The sheets' states and how soon the leaderboard showed a verification; returns the worst
    time a polling phone shows it in (None: no verification seen)."""
    seen, unseen = freshness
    worst = max(seen + unseen, default=None)  # a verification not seen yet has waited at least its age
    shown = poll_seconds + worst if worst is not None else None
    print(
        f"  sheets of the round at the end: {dict(sorted(states.items()))}; {acknowledged} saves acknowledged, "
        f"{len(seen)} verifications seen on the leaderboard, {len(unseen)} not yet when the run stopped"
    )
    if worst is not None:
        print(
            f"  freshness: standings.json showed a verified sheet {worst:.2f} s after the head referee's tap at worst "
            f"(median {sorted(seen + unseen)[len(seen + unseen) // 2]:.2f} s, polled every 0.1 s); "
            f"a phone polling every {poll_seconds} s shows it within {shown:.1f} s"
        )
    return shown


def print_server_side(out, started, faults, server_ms, problems):
    """The server's own times, its log's problems, the failures and the recovery after the faults
    (returned: None without faults, else (users who saw a failure, those stuck after it))."""
    every = [ms for kind, times in server_ms.items() if kind != "-" for ms in times]  # "-": the warm-up
    if every:
        print(
            f"  server time (gunicorn's access log, every request): p95 {percentile(every, 0.95):.0f} ms, "
            f"p99 {percentile(every, 0.99):.0f} ms"
        )
    for line in problems[:5]:
        print(f"  server log: {line[:160]}")
    print_failures(out, started, faults)
    recovery = recovered(out, faults)
    if recovery is not None:
        hit, stuck = recovery
        print(
            f"  recovery: {hit} users saw a failed request, {len(stuck)} of them had no good answer after it"
            f"{': ' + ', '.join(stuck[:5]) if stuck else ''}"
        )
    return recovery


def hall_budgets(kinds_ok, errors, faults, lost, shown, poll_seconds, recovery):
    """[(budget, holds)] of the run."""
    fresh_ok = shown is not None and shown <= poll_seconds + FRESHNESS_SLACK
    budgets = [
        (
            f"p95 < {P95_MS} ms and p99 < {P99_MS} ms for every request kind (the PDF and the sign-in: their own)",
            kinds_ok,
        ),
        (
            "0 errors (no 5xx, no 'database is locked', no timeout)"
            + (" outside the injected faults" if faults else ""),
            errors == 0 or bool(faults),
        ),
        ("0 lost saves", not lost),
        (f"freshness ≤ the leaderboard's poll ({poll_seconds} s) + {FRESHNESS_SLACK:.0f} s", fresh_ok),
    ]
    if recovery is not None:
        budgets.append(("every client recovers after the faults", not recovery[1]))
    return budgets
