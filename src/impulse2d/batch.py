"""Many independent worlds stepped together: :class:`WorldBatch`.

Reinforcement learning and parameter studies step thousands of small worlds. One
``World.step`` per world pays Python's share of a step (a few microseconds) per world; a batch
hands every world to the engine in one call, which spreads them over worker threads (worlds
in parallel, each world's step serial inside, so a world's bits never depend on its
neighbours or the thread count).

Each world of a batch stays a full :class:`~impulse2d.World` between batch steps: its handles,
events, queries and snapshots work as ever, and stepping it alone is allowed. ``batch.step(dt)``
gives every world exactly the bits ``world.step(dt)`` would.

A batch made by :meth:`WorldBatch.replicate` (copies of one world) also has dense views: the
template's bodies (``world.bodies`` when it was replicated, in that order) and joints
(``world.joints``) are the same rows in every copy, so their state reads and writes as
``(worlds, bodies, ...)`` arrays in one call each.
"""

from __future__ import annotations

import copy
import os
from typing import NamedTuple

import numpy as np

from . import _lock, _sleep, _validate
from . import queries as _queries
from ._core.state import DYNAMIC, STATIC
from .joints import DistanceJoint, PrismaticJoint, RevoluteJoint, WheelJoint
from .snapshot import Snapshot

_MOTORISED = (RevoluteJoint, PrismaticJoint, WheelJoint, DistanceJoint)
"""Joint types with a ``motor_speed`` (rad/s for revolute and wheel, m/s for the others)."""


class BatchSnapshot(NamedTuple):
    """The state of every world of a batch (:meth:`WorldBatch.snapshot`): one
    :class:`~impulse2d.Snapshot` per world, in the batch's order."""

    worlds: tuple


