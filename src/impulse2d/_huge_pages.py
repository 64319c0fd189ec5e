"""A batch's worlds on 2 MiB pages, where the system has them (Linux's transparent huge pages).

A world-step of a batch reaches about 866 cache lines on 47 pages of 4 KiB (session 16,
``benchmarks/batch_footprint.py``): at 1,024 worlds that is 48,000 pages against the 2,048
entries of Zen 3's L2 TLB, so nearly every page a world-step reaches misses it (a nested page
walk under KVM). The worlds' arrays, NumPy's and Numba's alike, come from malloc's heaps: on
2 MiB pages the ~110 MB of a 1,024-world batch take ~55 TLB entries. glibc's
``GLIBC_TUNABLES=glibc.malloc.hugetlb=1`` puts every heap on them, but only if set before the
process starts; this asks for the batch's heaps from inside, with ``madvise``:

* ``MADV_HUGEPAGE`` (Linux 2.6.38): memory of the range first touched later comes on 2 MiB
  pages (the mode ``madvise`` of ``/sys/kernel/mm/transparent_hugepage/enabled``, the usual
  default, gives them to advised ranges only);
* ``MADV_COLLAPSE`` (Linux 6.1): memory already touched is moved onto them now (a copy of each
  2 MiB, made once: about 2-2.5 ms a MiB here, 0.14-0.16 ms a world of a 1,024-world batch).

The batch's construction asks for both. Only whole 2 MiB windows inside a mapping can be huge
pages, and a heap grows as the steps make stores (the main heap's break moves past the advised
windows into a mapping of its own, not advised; a thread's arena makes new heaps): after its
steps 1, 2, 4, 8, ... a batch flags its heaps again, without collapsing (a collapse in the
steps cost more than the pages gave back over 120 steps), where the process's resident memory
grew by a huge page or more since it last did (a heap that did not grow has no new mapping
to flag: a renewal reads and matches ``/proc/self/maps``, 3.4 ms at 1,024 worlds, and a
1,024-world batch's memory grows on its first step only). Measured in one process against the
same batch on 4 KiB pages (``benchmarks/batch_pages_ab.py``, session 18, load 9-10): 1.04 a
world-step at 1,024 worlds, 1.01-1.02 at 4,096 (medians of the steps); the TLB misses cost
less than their count says on this machine. Where there is no such system (macOS, Windows, a
kernel without THP or with it ``never``) or a call is refused, nothing happens. The bits never
depend on it: the same bytes at the same addresses, on other pages.
"""

from __future__ import annotations

import ctypes
import mmap
import re
import sys

import numpy as np

from ._core.address import address
from ._dynamics.world_ref import sync_constraints, sync_contacts

HUGE = 1 << 21  # bytes of a huge page (x86-64's and arm64's PMD size with 4 KiB pages)
TLB_REACH = 2048 * 4096
"""Bytes the L2 TLB maps on 4 KiB pages (2,048 entries on Zen 3 and on Intel since Skylake's
1,536): a batch whose stores take less stays within it, and is left alone."""
MADV_HUGEPAGE, MADV_COLLAPSE = 14, 25  # <asm-generic/mman-common.h>
_STORES = ("_bodies", "_shapes", "_joints", "_contacts", "_constraints")
SAMPLED = 16
"""Worlds of a batch whose stores :meth:`Advice.renew` looks at: each heap that holds a good
share of the worlds' stores (the constructing thread's, each stepping thread's) holds some of
theirs."""


