"""A recycled world's construction replayed from a template (issue 31 item 8).

Gymnasium's LunarLander builds the same world every reset: a moon of one static body and 11
edges, the lander, two legs, two revolute joints; only the moon's heights (and the lander's
initial force, which is not a construction call) change with the seed. Each engine call of
that construction (``World.create_body``, ``World._attach_shape``,
``World.create_revolute_joint``, the moon's ``_batch.create_static_bodies``) costs 3-10x its
hot cost inside a run of episodes (its code and data out of the caches after ~90 steps), and
together they were about half of a reset.

So a ``b2World`` whose engine world was recycled (``impulse2d._recycle``: its stores zeroed in
one packed buffer, its other state made by ``World.__init__``) records what its engine calls
do, and a later recycled world of the same settings replays them: for each call, the bytes
of the packed stores it changed (an index and the new bytes) and the changes to the world's
Python state (its pools, the handle lists, the body-shape and body-joint lists, flags, the
awake state), with new handle objects of the recorded classes, rows and generations. A call
is replayed when it is the template's next one with the same arguments (compared by
``repr``: exact floats, -0.0 apart from 0.0; handles by class and row; geometry objects by
identity, held by the template) on a world in the recorded state: its packed stores equal the
template's bytes after the previous call and its attributes are the objects they were after
it. Every call made through :func:`replayed` is checked so, and the first that differs (other
arguments, a world changed by anything else in between) ends the replay: that call and every
later one are made as usual.

Two kinds of value may differ from the template's and are left out of the check:

* the segments' geometry of a static batch (the moon's heights): the replay writes it with the
  batch's own functions (``segment_arrays`` for the vertices, normals and centroids, the
  bodies' extents from the ends), which is what the batch writes for it;
* the bodies' force (a force applied between the calls, LunarLander's initial push).

No construction call reads these columns of any row but the ones it writes itself (a new
body's force is zero; mass and extents are a body's own shapes'; joints read positions and
angles), so a call made on a world that differs from the template only there changes the same
bytes, and the replay is the call, bit for bit. ``tests/test_layer_replay.py`` compares
replayed worlds with made ones store column by column; ``benchmarks/layer_hashes.py`` and
``benchmarks/gym_hashes.py`` give main's hashes (every LunarLander reset after the first few is
replayed).

The layer's own part of each call (its ``b2Body``, ``b2Fixture`` and ``b2Joint`` objects) is
made as before, around the engine call: only the engine's part is replayed.
"""

from __future__ import annotations

import weakref

import numpy as np

from .._batch import _ends_extents
from .._collision.geometry import SegmentEnds
from .._core.storage import IdPool
from .._handle import Handle
from .._recycle import packed

_MAX = 4
_TEMPLATES: dict = {}
"""recycle key -> :class:`_Template`."""

_HANDLES = {"_bodies": "_body_handles", "_shapes": "_shape_handles",
            "_joints": "_joint_handles"}
"""A handle's store -> the world's dict of such handles by row."""

_FREE = ("force",), ("vertices", "normals", "centroid")
"""The body and shape columns left out of the check (see the module docstring; the bodies'
``extent`` too, which the segments' geometry gives)."""

_u8 = np.uint8
_WORD = np.uint64
"""The changed bytes are copied by 8-byte words: the buffer and its columns are 64-byte
aligned and the free columns float64, so a word is in a free column or out of it whole, and
the bytes of a word that the call left alone are the template's already (checked)."""


class _Template:
    __slots__ = ("entries", "owner")

    def __init__(self):
        self.entries: list = []
        self.owner = _nobody  # the tracker recording into it, weakly (one at a time)


def _nobody():
    return None


class _Entry:
    """One engine call: its signature, the objects its signature names by identity (held),
    the stores' bytes after it, the changed bytes (index, values), its Python changes, its
    result (handles named by store and row) and whether its segments are written anew."""

    __slots__ = ("sig", "held", "after", "index", "values", "ops", "result", "segments")


