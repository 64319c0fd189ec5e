"""Session 32's variants of the batch kernel's prefetch (``stepW57``), as a prototype file for
``lander_prefetch_ab.py``: the same lines as ``prefetch_world``, asked in fewer instructions.

    LANDER_PREFETCH_PROTOTYPE=benchmarks/lander_prefetch_spans.py PYTHONPATH=src \\
        python benchmarks/lander_prefetch_ab.py --variants main,spans

``table``: session 31's ``prefetch_world`` (one loop over the table's rows in the payload's
order, each row's kind tested, each array's lines asked by ``range(first, end, LINE)``: a trip
count, a remainder loop and an eight-fold unrolled one, ~25 instructions an array before its
first line, 126 arrays a world), for the tree that has ``spans`` built in; ``spans``: the
table's rows grouped by kind (a loop a kind: no test of the kind a row), each array's lines
asked by a plain loop over its span, the form built into ``batch_step`` in session 32;
``skip``: ``spans`` with the contact store's columns left unread when its first is empty, and
the constraint store's but its three lane columns (a lander in the air: 41 empty arrays).
``table`` and ``spans`` ask for the same lines (checked in session 32 with each prefetch
recorded instead: ``results/stepW57_lines_check_s32.txt``).
"""
import numba
import numpy as np

from impulse2d._dynamics import batch_step as bs

_jit = numba.njit(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True,
                  error_model="numpy", cache=False)
_inline = numba.njit(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True,
                     error_model="numpy", cache=False, inline="always")

BIG = 1 << 62


def _by_kind():
    """The module's table sorted by kind (stable: the payload's order within a kind) and the end
    of each kind's rows."""
    table, _ = bs.prefetch_table()
    order = np.argsort(table[:, bs.KIND], kind="stable")
    sorted_table = np.ascontiguousarray(table[order])
    ends = tuple(int(np.searchsorted(sorted_table[:, bs.KIND], kind, side="right"))
                 for kind in range(bs.JOINT_LIST + 1))
    return sorted_table, ends


def _store_rows(table):
    """The rows (first, end) of the contact store's columns in ``table`` and of the constraint
    store's (each of :data:`~batch_step.EVERY_ROW`: the table's first rows, in the payload's
    order, the contacts then the constraints)."""
    from numba.core import types

    from impulse2d._dynamics.world_ref import WORLD_STORES
    words, start = 0, {}
    for field, t in WORLD_STORES.field_dict.items():
        start[field] = 8 * (words + 4)
        words += sum(5 + 2 * a.ndim for a in bs._arrays(t))
    data = table[:, bs.DATA].tolist()
    c0 = data.index(start["contacts"])
    k0 = data.index(start["constraints"])
    k1 = k0 + len(WORLD_STORES.field_dict["constraints"])
    assert c0 == 0 and k0 == len(WORLD_STORES.field_dict["contacts"]) and isinstance(
        WORLD_STORES.field_dict["constraints"], types.BaseNamedTuple)
    return c0, k0, k0, k1


def make_prefetch(name="spans"):
    """The variant ``name``'s ``prefetch_world``."""
    line = bs._prefetch_line
    table, ends = _by_kind()
    e_every, e_body, e_shape, e_vertex, e_joint = ends
    data_col, length_col, stride_col, line_bytes = bs.DATA, bs.LENGTH, bs.STRIDE, bs.LINE
    if name == "table":
        return _table_form()
    if name not in ("spans", "skip"):
        raise ValueError(f"no variant {name!r}")
    c0, c1, k0, k1 = _store_rows(table)  # the contact store's rows, the constraint store's
    skip = name == "skip"

    @_inline
    def span(first, end):
        if end > first:
            address = first & -line_bytes
            while address < end:
                line(address)
                address += line_bytes

    @_inline
    def described(payload, k, limit):
        return (bs._word(payload + table[k, data_col]),
                min(bs._word(payload + table[k, length_col]), limit),
                bs._word(payload + table[k, stride_col]))

    @_jit
    def prefetch(refs, j, body_rows, shape_rows, vertices):
        head = bs._reference_head(refs, j)
        payload = bs._payload_address(head)
        if skip:
            # a store's row columns share its rows: none, none of them asked (the constraint
            # store's last three, its lanes', asked apart)
            if bs._word(payload + table[c0, length_col]) > 0:
                for k in range(c0, c1):
                    data, n, stride = described(payload, k, BIG)
                    span(data, data + n * stride)
            first = k0 if bs._word(payload + table[k0, length_col]) > 0 else k1 - 3
            for k in range(first, e_every):
                data, n, stride = described(payload, k, BIG)
                span(data, data + n * stride)
        else:
            for k in range(e_every):
                data, n, stride = described(payload, k, BIG)
                span(data, data + n * stride)
        body_limit = body_rows if body_rows > 0 else BIG
        for k in range(e_every, e_body):
            data, n, stride = described(payload, k, body_limit)
            span(data, data + n * stride)
        shape_limit = shape_rows if shape_rows > 0 else BIG
        for k in range(e_body, e_shape):
            data, n, stride = described(payload, k, shape_limit)
            span(data, data + n * stride)
        width = 16 * vertices
        for k in range(e_shape, e_vertex):
            data, n, stride = described(payload, k, shape_limit)
            if 0 < width < stride:
                for _ in range(n):
                    span(data, data + width)
                    data += stride
            else:
                span(data, data + n * stride)
        joints = False
        for k in range(e_vertex, e_joint):
            data, n, stride = described(payload, k, BIG)
            joints = joints or n > 0
            span(data, data + n * stride)
        if joints:
            first, end = bs._descriptors_span(head, "joints")
            span(first, end)

    return prefetch


def _table_form():
    """Session 31's ``prefetch_world`` (``table``)."""
    line = bs._prefetch_line
    table, _ = bs.prefetch_table()
    table = np.ascontiguousarray(table[np.argsort(table[:, bs.DATA])])  # the payload's order
    kind_col, data_col, length_col, stride_col = bs.KIND, bs.DATA, bs.LENGTH, bs.STRIDE
    line_bytes = bs.LINE
    body, shape, vertex, joint_list = bs.BODY_ROW, bs.SHAPE_ROW, bs.VERTEX_ROW, bs.JOINT_LIST

    @_jit
    def prefetch(refs, j, body_rows, shape_rows, vertices):
        head = bs._reference_head(refs, j)
        payload = bs._payload_address(head)
        joints = False
        for k in range(table.shape[0]):
            kind = table[k, kind_col]
            data = bs._word(payload + table[k, data_col])
            length = bs._word(payload + table[k, length_col])
            stride = bs._word(payload + table[k, stride_col])
            if kind == joint_list:
                joints = joints or length > 0
            rows = (body_rows if kind == body else
                    shape_rows if kind == shape or kind == vertex else 0)
            n = length if rows <= 0 or rows > length else rows
            if kind == vertex and 0 < 16 * vertices < stride:
                for _ in range(n):
                    for address in range(data - data % line_bytes, data + 16 * vertices,
                                         line_bytes):
                        line(address)
                    data += stride
            elif n > 0:
                for address in range(data - data % line_bytes, data + n * stride, line_bytes):
                    line(address)
        if joints:
            first, end = bs._descriptors_span(head, "joints")
            for address in range(first - first % line_bytes, end, line_bytes):
                line(address)

    return prefetch
