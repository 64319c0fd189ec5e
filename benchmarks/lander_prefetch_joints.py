"""Session 33's variants of the batch kernel's prefetch for a world with joints (``linesD58``),
as a prototype file for ``lander_prefetch_ab.py``: the joint store's lines.

    LANDER_PREFETCH_PROTOTYPE=benchmarks/lander_prefetch_joints.py PYTHONPATH=src \\
        python benchmarks/lander_prefetch_ab.py --variants spans,jdesc,jdata,jboth

The module's ``prefetch_world`` asks for the joint store's 60 descriptors (its whole span in
the reference's payload, ~57 lines) once a world's joint lists hold a row, and for none of
its columns' data: a lander's revolute passes read 27 of the 60 columns (:data:`READ`), a
line each (4 rows of 2 joints), and each is a miss that nothing asked for. Variants:

* ``spans``: the module's form compiled here (the baseline of the others: a form compiled in
  the process reads 1.5-2 % better than the cached one, session 32);
* ``jdesc``: ``spans`` with only the lines of the :data:`READ` columns' data, length and stride
  words asked for of the joint descriptors;
* ``jdata``: ``spans``, and right before a world's step (an edit of ``_walk``) the lines of its
  :data:`READ` columns' rows in use, their descriptors found in the cache (asked for by the
  previous world's ``prefetch_world``);
* ``jboth``: ``jdesc`` and ``jdata``;
* ``jnext``: ``jdesc``, and the :data:`READ` columns' lines asked in ``prefetch_world`` itself
  (the next world's: its joint descriptors read from memory there, no edit of ``_walk``).

``jboth`` is what ``batch_step`` has built since (``prefetch_joints``, ``JOINT_COLUMNS``); on
that tree ``before`` is ``spans`` with the call taken out of ``_walk`` (session 32's form) and
``after`` the module's own ``prefetch_world`` and ``_walk``, both compiled here.
"""
import numba
import numpy as np

from impulse2d._core.state import Joints
from impulse2d._dynamics import batch_step as bs
from impulse2d._dynamics.world_ref import WORLD_STORES

from lander_prefetch_spans import BIG, _by_kind

_jit = numba.njit(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True,
                  error_model="numpy", cache=False)
_inline = numba.njit(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True,
                     error_model="numpy", cache=False, inline="always")

READ = ("alive", "body_a", "body_b", "local_anchor_a", "local_anchor_b", "reference_angle",
        "enable_limit", "lower", "upper", "enable_motor", "motor_speed", "max_motor",
        "enable_spring", "hertz", "damping_ratio", "linear_impulse", "spring_impulse",
        "motor_impulse", "lower_impulse", "upper_impulse", "frame_a", "frame_b",
        "delta_center", "delta_angle", "axial_mass", "spring_soft", "turn_kept")
"""The joint store's columns that a step of revolute joints reads (``joints/revolute.py``,
``rows.py``, ``jacobian_rows.py``, the islands' ``alive``, ``body_a``, ``body_b``, the motors'
wake test), by their names in those files."""


def joint_table(names=READ):
    """``(DATA, LENGTH, STRIDE)`` byte offsets in a reference's payload of the joint store's
    columns ``names`` (in the store's order)."""
    words = 0
    for field, t in WORLD_STORES.field_dict.items():
        if field == "joints":
            break
        words += sum(5 + 2 * a.ndim for a in bs._arrays(t))
    rows = []
    for name, array in zip(Joints._fields, bs._arrays(WORLD_STORES.field_dict["joints"])):
        if name in names:
            rows.append((8 * (words + 4), 8 * (words + 5), 8 * (words + 5 + array.ndim)))
        words += 5 + 2 * array.ndim
    assert len(rows) == len(names)
    return np.array(rows, dtype=np.int64)


JOINT_TABLE = joint_table()
_FULL, _ENDS = _by_kind()
_LISTS = (_ENDS[3], _ENDS[4])  # the joint lists' rows of the module's table


@_jit
def prefetch_joint_data(refs, i):
    """The lines of world ``refs[i]``'s :data:`READ` columns, over as many rows as its joint
    lists hold (none without joints)."""
    line = bs._prefetch_line
    table = JOINT_TABLE
    head = bs._reference_head(refs, i)
    payload = bs._payload_address(head)
    full = _FULL
    rows = 0
    for k in range(_LISTS[0], _LISTS[1]):
        rows += bs._word(payload + full[k, bs.LENGTH])
    if rows > 0:
        for k in range(table.shape[0]):
            data = bs._word(payload + table[k, 0])
            n = min(bs._word(payload + table[k, 1]), rows)
            end = data + n * bs._word(payload + table[k, 2])
            address = data & -bs.LINE
            while address < end:
                line(address)
                address += bs.LINE


_CALL = "            prefetch_joints(refs, i)\n"


def _without(source):
    """``_walk`` without the joint columns' prefetch (session 32's)."""
    return source.replace(_CALL, "")


def _with(source):
    """``_walk`` with it (this file's, on a tree that has none)."""
    if _CALL in source:
        return source
    return source.replace("            i = which[k]\n",
                          "            i = which[k]\n            prefetch_joint_data(refs, i)\n")


WALK = {"before": _without, "spans": _without, "jdesc": _without, "jnext": _without,
        "jdata": _with, "jboth": _with}
GLOBALS = {"prefetch_joint_data": prefetch_joint_data}


