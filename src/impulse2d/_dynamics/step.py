"""The step, as a script of named stages.

Python orchestrates; each stage is one jitted kernel over the world's arrays, so there is no
per-body or per-contact Python loop on this path. Each stage's wall time goes into the world's
:class:`~impulse2d.world.Profile`.

::

    update bounding boxes -> (if any fat box moved) broadphase pairs, filter, merge contacts
    -> narrowphase manifolds (feature ids carry impulses) -> solver -> finalize bodies

The solvers share the contact verbs (prepare, warm start, solve with or without bias,
restitution); they differ only in the order they call them. Accumulated impulses live in the
contact rows themselves, so "store impulses" needs no stage of its own.
"""

from __future__ import annotations

from time import perf_counter


from .._collision.broadphase import find_pairs
from ..constants import AABB_MARGIN, LINEAR_SLOP, MAX_ROTATION, SPECULATIVE_DISTANCE
from ..settings import MIXING_CODES
from .contact_solver import (accumulate_impulses, apply_restitution, prepare_contacts, solve_contacts,
                             warm_start_contacts)
from .contacts import carry_contacts, empty_contacts, filter_pairs, update_manifolds
from .integrate import finalize_bodies, integrate_positions, integrate_velocities
from .proxies import update_aabbs
from .softness import make_soft


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

    gx, gy = world._gravity
    max_angular_speed = MAX_ROTATION / dt
    if settings.solver == "soft_step":
        _soft_step(world, bodies, contacts, dt, gx, gy, max_angular_speed)
    else:
        _pgs(world, bodies, contacts, dt, gx, gy, max_angular_speed)
    t3 = perf_counter()
    profile.solve = t3 - t2

    finalize_bodies(bodies)
    t4 = perf_counter()
    profile.finalize = t4 - t3
    profile.step = t4 - t0


def update_pairs(world) -> None:
    """Broadphase, filter, and merge with the existing contacts (which keep their impulses)."""
    shapes = world._shapes
    pairs = find_pairs(shapes.fat_aabb, shapes.alive)
    pairs = filter_pairs(pairs, shapes, world._bodies)
    fresh = empty_contacts(pairs.shape[0])
    carry_contacts(world._contacts, fresh, pairs, shapes)
    world._contacts = fresh
    world._pairs_dirty = False


def _soft_step(world, bodies, contacts, dt, gx, gy, max_angular_speed) -> None:
    """Box2D v3's soft step: substeps of integrate / warm start / solve / integrate / relax."""
    settings = world.settings
    n = settings.substeps
    h = dt / n
    inv_h = 1.0 / h
    # Contact stiffness is capped at a quarter of the substep rate: a spring near the Nyquist
    # rate of its integrator rings instead of settling. Against static bodies it is doubled.
    hertz = min(settings.contact_hertz, 0.25 * inv_h)
    soft = make_soft(hertz, settings.contact_damping_ratio, h)
    static_soft = make_soft(2.0 * hertz, settings.contact_damping_ratio, h)
    slop = LINEAR_SLOP
    speed = settings.contact_speed
    prepare_contacts(contacts, bodies, settings.warm_starting, *soft, *static_soft)
    for _ in range(n):
        integrate_velocities(bodies, gx, gy, h)
        if settings.warm_starting:
            warm_start_contacts(contacts, bodies)
        solve_contacts(contacts, bodies, inv_h, True, True, 0.0, slop, speed)
        integrate_positions(bodies, h, settings.max_linear_speed, max_angular_speed)
        solve_contacts(contacts, bodies, inv_h, False, True, 0.0, slop, speed)
        accumulate_impulses(contacts)
    apply_restitution(contacts, bodies, settings.restitution_threshold)


def _pgs(world, bodies, contacts, dt, gx, gy, max_angular_speed) -> None:
    """Classic sequential impulses: one semi-implicit Euler step with Baumgarte bias."""
    settings = world.settings
    inv_h = 1.0 / dt
    integrate_velocities(bodies, gx, gy, dt)
    # Softness is unused by pgs; rigid coefficients keep the prepared rows meaningful.
    prepare_contacts(contacts, bodies, settings.warm_starting, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0)
    if settings.warm_starting:
        warm_start_contacts(contacts, bodies)
    for _ in range(settings.velocity_iterations):
        solve_contacts(contacts, bodies, inv_h, True, False, settings.baumgarte, LINEAR_SLOP,
                       settings.contact_speed)
    accumulate_impulses(contacts)
    apply_restitution(contacts, bodies, settings.restitution_threshold)
    integrate_positions(bodies, dt, settings.max_linear_speed, max_angular_speed)


__all__ = ["step_world", "update_pairs"]

