"""The ``direct`` solver: the exact solution of the velocity-level system ``pgs`` iterates on.

``pgs`` (:mod:`.solvers`) integrates the velocities, prepares contacts and joints, and sweeps
Gauss-Seidel over their rows; its accumulated impulses approach the solution of one mixed
linear complementarity problem (MLCP) per step. This solver builds that problem and solves it
exactly, island by island (connected components of the constraint graph through dynamic
bodies), with the same rows, biases and bounds (:mod:`.direct_rows`), so the two differ only in
how exactly they solve:

1. joints prepared (anchors from the positions; nothing of the bodies changes) and their rows
   exported (each type's ``direct_rows``, called by address: :data:`~.verbs.DIRECT_ROWS`);
   islands found (union-find over dynamic bodies); a step whose largest island has more rows
   than ``WorldSettings.direct_max_rows`` returns ``-rows`` here, before any velocity changes
   (the step then hands it to ``direct_fallback``'s solver, or raises);
2. velocities integrated, contacts prepared (``pgs``'s own verbs), contact rows written: per
   point a normal row with ``pgs``'s bias (``s / h`` for a speculative point, Baumgarte
   ``max(beta / h min(0, s + slop), -contact_speed)`` otherwise) and a friction row;
3. per island: ``A = J M^-1 J^T`` (plus ``soft K`` on soft rows: :mod:`.direct_rows`) and
   ``b = J v + bias``, ``v`` the integrated velocities. With ``e`` the equality rows and ``c``
   the others, the equality impulses are eliminated (Schur complement)::

       lambda_e = -A_ee^-1 (b_e + A_ec lambda_c)
       S  = A_cc - A_ce A_ee^-1 A_ec,    b' = b_c - A_ce A_ee^-1 b_e,    w_c = S lambda_c + b'

   and the rest is an LCP in ``z`` solved by Lemke's algorithm (:func:`.lcp.lemke`): a
   one-sided row (contact normal, limit, rope) is one variable ``lambda = z``, ``w = w_c``;
   a friction or boxed row is three, ``lambda = z+ - z-`` and a slack ``beta`` (the sliding
   speed; Stewart and Trinkle 1996, Anitescu and Potra 1997; exact in 2D)::

       w+ =  w_c + beta >= 0,   w- = -w_c + beta >= 0,
       w_beta = mu lambda_n - z+ - z- >= 0   (friction; mu z_normal is a column of M)
       w_beta = bound - z+ - z- >= 0         (boxed: a motor's max_motor h, as pgs clamps)

   ``A_ee`` (symmetric, positive definite up to redundant rows) is factored by Cholesky
   (:mod:`.direct_linalg`) over its envelope (the dense algorithm with its exact zeros left
   out: a chain or a bridge costs O(n) instead of O(n^3)), its rows reordered by reverse
   Cuthill-McKee when the joints were made in an order that spreads it, and a block the
   envelope cannot thin (a hub with many joints) by LAPACK (:mod:`.direct_dense`). An island
   of equality rows alone (joints without limits or motors) is assembled sparse
   (:func:`_assemble_sparse`, no ``n x n`` array: time and memory linear in the rows of a
   chain, a bridge or a net), with the same bits as the dense assembly. A pivot
   below 1e-10 of its row's diagonal (redundant joints, two pins between the same bodies:
   ``A_ee`` singular) is raised to that floor: a stiff spring of compliance 1e-10 K on that row
   instead of a division by zero; the redundant rows then share the load (counted:
   ``regularised_pivots``). ``A_ec`` is sparse (a contact row meets the joint rows of its two
   bodies), and ``S`` is formed over its non-zeros;
4. the impulses are kept within ``pgs``'s budget (:func:`.solvers.impulse_caps`: each row's
   impulse within ``cap / K_ii``, ``K_ii`` its rigid diagonal, one-sided rows non-negative,
   friction within ``mu`` times its normal's), which binds only in pathological worlds (an
   impossible joint loop), then applied: ``v += M^-1 J^T lambda``;
5. restitution (``pgs``'s, after the solve), the impulses stored where ``pgs`` keeps its
   accumulated ones (contacts' normal and tangent impulses, each joint's fields: warm starting
   of the other solvers, ``world.contacts`` and ``reaction_force`` read them), positions
   integrated.

Lemke's failures, measured on the fuzz worlds (40 worlds x 200 steps, 1.9 s in all): 743
islands with the plain LCP; 396 with its rows scaled to impulses (:func:`_lcp`); 337 with the
slack's diagonal as well (:data:`SLACK_REGULARISATION`); 191 with rows the joints hold still
taken out (:data:`IMMOBILE`). Those inspected then were jams, a body squeezed between opposite
contacts that both ask to separate: no impulse can meet them, and the ray is the right answer.
Since every answer is checked (:data:`VERIFY`), answers that rounding has taken off by more
than 1e-9 count as failures too: 3109 islands over 300 fuzz worlds x 200 steps (none of
them a breach), and on resting pyramids of base 4 to 8 a fifth to a half of the steps (their
problems are degenerate and singular along the friction directions that cancel, and the
tableau's rounding grows with the pivots).

Lemke walks the regularised, snapped problem, but the answer is that of the exact one: the
final basis's values are refined against the LCP without the slack's diagonal and without the
snapping (:func:`.lcp.lemke_exact`). The regularised problem's own answer is off by the
regularisation times the sliding speed, and the friction impulse clamped back into the exact
cone moved the normal rows with it: a box sliding at 3.5 m/s left an approach of 5e-9 m/s at
a contact that pushes (issue 29, item 3), where complementarity is asked to 1e-9. Refined, the
rows meet it to rounding: at most 5.5e-15 m/s over 40 steps of that scene
(``tests/test_direct_complementarity.py`` holds it to 1e-12 m/s).

Lemke's ratio test walks a dense tableau, O(m^2) per pivot for an LCP of m variables and about
m pivots (measured costs: ``WorldSettings.direct_max_rows``). When it ends without a solution
(a secondary ray, or the pivot limit ``10 m + 50``), or with one whose natural residual fails
the check (:data:`VERIFY`), that island is solved by 100 sweeps of projected Gauss-Seidel on
its assembled system (the same rows, bounds and friction cone) from zero, and the failure is
counted (``World.direct_stats["lemke_failures"]``). Warm starting has nothing to do for this
solver (Lemke starts from its own basis), but the stored impulses warm start any solver the
world switches to.
"""

