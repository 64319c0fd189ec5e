"""The ``direct`` solver's equality block (:mod:`impulse2d._dynamics.direct_linalg`).

The envelope Cholesky is the dense algorithm with its exact zeros left out (bit for bit), rows
reordered by reverse Cuthill-McKee give the same solutions, a singular block is regularised;
and in a world, large joint islands (in order, shuffled, dense) carry their loads exactly.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

import impulse2d as i2d
from impulse2d._dynamics import direct_linalg as dl

from conftest import DT

G = 10.0


@numba.njit(cache=False)
def _dense_loops(K):
    """The envelope Cholesky over the whole lower triangle: the dense algorithm."""
    n = K.shape[0]
    counts = np.zeros(1)
    L = dl.envelope_cholesky(K, np.zeros(n, dtype=np.int64), np.full(n, n - 1, dtype=np.int64),
                             counts, 0)
    return L, counts[0]


@numba.njit(cache=False)
def _envelope_loops(K):
    counts = np.zeros(1)
    first, last, work, _ = dl.envelope(K)
    return dl.envelope_cholesky(K, first, last, counts, 0), counts[0], work


@numba.njit(cache=False)
def _factor_and_solve(K, b):
    """``(x, order, regularised)``: ``K x = b`` through :func:`factor`."""
    counts = np.zeros(1)
    L, first, last, order = dl.factor(K, counts, 0)
    x = b.copy()
    dl.solve(L, first, last, order, x)
    return x, order, counts[0]


def _banded(n, width, rng):
    """Symmetric positive definite, zero beyond ``width`` of the diagonal."""
    K = np.zeros((n, n))
    for i in range(n):
        for j in range(max(0, i - width), i):
            K[i, j] = K[j, i] = rng.uniform(-1.0, 1.0)
        K[i, i] = 2.0 * width + 1.0
    return K


def test_the_envelope_factor_is_the_dense_one_bit_for_bit():
    K = _banded(200, 3, np.random.default_rng(1))
    dense, _ = _dense_loops(K)
    envelope, _, work = _envelope_loops(K)
    assert np.array_equal(np.abs(envelope), np.abs(dense))   # the sign of a zero may differ
    assert work < 200 * 3 * 3   # the work is the band's, not n^3 / 6
    assert np.abs(envelope @ envelope.T - K).max() < 1e-12 * np.abs(K).max()


def test_rows_made_in_no_order_are_reordered_and_solve_the_same_system():
    rng = np.random.default_rng(2)
    n = 300
    band = _banded(n, 2, rng)
    shuffle = rng.permutation(n)
    K = band[shuffle][:, shuffle]          # the same matrix with its rows in a random order
    b = rng.standard_normal(n)
    x, order, regularised = _factor_and_solve(K, b)
    assert regularised == 0
    assert sorted(order) == list(range(n)) and not np.array_equal(order, np.arange(n))
    assert np.abs(K @ x - b).max() < 1e-12 * np.abs(b).max() * np.abs(K).max()
    # the reordered envelope is about the band's again
    _, _, work = _envelope_loops(np.ascontiguousarray(K[order][:, order]))
    _, _, work_shuffled = _envelope_loops(K)
    assert work < 0.01 * work_shuffled


def test_a_singular_block_is_regularised():
    rng = np.random.default_rng(4)
    n = 120
    B = rng.standard_normal((n, n - 2))    # rank n - 2: two redundant rows
    K = B @ B.T
    b = K @ rng.standard_normal(n)         # a load the rows can carry
    x, _, regularised = _factor_and_solve(K, b)
    assert regularised >= 2
    assert np.isfinite(x).all()
    assert np.abs(K @ x - b).max() < 1e-6 * np.abs(b).max()


def _hanging_chain(links, shuffled, seed=5):
    """A vertical chain at rest, its joints made top to bottom or in a random order."""
    world = i2d.World(solver="direct", gravity=(0.0, -G), enable_sleep=False,
                      direct_max_rows=10000)
    ground = world.create_body(type="static")
    bodies = [ground]
    for k in range(links):
        link = world.create_body(position=(0.0, -0.5 - k))
        link.create_box(0.1, 0.5, group=-1)
        bodies.append(link)
    order = list(range(links))
    if shuffled:
        np.random.default_rng(seed).shuffle(order)
    joints = [None] * links
    for k in order:
        joints[k] = world.create_revolute_joint(bodies[k], bodies[k + 1], (0.0, -float(k)))
    return world, bodies[1:], joints


@pytest.mark.parametrize("shuffled", [False, True])
def test_a_long_hanging_chain_carries_the_weight_below_each_joint(shuffled):
    links = 120                            # 240 rows: reordered when made in no order
    world, bodies, joints = _hanging_chain(links, shuffled)
    for _ in range(3):
        world.step(DT)
    assert world.direct_stats["largest_island_rows"] == 2 * links
    assert world.direct_stats["regularised_pivots"] == 0
    m = bodies[0].mass
    for k, joint in enumerate(joints):
        force = joint.reaction_force
        assert force.y == pytest.approx((links - k) * m * G, rel=1e-9)
        assert abs(force.x) <= 1e-9 * force.y


def test_the_shuffled_chain_moves_as_the_ordered_one():
    # The same chain, joints made in order (envelope loops on the natural order) and in a
    # random order (rows reordered): the same motion from a swing, to rounding.
    worlds = []
    for shuffled in (False, True):
        world, bodies, _ = _hanging_chain(60, shuffled)
        bodies[-1].linear_velocity = (3.0, 0.0)
        for _ in range(30):
            world.step(DT)
        worlds.append(world)
    a, b = (w.get_positions() for w in worlds)
    assert np.abs(a - b).max() < 1e-9 * np.abs(a).max()


def _star(spokes, double_pin=False):
    """A hub pinned at its centre to the ground, with ``spokes`` equal bobs hanging at rest
    from pins spread evenly round its rim (no net torque): every joint row meets the hub, its
    turn coupling the x and y rows, so the equality block is dense."""
    world = i2d.World(solver="direct", gravity=(0.0, -G), enable_sleep=False,
                      direct_max_rows=10000)
    ground = world.create_body(type="static")
    hub = world.create_body(position=(0.0, 0.0))
    hub.create_circle(0.5, group=-1)
    pins = [world.create_revolute_joint(ground, hub, (0.0, 0.0))]
    if double_pin:
        pins.append(world.create_revolute_joint(ground, hub, (0.0, 0.0)))
    bobs, joints = [], []
    for k in range(spokes):
        angle = 2.0 * np.pi * k / spokes
        x, y = 0.3 * np.cos(angle), 0.3 * np.sin(angle)
        bob = world.create_body(position=(x, y - 1.0))
        bob.create_circle(0.1, group=-1)
        joints.append(world.create_revolute_joint(hub, bob, (x, y)))
        bobs.append(bob)
    return world, hub, pins, bobs, joints


def test_a_dense_joint_island_carries_its_loads():
    spokes = 58                              # 118 rows, 2 a joint, all meeting the hub
    world, hub, pins, bobs, joints = _star(spokes)
    for _ in range(3):
        world.step(DT)
    assert world.direct_stats["largest_island_rows"] == 2 * (spokes + 1)
    assert world.direct_stats["regularised_pivots"] == 0
    total = (hub.mass + sum(b.mass for b in bobs)) * G
    assert pins[0].reaction_force.y == pytest.approx(total, rel=1e-9)
    for bob, joint in zip(bobs, joints):
        assert joint.reaction_force.y == pytest.approx(bob.mass * G, rel=1e-9)


def test_redundant_pins_in_a_dense_island_are_still_regularised():
    # As test_direct's two pins between the same bodies, in a large dense island.
    spokes = 58
    world, hub, pins, bobs, _ = _star(spokes, double_pin=True)
    for _ in range(60):
        world.step(DT)
    assert world.direct_stats["regularised_pivots"] >= 2
    total = (hub.mass + sum(b.mass for b in bobs)) * G
    first, second = (pin.reaction_force.y for pin in pins)
    assert first + second == pytest.approx(total, rel=1e-9)
    # One pin carries the load. The other, its rows eliminated after the first's, is a stiff
    # spring (compliance 1e-10 K) that takes what rounding in the 120 other rows leaves: the
    # dense loops before this module gave the same split, 1.2e-6 of the load after 60 steps.
    assert min(abs(first), abs(second)) <= 1e-5 * total
    assert np.isfinite(world.get_positions()).all()
    assert abs(hub.position.y) < 1e-9 and abs(hub.position.x) < 1e-9
