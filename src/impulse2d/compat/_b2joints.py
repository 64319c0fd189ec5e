"""pybox2d's joint definitions and joints, on impulse2d's joints.

Box2D 2.3 defines a joint by local anchors on each body and a reference angle, so the two
anchors may be apart when the joint is made
and the joint pulls them together (LunarLander's legs do this). impulse2d's constructors take
one world anchor and take the current angle difference as the reference: the layer creates the
joint through them with body A's anchor, then writes body B's local anchor and the reference
angle into the joint's row, the two values those constructors derive and nothing else reads
before the step. Angles, limits and motor speeds then mean what they mean in Box2D:
``angle = angle_b - angle_a - referenceAngle``. The reference angle is pybox2d's: a revolute,
prismatic or weld definition made with ``bodyA`` and ``bodyB`` among its keywords and without
``referenceAngle`` takes ``bodyB.angle - bodyA.angle`` at that moment (pybox2d's
``__init__``; Box2D's C++ default, 0, is what a definition whose bodies are set afterwards
keeps). Gymnasium's LunarLander and BipedalWalker make their legs at an angle of +-0.05 rad,
so their joint limits and angles are measured from there.

``Initialize(...)`` sets what Box2D 2.3's sets (world anchors stored local to each body, the
axis local to A, the reference angle, a distance or pulley joint's lengths as they are now);
``to_kwargs()`` gives the fields back as keywords. pybox2d's world-point keywords and
properties (``anchor``, ``anchorA``/``anchorB``, ``axis``: ``CreateRevoluteJoint(bodyA=a,
bodyB=b, anchor=p)``) store what ``Initialize`` stores, the bodies set first. A rope joint is
impulse2d's distance joint in rope mode (slack within ``[0, maxLength]``); friction and motor
joints are impulse2d's motor joint, the friction joint with a correction factor of 0 (only the
relative velocity is driven to zero, within its force and torque bounds).
"""

from __future__ import annotations

import math

from .. import _sleep
from .._batch_joint import create_revolute_joint
from .._core.state import Joints
from ..joints import Joint
from ._b2bodies import b2Body
from ._b2math import b2Vec2, vec_tuple

_MAX_SPEED = 1.0e5  # rad/s or m/s: the engine's bound on a motor speed


_COMMON = {"bodyA": None, "bodyB": None, "collideConnected": False, "userData": None}
"""The fields every joint definition starts with."""

_KNOWN: dict = {}
"""Definition class -> the keyword names it takes (:func:`_known_names`)."""


def _known_names(cls) -> tuple[frozenset, bool]:
    """The keywords a definition of ``cls`` takes: what ``hasattr`` finds on a new one (its
    fields, the common ones, the class's attributes) and the class's properties (the world
    points); and whether its fields are plain attributes of the instance (no property or
    other descriptor of the class is named as one), which ``b2JointDef.__init__`` may then
    write into the instance's dict at once."""
    fields = set(_COMMON) | set(cls._fields)
    plain = not any(hasattr(type(getattr(cls, name, None)), "__set__") for name in fields)
    return frozenset(fields | set(dir(cls))), plain


class b2JointDef:  # noqa: N801
    """Common fields: ``bodyA``, ``bodyB``, ``collideConnected``, ``userData``."""

    _fields: dict = {}
    type = 0  # Box2D's e_unknownJoint; each kind's definition has its b2JointType

    def __init__(self, **kwargs):
        cls = type(self)
        known = _KNOWN.get(cls)
        if known is None:
            known = _KNOWN[cls] = _known_names(cls)
        known, plain = known
        if plain:
            # the common fields and the kind's defaults straight into the instance's dict (no
            # descriptor of the class has any of their names: _known_names checks)
            self.__dict__.update(_COMMON, **self._fields)
        else:  # (a program's subclass with a property of a field's name)
            for name, value in {**_COMMON, **self._fields}.items():
                setattr(self, name, value)
        if not known.issuperset(kwargs):
            name = next(name for name in kwargs if name not in known)
            raise TypeError(f"{cls.__name__} has no field {name!r}")
        # pybox2d sets the bodies first, then the other keywords in their order: the world
        # points (``anchor``, ``anchorA``, ``axis``: properties below) need the bodies
        for name in ("bodyA", "bodyB"):
            if name in kwargs:
                setattr(self, name, kwargs[name])
        for name, value in kwargs.items():
            if name not in ("bodyA", "bodyB"):
                setattr(self, name, value)
        if ("referenceAngle" in self._fields and "referenceAngle" not in kwargs
                and self.bodyA is not None and self.bodyB is not None):
            # pybox2d's definitions do this (not Box2D's C++ one): see the module docstring
            self.referenceAngle = self.bodyB.angle - self.bodyA.angle
        if ("length" in self._fields and "length" not in kwargs
                and "localAnchorA" in kwargs and "localAnchorB" in kwargs):
            self._update_lengths()  # pybox2d's distance definition: the anchors' distance

    def to_kwargs(self) -> dict:
        """The definition's fields as keywords: ``type(d)(**d.to_kwargs())`` is an equal
        definition (pybox2d's ``to_kwargs``)."""
        out = {"bodyA": self.bodyA, "bodyB": self.bodyB,
               "collideConnected": self.collideConnected, "userData": self.userData}
        for name in self._fields:
            out[name] = getattr(self, name)
        return out

    def ClearUserData(self):  # noqa: N802
        self.userData = None

    def _bodies(self, bodyA, bodyB):  # noqa: N803
        self.bodyA = bodyA
        self.bodyB = bodyB

    def _anchor(self, anchor):
        """Box2D's ``Initialize`` with one world anchor: local to each body."""
        anchor = vec_tuple(anchor, "anchor")
        self.localAnchorA = self.bodyA.GetLocalPoint(anchor)
        self.localAnchorB = self.bodyB.GetLocalPoint(anchor)

    def _reference(self):
        self.referenceAngle = self.bodyB.angle - self.bodyA.angle

    def _update_lengths(self):
        """A distance joint's ``length`` (a pulley's ``lengthA``/``lengthB``) from its world
        anchors now, as pybox2d's anchor setters do (when the bodies are set)."""
        if "length" in self._fields and self.bodyA is not None and self.bodyB is not None:
            self.length = (self.anchorB - self.anchorA).length
        if "lengthA" in self._fields:
            if self.bodyA is not None:
                self.lengthA = (self.anchorA - b2Vec2(*vec_tuple(self.groundAnchorA,
                                                                 "groundAnchorA"))).length
            if self.bodyB is not None:
                self.lengthB = (self.anchorB - b2Vec2(*vec_tuple(self.groundAnchorB,
                                                                 "groundAnchorB"))).length