def make_prefetch(name="spans"):
    """The variant ``name``'s ``prefetch_world``."""
    if name == "after":
        return bs.prefetch_world
    if name == "before":
        name = "spans"
    if name not in ("spans", "jdesc", "jdata", "jboth", "jnext"):
        raise ValueError(f"no variant {name!r}")
    line = bs._prefetch_line
    table, ends = _by_kind()
    e_every, e_body, e_shape, e_vertex, e_joint = ends
    data_col, length_col, stride_col, line_bytes = bs.DATA, bs.LENGTH, bs.STRIDE, bs.LINE
    jtable = JOINT_TABLE
    few = name in ("jdesc", "jboth", "jnext")
    nxt = name == "jnext"

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
        rows = 0
        for k in range(e_vertex, e_joint):
            data, n, stride = described(payload, k, BIG)
            rows += n
            span(data, data + n * stride)
        if rows > 0:
            if few:
                for k in range(jtable.shape[0]):
                    line(payload + jtable[k, 0])
                    line(payload + jtable[k, 2])
            else:
                first, end = bs._descriptors_span(head, "joints")
                span(first, end)
            if nxt:
                for k in range(jtable.shape[0]):
                    data = bs._word(payload + jtable[k, 0])
                    n = min(bs._word(payload + jtable[k, 1]), rows)
                    span(data, data + n * bs._word(payload + jtable[k, 2]))

    return prefetch


def _offsets(arrays):
    """The DATA offsets (the payload's bytes) of the reference's arrays ``arrays``: ``(field,
    index)`` pairs, the index into the field's arrays (a store's column, a tuple's item)."""
    words, found = 0, set()
    for field, t in WORLD_STORES.field_dict.items():
        for k, array in enumerate(bs._arrays(t)):
            if (field, k) in arrays:
                found.add(8 * (words + 4))
            words += 5 + 2 * array.ndim
    return found


NORMALS = {("shapes", 6)}
"""The shapes' normals (``Shapes``' seventh column): read only by the polygons' narrowphase
(11 % of a lander's world-steps, 0.37 of their 28 prefetched lines a world-step)."""
GRID_RARE = {("static_grid", k) for k in (0, 1, 2, 3, 4, 5, 7, 10, 11)}
"""The kept static grid's arrays but its PARAMS, COUNTS and BODY_SCRATCH: read only when a
body moves fast enough for the continuous stage's sweep (17-19 % of a lander's world-steps;
~35 prefetched lines, ~4 read a world-step)."""


def make_cut(name):
    """``after`` (the module's form) with the table's rows of ``NORMALS`` (``nonormals``),
    ``GRID_RARE`` (``nogrid``) or both (``cut``) left out."""
    from impulse2d._core.state import Shapes
    assert Shapes._fields[6] == "normals"
    drop = {"nonormals": NORMALS, "nogrid": GRID_RARE, "cut": NORMALS | GRID_RARE}[name]
    full, _ = bs.prefetch_table()
    gone = _offsets(drop)
    table = np.ascontiguousarray(full[[row[bs.DATA] not in gone for row in full]])
    every, bodies, shapes, vertex_rows, joint_lists = (
        int(np.searchsorted(table[:, bs.KIND], kind, side="right"))
        for kind in range(bs.JOINT_LIST + 1))
    columns = bs.joint_columns_table()
    data_col, length_col, stride_col = bs.DATA, bs.LENGTH, bs.STRIDE
    line = bs._prefetch_line

    @_inline
    def span(first, end):
        if end > first:
            address = first & -bs.LINE
            while address < end:
                line(address)
                address += bs.LINE

    @_inline
    def described(payload, k, limit):
        return (bs._word(payload + table[k, data_col]),
                min(bs._word(payload + table[k, length_col]), limit),
                bs._word(payload + table[k, stride_col]))

    @_jit
    def prefetch(refs, j, body_rows, shape_rows, vertices):
        head = bs._reference_head(refs, j)
        payload = bs._payload_address(head)
        for k in range(every):
            data, n, stride = described(payload, k, BIG)
            span(data, data + n * stride)
        body_limit = body_rows if body_rows > 0 else BIG
        for k in range(every, bodies):
            data, n, stride = described(payload, k, body_limit)
            span(data, data + n * stride)
        shape_limit = shape_rows if shape_rows > 0 else BIG
        for k in range(bodies, shapes):
            data, n, stride = described(payload, k, shape_limit)
            span(data, data + n * stride)
        width = 16 * vertices
        for k in range(shapes, vertex_rows):
            data, n, stride = described(payload, k, shape_limit)
            if 0 < width < stride:
                for _ in range(n):
                    span(data, data + width)
                    data += stride
            else:
                span(data, data + n * stride)
        joints = False
        for k in range(vertex_rows, joint_lists):
            data, n, stride = described(payload, k, BIG)
            joints = joints or n > 0
            span(data, data + n * stride)
        if joints:
            for k in range(columns.shape[0]):
                line(payload + columns[k, data_col])
                line(payload + columns[k, stride_col])

    return prefetch


_make_prefetch = make_prefetch


def make_prefetch(name="spans"):  # noqa: F811 (the cuts, then the joints' variants)
    """The variant ``name``'s ``prefetch_world``."""
    if name in ("nonormals", "nogrid", "cut"):
        return make_cut(name)
    return _make_prefetch(name)
