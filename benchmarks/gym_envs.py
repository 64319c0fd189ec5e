"""Gymnasium's Box2D environments on impulse2d (``impulse2d.compat.box2d``) beside the same
environments on Box2D 2.3 (pybox2d), in one run.

    PYTHONPATH=src python benchmarks/gym_envs.py --json benchmarks/results/gym_envs.json

Each engine runs in its own subprocess (``install()`` shadows ``Box2D`` for a whole process),
one after the other, so that both see the same machine. Measured per engine:

* ``LunarLander-v3`` with its own heuristic pilot, seeds 0-19: environment steps per second
  over the whole episodes (the pilot, the env's Python and the physics), each seed's score,
  length and whether it ended with the lander asleep (issue 16's bar: mean >= 240, every seed
  >= 150, asleep).
* ``BipedalWalker-v3`` with random actions (seeded): steps per second and the CPU time of its
  lidar per step (the world's ``RayCast``, 10 calls a step, timed by a wrapper), and with
  Gymnasium's scripted gait (``BipedalWalkerHeuristics``, distance walked in 500 steps, seeds
  0-3).
* ``CarRacing-v3`` with a scripted driver (steer toward the track a few tiles ahead, gas to
  25 m/s) for a full lap (the time limit raised from 1000 to ``--car-steps`` steps): steps per
  second, tiles rewarded (each once) out of the lap's, whether the lap finished.

The CPU time of a ``reset`` is reported per environment too (``reset_cpu_ms``: LunarLander's
step rates above leave its resets out).

``--mode episodes`` measures the three as Gymnasium's users run them instead: random actions
(the action space seeded), whole episodes at each environment's own limits, and every
``reset()`` between them inside the timed loop (a reset builds a whole new world through the
layer). The engines alternate in ``--rounds`` pairs of processes (the order reversed on odd
rounds); the ratios are paired, per round, and their median is the headline. The load average
is recorded before and after.

``--mode interleaved`` takes the same random episodes, resets timed, on both engines in ONE
process: Gymnasium's three environment modules are loaded twice, once over Box2D 2.3 and once
over the layer (``install()``), and the two run alternately in chunks of ``--chunk`` steps,
each engine's CPU time summed over its chunks. On a loaded machine the two then share every
moment's load, which separate processes minutes apart do not (the ratio is the one to read).

Rates are given per second of wall time (``steps_per_s``, the headline) and per second of the
process's CPU time (``steps_per_cpu_s``: on a shared, loaded machine the wall rate of one engine
depends on what ran beside it, the CPU rate much less; the ratios of both are reported).
``--substeps N`` runs the layer with N engine steps per ``Step`` (``b2World.substeps``; 1: one
step of Box2D's own iteration counts, see docs/compat-box2d.md). Add ``--profile`` to print
where impulse2d's time goes (cProfile of the three, top entries).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")


def lander(seeds) -> dict:
    import gymnasium as gym
    from gymnasium.envs.box2d.lunar_lander import heuristic
    env = gym.make("LunarLander-v3")
    scores, lengths, asleep, seconds, cpu = [], [], [], 0.0, 0.0
    for seed in seeds:
        obs, _ = env.reset(seed=seed)
        total, n = 0.0, 0
        start, start_cpu = time.perf_counter(), time.process_time()
        while True:
            obs, reward, terminated, truncated, _ = env.step(heuristic(env.unwrapped, obs))
            total += reward
            n += 1
            if terminated or truncated:
                break
        seconds += time.perf_counter() - start
        cpu += time.process_time() - start_cpu
        scores.append(round(float(total), 2))
        lengths.append(n)
        asleep.append(not env.unwrapped.lander.awake)
    return {"steps_per_s": round(sum(lengths) / seconds, 1),
            "steps_per_cpu_s": round(sum(lengths) / cpu, 1), "scores": scores,
            "mean": round(sum(scores) / len(scores), 2), "min": min(scores),
            "lengths": lengths, "asleep": sum(asleep)}


def walker(steps: int) -> dict:
    import gymnasium as gym
    import numpy as np
    from gymnasium.envs.box2d.bipedal_walker import BipedalWalkerHeuristics
    env = gym.make("BipedalWalker-v3")
    env.action_space.seed(0)
    env.reset(seed=0)
    lidar = [0.0, None]  # CPU seconds in the world's RayCast (10 lidar rays a step), its world

    def timed_lidar():  # wrap the world's RayCast (once per world: reset may make a new one)
        world = env.unwrapped.world
        if lidar[1] is world:
            return
        cast = world.RayCast

        def ray_cast(callback, p1, p2):
            t = time.thread_time()
            cast(callback, p1, p2)
            lidar[0] += time.thread_time() - t

        world.RayCast = ray_cast
        lidar[1] = world

    timed_lidar()
    n = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    while n < steps:
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        n += 1
        if terminated or truncated:
            env.reset()
            timed_lidar()
    rate = n / (time.perf_counter() - start)
    cpu_rate = n / (time.process_time() - start_cpu)
    lidar_us = lidar[0] / n * 1e6
    gait = []
    for seed in range(4):
        pilot = BipedalWalkerHeuristics()
        obs, _ = env.reset(seed=seed)
        x0 = env.unwrapped.hull.position[0]
        for k in range(500):
            obs, _, terminated, truncated, _ = env.step(pilot.step_heuristic(obs))
            if terminated or truncated:
                break
        gait.append({"steps": k + 1, "distance_m": round(float(env.unwrapped.hull.position[0]
                                                                - x0), 2),
                     "fell": bool(env.unwrapped.game_over)})
    del np
    return {"steps_per_s": round(rate, 1), "steps_per_cpu_s": round(cpu_rate, 1),
            "lidar_cpu_us_per_step": round(lidar_us, 1), "heuristic_gait": gait}


def car(steps: int) -> dict:
    import gymnasium as gym
    import numpy as np
    env = gym.make("CarRacing-v3", max_episode_steps=steps + 1)  # a lap takes ~2000 steps
    obs, _ = env.reset(seed=2)
    u = env.unwrapped
    track = np.array([(x, y) for _, _, x, y in u.track])
    n, rewarded, last = 0, 0, 0
    start, start_cpu = time.perf_counter(), time.process_time()
    lap = False
    while n < steps:
        hull = u.car.hull
        pos = np.array(hull.position)
        nearest = int(np.argmin(((track - pos) ** 2).sum(axis=1)))
        target = track[(nearest + 6) % len(track)]
        forward = hull.GetWorldVector((0.0, 1.0))
        to = target - pos
        angle = math.atan2(forward[0] * to[1] - forward[1] * to[0],
                           forward[0] * to[0] + forward[1] * to[1])
        speed = math.hypot(*hull.linearVelocity)
        action = np.array([np.clip(-2.0 * angle, -1, 1), 0.3 if speed < 25 else 0.0, 0.0],
                          dtype=np.float32)
        _, _, terminated, truncated, info = env.step(action)
        n += 1
        rewarded += u.tile_visited_count - last
        last = u.tile_visited_count
        if terminated or truncated:
            lap = bool(info.get("lap_finished", False))
            break
    rate = n / (time.perf_counter() - start)
    cpu_rate = n / (time.process_time() - start_cpu)
    return {"steps_per_s": round(rate, 2), "steps_per_cpu_s": round(cpu_rate, 2), "steps": n,
            "tiles": len(u.track),
            "tiles_visited": int(u.tile_visited_count), "tiles_rewarded": rewarded,
            "visited_flags": int(sum(t.road_visited for t in u.road)), "lap_finished": lap}


def resets(name: str, count: int) -> float:
    """CPU milliseconds per ``reset(seed=k)`` of ``name`` (k = 0 .. count - 1): the world torn
    down and built again (the step rates above leave LunarLander's resets out, time between
    episodes; BipedalWalker's random run has its falls' resets in)."""
    import gymnasium as gym
    env = gym.make(name)
    env.reset(seed=count)
    start = time.process_time()
    for seed in range(count):
        env.reset(seed=seed)
    return round((time.process_time() - start) / count * 1e3, 3)


def episodes(name: str, steps: int, seed: int) -> dict:
    """``steps`` environment steps of ``name`` with random actions (the action space seeded
    with ``seed``), whole episodes at the environment's own limits, each ``reset()`` that ends
    one inside the timed loop: what a training loop of Gymnasium's users costs."""
    import gymnasium as gym
    env = gym.make(name)
    env.action_space.seed(seed)
    env.reset(seed=seed)
    sample, step, reset = env.action_space.sample, env.step, env.reset
    n = resets = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    while n < steps:
        _, _, terminated, truncated, _ = step(sample())
        n += 1
        if terminated or truncated:
            reset()
            resets += 1
    seconds = time.perf_counter() - start
    cpu = time.process_time() - start_cpu
    env.close()
    return {"steps_per_s": round(n / seconds, 1), "steps_per_cpu_s": round(n / cpu, 1),
            "steps": n, "resets": resets}


