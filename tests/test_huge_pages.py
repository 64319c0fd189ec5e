"""A batch's worlds on 2 MiB pages (:mod:`impulse2d._huge_pages`): the heaps holding its stores
are found and advised, the memory keeps its bytes, and a batch so advised steps each world to
the bits of the world stepped alone. Where the system has no transparent huge pages, nothing is
asked and nothing changes."""

from __future__ import annotations

import mmap
import os
import platform

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d import _huge_pages
from impulse2d._core.address import address

from conftest import batch_world

THP = _huge_pages._MADVISE is not None
COLLAPSE = THP and tuple(int(x) for x in platform.release().split(".")[:2]
                         if x.isdigit()) >= (6, 1)  # MADV_COLLAPSE: Linux 6.1


def _huge_kb(at: int) -> int:
    """AnonHugePages (kB) of the mapping holding address ``at``."""
    held = False
    with open("/proc/self/smaps") as f:
        for line in f:
            p = line.split()
            if "-" in p[0] and not p[0].endswith(":"):
                lo, hi = (int(x, 16) for x in p[0].split("-"))
                held = lo <= at < hi
            elif held and p[0] == "AnonHugePages:":
                return int(p[1])
    return 0


def _private(nbytes: int) -> tuple:
    """``nbytes`` of fresh anonymous private memory (as malloc's heaps are) and a float64 view
    of it (NumPy's own large arrays it advises itself)."""
    m = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    return m, np.frombuffer(m, dtype=np.float64)


def test_without_huge_pages_nothing_is_asked(monkeypatch):
    monkeypatch.setattr(_huge_pages, "_MADVISE", None)
    a = np.ones(1 << 22)
    assert _huge_pages.advise(np.array([address(a)], dtype=np.int64)) == 0
    batch = i2d.WorldBatch([batch_world(k) for k in range(3)], threads=1)
    assert batch._pages.renew() == 0 and batch._pages.next == -1


@pytest.mark.skipif(not os.path.exists("/proc/self/maps"), reason="Linux's /proc only")
def test_the_heap_of_an_array_is_its_anonymous_mapping_not_a_files(tmp_path):
    m, a = _private(1 << 25)
    at = address(a)
    (lo, hi, reserved), = _huge_pages.heaps(np.array([at], dtype=np.int64))
    assert lo <= at and at + a.nbytes <= hi <= reserved  # (with any anonymous neighbours)
    path = tmp_path / "data"
    path.write_bytes(bytes(1 << 22))
    with open(path, "r+b") as f:  # a file's pages, even private and written, are no heap
        mapped = mmap.mmap(f.fileno(), 0, flags=mmap.MAP_PRIVATE)
        b = np.frombuffer(mapped, dtype=np.float64)
        b[:] = 1.0
        assert _huge_pages.heaps(np.array([address(b)], dtype=np.int64)) == []
        del b
        mapped.close()
    del a
    m.close()


@pytest.mark.skipif(not COLLAPSE, reason="no transparent huge pages, or Linux before 6.1")
def test_advised_memory_moves_to_huge_pages_with_its_bytes():
    m, a = _private(1 << 25)
    a[:] = np.random.default_rng(7).standard_normal(a.shape[0])  # every 4 KiB page touched
    before = a.copy()
    at = address(a)
    assert _huge_kb(at) == 0  # (THP mode madvise: nothing advised yet)
    advised = _huge_pages.advise(np.array([at], dtype=np.int64))
    assert advised >= 15 * (1 << 21)  # the whole 2 MiB windows inside its 32 MiB
    assert _huge_kb(at) >= 15 * 2048
    assert np.array_equal(a, before)
    assert _huge_pages.advise(np.array([at], dtype=np.int64)) == 0  # (each window collapsed once)
    del a
    m.close()


@pytest.mark.parametrize("threads", [1, 2])
def test_an_advised_batch_steps_each_world_as_alone(monkeypatch, threads):
    monkeypatch.setattr(_huge_pages, "TLB_REACH", 0)  # (advise however small the batch)
    alone = [batch_world(k) for k in range(6)]
    for _ in range(70):  # (past the advice after steps 1, 2, 4, ..., 64)
        for w in alone:
            w.step(1 / 60)
    worlds = [batch_world(k) for k in range(6)]
    batch = i2d.WorldBatch(worlds, threads=threads)
    for _ in range(70):
        batch.step(1 / 60)
    assert batch._pages.steps == 70 and batch._pages.next == (128 if THP else -1)
    assert [w.state_hash() for w in worlds] == [w.state_hash() for w in alone]
    if COLLAPSE:
        assert _huge_kb(address(worlds[0]._bodies[0])) > 0


@pytest.mark.skipif(not THP, reason="no transparent huge pages: nothing is looked at")
def test_a_batch_far_below_the_reach_boxes_no_store_its_steps_made(monkeypatch):
    worlds = [batch_world(k) for k in range(4)]
    batch = i2d.WorldBatch(worlds, threads=1)
    for _ in range(30):  # (the worlds' contacts begin: the steps make new stores)
        batch.step(1 / 60)
    stale = [w.__dict__["_contacts_stale"] or w.__dict__["_constraints_stale"] for w in worlds]
    assert any(stale)
    stored = _huge_pages._stored(worlds, False)[0]
    assert stored * _huge_pages.UNSEEN < _huge_pages.TLB_REACH  # (far below: 4 small worlds)
    assert batch._pages.renew(collapse=False) == 0
    assert [w.__dict__["_contacts_stale"] or w.__dict__["_constraints_stale"]
            for w in worlds] == stale  # Python's views as they were
    # within UNSEEN of the reach, Python's views are made current first (then measured)
    monkeypatch.setattr(_huge_pages, "TLB_REACH", stored * _huge_pages.UNSEEN)
    batch._pages.renew(collapse=False)
    assert not any(w.__dict__["_contacts_stale"] or w.__dict__["_constraints_stale"]
                   for w in worlds)
    assert _huge_pages._stored(worlds, False)[0] >= stored


@pytest.mark.skipif(not THP, reason="no transparent huge pages: nothing is looked at")
@pytest.mark.parametrize("growth, renewed", [(0, []), (1 << 20, [2, 4, 8, 16]),
                                             (1 << 21, [1, 2, 4, 8, 16]),
                                             (None, [1, 2, 4, 8, 16])])
def test_a_batch_renews_its_advice_only_where_the_memory_grew(monkeypatch, growth, renewed):
    # the resident memory as the batch's steps would grow it, ``growth`` bytes a step (None:
    # unreadable, as where /proc/self/statm is not)
    monkeypatch.setattr(_huge_pages, "TLB_REACH", 0)
    batch = i2d.WorldBatch([batch_world(k) for k in range(3)], threads=1)
    now = [1 << 30 if growth is not None else -1]
    monkeypatch.setattr(_huge_pages, "resident", lambda: now[0])
    batch._pages.renew()
    at = []
    renew = batch._pages.renew
    monkeypatch.setattr(batch._pages.__class__, "renew",
                        lambda self, collapse=True: (at.append(self.steps), renew(collapse)))
    for _ in range(20):
        now[0] += growth or 0
        batch.step(1 / 60)
    # at steps 1, 2, 4, 8, 16 where 2 MiB or more since the last renewal (1 MiB a step: from
    # step 2, then every time), or where it is not known
    assert at == renewed and batch._pages.next == 32 and batch._pages.steps == 20
