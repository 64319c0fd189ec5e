"""Finite but extreme input, and the small gaps of the boundary checks (issue 17).

A value can be finite and still poison the state once the step squares or multiplies it: a
spring of 1e160 Hz, a force of 1e308 N added twice, a density whose mass overflows, a gear ratio
whose square does. Each must be rejected where it is given, with a ``ValueError`` (or
``TypeError``) that names the parameter, leaving the world exactly as it was; and every setter
must accept and reject exactly what creation does. (Plain bad input, NaN, inf and negative sizes,
is covered by test_api.py and the joint tests.)
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import impulse2d as i2d
from conftest import DT
from impulse2d import _validate


def _scene():
    """A static ground and two small dynamic bodies, stepped once so every column is live."""
    world = i2d.World()
    ground = world.create_body(type="static")
    ground.create_box(5.0, 0.5, center=(0.0, -0.5))
    a = world.create_body(position=(0.0, 1.0))
    a.create_box(0.25, 0.25)
    b = world.create_body(position=(1.0, 1.0))
    b.create_circle(0.25)
    world.step(DT)
    return world, ground, a, b


def _snapshot(world):
    """Everything a rejected call could have touched: body state, mass, accumulated forces,
    shapes' materials, every joint column, the settings and gravity."""
    bodies = world._bodies
    return (
        len(world.bodies), len(world.shapes), len(world.joints),
        world.get_positions().tobytes(), world.get_angles().tobytes(),
        world.get_velocities().tobytes(),
        [(b.type, b.mass, b.inertia, tuple(b.local_center), b.fixed_rotation, b.gravity_scale)
         for b in world.bodies],
        bodies.force.tobytes(), bodies.torque.tobytes(),
        [(s.density, s.friction, s.restitution, s.group, s.category, s.mask) for s in world.shapes],
        {name: column.tobytes() for name, column in zip(world._joints._fields, world._joints)},
        world.settings.replace(), tuple(world.gravity),
    )


def _assert_finite(world):
    assert np.isfinite(world.get_positions()).all()
    assert np.isfinite(world.get_angles()).all()
    assert np.isfinite(world.get_velocities()).all()
    for joint in world.joints:
        assert np.isfinite(joint.reaction_force).all() and math.isfinite(joint.reaction_torque)


def assert_rejected(world, call, error, name, first=False):
    """``call()`` raises ``error`` naming ``name`` (with ``first``, as the message's first
    word), changes nothing, and the world steps on."""
    before = _snapshot(world)
    with pytest.raises(error, match=(rf"^{re.escape(name)}\b" if first else re.escape(name))):
        call()
    assert _snapshot(world) == before
    for _ in range(3):
        world.step(DT)
    _assert_finite(world)


# -- joints: one factory per type, with the parameters creation and the setters share ---------

def _make(kind, world, ground, a, b, **options):
    """A joint of ``kind`` between the scene's bodies (or a hinge pair, for the gear)."""
    if kind == "revolute":
        return world.create_revolute_joint(a, b, (0.5, 1.0), **options)
    if kind == "distance":
        return world.create_distance_joint(a, b, (0.0, 1.0), (1.0, 1.0), **options)
    if kind == "prismatic":
        return world.create_prismatic_joint(a, b, (0.5, 1.0), (1.0, 0.0), **options)
    if kind == "weld":
        return world.create_weld_joint(a, b, (0.5, 1.0), **options)
    if kind == "wheel":
        return world.create_wheel_joint(a, b, (1.0, 1.0), (0.0, 1.0), **options)
    if kind == "mouse":
        return world.create_mouse_joint(b, (1.0, 1.0), **{"max_force": 10.0, **options})
    if kind == "motor":
        return world.create_motor_joint(a, b, **options)
    raise AssertionError(kind)


