"""The stores the step allocates inside compiled code match their declared layouts."""

from __future__ import annotations

import numpy as np
import pytest

from impulse2d._dynamics.contact_lanes import lane_rows
from impulse2d._dynamics.contact_solver import (CONSTRAINT_LAYOUT, ContactConstraints,
                                                allocate_constraints, contact_constraints)
from impulse2d._dynamics.contacts import (CONTACT_LAYOUT, Contacts, allocate_contacts,
                                          empty_contacts)


@pytest.mark.parametrize("store_type, layout, in_kernel, in_python", [
    (Contacts, CONTACT_LAYOUT, allocate_contacts, empty_contacts),
    (ContactConstraints, CONSTRAINT_LAYOUT, allocate_constraints, contact_constraints),
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
