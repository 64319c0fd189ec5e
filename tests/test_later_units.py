"""The units a world's first step never calls (``step.LATER_SLOTS``: the pair stage's
incremental path; the wake and at-rest stages and the islands falling asleep), which a cold
start compiles after the first step while the world steps: a world whose table lacks them
takes other ways to the same bits until they come, and a step that may need the sleepers'
stages before they come waits for them."""

import weakref

import numpy as np
import pytest

import impulse2d as i2
from impulse2d._core.parallel import wait_later
from impulse2d._core.state import DYNAMIC
from impulse2d._dynamics import step, verbs
from impulse2d._dynamics.awake import CONTACT_COUNT

DT = 1.0 / 60.0


@pytest.fixture(autouse=True)
def _later_units_here():
    """The later units compiled or loaded in this process first (in a cold process a helper
    compiles them after the first world's first step: they would be missing from the world
    that should have every unit)."""
    for slot in step.LATER_SLOTS:
        unit = step.STAGE_KERNELS[slot]
        wait_later(unit)
        unit.address()


def _falling_boxes(**settings):
    """Twelve boxes dropped in a staggered column onto the ground: they fall, strike, tumble
    (their pairs change on many steps, a few boxes moving at a time: the incremental path)
    and fall asleep."""
    world = i2.World(**settings)
    ground = world.create_body(type="static")
    ground.create_box(8.0, 0.5, center=(0.0, -0.5))
    for k in range(12):
        body = world.create_body(position=(0.37 * (k % 4) - 0.5, 1.0 + 1.3 * k), angle=0.2 * k)
        body.create_box(0.4, 0.3, density=1.0, friction=0.5)
    return world


def _as_a_cold_start_leaves_it(world):
    """``world``'s table as a cold start's first step fills it: the later slots 0, noted for
    the helper's delivery (``step._later_ready``)."""
    for slot in step.LATER_SLOTS:
        world._verbs[slot] = 0
        with step._LATER_LOCK:
            step._LATER_TABLES.append((weakref.ref(world._verbs), slot))


def _may_ripen(world):
    """Whether some awake dynamic body's sleep timer reaches ``time_to_sleep`` in the next step
    of ``DT`` (the only steps whose islands can fall asleep)."""
    b = world._bodies
    awake = b.alive & (b.type == DYNAMIC) & ~b.asleep & b.allow_sleep
    return bool(np.any(b.sleep_time[awake] + DT >= world.settings.time_to_sleep))


def _same_bits(a, b):
    for read in ("get_positions", "get_angles", "get_velocities"):
        assert getattr(a, read)().tobytes() == getattr(b, read)().tobytes(), read
    assert a.state_hash() == b.state_hash()


def test_the_first_steps_without_the_later_units_give_the_bits_of_a_world_with_them():
    """Steps 2-40 without the incremental path (the global search: the same pairs), the
    incremental path delivered at step 41 (``_later_ready``, as the helper's thread does), the
    sleepers' stages not until the step whose sleep timers may first ripen (it returns WOKE
    having done nothing, Python fills the slot, ``fill_later``, and steps again): every step's
    state the bits of a world that had every unit from its first step."""
    every, cold = _falling_boxes(), _falling_boxes()
    every.step(DT)
    cold.step(DT)
    assert all(every._verbs[slot] != 0 for slot in step.LATER_SLOTS)
    _as_a_cold_start_leaves_it(cold)
    counts, first_sleeper, first_ripe = set(), None, None
    for k in range(2, 600):
        had_stage = cold._verbs[verbs.SLEEPERS_STAGE] != 0
        if k == 41:
            step._later_ready(step.STAGE_KERNELS[verbs.MOVED_PAIRS])
            assert cold._verbs[verbs.MOVED_PAIRS] == every._verbs[verbs.MOVED_PAIRS]
            # (only the unit delivered)
            assert (cold._verbs[verbs.SLEEPERS_STAGE] != 0) == had_stage
        if k < 41:
            assert cold._verbs[verbs.MOVED_PAIRS] == 0
        if first_ripe is None and _may_ripen(cold):
            first_ripe = k
        every.step(DT)
        cold.step(DT)
        counts.add(len(cold.contacts))
        if first_sleeper is None and cold._sleepers:
            first_sleeper = k
        if not had_stage:
            # filled on the first step whose timers may ripen, not before
            assert (cold._verbs[verbs.SLEEPERS_STAGE] != 0) == (first_ripe is not None)
        assert cold.step_count == every.step_count == k
        assert cold._sleepers == every._sleepers
        _same_bits(cold, every)
    assert len(counts) > 3  # the pairs changed step after step: the pair stage searched
    # a sleeper after the delivery; the stages filled by the step it fell asleep in
    assert first_sleeper is not None and first_sleeper > 41
    assert first_ripe is not None and first_ripe <= first_sleeper
    assert cold._verbs[verbs.SLEEPERS_STAGE] == every._verbs[verbs.SLEEPERS_STAGE] != 0
    # at rest on the ground, every box asleep: the at-rest test has run (the whole world)
    assert cold._sleepers == 12
    assert cold.get_positions()[1:, 1].max() < 6.0


