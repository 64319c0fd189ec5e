"""The ``direct`` solver at the acceleration level (``WorldSettings.direct_level="acceleration"``).

The velocity level (:mod:`.direct`) solves for the impulses that make the constraint velocities
right after one step. This module solves the force-based formulation instead (the classical
one of multibody dynamics: Baraff 1994, "Fast contact force computation for nonpenetrating rigid
bodies"; Baumgarte 1972 for the stabilisation): the constraint *forces* ``f`` that make the
constraint accelerations right at the start of the step, then integrates them together with the
external forces by the engine's semi-implicit Euler. With ``C(q)`` a row's position error and
``J`` its Jacobian, ``Cdot = J v`` and ``Cddot = J a + Jdot v``, ``a = M^-1 (F_ext + J^T f)``::

    J M^-1 J^T f + (J M^-1 F_ext + Jdot v + 2 alpha Cdot + beta^2 C) = w_acc

with ``w_acc = 0`` for an equality row (a joint), and for a contact's normal row ``w_acc >= 0``,
``f_n >= 0``, ``f_n w_acc = 0`` (Baraff's complementarity at the force level); the friction row
is Coulomb's cone ``|f_t| <= mu f_n`` (see below). The same assembly, Schur complement and
Lemke's LCP as the velocity level solve it (:func:`.direct._solve_island`): the system is
multiplied through by the step ``h`` so that the unknowns are the impulses ``f h`` (N s) and the
right-hand side a velocity (m/s), the units, scaling, caps and checks of the velocity level.

**Substeps.** The step is taken in ``substeps`` substeps of ``h = dt / substeps`` (the setting
the soft step uses, default 4), each a full solve at the substep's positions (contact anchors
and normals as prepared at the step's start, their separations moved with the bodies, as the
soft step does). Semi-implicit Euler with forces that depend on the velocity (the ``Jdot v``
terms) is not symplectic: each step leaves a turning body ``h^2 v^2 / (2 r)`` off its circle
and gains energy (measured: a chain of 10 pins falling from horizontal, 28 m of joint gap
after 10 s in steps of 1/60 s, 0.057 m in 4 substeps, where the velocity level keeps 0.117 m);
the error falls with ``h``.

**Stabilisation** (Baumgarte 1972). ``Cddot = 0`` alone lets the position error of the
integrated motion grow (the integrator's error is not fed back). The rows ask
``Cddot + 2 alpha Cdot + beta^2 C = 0`` instead, a critically damped oscillator of the error with
``alpha = beta = omega``; ``omega = baumgarte / h`` (1/s), ``h`` the substep: ``pgs``'s
Baumgarte fraction read per substep (0.2 at 60 Hz and 4 substeps: omega = 48 /s, an error
halves in about 35 ms). ``omega h = 0.2`` keeps the explicit feedback well inside what
semi-implicit Euler damps without overshoot (its error map has eigenvalues 0.87 and 0.69 at
0.2; 0 and 0.75 at 0.5; one leaves the unit circle past ``omega h = 2 sqrt 2 - 2 = 0.83``). ``baumgarte = 0``
turns it off (the drift is measured in ``tests/test_direct_accel.py`` and BENCHMARKS.md). A
contact's error is ``C = s + LINEAR_SLOP`` (``s`` its separation): it rests at ``pgs``'s depth,
one slop, so that its row stays active (``s <= 0``) without flickering.

**Impacts** cannot be met by finite forces. An impulse phase comes first, on the velocities of
the step's start: the velocity-level direct solve of the same rows with right-hand side
``J v`` for a contact row, ``+ C / h`` where the point is above its rest depth (``C > 0``: it
may close that gap in this step, as ``pgs``'s speculative points do; a point settling into its
slop is left to the force phase, whose stabilisation brings it to rest without an impact), and
0 for a joint row (the joints carry the impulse through without changing their own velocity
error: that is the stabilisation's job), then ``pgs``'s restitution, with ``pgs``'s convention
(:func:`_restitution`).
An island whose contact rows ask for no impulse (every normal row's ``J v + bias`` above
``-IMPACT``: zero impulses solve it, to that) skips it. After it no touching contact approaches, and the force
phase sees a resting contact at rest.

**Active rows.** The force phase has a contact point's rows only while it touches (``s <= 0``):
a speculative point cannot push at a distance. Its friction row asks for the tangential velocity
at the end of the step to vanish, ``w_t = J_t a + Jdot_t v + (J_t v) / h``: for a point at rest
(``J_t v = 0``, as the impulse phase leaves a sticking point) that is ``a_t = 0`` inside the cone,
static friction; for a sliding point the cone bound takes the sign that opposes the sliding
velocity, kinetic friction ``mu f_n``. (A friction law on ``a_t`` alone would oppose the
acceleration, not the velocity, and cannot stop a sliding body.)

**Velocity products** ``Jdot v`` (m/s^2 for a linear row), derived per row type; ``r_a``,
``r_b`` the anchors' arms from the centres of mass (m), ``w`` spin (rad/s), ``v_p = v + w x r``
a material point's velocity and ``w x r = (-w r_y, w r_x)``; ``d/dt (w x r) = alpha x r - w^2 r``
(the centripetal term). The joints' are derived in :mod:`.accel_products` (fixed directions,
directions turning with body A with their Coriolis term, the unit vector between two anchors,
the pulley's two ropes, gears of revolute and prismatic joints). A contact's rows (normal
``n``, tangent ``t = (n_y, -n_x)``; the normal turns with body A, the reference shape,
``ndot = w_a x n``; the point is taken as material on both bodies, which leaves out the rolling
of the point over curved surfaces, a term in their curvature):
``Jdot v = n . (w_a^2 r_a - w_b^2 r_b) + (w_a x n) . (v_pb - v_pa)`` (1/s^2 m and 1/s m/s),
the same with ``t`` for the friction row. (This is the derivative of the row's own ``J v``,
whose lever on A leaves out the gap ``d``; the separation's exact second derivative, Baraff's,
has ``2 ndot . ddot``: the two differ only for a contact sliding on a spinning body A.)

**Joints.** Every joint type's rows come from its ``direct`` export (:mod:`.direct_rows`, the
velocity level's rows: Jacobian, kind, bounds, softness), asked with the substep ``h`` and a
Baumgarte fraction of 1 so that a rigid or one-sided row's bias is ``C / h`` (its error ``C``,
m or rad). Each row then asks, per kind:

* *rigid equality* (revolute and weld points, the weld's angle, the prismatic and wheel's
  perpendicular and angle rows, a rigid distance, a gear): ``Cddot + 2 omega Cdot + omega^2 C =
  0``, as above; in the impulse phase its right-hand side is 0 (it carries the impulse through).
* *one-sided* (revolute, prismatic and wheel limits, a distance joint's min and max lengths, a
  pulley's rope): in the impulse phase as a contact, ``J v + max(C, 0) / h`` (it may close an
  open gap in this substep, no more: the approach is stopped by an impulse); in the force phase,
  while ``C <= LIMIT_MARGIN`` (the limit reached), Baraff's complementarity ``f >= 0``,
  ``Cddot + 2 omega Cdot + omega^2 C >= 0``, ``f`` times it 0; an open limit takes no force.
* *motor* (boxed by ``max_motor h``, N s: a torque or force bound; the motor joint's rows, whose
  target speed is ``correction_factor / h`` times their error): a velocity target, the row's
  velocity at the end of the substep, ``J v + h (J M^-1 F_ext + Jdot v) + K f h = speed``; the
  force stays in ``|f| <= max_motor``, and at the bound the motor slips. A finite force takes
  no part in the impulse phase.
* *spring* (revolute, prismatic, wheel and distance springs, the soft weld, the mouse joint):
  an implicit spring-damper, as a compliance on the diagonal. With stiffness ``k = m_eff
  omega_s^2`` and damping ``c = 2 zeta m_eff omega_s`` (``omega_s = 2 pi hertz``, ``m_eff = 1/K``
  the row's mass: the spring oscillates at ``hertz`` whatever the masses), the force at the end
  of the substep's position and velocity, ``f = -k (C + h Cdot+) - c Cdot+``, ``Cdot+ = J v + h
  (J M^-1 F_ext + Jdot v) + K f h``, is the row ``(1 + 1 / (h omega_s (2 zeta + h omega_s)))
  K f h + J v + h (J M^-1 F_ext + Jdot v) + omega_s / (2 zeta + h omega_s) C = 0``: exactly the
  velocity level's soft row (Catto, "Soft Constraints", GDC 2011) at the substep, its column
  ``SOFT`` and bias, with the acceleration terms added. Implicit rather than an explicit force
  ``-k C - c Cdot``: the explicit one is unstable past ``omega_s h = 2`` (a stiff spring, a light
  body) and solved apart from the rows it shares bodies with, while the compliance is stable
  for every stiffness and solved with them; the price is the implicit Euler's damping of an
  undamped spring, a factor ``(1 + (omega_s h)^2)^(-1/2)`` per substep (measured: a 1 Hz wheel
  spring keeps 44 % of its amplitude over 10 s in substeps of 1/240 s), and a period off by
  ``O((omega_s h)^2)`` (0.02 % at 1 Hz, 0.4 % at 4 Hz). The mouse joint's rows are also boxed
  by ``max_force h`` (the velocity level's square box).

Velocities set inconsistent with a rigid joint (a body given a spin its joint forbids) are
brought back by the stabilisation's ``2 omega Cdot``, not at once; with ``baumgarte = 0`` they
stay. A slider flying out along a spinning arm (prismatic joint) to its limit comes off the
arm's axis by 1.1 mm with the stabilisation, 0.24 mm without it until the limit, after which,
without it, the offset grows without bound (2.8 m in 10 s; benchmarks/direct_accel.py). Both
are the integrator's error, not the rows' (``tests/test_direct_accel_joints.py``). Without
stabilisation the offset is proportional to ``h`` at every time (0.95, 0.48, 0.24, 0.12,
0.06 mm just before the limit and 2.29, 1.19, 0.58, 0.29, 0.14 m at 5 s, in 1, 2, 4, 8, 16
substeps), as a wrong ``Jdot v`` would not be; once the slider turns rigidly at the limit the
error of ``Cddot`` is of the order ``h w^3 r`` (0.066 m/s^2 at 4 substeps; 0.080 measured), and
with nothing feeding ``C`` back the offset grows as ``t^2``. With stabilisation the offset is
where ``2 omega Cdot + omega^2 C`` balances the straight position step in the turning frame (a
substep moves the slider by ``h v`` while the axis turns by ``h w``, which changes ``C`` by
about ``h^2 w v_r`` that ``J v`` does not show): ``C = 2 h w v_r / omega = 2 h^2 w v_r /
baumgarte``, 1.16 mm predicted at ``v_r = 2.5`` m/s, proportional to ``h^2`` (12.7, 1.07,
0.071 mm in 1, 4, 16 substeps), and gone once the slider stops at its limit (0.04 mm). Not done:
an integrator of higher order for the velocity products, or a projection of the positions
after each substep, which would remove both.

The size limit is the velocity level's (``direct_max_rows``, counted over every row of the
impulse phase, the larger), checked before any body moves; above it the step returns minus the
rows (``direct_fallback`` takes it, or it raises). The counters (``World.direct_stats``) are
shared.
"""

