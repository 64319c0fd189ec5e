"""The velocities of a constraint's two bodies, read into locals and written back.

Every solve loop (the contacts' and each joint type's) works on one pair of bodies at a time:
it reads their linear and angular velocities into six locals, applies its rows to those, and
writes them back once. These helpers are inlined into the loops, so the locals stay scalars
the compiler can keep in registers.
"""

from __future__ import annotations

import numpy as np

from .._core.jit import inline_kernel


@inline_kernel
def load_pair(v, w, a, b):
    """``(vax, vay, wa, vbx, vby, wb)``: body rows ``a`` and ``b`` of ``v`` (m/s) and ``w``
    (rad/s)."""
    return v[a, 0], v[a, 1], w[a], v[b, 0], v[b, 1], w[b]


@inline_kernel
def store_pair(v, w, a, b, vax, vay, wa, vbx, vby, wb):
    """Write the velocities of :func:`load_pair` back to body rows ``a`` and ``b``."""
    v[a, 0] = vax
    v[a, 1] = vay
    w[a] = wa
    v[b, 0] = vbx
    v[b, 1] = vby
    w[b] = wb


@inline_kernel
def load_flat_pair(v, w, a, b):
    """:func:`load_pair` from ``v`` read flat (body ``i``'s ``(vx, vy)`` at ``2 i``: the row
    passes' :func:`.lane_layout.flat`), ``a`` and ``b`` unsigned (``np.uint64``: no
    wrap-around select)."""
    one = np.uint64(1)
    two = np.uint64(2)
    return v[two * a], v[two * a + one], w[a], v[two * b], v[two * b + one], w[b]


@inline_kernel
def store_flat_pair(v, w, a, b, velocities):
    """Write ``velocities`` (:func:`load_flat_pair`'s six) back to bodies ``a`` and ``b`` of
    the flat ``v`` and of ``w``."""
    one = np.uint64(1)
    two = np.uint64(2)
    vax, vay, wa, vbx, vby, wb = velocities
    v[two * a] = vax
    v[two * a + one] = vay
    w[a] = wa
    v[two * b] = vbx
    v[two * b + one] = vby
    w[b] = wb
