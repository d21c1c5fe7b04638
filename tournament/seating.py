"""Seating engine for Rummikub tournaments (plain Python, standard library only).

A round's seating is a list of tables, table 1 first; each table is a dict
seat letter -> player id ("A".."D" at a 4-table, "A".."C" at a 3-table).
Player ids are opaque hashable values (ints or strings).

Public API:

* ``table_sizes(n)`` -- table sizes for ``n`` players (4-tables first).
* ``draw_round(players, history, *, seed, method, ...)`` -- one round's seating.
* ``quality_report(rounds)`` -- repeat meetings, 3-table repeats, seat balance.
* ``swap_players(seating, a, b)`` -- a new seating with two players' seats exchanged.
* ``plan_tournament(n_players, n_rounds, *, method, seed)`` -- a whole plan for
  players ``1..n`` plus its report (used by the ``seating_plan`` command and the
  benchmark).

Quality, in this order of priority: no pair meets twice where possible; the
worst pair's meeting count as low as possible; no player at a 3-table twice
before everyone has had one; players of one organisation kept apart; seat
letters balanced after every round (``engine.seating.letters`` says what
balanced means with 3-tables).  Everything is deterministic for a given seed: all
randomness comes from ``random.Random(seed)`` and the search is bounded by
work counters, never by the clock.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import random

from engine.seating import designs
from engine.seating import letters as seat_letters

LETTERS = ("A", "B", "C", "D")
_LETTER_INDEX = {letter: i for i, letter in enumerate(LETTERS)}
METHODS = ("mixed", "swiss", "random")

# Cost weights (integers, so the search is exact).  A pair meeting for the
# m-th time costs _W_PAIR * 6**(m-2) more than meeting m-1 times (m >= 2):
# repeats dominate, and a third meeting is much worse than another second one.
_W_PAIR = 10**6
_W_SWISS = 20_000  # per table a player sits away from his standings group
_W_THREE = 2_000  # per earlier 3-table seat of a player given a 3-table seat
_W_ORG = 300  # per pair of one organisation at one table
_W_LETTER = 100  # per table of the round being drawn whose players cannot all keep balanced letters

# Work budget of one draw, in evaluated moves (about 1-2 microseconds each).
_BASE_BUDGET = 600_000
# Plan this many rounds at most when looking ahead.
_MAX_LOOKAHEAD = 12
# At most this many seeded attempts per plan.
_MAX_ATTEMPTS = 12
# Other sets of schedule rounds (or letterings of a schedule) tried for organisations
# kept apart with balanced letters.
_ORG_TRIES = 6


class SeatingError(ValueError):
    """A seating cannot be made; ``code`` is a stable machine-readable reason."""

    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


def table_sizes(n):
    """Table sizes for ``n`` players: as many 4-tables as possible, 3-tables last.

    >>> table_sizes(10)
    [4, 3, 3]
    """
    if n < 3:
        raise SeatingError(
            f"At least 3 players are needed to seat a round ({n} given).", "too_few_players"
        )
    if n == 5:
        raise SeatingError(
            "5 players cannot be seated at tables of 3 or 4 players.", "five_players"
        )
    threes = (4 - n % 4) % 4
    fours = (n - 3 * threes) // 4
    return [4] * fours + [3] * threes


def _stable_order(players):
    """Players in a canonical order, so the result does not depend on query order."""
    players = list(players)
    try:
        ordered = sorted(players)
    except TypeError:
        ordered = sorted(players, key=lambda p: (type(p).__name__, repr(p)))
    for a, b in zip(ordered, ordered[1:]):
        if a == b:
            raise SeatingError(f"Player {a!r} is listed twice.", "duplicate_player")
    return ordered


def derive_seed(seed, round_number):
    """A per-round integer seed derived from a tournament seed (stable across runs)."""
    digest = hashlib.sha256(f"{seed}:{round_number}".encode()).hexdigest()
    return int(digest[:12], 16)


# ---------------------------------------------------------------------------
# Search state
# ---------------------------------------------------------------------------


def _pair_increments(limit):
    """inc[m] = weighted cost of a pair's (m+1)-th meeting (0 for the first)."""
    inc = [0, _W_PAIR]
    while len(inc) < limit + 2:
        inc.append(inc[-1] * 6)
    return inc


