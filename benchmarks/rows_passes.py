"""A small world's contact passes row by row, by the pass and by the row: cycles and
instructions, for two or more forms of ``contact_solver.py`` in one process (issue 30's 10-body
world, issue 31 item 5's five balls).

    PYTHONPATH=src python benchmarks/rows_passes.py \\
        --form main=/work/main/src/impulse2d/_dynamics/contact_solver.py \\
        --form new=src/impulse2d/_dynamics/contact_solver.py [--world ten_bodies] \\
        [--rounds 6] [--reps 400] [--json out.json]
    PYTHONPATH=src python benchmarks/rows_passes.py --form ... --callgrind [--json out.json]

The world (``small_fixed.py``'s: ``ten_bodies`` is ``batch_bench.ten_bodies``, 8 circles and
2 boxes dropped on a floor, sleeping off; ``restitution``, ``friction_ramp``: ``run.py``'s) is
stepped 60 steps, then to the step (of the next 60) with the most touching rows; the passes
then run on the rows and bodies that step left. A step is ``World.step(1/60)``, ``soft_step``,
4 substeps: per step each of the warm start (``warm``), the soft solve (``solve``) and the
relax (``relax``) runs 4 times, restitution (``restitution``) and the impulses' store
(``store``) once.

**The forms.** Each ``--form TAG=PATH`` is a ``contact_solver.py`` (a tree's, or a prototype;
``PATH+EXTRA+...``: with the files ``EXTRA`` appended, such as ``rows_record.py``'s passes on a
record a row) compiled here from source with the engine's options (no fastmath, NumPy's error
model; its relative imports made absolute, so everything else is the running tree's), written
with a driver into ``--forms-dir`` and cached there, so that a callgrind run loads it instead of
compiling it under instrumentation. A form's passes are called as the engine's
:func:`.contact_lanes.rows_entry` calls them (:mod:`.contact_rows`' kernels): a pass kernel
(``rows_pass``) that borrows the stores from the world's reference and calls
``warm_start_contacts`` or ``solve_contacts`` on the rows ``first:last`` (or the form's
``warm_rows`` / ``solve_rows``, where it defines them for ``rows_entry`` to inline) with the
flags as run-time values. A form is a ``contact_solver.py`` whose passes take the rows'
``first, last`` (session 30's, ``contactX55``, and later). The form ``engine`` (always there) is the running tree's own
cached ``rows_entry``, called by address as the soft step calls it (warm, solve, relax only):
the check that a form compiled here runs as the engine's code does.

**Cycles** (default): each pass of each form, least of 5 runs of ``--reps`` calls (the
kernels' cycle counter, the TSC), the forms alternating ``--rounds`` times; the median and
least over the rounds, a call and a row. ``solve_0`` is the soft solve over no row (its fixed
cost: the call, the store's slicing). **Bits**: each form runs the step's sequence of passes
(4 x (warm, solve, relax), restitution, store) from the same saved state, and every column of
the constraint rows, the contacts' impulses and the bodies' velocities must be equal to the
first form's.

**Instructions** (``--callgrind``; the forms of ``--form``, not ``engine``): for each form a
child process under ``valgrind --tool=callgrind`` (all at once) runs, after one uncounted call
of each pass, ``--reps`` calls of each pass inside its own C iterator
(``starmap_next`` warm, ``filterfalse_next`` solve, ``functools_reduce`` relax,
``takewhile_next`` restitution, ``dropwhile_next`` store, ``accumulate_next`` solve_0), with
collection on inside those functions only; each one's inclusive count over ``--reps`` is
instructions a call. Counts do not move with the machine's load. The kernels are keyed by the
host's CPU by name (``NUMBA_CPU_NAME``, ``NUMBA_CPU_FEATURES``: the values a process without
them uses, so the tree's own warm cache serves) so that valgrind's emulated CPU loads the
cache made outside it instead of compiling under instrumentation (``small_callgrind.py``).

**The loop's machine code** (``--asm``): the static mix of each form's ``solve_contacts``
(the function the pass kernel calls): instructions by kind (float arithmetic, loads from the
stack, other loads, stores, branches, the rest), what a row pass spends beyond its arithmetic.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
DT = 1.0 / 60.0
VERBS = ("warm", "solve", "relax", "restitution", "store", "solve_0")
PER_STEP = {"warm": 4, "solve": 4, "relax": 4, "restitution": 1, "store": 1, "solve_0": 0}
ITERATORS = {"warm": "starmap_next", "solve": "filterfalse_next", "relax": "functools_reduce",
             "restitution": "takewhile_next", "store": "dropwhile_next",
             "solve_0": "accumulate_next"}

JIT_MODULE = '''"""The engine's decorators for a form compiled by rows_passes.py, cached here."""
import numba
_O = dict(cache=True, fastmath=False, error_model="numpy")
kernel = numba.njit(no_cfunc_wrapper=True, **_O)
borrowing_kernel = numba.njit(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True, **_O)
inline_kernel = numba.njit(_nrt=False, inline="always", no_cpython_wrapper=True,
                           no_cfunc_wrapper=True, **_O)
