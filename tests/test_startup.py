"""Start-up: a world compiles only the kernels it uses, says so when it compiles, and the whole
engine still runs as plain Python (``NUMBA_DISABLE_JIT=1``).

Each test runs a fresh interpreter, since what a process has compiled is process state. They use
the package's kernel cache, which earlier tests have filled, so they load rather than compile.
The step reaches solver and joint code only through their entries (``_dynamics/verbs.py``), so
an entry that was neither compiled nor loaded is code the world did not compile.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import impulse2d as i2d

SRC = str(Path(i2d.__file__).resolve().parents[1])


def _run(code: str, **env) -> subprocess.CompletedProcess:
    full_env = {**os.environ, "PYTHONPATH": SRC, **env}
    for name, value in env.items():
        if value is None:
            del full_env[name]
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=full_env, timeout=600)
    assert result.returncode == 0, result.stderr
    return result


COMPILED = """
import json, impulse2d as i2d
from impulse2d._dynamics import step
{build}
for _ in range(3):
    world.step(1 / 60)
# (a unit is compiled or loaded for its one signature: by its dispatcher, or from its unit
# file without one, _core/unit_cache.py)
print(json.dumps({{
    "solvers": {{n: int(k.compiled_address() != 0) for n, k in step.SOLVER_KERNELS.items()}},
    "joints": {{n: int(k.compiled_address() != 0) for n, k in step.JOINT_KERNELS.items()}},
    "positions": {{n: int(k.compiled_address() != 0)
                  for n, k in step.JOINT_POSITION_KERNELS.items()}},
    "rows": {{n: int(k.compiled_address() != 0) for n, k in step.DIRECT_ROWS_KERNELS.items()}},
}}))
"""

CONTACTS = """
world = i2d.World()
ground = world.create_body(type="static")
ground.create_box(5, 0.5, center=(0, -0.5))
world.create_body(position=(0, 1)).create_box(0.5, 0.5)
"""

CHAIN = """
world = i2d.World(solver="pgs")
anchor = world.create_body(type="static", position=(0, 5))
link = world.create_body(position=(1, 5))
link.create_box(0.5, 0.1)
world.create_revolute_joint(anchor, link, (0, 5))
"""


@pytest.fixture(scope="module", autouse=True)
def _kernels_in_the_cache():
    """Compile (or load) everything once in this process, so the subprocesses below load."""
    i2d.warmup(all_kernels=True, progress=False)


def test_a_world_of_contacts_compiles_no_joint_kernel_and_no_other_solver():
    compiled = json.loads(_run(COMPILED.format(build=CONTACTS)).stdout)
    assert compiled["solvers"] == {"soft_step": 1, "soft_step_v31": 0, "pgs": 0, "pgs_ngs": 0,
                                   "pgs_block": 0, "direct": 0}
    assert set(compiled["joints"].values()) == {0}
    assert set(compiled["rows"].values()) == {0}


def test_a_chain_compiles_its_joint_type_and_solver_alone():
    compiled = json.loads(_run(COMPILED.format(build=CHAIN)).stdout)
    assert compiled["solvers"] == {"soft_step": 0, "soft_step_v31": 0, "pgs": 1, "pgs_ngs": 0,
                                   "pgs_block": 0, "direct": 0}
    assert compiled["joints"]["revolute"] == 1
    assert {n: c for n, c in compiled["joints"].items() if n != "revolute"} == dict.fromkeys(
        ("distance", "prismatic", "weld", "wheel", "mouse", "motor", "pulley", "custom", "gear"),
        0)
    # pgs corrects no positions: no joint type's position correction is compiled, nor does it
    # export rows for the direct solver
    assert set(compiled["positions"].values()) == {0}
    assert set(compiled["rows"].values()) == {0}


def test_a_chain_of_a_position_solver_compiles_its_joint_type_position_correction_alone():
    compiled = json.loads(_run(COMPILED.format(build=CHAIN.replace('"pgs"', '"pgs_ngs"'))).stdout)
    assert compiled["solvers"] == {"soft_step": 0, "soft_step_v31": 0, "pgs": 0, "pgs_ngs": 1,
                                   "pgs_block": 0, "direct": 0}
    assert compiled["positions"] == {"revolute": 1, "distance": 0, "prismatic": 0, "weld": 0,
                                     "wheel": 0, "pulley": 0, "custom": 0, "gear": 0}


def test_a_chain_of_the_direct_solver_compiles_its_joint_type_row_export_alone():
    compiled = json.loads(_run(COMPILED.format(build=CHAIN.replace('"pgs"', '"direct"'))).stdout)
    assert compiled["solvers"] == {"soft_step": 0, "soft_step_v31": 0, "pgs": 0, "pgs_ngs": 0,
                                   "pgs_block": 0, "direct": 1}
    assert compiled["rows"] == dict.fromkeys(
        ("revolute", "distance", "prismatic", "weld", "wheel", "mouse", "motor", "pulley",
         "custom", "gear"), 0) | {"revolute": 1}
    assert set(compiled["positions"].values()) == {0}


NOTICE_RUN = """
import impulse2d as i2d
world = i2d.World()
world.create_body().create_box(0.5, 0.25)   # compiles the mass properties, about a second
"""


def test_a_first_compile_says_so_on_stderr_once_and_a_cached_run_is_silent(tmp_path):
    first = _run(NOTICE_RUN, NUMBA_CACHE_DIR=str(tmp_path), IMPULSE2D_QUIET=None)
    lines = [line for line in first.stderr.splitlines() if line.startswith("impulse2d:")]
    assert len(lines) == 1, first.stderr
    assert "compiling kernels for" in lines[0] and "(first run only; about" in lines[0]
    again = _run(NOTICE_RUN, NUMBA_CACHE_DIR=str(tmp_path), IMPULSE2D_QUIET=None)
    assert "impulse2d:" not in again.stderr


def test_the_notice_can_be_silenced(tmp_path):
    quiet = _run(NOTICE_RUN, NUMBA_CACHE_DIR=str(tmp_path), IMPULSE2D_QUIET="1")
    assert "impulse2d:" not in quiet.stderr


TRAJECTORY = """
import json, impulse2d as i2d
out = {}
for solver in ("soft_step", "pgs", "pgs_ngs", "pgs_block"):
    world = i2d.World(solver=solver)
    ground = world.create_body(type="static")
    ground.create_box(5, 0.5, center=(0, -0.5))
    box = world.create_body(position=(0, 0.7), angle=0.2)
    box.create_box(0.5, 0.5)
    ball = world.create_body(position=(1.5, 2))
    ball.create_circle(0.3, restitution=0.5)
    pivot = world.create_body(type="static", position=(-2, 4))
    arm = world.create_body(position=(-1, 4))
    arm.create_capsule((-0.4, 0), (0.4, 0), 0.1)
    world.create_revolute_joint(pivot, arm, (-2, 4), enable_limit=True, lower_angle=-1.2,
                                upper_angle=1.2)
    bob = world.create_body(position=(-3, 3))
    bob.create_circle(0.2)
    world.create_distance_joint(pivot, bob, (-2, 4), (-3, 3))
    for _ in range(40):
        world.step(1 / 60)
    out[solver] = world.get_positions().tolist()
