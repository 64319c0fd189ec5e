"""Threads inside one world (``WorldSettings.threads``, issue 31 item 4): the same bits for
every thread count, on every built-in scene and on fuzzed worlds with joints, sleeping,
continuous collision and changes between steps; the setting's validation and its place in
pickles and snapshots; a threaded world in a WorldBatch equals itself stepped alone; a world of
one thread runs the serial kernels.

Most scenes are smaller than the rows at which a pass goes parallel
(:data:`impulse2d._threads.MIN_ROWS`), so the tests set that to 1: every pass of every world
then takes the parallel path, cut into ``threads`` chunks (also 3 and 4 on a 2-core machine:
the chunks are what differs, the threads that run them do not change a bit).
"""

from __future__ import annotations

import pickle
import threading
import time

import numba
import numpy as np
import pytest

import impulse2d as i2d
from impulse2d import _threads
from impulse2d._dynamics import step as step_module
from impulse2d._dynamics.constraint_graph import COLOR_COUNT, color_contacts
from impulse2d._dynamics.lane_layout import CHUNK
from impulse2d._dynamics.atomics import sleep_on, wake_on
from impulse2d._dynamics.threaded import (STRIDE, _finish_stage, _first_piece, _next_piece,
                                          _own_start, _pieces, _piece_done, _row_piece,
                                          segments)
from impulse2d._dynamics.verbs import COLLIDE, FINALIZE, SOLVER, THREADS
from impulse2d._dynamics.world_ref import sync_constraints
from impulse2d.scenes import SCENES, _load, build_scene, fuzz, step_scene

DT = 1.0 / 60.0
COUNTS = (1, 2, 3, 4)

_load()  # every built-in scene registered (they load on first use)

pytestmark = pytest.mark.skipif(not _threads._safe_layer(),
                                reason="Numba has no thread-safe threading layer here")


@pytest.fixture(autouse=True)
def every_pass_parallel(monkeypatch):
    monkeypatch.setattr(_threads, "MIN_ROWS", 1)
    monkeypatch.setattr(_threads, "MIN_BODIES", 1)


def _scene_hash(name: str, threads: int, steps: int) -> str:
    world = i2d.World(threads=threads)
    info = build_scene(world, name)
    for k in range(steps):
        step_scene(world, info, k)
    return world.state_hash()


# The big scenes at their defaults take seconds a step without threads to gain from: a few
# steps of them, more of the rest.
HEAVY = {"large_pyramid", "many_pyramids", "joint_grid", "rain", "debris_rain", "mixed_rain"}


@pytest.mark.parametrize("name", sorted(SCENES))
def test_scene_hash_is_the_same_for_every_thread_count(name):
    steps = 4 if name in HEAVY else 40
    hashes = {t: _scene_hash(name, t, steps) for t in COUNTS}
    assert len(set(hashes.values())) == 1, hashes


def _fuzzed(seed: int, threads: int, steps: int = 160) -> str:
    """A random world (every shape and joint type, kinematic bodies, fast bodies), sleeping and
    continuous collision on, changed between steps as a program would (bodies and joints made
    and destroyed, impulses, settings), stepped ``steps`` times."""
    rng = np.random.default_rng(seed)
    world = i2d.World(gravity=(0.0, -10.0), threads=threads, enable_sleep=True,
                      enable_continuous=True, time_to_sleep=0.2)
    fuzz.random_world(world, rng, bodies=(20, 40), joints=(4, 10))
    ground = world.create_body(type="static")
    ground.create_box(200.0, 1.0, center=(0.0, -30.0))
    for k in range(steps):
        if k % 40 == 39:
            fuzz.perturb(world, rng, "soft_step")
        world.step(DT)
    return world.state_hash()


@pytest.mark.parametrize("seed", range(6))
def test_fuzzed_worlds_are_the_same_for_every_thread_count(seed):
    hashes = {t: _fuzzed(seed, t) for t in COUNTS}
    assert len(set(hashes.values())) == 1, hashes


