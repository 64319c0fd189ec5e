"""The step's scratch, kept in the world's reference (:mod:`.world_ref`) from step to step.

A small world's step used to allocate 11 NumPy arrays (each an allocation and a free in
Numba's runtime, about 60-100 ns together): the move buffer of the bounds stage, the narrowphase's three outputs, the colouring's
six arrays and the convergence test's velocities. 1,024 worlds in a batch made 11,267
allocations a step on the settled steps (Numba's NRT counters,
``benchmarks/batch_allocs.py``). They are now views into two arrays of the reference, made
when the reference is built and grown in the step only when a world outgrows them (geometric
growth: a world whose contacts grow one at a time regrows a handful of times). Nothing in them
survives a step's use: each view is written before it is read, so a world's bits do not
depend on what an earlier step, or a step of another world, left there.

``scratch`` (int64): the :data:`HEAD` (the narrowphase's two feature ids, the colouring's
``COLOR_COUNT + 1`` colour sizes and fill positions and ``COLOR_COUNT + 2`` starts), then the
move buffer (one row per shape row), then the colouring's per-body masks (one per body row)
and its colour and order of each contact looked at (two per contact). ``scratch_f``
(float64, (3 + rows, 3)): the narrowphase's normal (row 0) and two points (rows 1-2), then,
when ``velocity_tolerance`` is on, the velocities the sweeps' convergence test compares (one
row per body row).

Each world is stepped by one thread at a time (a batch hands each world to one thread, a
threaded world runs these stages serially), so one scratch a world is enough. A batch lends
each world its thread's scratch for the step instead (:func:`.batch_step.step_batch`): a
world's own, among a thousand worlds, is out of the cache, as the freed blocks the
allocations reused were not.
"""

from __future__ import annotations

import numpy as np

from .._core.jit import inline_kernel, inner_kernel, kernel
from .constraint_graph import COLOR_COUNT

IDS = 0  # the narrowphase's two feature ids
SIZES = IDS + 2  # the colouring's colour sizes (COLOR_COUNT + 1, the overflow last)
FILL = SIZES + COLOR_COUNT + 1  # the next free position of each colour in the order
STARTS = FILL + COLOR_COUNT + 1  # each colour's first position (COLOR_COUNT + 2)
HEAD = STARTS + COLOR_COUNT + 2
"""Entries of ``scratch`` before the move buffer (77 with Box2D v3's 24 colours)."""

POINTS = 3
"""Rows of ``scratch_f`` before the velocities (the narrowphase's normal and two points)."""


@kernel
def new_scratch(shape_rows, body_rows, contact_rows):
    """The two scratch arrays of a new reference: ``scratch`` sized for the move buffer of
    ``shape_rows``, masks of ``body_rows`` and ``contact_rows`` contacts, ``scratch_f`` for
    the narrowphase alone (the velocities' rows are added the first time a step needs them)."""
    return (np.zeros(HEAD + shape_rows + body_rows + 2 * contact_rows, dtype=np.int64),
            np.zeros((POINTS, 3)))


# The step kernel counts references (it makes stores); a view it held of the scratch was an
# atomic increment and decrement of the scratch's count for each view and each kernel it
# passed through (87 atomic operations a step of 5 balls, 31 of them in the step kernel and 32
# in the colouring and these views, counted in gdb, 2026-11-29). So the step only checks the
# sizes (:func:`short`) and grows the scratch when a world outgrows it (:func:`grow`, which
# counts references, rarely called); the views are taken where they are used, in kernels that
# count no references, of the borrowed arrays (the functions below take the arrays, not the
# world: :mod:`.world_ref` imports this module, so it cannot borrow here).


@inline_kernel
def short(scratch, size):
    """Whether ``scratch`` is shorter than ``size`` (then :func:`grow` it first)."""
    return scratch.shape[0] < size


