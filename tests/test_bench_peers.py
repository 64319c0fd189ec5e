"""The benchmark's pyb2d3 (Box2D v3.1) adapter and its mostly-asleep scene.

The replay of every sample scene into pyb2d3 is checked with the other peers in
``test_scenes.py``; here: what the adapter maps beyond positions (masses, pair materials,
filters, joints, threads, sleeping), and ``many_pyramids_one_awake`` of ``benchmarks/run.py``
(the boxes fall asleep, the ball keeps rolling without slipping)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from engines import make_engine  # noqa: E402

DT = 1.0 / 60.0


def _replayed(engine_name, scene, options=None, **params):
    eng = make_engine(engine_name, options)
    eng.build(scene, **params)
    return eng


def test_pyb2d3_masses_pair_materials_and_config():
    pytest.importorskip("pyb2d3")
    balls = _replayed("pyb2d3", "bouncing_balls")
    for body in balls.bodies[1:]:
        assert body.mass == pytest.approx(math.pi * 0.25, rel=1e-6)      # r 0.5 m, density 1
    ramp = _replayed("pyb2d3", "friction_ramp")
    box = ramp.bodies[1]
    assert box.mass == pytest.approx(1.0, rel=1e-6)
    assert box.shapes[0].friction == pytest.approx(0.04, rel=1e-6)      # sqrt(0.04 * 1) = 0.2
    assert ramp.bodies[0].shapes[0].friction == 1.0
    cfg = ramp.config()
    assert cfg["sub_step_count"] == 4 and cfg["threads"] == 1
    assert cfg["sleeping_enabled"] is False and cfg["continuous_enabled"] is True


def test_pyb2d3_ramp_slides_as_analytic():
    """30 degree ramp, mu 0.2: 2 s of sliding from rest cover g (sin - mu cos) t^2 / 2."""
    pytest.importorskip("pyb2d3")
    eng = _replayed("pyb2d3", "friction_ramp")
    s0 = eng.states()
    for _ in range(120):
        eng.step()
    s = eng.states()
    i = eng.index["box_mu0.2"]
    moved = math.hypot(*(s[i, :2] - s0[i, :2]))
    a = 10.0 * (math.sin(math.radians(30.0)) - 0.2 * math.cos(math.radians(30.0)))
    assert moved == pytest.approx(0.5 * a * 2.0 ** 2, rel=0.02)


def test_pyb2d3_chain_joints_hold_and_threads_give_a_pool():
    pytest.importorskip("pyb2d3")
    eng = _replayed("pyb2d3", "chain", {"threads": 2}, links=10)
    assert eng.config()["threads"] == 2 and eng.pool is not None
    assert len(eng.joints) == 10
    for _ in range(120):
        eng.step()
    s = eng.states()
    assert np.isfinite(s).all()
    for j in eng.joints:                                   # anchors of each pin stay together
        pa = j.body_a.world_point(j.local_anchor_a)
        pb = j.body_b.world_point(j.local_anchor_b)
        assert math.hypot(pa.x - pb.x, pa.y - pb.y) < 0.02


def test_pyb2d3_rejects_unknown_options():
    pytest.importorskip("pyb2d3")
    with pytest.raises(ValueError, match="unknown pyb2d3 options: iterations"):
        _replayed("pyb2d3", "stack", {"iterations": 10})


def _one_awake(engine, steps):
    import run

    eng = make_engine(engine, {"enable_sleep" if engine == "impulse2d" else "sleep": True})
    eng.build(run.many_pyramids_one_awake, grid=2, base=3)
    ball = eng.index["ball"]
    n = 0
    while eng.awake_count() > 1 and n < 600:
        eng.step()
        n += 1
    x0 = eng.states()[ball, 0]
    for _ in range(steps):
        eng.step()
    return eng, n, eng.states()[ball], x0


@pytest.mark.parametrize("engine", ["impulse2d", "pyb2d3", "box2d", "pymunk"])
def test_many_pyramids_one_awake_leaves_only_the_rolling_ball(engine):
    pytest.importorskip({"impulse2d": "impulse2d", "pyb2d3": "pyb2d3", "box2d": "Box2D",
                         "pymunk": "pymunk"}[engine])
    eng, settle, ball, x0 = _one_awake(engine, 60)
    assert settle < 600                                  # the boxes fell asleep
    assert eng.awake_count() == 1                         # the ball alone is awake
    assert eng.n_bodies == 2 + 4 * 6 + 2                  # 2 slabs, 4 pyramids of 6, floor, ball
    # rolling without slipping on a level floor: 2 m/s, w = -4 rad/s, centre 0.5 m up
    # (vertical: Box2D v3's soft contact leaves a resting ball a few cm/s of bob)
    assert ball[3] == pytest.approx(2.0, abs=0.02) and abs(ball[4]) < 0.1
    assert ball[5] == pytest.approx(-4.0, abs=0.05)
    assert ball[1] == pytest.approx(-9.5, abs=0.02)
    assert ball[0] - x0 == pytest.approx(2.0, abs=0.03)   # 60 steps = 1 s
