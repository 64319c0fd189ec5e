"""The step, as a script of named stages.

Python orchestrates; each stage is one jitted kernel over the world's arrays (the solvers' inner
stage scripts are jitted drivers, see :mod:`solvers`), so there is no per-body or per-contact
Python loop on this path. Each stage's wall time goes into the world's ``Profile``::

    update bounding boxes -> (if any fat box moved) broadphase pairs, filter, merge contacts
    -> narrowphase manifolds (feature ids carry impulses) -> colour the touching contacts
    -> prepare constraints -> solver -> store impulses -> finalize bodies

The solvers share the contact verbs (prepare, warm start, solve with or without bias,
restitution, store impulses); they differ only in the order they call them.
"""

from __future__ import annotations

from time import perf_counter

from .._collision.broadphase import find_pairs
from ..constants import AABB_MARGIN, LINEAR_SLOP, MAX_ROTATION, SPECULATIVE_DISTANCE
from ..settings import MIXING_CODES
from . import solvers
from .constraint_graph import COLOR_COUNT, color_contacts
from .contact_solver import contact_constraints, prepare_contacts, store_impulses
from .contacts import carry_contacts, empty_contacts, filter_pairs, update_manifolds
from .integrate import finalize_bodies, integrate_velocities
from .joint_solver import prepare_joints
from .proxies import update_aabbs
from .softness import RIGID, make_soft


def step_world(world, dt: float) -> None:
    """Advance ``world`` by ``dt`` seconds (already validated)."""
    settings = world.settings
    profile = world.profile
    bodies = world._bodies
    shapes = world._shapes
    t0 = perf_counter()

    moved = update_aabbs(shapes, bodies, AABB_MARGIN)
    if moved or world._pairs_dirty:
        update_pairs(world)
    contacts = world._contacts
    t1 = perf_counter()
    profile.pairs = t1 - t0

    update_manifolds(contacts, shapes, bodies, SPECULATIVE_DISTANCE,
                     MIXING_CODES[settings.friction_mixing], MIXING_CODES[settings.restitution_mixing])
    t2 = perf_counter()
    profile.collide = t2 - t1

    order, _ = color_contacts(contacts.count, contacts.body_a, contacts.body_b, bodies.type,
                              bodies.type.shape[0], COLOR_COUNT)
    cs = world._constraints
    if cs.count.shape[0] != order.shape[0]:  # re-used while the count holds: saves ~20 us
        cs = world._constraints = contact_constraints(order.shape[0])
    joints = world._joints
    joint_ids = world._joint_rows()["by_type"]
    gx, gy = world._gravity
    max_angular_speed = MAX_ROTATION / dt
    warm = settings.warm_starting
    if settings.solver == "soft_step":
        h = dt / settings.substeps
        # Stiffness is capped at a quarter of the substep rate: a spring near the Nyquist rate
        # of its integrator rings instead of settling. Against static bodies contacts are
        # twice as stiff (Box2D v3).
        hertz = min(settings.contact_hertz, 0.25 / h)
        soft = make_soft(hertz, settings.contact_damping_ratio, h)
        static_soft = make_soft(2.0 * hertz, settings.contact_damping_ratio, h)
        joint_soft = make_soft(min(settings.joint_hertz, 0.25 / h), settings.joint_damping_ratio, h)
        prepare_contacts(cs, order, contacts, bodies, warm, *soft, *static_soft)
        prepare_joints(joints, joint_ids, bodies, h, warm)
        t3 = perf_counter()
        solvers.soft_step(cs, bodies, joints, joint_ids, gx, gy, dt, settings.substeps, warm,
                          *joint_soft, settings.contact_speed, settings.restitution_threshold,
                          settings.max_linear_speed, max_angular_speed)
        world._joint_inv_h = 1.0 / h
    else:
        integrate_velocities(bodies, gx, gy, dt)
        prepare_contacts(cs, order, contacts, bodies, warm, *RIGID, *RIGID)
        prepare_joints(joints, joint_ids, bodies, dt, warm)
        t3 = perf_counter()
        solvers.pgs(cs, bodies, joints, joint_ids, dt, settings.velocity_iterations, warm,
                    settings.baumgarte, LINEAR_SLOP, settings.contact_speed,
                    settings.restitution_threshold, settings.max_linear_speed, max_angular_speed)
        world._joint_inv_h = 1.0 / dt
    store_impulses(cs, contacts)
    t4 = perf_counter()
    profile.prepare = t3 - t2
    profile.solve = t4 - t3

    finalize_bodies(bodies)
    t5 = perf_counter()
    profile.finalize = t5 - t4
    profile.step = t5 - t0


def update_pairs(world) -> None:
    """Broadphase, filter, and merge with the existing contacts (which keep their impulses)."""
    shapes = world._shapes
    pairs = find_pairs(shapes.fat_aabb, shapes.alive)
    pairs = filter_pairs(pairs, shapes, world._bodies, world._joint_rows()["no_collide"])
    fresh = empty_contacts(pairs.shape[0])
    carry_contacts(world._contacts, fresh, pairs, shapes)
    world._contacts = fresh
    world._pairs_dirty = False