from __future__ import annotations

import numpy as np

from .._core.jit import borrowing_kernel, cycles, inline_kernel, inner_kernel, stage_kernel
from .._core.state import DYNAMIC
from ..constants import MAX_ROTATION
from .awake import body_rows
from .contact_rows import prepare_serial_rows, restitution_rows, row_count
from .direct_linalg import factor, from_dense, solve, sort_row
from .direct_rows import (BIAS, BLOCK, BOUND, BOXED, CAP, COUNT, EQUALITY, FRICTION, KIND, LINK,
                          NORMAL, ONE_SIDED, ROWS, SOFT, STORE, WIDTH, apply_rows, row_velocity,
                          store_contact_biases, store_contact_rows, write_contact_rows)
from .integrate import integrate_positions, integrate_velocities
from .islands import find_root, union
from .joint_solver import joint_pass
from .joints import ROW_LISTS
from .lcp import SOLVED, lemke_exact, natural_residual
from .solvers import impulse_caps
from .verbs import (DIRECT_COUNTS, DIRECT_DENSE, DIRECT_FALLBACK, DIRECT_ISLANDS, DIRECT_MAX_ROWS,
                    DIRECT_ROWS, ITERATION, OPENING, PREPARE, call_direct_rows, call_islands,
                    diagnose)
from .world_ref import borrow, borrow_column

_LISTS = len(ROW_LISTS)

SLACK_REGULARISATION = 1e-9
"""The diagonal of a friction row's slack in the LCP, relative: the cone becomes
``|lambda_t| <= mu lambda_n + 1e-9 beta / K_t`` (``beta`` the sliding speed, ``1 / K_t`` the
row's effective mass) for Lemke's walk; its final basis is then valued on the exact cone
(:func:`.lcp.lemke_exact`), and what rounding leaves outside it is clamped after the solve. Without it the LCP matrix is copositive but not copositive-plus (``x = (lambda_n = 0,
z+ = z- > 0, beta > 0)`` gives ``x^T M x = 0`` with ``(M + M^T) x != 0``), and Lemke's walk can
end on a secondary ray although a solution exists. With it, for a positive definite reduced
system the matrix is copositive-plus and Lemke's algorithm solves every feasible problem
(Cottle, Pang and Stone 1992, 4.4)."""

IMMOBILE = 1e-9
"""A reduced row whose diagonal ``S_ii`` is below this fraction of ``A_ii`` is one the equality
rows hold still (what remains is rounding)."""

NOISE = 1e-12
"""Entries of the scaled LCP below this (relative) are rounding and are set to zero."""

VERIFY = 1e-9
"""Lemke's answer is checked: its natural residual ``max |min(z, M z + q)|`` on the exact LCP
(impulses, the rows being scaled) must be below this times ``1 + max |q|``, or the island
falls back. This is the acceptance bound, not the accuracy: an accepted answer refined on the
exact problem meets it to rounding (about 1e-15 of the velocities; see the module)."""

IMPACT = 1e-9
"""m/s: an island goes through the acceleration level's impulse phase (:mod:`.direct_accel`) only
where some contact row approaches faster than this. A resting pile's rows approach at rounding's
1e-16 m/s; the LCP of such an island is degenerate (its right-hand side is rounding), and
Lemke's answer failed its check on a settled pyramid of base 4 in 4 substeps (432 islands in 330
steps, measured) for impulses of nothing. What approaches slower is the force phase's to stop
(its ``2 omega Cdot`` term)."""

SPARSE_FILL = 0.25
"""An island of joints alone is assembled sparse (:func:`_assemble_sparse`) when its entries
are at most this fraction of ``n^2`` (bounded by each row's bodies' rows), dense otherwise."""

FALLBACK_SWEEPS = 100
"""Projected Gauss-Seidel sweeps on an island whose LCP Lemke could not solve."""

LEMKE_FAILURES, FALLBACK_STEPS, LARGEST_ISLAND, ISLANDS, PIVOTS, REGULARISED = range(6)
"""The counters in the world's table (:data:`~.verbs.DIRECT_COUNTS`, named by
:data:`~.verbs.DIRECT_COUNT_NAMES`): islands whose LCP
Lemke failed on and steps handed to the fallback solver (both since the world was made); the
rows of the largest island, the number of islands, Lemke's pivots and the regularised pivots of
the last step."""

DIRECT_SCRATCH = 6
"""The number of those counters (the scratch array :func:`exact_impulses` writes to)."""


