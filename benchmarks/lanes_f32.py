"""The lanes' contact passes in single precision: Box2D v3's float32, 8 rows a ``ymm`` register,
against the engine's float64, 4 a register. Measured in a benchmark only; the engine is unchanged.

    PYTHONPATH=src python benchmarks/lanes_f32.py [--reps 21] [--steps 600] [--out FILE]
        [--skip-physics] [--skip-timing] [--asm] [--scenes pyramid_100,many_pyramids,rain_2000]

**The passes.** :func:`make_passes` builds the engine's pass loops (``_gather``, ``_warm_lanes``,
``_solve_lanes``, ``_scatter`` and their drivers ``warm_start_contacts_wide`` and
``solve_contacts_wide`` of :mod:`impulse2d._dynamics.contact_lanes`), copied with every value
the arithmetic touches in one floating type ``F``: each lane is read as ``F`` (a no-op for lanes
of that type, a rounding for float64 lanes), every literal and argument is ``F``, and the pass's
scratch chunk (the bodies' velocities and the points' gaps) holds ``F``. The body store stays
float64 (the engine's): the gather converts the velocities and in-step displacements to ``F``
and the scatter widens them back, so the bodies hold float32-exact velocities after a float32
pass but integrate in float64 (Box2D keeps its solver bodies in float32 throughout: this
models its rows and passes, not its integration). ``F = float64`` gives the engine's bits
(checked: the copy is the engine's loops, not a variant of them). The lanes keep the engine's
layout (41 fields of 64-row chunks); float32 lanes are half its bytes (2.45 MB on
pyramid_100's 14,950 rows against 4.9).

**Timing** (``--skip-timing`` leaves it out): five kinds on the same loaded world's rows,
interleaved in one process, their order rotating every repetition:

* ``f64``: the engine's own passes (its compiled ``warm_start_contacts_wide`` and
  ``solve_contacts_wide``);
* ``f64copy``: this file's copy with ``F = float64`` (the same bits; its speed says whether
  the copy is a fair base for the next);
* ``f32``: the copy with ``F = float32`` on float32 lanes (the prepared rows rounded once);
* ``f32on64``: the same float32 arithmetic on the float64 lanes (each lane rounded as it is
  read, widened as it is written): whether 8 rows a register pay without the halved bytes;
* ``f64on32``: the float64 arithmetic on float32 lanes (each lane widened as it is read,
  rounded as it is written): whether the halved bytes pay without the width.

A repetition, per kind: the kind's lanes restored from its prepared copy (untimed; it leaves
them in the cache as a step's prepare does) and the bodies from the loaded world's, then a
soft step's passes, 4 substeps (1/240 s) of a warm start, a biased and a relax pass (the last
relax adding the step's totals), each timed (thread CPU). Sizes: ``L1``, the first chunk of
pyramid_100's rows (64 rows, 21 KB of float64 lanes) passed over 400 times a timing (when
pyramid_100 is among ``--scenes``); and each scene's rows whole: pyramid_100 (14,950 rows),
many_pyramids (14,500), rain_2000 (4,347, one point each). Printed: ns a row a pass, the
minimum over the repetitions, and the f32 / f64 ratio of the minima and the median of the
repetitions' ratios; and the largest difference of a body's velocity between f32 and f64 after
a repetition (in ``L1`` the same rows are passed over 4,800 times without integration: not
physics there).

**Physics** (``--skip-physics`` leaves it out): each scene built three times in one process,
sleeping off (a pyramid that fell asleep would stop the runs' differences): one with the
engine's passes; one with the float32 passes in the world's slot of contact passes
(``impulse2d._dynamics.step.LANES_KERNEL`` swapped before its first step: the same copy with
``F = float32`` on the engine's float64 lanes, which a float32 lane would hold bit for bit,
since every value the passes write is a float32 and the prepare's are rounded at their first
read); and, to read the float32 run's differences against, the engine's passes with gravity
one float32 ulp larger (``f64_gravity``: x (1 + 2^-23)). Restitution (row by row, float64)
and the rest of the step are the engine's. Printed after ``--steps`` steps at 60 Hz: the
largest position and angle difference of a body from the first run, the largest drop of a
body from where it was built and its largest displacement (does the pyramid stand), and the
kinetic energy of each run.

**Once a step** (with the timing): the prepare and the kept impulses' copy back to the rows
(:func:`once_a_step`), on float64 and on float32 lanes: what else a float32 solver's lanes
change.

**Machine code** (``--asm``): :func:`machine_code`'s counts of the float32 passes'
instructions.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import time
from pathlib import Path

import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

import impulse2d
import impulse2d._dynamics.step as _step
from contact_stages import loaded_world
from impulse2d._core.lazy import LazyKernel
from impulse2d._core.state import DYNAMIC
from impulse2d._dynamics.contact_lanes import (LANE_MODE, LANE_WARM_START, _piece,
                                               solve_contacts_wide, store_lane_impulses,
                                               warm_start_contacts_wide)
from impulse2d._dynamics.contact_solver import prepare_contacts
from impulse2d._dynamics.lane_layout import (BASE, BIAS, CHUNK, FRICTION, GAP, GAP_STEP,
                                             I_A, I_B, IMPULSE_SCALE, M_A, M_B, MASS_SCALE, MAXN,
                                             NIMP, NMASS, NX, NY, POINT_STEP, RATE, RAX, RAY,
                                             RBX, RBY, SCRATCH_DOUBLES, TIMP, TMASS, TOTN, TOTT,
                                             TWO, UNN, UNT, VAX, VAY, VBX, VBY, WA, WB,
                                             flat_lanes)
from impulse2d._dynamics.verbs import LANES_SIGNATURE
from impulse2d._dynamics.world_ref import borrow
from impulse2d.scenes import build_scene, step_scene
from wide_solver import _copy

H = 1.0 / 240.0
SUBSTEPS = 4
_JIT = dict(cache=False, fastmath=False, error_model="numpy", _nrt=False)
SCENES = (("pyramid_100", "pyramid", {"base": 100}, 60),
          ("many_pyramids", "many_pyramids", {"grid": 10, "base": 10}, 60),
          ("rain_2000", "rain", {"count": 2000}, 300))
L1_REPEATS = 400
KINDS = ("f64", "f64copy", "f32", "f32on64", "f64on32")


@intrinsic
def select(typingctx, keep, kept, other):
    """``kept if keep else other`` as one LLVM ``select`` (the engine's ``_select``, for either
    floating type)."""
    if kept != other:
        return None

    def codegen(context, builder, signature, args):
        return builder.select(*args)

    return kept(types.boolean, kept, other), codegen


def _scratch_intrinsic(dtype):
    """The engine's ``scratch_chunk`` for ``dtype``: :data:`SCRATCH_DOUBLES` values on the
    calling kernel's stack, aligned to a cache line."""
    nb = numba.from_dtype(np.dtype(dtype))
    array_type = types.Array(nb, 1, "C")
    size = np.dtype(dtype).itemsize

    @intrinsic
    def scratch(typingctx):
        def codegen(context, builder, signature, args):
            from numba.np.arrayobj import populate_array

            element = context.get_value_type(nb)
            block = cgutils.alloca_once(builder, ir.ArrayType(element, SCRATCH_DOUBLES))
            block.align = 64
            data = builder.bitcast(block, ir.PointerType(element))
            array = context.make_array(array_type)(context, builder)
            intp = context.get_value_type(types.intp)
            populate_array(array, data=data, shape=[ir.Constant(intp, SCRATCH_DOUBLES)],
                           strides=[ir.Constant(intp, size)], itemsize=ir.Constant(intp, size),
                           meminfo=None)
            return array._getvalue()

        return array_type(), codegen

    return scratch


