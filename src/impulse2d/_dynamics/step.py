"""The step, as a script of named stages, run as one compiled call.

::

    update bounding boxes -> (if any fat box moved) broadphase pairs, filter, merge contacts
    -> narrowphase manifolds (feature ids carry impulses) -> colour the touching contacts
    -> prepare constraints -> solver -> store impulses -> finalize bodies

The whole script is one kernel, :func:`step_kernel`, called through :class:`DirectCall`: each
call from Python into compiled code costs a toll for its arguments (about 0.07 us per array,
0.35 us with Numba's usual typing), and a world's stores hold about 125 arrays. Calling each
stage separately cost 0.2-0.3 ms a step, more than the whole solve of a 100-link chain; one
call pays the toll once, and the stores travel behind one reference (:mod:`world_ref`), so
the toll is a few scalars. The solvers share the contact verbs (prepare, warm start, solve
with or without bias, restitution, store impulses) and differ only in the order they call them
(:mod:`solvers`).

Each stage's share of the step is read from the CPU's cycle counter inside the kernel and
scaled to the step's wall time for the world's ``Profile``.
"""

from __future__ import annotations

from time import perf_counter

import numpy as np

from .._collision.broadphase import CELL_SCALE, LARGE_CELLS, SWEEP_BELOW, find_pairs_kernel
from .._core.jit import DirectCall, borrowing_kernel, kernel, cycles
from ..constants import AABB_MARGIN, LINEAR_SLOP, MAX_ROTATION, SPECULATIVE_DISTANCE
from ..settings import MIXING_CODES
from . import solvers
from .constraint_graph import COLOR_COUNT, color_contacts
from .contact_solver import allocate_constraints, prepare_contacts, store_impulses
from .contacts import allocate_contacts, carry_contacts, filter_pairs, update_manifolds
from .integrate import finalize_bodies, integrate_velocities
from .joint_solver import prepare_joints
from .proxies import update_aabbs
from .softness import soft_coefficients
from .world_ref import adopt_step_stores, borrow, borrow_column, stores_for_step

STAGES = ("pairs", "collide", "prepare", "solve", "finalize")
"""The ``Profile`` fields, in the order of the clock readings of :func:`step_kernel`."""


@kernel
def _same_pairs(keys, pairs):
    if keys.shape[0] != pairs.shape[0]:
        return False
    for k in range(keys.shape[0]):
        if keys[k] != (pairs[k, 0] << 32) | pairs[k, 1]:
            return False
    return True


@kernel
def contact_pairs(world):
    """Broadphase and filter: every overlapping pair of shapes that may collide, sorted."""
    alive = borrow_column(world, "shapes", "alive")
    if alive.shape[0] < 2:
        return np.empty((0, 2), dtype=np.int64)
    body = borrow_column(world, "shapes", "body")
    group = borrow_column(world, "shapes", "group")
    pairs = find_pairs_kernel(borrow_column(world, "shapes", "fat_aabb"), alive, body, group,
                              CELL_SCALE, LARGE_CELLS, SWEEP_BELOW)
    return filter_pairs(pairs, body, borrow_column(world, "bodies", "type"),
                        borrow_column(world, "shapes", "is_sensor"), group,
                        borrow_column(world, "shapes", "category"),
                        borrow_column(world, "shapes", "mask"), borrow(world, "no_collide"))


@borrowing_kernel
def _update_bounds(world):
    return update_aabbs(borrow(world, "shapes"), borrow(world, "bodies"), AABB_MARGIN)


@kernel
def _update_pairs(world):
    """Search the pairs again; a new contact store if they changed (True), else the old one is
    kept (False: usually, while things move, the pairs stay the same)."""
    pairs = contact_pairs(world)
    if _same_pairs(borrow_column(world, "contacts", "key"), pairs):
        return False
    # A new store, one row per pair, with the existing contacts' manifolds and impulses.
    fresh = allocate_contacts(pairs.shape[0])
    carry_contacts(world.contacts, fresh, pairs, world.shapes)
    world.contacts = fresh
    return True


@kernel
def _collide(world, friction_mixing, restitution_mixing):
    """Narrowphase manifolds; False when there are no contacts at all."""
    if borrow_column(world, "contacts", "key").shape[0] == 0:
        return False
    update_manifolds(world.contacts, world.shapes, world.bodies, SPECULATIVE_DISTANCE,
                     friction_mixing, restitution_mixing)
    return True


@kernel
def _colour(world):
    """The touching contacts in solver order (by colour)."""
    bodies_type = borrow_column(world, "bodies", "type")
    order, _ = color_contacts(borrow_column(world, "contacts", "count"),
                              borrow_column(world, "contacts", "body_a"),
                              borrow_column(world, "contacts", "body_b"), bodies_type,
                              bodies_type.shape[0], COLOR_COUNT)
    return order


@borrowing_kernel
def _constraint_count(world):
    return borrow(world, "constraints").count.shape[0]


