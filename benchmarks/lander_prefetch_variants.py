"""The variants of the batch kernel's prefetch that ``lander_prefetch_ab.py`` paired in session 27
(``lander52``), as its prototype file:

    LANDER_PREFETCH_PROTOTYPE=benchmarks/lander_prefetch_variants.py PYTHONPATH=src \
        python benchmarks/lander_prefetch_ab.py --variants main,table,t_nogrid

``table``: ``prefetch_world``'s table form as first written (the same lines as the unrolled
form; since built into ``batch_step``); ``t_*``: the table with a field or columns left out
(``t_nojd`` the joint store's descriptors, ``t_nogrid`` the kept static grid, ``t_noverbs``,
``t_noverts`` the shapes' vertices and normals, ``t_nocons``, ``t_nocontacts``, ``t_noawake``,
``t_nobodies``, ``t_noshapes``) or added (``t_jrows`` every joint column's rows, ``t_jfirst``
the first line of each), another prefetch hint (``t_loc3``, ``t_loc1``, ``t_loc0``: LLVM's
locality 3, 1, 0 for ``prefetcht0``, ``t2``, ``nta``), the walk's stages further ahead (``t_d2``
all of them by one world; ``t_ref3``, ``t_ref4`` the reference's header and payload by one or
two), or the scratch lent uncounted (``t_swap``: ``batch_prefetch_ab.py``'s ``_lend``).
"""
import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.core.runtime.nrtdynmod import _meminfo_struct_type
from numba.extending import intrinsic

from impulse2d._core.state import Bodies, Shapes
from impulse2d._dynamics import batch_step as bs
from impulse2d._dynamics.world_ref import WORLD_STORES

from batch_prefetch_ab import _lend, _take_back  # (lander_prefetch_ab.py's folder on the path)

_jit = numba.njit(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True,
                  error_model="numpy", cache=False)

# kinds
SKIP, ALL, BODY, SHAPE, HEADS, JOINT_LIST, FIRST = range(7)
DATA, LENGTH, STRIDE, KIND = range(4)

OMIT = ("joints", "diagnostics", "scratch", "scratch_f")


def _leaves(t):
    """Every array type in ``t`` (an array or nested tuples of them), in layout order."""
    if isinstance(t, types.Array):
        yield t
    elif isinstance(t, types.BaseTuple):
        for item in t.types:
            yield from _leaves(item)
    else:
        raise TypeError(f"not an array or a tuple of arrays: {t}")


def table(kinds_of=None):
    rows = []
    offset = 0  # words
    for name, t in WORLD_STORES.field_dict.items():
        columns = getattr(t, "fields", None)
        for k, a in enumerate(_leaves(t)):
            col = columns[k] if columns and isinstance(t, types.BaseNamedTuple) else None
            kind = ALL
            if name in OMIT:
                kind = SKIP
            elif name == "bodies":
                kind = SKIP if col in bs.UNREAD[Bodies] else BODY
            elif name == "shapes":
                kind = (SKIP if col in bs.UNREAD[Shapes] else HEADS if col in bs.BY_VERTEX[Shapes]
                        else SHAPE)
            elif name == "joint_ids":
                kind = JOINT_LIST
            if kinds_of is not None:
                kind = kinds_of(name, col, kind)
            if kind != SKIP:
                rows.append((8 * (offset + 4), 8 * (offset + 5), 8 * (offset + 5 + a.ndim), kind))
            offset += 5 + 2 * a.ndim
    return np.array(rows, dtype=np.int64), offset


def make_table_intrinsic(kinds_of=None):
    @intrinsic
    def _table(typingctx, refs):
        tab, words = table(kinds_of)
        array_type = types.Array(types.int64, 2, "C", readonly=True)

        def codegen(context, builder, signature, args):
            size = context.get_abi_sizeof(context.get_data_type(WORLD_STORES.get_data_type()))
            assert size == 8 * words, (size, words)
            return context.make_constant_array(builder, array_type, tab)

        return array_type(refs), codegen
    return _table


@intrinsic
def _payload_of(typingctx, head):
    def codegen(context, builder, signature, args):
        header = builder.inttoptr(args[0], _meminfo_struct_type.as_pointer())
        return builder.ptrtoint(builder.load(cgutils.gep(builder, header, 0, 3)), ir.IntType(64))
    return types.int64(types.int64), codegen


@intrinsic
def _word(typingctx, address):
    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        return builder.load(builder.inttoptr(args[0], i64.as_pointer()))
    return types.int64(types.int64), codegen


def make_prefetch(name=None, kinds_of=None):
    descr = name not in ('t_nojd', 't_jd_early')
    kinds_of = KINDS.get(name, kinds_of)
    _table = make_table_intrinsic(kinds_of)
    LINE = 64
    _line = LINES.get(name, bs._prefetch_line)
    _head_of = bs._reference_head
    _span = bs._descriptors_span

    @_jit
    def prefetch_world(refs, j, body_rows, shape_rows, vertices):
        tab = _table(refs)
        head = _head_of(refs, j)
        payload = _payload_of(head)
        joints = False
        for k in range(tab.shape[0]):
            kind = tab[k, KIND]
            data = _word(payload + tab[k, DATA])
            length = _word(payload + tab[k, LENGTH])
            stride = _word(payload + tab[k, STRIDE])
            if kind == JOINT_LIST:
                joints = joints or length > 0
            rows = (body_rows if kind == BODY else
                    shape_rows if kind == SHAPE or kind == HEADS else 0)
            n = length if rows <= 0 or rows > length else rows
            if kind == FIRST:
                if length > 0:
                    _line(data)
            elif kind == HEADS and 0 < 16 * vertices < stride:
                for _ in range(n):
                    for address in range(data - data % LINE, data + 16 * vertices, LINE):
                        _line(address)
                    data += stride
            elif n > 0:
                for address in range(data - data % LINE, data + n * stride, LINE):
                    _line(address)
        if joints and descr:
            first, end = _span(head, "joints")
            for address in range(first - first % LINE, end, LINE):
                _line(address)
    return prefetch_world


