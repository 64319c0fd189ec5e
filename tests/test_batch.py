"""WorldBatch: a world stepped in a batch is the world stepped alone, bit for bit, whatever the
batch, its split, the thread count or the neighbours; resets touch only the worlds reset; the
dense views and writes are the worlds' own arrays and the public setters' arithmetic."""

import copy
import threading

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d.scenes.fuzz import perturb, random_world

from conftest import batch_world

STEPS = 300
WORLDS = 64
PERTURB_EVERY = 60  # a random change between steps (bodies, joints, impulses, settings...)


def _fuzz_world(seed: int) -> i2d.World:
    rng = np.random.default_rng(seed)
    world = i2d.World(gravity=(0.0, -10.0))
    random_world(world, rng)
    s = world.settings
    # a mix of what a batch meets: each solver family member the step kernel takes, worlds
    # with events and with the direct solver (stepped by World.step inside the batch)
    s.solver = ("soft_step", "pgs", "pgs_ngs", "soft_step")[seed % 4]
    if seed % 16 == 5:
        s.enable_contact_events = True
    if seed % 32 == 9:
        s.solver = "direct"
    return world


def _run(worlds, step, steps=STEPS):
    """Step ``worlds`` ``steps`` times with ``step()``, the same random changes to each world
    between steps (each world's own generator); returns the state hashes."""
    rngs = [np.random.default_rng(1000 + k) for k in range(len(worlds))]
    for n in range(steps):
        if n % PERTURB_EVERY == PERTURB_EVERY - 1:
            for w, rng in zip(worlds, rngs):
                perturb(w, rng)
        step()
    return [w.state_hash() for w in worlds]


@pytest.fixture(scope="module")
def alone():
    """Each fuzz world stepped alone: the reference hashes."""
    worlds = [_fuzz_world(k) for k in range(WORLDS)]

    def step():
        for w in worlds:
            w.step(1 / 60)

    return _run(worlds, step)


@pytest.mark.parametrize("threads", [1, 2])
def test_batch_equals_alone(alone, threads):
    worlds = [_fuzz_world(k) for k in range(WORLDS)]
    batch = i2d.WorldBatch(worlds, threads=threads)
    assert _run(worlds, lambda: batch.step(1 / 60)) == alone


def test_split_batches_equal_alone(alone):
    """The same worlds in two batches (another order, other neighbours) give the same bits."""
    worlds = [_fuzz_world(k) for k in range(WORLDS)]
    first = i2d.WorldBatch(worlds[1::2], threads=2)
    second = i2d.WorldBatch(worlds[::2][::-1], threads=1)

    def step():
        first.step(1 / 60)
        second.step(1 / 60)

    assert _run(worlds, step) == alone


def _hinged(seed: int = 0) -> i2d.World:
    """The benchmark's world and, out of the way of its bodies, an arm on a motorised hinge
    (the joint views)."""
    world = batch_world(seed)
    ground = world.bodies[0]
    arm = world.create_body("dynamic", (20.0, 3.0))
    arm.create_box(1.0, 0.1)
    world.create_revolute_joint(ground, arm, (20.0, 3.0), enable_motor=True,
                                max_motor_torque=50.0)
    return world


def test_replicate_copies_and_steps_like_the_template():
    template = batch_world()
    batch = i2d.WorldBatch.replicate(template, 5, threads=2)
    assert len(batch) == 5 and all(w is not template for w in batch.worlds)
    for _ in range(120):
        batch.step(1 / 60)
        template.step(1 / 60)
    assert {w.state_hash() for w in batch.worlds} == {template.state_hash()}
    assert all(w.step_count == 120 and w.time == template.time for w in batch.worlds)


