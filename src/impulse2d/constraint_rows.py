"""The constraint rows of the last step's solve, in public: ``world.constraint_rows()``.

Every constraint the solvers handle is a set of scalar velocity rows ``J v + bias`` (m/s or
rad/s) between two bodies, each with an accumulated impulse ``lambda`` kept within bounds. One
:class:`ConstraintRow` per row: a contact point's normal and friction rows, and each joint's rows
in the order its type solves them. Sign convention (DESIGN.md): ``J v`` is the velocity of B
relative to A along the row, ``J = (a_lin_x, a_lin_y, a_ang, b_lin_x, b_lin_y, b_ang)``.

Nothing here runs during a step. The contact rows are read from the constraint store the step
leaves behind (anchors, normal, effective masses and softness as prepared, the accumulated
impulses; the solvers also keep each normal row's bias and every row's impulse before its last
clamp there for this module: two stores per row and pass). The joint rows come from each joint
type's row export (the one the ``direct`` solver and the diagnostics use,
:mod:`._dynamics.direct_rows`), called on demand at the joints' prepared state (their anchors
as the step began) and compiled the first time it is asked for (a few seconds, once).

What the numbers mean:

* ``J``, ``effective_mass``: the row's Jacobian and ``1 / (J M^-1 J^T)`` (kg, or kg m^2 for an
  angular row), for a row of a 2x2 block (a revolute joint's point, ``pgs_block``'s two-point
  manifolds) the row's own diagonal: ``1 / K_ii``, not the block's inverse. Contacts: the
  anchors from the centres of mass at the start of the step (every solver keeps them fixed
  through the step; the soft step's substeps measure the gap with the bodies' in-step
  rotation but apply impulses at these anchors). Joints: the anchors as prepared at the start
  of the step, exact for ``pgs``, ``pgs_ngs``, ``pgs_block`` and ``direct``, whose velocity
  sweeps all run before positions move; the soft step turns them with each substep's
  rotation, so its later substeps' J differ from these by that rotation (w dt, small). The
  pulley's export takes its ropes' directions through the bodies' centres as they are now,
  after the step: its J differs from the solve's by the step's motion (none at rest).
* ``bias``: the velocity the row is solved toward, ``J v + bias -> 0``. Contact normals, per
  solver: ``soft_step``: the soft pass's ``max(bias_rate * C, -contact_speed)`` (``C / h`` while
  the gap ``C`` is open) of the last substep, the relax pass having none; ``pgs`` and
  ``direct``: Baumgarte's ``max(beta / dt * min(0, C + slop), -contact_speed)``, ``C / dt`` while
  open; ``pgs_ngs``, ``pgs_block``: only the speculative ``C / dt`` (their overlap is removed from
  the positions). Where restitution pushed a point last, its bias is minus the bounce's target
  speed. Friction rows: 0. Joint rows: ``pgs`` and ``direct``: the export's Baumgarte bias
  ``beta / h * C`` (``C / h`` for an open limit, a spring's own bias, minus a motor's speed);
  ``soft_step``, ``pgs_ngs``, ``pgs_block``: the relax pass's (no position bias but an open
  limit's ``C / h`` and the springs' and motors' own), the soft step's position bias being the
  joint softness of ``WorldSettings``.
* ``mass_scale``, ``impulse_scale``: the soft constraint's scales (Catto, "Soft Constraints",
  2011): one iteration changes the impulse by
  ``-effective_mass * mass_scale * (J v + bias) - impulse_scale * impulse``; 1 and 0 for a rigid
  row. Contact normals under ``soft_step`` carry the contact softness (doubled hertz against a
  static body), joint springs and soft welds their own.
* ``impulse``: N s (N m s for an angular row). Contacts: the step's total, summed over the
  soft step's substeps and restitution, bit for bit ``world.contacts``' ``normal_impulse`` and
  ``tangent_impulse``. Joints: the accumulated impulse of the last (sub)step, as the joint's
  ``reaction_force`` reads it (``impulse / h``).
* ``unclamped``: the same total had the row's last clamp not acted (the accumulated impulse
  before it). A contact normal clamped at 0 shows how hard the solver wanted to pull. The
  ``direct`` solver's impulses are an exact complementarity solution with no clamp (equal to
  ``impulse``). Joints keep no pre-clamp value: ``unclamped`` equals ``impulse``.
* ``lower``, ``upper``: the bounds of the clamp. Contact normals ``[0, inf)``, friction
  ``[-mu lambda_n, mu lambda_n]`` with ``lambda_n`` the normal row's ``impulse``; joints:
  ``(-inf, inf)`` for equality rows, ``[0, inf)`` for limits, ropes and pulleys, a motor's
  ``[-max h, max h]``. Every row's impulse is also held within the speed budget of
  :func:`._dynamics.solvers.impulse_caps`, not shown.

The rows describe the solver of ``world.settings`` as the step ran; a row's record describes
that step only (read it before stepping again). An island asleep through the step was not
solved and has no rows; before the first step there are none.
"""