class _Plan:
    """Seatings of the rounds being planned, with incremental cost bookkeeping.

    Players are indices 0..n-1.  For planned round t: ``tab[t][p]`` is p's
    table, ``let[t][p]`` his place in ``members[t][j]``, the players of table j.
    ``M`` counts meetings (history + planned), ``K3`` 3-table seats.
    ``U[p][x]`` / ``D[p][x]`` are the cost changes when p and x meet once more /
    once less.  Seat letters are chosen once the tables are (``seat_letters``);
    the search only sees, with ``letter_check`` (a ``seat_letters.TableCheck``
    of the players' letters so far), which tables of the first planned round
    could not keep their players' letters balanced: ``bad[j]``.
    """

    def __init__(self, n, sizes, base_m, base_k3, org_w, rng, natural=None, swiss_w=None,
                 letter_check=None):
        self.n = n
        self.sizes = sizes
        self.ntab = len(sizes)
        self.base_m = base_m
        self.base_k3 = base_k3
        self.letter_check = letter_check
        self.org_w = org_w  # n x n matrix of org clash weights, or None
        self.rng = rng
        self.natural = natural  # swiss: standings table of each player
        self.swiss_w = swiss_w  # swiss: cost per table away from it (higher for leaders)
        self.has_three = 3 in sizes
        self.w_three = _W_THREE
        max_m = max((max(row) for row in base_m), default=0) if n else 0
        self.inc = _pair_increments(max_m + _MAX_LOOKAHEAD + 2)
        self.evals = 0

    # -- loading -----------------------------------------------------------

    def load(self, rounds):
        """Set the planned rounds: ``rounds[t][j]`` = list of players, in letter order."""
        n = self.n
        self.R = len(rounds)
        self.members = [[list(tbl) for tbl in rnd] for rnd in rounds]
        self.tab = [[0] * n for _ in rounds]
        self.let = [[0] * n for _ in rounds]
        M = [row[:] for row in self.base_m]
        K3 = self.base_k3[:]
        for t, rnd in enumerate(self.members):
            tab, let = self.tab[t], self.let[t]
            for j, tbl in enumerate(rnd):
                three = self.sizes[j] == 3
                for li, p in enumerate(tbl):
                    tab[p] = j
                    let[p] = li
                    if three:
                        K3[p] += 1
                    for x in tbl:
                        if x != p:
                            M[p][x] += 1
        self.M, self.K3 = M, K3
        check = self.letter_check
        if check is not None and self.members:
            self.code = [check.code(tbl, s) for tbl, s in zip(self.members[0], self.sizes)]
            self.bad = [not check.ok(c, s) for c, s in zip(self.code, self.sizes)]
        inc = self.inc
        org = self.org_w
        self.U = U = [[0] * n for _ in range(n)]
        self.D = D = [[0] * n for _ in range(n)]
        for p in range(n):
            Mp, Up, Dp = M[p], U[p], D[p]
            Op = org[p] if org else None
            for x in range(n):
                if x == p:
                    continue
                m = Mp[x]
                o = Op[x] if Op else 0
                Up[x] = inc[m] + o
                Dp[x] = inc[m - 1] + o if m else 0
        self.cost = self.full_cost()

    def snapshot(self):
        return [[tbl[:] for tbl in rnd] for rnd in self.members]

    def full_cost(self):
        """Total cost from scratch (only differences between costs matter)."""
        n, M, inc = self.n, self.M, self.inc
        total = 0
        for p in range(n):
            for x in range(p + 1, n):
                m = M[p][x]
                for k in range(m):
                    total += inc[k]
        if self.org_w:
            for rnd in self.members:
                for tbl in rnd:
                    for i, p in enumerate(tbl):
                        for x in tbl[i + 1 :]:
                            total += self.org_w[p][x]
        for k in self.K3:
            total += self.w_three * k * (k - 1) // 2
        if self.letter_check is not None and self.members:
            total += _W_LETTER * sum(self.bad)
        if self.natural is not None:
            nat = self.natural
            for tab in self.tab:
                for p in range(n):
                    total += self.swiss_w[p] * abs(tab[p] - nat[p])
        return total

    # -- moves ---------------------------------------------------------------

    def _set_pair(self, p, x, m):
        inc = self.inc
        o = self.org_w[p][x] if self.org_w else 0
        self.U[p][x] = self.U[x][p] = inc[m] + o
        self.D[p][x] = self.D[x][p] = (inc[m - 1] + o) if m else 0

    def delta(self, t, p, q):
        """Cost change of exchanging the seats of p and q in planned round t."""
        tab = self.tab[t]
        a, b = tab[p], tab[q]
        if a == b:
            return 0
        A = self.members[t][a]
        B = self.members[t][b]
        Up, Dp, Uq, Dq = self.U[p], self.D[p], self.U[q], self.D[q]
        d = 0
        for x in A:
            if x != p:
                d += Uq[x] - Dp[x]
        for y in B:
            if y != q:
                d += Up[y] - Dq[y]
        return d + self._side_delta(t, p, q, a, b)

    def _side_delta(self, t, p, q, a, b):
        """3-table, letter and swiss parts of a swap between tables a and b."""
        d = 0
        sa, sb = self.sizes[a], self.sizes[b]
        if sa != sb:
            K3 = self.K3
            if sa == 3:
                d += self.w_three * (K3[q] - K3[p] + 1)
            else:
                d += self.w_three * (K3[p] - K3[q] + 1)
        if t == 0 and self.letter_check is not None:
            d += self._letter_delta(p, q, a, b)[0]
        nat = self.natural
        if nat is not None:
            np_, nq = nat[p], nat[q]
            sw = self.swiss_w
            d += sw[p] * (abs(b - np_) - abs(a - np_)) + sw[q] * (abs(a - nq) - abs(b - nq))
        return d

    def _letter_delta(self, p, q, a, b):
        """Cost change of the letter part when p (table a) and q (table b) exchange
        seats in the first planned round, with the two tables' new codes."""
        check = self.letter_check
        sa, sb = self.sizes[a], self.sizes[b]
        term_a, term_b = check.term[sa], check.term[sb]
        code_a = self.code[a] - term_a[p] + term_a[q]
        code_b = self.code[b] - term_b[q] + term_b[p]
        bad = (not check.ok(code_a, sa)) + (not check.ok(code_b, sb))
        return _W_LETTER * (bad - self.bad[a] - self.bad[b]), code_a, code_b

    def allowed(self, t, p, q):
        """Swiss keeps everybody within one table of his standings group."""
        nat = self.natural
        if nat is None:
            return True
        tab = self.tab[t]
        return abs(tab[q] - nat[p]) <= 1 and abs(tab[p] - nat[q]) <= 1

    def apply(self, t, p, q, d=None):
        """Exchange the seats of p and q in planned round t."""
        if d is None:
            d = self.delta(t, p, q)
        tab, let = self.tab[t], self.let[t]
        a, b = tab[p], tab[q]
        lp, lq = let[p], let[q]
        if a != b:
            if t == 0 and self.letter_check is not None:
                _, code_a, code_b = self._letter_delta(p, q, a, b)
                sa, sb = self.sizes[a], self.sizes[b]
                self.code[a], self.code[b] = code_a, code_b
                self.bad[a] = not self.letter_check.ok(code_a, sa)
                self.bad[b] = not self.letter_check.ok(code_b, sb)
            A = self.members[t][a]
            B = self.members[t][b]
            M = self.M
            Mp, Mq = M[p], M[q]
            for x in A:
                if x != p:
                    Mp[x] -= 1
                    M[x][p] -= 1
                    self._set_pair(p, x, Mp[x])
                    Mq[x] += 1
                    M[x][q] += 1
                    self._set_pair(q, x, Mq[x])
            for y in B:
                if y != q:
                    Mq[y] -= 1
                    M[y][q] -= 1
                    self._set_pair(q, y, Mq[y])
                    Mp[y] += 1
                    M[y][p] += 1
                    self._set_pair(p, y, Mp[y])
            A[A.index(p)] = q
            B[B.index(q)] = p
            tab[p], tab[q] = b, a
            sa, sb = self.sizes[a], self.sizes[b]
            if sa != sb:
                if sa == 3:
                    self.K3[p] -= 1
                    self.K3[q] += 1
                else:
                    self.K3[q] -= 1
                    self.K3[p] += 1
        else:
            tbl = self.members[t][a]
            i, k = tbl.index(p), tbl.index(q)
            tbl[i], tbl[k] = q, p
        let[p], let[q] = lq, lp
        self.cost += d

    # -- queries ---------------------------------------------------------------

    def conflicts(self):
        """(round, player) entries the tabu search should move.

        A player meeting someone at his table a second time or more, sitting
        at a 3-table while a 4-table player of that round has had at least two
        fewer 3-table seats (an exchange would even them out), or sitting at a
        table of the first planned round that cannot keep letters balanced.
        """
        M = self.M
        out = []
        mixed_sizes = self.has_three and 4 in self.sizes
        K3 = self.K3
        bad = self.bad if self.letter_check is not None else None
        for t, rnd in enumerate(self.members):
            min4 = None
            if mixed_sizes:
                min4 = min(K3[p] for j, tbl in enumerate(rnd) if self.sizes[j] == 4 for p in tbl)
            for j, tbl in enumerate(rnd):
                three = self.sizes[j] == 3
                for p in tbl:
                    Mp = M[p]
                    for x in tbl:
                        if x != p and Mp[x] >= 2:
                            out.append((t, p))
                            break
                    else:
                        if (three and min4 is not None and K3[p] >= min4 + 2) or (
                            t == 0 and bad is not None and bad[j]
                        ):
                            out.append((t, p))
        return out

    # -- search ------------------------------------------------------------------

    def pair_cost(self):
        """Weighted repeat-meeting cost (history included, organisations aside)."""
        inc, M, n = self.inc, self.M, self.n
        total = 0
        for p in range(n):
            Mp = M[p]
            for x in range(p + 1, n):
                for k in range(Mp[x]):
                    total += inc[k]
        return total

    def quality_key(self):
        """Comparable quality of the plan: repeats, 3-table spread, then the rest."""
        return (self.pair_cost(), sum(k * (k - 1) for k in self.K3), self.cost)

    def tabu_search(self, budget, tenure=(1, 4), sample=None):
        """Conflict-directed tabu search on repeat meetings and 3-table rotation.

        Each step exchanges two players of one round, one of whom is in
        ``conflicts``; the exchange that lowers the cost most is taken even if
        it makes things worse (ties broken at random; a
        player may not go back to a table he just left for a few steps).  When the best plan has
        not improved for a while, a few random exchanges perturb the plan.
        Stops when no repeat is left, the work budget (evaluated moves) is spent
        or nothing improved for a third of it; the best plan found is kept.
        """
        rng = self.rng
        n, R, ntab = self.n, self.R, self.ntab
        conf = self.conflicts()
        if not conf or ntab < 2:
            return
        pc = self.full_cost()
        best_pc = pc
        best_plan = self.snapshot()
        tabu = [[0] * (n * ntab) for _ in range(R)]
        it = 0
        last_best = 0
        stall_limit = max(100, 10 * n)
        start_evals = self.evals
        patience = max(budget // 2, 50_000)
        best_at = self.evals
        nat = self.natural
        sw = self.swiss_w
        sizes, K3 = self.sizes, self.K3
        check = self.letter_check
        if check is not None:
            ok, code, bad = check.ok, self.code, self.bad
        lo, hi = tenure
        while conf and self.evals - start_evals < budget:
            it += 1
            self.evals += 1
            if sample and len(conf) > sample:
                conf = rng.sample(conf, sample)
            best_d = None
            moves = []
            for t, p in conf:
                tab = self.tab[t]
                members = self.members[t]
                a = tab[p]
                A = [x for x in members[a] if x != p]
                Up, Dp = self.U[p], self.D[p]
                leave_p = 0
                for x in A:
                    leave_p += Dp[x]
                tabu_t = tabu[t]
                letters = check is not None and t == 0
                if letters:
                    term_a = check.term[sizes[a]]
                    code_a = code[a] - term_a[p]
                for b in range(ntab):
                    if b == a:
                        continue
                    if nat is not None and abs(b - nat[p]) > 1:
                        continue
                    B = members[b]
                    join_p_all = 0
                    for y in B:
                        join_p_all += Up[y]
                    p_tabu = tabu_t[p * ntab + b] > it
                    base = join_p_all - leave_p
                    three = sizes[a] != sizes[b]
                    if letters:
                        term_b = check.term[sizes[b]]
                        code_b = code[b] + term_b[p]
                        was_bad = _W_LETTER * (bad[a] + bad[b])
                    for q in B:
                        Uq, Dq = self.U[q], self.D[q]
                        d = base - Up[q]
                        for x in A:
                            d += Uq[x]
                        for y in B:
                            d -= Dq[y]  # Dq[q] is 0
                        if three:
                            if sizes[a] == 3:
                                d += self.w_three * (K3[q] - K3[p] + 1)
                            else:
                                d += self.w_three * (K3[p] - K3[q] + 1)
                        if nat is not None:
                            nq = nat[q]
                            if abs(a - nq) > 1:
                                continue
                            np_ = nat[p]
                            d += sw[p] * (abs(b - np_) - abs(a - np_)) + sw[q] * (
                                abs(a - nq) - abs(b - nq)
                            )
                        if letters:
                            now_bad = (not ok(code_a + term_a[q], sizes[a])) + (
                                not ok(code_b - term_b[q], sizes[b])
                            )
                            d += _W_LETTER * now_bad - was_bad
                        if (p_tabu or tabu_t[q * ntab + a] > it) and pc + d >= best_pc:
                            continue
                        if best_d is None or d < best_d:
                            best_d = d
                            moves = [(t, p, q)]
                        elif d == best_d:
                            moves.append((t, p, q))
                    self.evals += len(B)
            if moves:
                t, p, q = moves[rng.randrange(len(moves))]
                a, b = self.tab[t][p], self.tab[t][q]
                self.apply(t, p, q)
                pc += best_d
                tabu[t][p * ntab + a] = it + rng.randint(lo, hi)
                tabu[t][q * ntab + b] = it + rng.randint(lo, hi)
            if pc < best_pc:
                best_pc = pc
                best_plan = self.snapshot()
                last_best = it
                best_at = self.evals
            elif it - last_best > stall_limit:
                self._perturb(rng.randint(1, 3))
                pc = self.full_cost()
                tabu = [[0] * (n * ntab) for _ in range(R)]
                last_best = it
            if self.evals - best_at > patience:
                break  # no progress for long: repeats are probably unavoidable
            conf = self.conflicts()
        if pc > best_pc:
            self.load(best_plan)

    def _perturb(self, k):
        rng = self.rng
        for _ in range(k):
            t = rng.randrange(self.R)
            p = rng.randrange(self.n)
            q = rng.randrange(self.n)
            if self.tab[t][p] != self.tab[t][q] and self.allowed(t, p, q):
                self.apply(t, p, q)

    def improve(self, budget):
        """Steepest descent on the whole cost for players with a side problem.

        Candidates: players at a 3-table, players sharing a table with someone
        of their organisation or at a table that cannot keep letters balanced,
        and (for small fields) everybody.  Only improving exchanges.
        """
        n = self.n
        start = self.evals
        everyone = n <= 64 or self.R == 1
        improved = True
        while improved and self.evals - start < budget:
            improved = False
            for t in range(self.R):
                cands = set()
                members = self.members[t]
                if everyone:
                    cands = range(n)
                else:
                    for j, tbl in enumerate(members):
                        if self.sizes[j] == 3:
                            cands.update(tbl)
                    if self.org_w:
                        ow = self.org_w
                        for tbl in members:
                            for p in tbl:
                                if any(x != p and ow[p][x] for x in tbl):
                                    cands.add(p)
                    if t == 0 and self.letter_check is not None:
                        for j, tbl in enumerate(members):
                            if self.bad[j]:
                                cands.update(tbl)
                    cands = sorted(cands)
                for p in cands:
                    best_d, best_q = 0, None
                    for q in range(n):
                        if q == p or not self.allowed(t, p, q):
                            continue
                        d = self.delta(t, p, q)
                        if d < best_d:
                            best_d, best_q = d, q
                    self.evals += n
                    if best_q is not None:
                        self.apply(t, p, best_q, best_d)
                        improved = True
                if self.evals - start >= budget:
                    break


# ---------------------------------------------------------------------------
# Public functions
# ---------------------------------------------------------------------------


def _history_counts(ids, history):
    """Meetings ``M``, 3-table seats, letter counts and 4-table seats of players ``ids``."""
    index = {pid: i for i, pid in enumerate(ids)}
    n = len(ids)
    M = [[0] * n for _ in range(n)]
    K3 = [0] * n
    LC = [[0, 0, 0, 0] for _ in range(n)]
    fours = [0] * n
    for rnd in history or ():
        for table in rnd:
            here = [index[pid] for pid in table.values() if pid in index]
            three = len(table) == 3
            for letter, pid in table.items():
                i = index.get(pid)
                if i is None:
                    continue
                if letter in _LETTER_INDEX:
                    LC[i][_LETTER_INDEX[letter]] += 1
                if three:
                    K3[i] += 1
                else:
                    fours[i] += 1
            for i in here:
                Mi = M[i]
                for x in here:
                    if x != i:
                        Mi[x] += 1
    return M, K3, LC, fours


def _org_matrix(ids, organisations):
    if not organisations:
        return None
    org = [organisations.get(pid) for pid in ids]
    n = len(ids)
    W = [[0] * n for _ in range(n)]
    any_clash = False
    for p in range(n):
        if org[p] is None:
            continue
        for x in range(n):
            if x != p and org[x] == org[p]:
                W[p][x] = _W_ORG
                any_clash = True
    return W if any_clash else None


def _chunk(order, sizes):
    tables, i = [], 0
    for s in sizes:
        tables.append(order[i : i + s])
        i += s
    return tables


def _greedy_round(plan, sizes, rng):
    """One round built table by table, each time adding the player who adds least cost.

    3-tables are filled first so they get the players with fewest 3-table seats.
    Uses (and updates) the plan's running counters; returns the tables.
    """
    n = plan.n
    order = list(range(n))
    rng.shuffle(order)
    unplaced = order[:]
    tables = [None] * len(sizes)
    U, K3 = plan.U, plan.K3
    # The first planned round also keeps its tables able to take balanced letters.
    check = plan.letter_check if not plan.members else None
    for j in sorted(range(len(sizes)), key=lambda j: (sizes[j], j)):
        size = sizes[j]
        if size == 3:
            first = min(unplaced, key=lambda p: K3[p])
        else:
            first = unplaced[0]
        unplaced.remove(first)
        tbl = [first]
        while len(tbl) < size:
            best, best_c = None, None
            if check is not None:
                term = check.term[size]
                code = check.code(tbl, size)
            for q in unplaced:
                c = 0
                Uq = U[q]
                for x in tbl:
                    c += Uq[x]
                if size == 3:
                    c += plan.w_three * K3[q]
                if check is not None and not check.ok(code + term[q], size):
                    c += _W_LETTER
                if best_c is None or c < best_c:
                    best, best_c = q, c
            unplaced.remove(best)
            tbl.append(best)
        tables[j] = tbl
        plan.evals += n * size
    return tables


def _lookahead(n, total_rounds, max_seat):
    """How many rounds to plan together (1 = this round alone).

    Looking ahead only pays when meetings are scarce, i.e. when all the rounds
    would use a good part of each player's possible partners.
    """
    if total_rounds * (max_seat - 1) * 2 <= n - 1:
        return 1
    return _MAX_LOOKAHEAD


# ---------------------------------------------------------------------------
# Known zero-repeat schedules (engine/seating/designs.py)
# ---------------------------------------------------------------------------


def _design_size(n):
    """Points of the built-in schedule that seats ``n`` players (their 3-tables filled
    up with absent "virtual" players), or None."""
    size = n + table_sizes(n).count(3)
    return size if designs.rounds_available(size) else None


@functools.lru_cache(maxsize=32)
def _design_plan(round1, organisations, total):
    """The built-in schedule laid over the players of round 1, or None.

    ``round1``: round 1's tables (tuples of player ids in letter order);
    ``organisations``: sorted (player, organisation) pairs or None; ``total``: rounds
    planned.  Returns ``(label, classes, order, seatings)``: ``label[point]`` is a
    player id or None (a virtual player), ``classes`` the schedule's rounds (lists of
    point blocks), ``order`` the classes in the order to play them (round 1's class
    first, the others fair to 3-table players, see ``_fair_order``) and ``seatings``
    rounds 2..``total`` with their letters.  None when the
    tournament does not fit the schedule.

    Round 1's 3-tables are the blocks of its class that hold a virtual point; with two
    or three virtual points these lie in one block, whose class is left out (it would
    need a 2- or 1-table).  Round 1's tables go to the blocks at random, but seeded by
    round 1, so the same at every later draw and unknown before round 1 is drawn.
    Within a block, a player takes the point whose letter in round 1 is his: the
    letters of the rounds to play are chosen first, on the points, all together
    (``seat_letters.colour_rounds``), so everyone's letters stay balanced.  With
    organisations, players of a block then exchange points where that keeps players
    of one organisation apart (organisations come first), and the rounds to play are
    lettered again after round 1 (``seat_letters.assign``).
    """
    players = [p for table in round1 for p in table]
    n = len(players)
    size = _design_size(n)
    if size is None or sorted(map(len, round1), reverse=True) != table_sizes(n):
        return None
    classes = designs.schedule(size)
    rng = random.Random(_plan_seed([_to_seating(round1)], players, "design"))
    virtual_count = size - n
    skip = None
    if virtual_count <= 1:
        first = rng.randrange(len(classes))
        virtual_points = [rng.choice(rng.choice(classes[first]))] if virtual_count else []
    else:
        skip = rng.randrange(len(classes))
        block = rng.choice(classes[skip])
        virtual_points = rng.sample(block, virtual_count)
        first = rng.choice([c for c in range(len(classes)) if c != skip])
    order = [c for c in range(len(classes)) if c not in (first, skip)]
    if total > len(order) + 1:
        return None
    virtual = set(virtual_points)
    threes = [b for b in classes[first] if virtual.intersection(b)]
    fours = [b for b in classes[first] if not virtual.intersection(b)]
    rng.shuffle(threes)
    rng.shuffle(fours)
    tables = sorted(round1, key=len)  # 3-tables first
    rng.shuffle(order)
    sizes = table_sizes(n)

    def tables_of(c):
        tables = [[p for p in block if p not in virtual] for block in classes[c]]
        return sorted(tables, key=len, reverse=True)

    prior = [0] * size
    for block in threes:
        for p in block:
            prior[p] = 1
    order = [order[i] for i in _fair_order([tables_of(c) for c in order], sizes, prior)]
    best, best_key = None, None
    for attempt in range(_ORG_TRIES if organisations else 1):
        if attempt and 3 not in sizes:
            # Any of the rounds will do: try other sets for organisations and letters.
            order = rng.sample(order, len(order))
        planned = [tables_of(first)] + [tables_of(c) for c in order[: total - 1]]
        played = [classes[c] for c in order[: total - 1]]
        coloured = seat_letters.colour_rounds(planned, rng)
        at_block = {frozenset(tbl): tbl for tbl in coloured[0]}
        label = [None] * size
        for table, block in zip(tables, threes + fours):
            points = at_block[frozenset(p for p in block if p not in virtual)]
            for pid, point in zip(table, points):
                label[point] = pid
        if not organisations:
            best = label, order, [[[label[p] for p in tbl] for tbl in rnd] for rnd in coloured[1:]]
            break
        clashes = _separate_organisations(label, played, classes[first], dict(organisations))
        rounds = [[[label[p] for p in tbl] for tbl in rnd] for rnd in coloured[1:]]
        rounds, excess = _reletter_after_round1(round1, rounds, rng)
        if best is None or (clashes, excess) < best_key:
            best, best_key = (label, order, rounds), (clashes, excess)
        if not any(best_key):
            break
    label, order, rounds = best
    return label, classes, [first] + order, [_to_seating(rnd) for rnd in rounds]


def _reletter_after_round1(round1, rounds, rng):
    """Letters for ``rounds`` (tables of player ids) after ``round1`` (tables of player
    ids in letter order), as balanced as ``seat_letters.assign`` finds them, and
    their total excess."""
    counts, fours = {}, {}
    for table in round1:
        for letter, pid in enumerate(table):
            counts[pid] = [int(letter == i) for i in range(seat_letters.LETTER_COUNT)]
            fours[pid] = int(len(table) == 4)
    return seat_letters.assign(rounds, counts, fours, rng)


def _separate_organisations(label, classes, first_blocks, organisations):
    """Exchange labels within round 1's blocks while that lowers the number of
    same-organisation pairs at a table in ``classes`` (round 1 stays as drawn).
    Returns the number of such pairs left."""
    others = [block for rnd in classes for block in rnd]
    where = {}
    for block in others:
        for p in block:
            where.setdefault(p, []).append(block)
    for block in first_blocks:
        for p in block:
            where.setdefault(p, [])

    def clashes(p):
        org = organisations.get(label[p]) if label[p] is not None else None
        if org is None:
            return 0
        return sum(
            1
            for block in where[p]
            for q in block
            if q != p and label[q] is not None and organisations.get(label[q]) == org
        )

    improved = True
    while improved:
        improved = False
        for block in first_blocks:
            for i, p in enumerate(block):
                for q in block[i + 1 :]:
                    before = clashes(p) + clashes(q)
                    if before == 0:
                        continue
                    label[p], label[q] = label[q], label[p]
                    if clashes(p) + clashes(q) < before:
                        improved = True
                    else:
                        label[p], label[q] = label[q], label[p]
    return sum(clashes(p) for block in first_blocks for p in block) // 2


def _design_round(ids, history, total, organisations, effort):
    """This round from the built-in schedule laid over round 1, or None.

    Used while the tournament fits the schedule (rounds planned at most the rounds it
    has) and round 1 was seated as a random draw of the schedule's size.  While every
    round so far was seated as planned, the next planned round (with its letters) is
    the answer.  Otherwise rounds already played are matched to the schedule's rounds
    by the pairs they share; the next round is an unplayed schedule round, restricted
    to the players now active (withdrawn players leave a 3-table; late arrivals take
    the place of a virtual player), that is fair to 3-table players and meets nobody
    again, and whose letters keep everyone balanced where one can.  When the
    restricted rounds no longer fit the table sizes (several players gone, or more
    arrived than there are virtual places) they are the starting point of the usual
    search.
    """
    round1 = tuple(tuple(table[letter] for letter in LETTERS if letter in table) for table in history[0])
    orgs = None
    if organisations:
        orgs = tuple(sorted(((p, o) for p, o in organisations.items() if o is not None), key=lambda item: _sort_key(item[0])))
    designed = _design_plan(round1, orgs, total)
    if designed is None:
        return None
    label, classes, order, planned = designed
    virtual_count = sum(1 for pid in label if pid is None)
    if virtual_count >= 2 and planned is not None and _search_does_better(history, total, organisations, effort, planned):
        return None
    if planned is not None and set(ids) == set(label) - {None}:
        done = len(history) - 1
        if done < len(planned) and list(history[1:]) == planned[:done]:
            return planned[done]
    label = list(label)
    free_points = [p for p, pid in enumerate(label) if pid is None]
    known = set(label)
    for pid in ids:
        if pid not in known:
            if not free_points:
                return None
            label[free_points.pop(0)] = pid
    point_of = {pid: p for p, pid in enumerate(label) if pid is not None}
    played = set()
    for rnd in history[1:]:
        pairs = {
            frozenset((point_of[a], point_of[b]))
            for table in rnd
            for a, b in itertools.combinations(table.values(), 2)
            if a in point_of and b in point_of
        }
        shared = {
            c: sum(1 for block in classes[c] for pair in itertools.combinations(block, 2) if frozenset(pair) in pairs)
            for c in order
        }
        best = max(order, key=lambda c: shared[c])
        if 2 * shared[best] >= len(pairs):
            played.add(best)
    left = [c for c in order if c not in played]
    if not left:
        return None
    n = len(ids)
    sizes = table_sizes(n)
    index = {pid: i for i, pid in enumerate(ids)}
    rounds = []
    for c in left:
        tables = [[index[label[p]] for p in block if label[p] in index] for block in classes[c]]
        rounds.append(sorted((t for t in tables if t), key=len, reverse=True))
    base_m, base_k3, base_lc, four = _history_counts(ids, history)
    fitting = [r for r in rounds if [len(t) for t in r] == sizes]
    fitting = [r for r in fitting if not any(base_m[p][q] for t in r for p in t for q in t if p != q)]
    needed = total - len(history)
    if len(fitting) < needed:
        initial = [_fit_sizes(r, sizes) for r in rounds[: max(needed, 1)]]
        rng = random.Random(_plan_seed(history, ids, total))
        return _plan_rounds(ids, history, len(initial), rng, organisations, effort, initial=initial)[0]
    return _index_seating(ids, _schedule_choice(fitting, max(needed, 1), sizes, history, ids, total, organisations, base_k3, base_lc, four))


def _schedule_choice(fitting, needed, sizes, history, ids, total, organisations, base_k3, base_lc, four):
    """The next round (tables of player indices in letter order) among unplayed
    schedule rounds that fit: ``needed`` of them are planned, 3-table fair first.

    Tried in turn until one keeps organisations apart and every letter balanced: the
    fair order; any ``needed`` rounds when there is no 3-table; each round that is as
    fair a start as the first.  The best is kept: fewest organisation clashes, then
    least letter excess in this round, then in the rounds after it.
    """
    rng = random.Random(_plan_seed(history, ids, total))
    choices = [[fitting[t] for t in _fair_order(fitting, sizes, base_k3)[:needed]]]
    if 3 not in sizes and len(fitting) > needed and organisations:
        choices += [rng.sample(fitting, needed) for _ in range(_ORG_TRIES)]
    for i in range(len(fitting)):
        ordered = [fitting[i]] + fitting[:i] + fitting[i + 1 :]
        order = _fair_order(ordered, sizes, base_k3, keep_first=True)
        if order[0] == 0:
            choices.append([ordered[t] for t in order[:needed]])
    org_w = _org_matrix(ids, organisations)
    check = _letter_check(base_lc, four)
    best, best_key = None, None
    for ahead in choices:
        clashes = sum(org_w[p][q] for t in ahead for tbl in t for p in tbl for q in tbl) if org_w else 0
        feasible = all(check.ok(check.code(tbl, s), s) for tbl, s in zip(ahead[0], sizes))
        if best is not None and (clashes, not feasible) > best_key[:2]:
            continue
        lettered, excess = seat_letters.assign(ahead, base_lc, four, rng)
        first = seat_letters.total_excess(lettered[:1], base_lc, four)
        key = (clashes, first > 0, first, excess)
        if best is None or key < best_key:
            best, best_key = lettered[0], key
        if not any(key):
            break
    return best


def _index_seating(ids, tables):
    """A seating from tables of player indices in letter order."""
    return _to_seating([[ids[p] for p in tbl] for tbl in tables])


def _fit_sizes(tables, sizes):
    """Tables (lists of player indices) made to the given sizes with few moves.

    Tables are matched to sizes largest first; players over a table's size are moved to
    the tables short of players.
    """
    tables = sorted((t[:] for t in tables), key=len, reverse=True)
    while len(tables) < len(sizes):
        tables.append([])
    spare = []
    for t, s in zip(tables, sizes):
        while len(t) > s:
            spare.append(t.pop())
    for t in tables[len(sizes):]:
        spare.extend(t)
    out = tables[: len(sizes)]
    for t, s in zip(out, sizes):
        while len(t) < s:
            t.append(spare.pop())
    return out


def _plan_rounds(ids, history, n_rounds, rng, organisations, effort, initial=None):
    """Plan ``n_rounds`` rounds after ``history`` for players ``ids`` (mixed method).

    Several seeded attempts (alternately putting 3-table rotation before or
    after repeat meetings) within the work budget; the best plan is kept, and
    the attempts stop as soon as one has no repeat, fair 3-tables and balanced
    letters.  Returns a list of seatings (lists of table dicts); the first is
    the round to play, the others keep it from blocking later rounds.
    ``initial``: rounds (lists of tables of player indices) to start the first
    attempt from instead of a greedy draw.
    """
    n = len(ids)
    sizes = table_sizes(n)
    base_m, base_k3, base_lc, four = _history_counts(ids, history)
    org_w = _org_matrix(ids, organisations)
    first = None if org_w else _only_round(ids, history)
    # After round 1 alone its letters do not constrain the plan (see _letters).
    check = None if first is not None else _letter_check(base_lc, four)
    budget = int(_BASE_BUDGET * effort)
    mixed_sizes = 3 in sizes and 4 in sizes
    used = 0
    best, best_key = None, None
    for attempt in range(_MAX_ATTEMPTS):
        plan = _Plan(n, sizes, base_m, base_k3, org_w, random.Random(rng.random()),
                     letter_check=check)
        if mixed_sizes and attempt % 2 == 1:
            plan.w_three = 3 * _W_PAIR  # fair 3-tables first, then repeats
        if initial is not None and attempt == 0:
            rounds = [[t[:] for t in tables] for tables in initial]
        else:
            plan.load([])
            rounds = []
            for _ in range(n_rounds):
                rounds.append(_greedy_round(plan, sizes, plan.rng))
                plan.load(rounds)
        plan.load(rounds)
        plan.tabu_search(max(budget - used, budget // 8))
        plan.w_three = _W_THREE
        plan.load(plan.snapshot())
        plan.improve(budget // 8)
        used += plan.evals
        order = _fair_order(plan.members, sizes, base_k3, keep_first=check is not None)
        lettered, excess = _letters([plan.members[t] for t in order], first, base_lc, four, plan.rng)
        key = (*plan.quality_key(), excess)
        if best is None or key < best_key:
            best, best_key = lettered, key
        if (not plan.conflicts() and not excess) or used >= budget:
            break
    if best_key[-1]:
        seat_letters.refine(best, base_lc, four)
    return [_to_seating([[ids[p] for p in tbl] for tbl in rnd]) for rnd in best]


def _only_round(ids, history):
    """Round 1's tables (player indices in letter order) if it is the only round
    played and it seated exactly ``ids``, else None."""
    if len(history) != 1 or _round_players(history[0]) != set(ids):
        return None
    index = {pid: i for i, pid in enumerate(ids)}
    return [[index[table[letter]] for letter in LETTERS if letter in table] for table in history[0]]


def _letter_check(base_lc, four):
    """The ``seat_letters.TableCheck`` of players with these letter counts and 4-table seats."""
    masks3 = [seat_letters.options(c, f, 3) for c, f in zip(base_lc, four)]
    masks4 = [seat_letters.options(c, f, 4) for c, f in zip(base_lc, four)]
    return seat_letters.TableCheck(masks3, masks4)


def _letters(rounds, first, base_lc, four, rng):
    """Seat letters for planned rounds (tables of player indices), and their total excess.

    After round 1 alone (``first``: its tables in letter order), the players of each
    round-1 table are interchangeable: exchanging two of them in every planned round
    changes no meeting, 3-table count or seat of round 1.  So round 1 and the plan
    are lettered together from nothing (always balanced, ``seat_letters.colour_rounds``)
    and the players of each round-1 table then take the places whose round-1 letter
    is theirs.  Otherwise ``seat_letters.assign`` continues from the letters so far.
    """
    if first is None:
        return seat_letters.assign(rounds, base_lc, four, rng, refined=False)
    coloured = seat_letters.colour_rounds([first] + rounds, rng)
    place = {}
    for slots, table in zip(coloured[0], first):
        for slot, p in zip(slots, table):
            place[slot] = p
    return [[[place[slot] for slot in tbl] for tbl in rnd] for rnd in coloured[1:]], 0


def _fair_order(rounds, sizes, prior, keep_first=False):
    """Order of planned rounds giving 3-table seats to those who had fewest so far.

    Greedy: next comes the round with fewest players at a 3-table while a
    4-table player of that round has had fewer 3-table seats (``keep_first``:
    the first round stays first if no other is fairer).
    """
    if 3 not in sizes or 4 not in sizes or len(rounds) < 2:
        return list(range(len(rounds)))
    prior = prior[:]
    left = list(range(len(rounds)))
    order = []

    def unfair(t):
        tables = rounds[t]
        least = min(prior[p] for j, tbl in enumerate(tables) if sizes[j] == 4 for p in tbl)
        return sum(
            1 for j, tbl in enumerate(tables) if sizes[j] == 3 for p in tbl if prior[p] > least
        )

    while left:
        t = min(left, key=lambda t: (unfair(t), t if order or not keep_first else t != 0))
        left.remove(t)
        order.append(t)
        for j, tbl in enumerate(rounds[t]):
            if sizes[j] == 3:
                for p in tbl:
                    prior[p] += 1
    return order


def _round_players(rnd):
    return {pid for table in rnd for pid in table.values()}


def _grouping(rnd):
    return {frozenset(table.values()) for table in rnd}


def _plan_seed(prefix, ids, total):
    """Seed of a plan continued over several rounds: derived from its starting point."""
    text = repr(
        (
            sorted(repr(p) for p in ids),
            [sorted(sorted(repr(p) for p in table.values()) for table in rnd) for rnd in prefix],
            total,
        )
    )
    return int(hashlib.sha256(text.encode()).hexdigest()[:16], 16)


def draw_round(
    players,
    history=(),
    *,
    seed,
    method="mixed",
    standings=None,
    organisations=None,
    remaining_rounds=0,
    continue_plan=True,
    effort=1.0,
):
    """Seat one round and return its tables (list of dicts letter -> player id).

    ``players``: the active players to seat (any order: they are sorted first).
    ``history``: earlier rounds' seatings (may include players no longer active).
    ``seed``: anything ``random.Random`` accepts; same inputs + seed = same seating.
    ``method``: "mixed" (minimise repeat meetings), "swiss" (groups by
    ``standings``, a list of player ids best first, leaders at table 1; a player
    may move one table up or down to avoid a repeat) or "random" (plain draw).
    The first round (no history) is always a random draw.
    ``organisations``: optional map player id -> organisation (kept apart).
    ``remaining_rounds``: rounds still to be drawn after this one.  When
    meetings are scarce, "mixed" plans them too, so this round does not block
    them, and later calls continue that plan as long as the field is unchanged
    and earlier rounds were seated as planned (the plan's seed then comes from
    the history, not from ``seed``); ``continue_plan=False`` forces a fresh
    plan from ``seed`` (e.g. to redraw a round).  While the rounds planned fit a
    built-in zero-repeat schedule (``engine.seating.designs``) for the field of round 1,
    "mixed" follows it instead (see ``_design_round``).
    ``effort``: scales the search work (1.0 = default).
    """
    if method not in METHODS:
        raise SeatingError(f"Unknown seating method {method!r}.", "unknown_method")
    ids = _stable_order(players)
    n = len(ids)
    sizes = table_sizes(n)
    rng = random.Random(seed)
    history = [rnd for rnd in (history or ()) if rnd]

    base_m, base_k3, base_lc, four = _history_counts(ids, history)

    if method == "random":
        # A plain draw; the letters of its tables keep players balanced where they can.
        order = list(range(n))
        rng.shuffle(order)
        lettered, _ = seat_letters.assign([_chunk(order, sizes)], base_lc, four, rng)
        return _index_seating(ids, lettered[0])

    org_w = _org_matrix(ids, organisations)
    budget = int(_BASE_BUDGET * effort)

    if not any(base_k3) and not any(four):
        # First round: a random draw (organisations kept apart if asked).
        plan = _Plan(n, sizes, base_m, base_k3, org_w, rng)
        order = list(range(n))
        rng.shuffle(order)
        plan.load([_chunk(order, sizes)])
        if org_w:
            plan.improve(budget)
        return _index_seating(ids, plan.members[0])

    if method == "swiss":
        natural, weight = _natural_tables(ids, standings, sizes)
        plan = _Plan(n, sizes, base_m, base_k3, org_w, rng, natural, weight,
                     letter_check=_letter_check(base_lc, four))
        order = sorted(range(n), key=lambda p: natural[p])
        plan.load([_chunk(order, sizes)])
        plan.tabu_search(budget)
        plan.improve(budget // 4)
        lettered, _ = seat_letters.assign(plan.members, base_lc, four, rng)
        return _index_seating(ids, lettered[0])

    total = len(history) + 1 + max(0, remaining_rounds)
    if continue_plan:
        designed = _design_round(ids, history, total, organisations, effort)
        if designed is not None:
            return designed
    ahead = min(_lookahead(n, total, max(sizes)), 1 + max(0, remaining_rounds))
    if _lookahead(n, total, max(sizes)) > 1 and continue_plan:
        continued = _continue_plan(ids, history, total, organisations, effort)
        if continued is not None:
            return continued
    return _plan_rounds(ids, history, ahead, rng, organisations, effort)[0]


# Plans recomputed at every later draw of a field are kept (per process) for the
# next draws: the same inputs give the same plan, so this only saves time.
_PLANS = {}
_PLANS_KEPT = 16


def _field_plan(ids, prefix, total, n_rounds, organisations, effort):
    """The plan of ``n_rounds`` rounds after ``prefix`` for the field ``ids`` (kept per process), and its rng."""
    rng = random.Random(_plan_seed(prefix, ids, total))
    key = repr((ids, prefix, total, sorted((organisations or {}).items(), key=repr), effort))
    planned = _PLANS.get(key)
    if planned is None:
        planned = _plan_rounds(ids, prefix, n_rounds, rng, organisations, effort)
        _PLANS[key] = planned
        while len(_PLANS) > _PLANS_KEPT:
            _PLANS.pop(next(iter(_PLANS)))
    return planned, rng


def _search_does_better(history, total, organisations, effort, scheduled):
    """Whether the plain search seats the field of round 1 better than the schedule does.

    With two or three absent players the schedule's 3-tables are where they sit, so who
    sits at a 3-table is fixed by the schedule: where the search also meets nobody twice
    it rotates the 3-tables more fairly (SPEC §5: repeats, the worst pair, then 3-tables,
    then letters).  Decided from round 1 alone, so every later draw decides alike; when
    meetings are plentiful (no look-ahead) the search needs no comparison.
    """
    ids = _stable_order(_round_players(history[0]))
    n = len(ids)
    if _lookahead(n, total, max(table_sizes(n))) == 1:
        return True
    if total - 1 > _MAX_LOOKAHEAD:
        return False
    searched, _ = _field_plan(ids, history[:1], total, total - 1, organisations, effort)

    def key(rounds):
        report = quality_report([history[0], *rounds])
        return report["repeat_pairs"], report["worst_pair"], report["three_table_repeats"], report["unbalanced"]

    return key(searched) < key(scheduled)


def _continue_plan(ids, history, total, organisations, effort):
    """This round of the plan made when the current field started, if still followed.

    The plan starts after the first round of the longest run of latest rounds
    seated with exactly the current players; it is recomputed (deterministic)
    and used if the rounds played since match its groupings.  If their letters
    differ from the plan's (a manual swap), the letters of the rest of the plan
    are chosen again from the actual ones.
    """
    active = set(ids)
    k = len(history)
    while k > 0 and _round_players(history[k - 1]) == active:
        k -= 1
    if k == len(history):
        return None  # the field changed just now: plan afresh
    prefix = history[: k + 1]
    done = len(history) - len(prefix)
    n_rounds = min(total - len(prefix), _MAX_LOOKAHEAD)
    if done >= n_rounds:
        return None
    planned, rng = _field_plan(ids, prefix, total, n_rounds, organisations, effort)
    for i in range(done):
        if _grouping(planned[i]) != _grouping(history[len(prefix) + i]):
            return None
    if list(history[len(prefix) :]) == planned[:done]:
        return planned[done]
    index = {pid: i for i, pid in enumerate(ids)}
    _, _, base_lc, four = _history_counts(ids, history)
    rounds = [[[index[pid] for pid in table.values()] for table in rnd] for rnd in planned[done:]]
    lettered, _ = seat_letters.assign(rounds, base_lc, four, rng)
    return _index_seating(ids, lettered[0])


def _natural_tables(ids, standings, sizes):
    """Standings table index of each player, and the cost of moving him a table.

    Unranked players go to the end.  Moving a better-placed player costs more
    (up to twice as much for the leader), so table 1 keeps the strongest.
    """
    index = {pid: i for i, pid in enumerate(ids)}
    order = []
    seen = set()
    for pid in standings or ():
        i = index.get(pid)
        if i is not None and i not in seen:
            order.append(i)
            seen.add(i)
    order.extend(i for i in range(len(ids)) if i not in seen)
    n = len(ids)
    natural = [0] * n
    weight = [0] * n
    for j, tbl in enumerate(_chunk(order, sizes)):
        for p in tbl:
            natural[p] = j
    for rank, p in enumerate(order):
        weight[p] = _W_SWISS * (2 * n - rank) // n
    return natural, weight


def _to_seating(tables):
    return [{LETTERS[i]: pid for i, pid in enumerate(tbl)} for tbl in tables]


def swap_players(seating, a, b):
    """A new seating in which players ``a`` and ``b`` have exchanged seats."""
    if a == b:
        raise SeatingError("Choose two different players to swap.", "same_player")
    where = {}
    for j, table in enumerate(seating):
        for letter, pid in table.items():
            where[pid] = (j, letter)
    for pid in (a, b):
        if pid not in where:
            raise SeatingError(f"Player {pid!r} is not seated in this round.", "not_seated")
    new = [dict(table) for table in seating]
    (ja, la), (jb, lb) = where[a], where[b]
    new[ja][la] = b
    new[jb][lb] = a
    return new


def _sort_key(pid):
    return (type(pid).__name__, pid) if isinstance(pid, (int, str)) else (type(pid).__name__, repr(pid))


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
      (``seat_letters.balanced``: A-C counts within 1, D at a quarter of the
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
                    key = tuple(sorted((p, x), key=_sort_key))
                    meetings[key] = meetings.get(key, 0) + 1
        if in_three and at_four:
            least_at_four = min(threes[p] for p in at_four)
            for pid in sorted(in_three, key=_sort_key):
                if threes[pid] > least_at_four:
                    repeat_seats.append({"round": r, "player": pid})
        for pid in in_three:
            threes[pid] += 1
    repeats = sorted(
        ((pair, c) for pair, c in meetings.items() if c > 1),
        key=lambda item: (-item[1], [_sort_key(p) for p in item[0]]),
    )
    players = []
    spread_max = 0
    for pid in sorted(seats, key=_sort_key):
        counts = seats[pid]
        letters = LETTERS if pid in fours else LETTERS[:3]
        values = [counts[letter] for letter in letters]
        spread = max(values) - min(values)
        spread_max = max(spread_max, spread)
        four_seats = sum(counts.values()) - threes[pid]
        balanced = seat_letters.balanced([counts[letter] for letter in LETTERS], four_seats)
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


def plan_tournament(n_players, n_rounds, *, method="mixed", seed=0, effort=1.0):
    """Draw ``n_rounds`` rounds for players ``1..n_players`` as the app would.

    Round r uses the seed ``derive_seed(seed, r)``; "mixed" looks ahead to the
    remaining rounds; "swiss" uses the start order 1..n as standings.
    Returns ``(rounds, quality_report(rounds))``.
    """
    if n_rounds < 1:
        raise SeatingError("At least one round is needed.", "no_rounds")
    players = list(range(1, n_players + 1))
    table_sizes(n_players)
    rounds = []
    for r in range(1, n_rounds + 1):
        rounds.append(
            draw_round(
                players,
                rounds,
                seed=derive_seed(seed, r),
                method=method,
                standings=players if method == "swiss" else None,
                remaining_rounds=n_rounds - r,
                effort=effort,
            )
        )
    return rounds, quality_report(rounds)