print(json.dumps(out))
"""


def test_the_engine_runs_without_the_jit_and_agrees_with_it():
    jit = json.loads(_run(TRAJECTORY).stdout)
    plain = json.loads(_run(TRAJECTORY, NUMBA_DISABLE_JIT="1").stdout)
    for solver in ("soft_step", "pgs", "pgs_ngs", "pgs_block"):
        # the same IEEE arithmetic in the same order (no fastmath), so agreement to rounding
        np.testing.assert_allclose(plain[solver], jit[solver], rtol=0, atol=1e-9)
        assert np.ptp(np.asarray(jit[solver])[:, 1]) > 0.5  # things moved: a real comparison


def test_a_solver_chosen_between_steps_is_the_one_the_next_step_runs():
    from impulse2d._dynamics import step, verbs

    world = i2d.World()
    world.create_body(position=(0, 1)).create_box(0.5, 0.5)
    world.step(1 / 60)
    assert world._verbs[verbs.SOLVER] == step.SOLVER_KERNELS["soft_step"].address()
    world.settings.solver = "pgs"
    world.step(1 / 60)
    assert world._verbs[verbs.SOLVER] == step.SOLVER_KERNELS["pgs"].address()
    # pgs integrates one velocity step of gravity (no substeps): v = g dt exactly
    world2 = i2d.World(solver="pgs")
    falling = world2.create_body(position=(0, 1))
    falling.create_box(0.5, 0.5)
    world2.step(1 / 60)
    assert falling.linear_velocity.y == pytest.approx(-10.0 / 60, rel=1e-12)


# -- compiling in several processes (_core/parallel.py) -----------------------------------------

class _Unit:
    def __init__(self, name, seconds):
        self.what, self.seconds = name, seconds

    def __repr__(self):
        return self.what


def test_the_compile_plan_puts_the_longest_units_on_the_least_loaded_process():
    from impulse2d._core.parallel import HELPER_START_SECONDS, plan

    pairs, solver, narrow = _Unit("pairs", 15.0), _Unit("solver", 6.0), _Unit("narrow", 5.0)
    # This process has the step to compile (9 s): the pair search goes to a helper (2 s start),
    # the rest stays here: 9 + 6 + 5 = 20 against 2 + 15 = 17.
    mine, helpers = plan([narrow, pairs, solver], 9.0, 2)
    assert HELPER_START_SECONDS == 2.0
    assert mine == [solver, narrow] and helpers == [[pairs]]
    # One process: everything here.
    assert plan([narrow, pairs, solver], 9.0, 1) == ([pairs, solver, narrow], [])
    # A helper's share under MIN_SHARE_SECONDS (3 s) is not worth its start.
    small = _Unit("small", 2.5)
    assert plan([small], 9.0, 2) == ([small], [])
    # Two joint types and nothing else to do here: one each.
    a, b = _Unit("a", 6.0), _Unit("b", 6.0)
    assert plan([a, b], 0.0, 2) == ([a], [[b]])


def test_the_compile_plan_keeps_a_group_of_units_in_one_process():
    from impulse2d._core.parallel import plan

    # The direct solver's two levels share their island solve: one process compiles both,
    # where alone the longest-first rule splits them (9 + 22 + 15 here against 2 + 32 + 5).
    velocity, accel = _Unit("velocity", 22.0), _Unit("accel", 32.0)
    pairs, narrow = _Unit("pairs", 15.0), _Unit("narrow", 5.0)
    units = [velocity, accel, pairs, narrow]
    assert plan(units, 9.0, 2) == ([velocity, pairs], [[accel, narrow]])
    mine, helpers = plan(units, 9.0, 2, together=[(velocity, accel)])
    # the group (54 s) is one item: to the helper (2 s start); the rest here (9 + 15 + 5)
    assert helpers == [[velocity, accel]] and mine == [pairs, narrow]
    # a member not to be compiled (already in the cache) is left out of the plan
    mine, helpers = plan([velocity, pairs, narrow], 9.0, 2, together=[(velocity, accel)])
    assert sorted(u.what for u in mine + sum(helpers, [])) == ["narrow", "pairs", "velocity"]
    # one process: everything here, the group included
    assert plan(units, 9.0, 1, together=[(velocity, accel)]) == (
        [velocity, accel, pairs, narrow], [])


def test_the_compile_plan_keeps_pinned_units_here_and_balances_the_rest_around_them():
    from impulse2d._core.parallel import plan

    # This process needs the pair search and the narrowphase for its own work (the batch's
    # world): they stay here with it (9 + 15 + 5 = 29), and the rest goes where the least
    # work is: the group (54 s) to the helper, the 6 s solver here (35 against 56).
    velocity, accel = _Unit("velocity", 22.0), _Unit("accel", 32.0)
    pairs, narrow, solver = _Unit("pairs", 15.0), _Unit("narrow", 5.0), _Unit("solver", 6.0)
    units = [velocity, accel, pairs, narrow, solver]
    mine, helpers = plan(units, 9.0, 2, together=[(velocity, accel)], pinned=[pairs, narrow])
    assert mine == [pairs, narrow, solver] and helpers == [[velocity, accel]]
    # a pinned unit takes its group along
    mine, helpers = plan(units, 9.0, 2, together=[(velocity, accel)], pinned=[accel])
    assert mine == [velocity, accel] and helpers == [[pairs, solver, narrow]]


def _fake_compiles(monkeypatch, processes=2):
    """``parallel`` with fake helpers (:func:`.parallel.compile_units` plans for ``processes``,
    no early helper, no later unit given yet), a unit class that must compile, and the list
    both write what happens to, in order."""
    from impulse2d._core import parallel

    order = []

    class Unit(_Unit):
        def must_compile(self):
            return True

        def address(self):
            order.append(self.what)
            return 1

    class Helper:
        def __init__(self, units):
            self.units, self.later = list(units), []
            order.append("helper started: " + ",".join(u.what for u in units))

        def add_later(self, units, ready):
            self.later.extend(units)
            order.append("later: " + ",".join(u.what for u in units))

        def deliver(self):
            order.append("helper delivered")

    monkeypatch.setattr(parallel, "PROCESSES", processes)
    monkeypatch.setattr(parallel, "_Helper", Helper)
    monkeypatch.setattr(parallel, "_EARLY", [])  # (no early helper of this session's)
    monkeypatch.setattr(parallel, "_LATER", {})
    monkeypatch.setattr(parallel.lazy, "JIT", True)
    return parallel, Unit, order


def test_compile_units_runs_this_process_work_after_its_units_and_before_the_helpers(
        monkeypatch):
    parallel, Unit, order = _fake_compiles(monkeypatch)
    pairs, solver, group = Unit("pairs", 15.0), Unit("solver", 6.0), Unit("group", 40.0)
    parallel.compile_units([pairs, solver, group], lambda: order.append("own"), 9.0 + 10.0,
                           pinned=[pairs], then=lambda: order.append("then"))
    assert order == ["helper started: group", "own", "pairs", "solver", "then",
                     "helper delivered", "pairs", "solver", "group"]


@pytest.mark.parametrize("processes", [2, 1])
def test_later_units_go_to_a_helper_after_the_rest_and_no_one_waits_for_them(monkeypatch,
                                                                              processes):
    """A later unit (one the first step does not call: ``step.LATER_SLOTS``) is sent to a
    helper after its other units and is neither compiled nor waited for here; with no helper
    (one process) it compiles here with the rest, as before."""
    parallel, Unit, order = _fake_compiles(monkeypatch, processes)
    pairs, solver, moved = Unit("pairs", 15.0), Unit("solver", 6.0), Unit("moved", 5.5)
    parallel.compile_units([pairs, solver], lambda: order.append("own"), 19.0, later=[moved],
                           ready=lambda unit: order.append("ready"))
    if processes == 1:
        assert order == ["own", "pairs", "solver", "moved", "pairs", "solver", "moved"]
        return
    assert order == ["helper started: pairs,solver", "later: moved", "own", "helper delivered",
                     "pairs", "solver"]
    assert list(parallel._LATER) == [id(moved)]
    # given once: a second world's plan does not send it again
    parallel.compile_units([pairs], None, 0.0, later=[moved])
    assert order.count("later: moved") == 1


LOADS = """
def loads(unit):
    # (loaded from the cache, compiled here) of a unit: Numba's cache hits, or its unit file
    # (_core/unit_cache.py: loaded without the dispatcher), and Numba's cache misses
    stats = unit.dispatcher.stats
    return (sum(stats.cache_hits.values()) + (unit._kept is not None),
            sum(stats.cache_misses.values()))
