"""A terrain's segments moved in place: a new episode's ground written into the rows of the
ground the environment's snapshot restored, instead of a ground made anew.

A native environment's snapshot (what a reset restores) holds the world with its terrain
already made, of the right shape (the same number of segments on the same static body,
made in the same order), so a reset restores it with the rest of the world, one copy of the
world's arrays, and then gives the segments the episode's end points here. Making the
terrain anew after restoring a world without it cost a reset most of its time (measured
2026-11-28, one LunarLander world: ``World.restore`` of the world as built and the moon's
chain made anew 1.5 ms; the restore of a snapshot that has the moon, its arrays of the same
size, 0.08 ms).

:meth:`Segments.move` moves the same segments of many worlds at once (a masked reset's
worlds): the columns are computed and written into every world in one compiled pass, through
the worlds' step references (a batch's: no Python per world; the row
assignments world by world were 0.4 us of an environment step of 1,024 landers, most of a
reset's terrain, with the machine's caches cold, 2026-11-30). What it writes is what
``Body.create_segment`` / ``Body.create_chain`` write for those end points
(``make_segment``'s vertices, normals and centroid, the arithmetic of
``_collision.geometry.segment_arrays``, and for a chain its ghost vertices and its back
normal cleared), the shapes' boxes as a new shape's (the broadphase picks them
up in the next step), the static body's extent (what ``World._update_mass`` computes, with
the arithmetic of ``impulse2d._batch._write_extents``), and the world's flag for changed
shapes (its pairs are found again). So a world reset this way equals, bit for bit, one whose
terrain was made anew after the restore, when the rows are the same
(``tests/test_envs_segments.py``).

It is only for worlds just restored from a snapshot taken before their terrain was stepped:
no contact or pair holds those shapes yet, and the restore dropped their query indexes.
"""

from __future__ import annotations

import math

import numpy as np

from .._core.jit import DirectCall, kernel
from .._dynamics.step import PAIRS_DIRTY
from .._dynamics.world_ref import borrow
from ..constants import LINEAR_SLOP
from ..world import _reach
from ._hypot import hypot


class Segments:
    """The segments ``rows`` (shape rows of the static body ``body``, at the world's origin,
    unrotated) that every world of a batch has at the same rows (each made the same way from
    one template), as in ``world``, one of them: what :meth:`move` needs of them that a move
    does not change (their radius, and the reach of the body's other shapes, which are not
    moved). ``chain``: they are an open chain's, each beginning where the one before ends,
    one-sided, with ghost vertices (``_collision.chain.chain_ghosts``' rule); else two-sided
    segments."""

    def __init__(self, world, body: int, rows: list, chain: bool = False) -> None:
        self.body = body
        self.rows = np.asarray(rows, dtype=np.int64)
        self.chain = chain
        sh = world._shapes
        self.radius = np.ascontiguousarray(sh.radius[self.rows])
        # the body's other shapes reach as far in every world and episode (world._reach)
        moved = set(rows)
        self.others = max((_reach(sh, s, (0.0, 0.0)) for s in world._body_shapes[body]
                           if s not in moved), default=-math.inf)

    def move(self, refs, a: np.ndarray, b: np.ndarray) -> None:
        """New end points: in the world of ``refs[k]`` (the step references of the worlds, as
        ``WorldBatch`` keeps them, of worlds just restored: see the module's docstring)
        ``a[k]`` to ``b[k]`` ((worlds, segments, 2) arrays, m, each pair more than
        ``LINEAR_SLOP`` apart; for a chain ``a[k, s + 1] == b[k, s]``). Raises ValueError
        before any world changes if a segment is too short."""
        a = np.ascontiguousarray(a, dtype=np.float64)
        b = np.ascontiguousarray(b, dtype=np.float64)
        if not _move.entry(refs, self.body, self.rows, a, b, self.chain, self.radius,
                           self.others, LINEAR_SLOP, PAIRS_DIRTY):
            raise ValueError(f"segment end points must be more than {LINEAR_SLOP} m apart")


