"""impulse2d: a 2D rigid-body physics engine with an open impulse-based constraint solver.

>>> import impulse2d as i2d
>>> world = i2d.World(gravity=(0, -10))
>>> ground = world.create_body(type="static")
>>> _ = ground.create_box(10, 0.5, center=(0, -0.5))
>>> box = world.create_body(position=(0, 2))
>>> _ = box.create_box(0.5, 0.5)
>>> for _ in range(120):
...     world.step(1 / 60)
>>> round(box.position.y, 2)
0.5
"""

import gc as _gc

# Importing Numba and decorating the engine's kernels makes a few hundred thousand objects, none
# of them garbage, and the cyclic collector ran about 180 times over them: 35 ms of a 0.65 s
# warm start (measured on the 2-core CI machine). It is paused while the package imports.
_collecting = _gc.isenabled()
_gc.disable()
try:
    from ._numba_import import import_numba as _import_numba
    _import_numba()
    from .body import Body
    from .contacts import ContactData
    from .chains import Chain
    from ._lock import WorldLockedError
    from .joints import (DistanceJoint, GearJoint, Joint, MotorJoint, MouseJoint, PrismaticJoint,
                         PulleyJoint, RevoluteJoint, WeldJoint, WheelJoint)
    from .settings import WorldSettings
    from .shapes import Shape
    from .snapshot import Snapshot
    from .types import BodyType, JointType, ShapeType, Vec2
    from .world import ContactInfo, ContactPoint, Profile, World
finally:
    _gc.freeze()
    if _collecting:
        _gc.enable()
    del _collecting

# Imported on first use (PEP 562): a process that steps worlds one by one never reads them, and
# ``batch`` brings its five helper modules, its step kernels' module and ``concurrent.futures``
# (about 0.011 s of CPU of a warm ``pyramid_20``, measured on the loaded 2-core machine);
# ``constraint_rows`` (with ``_dynamics.row_export``) and ``custom_joints`` (with
# ``law_kernels``) are read by a world only when it exports its rows or makes a custom joint
# (about 5 ms of CPU at load 12, 2026-12-01 session 23).
_ON_USE = {"WorldBatch": ".batch", "BatchSnapshot": ".batch", "BatchState": ".batch",
           "warmup": "._warmup", "ConstraintRow": ".constraint_rows",
           "CustomJoint": ".custom_joints"}


def __getattr__(name):
    """The names of :data:`_ON_USE`, imported on first use."""
    module = _ON_USE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__():
    """The package's names, those imported on first use included."""
    return sorted(set(globals()) | set(_ON_USE))


__version__ = "0.1.0"

__all__ = [
    "World", "WorldSettings", "Body", "Shape", "Chain", "Joint", "RevoluteJoint", "DistanceJoint",
    "PrismaticJoint", "WeldJoint", "WheelJoint",
    "MouseJoint", "MotorJoint", "PulleyJoint", "GearJoint", "CustomJoint", "BodyType",
    "ShapeType",
    "JointType", "Vec2",
    "ContactInfo", "ContactPoint", "ContactData", "ConstraintRow", "Profile", "Snapshot",
    "WorldLockedError", "WorldBatch", "BatchSnapshot", "BatchState", "warmup", "__version__",
]
