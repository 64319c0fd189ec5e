"""The world's stores behind one reference, the step kernel's single argument.

Compiled code receives a NamedTuple store as its arrays, each unboxed on every call: about
0.07 us an array (measured on the 2-core CI machine), and a world's five stores and joint rows
hold about 125 arrays, so about 9 us a step. That is more than an empty world's whole step
inside the kernel (8 us). A Numba ``StructRef`` holds the same stores on the heap behind one
pointer, and unboxing it costs about 0.1 us.

Python keeps its NamedTuples, which share their arrays with the reference, so writes from
either side are seen by both. Only replacing a store needs care. Python replaces one when it
grows a store, when a destroyed shape takes its contacts along, and when the joint rows change.
In those cases :func:`stores_for_step` builds a new reference, about 30 us and rare. The step
kernel replaces the contact and constraint stores inside the reference itself, and hands the
new ones back so that Python can see them.

The reference also carries the world's table of verbs: the addresses of the kernels compiled
for this world on first need (the solver, each joint type: :mod:`.verbs`), which Python
writes into the shared array without rebuilding the reference; and the world's step row, one
row of float64: the settings as the step reads them, which Python writes in place when they
change, then gravity, the flags and counts the step reads and writes (:data:`.step.STEP_ROW`),
so that the step's call from Python passes the reference, dt and the phase and returns one
integer (each argument and returned value is converted by Numba's wrapper on every call).

Without the JIT (``NUMBA_DISABLE_JIT=1``) the reference is a plain object with the same fields.
"""

from __future__ import annotations

from types import SimpleNamespace

import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils, imputils, types
from numba.core.runtime.nrtdynmod import _meminfo_struct_type
from numba.experimental import structref
from numba.extending import NativeValue, intrinsic, unbox

from .._core.jit import DirectCall, kernel
from .._core.state import BODY_LAYOUT, JOINT_LAYOUT, SHAPE_LAYOUT, Bodies, Joints, Shapes
from .._core.storage import allocate_store
from .._stores_epoch import bump as _stores_replaced
from .contact_solver import contact_constraints
from .contacts import empty_contacts
from .joints import ROW_LISTS
from .resting import RESTING_TYPE, empty_resting
from .scratch import new_scratch
from .static_grid import STATIC_GRID_TYPE, empty_static_grid


def numba_boxed(proxy_class):
    """A base class for a ``StructRef`` type boxed as Numba boxes it, to ``proxy_class``
    objects: Numba's boxing and unboxing (``structref.define_boxing``) registered for the base,
    where Numba's registries find them by the type's MRO, so that a subclass registers an
    unboxing of its own (:func:`unbox_by_interned_name`) and keeps Numba's boxing."""
    base = type(f"{proxy_class.__name__}Boxed", (types.StructRef,), {})
    structref.define_boxing(base, proxy_class)
    return base


class WorldStores(structref.StructRefProxy):
    """Python's handle on a reference; only ever passed back to kernels."""


@structref.register
class WorldStoresType(numba_boxed(WorldStores)):
    """Numba type of :data:`WORLD_STORES`: one world's stores, joint rows and stage clock."""


_NAME_SLOT = "impulse2d_meminfo_name"


