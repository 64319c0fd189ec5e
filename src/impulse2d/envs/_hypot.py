"""CPython's ``math.hypot`` of two numbers, in compiled code, to the same bits.

The native environments' terrains are made by ``Body.create_segment`` / ``create_chain``, whose
segment lengths are Python's ``math.hypot``; an episode's terrain moved in place
(:mod:`._segments`) must give the same bits. CPython (3.10 on) does not call the C library's
``hypot``: it scales both numbers by a power of two, sums their squares in double length and
takes one step of a differential correction after the square root, which is correctly rounded
far more often than libm's (about one pair in 170 of a lander's segments differs from libm in
the last bit, BENCHMARKS.md session 28). Computing it in Python cost a LunarLander restart about
9 us (100 calls a vector step of 1,024 landers, each 0.3-0.6 us, on the calling thread), so the
same arithmetic is here, for the kernels:

* the squares exact as a sum of two doubles (Dekker's product: T. J. Dekker, "A floating-point
  technique for extending the available precision", Numer. Math. 18, 1971, 224-242; the split
  by Veltkamp's constant 2**27 + 1);
* their sum exact in ``csum`` and two running remainders (Dekker's fast two-sum, exact here
  because ``csum`` starts at 1.0 and the scaled squares are below 1);
* ``h = sqrt(sum)`` and one Newton step on ``h**2 - sum``, its residual exact again
  (C. F. Borges, "An improved algorithm for hypot(a, b)", arXiv:1904.09481, 2019).

Without ``fastmath`` (the engine's policy): a fused multiply-add would change the bits.
``tests/test_envs_segments.py`` checks it against the running Python's ``math.hypot`` over a
million pairs (10 million on CPython 3.11 while building it: none differed)."""

from __future__ import annotations

import math

from .._core.jit import inner_kernel, kernel

_VELTKAMP = 134217729.0  # 2**27 + 1: splits a double into two halves of 26 bits
_DBL_MIN = 2.2250738585072014e-308  # the least normal double


@kernel
def hypot(x, y):
    """``math.hypot(x, y)`` as CPython computes it (the module's docstring): the same bits for
    every pair of doubles, NaN and infinities included."""
    x, y = abs(x), abs(y)
    if math.isinf(x) or math.isinf(y):
        return math.inf
    if math.isnan(x) or math.isnan(y):
        return math.nan
    big = max(x, y)
    if big == 0.0:
        return 0.0
    if math.frexp(big)[1] < -1023:
        # (2**-exponent would overflow: both made normal first)
        return _DBL_MIN * _norm(x / _DBL_MIN, y / _DBL_MIN, big / _DBL_MIN)
    return _norm(x, y, big)


@inner_kernel
def _norm(x, y, big):
    """:func:`hypot` of finite ``x``, ``y`` >= 0 with ``big``, their larger, a normal double."""
    scale = math.ldexp(1.0, -math.frexp(big)[1])
    csum, frac1, frac2 = 1.0, 0.0, 0.0
    for v in (x * scale, y * scale):  # (exact: a power of two; each now below 1)
        hi, lo = _square(v, v)
        csum, frac1, frac2 = _add(csum, hi, lo, frac1, frac2)
    h = math.sqrt(csum - 1.0 + (frac1 + frac2))
    hi, lo = _square(-h, h)
    csum, frac1, frac2 = _add(csum, hi, lo, frac1, frac2)
    h += (csum - 1.0 + (frac1 + frac2)) / (2.0 * h)  # the differential correction
    return h / scale


@inner_kernel
def _square(a, b):
    """``a * b`` exactly, as ``hi + lo`` (Dekker's product of Veltkamp's halves)."""
    t = a * _VELTKAMP
    ah = t - (t - a)
    al = a - ah
    t = b * _VELTKAMP
    bh = t - (t - b)
    bl = b - bh
    p = ah * bh
    q = ah * bl + al * bh
    hi = p + q
    return hi, p - hi + q + al * bl


@inner_kernel
def _add(csum, hi, lo, frac1, frac2):
    """``hi`` added to ``csum`` exactly (fast two-sum: ``csum >= |hi|``), its rounding error and
    ``lo`` into the two remainders."""
    s = csum + hi
    return s, frac1 + lo, frac2 + (csum - s + hi)


__all__ = ["hypot"]