EPISODE_STEPS = {"LunarLander-v3": 20000, "BipedalWalker-v3": 6000, "CarRacing-v3": 2000}


def run_episodes(args) -> dict:
    """In this (child) process: the three environments' random episodes on one engine."""
    budget = {name: max(1, int(steps * args.scale)) for name, steps in EPISODE_STEPS.items()}
    for name in budget:  # warm-up: kernels loaded (or compiled), Gymnasium's modules imported
        episodes(name, 50, 1000)
    return {name: episodes(name, steps, 0) for name, steps in budget.items()}


def _env_modules(box2d_modules: dict, tag: str) -> dict:
    """Gymnasium's LunarLander, BipedalWalker and CarRacing classes from fresh copies of their
    modules, imported with ``Box2D`` (and ``Box2D.b2``) being ``box2d_modules``."""
    import importlib.util
    import gymnasium.envs.box2d as package
    saved = {name: sys.modules.get(name) for name in
             ("Box2D", "Box2D.b2", "gymnasium.envs.box2d.car_dynamics")}
    sys.modules.update(box2d_modules)
    loaded = {}
    try:
        for name in ("car_dynamics", "lunar_lander", "bipedal_walker", "car_racing"):
            spec = importlib.util.spec_from_file_location(
                f"_bench_{tag}_{name}", os.path.join(os.path.dirname(package.__file__),
                                                     name + ".py"))
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            loaded[name] = module
            if name == "car_dynamics":  # car_racing imports Car from it by this name
                sys.modules["gymnasium.envs.box2d.car_dynamics"] = module
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    return {"LunarLander-v3": (loaded["lunar_lander"].LunarLander, 1000),
            "BipedalWalker-v3": (loaded["bipedal_walker"].BipedalWalker, 1600),
            "CarRacing-v3": (loaded["car_racing"].CarRacing, 1000)}


