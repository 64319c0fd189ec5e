"""The rows of the ``direct`` solver's global system: their layout, and the helper that writes one.

Every constraint the ``direct`` solver (:mod:`.direct`) solves is a list of scalar rows, each
with up to four bodies (a gear couples four; contacts and the other joints two, the mouse joint
one), written into three arrays the solver allocates each step::

    bodies  (R, 4) int64      the body of each slot, -1 for an unused slot
    jacobian (R, 4, 3) f8     J of each slot: (linear x, linear y, angular), so that the row's
                              velocity is  Cdot = sum_slots J . (v_x, v_y, w)
    data    (R, WIDTH) f8     the columns below

and a fourth, ``impulse`` (R,) N s, that the solver fills with the solution and each joint type
reads back (:data:`STORE`). A row asks, with ``lambda`` its impulse and ``w`` its velocity after
the solve (``w = Cdot + bias + soft * K lambda``, K the row's block of ``J M^-1 J^T``):

* :data:`EQUALITY`: ``w = 0`` (a point, a weld, a rigid distance, a gear, a spring's soft row);
* :data:`ONE_SIDED`: ``lambda >= 0``, ``w >= 0``, ``lambda w = 0`` (limits, ropes, the pulley);
* :data:`BOXED`: ``|lambda| <= bound``, and ``w = 0`` inside the box, ``w <= 0`` at the upper
  bound and ``w >= 0`` at the lower one (motors, the mouse and motor joints' force limits);
* :data:`NORMAL`: a contact's normal row, one-sided;
* :data:`FRICTION`: a contact's tangent row, boxed by ``mu`` times the impulse of its normal row
  (column :data:`LINK`).

The bias is the one the ``pgs`` solver uses for the same row (Baumgarte ``beta / h`` times the
error for rigid rows, ``C / h`` for an open limit, the joint's own spring bias for a soft row,
``-speed`` for a motor), so that the two solvers solve the same system and differ only in how
exactly. Soft rows (Catto, "Soft Constraints", GDC 2011): ``pgs`` iterates
``d_lambda = -mass_scale K^-1 (Cdot + bias) - impulse_scale lambda``, whose fixed point is
``Cdot + bias + (impulse_scale / mass_scale) K lambda = 0``; column :data:`SOFT` holds
``impulse_scale / mass_scale`` (``1 / a2`` of :mod:`.softness`), and rows of one soft block (the
weld's and the mouse joint's two point rows) share column :data:`BLOCK`, the index of the block's
first row, so that the whole 2x2 block of K is scaled as ``pgs``'s 2x2 solve does.
"""

from __future__ import annotations

from .._core.jit import borrowing_kernel, inline_kernel
from .._core.state import DYNAMIC
from .lengths import SLOP
from .positions import contact_gap
from .world_ref import borrow, borrow_column

EQUALITY, ONE_SIDED, BOXED, NORMAL, FRICTION = 0, 1, 2, 3, 4
"""Row kinds (column :data:`KIND`)."""

BIAS, KIND, BOUND, LINK, SOFT, BLOCK, CAP = range(7)
"""Columns of the row data: the velocity bias (m/s or rad/s); the kind; the box's bound (N s,
BOXED) or the friction coefficient (FRICTION); the normal row of a friction row; the softness
``impulse_scale / mass_scale`` (0 = rigid); the first row of the row's soft block; the speed
budget (m/s or rad/s) that bounds the impulse, as :func:`~.solvers.impulse_caps`."""

WIDTH = 8
"""Columns of the row data (one spare)."""

COUNT, ROWS, STORE = 0, 1, 2
"""What a joint type's row export is asked (:data:`~.verbs.DIRECT_ROWS_SIGNATURE`): how many
rows its joints have now, to write them from row ``start``, or to read their solved impulses
back from row ``start`` into the joint store. Each returns the number of rows it covered."""


