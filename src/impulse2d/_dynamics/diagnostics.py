"""What the solver diagnostics measure inside a step (``WorldSettings.diagnostics``).

One kernel, called by address from fixed points of every solver's passes (the table's slot
:data:`~.verbs.DIAGNOSTICS`, filled only while diagnostics are on, so no other world compiles
it), writes into the world's float array ``diagnostics`` (layout below), which
:mod:`impulse2d.solver_stats` reads after the step. It also fills the constraint rows from the
wide solver's lanes before the measures read them (:data:`~.verbs.LANE_COLUMNS`), so that the
solvers do not compile that copy.

The measure is the system each solver iterates on, in the ``direct`` solver's rows
(:mod:`.direct_rows`: the contacts' rows written here by
:func:`~.direct_rows.write_contact_rows`, the joints' by each joint type's export, at the
bodies' current velocities and in-step positions). With ``w = J v + bias`` a row's velocity
(m/s or rad/s) and ``K`` its diagonal of ``J M^-1 J^T``, the residual of a row is, in units of
velocity:

* a rigid equality row (a joint's point, weld, rigid distance, gear, prismatic axis): ``|w|``;
* a contact's normal row: ``|min(K lambda_n, w)|``, the natural residual of complementarity
  (0 exactly when the row pushes only while it stays shut, and separates only when free),
  with the impulse ``lambda_n`` scaled by ``K`` to the speed it gives (Cottle, Pang and Stone
  1992: the natural map of a scaled LCP);
* a contact's friction row, boxed by ``mu lambda_n``:
  ``K |lambda_t - clamp(lambda_t - w / K, -mu lambda_n, mu lambda_n)|`` (0 when it sticks
  with ``w = 0`` inside the cone, or slides at its edge against the slip).

Soft rows (springs, the mouse joint) have no exact answer to be measured against, and a
joint's limits and motors keep their impulses in fields of each joint type; those rows are left
out of the residual. The bias is the one of the rows the solver iterates on: ``pgs`` and
``direct``, Baumgarte's; the soft step's relax pass and the NGS solvers' velocity pass, none but
the speculative one (``baumgarte`` 0).

"exact" (:data:`EXACT`) also solves the same system exactly, from the velocities the solver
started its iterations from (before warm starting), with the ``direct`` solver's island solve,
and records how far the solver's contact impulses and its velocities are from that answer; not
in a step with an island above ``WorldSettings.direct_max_rows`` (Lemke's cost), as for the
``direct`` solver itself.
"""

from __future__ import annotations

import math

import numpy as np

from .._core.jit import inline_kernel, inner_kernel, stage_kernel
from .._core.state import DYNAMIC
from .direct import DIRECT_SCRATCH, exact_impulses, island_sizes, joint_rows
from .direct_rows import (BIAS, BOUND, BOXED, COUNT, EQUALITY, FRICTION, KIND, NORMAL, ONE_SIDED,
                          ROWS, SOFT, WIDTH, apply_rows, row_velocity,
                          write_contact_rows)
from .positions import contact_gap
from .contact_lanes import lane_columns
from .verbs import (AFTER_SOLVE, DIRECT_MAX_ROWS, EXACT_SOLVE, ITERATION, LANE_COLUMNS, OPENING,
                    POSITION_PASSES)
from .world_ref import borrow

(RECORDED, CAPACITY, EXACT, EQUALITY_MAX, EQUALITY_RMS, COMPLEMENTARITY, CONE, PENETRATION,
 JOINT_LINEAR, JOINT_ANGULAR, EXACT_IMPULSE, EXACT_VELOCITY, PASSES, ROW_COUNT, EQUALITY_ROWS,
 CONTACT_POINTS) = range(16)
"""The record's header: iterations recorded; the history's capacity (iterations); 1 when the
exact solve is asked; for the last iteration the largest and RMS residual of the rigid equality
rows (m/s, rad/s), the largest complementarity residual of the normal rows and the largest
excess of a friction impulse over its cone (N s); after the step the deepest penetration (m)
and the largest linear (m) and angular (rad) joint error; the exact solve's largest contact
impulse difference relative to its largest impulse, and largest velocity difference (m/s,
rad/s); position passes run; rows measured, of them rigid equality rows, and contact points."""

HEADER = 16
"""Slots before the history: ``record[HEADER + 2 i]`` and ``[HEADER + 2 i + 1]`` are the
largest and the RMS residual of every measured row after iteration ``i`` (m/s); after the
history, three slots per body hold its velocities at the opening."""