from __future__ import annotations

import numpy as np

from .._core.jit import borrowing_kernel, cycles, inner_kernel, stage_kernel
from .._core.state import DYNAMIC
from ..constants import LINEAR_SLOP
from .contact_solver import bounce_speed, push_to_speed
from .accel_products import joint_products
from .direct import (FALLBACK_STEPS, ISLANDS, LARGEST_ISLAND, PIVOTS, REGULARISED,
                     awake_positions, awake_velocities, island_sizes, joint_rows, open_contacts)
from .direct_rows import (BIAS, BLOCK, BOUND, CAP, COUNT, EQUALITY, FRICTION, KIND, LINK,
                          NORMAL, ONE_SIDED, ROWS, SOFT, STORE, WIDTH, apply_rows, row_velocity,
                          store_contact_rows)
from .joint_solver import joint_pass
from .lengths import SLOP
from .solvers import impulse_caps
from .verbs import (DIRECT_COUNTS, DIRECT_DENSE, DIRECT_FALLBACK, DIRECT_ISLANDS, DIRECT_MAX_ROWS,
                    PREPARE, call_islands)
from .world_ref import borrow, borrow_column

LIMIT_MARGIN = LINEAR_SLOP
"""m (or rad): a one-sided joint row (limit, rope, pulley) is in the force phase while its
error ``C <= LIMIT_MARGIN``. Its stabilisation brings a loaded limit to ``C = 0``; with the
threshold at 0 rounding would drop a resting limit's row in one substep of many and let it fall
by ``g h^2`` (the step's mean force then 1/substeps off). Within the margin the row may push
only as much as ``Cddot >= -2 omega Cdot - omega^2 C`` asks, a soft catch of the last 5 mm
(or 0.3 degree)."""