# (joint kind, creation keyword, property): the same quantity under both names.
SCALARS = [
    ("revolute", "hertz", "hertz"),
    ("revolute", "damping_ratio", "damping_ratio"),
    ("revolute", "motor_speed", "motor_speed"),
    ("revolute", "max_motor_torque", "max_motor_torque"),
    ("distance", "hertz", "hertz"),
    ("distance", "damping_ratio", "damping_ratio"),
    ("distance", "motor_speed", "motor_speed"),
    ("distance", "max_motor_force", "max_motor_force"),
    ("distance", "length", "length"),
    ("prismatic", "hertz", "hertz"),
    ("prismatic", "damping_ratio", "damping_ratio"),
    ("prismatic", "motor_speed", "motor_speed"),
    ("prismatic", "max_motor_force", "max_motor_force"),
    ("weld", "linear_hertz", "linear_hertz"),
    ("weld", "angular_hertz", "angular_hertz"),
    ("weld", "linear_damping_ratio", "linear_damping_ratio"),
    ("weld", "angular_damping_ratio", "angular_damping_ratio"),
    ("wheel", "hertz", "hertz"),
    ("wheel", "damping_ratio", "damping_ratio"),
    ("wheel", "motor_speed", "motor_speed"),
    ("wheel", "max_motor_torque", "max_motor_torque"),
    ("mouse", "hertz", "hertz"),
    ("mouse", "damping_ratio", "damping_ratio"),
    ("mouse", "max_force", "max_force"),
    ("motor", "max_force", "max_force"),
    ("motor", "max_torque", "max_torque"),
    ("motor", "correction_factor", "correction_factor"),
    ("motor", "angular_offset", "angular_offset"),
]

# Finite values far beyond any bound: the spring's (h omega)^2, a motor's axial mass times its
# speed, a limit's C / h, all overflow with them.
EXTREME = {"hertz": 1e160, "linear_hertz": 1e160, "angular_hertz": 1e160}


def _ids(cases):
    return [f"{kind}.{prop}" for kind, _, prop in cases]


@pytest.mark.parametrize("kind, keyword, prop", SCALARS, ids=_ids(SCALARS))
def test_extreme_joint_option_at_creation_is_rejected(kind, keyword, prop):
    world, ground, a, b = _scene()
    value = EXTREME.get(keyword, 1e308)
    assert_rejected(world, lambda: _make(kind, world, ground, a, b, **{keyword: value}), ValueError,
                    keyword)


@pytest.mark.parametrize("kind, keyword, prop", SCALARS, ids=_ids(SCALARS))
def test_extreme_joint_option_in_its_setter_is_rejected(kind, keyword, prop):
    world, ground, a, b = _scene()
    joint = _make(kind, world, ground, a, b)
    world.step(DT)
    value = EXTREME.get(keyword, 1e308)
    assert_rejected(world, lambda: setattr(joint, prop, value), ValueError, prop)
    assert_rejected(world, lambda: setattr(joint, prop, -value), ValueError, prop)


# Values to try on every scalar: good ones, the plain bad ones, and the extreme ones.
PROBES = [0.0, 0.5, 1.0, 7, np.float32(2.0), np.int64(3), np.float64(0.25), -1.0, 1e5, -1e5,
          1e7, -1e7, 1e160, 1e308, -1e308, math.nan, math.inf, 10**400, -10**400, "1", None, True,
          np.bool_(True)]


def _outcome(call):
    """The exception type ``call()`` raises, or None."""
    try:
        call()
    except (ValueError, TypeError) as exc:
        return type(exc)
    return None


@pytest.mark.parametrize("kind, keyword, prop", SCALARS, ids=_ids(SCALARS))
def test_each_setter_rejects_exactly_what_creationassert_rejected(kind, keyword, prop):
    world, ground, a, b = _scene()
    joint = _make(kind, world, ground, a, b)
    for value in PROBES:
        if value is None and keyword in ("length", "angular_offset"):
            continue  # None at creation asks for the default (from the current pose)
        created = _outcome(lambda: _make(kind, world, ground, a, b, **{keyword: value}))
        before = getattr(joint, prop)
        assigned = _outcome(lambda: setattr(joint, prop, value))
        assert created is assigned, f"{prop} = {value!r}: creation {created}, setter {assigned}"
        if assigned is None:
            assert getattr(joint, prop) == float(value)
        else:
            assert getattr(joint, prop) == before
    # The probes include both accepted and rejected values, so the comparison means something.
    assert _outcome(lambda: setattr(joint, prop, 0.5)) is None
    assert _outcome(lambda: setattr(joint, prop, 1e308)) is ValueError
    for _ in range(3):
        world.step(DT)
    _assert_finite(world)


