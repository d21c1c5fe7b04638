"""Local search over a ``Plan``: the tabu search on repeat meetings and 3-table rotation,
and a steepest descent on the whole cost.

Both exchange two players of one round at a time and count their work in evaluated
moves (``plan.evals``), never in seconds, so the same plan and seed give the same result.
"""

from __future__ import annotations

from engine.seating.plan import W_LETTER


def tabu_search(plan, budget, tenure=(1, 4), sample=None):
    """Conflict-directed tabu search on repeat meetings and 3-table rotation.

    Each step exchanges two players of one round, one of whom is in
    ``plan.conflicts()``; the exchange that lowers the cost most is taken even if
    it makes things worse (ties broken at random; a
    player may not go back to a table he just left for a few steps).  When the best plan has
    not improved for a while, a few random exchanges perturb the plan.
    Stops when no repeat is left, the work budget (evaluated moves) is spent
    or nothing improved for a third of it; the best plan found is kept.
    """
    rng = plan.rng
    n, R, ntab = plan.n, plan.R, plan.ntab
    conf = plan.conflicts()
    if not conf or ntab < 2:
        return
    pc = plan.full_cost()
    best_pc = pc
    best_plan = plan.snapshot()
    tabu = [[0] * (n * ntab) for _ in range(R)]
    it = 0
    last_best = 0
    stall_limit = max(100, 10 * n)
    start_evals = plan.evals
    patience = max(budget // 2, 50_000)
    best_at = plan.evals
    nat = plan.natural
    sw = plan.swiss_w
    sizes, K3 = plan.sizes, plan.K3
    check = plan.letter_check
    if check is not None:
        ok, code, bad = check.ok, plan.code, plan.bad
    lo, hi = tenure
    while conf and plan.evals - start_evals < budget:
        it += 1
        plan.evals += 1
        if sample and len(conf) > sample:
            conf = rng.sample(conf, sample)
        best_d = None
        moves = []
        for t, p in conf:
            tab = plan.tab[t]
            members = plan.members[t]
            a = tab[p]
            A = [x for x in members[a] if x != p]
            Up, Dp = plan.U[p], plan.D[p]
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
                    was_bad = W_LETTER * (bad[a] + bad[b])
                for q in B:
                    Uq, Dq = plan.U[q], plan.D[q]
                    d = base - Up[q]
                    for x in A:
                        d += Uq[x]
                    for y in B:
                        d -= Dq[y]  # Dq[q] is 0
                    if three:
                        if sizes[a] == 3:
                            d += plan.w_three * (K3[q] - K3[p] + 1)
                        else:
                            d += plan.w_three * (K3[p] - K3[q] + 1)
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
                        d += W_LETTER * now_bad - was_bad
                    if (p_tabu or tabu_t[q * ntab + a] > it) and pc + d >= best_pc:
                        continue
                    if best_d is None or d < best_d:
                        best_d = d
                        moves = [(t, p, q)]
                    elif d == best_d:
                        moves.append((t, p, q))
                plan.evals += len(B)
        if moves:
            t, p, q = moves[rng.randrange(len(moves))]
            a, b = plan.tab[t][p], plan.tab[t][q]
            plan.apply(t, p, q)
            pc += best_d
            tabu[t][p * ntab + a] = it + rng.randint(lo, hi)
            tabu[t][q * ntab + b] = it + rng.randint(lo, hi)
        if pc < best_pc:
            best_pc = pc
            best_plan = plan.snapshot()
            last_best = it
            best_at = plan.evals
        elif it - last_best > stall_limit:
            _perturb(plan, rng.randint(1, 3))
            pc = plan.full_cost()
            tabu = [[0] * (n * ntab) for _ in range(R)]
            last_best = it
        if plan.evals - best_at > patience:
            break  # no progress for long: repeats are probably unavoidable
        conf = plan.conflicts()
    if pc > best_pc:
        plan.load(best_plan)


def _perturb(plan, k):
    """``k`` random exchanges in random rounds (where swiss allows them)."""
    rng = plan.rng
    for _ in range(k):
        t = rng.randrange(plan.R)
        p = rng.randrange(plan.n)
        q = rng.randrange(plan.n)
        if plan.tab[t][p] != plan.tab[t][q] and plan.allowed(t, p, q):
            plan.apply(t, p, q)


def improve(plan, budget):
    """Steepest descent on the whole cost for players with a side problem.

    Candidates: players at a 3-table, players sharing a table with someone
    of their organisation or at a table that cannot keep letters balanced,
    and (for small fields) everybody.  Only improving exchanges.
    """
    n = plan.n
    start = plan.evals
    everyone = n <= 64 or plan.R == 1
    improved = True
    while improved and plan.evals - start < budget:
        improved = False
        for t in range(plan.R):
            cands = set()
            members = plan.members[t]
            if everyone:
                cands = range(n)
            else:
                for j, tbl in enumerate(members):
                    if plan.sizes[j] == 3:
                        cands.update(tbl)
                if plan.org_w:
                    ow = plan.org_w
                    for tbl in members:
                        for p in tbl:
                            if any(x != p and ow[p][x] for x in tbl):
                                cands.add(p)
                if t == 0 and plan.letter_check is not None:
                    for j, tbl in enumerate(members):
                        if plan.bad[j]:
                            cands.update(tbl)
                cands = sorted(cands)
            for p in cands:
                best_d, best_q = 0, None
                for q in range(n):
                    if q == p or not plan.allowed(t, p, q):
                        continue
                    d = plan.delta(t, p, q)
                    if d < best_d:
                        best_d, best_q = d, q
                plan.evals += n
                if best_q is not None:
                    plan.apply(t, p, best_q, best_d)
                    improved = True
            if plan.evals - start >= budget:
                break