from __future__ import annotations

import math
from itertools import repeat
from typing import Any, NamedTuple

import numpy as np

from . import contacts as _contacts
from ._dynamics.direct_rows import (BIAS, BOUND, BOXED, COUNT, EQUALITY, KIND, ONE_SIDED, ROWS,
                                    SOFT, WIDTH)
from ._core.state import DYNAMIC
from ._dynamics.joints import ROW_LISTS
from ._dynamics.row_export import export_rows
from ._dynamics.contact_lanes import sync_constraint_rows
from ._dynamics.world_ref import stores_for_step
from .constants import MAX_ROTATION
from .types import Vec2


class ConstraintRow(NamedTuple):
    """One scalar row of the last step's solve (see :mod:`impulse2d.constraint_rows`)."""

    kind: str                # "contact_normal", "contact_friction", "revolute_point_x", ...
    owner: Any               # the ContactInfo (as world.get_contacts(False) lists it) or Joint
    index: int               # the point's index in its contact, or the row's in its joint
    body_a: Any              # Body
    body_b: Any              # Body
    point: Vec2              # world point the row acts at, m
    J: tuple                 # (a_lin_x, a_lin_y, a_ang, b_lin_x, b_lin_y, b_ang)
    effective_mass: float    # 1 / (J M^-1 J^T): kg, or kg m^2 for an angular row
    bias: float              # m/s or rad/s
    impulse: float           # N s or N m s, after the clamp
    unclamped: float         # before the last clamp
    lower: float             # clamp bounds (-inf/inf for an equality row)
    upper: float
    mass_scale: float = 1.0      # soft constraint scales (1, 0: rigid)
    impulse_scale: float = 0.0
    terms: tuple = ()        # a gear's rows: every (Body, (jx, jy, jw)) the row couples


_new = tuple.__new__
_INF = math.inf

# Each joint type's rows, in the order its export writes them: (name, impulse field, column)
# for the rows that are always there, and the optional ones by the flag that turns them on.
_AXIAL = (("spring", "spring_impulse", -1), ("motor", "motor_impulse", -1),
          ("limit_lower", "lower_impulse", -1), ("limit_upper", "upper_impulse", -1))


def _custom_layout(jt, j: int) -> list[tuple[str, str, object]]:
    """A custom joint's rows as :func:`impulse2d._dynamics.joints.custom.direct_rows` writes
    them: per law row its spring, or its motor and bounds; then the rigid rows."""
    rows = int(jt.law_rows[j])
    spring = jt.hertz[j] > 0.0
    out = []
    for k in range(rows):
        lower, upper = jt.row_lower[j, k], jt.row_upper[j, k]
        if lower == upper:
            if spring:
                out.append((f"spring_{k}", "row_impulse", (k, 0)))
            continue
        if jt.row_motor[j, k]:
            out.append((f"motor_{k}", "row_impulse", (k, 0)))
        if lower > -np.inf:
            out.append((f"lower_{k}", "row_impulse", (k, 1)))
        if upper < np.inf:
            out.append((f"upper_{k}", "row_impulse", (k, 2)))
    if not spring:
        out += [(f"row_{k}", "row_impulse", (k, 0)) for k in range(rows)
                if jt.row_lower[j, k] == jt.row_upper[j, k]]
    return out


def _joint_layout(name: str, jt, j: int) -> list[tuple[str, str, int]]:
    """The rows of joint ``j`` (type ``name``) as its ``direct_rows`` writes them."""
    spring = bool(jt.enable_spring[j]) and jt.hertz[j] > 0.0
    motor = bool(jt.enable_motor[j])
    limit = bool(jt.enable_limit[j])
    axial = [row for row, on in zip(_AXIAL, (spring, motor, limit, limit)) if on]
    if name == "revolute":
        return [("point_x", "linear_impulse", 0), ("point_y", "linear_impulse", 1)] + axial
    if name == "prismatic":
        return [("perpendicular", "linear_impulse", 0), ("angle", "angular_impulse", -1)] + axial
    if name == "wheel":
        rows = [("perpendicular", "linear_impulse", 0)]
        if motor:
            rows.append(("motor", "motor_impulse", -1))
        if spring:
            rows.append(_AXIAL[0])
        if limit:
            rows += [_AXIAL[2], _AXIAL[3]]
        return rows
    if name == "distance":
        if not jt.enable_spring[j]:
            return [("length", "linear_impulse", 0)]
        rows = [_AXIAL[0]] if spring else []
        if motor:
            rows.append(_AXIAL[1])
        return rows + [_AXIAL[2], _AXIAL[3]]
    if name == "weld":
        return [("angle", "angular_impulse", -1), ("point_x", "linear_impulse", 0),
                ("point_y", "linear_impulse", 1)]
    if name == "motor":
        return [("angle", "angular_impulse", -1), ("linear_x", "linear_impulse", 0),
                ("linear_y", "linear_impulse", 1)]
    if name == "mouse":
        return [("point_x", "linear_impulse", 0), ("point_y", "linear_impulse", 1)]
    if name == "pulley":
        return [("length", "lower_impulse", -1)]
    if name == "gear":
        return [("ratio", "linear_impulse", 0)]
    if name == "custom":
        return _custom_layout(jt, j)
    raise ValueError(f"unknown joint type {name!r}")