# (joint kind, creation keywords of the pair, property of the pair)
PAIRS = [
    ("revolute", ("lower_angle", "upper_angle"), "limits"),
    ("prismatic", ("lower", "upper"), "limits"),
    ("wheel", ("lower", "upper"), "limits"),
    ("distance", ("min_length", "max_length"), "length_range"),
]
PAIR_PROBES = [(0.0, 1.0), (-0.5, 0.5), (2.0, 2.0), (1.0, 0.0), (-1.0, 2.0), (0.0, 0.0),
               (0.0, 1e7), (-1e7, 0.0), (0.0, 1e300), (-1e300, 1e300), (math.nan, 1.0),
               (0.0, math.inf), (0, 10**400), ("a", 1.0), (np.float32(0.5), np.int64(2))]


@pytest.mark.parametrize("kind, keywords, prop", PAIRS, ids=[f"{k}.{p}" for k, _, p in PAIRS])
def test_pair_setters_reject_exactly_what_creationassert_rejected(kind, keywords, prop):
    world, ground, a, b = _scene()
    extra = {"enable_spring": True} if kind == "distance" else {}
    joint = _make(kind, world, ground, a, b, **extra)
    for lower, upper in PAIR_PROBES:
        options = {**extra, keywords[0]: lower, keywords[1]: upper}
        created = _outcome(lambda: _make(kind, world, ground, a, b, **options))
        before = getattr(joint, prop)
        assigned = _outcome(lambda: setattr(joint, prop, (lower, upper)))
        assert created is assigned, f"{prop} = {(lower, upper)!r}: {created} vs {assigned}"
        if assigned is not None:
            assert getattr(joint, prop) == before
    assert _outcome(lambda: setattr(joint, prop, (0.0, 1.0))) is None
    assert _outcome(lambda: setattr(joint, prop, (0.0, 1e300))) is ValueError
    world.step(DT)
    _assert_finite(world)


@pytest.mark.parametrize("kind, prop", [("revolute", "limits"), ("prismatic", "limits"),
                                        ("wheel", "limits"), ("distance", "length_range")])
@pytest.mark.parametrize("value", [5, 2.5, None, (1.0,), (1.0, 2.0, 3.0), "ab", [[0.0, 1.0]]])
def test_pair_setter_of_the_wrong_shape_is_a_type_error_naming_it(kind, prop, value):
    world, ground, a, b = _scene()
    joint = _make(kind, world, ground, a, b)
    # The name first: the old message named an internal function, "check_limits() argument...".
    assert_rejected(world, lambda: setattr(joint, prop, value), TypeError, prop, first=True)


@pytest.mark.parametrize("kind, keywords", [("revolute", ("lower_angle", "upper_angle")),
                                            ("prismatic", ("lower", "upper")),
                                            ("wheel", ("lower", "upper")),
                                            ("distance", ("min_length", "max_length"))])
def test_extreme_limits_are_rejected_at_creation_and_in_the_setter(kind, keywords):
    world, ground, a, b = _scene()
    extra = {"enable_spring": True} if kind == "distance" else {}
    assert_rejected(world,
                    lambda: _make(kind, world, ground, a, b, **extra, **{keywords[1]: 1e300}),
                    ValueError, keywords[1])
    joint = _make(kind, world, ground, a, b, **extra)
    prop = "length_range" if kind == "distance" else "limits"
    assert_rejected(world, lambda: setattr(joint, prop, (0.0, 1e300)), ValueError, prop)


def test_mouse_hertz_zero_is_rejected_by_the_setter_as_at_creation():
    world, ground, a, b = _scene()
    assert_rejected(world, lambda: world.create_mouse_joint(b, (1.0, 1.0), 10.0, hertz=0.0),
                    ValueError, "hertz")
    mouse = world.create_mouse_joint(b, (1.0, 1.0), 10.0)
    assert_rejected(world, lambda: setattr(mouse, "hertz", 0), ValueError, "hertz")
    assert mouse.hertz == 5.0


@pytest.mark.parametrize("ratio", [1e308, -1e308, 1e7])
def test_gear_ratio_whose_square_overflows_is_rejected(ratio):
    world, ground, a, b = _scene()
    hinge_a = world.create_revolute_joint(ground, a, (0.0, 1.0))
    hinge_b = world.create_revolute_joint(ground, b, (1.0, 1.0))
    assert_rejected(world, lambda: world.create_gear_joint(hinge_a, hinge_b, ratio=ratio),
                    ValueError, "ratio")


@pytest.mark.parametrize("ratio", [1e308, 1e7])
def test_pulley_ratio_whose_square_overflows_is_rejected(ratio):
    world, ground, a, b = _scene()
    assert_rejected(world, lambda: world.create_pulley_joint(
        a, b, (0.0, 3.0), (1.0, 3.0), (0.0, 1.0), (1.0, 1.0), ratio=ratio), ValueError, "ratio")


