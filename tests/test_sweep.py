"""impulse2d.sweep: a physics sweep run locally (serially and on a process pool) and on a local
Ray cluster, with tables that must agree bit for bit; the grid's order; the checks at the
boundary; failures reported with their point; the table's columns and CSV."""

from __future__ import annotations

import csv
import io
import math
import pathlib
import random
import time

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d import sweep

G = 9.81
DT = 1.0 / 60.0


def drop(height, solver, seed):
    """A ball dropped from ``height`` (m, from its lowest point to the ground): the time until
    it first touches the ground (contact begin event), and the state's hash after the step it
    touched. ``seed`` places it (x) and sizes it (radius), and the global NumPy generator, which
    the sweep seeds from it, gives ``noise``."""
    rng = np.random.default_rng(seed)
    radius = 0.2 + 0.1 * rng.random()
    world = i2d.World(gravity=(0.0, -G), solver=solver, enable_contact_events=True)
    ground = world.create_body(type="static")
    ground.create_box(5.0, 0.5, center=(0.0, -0.5))
    ball = world.create_body(position=(rng.uniform(-1.0, 1.0), height + radius))
    ball.create_circle(radius)
    steps, vy_before = 0, 0.0
    while not world.contact_events().begin:
        vy_before = ball.linear_velocity.y
        world.step(DT)
        steps += 1
        assert steps < 600, "the ball never reached the ground"
    return {"fall_time": steps * DT, "impact_speed": -vy_before,
            "vy_after": ball.linear_velocity.y, "x": ball.position.x,
            "hash": world.state_hash(), "noise": float(np.random.random()),
            "py_noise": random.random()}


GRID = {"height": [0.5, 2.0, 4.5], "solver": ["soft_step", "pgs"]}
SEEDS = 2


def _bits(table):
    """The table with every float as its exact bits (float.hex tells -0.0 from 0.0)."""
    return [{k: (v.hex() if isinstance(v, float) else v) for k, v in row.items()} for row in table]


@pytest.fixture(scope="module")
def local_table():
    return sweep.run(drop, GRID, seeds=SEEDS, progress=False)


# -- the physics ---------------------------------------------------------------------------------

def test_fall_time_matches_free_fall(local_table):
    assert len(local_table) == 3 * 2 * SEEDS
    for row in local_table:
        exact = math.sqrt(2.0 * row["height"] / G)
        # the step is discrete: the ball reaches the ground during some step (semi-implicit
        # Euler runs a little ahead of the parabola, by g t dt / 2 in height), and a contact
        # that was not yet within the speculative margin (a few cm) at that step's collision
        # pass begins at the next one: the touch is seen at most two steps after the exact
        # time, and never a step before it
        assert -DT <= row["fall_time"] - exact <= 2 * DT, row
        # the speed it hit with (before the step that touched): sqrt(2 g h), within those two
        # steps' worth of gravity
        assert row["impact_speed"] == pytest.approx(math.sqrt(2.0 * G * row["height"]),
                                                    abs=2 * G * DT), row
        # the default restitution is 0: the step that touched took (nearly) all of that speed
        # (pgs's Baumgarte bias pushes the ball out of the ground at a few tenths of a m/s)
        assert abs(row["vy_after"]) < 0.1 * row["impact_speed"], row
    # higher drops take longer, and the times grow as sqrt(h): 4.5 m takes 3x as long as 0.5 m
    by_height = {}
    for row in local_table:
        by_height.setdefault(row["height"], set()).add(row["fall_time"])
    assert max(by_height[0.5]) < min(by_height[2.0]) and max(by_height[2.0]) < min(by_height[4.5])
    t_low, t_high = np.mean(list(by_height[0.5])), np.mean(list(by_height[4.5]))
    assert t_high / t_low == pytest.approx(3.0, abs=0.15)