# pybox2d's world-coordinate keywords and properties of the definitions (``anchor``,
# ``anchorA``/``anchorB``, ``axis``): Box2D keeps only the local values; the setters store the
# world value local to the body (``anchor`` on both), the getters read it back in world
# coordinates. They need their bodies set (pybox2d raises there too).
def _needs(self, *names):
    for name in names:
        if getattr(self, name) is None:
            raise ValueError(f"{type(self).__name__}: set {name} before the world point "
                             f"(anchor, anchorA, anchorB or axis)")


def _get_anchor(self):
    if self.bodyA is not None:
        return self.bodyA.GetWorldPoint(self.localAnchorA)
    _needs(self, "bodyB")
    return self.bodyB.GetWorldPoint(self.localAnchorB)


def _set_anchor(self, value):
    _needs(self, "bodyA", "bodyB")
    self._anchor(value)


def _get_axis(self):
    _needs(self, "bodyA")
    return self.bodyA.GetWorldVector(self.localAxisA)


def _set_axis(self, value):
    _needs(self, "bodyA")
    self.localAxisA = self.bodyA.GetLocalVector(vec_tuple(value, "axis"))


def _side_anchor(body_name, local_name):
    def get(self):
        _needs(self, body_name)
        return getattr(self, body_name).GetWorldPoint(getattr(self, local_name))

    def set_(self, value):
        _needs(self, body_name)
        setattr(self, local_name, getattr(self, body_name).GetLocalPoint(
            vec_tuple(value, "anchor" + body_name[-1])))
        self._update_lengths()
    return property(get, set_, doc=f"{body_name}'s anchor in world coordinates")


_ANCHOR = {"anchor": property(_get_anchor, _set_anchor,
                              doc="The anchor in world coordinates (on both bodies).")}
_AXIS = {"axis": property(_get_axis, _set_axis, doc="The axis in world coordinates (A's).")}
_ANCHORS = {"anchorA": _side_anchor("bodyA", "localAnchorA"),
            "anchorB": _side_anchor("bodyB", "localAnchorB")}


# Box2D 2.3's b2JointType of each kind (``joint.type``, ``jointDef.type``)
_JOINT_TYPES = {"Revolute": 1, "Prismatic": 2, "Distance": 3, "Pulley": 4, "Mouse": 5, "Gear": 6,
                "Wheel": 7, "Weld": 8, "Friction": 9, "Rope": 10, "Motor": 11}


def _def(name, fields, doc, initialize=None, world_points=None):
    attrs = {"_fields": fields, "__doc__": doc, "type": _JOINT_TYPES[name[2:-8]],
             **(world_points or {})}
    if initialize is not None:
        attrs["Initialize"] = initialize
    return type(name, (b2JointDef,), attrs)


# Box2D 2.3's b2*JointDef::Initialize: the bodies, the anchors (given in world coordinates,
# stored local to each body), the axis local to A, the reference angle angleB - angleA, and
# a distance or pulley joint's lengths from the anchors as they are now.
def _init_anchor_angle(self, bodyA, bodyB, anchor):  # noqa: N803
    """``Initialize(bodyA, bodyB, anchor)``: the anchor (world) on both bodies and the
    reference angle of now."""
    self._bodies(bodyA, bodyB)
    self._anchor(anchor)
    self._reference()


