"""The step's contact and constraint stores keep their room (:mod:`impulse2d._dynamics.capacity`):
a store made in the room of the last one holds the very rows a new store would, and allocates
nothing while its count fits."""

from __future__ import annotations

from collections import namedtuple

import numba
import numpy as np
import pytest

import impulse2d
from impulse2d._dynamics.capacity import (constraints_for, contacts_for, keeps, room,
                                          rows_held)
from impulse2d._dynamics.contact_solver import allocate_constraints
from impulse2d._dynamics.contacts import allocate_contacts, carry_contacts

JIT = not numba.config.DISABLE_JIT
Shapes = namedtuple("Shapes", "body")


@numba.njit(cache=False)
def _held(a):
    return rows_held(a)


@numba.njit(cache=False)
def _room(n):
    return room(n)


@numba.njit(cache=False)
def _keeps(n, held):
    return keeps(n, held)


def _pairs(rng, shapes: int, count: int) -> np.ndarray:
    keys = set()
    while len(keys) < count:
        a, b = sorted(rng.choice(shapes, 2, replace=False))
        keys.add((int(a) << 32) | int(b))
    keys = np.array(sorted(keys), dtype=np.int64)
    return np.stack([keys >> 32, keys & 0xFFFFFFFF], axis=1).astype(np.int64)


def test_room_keeps_its_own_count_and_drops_a_far_larger_one():
    for n in (0, 1, 7, 100, 4348):
        assert _keeps(n, _room(n))
        assert not _keeps(n, n - 1) or n == 0
    assert not _keeps(10, 49)
    assert _keeps(10, 48)


@numba.njit(cache=False)
def _marked(store, stage):
    """Every manifold column of ``store`` set to values of its row and ``stage`` (so that a
    row carried to the wrong place shows)."""
    for k in range(store.key.shape[0]):
        v = 1000 * stage + k
        store.count[k] = v % 3
        store.friction[k] = v + 0.5
        store.restitution[k] = v + 0.25
        for j in range(2):
            store.normal[k, j] = v + j
            store.separation[k, j] = -v - j
            store.ids[k, j] = 7 * v + j
            store.normal_impulse[k, j] = 3 * v + j
            store.tangent_impulse[k, j] = 5 * v + j
            store.total_normal_impulse[k, j] = 11 * v + j
            store.total_tangent_impulse[k, j] = 13 * v + j
            store.point[k, j, 0] = 17 * v + j
            store.point[k, j, 1] = 19 * v + j


@numba.njit(cache=False)
def _merges(pairs, ends, shapes):
    """The contact stores of the pair lists ``pairs[ends[s - 1]:ends[s]]`` one after the other,
    each made by :func:`contacts_for` from the last (marked) and compared with
    :func:`carry_contacts`' new store from the same: the stages whose store differs in any
    column, and those whose store is in the last one's allocation."""
    store = contacts_for(allocate_contacts(0), pairs[:ends[0]], shapes)
    differ = np.zeros(ends.shape[0], np.bool_)
    in_place = np.zeros(ends.shape[0], np.bool_)
    for s in range(1, ends.shape[0]):
        _marked(store, s)
        stage = pairs[ends[s - 1]:ends[s]]
        expected = allocate_contacts(stage.shape[0])
        carry_contacts(store, expected, stage, shapes)
        before = store.key.ctypes.data
        store = contacts_for(store, stage, shapes)
        in_place[s] = store.key.ctypes.data == before
        for a, b in ((store.key, expected.key), (store.shape_a, expected.shape_a),
                     (store.shape_b, expected.shape_b), (store.body_a, expected.body_a),
                     (store.body_b, expected.body_b), (store.count, expected.count),
                     (store.ids.ravel(), expected.ids.ravel())):
            if not np.array_equal(a, b):
                differ[s] = True
        for a, b in ((store.friction, expected.friction),
                     (store.restitution, expected.restitution),
                     (store.normal.ravel(), expected.normal.ravel()),
                     (store.point.ravel(), expected.point.ravel()),
                     (store.separation.ravel(), expected.separation.ravel()),
                     (store.normal_impulse.ravel(), expected.normal_impulse.ravel()),
                     (store.tangent_impulse.ravel(), expected.tangent_impulse.ravel()),
                     (store.total_normal_impulse.ravel(), expected.total_normal_impulse.ravel()),
                     (store.total_tangent_impulse.ravel(),
                      expected.total_tangent_impulse.ravel())):
            if not np.array_equal(a, b):
                differ[s] = True
    return differ, in_place, rows_held(store.key)


