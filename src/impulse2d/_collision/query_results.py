"""Query results boxed by the compiled code itself, straight into the Python objects the
queries return: a ``RayHit`` (the hit shape's handle, two ``Vec2``, the fraction), a list of
``RayHit``, a list of shape handles. A kernel returns one of the three Numba types below; Numba's
Python wrapper then boxes it (the ``@box`` functions here) as the kernel returns.

Why: building the results in Python was most of a single query's cost. ``RayHit`` and ``Vec2``
are NamedTuples, whose Python-level constructors cost about 0.3 us each (0.13 us even through
``tuple.__new__``, which still parses its arguments and copies a tuple), three per hit, against
about 0.4 us for the whole grid walk, and a list of handles read through NumPy and a dict cost
about 0.1 us a shape (measured on the 2-core CI machine). Here the boxing allocates the objects
with ``PyType_GenericAlloc`` and fills their slots with ``PyTuple_SetItem``, which is what
``tuple.__new__`` does for a subclass after its parsing, so they are the same objects Python
would build.

The boxing reads the rows, fractions and normals of a list from the query index's output
buffers (the kernel wrote them; nothing runs in between) and three object addresses (``id``)
from the index's ``refs``: the world's dict of shape handles by row and the two classes. The
index holds a reference to each, and the call runs with the GIL held (Numba's Python wrapper),
so they are alive while the result is boxed. A refused query (a number not finite or out of
range: the caller then validates in full, which words the error) boxes as ``False`` for a
single hit, else ``None``.

Without the JIT (``NUMBA_DISABLE_JIT=1``) the same objects are built in Python from the same
addresses.
"""

from __future__ import annotations

import ctypes

import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import box, intrinsic, models, register_model


class _ResultType(types.Type):
    """A query's result before boxing (a struct of the fields ``FIELDS``)."""

    FIELDS: tuple = ()
    KINDS: tuple = ()

    def __init__(self):
        super().__init__(name=type(self).__name__)


class RayHitResult(_ResultType):
    """One ray's nearest hit: the row (-1 none, -2 refused), the handles' dict and the two
    classes, the fraction, the point and the normal."""

    FIELDS = (("row", types.int64), ("handles", types.int64), ("hit_class", types.int64),
              ("vec_class", types.int64), ("fraction", types.float64), ("px", types.float64),
              ("py", types.float64), ("nx", types.float64), ("ny", types.float64))


class RayHitListResult(_ResultType):
    """Every hit of a ray, ``count`` of them (-1: refused) in the output buffers at ``rows``,
    ``fractions`` and ``normals`` (addresses); the point of each is ``origin + fraction
    translation``."""

    FIELDS = (("count", types.int64), ("handles", types.int64), ("hit_class", types.int64),
              ("vec_class", types.int64), ("rows", types.int64), ("fractions", types.int64),
              ("normals", types.int64), ("ox", types.float64), ("oy", types.float64),
              ("dx", types.float64), ("dy", types.float64))


class ShapeListResult(_ResultType):
    """``count`` shapes (-1: refused), their rows in the output buffer at ``rows``."""

    FIELDS = (("count", types.int64), ("handles", types.int64), ("rows", types.int64))


class HitRowsResult(_ResultType):
    """Every hit of a ray as plain values, ``count`` of them (-1: refused) in the output
    buffers at ``rows``, ``fractions`` and ``normals``: boxed as a tuple of three lists (rows,
    fractions, ``(nx, ny)`` normals), no handle or ``RayHit`` (the pybox2d layer's ray cast)."""

    FIELDS = (("count", types.int64), ("rows", types.int64), ("fractions", types.int64),
              ("normals", types.int64))


ray_hit_type = RayHitResult()
ray_hit_list_type = RayHitListResult()
shape_list_type = ShapeListResult()
hit_rows_type = HitRowsResult()


def _model(result_type):
    class Model(models.StructModel):
        def __init__(self, dmm, fe_type):
            super().__init__(dmm, fe_type, list(result_type.FIELDS))

    register_model(type(result_type))(Model)


for _t in (ray_hit_type, ray_hit_list_type, shape_list_type, hit_rows_type):
    _model(_t)


# -- making them in a kernel -------------------------------------------------------------------

def _object_at(address):
    """The Python object whose ``id`` is ``address`` (alive: see the module's notes)."""
    return ctypes.cast(int(address), ctypes.py_object).value


def _hit_in_python(handles, hit_class, vec_class, row, fraction, px, py, nx, ny):
    vec = _object_at(vec_class)
    return tuple.__new__(_object_at(hit_class), (
        _object_at(handles).get(int(row)), tuple.__new__(vec, (float(px), float(py))),
        tuple.__new__(vec, (float(nx), float(ny))), float(fraction)))