# -- forces and impulses ----------------------------------------------------------------------

def test_a_huge_force_twice_is_rejected_and_the_accumulator_stays_finite():
    world, ground, a, b = _scene()
    assert_rejected(world, lambda: b.apply_force((1e308, 0.0)), ValueError, "force")
    # Each force within the bound, but not their sum: the second is refused.
    half = 0.6 * _validate.MAX_FORCE
    b.apply_force((half, 0.0))
    assert_rejected(world, lambda: b.apply_force((half, 0.0)), ValueError, "force")
    # (assert_rejected stepped: the accumulator was used once and cleared)
    assert tuple(world._bodies.force[b._index]) == (0.0, 0.0)


def test_a_force_far_from_the_centre_is_rejected_for_its_torque():
    world, ground, a, b = _scene()
    force = (0.0, 0.9 * _validate.MAX_FORCE)
    assert_rejected(world, lambda: b.apply_force(force, point=(1.0e5, 1.0)), ValueError, "torque")


def test_a_huge_torque_twice_is_rejected():
    world, ground, a, b = _scene()
    assert_rejected(world, lambda: b.apply_torque(1e308), ValueError, "torque")
    half = 0.6 * _validate.MAX_FORCE
    b.apply_torque(half)
    assert_rejected(world, lambda: b.apply_torque(half), ValueError, "torque")


def test_the_largest_force_on_the_lightest_body_steps_finitely():
    # The bounds promise that force * dt / mass cannot overflow: MAX_FORCE on a body of about
    # MIN_MASS, for a full second.
    world = i2d.World(gravity=(0.0, 0.0))
    dust = world.create_body()
    dust.create_circle(1.0, density=2.0 * _validate.MIN_MASS)
    dust.apply_force((_validate.MAX_FORCE, -_validate.MAX_FORCE))
    dust.apply_torque(_validate.MAX_FORCE)
    world.step(1.0)
    _assert_finite(world)
    assert dust.linear_velocity.length <= world.settings.max_linear_speed * (1 + 1e-12)


@pytest.mark.parametrize("call", [
    lambda b: b.apply_linear_impulse((1e308, 0.0)),     # 1e308 / 0.2 kg: inf
    lambda b: b.apply_angular_impulse(1e308),           # 1e308 / 0.0049 kg m^2: inf
    lambda b: b.apply_linear_impulse((0.0, 1e306), point=(1.0e5, 1.0)),  # the moment: inf
])
def test_an_impulse_whose_velocity_would_overflow_is_rejected(call):
    world, ground, a, b = _scene()
    assert_rejected(world, lambda: call(b), ValueError, "overflows")


@pytest.mark.parametrize("call", [
    lambda b: b.apply_linear_impulse((0.0, 1e10)),      # 1e10 N s on 0.2 kg: 5e10 m/s
    lambda b: b.apply_linear_impulse((0.0, 1e3), point=(1.0e5, 1.0)),   # 2e10 rad/s
    lambda b: b.apply_angular_impulse(1e10),
    lambda b: b.apply_linear_impulse((3e300, 4e300)),   # finite: scaled to 1e30, direction kept
])
def test_a_finite_impulse_is_accepted_and_the_step_clamps_the_body(call):
    # Issue 29, item 1: large for the body is not wrong; the step's limits hold it.
    world, ground, a, b = _scene()
    call(b)
    v, w = b.linear_velocity, b.angular_velocity
    assert math.isfinite(v.x) and math.isfinite(v.y) and math.isfinite(w)
    assert max(abs(v.x), abs(v.y), abs(w)) <= _validate.MAX_VELOCITY
    assert v.length > world.settings.max_linear_speed or abs(w) > 0.25 * math.pi / DT
    world.step(DT)
    _assert_finite(world)
    assert b.linear_velocity.length <= world.settings.max_linear_speed * (1 + 1e-12)
    assert abs(b.angular_velocity) <= 0.25 * math.pi / DT * (1 + 1e-12)


def test_an_impulse_beyond_the_velocity_bound_keeps_its_direction():
    world, ground, a, b = _scene()
    b.apply_linear_impulse((3e300, 4e300))
    v = b.linear_velocity
    assert max(abs(v.x), abs(v.y)) == pytest.approx(_validate.MAX_VELOCITY, rel=1e-12)
    assert v.y / v.x == pytest.approx(4.0 / 3.0, rel=1e-12)