def make_passes(F):
    """The engine's passes with their arithmetic in ``F`` (``np.float32`` or ``np.float64``):
    ``(warm(cs, bodies, lanes, first, last), solve(cs, bodies, lanes, first, last, inv_h,
    use_bias, soft, baumgarte, linear_slop, contact_speed, last_sweep, speed_cap))``, on
    ``lanes`` of either type (the engine's flat layout)."""
    zero = F(0.0)
    one = F(1.0)
    scratch_chunk = _scratch_intrinsic(F)
    inline = dict(_JIT, inline="always")

    @numba.njit(**inline)
    def gather(cs, lanes, scratch, bodies, base, start, i0, i1, gaps):
        v = bodies.v
        w = bodies.w
        dp = bodies.dp
        dq = bodies.dq
        for i in range(i0, i1):
            q = start + i
            r = base + i
            a = np.uint64(cs.body_a[q])
            b = np.uint64(cs.body_b[q])
            scratch[i + VAX] = F(v[a, 0])
            scratch[i + VAY] = F(v[a, 1])
            scratch[i + WA] = F(w[a])
            scratch[i + VBX] = F(v[b, 0])
            scratch[i + VBY] = F(v[b, 1])
            scratch[i + WB] = F(w[b])
            if gaps:
                nx = F(lanes[r + NX])
                ny = F(lanes[r + NY])
                ca = F(dq[a, 0])
                sa = F(dq[a, 1])
                cb = F(dq[b, 0])
                sb = F(dq[b, 1])
                ddx = F(dp[b, 0]) - F(dp[a, 0])
                ddy = F(dp[b, 1]) - F(dp[a, 1])
                count = cs.count[q]
                for j in range(2):
                    p = r + np.uint64(j) * POINT_STEP
                    rax = F(lanes[p + RAX])
                    ray = F(lanes[p + RAY])
                    rbx = F(lanes[p + RBX])
                    rby = F(lanes[p + RBY])
                    gx = ddx + (cb * rbx - sb * rby) - (ca * rax - sa * ray)
                    gy = ddy + (sb * rbx + cb * rby) - (sa * rax + ca * ray)
                    gap = F(lanes[p + BASE]) + gx * nx + gy * ny
                    scratch[i + GAP + np.uint64(j) * GAP_STEP] = gap if j < count else zero

    @numba.njit(**inline)
    def scatter(cs, scratch, bodies, start, i0, i1):
        v = bodies.v
        w = bodies.w
        for i in range(i0, i1):
            q = start + i
            a = np.uint64(cs.body_a[q])
            b = np.uint64(cs.body_b[q])
            v[a, 0] = scratch[i + VAX]
            v[a, 1] = scratch[i + VAY]
            w[a] = scratch[i + WA]
            v[b, 0] = scratch[i + VBX]
            v[b, 1] = scratch[i + VBY]
            w[b] = scratch[i + WB]

    @numba.njit(**inline)
    def warm_lanes(lanes, scratch, base, i0, i1):
        for i in range(i0, i1):
            r = base + i
            two = F(lanes[r + TWO]) != zero
            m_a = F(lanes[r + M_A])
            i_a = F(lanes[r + I_A])
            m_b = F(lanes[r + M_B])
            i_b = F(lanes[r + I_B])
            nx = F(lanes[r + NX])
            ny = F(lanes[r + NY])
            vax = scratch[i + VAX]
            vay = scratch[i + VAY]
            wa = scratch[i + WA]
            vbx = scratch[i + VBX]
            vby = scratch[i + VBY]
            wb = scratch[i + WB]
            for j in range(2):
                keep = j == 0 or two
                p = r + np.uint64(j) * POINT_STEP
                ln = F(lanes[p + NIMP])
                lt = F(lanes[p + TIMP])
                px = ln * nx + lt * ny
                py = ln * ny - lt * nx
                rax = F(lanes[p + RAX])
                ray = F(lanes[p + RAY])
                rbx = F(lanes[p + RBX])
                rby = F(lanes[p + RBY])
                vax = select(keep, vax - m_a * px, vax)
                vay = select(keep, vay - m_a * py, vay)
                wa = select(keep, wa - i_a * (rax * py - ray * px), wa)
                vbx = select(keep, vbx + m_b * px, vbx)
                vby = select(keep, vby + m_b * py, vby)
                wb = select(keep, wb + i_b * (rbx * py - rby * px), wb)
            scratch[i + VAX] = vax
            scratch[i + VAY] = vay
            scratch[i + WA] = wa
            scratch[i + VBX] = vbx
            scratch[i + VBY] = vby
            scratch[i + WB] = wb

    @numba.njit(**inline)
    def solve_lanes(lanes, scratch, base, i0, i1, inv_h, use_bias, soft, baumgarte_rate,
                    linear_slop, contact_speed, last_sweep, speed_cap):
        write_bias = use_bias or not soft
        for i in range(i0, i1):
            r = base + i
            two = F(lanes[r + TWO]) != zero
            m_a = F(lanes[r + M_A])
            i_a = F(lanes[r + I_A])
            m_b = F(lanes[r + M_B])
            i_b = F(lanes[r + I_B])
            vax = scratch[i + VAX]
            vay = scratch[i + VAY]
            wa = scratch[i + WA]
            vbx = scratch[i + VBX]
            vby = scratch[i + VBY]
            wb = scratch[i + WB]
            nx = F(lanes[r + NX])
            ny = F(lanes[r + NY])
            tx = ny
            ty = -nx
            friction = F(lanes[r + FRICTION])
            for j in range(2):
                keep = j == 0 or two
                p = r + np.uint64(j) * POINT_STEP
                rax = F(lanes[p + RAX])
                ray = F(lanes[p + RAY])
                rbx = F(lanes[p + RBX])
                rby = F(lanes[p + RBY])
                dvx = vbx - wb * rby - vax + wa * ray
                dvy = vby + wb * rbx - vay - wa * rax
                vt = dvx * tx + dvy * ty
                impulse = -F(lanes[p + TMASS]) * vt
                limit = friction * F(lanes[p + NIMP])
                old = F(lanes[p + TIMP])
                total = min(max(old + impulse, -limit), limit)
                lanes[p + UNT] = old + impulse
                lanes[p + TIMP] = total
                impulse = total - old
                px = impulse * tx
                py = impulse * ty
                vax = vax - m_a * px if keep else vax
                vay = vay - m_a * py if keep else vay
                wa = wa - i_a * (rax * py - ray * px) if keep else wa
                vbx = vbx + m_b * px if keep else vbx
                vby = vby + m_b * py if keep else vby
                wb = wb + i_b * (rbx * py - rby * px) if keep else wb
            soft_rate = F(lanes[r + RATE])
            soft_mass = F(lanes[r + MASS_SCALE])
            soft_impulse = F(lanes[r + IMPULSE_SCALE])
            for j in range(2):
                keep = j == 0 or two
                p = r + np.uint64(j) * POINT_STEP
                rax = F(lanes[p + RAX])
                ray = F(lanes[p + RAY])
                rbx = F(lanes[p + RBX])
                rby = F(lanes[p + RBY])
                s = scratch[i + GAP + np.uint64(j) * GAP_STEP]
                pushing = not s > zero
                soft_now = pushing and use_bias and soft
                hard = max(baumgarte_rate * min(zero, s + linear_slop), -contact_speed)
                bias = max(soft_rate * s, -contact_speed) if soft else hard
                bias = bias if use_bias else zero
                bias = bias if pushing else s * inv_h
                mass_scale = soft_mass if soft_now else one
                impulse_scale = soft_impulse if soft_now else zero
                dvx = vbx - wb * rby - vax + wa * ray
                dvy = vby + wb * rbx - vay - wa * rax
                vn = dvx * nx + dvy * ny
                old = F(lanes[p + NIMP])
                normal_mass = F(lanes[p + NMASS])
                impulse = -normal_mass * mass_scale * (vn + bias) - impulse_scale * old
                total = min(max(old + impulse, zero), normal_mass * speed_cap)
                lanes[p + UNN] = old + impulse
                lanes[p + BIAS] = select(write_bias, bias, F(lanes[p + BIAS]))
                lanes[p + NIMP] = total
                peak = F(lanes[p + MAXN]) + zero
                lanes[p + MAXN] = total if total > peak else peak
                impulse = total - old
                px = impulse * nx
                py = impulse * ny
                vax = vax - m_a * px if keep else vax
                vay = vay - m_a * py if keep else vay
                wa = wa - i_a * (rax * py - ray * px) if keep else wa
                vbx = vbx + m_b * px if keep else vbx
                vby = vby + m_b * py if keep else vby
                wb = wb + i_b * (rbx * py - rby * px) if keep else wb
            scratch[i + VAX] = vax
            scratch[i + VAY] = vay
            scratch[i + WA] = wa
            scratch[i + VBX] = vbx
            scratch[i + VBY] = vby
            scratch[i + WB] = wb
        if last_sweep:
            for i in range(i0, i1):
                for j in range(2):
                    p = base + i + np.uint64(j) * POINT_STEP
                    lanes[p + TOTN] = F(lanes[p + TOTN]) + F(lanes[p + NIMP])
                    lanes[p + TOTT] = F(lanes[p + TOTT]) + F(lanes[p + TIMP])

    @numba.njit(**_JIT)
    def warm(cs, bodies, lanes, first, last):
        hi = np.uint64(last)
        scratch = scratch_chunk()
        lo = np.uint64(first)
        while lo < hi:
            end, start, base, i0, i1 = _piece(cs, lo, hi)
            gather(cs, lanes, scratch, bodies, base, start, i0, i1, False)
            warm_lanes(lanes, scratch, base, i0, i1)
            scatter(cs, scratch, bodies, start, i0, i1)
            lo = end

    @numba.njit(**_JIT)
    def solve(cs, bodies, lanes, first, last, inv_h, use_bias, soft, baumgarte, linear_slop,
              contact_speed, last_sweep, speed_cap):
        hi = np.uint64(last)
        scratch = scratch_chunk()
        baumgarte_rate = F(baumgarte * inv_h)
        lo = np.uint64(first)
        while lo < hi:
            end, start, base, i0, i1 = _piece(cs, lo, hi)
            gather(cs, lanes, scratch, bodies, base, start, i0, i1, True)
            solve_lanes(lanes, scratch, base, i0, i1, F(inv_h), use_bias, soft, baumgarte_rate,
                        F(linear_slop), F(contact_speed), last_sweep, F(speed_cap))
            scatter(cs, scratch, bodies, start, i0, i1)
            lo = end

    return warm, solve


