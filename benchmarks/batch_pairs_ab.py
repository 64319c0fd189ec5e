"""The pair stage's reference counts in a batch: its two counting stage kernels with the
world's arrays read uncounted, against the same kernels counting, in one process.

    PYTHONPATH=src python benchmarks/batch_pairs_ab.py [--worlds 1024] [--steps 120] \\
        [--json benchmarks/results/batch_pairs_ab_s23.json]

The pair stage (:func:`impulse2d._dynamics.pair_update.update_pairs` and its incremental path
:func:`~impulse2d._dynamics.pair_update.moved_pairs_stage`, called by address from the world's
table of verbs) allocates, so it counts references: each array it reads from the world's
reference (``borrow``, ``borrow_column``, ``world.shapes``) is incremented and decremented
in its NRT MemInfo. A world's arrays made by Python have MemInfos of their own, made by
Numba's adapter when the reference was built: among 1,024 worlds each such line is out of
the cache, and the increment is a locked write that waits for it.

Variants (each steps its own copy of ``batch_bench.py``'s batch, ``WorldBatch.replicate(
ten_bodies(), n)``, a **world-step** one 1/60 s soft step, 4 substeps, 1 iteration, sleeping
on; the first ``--steps`` steps from the drop; every step of the run steps each variant's
batch once, in an order rotated from step to step, timed by the thread's CPU clock):

* ``main``: the tree's own pair stage (from the cache);
* ``counted``: the two stage kernels as main's ``pair_update.py`` has them (session 22),
  compiled in this process (the control for code placement);
* ``peeked``: the same, every array of the world read uncounted (:func:`peek`,
  :func:`peek_column`: the array's descriptor with a null MemInfo, on which Numba's
  ``NRT_incref`` and ``NRT_decref`` return at once, as on an array made by ``carray``).

Result (session 23, 1,024 worlds, load 10-14): ``peeked`` 1.013 and 1.000 of ``counted`` by
the median of the steps' ratios: the pair stage's counts are not where a world-step's time
goes (as session 20 found for the batch kernel's own scratch).

The variants' addresses are written into the ``PAIRS`` and ``MOVED_PAIRS`` slots of every
world's table of verbs after the first step (which fills the table). Every batch must end with
the same hash of every world's positions and velocities.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time

import numpy as np
from numba.core import cgutils, types
from numba.extending import intrinsic

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from batch_bench import ten_bodies  # noqa: E402

import impulse2d as i2d  # noqa: E402
from impulse2d._core.jit import stage_kernel  # noqa: E402
from impulse2d._dynamics import pair_update as pu  # noqa: E402
from impulse2d._dynamics.awake import EDGES_VALID, RESTING_VALID, SHAPE_COUNT, moved_keys  # noqa: E402
from impulse2d._dynamics.contacts import (FRICTION_MIXING, RESTITUTION_MIXING,  # noqa: E402
                                          allocate_contacts, carry_contacts, filter_pairs)
from impulse2d._dynamics.resting import AWAKE_FRACTION, build_resting, note_moves  # noqa: E402
from impulse2d._dynamics.verbs import (MOVED_PAIRS, MOVED_PAIRS_SIGNATURE, PAIRS,  # noqa: E402
                                       PAIRS_SIGNATURE, SEARCH_PAIRS, call_moved_pairs,
                                       call_search_pairs)
from impulse2d._dynamics.world_ref import (WorldStoresType, _payload, borrow,  # noqa: E402
                                            borrow_column)


def _uncounted(context, builder, typ, value):
    """``value`` (an array, or a tuple holding some) with each array's MemInfo null."""
    if isinstance(typ, types.Array):
        a = context.make_array(typ)(context, builder, value)
        a.meminfo = cgutils.get_null_value(a.meminfo.type)
        return a._getvalue()
    if isinstance(typ, types.BaseTuple):
        for k, t in enumerate(typ.types):
            value = builder.insert_value(value, _uncounted(
                context, builder, t, builder.extract_value(value, k)), k)
    return value


@intrinsic
def peek(typingctx, ref, name):
    """``ref.<name>`` uncounted (:func:`_uncounted`)."""
    if not isinstance(ref, WorldStoresType) or not isinstance(name, types.StringLiteral):
        return None
    field_type = ref.field_dict[name.literal_value]

    def codegen(context, builder, signature, args):
        value = getattr(_payload(context, builder, ref, args[0]), name.literal_value)
        return _uncounted(context, builder, field_type, value)

    return field_type(ref, name), codegen


@intrinsic
def peek_column(typingctx, ref, name, column):
    """``ref.<name>.<column>`` uncounted (:func:`_uncounted`)."""
    if (not isinstance(ref, WorldStoresType) or not isinstance(name, types.StringLiteral)
            or not isinstance(column, types.StringLiteral)):
        return None
    store_type = ref.field_dict[name.literal_value]
    index = store_type.fields.index(column.literal_value)
    column_type = store_type.types[index]

    def codegen(context, builder, signature, args):
        store = getattr(_payload(context, builder, ref, args[0]), name.literal_value)
        return _uncounted(context, builder, column_type, builder.extract_value(store, index))

    return column_type(ref, name, column), codegen


