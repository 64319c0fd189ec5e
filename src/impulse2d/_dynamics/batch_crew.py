"""The batch's crew: helper threads that wait for the next batch step inside the batch kernel.

A 2-thread :class:`~impulse2d.WorldBatch` step hands a helper thread its share of the worlds.
Handed over through Python (a pool's queue, the helper's Python thread woken, Python's lock
taken to begin its kernel call and again to return from it) each step paid 0.10-0.13 ms before
the helper began under KVM (its thread woken on an idle vCPU), and the helper's return
contended for Python's lock with the calling thread's Python after the kernel (BENCHMARKS.md,
session 23's ``lander48``). A crew's helper makes one kernel call for the batch's life
(:func:`.batch_step.step_batch` with a crew's board): after its share of a step it spins a
while, then sleeps on a futex, until the calling thread posts the next step (:func:`post`:
the step's arrays' addresses on the board, the step's number raised, the sleepers woken), so
no Python runs on the helper between steps and Python's lock is never handed over.

**The board** (int64, one per crew): a claim per world (``0 .. cap - 1``; the batch's worlds),
then :data:`HEADER` words on lines of their own. A step has a number (``GO``, raised by each
post); a thread claims a world by raising its claim to the step's number (``atomics.fetch_max``):
it took the world if the claim was below, so the claims are never zeroed, and a helper that
wakes late, still holding an earlier step's number and addresses, finds every claim at that
number or above and touches nothing but the claims (a world's arrays are read only after its
claim). The calling thread posts a step only once the step before is done (every world
counted in ``DONE`` after its writes), so a helper that claimed a world of step ``g`` read
step ``g``'s addresses.

Built on Linux's futex (:mod:`.atomics`); elsewhere the batch keeps its pool of Python
threads (a thread that cannot sleep in compiled code would spin between steps).
"""

from __future__ import annotations

from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

from .._core.jit import DirectCall, cycles, inline_kernel, kernel
from .atomics import _FUTEX, exchange, fetch_add, load_acquire, sleep_on, spin_pause, wake_on

SLEEPS = _FUTEX is not None
"""Whether a thread may sleep in compiled code here (a crew is made only then)."""

# The board's header, after its ``cap`` claims (each a word index past them).
GO = 0          # the step's number: raised by post (0 before the first step)
SLEEPERS = 1    # helpers asleep on GO
QUIT = 2        # raised by call_off: the helpers leave after the step in hand
SPINS = 3       # spin-wait hints a helper issues on GO before it sleeps (Python's setting)
CREW = 4        # 1 on a crew's board (0 on a one-step board: .batch_step.thread_arguments)
GONE = 5        # helpers whose call ended in an error (Python's count: see impulse2d._crew)
DONE = 8        # worlds done of the step (a line of its own: the counts of the helpers)
CALLER_ASLEEP = 9  # the calling thread asleep on DONE
JOINED = 10     # (one-step boards) the calling thread saw every world done
JOB = 16        # the step's arrays: N, then each array's address and shape (post)
N, WHICH, ARGS, ARGS_ROWS, ARGS_COLS, ROWS, ROWS_N, GATHERED, NB, POSITIONS, ANGLES, \
    VELOCITIES, AWAKE, TOUCHING = range(JOB, JOB + 14)
FIELDS_OF = JOB + 14  # the step whose arrays these words are (0 while post writes them)
BEGAN = 32      # per share (up to 8): the cycle counter when it took its last step
ENDED = 40      # and when it counted its worlds done (for timelines: benchmarks/envs_timeline.py)
SHARES_TIMED = 8
HEADER = 48

IDLE_SLEEP_NS = 100_000_000
"""A helper's longest sleep between steps (0.1 s): a guard only, each post wakes it."""
JOIN_SLEEP_NS = 1_000_000
"""The calling thread's longest sleep waiting for the helpers' last worlds (1 ms), after which
it looks again (and at ``GONE``)."""