entry_kernel = numba.njit(_nrt=False, no_cpython_wrapper=True, **_O)
driver = numba.njit(_nrt=False, **_O)
'''

DRIVER = '''

# ---- rows_passes.py's driver ----
from rows_form_jit import driver
from impulse2d._core.jit import cycles as _cycles
from impulse2d._dynamics.world_ref import borrow as _borrow

# the passes rows_entry calls: a form's own rows-entry bodies where it has them (inlined)
_WARM = globals().get("warm_rows", warm_start_contacts)
_SOLVE = globals().get("solve_rows", solve_contacts)


@borrowing_kernel
def rows_pass(world, verb, first, last, inv_h, use_bias, soft, contact_speed, last_sweep,
              speed_cap, threshold, gx, gy, half_kick):
    """contact_rows' kernels' bodies for this form's passes (the rows first:last of the
    world's stores), and restitution, the store."""
    cs = _borrow(world, "constraints")
    bodies = _borrow(world, "bodies")
    if verb == 0:
        _WARM(cs, bodies, first, last)
    elif verb == 1:
        _SOLVE(cs, bodies, first, last, inv_h, use_bias, soft, 0.0, 0.0, contact_speed,
               last_sweep, speed_cap)
    elif verb == 2:
        apply_restitution(cs, bodies, first, last, threshold, speed_cap, gx, gy, half_kick)
    else:
        store_impulses(cs, _borrow(world, "contacts"), first, last)
    return 0.0


@borrowing_kernel
def solve_only(world, inv_h, use_bias, soft, contact_speed, last_sweep, speed_cap):
    """The solve pass alone, for its machine code (``--asm``)."""
    cs = _borrow(world, "constraints")
    _SOLVE(cs, _borrow(world, "bodies"), 0, cs.count.shape[0], inv_h, use_bias, soft, 0.0, 0.0,
           contact_speed, last_sweep, speed_cap)
    return 0.0


@driver
def asm_probe(world):
    return solve_only(world, 240.0, True, True, 3.0, False, 100.0)


@driver
def run(world, verb, first, last, reps, inv_h, contact_speed, speed_cap, threshold, gx, gy,
        half_kick):
    """``reps`` calls of the pass ``verb`` (VERBS' order but solve_0), cycles in all."""
    use_bias = verb == 1
    last_sweep = verb == 2
    code = 0 if verb == 0 else 1 if verb <= 2 else verb - 1
    t0 = _cycles()
    for _ in range(reps):
        rows_pass(world, code, first, last, inv_h, use_bias, True, contact_speed, last_sweep,
                  speed_cap, threshold, gx, gy, half_kick)
    return _cycles() - t0
'''

ENGINE = '''"""The running tree's own rows_entry, called by address as the soft step calls it."""
from impulse2d._core.jit import cycles as _cycles
from impulse2d._dynamics.contact_lanes import LANE_SOLVE, LANE_WARM_START, lanes_pass
from impulse2d._dynamics.contact_solver import apply_restitution, store_impulses
from impulse2d._dynamics.world_ref import borrow as _borrow
from rows_form_jit import driver