def test_a_sleeper_put_to_sleep_by_hand_before_the_wake_stage_comes():
    """A body put to sleep by Python on a world whose wake stage is not loaded: its next step
    stops before doing anything, the stage is filled, the step taken: the same bits as a world
    that had it, and a box dropped on the sleeper wakes it in both."""
    worlds = []
    for cold in (False, True):
        world = i2.World()
        ground = world.create_body(type="static")
        ground.create_box(4.0, 0.5, center=(0.0, -0.5))
        sleeper = world.create_body(position=(0.0, 0.5))
        sleeper.create_box(0.5, 0.5)
        world.create_body(position=(0.0, 3.0)).create_box(0.4, 0.4)
        world.step(DT)
        if cold:
            _as_a_cold_start_leaves_it(world)
        sleeper.is_awake = False
        worlds.append((world, sleeper))
    (every, asleep_every), (cold, asleep_cold) = worlds
    assert cold._verbs[verbs.SLEEPERS_STAGE] == 0
    woke = None
    for k in range(90):
        every.step(DT)
        cold.step(DT)
        assert cold._verbs[verbs.SLEEPERS_STAGE] != 0
        assert asleep_cold.is_awake == asleep_every.is_awake
        if woke is None and asleep_cold.is_awake:
            woke = k
        _same_bits(cold, every)
    assert woke is not None and 10 < woke < 60  # the falling box struck it and woke it


def test_a_world_that_never_sleeps_never_waits_for_the_sleepers_stages():
    """With sleeping off, no timer ripens and no body sleeps: a world whose table lacks the
    sleepers' stages steps 300 steps without them (its slot still 0), to the bits of a world
    that had them."""
    every, cold = _falling_boxes(enable_sleep=False), _falling_boxes(enable_sleep=False)
    every.step(DT)
    cold.step(DT)
    _as_a_cold_start_leaves_it(cold)
    step._later_ready(step.STAGE_KERNELS[verbs.MOVED_PAIRS])
    for k in range(2, 300):
        every.step(DT)
        cold.step(DT)
        assert cold._verbs[verbs.SLEEPERS_STAGE] == 0
        _same_bits(cold, every)
    assert cold._sleepers == 0
    assert np.abs(cold.get_velocities()).max() < 0.05  # at rest on the ground, awake


def test_few_awake_bodies_visit_every_contact_until_the_sleepers_stages_come():
    """A world of few awake bodies among many rows (a row of static posts above three boxes
    sliding on the ground) gathers its awake contacts in the sleepers' unit; without it, its
    contact stages visit every contact, the same rows in the same order: the bits of a world
    that had it, on every step."""
    worlds = []
    for cold in (False, True):
        world = i2.World(enable_sleep=False)
        ground = world.create_body(type="static")
        ground.create_box(20.0, 0.5, center=(0.0, -0.5))
        for k in range(24):
            world.create_body(type="static", position=(-9.0 + 0.8 * k, 1.5)).create_circle(0.2)
        for k in range(3):
            box = world.create_body(position=(-6.0 + 5.0 * k, 0.3),
                                    linear_velocity=(3.0 - 2.0 * k, 0.0))
            box.create_box(0.3, 0.3, friction=0.2)
        world.step(DT)
        if cold:
            _as_a_cold_start_leaves_it(world)
            step._later_ready(step.STAGE_KERNELS[verbs.MOVED_PAIRS])
        worlds.append(world)
    every, cold = worlds
    gathered = 0
    for k in range(2, 200):
        every.step(DT)
        cold.step(DT)
        assert cold._verbs[verbs.SLEEPERS_STAGE] == 0
        assert cold._awake_state[CONTACT_COUNT] == -1  # every contact visited
        gathered += every._awake_state[CONTACT_COUNT] >= 0
        _same_bits(cold, every)
    assert gathered == 198  # the other world gathered on every step (3 awake of 28 rows)
    assert len(cold.contacts) >= 3  # the boxes touch the ground (and the posts' rows exist)
