"""The sample scenes: body counts and exact layouts, and their replay into the peer engines.

The scene builders are checked twice: through the benchmarks' ``RecordingWorld`` (which records
exactly what a builder asks for, shape geometry and materials included) and through a real
``impulse2d.World``.  The replay into pymunk and Box2D (benchmark extras) must give the same
bodies at the same places with the intended masses and pair materials.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d.scenes import SCENES, _load, build_scene, get_scene

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from engines import RecordingWorld, index_info  # noqa: E402
import metrics as M  # noqa: E402

_load()
ALL_SCENES = ("pyramid", "many_pyramids", "rain", "mixed_rain", "bouncing_balls",
              "friction_ramp", "dominoes", "stack")
SQRT3_2 = math.sqrt(3.0) / 2.0


def record(name, **params):
    rec = RecordingWorld()
    info = build_scene(rec, name, **params)
    return rec, info


def kinds(rec, type_):
    return [b for b in rec.bodies if b.type == type_]


# --------------------------------------------------------------------------------------------
# registry
# --------------------------------------------------------------------------------------------

def test_every_scene_is_registered_with_a_view_and_steps():
    assert set(ALL_SCENES) <= set(SCENES)
    for name in ALL_SCENES:
        sc = get_scene(name)
        x0, y0, x1, y1 = sc.view
        assert x1 - x0 > 1.0 and y1 - y0 > 1.0, name
        assert 60 <= sc.steps <= 1200, name
        assert sc.description


@pytest.mark.parametrize("name", ALL_SCENES)
def test_every_body_starts_inside_the_scene_view(name):
    rec, _ = record(name)
    x0, y0, x1, y1 = get_scene(name).view
    dyn = np.array([b.position for b in kinds(rec, "dynamic")])
    assert len(dyn) >= 5
    assert dyn[:, 0].min() > x0 and dyn[:, 0].max() < x1
    assert dyn[:, 1].min() > y0 and dyn[:, 1].max() < y1


# --------------------------------------------------------------------------------------------
# layouts, through the recording world
# --------------------------------------------------------------------------------------------

def test_pyramid_20_layout_is_exact():
    rec, info = record("pyramid")
    assert len(rec.bodies) == 211
    ground = rec.bodies[0]
    assert ground.type == "static" and ground.position == (0.0, -0.5)
    g = ground.shapes[0].geometry
    assert (g["half_width"], g["half_height"]) == (30.0, 0.5)
    boxes = kinds(rec, "dynamic")
    assert len(boxes) == 210 == len(info.bodies["boxes"])
    assert all(len(b.shapes) == 1 and b.shapes[0].kind == "box" for b in boxes)
    assert all(b.shapes[0].geometry["half_width"] == 0.5 for b in boxes)
    assert all(b.shapes[0].friction == 0.6 and b.shapes[0].density == 1.0 for b in boxes)
    assert boxes[0].position == (-9.5, 0.5)             # row 0, box 0
    assert boxes[19].position == (9.5, 0.5)             # row 0, last box
    assert boxes[20].position == (-9.0, 1.5)            # row 1, box 0
    assert info.bodies["top"] is rec.bodies[-1]
    assert info.bodies["top"].position == (0.0, 19.5)
    assert [len(r) for r in info.bodies["rows"]] == list(range(20, 0, -1))


def test_pyramid_100_has_5050_boxes_and_a_wider_ground():
    rec, info = record("pyramid", base=100)
    assert len(kinds(rec, "dynamic")) == 5050
    assert rec.bodies[0].shapes[0].geometry["half_width"] == 70.0
    assert info.bodies["top"].position == (0.0, 99.5)
    assert info.data["base"] == 100


def test_many_pyramids_layout():
    rec, info = record("many_pyramids")
    assert len(kinds(rec, "dynamic")) == 5500
    grounds = info.bodies["grounds"]
    assert len(grounds) == 10 and len(kinds(rec, "static")) == 10
    for r, g in enumerate(grounds):
        assert g.position == (54.0, 12.0 * r - 0.5)
        geo = g.shapes[0].geometry
        assert (geo["half_width"], geo["half_height"]) == (61.0, 0.5)
    pyr = info.bodies["pyramids"]
    assert len(pyr) == 100 and all(sum(len(r) for r in p) == 55 for p in pyr)
    # pyramid (row 3, column 7): bottom-left box and top box
    p = pyr[3 * 10 + 7]
    assert p[0][0].position == (84.0 - 4.5, 36.5)
    assert p[-1][0].position == (84.0, 45.5)
    # order: each grid row's ground comes before its pyramids
    assert rec.bodies[0] is grounds[0] and rec.bodies[551] is grounds[1]


def test_rain_2000_layout():
    rec, info = record("rain")
    circles = info.bodies["circles"]
    assert len(circles) == 2000 == len(kinds(rec, "dynamic"))
    assert len(kinds(rec, "static")) == 3
    assert all(c.shapes[0].kind == "circle" and c.shapes[0].geometry["radius"] == 0.25
               for c in circles)
    assert circles[0].position == (-18.375, 1.0)
    assert circles[51].position == (-17.25, 1.75)       # odd row: shifted by 0.375
    assert circles[1999].position == pytest.approx((18.75, 30.25), abs=1e-12)
    floor, (left, right) = info.bodies["floor"], info.bodies["walls"]
    assert floor.position == (0.0, -0.5) and left.position == (-20.5, 25.0)
    assert right.position == (20.5, 25.0)
    xy = np.array([c.position for c in circles])
    assert np.abs(xy[:, 0]).max() + 0.25 < 20.0         # every circle starts inside


def test_bouncing_balls_materials_and_heights():
    rec, info = record("bouncing_balls")
    balls = info.bodies["balls"]
    assert [b.shapes[0].restitution for b in balls] == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert [b.position for b in balls] == [(3.0 * k, 10.5) for k in range(5)]
    assert info.bodies["ball_e0.75"] is balls[3]
    assert rec.bodies[0].shapes[0].restitution == 0.0
    assert info.data["analytic_apex"][2] == pytest.approx([2.5, 0.625, 0.15625])


def test_friction_ramp_layout_and_analytic_displacement():
    rec, info = record("friction_ramp")
    ramps, boxes = info.bodies["ramps"], info.bodies["boxes"]
    assert len(ramps) == len(boxes) == 5
    for k, (ramp, box, mu) in enumerate(zip(ramps, boxes, (0.2, 0.4, 0.577, 0.6, 0.8))):
        assert ramp.angle == pytest.approx(math.radians(30.0))
        assert ramp.shapes[0].friction == 1.0
        assert math.sqrt(ramp.shapes[0].friction * box.shapes[0].friction) == pytest.approx(mu)
        assert box.position == pytest.approx((30.0 * k - 0.5, SQRT3_2), abs=1e-12)
    ana = info.data["analytic_displacement"]
    assert ana[0] == pytest.approx(0.5 * 10.0 * (0.5 - 0.2 * SQRT3_2) * 4.0)   # 6.536 m
    assert ana[2] == pytest.approx(0.0061, abs=1e-4)
    assert ana[3] == 0.0 and ana[4] == 0.0


def test_mixed_rain_has_every_shape_kind():
    rec, info = record("mixed_rain")
    dyn = kinds(rec, "dynamic")
    assert len(dyn) == 300
    shape_kinds = [b.shapes[0].kind for b in dyn]
    assert shape_kinds.count("circle") == 50 and shape_kinds.count("capsule") == 50
    assert shape_kinds.count("polygon") == 100                     # triangles + pentagons
    rounded = [b for b in dyn if b.shapes[0].kind == "box" and b.shapes[0].geometry["radius"] > 0]
    assert len(rounded) == 50 and shape_kinds.count("box") == 100
    assert sorted(len(b.shapes[0].geometry["vertices"]) for b in info.bodies["pentagon"])[0] == 5
    segs = info.bodies["deflectors"].shapes
    assert [s.kind for s in segs] == ["segment", "segment"]
    xy = np.array([b.position for b in dyn])
    assert np.abs(xy[:, 0]).max() < 12.0 - 0.6                     # inside the walls
    # no two spawn points closer than the largest shape (1.2 m across)
    d = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1))
    assert d[np.triu_indices(len(xy), 1)].min() > 1.2


def test_dominoes_layout_and_push():
    rec, info = record("dominoes")
    d = info.bodies["dominoes"]
    assert len(d) == 30
    assert [b.position for b in d[:3]] == [(0.0, 1.0), (1.2, 1.0), (2.4, 1.0)]
    assert d[-1].position == pytest.approx((34.8, 1.0))
    geo = d[5].shapes[0].geometry
    assert (geo["half_width"], geo["half_height"]) == (0.1, 1.0)
    first = d[0]
    assert first.angular_velocity == -2.0                        # tips towards +x
    # rotation about the bottom right corner (0.1, 0): v = w x (c - corner)
    assert first.linear_velocity == pytest.approx((2.0, 0.2))
    assert all(b.angular_velocity == 0.0 for b in d[1:])


def test_stack_count_parameter():
    rec, info = record("stack", count=7)
    assert len(rec.bodies) == 8
    assert [b.position for b in info.bodies["boxes"]] == [(0.0, 0.5 + i) for i in range(7)]
    with pytest.raises(ValueError, match="count"):
        record("stack", count=0)


# --------------------------------------------------------------------------------------------
# the real world
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, bodies", [
    ("pyramid", 211), ("rain", 2003), ("mixed_rain", 304), ("bouncing_balls", 6),
    ("friction_ramp", 10), ("dominoes", 31), ("stack", 6),
])
def test_scene_builds_into_a_world_at_the_recorded_positions(name, bodies):
    rec, _ = record(name)
    world = i2d.World()
    info = build_scene(world, name)
    assert len(world.bodies) == bodies == len(rec.bodies)
    pos = np.asarray(world.get_positions())
    ang = np.asarray(world.get_angles())
    np.testing.assert_allclose(pos, [b.position for b in rec.bodies], atol=1e-12)
    np.testing.assert_allclose(ang, [b.angle for b in rec.bodies], atol=1e-12)
    assert all(isinstance(v, (i2d.Body, list, tuple, dict)) for v in info.bodies.values())


def test_scene_masses_in_the_world():
    world = i2d.World()
    info = build_scene(world, "rain", count=3)
    assert info.bodies["circles"][0].mass == pytest.approx(math.pi * 0.25 ** 2)
    world = i2d.World()
    info = build_scene(world, "pyramid", base=2)
    assert info.bodies["top"].mass == pytest.approx(1.0)
    assert len(world.bodies) == 4


def test_many_pyramids_builds_5510_bodies():
    world = i2d.World()
    info = build_scene(world, "many_pyramids")
    assert len(world.bodies) == 5510
    assert info.bodies["tops"][-1].position.y == pytest.approx(117.5)


@pytest.mark.parametrize("name", ["mixed_rain", "dominoes", "bouncing_balls"])
def test_demo_scene_runs_one_second_without_nan(name):
    world = i2d.World()
    build_scene(world, name)
    for _ in range(60):
        world.step(1.0 / 60.0)
    pos = np.asarray(world.get_positions())
    assert np.isfinite(pos).all() and np.isfinite(np.asarray(world.get_velocities())).all()
    assert pos[:, 1].min() > -1.0                          # nothing fell through the floor


# --------------------------------------------------------------------------------------------
# replay into the peers (benchmark extras)
# --------------------------------------------------------------------------------------------

def _replayed(engine_name, scene, **params):
    from engines import make_engine
    eng = make_engine(engine_name)
    eng.build(scene, **params)
    return eng


@pytest.mark.parametrize("engine", ["pymunk", "box2d"])
@pytest.mark.parametrize("name", ALL_SCENES)
def test_replay_gives_the_same_bodies_at_the_same_places(engine, name):
    pytest.importorskip({"pymunk": "pymunk", "box2d": "Box2D"}[engine])
    rec, _ = record(name)
    eng = _replayed(engine, name)
    s = eng.states()
    assert eng.n_bodies == len(rec.bodies) == len(s)
    tol = 1e-12 if engine == "pymunk" else 2e-5                      # Box2D 2.3 is float32
    np.testing.assert_allclose(s[:, :2], [b.position for b in rec.bodies], atol=tol)
    np.testing.assert_allclose(s[:, 2], [b.angle for b in rec.bodies], atol=tol)
    np.testing.assert_allclose(s[:, 3:5], [b.linear_velocity for b in rec.bodies], atol=tol)
    assert eng.index == index_info(eng.info, lambda h: h.index)


def test_pymunk_replay_masses_and_pair_materials():
    pymunk = pytest.importorskip("pymunk")
    eng = _replayed("pymunk", "bouncing_balls")
    ground, balls = eng.bodies[0], eng.bodies[1:]
    assert ground.body_type == pymunk.Body.STATIC
    g_shape = next(iter(ground.shapes))
    assert g_shape.elasticity == 1.0 and g_shape.friction == pytest.approx(math.sqrt(0.6))
    for ball, e in zip(balls, (0.0, 0.25, 0.5, 0.75, 1.0)):
        shape = next(iter(ball.shapes))
        assert ball.mass == pytest.approx(math.pi * 0.25)
        assert shape.elasticity * g_shape.elasticity == pytest.approx(e)      # pair = max rule
        assert shape.friction * g_shape.friction == pytest.approx(0.6)        # pair = sqrt rule
    ramp = _replayed("pymunk", "friction_ramp")
    r, b = next(iter(ramp.bodies[0].shapes)), next(iter(ramp.bodies[1].shapes))
    assert r.friction * b.friction == pytest.approx(0.2)
    assert ramp.bodies[1].mass == pytest.approx(1.0)
    assert ramp.config()["iterations"] == 10 and ramp.config()["collision_slop"] == 0.005


def test_box2d_replay_masses_materials_and_no_sleep():
    Box2D = pytest.importorskip("Box2D")
    eng = _replayed("box2d", "friction_ramp")
    ramp, box = eng.bodies[0], eng.bodies[1]
    assert ramp.fixtures[0].friction == 1.0
    assert box.fixtures[0].friction == pytest.approx(0.04)
    assert box.mass == pytest.approx(1.0, rel=1e-6)
    assert all(not b.sleepingAllowed for b in eng.bodies if b.type == Box2D.b2_dynamicBody)
    rain = _replayed("box2d", "rain", count=10)
    assert rain.bodies[5].mass == pytest.approx(math.pi * 0.0625, rel=1e-6)
    mixed = _replayed("box2d", "mixed_rain", count=12)
    capsule = mixed.bodies[4 + 2]                      # kinds cycle circle, box, capsule, ...
    assert len(capsule.fixtures[0].shape.vertices) == 8
    assert eng.config()["velocity_iterations"] == 8 and eng.config()["position_iterations"] == 3


@pytest.mark.parametrize("engine", ["pymunk", "box2d"])
def test_replayed_stack_rests(engine):
    pytest.importorskip({"pymunk": "pymunk", "box2d": "Box2D"}[engine])
    eng = _replayed(engine, "stack")
    for _ in range(120):
        eng.step()
    s = eng.states()
    top = eng.index["top"]
    assert s[top, 1] == pytest.approx(4.5, abs=0.08)          # Box2D 2.3: 1 cm polygon skin
    assert np.abs(s[1:, 0]).max() < 0.01


# --------------------------------------------------------------------------------------------
# metrics on known states
# --------------------------------------------------------------------------------------------

def _states(rec):
    return np.array([(*b.position, b.angle, *b.linear_velocity, b.angular_velocity)
                     for b in rec.bodies])


def test_pyramid_metrics_at_start_and_after_a_collapse():
    rec, info = record("pyramid", base=6)
    idx = index_info(info, lambda h: h.index)
    s0 = _states(rec)
    m = M.pyramid_metrics(s0, s0, idx, info.data)
    assert m["standing"] and m["top_dy"] == 0.0 and m["max_tilt_deg"] == 0.0
    assert m["max_overlap"] < 1e-12 and m["overlaps_gt_1cm"] == 0
    s = s0.copy()
    s[idx["top"], 1] -= 0.3                       # top box sunk 30 cm into the row below
    s[idx["rows"][0][2], 2] = math.radians(15.0)  # a bottom box turned 15 degrees
    m = M.pyramid_metrics(s0, s, idx, info.data)
    assert not m["standing"] and not m["tilt_ok"] and m["rise_ok"]
    assert m["top_dy"] == pytest.approx(-0.3) and m["max_drop"] == pytest.approx(0.3)
    assert m["max_tilt_deg"] == pytest.approx(15.0)
    assert m["max_overlap"] >= 0.3 - 1e-9 and m["overlaps_gt_1cm"] >= 1


def test_rain_and_ramp_metrics():
    rec, info = record("rain", count=100)
    idx = index_info(info, lambda h: h.index)
    s0 = _states(rec)
    s = s0.copy()
    c = idx["circles"]
    s[c[0], 0] = 25.0                             # one escaped sideways
    s[c[1], :2] = s[c[2], :2] - (0.4, 0.0)        # two overlapping by 10 cm
    m = M.rain_metrics(s0, s, idx, info.data)
    assert m["escaped"] == 1
    assert m["max_overlap"] == pytest.approx(0.1) and m["overlaps_gt_1cm"] == 1
    assert m["pile_top"] == pytest.approx(max(s[c[1:], 1]) + 0.25)

    rec, info = record("friction_ramp")
    idx = index_info(info, lambda h: h.index)
    s0 = _states(rec)
    s = s0.copy()
    b = idx["boxes"][0]
    s[b, :2] += 2.0 * np.asarray(info.data["down_slope"])
    m = M.friction_ramp_metrics(s0, s, idx, info.data)
    assert m["mu0.2"]["displacement"] == pytest.approx(2.0) and m["mu0.2"]["slid"]
    assert m["mu0.2"]["analytic"] == pytest.approx(info.data["analytic_displacement"][0])
    assert m["mu0.8"]["displacement"] == 0.0 and not m["mu0.8"]["slid"]


def test_dominoes_all_fall_within_the_scene_steps():
    world = i2d.World()
    info = build_scene(world, "dominoes")
    for _ in range(get_scene("dominoes").steps):
        world.step(1.0 / 60.0)
    angles = np.array([b.angle for b in info.bodies["dominoes"]])
    assert np.all(angles < -0.5)                          # every domino toppled towards +x
    assert info.bodies["last"].angle == pytest.approx(-math.pi / 2, abs=0.15)   # lies flat