def start(b2world) -> None:
    """Track the engine calls of ``b2world``, whose engine world was just recycled: replay its
    settings' template, or record one (``b2world._replay``; None: not tracked). The tracker
    holds no reference to the engine world (``_b2release`` counts them)."""
    world = b2world._world
    buffer = packed(world)
    key = b2world.__dict__.get("_recycle_key")
    if buffer is None or key is None:
        return
    template = _TEMPLATES.get(key)
    if template is None:
        if len(_TEMPLATES) >= _MAX:
            _TEMPLATES.pop(next(iter(_TEMPLATES)))
        template = _TEMPLATES[key] = _Template()
    b2world._replay = _Tracker(world, buffer, template)


def replayed(b2world, fn, *args, segments=False, **kwargs):
    """``fn(*args, **kwargs)``, an engine call of ``b2world``'s construction, replayed from the
    template where it can be (``segments``: the call is ``create_static_bodies``, whose
    segments' geometry may differ from the template's)."""
    tracker = b2world.__dict__.get("_replay")
    if tracker is None:
        return fn(*args, **kwargs)
    return tracker.call(b2world, fn, args, kwargs, segments)


class _Tracker:
    __slots__ = ("buffer", "words", "template", "k", "seen", "checked", "scratch",
                 "__weakref__")

    def __init__(self, world, buffer, template):
        self.buffer = buffer
        self.words = buffer.view(_WORD)
        self.template = template
        self.k = 0  # the template's next call
        self.seen = _seen(world)
        self.checked = _checked_words(world, buffer)
        self.scratch = np.empty_like(self.words)

    def call(self, b2world, fn, args, kwargs, segments):
        world = b2world._world
        held: list = []
        sig = _sig(fn, args, kwargs, world, held, segments)
        entries = self.template.entries
        k = self.k
        if sig is None or not self._unchanged(world, entries[k - 1].after if k else None):
            return self._stop(b2world, fn, args, kwargs)
        if k < len(entries):
            entry = entries[k]
            if entry.sig != sig:
                return self._stop(b2world, fn, args, kwargs)
            result = _apply(entry, world, self.buffer, args)
            self.k = k + 1
            self.seen = _seen(world)
            return result
        if self.template.owner() not in (None, self):
            return self._stop(b2world, fn, args, kwargs)
        self.template.owner = weakref.ref(self)
        before, py_before = self.words.copy(), _state(world)
        result = fn(*args, **kwargs)
        entry = _record(world, self.buffer, before, py_before, result, sig, held, segments)
        if entry is None:
            self._stop(b2world)
            return result
        entries.append(entry)
        self.k = k + 1
        self.seen = _seen(world)
        return result

    def _unchanged(self, world, expected) -> bool:
        """Whether the world is as the template left it after its last call (``expected``:
        those stores' words; None: zero, a recycled world as taken), the free columns aside,
        with every attribute the object it was after this world's last call."""
        if _seen(world) != self.seen:
            return False
        scratch = self.scratch
        if expected is None:
            np.bitwise_and(self.words, self.checked, out=scratch)
        else:
            np.bitwise_xor(self.words, expected, out=scratch)
            np.bitwise_and(scratch, self.checked, out=scratch)
        return not scratch.any()

    def _stop(self, b2world, fn=None, args=(), kwargs=None):
        b2world._replay = None
        if self.template.owner() is self:
            self.template.owner = _nobody
        return None if fn is None else fn(*args, **kwargs)


_LISTS = ("_body_handles", "_shape_handles", "_joint_handles", "_body_shapes", "_body_joints",
          "_body_user_data", "_shape_user_data")
"""The world's dicts that its calls add to in place (:func:`_seen` takes their lengths)."""


def _seen(world) -> tuple:
    """The world's attributes by identity, and the lengths of the dicts its calls add to
    (what a call made outside the replay would change besides the stores)."""
    d = world.__dict__
    return tuple(map(id, d.values())), [len(d[name]) for name in _LISTS]


_PLAIN = frozenset((bool, int, float, str, type(None)))
_NO_NAME = object()


