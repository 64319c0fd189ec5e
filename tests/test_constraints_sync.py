"""The step keeps a new contact-constraint store in the world's stores' reference and does not
hand it back to Python (boxing its arrays cost ~24 us on about half of BipedalWalker's steps);
everything that reads it from Python (contact events, snapshots, copies, pickles, state hashes,
a rebuilt reference) fetches it first (``world_ref.sync_constraints``), so it sees what a world
that fetched it after every step sees."""

from __future__ import annotations

import copy
import pickle

import numpy as np

import impulse2d as i2d


def _world(**settings):
    world = i2d.World(gravity=(0.0, -10.0), **settings)
    world.create_body(type="static").create_box(20.0, 0.5)
    rng = np.random.default_rng(3)
    for k in range(12):  # boxes raining onto the ground: the contact count keeps changing
        body = world.create_body(position=(float(rng.uniform(-4, 4)), 2.0 + 0.8 * k),
                                 angle=float(rng.uniform(-1, 1)))
        body.create_box(0.3, 0.2)
    return world


def test_hashes_snapshots_copies_and_pickles_see_the_newest_constraint_store():
    lazy = _world()
    eager = _world(enable_contact_events=True)  # its events fetch the store every step
    stale_steps = 0
    for step in range(150):
        lazy.step(1.0 / 60.0)
        eager.step(1.0 / 60.0)
        stale_steps += lazy._constraints_stale
        if step % 10 == 9:
            assert lazy.state_hash() == eager.state_hash()  # constraints' rows included
            assert not lazy._constraints_stale
    assert stale_steps >= 5  # the lazy path was taken

    def step_until_stale():
        lazy.step(1.0 / 60.0)
        eager.step(1.0 / 60.0)
        while not lazy._constraints_stale:
            lazy.step(1.0 / 60.0)
            eager.step(1.0 / 60.0)

    def steps(*worlds, n=40):
        for _ in range(n):
            for w in worlds:
                w.step(1.0 / 60.0)

    # a snapshot, a deep copy and a pickle taken while the store is stale carry the newest
    step_until_stale()
    snaps = lazy.snapshot(), eager.snapshot()
    assert not lazy._constraints_stale
    step_until_stale()
    clones = copy.deepcopy(lazy), copy.deepcopy(eager)
    step_until_stale()
    loaded = pickle.loads(pickle.dumps(lazy)), pickle.loads(pickle.dumps(eager))
    assert loaded[0].state_hash() == loaded[1].state_hash() == lazy.state_hash()
    steps(*clones, *loaded)
    assert clones[0].state_hash() == clones[1].state_hash()
    assert loaded[0].state_hash() == loaded[1].state_hash()
    lazy.restore(snaps[0])
    eager.restore(snaps[1])
    assert not lazy._constraints_stale and lazy.state_hash() == eager.state_hash()
    steps(lazy, eager)
    assert lazy.state_hash() == eager.state_hash()


def test_a_rebuilt_reference_takes_the_newest_constraint_store():
    """A body made after a stale step rebuilds the reference (its store grows): the new
    reference must hold the step's newest constraints (their warm-start impulses), so the
    world goes on as one that fetched them every step."""
    lazy = _world()
    eager = _world(enable_contact_events=True)
    while True:
        lazy.step(1.0 / 60.0)
        eager.step(1.0 / 60.0)
        if lazy._constraints_stale and lazy.step_count > 30:
            break
    for w in (lazy, eager):
        for k in range(20):  # the body store grows: a new reference
            w.create_body(position=(30.0 + k, 5.0)).create_circle(0.2)
    for _ in range(60):
        lazy.step(1.0 / 60.0)
        eager.step(1.0 / 60.0)
    assert lazy.state_hash() == eager.state_hash()