def _set(store, kind, cols=None):
    def f(name, col, k):
        return kind if name == store and (cols is None or col in cols) else k
    return f

KINDS = {"table": None, "t_jrows": _set("joints", ALL), "t_nogrid": _set("static_grid", SKIP),
         "t_noverbs": _set("verbs", SKIP), "t_noverts": _set("shapes", SKIP, ("vertices", "normals")),
         "t_nocons": _set("constraints", SKIP), "t_nocontacts": _set("contacts", SKIP),
         "t_noawake": lambda n, c, k: SKIP if n.startswith("awake") or n == "contact_edges" else k,
         "t_nobodies": _set("bodies", SKIP), "t_noshapes": _set("shapes", SKIP)}



def _line_intrinsic(locality):
    _BYTE = ir.IntType(8).as_pointer()

    @intrinsic
    def _line(typingctx, address):
        def codegen(context, builder, signature, args):
            i32 = ir.IntType(32)
            fn = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(ir.VoidType(), [_BYTE, i32, i32, i32]),
                "llvm.prefetch.p0i8")
            builder.call(fn, [builder.inttoptr(args[0], _BYTE), ir.Constant(i32, 0),
                              ir.Constant(i32, locality), ir.Constant(i32, 1)])
            return context.get_dummy_value()
        return types.none(types.int64), codegen
    return _line


LINES = {"t_loc3": _line_intrinsic(3), "t_loc1": _line_intrinsic(1), "t_loc0": _line_intrinsic(0)}
KINDS.update({k: None for k in LINES})


def _ahead(source, by):
    out = source.replace("3 * d", f"{3 + by} * d").replace("2 * d", f"{2 + by} * d")
    out = out.replace("k + d <", f"k + {1 + by} * d <").replace("which[k + d]", f"which[k + {1 + by} * d]")
    assert out != source
    return out


WALK = {"t_d2": lambda s: _ahead(s, 1)}
KINDS["t_d2"] = None

KINDS["t_jfirst"] = _set("joints", FIRST)


def _ref_ahead(source, by):
    out = source.replace("3 * d", f"{3 + by} * d").replace("2 * d", f"{2 + by} * d")
    assert out != source
    return out


WALK["t_ref3"] = lambda s: _ref_ahead(s, 1)
WALK["t_ref4"] = lambda s: _ref_ahead(s, 2)
KINDS["t_ref3"] = None
KINDS["t_ref4"] = None



GLOBALS = {"_lend": _lend, "_take_back": _take_back, "np": np}
OLD_SWAP = """            own_i = world.scratch
            own_f = world.scratch_f
            if lent_i.shape[0] < own_i.shape[0]:  # at least what the world itself holds
                lent_i = np.zeros(own_i.shape[0], dtype=np.int64)
            if lent_f.shape[0] < own_f.shape[0]:
                lent_f = np.zeros(own_f.shape)
            world.scratch = lent_i
            world.scratch_f = lent_f
            status = step_kernel(world, args[i, DT], np.int64(WHOLE))  # not Literal[int](0): WHOLE
            lent_i = world.scratch  # (grown, if the step needed more)
            lent_f = world.scratch_f
            world.scratch = own_i
            world.scratch_f = own_f
"""
NEW_SWAP = """            own_n = borrow(world, "scratch").shape[0]
            own_fs = borrow(world, "scratch_f").shape
            if lent_i.shape[0] < own_n:
                lent_i = np.zeros(own_n, dtype=np.int64)
            if lent_f.shape[0] < own_fs[0]:
                lent_f = np.zeros(own_fs)
            _lend(world, "scratch", lent_i, stash, 0)
            _lend(world, "scratch_f", lent_f, stash, 16)
            status = step_kernel(world, args[i, DT], np.int64(WHOLE))
            lent_i = _take_back(world, "scratch", stash, 0)
            lent_f = _take_back(world, "scratch_f", stash, 16)
"""


def _swap(source):
    assert OLD_SWAP in source
    out = source.replace(OLD_SWAP, NEW_SWAP)
    marker = "    taken = 0"
    return out.replace(marker, "    stash = np.zeros(32, dtype=np.int64)\n" + marker, 1)


WALK["t_swap"] = _swap
KINDS["t_swap"] = None


@_jit
def _whole_reference(head):
    """The reference's header and whole payload, the joint store's descriptors included."""
    for address in range(head - head % 64, bs._reference_end(head), 64):
        bs._prefetch_line(address)


GLOBALS["_whole_reference"] = _whole_reference


def _joints_early(source):
    out = source.replace("prefetch_reference(_reference_head(refs, which[k + 2 * d]))",
                         "_whole_reference(_reference_head(refs, which[k + 2 * d]))")
    assert out != source
    return out


WALK["t_jd_early"] = _joints_early
KINDS["t_jd_early"] = None