# -- mass and inertia ------------------------------------------------------------------------

@pytest.mark.parametrize("call, name", [
    (lambda b: b.create_circle(1.0, density=1e300), "density"),
    (lambda b: b.create_circle(1e200), "radius"),
    (lambda b: b.create_circle(1e-160), "radius"),       # mass 3e-320 kg: 1 / mass is inf
    (lambda b: b.create_circle(1e-9), "radius"),          # inertia 1.6e-36 kg m^2
    (lambda b: b.create_circle(0.5, density=1e-320), "density"),
    (lambda b: b.create_box(1e300, 1.0), "half_width"),
    (lambda b: b.create_box(1.0, 1e300), "half_height"),
    (lambda b: b.create_box(1.0e4, 1.0e4, density=1e25), "density"),  # 4e33 kg
    (lambda b: b.create_box(1.0, 1.0, radius=1e300), "radius"),
    (lambda b: b.create_box(1.0, 1.0, angle=1e300), "angle"),
    (lambda b: b.create_capsule((0.0, 0.0), (1.0, 0.0), 1e-300), "radius"),
    (lambda b: b.create_capsule((0.0, 0.0), (1.0, 0.0), 1e300), "radius"),
    (lambda b: b.create_polygon([(0, 0), (1, 0), (0, 1)], density=1e308), "density"),
    (lambda b: b.create_polygon([(0, 0), (1, 0), (0, 1)], radius=1e300), "radius"),
    (lambda b: b.create_circle(0.5, friction=1e308), "friction"),
    (lambda b: b.create_circle(0.5, restitution=1e308), "restitution"),
    (lambda b: b.create_circle(0.5, group=2**63), "group"),
    (lambda b: b.create_circle(0.5, group=-10**400), "group"),
])
def test_shape_whose_mass_or_size_overflows_is_rejected(call, name):
    world, ground, a, b = _scene()
    assert_rejected(world, lambda: call(b), ValueError, name)


def test_a_shape_that_pushes_the_body_total_past_the_largest_mass_is_rejected():
    world, ground, a, b = _scene()
    heavy = world.create_body(position=(3.0, 1.0))
    density = 0.9 * _validate.MAX_MASS / 4.0  # a 2 x 2 m box of 0.9 MAX_MASS
    heavy.create_box(1.0, 1.0, density=density)
    world.step(DT)
    assert_rejected(world, lambda: heavy.create_box(1.0, 1.0, center=(2.0, 0.0), density=density),
                    ValueError, "density")


def test_density_setter_checks_the_mass_as_creation_does():
    world, ground, a, b = _scene()
    shape = b.shapes[0]
    assert_rejected(world, lambda: setattr(shape, "density", 1e300), ValueError, "density")
    assert_rejected(world, lambda: setattr(shape, "density", 1e-320), ValueError, "density")
    shape.density = 2.0  # a good value still works
    assert b.mass == pytest.approx(2.0 * math.pi * 0.25**2)


def test_a_static_body_too_heavy_to_become_dynamic_keeps_its_type():
    world, ground, a, b = _scene()
    block = world.create_body(type="static", position=(3.0, 1.0))
    density = 0.9 * _validate.MAX_MASS / 4.0
    block.create_box(1.0, 1.0, density=density)
    block.create_box(1.0, 1.0, center=(2.0, 0.0), density=density)  # fine while static
    assert_rejected(world, lambda: setattr(block, "type", "dynamic"), ValueError, "type")
    assert block.type is i2d.BodyType.STATIC


def test_a_body_far_from_its_shapes_gets_an_exact_positive_inertia():
    # About the body origin and shifted back, a 0.1 m disc 1e5 m from the origin lost all
    # its inertia's digits; taken about the centre of mass it is exact.
    world = i2d.World()
    body = world.create_body()
    body.create_circle(0.1, center=(1.0e5, 0.0))
    disc = math.pi * 0.01
    assert body.inertia == pytest.approx(0.5 * disc * 0.01, rel=1e-12)


# -- bodies, world, settings ------------------------------------------------------------------

