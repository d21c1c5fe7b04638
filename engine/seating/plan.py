"""The search state of a plan of rounds: its cost, and the exchanges that change it.

``Plan`` holds the seatings of the rounds being planned, players as indices, with
incremental bookkeeping of a cost whose weights are below: repeat meetings first, then
fair 3-tables, players of one organisation apart, tables whose players can keep balanced
letters and, for swiss, players near their standings group.  ``engine.seating.tabu``
searches over it.  An exchange swaps players p (at table a) and q (at table b) of
planned round t; x and y are their tablemates.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.seating.letters import TableCheck
from engine.seating.tables import HistoryCounts, Organisations, PlayerId, Tables

# Cost weights (integers, so the search is exact).  A pair meeting for the
# k-th time costs PAIR_WEIGHT * 6**(k-2) more than meeting k-1 times (k >= 2):
# repeats dominate, and a third meeting is much worse than another second one.
PAIR_WEIGHT = 10**6
SWISS_WEIGHT = 20_000  # per table a player sits away from his standings group
THREE_WEIGHT = 2_000  # per earlier 3-table seat of a player given a 3-table seat
_ORG_WEIGHT = 300  # per pair of one organisation at one table
LETTER_WEIGHT = 100  # per table of the round being drawn whose players cannot all keep balanced letters

# Work budget of one draw, in evaluated moves (about 1-2 microseconds each).
BASE_BUDGET = 600_000
# Plan this many rounds at most when looking ahead.
MAX_LOOKAHEAD = 12


def _meeting_costs(limit: int) -> list[int]:
    """costs[k] = weighted cost of a pair's (k+1)-th meeting (0 for the first)."""
    costs = [0, PAIR_WEIGHT]
    while len(costs) < limit + 2:
        costs.append(costs[-1] * 6)
    return costs


def org_matrix(ids: Sequence[PlayerId], organisations: Organisations | None) -> list[list[int]] | None:
    """The clash weights between players ``ids`` (a square matrix), or None if no two
    share an organisation."""
    if not organisations:
        return None
    org = [organisations.get(pid) for pid in ids]
    count = len(ids)
    weights = [[0] * count for _ in range(count)]
    any_clash = False
    for p in range(count):
        if org[p] is None:
            continue
        for x in range(count):
            if x != p and org[x] == org[p]:
                weights[p][x] = _ORG_WEIGHT
                any_clash = True
    return weights if any_clash else None


class SwissGroups:
    """Swiss: each player's standings table and the cost of each table he sits away from it."""

    def __init__(self, home_table: list[int], away_cost: list[int]) -> None:
        self.home_table = home_table
        self.away_cost = away_cost

    def away_change(self, p: int, q: int, a: int, b: int) -> int:
        """Cost change when p (table a) and q (table b) exchange tables."""
        home_p, home_q = self.home_table[p], self.home_table[q]
        return self.away_cost[p] * (abs(b - home_p) - abs(a - home_p)) + self.away_cost[q] * (
            abs(a - home_q) - abs(b - home_q)
        )

    def cost(self, table_of: list[int]) -> int:
        """Cost of a round's tables (``table_of[p]``: p's table)."""
        return sum(self.away_cost[p] * abs(table - self.home_table[p]) for p, table in enumerate(table_of))


