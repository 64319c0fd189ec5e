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

from .._core.jit import inner_kernel, kernel
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


@inner_kernel
def _ensure(world, size):
    """``world.scratch`` at least ``size`` long: regrown to twice the size asked for when it is
    shorter (the contents need not survive). (The reference's fields are read by name here, in
    kernels that count references, not borrowed: :mod:`.world_ref` imports this module.)"""
    if world.scratch.shape[0] < size:
        world.scratch = np.zeros(2 * size, dtype=np.int64)
    return world.scratch


@inner_kernel
def move_buffer(world, shape_rows):
    """The bounds stage's move buffer: one entry per shape row (the shapes whose fat box
    changed, :func:`.proxies.update_aabbs`)."""
    return _ensure(world, HEAD + shape_rows)[HEAD: HEAD + shape_rows]


@inner_kernel
def narrow_outputs(world):
    """The narrowphase's outputs, as :func:`.._collision.manifold.collide` fills them: the
    normal (3 entries, the first 2 used), the points (2, 3) (x, y, separation) and the two
    feature ids, zeroed, as the fresh arrays they replace were: a pair that makes no points
    stores the normal left there (the pass's last one, zero for the first), so each stage's
    pass starts from zeros, whatever the last step of the world left."""
    f = world.scratch_f
    ids = world.scratch[IDS: IDS + 2]
    f[:POINTS] = 0.0
    ids[:] = 0
    return f[0], f[1:POINTS], ids


@inner_kernel
def colour_buffers(world, shape_rows, body_rows, contacts):
    """The colouring's scratch for up to ``contacts`` contacts of a world of ``body_rows`` body
    rows (:func:`.constraint_graph.color_contacts_into`): per-body masks, each contact's
    colour, the order, the colours' sizes, fill positions and starts. They follow the move
    buffer (of ``shape_rows``), which is dead by then (the pair stage has run), yet are kept
    apart from it so that neither depends on the other."""
    used = HEAD + shape_rows
    color = used + body_rows
    order = color + contacts
    s = _ensure(world, order + contacts)
    return (s[used:color], s[color:order], s[order: order + contacts],
            s[SIZES: SIZES + COLOR_COUNT + 1], s[FILL: FILL + COLOR_COUNT + 1],
            s[STARTS: STARTS + COLOR_COUNT + 2])


@inner_kernel
def velocity_buffer(world, rows):
    """The (``rows``, 3) velocities of the sweeps' convergence test (body rows while
    ``WorldSettings.velocity_tolerance`` > 0, else 0: an empty view)."""
    if world.scratch_f.shape[0] < POINTS + rows:
        world.scratch_f = np.zeros((POINTS + rows, 3))
    return world.scratch_f[POINTS: POINTS + rows]


__all__ = ["HEAD", "POINTS", "new_scratch", "move_buffer", "narrow_outputs", "colour_buffers",
           "velocity_buffer"]
