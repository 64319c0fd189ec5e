"""The machine scenes (car, tumbler, mouse_drag), checked against the physics they show, and the
scenes' per-step hook (``SceneInfo.update``) as the demo command calls it."""

from __future__ import annotations

import math

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d import cli
from impulse2d.scenes import (SCENES, Scene, SceneInfo, _load, build_scene, get_scene,
                              step_scene)
from impulse2d.scenes import machines

DT = 1.0 / 60.0
MACHINE_SCENES = ("car", "tumbler", "mouse_drag", "pulley", "gears")
SMALL = {"tumbler": {"count": 60}}      # fewer boxes: same drum, same motor, quicker tests

_load()


def _built(name, **params):
    world = i2d.World()
    info = build_scene(world, name, **{**SMALL.get(name, {}), **params})
    return world, info


def _finite(world):
    return (np.isfinite(np.asarray(world.get_positions())).all()
            and np.isfinite(np.asarray(world.get_velocities())).all())


def _speed(body):
    return math.hypot(*body.linear_velocity)


# --------------------------------------------------------------------------------------------
# registry
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", MACHINE_SCENES)
def test_machine_scene_is_registered_with_a_view_steps_and_parameters(name):
    sc = get_scene(name)
    assert sc.description and 60 <= sc.steps <= 1200 and sc.params
    x0, y0, x1, y1 = sc.view
    assert x1 - x0 > 1.0 and y1 - y0 > 1.0
    world, _ = _built(name)
    dynamic = np.array([tuple(b.position) for b in world.bodies if b.type == i2d.BodyType.DYNAMIC])
    assert len(dynamic) >= 5
    assert dynamic[:, 0].min() > x0 and dynamic[:, 0].max() < x1
    assert dynamic[:, 1].min() > y0 and dynamic[:, 1].max() < y1


@pytest.mark.parametrize("name", MACHINE_SCENES)
def test_machine_scene_runs_one_second_without_nan(name):
    world, info = _built(name)
    for i in range(60):
        step_scene(world, info, i)
    assert _finite(world)
    assert np.asarray(world.get_positions())[:, 1].min() > -4.0    # nothing fell out


# --------------------------------------------------------------------------------------------
# car
# --------------------------------------------------------------------------------------------

def test_car_drives_over_the_track_at_the_speed_its_wheels_allow():
    world, info = _built("car")
    chassis, wheels = info.bodies["chassis"], info.bodies["wheels"]
    mounts, radius = info.data["wheel_mounts"], info.data["wheel_radius"]
    top_speed = info.data["motor_speed"] * radius          # rolling without slip, m/s (4.8)
    x_start = chassis.position.x
    off_axis = max_tilt = 0.0
    x_at_8s = None
    for i in range(get_scene("car").steps):                 # 13 s
        step_scene(world, info, i)
        for wheel, (mx, _) in zip(wheels, mounts):
            # the wheel centre must stay on the vertical line through its mount (chassis frame)
            off_axis = max(off_axis, abs(chassis.local_point(wheel.position).x - mx))
        max_tilt = max(max_tilt, abs(chassis.angle))
        if i + 1 == 480:
            x_at_8s = chassis.position.x
    assert _finite(world)
    # In 8 s the car cannot outrun its wheels (rolling at motor speed gives 38.4 m); the bumps
    # and the 0.2-slope ramp slow it and the spin-up takes ~0.5 s, so it covers 90 % of it
    # (34.6 m measured). 80 % would still mean the motor drives the car, not slip.
    distance = x_at_8s - x_start
    assert 0.8 * top_speed * 8.0 < distance <= 1.01 * top_speed * 8.0
    # Past the bridge, on flat ground, it cruises at the wheels' rim speed (the 5 mm contact
    # slop makes the rolling radius a little smaller: 0.4 % measured).
    assert chassis.position.x > machines.BRIDGE_END + 2.0
    assert chassis.linear_velocity.x == pytest.approx(top_speed, rel=0.01)
    assert abs(chassis.linear_velocity.y) < 0.05
    # Upright all the way: the ramp is 0.197 rad steep, the bumps pitch it a little more
    # (0.25 rad measured); level again at the end.
    assert max_tilt < 0.35
    assert abs(chassis.angle) < 0.02
    assert off_axis < 0.01                                  # 2.7 mm measured


# --------------------------------------------------------------------------------------------
# tumbler
# --------------------------------------------------------------------------------------------

