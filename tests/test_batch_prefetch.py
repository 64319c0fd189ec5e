"""The batch kernel's prefetch of the worlds ahead
(:func:`impulse2d._dynamics.batch_step.step_batch`): the reference it asks for two and three
worlds ahead is each world's own allocation (its header, then its payload), read from the
batch's list without taking a reference. A prefetch reads and writes no value, so the step's
bits are the worlds' own (``tests/test_batch.py``)."""

from __future__ import annotations

import numba
import numpy as np
import pytest

import impulse2d as i2d
from impulse2d._dynamics import batch_step

from conftest import batch_world

pytestmark = pytest.mark.skipif(numba.config.DISABLE_JIT,
                                reason="the addresses are compiled code's (no JIT: no prefetch)")


@numba.njit
def _spans(refs):
    """Each reference's header address, payload end and the span of its joint store's
    descriptors in the payload, as the batch kernel finds them."""
    out = np.empty((len(refs), 4), dtype=np.int64)
    for k in range(len(refs)):
        head = batch_step._reference_head(refs, k)
        out[k, 0] = head
        out[k, 1] = batch_step._reference_end(head)
        out[k, 2], out[k, 3] = batch_step._descriptors_span(head, "joints")
    return out


def test_the_references_ahead_are_the_worlds_own_and_no_reference_is_taken():
    batch = i2d.WorldBatch.replicate(batch_world(0), 5, threads=1)
    batch.step(1.0 / 60.0)
    refs = batch._state.current_refs()
    proxies = [w._stores for w in batch.worlds]
    counts = [p._meminfo.refcount for p in proxies]
    spans = _spans(refs)
    data = np.array([p._meminfo.data for p in proxies], dtype=np.int64)
    # one allocation a reference: its header (NRT's MemInfo, 40 bytes), then its payload
    assert np.all(data > spans[:, 0]) and np.all(data - spans[:, 0] <= 64)
    sizes = spans[:, 1] - data
    assert np.all(sizes == sizes[0])
    assert sizes[0] >= 56 * 150  # (the stores' descriptors: ~170 arrays of 56-72 bytes)
    assert len(set(spans[:, 0].tolist())) == len(proxies)
    assert [p._meminfo.refcount for p in proxies] == counts


@numba.njit
def _settings_of_each(refs):
    """The address of each world's step row, each world read by ``_world_at`` (counted here,
    in a counting kernel, as Numba's ``getitem`` counts its item)."""
    out = np.empty(len(refs), dtype=np.int64)
    for k in range(len(refs)):
        world = batch_step._world_at(refs, k)
        out[k] = batch_step.borrow(world, "settings").ctypes.data
    return out


def test_a_world_read_from_the_list_is_its_own_and_its_count_is_given_back():
    batch = i2d.WorldBatch.replicate(batch_world(0), 4, threads=1)
    batch.step(1.0 / 60.0)
    refs = batch._state.current_refs()
    proxies = [w._stores for w in batch.worlds]
    counts = [p._meminfo.refcount for p in proxies]
    found = _settings_of_each(refs)
    assert found.tolist() == [w._step_settings.ctypes.data for w in batch.worlds]
    assert [p._meminfo.refcount for p in proxies] == counts


def test_the_reference_prefetch_leaves_out_exactly_the_joint_stores_descriptors():
    from impulse2d._core.state import Joints
    batch = i2d.WorldBatch.replicate(batch_world(0), 3, threads=1)
    batch.step(1.0 / 60.0)
    spans = _spans(batch._state.current_refs())[:, [2, 3, 1]]  # joints' first, end; payload end
    data = np.array([w._stores._meminfo.data for w in batch.worlds], dtype=np.int64)
    joints = batch.worlds[0]._joints
    # a Numba array's descriptor: meminfo, parent, nitems, itemsize, data, then its shape and
    # strides (one word each per dimension), 8 bytes a word
    size = sum(8 * (5 + 2 * column.ndim) for column in joints)
    assert len(joints) == len(Joints._fields) >= 50
    assert np.all(spans[:, 1] - spans[:, 0] == size)
    assert np.all(spans[:, 0] > data) and np.all(spans[:, 1] < spans[:, 2])


