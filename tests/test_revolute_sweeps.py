"""The rigid solvers' sweep of a world whose joints are all revolute (``pgs_block``:
:func:`impulse2d._dynamics.joint_solver.revolute_rigid_pass`, the revolute kernels compiled into
the solver) gives the same bits as the sweep through the joint types' entries
(:func:`~impulse2d._dynamics.joint_solver.joint_pass`), which the same world takes as soon as it
has a joint of another type (``pgs_ngs`` takes the entries in both worlds: the far joint must
change nothing there either).

Likewise the soft step of such a world (``soft_step_revolute``: the revolute kernels compiled
into the solver, a unit of its own chosen by :func:`impulse2d._dynamics.step.needed_units`)
against the soft step through the entries, which the same world takes as soon as it has a
joint of another type, also when that joint comes and goes in the middle of a run.

The other type's joint is put on two bodies of their own, far from the rest and never touching
anything, and made at its rest length: it adds no impulse to the others and no position error
(the position passes stop at the same pass), so the revolute bodies must move bit for bit
alike on both paths, with contacts and without.
"""

from __future__ import annotations

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d import _threads
from impulse2d._dynamics.joint_solver import PIN_ROWS, REVOLUTE_ROWS
from impulse2d._dynamics.joints import ROW_LISTS
from impulse2d._dynamics.step import (JOINT_KERNELS, SOFT_STEP_REVOLUTE_KERNEL, SOLVER_KERNELS,
                                      needed_units)
from impulse2d._dynamics.verbs import JOINTS, SERIAL_SOLVER, SOLVER
from impulse2d.constants import ANGULAR_SLOP

SCALE = 30.0  # LunarLander's pixels per metre
DT = 1.0 / 50.0
SOFT = dict(solver="soft_step", substeps=8, joint_hertz=100.0, joint_damping_ratio=5.0)
"""The native LunarLander's settings (impulse2d.envs.lunar_lander.SETTINGS)."""


def _lander(world, ground: bool):
    """Gymnasium's LunarLander in metres (motors driving the legs into their limits: the
    revolute list), with a pinned box on the hull (the pins' list); returns its bodies."""
    if ground:
        world.create_body("static").create_segment((0.0, 0.0), (20.0, 0.0), friction=0.1)
    x0, y0 = 10.0, 1.2
    hull = world.create_body(position=(x0, y0), allow_sleep=False)
    hull.create_polygon([(-14 / SCALE, 17 / SCALE), (-17 / SCALE, 0.0),
                         (-17 / SCALE, -10 / SCALE), (17 / SCALE, -10 / SCALE),
                         (17 / SCALE, 0.0), (14 / SCALE, 17 / SCALE)], density=5.0, friction=0.1)
    bodies = [hull]
    for i in (-1, 1):
        leg = world.create_body(position=(x0 - i * 20 / SCALE, y0 - 18 / SCALE), angle=0.05 * i,
                                allow_sleep=False)
        leg.create_box(2 / SCALE, 8 / SCALE, density=1.0, friction=0.2)
        lower, upper = (0.4, 0.9) if i == -1 else (-0.9, -0.4)
        world.create_revolute_joint(hull, leg, (x0, y0), enable_limit=True, lower_angle=lower,
                                    upper_angle=upper, enable_motor=True, motor_speed=0.3 * i,
                                    max_motor_torque=40.0)
        bodies.append(leg)
    lamp = world.create_body(position=(x0 + 0.3, y0 + 0.5), allow_sleep=False)
    lamp.create_box(0.1, 0.05, density=1.0)
    world.create_revolute_joint(hull, lamp, (x0 + 0.2, y0 + 0.5))  # no motor, limit, spring
    bodies.append(lamp)
    return bodies


