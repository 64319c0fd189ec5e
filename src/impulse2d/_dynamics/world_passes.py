"""The contact and body verbs of a step, called with the world's reference instead of its stores.

A call between kernels passes each array of a store as about eight machine words (its data
pointer, shape, strides, memory record): the body store's 34 arrays and the constraint store's
22 are about 450 words, written to the stack by the caller and read back by the callee on every
call (about 0.3 us per call with the stores, measured on the 2-core CI machine: see
:data:`.._core.jit.inline_kernel`). The soft step calls six such verbs per substep, so a small
world paid several microseconds a step for moving arguments, as much as its solve. The
reference (:mod:`.world_ref`) is one pointer: each kernel here takes it, borrows the stores it
needs, and runs the verb's loops compiled in (each verb's ``*_inline`` body, the same code as the
verb called with its stores, so the same bits).

Each kernel is compiled once and called by the solvers that hold ``world``; the verbs with
stores stay for the callers that hold those (the other solvers, the direct solver).
"""

from __future__ import annotations

from .._core.jit import borrowing_kernel
from .contact_solver import (apply_restitution_inline, prepare_contacts_inline,
                             solve_contacts_inline, store_impulses_inline,
                             warm_start_contacts_inline)
from .integrate import (clamp_bodies_inline, finalize_bodies_inline, integrate_positions_inline,
                        integrate_velocities_inline)
from .world_ref import borrow


@borrowing_kernel
def prepare_contacts(world, order, warm_starting, soft_bias_rate, soft_mass_scale,
                     soft_impulse_scale, static_bias_rate, static_mass_scale, static_impulse_scale):
    """:func:`.contact_solver.prepare_contacts` on ``world``'s stores."""
    prepare_contacts_inline(borrow(world, "constraints"), order, borrow(world, "contacts"),
                            borrow(world, "bodies"), warm_starting, soft_bias_rate,
                            soft_mass_scale, soft_impulse_scale, static_bias_rate,
                            static_mass_scale, static_impulse_scale)


@borrowing_kernel
def warm_start_contacts(world):
    """:func:`.contact_solver.warm_start_contacts` on ``world``'s stores."""
    warm_start_contacts_inline(borrow(world, "constraints"), borrow(world, "bodies"))


@borrowing_kernel
def solve_contacts(world, inv_h, use_bias, soft, baumgarte, linear_slop, contact_speed,
                   last_sweep, speed_cap):
    """:func:`.contact_solver.solve_contacts` on ``world``'s stores."""
    solve_contacts_inline(borrow(world, "constraints"), borrow(world, "bodies"), inv_h, use_bias,
                          soft, baumgarte, linear_slop, contact_speed, last_sweep, speed_cap)


@borrowing_kernel
def apply_restitution(world, threshold, speed_cap, gx, gy, half_kick):
    """:func:`.contact_solver.apply_restitution` on ``world``'s stores."""
    apply_restitution_inline(borrow(world, "constraints"), borrow(world, "bodies"), threshold,
                             speed_cap, gx, gy, half_kick)


@borrowing_kernel
def store_impulses(world):
    """:func:`.contact_solver.store_impulses` on ``world``'s stores."""
    store_impulses_inline(borrow(world, "constraints"), borrow(world, "contacts"))


@borrowing_kernel
def integrate_velocities(world, rows, gx, gy, h):
    """:func:`.integrate.integrate_velocities` on ``world``'s bodies ``rows``."""
    integrate_velocities_inline(borrow(world, "bodies"), rows, gx, gy, h)


@borrowing_kernel
def clamp_bodies(world, rows, max_linear_speed, max_angular_speed):
    """:func:`.integrate.clamp_bodies` on ``world``'s bodies ``rows``."""
    clamp_bodies_inline(borrow(world, "bodies"), rows, max_linear_speed, max_angular_speed)


@borrowing_kernel
def integrate_positions(world, rows, h, max_linear_speed, max_angular_speed):
    """:func:`.integrate.integrate_positions` on ``world``'s bodies ``rows``."""
    integrate_positions_inline(borrow(world, "bodies"), rows, h, max_linear_speed,
                               max_angular_speed)


@borrowing_kernel
def finalize_bodies(world, rows, max_linear_speed, max_angular_speed, continuous):
    """:func:`.integrate.finalize_bodies` on ``world``'s bodies ``rows``; returns the number
    of fast bodies."""
    return finalize_bodies_inline(borrow(world, "bodies"), rows, max_linear_speed,
                                  max_angular_speed, continuous)