# -- islands ------------------------------------------------------------------------------------
@inner_kernel
def _islands(body, kind, body_count):
    """Island of each row (a representative dynamic body; -1 for a row with none) by union-find
    (:mod:`.islands`' ``union``) over the dynamic bodies its slots name (static and kinematic
    bodies join nothing)."""
    parent = np.arange(body_count)
    rows = body.shape[0]
    for r in range(rows):
        # np.int64, not the literal -1: typed on the way as Literal[int](-1), it compiled
        # union and find_root once more for it (benchmarks/compile_table.py, 2026-12-01)
        first = np.int64(-1)
        for s in range(4):
            k = body[r, s]
            if k < 0 or kind[k] != DYNAMIC:
                continue
            if first < 0:
                first = k
            else:
                union(parent, first, k)
    island = np.full(rows, -1, dtype=np.int64)
    for r in range(rows):
        for s in range(4):
            k = body[r, s]
            if k >= 0 and kind[k] == DYNAMIC:
                island[r] = find_root(parent, k)
                break
    return island


@inner_kernel
def _group(island, body_count):
    """Rows grouped by island: ``(start, members)`` with island g's rows
    ``members[start[g]:start[g + 1]]`` in increasing order."""
    size = np.zeros(body_count, dtype=np.int64)
    for r in range(island.shape[0]):
        if island[r] >= 0:
            size[island[r]] += 1
    label = np.full(body_count, -1, dtype=np.int64)
    count = 0
    for k in range(body_count):
        if size[k] > 0:
            label[k] = count
            count += 1
    start = np.zeros(count + 1, dtype=np.int64)
    for k in range(body_count):
        if size[k] > 0:
            start[label[k] + 1] = size[k]
    for g in range(count):
        start[g + 1] += start[g]
    fill = start[:count].copy()
    members = np.empty(start[count], dtype=np.int64)
    for r in range(island.shape[0]):
        if island[r] >= 0:
            g = label[island[r]]
            members[fill[g]] = r
            fill[g] += 1
    return start, members


@inner_kernel
def _incidence(body, kind, body_count):
    """For each dynamic body, the (row, slot) pairs that name it (CSR: ``start``, ``row``,
    ``slot``), so that ``A`` is assembled body by body."""
    start = np.zeros(body_count + 1, dtype=np.int64)
    for r in range(body.shape[0]):
        for s in range(4):
            k = body[r, s]
            if k >= 0 and kind[k] == DYNAMIC:
                start[k + 1] += 1
    for k in range(body_count):
        start[k + 1] += start[k]
    fill = start[:body_count].copy()
    row = np.empty(start[body_count], dtype=np.int64)
    slot = np.empty(start[body_count], dtype=np.int64)
    for r in range(body.shape[0]):
        for s in range(4):
            k = body[r, s]
            if k >= 0 and kind[k] == DYNAMIC:
                row[fill[k]] = r
                slot[fill[k]] = s
                fill[k] += 1
    return start, row, slot


# -- one island ---------------------------------------------------------------------------------
@inner_kernel
def _assemble(members, where, body, jacobian, data, inv_mass, inv_inertia, inc_start, inc_row,
              inc_slot):
    """``A = J M^-1 J^T`` of the island's rows ``members`` (``where`` maps a row to its place),
    and its rigid diagonal; then each soft row's ``soft K`` added across its block."""
    n = members.shape[0]
    A = np.zeros((n, n))
    for i in range(n):
        r = members[i]
        for s in range(4):
            k = body[r, s]
            if k < 0 or inc_start[k + 1] == inc_start[k]:
                continue  # no body, or not a dynamic one
            jx = inv_mass[k] * jacobian[r, s, 0]
            jy = inv_mass[k] * jacobian[r, s, 1]
            jw = inv_inertia[k] * jacobian[r, s, 2]
            for e in range(inc_start[k], inc_start[k + 1]):
                r2 = inc_row[e]
                s2 = inc_slot[e]
                A[i, where[r2]] += (jx * jacobian[r2, s2, 0] + jy * jacobian[r2, s2, 1]
                                    + jw * jacobian[r2, s2, 2])
    diagonal = np.empty(n)
    for i in range(n):
        diagonal[i] = A[i, i]
    for i in range(n):
        r = members[i]
        soft = data[r, SOFT]
        if soft == 0.0:
            continue
        head = int(data[r, BLOCK])
        # The block's rows are consecutive (written together), so are their places.
        l = where[head]
        while l < n and int(data[members[l], BLOCK]) == head:
            A[i, l] += soft * A[i, l]
            l += 1
    return A, diagonal


@inner_kernel
def _assemble_sparse(members, where, body, jacobian, data, inv_mass, inv_inertia, inc_start,
                     inc_row, inc_slot):
    """:func:`_assemble` without the ``n x n`` array: ``A`` as CSR ``(start, column, value)``,
    each row's columns increasing, and its rigid diagonal. Each entry is summed over the same
    terms in the same order as there, so it has the same bits; memory and time grow with the
    entries (a row meets the rows of its bodies), not with ``n^2``."""
    n = members.shape[0]
    bound = 0   # entries at most: each slot's body's rows
    for i in range(n):
        r = members[i]
        for s in range(4):
            k = body[r, s]
            if k >= 0:
                bound += inc_start[k + 1] - inc_start[k]
    start = np.zeros(n + 1, dtype=np.int64)
    column = np.empty(bound, dtype=np.int64)
    value = np.empty(bound)
    mark = np.full(n, -1, dtype=np.int64)   # mark[j] == i: row i has an entry for column j
    at = np.empty(n, dtype=np.int64)
    e = np.int64(0)  # not the literal 0, which compiled sort_row a second time (see direct())
    for i in range(n):
        r = members[i]
        for s in range(4):
            k = body[r, s]
            if k < 0 or inc_start[k + 1] == inc_start[k]:
                continue  # no body, or not a dynamic one
            jx = inv_mass[k] * jacobian[r, s, 0]
            jy = inv_mass[k] * jacobian[r, s, 1]
            jw = inv_inertia[k] * jacobian[r, s, 2]
            for f in range(inc_start[k], inc_start[k + 1]):
                r2 = inc_row[f]
                s2 = inc_slot[f]
                j = where[r2]
                if mark[j] != i:
                    mark[j] = i
                    at[j] = e
                    column[e] = j
                    value[e] = 0.0
                    e += 1
                value[at[j]] += (jx * jacobian[r2, s2, 0] + jy * jacobian[r2, s2, 1]
                                 + jw * jacobian[r2, s2, 2])
        start[i + 1] = e
        sort_row(column, value, start[i], e)
    diagonal = np.zeros(n)
    for i in range(n):
        for f in range(start[i], start[i + 1]):
            if column[f] == i:
                diagonal[i] = value[f]
    for i in range(n):
        r = members[i]
        soft = data[r, SOFT]
        if soft == 0.0:
            continue
        head = int(data[r, BLOCK])
        # The block's rows are consecutive places, and share the row's bodies (entries).
        l = where[head]
        while l < n and int(data[members[l], BLOCK]) == head:
            for f in range(start[i], start[i + 1]):
                if column[f] == l:
                    value[f] += soft * value[f]
            l += 1
    return start, column, value, diagonal