def _init_anchor(self, bodyA, bodyB, anchor):  # noqa: N803
    """``Initialize(bodyA, bodyB, anchor)``: the anchor (world) on both bodies."""
    self._bodies(bodyA, bodyB)
    self._anchor(anchor)


def _init_prismatic(self, bodyA, bodyB, anchor, axis):  # noqa: N803
    """``Initialize(bodyA, bodyB, anchor, axis)``: the anchor (world) on both bodies, the
    world ``axis`` in A's frame and the reference angle of now."""
    self._bodies(bodyA, bodyB)
    self._anchor(anchor)
    self.localAxisA = bodyA.GetLocalVector(vec_tuple(axis, "axis"))
    self._reference()


def _init_wheel(self, bodyA, bodyB, anchor, axis):  # noqa: N803
    """``Initialize(bodyA, bodyB, anchor, axis)``: the anchor (world) on both bodies and the
    world ``axis`` in A's frame."""
    self._bodies(bodyA, bodyB)
    self._anchor(anchor)
    self.localAxisA = bodyA.GetLocalVector(vec_tuple(axis, "axis"))


def _init_distance(self, bodyA, bodyB, anchorA, anchorB):  # noqa: N803
    """``Initialize(bodyA, bodyB, anchorA, anchorB)``: each world anchor on its body and the
    length their distance now."""
    self._bodies(bodyA, bodyB)
    pa, pb = vec_tuple(anchorA, "anchorA"), vec_tuple(anchorB, "anchorB")
    self.localAnchorA = bodyA.GetLocalPoint(pa)
    self.localAnchorB = bodyB.GetLocalPoint(pb)
    self.length = math.hypot(pb[0] - pa[0], pb[1] - pa[1])


def _init_pulley(self, bodyA, bodyB, groundAnchorA, groundAnchorB, anchorA, anchorB,  # noqa: N803
                 ratio):
    """``Initialize(bodyA, bodyB, groundAnchorA, groundAnchorB, anchorA, anchorB, ratio)``:
    the ground anchors, each world anchor on its body, each side's length now, the ratio."""
    self._bodies(bodyA, bodyB)
    ga, gb = vec_tuple(groundAnchorA, "groundAnchorA"), vec_tuple(groundAnchorB, "groundAnchorB")
    pa, pb = vec_tuple(anchorA, "anchorA"), vec_tuple(anchorB, "anchorB")
    ratio = float(ratio)
    if not ratio > 1.1920929e-07:  # Box2D asserts ratio > b2_epsilon
        raise ValueError(f"ratio must be positive, got {ratio}")
    self.groundAnchorA, self.groundAnchorB = b2Vec2(*ga), b2Vec2(*gb)
    self.localAnchorA = bodyA.GetLocalPoint(pa)
    self.localAnchorB = bodyB.GetLocalPoint(pb)
    self.lengthA = math.hypot(pa[0] - ga[0], pa[1] - ga[1])
    self.lengthB = math.hypot(pb[0] - gb[0], pb[1] - gb[1])
    self.ratio = ratio


def _init_motor(self, bodyA, bodyB):  # noqa: N803
    """``Initialize(bodyA, bodyB)``: B's position in A's frame and the angle between them
    now, so that the joint holds the pose it starts in."""
    self._bodies(bodyA, bodyB)
    self.linearOffset = bodyA.GetLocalPoint(bodyB.position)
    self.angularOffset = bodyB.angle - bodyA.angle


b2RevoluteJointDef = _def("b2RevoluteJointDef", dict(
    localAnchorA=(0.0, 0.0), localAnchorB=(0.0, 0.0), referenceAngle=0.0, enableLimit=False,
    lowerAngle=0.0, upperAngle=0.0, enableMotor=False, motorSpeed=0.0, maxMotorTorque=0.0),
    "A hinge at localAnchorA (on A) and localAnchorB (on B).", _init_anchor_angle, _ANCHOR)
b2PrismaticJointDef = _def("b2PrismaticJointDef", dict(
    localAnchorA=(0.0, 0.0), localAnchorB=(0.0, 0.0), localAxisA=(1.0, 0.0),
    referenceAngle=0.0, enableLimit=False, lowerTranslation=0.0, upperTranslation=0.0,
    enableMotor=False, motorSpeed=0.0, maxMotorForce=0.0),
    "B slides along localAxisA (in A's frame).", _init_prismatic, {**_ANCHOR, **_AXIS})
b2DistanceJointDef = _def("b2DistanceJointDef", dict(
    localAnchorA=(0.0, 0.0), localAnchorB=(0.0, 0.0), length=1.0, frequencyHz=0.0,
    dampingRatio=0.0), "Keeps the anchors at ``length`` (a spring with frequencyHz > 0).",
    _init_distance, _ANCHORS)