def test_tumbler_turns_at_its_motor_speed_and_keeps_every_box_inside():
    world, info = _built("tumbler")
    drum, boxes = info.bodies["drum"], info.bodies["boxes"]
    speed, inner_half = info.data["motor_speed"], info.data["inner_half"]
    cx, cy = info.data["centre"]
    # A box centre is at least half a side from a wall's inner face; allow 3 cm (a tenth of a
    # box) for the soft contacts' overlap under the heap. An escaped box would be 0.3 m out.
    reach = inner_half - 0.5 * info.data["box_size"] + 0.03
    worst_speed_error = worst_reach = 0.0
    highest_heap = -math.inf
    for i in range(600):                                     # 10 s: the drum turns 90 degrees
        step_scene(world, info, i)
        if world.time >= 0.5:                                # after spin-up
            worst_speed_error = max(worst_speed_error,
                                    abs(drum.angular_velocity - speed) / speed)
        if (i + 1) % 15 == 0:
            local = np.array([tuple(drum.local_point(b.position)) for b in boxes])
            worst_reach = max(worst_reach, float(np.abs(local).max()))
            highest_heap = max(highest_heap, float(np.mean([b.position.y for b in boxes])))
    assert _finite(world)
    assert worst_speed_error < 0.05                          # 0.03 % measured
    assert drum.angle == pytest.approx(speed * world.time, rel=0.05)
    assert math.hypot(drum.position.x - cx, drum.position.y - cy) < 1e-3   # pinned at centre
    assert worst_reach < reach
    # The boxes tumble instead of turning with the drum: boxes stuck to its floor would have
    # been carried up to the centre's height after a quarter turn; the heap stays low.
    assert highest_heap < cy - 0.3 * inner_half


# --------------------------------------------------------------------------------------------
# mouse drag
# --------------------------------------------------------------------------------------------

def _circle_lag(info):
    """Steady-state distance between a point mass and a target circling at constant speed when
    a damped spring of ``hertz`` pulls one to the other: R |1 - H(i W)| with
    H(s) = w^2 / (s^2 + 2 z w s + w^2), W the target's angular rate, m."""
    _, radius, period = info.data["circle"]
    w = 2.0 * math.pi * info.data["hertz"]
    z = info.data["damping_ratio"]
    rate = 2.0 * math.pi / period
    response = w * w / (w * w - rate * rate + 2j * z * w * rate)
    return radius * abs(1.0 - response)


def test_mouse_drag_follows_its_target_like_a_spring_and_the_pile_comes_to_rest():
    world, info = _built("mouse_drag")
    dragged, joint = info.bodies["dragged"], info.data["joint"]
    others = info.bodies["pile"] + info.bodies["loose"]
    times = info.data["times"]
    g = math.hypot(*world.gravity)
    sag = g / (2.0 * math.pi * info.data["hertz"]) ** 2      # static stretch: 1.0 cm at 5 Hz
    lag = _circle_lag(info)                                  # 0.187 m for 2 m in 3 s
    circle_errors, max_turn, hold_error = [], 0.0, None
    for i in range(get_scene("mouse_drag").steps):
        step_scene(world, info, i)
        if world.time < times["release"]:
            # the target the step just taken pulled toward (held through the step)
            tx, ty = joint.target
            error = math.hypot(dragged.position.x - tx, dragged.position.y - ty)
            if times["circle"] + 0.5 <= world.time <= times["carry"]:   # transient decayed
                circle_errors.append(error)
            if world.time < times["hold"]:
                # pulled at its centre of mass, the box must not swing round
                max_turn = max(max_turn, abs(dragged.angle))
            hold_error = error
    assert _finite(world)
    # Around the circle it trails the target by the spring's steady-state lag (measured
    # 0.165-0.185 m); gravity's sag adds or subtracts up to 1 cm, and the discrete soft step
    # (target held for 1/60 s, implicit spring) is allowed 2 cm more.
    assert len(circle_errors) > 100
    assert max(abs(e - lag) for e in circle_errors) < sag + 0.02
    assert max_turn < 0.01
    # Held still above the pile, it hangs below the target by exactly the spring's sag.
    assert hold_error == pytest.approx(sag, abs=1e-3)
    # Let go (the hook destroyed the joint): it fell onto the pyramid and everything rests.
    assert not joint.is_valid
    top = info.data["pile_top"]
    assert dragged.position.y == pytest.approx(top + 0.5, abs=0.05)
    assert abs(dragged.position.x - machines.PILE_X) < 0.5
    assert max(_speed(b) for b in others + [dragged]) < 0.01
    assert max(abs(b.angular_velocity) for b in others + [dragged]) < 0.01
    # the pile was hit but still stands: every box within 0.1 m of where it was built
    for k, box in enumerate(info.bodies["pile"]):
        assert box.position.y == pytest.approx(_pile_height(k, info), abs=0.1)


