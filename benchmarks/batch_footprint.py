"""What a world-step of a batch reaches in memory: every array behind each world's step
reference, its cache lines and pages, the allocations they lie in, and how far apart the
worlds are.

    PYTHONPATH=src python benchmarks/batch_footprint.py [--worlds 1024] [--steps 60] [--json F]

The batch is ``batch_bench.py``'s (``WorldBatch.replicate(ten_bodies(), n)``, 10 bodies, the
soft step, sleeping on), stepped ``--steps`` steps. For each world, a kernel lists every array
its reference holds (the five stores, the joint lists, the step row, clock, verbs, lengths,
diagnostics, awake sets, the kept grids, the scratch): its data's address and bytes and its
NRT MemInfo's address (the reference count a counting kernel writes), and the reference's own
allocation (a header, then the ~170 arrays' descriptors). Reported per world (median over the
worlds): arrays, bytes, the 64-byte lines of their data (each array whole), of their MemInfos,
of the reference; the 4 KiB pages of all of them (what the TLB holds); the lines by store. And
the batch's spread: the address range of all worlds' data, and the median distance between
one world's data and the next one's.

``prefetched_lines``: the lines the batch kernel asks for before a world's step (its
reference less the joint store's descriptors for a world without joints, the body and shape
columns but ``batch_step.UNREAD``'s over the rows in use, the other stores and arrays whole:
:func:`impulse2d._dynamics.batch_step.prefetch_world`), and ``prefetched_lines_s19``, those
session 19's kernel asked for (the whole reference, every column of the four stores whole).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numba
import numpy as np
from numba import literal_unroll

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from batch_bench import ten_bodies  # noqa: E402
from batch_prefetch_ab import _data_of, _head_at, _meminfo_of, _payload_end  # noqa: E402

from impulse2d._core.state import Bodies, Shapes  # noqa: E402
from impulse2d._dynamics import batch_step  # noqa: E402
from impulse2d._dynamics.world_ref import borrow  # noqa: E402

GROUPS = ("bodies", "shapes", "joints", "contacts", "constraints", "others", "scratch")


@numba.njit
def _put(out, n, group, a):
    out[n, 0] = _data_of(a)
    out[n, 1] = a.nbytes
    out[n, 2] = _meminfo_of(a)
    out[n, 3] = group
    return n + 1


@numba.njit
def _put_all(out, n, group, store):
    for a in literal_unroll(store):
        n = _put(out, n, group, a)
    return n


@numba.njit
def _spans(refs, k):
    """(data address, bytes, MemInfo address, group) of every array of reference ``k``, and
    the reference's own allocation (its MemInfo's address, the payload's end)."""
    ref = refs[k]
    out = np.zeros((400, 4), dtype=np.int64)
    n = 0
    n = _put_all(out, n, 0, borrow(ref, "bodies"))
    n = _put_all(out, n, 1, borrow(ref, "shapes"))
    n = _put_all(out, n, 2, borrow(ref, "joints"))
    n = _put_all(out, n, 3, borrow(ref, "contacts"))
    n = _put_all(out, n, 4, borrow(ref, "constraints"))
    n = _put_all(out, n, 5, borrow(ref, "joint_ids"))
    n = _put(out, n, 5, borrow(ref, "no_collide"))
    n = _put(out, n, 5, borrow(ref, "clock"))
    n = _put(out, n, 5, borrow(ref, "verbs"))
    n = _put(out, n, 5, borrow(ref, "diagnostics"))
    n = _put(out, n, 5, borrow(ref, "lengths"))
    n = _put(out, n, 5, borrow(ref, "settings"))
    n = _put_all(out, n, 5, borrow(ref, "static_grid"))
    n = _put(out, n, 5, borrow(ref, "awake_state"))
    n = _put(out, n, 5, borrow(ref, "awake_bodies"))
    n = _put(out, n, 5, borrow(ref, "awake_shapes"))
    n = _put(out, n, 5, borrow(ref, "awake_contacts"))
    n = _put(out, n, 5, borrow(ref, "contact_edges"))
    n = _put_all(out, n, 5, borrow(ref, "resting"))
    n = _put(out, n, 6, borrow(ref, "scratch"))
    n = _put(out, n, 6, borrow(ref, "scratch_f"))
    head = _head_at(refs, k)
    return out[:n], head, _payload_end(head)


@numba.njit
def _joint_span(refs, k):
    return batch_step._descriptors_span(batch_step._reference_head(refs, k), "joints")