def _contact_rows(world) -> list[ConstraintRow]:
    sync_constraint_rows(world)  # the rows, also what a wide solve left in its lanes
    cs = world._constraints
    c = world._contacts
    n = cs.count.shape[0]
    if n == 0:
        return []
    k = cs.contact
    # rows still describing their contact (a shape destroyed since the step drops contacts)
    live = k < c.count.shape[0]
    live[live] &= (c.body_a[k[live]] == cs.body_a[live]) & (c.body_b[k[live]] == cs.body_b[live])
    # an island that slept through the step was not solved: its rows are an older step's
    b = world._bodies
    awake = (b.type == DYNAMIC) & ~b.asleep
    live &= awake[cs.body_a] | awake[cs.body_b]
    listed = _contacts.contact_rows(world, touching_only=False)
    records = dict(zip(listed.tolist(), _contacts.records(world, listed)))
    has_record = np.zeros(c.count.shape[0] + 1, dtype=bool)
    has_record[listed] = True
    live &= has_record[np.minimum(k, c.count.shape[0])]
    # in the order world.get_contacts(False) lists them, points in order, normal then friction:
    # every column at once over the points (q, j), then one record per row
    order = np.argsort(k, kind="stable")
    order = order[live[order]]
    count = cs.count[order]
    q = np.repeat(order, count)
    j = np.zeros(q.shape[0], dtype=np.int64)
    j[np.cumsum(count)[count == 2] - 1] = 1
    kk = k[q]
    nx = cs.normal[q, 0]
    ny = cs.normal[q, 1]
    tx, ty = ny, -nx
    rax, ray = cs.r_a[q, j, 0], cs.r_a[q, j, 1]
    rbx, rby = cs.r_b[q, j, 0], cs.r_b[q, j, 1]
    normal_j = np.column_stack((-nx, -ny, -(rax * ny - ray * nx), nx, ny, rbx * ny - rby * nx))
    tangent_j = np.column_stack((-tx, -ty, -(rax * ty - ray * tx), tx, ty, rbx * ty - rby * tx))
    normal_total = c.total_normal_impulse[kk, j]
    tangent_total = c.total_tangent_impulse[kk, j]
    # the step's total had the last clamp not acted: the total plus what that clamp removed
    normal_unclamped = normal_total + (cs.unclamped[q, j, 0] - cs.normal_impulse[q, j])
    tangent_unclamped = tangent_total + (cs.unclamped[q, j, 1] - cs.tangent_impulse[q, j])
    bound = cs.friction[q] * normal_total
    bodies = world._body_handles.__getitem__
    owners = list(map(records.__getitem__, kk.tolist()))
    body_a = list(map(bodies, cs.body_a[q].tolist()))
    body_b = list(map(bodies, cs.body_b[q].tolist()))
    points = list(map(_new, repeat(Vec2), c.point[kk, j].tolist()))
    index = j.tolist()
    p = len(index)
    normal = map(_new, repeat(ConstraintRow), zip(
        repeat("contact_normal", p), owners, index, body_a, body_b, points,
        map(tuple, normal_j.tolist()), cs.normal_mass[q, j].tolist(), cs.bias[q, j].tolist(),
        normal_total.tolist(), normal_unclamped.tolist(), repeat(0.0, p), repeat(_INF, p),
        cs.softness[q, 1].tolist(), cs.softness[q, 2].tolist(), repeat((), p)))
    friction = map(_new, repeat(ConstraintRow), zip(
        repeat("contact_friction", p), owners, index, body_a, body_b, points,
        map(tuple, tangent_j.tolist()), cs.tangent_mass[q, j].tolist(), repeat(0.0, p),
        tangent_total.tolist(), tangent_unclamped.tolist(), (-bound).tolist(), bound.tolist(),
        repeat(1.0, p), repeat(0.0, p), repeat((), p)))
    return [row for pair in zip(normal, friction) for row in pair]


