"""The soft step and the narrowphase on several threads inside one world
(``WorldSettings.threads``).

The serial solver visits the contact rows in colour order (:mod:`.constraint_graph`): no two
rows of a colour share a dynamic body. Rows that share no moving body commute: each reads and
writes only its own bodies' velocities and its own row, so any split of such rows over threads,
in any order, gives the serial pass's bits. (A static body is shared by many rows of a colour;
its velocity is zero and every row writes back the zero it read, ``0.0 - 0.0 * p``, so the
store is the same bits whoever writes last.) This module therefore

* cuts the rows, in their solve order, into *blocks*: maximal runs of consecutive rows in
  which no dynamic or kinematic body appears twice (a colour is one block, or is split where a
  kinematic body repeats; the overflow colour falls apart into short runs);
* runs the prepare of the rows, the solve's substeps and its restitution as **one parallel
  launch** (:func:`solve_region`): every thread walks the same list of *stages* (prepare the
  rows, integrate the velocities, each block of each contact pass, integrate the positions,
  the joint passes), claims the stage's *pieces* (:mod:`.atomics`), its own share first and
  then what its neighbours left (:func:`_next_piece`), and waits at the stage's end until its
  last piece is done, as Box2D v3's workers do. A block of
  at least :data:`impulse2d._threads.MIN_ROWS` rows (the world's slot
  :data:`~.verbs.THREAD_ROWS`) is cut into :data:`PIECES` pieces a thread, cut on the lanes'
  chunks (:func:`_row_piece`), each piece's range
  of rows handed to the world's contact passes (:mod:`.contact_lanes`: in SIMD lanes, or row
  by row in a small world; called by address, compiled once for the serial and the threaded
  solvers); a run of shorter blocks, the joint passes and the diagnostics are stages of one
  piece (the joints' and the diagnostics' only in a world that has them). One launch a solve
  replaces one a stage and block (about 90 a step of
  ``pyramid_100``, each a TBB arena made and joined), and pieces claimed as threads come
  free replace equal chunks, of which the last to start held up every other thread. The
  step's store of the impulses into the contacts and its finalize of the bodies, offered by
  the step (:data:`~.verbs.FINALIZE`), are the region's last stage;
* runs the narrowphase as a launch of its own (the colouring comes between it and the
  prepare), over pieces of the rows handed out the same way (:func:`dynamic_schedule`; its one
  order-dependent output, the normal it leaves on a pair found apart, is then put back as the
  serial pass leaves it: :func:`serial_normals`).

Nothing here reduces but the finalize's integer count of fast bodies: the blocks are visited in
order, and inside a block each thread writes what the serial loop would. So the results are
bit-identical for every thread count (``tests/test_threads.py``). The joints stay serial
(:func:`~.joint_solver.joint_pass`, which they are solved in before the contacts, as in the
serial step), and so do the stages of the step kernel around the solver and the narrowphase
(bounds, pairs, colouring, sleep, continuous).

The entries have the serial verbs' signatures (:data:`~.verbs.SOLVER_SIGNATURE`,
:data:`~.verbs.COLLIDE_SIGNATURE`) and are
compiled only when a world asks for more than one thread (:mod:`impulse2d._threads`); a world of
one thread runs :mod:`.solvers`' entries, today's code. The number of threads of a parallel
launch is the world's slot :data:`~.verbs.THREADS` of the table of verbs, run on Numba's threads
(``NUMBA_NUM_THREADS``, by default the machine's cores); on a thread whose Numba thread count
is 1 every pass runs serially: a :class:`~impulse2d.WorldBatch` holds its threads to 1, so a
world stepped in a batch runs serially there (the batch's threads are over the worlds).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import prange
from numba.core import cgutils, types
from numba.core.cpu_options import ParallelOptions
from numba.extending import intrinsic

from .._collision.shape_types import CHAIN_SEGMENT
from .._core.jit import (_jit, borrowing_kernel, cycles, inline_kernel, inner_kernel,
                         stage_kernel)
from .._core.lazy import JIT
from .._core.state import KINEMATIC, STATIC
from ..constants import MAX_ROTATION
from .awake import CONTACT_COUNT, body_rows
from .contact_lanes import (LANE_RESTITUTION, LANE_SOLVE, LANE_WARM_START, finish_lanes, in_lanes,
                            prepare_lanes, rows_for_diagnostics)
from .contact_rows import store_row_impulses
from .contacts import update_manifolds
from .integrate import finalize_bodies, integrate_clamp_velocities, integrate_positions
from .atomics import fetch_add, fetch_max, load_acquire, sleep_on, spin_pause, wake_on
from .joint_solver import joint_pass
from .lane_layout import CHUNK
from .lengths import SPECULATIVE
from .scratch import narrow_views, starts_view
from .softness import soft_coefficients
from .solvers import AFTER_CLAMP, impulse_caps
from .verbs import (CHAINS, DIAGNOSTICS, FINALIZE, ITERATION, LANES, OPENING, PREPARE, SOLVE,
                    THREAD_BODIES, THREAD_ROWS, THREADS, WARM_START, call_lanes, diagnose)
from .world_ref import borrow, borrow_column

parallel_kernel = _jit(no_cpython_wrapper=True, no_cfunc_wrapper=True,
                       parallel=ParallelOptions({"comprehension": False, "reduction": False,
                                                 "inplace_binop": False, "setitem": False,
                                                 "numpy": False, "stencil": False,
                                                 "fusion": False}))
"""An inner kernel whose ``prange`` loops run on Numba's threads: those loops only. Numba's
other parallel rewrites (NumPy calls and array expressions made parallel loops, and their
fusion) are off: the narrowphase's ``np.arange`` of every row was a parallel launch of its
own, and each rewrite is compile work for loops that need none."""

script_kernel = _jit(no_cpython_wrapper=True, no_cfunc_wrapper=True, inline="always")
"""An inner kernel compiled into its caller that may allocate (the solver's segments)."""


@intrinsic
def numba_threads(typingctx):
    """The calling thread's Numba thread count (``numba.get_num_threads()``), read from the
    threading layer's ``get_num_threads`` symbol as Numba's parallel loops read it. The
    jitted ``numba.get_num_threads`` holds a ctypes pointer, and Numba does not cache a kernel
    that holds one; the symbol is resolved when the kernel is linked, which needs Numba's
    threads launched first: here for a compile, by :func:`impulse2d._threads.threaded` for a
    kernel loaded from the cache."""
    from numba.np.ufunc.parallel import _launch_threads
    _launch_threads()

    def codegen(context, builder, signature, args):
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(cgutils.intp_t, []),
                                            "get_num_threads")
        return builder.call(fn, [])

    return types.intp(), codegen