@inline_kernel
def _solve_joint_island(members, where, body, jacobian, data, b_all, inv_mass, inv_inertia,
                        inc_start, inc_row, inc_slot, impulse, counts, dense):
    """An island of equality rows only (joints without limits or motors: chains, bridges,
    nets): ``lambda = -A^-1 b`` with ``A`` assembled and factored sparse (no ``n x n`` array;
    the same bits as the dense assembly), then the impulse budget. Inlined into its one caller,
    as :func:`_solve_island` is (its arrays then the caller's, counted there)."""
    n = members.shape[0]
    start, column, value, diagonal = _assemble_sparse(members, where, body, jacobian, data,
                                                      inv_mass, inv_inertia, inc_start,
                                                      inc_row, inc_slot)
    row, sky, first, last, order = factor(start, column, value, counts, REGULARISED, dense)
    y = np.empty(n)
    for i in range(n):
        y[i] = b_all[members[i]]
    solve(row, sky, first, last, order, y)
    lam = np.empty(n)
    for i in range(n):
        lam[i] = -y[i]
    _budget(members, data, diagonal, lam, impulse, np.bool_(False))  # as the other call


@inner_kernel
def _budget(members, data, diagonal, lam, impulse, exact_contacts):
    """The impulse budget of pgs on the island's solution ``lam``, into ``impulse``; then
    friction within the (possibly reduced) normal's cone.

    ``exact_contacts``: Lemke solved the contacts and its answer passed the check. Their normal
    impulses are then taken as solved, without the budget: an exact answer asks only for what
    the bodies' momenta need, and a light body under a heavy one must pass the heavy one's
    impact on (a 400:1 box landing at 17 m/s on two 1 kg boxes needs 6,800 N s through their
    ground contacts, where the budget, 4 v_max times the row's effective mass, allows 1,600:
    clipped, the small boxes were pushed through a thin ground and thrown out at the speed
    limit; ``high_mass_ratio_2``). What the budget is for, a row that no impulse can satisfy
    (a jam), makes Lemke fail, and the fallback's answer is budgeted as before."""
    n = members.shape[0]
    for i in range(n):
        r = members[i]
        kind = int(data[r, KIND])
        if kind == FRICTION:
            continue
        x = lam[i]
        if kind == NORMAL and exact_contacts:
            impulse[r] = max(x, 0.0)
            continue
        limit = data[r, CAP] / diagonal[i] if diagonal[i] > 0.0 else 0.0
        if kind == EQUALITY or kind == BOXED:
            x = min(max(x, -limit), limit)
        else:
            x = min(max(x, 0.0), limit)
        impulse[r] = x
    for i in range(n):
        r = members[i]
        if int(data[r, KIND]) == FRICTION:
            limit = data[r, BOUND] * impulse[int(data[r, LINK])]
            impulse[r] = min(max(lam[i], -limit), limit)


