"""Stores with spare rows: the step's contact and constraint stores keep their room.

The step makes a new contact store when the pairs change and a new constraint store when the
count of touching contacts changes (rain_2000: 4 and 15 of 60 steps; a 10-body world of the
1,024-world batch: 15 % and 23 % of its steps). Each was about 20-25 arrays from the
allocator, zero-filled, the last store's freed: in rain_2000's step a new contact store made the
pair stage 390-530 us longer, 110 with the room kept (BENCHMARKS.md, ``store37``).

Here a store the step makes is allocated with room to spare (:func:`room`: x1.5 and 8 rows)
and its arrays are **views of the first rows** of those allocations, so every reader that
takes a store's row count from ``shape[0]`` (kernels, ``contacts.py``, ``events.py``, queries,
snapshots, the batch) stays correct without a change, and the spare rows are invisible to
them. A later step whose count fits the room (and is not far under it: :func:`keeps`) takes
new views of the same allocations and writes in place; it allocates nothing.

The room is read from each array's allocation (its NRT MemInfo's size, from the array's first
row), so a store needs no field of its own. A store whose arrays came from Python (the empty
stores of a new world, a snapshot restored, a reference rebuilt from Python's stores) has no
room its reference knows of (Numba's adapter gives a Python array a MemInfo of size 0), and
its next change of count makes a store that has. A store is kept only if every column has the
room, so a store of views into one shared buffer (its later columns do not start their
allocation) is never written past its rows.

Bits: a kept constraint store's rows are zeroed, as a new store's are (:func:`constraints_for`);
a kept contact store is merged in place to the rows :func:`.contacts.carry_contacts` writes into
a new one (:func:`.contacts.carry_contacts_in_place`).
"""

from __future__ import annotations

import numba
from numba.core import cgutils, types
from numba.core.imputils import impl_ret_borrowed
from numba.core.runtime.nrtdynmod import _meminfo_struct_type
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

from .._core.jit import inline_kernel, inner_kernel
from .contact_solver import ContactConstraints, allocate_constraints
from .contacts import Contacts, allocate_contacts, carry_contacts, carry_contacts_in_place


@inline_kernel
def room(n):
    """Rows to allocate for a store of ``n`` rows: half again, and 8 (a small world's counts
    change by a few rows)."""
    return n + (n >> 1) + 8


@inline_kernel
def keeps(n, held):
    """Whether a store whose allocations hold ``held`` rows takes ``n`` rows in place: they fit,
    and the allocations are not four times what ``n`` needs (a store that shrank far is made
    again, smaller). Every store :func:`room` makes keeps its own count."""
    return n <= held <= 4 * n + 8


@intrinsic
def _rows_held(typingctx, array):
    """Rows of ``array``'s shape the runtime allocation of ``array`` holds from its first row
    (its MemInfo's size over a row's bytes); 0 when ``array`` does not start its allocation or
    the allocation is not the runtime's (a Python array's MemInfo has size 0)."""
    if not isinstance(array, types.Array) or array.layout != "C":
        return None

    def codegen(context, builder, signature, args):
        ary = context.make_array(array)(context, builder, args[0])
        intp = context.get_value_type(types.intp)
        held = cgutils.alloca_once_value(builder, intp(0))
        with builder.if_then(cgutils.is_not_null(builder, ary.meminfo)):
            header = builder.bitcast(ary.meminfo, _meminfo_struct_type.as_pointer())
            data = builder.load(cgutils.gep(builder, header, 0, 3))
            size = builder.load(cgutils.gep(builder, header, 0, 4))
            row = builder.extract_value(ary.strides, 0)
            starts = builder.icmp_unsigned("==", data, builder.bitcast(ary.data, data.type))
            with builder.if_then(builder.and_(starts, builder.icmp_signed(">", row, intp(0)))):
                builder.store(builder.udiv(size, row), held)
        return builder.load(held)

    return types.intp(array), codegen


