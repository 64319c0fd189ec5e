"""Helpers shared by the joint rows (scalars in, scalars out, so calls cost nothing)."""

from __future__ import annotations

from ..._core.jit import kernel


@kernel
def inequality_bias(c, use_bias, soft, bias_rate, mass_scale, impulse_scale, baumgarte, inv_h):
    """``(bias, mass_scale, impulse_scale)`` of a one-sided row (limit) with error ``c``.

    While the row is open (``c > 0``) it is speculative: the solver may close the gap this
    (sub)step but no more, ``bias = c / h``. Once violated it is pushed back softly (soft step),
    with Baumgarte's ``beta c / h`` (pgs), or not at all in the relax pass.
    """
    if c > 0.0:
        return c * inv_h, 1.0, 0.0
    if not use_bias:
        return 0.0, 1.0, 0.0
    if soft:
        return bias_rate * c, mass_scale, impulse_scale
    return baumgarte * inv_h * c, 1.0, 0.0
