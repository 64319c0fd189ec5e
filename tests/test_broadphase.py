"""Broadphase: ``find_pairs`` must equal the brute-force all-pairs answer exactly."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from impulse2d._collision.broadphase import _sort_order, find_pairs, find_pairs_kernel


def brute_force(aabbs, enabled):
    """All enabled pairs i < j whose closed boxes overlap, lexicographic, as (m, 2) int64."""
    a = np.asarray(aabbs, dtype=np.float64).reshape(-1, 4)
    with np.errstate(invalid="ignore"):
        live = np.asarray(enabled, dtype=bool) & (a[:, 0] <= a[:, 2]) & (a[:, 1] <= a[:, 3])
    idx = np.nonzero(live)[0]
    b = a[idx]
    ov = (
        (b[:, None, 0] <= b[None, :, 2])
        & (b[None, :, 0] <= b[:, None, 2])
        & (b[:, None, 1] <= b[None, :, 3])
        & (b[None, :, 1] <= b[:, None, 3])
    )
    i, j = np.nonzero(np.triu(ov, 1))  # row-major: already lexicographic
    return np.stack([idx[i], idx[j]], axis=1).astype(np.int64).reshape(-1, 2)


def check(aabbs, enabled=None, **tunables):
    aabbs = np.asarray(aabbs, dtype=np.float64).reshape(-1, 4)
    if enabled is None:
        enabled = np.ones(aabbs.shape[0], dtype=bool)
    want = brute_force(aabbs, enabled)
    if "sweep_below" not in tunables:
        # both paths: the grid (sweep_below=0) here, the sort and sweep just below
        sweep = find_pairs(aabbs, enabled, **tunables, sweep_below=1 << 20)
        np.testing.assert_array_equal(sweep, want)
        tunables["sweep_below"] = 0
    got = find_pairs(aabbs, enabled, **tunables)
    assert got.dtype == np.int64
    assert got.ndim == 2 and got.shape[1] == 2
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_array_equal(got, want)
    if len(got):
        assert np.all(got[:, 0] < got[:, 1])
        codes = got[:, 0] * (aabbs.shape[0] + 1) + got[:, 1]
        assert np.all(np.diff(codes) > 0)  # strictly increasing: sorted, no duplicates
        assert np.all(np.asarray(enabled)[got.ravel()])
    return got


def boxes_from(centres, half):
    c = np.asarray(centres, dtype=np.float64).reshape(-1, 2)
    h = np.asarray(half, dtype=np.float64).reshape(-1, 2)
    return np.concatenate([c - h, c + h], axis=1)


def pyramid(rows, size=1.0, margin=0.1):
    xs, ys = [], []
    for r in range(rows):
        count = rows - r
        for k in range(count):
            xs.append(-0.5 * count * size + k * size)
            ys.append(r * size)
    x = np.array(xs)
    y = np.array(ys)
    boxes = np.stack([x, y, x + size, y + size], axis=1)
    ground = np.array([[-110.0, -1.0, 110.0, 0.0]])
    b = np.concatenate([ground, boxes])
    return b + np.array([-margin, -margin, margin, margin])


# --------------------------------------------------------------------------- hypothesis

# coordinates: small integers (touching and identical boxes are common), wide floats with
# negative values, and a few huge magnitudes
_coord = st.one_of(
    st.integers(-6, 6).map(float),
    st.floats(-50.0, 50.0, allow_nan=False, allow_infinity=False),
    st.floats(-1.0e7, 1.0e7, allow_nan=False, allow_infinity=False),
)
_size = st.one_of(
    st.just(0.0),
    st.integers(0, 4).map(float),
    st.floats(0.0, 3.0, allow_nan=False, allow_infinity=False),
    st.floats(0.0, 1.0e6, allow_nan=False, allow_infinity=False),  # huge boxes / segments
)

@st.composite
def scenes(draw):
    """Small scenes built element by element (hypothesis shrinks them to a minimal failure)."""
    n = draw(st.integers(0, 40))
    rows = draw(st.lists(st.tuples(_coord, _coord, _size, _size), min_size=n, max_size=n))
    a = np.array([[x, y, x + w, y + h] for x, y, w, h in rows], dtype=np.float64).reshape(-1, 4)
    # a sprinkle of exact duplicates of earlier rows (identical boxes, shared edges)
    if n > 1 and draw(st.booleans()):
        for _ in range(draw(st.integers(1, 5))):
            i = draw(st.integers(0, n - 1))
            j = draw(st.integers(0, n - 1))
            a[i] = a[j]
    # an inverted row (min > max) is empty: it pairs with nothing
    if n > 0 and draw(st.booleans()):
        i = draw(st.integers(0, n - 1))
        a[i] = a[i, [2, 3, 0, 1]] + np.array([0.0, 0.0, -1.0, -1.0])
    enabled = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    if draw(st.booleans()):
        enabled[:] = True
    return a, enabled


@st.composite
def bulk_scenes(draw):
    """Larger scenes: hypothesis picks the recipe, NumPy draws the boxes (fast to generate)."""
    seed = draw(st.integers(0, 2**32 - 1))
    n = draw(st.integers(0, 400))
    spread = draw(st.sampled_from([1.0, 10.0, 100.0, 1.0e4]))
    snap = draw(st.booleans())  # integer coordinates: many touching and identical boxes
    p_zero = draw(st.sampled_from([0.0, 0.2, 0.9]))  # zero-size boxes (points, segments)
    p_huge = draw(st.sampled_from([0.0, 0.01, 0.1, 0.6]))  # boxes far larger than the rest
    p_dup = draw(st.sampled_from([0.0, 0.1, 0.5]))  # exact copies of another row
    p_off = draw(st.sampled_from([0.0, 0.1, 0.5, 1.0]))  # disabled rows
    rng = np.random.default_rng(seed)
    lo = rng.uniform(-spread, spread, (n, 2))
    size = rng.uniform(0.0, 2.0, (n, 2)) * rng.choice([0.1, 1.0, 3.0])
    size[rng.random(n) < p_zero] = 0.0
    huge = rng.random(n) < p_huge
    size[huge] = rng.uniform(0.0, 50.0 * spread, (int(huge.sum()), 2))
    if snap:
        lo = np.round(lo)
        size = np.round(size)
    a = np.concatenate([lo, lo + size], axis=1)
    if n > 1:
        dup = np.nonzero(rng.random(n) < p_dup)[0]
        a[dup] = a[rng.integers(0, n, dup.shape[0])]
    if n > 0 and draw(st.booleans()):  # the world's placeholder for a shape not placed yet
        a[rng.integers(0, n)] = (np.inf, np.inf, -np.inf, -np.inf)
    enabled = rng.random(n) >= p_off
    return a, enabled


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenes())
def test_matches_brute_force(scene):
    aabbs, enabled = scene
    check(aabbs, enabled)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bulk_scenes())
def test_matches_brute_force_bulk(scene):
    aabbs, enabled = scene
    check(aabbs, enabled)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bulk_scenes(), st.sampled_from([0.25, 1.0, 7.0]), st.sampled_from([1, 4, 4096]))
def test_tunables_never_change_the_result(scene, cell_scale, large_cells):
    # large_cells=1 sends nearly everything down the large-proxy sweep, 4096 keeps nearly all in
    # the grid; both paths must agree with brute force
    aabbs, enabled = scene
    check(aabbs, enabled, cell_scale=cell_scale, large_cells=large_cells)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bulk_scenes())
def test_sweep_path_matches_brute_force(scene):
    # the sort-and-sweep path that small scenes take gives the brute-force answer
    aabbs, enabled = scene
    check(aabbs, enabled, sweep_below=1 << 20)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bulk_scenes(), st.integers(0, 2**31 - 1))
def test_owners_and_negative_groups_are_excluded_on_both_paths(scene, seed):
    # brute force, less the pairs of one owner or of one negative group; a few owners and
    # groups among many boxes so that every rule is hit often
    aabbs, enabled = scene
    aabbs = np.asarray(aabbs, dtype=np.float64).reshape(-1, 4)
    n = aabbs.shape[0]
    rng = np.random.default_rng(seed)
    owner = rng.integers(0, max(1, n // 3), n)
    group = rng.integers(-2, 3, n)
    want = brute_force(aabbs, enabled)
    i, j = want[:, 0], want[:, 1]
    keep = (owner[i] != owner[j]) & ~((group[i] < 0) & (group[i] == group[j]))
    for sweep_below in (0, 1 << 20):
        got = find_pairs(aabbs, enabled, owner=owner, group=group, sweep_below=sweep_below)
        np.testing.assert_array_equal(got, want[keep].reshape(-1, 2))


# --------------------------------------------------------------------------- specific scenes


def test_pyramid_with_ground_box():
    b = pyramid(40)
    got = check(b)
    # every bottom-row box touches the ground (row 0 of b); the ground touches nothing else
    ground_pairs = got[got[:, 0] == 0]
    assert len(ground_pairs) == 40
    np.testing.assert_array_equal(ground_pairs[:, 1], np.arange(1, 41))


@pytest.mark.parametrize("large_cells", [1, 64])
def test_pyramid_touching_without_margin(large_cells):
    # unit boxes sharing edges exactly (margin 0): touching counts as overlap, on the grid path
    # and on the large-proxy path (large_cells=1 makes every box that spans two cells "large")
    b = pyramid(12, margin=0.0)
    got = check(b, large_cells=large_cells)
    n_boxes = 12 * 13 // 2
    # within a row: count-1 edge pairs; between rows r and r+1 (offset half a box): each upper
    # box touches the two below it, and corners touch nothing else that differs from that
    horizontal = sum(12 - r - 1 for r in range(12))
    vertical = sum(2 * (12 - r - 1) for r in range(11))
    assert len(got) == 12 + horizontal + vertical  # 12 bottom boxes on the ground
    assert got.max() == n_boxes


def test_large_box_spanning_everything():
    rng = np.random.default_rng(3)
    small = boxes_from(rng.uniform(-30, 30, (400, 2)), rng.uniform(0.1, 0.6, (400, 2)))
    big = np.array([[-1000.0, -1000.0, 1000.0, 1000.0]])
    a = np.concatenate([small[:200], big, small[200:]])
    got = check(a)
    with_big = got[(got[:, 0] == 200) | (got[:, 1] == 200)]
    assert len(with_big) == 400


def test_long_segment_under_many_boxes():
    rng = np.random.default_rng(4)
    n = 3000
    x = rng.uniform(-4000.0, 4000.0, n)
    boxes = np.stack([x - 0.6, np.full(n, -0.1), x + 0.6, np.full(n, 1.1)], axis=1)
    seg = np.array([[-5000.0, -0.1, 5000.0, 0.1], [-5000.0, 50.0, 5000.0, 50.0]])
    a = np.concatenate([seg, boxes])
    got = check(a)
    assert np.count_nonzero(got[:, 0] == 0) == n
    assert np.count_nonzero(got[:, 0] == 1) == 0


def test_all_boxes_identical():
    n = 600
    a = np.tile(np.array([[1.5, -2.0, 2.5, -1.0]]), (n, 1))
    got = check(a)
    assert len(got) == n * (n - 1) // 2  # far beyond the first-pass buffer: exercises the retry


def test_all_boxes_at_one_point_zero_size():
    n = 300
    a = np.tile(np.array([[-7.0, 3.0, -7.0, 3.0]]), (n, 1))
    enabled = np.ones(n, dtype=bool)
    enabled[::3] = False
    got = check(a, enabled)
    assert len(got) == 200 * 199 // 2


def test_zero_size_points_scattered():
    rng = np.random.default_rng(5)
    p = rng.integers(-20, 20, (800, 2)).astype(np.float64)
    a = np.concatenate([p, p], axis=1)
    check(a)


def test_negative_and_far_coordinates_clamped_cells():
    # tiny boxes far from each other at 1e13: cell indices overflow the clamp range and share
    # the edge cells, which must cost speed only, never pairs
    rng = np.random.default_rng(6)
    c = np.concatenate([rng.uniform(-5, 5, (100, 2)), rng.uniform(-5, 5, (100, 2)) + 1.0e13])
    c = np.concatenate([c, -c])
    a = boxes_from(c, np.full((400, 2), 0.3))
    got = check(a)
    assert len(got) > 0


def test_random_scene_matches_brute_force():
    rng = np.random.default_rng(7)
    n = 3000
    a = boxes_from(rng.uniform(-60, 60, (n, 2)), rng.uniform(0.25, 0.75, (n, 2)))
    enabled = rng.random(n) < 0.9
    got = check(a, enabled)
    assert len(got) > 500


def test_disabled_rows_are_ignored():
    a = np.tile(np.array([[0.0, 0.0, 1.0, 1.0]]), (5, 1))
    enabled = np.array([True, False, True, False, True])
    np.testing.assert_array_equal(find_pairs(a, enabled), [[0, 2], [0, 4], [2, 4]])
    np.testing.assert_array_equal(find_pairs(a, np.zeros(5, dtype=bool)).shape, (0, 2))


@pytest.mark.parametrize("large_cells", [1, 64])
def test_touching_edges_and_corners_count(large_cells):
    a = np.array(
        [
            [0.0, 0.0, 1.0, 1.0],
            [1.0, 0.0, 2.0, 1.0],  # shares an edge with 0
            [2.0, 1.0, 3.0, 2.0],  # shares a corner with 1
            [3.0 + 1e-12, 0.0, 4.0, 1.0],  # misses 2 by 1e-12
        ]
    )
    got = find_pairs(a, np.ones(4, dtype=bool), large_cells=large_cells)
    np.testing.assert_array_equal(got, [[0, 1], [1, 2]])


def test_inverted_and_nan_rows_overlap_nothing():
    a = np.array(
        [
            [0.0, 0.0, 1.0, 1.0],
            [np.inf, np.inf, -np.inf, -np.inf],  # world placeholder for a fresh shape
            [0.8, 0.0, 0.2, 1.0],  # min x > max x, inside box 0's x range
            [0.0, 0.0, np.nan, 1.0],
            [0.5, 0.5, 2.0, 2.0],
        ]
    )
    got = check(a)
    np.testing.assert_array_equal(got, [[0, 4]])


def test_infinite_boxes():
    rng = np.random.default_rng(9)
    small = boxes_from(rng.uniform(-20, 20, (300, 2)), rng.uniform(0.2, 0.8, (300, 2)))
    inf = np.inf
    walls = np.array(
        [
            [-inf, -1.0, inf, 0.0],  # endless floor
            [-inf, -inf, -19.0, inf],  # endless half-plane on the left
            [5.0, 5.0, 5.0, 5.0],
        ]
    )
    got = check(np.concatenate([walls, small]))
    assert np.count_nonzero(got[:, 0] == 1) > 0
    everything_inf = np.tile(np.array([[-inf, -inf, inf, inf]]), (20, 1))
    assert len(check(everything_inf)) == 190


def test_empty_and_single():
    for n in (0, 1):
        out = find_pairs(np.zeros((n, 4)), np.ones(n, dtype=bool))
        assert out.shape == (0, 2) and out.dtype == np.int64


def test_deterministic_bit_for_bit():
    rng = np.random.default_rng(8)
    a = boxes_from(rng.uniform(0, 100, (5000, 2)), rng.uniform(0.2, 1.0, (5000, 2)))
    a = np.concatenate([pyramid(30), a])
    en = np.ones(len(a), dtype=bool)
    first = find_pairs(a, en)
    second = find_pairs(a.copy(), en.copy())
    assert first.tobytes() == second.tobytes()


def test_kernel_entry_point_and_input_conversion():
    a = [[0, 0, 1, 1], [0.5, 0.5, 2, 2], [3, 3, 4, 4]]  # lists of ints are converted
    np.testing.assert_array_equal(find_pairs(a, [1, 1, 1]), [[0, 1]])
    arr = np.asarray(a, dtype=np.float64)
    out = find_pairs_kernel(arr, np.ones(3, dtype=np.bool_), np.arange(3), np.zeros(3, np.int64),
                            2.0, np.int64(64), np.int64(0))
    np.testing.assert_array_equal(out, [[0, 1]])


def test_bad_shapes_rejected():
    with pytest.raises(ValueError):
        find_pairs(np.zeros((3, 3)), np.ones(3, dtype=bool))
    with pytest.raises(ValueError):
        find_pairs(np.zeros((3, 4)), np.ones(2, dtype=bool))
    with pytest.raises(ValueError):
        find_pairs(np.zeros((3, 4)), np.ones(3, dtype=bool), cell_scale=0.0)
    with pytest.raises(ValueError):
        find_pairs(np.zeros((3, 4)), np.ones(3, dtype=bool), owner=np.arange(2))


@pytest.mark.parametrize("pattern", ["ascending", "descending", "nearly_descending", "random",
                                     "ties"])
def test_sweep_order_is_the_stable_sort_however_the_boxes_come(pattern):
    # the sweep sorts its boxes from whichever of index order or reverse order is nearer, with
    # a fallback: every start must give the stable sort's order, and so the same pairs
    rng = np.random.default_rng(3)
    m = 101
    keys = {
        "ascending": np.arange(m, dtype=np.float64),
        "descending": -np.arange(m, dtype=np.float64),
        "nearly_descending": -np.arange(m, dtype=np.float64) + rng.normal(0.0, 0.8, m),
        "random": rng.uniform(0.0, 1.0, m),
        "ties": np.repeat(np.arange(m // 10 + 1, dtype=np.float64)[::-1], 10)[:m],
    }[pattern]
    np.testing.assert_array_equal(_sort_order_py(keys), np.argsort(keys, kind="stable"))


@numba.njit(cache=False)
def _sort_order_py(keys):
    """The sweep's :func:`_sort_order` from Python (an inner kernel: only the sweep calls it)."""
    return _sort_order(keys)
