"""A dropped ``b2World``'s engine world, freed by its reference counts (issue 31 item 8).

An impulse2d ``World`` and its handles refer to each other (the world lists its bodies',
shapes' and joints' handles; each handle holds its world), so a world the program lets go of
is garbage for Python's cyclic collector alone: about 60 objects a world. Gymnasium's
LunarLander drops one every reset, and the collector's passes over them (and over everything
else young) cost ~50 us a reset on average, as much as the layer's joints.

When a ``b2World`` goes, :func:`release` empties its engine world's three handle lists, so that
the world and its handles go by their reference counts instead, if the engine world is
provably the layer's alone:

* the program never took it (``b2World.engine``, which marks the ``b2World``: a program that
  holds the engine, or handles it listed, keeps a whole world);
* its reference count is the one it had when the ``b2World`` was made (the ``b2World``'s
  reference and the world's own) plus one for each handle it lists (each holds its world):
  nothing else holds it, the layer's bodies and joints included (a live one refers to its
  world: it was destroyed, or it is garbage with the ``b2World``). Any other holder, or a
  ``b2World`` copied or unpickled (another engine world than the one counted), fails the
  test, and the world is left to the collector as before.

An emptied world is never used again: nothing can reach it but the handles going with it;
or, when none of its handles is held by anything but the world's lists either (the destroyed
bodies' queue, which the dropped ``b2World`` will never carry out, let go first), it is kept
for the next ``b2World`` of the same settings (:mod:`impulse2d._recycle`: its arrays and its
step reference made new in place, which saves that world the allocations, the frees and its
first step's reference and table of kernels), with the sweep counts its engine was last set
to (``b2World._iterations``, which the new ``b2World`` takes over).
"""

from __future__ import annotations

import sys

from .._recycle import keep

_refs = sys.getrefcount


def engine_count(b2world) -> tuple[int, int]:
    """``(id, reference count)`` of ``b2world``'s engine world as made (no handle yet), read
    as :func:`release` reads it."""
    world = b2world.__dict__["_world"]
    return id(world), _refs(world)


def release(b2world, _refs=_refs, _keep=keep) -> None:
    """Empty the handle lists of ``b2world``'s engine world if only the layer holds it (see
    the module docstring); ``b2World.__del__`` (``_refs`` bound here: a ``__del__`` at the
    interpreter's exit may find the module's globals gone)."""
    d = b2world.__dict__
    world = d.get("_world")
    made = d.get("_engine_count")
    if world is None or made is None or d.get("_engine_taken") or made[0] != id(world):
        return
    lists = (world.__dict__.get("_body_handles"), world.__dict__.get("_shape_handles"),
             world.__dict__.get("_joint_handles"))
    if any(type(handles) is not dict for handles in lists):
        return
    if _refs(world) != made[1] + len(lists[0]) + len(lists[1]) + len(lists[2]):
        return
    d["_queue"] = []  # (the queued destructions, never to be carried out, hold handles)
    # each handle held by its list alone (the list, the loop's name, getrefcount's argument)
    alone = all(_refs(h) == 3 for handles in lists for h in handles.values())
    for handles in lists:
        handles.clear()
    key = d.get("_recycle_key")
    if alone and key is not None and key[2:] == (b2world.substeps, b2world.max_iterations):
        _keep(world, key, d.get("_iterations"))


def recycle_key(b2world, changes: dict):
    """The key of a ``b2World``'s engine world for :mod:`impulse2d._recycle` (its class, its
    settings' changes, the class's substeps and iteration caps, which turn ``Step``'s counts
    into the engine's settings), kept on it as ``_recycle_key``; None if unhashable."""
    key = (type(b2world), tuple(sorted(changes.items())), b2world.substeps,
           b2world.max_iterations)
    try:
        hash(key)
    except TypeError:
        key = None
    b2world.__dict__["_recycle_key"] = key
    return key


__all__ = ["engine_count", "recycle_key", "release"]
