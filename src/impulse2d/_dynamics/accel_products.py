"""The velocity products ``Jdot v`` of every joint type's rows, for the acceleration level.

The acceleration level (:mod:`.direct_accel`) takes each joint type's rows from its ``direct``
export (:mod:`.direct_rows`: Jacobian, kind, bias, bound, softness) and asks their constraint
accelerations ``Cddot = J a + Jdot v`` to vanish (or to be a spring's, a motor's, a limit's). The
export knows ``J`` but not how it turns as the bodies move; this module writes ``Jdot v`` (m/s^2
for a linear row, rad/s^2 for an angular one) for the same rows, in the export's order, from
the same geometry (the current anchors ``r = R(theta) r_local``, m, from the centres of mass).

Notation: ``v``, ``w`` a body's velocity (m/s) and spin (rad/s); ``x⊥ = (-x_y, x_x)``;
``a x b = a_x b_y - a_y b_x``; an anchor's velocity ``v_p = v + w r⊥`` and, with the body
accelerations set to zero (``Jdot v`` is what is left of ``Cddot`` then), its acceleration
``d/dt (w r⊥) = -w^2 r`` (the centripetal term); ``d = p_b - p_a`` the vector between the anchors,
``ddot = v_pb - v_pa``. The fixed, turning and unit-vector forms were checked against a central
second difference of their ``C`` along the free motion (constant ``v``, ``w``; random bodies) to
1e-7 relative (the pulley's sides are the unit-vector form with one end fixed, a gear's
prismatic coordinate the turning form). Derivations:

* **angular rows** (``C = theta_b - theta_a`` or a multiple: angle, weld angle, revolute
  spring, motor and limits, the wheel's motor, the motor joint's angle, a gear between revolute
  joints): ``J`` is constant, ``Jdot v = 0``.
* **fixed direction** ``e`` (the point rows of the revolute, weld and motor joints, ``e`` the
  world x or y axis; the mouse joint, body B alone and a fixed target):
  ``C = e . d``, ``Cddot = e . (a_b + alpha_b r_b⊥ - w_b^2 r_b - ...)`` so
  ``Jdot v = e . (w_a^2 r_a - w_b^2 r_b)``.
* **direction turning with body A** (the prismatic joint's perpendicular and axial rows, the
  wheel's line, spring and limits, a gear's prismatic coordinate; ``e = R(theta_a) e_local``,
  ``edot = w_a e⊥``, ``eddot = alpha_a e⊥ - w_a^2 e``): ``C = e . d``,
  ``Cdot = e . ddot + w_a e⊥ . d`` (the Jacobian's lever on A is ``(r_a + d) x e``), and
  ``Cddot = e . dddot + 2 edot . ddot + eddot . d``, so
  ``Jdot v = e . (w_a^2 r_a - w_b^2 r_b) + 2 w_a e⊥ . ddot - w_a^2 e . d``
  (the middle term is the Coriolis acceleration of B's anchor sliding along A's axis).
* **the unit vector between the anchors** (distance joint, rigid, spring, motor and limits:
  ``C = L - L0``, ``L = |d|``, ``u = d / L``, ``Cdot = u . ddot``, ``udot = (ddot - u (u . ddot))
  / L``): ``Jdot v = u . (w_a^2 r_a - w_b^2 r_b) + (|ddot|^2 - (u . ddot)^2) / L`` (the second
  term is ``L`` times the square of the line's turning rate).
* **pulley** (``C = constant - L_a - ratio L_b``, each side a distance from a fixed ground
  point ``g``: ``d = p - g``, ``ddot = v_p``): ``Jdot v = -P_a - ratio P_b`` with
  ``P = -w^2 u . r + (|v_p|^2 - (u . v_p)^2) / L`` per side.

A row written with the opposite sign (an upper limit: ``C = upper - x``) has the opposite
product. Sources: Baraff, "Physically Based Modeling: rigid body simulation" (SIGGRAPH 2001
course notes, the ``2 ndot . (pdot_a - pdot_b)`` term of a contact's second derivative);
Featherstone, "Rigid Body Dynamics Algorithms" (2008), 2.6 (velocity-product terms).
"""

