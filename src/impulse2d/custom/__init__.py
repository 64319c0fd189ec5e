"""Your own constraint: write ``C``, get a solved joint (extra: ``pip install impulse2d[custom]``).

A law is the position function ``C(q_a, q_b; params)`` of what must hold between two bodies,
written with SymPy; impulse2d differentiates it, generates and compiles its kernel, and every
solver solves the joints made from it (``world.create_custom_joint``)::

    from impulse2d.custom import Pose, ConstraintLaw, norm
    a, b = Pose("a"), Pose("b")
    L = ConstraintLaw.param("L")
    law = ConstraintLaw(rows=[norm(b.world_point((0, 0)) - a.world_point((0, 0))) - L],
                        params=["L"])
    joint = world.create_custom_joint(body_a, body_b, law, params={"L": 2.0})

See the gallery of laws in the documentation (``docs/tutorials/custom-laws.md``).
"""

from __future__ import annotations

try:
    import sympy  # noqa: F401
except ImportError as error:  # pragma: no cover - the extra is missing
    raise ImportError("impulse2d.custom needs SymPy: pip install impulse2d[custom]") from error

from .law import ConstraintLaw, Pose, cross, dot, norm

__all__ = ["Pose", "ConstraintLaw", "dot", "cross", "norm"]
