"""Local search over a ``Plan``: the tabu search on repeat meetings and 3-table rotation,
and a steepest descent on the whole cost.

Both exchange two players of one round at a time and count their work in evaluated
moves (``plan.evaluations``), never in seconds, so the same plan and seed give the same
result.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.seating.letters import TableCheck
from engine.seating.plan import LETTER_WEIGHT, Plan

Move = tuple[int, int, int]  # (round, p, q): p and q exchange seats in that planned round

# A player who left a table may not go back to it for this many steps (drawn at random).
_TENURE = (1, 4)


def tabu_search(plan: Plan, budget: int) -> None:
    """Conflict-directed tabu search on repeat meetings and 3-table rotation.

    Each step exchanges two players of one round, one of whom is in
    ``plan.conflicts()``; the exchange that lowers the cost most is taken even if
    it makes things worse (ties broken at random; a
    player may not go back to a table he just left for a few steps).  When the best plan has
    not improved for a while, a few random exchanges perturb the plan.
    Stops when no repeat is left, the work budget (evaluated moves) is spent
    or nothing improved for a third of it; the best plan found is kept.
    """
    conflicts = plan.conflicts()
    if not conflicts or plan.table_count < 2:
        return
    _TabuSearch(plan, budget).run(conflicts)


class _TabuSearch:
    """The state of one tabu search: the current and best costs, the tabu list, the step."""

    def __init__(self, plan: Plan, budget: int) -> None:
        self.plan = plan
        self.budget = budget
        self.cost = plan.full_cost()
        self.best_cost = self.cost
        self.best_plan = plan.snapshot()
        self.tabu_until = self._no_tabu()
        self.step = 0
        self.last_best_step = 0
        self.stall_limit = max(100, 10 * plan.player_count)
        self.start_evaluations = plan.evaluations
        self.patience = max(budget // 2, 50_000)
        self.best_at = plan.evaluations
        self.best_change = 0  # of the best moves of this step, when there are any
        self.best_moves: list[Move] = []

    def _no_tabu(self) -> list[list[int]]:
        """Per planned round, for each (player, table): the step until which it is tabu."""
        plan = self.plan
        return [[0] * (plan.player_count * plan.table_count) for _ in range(plan.round_count)]

    def run(self, conflicts: list[tuple[int, int]]) -> None:
        """Take steps until no conflict is left, the work is spent or progress stopped."""
        plan = self.plan
        while conflicts and plan.evaluations - self.start_evaluations < self.budget:
            self.step += 1
            plan.evaluations += 1
            self.best_change, self.best_moves = 0, []
            for t, p in conflicts:
                self._consider_moves(t, p)
            if self.best_moves:
                self._take_best_move()
            if self.cost < self.best_cost:
                self.best_cost = self.cost
                self.best_plan = plan.snapshot()
                self.last_best_step = self.step
                self.best_at = plan.evaluations
            elif self.step - self.last_best_step > self.stall_limit:
                self._perturb()
            if plan.evaluations - self.best_at > self.patience:
                break  # no progress for long: repeats are probably unavoidable
            conflicts = plan.conflicts()
        if self.cost > self.best_cost:
            plan.load(self.best_plan)

    def _take_best_move(self) -> None:
        """Make one of the best exchanges (chosen at random) and make both moves back tabu."""
        plan, rng = self.plan, self.plan.rng
        t, p, q = self.best_moves[rng.randrange(len(self.best_moves))]
        table_of = plan.table_of[t]
        a, b = table_of[p], table_of[q]
        plan.apply(t, p, q)
        self.cost += self.best_change
        tables = plan.table_count
        self.tabu_until[t][p * tables + a] = self.step + rng.randint(*_TENURE)
        self.tabu_until[t][q * tables + b] = self.step + rng.randint(*_TENURE)

    def _perturb(self) -> None:
        """A few random exchanges, then the tabu list starts afresh."""
        plan = self.plan
        _random_exchanges(plan, plan.rng.randint(1, 3))
        self.cost = plan.full_cost()
        self.tabu_until = self._no_tabu()
        self.last_best_step = self.step

    def _consider_moves(self, t: int, p: int) -> None:
        """Price every exchange of p (round t) with a player of another table; keep the best."""
        plan = self.plan
        sizes, swiss = plan.sizes, plan.swiss
        home = swiss.home_table if swiss is not None else None
        a = plan.table_of[t][p]
        mates = [x for x in plan.members[t][a] if x != p]
        join_p = plan.join_cost[p]
        leave_p = sum(plan.leave_cost[p][x] for x in mates)
        tabu, tables = self.tabu_until[t], plan.table_count
        letter_codes = self._letter_codes(t, p, a)
        for b in range(tables):
            if b == a or (home is not None and abs(b - home[p]) > 1):
                continue
            others = plan.members[t][b]
            base = sum(join_p[y] for y in others) - leave_p
            p_tabu = tabu[p * tables + b] > self.step
            three = sizes[a] != sizes[b]
            for q in others:
                if home is not None and abs(a - home[q]) > 1:
                    continue
                join_q, leave_q = plan.join_cost[q], plan.leave_cost[q]
                change = base - join_p[q]
                for x in mates:
                    change += join_q[x]
                for y in others:
                    change -= leave_q[y]  # leave_q[q] is 0
                if three:
                    change += plan.three_change(p, q, a)
                if swiss is not None:
                    change += swiss.away_change(p, q, a, b)
                if letter_codes is not None:
                    change += self._letter_change(letter_codes, q, a, b)
                if (p_tabu or tabu[q * tables + a] > self.step) and self.cost + change >= self.best_cost:
                    continue
                self._keep(change, (t, p, q))
            plan.evaluations += len(others)

    def _keep(self, change: int, move: Move) -> None:
        """Keep ``move`` if it is at least as good as the best move of this step."""
        if not self.best_moves or change < self.best_change:
            self.best_change = change
            self.best_moves = [move]
        elif change == self.best_change:
            self.best_moves.append(move)

    def _letter_codes(self, t: int, p: int, a: int) -> tuple[TableCheck, int, int] | None:
        """The letter check, p and table a's letter code without p, when the letters of
        round t are checked, else None."""
        check = self.plan.letter_check
        if check is None or t != 0:
            return None
        return check, p, self.plan.table_codes[a] - check.term[self.plan.sizes[a]][p]

    def _letter_change(self, letter_codes: tuple[TableCheck, int, int], q: int, a: int, b: int) -> int:
        """Letter cost change when p (table a; see ``_letter_codes``) and q (table b)
        exchange tables."""
        plan = self.plan
        sizes = plan.sizes
        check, p, code_a = letter_codes
        code_b = plan.table_codes[b] + check.term[sizes[b]][p] - check.term[sizes[b]][q]
        now_bad = (not check.ok(code_a + check.term[sizes[a]][q], sizes[a])) + (not check.ok(code_b, sizes[b]))
        return LETTER_WEIGHT * (now_bad - plan.bad_tables[a] - plan.bad_tables[b])


def _random_exchanges(plan: Plan, exchanges: int) -> None:
    """``exchanges`` random exchanges in random rounds (where swiss allows them)."""
    rng = plan.rng
    for _ in range(exchanges):
        t = rng.randrange(plan.round_count)
        p = rng.randrange(plan.player_count)
        q = rng.randrange(plan.player_count)
        if plan.table_of[t][p] != plan.table_of[t][q] and plan.allowed(t, p, q):
            plan.apply(t, p, q)


def improve(plan: Plan, budget: int) -> None:
    """Steepest descent on the whole cost for players with a side problem.

    Candidates: players at a 3-table, players sharing a table with someone
    of their organisation or at a table that cannot keep letters balanced,
    and (for small fields) everybody.  Only improving exchanges.
    """
    start = plan.evaluations
    everyone = plan.player_count <= 64 or plan.round_count == 1
    improved = True
    while improved and plan.evaluations - start < budget:
        improved = False
        for t in range(plan.round_count):
            candidates: Iterable[int] = range(plan.player_count) if everyone else _side_problems(plan, t)
            for p in candidates:
                if _best_exchange(plan, t, p):
                    improved = True
            if plan.evaluations - start >= budget:
                break


def _best_exchange(plan: Plan, t: int, p: int) -> bool:
    """Make p's best improving exchange in round t, if any; whether one was made."""
    best_change = 0
    best_q: int | None = None
    for q in range(plan.player_count):
        if q == p or not plan.allowed(t, p, q):
            continue
        change = plan.delta(t, p, q)
        if change < best_change:
            best_change, best_q = change, q
    plan.evaluations += plan.player_count
    if best_q is None:
        return False
    plan.apply(t, p, best_q, best_change)
    return True


def _side_problems(plan: Plan, t: int) -> list[int]:
    """Players of round t at a 3-table, with someone of their organisation, or at a table
    of the first round that cannot keep letters balanced (sorted)."""
    found: set[int] = set()
    tables = plan.members[t]
    for j, table in enumerate(tables):
        if plan.sizes[j] == 3:
            found.update(table)
    if plan.org_weights:
        clash = plan.org_weights
        for table in tables:
            for p in table:
                if any(x != p and clash[p][x] for x in table):
                    found.add(p)
    if t == 0 and plan.letter_check is not None:
        for j, table in enumerate(tables):
            if plan.bad_tables[j]:
                found.update(table)
    return sorted(found)