def test_resets_touch_only_the_worlds_reset():
    """Restoring half the worlds from a snapshot leaves the other half bit-identical to worlds
    never reset, and the restored half equal to the snapshot's state."""
    reference = i2d.WorldBatch([batch_world(k) for k in range(8)])
    batch = i2d.WorldBatch([batch_world(k) for k in range(8)])
    for _ in range(30):
        reference.step(1 / 60)
        batch.step(1 / 60)
    snap = batch.snapshot()
    at_snapshot = [w.state_hash() for w in batch.worlds]
    for _ in range(40):
        reference.step(1 / 60)
        batch.step(1 / 60)
    mask = np.arange(8) % 2 == 0
    batch.restore(snap, worlds=mask)
    for k, w in enumerate(batch.worlds):
        expected = at_snapshot[k] if mask[k] else reference.worlds[k].state_hash()
        assert w.state_hash() == expected
    # and on from there: the untouched half still equals the reference
    for _ in range(40):
        reference.step(1 / 60)
        batch.step(1 / 60)
    for k in np.flatnonzero(~mask):
        assert batch.worlds[k].state_hash() == reference.worlds[k].state_hash()
    batch.restore(snap, worlds=[1, 3])  # indices
    assert [batch.worlds[k].state_hash() for k in (1, 3)] == [at_snapshot[1], at_snapshot[3]]


def test_dense_views_equal_the_worlds_arrays():
    batch = i2d.WorldBatch.replicate(_hinged(), 6)
    rng = np.random.default_rng(3)
    for n in range(90):
        if n == 20:  # the copies part ways
            batch.apply_impulses(rng.normal(size=(6, len(batch.body_rows), 3)))
        batch.step(1 / 60)
    positions, angles = batch.get_positions(), batch.get_angles()
    velocities, awake, touching = batch.get_velocities(), batch.get_awake(), batch.get_touching()
    assert positions.shape == (6, 12, 2) and velocities.shape == (6, 12, 3)
    for k, w in enumerate(batch.worlds):
        np.testing.assert_array_equal(positions[k], w.get_positions())
        np.testing.assert_array_equal(angles[k], w.get_angles())
        np.testing.assert_array_equal(velocities[k], w.get_velocities())
        np.testing.assert_array_equal(awake[k], [b.is_awake for b in w.bodies])
        touched = set()
        for c in w.contacts:
            touched |= {c.shape_a.body, c.shape_b.body}
        np.testing.assert_array_equal(touching[k], [b in touched for b in w.bodies])
    assert touching.any() and not touching.all()
    state = batch.get_state()
    for got, want in zip(state, (positions, angles, velocities, awake, touching)):
        np.testing.assert_array_equal(got, want)
    some = batch.get_state(worlds=[4, 1])
    for got, want in zip(some, (positions, angles, velocities, awake, touching)):
        np.testing.assert_array_equal(got, want[[1, 4]])


@pytest.mark.parametrize("threads", [1, 2])
def test_state_gathered_in_the_step_equals_the_views_after_it(threads):
    """``WorldBatch._step_state`` (the native environments' step: each world's state gathered
    by the kernel right after its step) gives the arrays of ``step`` then ``get_state``, and
    the same worlds, bit for bit: with the copies parted, a world stepped by ``World.step``
    (diagnostics on), one that moves a body in an after-step function, and resets; gathered
    into new arrays, or every other step into those of the step before (``out``)."""
    def make():
        batch = i2d.WorldBatch.replicate(_hinged(), 8, threads=threads)
        batch.worlds[3].settings.diagnostics = True  # stepped by World.step, after the kernel
        return batch, batch.snapshot()

    (fused, snap_a), (plain, snap_b) = make(), make()
    impulses = np.random.default_rng(5).normal(size=(8, len(fused.body_rows), 3))
    got = None
    for n in range(100):
        if n % 20 == 10:
            for batch in (fused, plain):  # the copies part ways, and some are reset
                batch.apply_impulses(impulses * (n / 50))
            fused.restore(snap_a, worlds=[n % 8])
            plain.restore(snap_b, worlds=[n % 8])
        if n == 40:
            for batch in (fused, plain):
                w = batch.worlds[5]
                w.after_step(lambda w=w: setattr(w.bodies[2], "position", (1.0, 9.0)))
        before = got
        got = fused._step_state(1 / 60, out=before if n % 2 else None)
        assert (got is before) == bool(n % 2)
        plain.step(1 / 60)
        want = plain.get_state()
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)
    assert got.touching.any() and not got.touching.all()
    assert [w.state_hash() for w in fused.worlds] == [w.state_hash() for w in plain.worlds]


