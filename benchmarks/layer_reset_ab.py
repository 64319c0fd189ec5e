"""Three of the layer's paths, old and new, alternated episode by episode in one run of
Gymnasium's LunarLander episodes (issue 31 item 8; branch ``layer34``).

    PYTHONPATH=src python benchmarks/layer_reset_ab.py [--resets 1200] [--json F]

A path that a reset takes once costs, inside a run of episodes, several times what a loop of
it costs alone (its code and data are out of the caches after ~90 steps): this measures it
where it runs. Random-action episodes (the action space seeded 0) on the layer; the episodes
and their resets alternate between the two forms of:

* ``contacts``: a recycled world's empty contact stores put into its kept reference from a
  template reference (``_recycle._put_empty_contacts``, new) or passed as stores
  (``world_ref.put_contact_stores``, old); timed: that call;
* ``gears``: ``DestroyBody`` without (new) or with (old: ``b2World._gears`` forced on) the
  search for gears freed with a joint; timed: Gymnasium's ``_destroy`` (its four
  ``DestroyBody``), called before its ``reset``;

* ``steps``: ``b2World.Step`` reading the contact store the step left through the world's
  view (``World._contacts``, which boxes a new store whole: old) or through the reference
  (new: ``b2World._stores_now`` compares the view unsynced, ``_dispatch`` reads six columns);
  timed: every ``env.step`` of the episode, per step;

and the whole ``reset()`` with every path old or every path new. Thread CPU time; per path and
form: mean, median and least in microseconds (the first 20 episodes of each left out).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "src"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--resets", type=int, default=1200)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import impulse2d.compat.box2d as b2compat
    b2compat.install()
    import gymnasium as gym
    from impulse2d import _recycle
    from impulse2d._dynamics.world_ref import put_contact_stores
    from impulse2d.compat._b2world import b2World

    clock = time.thread_time_ns
    new_put = _recycle._put_empty_contacts

    def old_put(world):
        d = world.__dict__
        return put_contact_stores(world, d["_contacts"], d["_constraints"])

    times: dict = {f"{part} {form}": [] for part in ("contacts", "destroy", "reset", "steps")
                   for form in ("old", "new")}
    form = {"now": "new"}

    def put(world):
        f = new_put if form["now"] == "new" else old_put
        t = clock()
        try:
            return f(world)
        finally:
            times[f"contacts {form['now']}"].append(clock() - t)

    _recycle._put_empty_contacts = put
    new_stores_now = b2World._stores_now

    def old_stores_now(self):
        self._world._contacts  # (boxes a store the step made: the old path's read)
        return new_stores_now(self)
    env = gym.make("LunarLander-v3").unwrapped
    env.reset(seed=0)
    env.action_space.seed(0)
    sample = env.action_space.sample
    try:
        for k in range(args.resets):
            form["now"] = "old" if k % 2 else "new"
            b2World._stores_now = old_stores_now if form["now"] == "old" else new_stores_now
            t, n = clock(), 0
            while True:
                _, _, terminated, truncated, _ = env.step(sample())
                n += 1
                if terminated or truncated:
                    break
            times[f"steps {form['now']}"].append((clock() - t) / n)
            b2World._gears = form["now"] == "old"
            t = clock()
            env._destroy()
            t1 = clock()
            env.reset()  # (its own _destroy finds nothing left to destroy)
            t2 = clock()
            times[f"destroy {form['now']}"].append(t1 - t)
            times[f"reset {form['now']}"].append(t2 - t)
    finally:
        b2World._gears = False
        b2World._stores_now = new_stores_now
        _recycle._put_empty_contacts = new_put
    out = {}
    for name, values in times.items():
        values = values[20:]
        out[name] = {"mean_us": round(statistics.fmean(values) / 1e3, 1),
                     "median_us": round(statistics.median(values) / 1e3, 1),
                     "least_us": round(min(values) / 1e3, 1), "n": len(values)}
    report = {"what": __doc__.split("\n\n")[0], "results": out,
              "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()]}
    text = json.dumps(report, indent=1)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