def test_fuzzed_world_sleeps_and_is_swept():
    """The fuzzed worlds above reach the stages the threads must leave alone: an island falls
    asleep and a fast body is swept (else they would prove less than they claim)."""
    rng = np.random.default_rng(3)
    world = i2d.World(gravity=(0.0, -10.0), threads=2, enable_sleep=True, time_to_sleep=0.2)
    fuzz.random_world(world, rng, bodies=(20, 40), joints=(4, 10))
    ground = world.create_body(type="static")
    ground.create_box(200.0, 1.0, center=(0.0, -30.0))
    fast = world.create_body(position=(0.0, 20.0), linear_velocity=(0.0, -300.0),
                             bullet=True)
    fast.create_circle(0.05)
    slept = 0
    for _ in range(400):
        world.step(DT)
        slept = max(slept, sum(1 for b in world.bodies
                               if b.type == "dynamic" and not b.is_awake))
    assert slept > 0
    assert fast.position[1] > -30.0  # swept against the ground, not through it


def test_the_pyramid_takes_the_parallel_path():
    """A pyramid's colours are blocks of many rows: with the default threshold its solve runs
    in parallel segments, and every parallel segment has no moving body twice."""
    world = i2d.World(threads=2)
    build_scene(world, "pyramid", base=40)
    world.step(DT)
    sync_constraints(world)
    cs = world._constraints
    bodies = world._bodies
    contacts = world._contacts
    order, starts = _colours(world, COLOR_COUNT)
    assert np.array_equal(order, cs.contact)  # the step's solve order
    parts = segments_py(contacts.body_a, contacts.body_b, cs.contact, bodies.type, 64, starts)
    assert parts[0, 0] == 0 and parts[-1, 1] == cs.count.shape[0]
    assert np.all(parts[1:, 0] == parts[:-1, 1])
    parallel = parts[parts[:, 2] == 1]
    assert parallel.shape[0] >= 4
    assert int(np.sum(parallel[:, 1] - parallel[:, 0])) > 0.8 * cs.count.shape[0]
    for lo, hi, _ in parallel:
        moving = [b for b in np.concatenate([cs.body_a[lo:hi], cs.body_b[lo:hi]])
                  if bodies.type[b] != 0]
        assert len(moving) == len(set(moving))


@numba.njit(cache=False)
def segments_py(body_a, body_b, order, body_type, min_rows, starts):
    """:func:`segments` from Python (an inner kernel: only the threaded soft step calls
    it)."""
    return segments(body_a, body_b, order, body_type, min_rows, starts)


def _colours(world, colour_count):
    """The colouring of ``world``'s contacts (every row looked at, as the step of an awake
    world does) with ``colour_count`` colours before the overflow: its order and starts."""
    contacts, bodies = world._contacts, world._bodies
    return color_contacts(contacts.count, contacts.body_a, contacts.body_b, bodies.type,
                          bodies.asleep, bodies.type.shape[0], colour_count,
                          np.empty(0, dtype=np.int64), -1)


def _tiles_without_a_moving_body_twice(parts, order, contacts, body_type):
    """``parts`` covers ``order`` once, in order, and no parallel segment of it holds a
    dynamic or kinematic body twice."""
    assert parts[0, 0] == 0 and parts[-1, 1] == order.shape[0]
    assert np.all(parts[1:, 0] == parts[:-1, 1]) and np.all(parts[:, 1] > parts[:, 0])
    for lo, hi, parallel in parts:
        if parallel:
            rows = order[lo:hi]
            moving = [b for b in np.concatenate([contacts.body_a[rows], contacts.body_b[rows]])
                      if body_type[b] != 0]
            assert len(moving) == len(set(moving))