def test_seed_places_the_ball_and_seeds_the_global_generators(local_table):
    for row in local_table:
        rng = np.random.default_rng(row["seed"])
        rng.random()
        assert row["x"] == pytest.approx(rng.uniform(-1.0, 1.0), abs=1e-12)  # falls straight
        legacy = np.random.RandomState(np.random.SeedSequence(row["seed"]).generate_state(4))
        assert row["noise"] == legacy.random()
        assert row["py_noise"] == random.Random(row["seed"]).random()
    hashes = {(row["height"], row["solver"], row["seed"]): row["hash"] for row in local_table}
    assert len(set(hashes.values())) == len(hashes)          # every point is its own world


def test_local_sweep_leaves_the_callers_random_streams_alone():
    np.random.seed(1234)
    random.seed(1234)
    expected_np, expected_py = np.random.RandomState(1234).random(), random.Random(1234).random()
    sweep.run(lambda seed: {"v": np.random.random()}, {"seed": [5, 6]}, progress=False)
    assert np.random.random() == expected_np
    assert random.random() == expected_py


def test_same_sweep_twice_is_identical(local_table):
    again = sweep.run(drop, GRID, seeds=SEEDS, progress=False)
    assert _bits(again) == _bits(local_table)


def test_process_pool_equals_serial(local_table):
    pooled = sweep.run(drop, GRID, seeds=SEEDS, workers=2, chunk_size=3, progress=False)
    assert _bits(pooled) == _bits(local_table)


# -- grid order ------------------------------------------------------------------------------------

def test_dict_grid_is_a_product_first_key_slowest():
    pts = sweep.points({"a": [1, 2], "b": ["x", "y", "z"]})
    assert pts == [{"a": 1, "b": "x"}, {"a": 1, "b": "y"}, {"a": 1, "b": "z"},
                   {"a": 2, "b": "x"}, {"a": 2, "b": "y"}, {"a": 2, "b": "z"}]
    # key order, not alphabetical order
    assert [tuple(p.values()) for p in sweep.points({"z": [0, 1], "a": [5]})] == [(0, 5), (1, 5)]


def test_seeds_are_the_innermost_loop():
    pts = sweep.points({"a": [1, 2]}, seeds=[7, 3])
    assert pts == [{"a": 1, "seed": 7}, {"a": 1, "seed": 3}, {"a": 2, "seed": 7},
                   {"a": 2, "seed": 3}]
    assert [p["seed"] for p in sweep.points({"a": [0]}, seeds=3)] == [0, 1, 2]


def test_list_grid_keeps_its_order_and_may_differ_in_keys():
    grid = [{"b": 2}, {"a": 1, "b": 0}, {"b": 1}]
    pts = sweep.points(grid)
    assert pts == grid and all(p is not q for p, q in zip(pts, grid))
    table = sweep.run(lambda b, a=10: {"s": a + b}, grid, progress=False)
    assert [row["s"] for row in table] == [12, 1, 11]
    cols = sweep.columns(table)
    assert cols == {"b": [2, 0, 1], "s": [12, 1, 11], "a": [None, 1, None]}


def test_array_and_range_values_become_python_scalars():
    pts = sweep.points({"h": np.array([0.5, 1.0]), "n": range(2)})
    assert pts == [{"h": 0.5, "n": 0}, {"h": 0.5, "n": 1}, {"h": 1.0, "n": 0},
                   {"h": 1.0, "n": 1}]
    assert all(type(p["h"]) is float for p in pts)


def test_rows_come_back_in_grid_order_whatever_finishes_first():
    # later points finish first on the pool (the first chunk sleeps): the table is in grid order
    table = sweep.run(_slow_first, {"i": list(range(6))}, workers=2, chunk_size=1,
                      progress=False)
    assert [row["i"] for row in table] == list(range(6))
    assert [row["square"] for row in table] == [0, 1, 4, 9, 16, 25]


def _slow_first(i):
    import time
    if i == 0:
        time.sleep(1.0)
    return {"square": i * i}


# -- the checks at the boundary --------------------------------------------------------------

