"""The native LunarLander's hook (``envs/_lander_hook.py``): each lander's engines and step's end
made by the batch kernel's thread beside its world's step give the bits of the passes over
the batch on the calling thread (the environment without its table), in every mode, and the
worlds the kernel does not take (stepped by ``World.step``, gathered again after after-step
functions) get the hook's phases from Python, each world's step's end made once."""

from __future__ import annotations

import hashlib

import numba
import numpy as np
import pytest

pytest.importorskip("gymnasium")

from impulse2d._dynamics import batch_step  # noqa: E402
from impulse2d.envs.lunar_lander import LunarLanderVectorEnv  # noqa: E402

pytestmark = pytest.mark.skipif(numba.config.DISABLE_JIT, reason="no hook without the JIT")


def _play(hooked: bool, n: int, steps: int, threads: int, tweak=None, **options):
    """A hash of every observation, reward, flag and final observation of ``steps`` seeded
    random steps, and the episodes ended; ``tweak(env, k)`` before step ``k``."""
    env = LunarLanderVectorEnv(n, threads=threads, max_episode_steps=options.pop("mes", 1000),
                               **options)
    if not hooked:
        env._table = None  # (the passes over the batch on the calling thread)
    env.reset(seed=3)
    space = env.action_space
    space.seed(1)
    digest = hashlib.sha256()
    ended = 0
    for k in range(steps):
        if tweak is not None:
            tweak(env, k)
        obs, reward, terminated, truncated, infos = env.step(space.sample())
        for a in (obs, reward, terminated, truncated):
            digest.update(np.ascontiguousarray(a).tobytes())
        ended += int((terminated | truncated).sum())
        for final in infos.get("final_obs", ()):
            if final is not None:
                digest.update(final.tobytes())
    env.close()
    return digest.hexdigest(), ended


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("options", [{}, {"continuous": True}, {"enable_wind": True},
                                     {"autoreset_mode": "same_step"}, {"mes": 30}])
def test_hook_keeps_the_bits(threads, options):
    hooked = _play(True, 24, 80, threads, **dict(options))
    assert hooked == _play(False, 24, 80, threads, **dict(options))
    assert hooked[1] > 0  # (episodes ended: restarts and their steps' ends were taken)


class _Phases:
    """``batch_step._hook_worlds`` counting the worlds of each phase Python calls."""

    def __init__(self, real):
        self.real = real
        self.seen = {batch_step.HOOK_BEFORE: 0, batch_step.HOOK_AFTER: 0,
                     batch_step.HOOK_AGAIN: 0}

    def entry(self, hook, worlds, phase):
        self.seen[phase] += len(worlds)
        return self.real.entry(hook, worlds, phase)


@pytest.mark.parametrize("threads", [1, 2])
def test_hook_phases_from_python(threads, monkeypatch):
    """World 5 has the solver's diagnostics on (``World.step`` steps it: the engines and the
    step's end by Python), world 3 an after-step function each step (its state gathered again:
    the kernel's step's end undone and made again): the same bits as without the hook."""
    def tweak(env, k):
        worlds = env.batch.worlds
        if k == 0:
            worlds[5].settings.diagnostics = True
        worlds[3].after_step(lambda: None)

    phases = _Phases(batch_step._hook_worlds)
    monkeypatch.setattr(batch_step, "_hook_worlds", phases)
    hooked = _play(True, 12, 60, threads, tweak)
    assert phases.seen[batch_step.HOOK_BEFORE] >= 59  # (world 5, every step but the first)
    assert phases.seen[batch_step.HOOK_AFTER] >= 59
    assert phases.seen[batch_step.HOOK_AGAIN] >= 50  # (world 3, but where it was restarted)
    assert hooked == _play(False, 12, 60, threads, tweak)


def test_bad_action_raises_before_any_world_moves():
    env = LunarLanderVectorEnv(4, threads=2)
    env.reset(seed=0)
    before = [w.state_hash() for w in env.batch.worlds]
    elapsed = env._elapsed.copy()
    with pytest.raises(ValueError, match="0, 1, 2 or 3"):
        env.step(np.array([0, 1, 7, 2]))
    assert [w.state_hash() for w in env.batch.worlds] == before
    assert (env._elapsed == elapsed).all()
    env.step(np.array([0, 1, 3, 2]))  # (and the next step is taken as usual)
    env.close()