"""

PARALLEL_RUN = LOADS + """
import json
import impulse2d as i2d
from impulse2d._core import parallel
from impulse2d._dynamics import step
if FAILING_HELPER:
    parallel._HELPER = "import sys; sys.stderr.write('boom: no compiler'); sys.exit(3)"
world = i2d.World(solver="pgs")
ground = world.create_body(type="static")
ground.create_box(5, 0.5, center=(0, -0.5))
pivot = world.create_body(type="static", position=(0, 4))
bob = world.create_body(position=(1, 3))
bob.create_circle(0.2)
world.create_distance_joint(pivot, bob, (0, 4), (1, 3))
plank = world.create_body(position=(-1, 4))
plank.create_box(0.5, 0.1)
world.create_prismatic_joint(pivot, plank, (-0.5, 4), (1.0, 0.0))
for _ in range(30):
    world.step(1 / 60)
stats = {n: loads(step.JOINT_KERNELS[n]) for n in ("distance", "prismatic")}
print(json.dumps({"positions": world.get_positions().tolist(),
                  "angles": world.get_angles().tolist(), "stats": stats}))
"""


@pytest.fixture
def cache_without_two_joint_types(tmp_path):
    """A copy of the filled kernel cache without the distance and prismatic joint entries, as
    ``NUMBA_CACHE_DIR``: a world with those joints has exactly two units to compile, each
    estimated above a helper's minimum share (5.7 and 3.4 s: one each)."""
    from impulse2d._core import cache

    copy = tmp_path / "impulse2d"
    # (less the files another process is writing: their names end in .tmp.<uuid>)
    shutil.copytree(cache.cache_root(), copy, ignore=shutil.ignore_patterns("*.tmp.*"))
    removed = [p for p in (copy / "_dynamics").iterdir()
               if p.name.startswith(("joint_solver.distance_entry",
                                     "joint_solver.prismatic_entry"))]
    assert removed
    for path in removed:
        path.unlink()
    return str(tmp_path)