@driver
def run(world, verb, first, last, reps, inv_h, contact_speed, speed_cap, threshold, gx, gy,
        half_kick):
    t0 = _cycles()
    for _ in range(reps):
        if verb == 0:
            lanes_pass(world, LANE_WARM_START, first, last, inv_h, False, True, 0.0, 0.0,
                       contact_speed, False, speed_cap)
        elif verb <= 2:
            lanes_pass(world, LANE_SOLVE, first, last, inv_h, verb == 1, True, 0.0, 0.0,
                       contact_speed, verb == 2, speed_cap)
        elif verb == 3:
            apply_restitution(_borrow(world, "constraints"), _borrow(world, "bodies"), first,
                              last, threshold, speed_cap, gx, gy, half_kick)
        else:
            store_impulses(_borrow(world, "constraints"), _borrow(world, "contacts"), first,
                           last)
    return _cycles() - t0
'''


def write_form(tag: str, paths: list, forms_dir: Path) -> str:
    """``paths`` (a ``contact_solver.py``, then any prototype appended to it, such as
    ``rows_record.py``) as the module ``rows_form_<tag>`` in ``forms_dir``, its imports made
    absolute, its decorators :data:`JIT_MODULE`'s, the driver appended. Rewritten only when it
    changed (Numba's cache keys a module by its file's time stamp)."""
    forms_dir.mkdir(parents=True, exist_ok=True)
    jit = forms_dir / "rows_form_jit.py"
    if not jit.exists() or jit.read_text() != JIT_MODULE:
        jit.write_text(JIT_MODULE)
    if tag == "engine":
        text = ENGINE
    else:
        source = "\n\n".join(path.read_text() for path in paths)
        source = re.sub(r"^from \.\._core\.jit import", "from rows_form_jit import", source,
                        flags=re.M)
        source = re.sub(r"^from \.\.", "from impulse2d.", source, flags=re.M)
        source = re.sub(r"^from \.", "from impulse2d._dynamics.", source, flags=re.M)
        text = source + DRIVER
    name = f"rows_form_{tag}"
    target = forms_dir / f"{name}.py"
    if not target.exists() or target.read_text() != text:
        target.write_text(text)
    return name


def load_forms(forms: dict, forms_dir: Path) -> dict:
    """Each form's module (its driver ``run``), by tag."""
    import importlib
    sys.path.insert(0, str(forms_dir))
    return {tag: importlib.import_module(write_form(tag, path, forms_dir))
            for tag, path in forms.items()}


def world_at_most_rows(name: str):
    """The world after the step (of 60 after the first 60) with the most touching rows, the
    pass arguments of the soft step (inv_h, contact_speed, speed_cap, threshold, gx, gy,
    half_kick) and its row count."""
    from small_fixed import WORLDS
    from impulse2d._dynamics.solvers import impulse_caps
    from impulse2d._dynamics.world_ref import _constraints_of_ref
    world = WORLDS[name]()
    for _ in range(60):
        world.step(DT)
    snap = world.snapshot()
    rows = []
    for _ in range(60):
        world.step(DT)
        rows.append(int(_constraints_of_ref(world._stores).count.shape[0]))
    k = int(np.argmax(rows))
    world.restore(snap)
    for _ in range(k + 1):
        world.step(DT)
    s = world.settings
    h = DT / int(s.substeps)
    cap, _ = impulse_caps.py_func(float(s.max_linear_speed), DT)
    gx, gy = (float(g) for g in world._gravity)
    args = (1.0 / h, float(s.contact_speed), cap,
            float(s.restitution_threshold), gx, gy, 0.5 * h)
    return world, args, rows[k]


def _state(world):
    """The arrays the passes read and write: every constraint column, the contacts' impulse
    columns, the bodies' velocities."""
    from impulse2d._dynamics.world_ref import _constraints_of_ref, _contacts_of_ref
    cs = _constraints_of_ref(world._stores)
    ct = _contacts_of_ref(world._stores)
    b = world._bodies
    return ([getattr(cs, f) for f in cs._fields]
            + [ct.normal_impulse, ct.tangent_impulse, ct.total_normal_impulse,
               ct.total_tangent_impulse, b.v, b.w])


def saved(world):
    return [a.copy() for a in _state(world)]


def put_back(world, copies):
    for a, c in zip(_state(world), copies):
        a[...] = c


def step_sequence(run, world, args, n: int) -> None:
    """The soft step's passes: 4 x (warm, solve, relax), restitution, store."""
    ref = world._stores
    for _ in range(4):
        for verb in (0, 1, 2):
            run(ref, verb, 0, n, 1, *args)
    run(ref, 3, 0, n, 1, *args)
    run(ref, 4, 0, n, 1, *args)


def bits(forms: dict, world, args, n: int) -> dict:
    start = saved(world)
    after = {}
    for tag, run in forms.items():
        put_back(world, start)
        step_sequence(run, world, args, n)
        after[tag] = [a.tobytes() for a in _state(world)]
    put_back(world, start)
    first = next(iter(after))
    return {tag: after[tag] == after[first] for tag in after}


def timed(run, world, args, verb: str, n: int, reps: int) -> float:
    ref = world._stores
    code = VERBS.index(verb)
    last = n
    if verb == "solve_0":
        code, last = 1, 0
    best = min(run(ref, code, 0, last, reps, *args) for _ in range(5))
    return best / reps


def cycles_rounds(forms: dict, world, args, n: int, rounds: int, reps: int) -> dict:
    start = saved(world)
    tags = list(forms)
    got = {t: {v: [] for v in VERBS} for t in tags}
    for r in range(rounds):
        for tag in (tags if r % 2 == 0 else tags[::-1]):
            for verb in VERBS:
                if tag == "engine" and verb == "solve_0":
                    continue
                put_back(world, start)
                got[tag][verb].append(timed(forms[tag], world, args, verb, n, reps))
    put_back(world, start)
    out = {}
    for tag in tags:
        out[tag] = {}
        for verb in VERBS:
            xs = got[tag][verb]
            if not xs:
                continue
            med = float(np.median(xs))
            out[tag][verb] = {"least": round(min(xs), 1), "median": round(med, 1),
                              "median_a_row": round(med / n, 1) if verb != "solve_0" else None}
        out[tag]["step_median"] = round(sum(out[tag][v]["median"] * PER_STEP[v]
                                            for v in VERBS if v in out[tag]))
    return out


def counted(run, world, args, n: int, reps: int) -> None:
    """Each pass ``reps`` times inside its own C iterator (:data:`ITERATORS`)."""
    ref = world._stores
    start = saved(world)
    for code in range(5):  # each pass's first call loads the driver (outside the counts)
        run(ref, code, 0, n, 1, *args)
    put_back(world, start)

    def call(code, last):
        put_back(world, start)
        return lambda *_: run(ref, code, 0, last, reps, *args)

    list(itertools.starmap(call(0, n), [()]))
    list(itertools.filterfalse(call(1, n), [0]))
    functools.reduce(call(2, n), [0, 1])
    list(itertools.takewhile(call(3, n), [0]))
    list(itertools.dropwhile(call(4, n), [0]))
    list(itertools.accumulate([0, 1], call(1, 0)))
    put_back(world, start)


def host_env() -> dict:
    import llvmlite.binding as llvm
    return {"NUMBA_CPU_NAME": llvm.get_host_cpu_name(),
            "NUMBA_CPU_FEATURES": llvm.get_host_cpu_features().flatten()}


def callgrind(form_args: list, world: str, reps: int, forms_dir: Path) -> dict:
    """Each form's instructions a call, from a child under callgrind for each form, the children
    run at once (see the docstring)."""
    env = dict(os.environ, **host_env())
    base = [sys.executable, str(Path(__file__).resolve()), "--world", world,
            "--forms-dir", str(forms_dir)]
    toggles = [f"--toggle-collect={f}" for f in ITERATORS.values()]
    children = {}
    for spec in form_args:
        tag = spec.split("=", 1)[0]
        # outside valgrind first: compiles (or loads) the form into its cache
        subprocess.run(base + ["--form", spec, "--child", "1"], env=env, check=True)
        dump = forms_dir / f"callgrind.{tag}.out"
        children[tag] = (dump, subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--collect-atstart=no",
             f"--callgrind-out-file={dump}", *toggles] + base
            + ["--form", spec, "--child", str(reps)], env=env, stderr=subprocess.DEVNULL))
    out = {}
    for tag, (dump, child) in children.items():
        if child.wait() != 0:
            raise SystemExit(f"{tag}: the callgrind child failed")
        text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100",
                               str(dump)], capture_output=True, text=True, check=True).stdout
        counts = {}
        for verb, fn in ITERATORS.items():
            m = re.search(r"^\s*([\d,]+)\s.*\b" + fn + r"\b", text, re.M)
            counts[verb] = round(int(m.group(1).replace(",", "")) / reps, 1) if m else None
        out[tag] = counts
        print(tag, "instructions a call", json.dumps(counts), flush=True)
    return out


def asm_mix(module, world) -> dict:
    """The static instruction mix of the form's solve pass alone (``solve_only``: the pass and
    whatever it calls, as LLVM compiled them together): what a row pass spends beyond its
    arithmetic."""
    import numba
    probe = numba.njit(_nrt=False)(module.asm_probe.py_func)  # (a cached kernel has no listing)
    probe(world._stores)
    asm = "\n".join(probe.inspect_asm().values())
    kinds = {"float_arith": 0, "float_mem_operand": 0, "load_stack": 0, "load_other": 0,
             "store_stack": 0, "store_other": 0, "branch": 0, "other": 0}
    total = 0
    for line in asm.splitlines():
        line = line.strip()
        if not line or line.startswith((".", "#")) or line.endswith(":"):
            continue
        total += 1
        op, _, rest = line.partition("\t")
        operands = rest.split(",")
        if op.startswith("j"):
            kinds["branch"] += 1
        elif re.match(r"v?(add|sub|mul|div|min|max|sqrt|xor|and|andn|ucomi|comi|cmp)[sp]d$", op):
            kinds["float_arith"] += 1
            if "(" in rest:
                kinds["float_mem_operand"] += 1
        elif "(" in operands[-1] and op.startswith(("mov", "vmov")):
            kinds["store_stack" if "rsp" in operands[-1] else "store_other"] += 1
        elif "(" in rest:
            kinds["load_stack" if "rsp" in rest else "load_other"] += 1
        else:
            kinds["other"] += 1
    kinds["total"] = total
    return kinds


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--form", action="append", default=[], help="TAG=PATH[+EXTRA...]: a contact_solver.py")
    p.add_argument("--world", default="ten_bodies")
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--reps", type=int, default=400)
    p.add_argument("--forms-dir", default=os.path.join(tempfile.gettempdir(), "rows_forms"))
    p.add_argument("--callgrind", action="store_true")
    p.add_argument("--asm", action="store_true")
    p.add_argument("--child", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--json")
    args = p.parse_args(argv)
    forms_dir = Path(args.forms_dir).resolve()
    specs = dict(s.split("=", 1) for s in args.form)
    forms = {tag: [Path(path).resolve() for path in spec.split("+")]
             for tag, spec in specs.items()}
    if args.child:
        modules = load_forms(forms, forms_dir)
        world, pass_args, n = world_at_most_rows(args.world)
        for module in modules.values():
            counted(module.run, world, pass_args, n, args.child)
        return
    if args.callgrind:
        world, _, n = world_at_most_rows(args.world)
        out = {"world": args.world, "rows": n, "reps": args.reps,
               "instructions": callgrind(args.form, args.world, args.reps, forms_dir)}
    else:
        modules = load_forms({**forms, "engine": []}, forms_dir)
        runs = {tag: m.run for tag, m in modules.items()}
        world, pass_args, n = world_at_most_rows(args.world)
        same = bits(runs, world, pass_args, n)
        print(args.world, "rows", n, "same bits", json.dumps(same), flush=True)
        out = {"world": args.world, "rows": n, "load": os.getloadavg()[0], "same_bits": same,
               "rounds": args.rounds, "reps": args.reps,
               "cycles": cycles_rounds(runs, world, pass_args, n, args.rounds, args.reps)}
        if args.asm:
            out["asm"] = {tag: asm_mix(m, world) for tag, m in modules.items()
                          if tag != "engine"}
        out["load_after"] = os.getloadavg()[0]
        for tag, c in out["cycles"].items():
            print(tag, json.dumps(c), flush=True)
        if "asm" in out:
            print("asm", json.dumps(out["asm"]), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