@inner_kernel
def _lcp(S, b_c, c_rows, data, where, where_c):
    """The LCP ``(M, q)`` of the reduced system ``w_c = S lambda_c + b'`` (see the module doc)
    that Lemke walks on, the first variable of each c row (``where``: row -> place in the
    island, ``where_c``: place -> index among the c rows, for a friction row's normal), and
    the exact LCP ``(exact_M, exact_q)``: the same without the slack's regularisation and
    without the snapping of rounding to zero."""
    nc = c_rows.shape[0]
    var = np.empty(nc, dtype=np.int64)
    m = 0
    for i in range(nc):
        var[i] = m
        kind = int(data[c_rows[i], KIND])
        m += 3 if kind == FRICTION or kind == BOXED else 1
    M = np.zeros((m, m))
    q = np.zeros(m)
    for i in range(nc):
        r = c_rows[i]
        kind = int(data[r, KIND])
        p = var[i]
        paired = kind == FRICTION or kind == BOXED
        for j in range(nc):
            s = S[i, j]
            if s == 0.0:
                continue
            pj = var[j]
            kind_j = int(data[c_rows[j], KIND])
            if kind_j == FRICTION or kind_j == BOXED:
                M[p, pj] += s
                M[p, pj + 1] -= s
                if paired:
                    M[p + 1, pj] -= s
                    M[p + 1, pj + 1] += s
            else:
                M[p, pj] += s
                if paired:
                    M[p + 1, pj] -= s
        q[p] = b_c[i]
        if paired:
            q[p + 1] = -b_c[i]
            # The slack in impulse units, beta' = beta / S_ii (after the row scaling below
            # every entry of these rows is of order one), with its tiny diagonal
            # (SLACK_REGULARISATION) for friction.
            unit = S[i, i] if S[i, i] > 0.0 else 1.0
            M[p, p + 2] = unit
            M[p + 1, p + 2] = unit
            M[p + 2, p] = -1.0
            M[p + 2, p + 1] = -1.0
            if kind == FRICTION:
                M[p + 2, var[where_c[where[int(data[r, LINK])]]]] = data[r, BOUND]
                M[p + 2, p + 2] = SLACK_REGULARISATION
            else:
                q[p + 2] = data[r, BOUND]
    # Rows in impulse units: each velocity row over its diagonal. The solutions are the same
    # (w >= 0 iff w / S_ii >= 0), but Lemke's covering vector of ones now stands for a
    # velocity of S_ii on each row, and the walk meets no ray where the unscaled one did
    # (measured on the fuzz worlds; the slack rows are impulses already).
    for i in range(nc):
        if S[i, i] <= 0.0:
            continue
        scale = 1.0 / S[i, i]
        p = var[i]
        kind = int(data[c_rows[i], KIND])
        for row in range(p, p + (2 if kind == FRICTION or kind == BOXED else 1)):
            q[row] *= scale
            for k in range(m):
                M[row, k] *= scale
    # The problem the answer must meet: without the slack's regularisation and the snapping
    # below, which only help Lemke's walk (:func:`.lcp.lemke_exact` refines its basis on this).
    exact_M = M.copy()
    exact_q = q.copy()
    for i in range(nc):
        if int(data[c_rows[i], KIND]) == FRICTION:
            exact_M[var[i] + 2, var[i] + 2] = 0.0
    # Rounding snapped to zero: a resting pile's b' is 1e-16-sized where it is 0 in exact
    # arithmetic, and its couplings likewise; the near-ties they make defeat the lexicographic
    # rule's exact ones, and Lemke cycled to its pivot limit on a settled pile (measured).
    # Entries are of order one after the scaling; q is taken relative to its largest entry.
    largest = 0.0
    for k in range(m):
        largest = max(largest, abs(q[k]))
        for j in range(m):
            if abs(M[k, j]) < NOISE:
                M[k, j] = 0.0
    for k in range(m):
        if abs(q[k]) < NOISE * largest:
            q[k] = 0.0
    return M, q, var, exact_M, exact_q


@inner_kernel
def _projected_gauss_seidel(A, b, members, where, data, sweeps, start):
    """``sweeps`` of projected Gauss-Seidel from ``start`` on the island's whole system
    (equality rows free, one-sided rows non-negative, boxed rows in their box, friction in its
    cone): the fallback where Lemke found no solution, or one that fails the check."""
    n = members.shape[0]
    lam = start.copy()
    for _ in range(sweeps):
        for i in range(n):
            if A[i, i] <= 0.0:
                continue
            r = members[i]
            w = b[i]
            for j in range(n):
                w += A[i, j] * lam[j]
            x = lam[i] - w / A[i, i]
            kind = int(data[r, KIND])
            if kind == NORMAL or kind == ONE_SIDED:
                x = max(x, 0.0)
            elif kind == BOXED:
                x = min(max(x, -data[r, BOUND]), data[r, BOUND])
            elif kind == FRICTION:
                limit = data[r, BOUND] * lam[where[int(data[r, LINK])]]
                x = min(max(x, -limit), limit)
            lam[i] = x
    return lam


