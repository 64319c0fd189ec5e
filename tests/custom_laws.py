"""The laws the custom-joint tests share (each compiled once per process, then cached on disk).

Pose ``a`` is body A (often the static ground), ``b`` body B; positions are body origins.
"""

from __future__ import annotations

import functools

import sympy as sp

from impulse2d.custom import ConstraintLaw, Pose, cross, dot, norm

a, b = Pose("a"), Pose("b")


@functools.cache
def distance():
    """``|p_b - p_a| - L``: the distance joint between two anchors (params ax, ay, bx, by, L)."""
    ax, ay, bx, by, L = sp.symbols("ax ay bx by L", real=True)
    pa = a.world_point((ax, ay))
    pb = b.world_point((bx, by))
    return ConstraintLaw([norm(pb - pa) - L], params=["ax", "ay", "bx", "by", "L"])


@functools.cache
def point_on_line():
    """B's anchor on a line through A's anchor along A's unit axis (ux, uy), and no relative
    turn: the prismatic joint's two equality rows (params: anchors, axis, reference angle)."""
    ax, ay, bx, by, ux, uy, ref = sp.symbols("ax ay bx by ux uy ref", real=True)
    d = b.world_point((bx, by)) - a.world_point((ax, ay))
    normal = a.world_vector((-uy, ux))
    return ConstraintLaw([dot(normal, d), b.angle - a.angle - ref],
                         params=["ax", "ay", "bx", "by", "ux", "uy", "ref"])


@functools.cache
def parabola():
    """B's origin on the parabola ``y = k x^2`` of A's frame."""
    k = sp.Symbol("k", real=True)
    local = b.position - a.position
    return ConstraintLaw([local[1] - k * local[0] ** 2], params={"k": 1.0})


@functools.cache
def cycloid():
    """B's origin on the inverted cycloid ``(r (phi + sin phi), r (1 - cos phi))`` whose
    parameter ``phi`` is B's own angle (two rows)."""
    r = sp.Symbol("r", real=True)
    phi = b.angle
    return ConstraintLaw([b.x - a.x - r * (phi + sp.sin(phi)),
                          b.y - a.y - r * (1 - sp.cos(phi))], params={"r": 1.0})


@functools.cache
def rolling():
    """A wheel of radius R (body B) rolling without slipping on A's x axis: its centre at
    height R and ``x + R angle`` constant (c)."""
    R, c = sp.symbols("R c", real=True)
    return ConstraintLaw([b.y - a.y - R, b.x - a.x + R * b.angle - c], params=["R", "c"])


@functools.cache
def above_curve():
    """B's origin stays above ``y = h sin(k x)`` (an inequality)."""
    h, k = sp.symbols("h k", real=True)
    return ConstraintLaw([b.y - a.y - h * sp.sin(k * (b.x - a.x))], inequality=[True],
                         params={"h": 0.3, "k": 2.0})


@functools.cache
def rope_over_circle():
    """A rope from A's origin over a fixed circle (centre cx, cy; radius rho) to B's origin,
    of length at most L: ``L - (t_a + rho wrap + t_b) >= 0`` (an inequality: it goes slack).
    Each straight part is tangent to the circle; the rope wraps over the top."""
    cx, cy, rho, L = sp.symbols("cx cy rho L", real=True)
    centre = sp.Matrix([cx, cy])

    def tangent(p, side):
        d = p - centre
        dist = norm(d)
        # Angles measured clockwise from straight up (atan2(x, y): its branch cut points
        # down, where a rope over the top never is). The tangent point is the direction to p
        # turned by acos(rho / |d|) toward the top: side +1 from the left, -1 from the right.
        return sp.sqrt(dist ** 2 - rho ** 2), sp.atan2(d[0], d[1]) + side * sp.acos(rho / dist)

    ta, phi_a = tangent(a.position, 1)
    tb, phi_b = tangent(b.position, -1)
    wrap = phi_b - phi_a
    return ConstraintLaw([L - ta - tb - rho * wrap], inequality=True,
                         params=["cx", "cy", "rho", "L"])


ALL = (distance, point_on_line, parabola, cycloid, rolling, above_curve, rope_over_circle)

__all__ = ["a", "b", "ALL", "distance", "point_on_line", "parabola", "cycloid", "rolling",
           "above_curve", "rope_over_circle", "cross"]