def unbox_by_interned_name(typ, obj, c):
    """The unboxing of a ``StructRef`` proxy (a :class:`WorldStores`) with Numba's steps, its
    ``_meminfo`` looked up by an interned name.

    Numba's own (``structref.define_boxing``) calls ``PyObject_GetAttrString(obj,
    "_meminfo")``, which makes the name from a C string on every call, hashes it and misses
    CPython's attribute cache (keyed by the name's address): 1,042 instructions of the step
    entry's 1,707 besides the kernel under callgrind, 120-185 ns a call
    (``benchmarks/small_unbox.py``; BENCHMARKS.md, session 16, ``small41``). Here the name is
    made once, by ``PyUnicode_InternFromString`` on the module's first call, and kept in an
    internal global of the wrapper's module (null whenever the code is loaded, compiled or
    from Numba's cache; its reference is never given back), so every later call looks the
    attribute up by the same object and hits the cache. The wrapper holds the GIL while it
    unboxes, so two threads cannot race to make it."""
    builder, pyapi = c.builder, c.pyapi
    module = builder.module
    slot = module.globals.get(_NAME_SLOT)
    if slot is None:
        slot = ir.GlobalVariable(module, pyapi.pyobj, _NAME_SLOT)
        slot.linkage = "internal"
        slot.initializer = ir.Constant(pyapi.pyobj, None)
    with builder.if_then(cgutils.is_null(builder, builder.load(slot)), likely=False):
        intern = pyapi._get_function(ir.FunctionType(pyapi.pyobj, [pyapi.cstring]),
                                     name="PyUnicode_InternFromString")
        builder.store(builder.call(intern, [c.context.insert_const_string(module, "_meminfo")]),
                      slot)
    name = builder.load(slot)
    found = cgutils.alloca_once(builder, pyapi.pyobj)
    with builder.if_else(cgutils.is_null(builder, name), likely=False) as (no_name, named):
        with no_name:  # (out of memory making it: Numba's lookup)
            builder.store(pyapi.object_getattr_string(obj, "_meminfo"), found)
        with named:
            builder.store(pyapi.object_getattr(obj, name), found)
    mi_obj = builder.load(found)
    meminfo = c.unbox(types.MemInfoPointer(types.voidptr), mi_obj).value
    ref = cgutils.create_struct_proxy(typ)(c.context, builder)
    ref.meminfo = meminfo
    pyapi.decref(mi_obj)
    return NativeValue(ref._getvalue())


unbox(WorldStoresType)(unbox_by_interned_name)


_ROWS = types.Array(types.int64, 1, "C")

STORES_SECONDS = 2.5
"""Compile time of :func:`_new_stores_ref` on the 2-core machine (for the first-run notice and
the compile plan): 2.0-2.4 s of CPU measured on 2026-11-28 evening at load 5 with the arrays
adopted by address (:func:`_adopting_ref`; 5.0-5.4 s unboxed by Numba's wrapper)."""


WORLD_STORES = WorldStoresType([
    ("bodies", numba.typeof(allocate_store(Bodies, BODY_LAYOUT, 0))),
    ("shapes", numba.typeof(allocate_store(Shapes, SHAPE_LAYOUT, 0))),
    ("joints", numba.typeof(allocate_store(Joints, JOINT_LAYOUT, 0))),
    ("contacts", numba.typeof(empty_contacts())),
    ("constraints", numba.typeof(contact_constraints(0))),
    ("joint_ids", types.UniTuple(_ROWS, len(ROW_LISTS))),  # joint rows per list
    ("no_collide", _ROWS),  # sorted body-pair keys of joints that forbid collision
    ("clock", _ROWS),  # cycle counter before each stage of the step, and at its end
    ("verbs", _ROWS),  # addresses of the lazily compiled kernels the step calls (.verbs)
    ("diagnostics", types.Array(types.float64, 1, "C")),  # the solver's record (.diagnostics;
                                                           # empty while they are off)
    ("lengths", types.Array(types.float64, 1, "C")),  # tolerances in the world's unit (.lengths)
    ("settings", types.Array(types.float64, 1, "C")),  # the step row: the packed settings,
                                                        # its inputs, outputs (.step.STEP_ROW)
    ("static_grid", STATIC_GRID_TYPE),  # the continuous stage's kept grid (.static_grid)
    # the awake sets (.awake): counts and flags, then the awake body, shape and contact rows,
    # and each body's contact rows
    ("awake_state", _ROWS),
    ("awake_bodies", _ROWS),
    ("awake_shapes", _ROWS),
    ("awake_contacts", _ROWS),
    ("contact_edges", _ROWS),
    ("resting", RESTING_TYPE),  # the pair stage's grid of resting proxies (.resting)
    # the step's scratch, integer and float, so that it allocates nothing (.scratch)
    ("scratch", _ROWS),
    ("scratch_f", types.Array(types.float64, 2, "C")),
])
"""The concrete reference type; its fields are typed from empty stores of the real layouts."""


