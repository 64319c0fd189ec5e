"""Whether ``impulse2d warmup --all --envs`` covers a user's first runs of the native environments:
what each run still compiles after it.

    PYTHONPATH=src python benchmarks/warm_cover.py --cache DIR --warmup   # empty DIR first
    PYTHONPATH=src python benchmarks/warm_cover.py --cache DIR [--only NAME ...]

``--cache DIR``: the kernel cache (``NUMBA_CACHE_DIR``; without it, the tree's own
``_kernels/``); ``--warmup``: run ``python -m impulse2d warmup --all --envs`` into it first (its
process wall and CPU, the helpers' included, are reported). Then each scenario of
:data:`SCENARIOS` runs in a fresh process: LunarLander (discrete and continuous) and
BipedalWalker (and hardcore), 1 and 2 threads, next-step and same-step autoreset, made as
``benchmarks/envs_bench.py`` makes them (``gymnasium.make_vec``, then ``batch.threads``) or
directly (``threads=``), plus the single environments (``gymnasium.make``) and the scripted
pilots (:func:`impulse2d.envs.lunar_lander.heuristic`, :class:`impulse2d.envs.
walker_heuristic.ScriptedWalker`: landings and strides); each is reset and stepped with seeded
random actions (or the pilot's) until many episodes have restarted. A run counts three
ways what it compiled:

* Numba's compile events in its process (``numba:compile``, outermost only: a kernel with its
  callees is one), each named by module and function, with its signature;
* the package's compile notices on its stderr (``impulse2d: compiling kernels for ...``: the
  units a helper process compiles say so too);
* the cache's files written during the run (new or changed: anything compiled and saved, by
  whichever process).

A covered run has all three empty. Writes ``--json`` (default
``benchmarks/results/warmF56_cover_s31.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")

ENV_IDS = {"lander": "impulse2d/LunarLander-v3", "walker": "impulse2d/BipedalWalker-v3",
           "hardcore": "impulse2d/BipedalWalkerHardcore-v3"}


def _scenarios() -> dict:
    out = {}
    for env, kinds in (("lander", ({}, {"continuous": True})), ("walker", ({},)),
                       ("hardcore", ({},))):
        for kwargs in kinds:
            for threads in (1, 2):
                for mode in ("next_step", "same_step"):
                    name = "_".join([env, *(["continuous"] if kwargs else []), f"t{threads}",
                                     mode])
                    out[name] = {"env": env, "kwargs": kwargs, "threads": threads,
                                 "autoreset_mode": mode, "made": "make_vec"}
    for env in ("lander", "walker"):
        out[f"{env}_t2_direct"] = {"env": env, "kwargs": {}, "threads": 2,
                                   "autoreset_mode": "next_step", "made": "direct"}
        out[f"{env}_single"] = {"env": env, "kwargs": {}, "made": "make"}
    # the scripted pilots (landings, walks: contacts that grow the stores), 1 and 2 threads;
    # the first with the defaults given explicitly, 100 environments (a settings sweep's run)
    for env in ("lander", "walker"):
        for threads in (1, 2):
            out[f"{env}_pilot_t{threads}"] = {"env": env, "made": "direct", "threads": threads,
                                              "num_envs": 100 * threads, "actions": "pilot",
                                              "autoreset_mode": "next_step", "kwargs": {}}
    out["lander_pilot_t1"]["kwargs"] = {"settings": {
        "solver": "soft_step", "substeps": 8, "joint_hertz": 100.0, "joint_damping_ratio": 5.0},
        "max_episode_steps": 1000}
    return out


SCENARIOS = _scenarios()
"""Each run: the environment, its keyword arguments, threads, autoreset mode and how it is
made (``make_vec`` as the benchmarks, ``direct`` with ``threads=``, ``make``: one
environment)."""

NUM_ENVS = 1024
STEPS = {"make": 400, "pilot": 500}
"""Steps a run takes (random actions: a lander's episode ends in about 100, a walker's falls
sooner); a single environment and the pilots take more (resets of the one, landings and
strides of the others)."""


def run(name: str) -> dict:
    """Scenario ``name`` in this process: its compile events."""
    from numba.core import event

    compiles = []

    class Counter(event.Listener):
        depth = 0

        def on_start(self, ev):
            self.depth += 1
            if self.depth == 1:
                fn = getattr(ev.data["dispatcher"], "py_func", None)
                self.start = time.process_time()
                compiles.append({"kernel": f"{getattr(fn, '__module__', '?')}."
                                           f"{getattr(fn, '__qualname__', '?')}",
                                 "args": str(ev.data.get("args"))[:200]})

        def on_end(self, ev):
            self.depth -= 1
            if self.depth == 0:
                compiles[-1]["cpu_s"] = round(time.process_time() - self.start, 3)

    event.register("numba:compile", Counter())
    import gymnasium as gym
    import numpy as np

    import impulse2d.envs  # noqa: F401 (registers the environments)
    spec = SCENARIOS[name]
    n = spec.get("num_envs", NUM_ENVS)
    kwargs = dict(spec["kwargs"])
    if spec["made"] == "make":
        env = gym.make(ENV_IDS[spec["env"]], **kwargs)
        env.reset(seed=0)
        env.action_space.seed(0)
        for _ in range(STEPS["make"]):
            _, _, terminated, truncated, _ = env.step(env.action_space.sample())
            if terminated or truncated:
                env.reset()
        return {"compiles": compiles}
    if spec["made"] == "make_vec":
        envs = gym.make_vec(ENV_IDS[spec["env"]], num_envs=n,
                            vectorization_mode="vector_entry_point",
                            autoreset_mode=spec["autoreset_mode"], **kwargs)
        envs.batch.threads = spec["threads"]
    else:
        from impulse2d.envs.bipedal_walker import BipedalWalkerVectorEnv
        from impulse2d.envs.lunar_lander import LunarLanderVectorEnv
        cls = LunarLanderVectorEnv if spec["env"] == "lander" else BipedalWalkerVectorEnv
        envs = cls(n, threads=spec["threads"], autoreset_mode=spec["autoreset_mode"], **kwargs)
    obs, _ = envs.reset(seed=0)
    envs.action_space.seed(0)
    pilot = None
    if spec.get("actions") == "pilot":
        from impulse2d.envs.lunar_lander import heuristic
        from impulse2d.envs.walker_heuristic import ScriptedWalker
        pilot = (ScriptedWalker(n) if spec["env"] != "lander"
                 else lambda obs: heuristic(obs, kwargs.get("continuous", False)))
    ended = 0
    for _ in range(STEPS.get(spec.get("actions"), 150)):
        actions = envs.action_space.sample() if pilot is None else pilot(obs)
        obs, _, terminated, truncated, _ = envs.step(actions)
        done = terminated | truncated
        if hasattr(pilot, "reset") and done.any():
            pilot.reset(done)
        ended += int(np.count_nonzero(done))
    envs.close()
    return {"compiles": compiles, "episodes_ended": ended}


def _cache_root(cache: str | None) -> str:
    if cache:
        return os.path.join(cache, "impulse2d")
    return os.path.join(SRC, "impulse2d", "_kernels")


def _files(root: str) -> dict:
    out = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            try:
                st = os.stat(path)
            except FileNotFoundError:
                continue
            out[os.path.relpath(path, root)] = (st.st_size, st.st_mtime_ns)
    return out


def _env(cache: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "IMPULSE2D_QUIET")}
    env["PYTHONPATH"] = SRC
    if cache:
        env["NUMBA_CACHE_DIR"] = cache
    return env


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def warmup(cache: str | None) -> dict:
    """``warmup --all --envs`` into the cache: process wall and CPU (its helpers' included)."""
    cpu0, t0 = _children_cpu(), time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "impulse2d", "warmup", "--all", "--envs"],
                          env=_env(cache), capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    return {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
            "load": round(os.getloadavg()[0], 1), "stderr": done.stderr.splitlines()}