def test_the_solve_order_is_cut_on_its_colours_and_walked_only_where_they_may_share_a_body():
    """:func:`segments` takes the colours of the colouring as blocks (no dynamic body twice
    in one) and walks the rows one by one only from the last long colour on, where short
    colours and the overflow colour (a pile of 300 circles coloured with 3 colours: many of
    its rows overflow), whose rows may hold a body twice, follow; and every row in a world
    with a kinematic body (which no colour holds apart), or when the starts are not the
    order's. Each way the cut covers the order, in order, with no moving body twice in a
    parallel segment; the tail's part is the walk of its rows alone, and with a kinematic body
    (or starts not the order's) the cut is the walk of every row."""
    world = i2d.World(threads=1, enable_sleep=False)
    info = build_scene(world, "rain", count=300)
    for k in range(90):
        step_scene(world, info, k)
    world.contacts  # (the step's contact store, synced)
    contacts, body_type = world._contacts, world._bodies.type
    a, b = contacts.body_a, contacts.body_b
    for colour_count in (COLOR_COUNT, 3):
        order, starts = _colours(world, colour_count)
        overflow = int(starts[colour_count])
        not_order = starts.copy()
        not_order[-1] = -1
        walk = segments_py(a, b, order, body_type, 1, not_order)
        parts = segments_py(a, b, order, body_type, 1, starts)
        for cut in (parts, walk):
            _tiles_without_a_moving_body_twice(cut, order, contacts, body_type)
        last = max(c for c in range(colour_count) if starts[c + 1] > starts[c])
        walked = int(starts[last])  # (min_rows 1: the last colour with a row is long)
        ends = {int(e) for e in parts[:, 1]}
        for c in range(last):
            if starts[c + 1] > starts[c]:
                assert int(starts[c + 1]) in ends  # each colour before it a block of its own
        tail = parts[parts[:, 0] >= walked]
        alone = segments_py(a, b, order[walked:], body_type, 1, np.zeros(2, dtype=np.int64))
        assert np.array_equal(tail - [walked, walked, 0], alone)  # from it on, the walk
        assert parts[parts[:, 1] <= walked].shape[0] == sum(
            1 for c in range(last) if starts[c + 1] > starts[c])
        kinematic = body_type.copy()
        kinematic[np.flatnonzero(body_type == 2)[7]] = 1
        assert np.array_equal(segments_py(a, b, order, kinematic, 1, starts),
                              segments_py(a, b, order, kinematic, 1, not_order))
    assert order.shape[0] - overflow > 100  # (3 colours: the overflow walked was not empty)


@numba.njit(cache=False)
def _row_pieces(lo, hi, threads):
    """The pieces a parallel pass of ``threads`` threads cuts the rows ``lo:hi`` into."""
    pieces = _pieces(hi - lo, threads)
    out = np.empty((pieces, 2), dtype=np.int64)
    for c in range(pieces):
        out[c, 0], out[c, 1] = _row_piece(lo, hi, c, pieces)
    return out


