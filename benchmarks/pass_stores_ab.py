"""The contact passes with and without the stores only the rows' readers need (issue 31 item 2;
BENCHMARKS.md, session 19, ``big44``): in one process, the engine's biased and relax pass
(:func:`impulse2d._dynamics.contact_lanes._solve`) against a copy of it compiled here without
its stores of the unclamped impulses and the bias (``UNN``, ``UNT``, ``BIAS``: read only by the
diagnostics and ``World.constraint_rows()``), over every row of a loaded scene, interleaved,
cycle counter, minimum and median over the rounds. Not the engine's bits (the copy keeps no
bias): a measure of what those stores cost a pass.

    PYTHONPATH=src python benchmarks/pass_stores_ab.py [float32|float64] [many_pyramids] [rounds]
"""
import inspect, sys, os, time, textwrap
sys.path.insert(0, "benchmarks")
import numba, numpy as np
import engines, run
from big_stages import cycles_per_us
from impulse2d._core.jit import cycles
from impulse2d._dynamics import contact_lanes as CL
from impulse2d._dynamics.lane_layout import flat_lanes
from impulse2d._dynamics.world_ref import sync_constraints

def main() -> None:
    """The A/B of the module docstring, for the command line's precision, scene and rounds."""
    prec = sys.argv[1] if len(sys.argv) > 1 else "float32"
    scene = sys.argv[2] if len(sys.argv) > 2 else "many_pyramids"
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 30

    ns = dict(CL.__dict__)
    ns["inline_kernel"] = numba.njit(inline="always", _nrt=False, error_model="numpy", no_cpython_wrapper=True)
    src = inspect.getsource(CL._solve_lanes.py_func if hasattr(CL._solve_lanes, "py_func") else CL._solve_lanes)
    src2 = src.replace("def _solve_lanes(", "def _solve_lanes_x(")
    for line in ("lanes[p + UNT] = old + impulse\n", "lanes[p + UNN] = old + impulse\n",
                 "lanes[p + BIAS] = _select(write_bias, bias, lanes[p + BIAS])\n"):
        assert line in src2, line
        src2 = src2.replace(line, "pass\n")
    exec(compile(src2, "variant", "exec"), ns)
    s_src = inspect.getsource(CL._solve.py_func if hasattr(CL._solve, "py_func") else CL._solve)
    s_src = s_src.replace("def _solve(", "def _solve_x(").replace("_solve_lanes(", "_solve_lanes_x(")
    exec(compile(s_src, "variant_solve", "exec"), ns)
    _solve_x = ns["_solve_x"]
    _solve = CL._solve

    if prec == "float32":
        def view(cs): return flat_lanes(cs).view(np.float32)
    else:
        def view(cs): return flat_lanes(cs)
    view = numba.njit(inline="always")(view)

    def mk(fn):
        @numba.njit(cache=False, error_model="numpy")
        def timed(cs, bodies, first, last, inv_h, use_bias, last_sweep, contact_speed, speed_cap):
            t0 = cycles()
            fn(cs, bodies, view(cs), first, last, inv_h, use_bias, True, 0.0, 0.0, contact_speed,
               last_sweep, speed_cap)
            return cycles() - t0
        return timed

    fa, fb = mk(_solve), mk(_solve_x)
    name, params = run.SCENES[scene][:2]
    eng = engines.make_engine("impulse2d", {"solver_precision": prec, "threads": 1})
    eng.build(name, **params)
    world = eng.world
    for _ in range(100):
        world.step(engines.DT)
    sync_constraints(world)
    cs, bodies = world._constraints, world._bodies
    m = int(np.count_nonzero(cs.count >= 0)) if False else int(cs.count.shape[0])
    s = world.settings
    h = engines.DT / s.substeps
    args = (cs, bodies, 0, m, 1.0 / h)
    tail = (float(s.contact_speed), 4.0 * float(s.max_linear_speed))
    best = {}
    allv = {}
    t_start = time.time()
    for r in range(rounds):
        for name_, f in (("main", fa), ("x", fb)) if r % 2 == 0 else (("x", fb), ("main", fa)):
            for v, (ub, ls) in {"biased": (True, False), "relax": (False, True)}.items():
                t = f(*args, ub, ls, *tail)
                best[name_, v] = min(best.get((name_, v), 1 << 62), t)
                allv.setdefault((name_, v), []).append(t)
    rate = cycles_per_us()
    print(f"{scene} {prec} rows {m} load {os.getloadavg()[0]:.1f} rounds {rounds}")
    for v in ("biased", "relax"):
        a, b = best["main", v] / rate, best["x", v] / rate
        ma, mb = np.median(allv["main", v]) / rate, np.median(allv["x", v]) / rate
        print(f"{v}: main {a:.0f} us, no-UN/BIAS stores {b:.0f} us, ratio {b/a:.3f} (medians {ma:.0f} / {mb:.0f}, {mb/ma:.3f})")


if __name__ == "__main__":
    main()
