"""``impulse2d/BipedalWalker-v3`` (``impulse2d.envs.bipedal_walker``): the single and the vector
environment, their agreement with Gymnasium's BipedalWalker-v3 (terrain, start, reward and
lidar), determinism across batch sizes, autoreset, rendering and the scripted gait.

Gymnasium's own environment runs here on the pybox2d layer (``impulse2d.compat.box2d``),
installed only inside the tests that compare with it (as in ``tests/test_gym_envs.py``).
"""

from __future__ import annotations

import math
import sys
import warnings

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
pytest.importorskip("PIL")

import impulse2d.envs  # noqa: E402,F401  (registers the environments)
from impulse2d.envs import _walker_terrain as terrain  # noqa: E402
from impulse2d.envs.bipedal_walker import (  # noqa: E402
    END_X, HULL_POLY, LIDAR_FILTER, LIDAR_RANGE, BipedalWalker, BipedalWalkerVectorEnv)
from impulse2d.envs.walker_heuristic import ScriptedWalker  # noqa: E402

FALL = np.array([1.0, 0.0, -1.0, 0.0], dtype=np.float32)
"""Hips apart at full torque, knees slack: every walker falls on its hull within 45 steps."""


def _vec(n, **kwargs):
    return gym.make_vec("impulse2d/BipedalWalker-v3", num_envs=n,
                        vectorization_mode="vector_entry_point", **kwargs)


def _actions(n, steps, seed=0):
    """A fixed sequence of random actions per environment: (steps, n, 4) float32."""
    return np.random.default_rng(seed).uniform(-1, 1, (steps, n, 4)).astype(np.float32)


@pytest.fixture
def gymnasium_walker():
    """Gymnasium's BipedalWalker on the pybox2d layer, for this test only."""
    b2compat = pytest.importorskip("impulse2d.compat.box2d")

    def drop():
        for name in [m for m in sys.modules if m.startswith("gymnasium.envs.box2d")]:
            del sys.modules[name]
    drop()
    b2compat.install()
    try:
        yield lambda **kw: gym.make("BipedalWalker-v3", **kw)
    finally:
        b2compat.uninstall()
        drop()


# -- Gymnasium's checkers ------------------------------------------------------------------------

def test_check_env_without_warnings():
    from gymnasium.utils.env_checker import check_env
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gym.make("impulse2d/BipedalWalker-v3").unwrapped)
    assert [str(w.message) for w in caught] == []


def test_vector_env_spaces_shapes_and_dtypes():
    n = 5
    envs = _vec(n)
    assert isinstance(envs.unwrapped, gym.vector.VectorEnv)
    assert envs.num_envs == n
    assert envs.single_observation_space.shape == (24,)
    assert envs.single_observation_space.dtype == np.float32
    assert envs.single_action_space.shape == (4,)
    assert np.all(envs.single_action_space.low == -1) and np.all(envs.single_action_space.high == 1)
    assert envs.observation_space.shape == (n, 24)
    assert envs.action_space.shape == (n, 4)
    assert envs.metadata["autoreset_mode"] == gym.vector.AutoresetMode.NEXT_STEP
    obs, infos = envs.reset(seed=3)
    assert obs.shape == (n, 24) and obs.dtype == np.float32
    assert envs.observation_space.contains(obs)
    obs, reward, terminated, truncated, infos = envs.step(envs.action_space.sample())
    assert obs.shape == (n, 24) and obs.dtype == np.float32
    assert reward.shape == (n,) and reward.dtype == np.float64
    assert terminated.shape == (n,) and terminated.dtype == bool
    assert truncated.shape == (n,) and truncated.dtype == bool
    assert isinstance(infos, dict)
    # the lidar reads fractions, the contacts 0 or 1, every number finite
    assert np.all(np.isfinite(obs))
    assert np.all((obs[:, 14:] >= 0) & (obs[:, 14:] <= 1))
    assert set(np.unique(obs[:, [8, 13]])) <= {0.0, 1.0}


def test_spaces_are_gymnasiums(gymnasium_walker):
    theirs = gymnasium_walker()
    ours = gym.make("impulse2d/BipedalWalker-v3")
    for a, b in ((ours.observation_space, theirs.observation_space),
                 (ours.action_space, theirs.action_space)):
        assert a.shape == b.shape and a.dtype == b.dtype
        assert np.array_equal(a.low, b.low) and np.array_equal(a.high, b.high)


