"""The step's second half, :func:`impulse2d._dynamics.step.solve_stage` (colouring, constraint
store, solver, sleep and continuous stages), a compile unit of its own that the step kernel
calls by address (slot ``SOLVE_STAGE`` of the world's table of verbs). The step kernel reads
what it returns as the table's signature says, so it must compile to exactly that; and the
status bits it returns (a new constraint store, islands that fell asleep) must reach Python as
they did when it was part of the step kernel."""

from __future__ import annotations

import pytest

import impulse2d as i2
from impulse2d._core.lazy import JIT
from impulse2d._dynamics import step, verbs

pytestmark = pytest.mark.skipif(not JIT, reason="addresses exist only with the JIT")

DT = 1.0 / 60.0


def test_the_solve_stage_compiles_to_its_table_signature():
    unit = step.SOLVE_STAGE_KERNEL
    unit.address()
    compiled = unit.dispatcher.overloads[tuple(unit.signature.args)]
    assert compiled.signature.return_type == unit.signature.return_type
    assert compiled.signature.args == unit.signature.args


def test_a_resting_box_is_solved_by_the_stage_and_falls_asleep():
    """A 1 m box dropped from 0.2 m onto a static ground: the table points at the stage, the
    box comes to rest on the ground (centre at its half height, 0.5 m, within the 5 mm slop)
    and falls asleep after ``time_to_sleep`` at rest (the sleep stage's FELL bit, from the
    stage, makes Python count it asleep)."""
    world = i2.World(gravity=(0.0, -10.0))
    world.create_body(type="static").create_box(5.0, 0.5, center=(0.0, -0.5))
    box = world.create_body(position=(0.0, 0.7))
    box.create_box(0.5, 0.5, density=1.0, friction=0.6)
    world.step(DT)
    assert world._verbs[verbs.SOLVE_STAGE] == step.SOLVE_STAGE_KERNEL.address() != 0
    asleep_at = None
    for k in range(300):
        world.step(DT)
        if asleep_at is None and not box.is_awake:
            asleep_at = k
    assert asleep_at is not None
    # at rest for time_to_sleep (0.5 s) before it sleeps: it lands within ~0.2 s
    assert 30 <= asleep_at <= 120
    assert box.position.y == pytest.approx(0.5, abs=0.005)
    assert len(world.contacts) == 1  # its constraint store was made by the stage
    assert box.linear_velocity.length == 0.0  # a sleeping body is still