def _buffer(address, count, dtype):
    """The ``count`` values of C type ``dtype`` at ``address``, as an array (no copy)."""
    if count == 0:
        return np.empty(0)
    return np.ctypeslib.as_array(ctypes.cast(int(address), ctypes.POINTER(dtype)),
                                 shape=(int(count),))


def _typed(result_type, arguments):
    """An intrinsic's typing: ``(signature, codegen)`` making ``result_type`` from its fields
    (integers and reals as the fields are), or None for other arguments."""
    fields = result_type.FIELDS
    if not all(isinstance(a, types.Integer if t is types.int64 else types.Float)
               for a, (_, t) in zip(arguments, fields)):
        return None

    def codegen(context, builder, sig, args):
        result = cgutils.create_struct_proxy(result_type)(context, builder)
        for (name, field), value, given in zip(fields, args, sig.args):
            setattr(result, name, context.cast(builder, value, given, field))
        return result._getvalue()

    return result_type(*arguments), codegen


if numba.config.DISABLE_JIT:
    def ray_hit(row, handles, hit_class, vec_class, fraction, px, py, nx, ny):
        """A :class:`RayHitResult` (here the boxed object itself: the JIT is off)."""
        if row < 0:
            return None if row == -1 else False
        return _hit_in_python(handles, hit_class, vec_class, row, fraction, px, py, nx, ny)

    def ray_hit_list(count, handles, hit_class, vec_class, rows, fractions, normals, ox, oy,
                     dx, dy):
        """A :class:`RayHitListResult` (here the boxed list itself: the JIT is off)."""
        if count < 0:
            return None
        r = _buffer(rows, count, ctypes.c_int64)
        f = _buffer(fractions, count, ctypes.c_double)
        n = _buffer(normals, 2 * count, ctypes.c_double)
        return [_hit_in_python(handles, hit_class, vec_class, r[k], f[k], ox + f[k] * dx,
                               oy + f[k] * dy, n[2 * k], n[2 * k + 1]) for k in range(count)]

    def shape_list(count, handles, rows):
        """A :class:`ShapeListResult` (here the boxed list itself: the JIT is off)."""
        if count < 0:
            return None
        shapes = _object_at(handles)
        return [shapes.get(int(s)) for s in _buffer(rows, count, ctypes.c_int64)]

    def hit_rows(count, rows, fractions, normals):
        """A :class:`HitRowsResult` (here the boxed tuple itself: the JIT is off)."""
        if count < 0:
            return None
        n = _buffer(normals, 2 * count, ctypes.c_double)
        return ([int(r) for r in _buffer(rows, count, ctypes.c_int64)],
                [float(f) for f in _buffer(fractions, count, ctypes.c_double)],
                [(float(n[2 * k]), float(n[2 * k + 1])) for k in range(count)])
else:
    @intrinsic
    def ray_hit(typingctx, row, handles, hit_class, vec_class, fraction, px, py, nx, ny):
        """A :class:`RayHitResult`."""
        return _typed(ray_hit_type, (row, handles, hit_class, vec_class, fraction, px, py, nx,
                                     ny))

    @intrinsic
    def ray_hit_list(typingctx, count, handles, hit_class, vec_class, rows, fractions, normals,
                     ox, oy, dx, dy):
        """A :class:`RayHitListResult`."""
        return _typed(ray_hit_list_type, (count, handles, hit_class, vec_class, rows,
                                          fractions, normals, ox, oy, dx, dy))

    @intrinsic
    def shape_list(typingctx, count, handles, rows):
        """A :class:`ShapeListResult`."""
        return _typed(shape_list_type, (count, handles, rows))

    @intrinsic
    def hit_rows(typingctx, count, rows, fractions, normals):
        """A :class:`HitRowsResult`."""
        return _typed(hit_rows_type, (count, rows, fractions, normals))


# -- boxing ------------------------------------------------------------------------------------

def _call(pyapi, name, result, argument_types, arguments):
    fn = pyapi._get_function(ir.FunctionType(result, argument_types), name=name)
    return pyapi.builder.call(fn, arguments)


def _alloc(pyapi, cls, n):
    """A new instance of the tuple subclass ``cls`` with ``n`` empty slots, or NULL (an
    exception set)."""
    return _call(pyapi, "PyType_GenericAlloc", pyapi.pyobj, [pyapi.pyobj, pyapi.py_ssize_t],
                 [cls, pyapi.py_ssize_t(n)])


