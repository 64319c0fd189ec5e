"""The pair stage's two searches, compiled on their own and called by address from it (slots
``MOVED_PAIRS`` and ``SEARCH_PAIRS`` of the world's table of verbs, ``_dynamics/verbs.py``).
The caller reads what a search returns as the table's signature says: a search compiled to
another return type would be read as the wrong bytes, so each must compile to exactly it."""

from __future__ import annotations

import pytest

import impulse2d as i2
from impulse2d._core.lazy import JIT
from impulse2d._dynamics import step, verbs
from impulse2d.scenes import build_scene

pytestmark = pytest.mark.skipif(not JIT, reason="addresses exist only with the JIT")


@pytest.mark.parametrize("slot", [verbs.PAIRS, verbs.MOVED_PAIRS, verbs.SEARCH_PAIRS])
def test_the_pair_stages_compile_to_their_table_signatures(slot):
    unit = step.STAGE_KERNELS[slot]
    unit.address()
    compiled = unit.dispatcher.overloads[tuple(unit.signature.args)]
    assert compiled.signature.return_type == unit.signature.return_type
    assert compiled.signature.args == unit.signature.args


def test_a_world_s_table_points_at_the_pair_searches():
    world = i2.World()
    build_scene(world, "pyramid", base=5)
    world.step(1.0 / 60.0)
    for slot in (verbs.PAIRS, verbs.MOVED_PAIRS, verbs.SEARCH_PAIRS):
        assert world._verbs[slot] == step.STAGE_KERNELS[slot].address() != 0


def _falling_boxes():
    """Twelve boxes dropped in a staggered column onto the ground: they fall, strike, tumble and
    come to rest, so their pairs change on many steps after the first."""
    world = i2.World()
    ground = world.create_body(type="static")
    ground.create_box(8.0, 0.5, center=(0.0, -0.5))
    for k in range(12):
        body = world.create_body(position=(0.37 * (k % 4) - 0.5, 1.0 + 1.3 * k), angle=0.2 * k)
        body.create_box(0.4, 0.3, density=1.0, friction=0.5)
    return world


def test_a_step_without_the_search_around_moved_boxes_takes_the_global_search_to_the_same_bits():
    """While the search around the moved boxes is not delivered (its slot 0:
    ``step.LATER_SLOTS``, a cold start's first steps), the pair stage takes the global search,
    whose pairs are the same: so is the whole trajectory, bit for bit."""
    searched, global_only = _falling_boxes(), _falling_boxes()
    searched.step(1.0 / 60.0)
    global_only.step(1.0 / 60.0)
    assert searched._verbs[verbs.MOVED_PAIRS] != 0
    global_only._verbs[verbs.MOVED_PAIRS] = 0  # (the table is filled once: it stays 0)
    counts = set()
    for _ in range(240):
        searched.step(1.0 / 60.0)
        global_only.step(1.0 / 60.0)
        counts.add(len(searched.contacts))
        assert len(global_only.contacts) == len(searched.contacts)
    assert global_only._verbs[verbs.MOVED_PAIRS] == 0
    assert len(counts) > 3  # the pairs changed step after step: the pair stage searched
    for read in ("get_positions", "get_angles", "get_velocities"):
        a, b = getattr(searched, read)(), getattr(global_only, read)()
        assert a.tobytes() == b.tobytes(), read
    # they fell and came to rest on the ground: a real comparison
    assert searched.get_positions()[1:, 1].max() < 6.0
