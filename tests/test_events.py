"""Events (``impulse2d.events``): contact begin/end exactly once per touch, hit speed against the
analytic impact speed, sensors that report without pushing, end events on destruction and on a
filter change, body move events, and the switches."""

from __future__ import annotations

import math

import numpy as np
import pytest

import impulse2d as i2d

DT = 1.0 / 60.0


def _drop(height=10.0, restitution=0.5, **settings):
    world = i2d.World(enable_contact_events=True, **settings)
    ground = world.create_body(type="static")
    floor = ground.create_box(5.0, 0.5, center=(0.0, -0.5))
    ball = world.create_body(position=(0.0, height + 0.5))
    shape = ball.create_circle(0.5, restitution=restitution)
    return world, floor, ball, shape


def _run(world, steps):
    log = []
    for k in range(steps):
        world.step(DT)
        e = world.contact_events()
        log += [(k, "begin", b.shape_a, b.shape_b) for b in e.begin]
        log += [(k, "end", x.shape_a, x.shape_b) for x in e.end]
        log += [(k, "hit", h.speed, h.point, h.normal) for h in e.hit]
    return log


def test_a_ball_dropped_on_a_box_begins_once_and_after_bouncing_away_ends_once():
    world, floor, ball, shape = _drop()
    # 10 m drop: lands after sqrt(2 h / g) = 1.41 s; e = 0.5 bounces it 2.5 m, in the air for
    # 2 sqrt(2 * 2.5 / g) = 1.41 s. So 120 steps cover the first touch and the flight after it.
    log = _run(world, 120)
    kinds = [entry[1] for entry in log if entry[1] != "hit"]
    assert kinds == ["begin", "end"]
    begin = next(e for e in log if e[1] == "begin")
    end = next(e for e in log if e[1] == "end")
    assert {begin[2], begin[3]} == {floor, shape} == {end[2], end[3]}
    assert 80 <= begin[0] <= 86 and begin[0] < end[0] <= begin[0] + 10


def test_the_hit_speed_is_the_impact_speed():
    world, floor, ball, shape = _drop(height=10.0, restitution=0.0)
    hits = [e for e in _run(world, 120) if e[1] == "hit"]
    assert len(hits) == 1
    _, _, speed, point, normal = hits[0]
    impact = math.sqrt(2.0 * 10.0 * 10.0)          # v = sqrt(2 g h), g = 10
    assert speed == pytest.approx(impact, rel=0.02)
    assert abs(point[0]) < 1e-9 and abs(point[1]) < 0.1   # under the ball, at the floor
    assert tuple(normal) == pytest.approx((0.0, 1.0), abs=1e-12)
    # below the threshold: none
    world, *_ = _drop(height=0.02, restitution=0.0)
    assert not [e for e in _run(world, 60) if e[1] == "hit"]


def test_arrays_hold_the_same_events_as_the_records():
    world, floor, ball, shape = _drop()
    for _ in range(120):
        world.step(DT)
        e = world.contact_events()
        assert [tuple(p) for p in e.begin_shapes.tolist()] == [
            (b.shape_a.index, b.shape_b.index) for b in e.begin]
        assert [tuple(p) for p in e.end_shapes.tolist()] == [
            (x.shape_a.index, x.shape_b.index) for x in e.end]
        np.testing.assert_array_equal(e.hit_speeds, [h.speed for h in e.hit])


def _sensor_world(with_sensor: bool, sensor_type="static"):
    world = i2d.World()
    ball = world.create_body(position=(0.0, 5.0), linear_velocity=(0.0, -2.0))
    visitor = ball.create_circle(0.3)
    sensor = None
    if with_sensor:
        body = world.create_body(type=sensor_type, position=(0.0, 2.0))
        sensor = body.create_box(1.0, 0.5, is_sensor=True)
    return world, ball, visitor, sensor


@pytest.mark.parametrize("sensor_type", ["static", "kinematic"])
def test_a_sensor_reports_a_ball_passing_through_and_never_pushes_it(sensor_type):
    world, ball, visitor, sensor = _sensor_world(True, sensor_type)
    plain, plain_ball, _, _ = _sensor_world(False)
    events = []
    for k in range(90):
        world.step(DT)
        plain.step(DT)
        se = world.sensor_events()
        events += [(k, "begin", e.sensor_shape, e.visitor_shape) for e in se.begin]
        events += [(k, "end", e.sensor_shape, e.visitor_shape) for e in se.end]
        # never pushed: the ball moves as in a world without the sensor, to the bit
        assert tuple(ball.position) == tuple(plain_ball.position)
    assert [e[1] for e in events] == ["begin", "end"]
    assert all(e[2] == sensor and e[3] == visitor for e in events)
    # it enters when its bottom passes the sensor's top (y = 2.5), leaves when its top passes
    # the bottom (1.5): y_ball - 0.3 = 2.5 and y_ball + 0.3 = 1.5
    begin_step, end_step = events[0][0], events[1][0]
    y_at = {k: 5.0 - 2.0 * (k + 1) * DT - 5.0 * ((k + 1) * DT) ** 2 for k in range(90)}
    assert y_at[begin_step] - 0.3 < 2.5 <= y_at[begin_step - 1] - 0.3 + 1e-9
    assert y_at[end_step] + 0.3 <= 1.5 < y_at[end_step - 1] + 0.3 + 1e-9


