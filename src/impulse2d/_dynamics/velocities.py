"""The velocities of a constraint's two bodies, read into locals and written back.

Every solve loop (the contacts' and each joint type's) works on one pair of bodies at a time:
it reads their linear and angular velocities into six locals, applies its rows to those, and
writes them back once. These helpers are inlined into the loops, so the locals stay scalars
the compiler can keep in registers.
"""

from __future__ import annotations

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
