"""Where Gymnasium's LunarLander spends its time on the pybox2d layer and on Box2D 2.3, in one
process (issue 31 item 8: the layer's LunarLander with resets at >= 0.7x Box2D).

    PYTHONPATH=src python benchmarks/lander_split.py [--steps 10000] [--resets 400] [--json F]

Both engines run in this one process, as ``gym_envs.py --mode interleaved`` runs them
(Gymnasium's ``lunar_lander`` module loaded twice, once over each ``Box2D``), so that they share
the machine's load moment by moment. Two measurements, in CPU time (``time.process_time``):

1. **An environment step split.** Random-action episodes (the action space seeded 0), every
   ``reset()`` inside the run, the engines alternating in chunks of 200 steps; each engine's CPU
   time per environment step split into the world's ``Step`` (timed by a wrapper on the
   ``b2World`` class: the first Step of a new world, made by the reset, counts as a reset's),
   the resets, and the rest (the environment's own Python, the action space, the body reads and
   engine impulses, the contact listener's flags). The ratios are Box2D's time over the layer's
   (higher is better), with and without the resets.
2. **A reset part by part.** LunarLander's ``reset`` rebuilt call for call on each engine's
   module (destroy the old bodies, a new ``b2World``, the moon's static body and its 10 edge
   fixtures, the lander, each leg and its revolute joint, the first and the second ``Step``),
   each part's least CPU time over ``--resets`` resets (the least: the load of a shared machine
   only ever adds).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))

CHUNK = 200


def _modules():
    """``{engine: its Box2D module}``: Box2D 2.3 (pybox2d) and the layer."""
    import Box2D
    import Box2D.b2
    import impulse2d.compat.box2d as b2compat
    b2compat.install()
    layer = {name: sys.modules[name] for name in ("Box2D", "Box2D.b2")}
    b2compat.uninstall()
    return {"box2d": {"Box2D": Box2D, "Box2D.b2": Box2D.b2}, "impulse2d": layer}


def step_split(modules: dict, steps: int) -> dict:
    """Measurement 1: CPU us per environment step in Step, resets and the rest, per engine."""
    import gymnasium as gym
    from gym_envs import _env_modules
    clock = time.process_time
    runs = {}
    for engine, mods in modules.items():
        cls, limit = _env_modules(mods, f"split_{engine}")["LunarLander-v3"]
        world_class = mods["Box2D"].b2World
        acc = {"step": 0.0}

        def timed(step, acc=acc):
            def Step(self, *args):  # noqa: N802
                t = clock()
                step(self, *args)
                acc["step"] += clock() - t
            return Step

        world_class.Step = timed(world_class.Step)
        gym.register(id=f"split-{engine}", entry_point=cls, max_episode_steps=limit)
        env = gym.make(f"split-{engine}")
        env.action_space.seed(0)
        env.reset(seed=0)
        for _ in range(30):  # warm-up: kernels loaded, outside the seeded run
            env.step(env.action_space.sample())
        env.action_space.seed(0)
        env.reset(seed=0)
        runs[engine] = {"env": env, "acc": acc, "cpu": 0.0, "reset": 0.0, "resets": 0, "n": 0}
    k = 0
    while min(run["n"] for run in runs.values()) < steps:
        for engine in (list(runs) if k % 2 == 0 else list(runs)[::-1]):
            run = runs[engine]
            env, acc = run["env"], run["acc"]
            sample, step, reset = env.action_space.sample, env.step, env.reset
            start = clock()
            for _ in range(CHUNK):
                _, _, terminated, truncated, _ = step(sample())
                if terminated or truncated:
                    t, in_steps = clock(), acc["step"]
                    reset()
                    acc["step"] = in_steps  # the reset's own Step counts as the reset's
                    run["reset"] += clock() - t
                    run["resets"] += 1
            run["cpu"] += clock() - start
            run["n"] += CHUNK
        k += 1
    out = {}
    for engine, run in runs.items():
        n = run["n"]
        total, reset, stepping = run["cpu"] / n, run["reset"] / n, run["acc"]["step"] / n
        out[engine] = {"us_per_env_step": round(total * 1e6, 1),
                       "Step_us": round(stepping * 1e6, 1), "resets_us": round(reset * 1e6, 1),
                       "rest_us": round((total - reset - stepping) * 1e6, 1),
                       "resets": run["resets"],
                       "reset_ms": round(run["reset"] / max(run["resets"], 1) * 1e3, 3)}
        run["env"].close()
    b, i = out["box2d"], out["impulse2d"]
    out["ratio"] = round(b["us_per_env_step"] / i["us_per_env_step"], 3)
    out["ratio_without_resets"] = round((b["us_per_env_step"] - b["resets_us"])
                                        / (i["us_per_env_step"] - i["resets_us"]), 3)
    return out


PARTS = ("destroy", "world", "moon", "lander", "leg", "joint", "first Step", "second Step")


def reset_parts(modules: dict, resets: int) -> dict:
    """Measurement 2: the least CPU us of each part of LunarLander's reset, per engine."""
    import numpy as np
    from gymnasium.envs.box2d import lunar_lander as ll
    clock = time.process_time
    scale = ll.SCALE
    width, height = ll.VIEWPORT_W / scale, ll.VIEWPORT_H / scale
    out = {}
    for engine, mods in modules.items():
        b2 = mods["Box2D.b2"]  # (pybox2d's shape and definition names: edgeShape, ...)
        rng = np.random.default_rng(0)
        best = dict.fromkeys(PARTS, float("inf"))
        old, bodies = None, []
        for k in range(resets + 20):  # the first 20: warm-up
            seen = {}
            t = clock()
            if old is not None:
                old.contactListener = None
                for body in bodies:
                    old.DestroyBody(body)
            t = _lap(seen, "destroy", t, clock)
            world = mods["Box2D"].b2World(gravity=(0, -10))
            world.contactListener = mods["Box2D"].b2ContactListener()
            old = world
            t = _lap(seen, "world", t, clock)
            chunks = 11
            heights = rng.uniform(0, height / 2, size=(chunks + 1,))
            xs = [width / (chunks - 1) * i for i in range(chunks)]
            ys = [0.33 * (heights[i - 1] + heights[i] + heights[i + 1]) for i in range(chunks)]
            t = clock()
            moon = world.CreateStaticBody(shapes=b2.edgeShape(vertices=[(0, 0), (width, 0)]))
            for i in range(chunks - 1):
                moon.CreateEdgeFixture(vertices=[(xs[i], ys[i]), (xs[i + 1], ys[i + 1])],
                                       density=0, friction=0.1)
            t = _lap(seen, "moon", t, clock)
            x0, y0 = width / 2, height
            lander = world.CreateDynamicBody(position=(x0, y0), angle=0.0, fixtures=b2.fixtureDef(
                shape=b2.polygonShape(vertices=[(x / scale, y / scale) for x, y in ll.LANDER_POLY]),
                density=5.0, friction=0.1, categoryBits=0x0010, maskBits=0x001,
                restitution=0.0))
            t = _lap(seen, "lander", t, clock)  # (the layer makes the queued moon here)
            lander.ApplyForceToCenter((1.0, 2.0), True)
            bodies = [moon, lander]
            for side in (-1, 1):
                t = clock()
                leg = world.CreateDynamicBody(
                    position=(x0 - side * ll.LEG_AWAY / scale, y0), angle=side * 0.05,
                    fixtures=b2.fixtureDef(shape=b2.polygonShape(
                        box=(ll.LEG_W / scale, ll.LEG_H / scale)), density=1.0,
                        restitution=0.0, categoryBits=0x0020, maskBits=0x001))
                t = _lap(seen, "leg", t, clock)
                rjd = b2.revoluteJointDef(
                    bodyA=lander, bodyB=leg, localAnchorA=(0, 0),
                    localAnchorB=(side * ll.LEG_AWAY / scale, ll.LEG_DOWN / scale),
                    enableMotor=True, enableLimit=True, maxMotorTorque=ll.LEG_SPRING_TORQUE,
                    motorSpeed=0.3 * side)
                rjd.lowerAngle, rjd.upperAngle = (0.4, 0.9) if side == -1 else (-0.9, -0.4)
                leg.joint = world.CreateJoint(rjd)
                _lap(seen, "joint", t, clock)
                bodies.append(leg)
            t = clock()
            world.Step(1.0 / ll.FPS, 6 * 30, 2 * 30)
            t = _lap(seen, "first Step", t, clock)
            world.Step(1.0 / ll.FPS, 6 * 30, 2 * 30)
            _lap(seen, "second Step", t, clock)
            if k >= 20:
                for part, seconds in seen.items():
                    best[part] = min(best[part], seconds)
        parts = {part: round(best[part] * 1e6, 1) for part in PARTS}
        # a reset has two legs and two joints
        parts["reset (sum, legs and joints twice)"] = round(
            sum(parts.values()) + parts["leg"] + parts["joint"], 1)
        out[engine] = parts
    return out


def _lap(seen: dict, part: str, start: float, clock) -> float:
    now = clock()
    seen[part] = now - start  # (a leg's or a joint's: the later of the two)
    return now


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=10000, help="environment steps per engine")
    parser.add_argument("--resets", type=int, default=400, help="resets rebuilt per engine")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    modules = _modules()
    load = [os.getloadavg()]
    report = {"step_split_us": step_split(modules, args.steps)}
    load.append(os.getloadavg())
    report["reset_parts_min_us"] = reset_parts(modules, args.resets)
    load.append(os.getloadavg())
    report["load_average_1_5_15"] = [[round(x, 2) for x in three] for three in load]
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