RIGID, TARGET, LIMIT, CONTACT = 0, 1, 2, 3
"""What a row asks at the force level (see the module doc): a rigid equality (``Cddot`` with
Baumgarte's terms = 0), a velocity target (spring, soft weld, mouse, motors, motor joint: the
row's velocity at the end of the substep), a one-sided joint row (limits, ropes, pulley:
complementarity while active), a contact row."""


@inner_kernel
def _put(body, jacobian, data, geometry, r, a, b, dx, dy, rax, ray, rbx, rby, kind, cap):
    """Contact row ``r`` along direction ``(dx, dy)`` between the anchors ``r_a`` on body ``a``
    and ``r_b`` on body ``b``: ``Cdot = d . (v_pb - v_pa)``; its geometry kept for ``Jdot v``."""
    body[r, 0] = a
    body[r, 1] = b
    jacobian[r, 0, 0] = -dx
    jacobian[r, 0, 1] = -dy
    jacobian[r, 0, 2] = -(rax * dy - ray * dx)
    jacobian[r, 1, 0] = dx
    jacobian[r, 1, 1] = dy
    jacobian[r, 1, 2] = rbx * dy - rby * dx
    data[r, BIAS] = 0.0
    data[r, KIND] = kind
    data[r, BLOCK] = r
    data[r, CAP] = cap
    data[r, SOFT] = 0.0
    geometry[r, 0] = rax
    geometry[r, 1] = ray
    geometry[r, 2] = rbx
    geometry[r, 3] = rby
    geometry[r, 4] = dx
    geometry[r, 5] = dy


