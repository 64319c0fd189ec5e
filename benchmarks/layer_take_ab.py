"""A recycled world made new by ``World._renew`` alone (new) or by the whole ``World.__init__``
with its settings, kernel table, tolerances and arrays made and then dropped (old: main's
``_recycle.take`` before the split), and ``DestroyBody`` without (new) or with (old) the call
that ends the contacts of a body when nothing touches, alternated episode by episode in one run
of Gymnasium's LunarLander episodes on the pybox2d layer (issue 31 item 8; branch ``layer39``).

    PYTHONPATH=src python benchmarks/layer_take_ab.py [--resets 600] [--json F]

A reset's code runs once per ~90 steps, out of the caches: this measures it where it runs.
Random-action episodes (the action space seeded 0); each episode's reset takes the old or the
new forms, alternating. Timed, in thread CPU: ``b2World(...)`` (``world``: the take and the
layer's own attributes), the four ``DestroyBody`` calls (``destroy``) and the whole ``reset()``.
Per form: mean, median and least in microseconds (the first 20 episodes left out). Both forms
make the same worlds (``tests/test_recycle.py``), so the episodes are the same.
"""

from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))
sys.path.insert(0, HERE)
from layer_moon_ab import report, reset_ab  # noqa: E402  (the same episodes, alternated)


def _old_take(key, world_class, gravity, changes: dict):
    """``_recycle.take`` as main had it before the split (10cbc0d): ``World.__init__`` run
    whole on the kept, zeroed stores, then the kept settings, table and reference put back."""
    from impulse2d import _empty_stores, _recycle as r
    entry = r._KEPT.pop(key, None)
    if entry is None:
        return None
    world, extra = entry
    d = world.__dict__
    kept = {name: d[name] for name in ("_settings", "_lock", "_clock", "_verbs", "_verbs_for",
                                       "_stores", "_stores_built_from", "_diagnostics",
                                       "_lengths", "_step_settings", "_awake_state")}
    stores, packed_now = r._zeroed(world, (d["_bodies"], d["_shapes"], d["_joints"]))
    with _empty_stores.lent(stores):
        world_class.__init__(world, gravity, **changes)
    if (d["_bodies"] is not stores[0] or d["_shapes"] is not stores[1]
            or d["_joints"] is not stores[2]):
        return world, None
    old, new = kept["_settings"].__dict__.copy(), d["_settings"].__dict__.copy()
    for name in r._NOT_COMPARED:
        old.pop(name, None)
        new.pop(name, None)
    if old != new:
        return world, None
    d.update(kept)
    kept["_clock"].fill(0)
    kept["_verbs"][r._COUNTERS] = 0
    kept["_awake_state"][:] = r.new_state()
    if packed_now:
        d["_stores_built_from"] = None
        r.stores_for_step(world, d["_verbs_for"][1])
        return world, extra
    if not r._put_empty_contacts(world):
        d["_stores"] = d["_stores_built_from"] = None
        d["_verbs_for"] = (None, None)
    return world, extra


def _old_destroy_body(self, body):
    """``b2World.DestroyBody`` as main had it (10cbc0d): ``_end_contacts`` called always."""
    from impulse2d.compat import _b2world as m
    if not isinstance(body, m.b2Body) or body._b2world is not self:
        raise TypeError("body must be a b2Body of this world")
    i = body._i
    if self._bodies.get(i) is not body:
        raise ValueError("this body was already destroyed")
    queued = m.can_queue_destroy(self, body)
    goodbye = self.destructionListener
    if not queued:
        m.flush_queue(self)
    for joint in list(body._joints):
        if goodbye is not None:
            goodbye.SayGoodbye(joint)
        self._forget_joint(joint)
    rows = [f._shape._index for f in body._fixtures if f.__class__ is m.b2Fixture]
    if len(rows) != len(body._fixtures):
        rows = [row for f in body._fixtures for row in f._rows()]
    self._end_contacts(rows)
    if goodbye is not None:
        for fixture in body._fixtures:
            goodbye.SayGoodbye(fixture)
    if queued:
        m.queue_destroy(self, body._handle)
    else:
        self._world.destroy_body(body._handle)
    for s in rows:
        del self._fixtures[s]
    del self._bodies[i]
    self._dynamic = None
    self._held = None
    m._b2snapshot.mark_destroyed((*body._fixtures, body))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--resets", type=int, default=600)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    from impulse2d.compat import _b2world
    from impulse2d.compat._b2world import b2World
    timed_destroy = {}
    forms = {"new": (_b2world.take, b2World.DestroyBody), "old": (_old_take, _old_destroy_body)}

    def install(form):
        _b2world.take = forms[form][0]
        b2World.DestroyBody = timed_destroy[form]

    def wrap(timed):
        for form, (_, destroy) in forms.items():
            timed_destroy[form] = timed(destroy, "destroy")
        b2World.__init__ = timed(b2World.__init__, "world")

    report(args.resets, reset_ab(args.resets, install, wrap), args.json)


if __name__ == "__main__":
    main()
