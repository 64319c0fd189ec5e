"""The step's new contact and constraint stores, each made as one allocation
(:mod:`impulse2d._core.slab`): columns that do not overlap, laid out in the layout's order,
one reference to the allocation per column, zeroed where the store must be; a store made so,
of KEEP_BYTES or more, replaced by one in the same allocation while it has the room (the
constraint store in place, the contact store in the other half), and by one with room for
half again as many rows when it has not."""

from __future__ import annotations

import gc

import numba
import numpy as np
import pytest
from numba import literal_unroll

from impulse2d._dynamics.contact_solver import (CONSTRAINT_LAYOUT, allocate_constraints,
                                                contact_constraints)
from impulse2d._dynamics.contacts import CONTACT_LAYOUT, allocate_contacts, empty_contacts
from impulse2d._core.slab import KEEP_BYTES
from impulse2d._dynamics.lane_layout import CHUNK, FIELDS, lane_rows
from store_allocators import allocate_constraints_py, allocate_contacts_py


def _address(column: np.ndarray) -> int:
    return column.__array_interface__["data"][0]


def _carved(store, given=()):
    return [(name, column) for name, column in zip(store._fields, store) if name not in given]


def _constraints(count, lanes=None):
    """A new constraint store from Python (a Python store replaced: a new allocation), with
    ``lanes`` (none by default)."""
    old = contact_constraints(0)._replace(lanes=np.zeros((0, FIELDS)) if lanes is None else lanes)
    return allocate_constraints_py(count, old, 0 if lanes is None else lanes.shape[0])


@pytest.mark.parametrize("count", [0, 1, 3, 11, 40, 257])
@pytest.mark.parametrize("make, layout, given", [
    (lambda n: allocate_contacts_py(n, empty_contacts(0)), CONTACT_LAYOUT, ()),
    (_constraints, CONSTRAINT_LAYOUT, ("lanes",)),
])
def test_a_store_is_one_allocation_its_columns_laid_end_to_end(make, layout, given, count):
    store = make(count)
    carved = _carved(store, given)
    assert [name for name, _ in carved] == [name for name in layout if name not in given]
    start = _address(carved[0][1])
    assert start % 64 == 0  # the allocation's data on a cache line
    end = start
    for name, column in carved:
        dtype, row = layout[name]
        assert column.dtype == np.dtype(dtype) and column.shape == (count, *row), name
        assert column.flags.c_contiguous and column.flags.writeable, name
        # in layout order, each at the first multiple of 8 bytes after the one before
        assert _address(column) == end + (-end) % 8, name
        end = _address(column) + column.nbytes
    # one reference to the allocation per column (each boxed column holds its own)
    owners = {column.base.data for _, column in carved}
    assert len(owners) == 1
    assert all(column.base.refcount == len(carved) for _, column in carved)


def test_a_column_outlives_the_rest_of_its_store():
    """The allocation lives while any column does: each column counts its reference."""
    store = _constraints(9)
    normal = store.normal
    normal[:] = np.arange(18.0).reshape(9, 2)
    del store
    gc.collect()
    assert normal.base.refcount == 1
    junk = [_constraints(9) for _ in range(50)]
    for s in junk:
        for _, column in _carved(s, ("lanes",)):
            column.reshape(-1).view(np.uint8)[:] = 0xFF
    assert np.array_equal(normal, np.arange(18.0).reshape(9, 2))


def test_a_new_constraint_store_is_zeroed_whatever_the_memory_held():
    """Stores made and freed with every byte set, then made again: zeros (the prepare reads
    some columns before it writes them: the constraint store is made zeroed)."""
    for _ in range(20):
        for count in (5, 9, 33):
            old = _constraints(count)
            for _, column in _carved(old, ("lanes",)):
                column.reshape(-1).view(np.uint8)[:] = 0xFF
            del old
        for count in (5, 9, 33):
            fresh = _constraints(count)
            assert not any(column.any() for _, column in _carved(fresh, ("lanes",)))


def test_the_lanes_given_are_the_stores_own():
    """The constraint store's lanes are passed in (kept between stores), not carved."""
    lanes = np.zeros((lane_rows(CHUNK + 1), FIELDS))
    store = _constraints(CHUNK + 1, lanes)
    assert store.lanes is lanes
    assert not np.shares_memory(store.lanes, store.contact)


