"""The joint rows the step solves, per joint list, and the body pairs joints keep apart.

Built again whenever a joint is made or destroyed or an island with joints falls asleep or
wakes, and so on a new world's first step. Masking the store once per joint type (eleven
``flatnonzero`` calls over the whole store) cost about 55 us of LunarLander's first step,
a fifth of it (issue 31 item 8); here the live rows are found once and grouped by type with
one stable sort, which keeps each list in ascending row order (the solver's order) as the
per-type masks did. The lists are views of one array, each a contiguous int64 vector.
"""

from __future__ import annotations

import numpy as np

from ._core.state import DYNAMIC
from ._dynamics.joints import JOINT_MODULES
from .types import JointType

JOINT_CODES = tuple(getattr(JointType, name.upper()).code for name in JOINT_MODULES)
"""Joint type codes in the dispatch order of the joint solver."""

_RANK = np.zeros(max(JOINT_CODES) + 1, dtype=np.int64)
_RANK[list(JOINT_CODES)] = np.arange(len(JOINT_CODES))
"""Each joint type code's place in JOINT_CODES."""

_FEW = 64
"""Up to this many body-pair keys are sorted as Python ints (``np.unique`` costs more below)."""

_SMALL = 32
"""A joint store of at most this many rows (a new world's has 4) is read as Python lists: each
NumPy call on it costs a microsecond or more whatever its length, and the array path makes
about twenty (24 us measured for LunarLander's two joints, against ~8 this way)."""

_RANKS = _RANK.tolist()


def joint_index(joints, bodies, sleepers: int, last: dict | None = None) -> dict:
    """``World._joint_rows``: ``by_type`` (the rows of the live joints per list of
    ``ROW_LISTS``, revolute joints split into pins and the others), ``no_collide`` (sorted
    body-pair keys ``min << 32 | max`` of live joints that forbid collision, int64) and
    ``filtered`` (whether a live joint was left out: those of sleeping islands, with no
    awake dynamic body unless neither body is dynamic; ``sleepers``: bodies may sleep).

    ``last``: the rows the world's table of kernels was filled for (``World._verbs_for``),
    given back, the very object, when a small store's rows come out the same: the step then
    keeps its table and its stores' reference, which hold them (a recycled world's joints,
    made again on the same rows: :mod:`._recycle`)."""
    alive = joints.alive
    if not sleepers and alive.shape[0] <= _SMALL:
        if last is not None:
            signed = _SIGNED.get(id(last))
            if signed is not None and signed[0] is last and signed[1] == _signature(joints):
                return last  # the columns the rows come from unchanged since last was given
        rows = _small_index(joints)
        if last is not None and _same(rows, last):
            rows = last
        _sign(rows, joints)
        return rows
    solved = alive
    if sleepers:
        dynamic = bodies.type == DYNAMIC
        awake = dynamic & ~bodies.asleep
        solved = alive & (awake[joints.body_a] | awake[joints.body_b]
                          | ~(dynamic[joints.body_a] | dynamic[joints.body_b]))
    live = np.flatnonzero(solved)
    # each row's list, by rank in JOINT_CODES; a stable sort keeps rows ascending in a list
    ranks = _RANK[joints.type[live]]
    live = live[np.argsort(ranks, kind="stable")]
    rows = []
    start = 0
    for count in np.bincount(ranks, minlength=len(JOINT_CODES)).tolist():
        rows.append(live[start:start + count])
        start += count
    revolute = rows[0]
    plain = ~(joints.enable_spring | joints.enable_motor | joints.enable_limit)[revolute]
    apart = alive & ~joints.collide_connected
    if apart.any():
        a = joints.body_a[apart]
        b = joints.body_b[apart]
        keys = (np.minimum(a, b) << 32) | np.maximum(a, b)
        if keys.shape[0] <= _FEW:
            keys = np.array(sorted(set(keys.tolist())), dtype=np.int64)
        else:
            keys = np.unique(keys).astype(np.int64)
    else:
        keys = np.empty(0, dtype=np.int64)
    return {
        "by_type": (revolute[plain], revolute[~plain], *rows[1:]),
        "no_collide": keys,
        "filtered": bool(sleepers) and bool((alive & ~solved).any()),
    }