def _parallel_run(failing_helper=False, **env):
    code = f"FAILING_HELPER = {failing_helper}\n" + PARALLEL_RUN
    return _run(code, IMPULSE2D_QUIET=None, **env)


def test_two_units_compile_in_two_processes_and_give_the_same_bits(cache_without_two_joint_types):
    reference = json.loads(_parallel_run(IMPULSE2D_COMPILE_PROCESSES="1").stdout)
    assert reference["stats"] == {"distance": [1, 0], "prismatic": [1, 0]}  # both loaded
    shared = _parallel_run(NUMBA_CACHE_DIR=cache_without_two_joint_types,
                           IMPULSE2D_COMPILE_PROCESSES="2")
    result = json.loads(shared.stdout)
    # One entry compiled here (a cache miss), the other by the helper and loaded from the
    # files it delivered (a cache hit); the notice names the helper's.
    assert sorted(result["stats"].values()) == [[0, 1], [1, 0]]
    helper_unit = next(n for n, (hits, _) in result["stats"].items() if hits == 1)
    assert f"{helper_unit} joints in a second process" in shared.stderr
    assert result["positions"] == reference["positions"]  # bit for bit
    assert result["angles"] == reference["angles"]
    assert abs(result["positions"][2][1] - 3.0) > 0.01  # the bob swung: a real comparison
    # The next process loads both.
    again = json.loads(_parallel_run(NUMBA_CACHE_DIR=cache_without_two_joint_types).stdout)
    assert again["stats"] == {"distance": [1, 0], "prismatic": [1, 0]}


