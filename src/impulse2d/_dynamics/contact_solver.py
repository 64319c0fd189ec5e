"""The contact constraint: non-penetration with Coulomb friction, solved by sequential impulses.

Maths, per manifold point with unit normal n (A to B), tangent t = (n_y, -n_x), and anchors
r_a, r_b from each centre of mass::

    C      = separation (m; negative = overlap)            must stay >= 0
    Cdot   = n . (v_b + w_b x r_b - v_a - w_a x r_a)       = J v
    J      = [-n, -(r_a x n), n, (r_b x n)]
    K      = 1/m_a + 1/m_b + (r_a x n)^2 / I_a + (r_b x n)^2 / I_b   (effective mass 1/K)

One iteration computes ``d_lambda = -(1/K) (Cdot + bias)`` and clamps the *accumulated* impulse
``lambda_n >= 0`` (contacts push, never pull), then applies ``P = d_lambda n`` to both bodies;
friction does the same along t with ``|lambda_t| <= mu lambda_n`` (Catto, GDC 2005/2006).

The bias says how fast the solver may close or must open the gap:

* speculative point (C > 0): ``bias = C / h`` — approach is allowed exactly up to contact;
* ``pgs``: Baumgarte, ``bias = max(beta/h * min(0, C + slop), -contact_speed)``;
* ``soft_step``: a soft spring, ``bias = max(bias_rate C, -contact_speed)`` with the mass and
  impulse scales of :mod:`softness`, and a rigid "relax" pass without bias afterwards.

Within a step the separation is updated from the bodies' accumulated deltas without re-running
the narrowphase (Box2D v3 / Solver2D)::

    C = base_separation + n . (dp_b - dp_a + R(dq_b) r_b - R(dq_a) r_a),
    base_separation = separation - n . (r_b - r_a)

Every verb loops over all contacts in key order; static bodies have zero inverse mass and
velocity, so kernels never branch on body type.
"""

from __future__ import annotations

import numpy as np

from .._core.jit import kernel
from .._core.state import DYNAMIC


@kernel
def prepare_contacts(contacts, bodies, warm_starting, soft_bias_rate, soft_mass_scale,
                     soft_impulse_scale, static_bias_rate, static_mass_scale, static_impulse_scale):
    """Anchors, effective masses, softness and pre-solve approach speed of every point.

    Contacts touching a body that contact cannot move (static or kinematic) use the stiffer
    ``static_*`` softness: the other side cannot give way, so the contact may be stiffer without
    oscillating (Box2D v3 doubles the hertz).
    """
    for k in range(contacts.key.shape[0]):
        count = contacts.count[k]
        if count == 0:
            continue
        a = contacts.body_a[k]
        b = contacts.body_b[k]
        m_a = bodies.inv_mass[a]
        m_b = bodies.inv_mass[b]
        i_a = bodies.inv_inertia[a]
        i_b = bodies.inv_inertia[b]
        if bodies.type[a] != DYNAMIC or bodies.type[b] != DYNAMIC:
            contacts.softness[k, 0] = static_bias_rate
            contacts.softness[k, 1] = static_mass_scale
            contacts.softness[k, 2] = static_impulse_scale
        else:
            contacts.softness[k, 0] = soft_bias_rate
            contacts.softness[k, 1] = soft_mass_scale
            contacts.softness[k, 2] = soft_impulse_scale
        nx = contacts.normal[k, 0]
        ny = contacts.normal[k, 1]
        tx = ny
        ty = -nx
        vax = bodies.v[a, 0]
        vay = bodies.v[a, 1]
        wa = bodies.w[a]
        vbx = bodies.v[b, 0]
        vby = bodies.v[b, 1]
        wb = bodies.w[b]
        for j in range(count):
            if not warm_starting:
                contacts.normal_impulse[k, j] = 0.0
                contacts.tangent_impulse[k, j] = 0.0
            rax = contacts.point[k, j, 0] - bodies.center[a, 0]
            ray = contacts.point[k, j, 1] - bodies.center[a, 1]
            rbx = contacts.point[k, j, 0] - bodies.center[b, 0]
            rby = contacts.point[k, j, 1] - bodies.center[b, 1]
            contacts.r_a[k, j, 0] = rax
            contacts.r_a[k, j, 1] = ray
            contacts.r_b[k, j, 0] = rbx
            contacts.r_b[k, j, 1] = rby
            contacts.base_separation[k, j] = (
                contacts.separation[k, j] - ((rbx - rax) * nx + (rby - ray) * ny))
            rn_a = rax * ny - ray * nx
            rn_b = rbx * ny - rby * nx
            k_normal = m_a + m_b + i_a * rn_a * rn_a + i_b * rn_b * rn_b
            contacts.normal_mass[k, j] = 1.0 / k_normal if k_normal > 0.0 else 0.0
            rt_a = rax * ty - ray * tx
            rt_b = rbx * ty - rby * tx
            k_tangent = m_a + m_b + i_a * rt_a * rt_a + i_b * rt_b * rt_b
            contacts.tangent_mass[k, j] = 1.0 / k_tangent if k_tangent > 0.0 else 0.0
            dvx = vbx - wb * rby - vax + wa * ray
            dvy = vby + wb * rbx - vay - wa * rax
            contacts.relative_velocity[k, j] = dvx * nx + dvy * ny


