"""The step's scratch (``impulse2d._dynamics.scratch``): a step whose stores stay allocates
nothing, alone or in a batch, and the scratch leaves no trace in the bits (a world stepped in
a batch, in the thread's lent scratch, equals the world stepped alone in its own, whatever
sizes its neighbours grew the lent scratch to).

Allocations are counted with Numba's runtime counters (switched on here for the test)."""

from __future__ import annotations

import numpy as np
import pytest
from numba.core.runtime import _nrt_python, rtsys

import impulse2d as i2d
from impulse2d.scenes.fuzz import random_world

from conftest import batch_world

DT = 1 / 60
NEW_STORE = 16  # the smallest store a step may make: the contact store's 16 arrays


@pytest.fixture
def counting():
    """Numba's allocation counters on for the test (they cost a few atomics an allocation)."""
    was_on = _nrt_python.memsys_stats_enabled()
    _nrt_python.memsys_enable_stats()
    yield lambda: rtsys.get_allocation_stats().alloc
    if not was_on:
        _nrt_python.memsys_disable_stats()


def test_a_step_that_keeps_its_stores_allocates_nothing(counting):
    world = batch_world()
    world.step(DT)  # kernels loaded, the reference built
    per_step = []
    for _ in range(120):
        before = counting()
        world.step(DT)
        per_step.append(counting() - before)
    per_step = np.array(per_step)
    # each step either allocates nothing or makes a new store (pairs or touching contacts
    # changed: 16 arrays or more); the step used to allocate 11 arrays every step
    assert np.all((per_step == 0) | (per_step >= NEW_STORE)), per_step
    assert (per_step == 0).sum() >= 60  # most steps of the fall and the settling keep them


def test_a_batch_step_allocates_only_its_own_few(counting):
    batch = i2d.WorldBatch.replicate(batch_world(), 64, threads=1)
    batch.step(DT)
    per_step = []
    for _ in range(60):
        before = counting()
        batch.step(DT)
        per_step.append(counting() - before)
    per_step = np.array(per_step)
    # the copies change stores on the same steps (64 x at least 16 arrays); on the others
    # the batch call's own lent scratch and per-call arrays, none per world: 8, and since
    # the kernel can gather the worlds' state after their steps (WorldBatch._step_state) the
    # six arrays of that state, passed empty here, each wrapped by Numba at the call, and
    # the threads' shared claims on the worlds (batch_step.thread_arguments: one a call,
    # session 17): 15
    assert np.all((per_step <= 15) | (per_step >= 64 * NEW_STORE)), per_step
    assert (per_step <= 15).sum() >= 30


def _mixed_world(seed: int) -> i2d.World:
    """Worlds of different sizes, every other one with the convergence test on (its velocity
    rows in the float scratch) and a rigid solver."""
    rng = np.random.default_rng(seed)
    world = i2d.World(gravity=(0.0, -10.0))
    random_world(world, rng)
    if seed % 2:
        world.settings.solver = "pgs"
        world.settings.velocity_tolerance = 1e-4
    return world


@pytest.mark.parametrize("threads", [1, 2])
def test_lent_scratch_leaves_no_trace(threads):
    alone = [_mixed_world(k) for k in range(12)]
    for _ in range(90):
        for w in alone:
            w.step(DT)
    batch = i2d.WorldBatch([_mixed_world(k) for k in range(12)], threads=threads)
    for _ in range(90):
        batch.step(DT)
    assert [w.state_hash() for w in batch.worlds] == [w.state_hash() for w in alone]
    # stepped alone again after the batch (in their own scratch), they still agree
    for w, v in zip(batch.worlds, alone):
        for _ in range(30):
            w.step(DT)
            v.step(DT)
    assert [w.state_hash() for w in batch.worlds] == [w.state_hash() for w in alone]
