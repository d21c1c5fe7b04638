"""The quality figures of a seating plan: repeat meetings, 3-table rotation, seat letters."""

from __future__ import annotations

from engine.seating import letters
from engine.seating.tables import LETTERS, sort_key


def quality_report(rounds):
    """Quality figures of a list of rounds (each a list of table dicts).

    Returns a JSON-serialisable dict:

    * ``rounds``: number of rounds;
    * ``repeat_pairs``: pairs that met more than once; ``pairs``: those pairs,
      ``[{"pair": [a, b], "count": c}, ...]`` (pair sorted, list worst first);
    * ``worst_pair``: highest number of meetings of any pair (0 if nobody met);
    * ``three_table_repeats``: 3-table seats given to a player while another
      player of the same round, sitting at a 4-table, had had fewer 3-table
      seats so far (0 = 3-tables rotate fairly); ``three_table_repeat_seats``
      lists them as ``{"round": r, "player": p}`` (rounds numbered from 1);
    * ``seat_spread``: max over players of (most - least used letter), over
      A-D for players who sat at a 4-table at least once, else A-C;
    * ``unbalanced``: players whose letters are not balanced
      (``letters.balanced``: A-C counts within 1, D at a quarter of the
      4-table seats; for a player always at 4-tables, A-D counts within 1);
    * ``players``: per player ``{"player", "seats": {"A": .., "D": ..},
      "three_tables", "spread", "balanced"}``.
    """
    meetings = {}
    seats = {}
    threes = {}
    fours = set()
    repeat_seats = []
    for r, rnd in enumerate(rounds, start=1):
        in_three = []
        at_four = []
        for table in rnd:
            pids = list(table.values())
            three = len(table) == 3
            for letter, pid in table.items():
                counts = seats.setdefault(pid, dict.fromkeys(LETTERS, 0))
                if letter in counts:
                    counts[letter] += 1
                threes.setdefault(pid, 0)
                (in_three if three else at_four).append(pid)
                if len(table) == 4:
                    fours.add(pid)
            for i, p in enumerate(pids):
                for x in pids[i + 1 :]:
                    key = tuple(sorted((p, x), key=sort_key))
                    meetings[key] = meetings.get(key, 0) + 1
        if in_three and at_four:
            least_at_four = min(threes[p] for p in at_four)
            for pid in sorted(in_three, key=sort_key):
                if threes[pid] > least_at_four:
                    repeat_seats.append({"round": r, "player": pid})
        for pid in in_three:
            threes[pid] += 1
    repeats = sorted(
        ((pair, c) for pair, c in meetings.items() if c > 1),
        key=lambda item: (-item[1], [sort_key(p) for p in item[0]]),
    )
    players = []
    spread_max = 0
    for pid in sorted(seats, key=sort_key):
        counts = seats[pid]
        possible = LETTERS if pid in fours else LETTERS[:3]
        values = [counts[letter] for letter in possible]
        spread = max(values) - min(values)
        spread_max = max(spread_max, spread)
        four_seats = sum(counts.values()) - threes[pid]
        balanced = letters.balanced([counts[letter] for letter in LETTERS], four_seats)
        players.append(
            {"player": pid, "seats": counts, "three_tables": threes[pid], "spread": spread,
             "balanced": balanced}
        )
    return {
        "rounds": len(rounds),
        "repeat_pairs": len(repeats),
        "pairs": [{"pair": list(pair), "count": c} for pair, c in repeats],
        "worst_pair": max(meetings.values(), default=0),
        "three_table_repeats": len(repeat_seats),
        "three_table_repeat_seats": repeat_seats,
        "seat_spread": spread_max,
        "unbalanced": sum(1 for entry in players if not entry["balanced"]),
        "players": players,
    }
