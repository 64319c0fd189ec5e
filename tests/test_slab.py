"""The step's new contact and constraint stores, each made as one allocation
(:mod:`impulse2d._core.slab`): columns that do not overlap, laid out in the layout's order,
one reference to the allocation per column, zeroed where the store must be."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from impulse2d._dynamics.contact_solver import (CONSTRAINT_LAYOUT, allocate_constraints)
from impulse2d._dynamics.contacts import CONTACT_LAYOUT, allocate_contacts
from impulse2d._dynamics.lane_layout import CHUNK, FIELDS, lane_rows


def _address(column: np.ndarray) -> int:
    return column.__array_interface__["data"][0]


def _carved(store, given=()):
    return [(name, column) for name, column in zip(store._fields, store) if name not in given]


@pytest.mark.parametrize("count", [0, 1, 3, 11, 40, 257])
@pytest.mark.parametrize("make, layout, given", [
    (allocate_contacts, CONTACT_LAYOUT, ()),
    (lambda n: allocate_constraints(n, np.zeros((0, FIELDS)), 0), CONSTRAINT_LAYOUT, ("lanes",)),
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
    store = allocate_constraints(9, np.zeros((0, FIELDS)), 0)
    normal = store.normal
    normal[:] = np.arange(18.0).reshape(9, 2)
    del store
    gc.collect()
    assert normal.base.refcount == 1
    junk = [allocate_constraints(9, np.zeros((0, FIELDS)), 0) for _ in range(50)]
    for s in junk:
        for _, column in _carved(s, ("lanes",)):
            column.reshape(-1).view(np.uint8)[:] = 0xFF
    assert np.array_equal(normal, np.arange(18.0).reshape(9, 2))


def test_a_new_constraint_store_is_zeroed_whatever_the_memory_held():
    """Stores made and freed with every byte set, then made again: zeros (the prepare reads
    some columns before it writes them: the constraint store is made zeroed)."""
    for _ in range(20):
        for count in (5, 9, 33):
            old = allocate_constraints(count, np.zeros((0, FIELDS)), 0)
            for _, column in _carved(old, ("lanes",)):
                column.reshape(-1).view(np.uint8)[:] = 0xFF
            del old
        for count in (5, 9, 33):
            fresh = allocate_constraints(count, np.zeros((0, FIELDS)), 0)
            assert not any(column.any() for _, column in _carved(fresh, ("lanes",)))


def test_the_lanes_given_are_the_stores_own():
    """The constraint store's lanes are passed in (kept between stores), not carved."""
    lanes = np.zeros((lane_rows(CHUNK + 1), FIELDS))
    store = allocate_constraints(CHUNK + 1, lanes, lane_rows(CHUNK + 1))
    assert store.lanes is lanes
    assert not np.shares_memory(store.lanes, store.contact)