def test_a_failing_helper_costs_only_time(cache_without_two_joint_types):
    reference = json.loads(_parallel_run(IMPULSE2D_COMPILE_PROCESSES="1").stdout)
    alone = _parallel_run(failing_helper=True, NUMBA_CACHE_DIR=cache_without_two_joint_types,
                          IMPULSE2D_COMPILE_PROCESSES="2")
    result = json.loads(alone.stdout)
    assert result["stats"] == {"distance": [0, 1], "prismatic": [0, 1]}  # both compiled here
    # ... and said so (a helper that always failed used to double a first run's wait unseen)
    assert "a compile helper process failed (exit code 3: boom: no compiler)" in alone.stderr
    assert "RuntimeWarning" in alone.stderr
    assert result["positions"] == reference["positions"]
    assert result["angles"] == reference["angles"]


EARLY_RUN = LOADS + """
import json
import impulse2d as i2d
from impulse2d._dynamics import step, verbs
world = i2d.World()
ground = world.create_body(type="static")
ground.create_box(5, 0.5, center=(0, -0.5))   # the first compile: the mass properties
for k in range(3):
    world.create_body(position=(0.1 * k, 0.6 + 1.1 * k)).create_box(0.5, 0.5)
world.step(1 / 60)
stats = {name: loads(unit) for name, unit in (("pairs", step.STAGE_KERNELS[verbs.PAIRS]),
                                              ("collide", step.POLYGON_COLLIDE_KERNEL))}
for _ in range(60):
    world.step(1 / 60)
print(json.dumps({"positions": world.get_positions().tolist(), "stats": stats}))
"""


@pytest.fixture
def cache_without_the_stages(tmp_path):
    """A copy of the filled kernel cache without the mass properties (so that building a world
    compiles), the pair stage and the narrowphase of a world without circles, as
    ``NUMBA_CACHE_DIR``: both are the early helper's (``step.EARLY_UNITS``)."""
    from impulse2d._core import cache

    copy = tmp_path / "impulse2d"
    # (less the files another process is writing: their names end in .tmp.<uuid>)
    shutil.copytree(cache.cache_root(), copy, ignore=shutil.ignore_patterns("*.tmp.*"))
    removed = [p for folder, prefixes in (
        ("_collision", ("geometry.mass_properties-",)),
        ("_dynamics", ("pair_update.update_pairs-", "step.collide_polygons-")))
        for p in (copy / folder).iterdir() if p.name.startswith(prefixes)]
    assert len(removed) >= 6  # an index and a data file each
    for path in removed:
        path.unlink()
    return str(tmp_path)


def test_a_helper_starts_at_the_first_compile_and_the_first_step_loads_its_work(
        cache_without_the_stages):
    reference = json.loads(_run(EARLY_RUN).stdout)
    assert reference["stats"] == {"pairs": [1, 0], "collide": [1, 0]}
    early = _run(EARLY_RUN, NUMBA_CACHE_DIR=cache_without_the_stages,
                 IMPULSE2D_COMPILE_PROCESSES="2", IMPULSE2D_QUIET=None)
    result = json.loads(early.stdout)
    # The pair stage and the narrowphase compiled by the helper started while the world was
    # built, and loaded here from the files it delivered; the notice names them once, as a
    # second process's.
    assert result["stats"] == {"pairs": [1, 0], "collide": [1, 0]}, early.stderr
    assert early.stderr.count("the pair search, the narrowphase (polygons) in a second "
                              "process") == 1
    assert result["positions"] == reference["positions"]  # bit for bit
    # the boxes fell and settled on the ground: a real comparison
    assert max(abs(y - y0) for (_, y), y0 in zip(result["positions"][1:], (0.6, 1.7, 2.8))) > 0.05


