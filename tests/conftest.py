"""Shared helpers for the test suite, and its kernels compiled before the workers start."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import impulse2d as i2d

DT = 1.0 / 60.0


def pytest_sessionstart(session):
    """Under pytest-xdist (``-n``, on by default: ``pyproject.toml``), the whole suite first
    fills the kernel cache with ``impulse2d warmup --all``, in a process of its own that shares
    the compile with a helper process (``_core/parallel.py``), before the workers start. Left
    to the tests, each worker would compile the kernels of the first worlds it meets: the same
    ones, at the same time, on both cores. Kernels that ``warmup --all`` leaves out (the solver
    diagnostics, most queries, drawing, custom laws) compile in
    the test that first needs them, as in a run without workers. A warm cache makes this a
    load of every kernel (4.5 s at load 7 on the 2-core machine); a run of some files only, a
    run without workers (``-n 0``) and the workers themselves skip it."""
    config = session.config
    workers = len(getattr(config.option, "tx", None) or ())
    if (hasattr(config, "workerinput") or workers < 2 or config.option.collectonly
            or os.environ.get("NUMBA_DISABLE_JIT")):
        return
    if getattr(config, "args_source", None) != pytest.Config.ArgsSource.TESTPATHS:
        return  # files or tests named on the command line: they compile what they use
    subprocess.run([sys.executable, "-m", "impulse2d", "warmup", "--all"], check=False)


def run(world: i2d.World, seconds: float, dt: float = DT) -> None:
    for _ in range(int(round(seconds / dt))):
        world.step(dt)


def batch_world(seed: int = 0, **settings) -> i2d.World:
    """The batch benchmark's world (``benchmarks/batch_bench.py``): 8 circles and 2 boxes
    dropped on a floor from places drawn with ``seed``."""
    import numpy as np
    rng = np.random.default_rng(seed)
    world = i2d.World(gravity=(0.0, -10.0), **settings)
    world.create_body("static").create_box(10.0, 0.5)
    for _ in range(8):
        world.create_body("dynamic", (rng.uniform(-4, 4), rng.uniform(1, 6))).create_circle(0.3)
    for _ in range(2):
        world.create_body("dynamic", (rng.uniform(-4, 4), rng.uniform(1, 6))).create_box(0.4, 0.4)
    return world


def ground_world(**settings) -> tuple[i2d.World, i2d.Body]:
    """A world with a wide static ground box whose top face is y = 0."""
    world = i2d.World(**settings)
    ground = world.create_body(type="static")
    ground.create_box(50.0, 0.5, center=(0.0, -0.5))
    return world, ground


def world_with_room(boxes: int, columns: int, left: float) -> i2d.World:
    """A stepped world whose stores' reference was built from its present stores, with free
    body and shape rows to reuse (two in three of ``boxes`` boxes, dropped in ``columns``
    columns from x = ``left`` m, destroyed) and room for more without growing."""
    world = i2d.World(gravity=(0.0, -10.0))
    ground = world.create_body("static")
    ground.create_segment((-50.0, -6.0), (50.0, -6.0))
    doomed = []
    for k in range(boxes):
        body = world.create_body("dynamic", position=(0.7 * (k % columns) + left, 8.0 + k))
        body.create_box(0.3, 0.3, density=1.0)
        doomed.append(body)
    for k, body in enumerate(doomed):
        if k % 3:
            world.destroy_body(body)
    for _ in range(10):
        world.step(DT)
    return world