@intrinsic
def address_of(typingctx, array):
    """The address of ``array``'s first element (int64)."""
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, args):
        a = context.make_array(signature.args[0])(context, builder, args[0])
        return builder.ptrtoint(a.data, ir.IntType(64))

    return types.int64(array), codegen


@intrinsic
def array_at(typingctx, like, address, shape):
    """A C-contiguous array of ``like``'s type over the memory at ``address`` (int64) of
    ``shape`` (a tuple of ``like.ndim`` integers), owning nothing (no MemInfo: Numba's
    reference counts of it do nothing): the caller of :func:`post` holds the array until
    the step is done."""
    if not (isinstance(like, types.Array) and like.layout == "C"
            and isinstance(shape, types.BaseTuple) and len(shape) == like.ndim):
        return None

    def codegen(context, builder, signature, args):
        array_type = signature.return_type
        ary = context.make_array(array_type)(context, builder)
        itemsize = context.get_abi_sizeof(context.get_data_type(array_type.dtype))
        i64 = ir.IntType(64)
        dims = [context.cast(builder, v, t, types.intp)
                for v, t in zip(cgutils.unpack_tuple(builder, args[2]), signature.args[2])]
        strides, step = [], i64(itemsize)
        for d in reversed(dims):
            strides.insert(0, step)
            step = builder.mul(step, d)
        populate_array(ary, data=builder.inttoptr(args[1], ary.data.type), shape=dims,
                       strides=strides, itemsize=i64(itemsize), meminfo=None)
        return ary._getvalue()

    return like(like, address, shape), codegen


@kernel
def post(board, which, args, rows, positions, angles, velocities, awake, touching):
    """Post a batch step for a crew's helpers: the worlds ``which`` with :func:`.batch_step.
    step_batch`'s arguments of the same names, their addresses and shapes on ``board``, its
    count of worlds done zeroed, then the step's number raised (a release: the helper that reads
    the new number reads these words), and the helpers asleep woken. The caller holds the arrays
    until the step is done, and posts only once the step before is."""
    top = board.shape[0] - HEADER
    exchange(board, top + FIELDS_OF, 0)
    board[top + DONE] = 0
    board[top + N] = which.shape[0]
    board[top + WHICH] = address_of(which)
    board[top + ARGS] = address_of(args)
    board[top + ARGS_ROWS] = args.shape[0]
    board[top + ARGS_COLS] = args.shape[1]
    board[top + ROWS] = address_of(rows)
    board[top + ROWS_N] = rows.shape[0]
    board[top + GATHERED] = positions.shape[0]
    board[top + NB] = positions.shape[1]
    board[top + POSITIONS] = address_of(positions)
    board[top + ANGLES] = address_of(angles)
    board[top + VELOCITIES] = address_of(velocities)
    board[top + AWAKE] = address_of(awake)
    board[top + TOUCHING] = address_of(touching)
    exchange(board, top + FIELDS_OF, board[top + GO] + 1)
    fetch_add(board, top + GO, 1)
    if load_acquire(board, top + SLEEPERS) > 0:
        wake_on(board, top + GO)


@kernel
def call_off(board):
    """Tell a crew's helpers to leave their kernel call once no step is left for them, and
    wake those asleep."""
    top = board.shape[0] - HEADER
    fetch_add(board, top + QUIT, 1)
    wake_on(board, top + GO)


@inline_kernel
def next_step(board, last):
    """A helper's wait for the step after number ``last``: its number, or 0 when the crew is
    called off with no step left. Spins ``board[SPINS]`` times, then sleeps on ``GO`` (counted
    in ``SLEEPERS`` first, ``GO`` read after: a post either sees the sleeper or is seen)."""
    top = board.shape[0] - HEADER
    while True:
        for _ in range(board[top + SPINS]):
            if load_acquire(board, top + GO) != last or load_acquire(board, top + QUIT) != 0:
                break
            spin_pause()
        g = load_acquire(board, top + GO)
        if g != last:
            return g
        if load_acquire(board, top + QUIT) != 0:
            return 0
        fetch_add(board, top + SLEEPERS, 1)
        if load_acquire(board, top + GO) == last and load_acquire(board, top + QUIT) == 0:
            sleep_on(board, top + GO, last, IDLE_SLEEP_NS)
        fetch_add(board, top + SLEEPERS, -1)


