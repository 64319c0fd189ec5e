"""``CreateDynamicBody(fixtures=one fixtureDef, ...)`` in one compiled call where it can be.

Gymnasium's LunarLander makes its lander and two legs, each a dynamic body of one polygon,
at every reset. ``impulse2d._batch_dynamic.create_dynamic_body`` writes such a body and its
shape in one call, bit for bit what ``World.create_body`` and ``World._attach_shape`` write;
this module checks the call as they would and wraps the result in the layer's objects. A call
it does not take (anything but one fixture of a plain shape, a bullet, a body made asleep, a
bad value, a world whose stores' reference is out of date) goes the usual way, which raises
what it raises.
"""

from __future__ import annotations

from .. import _validate
from .._batch_dynamic import create_dynamic_body
from ..body import check_angular_velocity, check_linear_velocity
from ._b2bodies import b2Body, fixture_parts
from ._b2math import vec_tuple
from ._b2shapes import b2ChainShape, b2Fixture, b2FixtureDef


def create_one_fixture(b2world, fixtures, position, angle, linear_velocity, angular_velocity,
                       linear_damping, angular_damping, gravity_scale, fixed_rotation,
                       allow_sleep, user_data):
    """The ``b2Body`` of ``b2World._create("dynamic", ...)`` (no bullet, awake, no
    ``shapes``; the queue carried out) when ``fixtures`` is one fixture definition of a
    polygon, circle or edge and the engine takes it in one call; else None, nothing done."""
    if isinstance(fixtures, (list, tuple)):
        if len(fixtures) != 1:
            return None
        fixtures = fixtures[0]
    if type(fixtures) is not b2FixtureDef or isinstance(fixtures.shape, b2ChainShape):
        return None
    try:
        # World.create_body's checks of the layer's arguments, then the fixture's
        x, y = _validate.vec2(vec_tuple(position, "position"), "position")
        angle = _validate.angle(angle, "angle")
        v = check_linear_velocity(vec_tuple(linear_velocity, "linearVelocity"))
        w = check_angular_velocity(angular_velocity)
        lin = _validate.non_negative(linear_damping, "linear_damping")
        ang = _validate.non_negative(angular_damping, "angular_damping")
        g = _validate.signed_factor(gravity_scale, "gravity_scale")
        fixed = _validate.flag(bool(fixed_rotation), "fixed_rotation")
        sleepy = _validate.flag(bool(allow_sleep), "allow_sleep")
        b2shape, bits, (kind, geom, m, _) = fixture_parts(fixtures)
    except Exception:
        return None  # the usual way raises it, in its order
    made = create_dynamic_body(b2world._world, x, y, angle, v, w, lin, ang, g, fixed, sleepy,
                               kind, geom, m)
    if made is None:
        return None
    handle, shape = made
    body = b2Body(b2world, handle, user_data)
    b2world._bodies[handle._index] = body
    b2world._dynamic = None
    fixture = b2Fixture(shape, b2shape, body, fixtures.userData, bits)
    body._fixtures.append(fixture)
    b2world._fixtures[shape._index] = fixture
    return body