def _pile_height(k, info):
    """Height (m) of the centre of box ``k`` of the pyramid as built (rows from the bottom)."""
    base, row = int(info.data["pile_top"]), 0
    while k >= base - row:
        k -= base - row
        row += 1
    return 0.5 + row


def test_drag_target_script_is_continuous_until_release():
    times = machines.DRAG_TIMES
    ts = np.arange(0.0, times["release"], 0.001)
    points = np.array([machines.drag_target(t) for t in ts])
    jumps = np.hypot(*np.diff(points, axis=0).T)
    assert jumps.max() < 0.02                                 # at most 20 m/s, no teleport
    assert machines.drag_target(times["release"]) is None


# --------------------------------------------------------------------------------------------
# the per-step hook
# --------------------------------------------------------------------------------------------

@pytest.fixture
def probe_scene():
    """A throw-away registered scene whose hook records (step index, world.step_count)."""
    calls = []

    def build(world):
        ball = world.create_body(position=(0.0, 5.0))
        ball.create_circle(0.5)
        return SceneInfo(bodies={"ball": ball},
                         update=lambda w, i: calls.append((i, w.step_count)))

    SCENES["_update_probe"] = Scene("_update_probe", "probe", build, 5)
    yield calls
    del SCENES["_update_probe"]


def test_demo_command_calls_the_update_hook_before_each_step(probe_scene, capsys):
    assert cli.main(["demo", "_update_probe", "--no-gif", "--quiet", "--steps", "7"]) == 0
    capsys.readouterr()
    assert probe_scene == [(i, i) for i in range(7)]          # index i, before step i


def test_step_scene_calls_the_hook_then_steps_and_runs_hookless_scenes():
    calls = []
    world = i2d.World()
    info = SceneInfo(update=lambda w, i: calls.append((i, w.step_count)))
    for i in range(3):
        step_scene(world, info, i)
    assert calls == [(0, 0), (1, 1), (2, 2)] and world.step_count == 3
    step_scene(world, SceneInfo(), 3)
    assert world.step_count == 4


def test_pulley_scene_accelerates_like_atwood_and_never_stretches_its_ropes():
    world, info = _built("pulley")
    atwood, tackle = info.data["atwood"], info.data["tackle"]
    heavy, counterweight = info.bodies["heavy"], info.bodies["counterweight"]
    stretch = 0.0
    for k in range(get_scene("pulley").steps):
        step_scene(world, info, k)
        if k == 17:   # 0.3 s: before the drops land and before anything reaches the floor
            # Atwood: 3 kg against 2 kg, a = g (3 - 2) / 5; block and tackle (ratio 2):
            # the 2 kg counterweight falls at 2 a_crate, a_crate = g (2*2 - 3.6) / (3.6 + 4*2).
            assert -heavy.linear_velocity.y / world.time == pytest.approx(2.0, rel=0.03)
            a_crate = 10.0 * (4.0 - 3.6) / (3.6 + 8.0)
            assert -counterweight.linear_velocity.y / world.time == pytest.approx(
                2.0 * a_crate, rel=0.03)
        for rope in (atwood, tackle):
            stretch = max(stretch, rope.length_a + rope.ratio * rope.length_b - rope.rope_length)
        assert _finite(world)
    assert stretch < 0.01                                                  # m
    # The drops (2.4 kg) outweigh the difference: the light platform ends up below its start.
    assert info.bodies["light"].position.y < 6.0


def test_gears_scene_keeps_both_ratios_while_the_rack_shuttles():
    world, info = _built("gears")
    d = info.data
    small_r, big_r = d["radii"]
    mesh_error = pinion_error = 0.0
    rack_x = []
    for k in range(get_scene("gears").steps):
        step_scene(world, info, k)
        mesh_error = max(mesh_error, abs(d["drive"].angle + (big_r / small_r) * d["axle"].angle
                                         - d["mesh"].constant))
        pinion_error = max(pinion_error, abs(d["axle"].angle + d["slide"].translation / big_r
                                             - d["pinion"].constant))
        rack_x.append(d["slide"].translation)
    assert mesh_error < 5e-3 and pinion_error < 5e-3                       # rad
    # 4 s at 1.5 rad/s on the small wheel: the big wheel's rim (the rack) moves
    # 1.5 * 0.5 m/s * 4 s = 3 m one way, then comes back.
    travel = 1.5 * small_r * 4.0
    assert max(rack_x) == pytest.approx(travel, rel=0.02)
    assert min(rack_x) > -0.05 * travel
    assert abs(rack_x[479]) < 0.05 * travel                                 # back home at 8 s
    assert rack_x[-1] == pytest.approx(travel / 2, rel=0.05)               # halfway out at 10 s