@inner_kernel
def _rows(world, order, h, baumgarte, contact_speed, speed_cap, spin_cap):
    """The rows of the world's touching contacts (from row 0) and joints, with the bias of
    ``baumgarte`` over ``h``; returns them and the number of contact rows."""
    cs = borrow(world, "constraints")
    touching = order.shape[0]
    contact_rows = 0
    for q in range(touching):
        contact_rows += 2 * cs.count[q]
    none_i = np.zeros((0, 4), dtype=np.int64)
    none_j = np.zeros((0, 4, 3))
    none_d = np.zeros((0, WIDTH))
    none_l = np.zeros(0)
    rows = joint_rows(world, np.int64(COUNT), contact_rows, h, baumgarte, speed_cap, spin_cap,
                      none_i, none_j, none_d, none_l)
    body = np.full((rows, 4), -1, dtype=np.int64)
    jacobian = np.zeros((rows, 4, 3))
    data = np.zeros((rows, WIDTH))
    impulse = np.zeros(rows)
    write_contact_rows(world, touching, 1.0 / h, baumgarte, contact_speed, speed_cap, body,
                       jacobian, data)
    joint_rows(world, np.int64(ROWS), contact_rows, h, baumgarte, speed_cap, spin_cap, body,
               jacobian, data, impulse)
    return body, jacobian, data, contact_rows


@inline_kernel
def _row_mass(body, jacobian, r, inv_mass, inv_inertia):
    """``K`` of row ``r``: its diagonal of ``J M^-1 J^T`` (1/kg, or 1/(kg m^2))."""
    x = 0.0
    for s in range(4):
        k = body[r, s]
        if k >= 0:
            x += (inv_mass[k] * (jacobian[r, s, 0] ** 2 + jacobian[r, s, 1] ** 2)
                  + inv_inertia[k] * jacobian[r, s, 2] ** 2)
    return x


@inner_kernel
def _contact_impulses(cs, touching, contact_rows):
    """The accumulated contact impulses in row order (normal, friction per point; N s)."""
    out = np.zeros(contact_rows)
    r = 0
    for q in range(touching):
        for j in range(cs.count[q]):
            out[r] = cs.normal_impulse[q, j]
            out[r + 1] = cs.tangent_impulse[q, j]
            r += 2
    return out


@inner_kernel
def _residuals(world, order, index, h, baumgarte, contact_speed, speed_cap, spin_cap, record):
    """Measure the rows after iteration ``index`` (see the module doc)."""
    bodies = borrow(world, "bodies")
    cs = borrow(world, "constraints")
    body, jacobian, data, contact_rows = _rows(world, order, h, baumgarte, contact_speed,
                                               speed_cap, spin_cap)
    lam = _contact_impulses(cs, order.shape[0], contact_rows)
    v = bodies.v
    w = bodies.w
    worst = 0.0
    squares = 0.0
    measured = 0
    eq_worst = 0.0
    eq_squares = 0.0
    eq_rows = 0
    complementarity = 0.0
    cone = 0.0
    for r in range(body.shape[0]):
        kind = int(data[r, KIND])
        if data[r, SOFT] != 0.0:
            continue
        k = _row_mass(body, jacobian, r, bodies.inv_mass, bodies.inv_inertia)
        if k <= 0.0:
            continue  # between bodies that cannot move: nothing to solve
        speed = row_velocity(body, jacobian, r, v, w, data[r, BIAS])
        if kind == EQUALITY:
            res = abs(speed)
            eq_worst = max(eq_worst, res)
            eq_squares += res * res
            eq_rows += 1
        elif r < contact_rows and kind == NORMAL:
            res = abs(min(k * lam[r], speed))
            complementarity = max(complementarity, abs(min(lam[r], speed / k)))
        elif r < contact_rows and kind == FRICTION:
            bound = data[r, BOUND] * lam[r - 1]
            x = lam[r]
            res = k * abs(x - min(max(x - speed / k, -bound), bound))
            cone = max(cone, abs(x) - bound)
        else:
            continue  # a joint's limit or motor (see the module doc)
        worst = max(worst, res)
        squares += res * res
        measured += 1
    capacity = int(record[CAPACITY])
    if index < capacity:
        record[HEADER + 2 * index] = worst
        record[HEADER + 2 * index + 1] = math.sqrt(squares / measured) if measured > 0 else 0.0
    record[RECORDED] = min(index + 1, capacity)
    record[EQUALITY_MAX] = eq_worst
    record[EQUALITY_RMS] = math.sqrt(eq_squares / eq_rows) if eq_rows > 0 else 0.0
    record[COMPLEMENTARITY] = complementarity
    record[CONE] = cone
    record[ROW_COUNT] = measured
    record[EQUALITY_ROWS] = eq_rows
    record[CONTACT_POINTS] = contact_rows // 2