@kernel
def warm_start_contacts(contacts, bodies):
    """Apply last step's accumulated impulses, so the iterations start near the answer."""
    v = bodies.v
    w = bodies.w
    for k in range(contacts.key.shape[0]):
        count = contacts.count[k]
        if count == 0:
            continue
        a = contacts.body_a[k]
        b = contacts.body_b[k]
        m_a = bodies.inv_mass[a]
        m_b = bodies.inv_mass[b]
        i_a = bodies.inv_inertia[a]
        i_b = bodies.inv_inertia[b]
        nx = contacts.normal[k, 0]
        ny = contacts.normal[k, 1]
        for j in range(count):
            ln = contacts.normal_impulse[k, j]
            lt = contacts.tangent_impulse[k, j]
            px = ln * nx + lt * ny
            py = ln * ny - lt * nx
            rax = contacts.r_a[k, j, 0]
            ray = contacts.r_a[k, j, 1]
            rbx = contacts.r_b[k, j, 0]
            rby = contacts.r_b[k, j, 1]
            v[a, 0] -= m_a * px
            v[a, 1] -= m_a * py
            w[a] -= i_a * (rax * py - ray * px)
            v[b, 0] += m_b * px
            v[b, 1] += m_b * py
            w[b] += i_b * (rbx * py - rby * px)


@kernel
def solve_contacts(contacts, bodies, inv_h, use_bias, soft, baumgarte, linear_slop, contact_speed):
    """One Gauss-Seidel sweep over every contact: friction rows, then normal rows.

    ``soft`` selects the soft-step bias (per-contact softness) over Baumgarte's. With
    ``use_bias`` false this is the relax pass: rigid, and only speculative gaps are honoured.
    Friction goes first so that non-penetration, the more important row, is solved last
    (Box2D v2.x).
    """
    v = bodies.v
    w = bodies.w
    dp = bodies.dp
    dq = bodies.dq
    for k in range(contacts.key.shape[0]):
        count = contacts.count[k]
        if count == 0:
            continue
        a = contacts.body_a[k]
        b = contacts.body_b[k]
        m_a = bodies.inv_mass[a]
        m_b = bodies.inv_mass[b]
        i_a = bodies.inv_inertia[a]
        i_b = bodies.inv_inertia[b]
        vax = v[a, 0]
        vay = v[a, 1]
        wa = w[a]
        vbx = v[b, 0]
        vby = v[b, 1]
        wb = w[b]
        nx = contacts.normal[k, 0]
        ny = contacts.normal[k, 1]
        tx = ny
        ty = -nx
        friction = contacts.friction[k]

        for j in range(count):
            rax = contacts.r_a[k, j, 0]
            ray = contacts.r_a[k, j, 1]
            rbx = contacts.r_b[k, j, 0]
            rby = contacts.r_b[k, j, 1]
            dvx = vbx - wb * rby - vax + wa * ray
            dvy = vby + wb * rbx - vay - wa * rax
            vt = dvx * tx + dvy * ty
            impulse = -contacts.tangent_mass[k, j] * vt
            limit = friction * contacts.normal_impulse[k, j]
            old = contacts.tangent_impulse[k, j]
            total = min(max(old + impulse, -limit), limit)
            contacts.tangent_impulse[k, j] = total
            impulse = total - old
            px = impulse * tx
            py = impulse * ty
            vax -= m_a * px
            vay -= m_a * py
            wa -= i_a * (rax * py - ray * px)
            vbx += m_b * px
            vby += m_b * py
            wb += i_b * (rbx * py - rby * px)

        # Rotations of the fixed anchors by the bodies' in-step rotation, for the current gap.
        ca = dq[a, 0]
        sa = dq[a, 1]
        cb = dq[b, 0]
        sb = dq[b, 1]
        ddx = dp[b, 0] - dp[a, 0]
        ddy = dp[b, 1] - dp[a, 1]
        for j in range(count):
            rax = contacts.r_a[k, j, 0]
            ray = contacts.r_a[k, j, 1]
            rbx = contacts.r_b[k, j, 0]
            rby = contacts.r_b[k, j, 1]
            gx = ddx + (cb * rbx - sb * rby) - (ca * rax - sa * ray)
            gy = ddy + (sb * rbx + cb * rby) - (sa * rax + ca * ray)
            s = contacts.base_separation[k, j] + gx * nx + gy * ny

            mass_scale = 1.0
            impulse_scale = 0.0
            if s > 0.0:
                bias = s * inv_h
            elif not use_bias:
                bias = 0.0
            elif soft:
                bias = max(contacts.softness[k, 0] * s, -contact_speed)
                mass_scale = contacts.softness[k, 1]
                impulse_scale = contacts.softness[k, 2]
            else:
                bias = max(baumgarte * inv_h * min(0.0, s + linear_slop), -contact_speed)

            dvx = vbx - wb * rby - vax + wa * ray
            dvy = vby + wb * rbx - vay - wa * rax
            vn = dvx * nx + dvy * ny
            old = contacts.normal_impulse[k, j]
            impulse = -contacts.normal_mass[k, j] * mass_scale * (vn + bias) - impulse_scale * old
            total = max(old + impulse, 0.0)
            contacts.normal_impulse[k, j] = total
            if total > contacts.max_normal_impulse[k, j]:
                contacts.max_normal_impulse[k, j] = total
            impulse = total - old
            px = impulse * nx
            py = impulse * ny
            vax -= m_a * px
            vay -= m_a * py
            wa -= i_a * (rax * py - ray * px)
            vbx += m_b * px
            vby += m_b * py
            wb += i_b * (rbx * py - rby * px)

        v[a, 0] = vax
        v[a, 1] = vay
        w[a] = wa
        v[b, 0] = vbx
        v[b, 1] = vby
        w[b] = wb


