"""The timeline of ``impulse2d warmup --all``: when each process starts and ends each unit and
each serial phase, and where a process waits for the other.

    python benchmarks/warmup_timeline.py --json out.json        # this tree, from an empty cache
    python benchmarks/warmup_timeline.py --src /work/base/src   # another tree
    python benchmarks/warmup_timeline.py --report out.json      # print a saved timeline

It runs the real ``impulse2d warmup --all`` (the command's ``main``, in a driver script)
from an empty ``NUMBA_CACHE_DIR``, with a ``sitecustomize`` on ``PYTHONPATH`` that
the compile helpers inherit. Every process records its top-level Numba compiles
(``numba:compile`` events at depth 1: the kernel, the wall clock of ``time.monotonic``, which
is one clock for all processes on Linux, and its thread's CPU); a helper also records each
line it reads from its input (the next group the parent's feeding thread sends: the time it
waited for it is its idle time), and every process its full collections of Python's cyclic
garbage collector (``gc.callbacks``, generation 2: on the heap a compile leaves they take
seconds), the CPU of its young generations' collections in all, and its peak resident memory
(``ru_maxrss``). The main process also records its phases by wrapping the
functions that run them: each unit's ``LazyKernel.address`` (a compile or a load from the
cache), the batch's world and kernels, the pybox2d layer's worlds, the queue's takes (which
thread took which group), the wait for the helpers (``_Helper.deliver``), ``wait_later``,
every ``World.step`` and the progress lines on stderr.

The order and the idle gaps read well on a loaded machine; wall seconds do not (say the load).
The report gives each process's end in wall and CPU seconds from the main process's start, the
serial tail after the last helper ended, and what the processes' ends took after their exit
functions (Python's finalisation: the CPU of every process less what each had at its exit
functions, and the main process's wall from its exit functions to its end).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SITECUSTOMIZE = r'''
import atexit, gc, json, os, resource, sys, threading, time

_OUT = os.environ["WARMUP_TIMELINE_DIR"]
_EVENTS = []
_YOUNG = [0.0, 0.0]  # the CPU of the collections of the two young generations
_START = (time.monotonic(), time.process_time())


def _now():
    return [time.monotonic(), time.thread_time(), time.process_time()]


def _install():
    from numba.core import event

    depth = threading.local()

    class Listener(event.Listener):
        def on_start(self, ev):
            d = getattr(depth, "d", 0)
            depth.d = d + 1
            if d == 0:
                depth.start = _now()

        def on_end(self, ev):
            depth.d -= 1
            if depth.d == 0:
                function = ev.data["dispatcher"].py_func
                _EVENTS.append({"kind": "compile",
                                "name": f"{function.__module__}.{function.__qualname__}",
                                "thread": threading.current_thread().name,
                                "start": depth.start, "end": _now()})

    event.register("numba:compile", Listener())

    collecting = {}

    def collector(phase, info):
        if info["generation"] != 2:
            if phase == "start":
                collecting["young"] = time.thread_time()
            elif "young" in collecting:
                _YOUNG[info["generation"]] += time.thread_time() - collecting.pop("young")
            return
        if phase == "start":
            collecting["start"] = _now()
        elif "start" in collecting:
            _EVENTS.append({"kind": "gc", "name": f"{info['collected']} collected",
                            "thread": threading.current_thread().name,
                            "start": collecting.pop("start"), "end": _now()})

    gc.callbacks.append(collector)


class _TimedInput:
    """A helper's stdin: the wait for each line recorded."""

    def __init__(self, stream):
        self.stream = stream

    def __iter__(self):
        return self

    def __next__(self):
        start = _now()
        line = self.stream.readline()
        _EVENTS.append({"kind": "input", "name": line.strip().split("\t")[0],
                        "thread": threading.current_thread().name,
                        "start": start, "end": _now()})
        if not line:
            raise StopIteration
        return line

    def __getattr__(self, name):
        return getattr(self.stream, name)