@inline_kernel
def put_row(body, jacobian, data, r, a, b, jax, jay, jaw, jbx, jby, jbw, bias, kind, bound,
            soft, block, cap):
    """Write row ``r`` between bodies ``a`` and ``b`` (``b`` -1: one body) with Jacobian
    ``(jax, jay, jaw)`` on A and ``(jbx, jby, jbw)`` on B and the given columns."""
    body[r, 0] = a
    body[r, 1] = b
    body[r, 2] = -1
    body[r, 3] = -1
    jacobian[r, 0, 0] = jax
    jacobian[r, 0, 1] = jay
    jacobian[r, 0, 2] = jaw
    jacobian[r, 1, 0] = jbx
    jacobian[r, 1, 1] = jby
    jacobian[r, 1, 2] = jbw
    for s in range(2, 4):
        for k in range(3):
            jacobian[r, s, k] = 0.0
    data[r, BIAS] = bias
    data[r, KIND] = kind
    data[r, BOUND] = bound
    data[r, LINK] = -1.0
    data[r, SOFT] = soft
    data[r, BLOCK] = r if block < 0 else block
    data[r, CAP] = cap
    data[r, WIDTH - 1] = 0.0


@inline_kernel
def spring_softness(soft_row):
    """Column :data:`SOFT` of a spring whose ``(bias_rate, mass_scale, impulse_scale)`` are
    ``soft_row`` (:func:`~.softness.soft_coefficients`): ``impulse_scale / mass_scale``; 0 for
    hertz 0 (rigid: mass scale 1, impulse scale 0)."""
    if soft_row[1] > 0.0:
        return soft_row[2] / soft_row[1]
    return 0.0


@inline_kernel
def limit_bias(c, baumgarte, inv_h):
    """The ``pgs`` bias of a one-sided row with error ``c`` (:func:`.joints.rows.inequality_bias`
    with the position bias on, rigid): ``c / h`` while open (speculative), Baumgarte's
    ``beta c / h`` once violated."""
    if c > 0.0:
        return c * inv_h
    return baumgarte * inv_h * c
@borrowing_kernel
def write_contact_rows(world, touching, inv_h, baumgarte, contact_speed, speed_cap, body,
                       jacobian, data):
    """Write the rows of the first ``touching`` contact constraints from row 0: per point
    a normal row (:data:`NORMAL`) and its friction row (:data:`FRICTION`), with ``pgs``'s bias
    at the current gap ``s`` (:func:`~.positions.contact_gap`): ``s / h`` for a speculative
    point, Baumgarte's ``max(beta / h min(0, s + slop), -contact_speed)`` otherwise (``beta`` 0:
    the relax rows of the soft step and the NGS solvers; ``slop`` in the world's length unit).
    Returns the rows written. The world's stores are borrowed here, not passed: passed from a
    kernel that counts references, a store is every one of its arrays counted in the caller
    (this kernel's, :func:`store_contact_rows`' and :func:`store_contact_biases`' callers: the
    direct levels and the diagnostics)."""
    cs = borrow(world, "constraints")
    dp = borrow_column(world, "bodies", "dp")
    dq = borrow_column(world, "bodies", "dq")
    slop = borrow(world, "lengths")[SLOP]
    r = 0
    for q in range(touching):
        a = cs.body_a[q]
        b = cs.body_b[q]
        nx = cs.normal[q, 0]
        ny = cs.normal[q, 1]
        tx = ny
        ty = -nx
        for j in range(cs.count[q]):
            rax = cs.r_a[q, j, 0]
            ray = cs.r_a[q, j, 1]
            rbx = cs.r_b[q, j, 0]
            rby = cs.r_b[q, j, 1]
            s = contact_gap(cs, q, j, dp, dq)
            if s > 0.0:
                bias = s * inv_h
            else:
                bias = max(baumgarte * inv_h * min(0.0, s + slop), -contact_speed)
            put_row(body, jacobian, data, r, a, b, -nx, -ny, -(rax * ny - ray * nx), nx, ny,
                    rbx * ny - rby * nx, bias, NORMAL, 0.0, 0.0, -1, speed_cap)
            put_row(body, jacobian, data, r + 1, a, b, -tx, -ty, -(rax * ty - ray * tx), tx, ty,
                    rbx * ty - rby * tx, 0.0, FRICTION, cs.friction[q], 0.0, -1, speed_cap)
            data[r + 1, LINK] = r
            r += 2
    return r


