"""The world reference's unboxing (``world_ref.unbox_by_interned_name``): every kernel called
from Python with a world's reference (the step's entry first) looks its ``_meminfo`` up by an
interned name made once, instead of Numba's name made from a C string on every call. What it
must keep: the reference's counts (the MemInfo's, and Python's of the ``_meminfo`` object it
looks up) the same after any number of calls, and the stores it reaches the world's."""

from __future__ import annotations

import sys

import numba
import numpy as np
import pytest

import impulse2d as i2d
from impulse2d._dynamics.world_ref import borrow

NO_JIT = numba.config.DISABLE_JIT


def _balls(world):
    world.create_body("static").create_box(10.0, 0.5, center=(0.0, -0.5))
    balls = [world.create_body(position=(-2.0 + k, 1.0 + 0.5 * k)) for k in range(5)]
    for ball in balls:
        ball.create_circle(0.25, restitution=0.5)
    return balls


@numba.njit(cache=False, nogil=True)
def _bodies_alive(ref, dt, phase):
    """A kernel of the step entry's signature (the reference, a float, an int) that reads the
    stores behind the reference."""
    return np.int64(np.count_nonzero(borrow(ref, "bodies").alive)) + phase + np.int64(dt)


@pytest.mark.skipif(NO_JIT, reason="the unboxing is compiled code")
def test_the_step_keeps_the_references_counts():
    world = i2d.World(gravity=(0.0, -10.0), enable_sleep=False)
    balls = _balls(world)
    for _ in range(5):
        world.step(1 / 60)
    ref = world._stores
    meminfo = ref._meminfo
    before = (meminfo.refcount, sys.getrefcount(meminfo))
    for _ in range(200):
        world.step(1 / 60)
    assert world._stores is ref  # the same reference all along (no store replaced)
    assert (meminfo.refcount, sys.getrefcount(meminfo)) == before
    assert balls[4].position[1] < 2.0  # it stepped (from 3 m): the balls are down


@pytest.mark.skipif(NO_JIT, reason="the unboxing is compiled code")
def test_a_kernel_unboxes_the_reference_by_an_interned_name():
    world = i2d.World(gravity=(0.0, -10.0))
    _balls(world)
    world.step(1 / 60)
    ref = world._stores
    meminfo = ref._meminfo
    before = (meminfo.refcount, sys.getrefcount(meminfo))
    # the first call makes the name, the later ones find it: the same answer, the same counts
    for phase in range(50):
        assert _bodies_alive(ref, 2.0, phase) == 6 + phase + 2
    assert (meminfo.refcount, sys.getrefcount(meminfo)) == before
    signature = _bodies_alive.signatures[0]
    ir = _bodies_alive.inspect_llvm(signature)
    assert "PyUnicode_InternFromString" in ir and "impulse2d_meminfo_name" in ir
