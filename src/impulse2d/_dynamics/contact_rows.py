"""The contact solver's row passes on a world: each borrows the constraint rows and the body
(or contact) store from the world's reference itself and runs :mod:`.contact_solver`'s pass,
compiled in, on the rows ``first:last``.

Why the world, not the stores: a call between kernels passes every array of a store as its
own handful of values, ~700 instructions of IR at each call site for the constraint and body
stores, which Numba's lowering writes out and LLVM's function passes (SROA) take apart again,
at every site of every caller (``benchmarks/ir_lines.py``: 3,300 of ``rows_entry``'s 3,450
instructions were its three calls and the rows' slice; ``pgs_ngs``' sweeps, opening and
closing one call each). The world is one pointer; each pass is one kernel, whatever calls it.
(A module of its own: :mod:`.world_ref` imports :mod:`.contact_solver` for the store's type.)

The rows ``first:last`` are ``int64`` and the flags ``np.bool_`` values at every call (the
inline wrappers make them so): a literal of one caller typed a kernel a signature of its own,
a second compile of it in a process that has both callers (1.3 s of CPU for the sweep,
BENCHMARKS.md, session 29, ``warmR54``).
"""

from __future__ import annotations

import numpy as np

from .._core.jit import borrowing_kernel, inline_kernel
from .contact_solver import (apply_restitution, prepare_serial, solve_contacts, store_impulses,
                             warm_start_contacts)
from .world_ref import borrow, borrow_column


@inline_kernel
def row_count(world):
    """The rows of the world's constraint store: the step's touching contacts."""
    return borrow_column(world, "constraints", "count").shape[0]


@borrowing_kernel
def _warm_start_rows(world, first, last):
    warm_start_contacts(borrow(world, "constraints"), borrow(world, "bodies"), first, last)


@inline_kernel
def warm_start_rows(world, first, last):
    """:func:`.contact_solver.warm_start_contacts` on the world's rows ``first:last``."""
    _warm_start_rows(world, np.int64(first), np.int64(last))


@borrowing_kernel
def _solve_rows(world, first, last, inv_h, use_bias, soft, baumgarte, linear_slop,
                contact_speed, last_sweep, speed_cap):
    solve_contacts(borrow(world, "constraints"), borrow(world, "bodies"), first, last, inv_h,
                   use_bias, soft, baumgarte, linear_slop, contact_speed, last_sweep, speed_cap)


@inline_kernel
def solve_rows(world, first, last, inv_h, use_bias, soft, baumgarte, linear_slop, contact_speed,
               last_sweep, speed_cap):
    """:func:`.contact_solver.solve_contacts` (its arguments) on the world's rows
    ``first:last``."""
    _solve_rows(world, np.int64(first), np.int64(last), inv_h, np.bool_(use_bias),
                np.bool_(soft), baumgarte, linear_slop, contact_speed, np.bool_(last_sweep),
                speed_cap)


@borrowing_kernel
def _restitution_rows(world, first, last, threshold, speed_cap, gx, gy, half_kick):
    apply_restitution(borrow(world, "constraints"), borrow(world, "bodies"), first, last,
                      threshold, speed_cap, gx, gy, half_kick)


@inline_kernel
def restitution_rows(world, first, last, threshold, speed_cap, gx, gy, half_kick):
    """:func:`.contact_solver.apply_restitution` (its arguments) on the world's rows
    ``first:last``."""
    _restitution_rows(world, np.int64(first), np.int64(last), threshold, speed_cap, gx, gy,
                      half_kick)


@borrowing_kernel
def _store_row_impulses(world, first, last):
    store_impulses(borrow(world, "constraints"), borrow(world, "contacts"), first, last)


@inline_kernel
def store_row_impulses(world, first, last):
    """:func:`.contact_solver.store_impulses` of the world's rows ``first:last`` into its
    contacts."""
    _store_row_impulses(world, np.int64(first), np.int64(last))


@borrowing_kernel
def _prepare_serial_rows(world, order, first, warm_starting, rate, mass_scale, impulse_scale,
                         s_rate, s_mass_scale, s_impulse_scale):
    prepare_serial(borrow(world, "constraints"), order, borrow(world, "contacts"),
                   borrow(world, "bodies"), first, warm_starting,
                   (rate, mass_scale, impulse_scale), (s_rate, s_mass_scale, s_impulse_scale))


@inline_kernel
def prepare_serial_rows(world, order, first, warm_starting, rate, mass_scale, impulse_scale,
                        s_rate, s_mass_scale, s_impulse_scale):
    """:func:`.contact_solver.prepare_contacts` of the contacts ``order`` into the world's rows
    from ``first`` (not into lanes: :func:`.contact_solver.prepare_serial`), with the soft
    coefficients ``rate, mass_scale, impulse_scale`` and those against bodies contact cannot
    move, ``s_*`` (rigid rows: ``0.0, 1.0, 0.0`` for both)."""
    _prepare_serial_rows(world, order, np.int64(first), np.bool_(warm_starting), rate,
                         mass_scale, impulse_scale, s_rate, s_mass_scale, s_impulse_scale)