@intrinsic
def dynamic_schedule(typingctx):
    """Make the calling thread's next ``prange`` loops hand out their iterations one at a time
    (Numba's parallel chunk size 1; returns the size it had, for :func:`restore_schedule`).
    By default Numba cuts a loop into one range per thread before it starts, and a thread
    that joins late (joining the launch's new TBB arena, or descheduled on a busy machine)
    makes the others wait for its range; handed out one by one, the pieces go to whichever
    thread is free.
    Read from the threading layer's symbols, as :func:`numba_threads`."""
    from numba.np.ufunc.parallel import _launch_threads
    _launch_threads()

    def codegen(context, builder, signature, args):
        # (declared with the types Numba's parfor lowering gives them: one module may hold both)
        get = cgutils.get_or_insert_function(builder.module, ir.FunctionType(cgutils.intp_t, []),
                                             "get_parallel_chunksize")
        put = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [cgutils.intp_t]),
            "set_parallel_chunksize")
        old = builder.call(get, [])
        builder.call(put, [cgutils.intp_t(1)])
        return old

    return types.intp(), codegen


@intrinsic
def restore_schedule(typingctx, size):
    """Give the calling thread's parallel loops back the chunk size ``size``
    (:func:`dynamic_schedule`'s return)."""
    def codegen(context, builder, signature, args):
        put = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [cgutils.intp_t]),
            "set_parallel_chunksize")
        builder.call(put, [args[0]])
        return context.get_dummy_value()

    return types.void(types.intp), codegen


if not JIT:
    def numba_threads() -> int:  # noqa: F811  (plain Python: Numba's own count)
        import numba
        return numba.get_num_threads()

    def dynamic_schedule() -> int:  # noqa: F811  (plain Python: the loops run serially)
        return 0

    def restore_schedule(size) -> None:  # noqa: F811
        pass


@inline_kernel
def _has_kinematic(body_type):
    """Whether some body row is kinematic (a dead row's last type counts: a false yes only
    costs :func:`segments` its walk)."""
    for i in range(body_type.shape[0]):
        if body_type[i] == KINEMATIC:
            return True
    return False


@inner_kernel
def segments(body_a, body_b, order, body_type, min_rows, starts):
    """The solve order's rows (the contacts ``order``, of bodies ``body_a`` and ``body_b``) cut
    into segments ``(lo, hi, parallel)`` (an (n, 3) int64 array): blocks of at least
    ``min_rows`` rows with no dynamic or kinematic body twice (parallel = 1), and the runs of
    shorter blocks between them (parallel = 0), in order. Read from the contacts, not the
    prepared rows, so that the prepare can be a stage of the solve's launch.

    In a world without kinematic bodies each colour of the colouring that made ``order``
    (``starts``, each colour's first row: :func:`~.constraint_graph.color_into`) is such a
    block, no dynamic body in it twice, so the rows are walked one by one only from the last
    colour of at least ``min_rows`` rows on: the short colours after it and the overflow
    colour, whose rows may share a body (and every row where there is a kinematic body, which
    no colour holds apart, or where ``starts`` is not ``order``'s). The walk of every row,
    about 1.5 % of the calling thread's samples of a 2-thread ``rain_2000`` step with the
    worker idle (BENCHMARKS.md, session 24, ``big49``), becomes one of the colours' starts
    and the walk of the tail. The walk lets a block run on past a colour's end where the next
    colour's first rows share no body with it, so walking the tail from the last long colour
    keeps the short colours after it (a pyramid's last few rows) in that colour's block, as
    the walk of every row did, instead of a stage of their own in every pass. The colours
    before it end their blocks: a different cut of the same rows, each block's rows
    commuting either way, so the same bits."""
    n = order.shape[0]
    bounds = np.empty(n + 1, dtype=np.int64)
    blocks = 0
    bounds[0] = 0
    walked = 0  # the first row walked: the last long colour's, or every row
    overflow = starts.shape[0] - 2
    if starts[overflow + 1] == n and not _has_kinematic(body_type):
        last = 0  # the last colour of at least min_rows rows: the walk starts there
        for c in range(overflow):
            if starts[c + 1] - starts[c] >= min_rows:
                last = c
        for c in range(last):
            if starts[c + 1] > starts[c]:
                blocks += 1
                bounds[blocks] = starts[c + 1]
        walked = starts[last]
    if walked < n:
        stamp = np.full(body_type.shape[0], -1, dtype=np.int64)  # the block that last used it
        for q in range(walked, n):
            a = body_a[order[q]]
            b = body_b[order[q]]
            if ((body_type[a] != STATIC and stamp[a] == blocks)
                    or (body_type[b] != STATIC and stamp[b] == blocks)):
                blocks += 1
                bounds[blocks] = q
            stamp[a] = blocks
            stamp[b] = blocks
        blocks += 1
        bounds[blocks] = n
    out = np.empty((blocks, 3), dtype=np.int64)
    m = 0
    serial_from = -1
    for k in range(blocks):
        lo = bounds[k]
        hi = bounds[k + 1]
        if hi - lo >= min_rows:
            if serial_from >= 0:
                out[m, 0] = serial_from
                out[m, 1] = lo
                out[m, 2] = 0
                m += 1
                serial_from = -1
            out[m, 0] = lo
            out[m, 1] = hi
            out[m, 2] = 1
            m += 1
        elif serial_from < 0:
            serial_from = lo
    if serial_from >= 0:
        out[m, 0] = serial_from
        out[m, 1] = n
        out[m, 2] = 0
        m += 1
    return out[:m]