def _payload(context, builder, ref_type, ref):
    """The stores behind a reference, read straight from its MemInfo's data pointer: what
    Numba's own getattr does, less its check that the kernel counts references."""
    meminfo = cgutils.create_struct_proxy(ref_type)(context, builder, value=ref).meminfo
    header = builder.bitcast(meminfo, _meminfo_struct_type.as_pointer())
    data = builder.load(cgutils.gep(builder, header, 0, 3))
    payload_type = ref_type.get_data_type()
    value_type = context.data_model_manager[payload_type].get_value_type()
    return cgutils.create_struct_proxy(payload_type)(
        context, builder, ref=builder.bitcast(data, value_type.as_pointer()))


@intrinsic
def _borrow(typingctx, ref, name):
    """``ref.<name>`` (a store, the joint rows, ...) inside a borrowing kernel.

    A kernel that counts references increments and decrements every array of a store it
    takes: 2-3 us a step for the stores of a world (measured with ``perf``; a tenth of a
    100-link chain's step). The steady part of the step therefore runs in borrowing kernels,
    which cannot read a ``StructRef`` field in Numba (its getattr requires reference counting);
    this reads it, and counts a reference only where the kernel does.
    """
    if not isinstance(ref, WorldStoresType) or not isinstance(name, types.StringLiteral):
        return None
    field = name.literal_value
    field_type = ref.field_dict[field]

    def codegen(context, builder, signature, args):
        value = getattr(_payload(context, builder, ref, args[0]), field)
        return imputils.impl_ret_borrowed(context, builder, field_type, value)

    return field_type(ref, name), codegen


@intrinsic
def _borrow_column(typingctx, ref, name, column):
    """``ref.<name>.<column>``: one array of a store, so that a kernel that counts references
    counts that array's alone rather than the whole store's."""
    if (not isinstance(ref, WorldStoresType) or not isinstance(name, types.StringLiteral)
            or not isinstance(column, types.StringLiteral)):
        return None
    store_type = ref.field_dict[name.literal_value]
    index = store_type.fields.index(column.literal_value)
    column_type = store_type.types[index]

    def codegen(context, builder, signature, args):
        store = getattr(_payload(context, builder, ref, args[0]), name.literal_value)
        value = builder.extract_value(store, index)
        return imputils.impl_ret_borrowed(context, builder, column_type, value)

    return column_type(ref, name, column), codegen


ADOPTED = ("bodies", "shapes", "joints", "contacts", "constraints", "joint_ids", "no_collide",
           "clock", "verbs", "diagnostics", "lengths", "settings", "awake_state")
"""The fields of a new reference that hold Python's arrays (in :data:`WORLD_STORES`' order);
the others are made by :func:`_new_stores_ref`."""

_MADE = tuple(name for name in WORLD_STORES.field_dict if name not in ADOPTED)


def _adopted_slots():
    """``(field, index in the field or None)`` of each array of the :data:`ADOPTED` fields, in
    the order Python passes them (:func:`_new_world_stores`)."""
    slots = []
    for name in ADOPTED:
        field_type = WORLD_STORES.field_dict[name]
        if isinstance(field_type, types.Array):
            slots.append((name, None))
        else:  # a store (NamedTuple) or the joint rows (UniTuple), of arrays only
            assert all(isinstance(t, types.Array) for t in field_type.types), name
            slots.extend((name, j) for j in range(len(field_type.types)))
    return tuple(slots)


_SLOTS = _adopted_slots()