@inner_kernel
def grow(world, size):
    """``world.scratch`` regrown to twice ``size`` (the contents need not survive: geometric
    growth, a world whose contacts grow one at a time regrows a handful of times). (The
    reference's field is set by name: this kernel counts references.)"""
    world.scratch = np.zeros(2 * size, dtype=np.int64)


@inline_kernel
def move_size(shape_rows):
    """Entries of ``scratch`` the move buffer of ``shape_rows`` shape rows needs."""
    return HEAD + shape_rows


@inline_kernel
def move_view(scratch, shape_rows):
    """The bounds stage's move buffer: one entry per shape row (the shapes whose fat box
    changed, :func:`.proxies.update_aabbs`)."""
    return scratch[HEAD: HEAD + shape_rows]


@inline_kernel
def narrow_views(scratch, scratch_f):
    """The narrowphase's outputs, as :func:`.._collision.manifold.collide` fills them: the
    normal (3 entries, the first 2 used), the points (2, 3) (x, y, separation) and the two
    feature ids, zeroed, as the fresh arrays they replace were: a pair that makes no points
    stores the normal left there (the pass's last one, zero for the first), so each stage's
    pass starts from zeros, whatever the last step of the world left."""
    ids = scratch[IDS: IDS + 2]
    scratch_f[:POINTS] = 0.0
    ids[:] = 0
    return scratch_f[0], scratch_f[1:POINTS], ids


@inline_kernel
def colour_size(shape_rows, body_rows, contacts):
    """Entries of ``scratch`` the colouring of up to ``contacts`` contacts needs
    (:func:`colour_views`)."""
    return HEAD + shape_rows + body_rows + 2 * contacts


@inline_kernel
def colour_views(scratch, shape_rows, body_rows, contacts):
    """The colouring's scratch for up to ``contacts`` contacts of a world of ``body_rows`` body
    rows (:func:`.constraint_graph.color_contacts_into`): per-body masks, each contact's
    colour, the order, the colours' sizes, fill positions and starts; and where the order
    starts (:func:`order_view`). They follow the move buffer (of ``shape_rows``), which is dead
    by then (the pair stage has run), yet are kept apart from it so that neither depends on
    the other."""
    used = HEAD + shape_rows
    color = used + body_rows
    order = color + contacts
    return (scratch[used:color], scratch[color:order], scratch[order: order + contacts],
            scratch[SIZES: SIZES + COLOR_COUNT + 1], scratch[FILL: FILL + COLOR_COUNT + 1],
            scratch[STARTS: STARTS + COLOR_COUNT + 2], order)


@inline_kernel
def order_view(scratch, at, n):
    """The solve order the colouring left at ``at`` (``n`` rows)."""
    return scratch[at: at + n]


@inline_kernel
def starts_view(scratch):
    """Each colour's first position in the solve order (``COLOR_COUNT + 2``)."""
    return scratch[STARTS: STARTS + COLOR_COUNT + 2]


@inline_kernel
def velocities_short(scratch_f, rows):
    """Whether ``scratch_f`` lacks the rows of :func:`velocity_view` (then
    :func:`grow_velocities` first)."""
    return scratch_f.shape[0] < POINTS + rows


@inner_kernel
def grow_velocities(world, rows):
    """``world.scratch_f`` regrown to hold the velocities of ``rows`` body rows."""
    world.scratch_f = np.zeros((POINTS + rows, 3))


@inline_kernel
def velocity_view(scratch_f, rows):
    """The (``rows``, 3) velocities of the sweeps' convergence test (body rows while
    ``WorldSettings.velocity_tolerance`` > 0, else 0: an empty view)."""
    return scratch_f[POINTS: POINTS + rows]


__all__ = ["HEAD", "POINTS", "new_scratch", "short", "grow", "move_size", "move_view",
           "narrow_views", "colour_size", "colour_views", "order_view", "starts_view",
           "velocities_short", "grow_velocities", "velocity_view"]
