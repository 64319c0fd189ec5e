"""The units' files (``_core/unit_cache.py``): a unit whose address was found the ordinary way
(compiled, or loaded by Numba) is written beside Numba's files of its kernel; the next process
loads it from there without making its dispatcher, and steps the same bits; a file that is
damaged or stale (another source stamp) is left to Numba, and written anew."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import impulse2d as i2d
from impulse2d._core import cache, unit_cache
from impulse2d._dynamics import step

SRC = str(Path(i2d.__file__).resolve().parents[1])

# A pyramid of 15 boxes and a bullet fired at it, 90 steps: every unit of a contact world's
# step, the continuous stage among them. Reports the state hash, and for each unit the step
# used whether its address came from its unit file and whether its dispatcher was made.
RUN = """
import json
import impulse2d as i2d
from impulse2d._core import lazy, unit_cache
from impulse2d.scenes import build_scene
world = i2d.World()
build_scene(world, "pyramid", base=5)
bullet = world.create_body(position=(-6.0, 1.0), bullet=True)
bullet.create_circle(0.1, density=5.0)
bullet.linear_velocity = (120.0, 0.0)
for _ in range(90):
    world.step(1.0 / 60.0)
units = {key: {"from_file": unit._kept is not None,
               "dispatcher": unit_cache._made(unit.dispatcher)}
         for key, unit in lazy.REGISTRY.items() if unit.compiled_address()}
print(json.dumps({"hash": world.state_hash(), "units": units}))
"""


def _copy_without(tmp_path, suffix: str):
    """A copy of this tree's kernel cache under a ``NUMBA_CACHE_DIR`` of its own (``tmp_path``),
    without any file ending in ``suffix``."""
    shutil.copytree(cache.cache_root(), tmp_path / "impulse2d",
                    ignore=shutil.ignore_patterns("*.later", cache.LOCK_NAME, f"*{suffix}"))
    return tmp_path


@pytest.fixture
def cache_copy(tmp_path):
    """A copy of the kernel cache without any unit file."""
    return _copy_without(tmp_path, unit_cache.SUFFIX)


def _run(cache_dir, script: str = RUN) -> dict:
    env = {**os.environ, "PYTHONPATH": SRC, "NUMBA_CACHE_DIR": str(cache_dir),
           "IMPULSE2D_QUIET": "1"}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env=env, timeout=1200)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def _spoil(damaged: Path, stale: Path) -> tuple:
    """Overwrite ``damaged`` with bytes no file holds and give ``stale`` another source's stamp;
    the header ``stale`` had."""
    damaged.write_bytes(b"not a unit file")
    with open(stale, "rb") as f:
        header = pickle.load(f)
        payload = f.read()  # (the payload's pickle, after the header's)
    assert header[0] == unit_cache.FORMAT
    with open(stale, "wb") as f:  # the file of another source
        pickle.dump((header[0], "0" * 64, *header[2:]), f)
        f.write(payload)
    return header


def _unit_files(cache_dir) -> dict:
    return {p.name: p for p in Path(cache_dir).rglob(f"*{unit_cache.SUFFIX}")}


def test_a_unit_is_loaded_from_its_file_without_its_dispatcher_and_steps_the_same_bits(cache_copy):
    first = _run(cache_copy)
    used = first["units"]
    assert {step.STAGE_KERNELS[step.COLLIDE].key, step.CONTINUOUS_KERNEL.key} <= set(used)
    assert not any(u["from_file"] for u in used.values())  # (no unit file yet: Numba's way)
    assert all(u["dispatcher"] for u in used.values())
    files = _unit_files(cache_copy)
    assert len(files) == len(used)  # one written for each unit used

    second = _run(cache_copy)
    assert set(second["units"]) == set(used)
    assert all(u["from_file"] and not u["dispatcher"] for u in second["units"].values())
    assert second["hash"] == first["hash"]
    assert {name: p.stat().st_mtime_ns for name, p in _unit_files(cache_copy).items()} == {
        name: p.stat().st_mtime_ns for name, p in files.items()}  # read, not written again


def test_a_damaged_or_stale_unit_file_is_left_to_numba_and_written_anew(cache_copy):
    first = _run(cache_copy)
    files = _unit_files(cache_copy)
    collide = next(p for name, p in files.items() if name.startswith("step.collide-"))
    continuous = next(p for name, p in files.items()
                      if name.startswith("continuous.solve_continuous-"))
    header = _spoil(collide, continuous)

    again = _run(cache_copy)
    assert again["hash"] == first["hash"]
    for key, unit in again["units"].items():
        stale = key in (step.STAGE_KERNELS[step.COLLIDE].key, step.CONTINUOUS_KERNEL.key)
        assert unit["from_file"] is not stale and unit["dispatcher"] is stale, key
    assert collide.read_bytes() != b"not a unit file"
    with open(continuous, "rb") as f:
        assert pickle.load(f)[1] == header[1]  # this source's stamp again

    last = _run(cache_copy)
    assert all(u["from_file"] for u in last["units"].values()) and last["hash"] == first["hash"]


def test_no_unit_file_for_a_kernel_whose_dispatcher_is_made_or_without_the_cache(monkeypatch):
    from impulse2d._core import jit
    narrowphase = step.STAGE_KERNELS[step.COLLIDE]
    # the narrowphase as a unit not loaded in this process (whatever this process has done)
    unit = SimpleNamespace(dispatcher=narrowphase.dispatcher, signature=narrowphase.signature,
                           _address=None, _pending=None, _kept=None)
    assert unit_cache._where(unit.dispatcher)[0].endswith(unit_cache.SUFFIX)
    monkeypatch.setattr(jit, "CACHE", False)
    assert not unit_cache.readable(unit) and unit_cache.load(unit) is None
    monkeypatch.setattr(jit, "CACHE", True)
    monkeypatch.setattr(unit.dispatcher, "_dispatcher", object())  # as if made
    assert not unit_cache.readable(unit) and unit_cache.load(unit) is None
    assert unit._address is None and unit._kept is None


# The continuous stage loaded from its unit file by the first step, then run by Python through
# its dispatcher (what a step does that finds the stage's slot empty: ``_continuous_first``),
# which then loads Numba's own copy of the same code beside it; both copies run, and the
# world's bits are those of a process where Numba loaded the one copy.
RUN_BOTH_COPIES = """
import json
import impulse2d as i2d
from impulse2d import _stepping
from impulse2d._dynamics import step
world = i2d.World()
ground = world.create_body(type="static")
ground.create_box(8.0, 0.5, center=(0.0, -0.5))
bullet = world.create_body(position=(0.0, 6.0), bullet=True)
bullet.create_circle(0.1, density=5.0)
bullet.linear_velocity = (0.0, -300.0)
world.step(1.0 / 60.0)
kernel = step.CONTINUOUS_KERNEL
from_file = kernel._kept is not None
_, stores = _stepping._ready(world, 1.0 / 60.0, world._settings._derived)
_stepping._continuous_first(world, stores)
for _ in range(30):
    world.step(1.0 / 60.0)