def _sig(fn, args, kwargs, world, held: list, segments: bool):
    """A call (``fn`` with ``args`` and ``kwargs``) as an exact string (``repr``: floats to
    the bit, -0.0 apart from 0.0); None when an argument cannot be named (then the call is
    not replayed). Objects named by identity are put in ``held``."""
    out = _name(args, world, held, segments)
    if out is _NO_NAME:
        return None
    named = []
    for key, v in kwargs.items():
        if type(v) not in _PLAIN:
            v = _name(v, world, held, segments)
            if v is _NO_NAME:
                return None
        named.append((key, v))
    return repr((getattr(fn, "__qualname__", None), out, named))


def _name(value, world, held, segments):
    t = type(value)
    if t in _PLAIN:
        return value
    if t is tuple or t is list:
        if set(map(type, value)) <= _PLAIN:
            return value
        out = []
        for v in value:
            if type(v) not in _PLAIN:
                v = _name(v, world, held, segments)
                if v is _NO_NAME:
                    return _NO_NAME
            out.append(v)
        return out
    if t is dict:
        # a parsed material: shared and read only (``_b2shapes._parsed``), named by identity
        held.append(value)
        return ("dict", id(value))
    if value is world:
        return "world"
    if getattr(value, "__self__", None) is world:  # a bound method of the world
        return ("method", value.__func__.__qualname__)
    if isinstance(value, Handle):
        if value._world is not world:
            return _NO_NAME
        return (t.__qualname__, value._index, value._generation)
    if t is SegmentEnds:
        return "ends" if segments else tuple(value)
    if isinstance(value, tuple) and hasattr(value, "vertices"):  # a geometry, read only
        held.append(value)
        return ("geometry", id(value))
    return _NO_NAME


def _state(world) -> dict:
    """What a construction call may change of the world's attributes, for :func:`_record`."""
    out = {}
    for name, v in world.__dict__.items():
        t = type(v)
        if t is IdPool:
            out[name] = ("pool", id(v), tuple(v._free), v.high_water, v._sorted)
        elif t is dict:
            out[name] = ("dict", id(v), [(k, id(x), tuple(x) if type(x) is list else None)
                                         for k, x in v.items()])
        elif t is np.ndarray and v.nbytes <= 256:
            out[name] = ("array", id(v), v.tobytes())
        elif v is None or t in (bool, int, float, str):
            out[name] = ("value", repr(v), v)
        else:
            fields = getattr(v, "__dict__", None)
            out[name] = ("object", id(v), None if fields is None else
                         tuple((k, id(x)) for k, x in fields.items()))
    return out


def _record(world, buffer, before, py_before: dict, result, sig, held, segments):
    """The template entry of a call just made, or None when it changed something a replay
    cannot make (a store replaced, an attribute other than the kinds :func:`_state` reads)."""
    after = buffer.view(_WORD).copy()
    py_after = _state(world)
    if py_after.keys() != py_before.keys():
        return None
    ops = []
    for name, now in py_after.items():
        was = py_before[name]
        if now == was:
            continue
        kind = now[0]
        if kind != was[0] or (kind != "value" and now[1] != was[1]):
            return None
        if kind == "pool":
            ops.append(("pool", name, now[2], now[3], now[4]))
        elif kind == "array":
            ops.append(("array", name, now[2]))
        elif kind == "value":
            ops.append(("value", name, now[2]))
        elif kind == "dict":
            old, new = was[2], now[2]
            if len(new) < len(old):
                return None
            for (k0, i0, l0), (k1, i1, l1) in zip(old, new):
                if k0 != k1 or i0 != i1:
                    return None
                if l0 != l1:
                    ops.append(("list", name, k1, l1))
            for k1, _, l1 in new[len(old):]:
                x1 = world.__dict__[name][k1]
                if l1 is not None:
                    ops.append(("newlist", name, k1, l1))
                elif (isinstance(x1, Handle) and x1._world is world
                      and _HANDLES.get(x1._store_name) == name and x1._index == k1):
                    ops.append(("handle", name, k1, type(x1), x1._generation))
                else:
                    return None
        else:
            return None
    named = _result(result, world)
    if named is None:
        return None
    index = np.flatnonzero(after != before)
    entry = _Entry()
    entry.sig, entry.held, entry.after = sig, held, after
    entry.index, entry.values = index, after[index]
    entry.ops, entry.result, entry.segments = ops, named, segments
    return entry


