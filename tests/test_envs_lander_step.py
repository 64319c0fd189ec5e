"""The native LunarLander's compiled per-step arithmetic (``impulse2d.envs._lander_step``)
gives, bit for bit, what the environment's NumPy code gave before it (written out here as the
reference): the engines' impulses, the episodes' terrain and push, the observations, rewards
and endings, the rest timers and the step's end in one pass;
and its draws from each environment's generator are the generator's own calls (the same
numbers, the generator left in the same state)."""

import math

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils import seeding  # noqa: E402

from impulse2d.envs import _draws, _lander_step  # noqa: E402
from impulse2d.envs.lunar_lander import (CHUNK_X, CHUNKS, FPS, H, HELIPAD_Y,  # noqa: E402
                                         LEG_DOWN, MAIN_ENGINE_POWER, MAIN_ENGINE_Y_LOCATION,
                                         SCALE,
                                         SIDE_ENGINE_AWAY, SIDE_ENGINE_HEIGHT,
                                         SIDE_ENGINE_POWER, W)


def _bits(a):
    return np.ascontiguousarray(a).view(np.uint8).tobytes()


def _numpy_engines(pose, lc, d, m_power, s_power, direction):
    """The environment's NumPy engines (impulse2d 16ae6c2, ``LunarLanderVectorEnv._engines``),
    with the sines and cosines of libm (Python's ``math``, as Gymnasium's: the kernel's)."""
    pos, angle = pose[:, :2], pose[:, 2]
    sin = np.array([math.sin(x) for x in angle.tolist()])
    cos = np.array([math.cos(x) for x in angle.tolist()])
    tip = np.stack((sin, cos), axis=1)
    side = np.stack((-cos, sin), axis=1)
    com = pos + np.stack((cos * lc[0] - sin * lc[1], sin * lc[0] + cos * lc[1]), axis=1)
    along = MAIN_ENGINE_Y_LOCATION / SCALE + 2 * d[:, 0]
    ox = tip[:, 0] * along + side[:, 0] * d[:, 1]
    oy = -tip[:, 1] * along - side[:, 1] * d[:, 1]
    p_main = -np.stack((ox, oy), axis=1) * (MAIN_ENGINE_POWER * m_power)[:, None]
    at_main = pos + np.stack((ox, oy), axis=1)
    across = 3 * d[:, 1] + direction * SIDE_ENGINE_AWAY / SCALE
    ox = tip[:, 0] * d[:, 0] + side[:, 0] * across
    oy = -tip[:, 1] * d[:, 0] - side[:, 1] * across
    p_side = -np.stack((ox, oy), axis=1) * (SIDE_ENGINE_POWER * s_power)[:, None]
    at_side = pos + np.stack((ox - tip[:, 0] * 17 / SCALE,
                              oy + tip[:, 1] * SIDE_ENGINE_HEIGHT / SCALE), axis=1)
    r_main = at_main - com
    r_side = at_side - com
    out = np.zeros((pose.shape[0], 3))
    out[:, :2] = p_main + p_side
    out[:, 2] = (r_main[:, 0] * p_main[:, 1] - r_main[:, 1] * p_main[:, 0]
                 + r_side[:, 0] * p_side[:, 1] - r_side[:, 1] * p_side[:, 0])
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_engine_impulses_are_the_numpy_engines_bit_for_bit(seed):
    rng = np.random.default_rng(seed)
    n, bodies = 300, 3
    pose = np.column_stack((rng.uniform(0, W, n), rng.uniform(0, H, n),
                            rng.uniform(-4, 4, n)))
    pose[:5, 2] = [0.0, -0.0, math.pi, 1e-300, -2 * math.pi]
    lc = np.array([rng.normal() * 0.01, rng.normal() * 0.1])
    # each environment's generator (drawn by the kernel) and its twin (drawn here, as
    # Gymnasium draws the step's two numbers)
    gens = [seeding.np_random(100 * seed + i)[0] for i in range(n)]
    twins = [seeding.np_random(100 * seed + i)[0] for i in range(n)]
    for i in range(n):   # (generators part-way through their streams)
        k = int(rng.integers(0, 5))
        gens[i].uniform(size=k)
        twins[i].uniform(size=k)
    draws = np.array([_draws.addresses(g) for g in gens], dtype=np.int64)
    acting = rng.random(n) < 0.8
    a = rng.integers(0, 4, n)
    m_power = np.where(acting, (a == 2).astype(np.float64), 0.0)
    s_power = np.where(acting, ((a == 1) | (a == 3)).astype(np.float64), 0.0)
    direction = (a - 2).astype(np.float64)
    m_power[:20] = rng.uniform(0.5, 1.0, 20)   # continuous throttles
    s_power[20:40] = rng.uniform(0.5, 1.0, 20)
    direction[20:40] = np.sign(rng.normal(size=20))
    # an environment being reset (not acting) draws nothing and is not dispersed
    d = np.array([[twins[i].uniform(-1.0, +1.0) / SCALE for _ in range(2)] if acting[i]
                  else [0.0, 0.0] for i in range(n)])
    expected = _numpy_engines(pose, lc, d, m_power, s_power, direction)
    first = 1   # (the batch step's rows: its arguments, then 3 columns a body's impulse)
    impulses = np.full((n, first + 3 * bodies), 7.0)
    fired = _lander_step.engine_impulses(
        pose, float(lc[0]), float(lc[1]), draws, acting, m_power, s_power, direction,
        MAIN_ENGINE_Y_LOCATION / SCALE, MAIN_ENGINE_POWER, float(SIDE_ENGINE_AWAY),
        SIDE_ENGINE_POWER, 17.0, float(SIDE_ENGINE_HEIGHT), SCALE, impulses, first)
    assert fired
    assert _bits(impulses[:, first:first + 3]) == _bits(expected)
    assert np.all(impulses[:, :first] == 7.0) and np.all(impulses[:, first + 3:] == 7.0)
    for g, t in zip(gens, twins):   # each generator where its twin is
        assert g.bit_generator.state == t.bit_generator.state
    assert np.abs(expected[:, :2]).max() > 1.0   # (the engines fired)
    # no throttle: no engine fired, every impulse a zero
    idle = np.zeros(n)
    assert not _lander_step.engine_impulses(
        pose, float(lc[0]), float(lc[1]), draws, np.zeros(n, dtype=bool), idle, idle,
        direction, MAIN_ENGINE_Y_LOCATION / SCALE, MAIN_ENGINE_POWER, float(SIDE_ENGINE_AWAY),
        SIDE_ENGINE_POWER, 17.0, float(SIDE_ENGINE_HEIGHT), SCALE, impulses, first)
    assert np.all(impulses[:, first:first + 3] == 0.0)


