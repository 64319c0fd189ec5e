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

from impulse2d._dynamics.world_ref import _constraints_of, _contacts_of

from conftest import batch_world

DT = 1 / 60


@pytest.fixture
def counting():
    """Numba's allocation counters on for the test (they cost a few atomics an allocation)."""
    was_on = _nrt_python.memsys_stats_enabled()
    _nrt_python.memsys_enable_stats()
    yield lambda: rtsys.get_allocation_stats().alloc
    if not was_on:
        _nrt_python.memsys_disable_stats()


def _stores_at(world) -> tuple:
    """Where the world's contact and constraint stores (in its step reference) keep their
    columns: a step that makes a new store moves them (the old store is alive while the new one
    is made, so the new one never takes its address)."""
    ref = world.__dict__["_stores"]
    return tuple(c.ctypes.data for store in (_contacts_of(ref), _constraints_of(ref))
                 for c in store)


def test_a_step_that_keeps_its_stores_allocates_nothing(counting):
    world = batch_world()
    world.step(DT)  # kernels loaded, the reference built
    kept, made = [], []
    for _ in range(120):
        at = _stores_at(world)
        before = counting()
        world.step(DT)
        n = counting() - before
        (kept if _stores_at(world) == at else made).append(n)
    # a step allocates only when it makes a new store (pairs or touching contacts changed:
    # each store one allocation since session 21's slab stores, with the pair stage's arrays);
    # the step used to allocate 11 arrays every step
    assert kept and all(n == 0 for n in kept), kept
    assert all(n >= 1 for n in made), made
    assert len(kept) >= 60  # most steps of the fall and the settling keep them


def test_a_batch_step_allocates_only_its_own_few(counting):
    batch = i2d.WorldBatch.replicate(batch_world(), 64, threads=1)
    batch.step(DT)
    worlds = list(batch.worlds)
    kept, made = [], []
    for _ in range(60):
        at = [_stores_at(w) for w in worlds]
        before = counting()
        batch.step(DT)
        n = counting() - before
        changed = sum(_stores_at(w) != a for w, a in zip(worlds, at))
        (kept if changed == 0 else made).append((n, changed))
    # on a step where no world makes a store: the batch call's own lent scratch and per-call
    # arrays, none per world: 8, and since the kernel can gather the worlds' state after their
    # steps (WorldBatch._step_state) the six arrays of that state, passed empty here, each
    # wrapped by Numba at the call, and the threads' shared claims on the worlds
    # (batch_step.thread_arguments: one a call, session 17): 15; since session 24 the batch's
    # results were scanned and its clocks written by compiled passes over the worlds, whose
    # arrays Numba wrapped at each call: 24 a call; since session 32 the kernel writes the
    # clocks itself (batch_step.clock_world: its seven clock arrays wrapped at the call, the
    # pass's nine gone): 22 a call, measured, whatever the number of worlds. A step where
    # worlds make stores adds at least one allocation for each such world.
    assert kept and all(n <= 22 for n, _ in kept), kept
    assert all(n >= 22 + changed for n, changed in made), made
    assert len(kept) >= 30


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
