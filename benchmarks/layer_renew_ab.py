"""A recycled world made new with its reference's clock, kernel counters and awake state reset
in the kernel call that puts its empty contact stores in (new), or by three NumPy calls before
it (old: main 22e9c7c's ``_recycle.take``), alternated episode by episode in one run of
Gymnasium's LunarLander episodes on the pybox2d layer (issue 31 item 8; branch ``layer40``).

    PYTHONPATH=src python benchmarks/layer_renew_ab.py [--resets 600] [--json F]

A reset's code runs once per ~90 steps, out of the caches: this measures it where it runs.
Random-action episodes (the action space seeded 0); each episode's reset takes the old or the
new form, alternating. Timed, in thread CPU: ``b2World(...)`` (``world``: the take and the
layer's own attributes), the take alone (``take``) and the whole ``reset()``. Per form: mean,
median and least in microseconds (the first 20 episodes left out). Both forms make the same
worlds (``tests/test_recycle.py``), so the episodes are the same.
"""

from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))
sys.path.insert(0, HERE)
from layer_moon_ab import report, reset_ab  # noqa: E402  (the same episodes, alternated)

from operator import is_  # noqa: E402

from impulse2d import _empty_stores, _recycle as r  # noqa: E402
from impulse2d._core.jit import DirectCall, kernel  # noqa: E402
from impulse2d.world import World, _check_gravity  # noqa: E402


@kernel
def _old_contacts_of_template(ref, template):
    """main's kernel: ``ref``'s contact and constraint stores made ``template``'s."""
    ref.contacts = template.contacts
    ref.constraints = template.constraints


_old_into = DirectCall(_old_contacts_of_template, "main's empty contacts (benchmark)", 1.0)


def _old_put_empty_contacts(world) -> bool:
    """``_recycle._put_empty_contacts`` as main has it (the counts reset by the caller)."""
    d = world.__dict__
    contacts, constraints = d["_contacts"], d["_constraints"]
    ref, empty_contacts, empty_constraints = r._TEMPLATE
    built = d["_stores_built_from"]
    if (built is None or d["_stores"] is None or d["_contacts_stale"]
            or not all(map(is_, contacts, empty_contacts))
            or not all(map(is_, constraints, empty_constraints))):
        return r.put_contact_stores(world, contacts, constraints)
    if built[0] is not d["_bodies"] or built[1] is not d["_shapes"] or built[2] is not d["_joints"]:
        return False
    _old_into.entry(d["_stores"], ref)
    d["_constraints_stale"] = False
    d["_stores_built_from"] = (built[0], built[1], built[2], contacts, constraints, built[5],
                               built[6])
    return True


def _old_take(key, world_class, gravity, changes: dict):
    """``_recycle.take`` as main 22e9c7c has it: the counts reset by NumPy, the contacts by
    a kernel of their own."""
    gravity = _check_gravity(gravity)
    entry = r._KEPT.pop(key, None)
    if entry is None:
        return None
    world, extra = entry
    d = world.__dict__
    stores, packed_now = r._zeroed(world, (d["_bodies"], d["_shapes"], d["_joints"]))
    if (world_class.__init__ is not World.__init__
            or not r._same_settings(d["_settings"], key, changes)):
        with _empty_stores.lent(stores):
            world_class.__init__(world, gravity, **changes)
        return world, None
    world._renew(gravity, *stores)
    d["_clock"].fill(0)
    d["_verbs"][r._COUNTERS] = 0
    d["_awake_state"][:] = r._NEW_AWAKE
    if packed_now:
        d["_stores_built_from"] = None
        r.stores_for_step(world, d["_verbs_for"][1])
        return world, extra
    if not r._TEMPLATE:
        r._put_empty_contacts(world)  # (makes the template: the first take only)
    elif not _old_put_empty_contacts(world):
        d["_stores"] = d["_stores_built_from"] = None
        d["_verbs_for"] = (None, None)
    return world, extra


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--resets", type=int, default=600)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    from impulse2d.compat import _b2world
    from impulse2d.compat._b2world import b2World
    timed_take = {}
    forms = {"new": r.take, "old": _old_take}

    def install(form):
        _b2world.take = timed_take[form]

    def wrap(timed):
        for form, take in forms.items():
            timed_take[form] = timed(take, "take")
        b2World.__init__ = timed(b2World.__init__, "world")

    report(args.resets, reset_ab(args.resets, install, wrap), args.json)


if __name__ == "__main__":
    main()
