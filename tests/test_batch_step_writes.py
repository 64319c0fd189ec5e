"""Writes that ride on a batch step (``WorldBatch._writes``, :mod:`impulse2d._batch_writes`):
the native environments' impulses and motor writes, made by the kernel into each world right
before its step, give the bits of the public writes followed by the step."""

from __future__ import annotations

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d._dynamics import batch_step

from conftest import batch_world


def _hinged(motors: int = 2) -> i2d.World:
    """The benchmark's world (8 circles and 2 boxes on a floor) and, out of their way, arms
    on motorised hinges."""
    world = batch_world(0)
    ground = world.bodies[0]
    for k in range(motors):
        arm = world.create_body("dynamic", (20.0 + 3.0 * k, 3.0))
        arm.create_box(1.0, 0.1)
        world.create_revolute_joint(ground, arm, (20.0 + 3.0 * k, 3.0), enable_motor=True,
                                    max_motor_torque=50.0)
    return world


def _pair(threads: int):
    def make():
        batch = i2d.WorldBatch.replicate(_hinged(), 8, threads=threads)
        batch.worlds[3].settings.diagnostics = True  # stepped by World.step (its writes too)
        return batch
    return make(), make()


@pytest.mark.parametrize("threads", [1, 2])
def test_writes_in_the_step_equal_the_public_writes_then_the_step(threads):
    """Impulses (some on sleeping bodies: those worlds are written and stepped by Python),
    motor speeds and limits, written by the kernel before each world's step, give the arrays
    of ``apply_impulses``, ``set_motor_speeds``, ``set_max_motor_torques``, ``step`` and
    ``get_state``, and the same worlds, bit for bit; with a world stepped by ``World.step``
    and a step of dt = 0."""
    fused, plain = _pair(threads)
    rng = np.random.default_rng(11)
    n, nb, nj = 8, len(fused.body_rows), 2
    unwritten = 0
    woke_asleep = 0
    for step in range(260):
        # rare kicks after the first 2 s, so that bodies fall asleep between them
        kick = (rng.random((n, nb, 1)) < (0.02 if step >= 120 else 0.0))
        p = rng.normal(size=(n, nb, 3)) * 0.5 * kick
        p[:, 0] = 0.0  # the ground is static
        speeds = rng.uniform(-2.0, 2.0, size=(n, nj)) * (step % 7 == 0)
        limits = rng.uniform(0.0, 80.0, size=(n, nj))
        asleep = ~plain.get_awake() & (np.abs(p).sum(axis=2) > 0.0)
        asleep[:, 0] = False
        woke_asleep += int(asleep.sum())
        dt = 0.0 if step == 150 else 1 / 60
        got = fused._step_state(dt, fused._writes(impulses=p, motor_speeds=speeds,
                                                  max_motor_torques=limits))
        left = int((fused._state.results[:, batch_step.UNWRITTEN] != 0.0).sum())
        unwritten += left
        if dt:  # (the kernel's own count of them, its threads' together)
            assert fused._state.clocks[batch_step.TALLY][batch_step.UNWRITTEN_WORLDS] == left
        plain.apply_impulses(p)
        plain.set_motor_speeds(speeds)
        plain.set_max_motor_torques(limits)
        plain.step(dt)
        want = plain.get_state()
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)
    assert [w.state_hash() for w in fused.worlds] == [w.state_hash() for w in plain.worlds]
    assert [w.step_count for w in fused.worlds] == [w.step_count for w in plain.worlds]
    assert [w.time for w in fused.worlds] == [w.time for w in plain.worlds]
    # the path for impulses that wake an island was taken, and the worlds differ
    assert woke_asleep > 0 and unwritten > 0
    assert len({w.state_hash() for w in fused.worlds}) == n


def test_bad_writes_raise_before_any_world_changes():
    """The writes are checked as the public methods check them: a bad one raises naming its
    argument, and no world moves or changes."""
    batch = i2d.WorldBatch.replicate(_hinged(), 4, threads=1)
    for _ in range(5):
        batch.step(1 / 60)
    before = [w.state_hash() for w in batch.worlds]
    nb, nj = len(batch.body_rows), 2
    bad = np.zeros((4, nb, 3))
    bad[2, 3, 1] = np.nan
    with pytest.raises(ValueError, match="impulses must be finite"):
        batch._writes(impulses=bad)
    with pytest.raises(ValueError, match="impulses must have shape"):
        batch._writes(impulses=np.zeros((3, nb, 3)))
    with pytest.raises(ValueError, match="speeds must be finite and within"):
        batch._writes(motor_speeds=np.full((4, nj), 1e9))
    with pytest.raises(ValueError, match="limits must be finite and within"):
        batch._writes(max_motor_torques=np.full((4, nj), -1.0))
    assert [w.state_hash() for w in batch.worlds] == before
    assert all(w.step_count == 5 for w in batch.worlds)


def test_huge_impulses_are_written_at_once_with_the_overflow_check():
    """An impulse beyond what cannot overflow a velocity is not carried to the step: it is
    checked and written at once, as ``apply_impulses`` does (an overflow raises, no world
    changed)."""
    batch = i2d.WorldBatch.replicate(_hinged(), 2, threads=1)
    nb = len(batch.body_rows)
    p = np.zeros((2, nb, 3))
    p[1, 2, 0] = 1e308  # v += p / m (a circle of 0.28 kg): beyond float64
    before = [w.state_hash() for w in batch.worlds]
    with pytest.raises(ValueError, match=r"impulses\[1, 2\]"):
        batch._writes(impulses=p)
    assert [w.state_hash() for w in batch.worlds] == before
    p[1, 2, 0] = 1e280  # finite, beyond the safe bound: written now, the velocity scaled
    writes = batch._writes(impulses=p)
    assert writes.impulses is None
    v = batch.get_velocities()[1, 2]
    assert np.all(np.isfinite(v)) and abs(v[0]) == pytest.approx(1e30)


@pytest.mark.parametrize("threads", [1, 2])
def test_impulses_written_into_the_kernels_rows_equal_the_checked_writes(threads):
    """Impulses an environment writes straight into the batch step's rows of arguments
    (``_impulse_rows``, ``_packed_writes``: no checks, no copies) give the bits of the same
    impulses through ``_writes``: the worlds the kernel writes, those whose impulse would wake
    a sleeping body (written and stepped by Python), a world stepped by ``World.step``, and a
    step of dt = 0."""
    packed, checked = _pair(threads)
    rng = np.random.default_rng(12)
    n, nb = 8, len(packed.body_rows)
    unwritten = 0
    for step in range(200):
        kick = (rng.random((n, nb, 1)) < (0.02 if step >= 120 else 0.3))
        p = rng.normal(size=(n, nb, 3)) * 0.5 * kick
        p[:, 0] = 0.0  # the ground is static
        dt = 0.0 if step == 150 else 1 / 60
        rows, first = packed._impulse_rows()
        assert rows.shape == (n, first + 3 * nb) and not rows.any()
        rows[:, first:] = p.reshape(n, 3 * nb)
        got = packed._step_state(dt, packed._packed_writes(rows))
        unwritten += int((packed._state.results[:, batch_step.UNWRITTEN] != 0.0).sum())
        want = checked._step_state(dt, checked._writes(impulses=p))
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)
    assert [w.state_hash() for w in packed.worlds] == [w.state_hash() for w in checked.worlds]
    assert unwritten > 0   # (the path through Python was taken)
    assert len({w.state_hash() for w in packed.worlds}) == n