from __future__ import annotations

import numpy as np

from .._core.jit import borrowing_kernel, inline_kernel
from .._core.state import REVOLUTE
from .joints import ROW_LISTS
from .joints import custom
from .joints.distance import _geometry as distance_geometry
from .joints.gear import prismatic_frame
from .joints.prismatic import geometry as axis_geometry
from .joints.pulley import _geometry as pulley_geometry
from .world_ref import borrow

_PIN = 0
(_REVOLUTE, _DISTANCE, _PRISMATIC, _WELD, _WHEEL, _MOUSE, _MOTOR, _PULLEY, _CUSTOM,
 _GEAR) = (ROW_LISTS.index(name) for name in ("revolute", "distance", "prismatic", "weld",
                                                "wheel", "mouse", "motor", "pulley", "custom",
                                                "gear"))


@inline_kernel
def fixed(ex, ey, rax, ray, rbx, rby, wa, wb):
    """``Jdot v`` of a row along the fixed direction ``e`` between anchors ``r_a``, ``r_b``."""
    return ex * (wa * wa * rax - wb * wb * rbx) + ey * (wa * wa * ray - wb * wb * rby)


@inline_kernel
def relative(v, w, a, b, rax, ray, rbx, rby):
    """``ddot = v_pb - v_pa``, the relative velocity of the anchors (m/s)."""
    return (v[b, 0] - w[b] * rby - v[a, 0] + w[a] * ray,
            v[b, 1] + w[b] * rbx - v[a, 1] - w[a] * rax)


@inline_kernel
def turning(ex, ey, rax, ray, rbx, rby, dx, dy, ux, uy, wa, wb):
    """``Jdot v`` of a row along ``e`` turning with body A (``d`` between the anchors, ``u``
    their relative velocity)."""
    return (fixed(ex, ey, rax, ray, rbx, rby, wa, wb) + 2.0 * wa * (ex * uy - ey * ux)
            - wa * wa * (ex * dx + ey * dy))


@inline_kernel
def along(ex, ey, rax, ray, rbx, rby, ux, uy, length, wa, wb):
    """``Jdot v`` of a row along the unit vector ``e`` between the anchors, ``length`` apart
    (``u`` their relative velocity)."""
    x = fixed(ex, ey, rax, ray, rbx, rby, wa, wb)
    if length > 1e-12:
        s = ex * ux + ey * uy
        x += (ux * ux + uy * uy - s * s) / length
    return x


@inline_kernel
def _point_anchors(joints, j, dq, a, b):
    rax = dq[a, 0] * joints.frame_a[j, 0] - dq[a, 1] * joints.frame_a[j, 1]
    ray = dq[a, 1] * joints.frame_a[j, 0] + dq[a, 0] * joints.frame_a[j, 1]
    rbx = dq[b, 0] * joints.frame_b[j, 0] - dq[b, 1] * joints.frame_b[j, 1]
    rby = dq[b, 1] * joints.frame_b[j, 0] + dq[b, 0] * joints.frame_b[j, 1]
    return rax, ray, rbx, rby


@borrowing_kernel
def _revolute(joints, ids, bodies, out, r):
    w = bodies.w
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        rax, ray, rbx, rby = _point_anchors(joints, j, bodies.dq, a, b)
        out[r] = fixed(1.0, 0.0, rax, ray, rbx, rby, w[a], w[b])
        out[r + 1] = fixed(0.0, 1.0, rax, ray, rbx, rby, w[a], w[b])
        r += 2
        extra = (int(joints.enable_spring[j] and joints.hertz[j] > 0.0)
                 + int(joints.enable_motor[j]) + 2 * int(joints.enable_limit[j]))
        for k in range(extra):  # spring, motor, limits: angular
            out[r + k] = 0.0
        r += extra
    return r