b2WeldJointDef = _def("b2WeldJointDef", dict(
    localAnchorA=(0.0, 0.0), localAnchorB=(0.0, 0.0), referenceAngle=0.0, frequencyHz=0.0,
    dampingRatio=0.0), "Glues B to A.", _init_anchor_angle, _ANCHOR)
b2WheelJointDef = _def("b2WheelJointDef", dict(
    localAnchorA=(0.0, 0.0), localAnchorB=(0.0, 0.0), localAxisA=(1.0, 0.0),
    enableMotor=False, maxMotorTorque=0.0, motorSpeed=0.0, frequencyHz=2.0, dampingRatio=0.7),
    "A wheel B on a suspension of A along localAxisA.", _init_wheel, {**_ANCHOR, **_AXIS})
b2MouseJointDef = _def("b2MouseJointDef", dict(
    target=(0.0, 0.0), maxForce=0.0, frequencyHz=5.0, dampingRatio=0.7),
    "Drags bodyB toward ``target`` (bodyA is Box2D's unused ground body).")
b2PulleyJointDef = _def("b2PulleyJointDef", dict(
    groundAnchorA=(-1.0, 1.0), groundAnchorB=(1.0, 1.0), localAnchorA=(-1.0, 0.0),
    localAnchorB=(1.0, 0.0), lengthA=0.0, lengthB=0.0, ratio=1.0), "A rope over two pulleys.",
    _init_pulley, _ANCHORS)
b2GearJointDef = _def("b2GearJointDef", dict(joint1=None, joint2=None, ratio=1.0),
                      "Couples two revolute or prismatic joints.")
b2RopeJointDef = _def("b2RopeJointDef", dict(
    localAnchorA=(-1.0, 0.0), localAnchorB=(1.0, 0.0), maxLength=0.0),
    "Keeps the anchors at most ``maxLength`` apart (slack inside): impulse2d's distance joint "
    "as a rope. Box2D 2.3 has no Initialize for it.", None, _ANCHORS)
b2FrictionJointDef = _def("b2FrictionJointDef", dict(
    localAnchorA=(0.0, 0.0), localAnchorB=(0.0, 0.0), maxForce=0.0, maxTorque=0.0),
    "Top-down friction: resists the relative motion of B with at most ``maxForce`` (N) and "
    "``maxTorque`` (N m). Made as impulse2d's motor joint with a correction factor of 0 "
    "(it drives the relative velocity to zero and never restores a pose), which acts at B's "
    "origin where Box2D's acts at the anchors.", _init_anchor, _ANCHOR)
b2MotorJointDef = _def("b2MotorJointDef", dict(
    linearOffset=(0.0, 0.0), angularOffset=0.0, maxForce=1.0, maxTorque=1.0,
    correctionFactor=0.3), "Drives B toward ``linearOffset`` (in A's frame) and "
    "``angularOffset``: impulse2d's motor joint.", _init_motor)


def _anchor_defaults(defn, a, b):
    """World anchors from the definition's local anchors (the bodies' origins for a motor
    joint, which has none)."""
    if type(defn) is b2MotorJointDef:
        return a.position, b.position
    return a.GetWorldPoint(vec_tuple(defn.localAnchorA, "localAnchorA")), \
        b.GetWorldPoint(vec_tuple(defn.localAnchorB, "localAnchorB"))


