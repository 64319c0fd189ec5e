"""Contact persistence: from broadphase pairs to manifolds that remember last step's impulses.

A contact exists for every pair of shapes whose fat bounding boxes overlap and that may collide
(filtering below). Contacts are kept sorted by ``key = shape_a << 32 | shape_b``, which makes
the solver's Gauss-Seidel order — and so the whole simulation — deterministic, and lets a new
pair list be merged with the old contacts in one linear pass.

Each step the narrowphase recomputes every contact's manifold and matches each new point to
last step's by feature id, carrying its accumulated normal and tangent impulses: that is the
warm start (Catto, "Iterative Dynamics with Temporal Coherence", GDC 2005).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .._collision.broadphase import holds_key
from .._collision.chain import collide_chain_segment
from .._collision.manifold import collide_pair
from .._collision.shape_types import CHAIN_SEGMENT
from .._core.jit import borrowing_kernel, inline_kernel, inner_kernel
from .._core.state import DYNAMIC, STATIC
from .._core.slab import empty_store_beside
from .._core.slab import register as register_slab
from .._core.storage import allocate_store
from .lane_layout import flat


class Contacts(NamedTuple):
    key: np.ndarray                 # int64 shape_a << 32 | shape_b, ascending
    shape_a: np.ndarray             # int64, shape_a < shape_b
    shape_b: np.ndarray
    body_a: np.ndarray
    body_b: np.ndarray
    friction: np.ndarray            # mixed coefficient of the pair (at its creation)
    restitution: np.ndarray
    count: np.ndarray               # int64 manifold points, 0..2 (0 = boxes overlap, shapes apart)
    normal: np.ndarray              # (m, 2) unit, from A to B
    point: np.ndarray               # (m, 2, 2) world points at the start of the step, m
    separation: np.ndarray          # (m, 2) m, negative = overlap
    ids: np.ndarray                 # (m, 2) int64 feature ids
    normal_impulse: np.ndarray      # (m, 2) accumulated, N s (warm-start memory)
    tangent_impulse: np.ndarray     # (m, 2) accumulated, N s
    total_normal_impulse: np.ndarray   # (m, 2) sum over the step's substeps and restitution, N s
    total_tangent_impulse: np.ndarray  # (m, 2) the same for friction


CONTACT_LAYOUT = {
    "key": (np.int64, ()),
    "shape_a": (np.int64, ()),
    "shape_b": (np.int64, ()),
    "body_a": (np.int64, ()),
    "body_b": (np.int64, ()),
    "friction": (np.float64, ()),
    "restitution": (np.float64, ()),
    "count": (np.int64, ()),
    "normal": (np.float64, (2,)),
    "point": (np.float64, (2, 2)),
    "separation": (np.float64, (2,)),
    "ids": (np.int64, (2,)),
    "normal_impulse": (np.float64, (2,)),
    "tangent_impulse": (np.float64, (2,)),
    "total_normal_impulse": (np.float64, (2,)),
    "total_tangent_impulse": (np.float64, (2,)),
}


def empty_contacts(count: int = 0) -> Contacts:
    return allocate_store(Contacts, CONTACT_LAYOUT, count)


register_slab(Contacts, CONTACT_LAYOUT)


@inner_kernel
def allocate_contacts(count, old):
    """:func:`empty_contacts` for kernels (the step makes the new contact store in place), the
    store that replaces ``old`` (which must stay as it is until the merge has read it; the
    store ``old`` replaced must not be read after), its rows not written: the caller writes
    every entry of every row, as :func:`carry_contacts` does. Zeroed, rain_2000's 6,400 rows
    (1.4 MB) were a ``memset`` of 40-50 us on each step that makes a store, most steps of its
    landing, before the merge wrote the rows again (BENCHMARKS.md, session 16, ``big41``). One
    allocation, its columns views of it (:mod:`.._core.slab`): a 16-array store was 16
    ``malloc`` and 16 ``free`` (session 21, ``batch46``); an allocation of two stores, the new
    one in the part ``old`` does not take while it has the room
    (:func:`.._core.slab.empty_store_beside`: a new allocation a step on rain's landing,
    session 26, ``rain51``). Only the pair stage calls it: without a Python wrapper (which
    unboxed and boxed a store, 0.40 of its 0.54 s of compile, session 29, ``warmR54``)."""
    return empty_store_beside(Contacts, count, (), old)


@inner_kernel
def may_collide(type_a, type_b, sensor_a, sensor_b, group_a, group_b, category_a, mask_a,
                category_b, mask_b):
    """Whether two shapes on different bodies may touch: Box2D's filter rules.

    Two bodies that contact cannot move (neither dynamic) never collide, and sensors produce no
    contacts. Equal non-zero groups override the bits: negative means never, positive always;
    otherwise each shape's category must be in the other's mask.
    """
    if type_a != DYNAMIC and type_b != DYNAMIC:
        return False
    if sensor_a or sensor_b:
        return False
    if group_a != 0 and group_a == group_b:
        return group_a > 0
    return (category_a & mask_b) != 0 and (category_b & mask_a) != 0


@borrowing_kernel
def pair_kept(i, j, body, body_type, sensor, group, category, mask, no_collide):
    """Whether the overlapping shapes ``i``, ``j`` make a contact: on different bodies that
    :func:`may_collide` and are not joined by a joint that forbids it (``no_collide``: sorted
    keys ``lo << 32 | hi`` of body rows).

    A borrowing kernel: called once per candidate pair, an inner kernel took and gave back a
    reference on each of its seven arrays' MemInfos, each a line of its own (a world's column)
    that no other code of the step reads, out of the cache among 1,024 worlds: 18.8 locked
    writes a world-step of a settling 10-body world (``benchmarks/batch_refcounts.py``), 9.4
    increments and 17.3 decrements (7.9 of a null MemInfo) a world-step of the native
    LunarLander (``benchmarks/lander_calls.py``)."""
    b_i = body[i]
    b_j = body[j]
    if b_i == b_j or not may_collide(body_type[b_i], body_type[b_j], sensor[i], sensor[j],
                                     group[i], group[j], category[i], mask[i], category[j],
                                     mask[j]):
        return False
    return not (no_collide.shape[0] > 0
                and holds_key(no_collide, (min(b_i, b_j) << 32) | max(b_i, b_j)))


@inner_kernel
def filter_pairs(pairs, body, body_type, sensor, group, category, mask, no_collide):
    """The broadphase pairs (m, 2) that are contacts (:func:`pair_kept`), in their order, as a
    new array. Takes the shape columns (``body``, ``sensor``, ``group``, ``category``,
    ``mask``) and the body types it reads, not whole stores: a kernel counts a reference to
    every array it is given. Kept rows are copied by a loop, not a boolean mask (Numba's
    masked indexing is a compile of its own)."""
    m = pairs.shape[0]
    keep = np.empty(m, dtype=np.bool_)
    count = 0
    for k in range(m):
        keep[k] = pair_kept(pairs[k, 0], pairs[k, 1], body, body_type, sensor, group, category,
                            mask, no_collide)
        if keep[k]:
            count += 1
    out = np.empty((count, 2), dtype=np.int64)
    o = 0
    for k in range(m):
        if keep[k]:
            out[o, 0] = pairs[k, 0]
            out[o, 1] = pairs[k, 1]
            o += 1
    return out


FRICTION_MIXING = 12
"""Slot of a world's step row (the reference's ``settings``, :data:`.step.SETTINGS_ROW`) that
holds its friction mixing rule's code (:data:`impulse2d.settings.MIXING_CODES`), as
:func:`.step._settings_arguments` packs it; the restitution rule's is the next,
:data:`RESTITUTION_MIXING`. The pair stage reads them for :func:`carry_contacts`."""
RESTITUTION_MIXING = FRICTION_MIXING + 1


@inner_kernel
def mix(a, b, rule):
    """Combine two material coefficients; ``rule`` is a code of settings.MIXING_RULES."""
    if rule == 0:
        return math.sqrt(a * b)
    if rule == 1:
        return max(a, b)
    if rule == 2:
        return min(a, b)
    if rule == 3:
        return a * b
    return 0.5 * (a + b)


@inner_kernel
def mix_again(contacts, shapes, friction_rule, restitution_rule):
    """Mix every contact's friction and restitution again from its shapes' by the rules, as
    :func:`carry_contacts` mixed them at its creation: the step does this once after Python
    changed a shape's coefficients or the rules (:data:`.step.MIXING_STALE`). They used to be
    mixed by the narrowphase on every step, every awake pair: its loop alone on rain_2000's
    stores took 157 us with the mix, 141 without (0.90x; BENCHMARKS.md, session 25,
    ``rain50``)."""
    friction, restitution = shapes.friction, shapes.restitution
    for k in range(contacts.key.shape[0]):
        sa = contacts.shape_a[k]
        sb = contacts.shape_b[k]
        contacts.friction[k] = mix(friction[sa], friction[sb], friction_rule)
        contacts.restitution[k] = mix(restitution[sa], restitution[sb], restitution_rule)


@inner_kernel
def carry_contacts(old, new, pairs, shapes, friction_rule, restitution_rule):
    """Fill ``new`` (one row per pair, sorted): every entry of every row, the manifolds of
    pairs that already existed copied, a new pair's zeroed but for its friction and
    restitution, mixed here from its shapes' by the rules (codes of
    :data:`impulse2d.settings.MIXING_RULES`): a contact's coefficients are mixed once, at its
    creation, and again only when Python changes a shape's or the rules (:func:`mix_again`).
    ``new`` comes unwritten from :func:`allocate_contacts`.

    Both key lists are ascending, so one merge pass finds every survivor. The whole manifold is
    copied, not only the warm-start memory: the narrowphase recomputes an awake pair's, but it
    keeps a sleeping island's (:func:`update_manifolds`), and a step that rebuilds the store
    (a new pair anywhere in the world) and then wakes that island solves what this copied. With
    the impulses alone its ground contacts had a zero normal and pushed nothing: a box landing
    on a sleeping pile drove the pile through the ground (soft_step, high_mass_ratio_2: the
    small boxes at -18 m/s where, never asleep, they take -1.9).

    The columns are read and written flat (:func:`.lane_layout.flat`) at unsigned indices, a
    row's ``w`` values of a column at ``w k``, as the contact passes read theirs: indexed
    ``new.point[k, j, 0]`` with a signed ``k``, each entry cost a wrap-around select and the
    inner shapes' multiplies, and rain_2000's merge of 6,300 rows took 180-250 us (about 35 ns
    a row) where this takes 100-115; with the store unwritten (no ``memset``), a new store and
    its merge 228-232 -> 115-145 us on landing steps (BENCHMARKS.md, session 17, ``rain42``).
    """
    one = np.uint64(1)
    two = np.uint64(2)
    three = np.uint64(3)
    four = np.uint64(4)
    body = shapes.body
    friction, restitution = shapes.friction, shapes.restitution
    old_key = old.key
    n_old = np.uint64(old_key.shape[0])
    o_count, n_count = old.count, new.count
    o_friction, n_friction = old.friction, new.friction
    o_restitution, n_restitution = old.restitution, new.restitution
    o_normal, n_normal = flat(old.normal), flat(new.normal)
    o_point, n_point = flat(old.point), flat(new.point)
    o_separation, n_separation = flat(old.separation), flat(new.separation)
    o_ids, n_ids = flat(old.ids), flat(new.ids)
    o_ni, n_ni = flat(old.normal_impulse), flat(new.normal_impulse)
    o_ti, n_ti = flat(old.tangent_impulse), flat(new.tangent_impulse)
    o_tni, n_tni = flat(old.total_normal_impulse), flat(new.total_normal_impulse)
    o_tti, n_tti = flat(old.total_tangent_impulse), flat(new.total_tangent_impulse)
    flat_pairs = flat(pairs)
    m = np.uint64(pairs.shape[0])
    o = np.uint64(0)
    k = np.uint64(0)
    while k < m:
        sa = flat_pairs[two * k]
        sb = flat_pairs[two * k + one]
        key = (sa << 32) | sb
        new.key[k] = key
        new.shape_a[k] = sa
        new.shape_b[k] = sb
        new.body_a[k] = body[np.uint64(sa)]
        new.body_b[k] = body[np.uint64(sb)]
        while o < n_old and old_key[o] < key:
            o += one
        k2 = two * k
        k4 = four * k
        if o < n_old and old_key[o] == key:
            o2 = two * o
            o4 = four * o
            n_count[k] = o_count[o]
            n_friction[k] = o_friction[o]
            n_restitution[k] = o_restitution[o]
            n_normal[k2] = o_normal[o2]
            n_normal[k2 + one] = o_normal[o2 + one]
            n_point[k4] = o_point[o4]
            n_point[k4 + one] = o_point[o4 + one]
            n_point[k4 + two] = o_point[o4 + two]
            n_point[k4 + three] = o_point[o4 + three]
            n_separation[k2] = o_separation[o2]
            n_separation[k2 + one] = o_separation[o2 + one]
            n_ids[k2] = o_ids[o2]
            n_ids[k2 + one] = o_ids[o2 + one]
            n_ni[k2] = o_ni[o2]
            n_ni[k2 + one] = o_ni[o2 + one]
            n_ti[k2] = o_ti[o2]
            n_ti[k2 + one] = o_ti[o2 + one]
            n_tni[k2] = o_tni[o2]
            n_tni[k2 + one] = o_tni[o2 + one]
            n_tti[k2] = o_tti[o2]
            n_tti[k2 + one] = o_tti[o2 + one]
        else:
            # a new pair: no point, no impulse
            n_count[k] = 0
            n_friction[k] = mix(friction[np.uint64(sa)], friction[np.uint64(sb)], friction_rule)
            n_restitution[k] = mix(restitution[np.uint64(sa)], restitution[np.uint64(sb)],
                                   restitution_rule)
            n_normal[k2] = 0.0
            n_normal[k2 + one] = 0.0
            n_point[k4] = 0.0
            n_point[k4 + one] = 0.0
            n_point[k4 + two] = 0.0
            n_point[k4 + three] = 0.0
            n_separation[k2] = 0.0
            n_separation[k2 + one] = 0.0
            n_ids[k2] = 0
            n_ids[k2 + one] = 0
            n_ni[k2] = 0.0
            n_ni[k2 + one] = 0.0
            n_ti[k2] = 0.0
            n_ti[k2 + one] = 0.0
            n_tni[k2] = 0.0
            n_tni[k2 + one] = 0.0
            n_tti[k2] = 0.0
            n_tti[k2 + one] = 0.0
        k += one


@inline_kernel
def _manifold_columns(contacts):
    """The columns the narrowphase writes, flat (:func:`.lane_layout.flat`: a row's ``w``
    values of a column at ``w k``), for unsigned indices, as :func:`carry_contacts` writes
    them."""
    return (contacts.count, flat(contacts.normal), flat(contacts.point),
            flat(contacts.separation), flat(contacts.ids), flat(contacts.normal_impulse),
            flat(contacts.tangent_impulse), flat(contacts.total_normal_impulse),
            flat(contacts.total_tangent_impulse))


@inline_kernel
def update_manifolds(contacts, shapes, bodies, speculative_distance, has_chains, out_normal,
                     out_points, out_ids, rows, n_rows):
    """Narrowphase: recompute every contact's manifold and carry impulses by feature id
    (:func:`collide_rows` for every pair kind)."""
    collide_rows(contacts, shapes, bodies, speculative_distance, has_chains, out_normal,
                 out_points, out_ids, rows, n_rows, True)


@inline_kernel
def collide_rows(contacts, shapes, bodies, speculative_distance, has_chains, out_normal,
                 out_points, out_ids, rows, n_rows, circles):
    """Narrowphase: recompute every contact's manifold and carry impulses by feature id (its
    friction and restitution are not the narrowphase's: :func:`carry_contacts`).
    ``circles`` (a constant at each call), as :func:`~.._collision.manifold.collide_pair`'s:
    ``False`` for a world without circles (:func:`.step.collide_polygons`), whose narrowphase
    then holds the polygon routine alone.

    A contact none of whose bodies moves this step (each asleep or static) keeps its manifold,
    impulses included: its bodies have not moved since it was computed, and a sleeping island's
    contacts are its memory for the warm start when it wakes (:mod:`.islands`). When the world
    ``has_chains``, the pairs with a chain segment are left to :func:`update_chain_manifolds`
    (compiled only for such worlds; the others do not even read the shape types).

    The two share the code that stores a manifold by copy, not through a helper: a call that
    passes the contact store costs about 0.3 us per contact (measured: the narrowphase of
    pyramid_20 went from 0.22 to 0.36 ms when the store was a helper's argument).

    A borrowing kernel, inlined into the step's (:func:`.step.collide`): the stores are
    borrowed, not counted (a kernel that counts references takes one on each of the 70 arrays
    of the three stores, and gives it back, every step: about 1 us, a third of a small world's
    narrowphase), and the scratch ``out_*`` (as :func:`~.._collision.manifold.collide` fills
    them) is the caller's.

    ``rows[:n_rows]``: the contacts with an awake body (:mod:`.awake`), ascending; every
    contact when ``n_rows`` is -1 (the test below skips the same ones).

    Rows, shapes and bodies are indexed unsigned, the manifold's columns flat
    (:func:`_manifold_columns`), as :func:`carry_contacts` does: a signed index costs each
    entry a wrap-around select, and a 2-D or 3-D column its inner shape's multiplies. The loop
    alone on rain_2000's stores 141 -> 115 us (0.83x; pyramid_100 0.94x), the same bits
    (BENCHMARKS.md, session 25, ``rain50``)."""
    kind = bodies.type
    asleep = bodies.asleep
    shape_type = shapes.type
    one = np.uint64(1)
    two = np.uint64(2)
    manifold_count, normal, point, separation, ids, normal_impulse, tangent_impulse, \
        total_normal, total_tangent = _manifold_columns(contacts)
    every = n_rows < 0
    n = np.uint64(contacts.key.shape[0] if every else n_rows)
    t = np.uint64(0)
    while t < n:
        k = t if every else np.uint64(rows[t])
        t += one
        sa = np.uint64(contacts.shape_a[k])
        sb = np.uint64(contacts.shape_b[k])
        ba = np.uint64(contacts.body_a[k])
        bb = np.uint64(contacts.body_b[k])
        if (asleep[ba] or kind[ba] == STATIC) and (asleep[bb] or kind[bb] == STATIC):
            continue
        if has_chains and (shape_type[sa] == CHAIN_SEGMENT or shape_type[sb] == CHAIN_SEGMENT):
            continue
        count = collide_pair(
            shapes.count[sa], shapes.vertices[sa], shapes.normals[sa], shapes.radius[sa],
            bodies.origin[ba, 0], bodies.origin[ba, 1], bodies.rot[ba, 0], bodies.rot[ba, 1],
            shapes.count[sb], shapes.vertices[sb], shapes.normals[sb], shapes.radius[sb],
            bodies.origin[bb, 0], bodies.origin[bb, 1], bodies.rot[bb, 0], bodies.rot[bb, 1],
            speculative_distance, out_normal, out_points, out_ids, circles)
        # the old manifold's ids and impulses, read before the rows are written (into scalars:
        # three scratch arrays fewer allocated a step, each about 60 ns with its free)
        k2 = two * k
        old_count = manifold_count[k]
        id0 = ids[k2]
        id1 = ids[k2 + one]
        normal0 = normal_impulse[k2]
        normal1 = normal_impulse[k2 + one]
        tangent0 = tangent_impulse[k2]
        tangent1 = tangent_impulse[k2 + one]
        manifold_count[k] = count
        normal[k2] = out_normal[0]
        normal[k2 + one] = out_normal[1]
        for j in range(2):
            p = k2 + np.uint64(j)
            total_normal[p] = 0.0
            total_tangent[p] = 0.0
            if j >= count:
                normal_impulse[p] = 0.0
                tangent_impulse[p] = 0.0
                separation[p] = 0.0
                ids[p] = 0
                continue
            point[two * p] = out_points[j, 0]
            point[two * p + one] = out_points[j, 1]
            separation[p] = out_points[j, 2]
            ids[p] = out_ids[j]
            if old_count > 0 and id0 == out_ids[j]:  # the first old point with this id
                normal_impulse[p] = normal0
                tangent_impulse[p] = tangent0
            elif old_count > 1 and id1 == out_ids[j]:
                normal_impulse[p] = normal1
                tangent_impulse[p] = tangent1
            else:
                normal_impulse[p] = 0.0
                tangent_impulse[p] = 0.0


@inline_kernel
def update_chain_manifolds(contacts, shapes, bodies, speculative_distance, out_normal,
                           out_points, out_ids):
    """:func:`update_manifolds` for the pairs with a chain segment (:mod:`.._collision.chain`).
    Two chain segments never touch (as in Box2D: chains are the static world's surface, they
    have no inside to push apart).

    Its manifold store below repeats :func:`update_manifolds`' on purpose: the two as one
    helper (an inlined kernel) cost the plain narrowphase 22 % of a base-20 pyramid's step
    (765 vs 628 us, measured on an idle machine, trajectories equal); a change there must be
    made in both.

    A borrowing kernel inlined into its stage's (:func:`.step.collide_chains`), as
    :func:`update_manifolds` is: the stage borrows the stores (it used to read them from the
    world's reference in a kernel that counts references: a count taken and given back on
    each of their 70 arrays every step, LunarLander's included) and passes the scratch
    ``out_*``, zeroed, as the narrowphase's."""
    kind = bodies.type
    asleep = bodies.asleep
    shape_type = shapes.type
    one = np.uint64(1)
    two = np.uint64(2)
    manifold_count, normal, point, separation, ids, normal_impulse, tangent_impulse, \
        total_normal, total_tangent = _manifold_columns(contacts)
    for k in range(contacts.key.shape[0]):
        sa = contacts.shape_a[k]
        sb = contacts.shape_b[k]
        ba = contacts.body_a[k]
        bb = contacts.body_b[k]
        chain_a = shape_type[sa] == CHAIN_SEGMENT
        chain_b = shape_type[sb] == CHAIN_SEGMENT
        if not (chain_a or chain_b):
            continue
        if (asleep[ba] or kind[ba] == STATIC) and (asleep[bb] or kind[bb] == STATIC):
            continue
        count = 0
        if not (chain_a and chain_b):
            c, bc, o, bo = (sa, ba, sb, bb) if chain_a else (sb, bb, sa, ba)
            count = collide_chain_segment(
                shapes.vertices[c], shapes.ghost[c],
                bodies.origin[bc, 0], bodies.origin[bc, 1], bodies.rot[bc, 0], bodies.rot[bc, 1],
                shapes.count[o], shapes.vertices[o], shapes.normals[o], shapes.radius[o],
                shapes.centroid[o],
                bodies.origin[bo, 0], bodies.origin[bo, 1], bodies.rot[bo, 0], bodies.rot[bo, 1],
                speculative_distance, out_normal, out_points, out_ids)
            if chain_b:
                # the chain segment was A of the call: turn the normal and the ids round
                out_normal[0] = -out_normal[0]
                out_normal[1] = -out_normal[1]
                for j in range(count):
                    out_ids[j] = ((out_ids[j] & 0xFF) << 8) | (out_ids[j] >> 8)
        # the old manifold's ids and impulses, read before the rows are written (into scalars:
        # three scratch arrays fewer allocated a step, each about 60 ns with its free)
        k2 = two * np.uint64(k)
        old_count = manifold_count[k]
        id0 = ids[k2]
        id1 = ids[k2 + one]
        normal0 = normal_impulse[k2]
        normal1 = normal_impulse[k2 + one]
        tangent0 = tangent_impulse[k2]
        tangent1 = tangent_impulse[k2 + one]
        manifold_count[k] = count
        normal[k2] = out_normal[0]
        normal[k2 + one] = out_normal[1]
        for j in range(2):
            p = k2 + np.uint64(j)
            total_normal[p] = 0.0
            total_tangent[p] = 0.0
            if j >= count:
                normal_impulse[p] = 0.0
                tangent_impulse[p] = 0.0
                separation[p] = 0.0
                ids[p] = 0
                continue
            point[two * p] = out_points[j, 0]
            point[two * p + one] = out_points[j, 1]
            separation[p] = out_points[j, 2]
            ids[p] = out_ids[j]
            if old_count > 0 and id0 == out_ids[j]:  # the first old point with this id
                normal_impulse[p] = normal0
                tangent_impulse[p] = tangent0
            elif old_count > 1 and id1 == out_ids[j]:
                normal_impulse[p] = normal1
                tangent_impulse[p] = tangent1
            else:
                normal_impulse[p] = 0.0
                tangent_impulse[p] = 0.0
