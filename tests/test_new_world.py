"""A new world's fixed costs, cut without changing what a world holds or how it moves.

``World()`` copies its empty stores from templates (``_empty_stores``); the joint rows are
grouped with one sort instead of a mask per joint type (``_joint_index``); a joint on a row
never used before skips clearing it; the first step's stores reference is built through the
compiled entry point. Each must give what the general path gives, bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

import impulse2d
from impulse2d._core.state import (BODY_LAYOUT, DYNAMIC, JOINT_LAYOUT, SHAPE_LAYOUT, Bodies,
                                   Joints, Shapes)
from impulse2d._core.storage import allocate_store
from impulse2d._dynamics.contact_solver import CONSTRAINT_LAYOUT, ContactConstraints
from impulse2d._dynamics.contacts import CONTACT_LAYOUT, Contacts
from impulse2d._joint_index import JOINT_CODES, joint_index

DT = 1.0 / 60.0


def _masked_rows(jt, b, sleepers):
    """The joint rows as one mask per joint type finds them (the former ``_joint_rows``)."""
    alive = jt.alive
    lo = np.minimum(jt.body_a, jt.body_b)[alive & ~jt.collide_connected]
    hi = np.maximum(jt.body_a, jt.body_b)[alive & ~jt.collide_connected]
    solved = alive
    if sleepers:
        dynamic = b.type == DYNAMIC
        awake = dynamic & ~b.asleep
        solved = alive & (awake[jt.body_a] | awake[jt.body_b]
                          | ~(dynamic[jt.body_a] | dynamic[jt.body_b]))
    rows = [np.flatnonzero(solved & (jt.type == code)) for code in JOINT_CODES]
    revolute = rows[0]
    plain = ~(jt.enable_spring | jt.enable_motor | jt.enable_limit)[revolute]
    return {"by_type": (revolute[plain], revolute[~plain], *rows[1:]),
            "no_collide": np.unique((lo << 32) | hi).astype(np.int64),
            "filtered": bool((alive & ~solved).any())}


@pytest.mark.parametrize("most", [12, 40, 400])  # few keys (sorted in Python) and many
def test_joint_index_matches_one_mask_per_type(most):
    rng = np.random.default_rng(most)
    for trial in range(300):
        n = int(rng.integers(0, most))
        jt = allocate_store(Joints, JOINT_LAYOUT, n)
        bodies = allocate_store(Bodies, BODY_LAYOUT, 30)
        jt.alive[:] = rng.random(n) < 0.7
        jt.type[:] = rng.choice(JOINT_CODES, n)
        jt.body_a[:] = rng.integers(0, 30, n)
        jt.body_b[:] = rng.integers(0, 30, n)
        jt.collide_connected[:] = rng.random(n) < 0.3
        for flag in ("enable_spring", "enable_motor", "enable_limit"):
            getattr(jt, flag)[:] = rng.random(n) < 0.2
        bodies.type[:] = rng.integers(0, 3, 30)
        bodies.asleep[:] = rng.random(30) < 0.5
        sleepers = trial % 2
        want, got = _masked_rows(jt, bodies, sleepers), joint_index(jt, bodies, sleepers)
        assert got["filtered"] == want["filtered"]
        assert got["no_collide"].dtype == np.int64
        np.testing.assert_array_equal(got["no_collide"], want["no_collide"])
        assert len(got["by_type"]) == len(want["by_type"])
        for mine, theirs in zip(got["by_type"], want["by_type"]):
            # the kernels take C-contiguous int64 vectors, rows ascending (the solver's order)
            assert mine.dtype == np.int64 and mine.ndim == 1 and mine.flags.c_contiguous
            np.testing.assert_array_equal(mine, theirs)


def test_joint_index_gives_the_last_rows_back_only_for_the_same_joint_columns(monkeypatch):
    """A small store's rows given again as ``last`` (a recycled world's, ``_recycle``) come
    back as that very object while the columns they were found in are unchanged, without
    being found again; any change of a column they depend on gives the rows of the store as
    it is now (what one mask per type finds)."""
    import impulse2d._joint_index as index
    rng = np.random.default_rng(5)
    bodies = allocate_store(Bodies, BODY_LAYOUT, 30)
    bodies.type[:] = rng.integers(0, 3, 30)
    columns = ("alive", "type", "body_a", "body_b", "collide_connected", "enable_spring",
               "enable_motor", "enable_limit")
    found = index._small_index
    for trial in range(200):
        jt = allocate_store(Joints, JOINT_LAYOUT, 8)
        jt.alive[:] = rng.random(8) < 0.7
        jt.type[:] = rng.choice(JOINT_CODES, 8)
        jt.body_a[:] = rng.integers(0, 30, 8)
        jt.body_b[:] = rng.integers(0, 30, 8)
        for flag in ("collide_connected", "enable_spring", "enable_motor", "enable_limit"):
            getattr(jt, flag)[:] = rng.random(8) < 0.3
        last = joint_index(jt, bodies, 0)
        monkeypatch.setattr(index, "_small_index", None)  # (not called: the rows kept)
        assert joint_index(jt, bodies, 0, last) is last
        monkeypatch.setattr(index, "_small_index", found)
        name = columns[trial % len(columns)]
        column = getattr(jt, name)
        k = int(rng.integers(0, 8))
        if column.dtype == np.bool_:
            column[k] = not column[k]
        elif name == "type":
            column[k] = JOINT_CODES[(JOINT_CODES.index(int(column[k])) + 1) % len(JOINT_CODES)]
        else:
            column[k] = (int(column[k]) + 1) % 30
        got, want = joint_index(jt, bodies, 0, last), _masked_rows(jt, bodies, 0)
        np.testing.assert_array_equal(got["no_collide"], want["no_collide"])
        for mine, theirs in zip(got["by_type"], want["by_type"]):
            np.testing.assert_array_equal(mine, theirs)


@pytest.mark.parametrize("store_type, layout, capacity", [
    (Bodies, BODY_LAYOUT, 16), (Shapes, SHAPE_LAYOUT, 16), (Joints, JOINT_LAYOUT, 4),
    (Contacts, CONTACT_LAYOUT, 0), (ContactConstraints, CONSTRAINT_LAYOUT, 0)])
def test_new_world_stores_are_zeroed_stores_of_their_layout(store_type, layout, capacity):
    attribute = {Bodies: "_bodies", Shapes: "_shapes", Joints: "_joints",
                 Contacts: "_contacts", ContactConstraints: "_constraints"}[store_type]
    want = allocate_store(store_type, layout, capacity)
    first, second = impulse2d.World(), impulse2d.World()
    got = getattr(first, attribute)
    assert type(got) is store_type and got._fields == want._fields
    for mine, theirs in zip(got, want):
        assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
        assert mine.flags.c_contiguous and mine.flags.writeable
        assert not mine.any()
    if capacity:
        # each world writes its own arrays: a write into one world's store leaves the other's
        # (and the next new world's) at zero
        for column in got:
            column[...] = 1
        assert not any(column.any() for column in getattr(second, attribute))
        assert not any(column.any() for column in getattr(impulse2d.World(), attribute))


def _pendulums(world, reuse: bool):
    """Two motorised, limited hinged boxes; with ``reuse`` the first joint lands on a row
    freed by a destroyed joint that set every option (its values must not leak)."""
    ground = world.create_body("static")
    ground.create_box(5.0, 0.5, center=(0.0, -0.5))
    if reuse:
        a = world.create_body(position=(-3.0, 4.0))
        a.create_box(0.2, 0.2)
        b = world.create_body(position=(-3.0, 5.0))
        b.create_box(0.2, 0.2)
        old = world.create_revolute_joint(a, b, (-3.0, 4.5), enable_limit=True, lower_angle=-0.3,
                                          upper_angle=0.4, enable_motor=True, motor_speed=3.0,
                                          max_motor_torque=50.0, enable_spring=True,
                                          hertz=2.0, damping_ratio=0.3)
        for _ in range(5):
            world.step(DT)
        world.destroy_joint(old)
        world.destroy_body(a)
        world.destroy_body(b)
    bodies = []
    for k in range(2):
        body = world.create_body(position=(1.0 + k, 3.0), angle=0.3)
        body.create_box(0.5, 0.1, density=2.0)
        bodies.append(body)
    world.create_revolute_joint(ground, bodies[0], (0.5, 3.0))
    world.create_distance_joint(bodies[0], bodies[1], (1.4, 3.0), (1.6, 3.0))
    return bodies


def test_a_joint_on_a_reused_row_moves_as_one_on_a_new_row():
    fresh_world, reused_world = impulse2d.World(), impulse2d.World()
    fresh = _pendulums(fresh_world, reuse=False)
    reused = _pendulums(reused_world, reuse=True)
    row = reused_world.joints[0]._index
    assert row == 0  # the destroyed joint's row came back
    for _ in range(120):
        fresh_world.step(DT)
        reused_world.step(DT)
    for p, q in zip(fresh, reused):
        assert p.position == q.position and p.angle == q.angle
        assert p.linear_velocity == q.linear_velocity
    # and the pendulum really swung: it left its start by more than a body length
    assert abs(fresh[1].position[1] - 3.0) > 0.5


def test_first_steps_of_new_worlds_repeat_bit_for_bit():
    """A reset loop (a new world every episode, as Gymnasium's resets make them) gives the
    same motion in each episode: the first step's reference, rows and verbs are the world's
    own, nothing is carried over from the previous world."""
    finals = []
    for _ in range(4):
        world = impulse2d.World()
        bodies = _pendulums(world, reuse=False)
        for _ in range(30):
            world.step(DT)
        finals.append([(b.position, b.angle, b.linear_velocity) for b in bodies])
    assert all(f == finals[0] for f in finals[1:])
    # 30 steps of free fall and swing moved the second box down from its start at y = 3
    assert finals[0][1][0][1] < 3.0 - 0.05