def _result(value, world):
    """A call's result with its handles named by their dict and row (None: not nameable)."""
    if isinstance(value, Handle):
        name = _HANDLES.get(value._store_name)
        if name is None or world.__dict__[name].get(value._index) is not value:
            return None
        return ("h", name, value._index)
    if type(value) in (list, tuple):
        out = [_result(v, world) for v in value]
        return None if any(o is None for o in out) else ("seq", type(value), out)
    return None


def _made(named, world):
    if named[0] == "h":
        return world.__dict__[named[1]][named[2]]
    return named[1](_made(v, world) for v in named[2])


def _apply(entry, world, buffer, args):
    """Make ``entry``'s call on ``world`` (checked to be in the recorded state) from the
    template: its bytes, its Python changes, its segments' geometry from ``args``."""
    buffer.view(_WORD)[entry.index] = entry.values
    d = world.__dict__
    for op in entry.ops:
        kind, name = op[0], op[1]
        if kind == "pool":
            pool = d[name]
            pool._free = list(op[2])
            pool.high_water = op[3]
            pool._sorted = op[4]
        elif kind == "array":
            column = d[name]
            column.view(_u8).reshape(-1)[:] = np.frombuffer(op[2], _u8)
        elif kind == "value":
            d[name] = op[2]
        elif kind == "list":
            d[name][op[2]][:] = op[3]
        elif kind == "newlist":
            d[name][op[2]] = list(op[3])
        else:  # a new handle
            d[name][op[2]] = op[3](world, op[2], op[4])
    result = _made(entry.result, world)
    if entry.segments:
        _write_segments(world, args[1], result)
    return result


def _write_segments(world, bodies: list, made: list) -> None:
    """The segments' geometry of a static batch (``create_static_bodies(world, bodies)``,
    which made ``made``) over the template's: the two vertices, two normals and the centroid
    of each, from its ends by ``segment_arrays``' operations (IEEE double either way: the
    same bits), the rest of each row zero in the template as in the batch's arrays; the
    bodies' extents from the ends (``_ends_extents``)."""
    rows = [shape._index for _, shapes in made for shape in shapes]
    if not rows:
        return
    ends = [geom for *_, parts in bodies for _, geom, _ in parts]
    sh = world._shapes
    vertices, normals, centroid = sh.vertices, sh.normals, sh.centroid
    for s, (ax, ay, bx, by, length, *_) in zip(rows, ends):
        vertices[s, 0, 0] = ax
        vertices[s, 0, 1] = ay
        vertices[s, 1, 0] = bx
        vertices[s, 1, 1] = by
        normals[s, 0, 0] = (by - ay) / length
        normals[s, 0, 1] = -(bx - ax) / length
        normals[s, 1, 0] = (ay - by) / length
        normals[s, 1, 1] = -(ax - bx) / length
        centroid[s, 0] = 0.5 * (ax + bx)
        centroid[s, 1] = 0.5 * (ay + by)
    _ends_extents(world._bodies, [body._index for body, _ in made],
                  [shapes for _, shapes in made], ends)


_CHECKED: dict = {}
"""(buffer length, the free columns' offsets) -> the mask :meth:`_Tracker._unchanged` takes."""


def _checked_words(world, buffer):
    """A mask of the packed stores' words, all ones outside the free columns (and the bodies'
    extents), zero in them."""
    base = buffer.__array_interface__["data"][0]
    free = []
    for store, names in zip((world._bodies, world._shapes), _FREE):
        for name in (*names, "extent") if store is world._bodies else names:
            column = getattr(store, name)
            start = column.__array_interface__["data"][0] - base
            free.append((start // 8, (start + column.nbytes) // 8))
    key = (buffer.nbytes, tuple(free))
    mask = _CHECKED.get(key)
    if mask is None:
        mask = np.full(buffer.nbytes // 8, np.iinfo(_WORD).max, _WORD)
        for a, b in free:
            mask[a:b] = 0
        mask.flags.writeable = False
        if len(_CHECKED) >= _MAX:
            _CHECKED.clear()
        _CHECKED[key] = mask
    return mask


def clear() -> None:
    """Forget every template (tests)."""
    _TEMPLATES.clear()


__all__ = ["clear", "replayed", "start"]
