"""The native LunarLander's environment code of another checkout against this one's, in one
process, on the same engine: paired CPU per environment step and the bits of every step.

    PYTHONPATH=src python benchmarks/lander_env_ab.py --a-envs /path/to/main/src/impulse2d/envs \
        [--num-envs 1024] [--steps 200] [--threads 1] [--json FILE]
    PYTHONPATH=src python benchmarks/lander_env_ab.py --a-entries [...]

Fresh processes alternating between two checkouts do not resolve a few per cent of the lander's
step on a loaded machine (their rounds spread by 10 % and more). Here ``--a-envs``' (the other
checkout's ``envs`` folder) ``_vector.py`` (the base class), ``_segments.py``,
``_lander_step.py`` and ``lunar_lander.py`` are loaded as modules of this ``impulse2d.envs``
under other names (the engine and the batch are this checkout's: only the environments' code
differs),
both vector environments are made with ``num_envs`` landers on ``threads``, reset with seed
0, and stepped with the same seeded random actions (resets as they come), the order of the
two alternating step by step, each step timed by the calling thread's CPU clock and by the
wall clock (at 2 threads the calling thread's time is the step's critical path: the
environment's serial Python, its share of the kernel, the restarts beside the other thread's
share). Printed: each side's ns per environment step (the mean over the steps and the median
of the steps), the median of the per-step ratios a / b, and whether every observation, reward
and flag of the two was equal bit for bit; the same of ``serial_cpu``: the calling thread's
CPU outside the batch kernel's calls (``WorldBatch._run_around``, the restarts beside the
kernel included in those, and ``_run``), the serial Python around the kernel (issue 30).

``--a-entries`` instead: both sides are this checkout's environment, and side a's worlds
solve on the soft step through the joint types' entries (their table of verbs filled as for
a world with a joint of another type), side b's on the soft step with the revolute joints
compiled in (``soft_step_revolute``, session 20): the engine's two paths paired in one process.

``--b-batch FILE`` (alone, or with ``--a-envs``): side b's batch steps by the
``WorldBatch._step_state``, ``_run_around`` and ``_run`` of another ``batch.py`` (``FILE``,
loaded as ``impulse2d.batch_b``, e.g. this checkout's with a patch applied), side a's by this
checkout's: the batch's Python around the kernel paired on the same engine and environment;
with ``--env walker``, on two ``impulse2d/BipedalWalker-v3`` vector environments.

``--b-pool`` (alone, or with the others): side b's batch hands its helpers each step through
its pool of Python threads, side a's through its crew (:mod:`impulse2d._crew`, where this
checkout has one): the hand-off paired on the same code. ``--spins N``: the crew's helpers
spin N spin-wait hints after a step before they sleep (``_crew.IDLE_SPINS``; 0: they sleep at
once, so that side a's helper spinning after its step does not take a core from side b's).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import types

import numpy as np


_OWN = ("_vector", "_segments", "_lander_step", "_lander_hook", "lunar_lander")
"""The other checkout's modules loaded (each imports the ones before it; ``_lander_hook``,
session 33's, where the checkout has it)."""


def load_other(envs_dir: str):
    """The other checkout's ``lunar_lander`` module (with its ``_vector``, ``_segments`` and
    ``_lander_step``), as modules of ``impulse2d.envs`` named ``*_a``."""
    import impulse2d.envs  # noqa: F401 (the package they join)
    modules = {}
    for name in _OWN:
        path = os.path.join(envs_dir, f"{name}.py")
        if not os.path.exists(path) and name == "_lander_hook":
            continue
        with open(path) as f:
            source = f.read()
        for other in _OWN:
            source = source.replace(f"from .{other} import", f"from .{other}_a import")
            source = source.replace(f"from . import {other} as", f"from . import {other}_a as")
        modules[name] = _module(f"impulse2d.envs.{name}_a", path, source)
    return modules["lunar_lander"]


def _module(name: str, path: str, source: str):
    """``source`` (the file ``path``'s) run as the module ``name`` of its package."""
    module = types.ModuleType(name)
    module.__package__ = name.rpartition(".")[0]
    module.__file__ = path
    sys.modules[name] = module
    exec(compile(source, path, "exec"), module.__dict__)
    return module


inside = {"a": 0, "b": 0}
"""Each side's calling-thread CPU (ns) in the batch kernel's calls this step (the restarts
beside it included): the step's CPU less it is the serial Python around the kernel."""


def _kernel_timed(batch, method: str, into: dict, side: str) -> None:
    """``batch.method`` (``_run_around`` or ``_run``) timed into ``into[side]``."""
    f = getattr(batch, method)

    def timed(*a, **k):
        t = time.thread_time_ns()
        try:
            return f(*a, **k)
        finally:
            into[side] += time.thread_time_ns() - t

    setattr(batch, method, timed)


def batch_from(path: str, batch) -> None:
    """``batch``'s step methods (``_step_state``, ``_run_around``, ``_run``) taken from the
    ``batch.py`` at ``path``, loaded as ``impulse2d.batch_b``."""
    import impulse2d  # noqa: F401 (the package it joins)
    with open(path) as f:
        module = _module("impulse2d.batch_b", path, f.read())
    for name in ("_step_state", "_run_around", "_run"):
        setattr(batch, name, types.MethodType(getattr(module.WorldBatch, name), batch))