LATER_RUN = LOADS + """
import json, time
import impulse2d as i2d
from impulse2d._dynamics import step, verbs
world = i2d.World()
ground = world.create_body(type="static")
ground.create_box(5, 0.5, center=(0, -0.5))
for k in range(6):
    world.create_body(position=(0.3 * (k % 2), 0.6 + 1.1 * k), angle=0.3 * k).create_box(0.5, 0.3)
unit = step.STAGE_KERNELS[verbs.MOVED_PAIRS]
world.step(1 / 60)
first = int(world._verbs[verbs.MOVED_PAIRS])
for _ in range(60):
    world.step(1 / 60)
t0 = time.monotonic()
while world._verbs[verbs.MOVED_PAIRS] == 0 and time.monotonic() - t0 < 500:
    time.sleep(0.05)
for _ in range(120):
    world.step(1 / 60)
print(json.dumps({"first": first, "slot": int(world._verbs[verbs.MOVED_PAIRS]),
                  "address": unit.compiled_address(),
                  "stats": loads(unit),
                  "positions": world.get_positions().tolist()}))
"""


def _cache_without_the_moved_search(tmp_path):
    from impulse2d._core import cache

    copy = tmp_path / "impulse2d"
    shutil.copytree(cache.cache_root(), copy, ignore=shutil.ignore_patterns("*.tmp.*"))
    removed = [p for p in (copy / "_dynamics").iterdir()
               if p.name.startswith("pair_update.moved_pairs_stage-")]
    assert len(removed) >= 2  # its index and data file
    for path in removed:
        path.unlink()
    return copy / "_dynamics"


def test_the_search_around_moved_boxes_is_compiled_while_the_world_steps(tmp_path):
    """A cold start's first step does not wait for the search around the moved boxes
    (``step.LATER_SLOTS``): a helper compiles it after the first step's units and this
    process loads it while the world steps, its slot 0 until then (the global search, the
    same pairs); the trajectory is the one with it all along, bit for bit, and the next process
    loads it from the cache."""
    reference = json.loads(_run(LATER_RUN).stdout)
    assert reference["first"] == reference["slot"] == reference["address"] != 0
    _cache_without_the_moved_search(tmp_path)
    later = _run(LATER_RUN, NUMBA_CACHE_DIR=str(tmp_path), IMPULSE2D_COMPILE_PROCESSES="2",
                 IMPULSE2D_QUIET=None)
    result = json.loads(later.stdout)
    assert result["first"] == 0  # the first step did not wait for it
    assert result["slot"] == result["address"] != 0  # delivered while the world stepped ...
    assert result["stats"] == [1, 0]  # ... from the helper's files: loaded, not compiled here
    assert "the pair search (moved boxes) in a second process, while it steps" in later.stderr
    assert result["positions"] == reference["positions"]  # bit for bit
    assert max(abs(y - 0.6 - 1.1 * k) for k, (_, y) in enumerate(result["positions"][1:])) > 0.5
    again = json.loads(_run(LATER_RUN, NUMBA_CACHE_DIR=str(tmp_path)).stdout)
    assert again["first"] != 0 and again["stats"] == [1, 0]  # the cache is whole


def test_a_run_that_ends_before_the_search_around_moved_boxes_leaves_it_to_its_helper(
        tmp_path):
    """A process that ends right after its first step does not wait for its later unit: the
    helper finishes it alone and puts it into the cache, and the next process loads it."""
    import time

    folder = _cache_without_the_moved_search(tmp_path)
    short = LATER_RUN.split("first = ")[0] + "print(int(world._verbs[verbs.MOVED_PAIRS]))\n"
    assert _run(short, NUMBA_CACHE_DIR=str(tmp_path),
                IMPULSE2D_COMPILE_PROCESSES="2").stdout.strip() == "0"
    t0 = time.monotonic()
    while (time.monotonic() - t0 < 500
           and not list(folder.glob("pair_update.moved_pairs_stage-*.nbi"))):
        time.sleep(0.2)  # (its data file is copied first, then the index)
    again = json.loads(_run(LATER_RUN, NUMBA_CACHE_DIR=str(tmp_path)).stdout)
    assert again["first"] != 0 and again["stats"] == [1, 0]  # loaded, not compiled


