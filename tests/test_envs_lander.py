"""``impulse2d/LunarLander-v3``, the native environment (``impulse2d.envs``): Gymnasium's
checks, the vector environment against Gymnasium's own ``SyncVectorEnv`` of the single one
(autoreset in both modes), seeding across batch sizes, the heuristic pilot's score and the
rendered pixels."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

import impulse2d.envs  # noqa: E402,F401  (registers the ids)
from gymnasium.vector import AutoresetMode  # noqa: E402
from impulse2d.envs.lunar_lander import (  # noqa: E402
    HELIPAD_Y, SCALE, LunarLander, LunarLanderVectorEnv, heuristic)

ID = "impulse2d/LunarLander-v3"


# -- Gymnasium's checks ----------------------------------------------------------------------

@pytest.mark.parametrize("continuous", [False, True])
def test_check_env_passes_without_warnings(continuous):
    from gymnasium.utils.env_checker import check_env
    env = gym.make(ID, continuous=continuous)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped, skip_render_check=True)
    assert [str(w.message) for w in caught] == []
    assert env.spec.max_episode_steps == 1000 and env.spec.reward_threshold == 200


def test_spaces_are_gymnasiums():
    ours = LunarLander()
    lo, hi = ours.observation_space.low, ours.observation_space.high
    np.testing.assert_array_equal(lo, np.float32([-2.5, -2.5, -10, -10, -2 * np.pi, -10, 0, 0]))
    np.testing.assert_array_equal(hi, np.float32([2.5, 2.5, 10, 10, 2 * np.pi, 10, 1, 1]))
    assert ours.observation_space.dtype == np.float32
    assert ours.action_space == gym.spaces.Discrete(4)
    cont = LunarLander(continuous=True).action_space
    assert cont == gym.spaces.Box(-1, 1, (2,), np.float32)


@pytest.mark.parametrize("continuous", [False, True])
def test_make_vec_builds_the_native_vector_env(continuous):
    envs = gym.make_vec(ID, num_envs=5, vectorization_mode="vector_entry_point",
                        continuous=continuous)
    assert isinstance(envs, LunarLanderVectorEnv)
    assert envs.num_envs == 5 and envs.max_episode_steps == 1000
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert envs.observation_space.shape == (5, 8)
    assert envs.action_space.shape == ((5,) if not continuous else (5, 2))
    obs, info = envs.reset(seed=0)
    assert obs.dtype == np.float32 and obs.shape == (5, 8) and info == {}
    assert envs.observation_space.contains(obs)
    envs.action_space.seed(0)
    for _ in range(30):
        obs, r, term, trunc, info = envs.step(envs.action_space.sample())
        assert obs.shape == (5, 8) and obs.dtype == np.float32
        assert envs.observation_space.contains(obs)
        assert r.shape == (5,) and r.dtype == np.float64
        assert term.shape == trunc.shape == (5,) and term.dtype == trunc.dtype == np.bool_
        assert np.all(np.isfinite(r))
    envs.close()
    assert envs.closed


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_vector_env_equals_gymnasiums_sync_vector_env_of_the_single_env(mode):
    """Gymnasium's SyncVectorEnv over the single environment (with its TimeLimit) is the
    reference for autoreset, truncation, final_obs and seeding: the native vector env must
    return the same arrays, bit for bit, through episodes that end by crashing, by coming to
    rest and by the time limit (short here: 150 steps)."""
    n, limit = 4, 150
    sync = gym.vector.SyncVectorEnv(
        [lambda: gym.make(ID, max_episode_steps=limit) for _ in range(n)], autoreset_mode=mode)
    native = LunarLanderVectorEnv(n, max_episode_steps=limit, autoreset_mode=mode)
    rng = np.random.default_rng(1)
    # a mix: the pilot in envs 0-1 (lands, or is truncated), random actions in 2-3 (crash)
    script = rng.integers(0, 4, size=(400, n))

    def actions(k, obs):
        a = script[k].copy()
        a[:2] = heuristic(obs[:2])
        return a

    ends = {"term": 0, "trunc": 0}
    obs_s, _ = sync.reset(seed=7)
    obs_n, _ = native.reset(seed=7)
    np.testing.assert_array_equal(obs_s, obs_n)
    for k in range(400):
        a = actions(k, obs_s)
        out_s = sync.step(a)
        out_n = native.step(a)
        for x, y in zip(out_s[:4], out_n[:4]):
            np.testing.assert_array_equal(x, y)
        ends["term"] += int(out_s[2].sum())
        ends["trunc"] += int(out_s[3].sum())
        info_s, info_n = out_s[4], out_n[4]
        if mode is AutoresetMode.SAME_STEP:
            assert ("final_obs" in info_s) == ("final_obs" in info_n)
            if "final_obs" in info_s:
                np.testing.assert_array_equal(info_s["_final_obs"], info_n["_final_obs"])
                for i in np.flatnonzero(info_s["_final_obs"]):
                    np.testing.assert_array_equal(info_s["final_obs"][i], info_n["final_obs"][i])
        obs_s = out_s[0]
    assert ends["term"] >= 2 and ends["trunc"] >= 1   # both endings were exercised


def test_next_step_autoreset_as_gymnasium_documents():
    """The step after an ending returns the new episode's first observation, reward 0 and
    both flags False, whatever the action."""
    envs = LunarLanderVectorEnv(3, max_episode_steps=1000)
    obs, _ = envs.reset(seed=11)
    ended = None
    for _ in range(1000):
        obs, r, term, trunc, _ = envs.step(np.full(3, 2))   # full main engine: flies off
        if (term | trunc).any():
            ended = term | trunc
            break
    assert ended is not None
    obs2, r2, term2, trunc2, _ = envs.step(np.full(3, 2))
    i = int(np.flatnonzero(ended)[0])
    assert r2[i] == 0.0 and not term2[i] and not trunc2[i]
    # the new episode starts at the top of the view, near its middle
    assert abs(obs2[i, 0]) < 0.1 and obs2[i, 1] > 1.2


def test_reset_mask_resets_only_those_environments():
    envs = LunarLanderVectorEnv(4, autoreset_mode="disabled", max_episode_steps=1000)
    envs.reset(seed=0)
    for _ in range(20):
        obs, *_ = envs.step(np.zeros(4, dtype=np.int64))
    before = [w.state_hash() for w in envs.batch.worlds]
    mask = np.array([False, True, False, True])
    obs2, _ = envs.reset(options={"reset_mask": mask})
    after = [w.state_hash() for w in envs.batch.worlds]
    assert [b == a for b, a in zip(before, after)] == [True, False, True, False]
    np.testing.assert_array_equal(obs2[~mask], obs[~mask])
    assert np.all(obs2[mask, 1] > 1.2)   # back at the top
    with pytest.raises(ValueError, match="reset_mask"):
        envs.reset(options={"reset_mask": np.zeros(4, dtype=bool)})


def test_a_few_worlds_read_as_the_batch_views_read_them():
    """The environment's reads (BatchVectorEnv._state: the batch's views in one pass; for a
    reset, only its worlds' own columns; the lander's pose kept for the engines) give the
    numbers of the batch's public dense views, legs on the ground and asleep landers
    included."""
    from impulse2d.envs._vector import ALL
    envs = LunarLanderVectorEnv(6, max_episode_steps=1000)
    obs, _ = envs.reset(seed=20)
    seen_touch = seen_asleep = False
    for _ in range(400):
        obs, *_ = envs.step(heuristic(obs))
        views = envs._state(ALL)
        b = envs.batch
        public = (b.get_positions(), b.get_angles(), b.get_velocities(), b.get_touching(),
                  b.get_awake())
        few = envs._state(np.arange(6))
        for a, p, f in zip(views, public, few):
            np.testing.assert_array_equal(a, p)
            np.testing.assert_array_equal(a, f)
        # the lander's pose the engines use (kept from the last observation)
        np.testing.assert_array_equal(envs._pose[:, :2], public[0][:, 0])
        np.testing.assert_array_equal(envs._pose[:, 2], public[1][:, 0])
        seen_touch |= bool(views[3][:, 1:].any())
        seen_asleep |= bool((~views[4][:, 0]).any())
    assert seen_touch and seen_asleep


# -- seeding --------------------------------------------------------------------------------

def test_same_seeds_same_episodes_in_batches_of_1_7_and_64():
    """Environment i of a batch reset with seed s plays the episodes of environment 0 of a
    batch reset with s + i, bit for bit, through autoresets, in batches of 1, 7 and 64."""
    steps = 120
    rng = np.random.default_rng(5)
    script = rng.integers(0, 4, size=(steps, 64))

    def run(n, seed):
        envs = LunarLanderVectorEnv(n, max_episode_steps=1000)
        obs, _ = envs.reset(seed=seed)
        trace = [obs.copy()]
        for k in range(steps):
            obs, r, term, trunc, _ = envs.step(script[k, :n] if n == 64 else
                                               script[k, seed - 100:seed - 100 + n])
            trace.append(obs.copy())
        return np.stack(trace)   # (steps + 1, n, 8)

    big = run(64, 100)
    for i in (0, 5, 63):
        np.testing.assert_array_equal(run(1, 100 + i)[:, 0], big[:, i])
    seven = run(7, 100)
    np.testing.assert_array_equal(seven, big[:, :7])
    # and different seeds differ (the terrain and the push are drawn)
    assert not np.array_equal(big[:, 0], big[:, 1])


def test_vector_env_equals_single_env():
    single = gym.make(ID)
    envs = LunarLanderVectorEnv(3, max_episode_steps=1000)
    obs_v, _ = envs.reset(seed=40)
    obs_s, _ = single.reset(seed=42)
    np.testing.assert_array_equal(obs_v[2], obs_s)
    for _ in range(200):
        a = heuristic(obs_v)
        obs_v, r_v, term_v, _, _ = envs.step(a)
        obs_s, r_s, term_s, _, _ = single.step(int(a[2]))
        np.testing.assert_array_equal(obs_v[2], obs_s)
        assert r_v[2] == r_s and term_v[2] == term_s
        if term_s:
            break


def test_same_terrain_and_push_as_gymnasium_for_the_same_seed():
    """The generator's stream is Gymnasium's: the first draws are the terrain's 12 heights."""
    from gymnasium.utils import seeding
    env = LunarLander()
    env.reset(seed=9)
    rng, _ = seeding.np_random(9)
    height = rng.uniform(0, 400 / SCALE / 2, size=(12,))
    height[3:8] = HELIPAD_Y
    smooth = [0.33 * (height[i - 1] + height[i] + height[i + 1]) for i in range(11)]
    moon = env.world.bodies[-1]
    ys = sorted({round(float(p[1]), 12) for s in moon.shapes for p in s.vertices if p[1] > 0})
    assert ys == sorted({round(y, 12) for y in smooth})


