"""Small worlds' fixed costs (issue 31 items 4 and 5): the stages and entries a small world's
step leaves out must leave its results as they were.

* A world without any contact skips the narrowphase's call and the contact gathering
  (:func:`impulse2d._dynamics.step.step_kernel`): a body that meets its first contact in the
  middle of a run, and one that loses every contact and flies, move bit for bit as in a world
  that had contacts all along, and as the physics says.
* A world of ``threads > 1`` too small for any pass to go parallel calls the serial solver and
  narrowphase instead of the threaded entries (same bits, without their fixed cost); from
  :data:`impulse2d._threads.MIN_ROWS` contact rows or :data:`impulse2d._threads.MIN_BODIES`
  awake bodies it calls the threaded ones.
* A world without joint rows leaves the solvers' joint passes out
  (:func:`impulse2d._dynamics.solvers.has_joint_rows`): a joint made between the steps of a
  world of contacts alone is solved from its next step.
"""

from __future__ import annotations

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d import _threads
from impulse2d._dynamics import step as step_module
from impulse2d._dynamics.verbs import (COLLIDE, SERIAL_COLLIDE, SERIAL_SOLVER, SOLVER,
                                       THREAD_BODIES, THREAD_ROWS)
from impulse2d.scenes import build_scene, step_scene

DT = 1.0 / 60.0
G = 10.0
RADIUS = 0.5


def _ball_world(height: float, far_pair: bool, vy: float = 0.0) -> tuple:
    """A ball (made first: the same row in both worlds) above a static ground whose top is at
    y = 0; with ``far_pair``, also a box resting on a ground of its own 100 m away, so that
    the world has a contact from the first step (no body of it touches the ball's)."""
    world = i2d.World(gravity=(0.0, -G))
    ball = world.create_body(position=(0.0, height), linear_velocity=(0.0, vy))
    ball.create_circle(RADIUS)
    ground = world.create_body(type="static")
    ground.create_box(5.0, 0.5, center=(0.0, -0.5))
    if far_pair:
        floor = world.create_body(type="static", position=(100.0, 0.0))
        floor.create_box(5.0, 0.5, center=(0.0, -0.5))
        box = world.create_body(position=(100.0, 0.5))
        box.create_box(0.5, 0.5)
    return world, ball


def _contact_count(world) -> int:
    return int(world._contacts.key.shape[0])


def test_first_contact_mid_run_steps_as_with_contacts_all_along():
    alone, ball = _ball_world(3.0, far_pair=False)
    other, twin = _ball_world(3.0, far_pair=True)
    had_none = gained = False
    for _ in range(240):
        alone.step(DT)
        other.step(DT)
        if _contact_count(alone) == 0:
            had_none = True
        elif had_none:
            gained = True
        assert _contact_count(other) > 0
        assert ball.position == twin.position
        assert ball.linear_velocity == twin.linear_velocity
    assert had_none and gained  # the run crossed from no contact to one
    # fell 2.5 m, then rests on the ground: centre one radius above it (within the slop)
    assert ball.position[1] == pytest.approx(RADIUS, abs=0.01)
    assert abs(ball.linear_velocity[1]) < 0.05


def test_a_new_contact_store_stays_in_the_reference_until_read():
    """The step does not hand its new contact store to Python (boxing it cost about a
    microsecond an array on one step in ten of 5 bouncing balls): Python's view keeps the old
    store, marked stale, and the first read takes the new one. A world read after every step
    and one never read until the end move bit for bit alike, and the contact read lazily is
    the physical one: the ball rests on the ground's top, normal straight up."""
    read, ball = _ball_world(3.0, far_pair=False)
    unread, twin = _ball_world(3.0, far_pair=False)
    stale_steps = 0
    for _ in range(240):
        read.step(DT)
        unread.step(DT)
        if read.__dict__["_contacts_stale"]:
            stale_steps += 1
            old = read.__dict__["_contacts"]
            new = read._contacts  # the property syncs from the reference
            assert new is not old and read.__dict__["_contacts"] is new
            assert not read.__dict__["_contacts_stale"]
        assert ball.position == twin.position
        assert ball.linear_velocity == twin.linear_velocity
    assert stale_steps >= 1  # the pair with the ground began in a step: a new store
    assert unread.__dict__["_contacts_stale"]  # made then, never read since
    (contact,) = unread.contacts
    assert not unread.__dict__["_contacts_stale"]
    assert read.state_hash() == unread.state_hash()
    normal = contact.normal if contact.shape_a.body.type == "static" else -contact.normal
    assert normal[0] == pytest.approx(0.0, abs=1e-12)
    assert normal[1] == pytest.approx(1.0, abs=1e-12)
    # fell 2.5 m and rests one radius above the ground's top (within the slop)
    assert twin.position[1] == pytest.approx(RADIUS, abs=0.01)
    assert abs(twin.linear_velocity[1]) < 0.05