print(json.dumps({"hash": world.state_hash(), "from_file": from_file,
                  "dispatcher_overloads": len(kernel.dispatcher.overloads),
                  "y": world.bodies[1].position[1]}))
"""


def test_a_unit_from_its_file_and_numba_s_copy_of_it_run_side_by_side(cache_copy):
    env = {**os.environ, "PYTHONPATH": SRC, "NUMBA_CACHE_DIR": str(cache_copy),
           "IMPULSE2D_QUIET": "1"}

    def run() -> dict:
        result = subprocess.run([sys.executable, "-c", RUN_BOTH_COPIES], capture_output=True,
                                text=True, env=env, timeout=1200)
        assert result.returncode == 0, result.stderr[-3000:]
        return json.loads(result.stdout.strip().splitlines()[-1])

    numba_only = run()  # (no unit file yet: it writes them)
    both = run()
    assert not numba_only["from_file"] and both["from_file"]
    assert numba_only["dispatcher_overloads"] == both["dispatcher_overloads"] == 1
    assert both["hash"] == numba_only["hash"]
    assert 0.0 < both["y"] < 0.2  # the bullet stopped on the ground (its top at y = 0)


# The two kernels Python calls through ``DirectCall`` in every world's first step (the step
# kernel, the stores' constructor): their entry points from their entry files
# (``unit_cache.load_entry``), without their dispatchers.
RUN_ENTRIES = """
import json
import impulse2d as i2d
from impulse2d._core import unit_cache
from impulse2d._dynamics import step, world_ref
from impulse2d.scenes import build_scene
world = i2d.World()
build_scene(world, "pyramid", base=5)
for _ in range(60):
    world.step(1.0 / 60.0)
print(json.dumps({"hash": world.state_hash(),
                  "made": [unit_cache._made(k) for k in (step.step_kernel,
                                                         world_ref._new_stores_ref)],
                  "prepared": step._step.prepared, "native": step._step.native != 0}))
