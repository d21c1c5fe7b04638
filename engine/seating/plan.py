"""The search state of a plan of rounds: its cost, and the exchanges that change it.

``Plan`` holds the seatings of the rounds being planned, players as indices, with
incremental bookkeeping of a cost whose weights are below: repeat meetings first, then
fair 3-tables, players of one organisation apart, tables whose players can keep balanced
letters and, for swiss, players near their standings group.  ``engine.seating.tabu``
searches over it.
"""

from __future__ import annotations

# Cost weights (integers, so the search is exact).  A pair meeting for the
# m-th time costs W_PAIR * 6**(m-2) more than meeting m-1 times (m >= 2):
# repeats dominate, and a third meeting is much worse than another second one.
W_PAIR = 10**6
W_SWISS = 20_000  # per table a player sits away from his standings group
W_THREE = 2_000  # per earlier 3-table seat of a player given a 3-table seat
_W_ORG = 300  # per pair of one organisation at one table
W_LETTER = 100  # per table of the round being drawn whose players cannot all keep balanced letters

# Work budget of one draw, in evaluated moves (about 1-2 microseconds each).
BASE_BUDGET = 600_000
# Plan this many rounds at most when looking ahead.
MAX_LOOKAHEAD = 12


def _pair_increments(limit):
    """inc[m] = weighted cost of a pair's (m+1)-th meeting (0 for the first)."""
    inc = [0, W_PAIR]
    while len(inc) < limit + 2:
        inc.append(inc[-1] * 6)
    return inc


def org_matrix(ids, organisations):
    """The n x n organisation clash weights of players ``ids``, or None if no two share one."""
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


class Plan:
    """Seatings of the rounds being planned, with incremental cost bookkeeping.

    Players are indices 0..n-1.  For planned round t: ``tab[t][p]`` is p's
    table, ``let[t][p]`` his place in ``members[t][j]``, the players of table j.
    ``M`` counts meetings (history + planned), ``K3`` 3-table seats.
    ``U[p][x]`` / ``D[p][x]`` are the cost changes when p and x meet once more /
    once less.  Seat letters are chosen once the tables are (``letters``);
    the search only sees, with ``letter_check`` (a ``letters.TableCheck``
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
        self.w_three = W_THREE
        max_m = max((max(row) for row in base_m), default=0) if n else 0
        self.inc = _pair_increments(max_m + MAX_LOOKAHEAD + 2)
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
            total += W_LETTER * sum(self.bad)
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
        return W_LETTER * (bad - self.bad[a] - self.bad[b]), code_a, code_b

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