def create_joint(b2world, defn):
    """The ``b2Joint`` for ``defn`` (``b2World.CreateJoint``)."""
    w = b2world._world
    a, b = defn.bodyA, defn.bodyB
    kind = type(defn)
    cc = bool(defn.collideConnected)
    if kind is b2MouseJointDef:
        joint = w.create_mouse_joint(b._handle, tuple(vec_tuple(defn.target, "target")),
                                     defn.maxForce, hertz=defn.frequencyHz,
                                     damping_ratio=defn.dampingRatio)
        return _wrap(b2MouseJoint, joint, b2world, b, b, defn)
    if kind is b2GearJointDef:
        j1, j2 = defn.joint1, defn.joint2
        joint = w.create_gear_joint(j1._joint, j2._joint, defn.ratio, collide_connected=cc)
        b2world._gears = True  # (b2World._gears)
        return _wrap(b2GearJoint, joint, b2world, j1.bodyB, j2.bodyB, defn)
    if not isinstance(a, b2Body) or not isinstance(b, b2Body):
        raise TypeError("a joint definition needs bodyA and bodyB (b2Body)")
    if kind is b2RevoluteJointDef:
        joint = _revolute_in_one_call(w, defn, a, b, cc)
        if joint is not None:
            return _wrap(b2RevoluteJoint, joint, b2world, a, b, defn)
    pa, pb = _anchor_defaults(defn, a, b)
    ha, hb = a._handle, b._handle
    if kind is b2RevoluteJointDef:
        joint = w.create_revolute_joint(
            ha, hb, tuple(pa), enable_limit=bool(defn.enableLimit), lower_angle=defn.lowerAngle,
            upper_angle=defn.upperAngle, enable_motor=bool(defn.enableMotor),
            motor_speed=defn.motorSpeed, max_motor_torque=defn.maxMotorTorque,
            collide_connected=cc)
        cls = b2RevoluteJoint
    elif kind is b2PrismaticJointDef:
        joint = w.create_prismatic_joint(
            ha, hb, tuple(pa), tuple(a.GetWorldVector(vec_tuple(defn.localAxisA, "localAxisA"))),
            enable_limit=bool(defn.enableLimit), lower=defn.lowerTranslation,
            upper=defn.upperTranslation, enable_motor=bool(defn.enableMotor),
            motor_speed=defn.motorSpeed, max_motor_force=defn.maxMotorForce,
            collide_connected=cc)
        cls = b2PrismaticJoint
    elif kind is b2DistanceJointDef:
        hertz = float(defn.frequencyHz)
        joint = w.create_distance_joint(ha, hb, tuple(pa), tuple(pb), length=defn.length,
                                        enable_spring=hertz > 0.0, hertz=hertz,
                                        damping_ratio=defn.dampingRatio,
                                        collide_connected=cc)
        return _wrap(b2DistanceJoint, joint, b2world, a, b, defn)
    elif kind is b2WeldJointDef:
        joint = w.create_weld_joint(ha, hb, tuple(pa), angular_hertz=defn.frequencyHz,
                                    angular_damping_ratio=defn.dampingRatio,
                                    collide_connected=cc)
        cls = b2WeldJoint
    elif kind is b2WheelJointDef:
        hertz = float(defn.frequencyHz)
        joint = w.create_wheel_joint(
            ha, hb, tuple(pb), tuple(a.GetWorldVector(vec_tuple(defn.localAxisA, "localAxisA"))),
            enable_spring=hertz > 0.0, hertz=hertz, damping_ratio=defn.dampingRatio,
            enable_motor=bool(defn.enableMotor), motor_speed=defn.motorSpeed,
            max_motor_torque=defn.maxMotorTorque, collide_connected=cc)
        jt = w._joints
        jt.local_anchor_a[joint._index] = vec_tuple(defn.localAnchorA, "localAnchorA")
        return _wrap(b2WheelJoint, joint, b2world, a, b, defn)
    elif kind is b2RopeJointDef:
        # impulse2d's distance joint as a rope: slack within [0, maxLength] (enable_spring
        # with hertz 0 is its rope mode; see World.create_distance_joint)
        max_length = float(defn.maxLength)
        if not max_length > 0.0:  # (NaN too)
            raise ValueError(f"maxLength must be positive, got {max_length}")
        joint = w.create_distance_joint(ha, hb, tuple(pa), tuple(pb), length=max_length,
                                        min_length=0.0, max_length=max_length,
                                        enable_spring=True, hertz=0.0, collide_connected=cc)
        return _wrap(b2RopeJoint, joint, b2world, a, b, defn)
    elif kind is b2FrictionJointDef:
        # impulse2d's motor joint holding the pose of now with correction 0: only the
        # relative velocity is driven to zero, within the force and torque bounds
        joint = w.create_motor_joint(ha, hb, max_force=defn.maxForce, max_torque=defn.maxTorque,
                                     correction_factor=0.0, collide_connected=cc)
        return _wrap(b2FrictionJoint, joint, b2world, a, b, defn)
    elif kind is b2MotorJointDef:
        joint = w.create_motor_joint(
            ha, hb, linear_offset=vec_tuple(defn.linearOffset, "linearOffset"),
            angular_offset=defn.angularOffset, max_force=defn.maxForce,
            max_torque=defn.maxTorque, correction_factor=defn.correctionFactor,
            collide_connected=cc)
        return _wrap(b2MotorJoint, joint, b2world, a, b, defn)
    elif kind is b2PulleyJointDef:
        joint = w.create_pulley_joint(ha, hb, vec_tuple(defn.groundAnchorA, "groundAnchorA"),
                                      vec_tuple(defn.groundAnchorB, "groundAnchorB"), tuple(pa),
                                      tuple(pb), ratio=defn.ratio, collide_connected=cc)
        wrapper = _wrap(b2PulleyJoint, joint, b2world, a, b, defn)
        wrapper._lengths = (joint.length_a, joint.length_b)  # the rope as made (Box2D's)
        return wrapper
    else:
        raise TypeError(f"unsupported joint definition {kind.__name__}")
    # Box2D's anchor on B and reference angle (see the module docstring)
    jt = w._joints
    j = joint._index
    jt.local_anchor_b[j] = vec_tuple(defn.localAnchorB, "localAnchorB")
    ref = float(defn.referenceAngle)
    if not math.isfinite(ref):
        w.destroy_joint(joint)
        raise ValueError(f"referenceAngle must be finite, got {ref}")
    jt.reference_angle[j] = ref
    return _wrap(cls, joint, b2world, a, b, defn)


