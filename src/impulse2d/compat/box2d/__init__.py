"""A pybox2d-compatible API (Box2D 2.3) on impulse2d's engine.

Programs written for pybox2d run unchanged after one call::

    import impulse2d.compat.box2d as b2compat
    b2compat.install()            # `import Box2D` and `from Box2D.b2 import ...` now give this
    import gymnasium as gym
    env = gym.make("LunarLander-v3")

or use the names directly (``from impulse2d.compat.box2d import b2World, b2PolygonShape``).
``uninstall()`` puts back whatever ``Box2D`` was there before (the real pybox2d, or nothing).
Without ``install()`` nothing is shadowed.

What is covered, the semantics kept and the differences: ``docs/compat-box2d.md``. The
solver settings (``pgs_block`` with Box2D's iteration counts), the timing of contact callbacks
and sleeping with motors: :mod:`impulse2d.compat._b2world`.
"""

from __future__ import annotations

import sys
import types

from .._b2bodies import b2Body
from .._b2collide import (b2CollideCircles, b2CollideEdgeAndCircle, b2CollideEdgeAndPolygon,
                          b2CollidePolygonAndCircle, b2CollidePolygons, b2Distance,
                          b2DistanceOutput, b2MassData, b2RayCastInput, b2RayCastOutput,
                          b2Sweep, b2TestOverlap, b2TimeOfImpact, b2TOIOutput)
from .._b2draw import b2Color, b2Draw, b2DrawExtended
from .._b2edges import b2ContactEdge, b2JointEdge
from .._b2funcs import (RAND_LIMIT, b2Abs, b2CheckPolygon, b2Clamp, b2Cross, b2DistanceSquared,
                        b2Dot, b2InvSqrt, b2IsPowerOfTwo, b2IsValid, b2Max, b2Min,
                        b2MixFriction, b2MixRestitution, b2Mul, b2Mul22, b2MulT,
                        b2NextPowerOfTwo, b2Version, b2_aabbExtension, b2_aabbMultiplier,
                        b2_angularSleepTolerance, b2_angularSlop, b2_baumgarte,
                        b2_linearSleepTolerance, b2_maxAngularCorrection,
                        b2_maxLinearCorrection, b2_maxRotation, b2_maxRotationSquared,
                        b2_maxSubSteps, b2_maxTOIContacts, b2_maxTranslation,
                        b2_maxTranslationSquared, b2_minPulleyLength, b2_nullFeature,
                        b2_timeToSleep, b2_toiBaugarte, b2_velocityThreshold,
                        e_convertVertices, e_ropeJoint, e_wheelJoint)
from .._b2manifold import b2Manifold, b2WorldManifold
from .._b2structs import b2DistanceInput, b2DistanceProxy, b2Profile, b2TOIInput
from .._b2joints import (b2DistanceJoint, b2DistanceJointDef, b2FrictionJoint,
                         b2FrictionJointDef, b2GearJoint, b2GearJointDef, b2Joint, b2JointDef,
                         b2MotorJoint, b2MotorJointDef, b2MouseJoint, b2MouseJointDef,
                         b2PrismaticJoint, b2PrismaticJointDef, b2PulleyJoint, b2PulleyJointDef,
                         b2RevoluteJoint, b2RevoluteJointDef, b2RopeJoint, b2RopeJointDef,
                         b2WeldJoint, b2WeldJointDef, b2WheelJoint, b2WheelJointDef)
from .._b2math import b2Mat22, b2Mat33, b2Rot, b2Transform, b2Vec2, b2Vec3
from .._b2points import (b2ContactFeature, b2ContactID, b2GetPointStates, b2ManifoldPoint,
                         b2Random, b2_addState, b2_maxManifoldPoints, b2_nullState,
                         b2_persistState, b2_removeState)
from .._b2shapes import (b2ChainShape, b2CircleShape, b2EdgeShape, b2Filter, b2Fixture,
                         b2FixtureDef, b2LoopShape, b2PolygonShape, b2Shape, convex_hull)