_PREFETCHED = (0, 1, 3, 4, 5)  # the groups the kernel prefetches: not the joints, the scratch


def prefetched(refs, k: int, spans, head: int, end: int, world) -> tuple:
    """``(lines now, lines in session 19)`` that the batch kernel asks for before world
    ``k``'s step (see the module's docstring)."""
    first, stop = _joint_span(refs, k)
    ref = set(_lines(head, end - head))
    joints = {line for line in ref if line * 64 >= first and line * 64 + 64 <= stop}
    has_joints = any(len(r) for r in world._joint_rows()["by_type"])
    now = ref - (set() if has_joints else joints)
    old = set(ref)
    stores = (world._bodies, world._shapes)
    rows = [int(np.flatnonzero(store.alive)[-1]) + 1 if store.alive.any() else 0
            for store in stores]  # (batch_step.rows_in_use, which Python cannot call)
    unread = [{type(store)._fields.index(c) for c in batch_step.UNREAD[type(store)]}
              for store in stores]
    first_of = (0, len(stores[0]))  # each store's first entry in spans
    for n, (address, nbytes, _, group) in enumerate(spans.tolist()):
        if group not in _PREFETCHED or not nbytes:
            continue
        old.update(_lines(address, nbytes))
        if group < 2:
            if n - first_of[group] in unread[group]:
                continue
            if rows[group]:
                nbytes = min(nbytes, rows[group] * (nbytes // len(stores[group].alive)))
        now.update(_lines(address, nbytes))
    return len(now), len(old)


def _lines(start: int, nbytes: int, size: int = 64) -> range:
    return range(start // size, (start + max(nbytes, 1) - 1) // size + 1)


def world_footprint(refs, k: int, world) -> dict:
    spans, head, end = _spans(refs, k)
    now, before = prefetched(refs, k, spans, head, end, world)
    data_lines, meminfo_lines, pages = set(), set(), set()
    by_group = {g: set() for g in GROUPS}
    for address, nbytes, meminfo, group in spans.tolist():
        if nbytes:
            lines = _lines(address, nbytes)
            data_lines.update(lines)
            by_group[GROUPS[group]].update(lines)
            pages.update(_lines(address, nbytes, 4096))
        if meminfo:
            meminfo_lines.add(meminfo // 64)
            pages.add(meminfo // 4096)
    ref_lines = set(_lines(head, end - head))
    pages.update(_lines(head, end - head, 4096))
    nonzero = spans[spans[:, 1] > 0]
    return {"arrays": int(spans.shape[0]), "arrays_with_data": int(nonzero.shape[0]),
            "bytes": int(spans[:, 1].sum()), "data_lines": len(data_lines),
            "meminfo_lines": len(meminfo_lines - data_lines),
            "reference_bytes": int(end - head), "reference_lines": len(ref_lines),
            "all_lines": len(data_lines | meminfo_lines | ref_lines), "pages": len(pages),
            "prefetched_lines": now, "prefetched_lines_s19": before,
            **{f"lines_{g}": len(v) for g, v in by_group.items()},
            "lowest": int(min(nonzero[:, 0].min(), head)),
            "highest": int(max((nonzero[:, 0] + nonzero[:, 1]).max(), end))}


def main() -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worlds", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    import impulse2d as i2d
    batch = i2d.WorldBatch.replicate(ten_bodies(), args.worlds, threads=1)
    for _ in range(args.steps):
        batch.step(1 / 60)
    refs = batch._state.current_refs()
    rows = [world_footprint(refs, k, w) for k, w in enumerate(batch.worlds)]
    out = {"worlds": args.worlds, "steps": args.steps,
           "median": {key: float(np.median([r[key] for r in rows]))
                      for key in rows[0] if key not in ("lowest", "highest")}}
    lows = np.array([r["lowest"] for r in rows])
    highs = np.array([r["highest"] for r in rows])
    out["span_of_all_worlds_mb"] = float((highs.max() - lows.min()) / 2 ** 20)
    out["median_span_of_a_world_kb"] = float(np.median(highs - lows) / 1024)
    out["median_gap_to_next_world_kb"] = float(np.median(np.abs(np.diff(lows))) / 1024)
    for key, value in out["median"].items():
        print(f"{key:>22}: {value:10.0f}")
    print(f"span of all worlds {out['span_of_all_worlds_mb']:.1f} MB; one world's span "
          f"(median) {out['median_span_of_a_world_kb']:.0f} KB; the next world's lowest "
          f"address {out['median_gap_to_next_world_kb']:.0f} KB away (median)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