@borrowing_kernel
def _distance(joints, ids, bodies, out, r):
    v = bodies.v
    w = bodies.w
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        rax, ray, rbx, rby, ex, ey, length = distance_geometry(joints, j, bodies)
        ux, uy = relative(v, w, a, b, rax, ray, rbx, rby)
        x = along(ex, ey, rax, ray, rbx, rby, ux, uy, length, w[a], w[b])
        if not joints.enable_spring[j]:
            out[r] = x
            r += 1
            continue
        count = int(joints.hertz[j] > 0.0) + int(joints.enable_motor[j])
        for k in range(count):  # spring, motor: along u
            out[r + k] = x
        r += count
        out[r] = x  # lower limit along u, upper along -u
        out[r + 1] = -x
        r += 2
    return r


@borrowing_kernel
def _axial(joints, j, a, b, v, w, rax, ray, rbx, rby, dx, dy, ex, ey, out, r, spring, motor,
           limit):
    """The rows along the axis of a prismatic or wheel joint (as ``prismatic.axial_rows``)."""
    ux, uy = relative(v, w, a, b, rax, ray, rbx, rby)
    x = turning(ex, ey, rax, ray, rbx, rby, dx, dy, ux, uy, w[a], w[b])
    count = int(spring) + int(motor)
    for k in range(count):
        out[r + k] = x
    r += count
    if limit:
        out[r] = x
        out[r + 1] = -x
        r += 2
    return r


@borrowing_kernel
def _prismatic(joints, ids, bodies, out, r, wheel):
    """The prismatic rows (perpendicular, angle, spring, motor, limits) or, with ``wheel``,
    the wheel's (line, angular motor, spring, limits). ``wheel`` an ``np.bool_`` at both calls,
    not a literal: one compile for both types (Numba compiles a kernel once per literal)."""
    v = bodies.v
    w = bodies.w
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        rax, ray, rbx, rby, dx, dy, ex, ey = axis_geometry(joints, j, bodies)
        ux, uy = relative(v, w, a, b, rax, ray, rbx, rby)
        out[r] = turning(-ey, ex, rax, ray, rbx, rby, dx, dy, ux, uy, w[a], w[b])
        r += 1
        spring = joints.enable_spring[j] and joints.hertz[j] > 0.0
        motor = joints.enable_motor[j]
        if wheel:
            if motor:  # the wheel's motor is angular
                out[r] = 0.0
                r += 1
            motor = False
        else:
            out[r] = 0.0  # the angle row
            r += 1
        r = _axial(joints, j, a, b, v, w, rax, ray, rbx, rby, dx, dy, ex, ey, out, r, spring,
                   motor, joints.enable_limit[j])
    return r


@borrowing_kernel
def _weld_or_motor(joints, ids, bodies, out, r):
    """An angular row, then the two point rows (weld, motor joint)."""
    w = bodies.w
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        rax, ray, rbx, rby = _point_anchors(joints, j, bodies.dq, a, b)
        out[r] = 0.0
        out[r + 1] = fixed(1.0, 0.0, rax, ray, rbx, rby, w[a], w[b])
        out[r + 2] = fixed(0.0, 1.0, rax, ray, rbx, rby, w[a], w[b])
        r += 3
    return r


@borrowing_kernel
def _mouse(joints, ids, bodies, out, r):
    """Body B's anchor toward a fixed target: ``Jdot v = -w_b^2 r_b`` (x, y)."""
    w = bodies.w
    dq = bodies.dq
    for n in range(ids.shape[0]):
        j = ids[n]
        b = joints.body_b[j]
        rbx = dq[b, 0] * joints.frame_b[j, 0] - dq[b, 1] * joints.frame_b[j, 1]
        rby = dq[b, 1] * joints.frame_b[j, 0] + dq[b, 0] * joints.frame_b[j, 1]
        out[r] = -w[b] * w[b] * rbx
        out[r + 1] = -w[b] * w[b] * rby
        r += 2
    return r


@inline_kernel
def _side(w_body, rx, ry, ux, uy, length, vpx, vpy):
    """One side of a pulley: ``-w^2 u . r + (|v_p|^2 - (u . v_p)^2) / L``."""
    x = -w_body * w_body * (ux * rx + uy * ry)
    if length > 1e-12:
        s = ux * vpx + uy * vpy
        x += (vpx * vpx + vpy * vpy - s * s) / length
    return x


