"""Python's side of islands and sleeping: the wakes the public setters make, ``is_awake =
False``, and ``World.islands``. The step's side (timers, islands falling asleep, wakes by touch)
is in :mod:`._dynamics.islands`, which explains the rules.

A sleeping island is the set of sleeping bodies that share its label ``island`` (its lowest
body row), so waking one body wakes them all with one vectorised pass over the body rows: the
setters that wake are not called per step on sleeping bodies in any loop that matters (a force
applied each step keeps its body awake, and waking an awake body is one flag read).

Every change of which bodies sleep drops the joint row lists (``World._joint_rows`` leaves out
the joints of sleeping islands), which the next step rebuilds, and marks the step's awake sets
stale (:func:`awake_changed`).
"""

from __future__ import annotations

import numpy as np

from ._core.jit import DirectCall
from ._core.state import DYNAMIC
from ._dynamics.awake import EDGES_VALID, STALE
from ._dynamics.islands import label_islands

_labels = DirectCall(label_islands, "island labels", 2.0)


def awake_changed(world) -> None:
    """Mark the step's awake sets (:mod:`._dynamics.awake`) stale: a body was created,
    destroyed, woken or put to sleep, or one was moved or changed by hand (a static body's box
    is only updated by a step that finds the sets stale). The next step rebuilds them with one
    pass over the rows."""
    state = getattr(world, "_awake_state", None)
    if state is not None:
        state[STALE] = 1
        state[EDGES_VALID] = 0  # a body's type may have changed: static bodies have no edges


def _woke(world) -> None:
    awake_changed(world)
    if world._joint_handles:
        world._joint_index = None


def wake_body(world, i: int) -> None:
    """Wake body row ``i``'s island if it sleeps, and restart ``i``'s sleep timer (something
    just acted on it: Box2D does the same)."""
    b = world._bodies
    if b.asleep[i]:
        members = b.asleep & (b.island == b.island[i])
        b.asleep[members] = False
        b.sleep_time[members] = 0.0
        _woke(world)
    b.sleep_time[i] = 0.0


def wake_touching(world, i: int) -> None:
    """Wake body row ``i``'s island and the islands of the bodies touching it (touching
    contacts) or jointed to it: for a body moved by hand, whose neighbours must see it (a
    static or kinematic body set somewhere else, a body whose shapes change)."""
    awake_changed(world)
    wake_body(world, i)
    if not world._sleepers:
        return
    c = world._contacts
    touching = c.count > 0
    others = np.concatenate((c.body_b[touching & (c.body_a == i)],
                             c.body_a[touching & (c.body_b == i)]))
    for j in world._body_joints.get(i, ()):
        others = np.append(others, (world._joints.body_a[j], world._joints.body_b[j]))
    for other in np.unique(others):
        wake_body(world, int(other))


def wake_all(world) -> None:
    """Wake every sleeping body."""
    if not world._sleepers:
        return
    b = world._bodies
    b.sleep_time[b.asleep] = 0.0
    b.asleep[:] = False
    world._sleepers = 0
    _woke(world)


def labels(world) -> np.ndarray:
    """Island label of every body row (its island's lowest row; -1 for rows that are not live
    dynamic bodies), from the touching contacts and the joints as they are now."""
    b, c, jt = world._bodies, world._contacts, world._joints
    return _labels(b.alive, b.type, c.count, c.body_a, c.body_b, jt.alive, jt.body_a, jt.body_b)


def sleep_island(world, i: int) -> None:
    """Put body row ``i``'s island to sleep now: velocities zeroed, not simulated until woken.
    Static and kinematic bodies have no island and are left as they are."""
    b = world._bodies
    if b.type[i] != DYNAMIC or b.asleep[i]:
        return
    label = labels(world)
    members = label == label[i]
    b.asleep[members] = True
    b.island[members] = label[i]
    b.v[members] = 0.0
    b.w[members] = 0.0
    # Forces applied before this call are dropped now rather than by the next step's finalize:
    # a step of a world that is all asleep may return before finalize (step_kernel), and a
    # sleeping body must not carry a force into the step that wakes it.
    b.force[members] = 0.0
    b.torque[members] = 0.0
    world._sleepers += int(np.count_nonzero(members))
    _woke(world)


def islands(world) -> list[list]:
    """The current islands, each a list of Body handles in row order, the islands ordered by
    their lowest row: every dynamic body is in exactly one (a lone body is an island of one);
    static and kinematic bodies are in none."""
    label = labels(world)
    rows = np.flatnonzero(label >= 0)
    if rows.shape[0] == 0:
        return []
    by_label = rows[np.argsort(label[rows], kind="stable")]
    cuts = np.flatnonzero(np.diff(label[by_label])) + 1
    handles = world._body_handles
    return [[handles[int(r)] for r in group] for group in np.split(by_label, cuts)]