def _numpy_terrain(height, reverse):
    """The environment's NumPy terrain (impulse2d 03fc3dc, ``_begin_episodes`` and
    ``_move_terrain``): (k, 12) heights to the surface's segments' ends ``a``, ``b``."""
    height = height.copy()
    height[:, CHUNKS // 2 - 2:CHUNKS // 2 + 3] = HELIPAD_Y
    smooth = np.empty((height.shape[0], CHUNKS))
    smooth[:, 1:] = 0.33 * (height[:, :-2] + height[:, 1:-1] + height[:, 2:])
    smooth[:, 0] = 0.33 * (height[:, -1] + height[:, 0] + height[:, 1])
    points = np.empty((smooth.shape[0], CHUNKS, 2))
    points[:, :, 0] = CHUNK_X
    points[:, :, 1] = smooth
    if reverse:
        points = points[:, ::-1]
    return points[:, :-1], points[:, 1:]


@pytest.mark.parametrize("reverse", [True, False])
def test_begin_episodes_draws_the_generators_own_calls_into_gymnasiums_terrain(reverse):
    """Heights and the push (Gymnasium's reset: ``uniform(0, H / 2, size=12)``, then two
    ``uniform(-1000, 1000)``), and the draws dropped, for a subset of the environments: the
    same bits, each generator left where its twin is, the others untouched; the terrain the
    NumPy code's bit for bit (a chain's right to left, the faithful edges left to right), the
    push the lander's force, the episodes' state cleared for those environments only."""
    n, bodies = 40, 3
    gens = [seeding.np_random(7 + i)[0] for i in range(n)]
    twins = [seeding.np_random(7 + i)[0] for i in range(n)]
    draws = np.array([_draws.addresses(g) for g in gens], dtype=np.int64)
    idx = np.array([0, 3, 4, 17, 39], dtype=np.int64)
    others = np.setdiff1d(np.arange(n), idx)
    a, b = np.empty((idx.shape[0], CHUNKS - 1, 2)), np.empty((idx.shape[0], CHUNKS - 1, 2))
    forces = np.full((idx.shape[0], bodies, 3), 7.0)
    for _ in range(3):   # (episodes one after another)
        prev, slow = np.ones(n), np.ones((n, bodies))
        legs = np.ones((n, 2), dtype=bool)
        _lander_step.begin_episodes(idx, draws, H / 2, 1000.0, CHUNKS // 2, HELIPAD_Y, CHUNK_X,
                                    reverse, a, b, forces, prev, slow, legs)
        _lander_step.skip_draws(idx, draws, 2)
        height = np.empty((idx.shape[0], 12))
        push = np.zeros((idx.shape[0], bodies, 3))
        for k, i in enumerate(idx):
            height[k] = twins[i].uniform(0, H / 2, size=(12,))
            push[k, 0, :2] = [twins[i].uniform(-1000.0, 1000.0),
                              twins[i].uniform(-1000.0, 1000.0)]
            twins[i].uniform(-1.0, 1.0, size=2)
        want_a, want_b = _numpy_terrain(height, reverse)
        assert _bits(a) == _bits(want_a) and _bits(b) == _bits(want_b)
        assert _bits(forces) == _bits(push)
        assert np.isnan(prev[idx]).all() and np.all(prev[others] == 1.0)
        assert np.all(slow[idx] == 0.0) and np.all(slow[others] == 1.0)
        assert not legs[idx].any() and legs[others].all()
    for g, t in zip(gens, twins):
        assert g.bit_generator.state == t.bit_generator.state
    assert gens[1].bit_generator.state == seeding.np_random(8)[0].bit_generator.state


def _numpy_observe(pos, angle, vel, touching, awake, prev_shaping, m_power, s_power):
    """The environment's NumPy observation (impulse2d 16ae6c2, ``_observe`` after the state)."""
    pos, angle, awake = pos[:, 0], angle[:, 0], awake[:, 0]
    legs = touching[:, 1:3]
    obs = np.empty((pos.shape[0], 8), dtype=np.float32)
    obs[:, 0] = (pos[:, 0] - W / 2) / (W / 2)
    obs[:, 1] = (pos[:, 1] - (HELIPAD_Y + LEG_DOWN / SCALE)) / (H / 2)
    obs[:, 2] = vel[:, 0, 0] * (W / 2) / FPS
    obs[:, 3] = vel[:, 0, 1] * (H / 2) / FPS
    obs[:, 4] = angle
    obs[:, 5] = 20.0 * vel[:, 0, 2] / FPS
    obs[:, 6:8] = legs
    x = (pos[:, 0] - W / 2) / (W / 2)
    y = (pos[:, 1] - (HELIPAD_Y + LEG_DOWN / SCALE)) / (H / 2)
    vx = vel[:, 0, 0] * (W / 2) / FPS
    vy = vel[:, 0, 1] * (H / 2) / FPS
    shaping = (-100 * np.sqrt(x * x + y * y) - 100 * np.sqrt(vx * vx + vy * vy)
               - 100 * np.abs(angle) + 10 * legs[:, 0] + 10 * legs[:, 1])
    reward = np.where(np.isnan(prev_shaping), 0.0, shaping - prev_shaping)
    reward -= m_power * 0.30 + s_power * 0.03
    crashed = touching[:, 0] | (np.abs(x) >= 1.0)
    reward = np.where(crashed, -100.0, reward)
    rest = ~awake
    reward = np.where(rest, 100.0, reward)
    return obs, reward, crashed | rest, shaping, legs


@pytest.mark.parametrize("seed", [0, 1])
def test_a_resets_observation_is_the_numpy_observation_bit_for_bit(seed):
    rng = np.random.default_rng(seed)
    n, k, bodies = 400, 250, 3
    idx = np.sort(rng.choice(n, k, replace=False)).astype(np.int64)
    pos = np.stack((rng.uniform(-2, W + 2, (k, bodies)), rng.uniform(-1, H, (k, bodies))),
                   axis=2)
    angle = rng.uniform(-7, 7, (k, bodies))
    vel = rng.normal(0, 5, (k, bodies, 3))
    touching = rng.random((k, bodies)) < 0.3
    awake = rng.random((k, bodies)) < 0.9
    prev = rng.normal(0, 100, n)
    prev[rng.random(n) < 0.2] = np.nan
    m_power, s_power = rng.uniform(0, 1, n), rng.uniform(0, 1, n)
    want = _numpy_observe(pos, angle, vel, touching, awake, prev[idx], m_power[idx],
                          s_power[idx])
    pose = np.zeros((n, 3))
    legs = np.zeros((n, 2), dtype=bool)
    shaping = prev.copy()
    obs = np.empty((k, 8), dtype=np.float32)
    reward = np.empty(k)
    terminated = np.empty(k, dtype=bool)
    truncated = np.ones(k, dtype=bool)
    # (a reset's observation: neither counted nor timed, whatever the steps and timers say)
    elapsed = rng.integers(0, 50, n)
    slow = rng.uniform(0, 1, (n, bodies))
    ready = np.ones(n, dtype=bool)
    counts, timers = elapsed.copy(), slow.copy()
    finished, acting = np.ones(n, dtype=bool), np.zeros(n, dtype=bool)
    restart = np.full(n, 7, dtype=np.int64)
    anyone, restarts = _lander_step.after_step(
        idx, False, elapsed, np.zeros(0, dtype=np.int64), 40, pos, angle, vel, touching, awake,
        np.ones(bodies), np.full(bodies, 1e9), slow, 1.0 / FPS, 0.0, pose, legs, shaping,
        m_power, s_power, W, H, HELIPAD_Y + LEG_DOWN / SCALE, float(FPS), obs, reward,
        terminated, truncated, ready, finished, acting, restart)
    assert not anyone and not ready[idx].any() and not truncated.any()
    # (no step's end: the next step's environments left as they were)
    assert restarts == 0 and finished.all() and not acting.any() and np.all(restart == 7)
    np.testing.assert_array_equal(elapsed, counts)
    assert _bits(slow) == _bits(timers)
    assert _bits(obs) == _bits(want[0])
    assert _bits(reward) == _bits(want[1])
    np.testing.assert_array_equal(terminated, want[2])
    assert _bits(shaping[idx]) == _bits(want[3])
    np.testing.assert_array_equal(legs[idx], want[4])
    assert _bits(pose[idx, :2]) == _bits(pos[:, 0])
    assert _bits(pose[idx, 2]) == _bits(angle[:, 0])
    others = np.setdiff1d(np.arange(n), idx)
    assert np.all(pose[others] == 0.0) and not legs[others].any()
    assert _bits(shaping[others]) == _bits(prev[others])
    assert {-100.0, 100.0} <= set(reward.tolist())   # crashes and rests both met


def _end_step(vel, extent, threshold, elapsed, slow, dt, time_to_sleep, *, awake=None,
              fresh=None, max_steps=0, seed=0):
    """``_lander_step.after_step`` of ``vel.shape[0]`` landers (their other state drawn from
    ``seed``; every lander awake unless ``awake``): its returned value, then ``ready`` and the
    observation, reward and flags, and the state it was given (its arrays updated)."""
    rng = np.random.default_rng(seed)
    n, bodies = vel.shape[:2]
    pos = np.stack((rng.uniform(-2, W + 2, (n, bodies)), rng.uniform(-1, H, (n, bodies))),
                   axis=2)
    state = {"pos": pos, "angle": rng.uniform(-7, 7, (n, bodies)), "vel": vel,
             "touching": rng.random((n, bodies)) < 0.3,
             "awake": np.ones((n, bodies), dtype=bool) if awake is None else awake,
             "prev": np.where(rng.random(n) < 0.2, np.nan, rng.normal(0, 100, n)),
             "m_power": rng.uniform(0, 1, n), "s_power": rng.uniform(0, 1, n),
             "pose": np.zeros((n, 3)), "legs": np.zeros((n, 2), dtype=bool)}
    out = {"obs": np.empty((n, 8), dtype=np.float32), "reward": np.empty(n),
           "terminated": np.empty(n, dtype=bool), "truncated": np.empty(n, dtype=bool),
           "ready": np.zeros(n, dtype=bool), "finished": np.zeros(n, dtype=bool),
           "acting": np.zeros(n, dtype=bool), "restart": np.full(n, -1, dtype=np.int64)}
    fresh = np.zeros(0, dtype=np.int64) if fresh is None else fresh
    shaping = state["prev"].copy()
    anyone, restarts = _lander_step.after_step(
        np.zeros(0, dtype=np.int64), True, elapsed, fresh, max_steps, state["pos"],
        state["angle"], vel, state["touching"], state["awake"], extent, threshold, slow, dt,
        time_to_sleep, state["pose"], state["legs"], shaping, state["m_power"],
        state["s_power"], W, H, HELIPAD_Y + LEG_DOWN / SCALE, float(FPS), out["obs"],
        out["reward"], out["terminated"], out["truncated"], out["ready"], out["finished"],
        out["acting"], out["restart"])
    state["shaping"] = shaping
    out["restart"] = out["restart"][:restarts]
    return anyone, out, state


def test_rest_timers_are_the_numpy_timers_bit_for_bit():
    rng = np.random.default_rng(3)
    n, bodies, dt, time_to_sleep = 500, 3, 1.0 / FPS, 0.5
    extent = np.array([0.6, 0.3, 0.3])
    threshold = np.array([0.05, 0.05, 0.05])
    slow = np.where(rng.random((n, bodies)) < 0.5, rng.uniform(0, 0.6, (n, bodies)), 0.0)
    spread = np.where(rng.random(n) < 0.5, 0.005, 0.05)[:, None, None]   # resting or not
    met = False
    for step in range(30):
        elapsed = rng.integers(0, 3, n)
        fresh = np.flatnonzero(rng.random(n) < 0.2)   # (their episode's first step: no timing)
        counted = elapsed + 1
        counted[fresh] = 0
        vel = rng.normal(0, 1.0, (n, bodies, 3)) * spread
        awake = rng.random((n, bodies)) < 0.9
        speed = np.maximum(np.hypot(vel[:, :, 0], vel[:, :, 1]),
                           np.abs(vel[:, :, 2]) * extent)
        want = np.where((speed <= threshold) & (counted > 0)[:, None], slow + dt, 0.0)
        want_ready = np.all(want >= time_to_sleep, axis=1) & awake[:, 0]
        want[want_ready] = 0.0   # (put to sleep: timed again from 0)
        anyone, out, _ = _end_step(vel, extent, threshold, elapsed, slow, dt, time_to_sleep,
                                   awake=awake, fresh=fresh, seed=step)
        np.testing.assert_array_equal(elapsed, counted)
        assert _bits(slow) == _bits(want)
        np.testing.assert_array_equal(out["ready"], want_ready)
        assert anyone == bool(want_ready.any())
        met = met or 0 < want_ready.sum() < n
    assert met


def test_rest_timers_on_the_threshold_take_hypots_answer():
    """A speed on its threshold, a hair either side of it, and at the floating-point range's
    ends: the squares' shortcut (:func:`_lander_step._at_most`) gives ``hypot``'s answer."""
    rng = np.random.default_rng(4)
    turn = rng.uniform(0, 2 * math.pi, 64)
    scale = np.array([1.0, 1 - 1e-16, 1 + 1e-16, 1 - 1e-12, 1 + 1e-12, 1 - 1e-9, 1 + 1e-9,
                      1 - 1e-6, 1 + 1e-6, 0.0, 1e-170, 1e170, 0.5, 2.0])
    dt, time_to_sleep = 1.0 / FPS, 0.5
    for t in (0.05, 1e-120, 1e-90, 1e90, 0.0):
        vel = np.zeros((turn.shape[0], scale.shape[0], 3))
        vel[:, :, 0] = t * np.cos(turn)[:, None] * scale
        vel[:, :, 1] = t * np.sin(turn)[:, None] * scale
        extent = np.ones(scale.shape[0])
        threshold = np.full(scale.shape[0], t)
        slow = np.zeros(vel.shape[:2])
        elapsed = np.zeros(turn.shape[0], dtype=np.int64)
        want = np.where(np.hypot(vel[:, :, 0], vel[:, :, 1]) <= threshold, dt, 0.0)
        _end_step(vel, extent, threshold, elapsed, slow, dt, time_to_sleep)
        assert _bits(slow) == _bits(want), t
        if t == 0.05:   # (both answers met on the threshold's two sides)
            assert 0 < (want == 0).sum() < want.size


def test_the_step_s_end_is_the_environment_s_passes_bit_for_bit():
    """``after_step`` against the passes it replaced (impulse2d 03fc3dc: the step counts, the
    rest timers, ``observe`` with the landers put to sleep not awake, ``episode_ends``):
    the same observation, reward, flags, shaping, pose and legs, bit for bit, with landers
    coming to rest, crashing, truncated and restarted among them."""
    rng = np.random.default_rng(5)
    n, bodies, dt, time_to_sleep, max_steps = 400, 3, 1.0 / FPS, 0.5, 40
    extent = np.array([0.6, 0.3, 0.3])
    threshold = np.array([0.05, 0.05, 0.05])
    elapsed = rng.integers(0, 2 * max_steps, n)
    slow = np.where(rng.random((n, bodies)) < 0.5, rng.uniform(0.4, 0.6, (n, bodies)), 0.0)
    vel = rng.normal(0, 1.0, (n, bodies, 3)) * np.where(rng.random(n) < 0.5, 0.005,
                                                        1.0)[:, None, None]
    awake = rng.random((n, bodies)) < 0.95
    fresh = np.flatnonzero(rng.random(n) < 0.1)
    counted = elapsed + 1
    counted[fresh] = 0
    speed = np.maximum(np.hypot(vel[:, :, 0], vel[:, :, 1]), np.abs(vel[:, :, 2]) * extent)
    timed = np.where((speed <= threshold) & (counted > 0)[:, None], slow + dt, 0.0)
    ready = np.all(timed >= time_to_sleep, axis=1) & awake[:, 0]
    asleep = awake.copy()
    asleep[ready, 0] = False
    anyone, out, state = _end_step(vel, extent, threshold, elapsed, slow, dt, time_to_sleep,
                                   awake=awake, fresh=fresh, max_steps=max_steps)
    obs, reward, terminated, shaping, legs = _numpy_observe(
        state["pos"], state["angle"], vel, state["touching"], asleep, state["prev"],
        state["m_power"], state["s_power"])
    truncated = counted >= max_steps
    reward[fresh], terminated[fresh], truncated[fresh] = 0.0, False, False
    assert anyone and 0 < ready.sum() < n
    assert _bits(out["obs"]) == _bits(obs)
    assert _bits(out["reward"]) == _bits(reward)
    np.testing.assert_array_equal(out["terminated"], terminated)
    np.testing.assert_array_equal(out["truncated"], truncated)
    assert _bits(state["shaping"]) == _bits(shaping)
    np.testing.assert_array_equal(state["legs"], legs)
    assert _bits(state["pose"][:, :2]) == _bits(state["pos"][:, 0])
    assert _bits(state["pose"][:, 2]) == _bits(state["angle"][:, 0])
    assert truncated.any() and terminated.any() and (reward == 100.0).any()
    # the finished environments, and the next step's: those acting and those to restart
    finished = terminated | truncated
    np.testing.assert_array_equal(out["finished"], finished)
    np.testing.assert_array_equal(out["acting"], ~finished)
    np.testing.assert_array_equal(out["restart"], np.flatnonzero(finished))


@pytest.mark.parametrize("pilot", ["nothing", "heuristic"])
def test_each_episode_leaves_the_generator_where_gymnasiums_stream_is(pilot):
    """Gymnasium's LunarLander draws, from its one generator, 12 heights and a push at each
    reset, then 2 dispersion numbers at every step (the reset's own step included). The native
    environment's generator is where Gymnasium's is after each reset and each step (episodes
    of a few steps, and, the heuristic pilot landing on a lighter moon, of hundreds)."""
    from impulse2d.envs.lunar_lander import CHUNKS, LunarLanderVectorEnv, heuristic
    env = LunarLanderVectorEnv(1, max_episode_steps=400,
                               gravity=-1.5 if pilot == "heuristic" else -10.0)
    obs, _ = env.reset(seed=11)
    ref, _ = seeding.np_random(11)
    lengths = []
    for _ in range(3):
        ref.uniform(0, H / 2, size=(CHUNKS + 1,))
        ref.uniform(-1000.0, 1000.0)
        ref.uniform(-1000.0, 1000.0)
        ref.uniform(-1.0, 1.0, size=2)   # the reset's own step
        assert env._rngs[0].bit_generator.state == ref.bit_generator.state
        steps = 0
        while True:
            action = heuristic(obs[0]) if pilot == "heuristic" else 0
            obs, _, terminated, truncated, _ = env.step(np.array([action]))
            steps += 1
            ref.uniform(-1.0, 1.0, size=2)
            assert env._rngs[0].bit_generator.state == ref.bit_generator.state
            if terminated[0] or truncated[0]:
                break
        lengths.append(steps)
        obs, _, _, _, _ = env.step(np.array([0]))   # (the next-step autoreset)
    env.close()
    if pilot == "heuristic":
        assert max(lengths) > 256   # (hundreds of steps)
    else:
        assert max(lengths) < 256


def test_discrete_engines_are_the_actions_then_the_engines_and_bad_ones_write_nothing():
    """``discrete_engines`` (the environment's one call) against NumPy's decoding of the
    actions then ``engine_impulses``, each environment's generator twinned: the same
    throttles, impulses and draws, bit for bit; an invalid action (out of range, not whole,
    NaN) writes nothing and draws nothing."""
    rng = np.random.default_rng(6)
    n, bodies, first = 300, 3, 1
    pose = np.column_stack((rng.uniform(0, W, n), rng.uniform(0, H, n),
                            rng.uniform(-4, 4, n)))
    lc = (rng.normal() * 0.01, rng.normal() * 0.1)
    acting = rng.random(n) < 0.8
    a = rng.integers(0, 4, n).astype(np.float64)
    constants = (MAIN_ENGINE_Y_LOCATION / SCALE, MAIN_ENGINE_POWER, float(SIDE_ENGINE_AWAY),
                 SIDE_ENGINE_POWER, 17.0, float(SIDE_ENGINE_HEIGHT), SCALE)
    sides = []
    for _ in range(2):
        gens = [seeding.np_random(500 + i)[0] for i in range(n)]
        draws = np.array([_draws.addresses(g) for g in gens], dtype=np.int64)
        sides.append((gens, draws, np.full(n, 9.0), np.full(n, 9.0), np.full(n, 9.0),
                      np.full((n, first + 3 * bodies), 7.0)))
    gens, draws, m, s, d, impulses = sides[0]
    # (the NumPy decoding of impulse2d 16ae6c2's _act)
    m[:] = np.where(acting, (a == 2).astype(np.float64), 0.0)
    s[:] = np.where(acting, ((a == 1) | (a == 3)).astype(np.float64), 0.0)
    d[:] = a - 2.0
    want = _lander_step.engine_impulses(pose, lc[0], lc[1], draws, acting, m, s, d,
                                        *constants, impulses, first)
    gens_b, draws_b, m_b, s_b, d_b, impulses_b = sides[1]
    got = _lander_step.discrete_engines(a, acting, m_b, s_b, d_b, pose, lc[0], lc[1], draws_b,
                                        *constants, impulses_b, first)
    assert want and got == 1
    for x, y in ((m, m_b), (s, s_b), (d, d_b), (impulses, impulses_b)):
        assert _bits(x) == _bits(y)
    for g, t in zip(gens, gens_b):
        assert g.bit_generator.state == t.bit_generator.state
    states = [g.bit_generator.state for g in gens_b]
    for bad in (-1.0, 4.0, 1.5, np.nan, -0.5):
        b = a.copy()
        b[n // 2] = bad
        before = [x.copy() for x in (m_b, s_b, d_b, impulses_b)]
        assert _lander_step.discrete_engines(b, acting, m_b, s_b, d_b, pose, lc[0], lc[1],
                                             draws_b, *constants, impulses_b, first) == -1
        for x, y in zip(before, (m_b, s_b, d_b, impulses_b)):
            assert _bits(x) == _bits(y)
        assert [g.bit_generator.state for g in gens_b] == states
    # no engine: 0
    assert _lander_step.discrete_engines(np.zeros(n), acting, m_b, s_b, d_b, pose, lc[0], lc[1],
                                         draws_b, *constants, impulses_b, first) == 0