def test_registration_truncates_as_gymnasium():
    assert gym.spec("impulse2d/BipedalWalker-v3").max_episode_steps == 1600
    assert gym.spec("impulse2d/BipedalWalkerHardcore-v3").max_episode_steps == 2000
    assert _vec(2).unwrapped.max_episode_steps == 1600
    hard = gym.make_vec("impulse2d/BipedalWalkerHardcore-v3", num_envs=2,
                        vectorization_mode="vector_entry_point")
    assert hard.unwrapped.hardcore and hard.unwrapped.max_episode_steps == 2000
    assert BipedalWalkerVectorEnv(1, hardcore=True).max_episode_steps == 2000


# -- the same task as Gymnasium's --------------------------------------------------------------

@pytest.mark.parametrize("hardcore", [False, True])
def test_terrain_is_gymnasiums_for_the_same_seed(gymnasium_walker, hardcore):
    theirs = gymnasium_walker(hardcore=hardcore).unwrapped
    env = BipedalWalker(hardcore=hardcore)
    for seed in (0, 7, 123):
        theirs.reset(seed=seed)
        env.reset(seed=seed)
        t = env.terrain
        assert np.array_equal(t.x, theirs.terrain_x)
        assert np.array_equal(t.y, theirs.terrain_y)
        assert [c for c, *_ in t.clouds] == [c for c, *_ in theirs.cloud_poly]
        # Gymnasium's static bodies: the obstacle boxes and 199 edges, one body each; ours
        # the same shapes, the edges on one body, after the walker's 5 bodies
        assert len(t.boxes) == len(theirs.terrain) - (terrain.TERRAIN_LENGTH - 1)
        assert len(env.world.bodies) == 5 + len(t.boxes) + 1
        assert len(env.world.shapes) == 5 + len(theirs.terrain)
        if hardcore:
            assert len(t.boxes) > 0


def test_grass_terrain_takes_exactly_the_loops_draws(monkeypatch):
    """A terrain without obstacles is drawn from one block of raw draws (``_grass``): the
    same heights and clouds as the draw-by-draw loop, and the generator left in the same
    state (its 32-bit buffer included: a run length takes half a 64-bit draw), episode after
    episode, whatever the buffer held before."""
    loop = {}

    def by_loop(rng):
        monkeypatch.setattr(terrain, "_grass", lambda r: None)
        try:
            return terrain.generate(rng, False)
        finally:
            monkeypatch.setattr(terrain, "_grass", loop["fast"])

    loop["fast"] = terrain._grass
    for seed in range(300):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        if seed % 2:
            a.integers(0, 7)   # a 32-bit half left in the buffer
            b.integers(0, 7)
        for _ in range(3):
            ta, tb = terrain.generate(a, False), by_loop(b)
            assert np.array_equal(ta.y, tb.y) and ta.boxes == tb.boxes == []
            assert ta.clouds == tb.clouds
            assert a.bit_generator.state == b.bit_generator.state
            a.uniform(-5, 5)   # the hull's push
            b.uniform(-5, 5)


def test_hardcore_obstacles_are_static_boxes_and_episodes_run():
    envs = gym.make_vec("impulse2d/BipedalWalkerHardcore-v3", num_envs=4,
                        vectorization_mode="vector_entry_point")
    u = envs.unwrapped
    obs, _ = envs.reset(seed=10)
    for i, world in enumerate(u.batch.worlds):
        boxes = u.terrains[i].boxes
        assert len(boxes) > 0
        shapes = [s for b in world.bodies[5:] for s in b.shapes]
        assert sum(s.type == "polygon" for s in shapes) == len(boxes)
        assert sum(s.type == "segment" for s in shapes) == terrain.TERRAIN_LENGTH - 1
        assert all(b.type == "static" for b in world.bodies[5:])
    for a in _actions(4, 100, seed=10):
        obs, reward, terminated, truncated, _ = envs.step(a)
        assert np.all(np.isfinite(obs)) and np.all(np.isfinite(reward))


def test_faithful_reset_is_gymnasiums_start(gymnasium_walker):
    """With the pybox2d layer's settings the reset's step (legs pulled together, feet stood on
    the ground by the time of impact, the hull's push) leaves the walker as Gymnasium's on
    the layer, to float32 precision (the bodies' rows differ: ours are made before the
    terrain, so the solver's sums may round differently)."""
    theirs = gymnasium_walker()
    env = BipedalWalker(box2d_faithful=True)
    for seed in (0, 1, 2):
        obs_theirs, _ = theirs.reset(seed=seed)
        obs, _ = env.reset(seed=seed)
        np.testing.assert_allclose(obs, obs_theirs, rtol=0, atol=1e-6)
        # the lower legs stand on the flat start pad (Box2D 2.3: y 3.922 and 3.920 m)
        for body in env.world.bodies[2:5:2]:
            assert body.position.y == pytest.approx(3.92, abs=0.015)


