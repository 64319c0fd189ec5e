"""Graph colouring of contact constraints, for the order in which the solver visits them.

Two constraints of one colour never share a dynamic body. The solver is still serial
Gauss-Seidel, but visiting constraints colour by colour means consecutive constraints are
independent, so the CPU overlaps them instead of waiting on the previous constraint's write to a
shared body: measured 3.5x faster per sweep than key order on a 5050-box pyramid. It is also the
partition a parallel solver needs (Box2D v3 ``constraint_graph.c``, whose scheme this follows).

Static and kinematic bodies never occupy a colour (the solver does not write them). Constraints
between two dynamic bodies take the lowest free colour; constraints touching a non-dynamic body
take the highest, so they are solved last in each sweep and have the last word against
push-through (Box2D v3 does the same). Constraints that find no free colour go to the overflow
colour, solved last.

Contacts of a sleeping body with no awake dynamic body (a sleeping island's, :mod:`.islands`)
are left out: their bodies are not solved. A step of a mostly-asleep world passes only the
contacts with an awake body (:mod:`.awake`), in the same ascending order, so the colours are
the same as a pass over every contact gives.
"""

from __future__ import annotations

import numpy as np

from .._core.jit import borrowing_kernel, inline_kernel, inner_kernel, kernel
from .._core.state import DYNAMIC

COLOR_COUNT = 24  # colours tried before the overflow colour (Box2D v3: 24)


@kernel
def color_contacts(count, body_a, body_b, body_type, asleep, body_capacity, color_count, rows,
                   n_rows):
    """Solve order of the contacts with manifold points and an awake dynamic body (``asleep``:
    per body row): a permutation of their rows. ``rows[:n_rows]``: the contact rows to look
    at, ascending (:mod:`.awake`); every row when ``n_rows`` is -1.

    Returns ``order`` (rows of ``count > 0`` contacts, grouped by colour, key order within a
    colour) and ``starts`` (``color_count + 2`` offsets of each colour in ``order``; the last
    colour is the overflow). Its own arrays: :func:`color_contacts_into` with fresh scratch
    (the step passes the world's, :mod:`.scratch`).
    """
    n = count.shape[0] if n_rows < 0 else n_rows
    return color_contacts_into(
        count, body_a, body_b, body_type, asleep, color_count, rows, n_rows,
        np.empty(body_capacity, dtype=np.int64), np.empty(n, dtype=np.int64),
        np.empty(n, dtype=np.int64), np.empty(color_count + 1, dtype=np.int64),
        np.empty(color_count + 1, dtype=np.int64), np.empty(color_count + 2, dtype=np.int64))


@inner_kernel
def color_contacts_into(count, body_a, body_b, body_type, asleep, color_count, rows, n_rows,
                        used, color, order, sizes, fill, starts):
    """:func:`color_contacts` in the caller's scratch, which it overwrites before reading:
    ``used`` (one colour mask per body row), ``color`` and ``order`` (one per contact looked
    at), ``sizes`` and ``fill`` (``color_count + 1``), ``starts`` (``color_count + 2``).
    Returns the views ``order[:m]`` (m touching contacts with an awake dynamic body) and
    ``starts``; nothing is allocated."""
    m = color_into(count, body_a, body_b, body_type, asleep, color_count, rows, n_rows, used,
                   color, order, sizes, fill, starts)
    return order[:m], starts


@inline_kernel
def color_into(count, body_a, body_b, body_type, asleep, color_count, rows, n_rows, used,
               color, order, sizes, fill, starts):
    """:func:`color_contacts_into`, returning the count ``m`` of ``order``'s rows alone: for a
    caller that counts no references (the step: each view returned was an atomic increment
    and decrement). Compiled into its callers: a call passed its fourteen arrays as about a
    hundred machine words on the stack, about a third of the colouring of a five-ball world's
    step (BENCHMARKS.md, session 22, ``small47``)."""
    every = n_rows < 0
    n = count.shape[0] if every else n_rows
    used[:] = 0  # bit c set: the body is in colour c
    sizes[:] = 0
    for t in range(n):
        color[t] = -1  # by position in the rows looked at
        k = t if every else rows[t]
        if count[k] == 0:
            continue
        a = body_a[k]
        b = body_b[k]
        dyn_a = body_type[a] == DYNAMIC
        dyn_b = body_type[b] == DYNAMIC
        if (asleep[a] or asleep[b]) and not (dyn_a and not asleep[a]) and not (
                dyn_b and not asleep[b]):
            continue  # a sleeping body's contact with a sleeping, static or kinematic body
        mask = 0
        if dyn_a:
            mask |= used[a]
        if dyn_b:
            mask |= used[b]
        chosen = color_count  # overflow
        if dyn_a and dyn_b:
            for c in range(color_count):
                if (mask >> c) & 1 == 0:
                    chosen = c
                    break
        else:
            for c in range(color_count - 1, -1, -1):
                if (mask >> c) & 1 == 0:
                    chosen = c
                    break
        if chosen < color_count:
            bit = 1 << chosen
            if dyn_a:
                used[a] |= bit
            if dyn_b:
                used[b] |= bit
        color[t] = chosen
        sizes[chosen] += 1
    # (the running start in a register: through the arrays, which may alias, each colour
    # waited on the store of the last)
    total = 0
    starts[0] = 0
    for c in range(color_count + 1):
        fill[c] = total
        total += sizes[c]
        starts[c + 1] = total
    for t in range(n):
        c = color[t]
        if c >= 0:
            order[fill[c]] = t if every else rows[t]
            fill[c] += 1
    return starts[color_count + 1]


@borrowing_kernel
def mark_colour_runs(lane_end, starts):
    """Write into ``lane_end`` (one entry per solve-order row) the end of the run of rows the
    wide solver (:mod:`.contact_lanes`) may solve together: the row's colour for the colours of
    :func:`color_contacts` (``starts``), the row alone for the overflow colour, whose rows may
    share a body."""
    last = starts.shape[0] - 2  # the overflow colour
    lo = starts[0]
    for c in range(last):
        hi = starts[c + 1]  # (read once: the stores to lane_end may alias starts)
        for q in range(lo, hi):
            lane_end[q] = hi
        lo = hi
    for q in range(lo, starts[last + 1]):
        lane_end[q] = q + 1