def interleaved(args) -> dict:
    """``--mode interleaved``: both engines' random episodes, resets timed, in one process,
    alternating chunks of ``args.chunk`` steps."""
    import statistics
    import gymnasium as gym
    import Box2D
    import Box2D.b2
    sys.path.insert(0, SRC)
    import impulse2d.compat.box2d as b2compat
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    b2compat.install()
    layer = {name: sys.modules[name] for name in ("Box2D", "Box2D.b2")}
    b2compat.uninstall()
    classes = {"box2d": _env_modules({"Box2D": Box2D, "Box2D.b2": Box2D.b2}, "box2d"),
               "impulse2d": _env_modules(layer, "layer")}
    load = [os.getloadavg()]
    out = {}
    for name, steps in EPISODE_STEPS.items():
        if args.envs and name not in args.envs:
            continue
        steps = max(1, int(steps * args.scale))
        runs = {}
        for engine, table in classes.items():
            cls, limit = table[name]
            gym.register(id=f"bench-{engine}-{name}", entry_point=cls, max_episode_steps=limit)
            env = gym.make(f"bench-{engine}-{name}")
            env.action_space.seed(0)
            env.reset(seed=0)
            for _ in range(20):  # warm-up (kernels loaded), outside the seeded run below
                env.step(env.action_space.sample())
            env.action_space.seed(0)
            env.reset(seed=0)
            runs[engine] = {"env": env, "steps": 0, "resets": 0, "cpu": 0.0, "reset_cpu": 0.0,
                            "chunks": []}
        k = 0
        while any(run["steps"] < steps for run in runs.values()):
            order = list(runs) if k % 2 == 0 else list(runs)[::-1]
            for engine in order:
                run = runs[engine]
                env = run["env"]
                n = min(args.chunk, steps - run["steps"])
                if n <= 0:
                    continue
                sample, step, reset = env.action_space.sample, env.step, env.reset
                resets = 0
                in_resets = 0.0
                clock = time.process_time
                start = clock()
                for _ in range(n):
                    _, _, terminated, truncated, _ = step(sample())
                    if terminated or truncated:
                        t = clock()
                        reset()
                        in_resets += clock() - t
                        resets += 1
                cpu = clock() - start
                run["steps"] += n
                run["resets"] += resets
                run["cpu"] += cpu
                run["reset_cpu"] += in_resets
                run["chunks"].append(n / cpu)
            k += 1
        # both ways: every CPU second, and the steps' alone (the resets' CPU time taken out,
        # as the pilots' runs above leave LunarLander's resets out)
        out[name] = {engine: {"steps": run["steps"], "resets": run["resets"],
                              "steps_per_cpu_s": round(run["steps"] / run["cpu"], 1),
                              "steps_per_cpu_s_without_resets": round(
                                  run["steps"] / (run["cpu"] - run["reset_cpu"]), 1),
                              "reset_cpu_ms": round(run["reset_cpu"] / max(run["resets"], 1)
                                                    * 1e3, 3)}
                     for engine, run in runs.items()}
        chunk_ratios = [a / b for a, b in zip(runs["impulse2d"]["chunks"],
                                               runs["box2d"]["chunks"])]
        out[name]["ratio"] = round(out[name]["impulse2d"]["steps_per_cpu_s"]
                                   / out[name]["box2d"]["steps_per_cpu_s"], 3)
        out[name]["ratio_without_resets"] = round(
            out[name]["impulse2d"]["steps_per_cpu_s_without_resets"]
            / out[name]["box2d"]["steps_per_cpu_s_without_resets"], 3)
        out[name]["chunk_ratio_median"] = round(statistics.median(chunk_ratios), 3)
        for run in runs.values():
            run["env"].close()
        load.append(os.getloadavg())
    return {"machine": platform.platform(), "python": platform.python_version(),
            "mode": f"interleaved (one process, chunks of {args.chunk} steps, CPU time)",
            "environments": out, "load_average_1_5_15": [[round(x, 2) for x in three]
                                                         for three in load]}