# -- the task: the heuristic pilot lands -----------------------------------------------------

def _pilot_scores(seeds, **kwargs):
    envs = LunarLanderVectorEnv(len(seeds), max_episode_steps=1000, **kwargs)
    obs, _ = envs.reset(seed=list(seeds))
    total = np.zeros(len(seeds))
    done = np.zeros(len(seeds), dtype=bool)
    last = np.zeros(len(seeds))
    while not done.all():
        obs, r, term, trunc, _ = envs.step(heuristic(obs, envs.continuous))
        total += np.where(done, 0.0, r)
        newly = (term | trunc) & ~done
        last[newly] = np.where(term[newly], r[newly], 0.0)
        done |= term | trunc
    return total, last


def test_heuristic_pilot_lands_seeds_0_to_99():
    """Gymnasium's heuristic pilot solves the task (mean over 200 on seeds 0-99), and most
    episodes end at rest on the ground (+100), as on Box2D."""
    total, last = _pilot_scores(range(100))
    assert total.mean() >= 200.0, (total.mean(), np.sort(total)[:10])
    assert np.mean(last == 100.0) >= 0.9


def test_heuristic_pilot_lands_continuous():
    total, last = _pilot_scores(range(20), continuous=True)
    assert total.mean() >= 200.0, (total.mean(), np.sort(total))


