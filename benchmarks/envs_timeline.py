"""A native environment's step as a timeline over its threads: what the wall of one 2-thread
environment step is made of.

    PYTHONPATH=src python benchmarks/envs_timeline.py [--env lander] [--num-envs 1024]
        [--steps 200] [--threads 2] [--json FILE]

Run it at real-time priority on a loaded machine (``chrt -f 10 ...``: the threads inherit it,
so each has a core whenever it is runnable and the wall means something; the other processes
still share the caches). ``envs_split.py`` splits the calling thread's CPU; this takes wall
timestamps (``time.perf_counter_ns``) at the start and end of each piece on whichever thread
runs it, step by step, so that one step reads as a timeline: the calling thread's serial
Python before the kernel (the actions, the batch's checks), each thread's kernel calls (the
batch kernel, ``batch_step.run``; the helper's first call begins when the pool hands it
over), the restarts (``_restart``, beside the helper's share when the environment allows it),
the held worlds' second kernel call, and the serial Python after it (the step's finish, the
observation, the rewards, the landers coming to rest). Printed per environment step (ns of wall,
the mean over the steps; one step of one environment: 1/50 s, the environment's soft step;
resets included as the seeded random actions bring them):

* ``step``: the wall of ``env.step``;
* ``before kernel``: from the step's start to the first kernel call's start (either thread);
* ``kernels``: from the first kernel call's start to the last one's end, and inside it each
  thread's time in kernel calls (``busy``) and the time no thread was in one (``gap``: the
  hand-offs between the calls, the held worlds' preparation);
* ``after kernel``: from the last kernel call's end to the step's end;
* ``helper idle``: the step's wall less the helper's kernel time (what a second thread could
  still take); ``caller waits``: from the end of the caller's last kernel call to the end of
  the helper's (an uneven split), ``helper waits`` the reverse (an uneven split, or the caller
  waiting for Python's lock to come back from its call);
* the named pieces' own wall (``_act``, ``_restart``, ``prepare``, ``finish``, ``_observe``...),
  wherever they ran.

A batch with a crew (:mod:`impulse2d._crew`: helpers that wait for the next step inside the
batch kernel, with no Python between steps) has no Python call on its helpers to wrap: each
helper's kernel span is read from its crew's board (the cycle counter when it took the step
and when it counted its worlds done), converted to the wall clock by a rate measured in this
process (the x86 time-stamp counter runs at a constant rate).

Each wrapper reads the clock twice a call (a few calls a step against 1,024 environment
steps): their cost falls inside the pieces that hold them.
"""

from __future__ import annotations

import argparse
import json
import os
import threading
import time

import numpy as np

from _envs_timing import cycle_reader, ticks_per_ns, timed_calls
from envs_split import ENV_IDS


def _wrap(events: list, owner, name: str, label: str) -> None:
    """``owner.name`` recorded into ``events`` as ``(label, thread, start, end)`` (wall, ns)
    at each call (:func:`_envs_timing.timed_calls`)."""
    timed_calls(owner, name, time.perf_counter_ns,
                lambda t, u: events.append((label, threading.get_ident(), t, u)))


def _busy(spans: list) -> int:
    """The length of the union of ``spans`` ((start, end) pairs), ns."""
    total, reach = 0, None
    for s, e in sorted(spans):
        if reach is None or s > reach:
            total += e - s
            reach = e
        elif e > reach:
            total += e - reach
            reach = e
    return total


class CrewClock:
    """The batch kernel's cycle counter (``impulse2d._core.jit.cycles``) as ``perf_counter_ns``:
    a rate measured over ``seconds``, and an offset taken again at each :meth:`now` (a
    reading minutes after the rate's would be off by its error times the minutes)."""

    def __init__(self, seconds: float = 0.5) -> None:
        self.counter = cycle_reader()
        self.rate = 1.0 / ticks_per_ns(seconds, self.counter)
        self.now()

    def now(self) -> None:
        """The offset taken now."""
        self.c0, self.t0 = self.counter(), time.perf_counter_ns()

    def ns(self, c: int) -> int:
        return int(self.t0 + (int(c) - self.c0) * self.rate)


def crew_spans(batch, clock: CrewClock, seen: dict, events: list) -> None:
    """The kernel spans of ``batch``'s crew's helpers since the last call (``seen``: each
    share's last span), as events ``("kernel", -share, start, end)``."""
    crew = getattr(batch, "_crew", None)
    if crew is None:
        return
    from impulse2d._dynamics import batch_crew
    board, top = crew.board, crew.top
    clock.now()
    for share in range(1, min(crew.shares, batch_crew.SHARES_TIMED)):
        began = int(board[top + batch_crew.BEGAN + share])
        if began == 0 or began == seen.get(share):
            continue
        for _ in range(100_000):  # (its end is written just after its count, which we saw)
            ended = int(board[top + batch_crew.ENDED + share])
            if ended >= began:
                break
        seen[share] = began
        if ended >= began:
            events.append(("kernel", -share, clock.ns(began), clock.ns(ended)))