PIECES = 4
"""Pieces per thread that a parallel pass cuts its rows (or bodies) into, claimed by the threads
one at a time as they come free (:func:`_next_piece`, :func:`dynamic_schedule`): Box2D v3 cuts
each stage into about four blocks a worker for the same reason."""
SPINS = 2000
"""Spin-wait hints a thread waiting for a stage's last piece issues before it sleeps
(:func:`_finish_stage`; a piece takes some microseconds, a ``pause`` about 10-140 cycles by
CPU: 28 ns on the AMD EPYC machine, 2,000 of them 56 us)."""
SLEEP_NS = 1_000_000
"""The longest a thread asleep on a stage's done count sleeps before it reads the count again
(1 ms), woken or not: a bound on what a lost wake-up could cost, none being expected."""
PIECE_ROWS = 64
"""The fewest rows (or bodies) a piece is cut to (a chunk of the lanes,
:data:`.lane_layout.CHUNK`), unless that leaves fewer pieces than threads."""


@inline_kernel
def _pieces(n, chunks):
    """How many pieces ``n`` rows (or bodies) are cut into for ``chunks`` threads."""
    return max(chunks, min(chunks * PIECES, n // PIECE_ROWS))


@inline_kernel
def _chunk(lo, hi, c, chunks):
    """Chunk ``c`` of ``chunks`` near-equal chunks of ``lo:hi``."""
    n = hi - lo
    return lo + (n * c) // chunks, lo + (n * (c + 1)) // chunks


@inline_kernel
def _on_chunk(cut, lo, hi):
    """A cut inside the rows ``lo:hi`` moved to the nearest start of a chunk of the lanes
    (:data:`.lane_layout.CHUNK` rows), kept within ``lo:hi``."""
    return min(max((cut + CHUNK // 2) // CHUNK * CHUNK, lo), hi)


@inline_kernel
def _row_piece(lo, hi, c, pieces):
    """Piece ``c`` of ``pieces`` of the contact rows ``lo:hi``: :func:`_chunk`'s, its inner
    cuts moved to the lanes' chunks (a piece may come out empty). A pass solves a piece chunk
    by chunk, and each run of rows inside a chunk in SIMD lanes, its last rows (fewer than
    the vector's width) one at a time; cut anywhere, a piece of some 60-120 rows (rain's
    blocks at 2 threads) is two or three such runs, each with its rows left over, and two
    pieces that the threads solve at once write the same cache lines of the lanes (a
    field's 16 float32 or 8 float64 rows a line, 41 fields a row). On the chunks, the pieces
    share no line but where the buffer's start is not on a line, and are the runs of one
    thread's pass (BENCHMARKS.md, session 17, ``thr42``)."""
    a, b = _chunk(lo, hi, c, pieces)
    return _on_chunk(a, lo, hi) if c > 0 else a, _on_chunk(b, lo, hi) if c < pieces - 1 else b


STRIDE = 8
"""Counters one stage's done count and the next stage's stand apart (64 bytes of int64): each
on a cache line of its own, which only that stage's pieces write (the claims are an array of
their own: :func:`_take`). The slot after the done count counts the threads asleep on it
(:func:`_finish_stage`), on the line the last piece's thread writes anyway."""


@inline_kernel
def _take(claims, stage, k):
    """Whether the calling thread takes piece ``k`` of ``stage``: it raises the piece's claim
    to the stage's stamp (``stage + 1``, the claims zeroed at the launch), and took it if the
    claim was below (Box2D v3 stamps its blocks with a sync index the same way)."""
    return fetch_max(claims, k, stage + 1) <= stage


@inline_kernel
def _share(pieces, t, chunks):
    """The first of the pieces (of ``pieces``) that are thread ``t``'s share of ``chunks``
    (thread ``chunks``: one past the last piece)."""
    return (pieces * t + chunks - 1) // chunks


@inline_kernel
def _own_start(pieces, t, chunks):
    """The piece thread ``t`` tries first: its share's first (the last piece where its share
    is empty)."""
    return min(_share(pieces, t, chunks), pieces - 1)


@inline_kernel
def _walk_back(claims, stage, pieces, start, k):
    """:func:`_next_piece`'s walk back: the piece before ``k`` (past the first to the last) if
    it is not ``start`` and is free, else ``(-1, False)``."""
    j = k - 1 if k > 0 else pieces - 1
    if j != start and _take(claims, stage, j):
        return j, False
    return -1, False


@borrowing_kernel
def _next_piece(claims, stage, pieces, start, k, ahead):
    """The calling thread's next piece of ``stage`` after ``k`` and whether it was found
    walking ahead: on from ``k`` while the pieces are free (past the last to the first), then
    back from before ``start`` while they are free; ``(-1, False)`` when the walk meets a taken
    piece both ways. Box2D v3's workers claim a stage's blocks so (``b2ExecuteStage``): each
    starts at its share (:func:`_own_start`) and takes its neighbours' only once they are left,
    so a thread solves the same rows in every pass and substep of a step, and the same bodies
    in every body stage, and its cache keeps them. The pieces handed out by one count in turn
    (until session 25) went to the threads as they came free, a row's lanes written by one
    thread in one pass and by the other in the next: on this machine a cache line passes from
    one CPU to the other in 24 or 160 ns by where the host puts them (BENCHMARKS.md, session
    25, ``big50``). A thread's taken pieces are one run around ``start``, so a walk that meets
    a taken piece both ways leaves none free: the stage completes with any number of threads
    arriving at any time. Called, not compiled into each of the solve's stages: inlined there
    it made :func:`_substeps` 1.75 times its compile."""
    if ahead:
        j = k + 1 if k + 1 < pieces else 0
        if j != start and _take(claims, stage, j):
            return j, True
        k = start
    return _walk_back(claims, stage, pieces, start, k)


@borrowing_kernel
def _first_piece(claims, stage, pieces, start):
    """The calling thread's first piece of ``stage`` (:func:`_next_piece`)."""
    if _take(claims, stage, start):
        return start, True
    return _walk_back(claims, stage, pieces, start, start)


@borrowing_kernel
def _wait_stage(counters, stage, pieces):
    """Wait until every piece of ``stage`` is done (each thread's writes then seen by all):
    spinning first, then asleep on the done count (:func:`~.atomics.sleep_on`) until the thread
    of its last piece wakes it (:func:`_piece_done`), the core given back meanwhile. A
    ``sched_yield`` loop in its place (until session 23) kept a waiting thread runnable: on a
    busy machine half a worker's samples were in it (about 5 ms of CPU a ``pyramid_100``
    step at load 4.7: BENCHMARKS.md, session 22, ``big47``). The sleeper counts itself before
    it reads the count again, the last piece's thread counts the piece before it reads the
    sleepers (both sequentially consistent), so one of the two sees the other: no wake-up is
    lost. Called, not compiled into each of the solve's stages (:func:`_finish_stage`)."""
    done = STRIDE * stage
    spins = 0
    while load_acquire(counters, done) < pieces:
        spins += 1
        if spins < SPINS:
            spin_pause()
        else:
            fetch_add(counters, done + 1, 1)
            seen = load_acquire(counters, done)
            while seen < pieces:
                sleep_on(counters, done, seen, SLEEP_NS)
                seen = load_acquire(counters, done)
    return stage + 1


@inline_kernel
def _finish_stage(counters, stage, pieces):
    """:func:`_wait_stage` for ``stage``, of ``pieces`` pieces; returns the next stage. Its
    arguments as int64: a literal count (a serial stage's 1) typed a signature of its own.
    Compiled into each of :func:`_substeps`' stage ends (and :func:`_piece_done` into each of
    its pieces), the two were 2,663 of its 28,693 instructions of IR (BENCHMARKS.md, session
    27, ``warmC52``)."""
    return _wait_stage(counters, np.int64(stage), np.int64(pieces))


@inline_kernel
def _serial_stage(claims, stage):
    """Whether the calling thread is the one to run ``stage``, a stage of one piece."""
    return _take(claims, stage, 0)


@borrowing_kernel
def _count_piece(counters, stage, pieces):
    """Count a piece of ``stage`` (of ``pieces``) done, after its writes (:func:`_finish_stage`
    reads the count), and wake the threads asleep on the count if it was the last; returns how
    many were done before it."""
    done = STRIDE * stage
    before = fetch_add(counters, done, 1)
    if before == pieces - 1 and fetch_add(counters, done + 1, 0) > 0:
        wake_on(counters, done)
    return before


@inline_kernel
def _piece_done(counters, stage, pieces):
    """:func:`_count_piece`, its arguments as int64 (:func:`_finish_stage`)."""
    return _count_piece(counters, np.int64(stage), np.int64(pieces))


@inline_kernel
def _body_pieces(n, chunks, min_rows):
    """The pieces of a stage over ``n`` bodies: one below ``min_rows``."""
    return 1 if chunks <= 1 or n < min_rows else _pieces(n, chunks)


@inline_kernel
def _segment_pieces(parts, s, chunks):
    """The pieces a contact pass cuts segment ``s`` (:func:`segments`) into: one for a serial
    run."""
    return _pieces(parts[s, 1] - parts[s, 0], chunks) if parts[s, 2] != 0 and chunks > 1 else 1


@borrowing_kernel
def _order_pieces(parts, chunks):
    """The pieces of a stage over every row of the solve order (the prepare, the copy back):
    each segment's, as its passes cut it (:func:`_order_piece`)."""
    total = 0
    for s in range(parts.shape[0]):
        total += _segment_pieces(parts, s, chunks)
    return total


@borrowing_kernel
def _order_piece(parts, chunks, k):
    """The rows of piece ``k`` of a stage over every row of the solve order: each segment cut
    as its passes cut it, the pieces listed by the thread whose share of its segment each is
    (thread 0's of every segment, then thread 1's, ...), so that a thread prepares the rows it
    then solves (:func:`_next_piece`)."""
    for o in range(chunks):
        for s in range(parts.shape[0]):
            pieces = _segment_pieces(parts, s, chunks)
            first = _share(pieces, o, chunks)
            owned = _share(pieces, o + 1, chunks) - first
            if k < owned:
                return _row_piece(parts[s, 0], parts[s, 1], first + k, pieces)
            k -= owned
    return 0, 0  # (not reached: k is below _order_pieces)


@borrowing_kernel
def _order_start(parts, chunks, t):
    """The piece of a stage over every row of the solve order that thread ``t`` tries first:
    its share's first (:func:`_order_piece`)."""
    k = 0
    for s in range(parts.shape[0]):
        k += _share(_segment_pieces(parts, s, chunks), t, chunks)
    return min(k, _order_pieces(parts, chunks) - 1)


@borrowing_kernel
def _lane_stages(world, parts, chunks, t, counters, claims, stage, verb, inv_h, use_bias, soft,
                 baumgarte, linear_slop, contact_speed, last_sweep, speed_cap):
    """One contact pass of the world's passes (:func:`~.contact_lanes.lanes_entry` or
    :func:`~.contact_lanes.rows_entry`, at its slot :data:`~.verbs.LANES`, with these
    arguments: the warm start, a soft-step pass with soft bias or the relax pass without, or
    restitution, :func:`~.contact_lanes.restitution`) as one stage per segment
    (:func:`segments`), run by thread ``t``: a serial run is one piece. Returns the next
    stage. Called, not compiled into :func:`_substeps` at each of its four passes (its
    arguments as int64, float64 and ``np.bool_``: a literal typed a signature of its own)."""
    address = borrow(world, "verbs")[LANES]
    for s in range(parts.shape[0]):
        lo = parts[s, 0]
        hi = parts[s, 1]
        pieces = _segment_pieces(parts, s, chunks)
        start = _own_start(pieces, t, chunks)
        k, ahead = _first_piece(claims, stage, pieces, start)
        while k >= 0:
            a, b = _row_piece(lo, hi, k, pieces)
            if b > a:
                call_lanes(address, (world, verb, a, b, inv_h, use_bias, soft, baumgarte,
                                     linear_slop, contact_speed, last_sweep, speed_cap))
            _piece_done(counters, stage, pieces)
            k, ahead = _next_piece(claims, stage, pieces, start, k, ahead)
        stage = _finish_stage(counters, stage, pieces)
    return stage


@borrowing_kernel
def _joint_stage(world, counters, claims, stage, verb, h, flag, soft, bias_rate, mass_scale,
                 impulse_scale, speed_cap, spin_cap):
    """A joint pass (:func:`~.joint_solver.joint_pass`, ``verb`` and its arguments) as a stage
    of one piece, the calling thread's if it is the first to claim it. Returns the next stage.
    Called, not compiled into :func:`_substeps` at each of its three passes (its arguments as
    :func:`_lane_stages`')."""
    if _serial_stage(claims, stage):
        joint_pass(world, verb, h, flag, soft, bias_rate, mass_scale, impulse_scale, 0.0,
                   speed_cap, spin_cap)
        _piece_done(counters, stage, 1)
    return _finish_stage(counters, stage, 1)


@borrowing_kernel
def _substeps(world, order, parts, rows, counters, claims, chunks, t, min_rows, substeps,
              warm_starting, joints, gx, gy, h, max_linear_speed, max_angular_speed,
              position_speed, position_spin, contact_speed, speed_cap, spin_cap, j_rate,
              j_mass_scale, j_impulse_scale, wide, restitution_threshold, finalize, rate,
              mass_scale, impulse_scale, s_rate, s_mass_scale, s_impulse_scale):
    """The prepare of the contact rows (:func:`~.contact_solver.prepare_contacts`: each row
    reads the contacts and bodies and writes only itself and its lanes) and of the joints, the
    substeps of :func:`.solvers._soft_step`, its restitution and the copy back of the
    kept impulses (:func:`~.contact_lanes.finish_lanes`), run by thread ``t`` of ``chunks``
    (each thread of the solve's one parallel launch, :func:`solve_region`) in the same order
    of stages: each stage's pieces (chunks of the awake bodies, of a segment's rows) are
    claimed (``claims``: :func:`_next_piece`), each thread's share first, and every thread
    waits at the end of a stage for its last piece (:func:`_finish_stage`). The joint passes
    (in a world that has joints) and the diagnostics are stages of one piece. A thread that
    starts late finds the stages done and passes through; one that runs alone runs them all.

    With ``finalize`` (the step's offer, :data:`~.verbs.FINALIZE`: 1, or 2 with the fast test)
    the step's two stages after the solve run here too, on the threads instead of after the
    launch on one: each piece of the copy back stores its rows' impulses into the contacts
    (:func:`~.contact_rows.store_row_impulses`; a row's contact is its own), and a last stage
    finalizes the awake bodies by pieces (:func:`~.integrate.finalize_bodies`, body by body),
    the count of fast bodies summed in the counters' last slot."""
    cs = borrow(world, "constraints")
    touching = order.shape[0] > 0
    on = np.bool_(True)  # (np.bool_ and np.int64, not literals: see _lane_stages)
    off = np.bool_(False)
    inv_h = 1.0 / h
    n = rows.shape[0]
    body_pieces = _body_pieces(n, chunks, min_rows)
    body_start = _own_start(body_pieces, t, chunks)
    m = order.shape[0]
    measured = borrow(world, "verbs")[DIAGNOSTICS] != 0
    stage = np.int64(0)  # (a literal 0 typed _first_piece and _next_piece once more)
    if touching:
        pieces = _order_pieces(parts, chunks)
        start = _order_start(parts, chunks, t)
        k, ahead = _first_piece(claims, stage, pieces, start)
        while k >= 0:
            a, b = _order_piece(parts, chunks, k)
            if b > a:
                prepare_lanes(world, order[a:b], a, warm_starting, rate, mass_scale,
                              impulse_scale, s_rate, s_mass_scale, s_impulse_scale, wide)
            if _piece_done(counters, stage, pieces) == pieces - 1 and not (joints or measured):
                borrow(world, "clock")[3] = cycles()  # the last piece: the prepare's end
            k, ahead = _next_piece(claims, stage, pieces, start, k, ahead)
        stage = _finish_stage(counters, stage, pieces)
    # the joints' prepare and the opening diagnostics: a stage (a barrier) only where there
    # is one of them (or the prepare's end to clock, with no contacts)
    if joints or measured or not touching:
        if _serial_stage(claims, stage):
            if touching:
                rows_for_diagnostics(world, cs)
            joint_pass(world, PREPARE, h, warm_starting, False, 0.0, 1.0, 0.0, 0.0, speed_cap,
                       spin_cap)
            borrow(world, "clock")[3] = cycles()  # the prepare's end (the step's profile)
            diagnose(world, order, OPENING, 0, h, 0.0, contact_speed, speed_cap, spin_cap)
            _piece_done(counters, stage, 1)
        stage = _finish_stage(counters, stage, 1)
    for substep in range(substeps):
        k, ahead = _first_piece(claims, stage, body_pieces, body_start)
        while k >= 0:
            lo, hi = _chunk(0, n, k, body_pieces)
            integrate_clamp_velocities(world, rows[lo:hi], gx, gy, h, max_linear_speed,
                                       max_angular_speed)
            _piece_done(counters, stage, body_pieces)
            k, ahead = _next_piece(claims, stage, body_pieces, body_start, k, ahead)
        stage = _finish_stage(counters, stage, body_pieces)
        if warm_starting:
            if joints:
                stage = _joint_stage(world, counters, claims, stage, np.int64(WARM_START), h,
                                     off, off, 0.0, 1.0, 0.0, speed_cap, spin_cap)
            if touching:
                stage = _lane_stages(world, parts, chunks, t, counters, claims, stage,
                                     np.int64(LANE_WARM_START), inv_h, off, on, 0.0, 0.0,
                                     contact_speed, off, speed_cap)
        if joints:
            stage = _joint_stage(world, counters, claims, stage, np.int64(SOLVE), h, on, on,
                                 j_rate, j_mass_scale, j_impulse_scale, speed_cap, spin_cap)
        if touching:
            stage = _lane_stages(world, parts, chunks, t, counters, claims, stage,
                                 np.int64(LANE_SOLVE), inv_h, on, on, 0.0, 0.0, contact_speed,
                                 off, speed_cap)
        k, ahead = _first_piece(claims, stage, body_pieces, body_start)
        while k >= 0:
            lo, hi = _chunk(0, n, k, body_pieces)
            integrate_positions(world, rows[lo:hi], h, position_speed, position_spin)
            _piece_done(counters, stage, body_pieces)
            k, ahead = _next_piece(claims, stage, body_pieces, body_start, k, ahead)
        stage = _finish_stage(counters, stage, body_pieces)
        if joints:
            stage = _joint_stage(world, counters, claims, stage, np.int64(SOLVE), h, off, on,
                                 0.0, 1.0, 0.0, speed_cap, spin_cap)
        if touching:
            stage = _lane_stages(world, parts, chunks, t, counters, claims, stage,
                                 np.int64(LANE_SOLVE), inv_h, off, on, 0.0, 0.0, contact_speed,
                                 on, speed_cap)
        if measured:  # (off, the relax pass's last stage ends the substep)
            if _serial_stage(claims, stage):
                if touching:
                    rows_for_diagnostics(world, cs)
                diagnose(world, order, ITERATION, substep, h, 0.0, contact_speed, speed_cap,
                         spin_cap)
                _piece_done(counters, stage, 1)
            stage = _finish_stage(counters, stage, 1)
    if touching:  # restitution (its values carried as contact_lanes.restitution carries them)
        stage = _lane_stages(world, parts, chunks, t, counters, claims, stage,
                             np.int64(LANE_RESTITUTION), restitution_threshold, off, off, gx, gy,
                             0.5 * h, off, speed_cap)
    # The last stage: the impulses the step keeps, each thread's share of the rows (or every
    # column, with the diagnostics on: one piece), and the finalize of the bodies, whose
    # pieces follow the copy's in the same stage (the copy writes the rows and contacts, the
    # finalize the bodies: no barrier between them).
    copies = 0
    start = body_start
    if touching:
        copies = 1 if measured else _order_pieces(parts, chunks)
        start = 0 if measured else _order_start(parts, chunks, t)
    pieces = copies + (body_pieces if finalize > 0 else 0)
    k, ahead = -1, False
    if pieces > 0:
        k, ahead = _first_piece(claims, stage, pieces, start)
    while k >= 0:
        if k < copies:
            a, b = (0, m) if measured else _order_piece(parts, chunks, k)
            finish_lanes(world, cs, wide, a, b)
            if finalize > 0:
                store_row_impulses(world, a, b)
        else:
            lo, hi = _chunk(0, n, k - copies, body_pieces)
            fetch_add(counters, counters.shape[0] - 1,
                      finalize_bodies(world, rows[lo:hi], max_linear_speed, max_angular_speed,
                                      finalize == 2))
        _piece_done(counters, stage, pieces)
        k, ahead = _next_piece(claims, stage, pieces, start, k, ahead)
    _finish_stage(counters, stage, pieces)


@inline_kernel
def region_counters(parts, substeps):
    """The size of :func:`_substeps`' counters: one line of :data:`STRIDE` for each of its
    stages (an upper bound of them), and the count of fast bodies."""
    return STRIDE * (substeps * (6 + 3 * parts.shape[0]) + parts.shape[0] + 4) + 1


@inline_kernel
def region_claims(parts, chunks):
    """The size of :func:`_substeps`' claims: one for each piece of its stage of most pieces
    (the last: the copy back's and the bodies')."""
    return _order_pieces(parts, chunks) + chunks * PIECES


@parallel_kernel
def solve_region(world, order, parts, rows, counters, claims, chunks, min_rows, substeps,
                 warm_starting, joints, gx, gy, h, max_linear_speed, max_angular_speed,
                 position_speed, position_spin, contact_speed, speed_cap, spin_cap, j_rate,
                 j_mass_scale, j_impulse_scale, wide, restitution_threshold, finalize, rate,
                 mass_scale, impulse_scale, s_rate, s_mass_scale, s_impulse_scale):
    """:func:`_substeps` on ``chunks`` threads, in one parallel launch: Numba's launch (a
    TBB arena made and joined, about 3-14 us, and a worker that joins late making the
    others wait for its range) is paid once a solve instead of once a stage and colour
    (about 90 a step of ``pyramid_100``) and once for the prepare."""
    # some stage of more than one piece (the prepare's, a block's) that pays a launch: the
    # bodies' stages alone only from THREAD_BODIES awake bodies, the rule by which the step
    # takes this solver for them (rain's fall: 2,000 bodies, few rows) ...
    spread = (rows.shape[0] >= borrow(world, "verbs")[THREAD_BODIES]
              or order.shape[0] >= min_rows)
    # (thread t as an int64 in both calls: a literal 0 and prange's index typed two more
    # signatures of _substeps, each a compile of its own)
    if chunks <= 1 or not spread:  # ... or no launch to pay (pyramid_20's colours are short)
        _substeps(world, order, parts, rows, counters, claims, chunks, np.int64(0), min_rows,
                  substeps, warm_starting, joints, gx, gy, h, max_linear_speed,
                  max_angular_speed, position_speed, position_spin, contact_speed, speed_cap,
                  spin_cap, j_rate, j_mass_scale, j_impulse_scale, wide, restitution_threshold,
                  finalize, rate, mass_scale, impulse_scale, s_rate, s_mass_scale,
                  s_impulse_scale)
        return
    for t in prange(chunks):
        _substeps(world, order, parts, rows, counters, claims, chunks, np.int64(t), min_rows,
                  substeps, warm_starting, joints, gx, gy, h, max_linear_speed,
                  max_angular_speed, position_speed, position_spin, contact_speed, speed_cap,
                  spin_cap, j_rate, j_mass_scale, j_impulse_scale, wide, restitution_threshold,
                  finalize, rate, mass_scale, impulse_scale, s_rate, s_mass_scale,
                  s_impulse_scale)


@inline_kernel
def world_chunks(world):
    """The chunks of this world's parallel passes: its :data:`~.verbs.THREADS` slot, or 1 on a
    thread held to one Numba thread (a WorldBatch's: :func:`impulse2d._threads.serial`)."""
    return borrow(world, "verbs")[THREADS] if numba_threads() > 1 else 1


@parallel_kernel
def manifolds_rows(world, chunks):
    """:func:`~.contacts.update_manifolds` over ``chunks`` chunks of the contact rows it visits
    (the awake rows, or every row when their count is -1), each chunk with scratch of its
    own: a row's manifold is computed from its shapes and bodies and written to the row (the
    normals of the rows found apart: :func:`serial_normals`). The stores are borrowed inside
    the chunks' calls, not here: a parallel loop passes each variable its body uses to the
    threads' function one array at a time, and the three stores' arrays made this kernel's
    IR 7,044 instructions, 1.95 s of LLVM's function passes (BENCHMARKS.md, session 26)."""
    n_rows = borrow(world, "awake_state")[CONTACT_COUNT]
    n = borrow_column(world, "contacts", "key").shape[0] if n_rows < 0 else n_rows
    picks = np.arange(n) if n_rows < 0 else borrow(world, "awake_contacts")[:n]
    pieces = _pieces(n, chunks)
    size = dynamic_schedule()
    for c in prange(pieces):
        lo, hi = _chunk(0, n, c, pieces)
        _manifolds_of(world, np.zeros(2), np.zeros((2, 3)), np.zeros(2, dtype=np.int64),
                      picks[lo:hi], hi - lo)
    restore_schedule(size)
    serial_normals(world, picks, pieces)


@borrowing_kernel
def _manifolds_of(world, out_normal, out_points, out_ids, rows, n_rows):
    """:func:`~.contacts.update_manifolds` (an inlined kernel) of ``world``'s stores as a call
    of its own: inlined into a ``prange`` body, its writes through the stores' tuples were
    dropped as dead code (measured: no manifold written; Numba 0.68)."""
    update_manifolds(borrow(world, "contacts"), borrow(world, "shapes"),
                     borrow(world, "bodies"), borrow(world, "lengths")[SPECULATIVE],
                     borrow(world, "verbs")[CHAINS] != 0, out_normal, out_points, out_ids,
                     rows, n_rows)


@inline_kernel
def _visited(kind, asleep, shape_type, contacts, has_chains, k):
    """Whether the narrowphase's pass visits contact row ``k`` (as
    :func:`~.contacts.update_manifolds` skips: a pair of sleeping or static bodies, a chain's
    rows, collided apart)."""
    ba = contacts.body_a[k]
    bb = contacts.body_b[k]
    if (asleep[ba] or kind[ba] == STATIC) and (asleep[bb] or kind[bb] == STATIC):
        return False
    return not (has_chains and (shape_type[contacts.shape_a[k]] == CHAIN_SEGMENT
                                or shape_type[contacts.shape_b[k]] == CHAIN_SEGMENT))


@inner_kernel
def serial_normals(world, picks, pieces):
    """Give the rows ``picks`` that the narrowphase found apart (no point) the normal the serial
    pass leaves them. :func:`~.._collision.manifold.collide` does not write its scratch normal
    for such a pair (negating it in place when it collided the pair circle first), and
    :func:`~.contacts.update_manifolds` stores the scratch anyway: in one pass each such row
    holds the previous visited row's normal (the scratch starts at zero), in
    :func:`manifolds_rows`' ``pieces`` (:func:`_chunk`'s) the previous row of its piece's.
    Nothing reads those normals but the state's hash. The two differ only in a piece's head,
    its rows found apart before its first row with points (from there on the piece's
    scratch is the serial pass's); so this walks each piece's head, the serial pass's skips
    too, carrying the normal on from the last row the piece before it visited: a few rows a
    piece, where a walk of every row cost 15-46 us a step of rain at 2 threads, on the
    calling thread alone (BENCHMARKS.md, session 18, ``thr43``)."""
    contacts = borrow(world, "contacts")
    shapes = borrow(world, "shapes")
    bodies = borrow(world, "bodies")
    has_chains = borrow(world, "verbs")[CHAINS] != 0
    kind = bodies.type
    asleep = bodies.asleep
    shape_type = shapes.type
    normal = contacts.normal
    n = picks.shape[0]
    nx = 0.0
    ny = 0.0
    for c in range(pieces):
        lo, hi = _chunk(0, n, c, pieces)
        headed = False  # met the piece's first row with points
        for t in range(lo, hi):
            k = picks[t]
            if not _visited(kind, asleep, shape_type, contacts, has_chains, k):
                continue
            if contacts.count[k] != 0:
                headed = True
                break
            if shapes.count[contacts.shape_a[k]] == 1 and shapes.count[contacts.shape_b[k]] != 1:
                nx = -nx  # collided circle first
                ny = -ny
            normal[k, 0] = nx
            normal[k, 1] = ny
        if headed:  # the piece's rest is the serial pass's: carry its last visited row's on
            for t in range(hi - 1, lo - 1, -1):
                k = picks[t]
                if _visited(kind, asleep, shape_type, contacts, has_chains, k):
                    nx = normal[k, 0]
                    ny = normal[k, 1]
                    break


@borrowing_kernel
def _serial_manifolds(world):
    """:func:`collide_threaded`'s serial case (one chunk, or too few rows for threads): the
    chunks' loop called once (inlined into the parallel kernel, with
    :func:`~.._collision.manifold.collide_pair`'s circle routines, it cost that kernel ~6 s of
    compile), with the stores and the scratch, zeroed, borrowed here as :func:`.step.collide`
    does: :func:`collide_threaded` borrowing them for the call re-stored them from its frame,
    34 stack loads 0x400 bytes from a store (BENCHMARKS.md, floor40)."""
    normal, points, ids = narrow_views(borrow(world, "scratch"), borrow(world, "scratch_f"))
    _manifolds_of(world, normal, points, ids, borrow(world, "awake_contacts"),
                  borrow(world, "awake_state")[CONTACT_COUNT])


@stage_kernel
def collide_threaded(world):
    """:func:`.step.collide` (the narrowphase) on the world's threads, or serially on a thread
    held to one (a batch's) and for fewer rows than a parallel pass takes."""
    n_contacts = borrow_column(world, "contacts", "key").shape[0]
    if n_contacts == 0:
        return False
    n_rows = borrow(world, "awake_state")[CONTACT_COUNT]
    chunks = world_chunks(world)
    if chunks <= 1 or (n_contacts if n_rows < 0 else n_rows) < borrow(world, "verbs")[THREAD_ROWS]:
        _serial_manifolds(world)
        return True
    manifolds_rows(world, chunks)
    return True


@script_kernel
def _soft_step_threaded(world, order, dt, gx, gy, substeps, warm_starting, contact_hertz,
                        contact_damping_ratio, joint_hertz, joint_damping_ratio, contact_speed,
                        restitution_threshold, max_linear_speed, after_clamp):
    """:func:`.solvers._soft_step`, call for call, with its contact and body verbs spread over
    the world's threads (this module's docstring). ``tests/test_threads.py`` holds the two
    to the same bits."""
    bodies = borrow(world, "bodies")
    chunks = world_chunks(world)
    min_rows = borrow(world, "verbs")[THREAD_ROWS]
    touching = order.shape[0] > 0
    speed_cap, spin_cap = impulse_caps(max_linear_speed, dt)
    h = dt / substeps
    hertz = min(contact_hertz, 0.25 / h)
    rate, mass_scale, impulse_scale = soft_coefficients(hertz, contact_damping_ratio, h)
    s_rate, s_mass_scale, s_impulse_scale = soft_coefficients(2.0 * hertz, contact_damping_ratio,
                                                              h)
    j_rate, j_mass_scale, j_impulse_scale = soft_coefficients(min(joint_hertz, 0.25 / h),
                                                              joint_damping_ratio, h)
    parts = np.zeros((1, 3), dtype=np.int64)  # one serial segment of every row ...
    parts[0, 1] = order.shape[0]
    wide = in_lanes(world)  # see solvers._soft_step
    if touching and chunks > 1:  # ... unless there are threads to spread blocks over
        contacts = borrow(world, "contacts")
        parts = segments(contacts.body_a, contacts.body_b, order, bodies.type, min_rows,
                         starts_view(borrow(world, "scratch")))
    max_angular_speed = MAX_ROTATION / dt
    position_speed = after_clamp * max_linear_speed
    position_spin = after_clamp * max_angular_speed
    # a count, not ``joints = False`` widened in the loop: that typed the callees for a literal
    # False too, a second solve_region nothing calls (12-21 s of compile; warmall48, session 23)
    n_joints = 0
    for ids in borrow(world, "joint_ids"):
        n_joints += ids.shape[0]
    joints = n_joints > 0
    table = borrow(world, "verbs")
    finalize = table[FINALIZE]
    counters = np.zeros(region_counters(parts, substeps), dtype=np.int64)
    claims = np.zeros(region_claims(parts, chunks), dtype=np.int64)
    solve_region(world, order, parts, body_rows(world), counters, claims, chunks, min_rows,
                 substeps, warm_starting, joints, gx, gy, h, max_linear_speed,
                 max_angular_speed, position_speed, position_spin, contact_speed, speed_cap,
                 spin_cap, j_rate, j_mass_scale, j_impulse_scale, wide, restitution_threshold,
                 finalize, rate, mass_scale, impulse_scale, s_rate, s_mass_scale,
                 s_impulse_scale)
    if finalize > 0:
        table[FINALIZE] = -1 - counters[counters.shape[0] - 1]
    return h


@stage_kernel
def soft_step_threaded(world, order, dt, gx, gy, substeps, iterations, position_iterations,
                       warm_starting, contact_hertz, contact_damping_ratio, joint_hertz,
                       joint_damping_ratio, contact_speed, restitution_threshold,
                       max_linear_speed, baumgarte, velocity_tolerance, velocities):
    """:func:`.solvers.soft_step` on the world's threads."""
    return _soft_step_threaded(world, order, dt, gx, gy, substeps, warm_starting, contact_hertz,
                               contact_damping_ratio, joint_hertz, joint_damping_ratio,
                               contact_speed, restitution_threshold, max_linear_speed,
                               AFTER_CLAMP)


ENTRIES = {"soft_step": soft_step_threaded}
"""The solvers that spread over threads, by ``WorldSettings.solver``: the default only (a
threaded entry is a compile of its own, about 25 s of CPU under load); the others run their
contacts serially whatever ``threads`` says (the narrowphase is threaded for all)."""