def _momentum(envs):
    """(n, 2): the lander's and legs' total linear momentum, N s."""
    v = envs.batch.get_velocities()[:, :, :2]
    m = np.array([b.mass for b in envs.batch.worlds[0].bodies[:3]])
    return np.einsum("b,nbk->nk", m, v), m.sum()


def test_box2d_faithful_uses_the_layers_settings_and_lands():
    """box2d_faithful: the pybox2d layer's solver and counts, Box2D's ten two-sided edges; the
    pilot lands there too (seeds 0-9; Box2D 2.3 itself: mean 265 on them)."""
    from impulse2d.envs.lunar_lander import FAITHFUL
    total, last = _pilot_scores(range(10), box2d_faithful=True)
    assert total.mean() >= 200.0, (total.mean(), np.sort(total))
    env = LunarLander(box2d_faithful=True)
    env.reset(seed=0)
    s = env.world.settings
    assert (s.solver, s.velocity_iterations, s.position_iterations) == ("pgs_block", 180, 60)
    assert s.continuous_box2d23 and FAITHFUL["solver"] == "pgs_block"
    moon = env.world.bodies[-1]
    assert len(moon.shapes) == 11 and all(sh.type == "segment" for sh in moon.shapes)


def test_wind_is_gymnasiums_gusts_from_the_seed():
    """enable_wind: the x momentum gained against the windless run from the same seed is the
    sum of Gymnasium's gusts, tanh(sin(0.02 k) + sin(0.01 pi k)) * wind_power * dt, from the
    phase the generator draws after the terrain and the push (the reset's step included)."""
    from gymnasium.utils import seeding
    steps, seed, power = 20, 4, 15.0

    def momentum_x(wind):
        envs = LunarLanderVectorEnv(1, enable_wind=wind, wind_power=power)
        envs.reset(seed=seed)
        for _ in range(steps):
            envs.step(np.zeros(1, dtype=np.int64))
        return _momentum(envs)[0][0, 0]

    rng, _ = seeding.np_random(seed)
    rng.uniform(size=12)
    rng.uniform(size=2)
    k0 = int(rng.integers(-9999, 9999))
    k = k0 + np.arange(steps + 1)
    gusts = np.tanh(np.sin(0.02 * k) + np.sin(np.pi * 0.01 * k)) * power / 50
    assert momentum_x(True) - momentum_x(False) == pytest.approx(gusts.sum(), rel=1e-9)