def probe(name: str, cache: str | None) -> dict:
    """Scenario ``name`` in a fresh process: what it compiled, the three ways."""
    root = _cache_root(cache)
    before = _files(root)
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, __file__, "--run", name], env=_env(cache),
                          capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{name}: {done.stderr}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    after = _files(root)
    out["notices"] = [line for line in done.stderr.splitlines() if "compiling kernels" in line]
    out["written"] = sorted(p for p, stamp in after.items() if before.get(p) != stamp)
    out["wall_s"] = round(wall, 1)
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", default=None)
    parser.add_argument("--warmup", action="store_true")
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--json", default=os.path.join(HERE, "results",
                                                       "warmF56_cover_s31.json"))
    parser.add_argument("--run", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.run:
        print(json.dumps(run(args.run)))
        return
    report = {"cache": args.cache, "runs": {}}
    if args.warmup:
        report["warmup --all"] = warmup(args.cache)
        print("warmup --all: {wall_s} s, CPU {cpu_s} s, load {load}".format(
            **report["warmup --all"]), flush=True)
    for name in args.only or SCENARIOS:
        out = probe(name, args.cache)
        report["runs"][name] = out
        print(f"{name}: {len(out['compiles'])} compiles, {len(out['notices'])} notices, "
              f"{len(out['written'])} files written ({out['wall_s']} s, load "
              f"{os.getloadavg()[0]:.1f})", flush=True)
        for c in out["compiles"]:
            print(f"    {c['kernel']} ({c['cpu_s']} s of CPU) {c['args'][:100]}", flush=True)
        for line in out["notices"]:
            print(f"    {line}", flush=True)
    report["covered"] = all(not (r["compiles"] or r["notices"] or r["written"])
                            for r in report["runs"].values())
    with open(args.json, "w") as fh:
        json.dump(report, fh, indent=1)
    print("covered:", report["covered"])


if __name__ == "__main__":
    main()
