"""The batch kernel's prefetch of the worlds ahead
(:func:`impulse2d._dynamics.batch_step.step_batch`): the reference it asks for two and three
worlds ahead is each world's own allocation (its header, then its payload), read from the
batch's list without taking a reference. A prefetch reads and writes no value, so the step's
bits are the worlds' own (``tests/test_batch.py``)."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from numba import literal_unroll

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
        out[k] = batch_step._data_address(batch_step.borrow(world, "settings"))
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
def _spans_of(array, rows):
    return batch_step._row_span(array, rows)


@pytest.mark.parametrize("shape", [(16,), (16, 2), (16, 8, 2), (13, 3)])
def test_the_row_span_covers_the_lines_of_the_rows_in_use(shape):
    a = np.zeros(shape)
    row = a[0].nbytes if a.ndim > 1 else a.itemsize
    start = a.ctypes.data
    for rows, taken in ((11, 11), (1, 1), (0, shape[0]), (shape[0], shape[0]), (99, shape[0])):
        first, end = _spans_of(a, rows)
        assert first == start - start % 64
        assert end == start + taken * row
    empty = np.zeros((0, 41))
    first, end = _spans_of(empty, 5)
    assert first == end


@numba.njit
def _column_count(store):
    n = 0
    for column in literal_unroll(batch_step._read_columns(store)):
        n += column.ndim > 0
    return n


def test_the_prefetch_leaves_out_only_the_unread_columns():
    from impulse2d._core.state import Bodies, Shapes
    world = batch_world(0)
    for store, kind in ((world._bodies, Bodies), (world._shapes, Shapes)):
        unread = batch_step.UNREAD[kind]
        by_vertex = batch_step.BY_VERTEX.get(kind, ())
        assert set(unread) <= set(kind._fields) and len(set(unread)) == len(unread)
        assert set(by_vertex) <= set(kind._fields) and not set(by_vertex) & set(unread)
        assert _column_count(store) == len(kind._fields) - len(unread) - len(by_vertex)
    assert batch_step.BY_VERTEX[Shapes] == ("vertices", "normals")
    assert _column_count(world._contacts) == len(world._contacts)


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
def _ask_for_heads(array, rows, head):
    batch_step._prefetch_row_heads(array, rows, head)
    return batch_step._data_address(array)


def test_a_shape_row_s_vertices_are_asked_for_from_the_row_s_first_byte():
    # (a prefetch reads nothing: what can be checked is the address it starts from, and that
    # every case runs: rows 0 or past the length, a head of none, part of or all of a row)
    a = np.zeros((16, 8, 2))  # the shapes' vertices (and normals): 128 bytes a row
    for rows in (0, 1, 11, 16, 99):
        for head in (0, 16, 64, 100, 128, 4096):
            assert _ask_for_heads(a, rows, head) == a.ctypes.data
    empty = np.zeros((0, 8, 2))
    assert _ask_for_heads(empty, 5, 64) == empty.ctypes.data
    assert _ask_for_heads(a[3:], 2, 64) == a.ctypes.data + 3 * 128
