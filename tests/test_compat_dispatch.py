"""The pybox2d layer's contact callbacks found in Python for a few contacts
(``b2World._dispatch``): the same ``BeginContact``/``EndContact`` calls, in the same order,
as the compiled path (``events.touch_changes``) that larger worlds take."""

from __future__ import annotations

import math

from impulse2d.compat import _b2world
from impulse2d.compat.box2d import (b2CircleShape, b2ContactListener, b2EdgeShape,
                                    b2FixtureDef, b2PolygonShape, b2World)


class _Recorder(b2ContactListener):
    def __init__(self, log):
        super().__init__()
        self.log = log

    def BeginContact(self, contact):  # noqa: N802
        self.log.append(("begin", contact.fixtureA.userData, contact.fixtureB.userData,
                         len(contact.worldManifold.points)))

    def EndContact(self, contact):  # noqa: N802
        self.log.append(("end", contact.fixtureA.userData, contact.fixtureB.userData))


def _bouncing_world(log):
    """Balls and boxes dropped on the ground from different heights, the balls bouncy: they
    touch, leave and touch again at different steps, several pairs at once."""
    world = b2World(gravity=(0, -10), contactListener=_Recorder(log))
    world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(-20, 0), (20, 0)]),
                           userData="ground").fixtures[0].userData = "ground"
    for k in range(6):
        shape = (b2CircleShape(radius=0.3) if k % 2 == 0
                 else b2PolygonShape(box=(0.3, 0.2)))
        body = world.CreateDynamicBody(position=(3.0 * k - 7.5, 1.0 + 0.7 * k),
                                       fixtures=b2FixtureDef(shape=shape, density=1.0,
                                                             restitution=0.6 if k % 2 == 0
                                                             else 0.0))
        body.fixtures[0].userData = f"body{k}"
    return world


def _events(monkeypatch, few):
    monkeypatch.setattr(_b2world, "_FEW", few)
    log = []
    world = _bouncing_world(log)
    steps = []
    for step in range(240):
        before = len(log)
        world.Step(1 / 60, 8, 3)
        steps.extend([step] * (len(log) - before))
    return log, steps


def test_a_few_contacts_report_what_the_compiled_path_reports(monkeypatch):
    python_log, python_steps = _events(monkeypatch, 64)
    kernel_log, kernel_steps = _events(monkeypatch, -1)  # every store through the kernel
    assert python_log == kernel_log and python_steps == kernel_steps
    begins = [e for e in python_log if e[0] == "begin"]
    ends = [e for e in python_log if e[0] == "end"]
    assert len(begins) >= 8 and len(ends) >= 2  # bounces: touches, leaves, touches again
    # every end pairs with a begin before it
    for e in ends:
        assert ("begin", e[1], e[2]) in [b[:3] for b in begins]
    # the first touch of the lowest ball (0.3 m radius, centre dropped from 1.0 m): free fall
    # of 0.7 m, t = sqrt(2 h / g) = 0.374 s, the 23rd step of 1/60 s (within a step: Box2D's
    # contacts are found at the start of the step after the overlap begins, the margin earlier)
    first = next(step for e, step in zip(python_log, python_steps)
                 if e[0] == "begin" and "body0" in e)
    assert abs((first + 1) / 60 - math.sqrt(2 * 0.7 / 10)) <= 2 / 60


def test_a_destroyed_body_ends_its_contacts_and_the_next_step_reports_nothing_of_it():
    log = []
    world = _bouncing_world(log)
    for _ in range(120):
        world.Step(1 / 60, 8, 3)
    box = next(b for b in world.bodies if b.fixtures[0].userData == "body1")
    del log[:]
    world.DestroyBody(box)
    assert log in ([("end", "ground", "body1")], [("end", "body1", "ground")])
    del log[:]
    for _ in range(5):
        world.Step(1 / 60, 8, 3)
    assert all("body1" not in e for e in log)


class _ManifoldRecorder(b2ContactListener):
    def __init__(self, log):
        super().__init__()
        self.log = log

    def BeginContact(self, contact):  # noqa: N802
        m = contact.worldManifold
        self.log.append(("begin", contact.fixtureA.userData, contact.fixtureB.userData,
                         tuple(m.normal), [tuple(p) for p in m.points]))

    def EndContact(self, contact):  # noqa: N802
        self.log.append(("end", contact.fixtureA.userData, contact.fixtureB.userData))


def _manifold_events(monkeypatch, synced):
    """The bouncing world's callbacks with their normals and points, and how many of its Steps
    called ``_dispatch`` on a contact store the step made that Python's view had not taken;
    ``synced``: the view taken in each Step before the checks (``World._contacts`` read, as
    a program reading it would), so that ``_dispatch`` never meets such a store."""
    if synced:
        plain = b2World._stores_now

        def stores_now(self):
            self._world._contacts  # noqa: B018 (the read syncs the view)
            return plain(self)
        monkeypatch.setattr(b2World, "_stores_now", stores_now)
    dispatch = b2World._dispatch
    unsynced = []

    def counted(self):
        unsynced.append(self._world.__dict__["_contacts_stale"])
        return dispatch(self)
    monkeypatch.setattr(b2World, "_dispatch", counted)
    log = []
    world = _bouncing_world(log)
    world.contactListener = _ManifoldRecorder(log)
    for _ in range(240):
        world.Step(1 / 60, 8, 3)
    monkeypatch.undo()
    return log, sum(unsynced)


def test_the_reference_s_new_contact_store_reports_what_the_synced_view_reports(monkeypatch):
    """``_dispatch`` reads the touching contacts, and a begun contact's normal and points,
    from the step's reference when Python's view has not taken the store the step made (a
    pair began or ended): the same calls with the same numbers as from the synced view."""
    log, unsynced = _manifold_events(monkeypatch, synced=False)
    synced_log, synced_unsynced = _manifold_events(monkeypatch, synced=True)
    assert log == synced_log
    assert unsynced >= 3 and synced_unsynced == 0  # each path taken where it should be
    begins = [e for e in log if e[0] == "begin"]
    assert len(begins) >= 8 and all(len(e[4]) >= 1 for e in begins)
    assert all(abs(e[3][0]) < 1e-9 and abs(abs(e[3][1]) - 1.0) < 1e-9 for e in begins
               if "ground" in e)  # (on the flat ground: the normal is vertical)
