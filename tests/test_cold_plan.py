"""The first step's compile plan, from the units' declared estimates, against the units' measured
compile times: for the cold scenes of ``benchmarks/startup.py`` the plan
(:func:`impulse2d._core.parallel.plan`) must give each unit to the process that makes the
first step's critical path shortest by the measurements, whatever the early helper's progress
at the plan (BENCHMARKS.md, session 22: an estimate 4 s short gave the grid search to the
helper; session 23, ``cold48``: the estimates re-measured)."""

from __future__ import annotations

import itertools

import pytest

import impulse2d as i2d
from impulse2d._core.parallel import HELPER_START_SECONDS, plan
from impulse2d._dynamics import step, verbs
from impulse2d._dynamics.world_ref import STORES_SECONDS
from impulse2d.scenes import build_scene

# Compile CPU seconds of each unit where the plan gave it, medians of cold runs at load 8-14
# (``benchmarks/compile_processes.py``; session 22's four pyramid_20 runs and session 23's
# runs of pyramid_20, chain_100 and a rain of 300 circles): the step kernel with the stores' constructor, the early
# helper's start, pair stage and narrowphase, and the units the first step's plan splits.
MEASURED = {"own": 15.4 + 2.9, "helper start": 1.5, "the pair search": 4.2,
            "the narrowphase (polygons)": 6.6, "the pair search (grid)": 9.3,
            "the soft_step solver": 9.9, "the wide contact solver": 7.2,
            "the pair search (global)": 12.4, "the soft_step solver with revolute joints": 18.1,
            "the narrowphase": 10.2}


def _first_step_units(world):
    """The units a cold first step of ``world`` plans (the early helper's and the later ones
    left out, as :func:`.step._fill_verbs` and the early helper leave them)."""
    needed = step.needed_units(world, world._joint_rows()["by_type"])
    for slot in step.LATER_SLOTS:
        needed.pop(slot, None)
    early = {id(u) for u in step.EARLY_UNITS}
    return [u for u in dict.fromkeys(needed.values()) if id(u) not in early]


def _critical(mine, theirs, helper_cpu):
    """The first step's critical path by the measurements (CPU s from the plan): this
    process's own work and units, or the early helper's remainder and its units."""
    early = (MEASURED["helper start"] + MEASURED["the pair search"]
             + MEASURED["the narrowphase (polygons)"] - helper_cpu)
    return max(MEASURED["own"] + sum(MEASURED[u.what] for u in mine),
               early + sum(MEASURED[u.what] for u in theirs))


@pytest.mark.parametrize("scene, params, here, there", [
    ("pyramid", {"base": 20}, {"the pair search (grid)"}, {"the soft_step solver"}),
    ("chain", {"links": 100}, {"the pair search (global)"},
     {"the soft_step solver with revolute joints"}),
    ("rain", {"count": 300}, set(), set()),
])
def test_the_first_step_plan_is_the_measured_best_split(scene, params, here, there):
    world = i2d.World()
    build_scene(world, scene, **params)
    units = _first_step_units(world)
    assert {u.what for u in units} == set(MEASURED) & {u.what for u in units}
    early_seconds = HELPER_START_SECONDS + sum(u.seconds for u in step.EARLY_UNITS)
    # the early helper's CPU at the plan: its start and part of the pair stage while this
    # process builds the world (mass properties 1.7-2.4 s of CPU; 2.3 s in the cold chain_100
    # of BENCHMARKS.md session 23, by the helper's remainder the plan read)
    for helper_cpu in (1.0, 2.0, 3.0):
        mine, helpers = plan(units, step.STEP_SECONDS + STORES_SECONDS, 2,
                             busy=[early_seconds - helper_cpu])
        theirs = [u for share in helpers for u in share]
        assert {u.what for u in mine} >= here and {u.what for u in theirs} >= there
        best = min(_critical([u for u, h in zip(units, side) if not h],
                             [u for u, h in zip(units, side) if h], helper_cpu)
                   for side in itertools.product((False, True), repeat=len(units)))
        # within 1 s of the best split by the measurements (their own spread is +-1 s)
        assert _critical(mine, theirs, helper_cpu) <= best + 1.0


def test_the_estimates_keep_the_measured_ratios():
    # each first-step unit's estimate over its measured CPU within 25 % of the step kernel's
    # (the plan compares them with each other and with the step kernel)
    units = {u.what: u for u in (step.GRID_SEARCH_KERNEL, step.POLYGON_COLLIDE_KERNEL,
                                 step.SOLVER_KERNELS["soft_step"], step.LANES_KERNEL,
                                 step.STAGE_KERNELS[verbs.SEARCH_PAIRS],
                                 step.STAGE_KERNELS[verbs.PAIRS],
                                 step.SOFT_STEP_REVOLUTE_KERNEL,
                                 step.STAGE_KERNELS[verbs.COLLIDE])}
    scale = step.STEP_SECONDS / 15.4
    for what, unit in units.items():
        assert unit.seconds / MEASURED[what] == pytest.approx(scale, rel=0.25), what
