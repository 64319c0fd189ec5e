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


@pytest.mark.parametrize("slot", [verbs.PAIRS, verbs.MOVED_PAIRS, verbs.SEARCH_PAIRS, "grid",
                                  "polygons"])
def test_the_pair_stages_compile_to_their_table_signatures(slot):
    unit = {"grid": step.GRID_SEARCH_KERNEL,
            "polygons": step.POLYGON_COLLIDE_KERNEL}.get(slot) or step.STAGE_KERNELS[slot]
    # (through the dispatcher: address() may load the unit's machine code from its unit file
    # without one, _core/unit_cache.py; the argument types alone, so the return type is
    # Numba's inference, which the table's signature must equal)
    unit.dispatcher.compile(tuple(unit.signature.args))
    compiled = unit.dispatcher.overloads[tuple(unit.signature.args)]
    assert compiled.signature.return_type == unit.signature.return_type
    assert compiled.signature.args == unit.signature.args


def test_a_world_s_table_points_at_the_pair_searches():
    world = i2.World()
    build_scene(world, "pyramid", base=5)
    world.step(1.0 / 60.0)
    for slot in (verbs.PAIRS, verbs.MOVED_PAIRS, verbs.SEARCH_PAIRS):
        assert world._verbs[slot] == step.STAGE_KERNELS[slot].address() != 0


def test_a_big_world_s_table_points_at_the_grid_search():
    """More shapes than the sweep takes (``SWEEP_BELOW``): the grid alone, the same pairs as a
    world with the general search (its contact store's keys, bit for bit, after 30 steps)."""
    worlds = []
    for general in (False, True):
        world = i2.World()
        build_scene(world, "pyramid", base=16)  # 136 boxes and the ground
        world.step(0.0)
        if general:
            world._verbs[verbs.SEARCH_PAIRS] = step.STAGE_KERNELS[verbs.SEARCH_PAIRS].address()
        worlds.append(world)
    assert worlds[0]._verbs[verbs.SEARCH_PAIRS] == step.GRID_SEARCH_KERNEL.address() != 0
    for _ in range(30):
        for world in worlds:
            world.step(1.0 / 60.0)
    assert worlds[0]._contacts.key.tobytes() == worlds[1]._contacts.key.tobytes()
    assert worlds[0].state_hash() == worlds[1].state_hash()
