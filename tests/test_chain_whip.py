"""Chains whose joints must turn a body faster than the rotation limit (issue 13, item 7b).

The speed limits (400 m/s, a quarter turn per step: 47 rad/s at 60 Hz) are clamped before the
constraints of each substep by both soft solvers (Box2D v3.0/v3.1's place), and ``soft_step``
clamps again at twice the limits as positions are integrated. Measured with
``benchmarks/chain_whip.py`` against pyb2d3 (Box2D v3.1.1) on the same scenes, the gap taken
after every step:

* ``chain`` (100 links, horizontal start): the free end whips past 100 m/s at step 271 and its
  last link needs 61 rad/s (pyb2d3 ends that step at 61.6). Worst gap 0.064 m (both soft
  solvers), 0.065 m (pyb2d3); 0.133 m when the clamp came after the constraints (Box2D v3.2's
  place, this solver until 2026-11-24: the end link held at 47 rad/s lagged its joint). End gaps
  4.5, 4.5 and 4.6 mm.
* ``stretched_chain`` started horizontal (joints 1 m apart): gap over the last second 1.6 m
  (``soft_step``: its second clamp holds the circles, which spin at hundreds of rad/s as the
  links close), 0.054 m (``soft_step_v31``), 0.068 m (pyb2d3, up to 660 rad/s); 15.7 m with the
  clamp after the constraints only.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d.constants import MAX_ROTATION
from impulse2d.scenes import build_scene

from conftest import DT
from test_fuzz import _tiny_capsule_loop


def _gaps(joints):
    """Each joint's gap (m): its anchor as carried by body A against body B."""
    out = np.empty(len(joints))
    for k, j in enumerate(joints):
        a, b = j.world_anchor_a, j.world_anchor_b
        out[k] = math.hypot(a[0] - b[0], a[1] - b[1])
    return out


def _run(scene, steps, solver, **params):
    """The worst gap after each step, and the world at the end."""
    world = i2d.World(solver=solver)
    info = build_scene(world, scene, **params)
    joints = info.data["joint_handles"]
    worst = []
    for _ in range(steps):
        world.step(DT)
        worst.append(float(np.max(_gaps(joints))))
    return np.array(worst), world


@pytest.fixture(scope="module")
def chain_runs():
    return {solver: _run("chain", 600, solver) for solver in ("soft_step", "soft_step_v31")}


@pytest.mark.parametrize("solver, bound", [
    # both clamp where Box2D v3.1 does (pyb2d3 0.065 m; measured 0.0643 m for both)
    ("soft_step", 0.065),
    ("soft_step_v31", 0.065),
])
def test_chain_first_swing_gap(chain_runs, solver, bound):
    worst, _ = chain_runs[solver]
    # the fall before the whip: 0.0119 m by step 120 with either clamp (pyb2d3 0.0119 m)
    assert worst[:120].max() < 0.0125
    # the first swing ends with the whip at step 271 (both engines); its gap is the run's worst
    assert int(np.argmax(worst)) < 300
    assert worst[:300].max() < bound


@pytest.mark.parametrize("solver", ["soft_step", "soft_step_v31"])
def test_chain_end_gap_and_spin(chain_runs, solver):
    worst, world = chain_runs[solver]
    assert worst[-1] < 0.01                      # measured 4.5 mm (both)
    v = world.get_velocities()
    assert np.all(np.isfinite(v))
    # both leave every step within the limits (the end-of-step clamp)
    assert np.abs(v[:, 2]).max() <= MAX_ROTATION / DT + 1e-9


def test_stretched_chain_from_horizontal_pulls_itself_together():
    worst, world = _run("stretched_chain", 600, "soft_step_v31", hanging=False)
    assert worst[0] > 0.9                        # starts with every link 1 m open
    assert worst[-60:].max() < 0.1               # measured 0.054 m; pyb2d3 0.068 m
    speed = np.hypot(*world.get_velocities()[:, :2].T)
    assert speed.max() < 50.0                    # measured 24 m/s


def test_v31_clamp_keeps_an_unsatisfiable_loop_bounded():
    # The price of clamping before the constraints: the 7 mm capsule of test_fuzz, which no
    # placement of its two joints can satisfy, keeps flailing at the limits instead of coming
    # to rest as with soft_step (pyb2d3: spins of 1e7 rad/s). Its impulses stay within the
    # budget and its speeds within the limits.
    world = _tiny_capsule_loop()
    world.settings.solver = "soft_step_v31"
    for _ in range(2000):
        world.step(DT)
    forces = [abs(j.reaction_force[0]) + abs(j.reaction_force[1]) for j in world.joints]
    assert max(forces) < 100.0
    v = world.get_velocities()
    assert np.all(np.isfinite(v))
    assert np.hypot(*v[:, :2].T).max() <= world.settings.max_linear_speed + 1e-9
    assert np.abs(v[:, 2]).max() <= MAX_ROTATION / DT + 1e-9