def test_free_fall_without_contacts_is_ballistic():
    world, ball = _ball_world(50.0, far_pair=False)
    steps = 30  # 0.5 s: 1.25 m down, far above the ground (no pair at any time)
    for _ in range(steps):
        world.step(DT)
        assert _contact_count(world) == 0
    t = steps * DT
    assert ball.linear_velocity[1] == pytest.approx(-G * t, rel=1e-9)
    assert ball.position[1] == pytest.approx(50.0 - 0.5 * G * t * t, abs=0.02)


def test_losing_every_contact_then_landing_again():
    """A ball launched up from the ground (its contact dropped as it rises: the world has none
    for most of the flight) reaches v^2 / 2g, lands, and falls asleep on the ground; the same
    bits as in a world that kept a contact elsewhere."""
    v0 = 8.0  # apex 3.2 m above the start
    alone, ball = _ball_world(RADIUS, far_pair=False, vy=v0)
    other, twin = _ball_world(RADIUS, far_pair=True, vy=v0)
    lost = False
    apex = RADIUS
    for _ in range(600):
        alone.step(DT)
        other.step(DT)
        lost = lost or _contact_count(alone) == 0
        apex = max(apex, ball.position[1])
        assert ball.position == twin.position
        assert ball.angular_velocity == twin.angular_velocity
    assert lost
    assert apex - RADIUS == pytest.approx(v0 * v0 / (2.0 * G), rel=0.03)
    assert ball.position[1] == pytest.approx(RADIUS, abs=0.01)
    assert not ball.is_awake  # the sleep stage ran over no contact, then over one
    assert not twin.is_awake


def test_a_world_of_joints_only_swings_as_a_pendulum():
    """No contact at any step (the links do not collide with what they are pinned to): a
    pendulum released horizontally passes the bottom at sqrt(2 g L) (energy, within the soft
    step's loss), each step skipping the narrowphase."""
    world = i2d.World(gravity=(0.0, -G), enable_sleep=False)
    ground = world.create_body(type="static")
    length = 2.0
    bob = world.create_body(position=(length, 0.0))
    bob.create_circle(0.1, group=-1)
    world.create_revolute_joint(ground, bob, (0.0, 0.0))
    fastest = 0.0
    for _ in range(90):  # a quarter period is about 0.6 s (large swing)
        world.step(DT)
        assert _contact_count(world) == 0
        fastest = max(fastest, float(np.hypot(*bob.linear_velocity)))
    assert fastest == pytest.approx(np.sqrt(2.0 * G * length), rel=0.03)
    assert np.hypot(*bob.position) == pytest.approx(length, abs=1e-3)


@pytest.mark.parametrize("solver, stretch", [("soft_step", 1e-3), ("pgs", 0.02)])
def test_a_joint_made_in_a_world_of_contacts_alone_is_solved(solver, stretch):
    """A ball rests on the ground for a second with no joint in the world (its steps skip the
    joint passes); then a pendulum is pinned beside it, released horizontally: it swings on
    its length (within ``stretch``: 0.75 mm measured for the soft step, 12.8 mm for ``pgs``,
    whose Baumgarte bias lags the swing; falling free it would be 5 m below the pivot in the
    next second) and passes the bottom at sqrt(2 g L) (energy, within the solvers' loss)."""
    world, ball = _ball_world(RADIUS, far_pair=False)
    world.settings.solver = solver
    world.settings.enable_sleep = False
    for _ in range(60):
        world.step(DT)
    assert ball.position[1] == pytest.approx(RADIUS, abs=0.01)
    pivot = world.create_body(type="static", position=(20.0, 10.0))
    length = 2.0
    bob = world.create_body(position=(20.0 + length, 10.0))
    bob.create_circle(0.1, group=-1)
    world.create_revolute_joint(pivot, bob, (20.0, 10.0))
    fastest = 0.0
    for _ in range(60):
        world.step(DT)
        fastest = max(fastest, float(np.hypot(*bob.linear_velocity)))
        assert np.hypot(bob.position[0] - 20.0, bob.position[1] - 10.0) == pytest.approx(
            length, abs=stretch)
    assert fastest == pytest.approx(np.sqrt(2.0 * G * length), rel=0.05)
    assert ball.position[1] == pytest.approx(RADIUS, abs=0.01)