@inline_kernel
def _solve_island(members, where, body, jacobian, data, b_all, inv_mass, inv_inertia, inc_start,
                  inc_row, inc_slot, speed_cap, impulse, counts, dense):
    """Solve the island of rows ``members`` into ``impulse`` (see the module doc; ``dense``:
    the world's LAPACK slot, :func:`.direct_linalg.factor`).

    Inlined (Numba IR) into its one caller, :func:`solve_islands`, whose reference counting
    its arrays then have: a kernel of its own is a library of its own, which LLVM optimised
    whole, its callees linked in, and then again inside the caller's (3.1 s of the unit's
    21.1 s of compile CPU with :func:`_solve_joint_island` inlined too, load 10.6, 2026-12-01;
    ``benchmarks/compile_split.py``: the module passes over its 19,146 linked instructions
    took 1.61 s, the caller's over 24,218 took 1.67)."""
    n = members.shape[0]
    for i in range(n):
        where[members[i]] = i
    joints_only = True
    entries = 0   # at most: each slot's body's rows
    for i in range(n):
        r = members[i]
        if int(data[r, KIND]) != EQUALITY:
            joints_only = False
            break
        for s in range(4):
            k = body[r, s]
            if k >= 0:
                entries += inc_start[k + 1] - inc_start[k]
    # Sparse unless the block is dense anyway (a hub with many joints), where sorting long
    # rows costs more than the n x n array (measured: a hub with 30 bobs, 0.14 ms a step
    # sparse against 0.08 dense).
    if joints_only and SPARSE_FILL * n * n > entries:
        _solve_joint_island(members, where, body, jacobian, data, b_all, inv_mass, inv_inertia,
                            inc_start, inc_row, inc_slot, impulse, counts, dense)
        for i in range(n):
            where[members[i]] = -1
        return
    A, diagonal = _assemble(members, where, body, jacobian, data, inv_mass, inv_inertia,
                            inc_start, inc_row, inc_slot)
    b = np.empty(n)
    for i in range(n):
        b[i] = b_all[members[i]]

    ne = 0
    for i in range(n):
        if int(data[members[i], KIND]) == EQUALITY:
            ne += 1
    nc = n - ne
    e_at = np.empty(ne, dtype=np.int64)   # places in the island of the e and c rows
    c_at = np.empty(nc, dtype=np.int64)
    where_c = np.full(n, -1, dtype=np.int64)  # place in the island -> index among c rows
    ie = 0
    ic = 0
    for i in range(n):
        if int(data[members[i], KIND]) == EQUALITY:
            e_at[ie] = i
            ie += 1
        else:
            c_at[ic] = i
            where_c[i] = ic
            ic += 1

    lam = np.zeros(n)
    accurate = False
    # Equality block: factor A_ee once; y = A_ee^-1 b_e, X = A_ee^-1 A_ec.
    y = np.zeros(ne)
    X = np.zeros((ne, nc))
    if ne > 0:
        A_ee = np.empty((ne, ne))
        for i in range(ne):
            y[i] = b[e_at[i]]
            for j in range(ne):
                A_ee[i, j] = A[e_at[i], e_at[j]]
        csr_start, csr_column, csr_value = from_dense(A_ee)
        row, sky, first, last, order = factor(csr_start, csr_column, csr_value, counts,
                                              REGULARISED, dense)
        solve(row, sky, first, last, order, y)
        column = np.empty(ne)
        for j in range(nc):
            for i in range(ne):
                column[i] = A[e_at[i], c_at[j]]
            solve(row, sky, first, last, order, column)
            for i in range(ne):
                X[i, j] = column[i]

    if nc > 0:
        # S = A_cc - A_ce X, b' = b_c - A_ce y, over the non-zero entries of A_ce (a contact
        # row meets the joint rows of its two bodies only); the terms left out are exact zeros.
        nz_start = np.zeros(nc + 1, dtype=np.int64)
        nz = np.empty(nc * ne, dtype=np.int64)
        for i in range(nc):
            count = nz_start[i]
            for p in range(ne):
                if A[c_at[i], e_at[p]] != 0.0:
                    nz[count] = p
                    count += 1
            nz_start[i + 1] = count
        S = np.empty((nc, nc))
        b_c = np.empty(nc)
        for i in range(nc):
            ci = c_at[i]
            x = b[ci]
            for k in range(nz_start[i], nz_start[i + 1]):
                x -= A[ci, e_at[nz[k]]] * y[nz[k]]
            b_c[i] = x
            for j in range(nc):
                x = A[ci, c_at[j]]
                for k in range(nz_start[i], nz_start[i + 1]):
                    x -= A[ci, e_at[nz[k]]] * X[nz[k], j]
                S[i, j] = x
        # A row the equality rows hold still (S_ii ~ 0 from rounding: a contact on a body
        # welded to the ground) can move nothing: it takes no impulse, and a push it asks for
        # (b' < 0) cannot be met by any; its Schur row is rounding, not physics.
        for i in range(nc):
            if S[i, i] <= IMMOBILE * diagonal[c_at[i]]:
                for j in range(nc):
                    S[i, j] = 0.0
                    S[j, i] = 0.0
                if int(data[members[c_at[i]], KIND]) in (NORMAL, ONE_SIDED):
                    b_c[i] = max(b_c[i], 0.0)
        c_rows = np.empty(nc, dtype=np.int64)
        for i in range(nc):
            c_rows[i] = members[c_at[i]]
        M, q, var, exact_M, exact_q = _lcp(S, b_c, c_rows, data, where, where_c)
        z = np.zeros(q.shape[0])
        status, pivots = lemke_exact(M, q, 10 * q.shape[0] + 50, z, exact_M, exact_q)
        counts[PIVOTS] += pivots
        accurate = (status == SOLVED and natural_residual(exact_M, exact_q, z)
                    <= VERIFY * (1.0 + _largest(exact_q)))
        if accurate:
            for i in range(nc):
                kind = int(data[c_rows[i], KIND])
                if kind == FRICTION or kind == BOXED:
                    lam[c_at[i]] = z[var[i]] - z[var[i] + 1]
                else:
                    lam[c_at[i]] = z[var[i]]
        if not accurate:
            counts[LEMKE_FAILURES] += 1
            # From zero: an answer that fails the check can be far off (measured: 400 m/s on
            # a pyramid of base 6 when PGS started from it).
            full = _projected_gauss_seidel(A, b, members, where, data, FALLBACK_SWEEPS, lam)
            for i in range(nc):
                lam[c_at[i]] = full[c_at[i]]
    # lambda_e = -(y + X lambda_c)
    for i in range(ne):
        x = y[i]
        for j in range(nc):
            x += X[i, j] * lam[c_at[j]]
        lam[e_at[i]] = -x

    _budget(members, data, diagonal, lam, impulse, accurate)
    for i in range(n):
        where[members[i]] = -1


@inner_kernel
def _largest(q):
    x = 0.0
    for i in range(q.shape[0]):
        x = max(x, abs(q[i]))
    return x


# -- the entry ----------------------------------------------------------------------------------
@inner_kernel
def island_sizes(body, kind):
    """The rows of the largest island of the rows ``body`` and the number of islands."""
    body_count = kind.shape[0]
    start, members = _group(_islands(body, kind, body_count), body_count)
    largest = 0
    for g in range(start.shape[0] - 1):
        largest = max(largest, start[g + 1] - start[g])
    return largest, start.shape[0] - 1