class WorldBatch:
    """Independent worlds stepped by one call (see the module's docstring).

    ``worlds``: the :class:`~impulse2d.World` objects, each at most once; they may differ in
    bodies, shapes, joints and settings. ``threads``: worker threads for :meth:`step`
    (default: the machine's cores)."""

    def __init__(self, worlds, threads: int | None = None) -> None:
        from .world import World
        if isinstance(worlds, World) or not hasattr(worlds, "__iter__"):
            raise TypeError("worlds must be a sequence of World objects (for copies of one "
                            "world, use WorldBatch.replicate(world, n))")
        worlds = tuple(worlds)
        if not worlds:
            raise ValueError("worlds must hold at least one World")
        for k, w in enumerate(worlds):
            if not isinstance(w, World):
                raise TypeError(f"worlds[{k}] must be a World, got {type(w).__name__}")
        if len({id(w) for w in worlds}) != len(worlds):
            raise ValueError("worlds holds the same World more than once; a batch steps each "
                             "world once (use copy.deepcopy(world) for a copy)")
        self._worlds = worlds
        self._threads = _check_threads(os.cpu_count() or 1 if threads is None else threads)
        self._body_rows = None   # the template's body rows (replicated batches)
        self._joint_rows = None  # the template's joint rows
        self._joint_kinds = None  # per template joint: its handle class

    @classmethod
    def replicate(cls, world, n: int, threads: int | None = None) -> "WorldBatch":
        """A batch of ``n`` copies of ``world`` (deep copies: ``world`` itself is not one of
        them), with the dense views of the template's bodies and joints."""
        from .world import World
        if not isinstance(world, World):
            raise TypeError(f"world must be a World, got {type(world).__name__}")
        n = _count(n, "n")
        if n < 1:
            raise ValueError(f"n must be at least 1, got {n}")
        _lock.check(world, "WorldBatch.replicate")
        copies = [copy.deepcopy(world) for _ in range(n)]
        batch = cls(copies, threads)
        batch._body_rows = np.array([b._index for b in world.bodies], dtype=np.int64)
        joints = world.joints
        batch._joint_rows = np.array([j._index for j in joints], dtype=np.int64)
        batch._joint_kinds = tuple(type(j) for j in joints)
        return batch

    # -- the batch ------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._worlds)

    @property
    def worlds(self) -> tuple:
        """The worlds, in the batch's order (each a full :class:`~impulse2d.World`)."""
        return self._worlds

    @property
    def threads(self) -> int:
        """Worker threads of :meth:`step` (at least 1); settable."""
        return self._threads

    @threads.setter
    def threads(self, value: int) -> None:
        self._threads = _check_threads(value)

    @property
    def body_rows(self) -> np.ndarray:
        """The template's body rows (int64), the second axis of the dense views."""
        return self._replicated().copy()

    def step(self, dt: float = 1.0 / 60.0) -> None:
        """Advance every world by ``dt`` seconds: for each world exactly the bits of
        ``world.step(dt)``. A world locked in a step of its own raises
        :class:`~impulse2d.WorldLockedError` before any world moves."""
        dt = _validate.time_step(dt, "dt")
        for w in self._worlds:
            if w._lock.stepping:
                raise _lock.locked("WorldBatch.step")
        for w in self._worlds:
            w.step(dt)

    # -- dense views (replicated batches) -------------------------------------------------------
    def get_positions(self) -> np.ndarray:
        """(worlds, bodies, 2) float64: the template bodies' origins, m."""
        rows = self._replicated()
        return np.stack([w._bodies.origin[rows] for w in self._live_worlds(rows)])

    def get_angles(self) -> np.ndarray:
        """(worlds, bodies) float64: the template bodies' angles, rad."""
        rows = self._replicated()
        return np.stack([w._bodies.angle[rows] for w in self._live_worlds(rows)])

    def get_velocities(self) -> np.ndarray:
        """(worlds, bodies, 3) float64: vx, vy of the centre of mass (m/s) and the angular
        velocity (rad/s)."""
        rows = self._replicated()
        out = np.empty((len(self._worlds), rows.shape[0], 3))
        for k, w in enumerate(self._live_worlds(rows)):
            out[k, :, :2] = w._bodies.v[rows]
            out[k, :, 2] = w._bodies.w[rows]
        return out

    def get_touching(self) -> np.ndarray:
        """(worlds, bodies) bool: whether each template body has a touching contact (a point
        that overlaps or pushed, as ``World.contacts`` counts them) with any other body."""
        rows = self._replicated()
        out = np.zeros((len(self._worlds), rows.shape[0]), dtype=bool)
        for k, w in enumerate(self._live_worlds(rows)):
            c = w._contacts
            touching = c.count > 0
            hit = np.zeros(w._bodies.alive.shape[0], dtype=bool)
            hit[c.body_a[touching]] = True
            hit[c.body_b[touching]] = True
            out[k] = hit[rows]
        return out

    def get_awake(self) -> np.ndarray:
        """(worlds, bodies) bool: whether each template body is awake (``Body.is_awake``)."""
        rows = self._replicated()
        return ~np.stack([w._bodies.asleep[rows] for w in self._live_worlds(rows)])

    def set_velocities(self, velocities) -> None:
        """Set the template bodies' velocities from a (worlds, bodies, 3) array (vx, vy in
        m/s, w in rad/s, each within +-1e30), waking each body given one as the velocity
        setters do. A static body may only be given zero."""
        rows = self._replicated()
        v = self._dense(velocities, "velocities", 3, _validate.MAX_VELOCITY)
        worlds = self._live_worlds(rows)
        for k, w in enumerate(worlds):
            moving = np.any(v[k] != 0.0, axis=1)
            bad = moving & (w._bodies.type[rows] == STATIC)
            if bad.any():
                j = int(np.flatnonzero(bad)[0])
                raise ValueError(f"velocities[{k}, {j}] gives a static body a velocity; make "
                                 "it kinematic")
        self._check_unlocked("WorldBatch.set_velocities")
        for k, w in enumerate(worlds):
            b = w._bodies
            for j, i in enumerate(rows):
                if b.type[i] == DYNAMIC:
                    _sleep.wake_body(w, int(i))
                else:
                    _sleep.wake_touching(w, int(i))
            b.v[rows] = v[k, :, :2]
            b.w[rows] = v[k, :, 2]

    def apply_forces(self, forces) -> None:
        """Add forces and torques for the next step from a (worlds, bodies, 3) array: fx, fy
        at the centre of mass (N) and a torque (N m). Only dynamic bodies with a nonzero row
        are touched (and woken, as ``Body.apply_force`` wakes): a zero row leaves its body,
        and its sleep timer, alone. Each step total must stay within +-1e30."""
        rows = self._replicated()
        f = self._dense(forces, "forces", 3, _validate.MAX_FORCE)
        worlds = self._live_worlds(rows)
        totals = []
        for k, w in enumerate(worlds):
            b = w._bodies
            acting = np.any(f[k] != 0.0, axis=1) & (b.type[rows] == DYNAMIC)
            total = np.concatenate((b.force[rows], b.torque[rows, None]), axis=1) + f[k]
            if np.any(np.abs(total[acting]) > _validate.MAX_FORCE):
                raise ValueError(f"forces[{k}] would bring a body's accumulated force or torque "
                                 f"of this step beyond +-{_validate.MAX_FORCE:g}")
            totals.append((acting, total))
        self._check_unlocked("WorldBatch.apply_forces")
        for w, (acting, total) in zip(worlds, totals):
            b = w._bodies
            for i in rows[acting]:
                _sleep.wake_body(w, int(i))
            r = rows[acting]
            b.force[r] = total[acting, :2]
            b.torque[r] = total[acting, 2]

    def apply_impulses(self, impulses) -> None:
        """Change the template bodies' momenta at once from a (worlds, bodies, 3) array: a
        linear impulse at the centre of mass (N s) and an angular impulse (N m s), as
        ``Body.apply_linear_impulse`` and ``apply_angular_impulse`` do (v += p / m, w += L / I;
        a fixed-rotation body does not turn). Only dynamic bodies with a nonzero row are
        touched and woken; velocities beyond +-1e30 are scaled into it."""
        rows = self._replicated()
        p = self._dense(impulses, "impulses", 3, None)
        worlds = self._live_worlds(rows)
        results = []
        for k, w in enumerate(worlds):
            b = w._bodies
            acting = np.any(p[k] != 0.0, axis=1) & (b.type[rows] == DYNAMIC)
            r = rows[acting]
            with np.errstate(over="ignore", invalid="ignore"):
                v = b.v[r] + b.inv_mass[r, None] * p[k, acting, :2]
                inv_i = b.inv_inertia[r]
                w_new = b.w[r] + np.where(inv_i != 0.0, inv_i * p[k, acting, 2], 0.0)
            if not (np.all(np.isfinite(v)) and np.all(np.isfinite(w_new))):
                raise ValueError(f"impulses[{k}] would give a body a velocity that overflows: "
                                 "impulse / mass must stay within float64's range")
            big = np.abs(v).max(axis=1, initial=0.0) > _validate.MAX_VELOCITY
            if big.any():
                v[big] *= (_validate.MAX_VELOCITY / np.abs(v[big]).max(axis=1))[:, None]
            w_new = np.clip(w_new, -_validate.MAX_VELOCITY, _validate.MAX_VELOCITY)
            results.append((r, v, w_new))
        self._check_unlocked("WorldBatch.apply_impulses")
        for w, (r, v, w_new) in zip(worlds, results):
            for i in r:
                _sleep.wake_body(w, int(i))
            w._bodies.v[r] = v
            w._bodies.w[r] = w_new

    def set_motor_speeds(self, speeds) -> None:
        """Set the template joints' motor speeds from a (worlds, joints) array (rad/s for
        revolute and wheel joints, m/s for prismatic and distance joints, within +-1e5); a
        joint without a motor speed (weld, mouse, motor, pulley, gear) must be given 0."""
        if self._joint_rows is None:
            self._replicated()
        rows = self._joint_rows
        s = np.asarray(speeds, dtype=np.float64) if _numeric(speeds) else None
        if s is None:
            raise TypeError("speeds must be a (worlds, joints) array of numbers")
        if s.shape != (len(self._worlds), rows.shape[0]):
            raise ValueError(f"speeds must have shape {(len(self._worlds), rows.shape[0])}, "
                             f"got {s.shape}")
        if not np.all(np.isfinite(s)) or np.any(np.abs(s) > _validate.MAX_SPEED):
            raise ValueError(f"speeds must be finite and within +-{_validate.MAX_SPEED:g}")
        motorised = np.array([issubclass(kind, _MOTORISED) for kind in self._joint_kinds],
                             dtype=bool)
        if np.any(s[:, ~motorised] != 0.0):
            j = int(np.flatnonzero(np.any(s[:, ~motorised] != 0.0, axis=0))[0])
            raise ValueError(f"speeds[:, {int(np.flatnonzero(~motorised)[j])}] is for a joint "
                             "without a motor; give it 0")
        for k, w in enumerate(self._worlds):
            j = w._joints
            if not np.all(j.alive[rows]):
                raise ValueError(f"worlds[{k}] no longer has every joint of the template")
        self._check_unlocked("WorldBatch.set_motor_speeds")
        for k, w in enumerate(self._worlds):
            w._joints.motor_speed[rows[motorised]] = s[k, motorised]

    # -- snapshots --------------------------------------------------------------------------------
    def snapshot(self) -> BatchSnapshot:
        """Every world's :class:`~impulse2d.Snapshot`, for :meth:`restore`."""
        return BatchSnapshot(tuple(w.snapshot() for w in self._worlds))

    def restore(self, snapshot: BatchSnapshot, worlds=None) -> None:
        """Put worlds back in their state of ``snapshot`` (of this batch): all of them
        (``worlds=None``), those of a sequence of indices, or those where a boolean mask of
        the batch's length is True. Only the worlds named are touched (the cost is theirs);
        a bad argument raises before any world changes."""
        if not isinstance(snapshot, BatchSnapshot):
            raise TypeError(f"snapshot must be a BatchSnapshot (from WorldBatch.snapshot()), "
                            f"got {type(snapshot).__name__}")
        if len(snapshot.worlds) != len(self._worlds):
            raise ValueError(f"snapshot holds {len(snapshot.worlds)} worlds, this batch "
                             f"{len(self._worlds)}")
        chosen = self._indices(worlds)
        for k in chosen:
            s = snapshot.worlds[k]
            if not isinstance(s, Snapshot) or s._uid != self._worlds[k]._uid:
                raise ValueError(f"snapshot.worlds[{k}] is not a snapshot of worlds[{k}]")
            _lock.check(self._worlds[k], "WorldBatch.restore")
        for k in chosen:
            self._worlds[k].restore(snapshot.worlds[k])

    # -- queries ----------------------------------------------------------------------------------
    def ray_cast_many(self, origins, translations, filter=None) -> _queries.RayBatch:
        """The nearest hit of each ray in each world: ``origins`` (worlds, rays, 2) and
        ``translations`` of that shape, or (rays, 2) or (2,) for every world alike. Returns a
        :class:`~impulse2d.queries.RayBatch` of (worlds, rays, ...) arrays, each world's part
        equal, bit for bit, to ``world.ray_cast_many(origins[k], translations[k])``."""
        n = len(self._worlds)
        o = np.asarray(origins, dtype=np.float64) if _numeric(origins) else None
        if o is None or o.ndim != 3 or o.shape[0] != n or o.shape[2] != 2:
            raise ValueError(f"origins must be a ({n}, rays, 2) array of numbers")
        d = np.asarray(translations, dtype=np.float64) if _numeric(translations) else None
        if d is None or d.shape not in (o.shape, o.shape[1:], (2,)):
            raise ValueError(f"translations must have shape {o.shape}, {o.shape[1:]} or (2,)")
        d = np.broadcast_to(d, o.shape)
        parts = [_queries.ray_cast_many(w, o[k], d[k], filter)
                 for k, w in enumerate(self._worlds)]
        return _queries.RayBatch(*(np.stack(column) for column in zip(*parts)))

    # -- checks -----------------------------------------------------------------------------------
    def _replicated(self) -> np.ndarray:
        if self._body_rows is None:
            raise ValueError("dense views need a batch of copies of one world: make it with "
                             "WorldBatch.replicate(world, n)")
        return self._body_rows

    def _live_worlds(self, rows) -> tuple:
        for k, w in enumerate(self._worlds):
            b = w._bodies
            if rows.shape[0] and (rows[-1] >= b.alive.shape[0] or not np.all(b.alive[rows])):
                raise ValueError(f"worlds[{k}] no longer has every body of the template (one "
                                 "was destroyed)")
        return self._worlds

    def _check_unlocked(self, what: str) -> None:
        for w in self._worlds:
            _lock.check(w, what)

    def _dense(self, value, name: str, width: int, bound) -> np.ndarray:
        shape = (len(self._worlds), self._body_rows.shape[0], width)
        a = np.asarray(value, dtype=np.float64) if _numeric(value) else None
        if a is None:
            raise TypeError(f"{name} must be a {shape} array of numbers")
        if a.shape != shape:
            raise ValueError(f"{name} must have shape {shape}, got {a.shape}")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{name} must be finite")
        if bound is not None and np.any(np.abs(a) > bound):
            raise ValueError(f"{name} must be within +-{bound:g}")
        return a

    def _indices(self, worlds) -> list:
        n = len(self._worlds)
        if worlds is None:
            return list(range(n))
        a = np.asarray(worlds) if _numeric(worlds, allow_bool=True) else None
        if a is None or a.ndim != 1:
            raise TypeError("worlds must be None, a sequence of indices or a boolean mask")
        if a.dtype == bool:
            if a.shape[0] != n:
                raise ValueError(f"a boolean mask for worlds must have length {n}, got "
                                 f"{a.shape[0]}")
            return [int(k) for k in np.flatnonzero(a)]
        if a.size and not np.issubdtype(a.dtype, np.integer):
            raise TypeError("worlds indices must be integers")
        if a.size and (a.min() < -n or a.max() >= n):
            raise ValueError(f"worlds indices must lie in [-{n}, {n})")
        return sorted({int(k) % n for k in a})


def _numeric(value, allow_bool: bool = False) -> bool:
    """Whether ``value`` converts to a NumPy array of numbers (not strings or objects)."""
    try:
        a = np.asarray(value)
    except (TypeError, ValueError):
        return False
    return a.dtype.kind in ("biuf" if allow_bool else "iuf") or (a.size == 0)


def _count(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    return int(value)


def _check_threads(value) -> int:
    value = _count(value, "threads")
    if value < 1:
        raise ValueError(f"threads must be at least 1, got {value}")
    return value


__all__ = ["WorldBatch", "BatchSnapshot"]
