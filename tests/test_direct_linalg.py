"""The ``direct`` solver's equality block (:mod:`impulse2d._dynamics.direct_linalg`).

The envelope Cholesky is the dense algorithm with its exact zeros left out (bit for bit), rows
reordered by reverse Cuthill-McKee give the same solutions, a singular block is regularised;
and in a world, large joint islands (in order, shuffled, dense) carry their loads exactly.
"""

from __future__ import annotations

import pickle

import numba
import numpy as np
import pytest

import impulse2d as i2d
from impulse2d._dynamics import direct, direct_linalg as dl
from impulse2d._core.state import DYNAMIC, STATIC
from impulse2d._dynamics.direct_rows import BLOCK, SOFT, WIDTH
from impulse2d._dynamics import step as step_module
from impulse2d._dynamics.step import DENSE_KERNEL
from impulse2d._dynamics.verbs import DIRECT_DENSE, call_dense

from conftest import DT

G = 10.0


@numba.njit(cache=False)
def _to_dense(row, sky, first):
    n = first.shape[0]
    L = np.zeros((n, n))
    for i in range(n):
        for j in range(first[i], i + 1):
            L[i, j] = sky[row[i] - first[i] + j]
    return L


@numba.njit(cache=False)
def _dense_loops(K):
    """The envelope Cholesky over the whole lower triangle: the dense algorithm."""
    n = K.shape[0]
    counts = np.zeros(1)
    start, column, value = dl.from_dense(K)
    first = np.zeros(n, dtype=np.int64)
    row, sky = dl.skyline(start, column, value, first)
    dl.envelope_cholesky(row, sky, first, np.full(n, n - 1, dtype=np.int64), counts, 0)
    return _to_dense(row, sky, first), counts[0]


@numba.njit(cache=False)
def _envelope_loops(K):
    counts = np.zeros(1)
    start, column, value = dl.from_dense(K)
    first, last, work, _ = dl.envelope(start, column, value)
    row, sky = dl.skyline(start, column, value, first)
    dl.envelope_cholesky(row, sky, first, last, counts, 0)
    return _to_dense(row, sky, first), counts[0], work


@numba.njit(cache=False)
def _factor_and_solve(K, b):
    """``(x, order, regularised)``: ``K x = b`` through :func:`factor`."""
    counts = np.zeros(1)
    start, column, value = dl.from_dense(K)
    row, sky, first, last, order = dl.factor(start, column, value, counts, 0,
                                             np.zeros(1, dtype=np.int64))  # loops only
    x = b.copy()
    dl.solve(row, sky, first, last, order, x)
    return x, order, counts[0]


def _banded(n, width, rng):
    """Symmetric positive definite, zero beyond ``width`` of the diagonal."""
    K = np.zeros((n, n))
    for i in range(n):
        for j in range(max(0, i - width), i):
            K[i, j] = K[j, i] = rng.uniform(-1.0, 1.0)
        K[i, i] = 2.0 * width + 1.0
    return K


@numba.njit(cache=False)
def _sort_row(column, value, lo, hi):
    dl.sort_row(column, value, lo, hi)


@pytest.mark.parametrize("n", [0, 1, 2, 7, 32, 33, 34, 64, 81, 500])
def test_a_row_is_sorted_as_a_stable_argsort_sorts_it(n):
    # A CSR row's columns are distinct: short rows by insertion, long ones (> 32) by heapsort,
    # both the order np.argsort gives, and the entries around the row left alone.
    rng = np.random.default_rng(n)
    columns = rng.permutation(4 * n + 3)[:n].astype(np.int64)
    values = rng.standard_normal(n)
    column = np.concatenate(([7, 1], columns, [5])).astype(np.int64)
    value = np.concatenate(([0.5, -1.5], values, [2.5]))
    _sort_row(column, value, 2, 2 + n)
    rank = np.argsort(columns, kind="stable")
    assert np.array_equal(column[2:2 + n], columns[rank])
    assert np.array_equal(value[2:2 + n], values[rank])
    assert list(column[:2]) == [7, 1] and column[-1] == 5
    assert list(value[:2]) == [0.5, -1.5] and value[-1] == 2.5


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


# -- LAPACK's Cholesky for dense blocks (impulse2d._dynamics.direct_dense) ---------------------
@numba.njit(cache=False)
def _by_address(address, K):
    """The factor of ``K`` by the kernel at ``address``, called as the island solve calls it."""
    L = np.empty_like(K)
    status = call_dense(address, (K, L))
    return L, status


def _dense_spd(n, rng):
    B = rng.uniform(-1.0, 1.0, (n, n))
    return B @ B.T + n * np.eye(n)


def test_lapack_factor_by_address_is_a_cholesky_factor():
    K = _dense_spd(150, np.random.default_rng(3))
    L, status = _by_address(DENSE_KERNEL.address(), K)
    assert status == 0.0
    assert np.all(np.triu(L, 1) == 0.0)
    assert np.abs(L @ L.T - K).max() < 1e-12 * np.abs(K).max()
    loops, _ = _dense_loops(K)
    # The same factor up to rounding (LAPACK sums in its own order: the last bits differ).
    assert np.abs(L - loops).max() < 1e-12 * np.abs(loops).max()


