"""The usual step's call (:mod:`impulse2d._step_entry`): the step kernel's own code called with
three numbers, Python's lock kept only while no other thread state exists.

The same kernel on the same stores: a world stepped through :data:`ALONE` and one stepped
through the kernel's entry point must agree bit for bit, with and without another thread (which
makes :data:`ALONE` let the lock go); the test of "alone" must see another thread while it
lives.
"""

from __future__ import annotations

import subprocess
import sys
import threading

import numba
import pytest
from numba.core import types
from numba.extending import intrinsic

import impulse2d
from impulse2d import _step_entry
from impulse2d._dynamics.step import NEW_CONSTRAINTS, NEW_CONTACTS, WHOLE, _step
from impulse2d._dynamics.world_ref import adopt_step_stores

pytestmark = pytest.mark.skipif(numba.config.DISABLE_JIT, reason="compiled calls only")

DT = 1.0 / 60.0


def _balls() -> impulse2d.World:
    world = impulse2d.World(gravity=(0.0, -10.0))
    world.create_body("static").create_box(30.0, 0.5, density=0.0)
    for k in range(5):
        ball = world.create_body(position=(-2.0 + 1.0 * k, 1.5 + 0.7 * k))
        ball.create_circle(0.3, density=1.0, restitution=0.8)
    return world


@intrinsic
def _alone_now(typingctx):
    def codegen(context, builder, signature, args):
        return _step_entry._alone(builder)

    return types.boolean(), codegen


@numba.njit
def _alone():
    return _alone_now()


_ALONE_IN_A_FRESH_INTERPRETER = """
import importlib.util
import sys
import threading

spec = importlib.util.spec_from_file_location("test_step_entry", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
_alone = module._alone  # this file's own compiled test of "alone"

seen = [_alone()]
done = threading.Event()
other = threading.Thread(target=done.wait)
other.start()
seen.append(_alone())
done.set()
other.join()
seen.append(_alone())
print(seen)
"""


def test_alone_sees_another_thread_while_it_lives():
    """The test of "alone" (compiled as :data:`ALONE` compiles it) is false while a second
    thread lives. Here, in a test process whose other threads are not all Python's to count
    (pytest-xdist's worker runs threads that ``threading`` does not list), that is all it can
    say; in a fresh interpreter, which has one thread, it is true, false while a second thread
    lives and true again once it has ended."""
    done = threading.Event()
    other = threading.Thread(target=done.wait)
    other.start()
    try:
        assert not _alone()
    finally:
        done.set()
        other.join()
    fresh = subprocess.run([sys.executable, "-c", _ALONE_IN_A_FRESH_INTERPRETER, __file__],
                           capture_output=True, text=True, timeout=300)
    assert fresh.returncode == 0, fresh.stderr
    assert fresh.stdout.split("\n")[-2] == "[True, False, True]", fresh.stdout


@pytest.mark.parametrize("other_thread", [False, True])
def test_alone_steps_the_bits_of_the_kernel_s_entry_point(other_thread):
    """Two worlds stepped 200 times, one by :data:`ALONE`'s entry with its three numbers, one
    by the step kernel's entry point: the same statuses and the same state (checked every 50
    steps), with or without another thread alive during the steps."""
    a, b = _balls(), _balls()
    a.step(DT)
    b.step(DT)  # (the first step takes the checks: the verbs, the reference)
    done = threading.Event()
    other = threading.Thread(target=done.wait) if other_thread else None
    if other is not None:
        other.start()
    try:
        args = _step_entry.usual_arguments(a._stores, DT)
        assert args[0] == _step.native != 0 and args[2] == DT
        for k in range(200):
            status = _step_entry.ALONE.entry(*args)
            assert status == _step.entry(b._stores, DT, WHOLE)
            if status:  # (a new contact store: World.step's own adoption)
                for world in (a, b):
                    adopt_step_stores(world, status & NEW_CONTACTS, status & NEW_CONSTRAINTS)
            if k % 50 == 49:
                assert a.state_hash(motion_only=True) == b.state_hash(motion_only=True)
    finally:
        done.set()
        if other is not None:
            other.join()


def test_world_step_takes_alone_and_moves_as_the_checked_step():
    """``World.step``'s usual step (the ready flag holding: :data:`ALONE`) against a world
    whose every step takes the checks (the kernel's entry point): equal motion and time, and
    the flag's arguments are ``ALONE``'s for the world's reference."""
    from impulse2d._stepping import NOT_READY
    usual, checked = _balls(), _balls()
    for _ in range(120):
        usual.step(DT)
        checked._step_ready = NOT_READY
        checked.step(DT)
    ready = usual._step_ready
    assert ready[4] is usual._stores
    assert ready[3] == _step_entry.usual_arguments(usual._stores, DT)
    assert usual.state_hash() == checked.state_hash() and usual.time == checked.time


def test_the_reference_s_address_leaves_its_count_as_it_was():
    """:func:`usual_arguments` reads the reference's meminfo pointer through the NRT's helper,
    which takes a reference: it is given back (the count as before, every call the same
    address)."""
    world = _balls()
    world.step(DT)
    meminfo = world._stores._meminfo
    count = meminfo.refcount
    addresses = {_step_entry.usual_arguments(world._stores, DT)[1] for _ in range(3)}
    assert meminfo.refcount == count and len(addresses) == 1 and addresses != {0}

