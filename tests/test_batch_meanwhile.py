"""``WorldBatch._step_state`` with ``held`` worlds and a ``meanwhile`` function (the native
environments' resets, run while the batch's other threads step the other worlds): the same
bits as ``meanwhile()`` then the step, for the batch and for the environments; a
``meanwhile`` that raises leaves the held worlds unstepped and the others stepped."""

from __future__ import annotations

import numpy as np
import pytest

import impulse2d as i2d

from conftest import batch_world

N = 12


def _batch(threads: int):
    batch = i2d.WorldBatch.replicate(batch_world(3), N, threads=threads)
    batch.worlds[5].settings.diagnostics = True  # stepped by World.step
    return batch


def _resets(batch, blank, idx, rng_value):
    """What an environment's reset does: restore worlds ``idx``, then push their bodies and
    change their gravity (writes through the public API, which mark the worlds for the
    batch's checks; the gravity is in the world's row of the kernel's arguments)."""
    def reset():
        batch.restore(blank, idx)
        for k in idx.tolist():
            w = batch.worlds[k]
            w.bodies[1 + k % 9].apply_linear_impulse((rng_value, 0.5))
            w.gravity = (rng_value, -10.0)
    return reset


@pytest.mark.parametrize("threads", [2, 3])
def test_meanwhile_then_held_worlds_equal_the_step_after_it(threads):
    """Worlds restored and pushed by ``meanwhile`` while the others step give the arrays and
    the worlds of the restores made first, then ``_step_state`` of every world (one thread),
    bit for bit: 240 steps, a different set of worlds reset every few steps, with impulse
    writes riding on the step, a world stepped by ``World.step`` among them."""
    beside, first = _batch(threads), _batch(1)
    blank_b, blank_f = beside.snapshot(), first.snapshot()
    rng = np.random.default_rng(4)
    nb = len(beside.body_rows)
    held_seen = 0
    for step in range(240):
        p = rng.normal(size=(N, nb, 3)) * 0.05 * (rng.random((N, nb, 1)) < 0.1)
        p[:, 0] = 0.0  # the floor is static
        idx = np.flatnonzero(rng.random(N) < 0.2) if step % 3 == 2 else np.zeros(0, np.int64)
        push = float(rng.uniform(-1.0, 1.0))
        held_seen += idx.shape[0]
        got = beside._step_state(1 / 60, beside._writes(impulses=p), held=idx,
                                 meanwhile=_resets(beside, blank_b, idx, push))
        _resets(first, blank_f, idx, push)()
        want = first._step_state(1 / 60, first._writes(impulses=p))
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)
    assert held_seen > 20
    assert [w.state_hash() for w in beside.worlds] == [w.state_hash() for w in first.worlds]
    assert [w.step_count for w in beside.worlds] == [w.step_count for w in first.worlds]
    assert [w.time for w in beside.worlds] == [w.time for w in first.worlds]


def test_meanwhile_that_raises_leaves_the_held_worlds_unstepped():
    batch = _batch(2)
    batch.step(1 / 60)
    before = [w.step_count for w in batch.worlds]
    held = np.array([2, 7], dtype=np.int64)

    def fails():
        raise RuntimeError("a reset failed")

    with pytest.raises(RuntimeError, match="a reset failed"):
        batch._step_state(1 / 60, held=held, meanwhile=fails)
    after = [w.step_count for w in batch.worlds]
    assert [a - b for a, b in zip(after, before)] == [0 if k in (2, 7) else 1 for k in range(N)]
    batch.step(1 / 60)  # the batch steps on
    assert [w.step_count for w in batch.worlds][2] == before[2] + 1


def _trace(envs, steps, seed):
    """Every array of ``steps`` random steps, and whether restarts ran beside the step."""
    envs.action_space.seed(seed)
    obs, _ = envs.reset(seed=seed)
    out = [obs]
    for _ in range(steps):
        out.extend(envs.step(envs.action_space.sample())[:4])
    beside = envs.batch._beside > 0  # (counted only by WorldBatch._run_around)
    envs.close()
    return out, beside


@pytest.mark.parametrize("wind", [False, True])
def test_lander_resets_beside_the_step_equal_resets_before_it(wind):
    """16 landers under random actions (episodes end by crashing and restart), two threads
    (restarts beside the step, or before it with the wind) against one (before it): the same
    observations, rewards and flags, bit for bit."""
    pytest.importorskip("gymnasium")
    from impulse2d.envs.lunar_lander import LunarLanderVectorEnv
    two, beside = _trace(LunarLanderVectorEnv(16, threads=2, enable_wind=wind), 160, 3)
    one, _ = _trace(LunarLanderVectorEnv(16, threads=1, enable_wind=wind), 160, 3)
    assert beside is not wind
    ended = sum(int((t | u).sum()) for t, u in zip(two[3::4], two[4::4]))
    assert ended >= 8
    for a, b in zip(two, one):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("hardcore", [False, True])
def test_walker_resets_beside_the_step_equal_resets_before_it(hardcore):
    """8 walkers, episodes truncated every 15 steps (hardcore: each reset makes its
    obstacles' bodies): the same arrays with two threads as with one, bit for bit."""
    pytest.importorskip("gymnasium")
    from impulse2d.envs.bipedal_walker import BipedalWalkerVectorEnv
    two, beside = _trace(BipedalWalkerVectorEnv(8, threads=2, max_episode_steps=15,
                                                hardcore=hardcore), 50, 5)
    one, _ = _trace(BipedalWalkerVectorEnv(8, threads=1, max_episode_steps=15,
                                           hardcore=hardcore), 50, 5)
    assert beside
    for a, b in zip(two, one):
        np.testing.assert_array_equal(a, b)


def test_the_worlds_not_held_are_numpys_difference():
    """``_batch_ready.others_than`` (the kernel's worlds while the held ones wait): the worlds
    of ``fast`` not in ``held``, in order, as ``np.setdiff1d``, for held worlds at the ends,
    in the middle, none, all, and some not in ``fast``."""
    from impulse2d import _batch_ready
    rng = np.random.default_rng(7)
    for n in (1, 2, 17, 1024):
        for _ in range(20):
            fast = np.flatnonzero(rng.random(n) < rng.choice([0.5, 1.0])).astype(np.int64)
            held = np.flatnonzero(rng.random(n) < rng.choice([0.0, 0.01, 0.3, 1.0]))
            out = np.full(n, -1, dtype=np.int64)
            m = _batch_ready.others_than(fast, held.astype(np.int64), out)
            np.testing.assert_array_equal(out[:m], np.setdiff1d(fast, held))
            assert np.all(out[m:] == -1)