WARMUP_LEAVES = """
import json, impulse2d as i2d
from impulse2d._core import lazy
i2d.warmup(all_kernels=True, progress=False)
print(json.dumps(sorted(key for key, unit in lazy.REGISTRY.items()
                        if unit.compiled_address() == 0)))
"""


def test_warmup_all_compiles_every_unit_a_world_may_ask_for():
    """What ``warmup --all`` leaves to a world is the unit of a setting off by default (the
    solver diagnostics: :func:`impulse2d._warmup._compile_ahead`); Box2D 2.3's continuous
    rules, which every world of the pybox2d layer turns on, are compiled. In a fresh process
    (this one's earlier tests may have compiled the diagnostics), which loads from the cache
    the fixture filled."""
    from impulse2d._dynamics import step

    left = set(json.loads(_run(WARMUP_LEAVES).stdout.strip().splitlines()[-1]))
    assert left == {step.DIAGNOSTICS_KERNEL.key}


LAYER_ENVIRONMENTS = """
import json
from numba.core import event
compiled, depth = [], [0]


class Compiles(event.Listener):
    def on_start(self, ev):  # (the kernels compiled at the top: each one's callees inside it)
        if depth[0] == 0:
            f = ev.data["dispatcher"].py_func
            compiled.append(f"{f.__module__}.{f.__qualname__}")
        depth[0] += 1

    def on_end(self, ev):
        depth[0] -= 1


event.register("numba:compile", Compiles())
import impulse2d.compat.box2d as b2compat
b2compat.install()
import gymnasium as gym
steps = {}
for name in ("LunarLander-v3", "BipedalWalker-v3", "CarRacing-v3"):
    env = gym.make(name)
    env.action_space.seed(0)
    env.reset(seed=0)
    steps[name] = 0
    for _ in range(300):
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        steps[name] += 1
        if terminated or truncated:
            env.reset()
    env.close()
print(json.dumps({"compiled": compiled, "steps": steps}))
"""


LAYER_NOT_WARMED = {"impulse2d._dynamics.world_ref._constraints_of_ref"}
"""What the layer's environments may still compile after ``warmup --all``: the constraint
store read back from a step's reference, which BipedalWalker reaches and the warm-up's worlds
did not (0.7 s of CPU; BENCHMARKS.md, session 24, ``warmall49``)."""


def test_after_warmup_all_the_layers_gymnasium_environments_compile_no_kernel():
    """Issue 31 item 6: a process warmed up by ``warmup --all`` (the fixture, in this tree's
    cache) runs Gymnasium's three Box2D environments on the pybox2d layer, resets included,
    without compiling a kernel (``warmup --all`` steps the layer's worlds:
    :mod:`impulse2d.compat._b2warmup`) but :data:`LAYER_NOT_WARMED`; it compiled ten, 60 s of
    CPU, before."""
    pytest.importorskip("gymnasium")
    out = json.loads(_run(LAYER_ENVIRONMENTS).stdout.strip().splitlines()[-1])
    assert out["steps"] == {"LunarLander-v3": 300, "BipedalWalker-v3": 300,
                            "CarRacing-v3": 300}
    assert set(out["compiled"]) <= LAYER_NOT_WARMED
    assert len(out["compiled"]) <= len(LAYER_NOT_WARMED)


# -- what a warm process loads, and when ---------------------------------------------------------

PLANK_SHOT = """
import json, sys
import impulse2d as i2d
from impulse2d._dynamics import step, verbs
# a 5 cm ball that will be fired at 300 m/s at a free 4 cm plank; no gravity
world = i2d.World(gravity=(0.0, 0.0))
plank = world.create_body(position=(0.0, 0.0))
plank.create_box(0.02, 1.0)
ball = world.create_body(position=(-3.0, 0.3), bullet=True)
ball.create_circle(0.05, density=5.0)
world.step(1 / 60)  # nothing moves fast yet
slot = int(world._verbs[verbs.CONTINUOUS])
loaded = slot == step.CONTINUOUS_KERNEL.compiled_address() != 0
ball.linear_velocity = (300.0, 0.0)
for _ in range(30):
    world.step(1 / 60)
print(json.dumps({"loaded_before_fast": loaded,
                  "arraymath": "numba.np.arraymath" in sys.modules,
                  "scipy_linalg": "scipy.linalg" in sys.modules,
                  "patches": sorted(name for name in ("impulse2d._core.frontend",
                                                      "impulse2d._core.inliner",
                                                      "impulse2d._core.ir_text")
                                    if name in sys.modules),
                  "masses": [plank.mass, ball.mass],
                  "positions": world.get_positions().tolist(),
                  "velocities": world.get_velocities().tolist()}))
"""


