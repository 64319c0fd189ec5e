"""``World.profile`` for a step Python did not time (:mod:`impulse2d._profile_clock`): the usual
step's seconds are its clock's span over the cycle counter's rate; every other step keeps the
seconds Python measured. No speed is asserted: the rate against ``perf_counter``, the span
inside the call that holds it, and which path wrote what."""

from __future__ import annotations

from time import perf_counter

import pytest

import impulse2d
from impulse2d import _profile_clock, _stepping
from impulse2d._core.jit import CYCLE_COUNTER

DT = 1.0 / 60.0

needs_counter = pytest.mark.skipif(not CYCLE_COUNTER, reason="the kernel reads no clock here")


def _balls(n=5):
    world = impulse2d.World(gravity=(0.0, -10.0))
    world.create_body("static").create_box(10.0, 0.5, center=(0.0, -0.5))
    for k in range(n):
        world.create_body(position=(0.6 * k - 1.2, 1.0 + 0.5 * k)).create_circle(0.25)
    return world


def _stage_sum(p):
    return p.pairs + p.collide + p.prepare + p.solve + p.finalize + p.continuous


@needs_counter
def test_the_usual_step_is_timed_by_its_clock():
    world = _balls()
    for _ in range(20):
        world.step(DT)
    assert world._step_seconds == _profile_clock.UNTIMED  # Python read no clock
    clock = world._clock
    ticks = int(clock[-1] - clock[0])
    assert ticks > 0
    p = world.profile
    assert p.step == ticks / _profile_clock.ticks_per_second()
    assert 0.0 < p.step < 1.0
    assert _stage_sum(p) == pytest.approx(p.step, rel=1e-9)
    assert world.profile == p  # read again: the same (the rate is kept)


@needs_counter
def test_the_counters_rate_agrees_with_perf_counter():
    rate = _profile_clock.ticks_per_second()
    # a second measurement over a longer span: the rate is constant (x86's invariant counter)
    t0, c0 = _profile_clock._reading()
    end = perf_counter() + 0.02
    while perf_counter() < end:
        pass
    t1, c1 = _profile_clock._reading()
    assert (c1 - c0) / (t1 - t0) == pytest.approx(rate, rel=2e-3)
    assert 1e8 < rate < 1e11  # ticks a second: 0.1-100 GHz


@needs_counter
def test_the_clocks_span_lies_inside_the_call():
    world = _balls()
    for _ in range(5):
        world.step(DT)
    for _ in range(20):
        t0 = perf_counter()
        world.step(DT)
        wall = perf_counter() - t0
        assert world._step_seconds == _profile_clock.UNTIMED
        assert 0.0 < world.profile.step <= wall * 1.01  # (the rate is known to ~1e-4)


def test_a_step_python_times_keeps_its_seconds():
    # events on: every step takes the checked path, which times the kernel's call
    world = _balls()
    world.settings.enable_contact_events = True
    for _ in range(10):
        world.step(DT)
        assert world._step_seconds > 0.0
        assert world.profile.step == world._step_seconds
        if CYCLE_COUNTER:
            assert _stage_sum(world.profile) == pytest.approx(world.profile.step, rel=1e-9)


def test_the_timed_world_step_times_every_step_and_moves_alike():
    # World.step where the kernel reads no clock: the same steps, each timed by Python
    usual, timed = _balls(), _balls()
    for _ in range(30):
        usual.step(DT)
        _stepping.timed_world_step(timed, DT)
        assert timed._step_seconds > 0.0
        assert 0.0 < timed.profile.step < 1.0
    assert timed.state_hash() == usual.state_hash()
    assert (timed.time, timed.step_count) == (usual.time, usual.step_count)


def test_a_restored_world_reports_its_snapshots_step():
    world = _balls()
    for _ in range(10):
        world.step(DT)
    snap = world.snapshot()
    before = world.profile
    for _ in range(3):
        world.step(DT)
    world.restore(snap)
    assert world.profile == before
    assert impulse2d.World(gravity=(0.0, -10.0)).profile.step == 0.0  # nothing stepped yet