from .._b2solvecalls import b2ContactFilter, b2ContactImpulse
from .._b2world import (b2AABB, b2BodyDef, b2Contact, b2ContactListener,
                        b2DestructionListener, b2QueryCallback, b2RayCastCallback, b2World,
                        b2_dynamicBody, b2_kinematicBody, b2_staticBody)

__version__ = "2.3.10"  # the pybox2d API version this layer follows
b2_version = __version__
b2_linearSlop = 0.005
b2_polygonRadius = 2.0 * b2_linearSlop
b2_maxPolygonVertices = 8
b2_pi = 3.14159265359
b2_epsilon = 2.0 ** -23  # FLT_EPSILON (1.1920929e-07), Box2D's b2_epsilon
b2Vec2_zero = b2Vec2(0.0, 0.0)  # pybox2d's b2Vec2_zero (a vector, mutable as pybox2d's)
b2DistanceResult = b2DistanceOutput  # pybox2d's name for what b2Distance returns


class b2ContactPoint:  # noqa: N801
    """pybox2d's record of a contact point for its testbed: ``fixtureA``, ``fixtureB``,
    ``position``, ``normal``, ``state`` (``b2_addState`` ...)."""

    __slots__ = ("fixtureA", "fixtureB", "position", "normal", "state")

    def __init__(self, fixtureA=None, fixtureB=None, position=(0.0, 0.0),  # noqa: N803
                 normal=(0.0, 0.0), state=0):
        self.fixtureA, self.fixtureB = fixtureA, fixtureB
        self.position, self.normal = b2Vec2(position), b2Vec2(normal)
        self.state = int(state)

b2_NAMES = [
    "b2World", "b2Body", "b2BodyDef", "b2Fixture", "b2FixtureDef", "b2Filter", "b2Shape",
    "b2PolygonShape", "b2CircleShape", "b2EdgeShape", "b2Vec2", "b2Rot", "b2Transform",
    "b2AABB", "b2Contact", "b2Manifold", "b2WorldManifold", "b2ContactListener",
    "b2RayCastCallback", "b2QueryCallback", "b2Joint", "b2JointDef", "b2RevoluteJoint",
    "b2RevoluteJointDef", "b2PrismaticJoint", "b2PrismaticJointDef", "b2DistanceJoint",
    "b2DistanceJointDef", "b2WeldJoint", "b2WeldJointDef", "b2WheelJoint", "b2WheelJointDef",
    "b2MouseJoint", "b2MouseJointDef", "b2PulleyJoint", "b2PulleyJointDef", "b2GearJoint",
    "b2GearJointDef", "b2_staticBody", "b2_kinematicBody", "b2_dynamicBody", "b2_version",
    "b2_linearSlop", "b2_polygonRadius", "b2_maxPolygonVertices", "b2_pi",
    # issue 33's first part: the testbed framework's names and the everyday calls' types
    "b2Color", "b2Draw", "b2DrawExtended", "b2DestructionListener", "b2GetPointStates",
    "b2Random", "b2_nullState", "b2_addState", "b2_persistState", "b2_removeState",
    "b2_maxManifoldPoints", "b2_epsilon", "b2ContactFeature", "b2ContactID",
    "b2ManifoldPoint", "b2ChainShape", "b2LoopShape", "b2Vec3", "b2Mat22", "b2Mat33",
    "b2RopeJoint", "b2RopeJointDef", "b2FrictionJoint", "b2FrictionJointDef", "b2MotorJoint",
    "b2MotorJointDef",
    # issue 33's debug-draw and callbacks part
    "b2ContactFilter", "b2ContactImpulse",
    # issue 33's collision functions
    "b2Distance", "b2DistanceOutput", "b2TestOverlap", "b2CollidePolygons",
    "b2CollideCircles", "b2CollidePolygonAndCircle", "b2CollideEdgeAndCircle",
    "b2CollideEdgeAndPolygon", "b2TimeOfImpact", "b2TOIOutput", "b2Sweep", "b2RayCastInput",
    "b2RayCastOutput", "b2MassData",
    # issue 33's last names: structures, free functions, Box2D's settings, graph edges
    "b2DistanceInput", "b2DistanceProxy", "b2DistanceResult", "b2TOIInput", "b2ContactEdge",
    "b2JointEdge", "b2ContactPoint", "b2Version", "b2Vec2_zero", "b2Profile",
    "b2Abs", "b2CheckPolygon", "b2Clamp", "b2Cross", "b2DistanceSquared", "b2Dot", "b2InvSqrt",
    "b2IsPowerOfTwo", "b2IsValid", "b2Max", "b2Min", "b2MixFriction", "b2MixRestitution",
    "b2Mul", "b2Mul22", "b2MulT", "b2NextPowerOfTwo", "RAND_LIMIT", "b2_aabbExtension",
    "b2_aabbMultiplier", "b2_angularSleepTolerance", "b2_angularSlop", "b2_baumgarte",
    "b2_linearSleepTolerance", "b2_maxAngularCorrection", "b2_maxLinearCorrection",
    "b2_maxRotation", "b2_maxRotationSquared", "b2_maxSubSteps", "b2_maxTOIContacts",
    "b2_maxTranslation", "b2_maxTranslationSquared", "b2_minPulleyLength", "b2_nullFeature",
    "b2_timeToSleep", "b2_toiBaugarte", "b2_velocityThreshold", "e_convertVertices",
    "e_ropeJoint", "e_wheelJoint",
]
"""pybox2d's names this layer provides; ``Box2D.b2`` has each without its prefix
(``b2PolygonShape`` -> ``polygonShape``, ``b2_staticBody`` -> ``staticBody``)."""


