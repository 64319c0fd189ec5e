"""The native vector LunarLander against Box2D 2.3's one environment, **paired in time**: both
kept alive in two worker processes and run in turn, in short blocks, so that each ratio
compares neighbours (issue 30's 10x; ``--env walker``: BipedalWalker, target 5x).

    PYTHONPATH=src python benchmarks/envs_paired.py [--rt 10] [--env walker] [--rounds 20] \
        [--block 0.5] [--sync] [--idle-check 8] [--json benchmarks/results/NAME.json]
    python benchmarks/envs_paired.py --a /work/base/src --b src [--rt 10] [--rounds 20]
    python benchmarks/envs_paired.py --report RUN.json [...]   # a stored run analysed again
    python benchmarks/envs_paired.py --pool RUN.json [...]     # several runs' rounds together

Why: ``envs_bench.py`` times Box2D for ~1 s and then the native environment for ~0.4 s, once
each. This machine's two vCPUs switch between a fast and a slow mode within seconds (the one-way
latency of a cache line between them, ~26 ns or ~150 ns: ``vcpu_siblings.py``) and other
tenants' load comes and goes, so the two halves of one such ratio are often measured in
different conditions.

How: the parent (the coordinator) starts one worker process per party and sets each up and
warms it once:

* ``native``: ``gymnasium.make_vec(NATIVE_ID, num_envs=1024, vectorization_mode=
  "vector_entry_point")``, reset with the seed, ``batch.threads`` (default 2); each block's
  seeded uniform random actions are drawn before its clock starts (``envs_bench.native``
  draws them ahead too); autoreset as it comes;
* ``box2d``: Gymnasium's environment on pybox2d, one environment, ``action_space.sample()`` a
  step and ``reset()`` at each episode's end (``envs_bench.box2d_steps``, the loop of
  ``envs_bench.box2d_single``);
* ``sync`` (``--sync``): Gymnasium's ``SyncVectorEnv`` of the Box2D environments
  (``envs_bench.sync_steps``).

One calibration block each sizes the blocks (``--block`` seconds of it at that rate; the same
number of steps in every round after). Then ``--rounds`` rounds: each party runs one block,
one at a time, the order rotated every round (A-B, B-A; with three parties every permutation
in turn). A round's ratio is the native block's rate over its neighbour Box2D block's, in
environment steps a second of wall (one environment step = 1/50 s, :data:`envs_bench.ENVS`).
Before every round (and at the start and the end) a ping-pong of one cache line between the
two CPUs (``vcpu_siblings.py``'s program, its fastest of 100 batches) says the vCPUs' mode.

Each worker reports its block's process CPU time too, and the coordinator reads the idle
workers' CPU time (``/proc``'s schedstat, all threads) around each block, so the CPU an idle
worker spends while another runs (the native crew's helpers spin before they sleep:
``impulse2d._crew.IDLE_SPINS``) is measured, not assumed. ``--idle-check N`` adds N pairs of
Box2D blocks with the native worker alive and idle against the same with the native worker
stopped (``SIGSTOP``, as if absent), in rotated order.

``--rt PRIORITY`` (root): every thread of every worker at real-time priority (``SCHED_FIFO``,
set at each block, so the crew's helpers too), the probe under ``chrt -f``, and 0.1 s
(``--gap``) before each block, which leaves the kernel's real-time throttle (95 % of each
second) its time. Each party then has its CPUs whatever else runs: at normal priority under
load the native's two threads lose more than Box2D's one, and even a paired ratio measures the
load (BENCHMARKS.md, session 33, ``pairE58``). It also starves the machine's other processes
during the blocks: run it when nobody else measures.

``--a SRC --b SRC``: an A/B of two source trees, native only: one native worker per tree (its
``src`` first on ``sys.path``), both alive, blocks alternating; the ratio is b over a, and
each block's end state is hashed (observations, rewards, flags of its last step) so that the
two trees are seen to play the same episodes.

Printed: one line a round, then the per-round ratios' median, quartiles, min and max, the share
of rounds at or above the target, the ratio of total steps over total wall, the halves'
medians and how the median settles with the rounds (bootstrap); ``--json`` writes it all.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import platform
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = {"lander": 10.0, "walker": 5.0}
"""Issue 30's targets: the native environment's steps a second over Box2D 2.3's one's."""


# -- statistics (pure Python: tests/test_envs_paired_stats.py) -----------------------------

def quantile(values, q: float) -> float:
    """The ``q`` quantile of ``values`` by linear interpolation between the order statistics
    (NumPy's default, ``statistics.quantiles(method="inclusive")``)."""
    xs = sorted(values)
    if not xs:
        raise ValueError("no values")
    pos = (len(xs) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def round_ratios(numerators, denominators) -> list:
    """Each round's ratio: its numerator party's rate over its denominator party's."""
    if len(numerators) != len(denominators):
        raise ValueError("one rate of each party a round")
    return [n / d for n, d in zip(numerators, denominators)]


def summary(ratios, target: float | None = None) -> dict:
    """Median, quartiles, min and max of the per-round ``ratios``, and the share at or above
    ``target``."""
    out = {"rounds": len(ratios), "median": statistics.median(ratios),
           "q1": quantile(ratios, 0.25), "q3": quantile(ratios, 0.75),
           "min": min(ratios), "max": max(ratios)}
    if target is not None:
        out["target"] = target
        out["share_at_or_above_target"] = sum(r >= target for r in ratios) / len(ratios)
    return out


def correlation(xs, ys) -> float | None:
    """Pearson's correlation of ``xs`` and ``ys`` (None under three pairs, or with no
    spread)."""
    if len(xs) < 3:
        return None
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / (sxx * syy) ** 0.5 if sxx * syy > 0 else None


def relative_spread(values) -> float:
    """The interquartile range over the median: a spread that ignores the outliers."""
    return (quantile(values, 0.75) - quantile(values, 0.25)) / statistics.median(values)


def halves(ratios) -> tuple:
    """The medians of the first and the second half of the rounds (an odd middle round left
    out)."""
    h = len(ratios) // 2
    if h == 0:
        return None, None
    return statistics.median(ratios[:h]), statistics.median(ratios[len(ratios) - h:])


def settling(ratios, sizes=None, draws: int = 2000, seed: int = 0,
             target: float | None = None) -> list:
    """How the median of n rounds settles: for each n of ``sizes``, the 5 % and 95 %
    quantiles of the median of n rounds drawn with replacement from ``ratios`` (``draws``
    times, seeded), and the share of those medians at or above ``target``."""
    rng = random.Random(seed)
    sizes = sizes or sorted({n for n in (2, 4, 6, 8, 12, 16, 20, 30, 40) if n <= len(ratios)}
                            | {len(ratios)})
    out = []
    for n in sizes:
        medians = [statistics.median(rng.choices(ratios, k=n)) for _ in range(draws)]
        row = {"rounds": n, "p5": quantile(medians, 0.05), "p95": quantile(medians, 0.95)}
        if target is not None:
            row["share_of_medians_at_or_above_target"] = (
                sum(m >= target for m in medians) / draws)
        out.append(row)
    return out


def orders(parties, rounds: int) -> list:
    """Each round's order of ``parties``: every permutation in turn (two parties: A-B,
    B-A)."""
    perms = list(itertools.permutations(parties))
    if len(parties) == 3:  # rotations first, then their reverses: each party first in turn
        perms = [perms[0], perms[3], perms[4], perms[5], perms[2], perms[1]]
    return [list(perms[r % len(perms)]) for r in range(rounds)]


# -- the workers ---------------------------------------------------------------------------

def _digest(arrays) -> str:
    digest = hashlib.sha256()
    for a in arrays:
        digest.update(a.tobytes())
    return digest.hexdigest()[:16]


class Native:
    """The native vector environment (``num_envs``, ``threads``), random actions."""

    def __init__(self, env: str, num_envs: int, threads: int, seed: int) -> None:
        import gymnasium as gym
        import numpy as np

        import envs_bench
        import impulse2d.envs  # noqa: F401 (registers the environments)
        self.np, self.random_actions = np, envs_bench._random_actions
        self.envs = gym.make_vec(envs_bench.ENVS[env]["native"], num_envs=num_envs,
                                 vectorization_mode="vector_entry_point")
        self.envs.reset(seed=seed)
        self.envs.batch.threads = threads
        self.rng = np.random.default_rng(seed)
        self.per_step = num_envs
        self.last = ()
        self.info = {"impulse2d": os.path.dirname(impulse2d.__file__),
                     "threads": self.envs.batch.threads, "num_envs": num_envs}

    def block(self, steps: int) -> tuple:
        actions = self.random_actions(self.envs.action_space, steps, self.rng)
        np, step = self.np, self.envs.step
        ended = 0
        out = None
        start = time.perf_counter(), time.process_time()  # (the clocks start after the draws)
        for k in range(steps):
            out = step(actions[k])
            ended += int(np.count_nonzero(out[2] | out[3]))
        self.last = out[:4]
        return ended, start

    def state(self) -> str:
        return _digest(self.np.asarray(a) for a in self.last)


class Box2DSingle:
    """Gymnasium's environment on pybox2d, one environment, random actions."""

    def __init__(self, env: str, num_envs: int, threads: int, seed: int) -> None:
        import gymnasium as gym

        import envs_bench
        self.steps = envs_bench.box2d_steps
        self.env = gym.make(envs_bench.ENVS[env]["box2d"])
        self.env.action_space.seed(seed)
        self.env.reset(seed=seed)
        self.per_step = 1
        self.info = {"num_envs": 1}

    def block(self, steps: int) -> tuple:
        start = time.perf_counter(), time.process_time()
        return self.steps(self.env, steps), start

    def state(self) -> str:
        return ""


class Box2DSync:
    """Gymnasium's ``SyncVectorEnv`` of ``num_envs`` Box2D environments, random actions."""

    def __init__(self, env: str, num_envs: int, threads: int, seed: int) -> None:
        import gymnasium as gym

        import envs_bench
        self.steps = envs_bench.sync_steps
        self.envs = gym.make_vec(envs_bench.ENVS[env]["box2d"], num_envs=num_envs,
                                 vectorization_mode="sync")
        self.envs.action_space.seed(seed)
        self.envs.reset(seed=seed)
        self.per_step = num_envs
        self.info = {"num_envs": num_envs}

    def block(self, steps: int) -> tuple:
        start = time.perf_counter(), time.process_time()
        self.steps(self.envs, steps)
        return 0, start

    def state(self) -> str:
        return ""


KINDS = {"native": Native, "box2d": Box2DSingle, "sync": Box2DSync}


def worker(argv) -> None:
    """A worker: set up one party, say so, then run each block asked for on stdin (a JSON
    line ``{"steps": N}``; ``{}`` ends it) and answer one JSON line on the stdout it was
    given (anything else the libraries print goes to stderr)."""
    kind, env, num_envs, threads, seed, src, rt = argv
    answer = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    path = list(sys.path)
    sys.path.insert(0, HERE)
    import envs_bench  # noqa: F401 (which puts this checkout's src first: taken out again,
    sys.path[:] = [HERE] + path  # so that impulse2d is PYTHONPATH's, as for envs_steps.py)
    if src:
        sys.path.insert(0, src)
    party = KINDS[kind](env, int(num_envs), int(threads), int(seed))
    answer.write(json.dumps({"ready": True, **party.info}) + "\n")
    answer.flush()
    for line in sys.stdin:
        ask = json.loads(line)
        if "steps" not in ask:
            break
        if int(rt):  # (set up at normal priority; each thread, the crew's too, raised here)
            for task in os.listdir("/proc/self/task"):
                os.sched_setscheduler(int(task), os.SCHED_FIFO, os.sched_param(int(rt)))
        ended, (start, cpu0) = party.block(ask["steps"])
        wall, cpu1 = time.perf_counter() - start, time.process_time()
        env_steps = ask["steps"] * party.per_step
        answer.write(json.dumps({
            "steps": ask["steps"], "env_steps": env_steps, "wall_s": wall,
            "cpu_s": cpu1 - cpu0,
            "rate": env_steps / wall, "ended": ended, "state": party.state()}) + "\n")
        answer.flush()


class Party:
    """The coordinator's handle on one worker process."""

    def __init__(self, name: str, kind: str, args, src: str) -> None:
        self.name, self.kind = name, kind
        env = dict(os.environ)
        if src:
            env["PYTHONPATH"] = os.pathsep.join(
                [src] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
        self.proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--worker", kind, args.env,
             str(args.num_envs if kind != "box2d" else 1), str(args.threads), str(args.seed),
             src, str(args.rt)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        self.info = self._read()
        self.steps = None

    def _read(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"worker {self.name} ended (see its stderr above)")
        return json.loads(line)

    def run(self, steps: int) -> dict:
        self.proc.stdin.write(json.dumps({"steps": steps}) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def policies(self) -> list:
        """Each of the worker's threads' scheduling policy (0 normal, 1 FIFO)."""
        out = []
        for task in os.listdir(f"/proc/{self.proc.pid}/task"):
            with open(f"/proc/{self.proc.pid}/task/{task}/stat") as f:
                out.append(int(f.read().rsplit(")", 1)[1].split()[38]))
        return out

    def cpu_ns(self) -> int:
        """The worker's CPU time so far, all its threads (``/proc``'s schedstat, ns)."""
        total = 0
        for task in os.listdir(f"/proc/{self.proc.pid}/task"):
            try:
                with open(f"/proc/{self.proc.pid}/task/{task}/schedstat") as f:
                    total += int(f.read().split()[0])
            except (FileNotFoundError, ProcessLookupError):  # (a thread gone meanwhile)
                pass
        return total

    def close(self) -> None:
        try:
            self.proc.stdin.write("{}\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _rt(priority: int) -> list:
    """The command's prefix that runs it at real-time priority ``priority`` (0: none)."""
    return ["chrt", "-f", str(priority)] if priority else []


class Probe:
    """The vCPUs' mode: ``vcpu_siblings.py``'s ping-pong, its fastest batch's one-way ns."""

    def __init__(self, rt: int = 0) -> None:
        self.rt = rt
        import vcpu_siblings
        self.dir = tempfile.TemporaryDirectory()
        src = os.path.join(self.dir.name, "s.c")
        self.exe = os.path.join(self.dir.name, "s")
        with open(src, "w") as f:
            f.write(vcpu_siblings.SOURCE)
        subprocess.run(["cc", "-O2", "-pthread", src, "-o", self.exe], check=True)

    def one_way_ns(self, batches: int = 100) -> float | None:
        try:
            lines = subprocess.run(_rt(self.rt) + [self.exe, "0", str(batches)],
                                   capture_output=True,
                                   text=True, check=True, timeout=10).stdout.split()
        except subprocess.TimeoutExpired:  # (the two threads seldom ran at once)
            return None
        return round(min(float(s) for s in lines[1::2]) / 2000 / 2 * 1e9, 1)


def _load() -> float:
    return round(os.getloadavg()[0], 2)


# -- the coordinator -----------------------------------------------------------------------

def calibrate(party: Party, block_s: float, counts=None) -> tuple:
    """Steps for a block of about ``block_s`` seconds: one untimed warm block, then one of
    about a fifth of ``block_s`` sized from it (or blocks of the given ``counts``, another
    party's: the two trees of an A/B take the same steps). Returns the steps and the two
    blocks' counts."""
    first = counts[0] if counts else {"native": 10, "box2d": 200, "sync": 1}[party.kind]
    wall = party.run(first)["wall_s"]
    second = counts[1] if counts else max(1, round(block_s / 5 / (wall / first)))
    wall = party.run(second)["wall_s"]
    return max(1, round(block_s / (wall / second))), (first, second)


def idle_check(native: Party, box2d: Party, rounds: int) -> dict:
    """Box2D's blocks with the native worker alive and idle against the same with it stopped
    (``SIGSTOP``, as if absent), paired: each pair after one native block (as in the rounds),
    the two in rotated order. The ratio idle / stopped of each pair, and the native worker's
    CPU time during the idle block."""
    modes = ("idle", "stopped")
    pairs = []
    for r in range(rounds):
        native.run(native.steps)
        rates = {}
        for mode in (modes if r % 2 == 0 else modes[::-1]):
            if mode == "stopped":
                native.proc.send_signal(signal.SIGSTOP)
            try:
                before = native.cpu_ns()
                rates[mode] = box2d.run(box2d.steps)["rate"]
                if mode == "idle":
                    idle_cpu = (native.cpu_ns() - before) * 1e-9
            finally:
                if mode == "stopped":
                    native.proc.send_signal(signal.SIGCONT)
        ratio = rates[modes[0]] / rates[modes[1]]
        pairs.append({"round": r, **rates, f"{modes[0]}_over_{modes[1]}": ratio,
                      "native_cpu_s": idle_cpu, "load": _load()})
        print(f"  Box2D check {r}: {modes[0]} {rates[modes[0]]:,.0f}, {modes[1]} "
              f"{rates[modes[1]]:,.0f}: {ratio:.3f} (the native worker's CPU meanwhile "
              f"{idle_cpu * 1e3:.2f} ms)", flush=True)
    return {"modes": list(modes), "pairs": pairs,
            "summary": summary([p[f"{modes[0]}_over_{modes[1]}"] for p in pairs])}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(sys.argv[2:])
        return
    if len(sys.argv) > 2 and sys.argv[1] in ("--report", "--pool"):
        # stored runs' JSON analysed again, each (--report) or their rounds together (--pool)
        reports = []
        for path in sys.argv[2:]:
            with open(path) as f:
                reports.append(json.load(f))
            reports[-1].setdefault("pairs", [["b", "a"]] if "a" in reports[-1]["block_steps"]
                                   else [["native", n] for n in reports[-1]["block_steps"]
                                         if n != "native"])
        if sys.argv[1] == "--pool":
            pooled = dict(reports[0])
            pooled["rounds_data"] = [row for r in reports for row in r["rounds_data"]]
            for key in ("load_end", "one_way_ns_end"):
                pooled[key] = reports[-1][key]
            pooled.pop("idle_check", None)
            reports = [pooled]
        labels = ["pooled: " + " ".join(sys.argv[2:])] if sys.argv[1] == "--pool" else sys.argv[2:]
        for path, report in zip(labels, reports):
            print(path)
            analyse(report)
            print_report(report)
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", choices=sorted(TARGETS), default="lander")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--block", type=float, default=0.5, help="seconds a block (about)")
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sync", action="store_true", help="Gymnasium's SyncVectorEnv too")
    parser.add_argument("--idle-check", type=int, default=0, metavar="N",
                        help="N pairs of Box2D blocks, the native worker idle / stopped")
    parser.add_argument("--a", help="A/B of two trees: tree a's src (native only)")
    parser.add_argument("--b", help="tree b's src")
    parser.add_argument("--no-probe", action="store_true", help="no ping-pong each round")
    parser.add_argument("--rt", type=int, default=0, metavar="PRIORITY",
                        help="run the workers and the probe at this real-time priority "
                             "(chrt -f; root): each party has its CPUs whatever the load")
    parser.add_argument("--gap", type=float, default=None,
                        help="seconds to sleep before each block (default 0; 0.1 with --rt, "
                             "leaving the kernel's real-time throttle time in each second)")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    if args.rt and subprocess.run(["chrt", "-f", str(args.rt), "true"],
                                  capture_output=True).returncode != 0:
        parser.error(f"--rt {args.rt}: this user may not run at real-time priority (root)")
    if args.gap is None:
        args.gap = 0.1 if args.rt else 0.0
    if args.rounds < 1 or args.block <= 0:
        parser.error("--rounds must be at least 1 and --block positive")
    if (args.a is None) != (args.b is None):
        parser.error("--a and --b go together")
    ab = args.a is not None
    if ab:
        specs = [("a", "native", os.path.abspath(args.a)), ("b", "native", os.path.abspath(args.b))]
        pairs = [("b", "a")]
        target = None
    else:
        specs = [("native", "native", ""), ("box2d", "box2d", "")]
        if args.sync:
            specs.append(("sync", "sync", ""))
        pairs = [("native", "box2d")] + ([("native", "sync")] if args.sync else [])
        target = TARGETS[args.env]
    probe = None if args.no_probe else Probe(args.rt)
    report = {"machine": platform.platform(), "cpus": os.cpu_count(), "env": args.env,
              "step": __import__("envs_bench").ENVS[args.env]["step"],
              "block_s": args.block, "rounds": args.rounds, "num_envs": args.num_envs,
              "threads": args.threads, "seed": args.seed, "target": target,
              "rt_priority": args.rt, "gap_s": args.gap,
              "load_start": _load(),
              "one_way_ns_start": probe.one_way_ns() if probe else None}
    print(f"load {report['load_start']}, vCPUs one way {report['one_way_ns_start']} ns",
          flush=True)
    parties = {}
    try:
        for name, kind, src in specs:
            parties[name] = Party(name, kind, args, src)
        report["parties"] = {name: {"kind": p.kind, **p.info} for name, p in parties.items()}
        counts = None
        for p in parties.values():
            p.steps, used = calibrate(p, args.block, counts)
            if ab:  # (the same blocks for both trees: the same episodes, comparable states)
                counts = used
        if ab:
            steps = round(statistics.mean(p.steps for p in parties.values()))
            for p in parties.values():
                p.steps = steps
        report["block_steps"] = {name: p.steps for name, p in parties.items()}
        report["thread_policies"] = {name: p.policies() for name, p in parties.items()}
        print("threads' policies (1: real-time FIFO):", report["thread_policies"], flush=True)
        print("block steps:", report["block_steps"], flush=True)
        rounds = []
        for r, order in enumerate(orders(list(parties), args.rounds)):
            row = {"round": r, "order": order,
                   "one_way_ns": probe.one_way_ns() if probe else None}
            for name in order:
                time.sleep(args.gap)
                others = {n: p.cpu_ns() for n, p in parties.items() if n != name}
                block = parties[name].run(parties[name].steps)
                block["load"] = _load()
                # what the idle workers spent meanwhile (the crew's spin before it sleeps)
                block["others_cpu_s"] = {n: (parties[n].cpu_ns() - c) * 1e-9
                                         for n, c in others.items()}
                row[name] = block
            rounds.append(row)
            print(f"round {r:2d} {'-'.join(order):>18} {row['one_way_ns']!s:>6} ns  "
                  + "  ".join(f"{n} {row[n]['rate']:>9,.0f} "
                              f"({row[n]['cpu_s'] / row[n]['wall_s']:.2f})" for n in parties)
                  + "  " + "  ".join(f"{num}/{den} {row[num]['rate'] / row[den]['rate']:.3f}"
                                     for num, den in pairs)
                  + f"  load {row[order[-1]]['load']}", flush=True)
        report["rounds_data"] = rounds
        if args.idle_check and not ab:
            report["idle_check"] = idle_check(parties["native"], parties["box2d"],
                                              args.idle_check)
    finally:
        for p in parties.values():
            p.close()
    report["one_way_ns_end"] = probe.one_way_ns() if probe else None
    report["load_end"] = _load()
    report["pairs"] = [list(p) for p in pairs]
    analyse(report)
    print_report(report)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
            f.write("\n")


FAST_NS = 80.0
"""A round whose probe reads under this is in the vCPUs' fast mode (~26 ns one way), over it
in the slow (~150 ns)."""


def analyse(report: dict) -> None:
    """The statistics of ``report["rounds_data"]`` into ``report``: each ratio's summary,
    totals, halves and settling; the same of the ratio of rates a CPU-second; each party's
    rates and CPU; the rounds by the vCPUs' mode and those where every party had its CPUs."""
    rounds, pairs = report["rounds_data"], report["pairs"]
    parties = list(report["block_steps"])
    threads = {n: (report["threads"] if report["parties"][n]["kind"] == "native" else 1)
               for n in parties}

    def cpu_rate(block):
        return block["env_steps"] / block["cpu_s"]

    def had_its_cpus(row):  # (every party's CPU time at least 90 % of its threads' wall)
        return all(row[n]["cpu_s"] >= 0.9 * threads[n] * row[n]["wall_s"] for n in parties)

    results = {}
    for num, den in pairs:
        key = f"{num}/{den}"
        ratios = round_ratios([row[num]["rate"] for row in rounds],
                              [row[den]["rate"] for row in rounds])
        total = {n: (sum(row[n]["env_steps"] for row in rounds),
                     sum(row[n]["wall_s"] for row in rounds)) for n in (num, den)}
        t = report["target"] if den == "box2d" else None
        by_cpu = round_ratios([cpu_rate(row[num]) for row in rounds],
                              [cpu_rate(row[den]) for row in rounds])
        with_cpus = [r for r, row in zip(ratios, rounds) if had_its_cpus(row)]
        results[key] = {
            "per_round": ratios, **summary(ratios, t),
            "total_steps_over_total_wall": (total[num][0] / total[num][1])
            / (total[den][0] / total[den][1]),
            "halves_medians": halves(ratios),
            "settling": settling(ratios, target=t),
            "per_cpu_second": summary(by_cpu),
            # does the one party's speed follow the other's? (what pairing in time cancels)
            "rates_correlation": correlation([row[num]["rate"] for row in rounds],
                                             [row[den]["rate"] for row in rounds]),
            "relative_spread": {
                "ratio": relative_spread(ratios),
                num: relative_spread([row[num]["rate"] for row in rounds]),
                den: relative_spread([row[den]["rate"] for row in rounds])},
            "rounds_with_their_cpus": summary(with_cpus, t) if with_cpus else None}
        modes = {}
        for mode, inside in (("fast", lambda ns: ns < FAST_NS), ("slow", lambda ns: ns >= FAST_NS)):
            rows = [(r, row) for r, row in zip(ratios, rounds)
                    if row["one_way_ns"] is not None and inside(row["one_way_ns"])]
            if rows:
                modes[mode] = {
                    "rounds": len(rows), "ratio_median": statistics.median(r for r, _ in rows),
                    **{f"{n}_median": statistics.median(row[n]["rate"] for _, row in rows)
                       for n in (num, den)},
                    **{f"{n}_per_cpu_second_median": statistics.median(
                        cpu_rate(row[n]) for _, row in rows) for n in (num, den)}}
        results[key]["by_vcpu_mode"] = modes
    report["ratios"] = results
    report["rates"] = {}
    for name in parties:
        rates = [row[name]["rate"] for row in rounds]
        idle = [row[other]["others_cpu_s"][name] / row[other]["wall_s"]
                for row in rounds for other in parties if other != name]
        report["rates"][name] = {**summary(rates),
                                 "cpu_per_wall": statistics.median(
                                     row[name]["cpu_s"] / row[name]["wall_s"] for row in rounds),
                                 "cpu_while_idle_per_other_wall": {
                                     "median": statistics.median(idle) if idle else None,
                                     "max": max(idle) if idle else None}}
    if "a" in parties:
        states = [(row["a"]["state"], row["b"]["state"]) for row in rounds]
        report["same_states"] = all(x == y for x, y in states)
        report["ended"] = {n: sum(row[n]["ended"] for row in rounds) for n in parties}
    probed = [row["one_way_ns"] for row in rounds if row["one_way_ns"] is not None]
    report["one_way_ns_rounds"] = summary(probed) if probed else None


def print_report(report: dict) -> None:
    print(f"load {report['load_start']} -> {report['load_end']}; vCPUs one way "
          f"{report['one_way_ns_start']} -> {report['one_way_ns_end']} ns")
    for name, r in report["rates"].items():
        print(f"{name:>7} env-steps/s: median {r['median']:,.0f} [{r['q1']:,.0f} - "
              f"{r['q3']:,.0f}] min {r['min']:,.0f} max {r['max']:,.0f}; CPU/wall "
              f"{r['cpu_per_wall']:.2f}; idle, its CPU / the other's block's wall "
              f"{r['cpu_while_idle_per_other_wall']['median']:.5f} (median), "
              f"{r['cpu_while_idle_per_other_wall']['max']:.5f} (max)")
    for key, r in report["ratios"].items():
        share = (f"; at or above {r['target']:g}x in {r['share_at_or_above_target']:.0%}"
                 if "target" in r else "")
        print(f"{key}: median {r['median']:.3f} [q1 {r['q1']:.3f}, q3 {r['q3']:.3f}] min "
              f"{r['min']:.3f} max {r['max']:.3f} over {r['rounds']} rounds{share}; totals "
              f"{r['total_steps_over_total_wall']:.3f}; halves "
              + " / ".join("-" if h is None else f"{h:.3f}" for h in r["halves_medians"]))
        print("   the median of n rounds, 5-95 %: " + ", ".join(
            f"{s['rounds']}: {s['p5']:.2f}-{s['p95']:.2f}" for s in r["settling"]))
        sp = r["relative_spread"]
        corr = r["rates_correlation"]
        print(f"   the rates' correlation {'-' if corr is None else f'{corr:.2f}'}; "
              "interquartile range / "
              "median: " + ", ".join(f"{k} {v:.3f}" for k, v in sp.items()))
        c = r["per_cpu_second"]
        print(f"   by rates a CPU-second: median {c['median']:.3f} [{c['q1']:.3f} - "
              f"{c['q3']:.3f}]")
        w = r["rounds_with_their_cpus"]
        print("   rounds where every party had its CPUs (CPU >= 0.9 x threads x wall): "
              + (f"{w['rounds']}, median {w['median']:.3f} [{w['min']:.3f} - {w['max']:.3f}]"
                 if w else "none"))
        for mode, m in r["by_vcpu_mode"].items():
            num, den = key.split("/")
            print(f"   vCPUs {mode}: {m['rounds']} rounds, ratio {m['ratio_median']:.3f}, "
                  f"{num} {m[num + '_median']:,.0f} ({m[num + '_per_cpu_second_median']:,.0f} "
                  f"a CPU-s), {den} {m[den + '_median']:,.0f} "
                  f"({m[den + '_per_cpu_second_median']:,.0f} a CPU-s)")
    if "same_states" in report:
        print(f"same states after every block: {report['same_states']}; episodes ended "
              f"{report['ended']}")
    if "idle_check" in report:
        s = report["idle_check"]["summary"]
        print(f"Box2D with the native worker idle / stopped: median {s['median']:.3f} "
              f"[{s['q1']:.3f} - {s['q3']:.3f}] min {s['min']:.3f} max {s['max']:.3f} over "
              f"{s['rounds']} pairs")


if __name__ == "__main__":
    main()