@intrinsic
def _adopting_ref(typingctx, objects, made):
    """A new reference whose :data:`ADOPTED` fields take the Python arrays at the addresses
    ``objects`` (each one's ``id``, int64, in :func:`_adopted_slots` order) and whose other
    fields take ``made`` (a tuple, in :data:`WORLD_STORES`' order).

    Why: a kernel called from Python with the stores unboxes each of their ~200 arrays with
    code of its own (Numba's wrapper: an adapter call, an item-size check, an error branch
    and a release after the call, per array), and the constructor took 5.0 s of CPU to
    compile that way, a seventh of what the process that compiles it does for a cold
    pyramid (2026-11-28, measured). Here each array is one call of Numba's own adapter,
    ``NRT_adapt_ndarray_from_python`` (what that wrapper calls), writing straight into the
    reference's slot: the same native array, holding the same reference to the Python array
    (its owner), so the reference and Python share the arrays as before. The adapter checks
    that each object is an array; the dtype and dimensions are the layouts' by construction
    (the stores are made from their layouts), as :class:`~.._core.jit.DirectCall` assumes."""
    if (not isinstance(objects, types.Array) or objects.dtype != types.int64
            or not isinstance(made, types.BaseTuple) or len(made) != len(_MADE)):
        return None

    def codegen(context, builder, signature, args):
        from numba.experimental.jitclass.base import imp_dtor
        payload_type = WORLD_STORES.get_data_type()
        value_type = context.data_model_manager[payload_type].get_value_type()
        meminfo = context.nrt.meminfo_alloc_dtor(
            builder, context.get_constant(types.uintp, context.get_abi_sizeof(value_type)),
            imp_dtor(context, builder.module, WORLD_STORES))
        data = builder.bitcast(context.nrt.meminfo_data(builder, meminfo),
                               value_type.as_pointer())
        builder.store(cgutils.get_null_value(value_type), data)
        payload = cgutils.create_struct_proxy(payload_type)(context, builder, ref=data)
        for k, name in enumerate(_MADE):
            field_type = WORLD_STORES.field_dict[name]
            value = context.cast(builder, builder.extract_value(args[1], k), made[k],
                                 field_type)
            context.nrt.incref(builder, field_type, value)
            setattr(payload, name, value)
        addresses = context.make_array(objects)(context, builder, args[0]).data
        adapt = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.IntType(32), [cgutils.voidptr_t] * 2),
            "NRT_adapt_ndarray_from_python")
        failed = ir.Constant(ir.IntType(32), 0)
        for i, (name, j) in enumerate(_SLOTS):
            slot = payload._get_ptr_by_name(name)
            if j is not None:
                slot = cgutils.gep_inbounds(builder, slot, 0, j)
            address = builder.load(cgutils.gep_inbounds(builder, addresses, i))
            failed = builder.or_(failed, builder.call(adapt, [
                builder.inttoptr(address, cgutils.voidptr_t),
                builder.bitcast(slot, cgutils.voidptr_t)]))
        ref = context.make_helper(builder, WORLD_STORES)
        ref.meminfo = meminfo
        with builder.if_then(cgutils.is_not_null(builder, failed), likely=False):
            # the slots not adopted are still null: the release drops what was adopted
            context.nrt.decref(builder, WORLD_STORES, ref._getvalue())
            context.call_conv.return_user_exc(
                builder, TypeError, ("a world's store holds something other than an array",))
        return ref._getvalue()

    return WORLD_STORES(objects, made), codegen


@kernel
def _new_stores_ref(objects, n_bodies, n_shapes, n_contacts):
    """A new reference over the Python arrays at the addresses ``objects``
    (:func:`_adopting_ref`) and empty awake sets, grid and index for ``n_bodies`` body rows
    and ``n_shapes`` shape rows, and the step's scratch for them and ``n_contacts`` contact
    rows (:mod:`.scratch`)."""
    scratch, scratch_f = new_scratch(n_shapes, n_bodies, n_contacts)
    return _adopting_ref(objects, (empty_static_grid(), np.empty(n_bodies, dtype=np.int64),
                                   np.empty(n_shapes, dtype=np.int64),
                                   np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64),
                                   empty_resting(), scratch, scratch_f))


def _addresses(stores) -> np.ndarray:
    """The ``id`` of each array of ``stores`` (the :data:`ADOPTED` fields' values), in order."""
    ids = []
    for value in stores:
        if isinstance(value, tuple):
            ids.extend(map(id, value))
        else:
            ids.append(id(value))
    if len(ids) != len(_SLOTS):
        raise TypeError(f"a world reference takes {len(_SLOTS)} arrays, not {len(ids)}")
    return np.array(ids, dtype=np.int64)


@kernel
def _put_contact_stores_ref(ref, contacts, constraints):
    """Make ``contacts`` and ``constraints`` the reference's contact and constraint stores."""
    ref.contacts = contacts
    ref.constraints = constraints


