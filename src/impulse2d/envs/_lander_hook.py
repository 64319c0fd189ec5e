"""The native LunarLander's per-world work inside the batch kernel: a step's hook
(:data:`impulse2d._dynamics.batch_step.HOOK_FUNCTION`).

A LunarLander vector step of 1,024 environments ran two compiled passes over every environment
on the calling thread, while the batch's other thread waited: the engines before the batch
kernel (the throttles, the dispersion drawn from each environment's generator, the impulse
into its row of the kernel's arguments: ~76 us) and the step's end after it (the rest timers,
observation, reward, ending, the episodes' step counts: ~116 us), each over 1,024 environments'
rows that the kernel's stream of worlds had evicted (BENCHMARKS.md, session 32's ``clockC57``:
419 us of serial Python a vector step). Here each is one environment's work, done by the
thread that steps its world: the engines right before the world's writes, the step's end right
after its state is gathered, on the world's own rows (no thread writes another's row), both
threads at once.

The batch kernel stays one generic kernel: it calls :func:`lander_hook` by address (its C
wrapper, a :class:`~impulse2d._core.lazy.LazyKernel`, cached on its own: compiled once, its
source in this package, whose edits its own cache entry's stamp covers), with the address of
:class:`HookTable`'s words, which hold every array's address, the counts and the constants;
an environment without a hook passes 0 and the kernel calls nothing. Arrays are rebuilt from
their addresses (:func:`_at`, owning nothing): the environment holds every one of them
for as long as the table names it.

Every operation is :mod:`._lander_step`'s, in its order (:func:`._lander_step._engine`,
:func:`._lander_step.end_world`, the same inlined functions as the passes), so every bit is
the passes': ``benchmarks/lander_env_ab.py``'s observations and ``envs_steps.py``'s episode
hashes.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

from .._core.jit import DirectCall, entry_kernel, kernel
from .._core.lazy import LazyKernel
from .._dynamics.atomics import fetch_add
from .._dynamics.batch_crew import address_of
from .._dynamics.batch_step import HOOK_AFTER, HOOK_BEFORE, HOOK_FUNCTION, _prefetch_line
from ._lander_step import STATE_BYTES, _engine, _throttle, end_world, valid_discrete

# The table's words (int64): the hook's address (read by the batch kernel), counts and flags,
# then the arrays' addresses.
(FUNCTION, N, NB, CONTINUOUS, MAX_STEPS, FIRST, ARGS_COLS, READY_COUNT,
 ACTIONS, ACTING, M_POWER, S_POWER, DIRECTION, POSE, DRAWS, ARGS, CONSTANTS,
 POSITIONS, ANGLES, VELOCITIES, TOUCHING, AWAKE, EXTENT, THRESHOLD, SLOW, ELAPSED, LEGS,
 PREV_SHAPING, OBS, REWARD, TERMINATED, TRUNCATED, READY, FINISHED, NEXT_ACTING,
 BACKUP) = range(36)
WORDS = 36
assert FUNCTION == HOOK_FUNCTION

# The constants (float64, CONSTANTS' array): the engines' (_lander_step._engines' arguments of
# these names) and the step's end's (after_step's; HALF_W, HALF_H: half the view, m).
(LC0, LC1, MAIN_Y, MAIN_POWER, SIDE_AWAY, SIDE_POWER, SIDE_X, SIDE_HEIGHT, SCALE, DT,
 TIME_TO_SLEEP, HALF_W, HALF_H, PAD_Y, FPS) = range(15)
CONSTANT_COUNT = 15

OBSERVATION = 8

AHEAD = 2
"""Environments ahead whose generators' states the engines ask the cache for (each in an
object of its own: a miss, where the rows of the table's arrays are walked in order and
streamed), as :data:`._lander_step.AHEAD` in the pass over the batch."""


@intrinsic
def _at(typingctx, address, shape, dtype):
    """A C-contiguous array of ``dtype`` (a NumPy scalar type) and ``shape`` (a tuple of
    integers) over the memory at ``address`` (int64), owning nothing (no MemInfo): the
    table's arrays, which the environment holds (``numba.carray`` returns no array from a
    kernel without reference counting, as :func:`lander_hook` is)."""
    if not (isinstance(address, types.Integer) and isinstance(shape, types.BaseTuple)
            and isinstance(dtype, types.NumberClass)):
        return None
    array_type = types.Array(dtype.instance_type, len(shape), "C")

    def codegen(context, builder, signature, args):
        ary = context.make_array(array_type)(context, builder)
        itemsize = context.get_abi_sizeof(context.get_data_type(array_type.dtype))
        i64 = ir.IntType(64)
        dims = [context.cast(builder, v, t, types.intp)
                for v, t in zip(cgutils.unpack_tuple(builder, args[1]), signature.args[1])]
        strides, step = [], i64(itemsize)
        for d in reversed(dims):
            strides.insert(0, step)
            step = builder.mul(step, d)
        populate_array(ary, data=builder.inttoptr(args[0], ary.data.type), shape=dims,
                       strides=strides, itemsize=i64(itemsize), meminfo=None)
        return ary._getvalue()

    return array_type(address, shape, dtype), codegen


@entry_kernel
def lander_hook(i, phase, table):
    """Environment ``i``'s engines (``phase`` HOOK_BEFORE: the throttles from its action
    unless :data:`CONTINUOUS`, then the impulse into its row of the kernel's arguments) or its
    step's end (HOOK_AFTER, or HOOK_AGAIN: undone first, from :data:`BACKUP`, which HOOK_AFTER
    wrote), over the arrays whose
    addresses the table at ``table`` holds (:data:`WORDS`). Returns 0."""
    t = _at(table, (WORDS,), np.int64)
    n = t[N]
    nb = t[NB]
    acting = _at(t[ACTING], (n,), np.bool_)
    m_power = _at(t[M_POWER], (n,), np.float64)
    s_power = _at(t[S_POWER], (n,), np.float64)
    c = _at(t[CONSTANTS], (CONSTANT_COUNT,), np.float64)
    if phase == HOOK_BEFORE:
        direction = _at(t[DIRECTION], (n,), np.float64)
        draws = _at(t[DRAWS], (n, 2), np.int64)
        if i + AHEAD < n:  # (a thread walks its worlds up: the next ones' draws)
            _prefetch_line(draws[i + AHEAD, 1])
            _prefetch_line(draws[i + AHEAD, 1] + STATE_BYTES - 1)
        if t[CONTINUOUS] == 0:
            actions = _at(t[ACTIONS], (n,), np.float64)
            _throttle(i, actions[i], acting, m_power, s_power, direction)
        _engine(i, _at(t[POSE], (n, 3), np.float64), c[LC0], c[LC1], draws, acting, m_power,
                s_power, direction, c[MAIN_Y], c[MAIN_POWER], c[SIDE_AWAY], c[SIDE_POWER],
                c[SIDE_X], c[SIDE_HEIGHT], c[SCALE], _at(t[ARGS], (n, t[ARGS_COLS]), np.float64),
                t[FIRST])
        return 0
    elapsed = _at(t[ELAPSED], (n,), np.int64)
    slow = _at(t[SLOW], (n, nb), np.float64)
    prev_shaping = _at(t[PREV_SHAPING], (n,), np.float64)
    backup = _at(t[BACKUP], (n, 2 + nb), np.float64)
    ready = _at(t[READY], (n,), np.bool_)
    if phase == HOOK_AFTER:
        backup[i, 0] = elapsed[i]
        backup[i, 1] = prev_shaping[i]
        for j in range(nb):
            backup[i, 2 + j] = slow[i, j]
    else:  # HOOK_AGAIN: as before this step's end
        elapsed[i] = np.int64(backup[i, 0])
        prev_shaping[i] = backup[i, 1]
        for j in range(nb):
            slow[i, j] = backup[i, 2 + j]
        if ready[i]:
            fetch_add(t, READY_COUNT, -1)
    if end_world(
            i, not acting[i], t[MAX_STEPS],
            _at(t[POSITIONS], (n, nb, 2), np.float64),
            _at(t[ANGLES], (n, nb), np.float64),
            _at(t[VELOCITIES], (n, nb, 3), np.float64),
            _at(t[TOUCHING], (n, nb), np.bool_),
            _at(t[AWAKE], (n, nb), np.bool_),
            _at(t[EXTENT], (nb,), np.float64),
            _at(t[THRESHOLD], (nb,), np.float64), slow, c[DT],
            c[TIME_TO_SLEEP], elapsed, _at(t[POSE], (n, 3), np.float64),
            _at(t[LEGS], (n, 2), np.bool_), prev_shaping, m_power, s_power,
            c[HALF_W], c[HALF_H], c[PAD_Y], c[FPS],
            _at(t[OBS], (n, OBSERVATION), np.float32),
            _at(t[REWARD], (n,), np.float64),
            _at(t[TERMINATED], (n,), np.bool_),
            _at(t[TRUNCATED], (n,), np.bool_), ready,
            _at(t[FINISHED], (n,), np.bool_),
            _at(t[NEXT_ACTING], (n,), np.bool_)):
        fetch_add(t, READY_COUNT, 1)
    return 0


HOOK = LazyKernel(lander_hook, types.int64(types.int64, types.int64, types.int64),
                  "the native LunarLander's hook", 1.5)
""":func:`lander_hook` compiled for the batch kernel's call (its address: the table's
:data:`FUNCTION`)."""


@kernel
def arm(table, actions, acting, m_power, s_power, direction, obs, reward, terminated,
        truncated, finished, next_acting):
    """The table's arrays that change from one step to the next, written (their addresses);
    the actions checked first (``actions``: float64, or empty for continuous actions, whose
    throttles the caller made): False, nothing written, if one is not 0, 1, 2 or 3."""
    if actions.shape[0] > 0 and not valid_discrete(actions):
        return False
    table[ACTIONS] = address_of(actions)
    table[ACTING] = address_of(acting)
    table[M_POWER] = address_of(m_power)
    table[S_POWER] = address_of(s_power)
    table[DIRECTION] = address_of(direction)
    table[OBS] = address_of(obs)
    table[REWARD] = address_of(reward)
    table[TERMINATED] = address_of(terminated)
    table[TRUNCATED] = address_of(truncated)
    table[FINISHED] = address_of(finished)
    table[NEXT_ACTING] = address_of(next_acting)
    table[READY_COUNT] = 0
    return True


_arm = DirectCall(arm, "the native LunarLander's hook", 1.0)


@kernel
def restarts(finished, restart):
    """The environments ``finished`` (their indices, ascending) into ``restart``; how many
    (a next-step autoreset's restarts: the hook wrote the flags, world by world)."""
    count = 0
    for i in range(finished.shape[0]):
        if finished[i]:
            restart[count] = i
            count += 1
    return count


_restarts = DirectCall(restarts, "the native LunarLander's hook", 0.5)


@kernel
def fix(table, pose, draws, args, constants, positions, angles, velocities, touching, awake,
        extent, threshold, slow, elapsed, legs, prev_shaping, ready, backup):
    """The table's arrays that stay for the environment's life, written (their addresses)."""
    table[POSE] = address_of(pose)
    table[DRAWS] = address_of(draws)
    table[ARGS] = address_of(args)
    table[ARGS_COLS] = args.shape[1]
    table[CONSTANTS] = address_of(constants)
    table[POSITIONS] = address_of(positions)
    table[ANGLES] = address_of(angles)
    table[VELOCITIES] = address_of(velocities)
    table[TOUCHING] = address_of(touching)
    table[AWAKE] = address_of(awake)
    table[EXTENT] = address_of(extent)
    table[THRESHOLD] = address_of(threshold)
    table[SLOW] = address_of(slow)
    table[ELAPSED] = address_of(elapsed)
    table[LEGS] = address_of(legs)
    table[PREV_SHAPING] = address_of(prev_shaping)
    table[READY] = address_of(ready)
    table[BACKUP] = address_of(backup)


__all__ = ["lander_hook", "HOOK", "arm", "fix", "WORDS"]