@pytest.mark.parametrize("options, name", [
    ({"angle": 1e300}, "angle"),
    ({"angular_velocity": 1e300}, "angular_velocity"),
    ({"linear_velocity": (1e300, 0.0)}, "linear_velocity"),
    ({"gravity_scale": 1e308}, "gravity_scale"),
    ({"position": (10**400, 0.0)}, "position"),
    ({"angle": 10**400}, "angle"),
])
def test_extreme_body_options_are_rejected_at_creation_and_in_the_setters(options, name):
    world, ground, a, b = _scene()
    assert_rejected(world, lambda: world.create_body(**options), ValueError, name)
    (key, value), = options.items()
    assert_rejected(world, lambda: setattr(b, key, value), ValueError, name)


@pytest.mark.parametrize("name", ["contact_hertz", "joint_hertz", "contact_damping_ratio",
                                  "joint_damping_ratio", "contact_speed", "max_linear_speed",
                                  "restitution_threshold"])
@pytest.mark.parametrize("value", [1e160, 1e308, 10**400])
def test_extreme_settings_are_rejected(name, value):
    world, ground, a, b = _scene()
    assert_rejected(world, lambda: setattr(world.settings, name, value), ValueError, name)
    with pytest.raises(ValueError, match=name):
        i2d.World(**{name: value})


def test_extreme_gravity_and_time_step_are_rejected():
    world, ground, a, b = _scene()
    assert_rejected(world, lambda: setattr(world, "gravity", (0.0, -1e300)), ValueError, "gravity")
    with pytest.raises(ValueError, match="gravity"):
        i2d.World(gravity=(1e308, 0.0))
    assert_rejected(world, lambda: world.step(1e-300), ValueError, "dt")  # h = dt / substeps, 1 / h


# -- the small gaps --------------------------------------------------------------------------

@pytest.mark.parametrize("call, name", [
    (lambda w, b: b.create_circle(10**400), "radius"),
    (lambda w, b: b.create_circle(-10**400), "radius"),
    (lambda w, b: b.apply_force((10**400, 0)), "force"),
    (lambda w, b: b.apply_torque(10**400), "torque"),
    (lambda w, b: setattr(b, "angular_velocity", 10**400), "angular_velocity"),
    (lambda w, b: setattr(w.settings, "contact_hertz", 10**400), "contact_hertz"),
    (lambda w, b: setattr(b.shapes[0], "group", 10**400), "group"),
    (lambda w, b: setattr(b.shapes[0], "category", 10**400), "category"),
    (lambda w, b: w.create_revolute_joint(w.bodies[1], b, (0, 0), hertz=10**400), "hertz"),
    (lambda w, b: w.step(10**400), "dt"),
])
def test_an_integer_too_large_for_a_float_is_a_value_error_naming_it(call, name):
    world, ground, a, b = _scene()
    assert_rejected(world, lambda: call(world, b), ValueError, name)


def test_numpy_bools_are_accepted_wherever_a_bool_is():
    world, ground, a, b = _scene()
    body = world.create_body(position=(3.0, 1.0), fixed_rotation=np.bool_(True))
    assert body.fixed_rotation is True
    shape = body.create_circle(0.25, is_sensor=np.bool_(False))
    assert shape.is_sensor is False
    body.fixed_rotation = np.bool_(False)
    assert body.fixed_rotation is False and body.inertia > 0.0
    joint = world.create_revolute_joint(a, b, (0.5, 1.0), enable_limit=np.bool_(True),
                                        collide_connected=np.bool_(True))
    assert joint.enable_limit is True and joint.collide_connected is True
    joint.enable_motor = np.bool_(True)
    assert joint.enable_motor is True
    world.settings.warm_starting = np.bool_(False)
    assert world.settings.warm_starting is False
    # NumPy integers 0 and 1 count as bools as Python's do; other integers are not bools.
    joint.enable_spring = np.int64(1)
    assert joint.enable_spring is True
    with pytest.raises(TypeError, match="enable_spring"):
        joint.enable_spring = np.int64(2)
    world.step(DT)
    _assert_finite(world)


def test_numpy_bools_are_not_numbers():
    world, ground, a, b = _scene()
    assert_rejected(world, lambda: b.create_circle(np.bool_(True)), TypeError, "radius")
    assert_rejected(world, lambda: setattr(b.shapes[0], "group", np.bool_(True)), TypeError,
                    "group")


