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
from .._core.jit import DirectCall, kernel, cycles
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
from .world_ref import adopt_step_stores, stores_for_step

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
def contact_pairs(shapes, bodies, no_collide):
    """Broadphase and filter: every overlapping pair of shapes that may collide, sorted."""
    if shapes.alive.shape[0] < 2:
        return np.empty((0, 2), dtype=np.int64)
    pairs = find_pairs_kernel(shapes.fat_aabb, shapes.alive, shapes.body, shapes.group,
                              CELL_SCALE, LARGE_CELLS, SWEEP_BELOW)
    return filter_pairs(pairs, shapes, bodies, no_collide)


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

    Returning a store to Python costs about 1.3 us per array (measured: boxing, and building
    the NamedTuple), so unchanged stores are not returned.
    """
    bodies = world.bodies
    shapes = world.shapes
    joints = world.joints
    contacts = world.contacts
    cs = world.constraints
    joint_ids = world.joint_ids
    clock = world.clock
    clock[0] = cycles()
    new_contacts = False
    if update_aabbs(shapes, bodies, AABB_MARGIN) or pairs_dirty:
        pairs = contact_pairs(shapes, bodies, world.no_collide)
        # Usually the pairs are the same while things move, and the store is kept. Otherwise
        # a new one, one row per pair, with the existing contacts' manifolds and impulses.
        if not _same_pairs(contacts.key, pairs):
            fresh = allocate_contacts(pairs.shape[0])
            carry_contacts(contacts, fresh, pairs, shapes)
            contacts = fresh
            new_contacts = True
    clock[1] = cycles()

    # Each stage call passes its stores' arrays on the stack (0.1-0.5 us), so the contact
    # stages are skipped when there are no contacts (a chain, a world of joints only).
    paired = contacts.key.shape[0] > 0
    if paired:
        update_manifolds(contacts, shapes, bodies, SPECULATIVE_DISTANCE, friction_mixing,
                         restitution_mixing)
    clock[2] = cycles()

    if paired:
        order, _ = color_contacts(contacts.count, contacts.body_a, contacts.body_b, bodies.type,
                                  bodies.type.shape[0], COLOR_COUNT)
    else:
        order = np.empty(0, dtype=np.int64)
    touching = order.shape[0] > 0
    new_cs = cs.count.shape[0] != order.shape[0]  # re-used while the count holds
    if new_cs:
        cs = allocate_constraints(order.shape[0])
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
            prepare_contacts(cs, order, contacts, bodies, warm_starting, rate, mass_scale,
                             impulse_scale, s_rate, s_mass_scale, s_impulse_scale)
        prepare_joints(joints, joint_ids, bodies, h, warm_starting)
        clock[3] = cycles()
        solvers.soft_step(cs, bodies, joints, joint_ids, gx, gy, dt, substeps, warm_starting,
                          j_rate, j_mass_scale, j_impulse_scale, contact_speed,
                          restitution_threshold, max_linear_speed, max_angular_speed)
        joint_h = h
    else:
        integrate_velocities(bodies, gx, gy, dt)
        if touching:
            prepare_contacts(cs, order, contacts, bodies, warm_starting, 0.0, 1.0, 0.0, 0.0,
                             1.0, 0.0)
        prepare_joints(joints, joint_ids, bodies, dt, warm_starting)
        clock[3] = cycles()
        solvers.pgs(cs, bodies, joints, joint_ids, dt, iterations, warm_starting, baumgarte,
                    LINEAR_SLOP, contact_speed, restitution_threshold, max_linear_speed,
                    max_angular_speed)
        joint_h = dt
    if touching:
        store_impulses(cs, contacts)
    clock[4] = cycles()

    finalize_bodies(bodies)
    clock[5] = cycles()
    contacts_out = None
    if new_contacts:
        world.contacts = contacts
        contacts_out = contacts
    cs_out = None
    if new_cs:
        world.constraints = cs
        cs_out = cs
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