def timeline(events: list, caller: int) -> dict:
    """One step's figures (ns) from its events (the step's own last)."""
    _, _, s0, s1 = next(e for e in events if e[0] == "step")
    kernels = [e for e in events if e[0] == "kernel"]
    out = {"step": s1 - s0}
    if not kernels:
        return out
    k0 = min(e[2] for e in kernels)
    k1 = max(e[3] for e in kernels)
    mine = [(e[2], e[3]) for e in kernels if e[1] == caller]
    theirs = [(e[2], e[3]) for e in kernels if e[1] != caller]
    out["before kernel"] = k0 - s0
    out["kernels"] = k1 - k0
    out["kernels: caller busy"] = _busy(mine)
    out["kernels: helper busy"] = _busy(theirs)
    out["kernels: gap (no thread in a kernel)"] = (k1 - k0) - _busy(mine + theirs)
    out["after kernel"] = s1 - k1
    out["helper idle"] = (s1 - s0) - _busy(theirs)
    if mine and theirs:
        # each thread's last kernel call's end: the one that ended first waited for the other
        last_mine = max(e for _, e in mine)
        last_theirs = max(e for _, e in theirs)
        out["caller waits (last calls' ends)"] = max(0, last_theirs - last_mine)
        out["helper waits (last calls' ends)"] = max(0, last_mine - last_theirs)
        out["helper starts after step start"] = min(theirs)[0] - s0
    out["kernel calls"] = len(kernels)
    for label, _, t, u in events:
        if label not in ("step", "kernel"):
            out[label] = out.get(label, 0) + (u - t)
    return out


def _show(k: int, events: list, caller: int, t0: int) -> None:
    """One step's events in the order they began: the thread (C the caller, H a helper),
    start and end after the step's start, length (us)."""
    print(f"step {k}:")
    for label, thread, t, u in sorted(events, key=lambda e: e[2]):
        print(f"  {'C' if thread == caller else 'H'} {label:28s} {(t - t0) / 1e3:8.0f} "
              f"{(u - t0) / 1e3:8.0f}  ({(u - t) / 1e3:.0f})")


def main() -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", choices=sorted(ENV_IDS), default="lander")
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--warm", type=int, default=40,
                        help="untimed steps first (the first episodes end after about 60)")
    parser.add_argument("--batch", default="",
                        help="the batch's step methods from this batch.py (lander_env_ab.py's "
                             "--b-batch)")
    parser.add_argument("--show", type=int, default=0,
                        help="print the first SHOW timed steps' events, by thread")
    parser.add_argument("--json", default="")
    args = parser.parse_args()

    import gymnasium as gym

    import impulse2d.envs  # noqa: F401 (registers the environments)
    from impulse2d import _batch_ready
    from impulse2d._dynamics import batch_step
    envs = gym.make_vec(ENV_IDS[args.env], num_envs=args.num_envs,
                        vectorization_mode="vector_entry_point")
    events: list = []
    cls = type(envs)
    for name in ("_act", "_restart", "_observe", "_after_step", "_come_to_rest",
                 "_check_actions"):
        _wrap(events, cls, name, name)
    _wrap(events, batch_step, "run", "kernel")
    _wrap(events, _batch_ready, "prepare", "_batch_ready.prepare")
    _wrap(events, _batch_ready, "finish", "_batch_ready.finish")
    if args.batch:
        from lander_env_ab import batch_from
        batch_from(args.batch, envs.batch)
    for name in ("get_state", "_checked_refs", "_step_state", "_run_around", "_run"):
        _wrap(events, envs.batch, name, f"WorldBatch.{name}")  # (this batch's own methods)
    envs.reset(seed=0)
    envs.batch.threads = args.threads
    clock = CrewClock()
    seen: dict = {}
    space = envs.action_space
    space.seed(0)
    actions = [space.sample() for _ in range(args.steps + args.warm)]
    for k in range(args.warm):
        envs.step(actions[k])
    crew_spans(envs.batch, clock, seen, [])
    caller = threading.get_ident()
    steps = []
    ended = 0
    cpu = time.process_time()
    wall = time.perf_counter()
    for k in range(args.steps):
        events.clear()
        t = time.perf_counter_ns()
        _, _, terminated, truncated, _ = envs.step(actions[args.warm + k])
        events.append(("step", caller, t, time.perf_counter_ns()))
        crew_spans(envs.batch, clock, seen, events)
        ended += int((terminated | truncated).sum())
        steps.append(timeline(list(events), caller))
        if k < args.show:
            _show(k, events, caller, t)
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    n = args.num_envs
    labels = list(dict.fromkeys(k for s in steps for k in s))
    table = {}
    for label in labels:
        v = np.array([s.get(label, 0) for s in steps], dtype=np.float64)
        table[label] = {"mean_ns_per_env_step": round(float(v.mean()) / n, 1),
                        "median_ns_per_env_step": round(float(np.median(v)) / n, 1)}
    table["kernel calls"] = {"mean": round(float(np.mean([s.get("kernel calls", 0)
                                                          for s in steps])), 2)}
    out = {"env": args.env, "num_envs": n, "steps": args.steps, "threads": args.threads,
           "episodes_ended": ended, "load": round(os.getloadavg()[0], 1),
           "env_steps_per_s_wall": round(n * args.steps / wall),
           "process_cpu_per_wall": round(cpu / wall, 3),
           "pieces": table}
    print(f"{args.env}, {n} environments, {args.threads} thread(s), load {out['load']}: "
          f"{out['env_steps_per_s_wall']:,} env-steps/s of wall, process CPU / wall "
          f"{out['process_cpu_per_wall']}, {ended} episodes ended")
    step = table["step"]["mean_ns_per_env_step"]
    for label, v in table.items():
        if "mean_ns_per_env_step" in v:
            m = v["mean_ns_per_env_step"]
            print(f"  {label:40s} {m:9.1f} ns  (median {v['median_ns_per_env_step']:9.1f})"
                  f"  {m / step:6.3f}")
        else:
            print(f"  {label:40s} {v['mean']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