@kernel
def _constraints_of_ref(ref):
    """The reference's constraint store, for Python (:func:`sync_constraints`)."""
    return _borrow(ref, "constraints")


@kernel
def _contacts_of_ref(ref):
    """The reference's contact store, for Python (:func:`sync_contacts`)."""
    return _borrow(ref, "contacts")


if numba.config.DISABLE_JIT:
    def borrow(ref, name):
        """``ref.<name>`` (plain Python)."""
        return getattr(ref, name)

    def borrow_column(ref, name, column):
        """``ref.<name>.<column>`` (plain Python)."""
        return getattr(getattr(ref, name), column)

    def _new_world_stores(bodies, shapes, joints, contacts, constraints, joint_ids, no_collide,
                          clock, verbs, diagnostics, lengths, settings, awake_state):
        scratch, scratch_f = new_scratch(shapes.alive.shape[0], bodies.alive.shape[0],
                                         contacts.key.shape[0])
        return SimpleNamespace(bodies=bodies, shapes=shapes, joints=joints, contacts=contacts,
                               constraints=constraints, joint_ids=joint_ids,
                               no_collide=no_collide, clock=clock, verbs=verbs,
                               diagnostics=diagnostics, lengths=lengths, settings=settings,
                               static_grid=empty_static_grid(),
                               awake_state=awake_state,
                               awake_bodies=np.empty(bodies.alive.shape[0], dtype=np.int64),
                               awake_shapes=np.empty(shapes.alive.shape[0], dtype=np.int64),
                               awake_contacts=np.empty(0, dtype=np.int64),
                               contact_edges=np.empty(0, dtype=np.int64),
                               resting=empty_resting(), scratch=scratch,
                               scratch_f=scratch_f)
    def _constraints_of(ref):
        return ref.constraints

    def _contacts_of(ref):
        return ref.contacts

    def _put_contact_stores_ref(ref, contacts, constraints):
        ref.contacts = contacts
        ref.constraints = constraints
else:
    borrow = _borrow
    borrow_column = _borrow_column
    # Straight to the compiled code after the first call: the dispatcher typed each of the
    # ~150 arrays of a world on every call (about 35 us of a new world's first step, a fifth
    # of it: a Gymnasium reset's). Every argument has a fixed layout (see stores_for_step).
    _new_ref = DirectCall(_new_stores_ref, "the world's stores", STORES_SECONDS)

    def _new_world_stores(*stores):
        """A new reference over ``stores`` (the :data:`ADOPTED` fields' values, in order)."""
        # (``stores`` holds every array for the call: the adapter takes a reference to each)
        return _new_ref.entry(_addresses(stores), stores[0].alive.shape[0],
                              stores[1].alive.shape[0], stores[3].key.shape[0])
    _constraints_of = _constraints_of_ref
    _contacts_of = _contacts_of_ref

_put_contact_stores = DirectCall(_put_contact_stores_ref, "the restore of contact stores", 2.0)


def stores_for_step(world, rows=None) -> WorldStores:
    """``world``'s reference, rebuilt first if Python has replaced any store or the joint rows
    since it was built (checked by identity: a few pointer comparisons a step). ``rows``:
    ``world._joint_rows()``, if the caller has it already."""
    if rows is None:
        rows = world._joint_rows()
    # (Python's view of the contact store, not synced: one that a batch step left stale is
    # older than the reference's, which is the one to keep; see sync_contacts.)
    built = world._stores_built_from
    if (built is None or built[0] is not world._bodies or built[1] is not world._shapes
            or built[2] is not world._joints or built[3] is not world.__dict__["_contacts"]
            or built[4] is not world._constraints or built[5] is not rows
            or built[6] is not world._diagnostics):
        sync_constraints(world)  # the new reference takes the current constraint store
        # A new reference's awake sets start stale (filled by the step that first reads them);
        # Python keeps their state to mark them stale after its own changes (_sleep).
        from .awake import new_state  # (here: .awake imports this module)
        world._awake_state = new_state()
        # Every argument has the layout WORLD_STORES was typed from: the stores are made and
        # grown from their layouts (a snapshot's are copies of them), the joint rows and
        # the keys are int64 row vectors (World._joint_rows), the clock, the verbs and the awake
        # state int64, the diagnostics, the lengths and the packed settings float64.
        world._stores = _new_world_stores(
            world._bodies, world._shapes, world._joints, world._contacts,
            world._constraints, rows["by_type"], rows["no_collide"], world._clock,
            world._verbs, world._diagnostics, world._lengths, world._step_settings,
            world._awake_state)
        world._stores_built_from = (world._bodies, world._shapes, world._joints,
                                    world._contacts, world._constraints, rows,
                                    world._diagnostics)
        _stores_replaced()  # (a batch holding the old reference checks its list again)
    return world._stores


