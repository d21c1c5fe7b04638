"""The last pass over a drawn round: single swaps judged in SPEC §5's order.

After a "mixed" round is drawn for players who are not those of the last round (late
arrivals, withdrawals, disqualifications), two players of different tables exchange seats
while that makes the round better, judged against the rounds already played, in this
order (the engine's order, see ``engine.seating``):

1. repeat pairs: pairs who meet again (``quality_report``'s ``repeat_pairs``);
2. the worst pair: the most meetings of any pair (``worst_pair``);
3. 3-table repeats: players at a 3-table while a 4-table player of the round has had
   fewer 3-table seats (``three_table_repeats``);
4. players of one organisation at one table;
5. seat letters: players whose letters are not balanced after the round, then how far
   (``letters.excess``).

A swap counts as better only when the first of these it changes gets better, so it never
makes an earlier one worse; the two tables then take the letters that suit their players
best.  Each step makes the best such swap (or gives a table better letters) until none is
left.  So afterwards no single swap improves the round: nobody sits at a 3-table while a
4-table player with fewer 3-table seats could take the seat without a repeat meeting or a
worse worst pair.  The search looks at no seed: the same round and history give the same
result.

While the players stay the same, a draw follows the plan made for them, which weighs the
rounds to come; this pass sees only the rounds played, and would trade those away (run
on every round, ``make bench-seating`` got 6 repeat pairs instead of 2 for 18 players
over 6 rounds, and 21 and 22 players lost their 6th round without a repeat).  When the
players have just changed, no plan for them is followed yet, and the pass settles the
round.  The round to play of a plan made after round 1 is only checked against the first
three rules (``rules_only``, by ``search``): the plan's cost counts each player's 3-table
seats over all the rounds planned, not which round gives them, so its round to play could
seat someone at a 3-table a second time while a 4-table player had had none (18 players'
round 2, after a random round 1, about one draw in three), or keep a repeat pair that one
swap mends.  Such swaps are made and the rest of the plan is planned after the mended round;
a round that keeps those rules is left exactly as planned.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

from engine.seating import letters
from engine.seating.plan import org_matrix
from engine.seating.tables import LETTERS, HistoryCounts, Organisations, PlayerId, Seating, Tables, index_seating

# (repeat pairs, worst pair, 3-table repeats, organisation clashes, unbalanced, excess)
Quality = tuple[int, int, int, int, int, int]
# A change to the round: table number -> its new players, in letter order.
Change = dict[int, list[int]]


def settled(
    ids: Sequence[PlayerId],
    seating: Seating,
    history: Sequence[Seating],
    base: HistoryCounts,
    organisations: Organisations | None,
    *,
    rules_only: bool = False,
) -> Seating:
    """``seating``, a round drawn for players ``ids`` after ``history`` (counted in
    ``base``), after the swaps that improve it; the same seating when none does.

    ``rules_only``: only swaps that improve one of the first three criteria (repeat pairs,
    the worst pair, 3-table repeats) are made, so a round that keeps those rules is left
    exactly as drawn."""
    index = {pid: i for i, pid in enumerate(ids)}
    tables = [[index[table[letter]] for letter in LETTERS if letter in table] for table in seating]
    better = settle(tables, base, worst_pair_so_far(history), org_matrix(ids, organisations), rules_only=rules_only)
    return seating if better == tables else index_seating(ids, better)


def worst_pair_so_far(history: Sequence[Seating]) -> int:
    """The most meetings of any pair in ``history`` (players no longer active included)."""
    counts = Counter(
        frozenset(pair)
        for seating in history
        for table in seating
        for pair in itertools.combinations(table.values(), 2)
    )
    return max(counts.values(), default=0)


def settle(
    tables: Tables,
    base: HistoryCounts,
    worst_so_far: int,
    org_weights: list[list[int]] | None,
    *,
    rules_only: bool = False,
) -> Tables:
    """The round ``tables`` (player indices in letter order) after the swaps that improve it.

    ``base``: what earlier rounds count; ``worst_so_far``: their worst pair
    (``worst_pair_so_far``); ``org_weights``: ``plan.org_matrix`` or None;
    ``rules_only``: see ``settled``.
    """
    state = _Round(tables, base, worst_so_far, org_weights, rules_only)
    while state.improve_once():
        pass
    return state.members


class _Round:
    """A round being settled: its tables and the tallies of each criterion."""

    def __init__(
        self,
        tables: Tables,
        base: HistoryCounts,
        worst_so_far: int,
        org_weights: list[list[int]] | None,
        rules_only: bool = False,
    ) -> None:
        self.members = [table[:] for table in tables]
        self.rules_only = rules_only
        self.base = base
        self.worst_so_far = worst_so_far
        self.org_weights = org_weights
        self._letter_values: dict[tuple[int, int, int], tuple[int, int]] = {}
        self._tally()

    def _tally(self) -> None:
        """Count every criterion from the tables as they are."""
        met = self.base.meetings
        self.table_of = {p: j for j, table in enumerate(self.members) for p in table}
        self.meetings_now: Counter[int] = Counter()  # meetings a round pair reaches -> pairs
        self.new_repeats = self.clashes = 0
        for table in self.members:
            for p, x in itertools.combinations(table, 2):
                self.meetings_now[met[p][x] + 1] += 1
                self.new_repeats += met[p][x] == 1
                self.clashes += self._clash(p, x)
        three_seats = self.base.three_seats
        self.at_three = Counter(three_seats[p] for table in self.members if len(table) == 3 for p in table)
        self.at_four = Counter(three_seats[p] for table in self.members if len(table) != 3 for p in table)
        self.table_letters = [self._letters_of(table) for table in self.members]
        self.quality: Quality = (
            self.new_repeats,
            self._worst(self.meetings_now),
            _three_table_repeats(self.at_three, self.at_four),
            self.clashes,
            sum(unbalanced for unbalanced, _ in self.table_letters),
            sum(excess for _, excess in self.table_letters),
        )
        self.troubled = self._troubled()

    def _clash(self, p: int, x: int) -> int:
        """The organisation clash weight of p and x at one table (0: none)."""
        return self.org_weights[p][x] if self.org_weights else 0

    def _worst(self, meetings_now: Counter[int]) -> int:
        """The worst pair so far with a round whose pairs reach these meeting counts."""
        return max([self.worst_so_far] + [times for times, pairs in meetings_now.items() if pairs > 0])

    def _troubled(self) -> list[int]:
        """The players one of whom any improving swap moves: in a new repeat pair, in a pair
        making the worst pair, counted as a 3-table repeat, with someone of their
        organisation, or at a table whose letters are not balanced."""
        met, three_seats = self.base.meetings, self.base.three_seats
        worst = self.quality[1] if self.quality[1] > self.worst_so_far else None
        fewest = min((seats for seats, count in self.at_four.items() if count), default=None)
        found = set()
        for j, table in enumerate(self.members):
            if self.table_letters[j] != (0, 0) and not self.rules_only:
                found.update(table)
            for p, x in itertools.permutations(table, 2):
                if met[p][x] == 1 or met[p][x] + 1 == worst or (self._clash(p, x) and not self.rules_only):
                    found.add(p)
            if len(table) == 3 and fewest is not None:
                found.update(p for p in table if three_seats[p] > fewest)
        return sorted(found)

    def improve_once(self) -> bool:
        """Make the best improving swap, or give a table better letters; whether one was made."""
        best_quality, best_change = self.quality, None
        for j, table in enumerate(self.members):
            if self.table_letters[j] != (0, 0) and not self.rules_only:
                lettered, quality = self._relettered(j, table, self.quality)
                if quality < best_quality:
                    best_quality, best_change = quality, {j: lettered}
        troubled = set(self.troubled)
        for p in self.troubled:
            for q in range(len(self.table_of)):
                if self.table_of[q] == self.table_of[p] or (q in troubled and q < p):
                    continue
                found = self._swap_quality(p, q, best_quality)
                if found is not None:
                    best_quality, best_change = found
        if best_change is None:
            return False
        for j, table in best_change.items():
            self.members[j] = table
        self._tally()
        return True

    def _swap_quality(self, p: int, q: int, best: Quality) -> tuple[Quality, Change] | None:
        """The round's quality if p and q exchange seats, with the new tables, when it beats
        ``best``; else None.  The letters are looked at last, and only when they decide."""
        a, b = self.table_of[p], self.table_of[q]
        mates_p = [x for x in self.members[a] if x != p]
        mates_q = [y for y in self.members[b] if y != q]
        new_repeats, meetings_now = self._pairs_after(p, q, mates_p, mates_q)
        if new_repeats > best[0]:
            return None
        worst = self._worst(meetings_now)
        three_repeats = self._three_repeats_after(p, q, a, b)
        clashes = (
            self.clashes
            + sum(self._clash(q, x) - self._clash(p, x) for x in mates_p)
            + sum(self._clash(p, y) - self._clash(q, y) for y in mates_q)
        )
        prefix = (new_repeats, worst, three_repeats, clashes)
        if prefix > best[:4] or (self.rules_only and prefix[:3] >= self.quality[:3]):
            return None
        if prefix == self.quality[:4] and self.table_letters[a] == self.table_letters[b] == (0, 0):
            return None  # the letters of balanced tables cannot get better
        table_p = [q if x == p else x for x in self.members[a]]
        table_q = [p if y == q else y for y in self.members[b]]
        lettered_p, letters_p = self._best_letters(table_p)
        lettered_q, letters_q = self._best_letters(table_q)
        unbalanced = self.quality[4] + letters_p[0] + letters_q[0] - self.table_letters[a][0] - self.table_letters[b][0]
        excess = self.quality[5] + letters_p[1] + letters_q[1] - self.table_letters[a][1] - self.table_letters[b][1]
        quality = (*prefix, unbalanced, excess)
        if quality >= best:
            return None
        return quality, {a: lettered_p, b: lettered_q}

    def _pairs_after(self, p: int, q: int, mates_p: list[int], mates_q: list[int]) -> tuple[int, Counter[int]]:
        """New repeat pairs and the round's meetings by count when p and q exchange seats."""
        met = self.base.meetings
        new_repeats = self.new_repeats
        meetings_now = self.meetings_now.copy()
        for mover, stayer, mates in ((p, q, mates_p), (q, p, mates_q)):
            for x in mates:
                new_repeats += (met[stayer][x] == 1) - (met[mover][x] == 1)
                meetings_now[met[mover][x] + 1] -= 1
                meetings_now[met[stayer][x] + 1] += 1
        return new_repeats, meetings_now

    def _three_repeats_after(self, p: int, q: int, a: int, b: int) -> int:
        """3-table repeats when p (table a) and q (table b) exchange seats."""
        size_a, size_b = len(self.members[a]), len(self.members[b])
        if (size_a == 3) == (size_b == 3):
            return self.quality[2]
        to_four, to_three = (p, q) if size_a == 3 else (q, p)
        seats = self.base.three_seats
        at_three, at_four = self.at_three.copy(), self.at_four.copy()
        at_three[seats[to_four]] -= 1
        at_three[seats[to_three]] += 1
        at_four[seats[to_three]] -= 1
        at_four[seats[to_four]] += 1
        return _three_table_repeats(at_three, at_four)

    def _relettered(self, j: int, table: list[int], quality: Quality) -> tuple[list[int], Quality]:
        """Table j with its best letters, and the round's quality then."""
        lettered, (unbalanced, excess) = self._best_letters(table)
        now = self.table_letters[j]
        return lettered, (*quality[:4], quality[4] - now[0] + unbalanced, quality[5] - now[1] + excess)

    def _best_letters(self, table: list[int]) -> tuple[list[int], tuple[int, int]]:
        """The letter order of ``table`` that leaves its players best balanced (players
        unbalanced, then their excess), the given order if it is one of the best."""
        best, best_value = table, self._letters_of(table)
        for order in itertools.permutations(table):
            value = self._letters_of(order)
            if value < best_value:
                best, best_value = list(order), value
        return best, best_value

    def _letters_of(self, table: Sequence[int]) -> tuple[int, int]:
        """Players left unbalanced, and their excess, when ``table`` sits in this letter order."""
        unbalanced = excess = 0
        for letter, p in enumerate(table):
            key = (p, letter, len(table))
            value = self._letter_values.get(key)
            if value is None:
                counts = list(self.base.letter_counts[p])
                counts[letter] += 1
                four_seats = self.base.four_seats[p] + (len(table) == 4)
                value = (not letters.balanced(counts, four_seats), letters.excess(counts, four_seats))
                self._letter_values[key] = value
            unbalanced += value[0]
            excess += value[1]
        return unbalanced, excess


def _three_table_repeats(at_three: Counter[int], at_four: Counter[int]) -> int:
    """Players at a 3-table with more 3-table seats than the fewest of a 4-table player
    (``at_three``/``at_four``: earlier 3-table seats -> players at such tables)."""
    fewest = min((seats for seats, count in at_four.items() if count), default=None)
    if fewest is None:
        return 0
    return sum(count for seats, count in at_three.items() if seats > fewest)