def _far_pair(world):
    """Two circles far off on a distance joint at its rest length, free-falling, nothing to
    touch: their own island, no error. Returns the joint."""
    a = world.create_body(position=(500.0, 50.0), allow_sleep=False)
    b = world.create_body(position=(502.0, 50.0), allow_sleep=False)
    a.create_circle(0.2, density=1.0)
    b.create_circle(0.2, density=1.0)
    return world.create_distance_joint(a, b, (500.0, 50.0), (502.0, 50.0))


def _state(bodies):
    return [(*b.position, b.angle, *b.linear_velocity, b.angular_velocity) for b in bodies]


def _motion(world, ground: bool, other_type: bool, steps: int):
    world_bodies = _lander(world, ground)
    if other_type:
        _far_pair(world)
    track = []
    for _ in range(steps):
        world.step(DT)
        track.append(_state(world_bodies))
    return track


@pytest.mark.parametrize("solver", ["pgs_ngs", "pgs_block"])
@pytest.mark.parametrize("ground", [False, True], ids=["joints_only", "joints_and_contacts"])
def test_revolute_sweep_matches_the_entries_bit_for_bit(solver, ground):
    steps = 120
    settings = dict(solver=solver, velocity_iterations=30, position_iterations=10)
    fast = _motion(i2d.World(**settings), ground, False, steps)
    entries = _motion(i2d.World(**settings), ground, True, steps)
    assert fast == entries  # floats compared exactly: the same bits
    # not a trivial run. In the air each motor drives its leg from joint angle 0 (the legs'
    # reference angles, -+0.05 rad) against its limit at 0.4 rad, where the position pass
    # leaves it within the angular slop; on the ground the lander stands on its legs (the hull
    # 0.44-0.59 m up, rocking: the pinned box swings on it), neither through it nor away.
    hull, leg_left, leg_right, _ = fast[-1]
    if ground:
        assert 0.3 < hull[1] < 1.0 and abs(hull[4]) < 3.0
    else:
        assert (leg_left[2] - hull[2] + 0.05) == pytest.approx(0.4, abs=ANGULAR_SLOP + 1e-3)
        assert (leg_right[2] - hull[2] - 0.05) == pytest.approx(-0.4, abs=ANGULAR_SLOP + 1e-3)
        assert hull[4] < -10.0  # falling: 2.4 s of free fall at 10 m/s^2


def _solver(world):
    """Which solver unit the world's table holds: "revolute", "entries" (the soft step
    through the joint entries) or the address."""
    address = int(world._verbs[SOLVER])
    if address == SOFT_STEP_REVOLUTE_KERNEL.compiled_address():
        return "revolute"
    if address == SOLVER_KERNELS["soft_step"].compiled_address():
        return "entries"
    return address


@pytest.mark.parametrize("ground", [False, True], ids=["joints_only", "joints_and_contacts"])
def test_soft_step_revolute_matches_the_entries_bit_for_bit(ground):
    steps = 150
    fast_world, entries_world = i2d.World(**SOFT), i2d.World(**SOFT)
    fast = _motion(fast_world, ground, False, steps)
    entries = _motion(entries_world, ground, True, steps)
    assert _solver(fast_world) == "revolute"
    assert _solver(entries_world) == "entries"
    # the revolute world calls no joint entry: none is in its table
    assert not fast_world._verbs[JOINTS:JOINTS + len(ROW_LISTS)].any()
    assert entries_world._verbs[JOINTS + REVOLUTE_ROWS] != 0
    assert fast == entries  # floats compared exactly: the same bits
    # and not a trivial run
    hull, leg_left, leg_right, lamp = fast[-1]
    if ground:
        # the lander stands on its legs (the hull 0.44-0.59 m up), neither through nor away
        assert 0.3 < hull[1] < 1.0 and abs(hull[4]) < 3.0
    else:
        # joints are internal forces: the lander's centre of mass falls freely (3 s at g)
        masses = [b.mass for b in fast_world.bodies[-4:]]  # the lander's
        momentum = sum(m * body[4] for m, body in zip(masses, fast[-1]))
        assert momentum / sum(masses) == pytest.approx(-10.0 * steps * DT, rel=1e-6)
        # each motor holds its leg at its limit (0.4 rad from the leg's reference angle, the
        # soft step's limit 100 Hz stiff against 40 N m: within 0.1 rad); the pinned lamp,
        # turned only by its pin's pull off its centre, within 0.1 rad of its start
        assert leg_left[2] - hull[2] + 0.05 == pytest.approx(0.4, abs=0.1)
        assert leg_right[2] - hull[2] - 0.05 == pytest.approx(-0.4, abs=0.1)
        assert lamp[2] - hull[2] == pytest.approx(0.0, abs=0.1)