def _shape(pyapi, handles, row):
    """A new reference to the handle of shape ``row`` (None if absent: not expected)."""
    builder = pyapi.builder
    key = pyapi.long_from_longlong(row)
    shape = pyapi.dict_getitem(handles, key)  # borrowed; NULL (no exception) if absent
    pyapi.decref(key)  # NULL if it failed: Py_DecRef ignores it, and the lookup found nothing
    shape = builder.select(cgutils.is_null(builder, shape), pyapi.borrow_none(), shape)
    pyapi.incref(shape)
    return shape


def _hit(pyapi, handles, hit_class, vec_class, row, fraction, px, py, nx, ny):
    """A new ``RayHit``, or NULL (an exception set, nothing leaked)."""
    builder = pyapi.builder
    shape = _shape(pyapi, handles, row)
    objects = [pyapi.float_from_double(px), pyapi.float_from_double(py),
               pyapi.float_from_double(nx), pyapi.float_from_double(ny),
               pyapi.float_from_double(fraction), _alloc(pyapi, vec_class, 2),
               _alloc(pyapi, vec_class, 2), _alloc(pyapi, hit_class, 4)]
    ok = cgutils.true_bit
    for o in objects:
        ok = builder.and_(ok, cgutils.is_not_null(builder, o))
    out = cgutils.alloca_once(builder, pyapi.pyobj)
    px, py, nx, ny, fraction, point, normal, hit = objects
    with builder.if_else(ok, likely=True) as (built, failed):
        with built:  # every object made: the slots steal the references
            pyapi.tuple_setitem(point, 0, px)
            pyapi.tuple_setitem(point, 1, py)
            pyapi.tuple_setitem(normal, 0, nx)
            pyapi.tuple_setitem(normal, 1, ny)
            pyapi.tuple_setitem(hit, 0, shape)
            pyapi.tuple_setitem(hit, 1, point)
            pyapi.tuple_setitem(hit, 2, normal)
            pyapi.tuple_setitem(hit, 3, fraction)
            builder.store(hit, out)
        with failed:  # out of memory
            pyapi.decref(shape)
            for o in objects:
                pyapi.decref(o)  # Py_DecRef ignores NULL
            builder.store(pyapi.get_null_object(), out)
    return builder.load(out)


def _load(builder, address, index, kind):
    pointer = builder.inttoptr(address, ir.PointerType(kind))
    return builder.load(builder.gep(pointer, [index]))


def _list(c, count, item):
    """A new list of ``count`` items, ``item(k)`` (a new reference or NULL) each; None if
    ``count`` is negative (refused); NULL if an item failed (an exception set)."""
    pyapi = c.pyapi
    builder = c.builder
    out = cgutils.alloca_once(builder, pyapi.pyobj)
    zero = ir.Constant(count.type, 0)
    with builder.if_else(builder.icmp_signed("<", count, zero)) as (refused, done):
        with refused:
            builder.store(pyapi.make_none(), out)
        with done:
            items = pyapi.list_new(count)
            ok = cgutils.alloca_once_value(builder, cgutils.is_not_null(builder, items))
            with builder.if_then(builder.load(ok), likely=True):
                with cgutils.for_range(builder, count) as loop:
                    with builder.if_then(builder.load(ok), likely=True):
                        value = item(loop.index)
                        with builder.if_else(cgutils.is_not_null(builder, value),
                                             likely=True) as (made, failed):
                            with made:
                                pyapi.list_setitem(items, loop.index, value)  # steals
                            with failed:
                                builder.store(cgutils.false_bit, ok)
            with builder.if_else(builder.load(ok), likely=True) as (fine, failed):
                with fine:
                    builder.store(items, out)
                with failed:
                    pyapi.decref(items)  # NULL slots are skipped
                    builder.store(pyapi.get_null_object(), out)
    return builder.load(out)


@box(RayHitResult)
def _box_ray_hit(typ, val, c):
    pyapi = c.pyapi
    builder = c.builder
    s = cgutils.create_struct_proxy(typ)(c.context, builder, value=val)
    out = cgutils.alloca_once(builder, pyapi.pyobj)
    with builder.if_else(builder.icmp_signed(">=", s.row, ir.Constant(s.row.type, 0))) as (
            hit, no_hit):
        with hit:
            builder.store(_hit(pyapi, builder.inttoptr(s.handles, pyapi.pyobj),
                               builder.inttoptr(s.hit_class, pyapi.pyobj),
                               builder.inttoptr(s.vec_class, pyapi.pyobj), s.row, s.fraction,
                               s.px, s.py, s.nx, s.ny), out)
        with no_hit:  # None for a miss, False for a refused ray
            missed = builder.icmp_signed("==", s.row, ir.Constant(s.row.type, -1))
            answer = builder.select(missed, pyapi.borrow_none(),
                                    pyapi.get_c_object("_Py_FalseStruct"))
            pyapi.incref(answer)
            builder.store(answer, out)
    return builder.load(out)