def _dump():
    path = os.path.join(_OUT, f"timeline-{os.getpid()}.json")
    with open(path, "w") as out:
        json.dump({"pid": os.getpid(), "helper": sys.argv[0] == "-c", "start": list(_START),
                   "end": [time.monotonic(), time.process_time()], "events": _EVENTS,
                   "young_gc_cpu_s": _YOUNG,
                   "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024},
                  out)


if sys.argv and sys.argv[0] == "-c":
    sys.stdin = _TimedInput(sys.stdin)
_install()
atexit.register(_dump)
'''

DRIVER = r'''
import functools, sys, threading, time
import sitecustomize
from sitecustomize import _EVENTS, _now

import impulse2d
from impulse2d import World, _warmup
from impulse2d._core import lazy, parallel
from impulse2d.compat import _b2warmup


def span(kind, name_of=None):
    def wrap(function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            start = _now()
            name = name_of(*args) if name_of else function.__qualname__
            try:
                result = function(*args, **kwargs)
            finally:
                if name is not None:
                    _EVENTS.append({"kind": kind, "name": name, "start": start, "end": _now(),
                                    "thread": threading.current_thread().name})
            return result
        return wrapper
    return wrap


lazy.LazyKernel.address = span(
    "unit", lambda self: self.key if self._address is None else None)(lazy.LazyKernel.address)
_warmup._batch_world = span("phase")(_warmup._batch_world)
_warmup._batch_kernels = span("phase")(_warmup._batch_kernels)
_b2warmup.warm_layer = span("phase")(_b2warmup.warm_layer)
parallel._Helper.deliver = span("wait")(parallel._Helper.deliver)
parallel.wait_later = span("wait")(parallel.wait_later)
World.step = span("step")(World.step)
take = parallel._Queue.take


def timed_take(self):
    start = _now()
    item = take(self)
    _EVENTS.append({"kind": "take", "name": [u.key for u in item] if item else None,
                    "thread": threading.current_thread().name, "start": start, "end": _now()})
    return item


parallel._Queue.take = timed_take


class Lines:
    def __init__(self, stream):
        self.stream = stream

    def write(self, text):
        for line in text.splitlines():
            if line.strip():
                _EVENTS.append({"kind": "say", "name": line, "start": _now(), "end": _now(),
                                "thread": threading.current_thread().name})
        return self.stream.write(text)

    def __getattr__(self, name):
        return getattr(self.stream, name)


sys.stderr = Lines(sys.stderr)
sys.argv = ["impulse2d", "warmup", "--all"]
from impulse2d.cli import main
raise SystemExit(main())
'''


def run(src: Path, out_dir: str) -> dict:
    """``warmup --all`` of the tree ``src`` from an empty cache, its processes' events."""
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as site:
        Path(site, "sitecustomize.py").write_text(SITECUSTOMIZE)
        Path(site, "timeline_driver.py").write_text(DRIVER)
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=f"{site}:{src}",
                   WARMUP_TIMELINE_DIR=out_dir, PYTHONPYCACHEPREFIX=os.path.join(cache, "pyc"))
        before = os.times()
        p = subprocess.run([sys.executable, os.path.join(site, "timeline_driver.py")], env=env,
                           capture_output=True, text=True, cwd=cache)
        ended = time.monotonic()
        after = os.times()
    if p.returncode != 0:
        raise RuntimeError(p.stderr[-3000:])
    processes = []
    for _ in range(60):  # (a later unit's helper may outlive the parent by a little)
        processes = [json.loads(Path(out_dir, name).read_text())
                     for name in sorted(os.listdir(out_dir)) if name.startswith("timeline-")]
        if len(processes) >= 2:
            break
        time.sleep(1.0)
    return {"src": str(src), "load_1min": os.getloadavg()[0], "ended": ended,
            "cpu_s": (after.children_user - before.children_user)
            + (after.children_system - before.children_system),
            "processes": processes}


def short(name: str) -> str:
    return name.replace("impulse2d.", "").replace("_dynamics.", "").replace(
        "_collision.", "").replace("joint_solver.", "joints.").lstrip("_")


def report(result: dict) -> dict:
    """Print the timeline and return its summary (each process's end, the idle gaps)."""
    procs = sorted(result["processes"], key=lambda p: p["helper"])
    main = procs[0]
    t0, c0 = main["start"]
    print(f"{result['src']}: warmup --all, {result['cpu_s']:.1f} s CPU in all "
          f"(load {result['load_1min']:.1f} at the end); times from the main process's start, "
          "wall (monotonic) / CPU of the process")
    summary = {"processes": []}
    for proc in procs:
        kind = "helper" if proc["helper"] else "main"
        events = sorted(proc["events"], key=lambda e: e["start"][0])
        compiles = [e for e in events if e["kind"] == "compile"]
        last = max((e["end"][0] for e in compiles), default=proc["start"][0])
        print(f"\n{kind} (pid {proc['pid']}): starts at {proc['start'][0] - t0:.1f} s, "
              f"last compile ends at {last - t0:.1f} s, exits at {proc['end'][0] - t0:.1f} s "
              f"wall; CPU {proc['end'][1]:.1f} s; peak resident "
              f"{proc.get('maxrss_mb', float('nan')):.0f} MB")
        idle = 0.0
        for e in events:
            wall = e["end"][0] - e["start"][0]
            if e["kind"] == "compile" and wall < 0.5:
                continue  # (the many small kernels of a phase: its span says it)
            if e["kind"] == "unit" and e["end"][2] - e["start"][2] < 0.05:
                continue  # (a load from the cache)
            if e["kind"] in ("step", "gc", "wait") and wall < 0.5:
                continue
            cpu = e["end"][1] - e["start"][1]
            name = e["name"]
            if e["kind"] == "take":
                name = " + ".join(short(k).rsplit(".", 1)[-1] for k in name) if name else "-"
            elif isinstance(name, str):
                name = short(name)
            if e["kind"] == "input":
                idle += wall
                if wall < 0.2:
                    continue
            print(f"  {e['start'][0] - t0:7.1f} {e['end'][0] - t0:7.1f}  {wall:6.1f} wall "
                  f"{cpu:6.1f} cpu  {e['kind']:7s} {e['thread'][:14]:14s} {name}"[:160])
        summary["processes"].append({
            "kind": kind, "start_s": proc["start"][0] - t0, "last_compile_s": last - t0,
            "exit_s": proc["end"][0] - t0, "cpu_s": proc["end"][1],
            "maxrss_mb": proc.get("maxrss_mb"),
            "compile_cpu_s": sum(e["end"][1] - e["start"][1] for e in compiles),
            "idle_wall_s": idle,
            "gc_cpu_s": sum(e["end"][1] - e["start"][1] for e in events if e["kind"] == "gc"),
            "young_gc_cpu_s": sum(proc.get("young_gc_cpu_s", [float("nan")]))})
    helpers_end = max((p["exit_s"] for p in summary["processes"] if p["kind"] == "helper"),
                      default=0.0)
    waits = [e for e in main["events"] if e["kind"] == "wait"]
    summary["main_waits"] = [{"name": e["name"], "start_s": e["start"][0] - t0,
                              "wall_s": e["end"][0] - e["start"][0],
                              "cpu_s": e["end"][2] - e["start"][2]} for e in waits]
    summary["serial_tail_s"] = summary["processes"][0]["exit_s"] - helpers_end
    print(f"\nthe main process waits for the helpers: "
          + ", ".join(f"{w['name']} at {w['start_s']:.1f} s for {w['wall_s']:.1f} s"
                      for w in summary["main_waits"] if w["wall_s"] >= 0.1))
    print(f"the helpers' idle waits for input: "
          + ", ".join(f"{p['idle_wall_s']:.1f} s" for p in summary["processes"]
                      if p["kind"] == "helper"))
    print("full collections of the cyclic garbage collector, CPU: "
          + ", ".join(f"{p['kind']} {p['gc_cpu_s']:.1f} s" for p in summary["processes"])
          + "; the young generations': "
          + ", ".join(f"{p['kind']} {p['young_gc_cpu_s']:.1f} s" for p in summary["processes"]))
    summary["finalisation_wall_s"] = result["ended"] - main["end"][0]
    summary["finalisation_cpu_s"] = result["cpu_s"] - sum(p["end"][1] for p in procs)
    print(f"the processes' ends after their exit functions (Python's finalisation): "
          f"{summary['finalisation_cpu_s']:.1f} s CPU in all; the main process's "
          f"{summary['finalisation_wall_s']:.1f} s of wall")
    print(f"after the last helper exits, the main process runs {summary['serial_tail_s']:.1f} s "
          "more (wall)")
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=str(ROOT / "src"), help="the tree's src/ folder")
    parser.add_argument("--json", help="write the timeline here")
    parser.add_argument("--report", help="print a timeline saved with --json, run nothing")
    args = parser.parse_args()
    if args.report:
        report(json.loads(Path(args.report).read_text()))
        return
    with tempfile.TemporaryDirectory() as out_dir:
        result = run(Path(args.src), out_dir)
    result["summary"] = report(result)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