def _revolute_in_one_call(w, defn, a, b, cc):
    """The engine's joint for the revolute definition ``defn`` made in one compiled call
    (``impulse2d._batch_joint``: the rows the path below writes, bit for bit), or None,
    nothing done, where that call does not take it or a value is bad (the path below then
    raises what it raises, where it raises it)."""
    try:
        local_a = vec_tuple(defn.localAnchorA, "localAnchorA")
        local_b = vec_tuple(defn.localAnchorB, "localAnchorB")
        ref = float(defn.referenceAngle)
    except (TypeError, ValueError):
        return None
    if not math.isfinite(ref):
        return None
    return create_revolute_joint(
        w, a._handle, b._handle, local_a, local_b, ref, bool(defn.enableLimit),
        defn.lowerAngle, defn.upperAngle, bool(defn.enableMotor), defn.motorSpeed,
        defn.maxMotorTorque, cc)


def _wrap(cls, joint, b2world, a, b, defn):
    wrapper = cls(joint, b2world, a, b, defn.userData)
    a._joints.append(wrapper)
    if b is not a:
        b._joints.append(wrapper)
    b2world._joints[joint._index] = wrapper
    return wrapper


class b2Joint:  # noqa: N801
    """A joint of a ``b2World``: ``bodyA``, ``bodyB``, ``anchorA``, ``anchorB``,
    ``userData``; its own attributes settable."""

    def __init__(self, joint: Joint, b2world, a, b, user_data):
        self._joint = joint
        self._b2world = b2world
        self._w = joint._world
        self._j = joint._index
        jt = self._w._joints
        # its bodies' rows and its reference angle (rad) are fixed for its life: kept here,
        # the hot accessors read the body store only
        self._a = jt.body_a.item(self._j)
        self._b = jt.body_b.item(self._j)
        self._ref = jt.reference_angle.item(self._j)
        self.bodyA = a
        self.bodyB = b
        self.userData = user_data

    type = 0     # Box2D's b2JointType of the class (e_revoluteJoint 1 ... e_motorJoint 11)

    @property
    def anchorA(self):  # noqa: N802
        return b2Vec2(*self._joint.world_anchor_a)

    @property
    def anchorB(self):  # noqa: N802
        return b2Vec2(*self._joint.world_anchor_b)

    @property
    def collideConnected(self):  # noqa: N802
        return bool(self._w._joints.collide_connected[self._j])

    # Box2D 2.3's inactive bodies are refused here (b2World._create), so a joint is active
    active = property(lambda self: True)

    def getAsType(self):  # noqa: N802
        """pybox2d's downcast: here the object already is its type's class."""
        return self

    def ClearUserData(self):  # noqa: N802
        self.userData = None

    def GetLocalAnchorA(self):  # noqa: N802
        """The anchor on body A, in A's frame (origin-relative, as Box2D's)."""
        return b2Vec2(*self._w._joints.local_anchor_a[self._j])

    def GetLocalAnchorB(self):  # noqa: N802
        return b2Vec2(*self._w._joints.local_anchor_b[self._j])

    def GetReferenceAngle(self):  # noqa: N802
        return self._ref

    def GetReactionForce(self, inv_dt):  # noqa: N802
        """N (Box2D takes 1/dt; impulse2d's reaction is already a force of the last step)."""
        return b2Vec2(*self._joint.reaction_force)

    def GetReactionTorque(self, inv_dt):  # noqa: N802
        return float(self._joint.reaction_torque)

    def _wake(self):
        """Box2D's wake of both bodies (a sleeping island wakes; an awake body's sleep timer
        is left as it is, as in Box2D 2.3)."""
        asleep = self._w._bodies.asleep
        if asleep.item(self._a):
            _sleep.wake_body(self._w, self._a)
        if asleep.item(self._b):
            _sleep.wake_body(self._w, self._b)


def _column(name, public, lo, hi):
    """A joint parameter: read from the row; written straight into the row for a float within
    [lo, hi] (NaN is not), else through the handle's checked setter (which raises for bad
    values); either way the bodies wake, as in Box2D."""
    field = Joints._fields.index(name)  # the column's place in the store (a tuple index is
    # cheaper than an attribute lookup by name)
    speed = name == "motor_speed"

    def fget(self):
        return self._w._joints[field].item(self._j)

    # (BipedalWalker sets 8 of these a step: the fast path is a store and two sleep flags;
    # _wake's body inline, the old value read only for the motor speed)
    if speed:
        def fset(self, value):
            w = self._w
            column = w._joints[field]
            j = self._j
            old = column.item(j)
            if isinstance(value, float) and lo <= value <= hi:
                column[j] = value
                new = value
            else:
                setattr(self._joint, public, value)
                new = column.item(j)
            if (old == 0.0) != (new == 0.0):
                self._b2world._held = None  # the set of turning motors changed
            if w._sleepers:  # (0: no body asleep, the engine's own count)
                asleep = w._bodies.asleep
                if asleep.item(self._a) or asleep.item(self._b):
                    self._wake()
    else:
        def fset(self, value):
            w = self._w
            if isinstance(value, float) and lo <= value <= hi:
                w._joints[field][self._j] = value
            else:
                setattr(self._joint, public, value)
            if w._sleepers:  # (0: no body asleep, the engine's own count)
                asleep = w._bodies.asleep
                if asleep.item(self._a) or asleep.item(self._b):
                    self._wake()

    return property(fget, fset)