@stage_kernel
def solve_islands(body, jacobian, data, b_all, kind, inv_mass, inv_inertia, speed_cap, impulse,
                  counts, dense, impulse_only):
    """Solve every island of the rows ``body``, ``jacobian``, ``data`` (:mod:`.direct_rows`)
    exactly, with ``b = J v + bias`` given per row (``b_all``, m/s), into ``impulse`` (N s; a
    row of no island keeps its value); ``kind``, ``inv_mass``, ``inv_inertia`` the bodies';
    ``counts`` (:data:`DIRECT_SCRATCH` slots) receives the largest island's rows, the islands,
    Lemke's pivots and failures; ``dense`` is the world's slot of LAPACK's Cholesky
    (:func:`.direct_linalg.factor`). ``impulse_only``: skip an island whose normal and
    one-sided rows all have ``b >= -IMPACT`` (the acceleration level's impulse phase: zero
    impulses solve it, to that).

    A unit of its own, called by address (slot :data:`~.verbs.DIRECT_ISLANDS`) from both levels
    of the solver and the diagnostics: linked into each, its code (about half of each level's
    machine code) was optimised and emitted again in every caller's module."""
    body_count = kind.shape[0]
    island = _islands(body, kind, body_count)
    start, members = _group(island, body_count)
    largest = 0
    for g in range(start.shape[0] - 1):
        largest = max(largest, start[g + 1] - start[g])
    counts[LARGEST_ISLAND] = largest
    counts[ISLANDS] = start.shape[0] - 1
    inc_start, inc_row, inc_slot = _incidence(body, kind, body_count)
    where = np.full(body.shape[0], -1, dtype=np.int64)
    for g in range(start.shape[0] - 1):
        rows_g = members[start[g]:start[g + 1]]
        if impulse_only:
            needed = False
            for i in rows_g:
                kind_i = int(data[i, KIND])
                if (kind_i == NORMAL or kind_i == ONE_SIDED) and b_all[i] < -IMPACT:
                    needed = True
            if not needed:
                continue
        _solve_island(rows_g, where, body, jacobian, data, b_all, inv_mass, inv_inertia,
                      inc_start, inc_row, inc_slot, speed_cap, impulse, counts, dense)
    return 0.0


@inner_kernel
def exact_impulses(body, jacobian, data, b_all, kind, inv_mass, inv_inertia, speed_cap, impulse,
                   counts, table):
    """Solve every island of the rows ``body``, ``jacobian``, ``data`` (:mod:`.direct_rows`)
    exactly, with ``b = J v + bias`` given per row (``b_all``) and the bodies' ``kind``,
    ``inv_mass``, ``inv_inertia``, into ``impulse``; ``counts`` (:data:`DIRECT_SCRATCH` slots)
    receives the islands, Lemke's pivots and failures; ``table`` is the world's table of verbs
    (:func:`solve_islands` by address, LAPACK's Cholesky). Also what :mod:`.diagnostics`
    measures the other solvers against."""
    call_islands(table[DIRECT_ISLANDS],
                 (body, jacobian, data, b_all, kind, inv_mass, inv_inertia, speed_cap, impulse,
                  counts, table[DIRECT_DENSE:DIRECT_DENSE + 1], np.bool_(False)))


@borrowing_kernel
def awake_velocities(world, gx, gy, h):
    """:func:`.integrate.integrate_velocities` over the awake rows (:func:`.awake.body_rows`),
    called from both direct levels, which count references: inlined there, ``body_rows``'
    borrowed body and shape stores had every array counted, about 1,950 instructions of IR at
    each of a level's two calls (a fifth of each level's IR, ``benchmarks/ir_lines.py``,
    2026-12-01); here nothing is counted, and the two levels share one compile."""
    integrate_velocities(world, body_rows(world), gx, gy, h)


@borrowing_kernel
def awake_positions(world, h, max_linear_speed):
    """:func:`.integrate.integrate_positions` over the awake rows, with the rotation cap
    ``MAX_ROTATION / h``: the other half of :func:`awake_velocities` (see there)."""
    integrate_positions(world, body_rows(world), h, max_linear_speed, MAX_ROTATION / h)


@borrowing_kernel
def joint_rows(world, verb, start, dt, baumgarte, speed_cap, spin_cap, body, jacobian, data,
               impulse):
    """One verb of the row export for every joint type with joints, from row ``start``;
    returns the row after the last. ``verb`` (:data:`.direct_rows.COUNT`, ``ROWS``, ``STORE``)
    an ``np.int64`` at every call, not the constant itself: Numba types a global int as a
    literal and compiled this kernel once per verb (three signatures, ``warmup --all``). The
    row lists and the table of verbs are borrowed here: passed from a kernel that counts
    references, the row lists' tuple cost its caller 240-400 instructions of IR a call (five
    calls in the two levels, ``benchmarks/ir_lines.py``, 2026-12-01)."""
    table = borrow(world, "verbs")
    ids = borrow(world, "joint_ids")
    r = start
    for k in range(_LISTS):
        if ids[k].shape[0] > 0:
            r += int(call_direct_rows(table[DIRECT_ROWS + k],
                                      (world, k, verb, r, dt, baumgarte, speed_cap, spin_cap,
                                       body, jacobian, data, impulse)))
    return r


@borrowing_kernel
def open_contacts(world, order):
    """The touching contacts ``order`` prepared for both levels as the rigid solvers prepare
    them (:func:`.contact_rows.prepare_serial_rows`, the rigid rows, no warm start; the
    flags as values, one signature for every caller: a literal ``False`` of its own compiled
    it once more, 1.7 s of CPU at load 9). The kernel takes the world: a level, which counts
    references, pays ~1,000 instructions of IR at each of its returns for every store it
    holds."""
    if order.shape[0] > 0:
        prepare_serial_rows(world, order, 0, False, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0)


@borrowing_kernel
def restitution(world, touching, threshold, speed_cap, gx, gy, half_kick):
    """Every contact row's restitution (:func:`.contact_rows.restitution_rows`, which borrows
    the stores: see :func:`open_contacts`), when ``touching``."""
    if touching > 0:
        restitution_rows(world, 0, row_count(world), threshold, speed_cap, gx, gy, half_kick)