@kernel
def apply_restitution(contacts, bodies, threshold):
    """Bounce: drive the normal speed to ``-e`` times the approach speed measured before solving.

    Run once per step after the velocity solve (Box2D v3). Only points that approached faster
    than ``threshold`` and actually pushed this step are affected, so resting contacts do not
    jitter and speculative points that never touched do not bounce.
    """
    v = bodies.v
    w = bodies.w
    for k in range(contacts.key.shape[0]):
        count = contacts.count[k]
        e = contacts.restitution[k]
        if count == 0 or e == 0.0:
            continue
        a = contacts.body_a[k]
        b = contacts.body_b[k]
        m_a = bodies.inv_mass[a]
        m_b = bodies.inv_mass[b]
        i_a = bodies.inv_inertia[a]
        i_b = bodies.inv_inertia[b]
        nx = contacts.normal[k, 0]
        ny = contacts.normal[k, 1]
        for j in range(count):
            approach = contacts.relative_velocity[k, j]
            if approach > -threshold or contacts.max_normal_impulse[k, j] == 0.0:
                continue
            rax = contacts.r_a[k, j, 0]
            ray = contacts.r_a[k, j, 1]
            rbx = contacts.r_b[k, j, 0]
            rby = contacts.r_b[k, j, 1]
            dvx = v[b, 0] - w[b] * rby - v[a, 0] + w[a] * ray
            dvy = v[b, 1] + w[b] * rbx - v[a, 1] - w[a] * rax
            vn = dvx * nx + dvy * ny
            old = contacts.normal_impulse[k, j]
            impulse = -contacts.normal_mass[k, j] * (vn + e * approach)
            total = max(old + impulse, 0.0)
            contacts.normal_impulse[k, j] = total
            if total > contacts.max_normal_impulse[k, j]:
                contacts.max_normal_impulse[k, j] = total
            impulse = total - old
            contacts.total_normal_impulse[k, j] += impulse
            px = impulse * nx
            py = impulse * ny
            v[a, 0] -= m_a * px
            v[a, 1] -= m_a * py
            w[a] -= i_a * (rax * py - ray * px)
            v[b, 0] += m_b * px
            v[b, 1] += m_b * py
            w[b] += i_b * (rbx * py - rby * px)


def accumulate_impulses(contacts) -> None:
    """Add the (sub)step's accumulated impulses to the step totals users read.

    Warm-start memory is per (sub)step: with n substeps each holds 1/n of the step's impulse.
    """
    np.add(contacts.total_normal_impulse, contacts.normal_impulse, out=contacts.total_normal_impulse)
    np.add(contacts.total_tangent_impulse, contacts.tangent_impulse, out=contacts.total_tangent_impulse)