_SPEED = (-_MAX_SPEED, _MAX_SPEED)
_EFFORT = (0.0, 1.0e30)


def _set_spring(joint, hz):
    """Box2D 2.3's distance joint: frequencyHz > 0 is a spring, 0 rigid."""
    hz = float(hz)
    if hz > 0.0:
        joint.hertz = hz
    joint.enable_spring = hz > 0.0


def _motor_on(joint, value):
    joint._joint.enable_motor = bool(value)
    joint._b2world._held = None  # the set of turning motors changed
    joint._wake()


class b2RevoluteJoint(b2Joint):  # noqa: N801
    @property
    def angle(self):
        angle = self._w._bodies.angle
        return angle.item(self._b) - angle.item(self._a) - self._ref

    @property
    def speed(self):
        w = self._w._bodies.w
        return w.item(self._b) - w.item(self._a)

    motorSpeed = _column("motor_speed", "motor_speed", *_SPEED)
    maxMotorTorque = _column("max_motor", "max_motor_torque", *_EFFORT)

    @property
    def referenceAngle(self):  # noqa: N802
        return self._ref

    lowerLimit = property(lambda self: self._joint.limits[0])
    upperLimit = property(lambda self: self._joint.limits[1])
    limits = property(lambda self: self._joint.limits,
                      lambda self, v: setattr(self._joint, "limits", v))
    motorEnabled = property(lambda self: self._joint.enable_motor,
                            lambda self, v: _motor_on(self, v))
    limitEnabled = property(lambda self: self._joint.enable_limit,
                            lambda self, v: setattr(self._joint, "enable_limit", bool(v)))

    def GetMotorTorque(self, inv_dt):  # noqa: N802
        return float(self._joint.reaction_torque)

    def GetMaxMotorTorque(self):  # noqa: N802
        return self.maxMotorTorque

    def SetLimits(self, lower, upper):  # noqa: N802
        self.limits = (lower, upper)

    type = 1


class b2PrismaticJoint(b2Joint):  # noqa: N801
    translation = property(lambda self: self._joint.translation)
    speed = property(lambda self: self._joint.speed)
    motorSpeed = _column("motor_speed", "motor_speed", *_SPEED)
    maxMotorForce = _column("max_motor", "max_motor_force", *_EFFORT)
    motorEnabled = property(lambda self: self._joint.enable_motor,
                            lambda self, v: _motor_on(self, v))
    limitEnabled = property(lambda self: self._joint.enable_limit,
                            lambda self, v: setattr(self._joint, "enable_limit", bool(v)))
    limits = property(lambda self: self._joint.limits,
                      lambda self, v: setattr(self._joint, "limits", v))
    lowerLimit = property(lambda self: self._joint.limits[0])
    upperLimit = property(lambda self: self._joint.limits[1])
    type = 2

    def SetLimits(self, lower, upper):  # noqa: N802
        self.limits = (lower, upper)

    def GetLocalAxisA(self):  # noqa: N802
        return b2Vec2(*self._w._joints.local_axis_a[self._j])

    def GetMotorForce(self, inv_dt):  # noqa: N802
        """N along the axis: the motor's impulse of the last step (N s) times ``inv_dt``, as
        Box2D's."""
        return float(self._w._joints.motor_impulse[self._j]) * float(inv_dt)


class b2DistanceJoint(b2Joint):  # noqa: N801
    length = property(lambda self: self._joint.length,
                      lambda self, v: setattr(self._joint, "length", v))
    # Box2D 2.3's spring (frequencyHz 0: rigid), impulse2d's hertz and damping ratio
    frequency = property(lambda self: self._joint.hertz if self._joint.enable_spring else 0.0,
                         lambda self, v: _set_spring(self._joint, v))
    dampingRatio = property(lambda self: self._joint.damping_ratio,
                            lambda self, v: setattr(self._joint, "damping_ratio", v))
    type = 3


class b2WeldJoint(b2Joint):  # noqa: N801
    """Box2D 2.3's weld softens the angle only (``frequencyHz``): impulse2d's angular spring."""

    type = 8

    def GetFrequency(self):  # noqa: N802
        return self._joint.angular_hertz

    def SetFrequency(self, hz):  # noqa: N802
        self._joint.angular_hertz = hz

    def GetDampingRatio(self):  # noqa: N802
        return self._joint.angular_damping_ratio

    def SetDampingRatio(self, ratio):  # noqa: N802
        self._joint.angular_damping_ratio = ratio

    frequency = property(GetFrequency, SetFrequency)
    dampingRatio = property(GetDampingRatio, SetDampingRatio)