def test_writes_are_the_setters_arithmetic():
    """apply_impulses, apply_forces and set_velocities give the bits of the bodies' own
    setters (a linear impulse at the centre of mass plus an angular one, a force plus a torque,
    the velocity setters), then the steps agree."""
    batch = i2d.WorldBatch.replicate(batch_world(), 3)
    alone = [copy.deepcopy(w) for w in batch.worlds]
    rng = np.random.default_rng(7)
    nb = len(batch.body_rows)
    for n in range(60):
        p = rng.normal(size=(3, nb, 3)) * (rng.random((3, nb, 1)) < 0.5)
        f = rng.normal(size=(3, nb, 3)) * 20.0
        p[:, 0] = 0.0  # the ground is static: a static body takes no impulse or force
        f[:, 0] = 0.0
        batch.apply_impulses(p)
        batch.apply_forces(f)
        for k, w in enumerate(alone):
            for j, body in enumerate(w.bodies):
                if p[k, j].any():
                    body.apply_linear_impulse(tuple(p[k, j, :2]))
                    body.apply_angular_impulse(float(p[k, j, 2]))
                if f[k, j].any():
                    body.apply_torque(float(f[k, j, 2]))
                    body.apply_force(tuple(f[k, j, :2]))
        if n == 30:
            v = rng.normal(size=(3, nb, 3))
            v[:, 0] = 0.0
            batch.set_velocities(v)
            for k, w in enumerate(alone):
                for j, body in enumerate(w.bodies):
                    if j:
                        body.linear_velocity = tuple(v[k, j, :2])
                        body.angular_velocity = float(v[k, j, 2])
        batch.step(1 / 60)
        for w in alone:
            w.step(1 / 60)
    assert [w.state_hash() for w in batch.worlds] == [w.state_hash() for w in alone]


def test_motor_speeds_drive_the_joints():
    batch = i2d.WorldBatch.replicate(_hinged(), 3)
    speeds = np.array([[0.0], [1.0], [-2.0]])
    batch.set_motor_speeds(speeds)
    for _ in range(60):
        batch.step(1 / 60)
    alone = _hinged()
    alone.joints[0].motor_speed = -2.0
    for _ in range(60):
        alone.step(1 / 60)
    assert batch.worlds[2].state_hash() == alone.state_hash()
    for k, w in enumerate(batch.worlds):
        joint = w.joints[0]
        assert joint.motor_speed == speeds[k, 0]
        # the motor holds its speed against the arm's weight (0.4 kg at 1 m: 4 N m of 50)
        assert joint.speed == pytest.approx(speeds[k, 0], abs=0.02)


def test_batched_lidar_equals_each_worlds_ray_casts():
    batch = i2d.WorldBatch([batch_world(k) for k in range(5)])
    for _ in range(30):
        batch.step(1 / 60)
    angles = np.linspace(-np.pi, 0.0, 10)
    rays = np.stack([np.cos(angles), np.sin(angles)], axis=1) * 8.0
    origins = np.zeros((5, 10, 2)) + [0.0, 5.0]
    out = batch.ray_cast_many(origins, rays)
    assert out.fraction.shape == (5, 10) and out.point.shape == (5, 10, 2)
    for k, w in enumerate(batch.worlds):
        one = w.ray_cast_many(origins[k], rays)
        for a, b in zip(out, one):
            np.testing.assert_array_equal(a[k], b)
    assert (out.shape >= 0).any()


