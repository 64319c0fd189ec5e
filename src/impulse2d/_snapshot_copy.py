"""The snapshot's fast path: every column of a world's stores copied in one call.

A small world's :func:`~impulse2d.snapshot.take` and :func:`~impulse2d.snapshot.restore`
spent nearly all of their time in Python's per-column work: about 140 columns in five stores,
each copied with ``np.copyto`` and viewed into its slot of the snapshot's buffer (with the
checks, about 2,000 Python calls: 300-400 us for a 2-body world, measured on the 2-core CI
machine). Here the layout of a world's stores is worked out once (a :class:`Plan`: each
column's address, byte count and 64-byte-aligned offset in a snapshot's buffer) and kept while
the world's stores are the same objects; then a snapshot is one buffer and one call of
:func:`copy_spans`, and restoring it into the world it was taken from, when its stores still
have the same layout, is one call the other way, into the world's own arrays.

A plan holds the store objects it describes, so the addresses it lists stay valid while it
does; it is checked by identity (each store attribute of the world still the very object)
before use. The columns themselves are only viewed when a snapshot must show them as stores
(pickling, a restore into stores of another size, :attr:`Snapshot.nbytes`).
"""

from __future__ import annotations

from itertools import accumulate
from operator import is_

import numba
import numpy as np

from ._core.address import address, void_pointer
from ._core.jit import DirectCall, kernel

ALIGN = 64
"""Bytes: each column's copy starts on a cache line (a C-contiguous array as kernels take it)."""

PLAN = "_snapshot_plan"
"""The World attribute holding the world's :class:`Plan` (the process's: not copied)."""


@kernel
def copy_spans(destinations, destination_base, sources, source_base, sizes):
    """Copy ``sizes[k]`` bytes from address ``source_base + sources[k]`` to ``destination_base
    + destinations[k]`` for every ``k`` (int64 arrays of one length; the spans must not
    overlap). The bases: a snapshot's buffer, its columns given by offsets (adding the base
    in NumPy made an array per call: about 2 us of a small world's snapshot, under load)."""
    for k in range(sizes.shape[0]):
        n = sizes[k]
        if n > 0:
            out = numba.carray(void_pointer(destination_base + destinations[k]), (n,), np.uint8)
            src = numba.carray(void_pointer(source_base + sources[k]), (n,), np.uint8)
            for i in range(n):
                out[i] = src[i]


@kernel
def copy_out_spans(buffer, offsets, sources, sizes):
    """:func:`copy_spans` into ``buffer`` (uint8, ``ALIGN`` bytes longer than the spans need):
    ``sizes[k]`` bytes from address ``sources[k]`` to byte ``start + offsets[k]``, where
    ``start`` (returned) is the buffer's first byte on an ``ALIGN``-byte boundary. The address
    is read here: NumPy's ``__array_interface__`` made it in Python with about 16,000
    instructions, more than the copy of a 10-body world's 26 KB (callgrind, 2026-11-30)."""
    base = np.int64(buffer.ctypes.data)
    start = -base % ALIGN
    copy_spans(offsets, base + start, sources, 0, sizes)
    return start


_copy = DirectCall(copy_spans, "the snapshot's copy", 1.0)
_copy_out = DirectCall(copy_out_spans, "the snapshot's copy", 1.0)


def columns(value) -> tuple:
    """The arrays of a plan's part: a store's columns, or an array attribute as one column."""
    return (value,) if type(value) is np.ndarray else value


def is_array(value) -> bool:
    """Is ``value`` an array a plan may copy with the stores (a non-empty ndarray, such as a
    world's step row and length tolerances: each was a NumPy copy of its own, about 3,300
    instructions a snapshot, and a write in place, about 4,000 a restore, for 4 to 26
    numbers)? Its columns' test is :func:`plan_for`'s."""
    return type(value) is np.ndarray and value.size > 0


class _Part:
    """One store (or array attribute: :func:`is_array`) of a plan: the object, its layout entry
    ``(name, type, ((dtype, shape), ...))``, its columns' byte counts, and
    (:meth:`addresses`) their addresses."""

    __slots__ = ("store", "layout", "sizes", "_addresses")

    def __init__(self, name, store):
        self.store = store
        self.layout = (name, type(store), tuple((column.dtype.str, column.shape)
                                                for column in columns(store)))
        self.sizes = [column.nbytes for column in columns(store)]
        self._addresses = None

    def addresses(self) -> np.ndarray:
        """The columns' addresses (int64), found on first use: about 1 us a column, and a
        restore after the pairs changed makes parts for the step's contact stores only to see
        that their layout differs (it replaces them: their addresses are never read)."""
        if self._addresses is None:
            self._addresses = np.array([address(column) for column in columns(self.store)],
                                       dtype=np.int64)
        return self._addresses


