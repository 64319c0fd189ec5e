"""A revolute joint made from Box2D's definition written in one compiled call (Gymnasium's
LunarLander: the two legs' joints, made again every reset).

The pybox2d layer's ``CreateJoint`` of a ``b2RevoluteJointDef`` makes the joint with
``World.create_revolute_joint`` at the world point of the definition's anchor on A, then sets
the anchor on B and the reference angle the definition gives (Box2D's, which the world's
method works out from the bodies instead). The world's method writes the row element by
element: a re-used row cleared column by column (59 writes), then some 20 writes and ten
options by name, each a fraction of a microsecond warm; inside a run of episodes, where a
reset's code and data are out of the caches, the two joints cost 190-300 us a reset against
Box2D 2.3's 20-30 (2026-11-29, load ~12). When the world's stores' reference
(:mod:`._dynamics.world_ref`) was built from its present body, shape and joint stores (a
recycled world's, :mod:`._recycle`) and the joint store has a free row, one kernel writes
the row through the reference instead: the same values (the anchors' arithmetic is the
world's, in Python), so the rows are bit for bit those of the two steps
(``tests/test_batch_joint.py``). A row used before (a world kept across resets, such as
BipedalWalker's; never a recycled world's, whose pool starts anew) is cleared first in Python,
column by column over the store's own columns, as ``World._add_joint`` clears one: a column
added to the store is cleared with the others, and the kernel compiles in 1.3-1.4 CPU s
(measured at load ~15: with the clear in it, the columns listed by hand, 3.4-3.8; the loop
unrolled over the store's columns, 7.5-7.7). Otherwise the caller makes the joint the usual
way.
"""

from __future__ import annotations

from . import _lock, _sleep, _validate
from ._core.jit import DirectCall, kernel
from ._core.state import REVOLUTE, STATIC
from ._dynamics.world_ref import borrow_column
from .joints import (RevoluteJoint, check_angle_limit, check_angular_speed, check_limits,
                     check_max_torque)


@kernel
def revolute_row(ref, j, a, b, limit, motor, connected, ax, ay, bx, by, angle, lower, upper,
                 speed, torque):
    """Write joint row ``j`` of the stores in ``ref`` (the world's stores' reference), a row
    that is zero but for its generation, as ``World._add_joint`` writes a new revolute joint
    between body rows ``a`` and ``b``: the limit, the motor, whether the bodies collide, the
    local anchors on A (``ax``, ``ay``) and on B (m), the reference angle, the lower and upper
    angle (rad), the motor's speed (rad/s) and its largest torque (N m). (Scalars: two NumPy
    arrays built from tuples cost more than their unboxing, some 8 us a joint inside a run of
    episodes.)"""
    borrow_column(ref, "joints", "alive")[j] = True
    borrow_column(ref, "joints", "type")[j] = REVOLUTE
    borrow_column(ref, "joints", "body_a")[j] = a
    borrow_column(ref, "joints", "body_b")[j] = b
    anchor = borrow_column(ref, "joints", "local_anchor_a")
    anchor[j, 0] = ax
    anchor[j, 1] = ay
    anchor = borrow_column(ref, "joints", "local_anchor_b")
    anchor[j, 0] = bx
    anchor[j, 1] = by
    borrow_column(ref, "joints", "reference_angle")[j] = angle
    # the options in create_revolute_joint's order (the spring's: off, 0 Hz, ratio 0)
    borrow_column(ref, "joints", "enable_limit")[j] = limit
    borrow_column(ref, "joints", "lower")[j] = lower
    borrow_column(ref, "joints", "upper")[j] = upper
    borrow_column(ref, "joints", "enable_motor")[j] = motor
    borrow_column(ref, "joints", "motor_speed")[j] = speed
    borrow_column(ref, "joints", "max_motor")[j] = torque
    borrow_column(ref, "joints", "enable_spring")[j] = False
    borrow_column(ref, "joints", "hertz")[j] = 0.0
    borrow_column(ref, "joints", "damping_ratio")[j] = 0.0
    borrow_column(ref, "joints", "collide_connected")[j] = connected


def _clear_row(joints, j: int) -> None:
    """Every column of row ``j`` of the joint store ``joints`` but ``generation`` zeroed:
    each column the store has (``_core.state.JOINT_LAYOUT``), so none can be missed."""
    for name, column in zip(joints._fields, joints):
        if name != "generation":
            column[j] = 0