@box(RayHitListResult)
def _box_ray_hit_list(typ, val, c):
    pyapi = c.pyapi
    builder = c.builder
    s = cgutils.create_struct_proxy(typ)(c.context, builder, value=val)
    handles = builder.inttoptr(s.handles, pyapi.pyobj)
    hit_class = builder.inttoptr(s.hit_class, pyapi.pyobj)
    vec_class = builder.inttoptr(s.vec_class, pyapi.pyobj)
    double = ir.DoubleType()

    def item(k):
        row = _load(builder, s.rows, k, ir.IntType(64))
        fraction = _load(builder, s.fractions, k, double)
        twice = builder.mul(k, ir.Constant(k.type, 2))
        nx = _load(builder, s.normals, twice, double)
        ny = _load(builder, s.normals, builder.add(twice, ir.Constant(k.type, 1)), double)
        # origin + fraction translation, as Python computes it (a product, then a sum)
        px = builder.fadd(s.ox, builder.fmul(fraction, s.dx))
        py = builder.fadd(s.oy, builder.fmul(fraction, s.dy))
        return _hit(pyapi, handles, hit_class, vec_class, row, fraction, px, py, nx, ny)

    return _list(c, s.count, item)


@box(ShapeListResult)
def _box_shape_list(typ, val, c):
    pyapi = c.pyapi
    builder = c.builder
    s = cgutils.create_struct_proxy(typ)(c.context, builder, value=val)
    handles = builder.inttoptr(s.handles, pyapi.pyobj)
    return _list(c, s.count,
                 lambda k: _shape(pyapi, handles, _load(builder, s.rows, k, ir.IntType(64))))


def _pair(pyapi, x, y):
    """A new ``(x, y)`` tuple of floats, or NULL (an exception set, nothing leaked)."""
    builder = pyapi.builder
    objects = [pyapi.float_from_double(x), pyapi.float_from_double(y), pyapi.tuple_new(2)]
    ok = cgutils.true_bit
    for o in objects:
        ok = builder.and_(ok, cgutils.is_not_null(builder, o))
    out = cgutils.alloca_once(builder, pyapi.pyobj)
    fx, fy, pair = objects
    with builder.if_else(ok, likely=True) as (built, failed):
        with built:  # the slots steal the references
            pyapi.tuple_setitem(pair, 0, fx)
            pyapi.tuple_setitem(pair, 1, fy)
            builder.store(pair, out)
        with failed:
            for o in objects:
                pyapi.decref(o)
            builder.store(pyapi.get_null_object(), out)
    return builder.load(out)


@box(HitRowsResult)
def _box_hit_rows(typ, val, c):
    pyapi = c.pyapi
    builder = c.builder
    s = cgutils.create_struct_proxy(typ)(c.context, builder, value=val)
    double = ir.DoubleType()
    out = cgutils.alloca_once(builder, pyapi.pyobj)
    with builder.if_else(builder.icmp_signed("<", s.count, ir.Constant(s.count.type, 0))) as (
            refused, done):
        with refused:
            builder.store(pyapi.make_none(), out)
        with done:
            def normal(k):
                twice = builder.mul(k, ir.Constant(k.type, 2))
                return _pair(pyapi, _load(builder, s.normals, twice, double),
                             _load(builder, s.normals,
                                   builder.add(twice, ir.Constant(k.type, 1)), double))

            lists = [
                _list(c, s.count, lambda k: pyapi.long_from_longlong(
                    _load(builder, s.rows, k, ir.IntType(64)))),
                _list(c, s.count, lambda k: pyapi.float_from_double(
                    _load(builder, s.fractions, k, double))),
                _list(c, s.count, normal)]
            ok = cgutils.true_bit
            for o in lists:
                ok = builder.and_(ok, cgutils.is_not_null(builder, o))
            with builder.if_else(ok, likely=True) as (built, failed):
                with built:
                    result = pyapi.tuple_pack(lists)  # new references to the lists
                    for o in lists:
                        pyapi.decref(o)
                    builder.store(result, out)
                with failed:
                    for o in lists:
                        pyapi.decref(o)  # Py_DecRef ignores NULL
                    builder.store(pyapi.get_null_object(), out)
    return builder.load(out)


__all__ = ["ray_hit", "ray_hit_list", "shape_list", "hit_rows", "ray_hit_type",
           "ray_hit_list_type", "shape_list_type", "hit_rows_type", "RayHitResult",
           "RayHitListResult", "ShapeListResult", "HitRowsResult"]