class Plan:
    """The layout of one world's stores and array attributes (:func:`is_array`, each a store of
    one column here): for each (``names``, in the world's attribute order) its object
    (``stores``), and for each column, in order, its address (``addresses``), bytes
    (``sizes``) and offset in a snapshot's buffer (``offsets``, 64-byte aligned; ``total``
    bytes in all); ``bounds``: each store's first and last-plus-one column. ``layout`` (the
    stores' types and their columns' dtypes and shapes) decides whether a snapshot's columns
    can be written through this plan, store by store. ``keys``: the world's attribute names
    when the plan was made, in order (a list); ``others``: those that are neither (the ones
    snapshots leave out excluded)."""

    __slots__ = ("names", "stores", "parts", "layout", "_addresses", "sizes", "offsets", "total",
                 "bounds", "keys", "others", "settings", "rows_maps", "copies", "take")

    def __init__(self, names, parts, keys, others):
        self.names = tuple(names)
        self.parts = tuple(parts)
        self.stores = tuple(part.store for part in parts)
        self.layout = tuple(part.layout for part in parts)
        self._addresses = None  # (found on first use: addresses)
        self.sizes = np.array([n for part in parts for n in part.sizes], dtype=np.int64)
        padded = -(-self.sizes // ALIGN) * ALIGN
        self.offsets = np.concatenate(([0], np.cumsum(padded)[:-1])).astype(np.int64)
        self.total = int(padded.sum())
        # (np.cumsum of a list converts it to an array first: slower for five numbers)
        ends = list(accumulate(len(part.sizes) for part in parts))
        self.bounds = tuple(zip([0] + ends[:-1], ends))
        self.keys = keys
        self.others = others
        self.settings = (None, None, None)
        """The last snapshot's ``(settings, packed settings, fields)`` (see
        :func:`~impulse2d.snapshot.take`)."""
        self.rows_maps = frozenset()
        """The attributes found to be maps of rows (dicts of lists of ints, non-empty) by a
        snapshot through this plan: the world's code keeps them so (see
        :func:`~impulse2d.snapshot.take`)."""
        self.take = None
        """How a snapshot walks ``others`` (:func:`~impulse2d.snapshot._take_recipe`)."""
        self.copies = {}
        """The last snapshot's copies of the maps of rows, the id pools and the plain objects
        holding only what cannot change, by attribute, each as ``(copy, same)``: the next
        snapshot shares the copy when ``same(value, copy)`` holds of the world's value (``==``
        of the maps, of the pools' attributes, or the very same objects in the tracker's)
        (:func:`~impulse2d.snapshot.take`)."""

    @property
    def addresses(self) -> np.ndarray:
        """Every column's address, in order (int64)."""
        if self._addresses is None:
            self._addresses = (np.concatenate([part.addresses() for part in self.parts])
                               if self.parts else np.zeros(0, dtype=np.int64))
        return self._addresses

    def current(self, d: dict) -> bool:
        """Does the world of attributes ``d`` still have exactly these attributes, in this
        order, and these store objects? (The names compared as lists: strings compared by
        identity first, in C, about a third cheaper than the dict's keys against a set.)"""
        return [*d] == self.keys and all(map(is_, map(d.__getitem__, self.names),
                                             self.stores))


def views(layout: tuple, buffer: np.ndarray, start: int, names=None) -> dict:
    """The stores of a snapshot's ``buffer`` (its data from byte ``start``) as views of it (all,
    or those named in ``names``); ``layout``: the plan's ``(layout, offsets, sizes)`` the buffer
    was written by."""
    stores, offsets, sizes = layout
    out, k = {}, 0
    for name, kind, columns in stores:
        if names is not None and name not in names:
            k += len(columns)
            continue
        arrays = []
        for dtype, shape in columns:
            offset = start + int(offsets[k])
            arrays.append(buffer[offset:offset + int(sizes[k])].view(dtype).reshape(shape))
            k += 1
        out[name] = arrays[0] if kind is np.ndarray else kind(*arrays)
    return out


def copied_stores(layout: tuple, buffer: np.ndarray, start: int, names) -> dict:
    """The stores named in ``names`` of a snapshot's ``buffer`` (as :func:`views` finds them),
    copied: each store's columns, which lie one after the other in the buffer, in one copy
    into a fresh buffer of its own (64-byte aligned as the snapshot's), then viewed. A restore
    into stores of another size (the contact stores after the pairs changed: an environment's
    reset) copied them column by column, 36 NumPy copies, about a quarter of that restore."""
    stores, offsets, sizes = layout
    out, k = {}, 0
    for name, _, columns in stores:
        first, k = k, k + len(columns)
        if name not in names:
            continue
        begin = int(offsets[first])
        end = int(offsets[k - 1] + sizes[k - 1]) if k > first else begin
        raw = np.empty(end - begin + ALIGN, dtype=np.uint8)
        shift = -raw.__array_interface__["data"][0] % ALIGN
        raw[shift:shift + end - begin] = buffer[start + begin:start + end]
        out.update(views(layout, raw, shift - begin, (name,)))
    return out


def plan_for(world, in_plan, skipped) -> Plan | None:
    """``world``'s plan, made again if its stores or attributes changed since it was made (a
    store that is still the same object keeps its part); None where the fast path does not
    apply (a column that is not C-contiguous or holds objects, or the JIT is off).
    ``in_plan(name, value)``: the snapshot's test of what the plan copies (a store, or an
    array: :func:`is_array`); ``skipped(name)``: attributes snapshots do not copy."""
    d = vars(world)
    old = d.get(PLAN)
    if old is not None and old.current(d):
        return old
    if numba.config.DISABLE_JIT:
        return None
    if old is None:
        d[PLAN] = None  # (present before the plan records the world's attribute names)
    keys = [*d]
    if old is not None and old.keys == keys and all(in_plan(name, d[name])
                                                    for name in old.names):
        names, others = old.names, old.others
    else:  # (new attributes, or one of the plan's no longer a store or an array: None now)
        names, others = [], []
        for name, value in d.items():
            if name == PLAN or skipped(name):
                continue
            (names if in_plan(name, value) else others).append(name)
        others = tuple(others)
    kept = {} if old is None else {id(part.store): part for part in old.parts}
    parts = []
    for name in names:
        store = d[name]
        part = kept.get(id(store))
        if part is None or part.store is not store or part.layout[0] != name:
            if not in_plan(name, store) or any(
                    column.dtype.hasobject or not column.flags.c_contiguous
                    for column in columns(store)):
                d[PLAN] = None
                return None
            part = _Part(name, store)
        parts.append(part)
    plan = d[PLAN] = Plan(names, parts, keys, others)
    return plan


def copy_out(plan: Plan) -> tuple[np.ndarray, int]:
    """A fresh buffer holding every column of ``plan``'s stores, and the byte where they start
    (aligned)."""
    buffer = np.empty(plan.total + ALIGN, dtype=np.uint8)
    return buffer, _copy_out.entry(buffer, plan.offsets, plan.addresses, plan.sizes)


def copy_in(plan: Plan, sources: np.ndarray, stores=None) -> None:
    """Write a snapshot's columns (``sources``: the address of each column's bytes in its
    buffer, :meth:`~impulse2d.snapshot.Snapshot._sources`, written through a layout of the same
    stores as ``plan``) into ``plan``'s columns, in place: all of them, or those of the stores
    numbered in ``stores``. (The addresses, found once a snapshot: an array's address from
    ``__array_interface__`` is 2-4 us of CPU, a tenth of a 10-body world's restore.)"""
    if stores is None:
        _copy.entry(plan.addresses, 0, sources, 0, plan.sizes)
        return
    columns = np.concatenate([np.arange(*plan.bounds[k]) for k in stores] or [[]]).astype(
        np.int64)
    addresses = np.concatenate([plan.parts[k].addresses() for k in stores] or [[]]).astype(
        np.int64)  # (those stores' only: the others' may be about to be replaced)
    _copy.entry(addresses, 0, sources[columns], 0, plan.sizes[columns])


def copy_in_many(plans: list, sources: list) -> None:
    """Write snapshots' buffers into several worlds' stores in one call: ``sources[k]``, the
    address of each column's bytes in a snapshot (written through a layout equal to
    ``plans[k].layout``), into ``plans[k]``'s columns. A copy of one world's stores is one
    call with its argument arrays (the array adapters of Numba's wrapper: a few microseconds,
    a call of its own for each world a batch restores); here every span of every world goes
    in one."""
    if not plans:
        return
    destinations = np.concatenate([plan.addresses for plan in plans])
    _copy.entry(destinations, 0, np.concatenate(sources), 0,
                np.concatenate([plan.sizes for plan in plans]))


__all__ = ["Plan", "plan_for", "is_array", "columns", "views", "copied_stores", "copy_out",
           "copy_in", "copy_in_many", "copy_spans", "copy_out_spans", "PLAN", "ALIGN"]