def test_faithful_first_steps_follow_gymnasium(gymnasium_walker):
    """The same actions move the walker as Gymnasium's on the layer (observations to 1e-4 for
    20 steps, rewards too). The feet's contact flags are left out: ours is "touching after
    the step"; Gymnasium's is set and cleared by begin and end callbacks, which the layer
    calls from the step's contact changes (on this seed it still reads 0 at the first step
    where Box2D 2.3 itself, pybox2d 2.3.10, measured, reads 1 and 1, as ours does)."""
    theirs = gymnasium_walker()
    env = BipedalWalker(box2d_faithful=True)
    obs_theirs, _ = theirs.reset(seed=4)
    env.reset(seed=4)
    rest = np.r_[0:8, 9:13, 14:24]
    for a in _actions(1, 20, seed=4)[:, 0]:
        obs_theirs, r_theirs, *_ = theirs.step(a)
        obs, r, *_ = env.step(a)
        np.testing.assert_allclose(obs[rest], obs_theirs[rest], rtol=0, atol=1e-4)
        assert r == pytest.approx(r_theirs, abs=1e-4)


def test_reward_is_the_change_of_the_potential_minus_the_torque_cost():
    env = BipedalWalker()
    env.reset(seed=5)
    hull = env.world.bodies[0]
    before = 130.0 * hull.position.x / 30.0 - 5.0 * abs(hull.angle)
    for a in _actions(1, 30, seed=5)[:, 0]:
        obs, reward, terminated, *_ = env.step(a)
        assert not terminated
        after = 130.0 * hull.position.x / 30.0 - 5.0 * abs(hull.angle)
        cost = 0.00035 * 80.0 * np.abs(a.astype(np.float64)).sum()
        # (float32 actions: the costs are float32 products, as Gymnasium's)
        assert reward == pytest.approx(after - before - cost, abs=1e-7)
        assert obs[0] == pytest.approx(hull.angle, abs=1e-6)
        before = after


def test_a_fall_ends_the_episode_with_minus_100():
    env = BipedalWalker()
    env.reset(seed=1)
    for k in range(60):
        obs, reward, terminated, truncated, _ = env.step(FALL)
        if terminated:
            break
    assert terminated and not truncated and reward == -100.0
    # the hull touches the ground: its lowest corner within a few cm of the ground below it
    hull = env.world.bodies[0]
    corners = [hull.world_point((x / 30.0, y / 30.0)) for x, y in HULL_POLY]
    low = min(corners, key=lambda p: p.y)
    assert abs(low.y - np.interp(low.x, env.terrain.x, env.terrain.y)) < 0.03


def test_motors_follow_the_action_as_gymnasium():
    """speed = sign(a) x top speed, torque limit 80 |a| (|a| clipped to 1)."""
    env = BipedalWalker()
    env.reset(seed=0)
    env.step(np.array([0.25, -2.0, 0.0, -0.5], dtype=np.float32))
    joints = env.world.joints
    assert [j.motor_speed for j in joints] == [4.0, -6.0, 0.0, -6.0]
    assert [j.max_motor_torque for j in joints] == pytest.approx([20.0, 80.0, 0.0, 40.0])


def test_lidar_equals_each_worlds_ray_cast_and_reads_the_terrain():
    n = 4
    envs = _vec(n)
    u = envs.unwrapped
    obs, _ = envs.reset(seed=20)
    acts = _actions(n, 40, seed=20)
    angles = 1.5 * np.arange(10) / 10.0
    for k in range(40):
        obs, *_ = envs.step(acts[k])
        for i, world in enumerate(u.batch.worlds):
            p = np.asarray(world.bodies[0].position)
            ends = p + np.stack((np.sin(angles), -np.cos(angles)), 1) * LIDAR_RANGE
            rays = world.ray_cast_many(np.tile(p, (10, 1)), ends - p, filter=LIDAR_FILTER)
            assert np.array_equal(obs[i, 14:], rays.fraction.astype(np.float32))
    # and the fractions are where the rays meet the ground line (no obstacles here)
    for i, world in enumerate(u.batch.worlds):
        t = u.terrains[i]
        p = np.asarray(world.bodies[0].position)
        for r, a in enumerate(angles):
            d = np.array([math.sin(a), -math.cos(a)]) * LIDAR_RANGE
            expected = 1.0
            for x1, y1, x2, y2 in zip(t.x[:-1], t.y[:-1], t.x[1:], t.y[1:]):
                e = np.array([x2 - x1, y2 - y1])
                den = d[0] * e[1] - d[1] * e[0]
                if den == 0:
                    continue
                q = np.array([x1, y1]) - p
                s = (q[0] * e[1] - q[1] * e[0]) / den
                u_ = (q[0] * d[1] - q[1] * d[0]) / den
                if 0 <= s <= 1 and 0 <= u_ <= 1:
                    expected = min(expected, s)
            assert obs[i, 14 + r] == pytest.approx(expected, abs=1e-6)
    assert np.any(obs[:, 14:] < 1.0)