def entries_for(worlds: set):
    """Make the worlds whose ids are in ``worlds`` (filled in by the caller; every world while
    it holds ``None``) take the soft step through the joint entries: ``step.needed_units``
    wrapped in this process. Returns a check: whether every world's table holds the solver
    its side should."""
    from impulse2d._dynamics import step
    from impulse2d._dynamics.joints import ROW_LISTS
    from impulse2d._dynamics.verbs import JOINTS, SOLVER
    chosen = step.needed_units

    def needed_units(world, by_type):
        needed = chosen(world, by_type)
        if None in worlds or id(world) in worlds:
            needed[SOLVER] = step.SOLVER_KERNELS["soft_step"]
            for k, rows in enumerate(by_type):
                if rows.shape[0] > 0:
                    needed[JOINTS + k] = step.JOINT_KERNELS[
                        "revolute" if k == 0 else ROW_LISTS[k]]
        return needed

    step.needed_units = needed_units

    def check(sides) -> bool:
        entries = step.SOLVER_KERNELS["soft_step"].compiled_address()
        revolute = step.SOFT_STEP_REVOLUTE_KERNEL.compiled_address()
        return all(int(w._verbs[SOLVER]) == (entries if name == "a" else revolute)
                   for name, env in sides.items() for w in env.batch.worlds)
    return check


def main() -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--a-envs", help="the other checkout's envs folder")
    which.add_argument("--a-entries", action="store_true",
                       help="a: this checkout's environment on the joint entries' soft step")
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--warm", type=int, default=20)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--json", default="")
    parser.add_argument("--b-batch", default="",
                        help="b: the batch's step methods from this batch.py")
    parser.add_argument("--b-pool", action="store_true",
                        help="b: the batch's helpers through its pool, not a crew")
    parser.add_argument("--spins", type=int, default=-1,
                        help="the crew's spins before a helper sleeps (default: the package's)")
    parser.add_argument("--env", choices=("lander", "walker"), default="lander",
                        help="walker: BipedalWalker-v3 on both sides (with --b-batch alone)")
    args = parser.parse_args()
    if not (args.a_envs or args.a_entries or args.b_batch or args.b_pool):
        parser.error("one of --a-envs, --a-entries, --b-batch, --b-pool is required")
    if args.spins >= 0:
        from impulse2d import _crew
        _crew.IDLE_SPINS = args.spins
    if args.env == "walker" and (args.a_envs or args.a_entries):
        parser.error("--env walker takes --b-batch alone")
    from impulse2d.envs import lunar_lander as b_module
    a_module = load_other(args.a_envs) if args.a_envs else b_module
    a_worlds = {None}
    check = entries_for(a_worlds) if args.a_entries else None
    sides = {}
    for name, module in (("a", a_module), ("b", b_module)):
        if args.env == "walker":
            from impulse2d.envs.bipedal_walker import BipedalWalkerVectorEnv
            env = BipedalWalkerVectorEnv(args.num_envs, max_episode_steps=1600,
                                         threads=args.threads)
        else:
            env = module.LunarLanderVectorEnv(args.num_envs, max_episode_steps=1000,
                                               threads=args.threads)
        if name == "a":
            a_worlds.clear()
            a_worlds.update(id(w) for w in env.batch.worlds)
        elif args.b_batch:
            batch_from(args.b_batch, env.batch)
        if name == "b" and args.b_pool:
            env.batch._crew_ready = lambda: None
        env.reset(seed=0)
        sides[name] = env
        for method in ("_run_around", "_run"):
            _kernel_timed(env.batch, method, inside, name)
    space = sides["b"].action_space
    space.seed(0)
    actions = [space.sample() for _ in range(args.warm + args.steps)]
    cpu = {"a": [], "b": []}
    wall = {"a": [], "b": []}
    serial = {"a": [], "b": []}
    equal, ended = True, 0
    for k, action in enumerate(actions):
        order = ("a", "b") if k % 2 == 0 else ("b", "a")
        out = {}
        for name in order:
            inside[name] = 0
            t, w = time.thread_time_ns(), time.perf_counter_ns()
            out[name] = sides[name].step(action)
            t, w = time.thread_time_ns() - t, time.perf_counter_ns() - w
            if k >= args.warm:
                cpu[name].append(t)
                wall[name].append(w)
                serial[name].append(t - inside[name])
        for x, y in zip(out["a"][:4], out["b"][:4]):
            equal = equal and x.dtype == y.dtype and x.tobytes() == y.tobytes()
        if k >= args.warm:
            ended += int((out["b"][2] | out["b"][3]).sum())
    n = args.num_envs
    result = {"env": args.env, "num_envs": n, "steps": args.steps, "threads": args.threads,
              "episodes_ended": ended, "bits_equal": bool(equal),
              "load": round(os.getloadavg()[0], 1),
              "a": "joint entries" if args.a_entries else args.a_envs or "this checkout",
              "b_batch": args.b_batch or "this checkout", "b_pool": args.b_pool,
              "spins": args.spins}
    if check is not None:
        result["solvers_as_meant"] = check(sides)
    for clock, times in (("cpu", cpu), ("wall", wall), ("serial_cpu", serial)):
        a, b = np.array(times["a"]) / n, np.array(times["b"]) / n
        result[clock] = {"a_ns_mean": round(float(a.mean()), 1),
                         "b_ns_mean": round(float(b.mean()), 1),
                         "a_ns_median": round(float(np.median(a)), 1),
                         "b_ns_median": round(float(np.median(b)), 1),
                         "median_ratio_a_over_b": round(float(np.median(a / b)), 4)}
    print(json.dumps(result))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return result


if __name__ == "__main__":
    main()