@intrinsic
def _first_rows(typingctx, array, n):
    """The first ``n`` rows of ``array``'s allocation, a view (``n`` at most
    :func:`_rows_held`)."""
    if (not isinstance(array, types.Array) or array.layout != "C"
            or not isinstance(n, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        ary = context.make_array(array)(context, builder, args[0])
        out = context.make_array(array)(context, builder)
        shape = cgutils.unpack_tuple(builder, ary.shape)
        rows = context.cast(builder, args[1], n, types.intp)
        populate_array(out, data=ary.data, shape=[rows, *shape[1:]], strides=ary.strides,
                       itemsize=ary.itemsize, meminfo=ary.meminfo)
        return impl_ret_borrowed(context, builder, array, out._getvalue())

    return array(array, n), codegen


if numba.config.DISABLE_JIT:
    def rows_held(array):
        """No room without the JIT: every change of count makes a new store."""
        return 0

    def first_rows(array, n):
        return array[:n]
else:
    rows_held = _rows_held
    first_rows = _first_rows


@inline_kernel
def _constraint_room(cs):
    """Rows every row column of ``cs`` holds in place (not the lanes: their own rule)."""
    return min(rows_held(cs.contact), rows_held(cs.body_a), rows_held(cs.body_b),
               rows_held(cs.count), rows_held(cs.inv_mass), rows_held(cs.normal),
               rows_held(cs.friction), rows_held(cs.restitution), rows_held(cs.softness),
               rows_held(cs.r_a), rows_held(cs.r_b), rows_held(cs.base_separation),
               rows_held(cs.normal_mass), rows_held(cs.tangent_mass),
               rows_held(cs.relative_velocity), rows_held(cs.normal_impulse),
               rows_held(cs.tangent_impulse), rows_held(cs.max_normal_impulse),
               rows_held(cs.total_normal_impulse), rows_held(cs.total_tangent_impulse),
               rows_held(cs.bias), rows_held(cs.unclamped), rows_held(cs.lane_end),
               rows_held(cs.in_lanes))


@inner_kernel
def _constraint_rows(cs, n):
    """The store of ``cs``'s allocations' first ``n`` rows, its lanes as they are."""
    return ContactConstraints(
        first_rows(cs.contact, n), first_rows(cs.body_a, n), first_rows(cs.body_b, n),
        first_rows(cs.count, n), first_rows(cs.inv_mass, n), first_rows(cs.normal, n),
        first_rows(cs.friction, n), first_rows(cs.restitution, n), first_rows(cs.softness, n),
        first_rows(cs.r_a, n), first_rows(cs.r_b, n), first_rows(cs.base_separation, n),
        first_rows(cs.normal_mass, n), first_rows(cs.tangent_mass, n),
        first_rows(cs.relative_velocity, n), first_rows(cs.normal_impulse, n),
        first_rows(cs.tangent_impulse, n), first_rows(cs.max_normal_impulse, n),
        first_rows(cs.total_normal_impulse, n), first_rows(cs.total_tangent_impulse, n),
        first_rows(cs.bias, n), first_rows(cs.unclamped, n), cs.lanes,
        first_rows(cs.lane_end, n), first_rows(cs.in_lanes, n))


@inner_kernel
def constraints_for(cs, n, lane_rows):
    """The step's constraint store for ``n`` touching contacts after ``cs``: ``cs``'s
    allocations' first ``n`` rows, zeroed (every row as a new store's), if they hold them
    (:func:`keeps`), else a new store with :func:`room`. The lanes as
    :func:`.contact_solver.allocate_constraints` keeps or makes them (``lane_rows`` rows)."""
    if keeps(n, _constraint_room(cs)) and lane_rows <= cs.lanes.shape[0] <= 2 * lane_rows:
        kept = _constraint_rows(cs, n)
        for column in (kept.contact, kept.body_a, kept.body_b, kept.count, kept.lane_end):
            column[:] = 0
        for column in (kept.friction, kept.restitution):
            column[:] = 0.0
        for column in (kept.inv_mass, kept.normal, kept.softness, kept.base_separation,
                       kept.normal_mass, kept.tangent_mass, kept.relative_velocity,
                       kept.normal_impulse, kept.tangent_impulse, kept.max_normal_impulse,
                       kept.total_normal_impulse, kept.total_tangent_impulse, kept.bias):
            column[:] = 0.0
        for column in (kept.r_a, kept.r_b, kept.unclamped):
            column[:] = 0.0
        kept.in_lanes[:] = False
        return kept
    return _constraint_rows(allocate_constraints(room(n), cs.lanes, lane_rows), n)


@inline_kernel
def _contact_room(c):
    """Rows every column of the contact store ``c`` holds in place."""
    return min(rows_held(c.key), rows_held(c.shape_a), rows_held(c.shape_b),
               rows_held(c.body_a), rows_held(c.body_b), rows_held(c.friction),
               rows_held(c.restitution), rows_held(c.count), rows_held(c.normal),
               rows_held(c.point), rows_held(c.separation), rows_held(c.ids),
               rows_held(c.normal_impulse), rows_held(c.tangent_impulse),
               rows_held(c.total_normal_impulse), rows_held(c.total_tangent_impulse))


@inner_kernel
def _contact_rows(c, n):
    """The contact store of ``c``'s allocations' first ``n`` rows."""
    return Contacts(
        first_rows(c.key, n), first_rows(c.shape_a, n), first_rows(c.shape_b, n),
        first_rows(c.body_a, n), first_rows(c.body_b, n), first_rows(c.friction, n),
        first_rows(c.restitution, n), first_rows(c.count, n), first_rows(c.normal, n),
        first_rows(c.point, n), first_rows(c.separation, n), first_rows(c.ids, n),
        first_rows(c.normal_impulse, n), first_rows(c.tangent_impulse, n),
        first_rows(c.total_normal_impulse, n), first_rows(c.total_tangent_impulse, n))


@inner_kernel
def contacts_for(old, pairs, shapes):
    """The pair stage's contact store for ``pairs`` (sorted, one row each), the manifolds of
    the pairs ``old`` has carried: merged in place in ``old``'s allocations if they hold the
    rows (:func:`keeps`; the rows are those :func:`.contacts.carry_contacts` writes into a new
    store), else a new store with :func:`room`."""
    n = pairs.shape[0]
    held = _contact_room(old)
    if keeps(n, held) and old.key.shape[0] <= held:
        carry_contacts_in_place(_contact_rows(old, max(n, old.key.shape[0])),
                                old.key.shape[0], pairs, shapes)
        return _contact_rows(old, n)
    fresh = _contact_rows(allocate_contacts(room(n)), n)
    carry_contacts(old, fresh, pairs, shapes)
    return fresh


__all__ = ["room", "keeps", "rows_held", "first_rows", "constraints_for", "contacts_for"]