@pytest.mark.parametrize("lo, hi", [(0, 4347), (17, 478), (1000, 1979), (250, 251), (64, 576)])
@pytest.mark.parametrize("threads", [2, 3, 4])
def test_a_block_is_cut_on_the_lanes_chunks(lo, hi, threads):
    """The pieces a parallel pass cuts a block of rows into: in order, covering it once, each
    inner cut on a chunk of the lanes, so that no chunk is solved by two pieces."""
    cut = _row_pieces(lo, hi, threads)
    assert cut[0, 0] == lo and cut[-1, 1] == hi
    assert np.all(cut[1:, 0] == cut[:-1, 1]) and np.all(cut[:, 1] >= cut[:, 0])
    inner = cut[1:, 0]
    assert np.all((inner % CHUNK == 0) | (inner == lo) | (inner == hi))
    chunks = [set(range(a // CHUNK, (b - 1) // CHUNK + 1)) for a, b in cut if b > a]
    for k in range(len(chunks) - 1):
        assert not chunks[k] & chunks[k + 1]
    if hi - lo >= 4 * CHUNK:  # a big block is still spread: a piece of at most a few chunks
        assert np.max(cut[:, 1] - cut[:, 0]) <= (hi - lo) // threads + CHUNK


def test_float32_blocks_cut_into_pieces_keep_the_bits():
    """A float32 pyramid whose colours are blocks of several chunks of the lanes (cut into
    pieces on them) steps to the same bits at 1-4 threads."""
    hashes = set()
    for threads in COUNTS:
        world = i2d.World(threads=threads, solver_precision="float32", enable_sleep=False)
        info = build_scene(world, "pyramid", base=40)
        for k in range(8):
            step_scene(world, info, k)
        hashes.add(world.state_hash())
    assert len(hashes) == 1


def test_one_thread_runs_the_serial_kernels():
    world = i2d.World()
    build_scene(world, "pyramid", base=4)
    world.step(DT)
    assert world._verbs[SOLVER] == step_module.SOLVER_KERNELS["soft_step"].address()
    assert world._verbs[COLLIDE] == step_module.POLYGON_COLLIDE_KERNEL.address()  # boxes
    assert world._verbs[THREADS] == 1
    world.settings.threads = 3
    world.step(DT)
    assert world._verbs[SOLVER] == _threads.THREADED_KERNELS["soft_step"].address()
    assert world._verbs[COLLIDE] == _threads.COLLIDE_KERNEL.address()
    assert world._verbs[THREADS] == 3
    world.settings.solver = "pgs"  # no threaded entry: its serial one, the narrowphase threaded
    world.step(DT)
    assert world._verbs[SOLVER] == step_module.SOLVER_KERNELS["pgs"].address()
    assert world._verbs[COLLIDE] == _threads.COLLIDE_KERNEL.address()


def test_the_threaded_solve_finalizes_in_its_region_unless_the_diagnostics_are_on():
    """The threaded solver takes the step's offer of the impulses' store and the finalize
    (``verbs.FINALIZE``) into its parallel region: the step's clock then reads no time between
    the solve's end and the finalize's, and the slot is back to 0. With the diagnostics on
    (which measure the solve before the impulses are stored) the step does both itself, and
    either way the trajectory is the serial world's."""
    a = i2d.World(enable_sleep=False)
    b = i2d.World(threads=2, enable_sleep=False)
    ia = build_scene(a, "pyramid", base=12)
    ib = build_scene(b, "pyramid", base=12)
    for k in range(60):
        if k == 30:
            a.settings.diagnostics = True
            b.settings.diagnostics = True
        step_scene(a, ia, k)
        step_scene(b, ib, k)
        assert b._verbs[FINALIZE] == 0
        if k < 30:
            assert b._clock[5] == b._clock[4]
    if b._clock[-1] > 0:  # (a cycle counter to read: x86)
        assert b._clock[5] > b._clock[4]  # finalized after the solve, by the step
    assert a.state_hash() == b.state_hash()


def test_changing_threads_midway_keeps_the_trajectory():
    a = i2d.World()
    b = i2d.World(threads=2)
    ia = build_scene(a, "pyramid", base=12)
    ib = build_scene(b, "pyramid", base=12)
    for k in range(120):
        if k == 40:
            b.settings.threads = 1
        if k == 80:
            b.settings.threads = 4
        step_scene(a, ia, k)
        step_scene(b, ib, k)
    assert a.state_hash() == b.state_hash()


@pytest.mark.parametrize("value", [0, -1, 1025])
def test_out_of_range_threads_raise_and_change_nothing(value):
    world = i2d.World(threads=2)
    with pytest.raises(ValueError, match="threads"):
        world.settings.threads = value
    assert world.settings.threads == 2
    with pytest.raises(ValueError, match="threads"):
        i2d.World(threads=value)


@pytest.mark.parametrize("value", [1.5, "2", True, None])
def test_non_integer_threads_raise(value):
    world = i2d.World()
    with pytest.raises(TypeError, match="threads"):
        world.settings.threads = value
    assert world.settings.threads == 1


def test_threads_travel_in_pickles_and_snapshots():
    world = i2d.World(threads=3)
    info = build_scene(world, "pyramid", base=6)
    for k in range(30):
        step_scene(world, info, k)
    copy = pickle.loads(pickle.dumps(world))
    assert copy.settings.threads == 3
    snap = world.snapshot()
    world.settings.threads = 1
    world.restore(snap)
    assert world.settings.threads == 3
    for k in range(30, 60):
        step_scene(world, info, k)
        step_scene(copy, info, k)
    assert copy.state_hash() == world.state_hash()


def _batch_worlds(threads: int) -> list:
    worlds = []
    for base in (8, 10, 12, 9):
        world = i2d.World(threads=threads)
        build_scene(world, "pyramid", base=base)
        worlds.append(world)
    return worlds


@pytest.mark.parametrize("batch_threads", [1, 2])
def test_threaded_world_in_a_batch_equals_itself_alone(batch_threads):
    alone = _batch_worlds(2)
    for _ in range(90):
        for w in alone:
            w.step(DT)
    serial = _batch_worlds(1)
    for _ in range(90):
        for w in serial:
            w.step(DT)
    batch = i2d.WorldBatch(_batch_worlds(2), threads=batch_threads)
    for _ in range(90):
        batch.step(DT)
    expected = [w.state_hash() for w in alone]
    assert [w.state_hash() for w in serial] == expected
    assert [w.state_hash() for w in batch.worlds] == expected


def test_rows_found_apart_keep_the_one_thread_normals():
    """The threaded narrowphase's pieces leave a row found apart (no point) the normal their
    own pass carried to it (the piece's scratch starts at zero), and
    :func:`~impulse2d._dynamics.threaded.serial_normals` gives back the one-thread pass's by
    walking each piece's head alone (its rows found apart before its first row with points,
    the normal carried on from the piece before). A landing rain has hundreds of such rows,
    and at ``MIN_ROWS`` 1 its pieces are a few rows each, so many begin apart or are all
    apart: every contact's normal is the same bits at 1-4 threads."""
    normals = {}
    for t in COUNTS:
        world = i2d.World(threads=t)
        info = build_scene(world, "rain", count=300)
        for k in range(90):
            step_scene(world, info, k)
        contacts = world._contacts
        normals[t] = (contacts.normal.copy(), contacts.count.copy())
    one, count = normals[1]
    apart = count == 0
    assert apart.sum() >= 50 and np.count_nonzero(one[apart]) > 0  # rows the walk gives a normal
    for t, (normal, _) in normals.items():
        assert normal.tobytes() == one.tobytes(), t


@numba.njit(nogil=True, cache=False)
def _sleep_once(counters, seen, ns):
    sleep_on(counters, 0, seen, ns)


@numba.njit(nogil=True, cache=False)
def _count_and_wake(counters):
    counters[0] += 1
    wake_on(counters, 0)


@numba.njit(nogil=True, cache=False)
def _wait_stage(counters, pieces):
    return _finish_stage(counters, 0, pieces)


@numba.njit(nogil=True, cache=False)
def _one_piece_done(counters, pieces):
    return _piece_done(counters, 0, pieces)


def _in_thread(work, *args):
    thread = threading.Thread(target=work, args=args, daemon=True)
    thread.start()
    return thread


def test_a_thread_asleep_on_a_count_is_woken():
    """``sleep_on`` with a minute's timeout returns when ``wake_on`` wakes it (the count
    changed first, as a stage's last piece changes it): a lost wake-up would hold the
    thread (and the test) a minute."""
    counters = np.zeros(8, dtype=np.int64)
    _count_and_wake(np.zeros(8, dtype=np.int64))  # both compiled before the sleeper starts
    _sleep_once(np.ones(8, dtype=np.int64), 0, 10 ** 9)  # (the count is not 0: no sleep)
    sleeper = _in_thread(_sleep_once, counters, 0, 60 * 10 ** 9)
    time.sleep(0.2)  # asleep by now, or it returns at once (the count changed): either ends
    _count_and_wake(counters)
    sleeper.join(30.0)
    assert not sleeper.is_alive() and counters[0] == 1


@numba.njit(cache=False)
def _first_of(claims, stage, pieces, start):
    return _first_piece(claims, stage, pieces, start)


@numba.njit(cache=False)
def _next_of(claims, stage, pieces, start, k, ahead):
    return _next_piece(claims, stage, pieces, start, k, ahead)


@numba.njit(cache=False)
def _start_of(pieces, t, chunks):
    return _own_start(pieces, t, chunks)


def test_each_thread_claims_its_share_first_then_what_is_left():
    """Box2D v3's claim walk (``threaded._next_piece``): thread 1 of 2 takes the first piece of
    its share (4 of 8); thread 0 then takes its share 0-3 walking ahead, meets 4 taken, and
    walks back from its start, wrapping: 7, 6, 5; thread 1's next walk meets taken pieces
    both ways."""
    claims = np.zeros(8, dtype=np.int64)
    assert [_start_of(8, t, 2) for t in range(2)] == [0, 4]
    assert _first_of(claims, 0, 8, 4) == (4, True)
    taken = []
    k, ahead = _first_of(claims, 0, 8, 0)
    while k >= 0:
        taken.append(k)
        k, ahead = _next_of(claims, 0, 8, 0, k, ahead)
    assert taken == [0, 1, 2, 3, 7, 6, 5]
    assert _next_of(claims, 0, 8, 4, 4, True)[0] == -1
    # the next stage's stamp finds every piece free again; a lone piece is thread 0's
    assert _first_of(claims, 1, 8, 4) == (4, True)
    assert [_start_of(1, t, 2) for t in range(2)] == [0, 0]


@pytest.mark.parametrize("seed", range(20))
def test_the_claim_walk_takes_every_piece_once_whoever_arrives_when(seed):
    """Threads (2-5) walk a stage's pieces (1-40) in a random interleaving, each arriving at a
    random time: every piece is taken exactly once, and no thread stops while one is left
    (the stage's end waits for every piece: a piece left would hold it for ever)."""
    rng = np.random.default_rng(seed)
    for stage in range(30):
        pieces = int(rng.integers(1, 41))
        chunks = int(rng.integers(2, 6))
        claims = np.zeros(pieces, dtype=np.int64)
        claims[:] = rng.integers(0, stage + 1, pieces)  # stamps of earlier stages
        walks = {t: None for t in range(chunks)}  # thread: (k, ahead), None before it arrives
        taken = []
        stopped = set()
        while len(stopped) < chunks:
            t = int(rng.choice([u for u in range(chunks) if u not in stopped]))
            start = _start_of(pieces, t, chunks)
            if walks[t] is None:
                k, ahead = _first_of(claims, stage, pieces, start)
            else:
                k, ahead = _next_of(claims, stage, pieces, start, *walks[t])
            if k < 0:
                stopped.add(t)
            else:
                taken.append(k)
                walks[t] = (k, ahead)
        assert sorted(taken) == list(range(pieces)), (pieces, chunks, taken)


def test_a_thread_waiting_for_a_stage_sleeps_then_wakes_at_its_last_piece():
    """A thread waiting for a stage's pieces spins, then counts itself asleep on the stage's
    done count; the piece that completes the stage wakes it, and it leaves with the count
    complete (``threaded._finish_stage`` and ``_piece_done``)."""
    pieces = 3
    counters = np.zeros(4 * STRIDE, dtype=np.int64)
    done = 0  # stage 0's done count; the sleepers' count after it
    _one_piece_done(np.zeros(4 * STRIDE, dtype=np.int64), 1)  # both compiled before the wait
    _wait_stage(np.full(4 * STRIDE, pieces, dtype=np.int64), pieces)  # (complete: no wait)
    result = []
    waiter = _in_thread(lambda: result.append(_wait_stage(counters, pieces)))
    _one_piece_done(counters, pieces)
    for _ in range(3000):  # (the waiter spins about 56 us, then counts itself asleep)
        if counters[done + 1] > 0:
            break
        time.sleep(0.01)
    assert counters[done + 1] == 1 and waiter.is_alive()
    assert _one_piece_done(counters, pieces) == 1 and waiter.is_alive()  # not the last: asleep
    assert _one_piece_done(counters, pieces) == 2  # the last: it wakes the waiter
    waiter.join(30.0)
    assert not waiter.is_alive() and result == [1] and counters[done] == pieces