def test_lapack_hands_a_singular_block_back_to_the_loops():
    K = _dense_spd(80, np.random.default_rng(4))
    K[40, :] = K[39, :]                      # two equal rows: A_ee of redundant joints
    K[:, 40] = K[:, 39]
    _, status = _by_address(DENSE_KERNEL.address(), K)
    assert status != 0.0


def _star_run(spokes, steps, lapack):
    world, hub, pins, bobs, joints = _star(spokes)
    if not lapack:
        world._verbs[DIRECT_DENSE] = -1      # asked for and never given: the loops each step
        fill = step_module.DENSE_KERNEL.address
        step_module.DENSE_KERNEL.address = lambda: -1
    try:
        for _ in range(steps):
            world.step(DT)
    finally:
        if not lapack:
            step_module.DENSE_KERNEL.address = fill
    return world, hub, pins, bobs, joints


def test_a_dense_island_asks_for_lapack_once_and_moves_as_with_the_loops():
    spokes = 40                               # 82 rows: above DENSE_WORK, envelope full
    world, hub, pins, bobs, joints = _star_run(spokes, 1, lapack=True)
    assert world._verbs[DIRECT_DENSE] == DENSE_KERNEL.address()   # asked for after step 1
    for _ in range(59):
        world.step(DT)
    loops = _star_run(spokes, 60, lapack=False)[0]
    a, b = world.get_positions(), loops.get_positions()
    assert np.isfinite(a).all()
    # Measured: 2e-17 m after 60 steps (the factors differ in their last bits only).
    assert np.abs(a - b).max() < 1e-9
    total = (hub.mass + sum(b.mass for b in bobs)) * G
    assert pins[0].reaction_force.y == pytest.approx(total, rel=1e-9)
    for bob, joint in zip(bobs, joints):
        assert joint.reaction_force.y == pytest.approx(bob.mass * G, rel=1e-9)


def test_sparse_joint_islands_never_ask_for_lapack():
    world = i2d.World(solver="direct", gravity=(0.0, -G), enable_sleep=False,
                      direct_max_rows=10000)
    parent = world.create_body(type="static")
    for k in range(100):
        link = world.create_body(position=(0.5 + k, 0.0))
        link.create_box(0.5, 0.1, group=-1)
        world.create_revolute_joint(parent, link, (float(k), 0.0))
        parent = link
    for _ in range(3):
        world.step(DT)
    assert world._verbs[DIRECT_DENSE] == 0


# -- the sparse assembly of joint islands (direct._assemble_sparse) ------------------------------
@numba.njit(cache=False)
def _both_assemblies(body, jacobian, data, kind, inv_mass, inv_inertia):
    rows = body.shape[0]
    members = np.arange(rows)
    where = np.arange(rows)
    inc_start, inc_row, inc_slot = direct._incidence(body, kind, kind.shape[0])
    A, diagonal = direct._assemble(members, where, body, jacobian, data, inv_mass, inv_inertia,
                                   inc_start, inc_row, inc_slot)
    start, column, value, diagonal2 = direct._assemble_sparse(
        members, where, body, jacobian, data, inv_mass, inv_inertia, inc_start, inc_row,
        inc_slot)
    B = np.zeros((rows, rows))
    entries = 0
    for i in range(rows):
        for e in range(start[i], start[i + 1]):
            B[i, column[e]] = value[e]
            entries += 1
            if e > start[i] and column[e] <= column[e - 1]:
                entries = -1 << 40  # columns not increasing
    return A, diagonal, B, diagonal2, entries


def test_the_sparse_assembly_is_the_dense_one_bit_for_bit():
    rng = np.random.default_rng(5)
    bodies, rows = 40, 300
    kind = np.full(bodies, DYNAMIC, dtype=np.int64)
    kind[0] = STATIC
    body = np.full((rows, 4), -1, dtype=np.int64)
    for r in range(rows):
        a, b = rng.choice(bodies, 2, replace=False)
        body[r, 0], body[r, 1] = a, b
        if r % 7 == 0:                       # a gear's four bodies
            body[r, 2], body[r, 3] = rng.choice(bodies, 2, replace=False)
    jacobian = rng.standard_normal((rows, 4, 3))
    data = np.zeros((rows, WIDTH))
    data[:, BLOCK] = np.arange(rows)
    for r in range(0, rows - 1, 10):         # soft two-row blocks, as a weld's point rows
        body[r + 1, :2] = body[r, :2]
        body[r + 1, 2:] = -1
        data[r:r + 2, SOFT] = 0.3
        data[r:r + 2, BLOCK] = r
    inv_mass = rng.uniform(0.1, 2.0, bodies)
    inv_inertia = rng.uniform(0.1, 5.0, bodies)
    A, diagonal, B, diagonal2, entries = _both_assemblies(body, jacobian, data, kind, inv_mass,
                                                          inv_inertia)
    assert np.array_equal(A, B) and np.array_equal(diagonal, diagonal2)
    assert 0 < entries < 0.5 * rows * rows   # sparse indeed, columns increasing


def test_a_restored_snapshot_factors_its_dense_block_as_the_world_did():
    world, *_ = _star(40)
    for _ in range(3):
        world.step(DT)                       # LAPACK asked for at step 1, used from step 2
    snap = world.snapshot()
    for _ in range(20):
        world.step(DT)
    ahead = world.get_positions()
    copy = pickle.loads(pickle.dumps(snap))  # through bytes, as in another process
    world.restore(copy)
    for _ in range(20):
        world.step(DT)
    assert np.array_equal(world.get_positions(), ahead)