@pytest.mark.parametrize("grid, error, words", [
    ({}, ValueError, "grid is empty"),
    ([], ValueError, "empty list"),
    ({"h": []}, ValueError, "grid['h'] is an empty list"),
    ({"solver": "pgs"}, TypeError, "write ['pgs']"),
    ({"h": 1.0}, TypeError, "grid['h'] must be a list"),
    ({"h": {1.0, 2.0}}, TypeError, "has no order"),
    ({"h": np.zeros((2, 2))}, ValueError, "one-dimensional"),
    ({1: [1, 2]}, TypeError, "keys must be strings"),
    ([{"h": 1}, 5], TypeError, "grid[1] must be a dict"),
    ([{("h",): 1}], TypeError, "keys must be strings"),
    ("h=1", TypeError, "grid must be a dict of lists"),
    ({"seed": [-1]}, ValueError, "must be >= 0"),
    ({"seed": [1.5]}, TypeError, "must be an int"),
    ({"seed": [True]}, TypeError, "must be an int"),
])
def test_bad_grids_are_refused_before_anything_runs(grid, error, words):
    calls = []
    with pytest.raises(error, match=None) as info:
        sweep.run(lambda **point: calls.append(point) or {"ok": 1}, grid, progress=False)
    assert words in str(info.value)
    assert calls == []


@pytest.mark.parametrize("seeds, error, words", [
    (0, ValueError, "count >= 1"),
    ([], ValueError, "seeds is empty"),
    ([1, 1], ValueError, "repeats"),
    ([1, -2], ValueError, "seeds[1] must be >= 0"),
    ("12", TypeError, "count or a list"),
])
def test_bad_seeds_are_refused(seeds, error, words):
    with pytest.raises(error) as info:
        sweep.points({"a": [1]}, seeds=seeds)
    assert words in str(info.value)


def test_seeds_and_a_seed_key_clash():
    with pytest.raises(ValueError, match="already has a 'seed'"):
        sweep.points({"seed": [1]}, seeds=2)


@pytest.mark.parametrize("kwargs, error, words", [
    ({"backend": "dask"}, ValueError, "backend must be one of"),
    ({"workers": 0}, ValueError, "workers must be >= 1"),
    ({"workers": 2.0}, TypeError, "workers must be an int"),
    ({"chunk_size": 0}, ValueError, "chunk_size must be >= 1"),
    ({"num_cpus": 2}, ValueError, "apply to backend='ray'"),
    ({"ray_address": "auto"}, ValueError, "apply to backend='ray'"),
    ({"ray_init_args": {}}, ValueError, "ray_init_args apply to backend='ray'"),
    ({"backend": "ray", "ray_init_args": 1}, TypeError, "ray_init_args must be a dict"),
    ({"backend": "ray", "workers": 2}, ValueError, "workers applies to backend='local'"),
    ({"backend": "ray", "task_cpus": 0}, ValueError, "task_cpus must be > 0"),
    ({"backend": "ray", "ray_remote_args": [1]}, TypeError, "ray_remote_args must be a dict"),
])
def test_bad_options_are_refused(kwargs, error, words):
    with pytest.raises(error) as info:
        sweep.run(lambda a: {"b": a}, {"a": [1]}, progress=False, **kwargs)
    assert words in str(info.value)


def test_fn_must_be_callable():
    with pytest.raises(TypeError, match="fn must be callable"):
        sweep.run({"a": 1}, {"a": [1]}, progress=False)


def test_a_point_that_does_not_fit_fn_is_refused_before_anything_runs():
    calls = []

    def fn(height, solver):
        calls.append(height)
        return {"t": height}

    with pytest.raises(TypeError, match=r"point #0 \{'hieght': 1.0.*does not fit fn\(height, "
                                        r"solver\)"):
        sweep.run(fn, {"hieght": [1.0], "solver": ["pgs"]}, progress=False)
    assert calls == []