@inner_kernel
def _contact_product(geometry, body, v, w, r):
    """``Jdot v`` of contact row ``r`` (see the module doc), m/s^2."""
    a = body[r, 0]
    b = body[r, 1]
    rax = geometry[r, 0]
    ray = geometry[r, 1]
    rbx = geometry[r, 2]
    rby = geometry[r, 3]
    dx = geometry[r, 4]
    dy = geometry[r, 5]
    wa = w[a]
    wb = w[b]
    # centripetal: d . (w_a^2 r_a - w_b^2 r_b)
    x = dx * (wa * wa * rax - wb * wb * rbx) + dy * (wa * wa * ray - wb * wb * rby)
    # relative velocity of the anchors, v_pb - v_pa (m/s); (w_a x d) . (v_pb - v_pa)
    ux = v[b, 0] - wb * rby - v[a, 0] + wa * ray
    uy = v[b, 1] + wb * rbx - v[a, 1] - wa * rax
    return x + wa * (dx * uy - dy * ux)


@inner_kernel
def _solve_rows(active, body, jacobian, data, b_all, kind, inv_mass, inv_inertia, counts, table,
               impulse_only, out):
    """Solve the system of the rows with ``active`` set (right-hand sides ``b_all``, m/s) island
    by island into ``out`` (N s; inactive rows 0), by the velocity level's island solve
    (:func:`.direct.solve_islands`, called by address through ``table``, the world's verbs).
    ``impulse_only``: skip an island whose normal and one-sided rows all have
    ``b >= -IMPACT`` (zero impulses solve it, to that); a ``np.bool_`` at both calls, not a
    literal: Numba compiles a kernel once for each literal value it is called with (the two
    copies cost 5.6 s of compiling each while the island solve was compiled into them,
    ``warmup --all``, 2026-11-28)."""
    rows = active.shape[0]
    place = np.full(rows, -1, dtype=np.int64)
    n = 0
    for r in range(rows):
        if active[r]:
            place[r] = n
            n += 1
    sub_body = np.empty((n, 4), dtype=np.int64)
    sub_jacobian = np.empty((n, 4, 3))
    sub_data = np.empty((n, WIDTH))
    sub_b = np.empty(n)
    for r in range(rows):
        i = place[r]
        if i < 0:
            continue
        # element by element: a row assigned whole compiles Numba's shape-mismatch message
        # (raise_with_shape_context, 2.2 s for the two dtypes, measured) for shapes that match
        for c in range(4):
            sub_body[i, c] = body[r, c]
            for d in range(3):
                sub_jacobian[i, c, d] = jacobian[r, c, d]
        for c in range(WIDTH):
            sub_data[i, c] = data[r, c]
        # a soft block's rows (weld point, mouse) are active together: its first row's place
        head = place[int(data[r, BLOCK])]
        sub_data[i, BLOCK] = head if head >= 0 else i
        if int(data[r, KIND]) == FRICTION:
            sub_data[i, LINK] = place[int(data[r, LINK])]  # the normal row is active with it
        sub_b[i] = b_all[r]
    solved = np.zeros(n)
    call_islands(table[DIRECT_ISLANDS],
                 (sub_body, sub_jacobian, sub_data, sub_b, kind, inv_mass, inv_inertia, 0.0,
                  solved, counts, table[DIRECT_DENSE:DIRECT_DENSE + 1], impulse_only))
    for r in range(rows):
        out[r] = solved[place[r]] if place[r] >= 0 else 0.0


