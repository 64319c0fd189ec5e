"""The revolute joints' solve rows (``joints.sims``, the reference's ``joint_sims``): after a
step, each revolute joint's row holds, bit for bit, what its passes used to read from the joint
and body stores (the prepared frames and angle, the axial mass, the spring's softness, the
motor and limits with ``max_motor * h`` at the step's ``h``, the bodies' rows and inverse
masses, the switches), and the reference's rows follow the joint store as it grows. The pins
(no spring, motor or limit) have none: their passes read the stores.

That the passes read these rows to the same bits as before is what ``step_hashes.py`` and
``lander_callgrind.py``'s hash check (BENCHMARKS.md, session 32, ``jointR57``); the soft step
and the rigid sweeps through the revolute unit against the joint entries,
``test_revolute_sweeps.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

import impulse2d as i2d
from impulse2d._dynamics.joints.sims import SIM_DTYPE

DT = 1.0 / 50.0
SETTINGS = dict(solver="soft_step", substeps=8, joint_hertz=100.0, joint_damping_ratio=5.0)


@njit(cache=False)
def _sims(ref):
    return ref.joint_sims.copy()


def _bits(x) -> np.ndarray:
    return np.asarray(x, dtype=np.float64).view(np.int64)


def _world(solver):
    world = i2d.World(**{**SETTINGS, "solver": solver})
    world.create_body("static").create_segment((-5.0, 0.0), (5.0, 0.0))
    hull = world.create_body(position=(0.0, 1.0), allow_sleep=False)
    hull.create_box(0.5, 0.2, density=5.0)
    leg = world.create_body(position=(0.6, 0.7), angle=0.05, allow_sleep=False)
    leg.create_box(0.05, 0.25, density=1.0)
    lamp = world.create_body(position=(-0.3, 1.4), allow_sleep=False)
    lamp.create_circle(0.1, density=2.0)
    limb = world.create_body(position=(-0.6, 0.7), allow_sleep=False)
    limb.create_box(0.05, 0.25, density=1.5)
    joints = [
        # a motor into a limit (LunarLander's leg)
        world.create_revolute_joint(hull, leg, (0.5, 0.9), enable_limit=True, lower_angle=0.4,
                                    upper_angle=0.9, enable_motor=True, motor_speed=0.3,
                                    max_motor_torque=40.0),
        # a pin (the pins' row list)
        world.create_revolute_joint(hull, lamp, (-0.3, 1.2)),
        # a spring, no limit
        world.create_revolute_joint(hull, limb, (-0.5, 0.9), enable_spring=True, hertz=4.0,
                                    damping_ratio=0.7),
    ]
    return world, joints


@pytest.mark.parametrize("solver", ["soft_step", "pgs", "pgs_block"])
def test_a_revolute_joints_solve_row_holds_its_prepared_constants(solver):
    world, made = _world(solver)
    for _ in range(30):
        world.step(DT)
    sims = _sims(world._stores)
    joints = world._joints
    bodies = world._bodies
    assert sims.shape == joints.alive.shape and sims.dtype == SIM_DTYPE
    h = DT / 8 if solver == "soft_step" else DT
    for joint in (made[0], made[2]):  # (the pin, made[1], has no record)
        j = joint._row()
        a, b = joints.body_a[j], joints.body_b[j]
        expected = {
            "frame_a": joints.frame_a[j], "frame_b": joints.frame_b[j],
            "delta_center": joints.delta_center[j], "delta_angle": joints.delta_angle[j],
            "axial_mass": joints.axial_mass[j], "spring_soft": joints.spring_soft[j],
            "motor_speed": joints.motor_speed[j], "max_motor_impulse": joints.max_motor[j] * h,
            "lower": joints.lower[j], "upper": joints.upper[j],
            "inv_mass_a": bodies.inv_mass[a], "inv_mass_b": bodies.inv_mass[b],
            "inv_inertia_a": bodies.inv_inertia[a], "inv_inertia_b": bodies.inv_inertia[b],
            "body_a": a, "body_b": b,
            "spring_on": joints.enable_spring[j] and joints.hertz[j] > 0.0,
            "motor_on": joints.enable_motor[j], "limit_on": joints.enable_limit[j]}
        assert set(expected) == set(SIM_DTYPE.names)
        for name, value in expected.items():
            got = sims[j][name]
            if SIM_DTYPE[name].base == np.float64:
                assert _bits(got).tolist() == _bits(value).tolist(), (joint, name)
            else:
                assert got == value, (joint, name)
    # and the values are the joints' own, not zeros: the bodies are dynamic, the frames set
    leg = sims[made[0]._row()]
    assert leg["motor_on"] and leg["limit_on"] and not leg["spring_on"]
    assert leg["max_motor_impulse"] == pytest.approx(40.0 * h)
    assert leg["inv_mass_a"] > 0.0 and leg["inv_inertia_b"] > 0.0
    assert leg["frame_b"].any()
    assert sims[made[2]._row()]["spring_on"]
    assert not _bits(sims[made[1]._row()]["frame_a"]).any()  # the pin's, never written


def test_the_rows_follow_the_joint_store_as_it_grows():
    world, made = _world("soft_step")
    world.step(DT)
    before = _sims(world._stores).shape[0]
    hull = made[0].body_a
    extra = []
    for k in range(before + 1):  # past the store's rows: it grows, the reference is rebuilt
        body = world.create_body(position=(2.0 + k, 2.0), allow_sleep=False)
        body.create_circle(0.1, density=1.0)
        extra.append(world.create_revolute_joint(hull, body, (2.0 + k, 2.0), enable_limit=True,
                                                 lower_angle=-0.5, upper_angle=0.5))
    world.step(DT)
    sims = _sims(world._stores)
    assert sims.shape == world._joints.alive.shape
    assert sims.shape[0] > before
    last = extra[-1]._row()
    assert sims[last]["body_b"] == world._joints.body_b[last]
    assert sims[last]["inv_mass_b"] == world._bodies.inv_mass[world._joints.body_b[last]]


def test_a_prismatic_joint_sharing_the_revolute_prepare_gets_no_record():
    world, made = _world("soft_step")
    hull = made[0].body_a
    slider = world.create_body(position=(0.0, 2.0), allow_sleep=False)
    slider.create_box(0.1, 0.1, density=1.0)
    rail = world.create_prismatic_joint(hull, slider, (0.0, 2.0), (0.0, 1.0), enable_limit=True,
                                        lower=-0.5, upper=0.5, enable_motor=True,
                                        motor_speed=1.0, max_motor_force=50.0)
    for _ in range(5):
        world.step(DT)
    sims = _sims(world._stores)
    assert not _bits(sims[rail._row()]["frame_a"]).any()
    assert not sims[rail._row()]["motor_on"]
    assert sims[made[0]._row()]["motor_on"]  # (the revolute joint's, written)
    assert world._joints.frame_a[rail._row()].any()  # (its store's columns prepared as before)