WARM64, SOLVE64 = make_passes(np.float64)
WARM32, SOLVE32 = make_passes(np.float32)


@numba.njit(**_JIT)
def _prepare(cs, order, contacts, bodies):
    prepare_contacts(cs, order, contacts, bodies, True, 60.0, 0.8, 0.2, 90.0, 0.7, 0.3, True, 0)


# A pass of each kind (verb 0 warm start, 1 biased, 2 relax, 3 the last relax: the step's
# totals) over the rows ``0:n``, ``repeats`` times, with the arguments of a soft step at 60 Hz
# in 4 substeps (the engine's defaults: slop 0.005 m, contact speed 3 m/s, speed cap 1600).
@numba.njit(**_JIT)
def run_engine(cs, bodies, lanes, verb, n, repeats):
    for _ in range(repeats):
        if verb == 0:
            warm_start_contacts_wide(cs, bodies, 0, n)
        else:
            solve_contacts_wide(cs, bodies, 0, n, 1.0 / H, verb == 1, True, 0.0, 0.005, 3.0,
                                verb == 3, 1600.0)


@numba.njit(**_JIT)
def run_copy64(cs, bodies, lanes, verb, n, repeats):
    for _ in range(repeats):
        if verb == 0:
            WARM64(cs, bodies, lanes, 0, n)
        else:
            SOLVE64(cs, bodies, lanes, 0, n, 1.0 / H, verb == 1, True, 0.0, 0.005, 3.0,
                    verb == 3, 1600.0)