@numba.njit(cache=False)
def _replaced_constraints(counts, fill, first):
    """Constraint stores made one from the last, as the step makes them, from ``first`` (a
    Python store): each store's first column's address and its room (where its second column
    starts, in rows), and whether the store read zero after the last one's rows were all set
    to ``fill``'s bytes."""
    cs = allocate_constraints(counts[0], first, 0)
    out = np.empty((counts.shape[0], 3), np.int64)
    for i in range(counts.shape[0]):
        if i > 0:
            for column in literal_unroll(cs[:-3]):
                column.reshape(-1).view(np.uint8)[:] = fill
            cs.lane_end.view(np.uint8)[:] = fill
            cs.in_lanes.view(np.uint8)[:] = fill
            cs = allocate_constraints(counts[i], cs, 0)
        zero = True
        for column in literal_unroll(cs[:-3]):
            zero = zero and not column.any()
        out[i, 0] = cs.contact.ctypes.data
        out[i, 1] = (cs.body_a.ctypes.data - cs.contact.ctypes.data) // 8
        out[i, 2] = zero and not cs.lane_end.any() and not cs.in_lanes.any()
    return out, cs


def _row_bytes(layout, given=()):
    return sum(np.dtype(dtype).itemsize * int(np.prod(shape))
               for name, (dtype, shape) in layout.items() if name not in given)


def test_a_constraint_store_is_replaced_in_its_allocation_while_it_has_the_room():
    """A store of KEEP_BYTES or more that needs no more rows than its allocation holds is made
    in it (the same address, its rows zeroed whatever they held); one that needs more gets a
    new allocation with room for half again as many rows as the old one held (or the count,
    if more); the room is never given back. A smaller store is made anew, of its own rows
    (malloc recycles those). The last store's columns hold one reference each."""
    k = -(-KEEP_BYTES // _row_bytes(CONSTRAINT_LAYOUT, ("lanes",)))  # rows of a store kept
    counts = np.array([10, 12, 3, 2 * k, 2 * k + 1, 3 * k, 2 * k, 5, 3 * k + 1, 8 * k, 0,
                       12 * k + 1], np.int64)
    rooms = [10, 12, 3, 2 * k, 3 * k, 3 * k, 3 * k, 3 * k, 4 * k + k // 2, 8 * k, 8 * k, 12 * k + 1]
    out, last = _replaced_constraints(counts, 0xFF, contact_constraints(0)._replace(
        lanes=np.zeros((0, FIELDS))))
    assert out[:, 2].all()  # every store read zero
    assert out[:, 1].tolist() == rooms
    kept = [False, False, False, False, False, True, True, True, False, False, True, False]
    assert [out[i, 0] == out[i - 1, 0] for i in range(1, len(rooms))] == kept[1:]
    carved = _carved(last, ("lanes",))
    assert all(column.base.refcount == len(carved) for _, column in carved)
    assert last.contact.shape == (12 * k + 1,)


@numba.njit(cache=False)
def _replaced_contacts(counts, first):
    """Contact stores made one from the last, as the pair stage makes them, from ``first`` (a
    Python store): each store's first column's address and its room in rows."""
    c = allocate_contacts(counts[0], first)
    out = np.empty((counts.shape[0], 2), np.int64)
    for i in range(counts.shape[0]):
        if i > 0:
            c = allocate_contacts(counts[i], c)
        out[i, 0] = c.key.ctypes.data
        out[i, 1] = (c.shape_a.ctypes.data - c.key.ctypes.data) // 8
    return out, c


def test_a_contact_store_takes_the_other_half_of_its_allocation_while_it_has_the_room():
    """The merge reads the old store while it writes the new one: an allocation of a store of
    KEEP_BYTES or more holds two stores of its room, each on its own cache lines, and a new
    store that fits takes the half the old one does not; one that does not fit gets a new
    allocation with room for half again as many rows. A smaller store is made anew."""
    row = _row_bytes(CONTACT_LAYOUT)
    k = -(-KEEP_BYTES // row)
    counts = np.array([10, 8, 2 * k, 2 * k - 2, 2 * k, 2 * k + 1, 2 * k + 1, 2, 0, 4 * k,
                       4 * k + 1], np.int64)
    out, last = _replaced_contacts(counts, empty_contacts(0))

    def half(room):
        return -(-room * row // 64) * 64

    assert out[:, 1].tolist() == [10, 8] + [2 * k] * 3 + [3 * k] * 4 + [4 * k + k // 2] * 2
    assert out[1, 0] != out[0, 0] and out[2, 0] not in out[:2, 0]
    a, b, c = out[2, 0], out[5, 0], out[9, 0]
    assert out[2:5, 0].tolist() == [a, a + half(2 * k), a]
    assert out[5:9, 0].tolist() == [b, b + half(3 * k), b, b + half(3 * k)]
    assert out[9:, 0].tolist() == [c, c + half(4 * k + k // 2)]
    assert b != a and c != b  # (each made while the last was alive)
    carved = _carved(last)
    assert all(column.base.refcount == len(carved) for _, column in carved)
    assert last.key.shape == (4 * k + 1,)
