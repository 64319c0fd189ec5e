"""Contact events on and read, beside the peers: rain_2000 (2,000 circles falling into a 40 m
wide container) on impulse2d, pyb2d3 (Box2D v3.1), pybox2d (Box2D 2.3) and pymunk, each with its
own contact-event mechanism off and on.

    PYTHONPATH=src python benchmarks/events_peers.py --json benchmarks/results/events_peers.json

The scene is built once per world from ``impulse2d.scenes`` (impulse2d directly, the peers by
replaying ``engines.RecordingWorld``); sleeping is off everywhere (a pile that sleeps makes no
events to pay for). Every engine gets two worlds, events off (no listener, no handler, shapes
without events) and events on, read after (or during) every step; impulse2d gets two "on"
worlds, one read as NumPy arrays and one as records:

* impulse2d: ``WorldSettings.enable_contact_events``; after each step ``world.contact_events()``
  and either its ``begin_shapes`` / ``end_shapes`` arrays (K, 2) or its ``begin`` / ``end``
  record lists (shape handles, and for begin the normal and points);
* pyb2d3: ``ShapeDef.enable_contact_events`` on every shape; after each step
  ``world.get_contact_events()`` and its ``begin_events()`` / ``end_events()`` iterated, taking
  ``shape_a`` and ``shape_b`` of each;
* pybox2d: a ``b2ContactListener`` whose ``BeginContact`` / ``EndContact`` count (called from
  inside ``Step``);
* pymunk: ``space.on_collision(begin=..., separate=...)`` for every pair of collision types,
  the callbacks counting (called from inside ``step``).

All worlds are stepped in turn, one step each, in an order shuffled every round, so that they
share the machine's load (paired), and every step is timed from Python including the read. Two
windows are reported: ``--fall`` steps (300: the circles fall and pile up, most begin events
happen here) and the ``--pile`` steps after them (200). Per window: the median step time of each
world, and the overhead of events as the median of the per-step differences on - off (the twins
are in the same state at every step, so the pairs compare like with like; this is also robust
to a step that the loaded machine preempted). Begin/end events per step are means over the
window (sanity: the engines see a comparable number of new contacts). Each "on" world's bodies
are compared with its "off" twin's at the end: events must not change a trajectory.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from importlib.metadata import version

import numpy as np

from engines import Box2DEngine, Impulse2dEngine, PymunkEngine
from sleep_peers import Pyb2d3 as _SleepPyb2d3

DT = 1.0 / 60.0
SCENE, PARAMS = "rain", {"count": 2000}


# --------------------------------------------------------------------------------------------
# one world per (engine, events mode); ``tick()`` is one step plus the read, timed whole, and
# returns the (begin, end) event counts of that step (None, None with events off)
# --------------------------------------------------------------------------------------------

class Impulse2dOff:
    engine, mode = "impulse2d", "off"

    def __init__(self):
        self.e = Impulse2dEngine({})
        self.e.build(SCENE, **PARAMS)

    def tick(self):
        self.e.step()
        return None, None

    def positions(self):
        return self.e.states()[:, :2]

    def version(self):
        return self.e.version()


class Impulse2dArrays(Impulse2dOff):
    mode = "on, arrays"

    def __init__(self):
        self.e = Impulse2dEngine({"enable_contact_events": True})
        self.e.build(SCENE, **PARAMS)

    def tick(self):
        world = self.e.world
        world.step(DT)
        ev = world.contact_events()
        return len(ev.begin_shapes), len(ev.end_shapes)


class Impulse2dRecords(Impulse2dArrays):
    mode = "on, records"

    def tick(self):
        world = self.e.world
        world.step(DT)
        ev = world.contact_events()
        return len(ev.begin), len(ev.end)


class _Pyb2d3(_SleepPyb2d3):
    """sleep_peers' replay into pyb2d3 (4 substeps, its default), sleeping off, and contact
    events on every shape as asked (pyb2d3's ShapeDef has them off by default)."""

    def __init__(self, events):
        self.events = events
        super().__init__()

    def _replay(self, rec):
        super()._replay(rec)
        self.world.sleeping_enabled = False

    def _shape_def(self, density, friction):
        sd = super()._shape_def(density, friction)
        sd.enable_contact_events = self.events
        return sd


class Pyb2d3Off:
    engine, mode = "pyb2d3", "off"
    events = False

    def __init__(self):
        self.e = _Pyb2d3(self.events)
        self.e.build(SCENE, **PARAMS)

    def tick(self):
        self.e.step()
        return None, None

    def positions(self):
        return np.array([tuple(b.position) for b in self.e.bodies], dtype=np.float64)

    def version(self):
        return version("pyb2d3")


class Pyb2d3On(Pyb2d3Off):
    mode = "on, read"
    events = True

    def tick(self):
        world = self.e.world
        world.step(DT, 4)
        ev = world.get_contact_events()
        begin = [(b.shape_a, b.shape_b) for b in ev.begin_events()]
        end = [(b.shape_a, b.shape_b) for b in ev.end_events()]
        return len(begin), len(end)


class PyBox2dOff:
    engine, mode = "pybox2d", "off"

    def __init__(self):
        self.e = Box2DEngine({})
        self.e.build(SCENE, **PARAMS)

    def tick(self):
        self.e.step()
        return None, None

    def positions(self):
        return self.e.states()[:, :2]

    def version(self):
        return self.e.version()


class PyBox2dOn(PyBox2dOff):
    mode = "on, listener"

    def __init__(self):
        super().__init__()
        import Box2D

        class Counter(Box2D.b2ContactListener):
            def __init__(self):
                Box2D.b2ContactListener.__init__(self)
                self.begin = self.end = 0

            def BeginContact(self, contact):
                self.begin += 1

            def EndContact(self, contact):
                self.end += 1

        self.listener = Counter()
        self.e.world.contactListener = self.listener

    def tick(self):
        lis = self.listener
        b0, e0 = lis.begin, lis.end
        self.e.step()
        return lis.begin - b0, lis.end - e0


class PymunkOff:
    engine, mode = "pymunk", "off"

    def __init__(self):
        self.e = PymunkEngine({})
        self.e.build(SCENE, **PARAMS)

    def tick(self):
        self.e.step()
        return None, None

    def positions(self):
        return self.e.states()[:, :2]

    def version(self):
        return self.e.version()


class PymunkOn(PymunkOff):
    mode = "on, handler"

    def __init__(self):
        super().__init__()
        self.count = [0, 0]
        count = self.count

        def begin(arbiter, space, data):
            count[0] += 1

        def separate(arbiter, space, data):
            count[1] += 1

        self.e.space.on_collision(begin=begin, separate=separate)

    def tick(self):
        b0, e0 = self.count
        self.e.step()
        return self.count[0] - b0, self.count[1] - e0


WORLDS = (Impulse2dOff, Impulse2dArrays, Impulse2dRecords, Pyb2d3Off, Pyb2d3On,
          PyBox2dOff, PyBox2dOn, PymunkOff, PymunkOn)


def _window(worlds, times, begins, ends, lo, hi):
    """Rows for steps lo..hi-1: median step time, and the overhead as the median of the paired
    per-step differences on - off (the twins are in the same state at every step)."""
    off = {w.engine: i for i, w in enumerate(worlds) if w.mode == "off"}
    rows = []
    for i, w in enumerate(worlds):
        t = times[i][lo:hi]
        ms = 1e3 * statistics.median(t)
        row = {"engine": w.engine, "events": w.mode, "step_ms": round(ms, 4)}
        if w.mode != "off":
            t_off = times[off[w.engine]][lo:hi]
            ref = 1e3 * statistics.median(t_off)
            diff = 1e3 * statistics.median(a - b for a, b in zip(t, t_off))
            b, e = begins[i][lo:hi], ends[i][lo:hi]
            row.update({"overhead_ms": round(diff, 4),
                        "overhead_pct": round(100.0 * diff / ref, 2),
                        "begin_per_step": round(statistics.fmean(b), 2),
                        "end_per_step": round(statistics.fmean(e), 2)})
        rows.append(row)
    return rows


def run(fall, pile, seed=0):
    worlds = [cls() for cls in WORLDS]
    rng = random.Random(seed)
    times = [[] for _ in worlds]
    begins = [[] for _ in worlds]
    ends = [[] for _ in worlds]
    order = list(range(len(worlds)))
    for k in range(fall + pile):
        rng.shuffle(order)
        for i in order:
            t0 = time.perf_counter()
            b, e = worlds[i].tick()
            dt = time.perf_counter() - t0
            times[i].append(dt)
            begins[i].append(b)
            ends[i].append(e)
        if (k + 1) % 100 == 0:
            print(f"  step {k + 1}/{fall + pile}", flush=True)
    off_pos = {w.engine: w.positions() for w in worlds if w.mode == "off"}
    same = {f"{w.engine} {w.mode}": bool(np.array_equal(w.positions(), off_pos[w.engine]))
            for w in worlds if w.mode != "off"}
    versions = {w.engine: w.version() for w in worlds}
    return {"versions": versions, "same_trajectory_as_off": same,
            "falling": {"steps": [1, fall],
                        "rows": _window(worlds, times, begins, ends, 0, fall)},
            "pile": {"steps": [fall + 1, fall + pile],
                     "rows": _window(worlds, times, begins, ends, fall, fall + pile)}}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--fall", type=int, default=300,
                        help="first window: the circles fall and pile up")
    parser.add_argument("--pile", type=int, default=200, help="second window: the pile")
    args = parser.parse_args(argv)
    out = run(args.fall, args.pile)
    for window in ("falling", "pile"):
        lo, hi = out[window]["steps"]
        print(f"steps {lo}-{hi} ({window})")
        for r in out[window]["rows"]:
            extra = ""
            if r["events"] != "off":
                extra = (f"  {r['overhead_ms']:+7.3f} ms ({r['overhead_pct']:+6.1f} %)  "
                         f"begin/step {r['begin_per_step']:6.1f}  end/step "
                         f"{r['end_per_step']:6.1f}")
            print(f"  {r['engine']:10s} {r['events']:13s} {r['step_ms']:8.3f} ms{extra}")
    print("same trajectory as events off:", out["same_trajectory_as_off"])
    results = {"date": "2026-11-24", "scene": "rain_2000", "dt": DT, "sleeping": False,
               "machine": platform.processor() or platform.machine(),
               "python": sys.version.split()[0], "numpy": np.__version__,
               "method": "all worlds stepped in turn (order shuffled each round), each step + "
                         "event read timed from Python; step_ms: median over the window; "
                         "overhead_ms: median of the per-step differences on - off",
               **out}
    if args.json:
        with open(args.json, "w") as f:
            f.write(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