def test_a_warm_process_loads_the_continuous_stage_before_a_body_is_fast():
    """The continuous stage, in the cache, is loaded by the first step of a world that may
    need it, not by the step where a body first moves fast (a 30-40 ms step of a warmed-up
    run); the bullet is then swept by the step kernel itself, with the same bits as in this
    test's process (which loaded every kernel up front), and stopped by the plank with the
    momentum kept."""
    out = json.loads(_run(PLANK_SHOT).stdout)
    assert out["loaded_before_fast"]
    here = {}
    exec(PLANK_SHOT.replace("print(json.dumps(", "here['out'] = (("), {"here": here})
    assert out["positions"] == here["out"]["positions"]
    assert out["velocities"] == here["out"]["velocities"]
    (plank_x, _), (ball_x, _) = out["positions"]
    assert ball_x < plank_x  # swept: still behind the plank
    plank_v, ball_v = out["velocities"][0][0], out["velocities"][1][0]
    plank_mass, ball_mass = out["masses"]
    assert ball_mass == pytest.approx(5.0 * np.pi * 0.05 ** 2, rel=1e-12)
    assert ball_mass * ball_v + plank_mass * plank_v == pytest.approx(ball_mass * 300.0,
                                                                      rel=1e-9)


def test_a_warm_first_step_imports_neither_numbas_array_math_nor_scipy_linalg():
    """Cached kernels hold functions of numba.np.arraymath (np.sort, np.argsort), whose import
    imports scipy.linalg (to look for a BLAS): about 160 modules, most of a warm first step.
    Their environments are rebuilt without the import (see _core/cache.py)."""
    out = json.loads(_run(PLANK_SHOT).stdout)
    assert not out["arraymath"] and not out["scipy_linalg"]


def test_a_warm_process_imports_no_patch_of_numbas_front_end():
    """The front end's patches (llvmlite's IR text's among them) and the inliner's are
    installed by the first compile, which imports them (:data:`.lazy.FIRST_COMPILE`): a warm
    process, which compiles nothing, never imports their modules."""
    assert json.loads(_run(PLANK_SHOT).stdout)["patches"] == []


def test_a_deferred_environment_gets_its_modules_globals_once_the_module_is_imported():
    import types

    from numba.core import environment

    from impulse2d._core import cache

    name = "numba._impulse2d_test_not_imported"
    assert name not in sys.modules
    env = cache._rebuild_env_deferred(name, [1.5], "_impulse2d_test_env")
    try:
        assert env.globals == {"__name__": name} and list(env.consts) == [1.5]
        assert env.can_cache()  # it pickles again under its module's name
        assert environment.lookup_environment("_impulse2d_test_env") is env
        module = types.ModuleType(name)
        module.answer = 42
        sys.modules[name] = module
        cache.fill_deferred_environments()
        assert env.globals["answer"] == 42
        assert all(placeholder is not env.globals for _, placeholder in cache._deferred)
    finally:
        sys.modules.pop(name, None)
        environment.Environment._memo.pop("_impulse2d_test_env", None)


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("0", ""),
                    reason="compiles a kernel")
def test_a_kernel_not_in_the_cache_is_left_to_the_step_that_needs_it(monkeypatch):
    """cached_address loads a kernel the cache holds, and compiles nothing otherwise (nor looks
    in the cache again in this process)."""
    import numba
    from numba import types

    from impulse2d._core import lazy

    def halve(x):
        return 0.5 * x

    unit = lazy.LazyKernel(numba.njit(halve), types.float64(types.float64), "a test", 1.0)
    try:
        looked = []
        monkeypatch.setattr(unit, "must_compile", lambda: looked.append(1) or True)
        assert unit.cached_address() == 0 and unit.cached_address() == 0
        assert looked == [1] and unit.dispatcher.signatures == []
        fresh = lazy.LazyKernel(numba.njit(halve), types.float64(types.float64), "a test", 1.0)
        monkeypatch.setattr(fresh, "must_compile", lambda: False)  # as if in the cache
        address = fresh.cached_address()
        assert address != 0 and address == fresh.compiled_address()
        assert fresh.dispatcher(3.0) == 1.5
    finally:
        lazy.REGISTRY.pop(unit.key, None)