def test_numpy_scalars_are_accepted_wherever_numbers_are():
    world, ground, a, b = _scene()
    body = world.create_body(position=(np.float32(3.0), np.int64(1)), angle=np.float64(0.5),
                             angular_velocity=np.int32(2), gravity_scale=np.float16(0.5))
    assert body.position == (3.0, 1.0) and body.angle == 0.5 and body.angular_velocity == 2.0
    shape = body.create_box(np.float32(0.25), np.int64(1), density=np.float64(2.0),
                            group=np.int8(-3), category=np.uint64(2**63), mask=np.uint32(7))
    assert (shape.group, shape.category, shape.mask) == (-3, 2**63, 7)
    body.apply_force(np.array([1.0, 2.0]))
    body.apply_linear_impulse((np.float32(0.5), np.int16(0)))
    world.settings.substeps = np.int64(6)
    world.settings.contact_hertz = np.float32(25.0)
    assert world.settings.substeps == 6 and type(world.settings.substeps) is int
    joint = world.create_prismatic_joint(a, body, (3.0, 1.0), np.array([1.0, 0.0]),
                                         lower=np.float32(-1.0), upper=np.int64(1),
                                         hertz=np.float64(4.0))
    joint.limits = np.array([-0.5, 0.5])
    assert joint.limits == (-0.5, 0.5) and joint.hertz == 4.0
    world.step(DT)
    _assert_finite(world)


# -- the bounds are safe: values right at them step without inf or NaN ------------------------

@pytest.mark.parametrize("solver", ["soft_step", "pgs", "pgs_ngs", "pgs_block"])
def test_every_option_at_its_bound_steps_finitely(solver):
    big_hertz, big_factor = _validate.MAX_HERTZ, _validate.MAX_FACTOR
    world = i2d.World(solver=solver, contact_hertz=big_hertz, joint_hertz=big_hertz,
                      contact_damping_ratio=big_factor, joint_damping_ratio=big_factor,
                      max_linear_speed=_validate.MAX_SPEED, contact_speed=_validate.MAX_SPEED)
    ground = world.create_body(type="static")
    ground.create_box(5.0, 0.5, center=(0.0, -0.5), friction=big_factor, restitution=big_factor)
    a = world.create_body(position=(0.0, 0.5), gravity_scale=big_factor)
    a.create_box(0.25, 0.25, friction=big_factor, restitution=big_factor)
    b = world.create_body(position=(1.0, 0.5), angular_velocity=_validate.MAX_SPEED)
    b.create_circle(0.25)
    c = world.create_body(position=(-1.0, 0.5))
    c.create_box(0.25, 0.25)
    options = {"enable_spring": True, "hertz": big_hertz, "damping_ratio": big_factor,
               "enable_motor": True, "motor_speed": _validate.MAX_SPEED}
    world.create_revolute_joint(ground, a, (0.0, 0.5), max_motor_torque=_validate.MAX_FORCE,
                                enable_limit=True, lower_angle=-_validate.MAX_ANGLE,
                                upper_angle=_validate.MAX_ANGLE, **options)
    world.create_wheel_joint(a, b, (1.0, 0.5), (0.0, 1.0), max_motor_torque=_validate.MAX_FORCE,
                             enable_limit=True, lower=-_validate.MAX_LENGTH,
                             upper=_validate.MAX_LENGTH, **options)
    world.create_distance_joint(a, c, (0.0, 0.5), (-1.0, 0.5), max_motor_force=_validate.MAX_FORCE,
                                max_length=_validate.MAX_LENGTH, **options)
    world.create_mouse_joint(c, (-1.0, 0.5), _validate.MAX_FORCE, hertz=big_hertz,
                             damping_ratio=big_factor).target = (-1.0, 5.0)
    hinge = world.create_revolute_joint(ground, c, (-1.0, 0.5))
    slide = world.create_prismatic_joint(ground, b, (1.0, 0.5), (0.0, 1.0))
    world.create_gear_joint(hinge, slide, ratio=big_factor)
    world.create_pulley_joint(a, c, (0.0, 3.0), (-1.0, 3.0), (0.0, 0.5), (-1.0, 0.5),
                              ratio=big_factor)
    world.create_motor_joint(b, c, max_force=_validate.MAX_FORCE, max_torque=_validate.MAX_FORCE,
                             angular_offset=_validate.MAX_ANGLE)
    b.apply_force((_validate.MAX_FORCE, 0.0))
    b.apply_torque(-_validate.MAX_FORCE)
    for _ in range(10):
        world.step(DT)
        _assert_finite(world)