@pytest.mark.parametrize("results, words", [
    ([1.0], "fn returned list at point #1"),
    ({"a": 2}, "also a key of the point"),
    ({3: 2}, "result names must be strings"),
])
def test_results_that_are_not_a_row_are_refused(results, words):
    def fn(a):
        return {"ok": a} if a == 0 else results
    with pytest.raises(sweep.SweepError) as info:
        sweep.run(fn, {"a": [0, 1]}, progress=False)
    assert words in str(info.value)
    assert info.value.point == {"a": 1} and info.value.index == 1


# -- failures --------------------------------------------------------------------------------------

def _fails_at_two(height):
    if height == 2.0:
        raise ValueError(f"no ground at {height} m")
    return {"t": math.sqrt(2 * height / G)}


def test_an_error_in_fn_is_raised_with_its_point():
    with pytest.raises(sweep.SweepError) as info:
        sweep.run(_fails_at_two, {"height": [1.0, 2.0, 3.0]}, progress=False)
    error = info.value
    assert error.point == {"height": 2.0} and error.index == 1
    assert isinstance(error.__cause__, ValueError) and "no ground at 2.0 m" in str(error)
    assert "point #1 {'height': 2.0}" in str(error) and error.remote_traceback is None


def test_an_error_on_the_pool_is_raised_with_its_point_and_traceback():
    with pytest.raises(sweep.SweepError) as info:
        sweep.run(_fails_at_two, {"height": [1.0, 2.0, 3.0]}, workers=2, chunk_size=1,
                  progress=False)
    error = info.value
    assert error.point == {"height": 2.0} and error.index == 1
    assert isinstance(error.__cause__, ValueError)
    assert "_fails_at_two" in error.remote_traceback and "no ground at 2.0 m" in str(error)


def test_progress_bar_counts_the_points(capsys):
    pytest.importorskip("tqdm")
    sweep.run(lambda a: {"b": a}, {"a": [1, 2, 3]}, desc="drops")
    err = capsys.readouterr().err
    assert "drops" in err and "3/3" in err


def test_missing_extras_name_the_install(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "tqdm", None)        # as if tqdm were not installed
    with pytest.raises(ImportError, match=r"pip install 'impulse2d\[sweep\]'.*progress=False"):
        sweep.run(lambda a: {"b": a}, {"a": [1]})
    assert sweep.run(lambda a: {"b": a}, {"a": [1]}, progress=False) == [{"a": 1, "b": 1}]
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError,
                       match=r"backend='ray' needs Ray: pip install 'impulse2d\[sweep\]'"):
        sweep.run(lambda a: {"b": a}, {"a": [1]}, "ray", progress=False)


# -- the table -------------------------------------------------------------------------------------

def test_columns_and_csv_round_trip_exactly(local_table, tmp_path):
    cols = sweep.columns(local_table)
    assert list(cols) == ["height", "solver", "seed", "fall_time", "impact_speed", "vy_after", "x",
                          "hash", "noise", "py_noise"]
    assert cols["fall_time"] == [row["fall_time"] for row in local_table]
    path = tmp_path / "drops.csv"
    sweep.write_csv(local_table, path)
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(local_table)
    for row, read in zip(local_table, rows):
        assert float(read["fall_time"]) == row["fall_time"]      # exact, not approximately
        assert float(read["vy_after"]) == row["vy_after"] and read["hash"] == row["hash"]
        assert int(read["seed"]) == row["seed"] and read["solver"] == row["solver"]


def test_csv_writes_none_bools_and_numpy_scalars_and_refuses_arrays():
    out = io.StringIO()
    sweep.write_csv([{"a": np.float32(0.5), "b": True, "c": None, "d": np.int64(3)}], out)
    assert out.getvalue() == "a,b,c,d\n0.5,True,,3\n"
    out = io.StringIO()
    with pytest.raises(TypeError, match=r"table\[1\]\['v'\] is ndarray"):
        sweep.write_csv([{"v": 1.0}, {"v": np.zeros(3)}], out)
    assert out.getvalue() == ""
    with pytest.raises(TypeError, match="list of row dicts"):
        sweep.columns({"a": [1]})


# -- Ray -------------------------------------------------------------------------------------------
# The first test lets sweep.run start its own local cluster and checks that it is shut down
# after; the others share one cluster started by the module's fixture (ray.init takes several
# seconds), and a sweep on an already initialized Ray leaves it running.

