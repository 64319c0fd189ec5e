"""A native environment's reset moves the terrain restored with its world in place
(``impulse2d.envs._segments``) instead of making it anew: the world it gives must be, bit for
bit, the world whose terrain was made anew through the public API (``create_segment``,
``create_chain``) or the walker's batch of edges, through the same points, and must step the
same."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from impulse2d.envs import _walker_terrain as terrain  # noqa: E402
from impulse2d.envs._segments import Segments  # noqa: E402
from impulse2d.envs.bipedal_walker import (  # noqa: E402
    LIDAR_FILTER, BipedalWalkerVectorEnv, build_walker)
from impulse2d.envs.lunar_lander import (  # noqa: E402
    CHUNK_X, W, LunarLanderVectorEnv)

STEPS = 40


def _episode_start(env, k: int):
    """World ``k`` of ``env`` as a reset leaves it before its step: restored, then the
    episode's terrain moved in place and its push applied."""
    env.batch.restore(env._blank, [k])
    env._begin_episodes(np.array([k]))
    return env.batch.worlds[k]


def _same_after_steps(a, b, steps=STEPS, dt=1.0 / 50.0):
    assert a.state_hash() == b.state_hash()
    for _ in range(steps):
        a.step(dt)
        b.step(dt)
    assert a.state_hash() == b.state_hash()


@pytest.mark.parametrize("faithful", [False, True])
def test_lander_moon_moved_in_place_is_the_moon_made_anew(faithful):
    env = LunarLanderVectorEnv(3, box2d_faithful=faithful, threads=1)
    env.reset(seed=11)
    for k in range(3):
        world = _episode_start(env, k)
        body, rows = env._moon
        v = world._shapes.vertices[rows]
        # the episode's 11 points, read back from the segments (x is the chunks' grid)
        ends = np.concatenate((v[:, 0], v[-1:, 1]))
        if not faithful:
            ends = ends[::-1]   # the chain runs right to left
        assert np.array_equal(ends[:, 0], CHUNK_X)
        assert not np.all(ends[:, 1] == ends[0, 1])   # not the template's flat moon
        ref = env._template()
        moon = ref.create_body(type="static")
        moon.create_segment((0.0, 0.0), (W, 0.0), friction=0.2)
        points = [(float(x), float(y)) for x, y in ends]
        if faithful:
            for p1, p2 in zip(points[:-1], points[1:]):
                moon.create_segment(p1, p2, density=0.0, friction=0.1)
        else:
            moon.create_chain(points[::-1], friction=0.1)
        f = world._bodies.force[0]
        ref.bodies[0].apply_force((float(f[0]), float(f[1])))
        assert moon._index == body and [s._index for s in moon.shapes][1:] == rows
        for name in ref._shapes._fields:
            assert np.array_equal(getattr(ref._shapes, name)[rows],
                                  getattr(world._shapes, name)[rows]), name
        assert ref._bodies.extent[body] == world._bodies.extent[body]
        assert ref._bodies.min_extent[body] == world._bodies.min_extent[body]
        _same_after_steps(world, ref)


def test_walker_ground_moved_in_place_is_the_ground_made_anew():
    env = BipedalWalkerVectorEnv(3, threads=1)
    env.reset(seed=4)
    for k in range(3):
        world = _episode_start(env, k)
        t = env.terrains[k]
        body, rows = env._ground
        assert np.array_equal(world._shapes.vertices[rows, 0, 1], t.y[:-1])
        assert np.array_equal(world._shapes.vertices[rows, 1, 1], t.y[1:])
        ref = build_walker(env.settings)
        (ground, edges), = terrain._create(ref, [terrain._edges(t.x, t.y)])
        f = world._bodies.force[0]
        ref.bodies[0].apply_force((float(f[0]), float(f[1])))
        assert ground._index == body and [s._index for s in edges] == rows
        for name in ref._shapes._fields:
            assert np.array_equal(getattr(ref._shapes, name)[rows],
                                  getattr(world._shapes, name)[rows]), name
        assert ref._bodies.extent[body] == world._bodies.extent[body]
        _same_after_steps(world, ref, steps=STEPS)


def test_walker_episodes_on_their_own_ground_after_many_resets():
    """Episode after episode (autoreset) a world's ground is its episode's, and the lidar
    reads that ground: each ray's hit lies on the terrain line."""
    env = BipedalWalkerVectorEnv(4, threads=1, max_episode_steps=25)
    env.reset(seed=2)
    actions = np.random.default_rng(2).uniform(-1, 1, (80, 4, 4)).astype(np.float32)
    for a in actions:
        env.step(a)
    hulls = env.batch.get_positions()[:, 0]
    for k, world in enumerate(env.batch.worlds):
        t = env.terrains[k]
        body, rows = env._ground
        assert np.array_equal(world._shapes.vertices[rows, 1, 1], t.y[1:])
        hit = world.ray_cast(tuple(hulls[k]), (0.0, -10.0), LIDAR_FILTER)   # straight down
        assert hit is not None
        assert hit.point[1] == pytest.approx(np.interp(hit.point[0], t.x, t.y), abs=1e-9)


def test_move_segments_rejects_segments_too_short_and_changes_nothing():
    env = BipedalWalkerVectorEnv(1, threads=1)
    env.reset(seed=0)
    world = env.batch.worlds[0]
    body, rows = env._ground
    before = world.state_hash()
    a = world._shapes.vertices[rows, 0].copy()
    b = a.copy()
    b[5] = a[5] + 1e-4   # one segment shorter than the linear slop
    refs = env.batch._checked_refs(env.batch.body_rows, chosen=np.array([0]))
    with pytest.raises(ValueError, match="apart"):
        Segments(world, body, rows).move(refs, a[None], b[None])
    assert world.state_hash() == before


def test_compiled_hypot_is_pythons_to_the_bit():
    """The segments' lengths, taken in the kernel (``_hypot.hypot``), are ``math.hypot``'s
    bits (CPython's, not libm's, which differs on about one pair in 170) over a million pairs
    of every magnitude, the lander's terrain's, raw bit patterns, subnormals, and the special
    values."""
    import math

    import numba

    from impulse2d.envs._hypot import hypot

    @numba.njit
    def lengths(x, y, out):
        for i in range(x.shape[0]):
            out[i] = hypot(x[i], y[i])

    rng = np.random.default_rng(31)
    n = 200_000
    sign = rng.choice([-1.0, 1.0], (2, n))
    pairs = [rng.uniform(-3.0, 3.0, (2, n)),
             np.stack([np.full(n, -(CHUNK_X[1] - CHUNK_X[0])), rng.uniform(-4.0, 4.0, n)]),
             sign * np.exp(rng.uniform(-700.0, 700.0, (2, n))),
             rng.integers(0, 2**63, (2, n), dtype=np.uint64).view(np.float64),
             rng.uniform(0.0, 2.0**-1000, (2, n)) * 2.0**-40]
    special = [0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, 2.2250738585072014e-308,
               1.7976931348623157e308, 1.0, -3.0]
    pairs.append(np.array([(a, b) for a in special for b in special]).T)
    for x, y in pairs:
        out = np.empty(x.shape[0])
        lengths(x, y, out)
        want = np.array(list(map(math.hypot, x.tolist(), y.tolist())))
        same = (out.view(np.int64) == want.view(np.int64)) | (np.isnan(out) & np.isnan(want))
        assert same.all(), (x[~same][:3], y[~same][:3])