@stage_kernel
def direct(world, order, dt, gx, gy, substeps, iterations, position_iterations, warm_starting,
           contact_hertz, contact_damping_ratio, joint_hertz, joint_damping_ratio,
           contact_speed, restitution_threshold, max_linear_speed, baumgarte, velocity_tolerance,
           velocities):
    """The exact velocity-level solve (see the module doc). Returns ``dt``, or minus the rows of
    the largest island, without having changed any body, when that is above the limit."""
    # Columns, not stores: a store borrowed in a kernel that counts references has each of its
    # arrays counted, at the borrow and again at every return (the body, contact and
    # constraint stores were ~4,000 of this kernel's 14,500 instructions of IR,
    # benchmarks/ir_lines.py, 2026-12-01); the calls that need a store borrow it themselves.
    kind = borrow_column(world, "bodies", "type")
    inv_mass = borrow_column(world, "bodies", "inv_mass")
    inv_inertia = borrow_column(world, "bodies", "inv_inertia")
    count = borrow_column(world, "contacts", "count")
    body_a = borrow_column(world, "contacts", "body_a")
    body_b = borrow_column(world, "contacts", "body_b")
    table = borrow(world, "verbs")
    counts = table[DIRECT_COUNTS:]
    speed_cap, spin_cap = impulse_caps(max_linear_speed, dt)
    inv_h = 1.0 / dt

    # 1. Joint anchors (positions only; warm starting has nothing to keep here, and a reset of
    #    the impulses would be visible in reaction_force if the step stops below), the rows.
    joint_pass(world, PREPARE, dt, True, False, 0.0, 1.0, 0.0, 0.0, speed_cap, spin_cap)
    touching = order.shape[0]
    # np.int64, not the literal 0: Numba types a variable by its first value while it infers
    # the rest, and compiles a callee for every type it is called with on the way, so a
    # literal start compiled joint_rows (and direct_acceleration's joint_products, 11 s with
    # its callees) once more for Literal[int](0) (measured with Numba's compile events).
    contact_rows = np.int64(0)
    for q in range(touching):
        contact_rows += 2 * count[order[q]]
    none_i = np.zeros((0, 4), dtype=np.int64)
    none_j = np.zeros((0, 4, 3))
    none_d = np.zeros((0, WIDTH))
    none_l = np.zeros(0)
    rows = joint_rows(world, np.int64(COUNT), contact_rows, dt, baumgarte, speed_cap, spin_cap,
                      none_i, none_j, none_d, none_l)
    body = np.full((rows, 4), -1, dtype=np.int64)
    jacobian = np.zeros((rows, 4, 3))
    data = np.zeros((rows, WIDTH))
    impulse = np.zeros(rows)
    joint_rows(world, np.int64(ROWS), contact_rows, dt, baumgarte, speed_cap, spin_cap, body,
               jacobian, data, impulse)
    r = 0
    for q in range(touching):
        k = order[q]
        for j in range(count[k]):
            for t in range(2):
                body[r + t, 0] = body_a[k]
                body[r + t, 1] = body_b[k]
            r += 2

    # 2. Islands, and the size check before anything moves.
    largest, islands = island_sizes(body, kind)
    counts[LARGEST_ISLAND] = largest
    counts[ISLANDS] = islands
    counts[PIVOTS] = 0
    counts[REGULARISED] = 0
    if largest > table[DIRECT_MAX_ROWS]:
        if table[DIRECT_FALLBACK] != 0:
            counts[FALLBACK_STEPS] += 1
        return -float(largest)

    # 3. pgs's opening: integrate velocities, prepare the contacts.
    awake_velocities(world, gx, gy, dt)
    open_contacts(world, order)
    borrow(world, "clock")[3] = cycles()
    diagnose(world, order, OPENING, 0, dt, baumgarte, contact_speed, speed_cap, spin_cap)
    write_contact_rows(world, touching, inv_h, baumgarte, contact_speed, speed_cap, body,
                       jacobian, data)

    # 4. b = J v + bias, the islands solved, the impulses applied.
    v = borrow_column(world, "bodies", "v")
    w = borrow_column(world, "bodies", "w")
    b_all = np.empty(rows)
    for r in range(rows):
        b_all[r] = row_velocity(body, jacobian, r, v, w, data[r, BIAS])
    exact_impulses(body, jacobian, data, b_all, kind, inv_mass, inv_inertia, speed_cap, impulse,
                   counts, table)
    apply_rows(body, jacobian, impulse, kind, inv_mass, inv_inertia, v, w)

    diagnose(world, order, ITERATION, 0, dt, baumgarte, contact_speed, speed_cap, spin_cap)

    # 5. Contacts' impulses where pgs keeps them, restitution, the joints', positions.
    store_contact_rows(world, touching, impulse)
    store_contact_biases(world, touching, data)
    # pgs's restitution with pgs's convention (the approach measured after the kick, the
    # positions not moved yet): the bounce counted from the surface (bounce_speed), as the
    # acceleration level counts it (direct_accel), whose bounces equal these to 1e-9 m
    # (tests/test_direct_accel.py).
    restitution(world, touching, restitution_threshold, speed_cap, gx, gy, -0.5 * dt)
    joint_rows(world, np.int64(STORE), contact_rows, dt, baumgarte, speed_cap, spin_cap, body,
               jacobian, data, impulse)
    awake_positions(world, dt, max_linear_speed)
    return dt


ENTRIES = {"direct": direct}
"""The entry kernel of this module's solver (``WorldSettings.solver``)."""
