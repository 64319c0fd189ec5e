"""WorldBatch's body writes on the batch's threads (``_batch_views.scatter_bodies``): a bad
entry in any world, wherever its chunk falls among the threads, raises naming the first bad
(world, body) and leaves every world as it was; good writes give the same bits on one thread
and on two."""

from __future__ import annotations

import numpy as np
import pytest

import impulse2d as i2d

WORLDS = 64


def _template() -> i2d.World:
    """A floor, a light box (its impulse can overflow a velocity) and a heavy ball."""
    world = i2d.World(gravity=(0.0, -10.0))
    world.create_body("static").create_box(10.0, 0.5)
    world.create_body("dynamic", (0.0, 2.0)).create_box(0.1, 0.1, density=1e-3)
    world.create_body("dynamic", (2.0, 2.0)).create_circle(0.5, density=5.0)
    return world


def _batch(threads: int) -> i2d.WorldBatch:
    batch = i2d.WorldBatch.replicate(_template(), WORLDS, threads=threads)
    kicks = np.zeros((WORLDS, 3, 3))
    kicks[:, 1:, 0] = np.linspace(-1.0, 1.0, WORLDS)[:, None]   # the copies part ways
    batch.apply_impulses(kicks)
    for _ in range(20):
        batch.step(1 / 60)
    return batch


@pytest.mark.parametrize("threads", [1, 2])
def test_a_bad_entry_anywhere_raises_and_changes_no_world(threads):
    batch = _batch(threads)
    before = [w.state_hash() for w in batch.worlds]
    p = np.zeros((WORLDS, 3, 3))
    p[:, 1:, 1] = 1.0          # a good impulse for every dynamic body ...
    p[50, 1, 0] = 1e308        # ... but world 50's light box would overflow (inv_mass 1e5)
    p[60, 1, 0] = 1e308
    with pytest.raises(ValueError, match=r"impulses\[50, 1\] would give the body a velocity"):
        batch.apply_impulses(p)
    assert [w.state_hash() for w in batch.worlds] == before
    f = np.zeros((WORLDS, 3, 3))
    f[:, 2, 2] = 1.0
    f[33, 2, 0] = 6e29         # twice: the accumulated force passes 1e30 in world 33 only
    batch.apply_forces(f)
    before = [w.state_hash() for w in batch.worlds]
    with pytest.raises(ValueError, match=r"forces\[33, 2\]"):
        batch.apply_forces(f)
    assert [w.state_hash() for w in batch.worlds] == before
    v = np.zeros((WORLDS, 3, 3))
    v[63, 0, 2] = 1.0          # the floor is static: no velocity for it, even in the last world
    with pytest.raises(ValueError, match=r"velocities\[63, 0\]"):
        batch.set_velocities(v)
    assert [w.state_hash() for w in batch.worlds] == before


def test_writes_on_two_threads_equal_one_thread():
    """The same writes and steps on one thread and on two give the same bits (the writes'
    arithmetic is the setters', ``test_batch.test_writes_are_the_setters_arithmetic``)."""
    one, two = _batch(1), _batch(2)
    rng = np.random.default_rng(4)
    for n in range(40):
        p = rng.normal(size=(WORLDS, 3, 3)) * (rng.random((WORLDS, 3, 1)) < 0.5)
        f = rng.normal(size=(WORLDS, 3, 3)) * 5.0
        p[:, 0] = f[:, 0] = 0.0   # the floor takes none
        v = np.zeros((WORLDS, 3, 3))
        v[:, 1:] = rng.normal(size=(WORLDS, 2, 3))
        for batch in (one, two):
            batch.apply_impulses(p)
            batch.apply_forces(f)
            if n == 20:
                batch.set_velocities(v)
            batch.step(1 / 60)
    assert [w.state_hash() for w in one.worlds] == [w.state_hash() for w in two.worlds]
    assert len({w.state_hash() for w in one.worlds}) == WORLDS   # the worlds differ


def test_impulses_under_the_safe_bound_skip_the_check_and_stay_finite():
    """Impulses of at most ``batch._SAFE_IMPULSE`` (1e270 N s) are written in one pass: no
    body's inverse mass (at most 1e30) can take such an impulse past float64's range, and the
    write scales the velocity into 1e30 as ``Body.apply_linear_impulse`` does."""
    from impulse2d.batch import _SAFE_IMPULSE
    batch = _batch(2)
    p = np.zeros((WORLDS, 3, 3))
    p[:, 1, 0] = _SAFE_IMPULSE      # the light box: 1e270 / 4e-5 kg
    p[:, 2, 2] = -_SAFE_IMPULSE     # the ball's spin
    batch.apply_impulses(p)
    v = batch.get_velocities()
    assert np.all(np.isfinite(v))
    # (scaled into 1e30: to within the scale's rounding)
    np.testing.assert_allclose(v[:, 1, 0], 1e30, rtol=1e-12)
    np.testing.assert_allclose(v[:, 2, 2], -1e30, rtol=1e-12)
