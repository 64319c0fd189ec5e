"""``warmup --all``'s compile plan: units that share callees are compiled in one process, and
the processes take the units from one queue as each finishes one."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from test_startup import _fake_compiles, _Unit

import impulse2d  # (creates every unit)

SRC = os.path.dirname(os.path.dirname(impulse2d.__file__))


def test_every_joint_types_velocity_and_position_entries_are_one_group():
    from impulse2d._core import lazy
    from impulse2d._warmup import _joint_entries

    names = {u.key.rsplit(".", 1)[1] for u in _joint_entries(list(lazy.REGISTRY.values()))}
    velocity = {f"{t}_entry" for t in ("revolute", "distance", "prismatic", "weld", "wheel",
                                       "mouse", "motor", "pulley", "custom", "gear")}
    position = {f"{t}_position_entry" for t in ("revolute", "distance", "prismatic", "weld",
                                                "wheel", "pulley", "custom", "gear")}
    assert names == velocity | position  # (the row exports are a group of their own)


def test_taking_turns_each_process_takes_the_longest_group_left_when_it_is_free(monkeypatch):
    """``warmup --all``'s compile (:func:`.parallel.take_turns`): no plan; a helper is started
    on the longest group and fed the next one as it delivers, this process takes the rest
    after its own work, pinned units and ``then``, the longest first, and loads the helper's at
    the end."""
    parallel, Unit, order = _fake_compiles(monkeypatch)
    monkeypatch.setattr(parallel, "_TAKING", [])
    parallel.take_turns()
    queues = []

    def feed(self, queue):  # (the helper takes one more group before this process's turn)
        queues.append(queue)
        item = queue.take()
        order.append("helper took: " + ",".join(u.what for u in item))
        self.units.extend(item)

    monkeypatch.setattr(parallel._Helper, "feed", feed, raising=False)
    pairs, small, mid = Unit("pairs", 15.0), Unit("small", 1.0), Unit("mid", 9.0)
    direct, accel, big = Unit("direct", 20.0), Unit("accel", 30.0), Unit("big", 40.0)
    parallel.compile_units([pairs, small, mid, direct, accel, big],
                           lambda: order.append("own"), 5.0, together=[(direct, accel)],
                           pinned=[pairs], then=lambda: order.append("then"))
    # the group (50 s) is the longest item: the helper's first; it takes big (40 s) next
    assert order == ["helper started: direct,accel", "helper took: big", "own", "pairs",
                     "then", "mid", "small", "helper delivered",
                     "pairs", "small", "mid", "direct", "accel", "big"]
    assert len(queues) == 1 and queues[0].take() is None
    assert not parallel._TAKING  # (for that compile only: the next one plans again)


def test_work_that_needs_queued_units_runs_between_this_processs_groups_once_they_are_at_hand(
        monkeypatch):
    """``take_turns(work, needs)`` (the pybox2d layer's worlds in ``warmup --all``): the group
    holding a unit of ``needs`` goes first in the queue (the helper takes it, though it is not
    the longest); this process runs ``work`` before the first group it takes after that unit
    is delivered into its cache, and the rest of the queue after it; never delivered, ``work``
    runs after everything else."""
    for delivered_after in ("other", None):
        parallel, Unit, order = _fake_compiles(monkeypatch)
        monkeypatch.setattr(parallel, "_TAKING", [])

        class Needed(Unit):
            def compiled_address(self):
                return 0

            def must_compile(self):  # (in this process's cache once the helper delivers it)
                return delivered_after not in order

        def feed(self, queue):  # (the helper takes one group before this process's turn)
            item = queue.take()
            order.append("helper took: " + ",".join(u.what for u in item))

        monkeypatch.setattr(parallel._Helper, "feed", feed, raising=False)
        monkeypatch.setattr(Unit, "compiled_address", lambda self: int(self.what in order),
                            raising=False)  # (compiled here: the pinned `pairs`)
        pairs, small, mid = Unit("pairs", 15.0), Unit("small", 1.0), Unit("mid", 9.0)
        needed, big, other = Needed("needed", 20.0), Unit("big", 40.0), Unit("other", 30.0)
        parallel.take_turns(lambda: order.append("work"), [needed, pairs])
        parallel.compile_units([pairs, small, mid, needed, big, other],
                               lambda: order.append("own"), 5.0, pinned=[pairs])
        start = ["helper started: needed", "helper took: big", "own", "pairs"]
        end = ["pairs", "small", "mid", "needed", "big", "other"]
        if delivered_after:  # (the helper took `big`: this process takes `other` first)
            assert order == [*start, "other", "work", "mid", "small", "helper delivered",
                             *end]
        else:
            assert order == [*start, "other", "mid", "small", "helper delivered", *end,
                             "work"]
        assert not parallel._TAKING


def test_the_queue_gives_each_group_once_from_several_threads():
    import threading

    from impulse2d._core.parallel import _Queue

    units = [_Unit(f"u{k}", float(k % 7)) for k in range(200)]
    queue = _Queue([[u] for u in units])
    taken = [[] for _ in range(4)]

    def take(into):
        for item in iter(queue.take, None):
            into.extend(item)

    threads = [threading.Thread(target=take, args=(into,)) for into in taken]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(id(u) for into in taken for u in into) == sorted(id(u) for u in units)
    # each thread's own order is longest first
    assert all([u.seconds for u in into] == sorted((u.seconds for u in into), reverse=True)
               for into in taken)


def test_warmup_all_starts_its_helper_on_the_joint_entries_before_it_builds_a_world(
        monkeypatch):
    """The helper of ``warmup --all`` starts, on the joint types' entries (a group no work of
    the main process waits for), before the main process builds the batch's world, the first
    compile of a fresh process (:func:`.parallel.hold_early`)."""
    from impulse2d import _warmup
    from impulse2d._core import lazy, parallel

    order = []

    class Built(Exception):
        pass

    def batch_world():
        order.append("the batch's world")
        raise Built  # (the rest is the plan, tested above)

    monkeypatch.setattr(parallel, "hold_early",
                        lambda units: order.append(sorted(u.key for u in units)))
    monkeypatch.setattr(_warmup, "_batch_world", batch_world)
    with pytest.raises(Built):
        _warmup._compile_ahead(progress=False)
    entries = sorted(u.key for u in _warmup._joint_entries(list(lazy.REGISTRY.values())))
    assert order == [entries, "the batch's world"]


def test_holding_off_the_early_helper_starts_one_on_the_units_given_that_settles_its_heap(
        monkeypatch):
    """:func:`.parallel.hold_early`: a helper on the units given that must compile, taken over
    by the next plan; none at the process's first compile after it; the helpers started after
    it settle their heaps between units (:func:`.parallel.settle_heap`)."""
    parallel, Unit, order = _fake_compiles(monkeypatch)
    for name in ("_PLANNED", "_SETTLING"):
        monkeypatch.setattr(parallel, name, [])
    monkeypatch.setattr(parallel.atexit, "register", lambda *args: None)  # (a fake helper)

    class Cached(Unit):
        def must_compile(self):
            return False

    parallel.hold_early([Unit("revolute", 3.0), Cached("distance", 2.0), Unit("gear", 4.0)])
    parallel.start_early([Unit("pairs", 15.0)])  # (the first compile's: held off)
    assert order == ["helper started: revolute,gear"]
    assert [h.units[0].what for h in parallel._EARLY] == ["revolute"]
    assert parallel._SETTLING and parallel._PLANNED


def test_a_helper_quits_after_its_exit_functions_without_pythons_finalisation():
    """:func:`.parallel.exit_now`: the exit functions run (a profiler's dump), the process
    ends with status 0 and runs nothing after (a finaliser would print)."""
    code = ("import atexit, sys\n"
            "from impulse2d._core.parallel import exit_now\n"
            "class Late:\n"
            "    def __del__(self):\n"
            "        print('finalised', flush=True)\n"
            "late = Late()\n"
            "atexit.register(lambda: print('exit function', flush=True))\n"
            "print('work', flush=True)\n"
            "exit_now()\n"
            "print('after', flush=True)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": SRC}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["work", "exit", "function"]


def _last_json(script):
    """What ``script``, run in a fresh process on this tree, printed last as JSON."""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": SRC}, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


CYCLES = """
import gc, json, weakref
from impulse2d._core import parallel


class Node:
    pass


def cycle():  # (garbage only the cyclic collector frees, once dropped)
    a, b = Node(), Node()
    a.b, b.a = b, a
    return a
"""
"""A subprocess's opening: the package's compile plan and a maker of cyclic garbage."""

SETTLE = CYCLES + """

def tracked(obj):  # (in a generation: a frozen object is in none)
    return any(o is obj for o in gc.get_objects())


stats = gc.get_stats()
gc.get_stats = lambda: [*stats[:2], {**stats[2], "collections": 0}]
frozen = gc.get_freeze_count()  # (the package's import freezes its heap)
dead, alive = weakref.ref(cycle()), cycle()
parallel.settle_heap()  # no full collection yet: nothing done
before = [dead() is not None, tracked(alive), gc.get_freeze_count() == frozen]
gc.get_stats = lambda: [*stats[:2], {**stats[2], "collections": 1}]
dead, alive = weakref.ref(cycle()), cycle()
parallel.settle_heap()
after = [dead() is not None, tracked(alive), gc.get_freeze_count() > frozen]
print(json.dumps({"before": before, "after": after}))
"""


def test_a_compiling_process_freezes_its_heap_once_python_has_collected_it_in_full():
    """:func:`.parallel.settle_heap`: nothing until Python has collected the heap in full once;
    then the cyclic garbage is collected and the survivors frozen (no later collection scans
    them)."""
    out = _last_json(SETTLE)
    assert out == {"before": [True, True, True], "after": [False, False, True]}


KEEP = CYCLES + """

parallel.keep_garbage()
kept = weakref.ref(cycle())
gc.get_stats = lambda: [{"collections": 1}] * 3  # (as if Python had collected in full)
frozen = gc.get_freeze_count()
parallel.settle_heap()  # under the bound: nothing collected, nothing frozen
under = [gc.isenabled(), kept() is not None, gc.get_freeze_count() == frozen]
parallel.KEEP_GARBAGE_BYTES = 0
parallel.settle_heap()  # over it: what is kept frozen as it is, the collector on again
over = [gc.isenabled(), kept() is not None, gc.get_freeze_count() > frozen]
dead = weakref.ref(cycle())
parallel.settle_heap()  # then as a process that keeps nothing
print(json.dumps({"under": under, "over": over, "after": [dead() is None, kept() is not None]}))
"""


def test_a_process_that_keeps_its_garbage_collects_none_until_it_is_large_then_freezes_it():
    """:func:`.parallel.keep_garbage`: the cyclic collector off, and
    :func:`.parallel.settle_heap` collects nothing while the process's peak resident memory is
    under :data:`.parallel.KEEP_GARBAGE_BYTES`; over it, what the process holds is frozen, the
    garbage kept with it, and the collector is on again (the next settle collects)."""
    out = _last_json(KEEP)
    assert out == {"under": [False, True, True], "over": [True, True, True],
                   "after": [True, True]}


@pytest.mark.parametrize("own_process", [True, False])
def test_the_warmup_commands_own_process_keeps_its_garbage_a_caller_of_main_does_not(
        monkeypatch, own_process):
    """``impulse2d warmup`` (``main`` reading the command line) ends without freeing its heap
    (:func:`.parallel.exit_now`), so it keeps its garbage from the start
    (:func:`.parallel.keep_garbage`); ``main(argv)`` called from Python goes on after: it does
    not."""
    from impulse2d import _warmup, cli
    from impulse2d._core import parallel

    order = []

    class Exited(Exception):
        pass

    def exit_now():
        order.append("exit")
        raise Exited

    monkeypatch.setattr(parallel, "keep_garbage", lambda: order.append("keep"))
    monkeypatch.setattr(parallel, "exit_now", exit_now)
    monkeypatch.setattr(_warmup, "warmup",
                        lambda all_kernels, environments: order.append("warmup"))
    if own_process:
        monkeypatch.setattr(sys, "argv", ["impulse2d", "warmup"])
        with pytest.raises(Exited):
            cli.main()
        assert order == ["keep", "warmup", "exit"]
    else:
        assert cli.main(["warmup"]) == 0
        assert order == ["warmup"]


def test_the_garbage_kept_is_bounded_by_an_eighth_of_the_machines_memory(monkeypatch):
    """:data:`.parallel.KEEP_GARBAGE_BYTES`: 2 GiB, or an eighth of the physical memory on a
    smaller machine (the two processes of ``warmup --all`` then keep a quarter of it at most);
    a system that does not say its memory leaves the 2 GiB."""
    import os

    from impulse2d._core import parallel

    physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert parallel.KEEP_GARBAGE_BYTES == min(2 << 30, physical // 8)
    assert parallel.KEEP_GARBAGE_BYTES * 4 <= physical

    def unknown(name):
        raise ValueError(name)

    monkeypatch.setattr(os, "sysconf", unknown)
    assert min(2 << 30, parallel._physical_memory_bytes() // 8) == 2 << 30