@borrowing_kernel
def row_velocity(body, jacobian, r, v, w, x):
    """``x + J v`` of row ``r`` at the velocities ``v``, ``w`` (m/s or rad/s; ``x``: 0, or the
    row's bias, added first). Called, not inlined: its four inlined copies were 3,300 of the
    acceleration level's 10,700 instructions of IR (``benchmarks/ir_lines.py``, 2026-12-01);
    LLVM, which links it into each caller, inlines it there (neither level's object code has
    a call of it)."""
    for s in range(4):
        k = body[r, s]
        if k >= 0:
            x += jacobian[r, s, 0] * v[k, 0] + jacobian[r, s, 1] * v[k, 1] + jacobian[r, s, 2] * w[k]
    return x


@borrowing_kernel
def apply_rows(body, jacobian, impulse, kind, inv_mass, inv_inertia, v, w):
    """``v += M^-1 J^T impulse`` on the dynamic bodies (``v``, ``w``: the bodies' velocities
    or a copy of them)."""
    for r in range(impulse.shape[0]):
        x = impulse[r]
        if x == 0.0:
            continue
        for s in range(4):
            k = body[r, s]
            if k >= 0 and kind[k] == DYNAMIC:
                v[k, 0] += inv_mass[k] * jacobian[r, s, 0] * x
                v[k, 1] += inv_mass[k] * jacobian[r, s, 1] * x
                w[k] += inv_inertia[k] * jacobian[r, s, 2] * x


@borrowing_kernel
def store_contact_rows(world, touching, impulse):
    """Read the contact rows' impulses (as :func:`write_contact_rows` laid them out) into the
    first ``touching`` constraints, where ``pgs`` keeps its accumulated ones (the step's totals
    too: ``world.contacts`` and the warm start of any solver the world switches to)."""
    cs = borrow(world, "constraints")
    r = 0
    for q in range(touching):
        for j in range(2):
            cs.normal_impulse[q, j] = 0.0
            cs.tangent_impulse[q, j] = 0.0
            cs.max_normal_impulse[q, j] = 0.0
            cs.total_normal_impulse[q, j] = 0.0
            cs.total_tangent_impulse[q, j] = 0.0
            cs.unclamped[q, j, 0] = 0.0
            cs.unclamped[q, j, 1] = 0.0
        for j in range(cs.count[q]):
            cs.normal_impulse[q, j] = impulse[r]
            cs.tangent_impulse[q, j] = impulse[r + 1]
            cs.max_normal_impulse[q, j] = impulse[r]
            cs.total_normal_impulse[q, j] = impulse[r]
            cs.total_tangent_impulse[q, j] = impulse[r + 1]
            # an exact answer, not clamped (world.constraint_rows())
            cs.unclamped[q, j, 0] = impulse[r]
            cs.unclamped[q, j, 1] = impulse[r + 1]
            r += 2
    return r


@borrowing_kernel
def store_contact_biases(world, touching, data):
    """Keep each contact normal row's bias (as :func:`write_contact_rows` laid the rows out)
    in the first ``touching`` constraints, where the iterative solvers keep theirs: what
    ``world.constraint_rows()`` reports."""
    cs = borrow(world, "constraints")
    r = 0
    for q in range(touching):
        for j in range(cs.count[q]):
            cs.bias[q, j] = data[r, BIAS]
            r += 2