def _madvise():
    """libc's ``madvise`` (None where there is no THP to ask for: not Linux, THP ``never``)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            if "[never]" in f.read():
                return None
        madvise = ctypes.CDLL(None, use_errno=True).madvise
    except (OSError, AttributeError):
        return None
    madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    madvise.restype = ctypes.c_int
    return madvise


_MADVISE = _madvise()
_ANONYMOUS = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (rw-p|---p) \S+ \S+ 0 *(\[heap\])?$", re.M)
"""A line of ``/proc/self/maps`` of anonymous memory (inode 0, no file): private writable, or
a reserve (no access); ``[heap]``: the main heap."""
_COLLAPSED: set = set()  # the 2 MiB windows (address // HUGE) collapsed so far, process-wide


def heaps(samples: np.ndarray) -> list:
    """The anonymous private writable memory holding any of the addresses ``samples`` (int64,
    sorted), as ``(start, end, reserved_end)``: each run of adjacent such mappings (one
    allocation's memory can be several, split where flags differ: NumPy advises its large
    arrays itself), with the reserve right after it (``---p``, up to ``reserved_end``: a
    thread's malloc arena grows into it); the main heap whole (every ``[heap]`` line, from its
    first to the break; no reserve)."""
    found, heap = [], None
    with open("/proc/self/maps") as f:
        mappings = _ANONYMOUS.findall(f.read())
    for start, stop, mode, name in mappings:
        lo, hi = int(start, 16), int(stop, 16)
        if name:
            if mode == "rw-p":
                heap = (heap[0] if heap else lo, hi, hi)
        elif found and found[-1][2] == lo and (mode == "---p" or found[-1][1] == lo):
            first, end, _ = found[-1]  # (rw-p after rw-p, or its reserve)
            found[-1] = (first, hi if mode == "rw-p" else end, hi)
        elif mode == "rw-p":
            found.append((lo, hi, hi))
    picked = []
    for region in found + ([heap] if heap else []):
        i = np.searchsorted(samples, region[0])
        if i < samples.shape[0] and samples[i] < region[1]:
            picked.append(region)
    return picked


def advise(samples: np.ndarray, collapse: bool = True) -> int:
    """Ask for 2 MiB pages over the heaps holding ``samples`` (:func:`heaps`):
    ``MADV_HUGEPAGE`` over each with its reserve (a flag on its mappings: cheap, asked again
    each time, as a heap trimmed and grown again has lost it; the reserve's memory then comes
    on 2 MiB pages as the arena grows into it), then, if ``collapse``, ``MADV_COLLAPSE`` over
    the windows in use not collapsed before. Returns the bytes newly collapsed (0 where there is
    nothing to ask)."""
    if _MADVISE is None or not samples.shape[0]:
        return 0
    try:
        regions = heaps(np.sort(samples))
    except OSError:
        return 0
    collapsed = 0
    for lo, end, reserved in regions:
        first, last = -(-lo // HUGE), end // HUGE  # the whole windows inside, in use
        flagged = reserved // HUGE
        if first >= flagged or _MADVISE(first * HUGE, (flagged - first) * HUGE, MADV_HUGEPAGE):
            continue
        k = first if collapse else last
        while k < last:  # each run of windows not collapsed yet
            if k in _COLLAPSED:
                k += 1
                continue
            stop = k
            while stop < last and stop not in _COLLAPSED:
                stop += 1
            _MADVISE(k * HUGE, (stop - k) * HUGE, MADV_COLLAPSE)  # (6.1+; else EINVAL)
            _COLLAPSED.update(range(k, stop))
            collapsed += (stop - k) * HUGE
            k = stop
    return collapsed


_ROW_BYTES: dict = {}  # store type -> bytes of one row of all its columns


def _row_bytes(store) -> int:
    kind = type(store)
    if kind not in _ROW_BYTES:
        _ROW_BYTES[kind] = sum(column.nbytes for column in store) // store[0].shape[0]
    return _ROW_BYTES[kind]


def resident() -> int:
    """Bytes of the process's memory resident now (``/proc/self/statm``'s second field, in
    pages; 10-20 us), or -1 where it cannot be read."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * mmap.PAGESIZE
    except (OSError, ValueError, IndexError):
        return -1


class Advice:
    """A batch's worlds' heaps advised (:func:`advise`) while its stores grow: after its
    construction and after steps 1, 2, 4, 8, ... (:meth:`stepped`) where the process's
    resident memory grew by :data:`HUGE` or more since the last time, if its worlds' stores
    take more than :data:`TLB_REACH`."""

    __slots__ = ("worlds", "steps", "next", "resident")

    def __init__(self, worlds) -> None:
        self.worlds = worlds
        self.steps = 0
        self.next = 1 if _MADVISE is not None else -1  # (-1: never)
        self.resident = -1  # (bytes resident at the last renewal; -1: unknown)
        self.renew()

    def stepped(self) -> None:
        """Count a batch step; flag the heaps again at steps 1, 2, 4, 8, ... (no collapse: the
        memory the steps touch from then on comes on 2 MiB pages, and Linux's khugepaged
        collapses the rest in the background, on its own clock), unless the process's resident
        memory grew by less than a huge page since the last renewal (or it shrank: a heap
        trimmed and not grown again has nothing new to flag either)."""
        self.steps += 1
        if self.steps == self.next:
            self.next *= 2
            if self.resident < 0 or resident() - self.resident >= HUGE:
                self.renew(collapse=False)

    def renew(self, collapse: bool = True) -> int:
        """Advise the heaps holding the stores of up to :data:`SAMPLED` of the worlds, evenly
        spaced, if the worlds' stores take more than :data:`TLB_REACH` (estimated from those),
        collapsing the windows not collapsed before if ``collapse``; returns the bytes newly
        collapsed."""
        if _MADVISE is None:
            return 0
        self.resident = resident()
        worlds = self.worlds
        picked = worlds[::-(-len(worlds) // SAMPLED)]
        # first Python's views as they are: a batch far below the reach is left without
        # boxing the stores its steps made (40 us a store: 1.3 ms for 16 worlds' two, a
        # sixteenth of a 64-world batch's 120 steps)
        if _stored(picked, False)[0] * len(worlds) * UNSEEN < TLB_REACH * len(picked):
            return 0
        stored, samples = _stored(picked, True)
        if stored * len(worlds) < TLB_REACH * len(picked):
            return 0
        return advise(np.array(samples, dtype=np.int64), collapse)


UNSEEN = 4
"""How much larger than Python's views of its worlds' stores (:func:`_stored` unsynced) a
batch's stores may be for :meth:`Advice.renew` to look no further: Python sees the bodies,
shapes and joints as they are, but the contact and constraint stores only as of its last read
(the batch's steps leave theirs in the worlds' references); those would have to outgrow the
rest three times over to bring a batch this far below :data:`TLB_REACH` to it."""


def _stored(worlds, synced: bool) -> tuple:
    """The bytes of the rows of ``worlds``' stores from Python's views, and, if ``synced``,
    with those views made current first (each store a batch step made is boxed:
    :func:`.world_ref.sync_contacts`), the address of each store's first array (a list: they
    are in the heaps of the threads that made them)."""
    samples, stored = [], 0
    for w in worlds:
        if synced:
            sync_contacts(w)
            sync_constraints(w)
        d = w.__dict__
        for name in _STORES:
            store = d[name]
            column = store[0]
            if column.shape[0]:
                stored += column.shape[0] * _row_bytes(store)
                if synced:
                    samples.append(address(column))
    return stored, samples


__all__ = ["Advice", "advise", "heaps", "resident"]
