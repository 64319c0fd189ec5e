"""Poses and constraint laws: the user's ``C(q_a, q_b; p)``, checked and differentiated.

The recipe of the articles impulse2d is built from (Catto, "Modeling and Solving Constraints",
GDC 2009; Witkin, "Constrained Dynamics", SIGGRAPH 2001 course notes): write the position
constraint ``C`` of what must hold; its time derivative is ``Cdot = J qdot`` with
``J = dC/dq``; the solver finds the impulse ``lambda`` and applies ``J^T lambda``. Here ``q``
is the two bodies' poses, each ``(x, y, theta)``: the body origin (``body.position``) and the
angle, so that a law reads as the user sees the bodies. ``J`` is differentiated symbolically
(the derivative in ``theta`` gives the angular terms, the lever arms included), and for the
acceleration level ``Jdot qdot = qdot^T (d^2 C / dq^2) qdot``. The engine moves both to its
own velocity coordinates (centre of mass, spin; :mod:`impulse2d._dynamics.joints.custom`).
"""

from __future__ import annotations

import keyword
import math
from typing import Iterable

import sympy as sp

from .._core.state import LAW_PARAMS, LAW_ROWS
from ..law_kernels import LawKernel
from .codegen import generate

_POSE_FIELDS = ("x", "y", "angle")


class Pose:
    """The pose of one body as SymPy symbols: ``x``, ``y`` (its origin, m) and ``angle`` (rad).

    ``Pose("a")`` and ``Pose("b")`` are the two bodies of a law (the joint's ``body_a`` and
    ``body_b``); two poses of one name are the same symbols.
    """

    def __init__(self, name: str = "a") -> None:
        if not isinstance(name, str) or not name.isidentifier():
            raise TypeError(f"a pose's name must be an identifier string, got {name!r}")
        self.name = name
        self.x, self.y, self.angle = (sp.Symbol(f"{name}.{field}", real=True)
                                      for field in _POSE_FIELDS)

    def __repr__(self) -> str:
        return f"Pose({self.name!r})"

    @property
    def symbols(self) -> tuple:
        """``(x, y, angle)``."""
        return self.x, self.y, self.angle

    @property
    def position(self) -> sp.Matrix:
        """The origin, a 2-vector expression (m)."""
        return sp.Matrix([self.x, self.y])

    @property
    def rotation(self) -> sp.Matrix:
        """The 2x2 rotation of ``angle``."""
        c, s = sp.cos(self.angle), sp.sin(self.angle)
        return sp.Matrix([[c, -s], [s, c]])

    def world_vector(self, local) -> sp.Matrix:
        """A direction fixed in the body (``local``: body coordinates) in world coordinates."""
        return self.rotation * _vector(local, "local")

    def world_point(self, local) -> sp.Matrix:
        """The world position of the body's point ``local`` (body coordinates, m), a 2-vector
        expression: ``position + R(angle) local``."""
        return self.position + self.world_vector(local)


def _vector(value, name: str) -> sp.Matrix:
    if isinstance(value, sp.MatrixBase):
        if value.shape not in ((2, 1), (1, 2)):
            raise ValueError(f"{name} must be a 2-vector, got a {value.shape} matrix")
        return sp.Matrix([value[0], value[1]])
    try:
        x, y = value
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a 2-sequence, got {value!r}") from None
    return sp.Matrix([sp.sympify(x), sp.sympify(y)])


def dot(u, v):
    """``u . v`` of two 2-vector expressions."""
    u, v = _vector(u, "u"), _vector(v, "v")
    return u[0] * v[0] + u[1] * v[1]


def cross(u, v):
    """``u x v = u_x v_y - u_y v_x`` of two 2-vector expressions."""
    u, v = _vector(u, "u"), _vector(v, "v")
    return u[0] * v[1] - u[1] * v[0]


def norm(u):
    """``|u|`` of a 2-vector expression."""
    u = _vector(u, "u")
    return sp.sqrt(u[0] ** 2 + u[1] ** 2)