def _small_index(joints) -> dict:
    """:func:`joint_index` of a small store with every live joint solved (no sleepers): the
    same lists, in the same order (rows ascending in each, as the array path's stable sort
    keeps them), as contiguous int64 vectors, a list without joints the shared
    :data:`_EMPTY` (a new world's first step: the eleven slices and the flags read for
    every list cost about half of this function's 16 us with LunarLander's two joints)."""
    codes = joints.type.tolist()
    ranks = _RANKS
    by_rank: dict = {}
    live = []
    for j, on in enumerate(joints.alive.tolist()):
        if on:
            live.append(j)
            rank = ranks[codes[j]]
            rows = by_rank.get(rank)
            if rows is None:
                by_rank[rank] = [j]
            else:
                rows.append(j)
    revolute = by_rank.get(0)
    plain = driven = _EMPTY
    if revolute is not None:
        spring, motor, limit = (joints.enable_spring.tolist(), joints.enable_motor.tolist(),
                                joints.enable_limit.tolist())
        still = [j for j in revolute if not (spring[j] or motor[j] or limit[j])]
        moved = [j for j in revolute if spring[j] or motor[j] or limit[j]]
        plain = np.array(still, dtype=np.int64) if still else _EMPTY
        driven = np.array(moved, dtype=np.int64) if moved else _EMPTY
    others = [np.array(by_rank[k], dtype=np.int64) if k in by_rank else _EMPTY
              for k in range(1, len(JOINT_CODES))]
    keys = _EMPTY
    if live:
        connected, body_a, body_b = (joints.collide_connected.tolist(), joints.body_a.tolist(),
                                     joints.body_b.tolist())
        apart = {(min(body_a[j], body_b[j]) << 32) | max(body_a[j], body_b[j])
                 for j in live if not connected[j]}
        if apart:
            keys = np.array(sorted(apart), dtype=np.int64)
    return {"by_type": (plain, driven, *others), "no_collide": keys, "filtered": False}


_SIGNED: dict = {}
"""id(rows) -> (rows, the :func:`_signature` of the joint store they were found in): the last
few small stores' rows (a kept world's, :mod:`._recycle`), given back as they are when a
world's joint store reads the same again. A recycled world's first step found its rows again
with :func:`_small_index` and :func:`_same` (about 25 NumPy calls: 47 us median, 68 mean of
LunarLander's first step inside a run of episodes); the signature is 8 ``tobytes`` calls."""

_SIGNED_MAX = 8


def _signature(joints) -> tuple:
    """The joint columns :func:`_small_index` reads, as bytes: equal signatures give equal
    rows (dead rows included, so a store whose dead rows differ only falls to the full path)."""
    return (joints.alive.tobytes(), joints.type.tobytes(), joints.enable_spring.tobytes(),
            joints.enable_motor.tobytes(), joints.enable_limit.tobytes(),
            joints.collide_connected.tobytes(), joints.body_a.tobytes(),
            joints.body_b.tobytes())


def _sign(rows: dict, joints) -> None:
    """Keep ``rows`` with the signature of ``joints`` (the store they were just found in)."""
    if len(_SIGNED) >= _SIGNED_MAX and id(rows) not in _SIGNED:
        _SIGNED.pop(next(iter(_SIGNED)))
    _SIGNED[id(rows)] = (rows, _signature(joints))


def _same(rows: dict, last: dict) -> bool:
    """Whether the joint rows ``rows`` and ``last`` list the same rows, keys and flag."""
    if rows["filtered"] != last["filtered"] or len(rows["by_type"]) != len(last["by_type"]):
        return False
    for a, b in zip(rows["by_type"], last["by_type"]):
        if a.shape != b.shape or (a.shape[0] and a.tolist() != b.tolist()):
            return False
    a, b = rows["no_collide"], last["no_collide"]
    return a.shape == b.shape and a.tolist() == b.tolist()


_EMPTY = np.empty(0, dtype=np.int64)
"""The rows of a list without joints in :func:`_small_index`'s result, shared by every world:
nothing is written into a list of rows (the step reads them), and with no element there is
nothing to write. Writeable, as every other list, so that the step's reference types it as it
types them."""


__all__ = ["JOINT_CODES", "joint_index"]