@borrowing_kernel
def _solve(world, order, dt, gx, gy, soft_step, substeps, iterations, warm_starting,
           contact_hertz, contact_damping_ratio, joint_hertz, joint_damping_ratio, contact_speed,
           restitution_threshold, max_linear_speed, baumgarte):
    """Prepare the constraints, run the solver, store the impulses and finalize the bodies.
    Returns the (sub)step the joint impulses were accumulated over."""
    bodies = borrow(world, "bodies")
    joints = borrow(world, "joints")
    joint_ids = borrow(world, "joint_ids")
    cs = borrow(world, "constraints")
    clock = borrow(world, "clock")
    touching = order.shape[0] > 0
    max_angular_speed = MAX_ROTATION / dt
    if soft_step:
        h = dt / substeps
        # Stiffness is capped at a quarter of the substep rate: a spring near the Nyquist rate
        # of its integrator rings instead of settling. Against static bodies contacts are
        # twice as stiff (Box2D v3).
        hertz = min(contact_hertz, 0.25 / h)
        rate, mass_scale, impulse_scale = soft_coefficients(hertz, contact_damping_ratio, h)
        s_rate, s_mass_scale, s_impulse_scale = soft_coefficients(2.0 * hertz,
                                                                  contact_damping_ratio, h)
        j_rate, j_mass_scale, j_impulse_scale = soft_coefficients(min(joint_hertz, 0.25 / h),
                                                                  joint_damping_ratio, h)
        if touching:
            prepare_contacts(cs, order, borrow(world, "contacts"), bodies, warm_starting, rate,
                             mass_scale, impulse_scale, s_rate, s_mass_scale, s_impulse_scale)
        prepare_joints(joints, joint_ids, bodies, h, warm_starting)
        clock[3] = cycles()
        solvers.soft_step(cs, bodies, joints, joint_ids, gx, gy, dt, substeps, warm_starting,
                          j_rate, j_mass_scale, j_impulse_scale, contact_speed,
                          restitution_threshold, max_linear_speed, max_angular_speed)
        joint_h = h
    else:
        integrate_velocities(bodies, gx, gy, dt)
        if touching:
            prepare_contacts(cs, order, borrow(world, "contacts"), bodies, warm_starting, 0.0,
                             1.0, 0.0, 0.0, 1.0, 0.0)
        prepare_joints(joints, joint_ids, bodies, dt, warm_starting)
        clock[3] = cycles()
        solvers.pgs(cs, bodies, joints, joint_ids, dt, iterations, warm_starting, baumgarte,
                    LINEAR_SLOP, contact_speed, restitution_threshold, max_linear_speed,
                    max_angular_speed)
        joint_h = dt
    if touching:
        store_impulses(cs, borrow(world, "contacts"))
    clock[4] = cycles()

    finalize_bodies(bodies)
    clock[5] = cycles()
    return joint_h


@kernel
def step_kernel(world, pairs_dirty, dt, gx, gy, soft_step, substeps, iterations, warm_starting,
                contact_hertz, contact_damping_ratio, joint_hertz, joint_damping_ratio,
                contact_speed, restitution_threshold, max_linear_speed, baumgarte, friction_mixing,
                restitution_mixing):
    """Advance the stores of ``world`` (a :data:`~.world_ref.WORLD_STORES` reference) by ``dt``.

    Returns the new contact store and the new constraint store (each None when the step kept
    the old one; the reference holds the new ones already) and the (sub)step the joint impulses
    were accumulated over. ``world.clock`` receives the cycle counter before each stage and at
    the end (see :data:`STAGES`).

    This kernel only allocates (new pairs, contact stores, colour order); the stages that
    neither allocate nor return arrays run in borrowing kernels, which count no references.
    Returning a store to Python costs about 1.3 us per array (measured: boxing, and building
    the NamedTuple), so unchanged stores are not returned.
    """
    clock = borrow(world, "clock")
    clock[0] = cycles()
    new_contacts = False
    if _update_bounds(world) or pairs_dirty:
        new_contacts = _update_pairs(world)
    clock[1] = cycles()

    # The contact stages are skipped when there are no contacts (a chain, a world of joints
    # only): each passes its stores' arrays on the stack (0.1-0.5 us).
    paired = _collide(world, friction_mixing, restitution_mixing)
    clock[2] = cycles()

    order = _colour(world) if paired else np.empty(0, dtype=np.int64)
    new_cs = _constraint_count(world) != order.shape[0]  # re-used while the count holds
    if new_cs:
        world.constraints = allocate_constraints(order.shape[0])
    joint_h = _solve(world, order, dt, gx, gy, soft_step, substeps, iterations, warm_starting,
                     contact_hertz, contact_damping_ratio, joint_hertz, joint_damping_ratio,
                     contact_speed, restitution_threshold, max_linear_speed, baumgarte)
    contacts_out = world.contacts if new_contacts else None
    cs_out = world.constraints if new_cs else None
    return contacts_out, cs_out, joint_h


_step = DirectCall(step_kernel)


def _settings_arguments(s) -> tuple:
    """The settings as :func:`step_kernel` takes them (after ``gy``), converted once per change
    of the settings rather than once per step."""
    packed = s._derived
    if packed is None:
        packed = (s.solver == "soft_step", int(s.substeps), int(s.velocity_iterations),
                  bool(s.warm_starting), float(s.contact_hertz), float(s.contact_damping_ratio),
                  float(s.joint_hertz), float(s.joint_damping_ratio), float(s.contact_speed),
                  float(s.restitution_threshold), float(s.max_linear_speed), float(s.baumgarte),
                  MIXING_CODES[s.friction_mixing], MIXING_CODES[s.restitution_mixing])
        object.__setattr__(s, "_derived", packed)
    return packed


def step_world(world, dt: float) -> None:
    """Advance ``world`` by ``dt`` seconds (already validated)."""
    stores = stores_for_step(world)
    gx, gy = world._gravity
    t0 = perf_counter()
    contacts, constraints, joint_h = _step(stores, bool(world._pairs_dirty), float(dt), float(gx),
                                           float(gy), *_settings_arguments(world.settings))
    world._step_seconds = perf_counter() - t0
    adopt_step_stores(world, contacts, constraints)
    world._pairs_dirty = False
    world._joint_inv_h = 1.0 / joint_h