def run_engine(args) -> dict:
    """In this (child) process: the three environments on one engine."""
    if args.engine == "impulse2d":
        sys.path.insert(0, SRC)
        import impulse2d.compat.box2d as b2compat
        b2compat.install()
        if args.substeps:
            from impulse2d.compat._b2world import b2World
            b2World.substeps = args.substeps
            b2World.max_iterations = None if args.substeps == 1 else b2World.max_iterations
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import gymnasium  # noqa: F401  (import time not measured below)
    if args.mode == "episodes":
        return run_episodes(args)
    # one short warm-up of each (impulse2d compiles or loads its kernels on first use)
    lander([100])
    walker(20)
    car(5)
    out = {"LunarLander-v3": lander(range(args.seeds)),
           "BipedalWalker-v3": walker(args.walker_steps),
           "CarRacing-v3": car(args.car_steps)}
    out["reset_cpu_ms"] = {"LunarLander-v3": resets("LunarLander-v3", 100),
                           "BipedalWalker-v3": resets("BipedalWalker-v3", 40),
                           "CarRacing-v3": resets("CarRacing-v3", 5)}
    if args.engine == "impulse2d":
        from impulse2d.compat._b2world import b2World
        out["layer_substeps"] = b2World.substeps
    if args.profile:
        import cProfile
        import pstats
        for name, call in (("LunarLander", lambda: lander(range(3))),
                           ("BipedalWalker", lambda: walker(300)), ("CarRacing", lambda: car(60))):
            prof = cProfile.Profile()
            prof.runcall(call)
            print(f"--- {args.engine}: {name}", file=sys.stderr)
            pstats.Stats(prof, stream=sys.stderr).sort_stats("tottime").print_stats(12)
    return out