class b2WheelJoint(b2Joint):  # noqa: N801
    speed = property(lambda self: self._joint.angular_speed)   # Box2D 2.3: the joint's spin
    motorSpeed = _column("motor_speed", "motor_speed", *_SPEED)
    maxMotorTorque = _column("max_motor", "max_motor_torque", *_EFFORT)
    motorEnabled = property(lambda self: self._joint.enable_motor,
                            lambda self, v: _motor_on(self, v))
    springFrequencyHz = property(lambda self: self._joint.hertz,
                                 lambda self, v: setattr(self._joint, "hertz", v))
    springDampingRatio = property(lambda self: self._joint.damping_ratio,
                                  lambda self, v: setattr(self._joint, "damping_ratio", v))
    type = 7

    @property
    def translation(self):
        """B's anchor from A's along the axis, m."""
        a, b = self.anchorA, self.anchorB
        axis = self.bodyA.GetWorldVector(self.GetLocalAxisA())
        return (b - a).dot(axis)

    def GetLocalAxisA(self):  # noqa: N802
        return b2Vec2(*self._w._joints.local_axis_a[self._j])

    def GetMotorTorque(self, inv_dt):  # noqa: N802
        """N m: the motor's impulse of the last step (N m s) times ``inv_dt``, as Box2D's."""
        return float(self._w._joints.motor_impulse[self._j]) * float(inv_dt)


class b2MouseJoint(b2Joint):  # noqa: N801
    target = property(lambda self: b2Vec2(*self._joint.target),
                      lambda self, v: setattr(self._joint, "target", vec_tuple(v, "target")))
    maxForce = property(lambda self: self._joint.max_force,
                        lambda self, v: setattr(self._joint, "max_force", v))
    frequency = property(lambda self: self._joint.hertz,
                         lambda self, v: setattr(self._joint, "hertz", v))
    dampingRatio = property(lambda self: self._joint.damping_ratio,
                            lambda self, v: setattr(self._joint, "damping_ratio", v))
    type = 5


class b2PulleyJoint(b2Joint):  # noqa: N801
    ratio = property(lambda self: float(self._w._joints.ratio[self._j]))
    groundAnchorA = property(lambda self: b2Vec2(*self._joint.ground_anchor_a))
    groundAnchorB = property(lambda self: b2Vec2(*self._joint.ground_anchor_b))
    type = 4

    def GetCurrentLengthA(self):  # noqa: N802
        """The rope from ground anchor A to A's anchor now, m."""
        return self._joint.length_a

    def GetCurrentLengthB(self):  # noqa: N802
        return self._joint.length_b

    # Box2D 2.3's lengthA/lengthB are the lengths the joint was made with (its constant is
    # lengthA + ratio lengthB); length1/length2 are pybox2d's old names for them
    lengthA = property(lambda self: self._lengths[0])
    lengthB = property(lambda self: self._lengths[1])
    length1 = lengthA
    length2 = lengthB


class b2GearJoint(b2Joint):  # noqa: N801
    ratio = property(lambda self: float(self._w._joints.ratio[self._j]))
    type = 6

    def GetJoint1(self):  # noqa: N802
        return self._b2world._joints[self._joint.joint_a._index]

    def GetJoint2(self):  # noqa: N802
        return self._b2world._joints[self._joint.joint_b._index]


class b2RopeJoint(b2Joint):  # noqa: N801
    """A rope: ``maxLength`` (m, the distance joint's upper bound)."""

    @property
    def maxLength(self):  # noqa: N802
        return self._joint.max_length

    @maxLength.setter
    def maxLength(self, value):  # noqa: N802
        self._joint.length_range = (0.0, value)

    type = 10

    def SetMaxLength(self, length):  # noqa: N802
        self.maxLength = length

    @property
    def limitState(self):  # noqa: N802
        """Box2D's e_atUpperLimit (2) when the rope is taut, else e_inactiveLimit (0)."""
        return 2 if self._joint.current_length >= self._joint.max_length else 0


class b2FrictionJoint(b2Joint):  # noqa: N801
    type = 9
    maxForce = property(lambda self: self._joint.max_force,
                        lambda self, v: setattr(self._joint, "max_force", v))
    maxTorque = property(lambda self: self._joint.max_torque,
                         lambda self, v: setattr(self._joint, "max_torque", v))


class b2MotorJoint(b2FrictionJoint):  # noqa: N801
    type = 11
    linearOffset = property(lambda self: b2Vec2(*self._joint.linear_offset),
                            lambda self, v: setattr(self._joint, "linear_offset",
                                                    vec_tuple(v, "linearOffset")))
    angularOffset = property(lambda self: self._joint.angular_offset,
                             lambda self, v: setattr(self._joint, "angular_offset", v))
    correctionFactor = property(lambda self: self._joint.correction_factor,
                                lambda self, v: setattr(self._joint, "correction_factor", v))
