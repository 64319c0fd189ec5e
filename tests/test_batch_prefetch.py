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
    """Each reference's header address and payload end, as the batch kernel finds them."""
    out = np.empty((len(refs), 2), dtype=np.int64)
    for k in range(len(refs)):
        head = batch_step._reference_head(refs, k)
        out[k, 0] = head
        out[k, 1] = batch_step._reference_end(head)
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