def compare_episodes(args) -> dict:
    """``--mode episodes``: the engines alternated over ``args.rounds`` pairs of processes."""
    import statistics
    load = [os.getloadavg()]
    rounds = []
    for r in range(args.rounds):
        order = ("box2d", "impulse2d") if r % 2 == 0 else ("impulse2d", "box2d")
        one = {}
        for engine in order:
            command = [sys.executable, __file__, "--engine", engine, "--mode", "episodes",
                       "--scale", str(args.scale), "--substeps", str(args.substeps)]
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode != 0:
                print(done.stderr, file=sys.stderr)
                raise SystemExit(f"{engine} failed")
            one[engine] = json.loads(done.stdout.strip().splitlines()[-1])
        rounds.append(one)
        load.append(os.getloadavg())
    names = list(EPISODE_STEPS)

    def paired(key):
        return {name: round(statistics.median(
            one["impulse2d"][name][key] / one["box2d"][name][key] for one in rounds), 3)
            for name in names}

    return {"machine": platform.platform(), "python": platform.python_version(),
            "mode": "episodes (random actions, resets timed)", "rounds": rounds,
            "load_average_1_5_15": [[round(x, 2) for x in three] for three in load],
            "speed_ratio_impulse2d_over_box2d": paired("steps_per_s"),
            "cpu_speed_ratio_impulse2d_over_box2d": paired("steps_per_cpu_s"),
            "per_round_ratio": [{name: round(one["impulse2d"][name]["steps_per_s"]
                                             / one["box2d"][name]["steps_per_s"], 3)
                                 for name in names} for one in rounds]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--walker-steps", type=int, default=2000)
    parser.add_argument("--car-steps", type=int, default=3000)
    parser.add_argument("--engine", choices=["impulse2d", "box2d"], help=argparse.SUPPRESS)
    parser.add_argument("--substeps", type=int, default=0,
                        help="impulse2d: engine steps per Step (default: the layer's)")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--mode", choices=["pilots", "episodes", "interleaved"],
                        default="pilots",
                        help="pilots: the scripted runs above (LunarLander's resets left out); "
                             "episodes: random actions with every reset timed; interleaved: "
                             "the same, both engines in one process")
    parser.add_argument("--chunk", type=int, default=200,
                        help="interleaved: steps an engine runs before the other's turn")
    parser.add_argument("--envs", nargs="+", choices=list(EPISODE_STEPS),
                        help="interleaved: only these environments (default: all three)")
    parser.add_argument("--rounds", type=int, default=3, help="episodes: alternated pairs")
    parser.add_argument("--scale", type=float, default=1.0,
                        help=f"episodes: steps per environment x this ({EPISODE_STEPS})")
    args = parser.parse_args()
    if args.engine:
        print(json.dumps(run_engine(args)))
        return
    if args.mode in ("episodes", "interleaved"):
        report = compare_episodes(args) if args.mode == "episodes" else interleaved(args)
        text = json.dumps(report, indent=2)
        print(text)
        if args.json:
            with open(args.json, "w") as f:
                f.write(text + "\n")
        return
    results = {}
    reset_ms = {}
    for engine in ("box2d", "impulse2d"):
        command = [sys.executable, __file__, "--engine", engine, "--seeds", str(args.seeds),
                   "--walker-steps", str(args.walker_steps), "--car-steps", str(args.car_steps),
                   "--substeps", str(args.substeps)]
        if args.profile:
            command.append("--profile")
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            raise SystemExit(f"{engine} failed")
        if args.profile:
            print(done.stderr, file=sys.stderr)
        results[engine] = json.loads(done.stdout.strip().splitlines()[-1])
        reset_ms[engine] = results[engine].pop("reset_cpu_ms")
    ratio = {name: round(results["impulse2d"][name]["steps_per_s"]
                         / results["box2d"][name]["steps_per_s"], 3)
             for name in results["box2d"]}
    cpu_ratio = {name: round(results["impulse2d"][name]["steps_per_cpu_s"]
                             / results["box2d"][name]["steps_per_cpu_s"], 3)
                 for name in results["box2d"]}
    lidar = {engine: results[engine]["BipedalWalker-v3"]["lidar_cpu_us_per_step"]
             for engine in results}
    report = {"machine": platform.platform(), "python": platform.python_version(),
              "layer_substeps": results["impulse2d"].pop("layer_substeps"),
              "engines": results, "speed_ratio_impulse2d_over_box2d": ratio,
              "cpu_speed_ratio_impulse2d_over_box2d": cpu_ratio,
              "bipedal_walker_lidar_cpu_us_per_step": lidar, "reset_cpu_ms": reset_ms}
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