class ConstraintLaw:
    """A constraint law ``C(q_a, q_b; params)``: one to three rows, each an equality
    ``C = 0`` or an inequality ``C >= 0``.

    ``rows``: SymPy expressions (or a 2-vector: two rows) of the poses ``a`` and ``b``
    (default ``Pose("a")``, ``Pose("b")``) and of the parameters named in ``params`` (a list
    of names, or a dict of names to defaults; the expressions may use ``sympy.Symbol(name)``
    or :meth:`param`). ``inequality``: one flag per row (or one for all).

    Refused with a ``ValueError`` (or ``TypeError`` for a wrong type): no row or more than
    three; a row that is not finite (NaN, infinity, ``zoo``); a row that depends on no pose of
    either body; a symbol that is neither a pose nor a named parameter; more than eight
    parameters, or a name twice. The kernel (``C``, ``J``, ``Jdot v``) is generated and
    compiled on first use, or at :meth:`compile`.
    """

    def __init__(self, rows, inequality=None, params=(), a: Pose | None = None,
                 b: Pose | None = None) -> None:
        a = Pose("a") if a is None else a
        b = Pose("b") if b is None else b
        for name, pose in (("a", a), ("b", b)):
            if not isinstance(pose, Pose):
                raise TypeError(f"{name} must be a Pose, got {type(pose).__name__}")
        if a.name == b.name:
            raise ValueError(f"the two poses need different names, got {a.name!r} twice")
        self.a, self.b = a, b
        self.rows = tuple(_rows(rows))
        if not 1 <= len(self.rows) <= LAW_ROWS:
            raise ValueError(f"a law has 1 to {LAW_ROWS} rows, got {len(self.rows)}")
        self.inequality = _flags(inequality, len(self.rows))
        self.params, self.defaults = _params(params, a, b)
        self._check_rows()
        q = a.symbols + b.symbols
        self.jacobian = sp.Matrix([[sp.diff(c, s) for s in q] for c in self.rows])
        self._kernel = None

    def _check_rows(self) -> None:
        pose_names = {s.name for s in self.a.symbols + self.b.symbols}
        known = pose_names | set(self.params)
        for k, c in enumerate(self.rows):
            if c.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
                raise ValueError(f"row {k} of the law is not finite: {c}")
            names = {s.name for s in c.free_symbols}
            unknown = sorted(names - known)
            if unknown:
                raise ValueError(
                    f"row {k} of the law uses unknown symbols {unknown}: a law reads the poses "
                    f"{self.a.name!r}, {self.b.name!r} and the parameters {list(self.params)} "
                    "(declare a parameter in params=[...])")
            if not names & pose_names:
                raise ValueError(f"row {k} of the law ({c}) depends on no pose of either body: "
                                 "it can constrain nothing")

    @staticmethod
    def param(name: str) -> sp.Symbol:
        """The symbol of parameter ``name`` (``sympy.Symbol(name)`` works as well)."""
        return sp.Symbol(name, real=True)

    @property
    def kernel(self) -> LawKernel:
        """The generated kernel (:class:`~impulse2d.law_kernels.LawKernel`), made on first use."""
        if self._kernel is None:
            source, uses_angle = generate(self.rows, self.a, self.b, self.params)
            self._kernel = LawKernel(source, len(self.rows), self.inequality, self.params,
                                     self.defaults, uses_angle)
        return self._kernel

    def compile(self) -> float:
        """Compile the law's kernel now (or load it from the disk cache); the seconds it took."""
        return self.kernel.compile_seconds()

    def __repr__(self) -> str:
        kinds = [">= 0" if x else "= 0" for x in self.inequality]
        rows = "; ".join(f"{c} {k}" for c, k in zip(self.rows, kinds))
        return f"ConstraintLaw({rows}; params {list(self.params)})"


def _rows(rows) -> Iterable:
    if isinstance(rows, (str, bytes)):
        raise TypeError("rows must be SymPy expressions, not a string")
    if isinstance(rows, (sp.Basic, int, float)) and not isinstance(rows, sp.MatrixBase):
        rows = [rows]
    if isinstance(rows, sp.MatrixBase):
        rows = list(rows)
    try:
        items = list(rows)
    except TypeError:
        raise TypeError(f"rows must be a sequence of SymPy expressions, got "
                        f"{type(rows).__name__}") from None
    out = []
    for k, item in enumerate(items):
        if isinstance(item, sp.MatrixBase):
            out.extend(item)  # a vector: one row per component
            continue
        if isinstance(item, (str, bytes)) or not isinstance(item, (sp.Basic, int, float)):
            raise TypeError(f"row {k} must be a SymPy expression, got {type(item).__name__}")
        if isinstance(item, float) and not math.isfinite(item):
            raise ValueError(f"row {k} of the law is not finite: {item}")
        out.append(sp.sympify(item))
    return out


def _flags(inequality, count: int) -> tuple:
    if inequality is None:
        return (False,) * count
    if isinstance(inequality, bool):
        return (inequality,) * count
    try:
        flags = list(inequality)
    except TypeError:
        raise TypeError("inequality must be a bool or one bool per row") from None
    if len(flags) != count:
        raise ValueError(f"inequality has {len(flags)} flags for {count} rows")
    for flag in flags:
        if not isinstance(flag, bool):
            raise TypeError(f"inequality flags must be bools, got {flag!r}")
    return tuple(flags)


def _params(params, a: Pose, b: Pose) -> tuple:
    if isinstance(params, str):
        raise TypeError("params must be a list of names or a dict of names to defaults")
    if isinstance(params, dict):
        names, defaults = list(params.keys()), []
        for name, value in params.items():
            if value is None:
                defaults.append(None)
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"the default of parameter {name!r} must be a number")
            if not math.isfinite(value):
                raise ValueError(f"the default of parameter {name!r} must be finite, got {value}")
            defaults.append(float(value))
    else:
        try:
            names = list(params)
        except TypeError:
            raise TypeError("params must be a list of names or a dict of names to defaults") \
                from None
        defaults = [None] * len(names)
    if len(names) > LAW_PARAMS:
        raise ValueError(f"a law has at most {LAW_PARAMS} parameters, got {len(names)}")
    poses = {s.name for s in a.symbols + b.symbols}
    for name in names:
        if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
            raise TypeError(f"a parameter's name must be an identifier string, got {name!r}")
        if name in poses:
            raise ValueError(f"parameter {name!r} has the name of a pose symbol")
    if len(set(names)) != len(names):
        raise ValueError(f"a parameter is named twice in {names}")
    return tuple(names), tuple(defaults)


__all__ = ["Pose", "ConstraintLaw", "dot", "cross", "norm"]