@borrowing_kernel
def _pulley(joints, ids, bodies, out, r):
    v = bodies.v
    w = bodies.w
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        rax, ray, uax, uay, len_a, rbx, rby, ubx, uby, len_b = pulley_geometry(joints, j, bodies)
        side_a = _side(w[a], rax, ray, uax, uay, len_a, v[a, 0] - w[a] * ray,
                       v[a, 1] + w[a] * rax)
        side_b = _side(w[b], rbx, rby, ubx, uby, len_b, v[b, 0] - w[b] * rby,
                       v[b, 1] + w[b] * rbx)
        out[r] = -side_a - joints.ratio[j] * side_b
        r += 1
    return r


@borrowing_kernel
def _coordinate(joints, k, bodies):
    """``Jdot v`` of the coordinate of a gear's coupled joint ``k``: 0 for a revolute joint's
    angle; for a prismatic joint's translation ``(x_m - x_c) . u``, ``u`` turning with the base
    body ``c``, the turning row's product (``gear.coordinate`` has the geometry)."""
    if joints.type[k] == REVOLUTE:
        return 0.0
    c = joints.body_a[k]
    m = joints.body_b[k]
    rcx, rcy, rmx, rmy, ex, ey, lever_x, lever_y = prismatic_frame(joints, k, bodies)
    dx = lever_x - rcx
    dy = lever_y - rcy
    ux, uy = relative(bodies.v, bodies.w, c, m, rcx, rcy, rmx, rmy)
    return turning(ex, ey, rcx, rcy, rmx, rmy, dx, dy, ux, uy, bodies.w[c], bodies.w[m])


@borrowing_kernel
def _gear(joints, ids, bodies, out, r):
    for n in range(ids.shape[0]):
        j = ids[n]
        out[r] = (_coordinate(joints, joints.linked[j, 0], bodies)
                  + joints.ratio[j] * _coordinate(joints, joints.linked[j, 1], bodies))
        r += 1
    return r


@borrowing_kernel
def joint_products(world, out, start):
    """``Jdot v`` of every joint row into ``out`` from row ``start``, in the order of the row
    exports (:func:`.direct.joint_rows`: the row lists of :data:`.joints.ROW_LISTS`, each
    type's rows as its ``direct_rows`` writes them), at the bodies' current positions
    (``dp``, ``dq``) and velocities; the custom joints' laws from the world's table of verbs
    (:func:`.joints.custom.products`). Returns the row after the last. The stores are borrowed
    here from ``world``, not passed in: a store passed is every one of its arrays in the
    caller's IR (see :func:`.direct_accel._write_rows`)."""
    joints = borrow(world, "joints")
    ids = borrow(world, "joint_ids")
    bodies = borrow(world, "bodies")
    table = borrow(world, "verbs")
    r = start
    for k in range(len(ROW_LISTS)):
        rows = ids[k]
        if rows.shape[0] == 0:
            continue
        if k == _PIN or k == _REVOLUTE:
            r = _revolute(joints, rows, bodies, out, r)
        elif k == _DISTANCE:
            r = _distance(joints, rows, bodies, out, r)
        elif k == _PRISMATIC:
            r = _prismatic(joints, rows, bodies, out, r, np.bool_(False))
        elif k == _WHEEL:
            r = _prismatic(joints, rows, bodies, out, r, np.bool_(True))
        elif k == _WELD or k == _MOTOR:
            r = _weld_or_motor(joints, rows, bodies, out, r)
        elif k == _MOUSE:
            r = _mouse(joints, rows, bodies, out, r)
        elif k == _PULLEY:
            r = _pulley(joints, rows, bodies, out, r)
        elif k == _CUSTOM:
            r = custom.products(joints, rows, bodies, table, out, r)
        elif k == _GEAR:
            r = _gear(joints, rows, bodies, out, r)
    return r
