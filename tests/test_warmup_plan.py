"""``warmup --all``'s compile plan: units that share callees are compiled in one process, and
the processes take the units from one queue as each finishes one."""

from __future__ import annotations

from test_startup import _fake_compiles, _Unit

import impulse2d  # noqa: F401  (creates every unit)


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
    monkeypatch.setattr(parallel, "_TAKING", [True])
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