class Plan:
    """Seatings of the rounds being planned, with incremental cost bookkeeping.

    Players are indices 0..n-1.  For planned round t: ``table_of[t][p]`` is p's
    table and ``members[t][j]`` the players of table j.  ``meetings`` counts meetings
    (history + planned), ``three_seats`` 3-table seats.  ``join_cost[p][x]`` /
    ``leave_cost[p][x]`` are the cost changes when p and x meet once more / once
    less.  Seat letters are chosen once the tables are (``letters``); the search
    only sees, with ``letter_check`` (a ``letters.TableCheck`` of the players'
    letters so far), which tables of the first planned round could not keep their
    players' letters balanced: ``bad_tables[j]``.  For swiss, ``swiss`` holds the
    players' standings tables.
    """

    def __init__(
        self,
        sizes: list[int],
        base: HistoryCounts,
        org_weights: list[list[int]] | None,
        rng: random.Random,
        swiss: SwissGroups | None = None,
        letter_check: TableCheck | None = None,
    ) -> None:
        """``base``: the ``tables.HistoryCounts`` of earlier rounds."""
        self.player_count = sum(sizes)
        self.sizes = sizes
        self.table_count = len(sizes)
        self.base_meetings = base.meetings
        self.base_three_seats = base.three_seats
        self.letter_check = letter_check
        self.org_weights = org_weights  # square matrix of organisation clash weights, or None
        self.rng = rng
        self.swiss = swiss
        self.table_codes: list[int] = []  # with letter_check: each table's code (first round)
        self.bad_tables: list[bool] = []  # with letter_check: tables that cannot keep letters
        self.three_weight = THREE_WEIGHT
        most_met = max((max(row) for row in base.meetings), default=0) if self.player_count else 0
        self.meeting_costs = _meeting_costs(most_met + MAX_LOOKAHEAD + 2)
        self.evaluations = 0

    # -- loading -----------------------------------------------------------

    def load(self, rounds: Sequence[Tables]) -> None:
        """Set the planned rounds: ``rounds[t][j]`` = list of players, in letter order."""
        self.round_count = len(rounds)
        self.members = [[list(table) for table in tables] for tables in rounds]
        self.table_of = [[0] * self.player_count for _ in rounds]
        self._count_planned()
        check = self.letter_check
        if check is not None and self.members:
            self.table_codes = [check.code(table, size) for table, size in zip(self.members[0], self.sizes)]
            self.bad_tables = [not check.ok(code, size) for code, size in zip(self.table_codes, self.sizes)]
        self._price_pairs()
        self.cost = self.full_cost()

    def _count_planned(self) -> None:
        """Tables, meetings and 3-table seats with the planned rounds added to history."""
        meetings = [row[:] for row in self.base_meetings]
        three_seats = self.base_three_seats[:]
        for t, tables in enumerate(self.members):
            table_of = self.table_of[t]
            for j, table in enumerate(tables):
                three = self.sizes[j] == 3
                for p in table:
                    table_of[p] = j
                    if three:
                        three_seats[p] += 1
                    for x in table:
                        if x != p:
                            meetings[p][x] += 1
        self.meetings, self.three_seats = meetings, three_seats

    def _price_pairs(self) -> None:
        """Every pair's cost of meeting once more and once less."""
        count, costs, org = self.player_count, self.meeting_costs, self.org_weights
        self.join_cost = [[0] * count for _ in range(count)]
        self.leave_cost = [[0] * count for _ in range(count)]
        for p in range(count):
            met, join, leave = self.meetings[p], self.join_cost[p], self.leave_cost[p]
            clash = org[p] if org else None
            for x in range(count):
                if x == p:
                    continue
                times = met[x]
                extra = clash[x] if clash else 0
                join[x] = costs[times] + extra
                leave[x] = costs[times - 1] + extra if times else 0

    def snapshot(self) -> list[Tables]:
        """A copy of the planned rounds (tables of players)."""
        return [[table[:] for table in tables] for tables in self.members]

    def full_cost(self) -> int:
        """Total cost from scratch (only differences between costs matter)."""
        total = self.pair_cost()
        if self.org_weights:
            for tables in self.members:
                for table in tables:
                    for i, p in enumerate(table):
                        for x in table[i + 1 :]:
                            total += self.org_weights[p][x]
        for seats in self.three_seats:
            total += self.three_weight * seats * (seats - 1) // 2
        if self.letter_check is not None and self.members:
            total += LETTER_WEIGHT * sum(self.bad_tables)
        if self.swiss is not None:
            for table_of in self.table_of:
                total += self.swiss.cost(table_of)
        return total

    # -- moves ---------------------------------------------------------------

    def _set_pair(self, p: int, x: int, times: int) -> None:
        """Price the pair p, x after a change of their meetings to ``times``."""
        costs = self.meeting_costs
        extra = self.org_weights[p][x] if self.org_weights else 0
        self.join_cost[p][x] = self.join_cost[x][p] = costs[times] + extra
        self.leave_cost[p][x] = self.leave_cost[x][p] = (costs[times - 1] + extra) if times else 0

    def delta(self, t: int, p: int, q: int) -> int:
        """Cost change of exchanging the seats of p and q in planned round t."""
        table_of = self.table_of[t]
        a, b = table_of[p], table_of[q]
        if a == b:
            return 0
        join_p, leave_p = self.join_cost[p], self.leave_cost[p]
        join_q, leave_q = self.join_cost[q], self.leave_cost[q]
        change = 0
        for x in self.members[t][a]:
            if x != p:
                change += join_q[x] - leave_p[x]
        for y in self.members[t][b]:
            if y != q:
                change += join_p[y] - leave_q[y]
        return change + self._side_delta(t, p, q, a, b)

    def _side_delta(self, t: int, p: int, q: int, a: int, b: int) -> int:
        """3-table, letter and swiss parts of a swap between tables a and b."""
        change = 0
        if self.sizes[a] != self.sizes[b]:
            change += self.three_change(p, q, a)
        if t == 0 and self.letter_check is not None:
            change += self._letter_delta(self.letter_check, p, q, a, b)[0]
        if self.swiss is not None:
            change += self.swiss.away_change(p, q, a, b)
        return change

    def three_change(self, p: int, q: int, a: int) -> int:
        """3-table cost change when p (at table a) and q exchange tables of two sizes."""
        seats = self.three_seats
        if self.sizes[a] == 3:
            return self.three_weight * (seats[q] - seats[p] + 1)
        return self.three_weight * (seats[p] - seats[q] + 1)

    def _letter_delta(self, check: TableCheck, p: int, q: int, a: int, b: int) -> tuple[int, int, int]:
        """Cost change of the letter part when p (table a) and q (table b) exchange
        seats in the first planned round, with the two tables' new codes."""
        size_a, size_b = self.sizes[a], self.sizes[b]
        term_a, term_b = check.term[size_a], check.term[size_b]
        code_a = self.table_codes[a] - term_a[p] + term_a[q]
        code_b = self.table_codes[b] - term_b[q] + term_b[p]
        bad = (not check.ok(code_a, size_a)) + (not check.ok(code_b, size_b))
        return LETTER_WEIGHT * (bad - self.bad_tables[a] - self.bad_tables[b]), code_a, code_b

    def allowed(self, t: int, p: int, q: int) -> bool:
        """Swiss keeps everybody within one table of his standings group."""
        if self.swiss is None:
            return True
        home = self.swiss.home_table
        table_of = self.table_of[t]
        return abs(table_of[q] - home[p]) <= 1 and abs(table_of[p] - home[q]) <= 1

    def apply(self, t: int, p: int, q: int, change: int | None = None) -> None:
        """Exchange the seats of p and q in planned round t (``change``: its cost, if known)."""
        if change is None:
            change = self.delta(t, p, q)
        table_of = self.table_of[t]
        a, b = table_of[p], table_of[q]
        if a != b:
            if t == 0 and self.letter_check is not None:
                self._recode(self.letter_check, p, q, a, b)
            self._exchange_meetings(self.members[t][a], p, q)
            self._exchange_meetings(self.members[t][b], q, p)
            table_a, table_b = self.members[t][a], self.members[t][b]
            table_a[table_a.index(p)] = q
            table_b[table_b.index(q)] = p
            table_of[p], table_of[q] = b, a
            if self.sizes[a] != self.sizes[b]:
                to_three, to_four = (q, p) if self.sizes[a] == 3 else (p, q)
                self.three_seats[to_four] -= 1
                self.three_seats[to_three] += 1
        else:
            table = self.members[t][a]
            i, k = table.index(p), table.index(q)
            table[i], table[k] = q, p
        self.cost += change

    def _recode(self, check: TableCheck, p: int, q: int, a: int, b: int) -> None:
        """The letter codes of tables a and b after p (at a) and q (at b) exchange."""
        _, code_a, code_b = self._letter_delta(check, p, q, a, b)
        self.table_codes[a], self.table_codes[b] = code_a, code_b
        self.bad_tables[a] = not check.ok(code_a, self.sizes[a])
        self.bad_tables[b] = not check.ok(code_b, self.sizes[b])

    def _exchange_meetings(self, table: list[int], leaving: int, joining: int) -> None:
        """Meetings when ``leaving`` leaves ``table`` and ``joining`` takes his place."""
        meetings = self.meetings
        for x in table:
            if x != leaving:
                meetings[leaving][x] -= 1
                meetings[x][leaving] -= 1
                self._set_pair(leaving, x, meetings[leaving][x])
                meetings[joining][x] += 1
                meetings[x][joining] += 1
                self._set_pair(joining, x, meetings[joining][x])

    # -- queries ---------------------------------------------------------------

    def conflicts(self) -> list[tuple[int, int]]:
        """(round, player) entries the tabu search should move.

        A player meeting someone at his table a second time or more, sitting
        at a 3-table while a 4-table player of that round has had at least two
        fewer 3-table seats (an exchange would even them out), or sitting at a
        table of the first planned round that cannot keep letters balanced.
        """
        found = []
        mixed_sizes = 3 in self.sizes and 4 in self.sizes
        bad = self.bad_tables if self.letter_check is not None else None
        for t, tables in enumerate(self.members):
            fewest_at_four = None
            if mixed_sizes:
                fewest_at_four = min(
                    self.three_seats[p] for j, table in enumerate(tables) if self.sizes[j] == 4 for p in table
                )
            for j, table in enumerate(tables):
                three = self.sizes[j] == 3
                for p in table:
                    if (
                        self._meets_again(p, table)
                        or (three and fewest_at_four is not None and self.three_seats[p] >= fewest_at_four + 2)
                        or (t == 0 and bad is not None and bad[j])
                    ):
                        found.append((t, p))
        return found

    def _meets_again(self, p: int, table: list[int]) -> bool:
        """Whether p meets someone at ``table`` for the second time or more."""
        met = self.meetings[p]
        return any(x != p and met[x] >= 2 for x in table)

    def pair_cost(self) -> int:
        """Weighted repeat-meeting cost (history included, organisations aside)."""
        costs = self.meeting_costs
        total = 0
        for p in range(self.player_count):
            met = self.meetings[p]
            for x in range(p + 1, self.player_count):
                for k in range(met[x]):
                    total += costs[k]
        return total

    def quality_key(self) -> tuple[int, int, int]:
        """Comparable quality of the plan: repeats, 3-table spread, then the rest."""
        return (self.pair_cost(), sum(seats * (seats - 1) for seats in self.three_seats), self.cost)