@inline_kernel
def worlds_done(board, share, taken):
    """A thread's worlds of the step counted done (after their writes), the calling thread
    woken if it sleeps; a thread that took none counts nothing (it may hold an earlier step's
    number: its count would fall into the next step's)."""
    top = board.shape[0] - HEADER
    if share < SHARES_TIMED:
        board[top + ENDED + share] = cycles()
    if taken > 0:
        fetch_add(board, top + DONE, taken)
        if load_acquire(board, top + CALLER_ASLEEP) > 0:
            wake_on(board, top + DONE)


@inline_kernel
def wait_done(board, n, spins):
    """The calling thread's wait until the step's ``n`` worlds are done (or a helper's call
    ended in an error: ``GONE``): ``spins`` spin-wait hints, then sleeps on ``DONE`` (counted
    in ``CALLER_ASLEEP`` first: :func:`worlds_done` wakes it)."""
    top = board.shape[0] - HEADER
    for _ in range(spins):
        if load_acquire(board, top + DONE) == n:
            return
        spin_pause()
    while load_acquire(board, top + DONE) != n and load_acquire(board, top + GONE) == 0:
        fetch_add(board, top + CALLER_ASLEEP, 1)
        seen = load_acquire(board, top + DONE)
        if seen != n:
            sleep_on(board, top + DONE, seen, JOIN_SLEEP_NS)
        fetch_add(board, top + CALLER_ASLEEP, -1)


@inline_kernel
def take_step(board, last, which, args, rows, positions, angles, velocities, awake, touching):
    """A helper's next step after number ``last`` (:func:`next_step`): its number and its
    arrays, each of the type of its namesake here (the helper's own arguments, empty), over
    the poster's memory; ``(0, the arguments)`` when the crew is called off. The words are
    read between two reads of ``FIELDS_OF`` that both name the step (else read again): a
    helper late for a step may find the next one's words being written."""
    top = board.shape[0] - HEADER
    while True:
        g = next_step(board, last)
        if g == 0:
            return 0, which, args, rows, positions, angles, velocities, awake, touching
        if load_acquire(board, top + FIELDS_OF) == g:
            m, nb = load_acquire(board, top + GATHERED), load_acquire(board, top + NB)
            arrays = (
                array_at(which, load_acquire(board, top + WHICH), (load_acquire(board, top + N),)),
                array_at(args, load_acquire(board, top + ARGS),
                         (load_acquire(board, top + ARGS_ROWS), load_acquire(board, top + ARGS_COLS))),
                array_at(rows, load_acquire(board, top + ROWS), (load_acquire(board, top + ROWS_N),)),
                array_at(positions, load_acquire(board, top + POSITIONS), (m, nb, 2)),
                array_at(angles, load_acquire(board, top + ANGLES), (m, nb)),
                array_at(velocities, load_acquire(board, top + VELOCITIES), (m, nb, 3)),
                array_at(awake, load_acquire(board, top + AWAKE), (m, nb)),
                array_at(touching, load_acquire(board, top + TOUCHING), (m, nb)))
            if load_acquire(board, top + FIELDS_OF) == g:
                return (g, arrays[0], arrays[1], arrays[2], arrays[3], arrays[4], arrays[5],
                        arrays[6], arrays[7])
        last = g  # (a newer step is being posted: its number comes next)


_post = DirectCall(post, "the batch's crew", 1.0)
_call_off = DirectCall(call_off, "the batch's crew", 0.5)