def _short(name: str) -> str:
    """pybox2d's ``Box2D.b2`` alias: the prefix dropped, the next letter lower-cased."""
    rest = name[3:] if name.startswith("b2_") else name[2:]
    return rest[0].lower() + rest[1:]


def _modules() -> tuple[types.ModuleType, types.ModuleType]:
    here = sys.modules[__name__]
    box2d = types.ModuleType("Box2D", "pybox2d's API on impulse2d (impulse2d.compat.box2d)")
    b2 = types.ModuleType("Box2D.b2", "pybox2d's b2-prefix-less aliases, on impulse2d")
    for name in b2_NAMES:
        value = getattr(here, name)
        setattr(box2d, name, value)
        setattr(b2, _short(name), value)
    # pybox2d's short aliases for the classes also exist as b2.vec2, b2.world, ...
    box2d.b2 = b2
    box2d.Box2D = box2d  # pybox2d's inner module, Box2D.Box2D
    box2d.__version__ = __version__
    box2d.install, box2d.uninstall = install, uninstall
    box2d.__path__ = []  # a package, so that `import Box2D.b2` works
    return box2d, b2


_saved: dict | None = None
_NAMES = ("Box2D", "Box2D.b2", "Box2D.Box2D")


def install() -> None:
    """Make ``import Box2D`` and ``from Box2D.b2 import ...`` resolve to this layer (also when
    the real pybox2d is installed: it is shadowed until :func:`uninstall`). Modules that
    imported Box2D before the call keep what they imported."""
    global _saved
    if _saved is None:
        _saved = {name: sys.modules.get(name) for name in _NAMES}
    box2d, b2 = _modules()
    sys.modules["Box2D"] = box2d
    sys.modules["Box2D.b2"] = b2
    sys.modules["Box2D.Box2D"] = box2d


def uninstall() -> None:
    """Undo :func:`install`: ``Box2D`` is again what it was before (or absent)."""
    global _saved
    if _saved is None:
        return
    for name, module in _saved.items():
        if module is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = module
    _saved = None


def installed() -> bool:
    """Whether :func:`install` is in effect."""
    return _saved is not None


__all__ = b2_NAMES + ["install", "uninstall", "installed", "convex_hull"]