def test_python_threads_step_worlds_at_once():
    """The step releases Python's global lock: two threads each stepping its own worlds give
    the bits of stepping them in turn."""
    serial = [batch_world(k) for k in range(4)]
    for _ in range(200):
        for w in serial:
            w.step(1 / 60)
    threaded = [batch_world(k) for k in range(4)]

    def run(worlds):
        for _ in range(200):
            for w in worlds:
                w.step(1 / 60)

    from impulse2d._dynamics import batch_step, step
    # compiled to let go of the lock while they run (Numba's nogil)
    assert step.step_kernel.targetoptions["nogil"] and batch_step.step_batch.targetoptions["nogil"]
    threads = [threading.Thread(target=run, args=(threaded[k::2],)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [w.state_hash() for w in threaded] == [w.state_hash() for w in serial]


def test_contacts_read_after_batch_steps_are_current():
    """A batch leaves a world's new contact store in the step's reference; reading the world
    (contacts, contact data, a snapshot) sees the current one."""
    batch = i2d.WorldBatch([batch_world(1)])
    alone = batch_world(1)
    for _ in range(80):
        batch.step(1 / 60)
        alone.step(1 / 60)
    w = batch.worlds[0]
    assert [(c.shape_a.index, c.points) for c in w.contacts] == \
        [(c.shape_a.index, c.points) for c in alone.contacts]
    assert len(w.contacts) > 0
    np.testing.assert_array_equal(w.contact_data().point, alone.contact_data().point)
    clone = copy.deepcopy(w)
    for _ in range(30):
        clone.step(1 / 60)
        alone.step(1 / 60)
    assert clone.state_hash() == alone.state_hash()


def test_bad_input_raises_and_changes_nothing():
    batch = i2d.WorldBatch.replicate(_hinged(), 2)
    for _ in range(10):
        batch.step(1 / 60)
    before = [w.state_hash() for w in batch.worlds]
    nb = len(batch.body_rows)
    with pytest.raises(ValueError, match="velocities"):
        batch.set_velocities(np.ones((2, nb, 3)))  # the ground is static
    with pytest.raises(ValueError, match="shape"):
        batch.apply_forces(np.zeros((2, nb, 2)))
    with pytest.raises(ValueError, match="finite"):
        batch.apply_impulses(np.full((2, nb, 3), np.nan))
    with pytest.raises(ValueError, match="forces"):
        f = np.zeros((2, nb, 3))
        f[1, 3, 0] = 1e30
        batch.apply_forces(f)
        batch.apply_forces(f)  # the step's total would pass 1e30
    with pytest.raises(TypeError, match="speeds"):
        batch.set_motor_speeds("fast")
    with pytest.raises(ValueError, match="speeds"):
        batch.set_motor_speeds(np.full((2, 1), 1e6))
    with pytest.raises(ValueError, match="dt"):
        batch.step(float("nan"))
    with pytest.raises(ValueError, match="mask"):
        batch.restore(batch.snapshot(), worlds=np.ones(3, dtype=bool))
    other = i2d.WorldBatch.replicate(_hinged(), 2)
    with pytest.raises(ValueError, match="snapshot"):
        batch.restore(other.snapshot())
    with pytest.raises(ValueError, match="threads"):
        batch.threads = 0
    with pytest.raises(TypeError, match="worlds"):
        i2d.WorldBatch(batch.worlds[0])
    with pytest.raises(ValueError, match="more than once"):
        i2d.WorldBatch([batch.worlds[0], batch.worlds[0]])
    with pytest.raises(ValueError, match="n must"):
        i2d.WorldBatch.replicate(batch_world(), 0)
    with pytest.raises(ValueError, match="replicate"):
        i2d.WorldBatch([batch_world()]).get_positions()
    # the one accepted force above was applied (it was valid); undo by stepping both alike
    assert [w.state_hash() for w in batch.worlds][0] == before[0]
    batch.worlds[0].destroy_body(batch.worlds[0].bodies[4])
    with pytest.raises(ValueError, match=r"worlds\[0\] no longer has every body"):
        batch.get_positions()