def test_ray_sweep_on_a_cluster_it_starts_equals_the_local_one(local_table):
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("Ray was initialized by another test: this one needs it stopped")
    table = sweep.run(drop, GRID, "ray", seeds=SEEDS, num_cpus=2, progress=False)
    assert _bits(table) == _bits(local_table)
    assert not ray.is_initialized()             # it started the cluster, so it stopped it


@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False)
    yield ray
    ray.shutdown()


def test_ray_sweep_equals_the_local_one_bit_for_bit(ray_cluster, local_table):
    # one point per task, and all in one task: chunking does not change a value
    for chunk_size in (1, len(local_table)):
        table = sweep.run(drop, GRID, "ray", seeds=SEEDS, chunk_size=chunk_size, progress=False)
        assert _bits(table) == _bits(local_table)
    assert ray_cluster.is_initialized()         # not the sweep's to stop


def test_ray_sweep_runs_closures_and_returns_writable_arrays(ray_cluster):
    scale = 3.0
    table = sweep.run(lambda n: {"v": np.arange(n) * scale}, {"n": [2, 4]}, "ray",
                      progress=False)
    np.testing.assert_array_equal(table[1]["v"], [0.0, 3.0, 6.0, 9.0])
    table[1]["v"][0] = 1.0                       # not a read-only view of Ray's object store


def test_ray_sweep_runs_partials_of_this_files_functions(ray_cluster, local_table):
    # a partial of a function of this test file (which Ray's workers cannot import): it travels
    # by value too
    import functools
    pts = [{"height": row["height"], "seed": row["seed"]} for row in local_table
           if row["solver"] == "pgs"]
    table = sweep.run(functools.partial(drop, solver="pgs"), pts, "ray", progress=False)
    expected = [row for row in local_table if row["solver"] == "pgs"]
    assert [r["hash"] for r in table] == [r["hash"] for r in expected]


def test_ray_error_is_raised_with_its_point_and_remote_traceback(ray_cluster):
    with pytest.raises(sweep.SweepError) as info:
        sweep.run(_fails_at_two, {"height": [1.0, 2.0, 3.0]}, "ray", chunk_size=1,
                  progress=False)
    error = info.value
    assert error.point == {"height": 2.0} and error.index == 1
    assert isinstance(error.__cause__, ValueError)
    assert "_fails_at_two" in error.remote_traceback


def _marks_then_fails_at_one(index, folder):
    pathlib.Path(folder, f"{index}.ran").touch()
    if index == 1:
        raise ValueError("point 1 fails")
    return {"i": index}


def test_ray_error_submits_no_more_chunks_and_cancels_nothing(ray_cluster, tmp_path, monkeypatch):
    # after a failure nothing more is submitted, and nothing is cancelled: ray.cancel can race a
    # finishing task and kill this process. Of 40 one-point chunks on 2 CPU slots, with 4 in
    # flight, only the first few ever run (the 4 submitted and the 1-2 submitted as the first
    # finish: at most 12 allows for a slow first task)
    cancelled = []
    monkeypatch.setattr(ray_cluster, "cancel", lambda *a, **k: cancelled.append(a))
    with pytest.raises(sweep.SweepError) as info:
        sweep.run(_marks_then_fails_at_one, {"index": list(range(40)), "folder": [str(tmp_path)]},
                  "ray", chunk_size=1, progress=False)
    assert info.value.index == 1
    time.sleep(1.0)                                  # the chunks in flight finish
    ran = sorted(int(p.stem) for p in tmp_path.glob("*.ran"))
    assert ran[:2] == [0, 1] and len(ran) <= 12, ran
    assert cancelled == []


def test_ray_options_for_an_initialized_ray_are_refused(ray_cluster):
    with pytest.raises(ValueError, match="already initialized"):
        sweep.run(lambda a: {"b": a}, {"a": [1]}, "ray", num_cpus=2, progress=False)