_revolute_row = DirectCall(revolute_row, "a new revolute joint's row", 3.0)


def create_revolute_joint(world, body_a, body_b, local_a, local_b, reference_angle,
                          enable_limit, lower_angle, upper_angle, enable_motor, motor_speed,
                          max_motor_torque, collide_connected):
    """The ``RevoluteJoint`` that ``World.create_revolute_joint(body_a, body_b, anchor,
    enable_limit=..., ..., collide_connected=...)`` makes at ``anchor``, the world point of
    ``local_a`` (a tuple of floats, m) on ``body_a``, with its local anchor on B then set to
    ``local_b`` and its reference angle to ``reference_angle`` (a float, rad; Box2D's
    definition: the pybox2d layer's ``CreateJoint``), made in one compiled call; None, with
    nothing done, unless the world's stores' reference was built from its present body,
    shape and joint stores, the joint store has a free row and every value passes the
    world's checks (then the caller makes it the usual way, which raises what it raises)."""
    d = world.__dict__
    built = d["_stores_built_from"]
    joints = d["_joints"]
    if (built is None or d["_stores"] is None or built[0] is not d["_bodies"]
            or built[1] is not d["_shapes"] or built[2] is not joints):
        return None
    pool = d["_joint_pool"]
    if pool.live_count >= len(joints.alive):
        return None  # (the store would grow)
    bodies = d["_bodies"]
    try:
        # World._joint_bodies' and create_revolute_joint's checks, in their order
        a = world._body_row(body_a, "body_a")
        b = world._body_row(body_b, "body_b")
        kinds = bodies.type
        if a == b or kinds.item(a) == STATIC == kinds.item(b):
            return None
        # the anchor as the layer's b2Body.GetWorldPoint gives it, then as Body.local_point
        # takes it back: the same double operations in the same order
        rot, origin = bodies.rot, bodies.origin
        c, s = rot.item(a, 0), rot.item(a, 1)
        ox, oy = origin.item(a, 0), origin.item(a, 1)
        x, y = local_a
        anchor = _validate.vec2((ox + c * x - s * y, oy + s * x + c * y), "anchor")
        lower, upper = check_limits(_float(lower_angle), _float(upper_angle),
                                    check_angle_limit, ("lower_angle", "upper_angle"))
        limit = _validate.flag(enable_limit, "enable_limit")
        motor = _validate.flag(enable_motor, "enable_motor")
        speed = check_angular_speed(_float(motor_speed), "motor_speed")
        torque = check_max_torque(_float(max_motor_torque), "max_motor_torque")
        connected = _validate.flag(collide_connected, "collide_connected")
    except (TypeError, ValueError, OverflowError):
        return None
    _lock.check(world, "World.create_revolute_joint")
    dx = anchor[0] - ox
    dy = anchor[1] - oy
    fresh = pool.high_water  # rows from here on were never used: all zero
    j = pool.allocate()
    if j < fresh:
        _clear_row(joints, j)
    _revolute_row.entry(d["_stores"], j, a, b, limit, motor, connected,
                        c * dx + s * dy, -s * dx + c * dy, local_b[0], local_b[1],
                        reference_angle, lower, upper, speed, torque)
    # RevoluteJoint(world, j, generation) without Joint.__setattr__'s checks of public names
    handle = _new(RevoluteJoint)
    _set(handle, "_world", world)
    _set(handle, "_index", j)
    _set(handle, "_generation", joints.generation.item(j))
    _sleep.wake_body(world, a)
    _sleep.wake_body(world, b)
    d["_joint_handles"][j] = handle
    d["_body_joints"][a].append(j)
    d["_body_joints"][b].append(j)
    world._joint_index = None
    world._pairs_dirty = True
    return handle


def _float(value):
    """A plain int as the float the checks convert it to (they test other numbers against
    ``numbers.Real``, an ABC: several microseconds a value inside a run of episodes, and
    Gymnasium's LunarLander gives its legs' torque as an int); anything else as it is."""
    return float(value) if type(value) is int else value


_new = object.__new__
_set = object.__setattr__


__all__ = ["create_revolute_joint"]