# -- determinism -----------------------------------------------------------------------------

def _trace(n, steps, seed, k_max):
    envs = _vec(n)
    obs, _ = envs.reset(seed=seed)
    acts = np.repeat(_actions(1, steps, seed=99), n, axis=1)
    acts[: steps // 2, :, :] = FALL    # falls first, then autoresets into a second episode
    trace = [obs[:k_max].copy()]
    for k in range(steps):
        obs, reward, terminated, truncated, _ = envs.step(acts[k])
        trace += [obs[:k_max].copy(), reward[:k_max, None].copy(),
                  terminated[:k_max, None].astype(np.float64)]
    return trace


def test_same_seeds_give_the_same_episodes_in_batches_of_1_7_and_64():
    steps = 70
    t64 = _trace(64, steps, seed=30, k_max=7)
    t7 = _trace(7, steps, seed=30, k_max=7)
    t1 = _trace(1, steps, seed=30, k_max=1)
    assert len(t64) == len(t7)
    for a, b, c in zip(t64, t7, t1):
        assert np.array_equal(a, b)
        assert np.array_equal(a[:1], c)
    # the trace holds a fall (-100) and the next-step autoreset after it (reward 0)
    rewards = np.concatenate([x for x in t7[2::3]], axis=1)
    assert np.any(rewards == -100.0)


def test_vector_env_equals_the_single_env_for_its_seed():
    envs = _vec(3)
    obs_v, _ = envs.reset(seed=40)          # environment 2 is seeded 42
    env = gym.make("impulse2d/BipedalWalker-v3")
    obs_s, _ = env.reset(seed=42)
    assert np.array_equal(obs_v[2], obs_s)
    acts = _actions(3, 50, seed=42)
    for k in range(50):
        obs_v, r_v, term_v, *_ = envs.step(acts[k])
        obs_s, r_s, term_s, *_ = env.step(acts[k, 2])
        assert np.array_equal(obs_v[2], obs_s)
        assert r_v[2] == r_s and term_v[2] == term_s
        if term_s:
            break


# -- autoreset -----------------------------------------------------------------------------

def test_next_step_autoreset_starts_a_new_episode():
    n = 3
    envs = _vec(n)
    u = envs.unwrapped
    envs.reset(seed=50)
    acts = np.tile(FALL, (n, 1))
    acts[1] = 0.0        # environment 1 stands still and does not fall
    for k in range(60):
        obs, reward, terminated, truncated, _ = envs.step(acts)
        if terminated[0]:
            break
    assert terminated[0] and reward[0] == -100.0 and not terminated[1]
    x_standing = u.batch.worlds[1].bodies[0].position.x
    obs, reward, terminated, truncated, _ = envs.step(acts)
    # the finished environment was reset (its action ignored): reward 0, flags False, the
    # hull back at the start, the first observation of an episode (a new terrain)
    assert reward[0] == 0.0 and not terminated[0] and not truncated[0]
    hull = u.batch.worlds[0].bodies[0]
    assert hull.position.x == pytest.approx(terrain.TERRAIN_STEP * terrain.TERRAIN_STARTPAD / 2,
                                            abs=0.05)
    assert u._elapsed[0] == 0
    # the others went on
    assert u._elapsed[1] > 1
    assert u.batch.worlds[1].bodies[0].position.x == pytest.approx(x_standing, abs=0.05)


@pytest.mark.parametrize("mode", [gym.vector.AutoresetMode.NEXT_STEP,
                                  gym.vector.AutoresetMode.SAME_STEP])
def test_vector_env_equals_gymnasiums_sync_vector_env_of_the_single_env(mode):
    """Gymnasium's SyncVectorEnv over the single environment (with its TimeLimit) is the
    reference for autoreset, truncation, final_obs and seeding: the native vector env returns
    the same arrays, bit for bit, through episodes that end by falling and by the time limit
    (short here: 40 steps)."""
    n, limit = 3, 40
    sync = gym.vector.SyncVectorEnv(
        [lambda: gym.make("impulse2d/BipedalWalker-v3", max_episode_steps=limit)
         for _ in range(n)], autoreset_mode=mode)
    native = BipedalWalkerVectorEnv(n, max_episode_steps=limit, autoreset_mode=mode)
    acts = _actions(n, 130, seed=8)
    acts[:, 0] = FALL            # env 0 falls (about 40 steps), env 2 stands still: truncated
    acts[:, 2] = 0.0
    ends = {"term": 0, "trunc": 0}
    obs_s, _ = sync.reset(seed=9)
    obs_n, _ = native.reset(seed=9)
    np.testing.assert_array_equal(obs_s, obs_n)
    for k in range(130):
        out_s = sync.step(acts[k])
        out_n = native.step(acts[k])
        for x, y in zip(out_s[:4], out_n[:4]):
            np.testing.assert_array_equal(x, y)
        ends["term"] += int(out_s[2].sum())
        ends["trunc"] += int(out_s[3].sum())
        info_s, info_n = out_s[4], out_n[4]
        assert ("final_obs" in info_s) == ("final_obs" in info_n)
        if "final_obs" in info_s:
            np.testing.assert_array_equal(info_s["_final_obs"], info_n["_final_obs"])
            for i in np.flatnonzero(info_s["_final_obs"]):
                np.testing.assert_array_equal(info_s["final_obs"][i], info_n["final_obs"][i])
    assert ends["term"] >= 1 and ends["trunc"] >= 2   # both endings were exercised


def test_reset_mask_resets_only_those_environments():
    envs = BipedalWalkerVectorEnv(4, autoreset_mode="disabled")
    envs.reset(seed=0)
    for _ in range(10):
        obs, *_ = envs.step(np.full((4, 4), 0.3, np.float32))
    before = [w.state_hash() for w in envs.batch.worlds]
    mask = np.array([False, True, False, True])
    obs2, _ = envs.reset(options={"reset_mask": mask})
    after = [w.state_hash() for w in envs.batch.worlds]
    assert [b == a for b, a in zip(before, after)] == [True, False, True, False]
    np.testing.assert_array_equal(obs2[~mask], obs[~mask])
    start = terrain.TERRAIN_STEP * terrain.TERRAIN_STARTPAD / 2
    for i in (1, 3):   # back at the start, a new episode's terrain drawn
        assert envs.batch.worlds[i].bodies[0].position.x == pytest.approx(start, abs=0.05)


def test_truncation_after_max_episode_steps_then_reset():
    envs = _vec(2, max_episode_steps=5)
    envs.reset(seed=60)
    zeros = np.zeros((2, 4), dtype=np.float32)
    for k in range(5):
        obs, reward, terminated, truncated, _ = envs.step(zeros)
    assert truncated.all() and not terminated.any()
    obs, reward, terminated, truncated, _ = envs.step(zeros)
    assert not truncated.any() and np.all(reward == 0.0)


def test_same_step_autoreset_reports_the_final_observation():
    envs = _vec(2, autoreset_mode="same_step")
    envs.reset(seed=70)
    acts = np.tile(FALL, (2, 1))
    for k in range(60):
        obs, reward, terminated, truncated, infos = envs.step(acts)
        if terminated.any():
            break
    i = int(np.flatnonzero(terminated)[0])
    assert infos["_final_obs"][i] and infos["final_obs"][i].shape == (24,)
    # the returned observation is already the new episode's (hull level, legs at rest)
    assert not np.array_equal(obs[i], infos["final_obs"][i])
    assert abs(obs[i, 0]) < 0.05


def test_bad_actions_raise_and_change_nothing():
    envs = _vec(2)
    envs.reset(seed=80)
    world = envs.unwrapped.batch.worlds[0]
    before = world.state_hash()
    with pytest.raises(ValueError, match="actions"):
        envs.step(np.zeros((3, 4), np.float32))
    with pytest.raises(ValueError, match="finite"):
        envs.step(np.full((2, 4), np.nan, np.float32))
    assert world.state_hash() == before
    env = BipedalWalker()
    env.reset(seed=0)
    before = env.world.state_hash()
    with pytest.raises(ValueError, match="action"):
        env.step(np.zeros(3))
    with pytest.raises(ValueError, match="finite"):
        env.step(np.array([0.0, np.inf, 0.0, 0.0]))
    assert env.world.state_hash() == before
    with pytest.raises(TypeError, match="hardcore"):
        BipedalWalkerVectorEnv(1, hardcore="yes")
    with pytest.raises(TypeError, match="settings"):
        BipedalWalkerVectorEnv(1, settings=[("solver", "pgs")])
    with pytest.raises(ValueError, match="solver"):
        BipedalWalkerVectorEnv(1, settings={"solver": "fastest"})


def test_settings_override_the_engine_settings():
    env = BipedalWalkerVectorEnv(2, settings={"velocity_iterations": 20})
    world = env.batch.worlds[1]
    assert world.settings.velocity_iterations == 20
    assert world.settings.position_iterations == 3 and world.settings.solver == "pgs_block"
    faithful = BipedalWalkerVectorEnv(1, box2d_faithful=True)
    assert faithful.batch.worlds[0].settings.velocity_iterations == 180


# -- rendering -------------------------------------------------------------------------------

def test_rgb_array_frames_show_each_walker():
    from impulse2d.draw import colors
    envs = _vec(2, render_mode="rgb_array")
    envs.reset(seed=90)
    for _ in range(30):
        envs.step(np.zeros((2, 4), np.float32))
    frames = envs.render()
    assert len(frames) == 2
    u = envs.unwrapped
    for k, frame in enumerate(frames):
        assert frame.shape == (400, 600, 3) and frame.dtype == np.uint8
        # the view follows the hull: 30 px/m, its left edge 4 m behind the hull's origin, the
        # bottom at y = 0, so the hull's centre is at (120 px, 400 - 30 y)
        hull = u.batch.worlds[k].bodies[0]
        c = hull.world_center
        px = int(round(30 * (c.x - (hull.position.x - 4.0))))
        py = int(round(400 - 30 * c.y))
        assert tuple(frame[py, px]) == colors.AWAKE
        # the ground line under it is drawn, the sky above it is the background
        gy = int(round(400 - 30 * np.interp(hull.position.x, u.terrains[k].x, u.terrains[k].y)))
        column = frame[gy - 3:gy + 4, 120]
        assert np.any(np.any(column != colors.BACKGROUND, axis=1))
        assert tuple(frame[5, 300]) == colors.BACKGROUND


# -- the scripted gait -----------------------------------------------------------------------

@pytest.mark.parametrize("faithful", [False, True])
def test_scripted_walker_walks_on_the_vector_env(faithful):
    """The batched scripted gait (Gymnasium's heuristic) on 8 walkers, seeds 0-7, 150 steps
    (3 s): each stays up and walks at least 3.5 m (Box2D 2.3 itself: 3.5-6.4 m on seeds 0-3,
    tests/test_gym_envs.py), with the native and with the faithful settings (which read the
    feet's contact with Box2D 2.3's test: with the batch's stricter one the gait falls back
    at the start)."""
    n = 8
    envs = _vec(n, box2d_faithful=faithful)
    u = envs.unwrapped
    obs, _ = envs.reset(seed=0)
    x0 = np.array([w.bodies[0].position.x for w in u.batch.worlds])
    pilot = ScriptedWalker(n)
    ended = np.zeros(n, dtype=bool)
    lowest = np.full(n, np.inf)
    for _ in range(150):
        obs, reward, terminated, truncated, _ = envs.step(pilot(obs))
        ended |= terminated | truncated
        lowest = np.minimum(lowest, [w.bodies[0].position.y for w in u.batch.worlds])
    x = np.array([w.bodies[0].position.x for w in u.batch.worlds])
    assert not ended.any()
    assert np.all(lowest > terrain.TERRAIN_HEIGHT + 1.0)   # the hull stays up on its legs
    assert np.all(x - x0 > 3.5), x - x0
    assert x.max() < END_X


def test_scripted_walker_matches_gymnasiums_heuristic(gymnasium_walker):
    from gymnasium.envs.box2d.bipedal_walker import BipedalWalkerHeuristics
    theirs = BipedalWalkerHeuristics()
    ours = ScriptedWalker(1)
    env = gymnasium_walker()
    obs, _ = env.reset(seed=3)
    for k in range(200):
        a = theirs.step_heuristic(obs)
        np.testing.assert_allclose(ours(obs[None])[0], a, rtol=0, atol=1e-6)
        obs, _, terminated, *_ = env.step(a)
        if terminated:
            break
    assert k > 100