@numba.njit
def _described(refs, k):
    """World ``k``'s words that the prefetch reads for each row of its table (data, length,
    stride), and the size of its reference's payload."""
    table = batch_step._prefetch_table(refs)
    head = batch_step._reference_head(refs, k)
    payload = batch_step._payload_address(head)
    out = np.empty((table.shape[0], 3), dtype=np.int64)
    for r in range(table.shape[0]):
        for c in range(3):
            out[r, c] = batch_step._word(payload + table[r, c])
    return out, batch_step._reference_end(head) - payload


def _described_by_numpy(arrays):
    return [[a.ctypes.data, a.shape[0], a.strides[0]] for a in arrays]


def test_the_prefetch_table_reads_each_array_s_own_descriptor():
    from impulse2d._core.state import Bodies, Shapes
    world = batch_world(0)
    world.create_body("dynamic", (0.0, 8.0)).create_circle(0.2)  # (a row more than world 1's)
    batch = i2d.WorldBatch([world, batch_world(1)], threads=1)
    batch.step(1.0 / 60.0)
    table, size = batch_step.prefetch_table()
    refs = batch._state.current_refs()
    order = np.argsort(table[:, batch_step.DATA])  # (the payload's order: the fields')
    kinds = table[order, batch_step.KIND]
    for k, w in enumerate(batch.worlds):
        found, payload = _described(refs, k)
        found = found[order]
        assert payload == size
        bodies = [getattr(w._bodies, c) for c in Bodies._fields
                  if c not in batch_step.UNREAD[Bodies]]
        shapes = [getattr(w._shapes, c) for c in Shapes._fields
                  if c not in batch_step.UNREAD[Shapes]]
        assert found[kinds == batch_step.BODY_ROW].tolist() == _described_by_numpy(bodies)
        assert found[(kinds == batch_step.SHAPE_ROW) | (kinds == batch_step.VERTEX_ROW)
                     ].tolist() == _described_by_numpy(shapes)
        # the step row, clock, verbs and lengths: whole arrays of the reference's own fields
        every = found[kinds == batch_step.EVERY_ROW].tolist()
        for a in (w._step_settings, w._clock, w._verbs, w._lengths):
            assert _described_by_numpy([a])[0] in every


def test_the_prefetch_table_leaves_out_only_the_unread_columns_and_fields():
    from impulse2d._core.state import Bodies, Shapes
    from impulse2d._dynamics.joints import ROW_LISTS
    from impulse2d._dynamics.world_ref import WORLD_STORES
    table, size = batch_step.prefetch_table()
    kinds = table[:, batch_step.KIND].tolist()
    for kind in (Bodies, Shapes):
        unread = batch_step.UNREAD[kind]
        assert set(unread) <= set(kind._fields) and len(set(unread)) == len(unread)
    by_vertex = batch_step.BY_VERTEX[Shapes]
    assert by_vertex == ("vertices", "normals") and not set(by_vertex) & set(
        batch_step.UNREAD[Shapes])
    assert kinds.count(batch_step.BODY_ROW) == len(Bodies._fields) - len(
        batch_step.UNREAD[Bodies])
    assert kinds.count(batch_step.SHAPE_ROW) == len(Shapes._fields) - len(
        batch_step.UNREAD[Shapes]) - len(by_vertex)
    assert kinds.count(batch_step.VERTEX_ROW) == len(by_vertex)
    assert kinds.count(batch_step.JOINT_LIST) == len(ROW_LISTS)
    others = [f for f in WORLD_STORES.field_dict
              if f not in ("bodies", "shapes", "joint_ids") + batch_step.NOT_PREFETCHED]
    assert kinds.count(batch_step.EVERY_ROW) == sum(
        len(batch_step._arrays(WORLD_STORES.field_dict[f])) for f in others)
    # grouped by kind, each kind's rows at its end in KIND_ENDS (the compiled loops' bounds),
    # in the payload's order within a kind, each a descriptor's data, length and first stride
    assert np.all(np.diff(table[:, batch_step.KIND]) >= 0)
    starts = (0,) + batch_step.KIND_ENDS[:-1]
    assert batch_step.KIND_ENDS[-1] == table.shape[0]
    for kind, (start, end) in enumerate(zip(starts, batch_step.KIND_ENDS)):
        assert np.all(table[start:end, batch_step.KIND] == kind)
        assert np.all(np.diff(table[start:end, batch_step.DATA]) > 0)
    assert np.all(table[:, batch_step.LENGTH] == table[:, batch_step.DATA] + 8)
    assert np.all(table[:, batch_step.STRIDE] > table[:, batch_step.LENGTH])
    assert np.all(table[:, :3] < size) and size % 8 == 0