@inner_kernel
def _exact(world, order, h, baumgarte, contact_speed, speed_cap, spin_cap, record):
    """Solve the rows exactly from the opening's velocities; record the distance of the
    solver's contact impulses and velocities from that answer."""
    bodies = borrow(world, "bodies")
    cs = borrow(world, "constraints")
    body, jacobian, data, contact_rows = _rows(world, order, h, baumgarte, contact_speed,
                                               speed_cap, spin_cap)
    if island_sizes(body, bodies.type)[0] > borrow(world, "verbs")[DIRECT_MAX_ROWS]:
        return  # as the direct solver, no exact solve above direct_max_rows: not measured
    n = bodies.type.shape[0]
    base = HEADER + 2 * int(record[CAPACITY])
    v0 = np.empty((n, 2))
    w0 = np.empty(n)
    for i in range(n):
        v0[i, 0] = record[base + 3 * i]
        v0[i, 1] = record[base + 3 * i + 1]
        w0[i] = record[base + 3 * i + 2]
    rows = body.shape[0]
    b_all = np.empty(rows)
    for r in range(rows):
        b_all[r] = row_velocity(body, jacobian, r, v0, w0, data[r, BIAS])
    exact = np.zeros(rows)
    verbs = borrow(world, "verbs")
    exact_impulses(body, jacobian, data, b_all, bodies.type, bodies.inv_mass, bodies.inv_inertia,
                   speed_cap, exact, np.zeros(DIRECT_SCRATCH, dtype=np.int64), verbs)
    lam = _contact_impulses(cs, order.shape[0], contact_rows)
    largest = 0.0
    worst = 0.0
    for r in range(contact_rows):
        largest = max(largest, abs(exact[r]))
        worst = max(worst, abs(lam[r] - exact[r]))
    record[EXACT_IMPULSE] = worst / largest if largest > 0.0 else worst
    # v* = v0 + M^-1 J^T lambda*
    apply_rows(body, jacobian, exact, bodies.type, bodies.inv_mass, bodies.inv_inertia, v0, w0)
    gap = 0.0
    for i in range(n):
        if bodies.alive[i] and bodies.type[i] == DYNAMIC and not bodies.asleep[i]:
            gap = max(gap, abs(bodies.v[i, 0] - v0[i, 0]), abs(bodies.v[i, 1] - v0[i, 1]),
                      abs(bodies.w[i] - w0[i]))
    record[EXACT_VELOCITY] = gap


@inner_kernel
def _after(world, order, speed_cap, spin_cap, record):
    """The deepest penetration of the touching contacts and the largest joint errors, at the
    positions the solve has left (before the step moves the bodies)."""
    bodies = borrow(world, "bodies")
    cs = borrow(world, "constraints")
    deepest = 0.0
    for q in range(order.shape[0]):
        for j in range(cs.count[q]):
            deepest = max(deepest, -contact_gap(cs, q, j, bodies.dp, bodies.dq))
    record[PENETRATION] = deepest
    # Exported with Baumgarte 1 over a step of 1 s, a rigid row's bias is its position error
    # C itself (m, or rad for a row without a linear part), a one-sided row's its gap.
    body, jacobian, data, contact_rows = _rows(world, order, 1.0, 1.0, 0.0, speed_cap, spin_cap)
    linear = 0.0
    angular = 0.0
    for r in range(contact_rows, body.shape[0]):
        kind = int(data[r, KIND])
        if data[r, SOFT] != 0.0 or kind == BOXED:
            continue
        c = data[r, BIAS]
        error = abs(c) if kind == EQUALITY else max(0.0, -c) if kind == ONE_SIDED else 0.0
        turning = True
        for s in range(4):
            if body[r, s] >= 0 and (jacobian[r, s, 0] != 0.0 or jacobian[r, s, 1] != 0.0):
                turning = False
        if turning:
            angular = max(angular, error)
        else:
            linear = max(linear, error)
    record[JOINT_LINEAR] = linear
    record[JOINT_ANGULAR] = angular


@stage_kernel
def diagnose(world, order, verb, index, h, baumgarte, contact_speed, speed_cap, spin_cap):
    """The entry (:data:`~.verbs.DIAGNOSE_SIGNATURE`): record what point ``verb`` measures;
    at :data:`~.verbs.LANE_COLUMNS`, fill the rows' columns from the wide solver's lanes for
    the measures (:func:`.contact_lanes.rows_for_diagnostics`: the solvers ask, this unit
    compiles the copy)."""
    if verb == LANE_COLUMNS:
        lane_columns(world, borrow(world, "constraints"))
        return 0.0
    record = borrow(world, "diagnostics")
    if record.shape[0] < HEADER:
        return 0.0
    if verb == OPENING:
        record[RECORDED] = 0.0
        for k in range(EQUALITY_MAX, CONTACT_POINTS + 1):
            record[k] = math.nan
        bodies = borrow(world, "bodies")
        base = HEADER + 2 * int(record[CAPACITY])
        for i in range(min(bodies.type.shape[0], (record.shape[0] - base) // 3)):
            record[base + 3 * i] = bodies.v[i, 0]
            record[base + 3 * i + 1] = bodies.v[i, 1]
            record[base + 3 * i + 2] = bodies.w[i]
    elif verb == ITERATION:
        _residuals(world, order, index, h, baumgarte, contact_speed, speed_cap, spin_cap, record)
    elif verb == EXACT_SOLVE:
        if record[EXACT] != 0.0:
            _exact(world, order, h, baumgarte, contact_speed, speed_cap, spin_cap, record)
    elif verb == AFTER_SOLVE:
        _after(world, order, speed_cap, spin_cap, record)
    elif verb == POSITION_PASSES:
        record[PASSES] = index
    return 0.0


ENTRY = diagnose
"""The kernel the table's :data:`~.verbs.DIAGNOSTICS` slot points at."""