def put_contact_stores(world, contacts, constraints) -> bool:
    """Make ``contacts`` and ``constraints`` (stores of the world's layout: a snapshot's, being
    restored) the world's, in its reference too, without building a new one: a new reference
    goes through Numba's typing of every array of the world (30-40 us, more than a 10-body
    world's restore); this passes the two stores (a few us). Newer contact stores that a step
    left in the reference (stale in Python's view) are dropped unboxed. False, with nothing
    changed, if the reference was not built from the world's present bodies, shapes and
    joints (the next step builds a new one anyway)."""
    d = world.__dict__
    built = d["_stores_built_from"]
    if (built is None or d["_stores"] is None or built[0] is not d["_bodies"]
            or built[1] is not d["_shapes"] or built[2] is not d["_joints"]):
        return False
    _put_contact_stores.entry(d["_stores"], contacts, constraints)
    d["_contacts"] = contacts
    d["_constraints"] = constraints
    d["_contacts_stale"] = False
    d["_constraints_stale"] = False
    flags_cleared(d)
    d["_stores_built_from"] = (built[0], built[1], built[2], contacts, constraints, built[5],
                               built[6])
    return True


def flags_cleared(d) -> None:
    """A stale flag of a world (``d``: its ``__dict__``) was cleared by a write into its dict,
    which, unlike an attribute written, does not mark a world of a batch: its seat learns it
    (:meth:`impulse2d._batch_worlds.Seat.synced`: the batch no longer takes the flags for
    set, :func:`impulse2d._batch_ready.finish`)."""
    lock = d.get("_lock")
    if lock is not None and lock.seat is not None:
        lock.seat.synced()


def adopt_step_stores(world, contacts: bool, constraints: bool) -> None:
    """Record that the step made a new contact store (``contacts``) or constraint store
    (``constraints``): each stays in the reference until Python needs it
    (:func:`sync_contacts`, which the ``World._contacts`` property calls on its first read, as
    after a batch step; :func:`sync_constraints`). Python's views keep the stores the reference
    was built from until then, so the step's identity checks still hold."""
    if constraints:
        world._constraints_stale = True
    if contacts:
        world.__dict__["_contacts_stale"] = True


def sync_constraints(world) -> None:
    """Make ``world._constraints`` the constraint store the reference holds, if a step made a
    new one since Python last looked (the step does not hand it back: boxing its 20 arrays
    cost about 24 us, on about half of BipedalWalker's steps). Everything that reads
    ``world._constraints`` calls this first: the contact events, snapshots (so copies and
    pickles), state hashes, and the rebuild of the reference."""
    if world._constraints_stale:
        store = _constraints_of(world._stores)
        world._constraints = store
        built = world._stores_built_from
        world._stores_built_from = (built[0], built[1], built[2], built[3], store, built[5],
                                    built[6])
        world._constraints_stale = False


def sync_contacts(world) -> None:
    """Make Python's view of ``world``'s contact store the one the reference holds, after a
    batch step (:mod:`impulse2d.batch`) made a new one there and left Python's view stale:
    a batch does not box the new stores of its worlds (about 40 us each, on most steps of a
    world whose pairs change), so each world's is fetched on its first read, here, by the
    ``World._contacts`` property."""
    d = world.__dict__
    if d["_contacts_stale"]:
        store = _contacts_of(d["_stores"])
        d["_contacts"] = store
        d["_contacts_stale"] = False
        flags_cleared(d)
        built = d["_stores_built_from"]
        d["_stores_built_from"] = (built[0], built[1], built[2], store, built[4], built[5],
                                   built[6])
