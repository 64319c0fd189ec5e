"""The stores the step allocates inside compiled code match their declared layouts."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest
from numba import literal_unroll

from impulse2d._dynamics.lane_layout import CHUNK, FIELDS, lane_rows
from impulse2d._dynamics.contact_solver import (CONSTRAINT_LAYOUT, ContactConstraints,
                                                contact_constraints)
from impulse2d._core.state import SHAPE_LAYOUT, Shapes
from impulse2d._core.storage import allocate_store
from impulse2d._dynamics.contacts import (CONTACT_LAYOUT, Contacts, allocate_contacts,
                                          carry_contacts, empty_contacts)
from impulse2d.settings import MIXING_CODES
from store_allocators import allocate_constraints_py, allocate_contacts_py

SQRT, MAX = MIXING_CODES["sqrt"], MIXING_CODES["max"]  # the merge's rules here (Box2D's)


def _with_lanes(lanes):
    """An empty constraint store from Python holding ``lanes``: the store a new one replaces."""
    return contact_constraints(0)._replace(lanes=lanes)


@pytest.mark.parametrize("store_type, layout, in_kernel, in_python, zeroed", [
    # the contact store's rows come unwritten: the merge writes them all (test below)
    (Contacts, CONTACT_LAYOUT, lambda n: allocate_contacts_py(n, empty_contacts(0)), empty_contacts,
     False),
    (ContactConstraints, CONSTRAINT_LAYOUT,
     lambda n: allocate_constraints_py(n, _with_lanes(np.zeros((0, FIELDS))), lane_rows(n)),
     contact_constraints, True),
])
def test_kernel_allocators_follow_the_layout(store_type, layout, in_kernel, in_python, zeroed):
    assert list(layout) == list(store_type._fields)
    made, reference = in_kernel(3), in_python(3)
    assert type(made) is store_type
    for name, (dtype, shape) in layout.items():
        column = getattr(made, name)
        assert column.dtype == np.dtype(dtype), name
        rows = lane_rows(3) if store_type is ContactConstraints and name == "lanes" else 3
        assert column.shape == (rows, *shape), name  # the wide solver's lanes: whole chunks
        assert column.flags.c_contiguous, name
        assert not (zeroed and column.any()), name
        assert column.dtype == getattr(reference, name).dtype
        assert column.shape == getattr(reference, name).shape, name


def test_a_new_constraint_store_keeps_the_lanes_that_fit():
    """The step makes a new constraint store whenever its row count changes; the wide
    solver's lanes (as large as the rest of the store) are kept while they hold the rows and
    no more than twice as many, else made anew: at the new size, or for more rows than they
    held, with room for half again as many as they held (whole chunks, at most twice the
    rows)."""
    def lanes_of(count, lanes):
        return allocate_constraints_py(count, _with_lanes(lanes), lane_rows(count)).lanes

    lanes = lanes_of(CHUNK + 1, np.zeros((0, FIELDS)))
    assert lanes.shape == (2 * CHUNK, FIELDS)
    assert lanes_of(CHUNK + 5, lanes) is lanes        # fits
    assert lanes_of(CHUNK, lanes) is lanes            # twice as many
    assert lanes_of(CHUNK - 1, lanes) is lanes
    grown = lanes_of(2 * CHUNK + 1, lanes)            # too small: half again of 2 chunks
    assert grown is not lanes and grown.shape == (3 * CHUNK, FIELDS)
    regrown = lanes_of(3 * CHUNK + 1, grown)          # half again of 3 chunks, in chunks
    assert regrown.shape == (5 * CHUNK, FIELDS)
    assert lanes_of(5 * CHUNK, regrown) is regrown
    assert lanes_of(9 * CHUNK, regrown).shape == (9 * CHUNK, FIELDS)  # more than half again
    shrunk = lanes_of(3, grown)                       # more than twice
    assert shrunk is not grown and shrunk.shape == (CHUNK, FIELDS)


def test_a_store_solved_row_by_row_has_no_lanes():
    """A world whose contacts are solved row by row (fewer than MIN_BODIES dynamic bodies)
    never reads the lanes: its stores have none (a 64-row chunk is 25 KB, more than the rest
    of a 10-body world's stores), and a world that had them drops them at its next store."""
    for lanes in (np.zeros((0, FIELDS)), np.zeros((CHUNK, FIELDS))):
        assert allocate_constraints_py(11, _with_lanes(lanes), 0).lanes.shape == (0, FIELDS)


@numba.njit(cache=False)
def _carried(old, pairs, shapes, fill):
    """:func:`carry_contacts` into a new store whose every entry first holds ``fill``'s bits."""
    new = allocate_contacts(pairs.shape[0], old)
    for column in literal_unroll(new[:]):
        column.reshape(-1).view(np.int64)[:] = fill
    carry_contacts(old, new, pairs, shapes, SQRT, MAX)
    return new


def test_the_merge_writes_every_entry_of_a_new_contact_store():
    """The step's new contact store comes unwritten (``np.empty``): the merge must leave in it
    exactly what it left in a zeroed store, whatever the memory held: the survivors' manifolds
    and impulses copied, a new pair's row zero but its coefficients, mixed from its shapes'
    (here by Box2D's rules: sqrt(fa fb), max(ea, eb)). Random old stores and pair lists
    (survivors, new pairs, dropped pairs), the result compared bit for bit for two fills."""
    rng = np.random.default_rng(7)
    for case in range(30):
        n_shapes = int(rng.integers(2, 40))
        every = np.array([(a << 32) | b for a in range(n_shapes) for b in range(a + 1, n_shapes)],
                         dtype=np.int64)
        old_keys = np.sort(rng.choice(every, size=int(rng.integers(0, min(60, every.size))),
                                      replace=False))
        new_keys = np.sort(rng.choice(every, size=int(rng.integers(0, min(60, every.size))),
                                      replace=False))
        old = empty_contacts(old_keys.size)._replace(key=old_keys)
        for name in CONTACT_LAYOUT:
            if name != "key":
                column = getattr(old, name)
                column[...] = rng.normal(size=column.shape) * 100 if column.dtype.kind == "f" \
                    else rng.integers(-5, 5, size=column.shape)
        # the engine's own shape store (a type of the test's own would enter the kernel
        # cache's index, which another process could not load); two shapes a body
        shapes = allocate_store(Shapes, SHAPE_LAYOUT, n_shapes)
        shapes.body[:] = np.arange(n_shapes) // 2
        shapes.friction[:] = rng.uniform(0.0, 2.0, n_shapes)
        shapes.restitution[:] = rng.uniform(0.0, 1.0, n_shapes)
        pairs = np.stack([new_keys >> 32, new_keys & 0xFFFFFFFF], axis=1).astype(np.int64)
        zero = _carried(old, pairs, shapes, 0)
        for fill in (-1, 0x7FF8DEADBEEF0001):
            garbage = _carried(old, pairs, shapes, fill)
            for name in CONTACT_LAYOUT:
                assert getattr(garbage, name).tobytes() == getattr(zero, name).tobytes(), \
                    (case, name)
        # and the zeroed store is the merge's meaning: survivors copied, new rows zero
        at = {int(k): i for i, k in enumerate(old_keys)}
        for i, key in enumerate(new_keys):
            a, b = key >> 32, key & 0xFFFFFFFF
            assert zero.body_a[i] == a // 2 and zero.body_b[i] == b // 2
            mixed = {"friction": math.sqrt(shapes.friction[a] * shapes.friction[b]),
                     "restitution": max(shapes.restitution[a], shapes.restitution[b])}
            for name in CONTACT_LAYOUT:
                if name in ("key", "shape_a", "shape_b", "body_a", "body_b"):
                    continue
                expected = (getattr(old, name)[at[int(key)]] if int(key) in at
                            else mixed.get(name, 0))
                np.testing.assert_array_equal(getattr(zero, name)[i], expected)