threaded_only = pytest.mark.skipif(not _threads._safe_layer(),
                                   reason="Numba has no thread-safe threading layer here")


def _hash(name: str, threads: int, steps: int) -> str:
    world = i2d.World(threads=threads)
    info = build_scene(world, name)
    for k in range(steps):
        step_scene(world, info, k)
    return world.state_hash()


@threaded_only
@pytest.mark.parametrize("name", ["bouncing_balls", "friction_ramp", "chain"])
def test_small_threaded_worlds_keep_their_bits(name):
    """At the default thresholds these worlds take the serial entries at 2 threads."""
    assert _hash(name, 2, 120) == _hash(name, 1, 120)


@threaded_only
def test_a_threaded_world_fills_both_entries():
    world = i2d.World(threads=2)
    build_scene(world, "bouncing_balls")
    world.step(DT)
    table = world._verbs
    assert table[SOLVER] == _threads.THREADED_KERNELS["soft_step"].address()
    assert table[SERIAL_SOLVER] == step_module.SOLVER_KERNELS["soft_step"].address()
    assert table[COLLIDE] == _threads.COLLIDE_KERNEL.address()
    assert table[SERIAL_COLLIDE] == step_module.STAGE_KERNELS[COLLIDE].address()
    assert table[THREAD_ROWS] == _threads.MIN_ROWS
    assert table[THREAD_BODIES] == _threads.MIN_BODIES
    world.settings.threads = 1  # serial again: no second entry
    world.step(DT)
    assert world._verbs[SERIAL_SOLVER] == 0 and world._verbs[SERIAL_COLLIDE] == 0
    assert world._verbs[SOLVER] == step_module.SOLVER_KERNELS["soft_step"].address()


def _marked_run(min_rows: int, min_bodies: int, monkeypatch) -> tuple:
    """A threaded world of 5 balls whose threaded solver slot is pointed at ``pgs`` after its
    first step (which fills its table), so that which slot the step calls shows in the
    results: the final state's hash, with the hashes of the same world on the serial soft step
    and of one switched to pgs after its first step."""
    monkeypatch.setattr(_threads, "MIN_ROWS", min_rows)
    monkeypatch.setattr(_threads, "MIN_BODIES", min_bodies)
    runs = {}
    for label, threads in (("marked", 2), ("soft_step", 1), ("pgs", 1)):
        world = i2d.World(threads=threads)
        info = build_scene(world, "bouncing_balls")
        step_scene(world, info, 0)  # the table filled (and the balls not yet touching down)
        if label == "marked":
            world._verbs[SOLVER] = step_module.SOLVER_KERNELS["pgs"].address()
        elif label == "pgs":
            world.settings.solver = "pgs"
        for k in range(1, 90):
            step_scene(world, info, k)
        runs[label] = world.state_hash()
    return runs


@threaded_only
def test_below_both_thresholds_the_serial_solver_runs(monkeypatch):
    runs = _marked_run(10_000, 10_000, monkeypatch)
    assert runs["soft_step"] != runs["pgs"]
    assert runs["marked"] == runs["soft_step"]


@threaded_only
def test_from_the_body_threshold_the_threaded_slot_runs(monkeypatch):
    runs = _marked_run(10_000, 2, monkeypatch)  # 5 awake balls >= 2
    assert runs["marked"] == runs["pgs"]


@threaded_only
def test_from_the_row_threshold_the_threaded_slot_runs(monkeypatch):
    runs = _marked_run(1, 10_000, monkeypatch)  # once a ball touches down: one row >= 1
    assert runs["marked"] != runs["soft_step"]
    assert runs["marked"] != runs["pgs"]  # the soft step's steps, then pgs's from the bounce