@borrowing_kernel
def _restitution(world, approach, first, threshold, pull, h, geometry, speed_cap):
    """``pgs``'s restitution (:func:`.contact_solver.apply_restitution`: point by point, on the
    points that approached faster than ``threshold`` and took an impulse) at the (sub)step whose
    impulse phase met the impact, with ``pgs``'s convention: the normal speed at the end of the
    (sub)step is :func:`.contact_solver.bounce_speed` of the approach it would have reached
    without contact forces, ``approach = J v + h J M^-1 F_ext`` (``pgs`` integrates gravity
    before it measures), under the row's constant normal acceleration ``pull / h`` (m/s^2), from
    the separation at the (sub)step's start (``geometry[:, 6]``, m; the positions have not moved
    yet, as in ``pgs``), with ``pgs``'s half kick ``-h/2``. The force phase adds ``pull`` after
    the impulse (a separating point takes no force), so the impulse aims at that speed minus
    ``pull``. ``first`` (N s) takes the impulses (:func:`.contact_solver.push_to_speed`). The
    stores are borrowed here (see :func:`.direct.open_contacts`)."""
    cs = borrow(world, "constraints")
    bodies = borrow(world, "bodies")
    r = 0
    for q in range(cs.count.shape[0]):
        e = cs.restitution[q]
        for j in range(cs.count[q]):
            row = r
            r += 2
            if e == 0.0 or approach[row] > -threshold or first[row] == 0.0:
                continue
            s = geometry[row, 6]
            target = bounce_speed(e, approach[row], pull[row] / h, -0.5 * h, s, s)
            first[row] = push_to_speed(cs, bodies, q, j, target - pull[row], first[row],
                                       speed_cap)


