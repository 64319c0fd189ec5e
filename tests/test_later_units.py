"""The units a world's first step never calls (``step.LATER_SLOTS``: the pair stage's
incremental path, the wake and at-rest stages), which a cold start compiles after the first
step while the world steps: a world whose table lacks them takes other ways to the same bits
until they come, and a step that needs the wake stage before it comes waits for it."""

import weakref

import pytest

import impulse2d as i2
from impulse2d._core.parallel import wait_later
from impulse2d._dynamics import step, verbs

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


def _same_bits(a, b):
    for read in ("get_positions", "get_angles", "get_velocities"):
        assert getattr(a, read)().tobytes() == getattr(b, read)().tobytes(), read
    assert a.state_hash() == b.state_hash()


def test_the_first_steps_without_the_later_units_give_the_bits_of_a_world_with_them():
    """Steps 2-40 without the incremental path (the global search: the same pairs), the
    incremental path delivered at step 41 (``_later_ready``, as the helper's thread does), the
    wake stage not until the step that first has a sleeper (it returns WOKE having done
    nothing, Python fills the slot, ``fill_later``, and steps again): every step's state the
    bits of a world that had every unit from its first step."""
    every, cold = _falling_boxes(), _falling_boxes()
    every.step(DT)
    cold.step(DT)
    assert all(every._verbs[slot] != 0 for slot in step.LATER_SLOTS)
    _as_a_cold_start_leaves_it(cold)
    counts, first_sleeper = set(), None
    for k in range(2, 600):
        if k == 41:
            step._later_ready(step.STAGE_KERNELS[verbs.MOVED_PAIRS])
            assert cold._verbs[verbs.MOVED_PAIRS] == every._verbs[verbs.MOVED_PAIRS]
            assert cold._verbs[verbs.SLEEPERS_STAGE] == 0  # (only the unit delivered)
        if k < 41:
            assert cold._verbs[verbs.MOVED_PAIRS] == 0
        had_stage = cold._verbs[verbs.SLEEPERS_STAGE] != 0
        every.step(DT)
        cold.step(DT)
        counts.add(len(cold.contacts))
        if first_sleeper is None and cold._sleepers:
            first_sleeper = k
        if not had_stage:
            # filled on the step after the first that left a sleeper, not before
            assert (cold._verbs[verbs.SLEEPERS_STAGE] != 0) == (first_sleeper not in (None, k))
        assert cold.step_count == every.step_count == k
        assert cold._sleepers == every._sleepers
        _same_bits(cold, every)
    assert len(counts) > 3  # the pairs changed step after step: the pair stage searched
    assert first_sleeper is not None and first_sleeper > 41  # a sleeper after the delivery
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