def _stages(take, take_column):
    """The pair stage's two kernels with the world's arrays read by ``take`` /
    ``take_column`` (main's ``pair_update.py`` of session 22 otherwise)."""

    @stage_kernel
    def moved(world, moved, n_moved):
        alive = take_column(world, "shapes", "alive")
        n = alive.shape[0]
        state = take(world, "awake_state")
        few = n * n_moved <= pu.FEW_TESTS
        if few and pu._moves_keep_world(world, moved, n_moved):
            return False, moved[:0].reshape((0, 2))
        fat = take_column(world, "shapes", "fat_aabb")
        indexed = not few and (state[RESTING_VALID] != 0
                               or AWAKE_FRACTION * state[SHAPE_COUNT] <= n)
        if indexed and state[RESTING_VALID] == 0:
            world.resting = build_resting(fat, alive)
            state[RESTING_VALID] = 1
        keys, n_keys = moved_keys(world, moved, n_moved)
        return pu.pairs_after_moves(
            take_column(world, "contacts", "key"), moved, n_moved, fat, alive,
            take_column(world, "shapes", "body"), take_column(world, "bodies", "type"),
            take_column(world, "shapes", "is_sensor"), take_column(world, "shapes", "group"),
            take_column(world, "shapes", "category"), take_column(world, "shapes", "mask"),
            take(world, "no_collide"), np.int64(pu.FEW_TESTS), keys, n_keys,
            take(world, "resting"), indexed)

    @stage_kernel
    def pairs(world, moved, n_moved, dirty):
        alive = take_column(world, "shapes", "alive")
        n = alive.shape[0]
        old_keys = take_column(world, "contacts", "key")
        state = take(world, "awake_state")
        if state[RESTING_VALID] != 0 and not note_moves(take(world, "resting"), moved, n_moved):
            state[RESTING_VALID] = 0
        table = take(world, "verbs")
        incremental = table[MOVED_PAIRS]
        if (incremental != 0 and not dirty
                and (n * n_moved <= pu.FEW_TESTS or pu.INCREMENTAL_BELOW * n_moved <= n)):
            changed, found = call_moved_pairs(incremental, (world, moved, n_moved))
            if not changed:
                return False
        else:
            body = take_column(world, "shapes", "body")
            group = take_column(world, "shapes", "group")
            found = filter_pairs(call_search_pairs(table[SEARCH_PAIRS], (
                                     take_column(world, "shapes", "fat_aabb"), alive, body,
                                     group, pu.CELL_SCALE, pu.LARGE_CELLS, pu.SWEEP_BELOW)),
                                 body, take_column(world, "bodies", "type"),
                                 take_column(world, "shapes", "is_sensor"), group,
                                 take_column(world, "shapes", "category"),
                                 take_column(world, "shapes", "mask"), take(world, "no_collide"))
            if pu._same_pairs(old_keys, found):
                return False
        fresh = allocate_contacts(found.shape[0], take(world, "contacts"))
        rules = take(world, "settings")
        carry_contacts(take(world, "contacts"), fresh, found, take(world, "shapes"),
                       np.int64(rules[FRICTION_MIXING]), np.int64(rules[RESTITUTION_MIXING]))
        world.contacts = fresh
        take(world, "awake_state")[EDGES_VALID] = 0
        return True

    return pairs, moved


def _address(dispatcher, signature) -> int:
    dispatcher.compile(signature.args)
    result = dispatcher.overloads[signature.args]
    return result.library.get_pointer_to_function(result.fndesc.llvm_cfunc_wrapper_name)


def _addresses(take, take_column) -> tuple:
    pairs, moved = _stages(take, take_column)
    return _address(pairs, PAIRS_SIGNATURE), _address(moved, MOVED_PAIRS_SIGNATURE)


def _hash(batch) -> str:
    h = hashlib.sha256()
    for a in (batch.get_positions(), batch.get_velocities()):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def run(n: int, steps: int, variants: dict) -> dict:
    batches = {v: i2d.WorldBatch.replicate(ten_bodies(), n, threads=1) for v in variants}
    cpu = {v: [] for v in variants}
    for v, batch in batches.items():
        c = time.thread_time()
        batch.step(1 / 60)
        cpu[v].append(time.thread_time() - c)
        if variants[v] is not None:
            for w in batch.worlds:
                w._verbs[PAIRS], w._verbs[MOVED_PAIRS] = variants[v]
    names = list(variants)
    for s in range(1, steps):
        r = s % len(names)
        for v in names[r:] + names[:r]:
            c = time.thread_time()
            batches[v].step(1 / 60)
            cpu[v].append(time.thread_time() - c)
    out = {}
    for v in names:
        t = np.array(cpu[v])
        out[v] = {"us_a_world_step": float(t.sum() / (steps * n) * 1e6),
                  "hash": _hash(batches[v]), "steps_s": t.tolist()}
    base = np.array(cpu[names[0]])
    for v in names[1:]:
        out[v]["median_step_ratio_first_over_this"] = float(np.median(base / np.array(cpu[v])))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--worlds", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--variants", default="counted,peeked,main")
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    made = {"main": lambda: None, "counted": lambda: _addresses(borrow, borrow_column),
            "peeked": lambda: _addresses(peek, peek_column)}
    variants = {v: made[v]() for v in args.variants.split(",")}
    rounds = []
    for r in range(args.rounds):
        load = os.getloadavg()[0]
        res = run(args.worlds, args.steps, variants)
        res["load"] = [load, os.getloadavg()[0]]
        rounds.append(res)
        print(f"round {r} (load {res['load'][0]:.1f}-{res['load'][1]:.1f}): " + "; ".join(
            f"{v} {res[v]['us_a_world_step']:.3f} us {res[v]['hash']}"
            + (f" ({res[v]['median_step_ratio_first_over_this']:.3f})"
               if "median_step_ratio_first_over_this" in res[v] else "")
            for v in variants), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"worlds": args.worlds, "steps": args.steps, "rounds": rounds}, f)


if __name__ == "__main__":
    main()