@borrowing_kernel
def _external(world, gx, gy, linear, angular):
    """The accelerations of the external forces and gravity, ``M^-1 F_ext`` (m/s^2 into
    ``linear``, rad/s^2 into ``angular``), of the awake dynamic bodies; the others' stay 0."""
    bodies = borrow(world, "bodies")
    for k in range(bodies.type.shape[0]):
        if bodies.type[k] == DYNAMIC and bodies.alive[k] and not bodies.asleep[k]:
            scale = bodies.gravity_scale[k]
            linear[k, 0] = scale * gx + bodies.inv_mass[k] * bodies.force[k, 0]
            linear[k, 1] = scale * gy + bodies.inv_mass[k] * bodies.force[k, 1]
            angular[k] = bodies.inv_inertia[k] * bodies.torque[k]


@inner_kernel
def _write_rows(world, touching, h, speed_cap, spin_cap, body, jacobian, data, geometry, error,
                role, touches, none):
    """The rows at the current in-step positions (``dp``, ``dq``): contact points (normal,
    friction; anchors and normal as prepared, the separation moved with the bodies), then every
    joint's rows from its type's ``direct`` export, asked with the substep ``h`` and a Baumgarte
    fraction of 1, so that a rigid or one-sided row's bias is ``C / h``; their errors ``C``
    (m or rad) and roles. The arrays it reads are borrowed here, column by column, not passed
    in: a store passed is every one of its arrays in the caller's IR (the level's compile
    shrank by 1.7 s of 23.4 with this, :func:`_solve_rows`' arrays and
    :func:`.accel_products.joint_products`' stores borrowed too, load 12.8), and a store
    borrowed whole counts a reference to each of its arrays on every call."""
    dp = borrow_column(world, "bodies", "dp")
    dq = borrow_column(world, "bodies", "dq")
    body_a = borrow_column(world, "constraints", "body_a")
    body_b = borrow_column(world, "constraints", "body_b")
    normal = borrow_column(world, "constraints", "normal")
    count = borrow_column(world, "constraints", "count")
    r_a = borrow_column(world, "constraints", "r_a")
    r_b = borrow_column(world, "constraints", "r_b")
    base_separation = borrow_column(world, "constraints", "base_separation")
    friction = borrow_column(world, "constraints", "friction")
    slop = borrow(world, "lengths")[SLOP]  # in the world's length unit
    r = np.int64(0)  # not the literal 0 (see direct.direct)
    for q in range(touching):
        a = body_a[q]
        b = body_b[q]
        nx = normal[q, 0]
        ny = normal[q, 1]
        ddx = dp[b, 0] - dp[a, 0]
        ddy = dp[b, 1] - dp[a, 1]
        for j in range(count[q]):
            rax = r_a[q, j, 0]
            ray = r_a[q, j, 1]
            rbx = r_b[q, j, 0]
            rby = r_b[q, j, 1]
            # the current gap, as the velocity level (and solve_contacts) read it
            gx = ddx + (dq[b, 0] * rbx - dq[b, 1] * rby) - (dq[a, 0] * rax - dq[a, 1] * ray)
            gy = ddy + (dq[b, 1] * rbx + dq[b, 0] * rby) - (dq[a, 1] * rax + dq[a, 0] * ray)
            s = base_separation[q, j] + gx * nx + gy * ny
            geometry[r, 6] = s  # m, for restitution
            # the kinds as np.int64: one compile of _put for both (a literal each: two)
            _put(body, jacobian, data, geometry, r, a, b, nx, ny, rax, ray, rbx, rby,
                 np.int64(NORMAL), speed_cap)
            _put(body, jacobian, data, geometry, r + 1, a, b, ny, -nx, rax, ray, rbx, rby,
                 np.int64(FRICTION), speed_cap)
            data[r + 1, BOUND] = friction[q]
            data[r + 1, LINK] = r
            error[r] = s + slop
            role[r] = CONTACT
            role[r + 1] = CONTACT
            touches[r] = s <= 0.0
            touches[r + 1] = s <= 0.0
            r += 2
    rows = joint_rows(world, np.int64(ROWS), r, h, 1.0, speed_cap, spin_cap, body, jacobian,
                      data, none)
    for k in range(r, rows):
        kind = int(data[k, KIND])
        error[k] = 0.0
        touches[k] = True
        if kind == ONE_SIDED:
            role[k] = LIMIT
            error[k] = h * data[k, BIAS]
            touches[k] = error[k] <= LIMIT_MARGIN
        elif kind == EQUALITY and data[k, SOFT] == 0.0:
            role[k] = RIGID
            error[k] = h * data[k, BIAS]
        else:  # a spring (soft equality) or a boxed row: a velocity target
            role[k] = TARGET