def _export(world, stores, k: int, name: str, h: float, baumgarte: float, caps):
    """The rows of row list ``k`` from its type's ``direct`` export: (body, jacobian, data)."""
    from ._dynamics.step import DIRECT_ROWS_KERNELS  # the step imports this package's modules

    address = DIRECT_ROWS_KERNELS[name].address()  # compiled (or loaded) once
    body = np.zeros((0, 4), dtype=np.int64)
    jacobian = np.zeros((0, 4, 3))
    data = np.zeros((0, WIDTH))
    impulse = np.zeros(0)
    count = int(export_rows(stores, address, k, COUNT, h, baumgarte, caps[0], caps[1], body,
                            jacobian, data, impulse))
    body = np.full((count, 4), -1, dtype=np.int64)
    jacobian = np.zeros((count, 4, 3))
    data = np.zeros((count, WIDTH))
    impulse = np.zeros(count)
    export_rows(stores, address, k, ROWS, h, baumgarte, caps[0], caps[1], body, jacobian, data,
                impulse)
    return body, jacobian, data


def _joint_rows(world) -> list[ConstraintRow]:
    if world._joint_inv_h <= 0.0 or not world._joint_handles:
        return []  # no step has solved a joint yet
    h = 1.0 / world._joint_inv_h
    s = world.settings
    baumgarte = float(s.baumgarte) if s.solver in ("pgs", "direct") else 0.0
    caps = (4.0 * float(s.max_linear_speed), 4.0 * MAX_ROTATION / h)
    rows = world._joint_rows()
    stores = stores_for_step(world, rows)
    jt = world._joints
    b = world._bodies
    bodies = world._body_handles
    handles = world._joint_handles
    out = []
    for k, ids in enumerate(rows["by_type"]):
        if ids.shape[0] == 0:
            continue
        name = "revolute" if ROW_LISTS[k] == "pin" else ROW_LISTS[k]
        body, jacobian, data = _export(world, stores, k, name, h, baumgarte, caps)
        r = 0
        for j in ids.tolist():
            joint = handles[j]
            ja = int(jt.body_a[j])
            jb = int(jt.body_b[j])
            anchor = joint.world_anchor_b
            for index, (row, field, column) in enumerate(_joint_layout(name, jt, j)):
                stored = getattr(jt, field)[j]
                value = float(stored if column == -1 else stored[column])
                out.append(_joint_row(f"{name}_{row}", joint, index, ja, jb, anchor, bodies, b,
                                      body[r], jacobian[r], data[r], value))
                r += 1
        if r != body.shape[0]:
            raise RuntimeError(f"{name} joint rows: {body.shape[0]} exported, {r} laid out")
    return out


def _joint_row(kind, joint, index, ja, jb, anchor, bodies, b, slots, jacobian, data, value):
    """One joint row's record from its export (``slots``: the bodies of up to four terms)."""
    part = {ja: [0.0, 0.0, 0.0]}
    if jb != ja:
        part[jb] = [0.0, 0.0, 0.0]
    terms = []
    for s in range(4):
        i = int(slots[s])
        if i < 0:
            continue
        term = jacobian[s].tolist()
        terms.append((i, term))
        got = part.setdefault(i, [0.0, 0.0, 0.0])
        for c in range(3):
            got[c] += term[c]
    k_row = sum(float(b.inv_mass[i]) * (t[0] * t[0] + t[1] * t[1])
                + float(b.inv_inertia[i]) * t[2] * t[2] for i, t in part.items())
    ja_j = part[ja]
    jb_j = part[jb] if jb != ja else [0.0, 0.0, 0.0]
    kind_code = int(data[KIND])
    if kind_code == EQUALITY:
        lower, upper = -_INF, _INF
    elif kind_code == ONE_SIDED:
        lower, upper = 0.0, _INF
    elif kind_code == BOXED:
        lower, upper = -float(data[BOUND]), float(data[BOUND])
    else:
        raise RuntimeError(f"{kind}: unexpected row kind {kind_code}")
    soft = float(data[SOFT])
    extra = tuple((bodies[i], tuple(t)) for i, t in terms
                  if len(part) > 2 or i not in (ja, jb))
    return _new(ConstraintRow, (
        kind, joint, index, bodies[ja], bodies[jb], anchor, (*ja_j, *jb_j),
        1.0 / k_row if k_row > 0.0 else 0.0, float(data[BIAS]), value, value, lower, upper,
        1.0 / (1.0 + soft), soft / (1.0 + soft), extra))


def constraint_rows(world) -> list[ConstraintRow]:
    """Every row of the last step's solve: the contacts' (in ``world.get_contacts(False)``
    order, per point the normal row then the friction row), then the joints' (by type, in the
    order the solver takes them)."""
    return _contact_rows(world) + _joint_rows(world)


__all__ = ["ConstraintRow", "constraint_rows"]
