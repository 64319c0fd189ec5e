"""Soft-constraint coefficients from a stiffness (hertz) and a damping ratio.

A soft constraint behaves like a damped spring of natural frequency f and damping ratio zeta,
using the constraint's own effective mass as the spring mass, so only (f, zeta) are tuned and
the response is independent of the masses involved (Catto, "Soft Constraints", GDC 2011; the
mass-independent form below is Ross Nordby's, as used by Box2D v3 and Solver2D).

With omega = 2 pi f and time step h, implicit Euler on the spring gives::

    a1 = 2 zeta + h omega,  a2 = h omega a1,  a3 = 1 / (1 + a2)
    bias_rate     = omega / a1      (1/s: fraction of the error C removed per second)
    mass_scale    = a2 a3           (how much of the rigid impulse is applied)
    impulse_scale = a3              (how much the accumulated impulse leaks each iteration)

and one solver iteration applies
``d_lambda = -m_eff (mass_scale (Cdot + bias_rate C)) - impulse_scale lambda``.
f = 0 means "not a spring": the constraint is rigid with no position bias.
"""

from __future__ import annotations

import math
from .._core.jit import inner_kernel


@inner_kernel
def soft_coefficients(hertz, damping_ratio, h):
    """Coefficients ``(bias_rate, mass_scale, impulse_scale)`` for a spring of ``hertz`` and
    ``damping_ratio`` stepped with ``h`` seconds."""
    if hertz == 0.0:
        return 0.0, 1.0, 0.0
    omega = 2.0 * math.pi * hertz
    a1 = 2.0 * damping_ratio + h * omega
    a2 = h * omega * a1
    a3 = 1.0 / (1.0 + a2)
    return omega / a1, a2 * a3, a3