@stage_kernel
def direct_acceleration(world, order, dt, gx, gy, substeps, iterations, position_iterations,
                        warm_starting, contact_hertz, contact_damping_ratio, joint_hertz,
                        joint_damping_ratio, contact_speed, restitution_threshold,
                        max_linear_speed, baumgarte, velocity_tolerance, velocities):
    """One step of the force-based formulation (see the module doc), in ``substeps`` substeps.
    Returns ``dt``; minus the rows of the largest island when that is above the limit, without
    having changed any body."""
    # Columns, not stores (see direct.direct): the body, contact and constraint stores borrowed
    # here were ~4,000 of this kernel's 18,000 instructions of IR at the borrow and the returns,
    # and ~1,800 more at the two calls passed them (benchmarks/ir_lines.py, 2026-12-01).
    kind = borrow_column(world, "bodies", "type")
    inv_mass = borrow_column(world, "bodies", "inv_mass")
    inv_inertia = borrow_column(world, "bodies", "inv_inertia")
    v = borrow_column(world, "bodies", "v")
    w = borrow_column(world, "bodies", "w")
    count = borrow_column(world, "contacts", "count")
    table = borrow(world, "verbs")
    counts = table[DIRECT_COUNTS:]
    h = dt / substeps
    inv_h = 1.0 / h
    speed_cap, spin_cap = impulse_caps(max_linear_speed, h)
    omega = baumgarte * inv_h  # 1/s: alpha = beta = omega (critical damping)
    body_count = kind.shape[0]

    # 1. The rows at the step's start, and the size check before anything moves.
    joint_pass(world, PREPARE, h, True, False, 0.0, 1.0, 0.0, 0.0, speed_cap, spin_cap)
    touching = order.shape[0]
    contact_rows = np.int64(0)  # not the literal 0 (see direct.direct)
    for q in range(touching):
        contact_rows += 2 * count[order[q]]
    none = np.zeros(0)
    rows = joint_rows(world, np.int64(COUNT), contact_rows, h, 1.0, speed_cap, spin_cap,
                      np.zeros((0, 4), dtype=np.int64), np.zeros((0, 4, 3)),
                      np.zeros((0, WIDTH)), none)
    body = np.full((rows, 4), -1, dtype=np.int64)
    jacobian = np.zeros((rows, 4, 3))
    data = np.zeros((rows, WIDTH))
    geometry = np.zeros((contact_rows, 7))  # _put's six columns, the separation
    error = np.zeros(rows)  # C: m or rad
    role = np.zeros(rows, dtype=np.int64)
    touches = np.ones(rows, dtype=np.bool_)  # in the force phase
    open_contacts(world, order)
    borrow(world, "clock")[3] = cycles()
    _write_rows(world, touching, h, speed_cap, spin_cap, body, jacobian, data, geometry, error,
                role, touches, none)
    # (every row counts: the impulse phase's system is the larger)
    largest, islands = island_sizes(body, kind)
    counts[PIVOTS] = 0
    counts[REGULARISED] = 0
    if largest > table[DIRECT_MAX_ROWS]:
        counts[LARGEST_ISLAND] = largest
        counts[ISLANDS] = islands
        if table[DIRECT_FALLBACK] != 0:
            counts[FALLBACK_STEPS] += 1
        return -float(largest)

    linear = np.zeros((body_count, 2))  # M^-1 F_ext: m/s^2
    angular = np.zeros(body_count)  # rad/s^2
    _external(world, gx, gy, linear, angular)
    impulsive = np.ones(rows, dtype=np.bool_)  # in the impulse phase
    b_all = np.zeros(rows)
    product = np.zeros(rows)  # Jdot v: m/s^2 or rad/s^2
    approach = np.zeros(rows)
    pull = np.zeros(rows)
    first = np.zeros(rows)
    second = np.zeros(rows)
    total = np.zeros(rows)  # N s over the step, both phases
    for sub in range(substeps):
        if sub > 0:
            _write_rows(world, touching, h, speed_cap, spin_cap, body, jacobian, data, geometry,
                        error, role, touches, none)
        # 2. Impulse phase on the substep's starting velocities: contacts to J v (+ C / h above
        #    the rest depth), joint limits likewise (+ C / h while open), rigid joint rows
        #    unchanged (right-hand side 0); no finite-force row (spring, motor) takes part. Then
        #    restitution.
        for r in range(rows):
            b_all[r] = 0.0
            impulsive[r] = role[r] != TARGET
            if role[r] == RIGID:
                continue
            speed = row_velocity(body, jacobian, r, v, w, 0.0)
            if role[r] == LIMIT:
                b_all[r] = speed + max(error[r], 0.0) * inv_h
            elif role[r] == CONTACT:
                b_all[r] = speed
                if int(data[r, KIND]) == NORMAL:
                    pull[r] = h * row_velocity(body, jacobian, r, linear, angular, 0.0)
                    approach[r] = speed + pull[r]
                    if error[r] > 0.0:
                        b_all[r] += error[r] * inv_h
        _solve_rows(impulsive, body, jacobian, data, b_all, kind, inv_mass, inv_inertia, counts,
                    table, np.bool_(True), first)
        apply_rows(body, jacobian, first, kind, inv_mass, inv_inertia, v, w)
        if touching > 0:
            _restitution(world, approach, first, restitution_threshold, pull, h, geometry,
                         speed_cap)
        # 3. Force phase: right-hand sides h (J M^-1 F_ext + Jdot v + 2 omega J v + omega^2 C)
        #    for rigid, contact normal and active limit rows; J v + h (J M^-1 F_ext + Jdot v)
        #    (+ the row's own bias: a spring's rate times C, a motor's -speed) for friction and
        #    the velocity targets; unknowns f h.
        for r in range(contact_rows):
            product[r] = _contact_product(geometry, body, v, w, r)
        joint_products(world, product, contact_rows)
        for r in range(rows):
            if not touches[r]:
                b_all[r] = 0.0
                continue
            x = row_velocity(body, jacobian, r, linear, angular, 0.0) + product[r]
            speed = row_velocity(body, jacobian, r, v, w, 0.0)
            if role[r] == TARGET:
                b_all[r] = h * x + speed + data[r, BIAS]
            elif int(data[r, KIND]) == FRICTION:
                b_all[r] = h * x + speed
            else:
                b_all[r] = h * (x + 2.0 * omega * speed + omega * omega * error[r])
        _solve_rows(touches, body, jacobian, data, b_all, kind, inv_mass, inv_inertia, counts,
                    table, np.bool_(False), second)
        awake_velocities(world, gx, gy, h)
        apply_rows(body, jacobian, second, kind, inv_mass, inv_inertia, v, w)
        awake_positions(world, h, max_linear_speed)
        for r in range(rows):
            total[r] += first[r] + second[r]

    # 4. The impulses where pgs keeps them (N s over the step: / dt is the mean force).
    store_contact_rows(world, touching, total)
    joint_rows(world, np.int64(STORE), contact_rows, h, 1.0, speed_cap, spin_cap, body, jacobian,
               data, total)
    return dt


ENTRIES = {"direct_acceleration": direct_acceleration}
"""The entry kernel of this module (``solver="direct"`` with ``direct_level="acceleration"``)."""