"""


def _run_entries(cache_dir) -> dict:
    return _run(cache_dir, RUN_ENTRIES)


@pytest.fixture
def cache_without_entries(tmp_path):
    """A copy of the kernel cache without any entry file."""
    return _copy_without(tmp_path, unit_cache.ENTRY_SUFFIX)


def _entry_files(cache_dir) -> dict:
    return {p.name.split("-")[0]: p for p in Path(cache_dir).rglob(f"*{unit_cache.ENTRY_SUFFIX}")}


def test_python_s_entry_points_load_from_their_files_without_dispatchers_same_bits(
        cache_without_entries):
    first = _run_entries(cache_without_entries)
    assert first["made"] == [True, True] and first["prepared"]  # Numba's way: no file yet
    assert first["native"]  # (the kernel's own code, for the usual step: _step_entry)
    files = _entry_files(cache_without_entries)
    assert {"step.step_kernel", "world_ref._new_stores_ref"} <= set(files)
    written = {name: p.stat().st_mtime_ns for name, p in files.items()}

    second = _run_entries(cache_without_entries)
    assert second["made"] == [False, False] and second["prepared"] and second["native"]
    assert second["hash"] == first["hash"]
    assert {name: p.stat().st_mtime_ns
            for name, p in _entry_files(cache_without_entries).items()} == written  # read only


def test_a_damaged_or_stale_entry_file_is_left_to_numba_and_written_anew(cache_without_entries):
    first = _run_entries(cache_without_entries)
    files = _entry_files(cache_without_entries)
    step_file, stores_file = files["step.step_kernel"], files["world_ref._new_stores_ref"]
    header = _spoil(step_file, stores_file)

    again = _run_entries(cache_without_entries)
    assert again["made"] == [True, True] and again["hash"] == first["hash"]
    assert step_file.read_bytes() != b"not a unit file"
    with open(stores_file, "rb") as f:
        assert pickle.load(f) == header  # this source's stamp again

    last = _run_entries(cache_without_entries)
    assert last["made"] == [False, False] and last["hash"] == first["hash"]


def test_no_entry_file_read_without_the_cache_nor_for_other_types_or_a_made_dispatcher(
        monkeypatch):
    from numba.core import types
    from impulse2d._core import jit
    from impulse2d._dynamics import world_ref
    kernel = world_ref._new_stores_ref
    path = unit_cache._where(kernel, unit_cache.ENTRY_SUFFIX)[0]
    assert path.endswith(unit_cache.ENTRY_SUFFIX)
    reads = []
    monkeypatch.setattr(unit_cache, "_read_file", lambda p: reads.append(p))
    monkeypatch.setattr(unit_cache, "_made", lambda d: False)  # (whatever this process made)
    monkeypatch.setattr(jit, "CACHE", False)
    assert unit_cache.load_entry(kernel, (types.int64,)) is None
    assert not unit_cache.entry_readable(kernel) and reads == []
    monkeypatch.setattr(jit, "CACHE", True)
    monkeypatch.setattr(unit_cache, "_made", lambda d: True)  # as if made
    assert unit_cache.load_entry(kernel, (types.int64,)) is None and reads == []
    monkeypatch.undo()
    # a file of other argument types than the call's: Numba's way (its code not loaded)
    monkeypatch.setattr(unit_cache, "_made", lambda d: False)
    stamp = unit_cache._where(kernel, unit_cache.ENTRY_SUFFIX)[1]
    header = unit_cache._header(stamp, str((types.int64,)), unit_cache._target_context().codegen())
    monkeypatch.setattr(unit_cache, "_read_file", lambda p: (header, b"not loaded"))
    monkeypatch.setattr(unit_cache, "_load_code", lambda payload: reads.append(payload))
    assert unit_cache.entry_readable(kernel)
    assert unit_cache.load_entry(kernel, (types.float64,)) is None and reads == []


NO_BITCODE = """
import json
import impulse2d as i2d
from impulse2d._core import lazy
from impulse2d.scenes import build_scene
world = i2d.World()
build_scene(world, "pyramid", base=4)
world.step(1.0 / 60.0)
refused = []
for unit in lazy.REGISTRY.values():
    if unit._kept is not None:
        library = unit._kept[0]
        try:
            library._get_module_for_linking()
        except RuntimeError as exc:
            refused.append([library._shared_bitcode is None, "unfit for linking" in str(exc)])
print(json.dumps({"refused": refused, "hash": world.state_hash()}))
"""


def test_a_unit_file_holds_no_bitcode_and_its_library_refuses_to_be_linked(cache_copy):
    first = _run(cache_copy, NO_BITCODE)  # (writes the unit files: Numba's way)
    assert first["refused"] == []
    second = _run(cache_copy, NO_BITCODE)
    assert len(second["refused"]) >= 5 and all(r == [True, True] for r in second["refused"])
    assert second["hash"] == first["hash"]