def test_free_fall_follows_gravity():
    """With no engine, the falling lander and legs gain momentum at exactly M g (the joints'
    impulses between them cancel; nothing else acts before touchdown)."""
    envs = LunarLanderVectorEnv(1)
    envs.reset(seed=0)
    p0, mass = _momentum(envs)
    for _ in range(10):
        envs.step(np.zeros(1, dtype=np.int64))
    p, _ = _momentum(envs)
    assert p[0, 1] - p0[0, 1] == pytest.approx(-10.0 * mass * 10 / 50, rel=1e-9)
    assert p[0, 0] == pytest.approx(p0[0, 0], abs=1e-9)


def test_main_engine_impulse():
    """One step of full main engine changes the momentum by Gymnasium's impulse, 13 N s per
    m of engine offset: 13 * (4/30 +- 2/30 of dispersion) upward, against one step of nothing
    from the same state."""
    def momentum_after(action):
        envs = LunarLanderVectorEnv(1)
        envs.reset(seed=2)
        envs.step(np.array([action]))
        return _momentum(envs)[0][0]
    dp = momentum_after(2) - momentum_after(0)
    assert 13.0 * 2 / 30 <= dp[1] <= 13.0 * 6 / 30
    assert abs(dp[0]) <= 13.0 * 3 / 30   # the dispersion's sideways part


# -- rendering -------------------------------------------------------------------------------

def test_rgb_array_frames_show_the_lander():
    pytest.importorskip("PIL")
    envs = LunarLanderVectorEnv(2, render_mode="rgb_array")
    envs.reset(seed=1)
    for _ in range(40):   # falls into the view (it starts at its top edge)
        envs.step(np.zeros(2, dtype=np.int64))
    frames = envs.render()
    assert len(frames) == 2
    for k, frame in enumerate(frames):
        assert frame.shape == (400, 600, 3) and frame.dtype == np.uint8
        # a point inside the lander's hull, 0.4 m above its origin (clear of the joints' lines)
        x, y = envs.batch.worlds[k].bodies[0].world_point((0.0, 0.4))
        px, py = int(round(x * SCALE)), int(round(400 - y * SCALE))
        assert 0 <= px < 600 and 0 <= py < 400
        # the lander's fill (an awake dynamic body: the debug draw's pink) there
        np.testing.assert_array_equal(frame[py, px], (255, 192, 203))
        # and the sky far from it is the background
        assert tuple(frame[5, 5]) != (255, 192, 203)
    one = LunarLander(render_mode="rgb_array")
    one.reset(seed=1)
    assert one.render().shape == (400, 600, 3)


def test_bad_input_raises_and_changes_nothing():
    envs = LunarLanderVectorEnv(2)
    envs.reset(seed=0)
    before = [w.state_hash() for w in envs.batch.worlds]
    with pytest.raises(ValueError, match="actions"):
        envs.step(np.array([0, 7]))
    with pytest.raises(ValueError, match="actions"):
        envs.step(np.array([0, 1, 2]))
    with pytest.raises(TypeError, match="actions"):
        envs.step(np.array(["a", "b"]))
    assert [w.state_hash() for w in envs.batch.worlds] == before
    with pytest.raises(ValueError, match="gravity"):
        LunarLanderVectorEnv(1, gravity=-20.0)
    with pytest.raises(ValueError, match="num_envs"):
        LunarLanderVectorEnv(0)
    with pytest.raises(ValueError, match="autoreset_mode"):
        LunarLanderVectorEnv(1, autoreset_mode="sometimes")
    with pytest.raises(ValueError, match="render_mode"):
        LunarLanderVectorEnv(1, render_mode="human")
    cont = LunarLanderVectorEnv(1, continuous=True)
    cont.reset(seed=0)
    with pytest.raises(ValueError, match="finite"):
        cont.step(np.array([[np.nan, 0.0]]))