@pytest.mark.parametrize("seed", range(8))
def test_contacts_in_the_room_are_the_rows_of_a_new_store(seed):
    """Pairs dropped and added anywhere (the front, the back, growing and shrinking): the
    store merged in place equals :func:`carry_contacts`' new store, column by column, and
    a count within the room is merged in place."""
    rng = np.random.default_rng(seed)
    shapes = Shapes(np.arange(60, dtype=np.int64) // 3 + 1)
    keys = set(map(tuple, _pairs(rng, 60, 80).tolist()))
    stages = []
    for s in range(40):
        keys = {k for k in keys if rng.random() > 0.05 * (s % 4)}
        keys |= set(map(tuple, _pairs(rng, 60, int(rng.integers(0, 6 + 4 * (s % 3)))).tolist()))
        if s == 20:
            keys = set(list(sorted(keys))[:5])  # far under: a new, smaller store
        stages.append(np.array(sorted(keys), dtype=np.int64).reshape(-1, 2))
    ends = np.cumsum([len(p) for p in stages])
    differ, in_place, held = _merges(np.concatenate(stages), ends, shapes)
    assert not differ.any(), np.flatnonzero(differ)
    if JIT:
        assert in_place.sum() >= 20  # most stages fit the room
        assert not in_place[20]  # the store that shrank far was made again
        assert held >= len(stages[-1])


@numba.njit(cache=False)
def _constraint_stages(counts, lane_rows):
    """Constraint stores for ``counts`` one after the other, each filled with 7 before the
    next: whether each is in the last one's allocation, and whether its rows all read 0."""
    cs = constraints_for(allocate_constraints(0, np.zeros((0, 1)), 0), counts[0], lane_rows)
    in_place = np.zeros(counts.shape[0], np.bool_)
    zero = np.zeros(counts.shape[0], np.bool_)
    for s in range(1, counts.shape[0]):
        for column in (cs.inv_mass, cs.normal, cs.softness, cs.base_separation):
            column[:] = 7.0
        for column in (cs.r_a, cs.r_b, cs.unclamped):
            column[:] = 7.0
        cs.count[:] = 7
        cs.in_lanes[:] = True
        before = cs.r_a.ctypes.data
        cs = constraints_for(cs, counts[s], lane_rows)
        in_place[s] = cs.r_a.ctypes.data == before
        zero[s] = (not cs.inv_mass.any() and not cs.r_a.any() and not cs.unclamped.any()
                   and not cs.count.any() and not cs.in_lanes.any()
                   and cs.count.shape[0] == counts[s] and cs.r_b.shape[0] == counts[s])
    return in_place, zero


def test_constraints_in_the_room_are_zeroed_and_far_under_made_again():
    counts = np.array([40, 45, 30, 59, 68, 5, 9, 12, 0, 3])  # room(40) = 68; 5: far under
    in_place, zero = _constraint_stages(counts, 0)
    assert zero[1:].all()
    if JIT:
        assert in_place.tolist() == [False, True, True, True, True, False, True, True, False,
                                     True]


def test_rain_steps_the_same_with_stores_kept_and_made_new():
    """A world whose pairs and touching count change on most steps: its stores come from the
    room, and a twin whose stores are replaced by Python copies before every step (no room)
    steps the same bits."""
    def world():
        w = impulse2d.World(enable_sleep=False)
        w.create_body(type="static").create_box(20.0, 0.5, center=(0.0, -0.5))
        rng = np.random.default_rng(3)
        for k in range(40):
            w.create_body(position=(rng.uniform(-8, 8), 0.5 + 0.6 * k)).create_circle(0.25)
        return w

    a, b = world(), world()
    kept = 0
    for _ in range(90):
        start = a._contacts.key.ctypes.data

        a.step(1 / 60)
        b.step(1 / 60)
        b._contacts = type(b._contacts)(*(c.copy() for c in b._contacts))
        np.testing.assert_array_equal(a._bodies.origin, b._bodies.origin)
        np.testing.assert_array_equal(a._bodies.v, b._bodies.v)
        kept += a._contacts.key.ctypes.data == start
    assert kept > 0 or not JIT  # some steps changed their pairs in the room
