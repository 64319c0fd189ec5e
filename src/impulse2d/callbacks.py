"""Python callbacks inside the step: a custom pair filter and a pre-solve hook (Box2D v3's
``b2CustomFilterFcn`` and ``b2PreSolveFcn``).

``world.pair_filter = f``: ``f(shape_a, shape_b) -> bool`` is called once when two shapes that
pass the collision filters (category, mask, group, joints) start overlapping in the broadphase
(their fat bounding boxes), before they are ever collided; False keeps the pair from colliding
for as long as their boxes keep overlapping. When the boxes part and meet again it is asked
again.

``world.pre_solve = f``: ``f(contact) -> bool`` is called every step for every contact with
manifold points (a :class:`PreSolveContact`: ``shape_a``, ``shape_b``, ``normal`` and
``points`` as in :class:`~impulse2d.ContactInfo`, with this step's points and
separations, impulses 0), after the narrowphase and before the solver; False switches that
contact off for this step only (not solved, no impulse, and it does not count as touching for
waking, events or sleeping; its warm start is lost). Box2D calls it from its narrowphase
threads; here the step pauses once after the narrowphase and the calls are made in the
contacts' order (shape index pairs ascending), so they are deterministic.

Both are None by default, and then the step runs in one call, as without this module. With
either set, the step runs in two compiled calls around them (:data:`~._dynamics.step.
TO_MANIFOLDS`): a few microseconds a step, plus the calls themselves (measured in
``benchmarks/callbacks.py``). A callback must not change the world (create, destroy, move,
set, apply): it runs inside the step, and every such call raises
:class:`~impulse2d.WorldLockedError` there, changing nothing (:mod:`impulse2d._lock`);
``world.after_step(fn)`` runs ``fn`` once the step returns. An exception from a callback
propagates out of ``World.step``; the step is then not taken (no body has moved), though the
contact manifolds were refreshed.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def check_callback(value, name: str):
    """None or a callable; else ``TypeError`` naming the property."""
    if value is not None and not callable(value):
        raise TypeError(f"{name} must be a callable or None, got {type(value).__name__}")
    return value


class Callbacks:
    """A world's callbacks and the pair filter's memory: the pair keys it has seen (asked
    about) and those it rejected, both sorted, kept to the pairs that still exist."""

    def __init__(self) -> None:
        self.pair_filter: Callable | None = None
        self.pre_solve: Callable | None = None
        self._seen = np.zeros(0, dtype=np.int64)
        self._rejected = np.zeros(0, dtype=np.int64)

    @property
    def active(self) -> bool:
        return self.pair_filter is not None or self.pre_solve is not None

    def forget(self) -> None:
        """Drop the pair filter's memory (the filter was replaced: every pair is asked again)."""
        self._seen = np.zeros(0, dtype=np.int64)
        self._rejected = np.zeros(0, dtype=np.int64)

    def run(self, world) -> None:
        """Between the narrowphase and the solver: ask about new pairs, switch off the rejected
        ones and those the pre-solve hook declines (their manifold point count set to 0, which
        is what every later stage reads as "not touching"). The world is locked meanwhile
        (:mod:`._lock`): a callback that changes it raises, and nothing is changed."""
        lock = world._lock
        lock.stepping = True
        try:
            self._run(world)
        finally:
            lock.stepping = False

    def _run(self, world) -> None:
        contacts = world._contacts
        keys = contacts.key
        if self.pair_filter is not None:
            if keys.shape != self._seen.shape or not np.array_equal(keys, self._seen):
                self._ask(world, keys)
            if self._rejected.shape[0]:
                contacts.count[_member(keys, self._rejected)] = 0
        if self.pre_solve is not None:
            for k in np.flatnonzero(contacts.count > 0).tolist():
                if not self.pre_solve(PreSolveContact(world, k)):
                    contacts.count[k] = 0

    def _ask(self, world, keys) -> None:
        """Ask the filter about the pairs not seen before; remember only pairs that still
        exist (the keys are sorted, and so are these)."""
        contacts = world._contacts
        handles = world._shape_handles
        rejected = [int(keys[k]) for k in np.flatnonzero(~_member(keys, self._seen)).tolist()
                    if not self.pair_filter(handles[int(contacts.shape_a[k])],
                                            handles[int(contacts.shape_b[k])])]
        self._seen = keys.copy()
        kept = self._rejected[_member(self._rejected, keys)]
        self._rejected = np.union1d(kept, np.array(rejected, dtype=np.int64))


class PreSolveContact:
    """The pre-solve hook's argument: one contact, read from the world's arrays only for what
    the hook asks (``shape_a``, ``shape_b``, ``normal``, ``points`` as in
    :class:`~impulse2d.ContactInfo`), so that a hook looking only at the shapes costs
    little. Valid during the call only."""

    __slots__ = ("_world", "_row")

    def __init__(self, world, row: int) -> None:
        self._world = world
        self._row = row

    @property
    def shape_a(self):
        return self._world._shape_handles[int(self._world._contacts.shape_a[self._row])]

    @property
    def shape_b(self):
        return self._world._shape_handles[int(self._world._contacts.shape_b[self._row])]

    @property
    def normal(self):
        return self._world._contact_info(self._row).normal

    @property
    def points(self):
        return self._world._contact_info(self._row).points

    def __repr__(self) -> str:
        return f"PreSolveContact({self.shape_a!r}, {self.shape_b!r})"


def _member(keys: np.ndarray, sorted_set: np.ndarray) -> np.ndarray:
    """``keys[i] in sorted_set`` for each i (a binary search each)."""
    if sorted_set.shape[0] == 0:
        return np.zeros(keys.shape[0], dtype=bool)
    at = np.minimum(np.searchsorted(sorted_set, keys), sorted_set.shape[0] - 1)
    return sorted_set[at] == keys
