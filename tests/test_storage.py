"""The stores the step allocates inside compiled code match their declared layouts."""

from __future__ import annotations

import numpy as np
import pytest

from impulse2d._dynamics.lane_layout import CHUNK, FIELDS, lane_rows
from impulse2d._dynamics.contact_solver import (CONSTRAINT_LAYOUT, ContactConstraints,
                                                allocate_constraints, contact_constraints)
from impulse2d._dynamics.contacts import (CONTACT_LAYOUT, Contacts, allocate_contacts,
                                          empty_contacts)


@pytest.mark.parametrize("store_type, layout, in_kernel, in_python", [
    (Contacts, CONTACT_LAYOUT, allocate_contacts, empty_contacts),
    (ContactConstraints, CONSTRAINT_LAYOUT,
     lambda n: allocate_constraints(n, np.zeros((0, FIELDS)), lane_rows(n)), contact_constraints),
])
def test_kernel_allocators_follow_the_layout(store_type, layout, in_kernel, in_python):
    assert list(layout) == list(store_type._fields)
    made, reference = in_kernel(3), in_python(3)
    assert type(made) is store_type
    for name, (dtype, shape) in layout.items():
        column = getattr(made, name)
        assert column.dtype == np.dtype(dtype), name
        rows = lane_rows(3) if store_type is ContactConstraints and name == "lanes" else 3
        assert column.shape == (rows, *shape), name  # the wide solver's lanes: whole chunks
        assert column.flags.c_contiguous and not column.any(), name
        assert column.dtype == getattr(reference, name).dtype
        assert column.shape == getattr(reference, name).shape, name


def test_a_new_constraint_store_keeps_the_lanes_that_fit():
    """The step makes a new constraint store whenever its row count changes; the wide
    solver's lanes (as large as the rest of the store) are kept while they hold the rows and
    no more than twice as many, else made anew at the new size."""
    def lanes_of(count, lanes):
        return allocate_constraints(count, lanes, lane_rows(count)).lanes

    lanes = lanes_of(CHUNK + 1, np.zeros((0, FIELDS)))
    assert lanes.shape == (2 * CHUNK, FIELDS)
    assert lanes_of(CHUNK + 5, lanes) is lanes        # fits
    assert lanes_of(CHUNK, lanes) is lanes            # twice as many
    assert lanes_of(CHUNK - 1, lanes) is lanes
    grown = lanes_of(2 * CHUNK + 1, lanes)            # too small
    assert grown is not lanes and grown.shape == (3 * CHUNK, FIELDS)
    shrunk = lanes_of(3, grown)                       # more than twice
    assert shrunk is not grown and shrunk.shape == (CHUNK, FIELDS)


def test_a_store_solved_row_by_row_has_no_lanes():
    """A world whose contacts are solved row by row (fewer than MIN_BODIES dynamic bodies)
    never reads the lanes: its stores have none (a 64-row chunk is 25 KB, more than the rest
    of a 10-body world's stores), and a world that had them drops them at its next store."""
    assert allocate_constraints(11, np.zeros((0, FIELDS)), 0).lanes.shape == (0, FIELDS)
    assert allocate_constraints(11, np.zeros((CHUNK, FIELDS)), 0).lanes.shape == (0, FIELDS)
