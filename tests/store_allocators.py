"""The step's store allocators called from Python, for the store tests: the allocators have no
Python wrapper (only kernels call them), so these jitted calls stand in for one."""

from __future__ import annotations

import numba

from impulse2d._dynamics.contact_solver import allocate_constraints
from impulse2d._dynamics.contacts import allocate_contacts


@numba.njit(cache=False)
def allocate_constraints_py(count, old, rows):
    """:func:`allocate_constraints` from Python."""
    return allocate_constraints(count, old, rows)


@numba.njit(cache=False)
def allocate_contacts_py(count, old):
    """:func:`allocate_contacts` from Python."""
    return allocate_contacts(count, old)
