"""A pytest plugin that records where the test suite's time goes, test by test, in CPU seconds:
for a machine too loaded for ``--durations`` (wall clock) to say anything.

    CI_DURATIONS_OUT=benchmarks/results/ci_tests_NAME.json \
        PYTHONPATH=benchmarks python -m pytest -p ci_durations [pytest's own options]

For each test (setup, call and teardown together) it records the wall time, this process's CPU
time (``time.process_time``: every thread), the CPU time of the child processes it waited for
(``resource.getrusage(RUSAGE_CHILDREN)``: the subprocess tests' fresh Pythons, the compile
helpers of :mod:`impulse2d._core.parallel`), and the CPU time this process spent inside Numba
compiles (the outermost ``numba:compile`` events: a kernel compiled, not one loaded from the
cache). Each process writes its own file (under pytest-xdist one per worker: ``.gw0`` ... before
the suffix), with its totals, and each test's line as it ends into a ``.jsonl`` beside it;
``benchmarks/ci_split.py`` adds them up.
"""

from __future__ import annotations

import json
import os
import resource
import time

import pytest


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class _Compiles:
    """The CPU time spent inside outermost Numba compiles (a listener of ``numba:compile``)."""

    def __init__(self):
        from numba.core import event

        class Listener(event.Listener):
            def on_start(listener, ev):
                self.depth += 1
                if self.depth == 1:
                    self.started = time.process_time()

            def on_end(listener, ev):
                self.depth -= 1
                if self.depth == 0:
                    self.seconds += time.process_time() - self.started
                    self.count += 1

        self.depth, self.started, self.seconds, self.count = 0, 0.0, 0.0, 0
        event.register("numba:compile", Listener())


class Recorder:
    def __init__(self, out: str, worker: str | None):
        root, ext = os.path.splitext(out)
        self.out = f"{root}.{worker}{ext}" if worker else out
        self.lines = os.path.splitext(self.out)[0] + ".jsonl"
        os.makedirs(os.path.dirname(os.path.abspath(self.out)), exist_ok=True)
        self.worker = worker or "main"
        self.tests = []
        self.compiles = None
        self.t0 = (time.perf_counter(), time.process_time(), _children_cpu())

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        if self.compiles is None:
            self.compiles = _Compiles()
        wall, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
        compile_cpu, compiles = self.compiles.seconds, self.compiles.count
        yield
        record = {
            "nodeid": item.nodeid,
            "wall_s": round(time.perf_counter() - wall, 4),
            "cpu_s": round(time.process_time() - cpu, 4),
            "children_cpu_s": round(_children_cpu() - children, 4),
            "compile_cpu_s": round(self.compiles.seconds - compile_cpu, 4),
            "compiles": self.compiles.count - compiles,
        }
        self.tests.append(record)
        with open(self.lines, "a") as f:  # as it goes: a run stopped early still tells
            f.write(json.dumps(record) + "\n")

    def pytest_sessionfinish(self, session):
        wall0, cpu0, children0 = self.t0
        totals = {
            "worker": self.worker,
            "wall_s": round(time.perf_counter() - wall0, 2),
            "cpu_s": round(time.process_time() - cpu0, 2),
            "children_cpu_s": round(_children_cpu() - children0, 2),
            "compile_cpu_s": round(self.compiles.seconds if self.compiles else 0.0, 2),
            "tests": len(self.tests),
            "loadavg": os.getloadavg(),
        }
        with open(self.out, "w") as f:
            json.dump({"totals": totals, "tests": self.tests}, f, indent=0)


def pytest_configure(config):
    out = os.environ.get("CI_DURATIONS_OUT")
    if not out:
        return
    worker = getattr(config, "workerinput", {}).get("workerid")
    if worker is None and getattr(config.option, "dist", "no") != "no":
        return  # an xdist controller runs no test: its workers record
    config.pluginmanager.register(Recorder(out, worker), "ci_durations_recorder")