def test_each_world_leaves_its_rows_in_use_for_the_next_prefetch():
    worlds = [batch_world(s) for s in range(4)]
    worlds[1].destroy_body(worlds[1].bodies[-1])  # its last rows free: 10 in use
    extra = worlds[2].create_body("dynamic", (0.0, 8.0))
    extra.create_circle(0.2)
    extra.create_circle(0.1, center=(0.3, 0.0))  # 12 body rows, 13 shape rows
    batch = i2d.WorldBatch(worlds, threads=1)
    batch.step(1.0 / 60.0)
    results = batch._state.results
    assert results[:, batch_step.BODY_ROWS].tolist() == [11, 10, 12, 11]
    assert results[:, batch_step.SHAPE_ROWS].tolist() == [11, 10, 13, 11]
    # (the most vertices of a live shape: the boxes' 4; a world of circles only, 1)
    assert results[:, batch_step.VERTICES].tolist() == [4, 4, 4, 4]
    circles = i2d.World()
    circles.create_body("static").create_circle(1.0)
    circles.create_body("dynamic", (0.0, 3.0)).create_circle(0.5)
    alone = i2d.WorldBatch([circles], threads=1)
    alone.step(1.0 / 60.0)
    assert alone._state.results[0, batch_step.VERTICES] == 1
    assert alone._state.results[0, batch_step.SHAPE_ROWS] == 2


@numba.njit
def _joint_described(refs, k):
    """World ``k``'s words that :func:`batch_step.prefetch_joints` reads for each of its joint
    columns (data, length, stride)."""
    table = batch_step._joint_columns_table(refs)
    payload = batch_step._payload_address(batch_step._reference_head(refs, k))
    out = np.empty((table.shape[0], 3), dtype=np.int64)
    for r in range(table.shape[0]):
        for c in range(3):
            out[r, c] = batch_step._word(payload + table[r, c])
    return out


def test_the_joint_columns_table_reads_each_column_s_own_descriptor():
    from impulse2d._core.state import Joints
    worlds = [batch_world(0), batch_world(1)]
    bodies = worlds[1].bodies
    worlds[1].create_revolute_joint(bodies[1], bodies[2], bodies[1].position,
                                    enable_motor=True, max_motor_torque=1.0)
    batch = i2d.WorldBatch(worlds, threads=1)
    batch.step(1.0 / 60.0)
    refs = batch._state.current_refs()
    names = batch_step.JOINT_COLUMNS
    assert set(names) <= set(Joints._fields) and len(set(names)) == len(names)
    for k, w in enumerate(batch.worlds):
        columns = [getattr(w._joints, c) for c in Joints._fields if c in names]
        assert _joint_described(refs, k).tolist() == _described_by_numpy(columns)
    table = batch_step.joint_columns_table()
    assert np.all(np.diff(table[:, batch_step.DATA]) > 0)  # (the store's order)
    assert np.all(table[:, batch_step.LENGTH] == table[:, batch_step.DATA] + 8)


def test_the_joint_columns_are_those_a_lander_s_step_reads():
    """``JOINT_COLUMNS`` is what a native LunarLander's step touches of the joint store, no
    column more or less: the step's arrays recorded without the JIT
    (``benchmarks/lander_lines.py``, a subprocess: its kernels as Python)."""
    import json
    import os
    import subprocess
    import sys
    import tempfile
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "lines.json")
        env = dict(os.environ, NUMBA_DISABLE_JIT="1",
                   PYTHONPATH=os.pathsep.join([os.path.join(root, "src"),
                                               os.environ.get("PYTHONPATH", "")]))
        subprocess.run([sys.executable, os.path.join(root, "benchmarks", "lander_lines.py"),
                        "--num-envs", "1", "--warm", "5", "--steps", "3", "--json", out],
                       env=env, check=True, capture_output=True, timeout=600)
        with open(out) as f:
            rows = json.load(f)["arrays"]
    touched = {row["array"].split(".")[1] for row in rows
               if row["array"].startswith("joints.") and row["touched"] > 0}
    assert touched == set(batch_step.JOINT_COLUMNS)