@numba.njit(**_JIT)
def run_copy32(cs, bodies, lanes, verb, n, repeats):
    for _ in range(repeats):
        if verb == 0:
            WARM32(cs, bodies, lanes, 0, n)
        else:
            SOLVE32(cs, bodies, lanes, 0, n, 1.0 / H, verb == 1, True, 0.0, 0.005, 3.0,
                    verb == 3, 1600.0)


RUNS = {"f64": run_engine, "f64copy": run_copy64, "f32": run_copy32, "f32on64": run_copy32,
        "f64on32": run_copy64}
PASSES = ("warm", "biased", "relax")


def _step_passes(run, cs, bodies, lanes, n, repeats):
    """A soft step's 12 passes, each timed: thread CPU s summed by kind of pass."""
    spent = dict.fromkeys(PASSES, 0.0)
    for substep in range(SUBSTEPS):
        for name, verb in (("warm", 0), ("biased", 1),
                           ("relax", 3 if substep == SUBSTEPS - 1 else 2)):
            start = time.thread_time()
            run(cs, bodies, lanes, verb, n, repeats)
            spent[name] += time.thread_time() - start
    return spent


def timing(reps, scenes):
    """ns a row a pass of each kind, sizes and kinds interleaved (module docstring)."""
    sizes = []
    for key, scene, params, steps in scenes:
        world = loaded_world(scene, params, steps)
        cs0, bodies0 = world._constraints, world._bodies
        order = cs0.contact.copy()
        cs = _copy(cs0)
        _prepare(cs, order, world._contacts, _copy(bodies0))
        lanes64 = cs.lanes.reshape(-1).copy()
        n = order.shape[0]
        if key == "pyramid_100":
            sizes.append(("L1", cs, bodies0, lanes64, CHUNK, L1_REPEATS))
        sizes.append((key, cs, bodies0, lanes64, n, 1))
    out = {}
    for size, cs, bodies0, lanes64, n, repeats in sizes:
        copy = _copy(cs)
        # (each kind's lanes: a view of its store's, which the engine's passes use)
        work = {"f64": (cs, cs.lanes.reshape(-1)), "f64copy": (copy, copy.lanes.reshape(-1)),
                "f32": (cs, np.empty(lanes64.shape[0], np.float32)),
                "f32on64": (cs, np.empty(lanes64.shape[0])),
                "f64on32": (cs, np.empty(lanes64.shape[0], np.float32))}
        saved = {"f64": lanes64, "f64copy": lanes64, "f32": lanes64.astype(np.float32),
                 "f32on64": lanes64, "f64on32": lanes64.astype(np.float32)}
        times = {(p, k): [] for p in PASSES + ("step",) for k in KINDS}
        left = {}
        loads = []
        for rep in range(reps + 1):  # the first compiles
            shift = rep % len(KINDS)
            for kind in KINDS[shift:] + KINDS[:shift]:
                kcs, lanes = work[kind]
                lanes[:] = saved[kind]
                bodies = _copy(bodies0)
                spent = _step_passes(RUNS[kind], kcs, bodies, lanes, n, repeats)
                spent["step"] = sum(spent.values())
                if rep:
                    for p, x in spent.items():
                        times[(p, kind)].append(x)
                left[kind] = (bodies.v.copy(), bodies.w.copy(), lanes.copy())
            loads.append(os.getloadavg()[0])
        same = all(np.array_equal(x, y) for x, y in zip(left["f64"], left["f64copy"]))
        dv = float(np.max(np.abs(left["f32"][0] - left["f64"][0])))
        result = {"rows": int(n), "repeats": repeats, "f64copy_same_bits": bool(same),
                  "f32_max_velocity_difference": dv, "load": [min(loads), max(loads)],
                  "passes": {}}
        print(f"{size}: rows 0:{n}, x{repeats} a timing, f64copy the engine's bits: {same}, "
              f"f32's largest velocity difference after a step's passes {dv:.2e} m/s, load "
              f"{min(loads):.1f}-{max(loads):.1f}")
        print("| passes | f64 ns/row | f64copy ns/row | f32 ns/row | f32on64 ns/row | f64on32 "
              "ns/row | f32 / f64 (minima) | f32 / f64 (median of reps) | f32on64 / f64 (median) "
              "| f64on32 / f64 (median) | f64copy / f64 (median) |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for p in PASSES + ("step",):
            count = (SUBSTEPS * len(PASSES) if p == "step" else SUBSTEPS) * n * repeats
            ns = {k: min(times[(p, k)]) / count * 1e9 for k in KINDS}
            med32 = statistics.median(y / x for x, y in zip(times[(p, "f64")],
                                                            times[(p, "f32")]))
            medc = statistics.median(y / x for x, y in zip(times[(p, "f64")],
                                                           times[(p, "f64copy")]))
            medm = statistics.median(y / x for x, y in zip(times[(p, "f64")],
                                                           times[(p, "f32on64")]))
            medw = statistics.median(y / x for x, y in zip(times[(p, "f64")],
                                                           times[(p, "f64on32")]))
            print(f"| {p} | {ns['f64']:.1f} | {ns['f64copy']:.1f} | {ns['f32']:.1f} | "
                  f"{ns['f32on64']:.1f} | {ns['f64on32']:.1f} | {ns['f32'] / ns['f64']:.3f} | "
                  f"{med32:.3f} | {medm:.3f} | {medw:.3f} | {medc:.3f} |", flush=True)
            result["passes"][p] = {"ns_row": ns, "f32_ratio_min": ns["f32"] / ns["f64"],
                                   "f32_ratio_median": med32, "f32on64_ratio_median": medm,
                                   "f64on32_ratio_median": medw,
                                   "f64copy_ratio_median": medc,
                                   "all_us": {k: [x * 1e6 for x in times[(p, k)]]
                                              for k in KINDS}}
        out[size] = result
    return out


@numba.njit(**_JIT)
def _store_impulses(cs):
    store_lane_impulses(cs, 0, cs.count.shape[0])


def once_a_step(reps, scenes):
    """The once-a-step verbs that write or read the lanes, on float64 lanes (the engine's) and
    on float32 lanes (the engine's same code compiled here for a store whose lanes are float32:
    every lane write narrowed): the prepare, and the copy of the kept impulses back to the rows
    (``store_lane_impulses``). Thread CPU, the minimum over ``reps`` repetitions, the two
    interleaved; checked: the float32 prepare's lanes are the float64 prepare's rounded."""
    out = {}
    for key, scene, params, steps in scenes:
        world = loaded_world(scene, params, steps)
        cs0, bodies0 = world._constraints, world._bodies
        order = cs0.contact.copy()
        stores = {"f64": _copy(cs0)}
        # (the float32 lanes start as the float64 ones rounded: the prepare leaves a one-point
        # row's second point and the padding as they were)
        stores["f32"] = stores["f64"]._replace(lanes=cs0.lanes.astype(np.float32))
        times = {(verb, k): [] for verb in ("prepare", "store_impulses") for k in stores}
        for rep in range(reps + 1):  # the first compiles
            for kind in (("f64", "f32") if rep % 2 else ("f32", "f64")):
                cs = stores[kind]
                bodies = _copy(bodies0)
                start = time.thread_time()
                _prepare(cs, order, world._contacts, bodies)
                middle = time.thread_time()
                _store_impulses(cs)
                end = time.thread_time()
                if rep:
                    times[("prepare", kind)].append(middle - start)
                    times[("store_impulses", kind)].append(end - middle)
        rounded = np.array_equal(stores["f64"].lanes.astype(np.float32), stores["f32"].lanes)
        result = {"rows": int(order.shape[0]), "f32_lanes_are_f64_rounded": bool(rounded)}
        for verb in ("prepare", "store_impulses"):
            a, b = (min(times[(verb, k)]) * 1e6 for k in ("f64", "f32"))
            med = statistics.median(y / x for x, y in zip(times[(verb, "f64")],
                                                          times[(verb, "f32")]))
            result[verb] = {"f64_us": a, "f32_us": b, "ratio_min": b / a, "ratio_median": med}
        print(f"{key} once a step: {json.dumps(result)}", flush=True)
        out[key] = result
    return out


def machine_code():
    """Counts of the float32 passes' instructions that say how they were vectorised: packed
    single-precision arithmetic on ``ymm`` (8 floats) and on ``xmm`` (4), scalar, the
    conversions from the float64 bodies, masked moves (none allowed: Zen 3 microcodes them)
    and FMA (none: the engine compiles without contraction)."""
    asm = run_copy32.inspect_asm(run_copy32.signatures[0])
    arith = r"v(?:add|sub|mul|div|min|max|blendv|cmp\w*|and|andn|or|xor)"
    counts = {
        "ymm_packed_single": len(re.findall(arith + r"ps\s[^\n]*%ymm", asm)),
        "xmm_packed_single": len(re.findall(arith + r"ps\s(?![^\n]*%ymm)[^\n]*%xmm", asm)),
        "scalar_single": len(re.findall(arith + r"ss\s", asm)),
        "ymm_packed_double": len(re.findall(arith + r"pd\s[^\n]*%ymm", asm)),
        "conversions": len(re.findall(r"vcvt\w+", asm)),
        "masked_moves": len(re.findall(r"maskmov", asm)),
        "fma": len(re.findall(r"vfn?m(?:add|sub)", asm)),
    }
    print("float32 passes' machine code:", counts)
    return counts


def _lanes_kernel_f32():
    """The world's slot of contact passes with the float32 passes (on the float64 lanes)."""
    @numba.njit(no_cpython_wrapper=True, **_JIT)
    def entry(world, verb, first, last, inv_h, use_bias, soft, baumgarte, linear_slop,
              contact_speed, last_sweep, speed_cap):
        if verb == LANE_MODE:
            return 1.0
        cs = borrow(world, "constraints")
        bodies = borrow(world, "bodies")
        lanes = flat_lanes(cs)
        if verb == LANE_WARM_START:
            WARM32(cs, bodies, lanes, first, last)
        else:
            SOLVE32(cs, bodies, lanes, first, last, inv_h, use_bias, soft, baumgarte,
                    linear_slop, contact_speed, last_sweep, speed_cap)
        return 0.0

    return LazyKernel(entry, LANES_SIGNATURE, "the float32 contact passes", 60.0)


def _state(world):
    b = world._bodies
    dyn = np.flatnonzero(b.alive & (b.type == DYNAMIC))
    v = b.v[dyn]
    energy = 0.5 * float(np.sum(b.mass[dyn] * np.sum(v * v, axis=1))
                         + np.sum(b.inertia[dyn] * b.w[dyn] ** 2))
    return b.center[dyn].copy(), b.angle[dyn].copy(), energy


def physics(steps, scenes):
    """The float32 passes' trajectories against the engine's (module docstring)."""
    engine_kernel = _step.LANES_KERNEL
    f32_kernel = _lanes_kernel_f32()
    f32_kernel.address()  # compiled here: the step's compile of missing units may use processes
    out = {}
    for key, scene, params, _ in scenes:
        runs = {}
        for kind, lanes_kernel, scale in (("f64", engine_kernel, 1.0), ("f32", f32_kernel, 1.0),
                                          ("f64_gravity", engine_kernel, 1.0 + 2.0 ** -23)):
            _step.LANES_KERNEL = lanes_kernel
            try:
                world = impulse2d.World(enable_sleep=False)
                info = build_scene(world, scene, **params)
                g = world.gravity
                world.gravity = (g[0] * scale, g[1] * scale)
                start, _, _ = _state(world)
                cpu = time.process_time()
                step_scene(world, info, 0)  # the first step fills the slot
                for i in range(1, steps):
                    step_scene(world, info, i)
                cpu = time.process_time() - cpu
            finally:
                _step.LANES_KERNEL = engine_kernel
            center, angle, energy = _state(world)
            runs[kind] = {"center": center, "angle": angle, "kinetic_energy_J": energy,
                          "max_drop_m": float(np.max(start[:, 1] - center[:, 1])),
                          "max_displacement_m": float(np.max(np.hypot(*(center - start).T))),
                          "cpu_s": cpu}
        base = runs["f64"]
        result = {"steps": steps, "bodies": int(base["center"].shape[0])}
        for kind in ("f32", "f64_gravity"):
            result[f"{kind}_max_position_difference_m"] = float(
                np.max(np.hypot(*(runs[kind]["center"] - base["center"]).T)))
            result[f"{kind}_max_angle_difference_rad"] = float(
                np.max(np.abs(runs[kind]["angle"] - base["angle"])))
        for name in ("max_drop_m", "max_displacement_m", "kinetic_energy_J", "cpu_s"):
            result[name] = {kind: run[name] for kind, run in runs.items()}
        print(f"{key} after {steps} steps: {json.dumps(result)}", flush=True)
        out[key] = result
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=21)
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--skip-timing", action="store_true")
    ap.add_argument("--skip-physics", action="store_true")
    ap.add_argument("--asm", action="store_true")
    ap.add_argument("--scenes", default="pyramid_100,many_pyramids")
    ap.add_argument("--out")
    args = ap.parse_args()
    scenes = [scene for scene in SCENES if scene[0] in args.scenes.split(",")]
    out = {"machine": os.uname().machine, "substeps": SUBSTEPS, "h": H}
    if not args.skip_timing:
        out["timing"] = timing(args.reps, scenes)
        out["once_a_step"] = once_a_step(args.reps, scenes)
        if args.asm:
            out["machine_code"] = machine_code()
    if not args.skip_physics:
        out["physics"] = physics(args.steps, scenes)
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