@kernel
def move_segments(refs, body, rows, a, b, chain, radius, others, slop, pairs_dirty):
    """Into the world of ``refs[k]``, the segments ``a[k, s]`` to ``b[k, s]`` (m; their lengths
    CPython's ``math.hypot`` of ``b - a``, as ``make_segment`` takes them: :mod:`._hypot`) at
    shape rows ``rows``: their
    ``vertices``, ``normals``, ``centroid`` and ``ghost`` as ``Body.create_segment`` /
    ``create_chain`` write them (the arithmetic of ``_collision.geometry.segment_arrays``; a
    chain's ghosts as ``_collision.chain.chain_ghosts``: its neighbours' far ends, at the two
    free ends ``end - normal``; its back side no face, normal 0; every other vertex and normal
    slot 0), a new shape's boxes (the broadphase picks the shapes up in the next step); the
    static body ``body``'s extent: the farthest shape point from its origin, as
    ``World._update_mass`` takes it (``_batch._write_extents``' arithmetic for segments, their
    ``radius`` added; ``others``: the body's other shapes' reach; its thinnest half-width,
    ``min_extent``, is the segments' radius: moving them keeps it); and the flag of the world's
    step row at ``pairs_dirty`` (``World._pairs_dirty``: every shape looked at). Returns False,
    having written nothing, if a segment is not longer than ``slop``.

    Element by element into the worlds' columns, in one call: the NumPy code it replaced gave
    the same bits (some 60 NumPy calls, about 0.4 ms a reset of 10 landers), and so did the
    two kernels before this one (the columns computed for every world into arrays, then
    written: some 15 NumPy calls and allocations a reset besides, BENCHMARKS.md session 28),
    and so did the lengths taken in Python (about 9 us a lander's restart, session 31)."""
    n, m = a.shape[0], a.shape[1]
    length = np.empty((n, m))
    for k in range(n):
        for s in range(m):
            length[k, s] = hypot(b[k, s, 0] - a[k, s, 0], b[k, s, 1] - a[k, s, 1])
            if not length[k, s] > slop:
                return False
    for k in range(n):
        sh = borrow(refs[k], "shapes")
        slots = sh.vertices.shape[1]
        far_all = others
        for s in range(m):
            r = rows[s]
            ax, ay, bx, by = a[k, s, 0], a[k, s, 1], b[k, s, 0], b[k, s, 1]
            ex, ey, h = bx - ax, by - ay, length[k, s]
            for p in range(slots):
                for c in range(2):
                    sh.vertices[r, p, c] = 0.0
                    sh.normals[r, p, c] = 0.0
            sh.vertices[r, 0, 0] = ax
            sh.vertices[r, 0, 1] = ay
            sh.vertices[r, 1, 0] = bx
            sh.vertices[r, 1, 1] = by
            sh.normals[r, 0, 0] = ey / h
            sh.normals[r, 0, 1] = -ex / h
            if chain:
                if s > 0:
                    sh.ghost[r, 0, 0] = a[k, s - 1, 0]
                    sh.ghost[r, 0, 1] = a[k, s - 1, 1]
                else:
                    sh.ghost[r, 0, 0] = ax - ey / h
                    sh.ghost[r, 0, 1] = ay - -ex / h
                if s < m - 1:
                    sh.ghost[r, 1, 0] = b[k, s + 1, 0]
                    sh.ghost[r, 1, 1] = b[k, s + 1, 1]
                else:
                    sh.ghost[r, 1, 0] = bx - ey / h
                    sh.ghost[r, 1, 1] = by - -ex / h
            else:
                sh.normals[r, 1, 0] = (ay - by) / h
                sh.normals[r, 1, 1] = -(ax - bx) / h
                for c in range(2):
                    sh.ghost[r, 0, c] = 0.0
                    sh.ghost[r, 1, c] = 0.0
            sh.centroid[r, 0] = 0.5 * (ax + bx)
            sh.centroid[r, 1] = 0.5 * (ay + by)
            for c in range(4):
                sh.aabb[r, c] = 0.0
            for c in range(2):
                sh.fat_aabb[r, c] = np.inf
                sh.fat_aabb[r, 2 + c] = -np.inf
            x0, y0, x1, y1 = ax - 0.0, ay - 0.0, bx - 0.0, by - 0.0
            h0, h1 = math.hypot(x0, y0), math.hypot(x1, y1)
            q0, q1 = x0 * x0 + y0 * y0, x1 * x1 + y1 * y1
            cut = max(max(q0, q1), 0.0) * (1.0 - 1e-9)
            if q0 >= cut and q1 >= cut:
                far = max(h0, h1)
            elif q0 >= cut:
                far = h0
            else:
                far = h1
            far_all = max(far_all, far + radius[s])
        borrow(refs[k], "bodies").extent[body] = far_all
        borrow(refs[k], "settings")[pairs_dirty] = 1.0
    return True


_move = DirectCall(move_segments, "a terrain's segments moved", 2.0)


__all__ = ["Segments", "move_segments"]