def test_the_solver_follows_the_joints_through_a_run():
    """A far distance joint made at step 40 and destroyed at step 80 moves the world to the
    entries' soft step and back; the lander's bits stay those of a world that had it from the
    start (and lost it at the same step)."""
    worlds = [i2d.World(**SOFT), i2d.World(**SOFT)]
    bodies = [_lander(world, True) for world in worlds]
    far = [None, _far_pair(worlds[1])]
    tracks = [[], []]
    solvers = []
    for step in range(120):
        if step == 40:
            far[0] = _far_pair(worlds[0])
        if step == 80:
            for world, joint in zip(worlds, far):
                world.destroy_joint(joint)
        for world, own, track in zip(worlds, bodies, tracks):
            world.step(DT)
            track.append(_state(own))
        solvers.append(_solver(worlds[0]))
    assert solvers == ["revolute"] * 40 + ["entries"] * 40 + ["revolute"] * 40
    assert tracks[0] == tracks[1]


def test_needed_units_choose_the_revolute_solver_only_where_it_serves():
    def units(world):
        return needed_units(world, world._joint_rows()["by_type"])

    contacts = i2d.World(**SOFT)
    contacts.create_body("static").create_segment((0.0, 0.0), (20.0, 0.0))
    contacts.create_body(position=(1.0, 1.0)).create_circle(0.5)
    assert units(contacts)[SOLVER] is SOLVER_KERNELS["soft_step"]

    lander = i2d.World(**SOFT)
    _lander(lander, True)
    needed = units(lander)
    assert needed[SOLVER] is SOFT_STEP_REVOLUTE_KERNEL
    assert all(JOINTS + k not in needed for k in range(len(ROW_LISTS)))

    # its joints asleep, they leave the rows: the solver stays (no other unit to load)
    by_type = tuple(np.empty(0, dtype=np.int64) for _ in ROW_LISTS)
    assert needed_units(lander, by_type)[SOLVER] is SOFT_STEP_REVOLUTE_KERNEL

    # another joint type, or another solver: the entries
    _far_pair(lander)
    assert units(lander)[SOLVER] is SOLVER_KERNELS["soft_step"]
    assert units(lander)[JOINTS + PIN_ROWS] is JOINT_KERNELS["revolute"]
    for solver in ("soft_step_v31", "pgs"):
        other = i2d.World(**{**SOFT, "solver": solver})
        _lander(other, False)
        assert units(other)[SOLVER] is SOLVER_KERNELS[solver]
        assert units(other)[JOINTS + REVOLUTE_ROWS] is JOINT_KERNELS["revolute"]

    # on threads, the threaded soft step calls the entries; the revolute one serves the
    # steps too small for threads
    threaded = i2d.World(**{**SOFT, "threads": 2})
    _lander(threaded, False)
    needed = units(threaded)
    if _threads.solver_unit(threaded.settings) is not None:
        assert needed[SERIAL_SOLVER] is SOFT_STEP_REVOLUTE_KERNEL
        assert needed[JOINTS + REVOLUTE_ROWS] is JOINT_KERNELS["revolute"]
    else:
        assert needed[SOLVER] is SOFT_STEP_REVOLUTE_KERNEL