def test_a_moving_kinematic_sensor_finds_resting_shapes_and_opted_out_shapes_are_unseen():
    world = i2d.World(gravity=(0, 0))
    boxes = [world.create_body(type="static", position=(x, 0.0)).create_box(0.4, 0.4)
             for x in (2.0, 4.0)]
    boxes[1].enable_sensor_events = False
    scanner = world.create_body(type="kinematic", position=(0.0, 0.0), linear_velocity=(3.0, 0.0))
    sensor = scanner.create_circle(0.5, is_sensor=True)
    seen = []
    for _ in range(120):
        world.step(DT)
        seen += [("begin", e.visitor_shape) for e in world.sensor_events().begin]
        seen += [("end", e.visitor_shape) for e in world.sensor_events().end]
    assert seen == [("begin", boxes[0]), ("end", boxes[0])]


def test_more_overlaps_than_the_first_buffer_holds_are_all_reported_in_order():
    """Two sensors over a field of 30 resting balls (each sensor sees 30: more than the 16 rows
    the sensors' kernel starts with, so its buffer grows): every ball begins an overlap with
    each sensor, in sensor then visitor order, and a ball outside both is not reported."""
    world = i2d.World(gravity=(0, 0))
    balls = [world.create_body(type="static", position=(float(x), float(y))).create_circle(0.2)
             for y in range(3) for x in range(10)]
    outside = world.create_body(type="static", position=(20.0, 0.0)).create_circle(0.2)
    sensors = [world.create_body(type="kinematic", position=(4.5, 1.0)).create_box(
        6.0, 2.0, is_sensor=True) for _ in range(2)]
    world.step(DT)
    begin = [(e.sensor_shape, e.visitor_shape) for e in world.sensor_events().begin]
    assert begin == [(sensor, ball) for sensor in sensors for ball in balls]
    assert outside not in {v for _, v in begin}


def test_destroying_a_touching_body_gives_its_end_events():
    world = i2d.World(enable_contact_events=True)
    ground = world.create_body(type="static")
    floor = ground.create_box(5.0, 0.5, center=(0.0, -0.5))
    crate = world.create_body(position=(0.0, 0.5))
    shape = crate.create_box(0.5, 0.5)
    ball = world.create_body(position=(3.0, 1.0))
    sensed = ball.create_circle(0.3)
    gate = world.create_body(type="static", position=(3.0, 1.0)).create_circle(0.5, is_sensor=True)
    for _ in range(10):
        world.step(DT)
    world.destroy_body(crate)
    world.destroy_body(ball)
    ends = world.contact_events().end
    assert [{e.shape_a, e.shape_b} for e in ends] == [{floor, shape}]
    assert not shape.is_valid  # the handle the program kept: equal, and says it is gone
    sensor_ends = world.sensor_events().end
    assert [(e.sensor_shape, e.visitor_shape) for e in sensor_ends] == [(gate, sensed)]
    # Not again at the next step.
    world.step(DT)
    assert world.contact_events().end == [] and world.sensor_events().end == []


def test_a_filter_change_that_parts_a_touching_pair_ends_it():
    world = i2d.World(enable_contact_events=True)
    floor = world.create_body(type="static").create_box(5.0, 0.5, center=(0.0, -0.5))
    body = world.create_body(position=(0.0, 0.5))
    box = body.create_box(0.5, 0.5)
    for _ in range(5):
        world.step(DT)
    box.mask = 0x0
    world.step(DT)
    assert [{e.shape_a, e.shape_b} for e in world.contact_events().end] == [{floor, box}]


def test_body_events_list_the_bodies_that_moved():
    world = i2d.World(enable_body_events=True)
    world.create_body(type="static").create_box(5.0, 0.5, center=(0.0, -0.5))
    falling = world.create_body(position=(0.0, 3.0))
    falling.create_circle(0.5)
    still = world.create_body(position=(3.0, 3.0), gravity_scale=0.0)
    still.create_circle(0.5)
    world.step(DT)
    moved = world.body_events()
    assert moved.bodies == [falling]
    np.testing.assert_array_equal(moved.positions[0], falling.position)
    assert moved.angles[0] == falling.angle


def test_events_are_off_unless_switched_on_and_switches_are_checked():
    world = i2d.World()
    world.step(DT)
    with pytest.raises(ValueError, match="enable_contact_events"):
        world.contact_events()
    with pytest.raises(ValueError, match="enable_body_events"):
        world.body_events()
    assert world.sensor_events().begin == []  # no sensors: nothing, and no cost
    with pytest.raises(TypeError, match="enable_contact_events"):
        world.settings.enable_contact_events = "yes"
    with pytest.raises(ValueError, match="hit_event_threshold"):
        world.settings.hit_event_threshold = -1.0
    body = world.create_body()
    with pytest.raises(TypeError, match="enable_sensor_events"):
        body.create_circle(0.5, enable_sensor_events=2)


def test_switching_on_later_reports_what_touches_as_beginning():
    world, floor, ball, shape = _drop(height=0.0, restitution=0.0)
    world.settings.enable_contact_events = False
    for _ in range(10):
        world.step(DT)
    world.settings.enable_contact_events = True
    world.step(DT)
    assert [{b.shape_a, b.shape_b} for b in world.contact_events().begin] == [{floor, shape}]
