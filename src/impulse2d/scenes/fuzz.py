"""Random worlds for robustness testing: the step must survive whatever a user builds.

:func:`random_world` fills a world from a seed with what a demanding user might create: every
shape type at sizes from 1 cm to 50 m, densities from 0.01 to 1000 kg/m^2, fast initial motion,
kinematic bodies, every joint type between random bodies with anchors anywhere (far anchors and
over-constrained loops included), springs, motors and limits. :func:`perturb` then changes it
between steps as a program would: destroys and creates bodies and joints, applies forces and
impulses, and changes the settings. :func:`check_world` says what, if anything, broke the
engine's promises: no NaN or infinity anywhere in the state, no body faster than the speed
limits, and finite reaction forces.

The generator draws only from the ``numpy.random.Generator`` it is given, so a seed reproduces a
world exactly; the fuzz tests (``tests/test_fuzz.py``) and the soak (``benchmarks/soak.py``) use
it, and a failing seed is a regression test in one line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..constants import MAX_ROTATION
from . import SceneInfo, scene
from .joints import _Builder, _ragdoll

SHAPES = ("circle", "box", "polygon", "capsule", "segment")
JOINTS = ("revolute", "distance", "prismatic", "weld", "wheel", "mouse", "motor", "pulley",
          "gear")


def _log_uniform(rng, low: float, high: float) -> float:
    return float(math.exp(rng.uniform(math.log(low), math.log(high))))


def _point(rng, spread: float) -> tuple[float, float]:
    return float(rng.uniform(-spread, spread)), float(rng.uniform(-spread, spread))


def _material(rng) -> dict:
    return {"density": _log_uniform(rng, 0.01, 1000.0), "friction": float(rng.uniform(0, 1)),
            "restitution": float(rng.choice([0.0, 0.0, rng.uniform(0, 1), 1.0]))}


def add_shape(body, rng, kind: str | None = None) -> None:
    """One shape of a random type, size (1 cm to 50 m) and material on ``body``."""
    kind = kind or str(rng.choice(SHAPES))
    size = _log_uniform(rng, 0.01, 50.0)
    center = _point(rng, 0.5 * size) if rng.random() < 0.3 else (0.0, 0.0)
    material = _material(rng)
    if kind == "circle":
        body.create_circle(size, center=center, **material)
    elif kind == "box":
        body.create_box(size, max(size * _log_uniform(rng, 0.05, 20.0), 0.003), center=center,
                        angle=float(rng.uniform(-3, 3)),
                        radius=float(rng.choice([0.0, 0.1 * size])), **material)
    elif kind == "polygon":
        count = int(rng.integers(3, 9))
        angles = np.sort(rng.uniform(0, 2 * math.pi, count))
        radii = size * rng.uniform(0.3, 1.0, count)
        points = [(center[0] + r * math.cos(t), center[1] + r * math.sin(t))
                  for r, t in zip(radii, angles)]
        try:
            body.create_polygon(points, **material)
        except ValueError:  # degenerate hull (collinear draw): a box instead
            body.create_box(size, size, center=center, **material)
    elif kind == "capsule":
        length = max(_log_uniform(rng, 0.001, 2.0) * size, 0.006)  # ends > slop apart
        t = float(rng.uniform(0, 2 * math.pi))
        p2 = (center[0] + length * math.cos(t), center[1] + length * math.sin(t))
        body.create_capsule(center, p2, _log_uniform(rng, 0.2, 1.0) * size, **material)
    else:
        t = float(rng.uniform(0, 2 * math.pi))
        p2 = (center[0] + size * math.cos(t), center[1] + size * math.sin(t))
        body.create_segment(center, p2, **material)


def add_body(world, rng, spread: float = 10.0):
    """A body of a random type (mostly dynamic) with one to three shapes and fast motion."""
    kind = str(rng.choice(["dynamic"] * 6 + ["kinematic", "static"]))
    moving = kind != "static"
    body = world.create_body(
        type=kind, position=_point(rng, spread), angle=float(rng.uniform(-4, 4)),
        linear_velocity=_point(rng, 60.0) if moving else (0.0, 0.0),
        angular_velocity=float(rng.uniform(-50, 50)) if moving else 0.0,
        linear_damping=float(rng.choice([0.0, 0.0, _log_uniform(rng, 0.01, 100.0)])),
        angular_damping=float(rng.choice([0.0, 0.0, _log_uniform(rng, 0.01, 100.0)])),
        gravity_scale=float(rng.choice([1.0, 1.0, rng.uniform(-3, 3)])),
        fixed_rotation=bool(rng.random() < 0.1))
    for _ in range(int(rng.integers(1, 4)) if rng.random() < 0.95 else 0):
        add_shape(body, rng)
    return body


def _spring(rng) -> dict:
    return {"hertz": float(rng.choice([0.0, _log_uniform(rng, 0.1, 240.0)])),
            "damping_ratio": float(rng.choice([0.0, rng.uniform(0, 2), 10.0]))}


def add_joint(world, rng, kind: str | None = None, pair=None):
    """A joint of a random type between two random bodies (or the bodies ``pair``, B dynamic)
    with anchors anywhere (near the bodies or far from both), and random springs, motors and
    limits. Returns it, or None when the world has no two bodies for it."""
    if pair is None:
        bodies = world.bodies
        dynamic = [body for body in bodies if body.type.name == "DYNAMIC"]
        if len(bodies) < 2 or not dynamic:
            return None
        b = dynamic[int(rng.integers(len(dynamic)))]   # a joint needs one body it can move
        others = [body for body in bodies if body != b]
        a = others[int(rng.integers(len(others)))]
    else:
        a, b = pair
    kind = kind or str(rng.choice(JOINTS))
    near = rng.random() < 0.7
    pa = tuple(a.position) if near else _point(rng, 20.0)
    pb = tuple(b.position) if near else _point(rng, 20.0)
    anchor = (0.5 * (pa[0] + pb[0]), 0.5 * (pa[1] + pb[1]))
    axis = _point(rng, 1.0)
    if math.hypot(*axis) < 1e-3:
        axis = (1.0, 0.0)
    speed = float(rng.uniform(-20, 20))
    force = _log_uniform(rng, 0.1, 1e5)
    limit = sorted(rng.uniform(-3, 3, 2).tolist())
    flags = {f: bool(rng.random() < 0.5) for f in ("limit", "motor", "spring")}
    collide = bool(rng.random() < 0.3)
    if kind == "revolute":
        return world.create_revolute_joint(
            a, b, anchor, enable_limit=flags["limit"], lower_angle=limit[0], upper_angle=limit[1],
            enable_motor=flags["motor"], motor_speed=speed, max_motor_torque=force,
            enable_spring=flags["spring"], collide_connected=collide, **_spring(rng))
    if kind == "distance":
        length = _log_uniform(rng, 0.01, 10.0) if rng.random() < 0.5 else None
        lengths = sorted(_log_uniform(rng, 0.01, 10.0) for _ in range(2))
        return world.create_distance_joint(
            a, b, pa, pb, length=length, min_length=lengths[0], max_length=lengths[1],
            enable_spring=flags["spring"], enable_motor=flags["motor"], motor_speed=speed,
            max_motor_force=force, collide_connected=collide, **_spring(rng))
    if kind == "prismatic":
        return world.create_prismatic_joint(
            a, b, anchor, axis, enable_limit=flags["limit"], lower=limit[0], upper=limit[1],
            enable_motor=flags["motor"], motor_speed=speed, max_motor_force=force,
            enable_spring=flags["spring"], collide_connected=collide, **_spring(rng))
    if kind == "weld":
        linear, angular = _spring(rng), _spring(rng)
        return world.create_weld_joint(
            a, b, anchor, linear_hertz=linear["hertz"], angular_hertz=angular["hertz"],
            linear_damping_ratio=linear["damping_ratio"],
            angular_damping_ratio=angular["damping_ratio"], collide_connected=collide)
    if kind == "wheel":
        spring = _spring(rng)
        return world.create_wheel_joint(
            a, b, anchor, axis, enable_spring=flags["spring"], hertz=spring["hertz"],
            damping_ratio=spring["damping_ratio"], enable_motor=flags["motor"], motor_speed=speed,
            max_motor_torque=force, enable_limit=flags["limit"], lower=limit[0], upper=limit[1],
            collide_connected=collide)
    if kind == "mouse":
        return world.create_mouse_joint(b, _point(rng, 15.0), force,
                                        hertz=_log_uniform(rng, 0.1, 60.0),
                                        damping_ratio=float(rng.uniform(0, 2)))
    if kind == "motor":
        return world.create_motor_joint(
            a, b, linear_offset=_point(rng, 3.0) if rng.random() < 0.5 else None,
            angular_offset=float(rng.uniform(-3, 3)) if rng.random() < 0.5 else None,
            max_force=force, max_torque=_log_uniform(rng, 0.1, 1e5),
            correction_factor=float(rng.uniform(0, 1)), collide_connected=collide)
    if kind == "pulley":
        ga = (pa[0], pa[1] + float(rng.uniform(0.5, 10)))
        gb = (pb[0], pb[1] + float(rng.uniform(0.5, 10)))
        return world.create_pulley_joint(a, b, ga, gb, pa, pb,
                                         ratio=_log_uniform(rng, 0.2, 5.0),
                                         collide_connected=collide)
    # A gear couples two revolute or prismatic joints whose bodies B differ.
    coupled = [j for j in world.joints if j.type.name in ("REVOLUTE", "PRISMATIC")]
    pairs = [(p, q) for p in coupled for q in coupled if p.body_b != q.body_b]
    if not pairs:
        return add_joint(world, rng, "revolute", (a, b))
    ja, jb = pairs[int(rng.integers(len(pairs)))]
    return world.create_gear_joint(ja, jb,
                                   ratio=float(rng.choice([-1, 1])) * _log_uniform(rng, 0.1, 10.0))


def random_world(world, rng, bodies: tuple[int, int] = (2, 9), joints: tuple[int, int] = (0, 7)):
    """Fill ``world`` with a random scene: a ground half of the time, ``bodies`` (low, high)
    bodies and ``joints`` (low, high) joints."""
    if rng.random() < 0.5:
        ground = world.create_body(type="static")
        ground.create_box(_log_uniform(rng, 5.0, 50.0), 0.5, center=(0.0, -12.0))
    for _ in range(int(rng.integers(*bodies))):
        add_body(world, rng)
    for _ in range(int(rng.integers(*joints))):
        add_joint(world, rng)
    return world


def perturb(world, rng, partner: str = "pgs") -> str:
    """One random change between steps, as a program makes them; returns what it did.
    ``"switch"`` swaps the solver between the soft step and ``partner``.

    A change the public boundary refuses (a shape whose mass would leave the bounds, say)
    raises ValueError and leaves the world as it was: that is the promised answer, so it is
    reported as ``"<action> rejected"`` and the run goes on. (An impulse is never refused
    for the speed it gives a light body: the step clamps it.)"""
    action = str(rng.choice(["destroy_body", "destroy_joint", "body", "joint", "force",
                             "impulse", "velocity", "settings", "switch"]))
    try:
        _perturb(world, rng, action, partner)
    except ValueError:
        return f"{action} rejected"
    return action


def _perturb(world, rng, action: str, partner: str) -> None:
    bodies = world.bodies
    body = bodies[int(rng.integers(len(bodies)))] if bodies else None
    if action == "destroy_body" and body is not None:
        world.destroy_body(body)
    elif action == "destroy_joint" and world.joints:
        joints = world.joints
        world.destroy_joint(joints[int(rng.integers(len(joints)))])
    elif action == "body":
        add_body(world, rng)
    elif action == "joint":
        add_joint(world, rng)
    elif action == "force" and body is not None:
        body.apply_force(_point(rng, 1e4), point=tuple(body.position))
        body.apply_torque(float(rng.uniform(-1e4, 1e4)))
    elif action == "impulse" and body is not None:
        body.apply_linear_impulse(_point(rng, 100.0))
        body.apply_angular_impulse(float(rng.uniform(-100, 100)))
    elif action == "velocity" and body is not None and body.type.name.lower() != "static":
        body.linear_velocity = _point(rng, 100.0)
        body.angular_velocity = float(rng.uniform(-100, 100))
    elif action == "settings":
        world.settings.substeps = int(rng.integers(1, 9))
        world.settings.velocity_iterations = int(rng.integers(1, 21))
        # from the draw above rather than a draw of its own, so that the worlds of the other
        # solvers stay the ones they were
        world.settings.position_iterations = 1 + world.settings.velocity_iterations % 5
        world.settings.warm_starting = bool(rng.random() < 0.8)
    elif action == "switch":
        world.settings.solver = partner if world.settings.solver == "soft_step" else "soft_step"


@dataclass
class Breach:
    """What a step broke: ``kind`` is ``"nan"`` (a non-finite value in the state), ``"speed"``
    (a body faster than ``max_linear_speed``), ``"spin"`` (faster than the rotation limit) or
    ``"reaction"`` (a non-finite joint reaction)."""

    kind: str
    detail: str


def check_world(world, dt: float) -> Breach | None:
    """The first broken promise in ``world`` after a step of ``dt`` s, or None.

    Checked: positions, angles and velocities finite; every speed at most ``max_linear_speed``
    and every spin at most a quarter turn per step (the clamps of the step, with a relative
    tolerance of 1e-9 for rounding); every joint's reaction force and torque finite.
    """
    positions = world.get_positions()
    angles = world.get_angles()
    velocities = world.get_velocities()
    state = np.concatenate([positions.ravel(), angles.ravel(), velocities.ravel()])
    if not np.all(np.isfinite(state)):
        return Breach("nan", "non-finite body state")
    limit = world.settings.max_linear_speed * (1.0 + 1e-9)
    speed = np.hypot(velocities[:, 0], velocities[:, 1]) if len(velocities) else np.zeros(0)
    if speed.size and speed.max() > limit:
        return Breach("speed", f"{speed.max():.6g} m/s > {world.settings.max_linear_speed} m/s")
    spin_limit = MAX_ROTATION / dt * (1.0 + 1e-9)
    spin = np.abs(velocities[:, 2]) if len(velocities) else np.zeros(0)
    if spin.size and spin.max() > spin_limit:
        return Breach("spin", f"{spin.max():.6g} rad/s > {MAX_ROTATION / dt:.6g} rad/s")
    for joint in world.joints:
        force = joint.reaction_force
        if not (math.isfinite(force[0]) and math.isfinite(force[1])
                and math.isfinite(joint.reaction_torque)):
            return Breach("reaction", f"{joint!r}: non-finite reaction")
    return None


@scene("debris_rain", "Ragdolls and random debris (every shape, sizes from 5 cm to 2 m, densities "
       "from 0.1 to 100) rain into a walled pit, fast, onto each other; the oldest bodies go when "
       "more than ``keep`` are alive. The soak test's scene (benchmarks/soak.py).",
       steps=1200, view=(-16.0, -2.0, 16.0, 28.0), seed=0, every=20, keep=250)
def debris_rain(world, seed=0, every=20, keep=250):
    rng = np.random.default_rng(seed)
    pit = world.create_body(type="static")
    pit.create_box(14.0, 0.5, center=(0.0, -0.5))
    for x in (-14.0, 14.0):
        pit.create_box(0.5, 8.0, center=(x, 7.5))
    dropped: list = []   # (bodies, joints) of each drop, oldest first

    def update(world, step):
        if step % every:
            return
        x = float(rng.uniform(-10, 10))
        velocity = (float(rng.uniform(-10, 10)), float(rng.uniform(-30, 0)))
        if rng.random() < 0.4:
            bld = _Builder(world)
            _ragdoll(bld, x, 18.0, -(step + 1), bool(rng.random() < 0.5), velocity[0])
            dropped.append(bld.bodies)
        else:
            bodies = []
            for k in range(int(rng.integers(1, 6))):
                body = world.create_body(
                    position=(x + 1.5 * k - 3.0, 20.0 + float(rng.uniform(0, 4))),
                    angle=float(rng.uniform(-3, 3)), linear_velocity=velocity,
                    angular_velocity=float(rng.uniform(-20, 20)))
                shape = str(rng.choice(SHAPES[:4]))
                size = _log_uniform(rng, 0.05, 2.0)
                material = {"density": _log_uniform(rng, 0.1, 100.0),
                            "friction": float(rng.uniform(0, 1)),
                            "restitution": float(rng.uniform(0, 0.8))}
                if shape == "circle":
                    body.create_circle(size, **material)
                elif shape == "box":
                    body.create_box(size, max(0.2 * size, _log_uniform(rng, 0.05, 2.0)),
                                    **material)
                elif shape == "capsule":
                    body.create_capsule((0.0, 0.0), (size, 0.0), 0.3 * size + 0.02, **material)
                else:
                    add_shape(body, rng, "polygon")
                bodies.append(body)
            if len(bodies) >= 2 and rng.random() < 0.5:
                add_joint(world, rng, str(rng.choice(JOINTS[:8])), (bodies[0], bodies[1]))
            dropped.append(bodies)
        while world.body_count > keep + 1 and dropped:
            for body in dropped.pop(0):
                world.destroy_body(body)

    return SceneInfo(bodies={"pit": pit}, data={"seed": seed, "every": every, "keep": keep},
                     update=update)


def run_world(seed: int, solver: str, steps: int, perturbed: float = 0.05,
              dt: float = 1.0 / 60.0) -> tuple[int, Breach | None]:
    """Build random world ``seed`` (gravity zero or -10 m/s^2) and step it ``steps`` times with
    ``solver``, changing it (:func:`perturb`) before a step with probability ``perturbed`` and
    checking it after each (:func:`check_world`; a switch of solver goes to the soft step and
    back, or to pgs and back for the soft step's own worlds). Returns the steps taken and the
    first breach, None when the world held."""
    import impulse2d as i2d
    rng = np.random.default_rng(seed)
    # The direct solver refuses an island above direct_max_rows; the fuzz hands such steps to
    # pgs (measured over seeds 0-299 x 200 steps: islands of 127 rows at most, below the
    # default limit, so the fallback is a safeguard here).
    extra = {"direct_fallback": "pgs"} if solver == "direct" else {}
    world = i2d.World(gravity=(0.0, float(rng.choice([0.0, -10.0]))), solver=solver, **extra)
    random_world(world, rng)
    for step in range(steps):
        if rng.random() < perturbed:
            perturb(world, rng, "pgs" if solver == "soft_step" else solver)
        world.step(dt)
        breach = check_world(world, dt)
        if breach is not None:
            return step + 1, breach
    return steps, None
