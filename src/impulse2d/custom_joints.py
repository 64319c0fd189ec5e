"""Joints made from a constraint law (:mod:`impulse2d.custom`): creation and handles.

``world.create_custom_joint`` is ``create`` here. A joint stores its law as a slot in the world's
list of laws (``world._laws``: :class:`~impulse2d.law_kernels.LawKernel` objects, one per
distinct law, the same slot for every joint of one law), whose kernel addresses the step writes
into its table of verbs (:data:`impulse2d._dynamics.verbs.LAWS`); the per-row options go to the
joint store's ``row_*`` columns (:mod:`impulse2d._dynamics.joints.custom` says what they mean).
Nothing here needs SymPy: a world with custom joints unpickles and steps without it.
"""

from __future__ import annotations

import math
from collections.abc import MutableMapping

import numpy as np

from . import _lock, _sleep, _validate
from ._core.state import CUSTOM, LAW_PARAMS, LAW_ROWS, LAW_STATE
from ._dynamics.verbs import MAX_LAWS
from .joints import Joint, check_damping_ratio, check_hertz
from .law_kernels import LawKernel
from .types import Vec2

MAX_BOUND = 1e30
"""Largest finite bound or motor force a row takes (as the other joints' forces)."""


def _law_kernel(law) -> LawKernel:
    if isinstance(law, LawKernel):
        return law
    kernel = getattr(law, "kernel", None)
    if not isinstance(kernel, LawKernel):
        raise TypeError(f"law must be an impulse2d.custom.ConstraintLaw, got "
                        f"{type(law).__name__}")
    return kernel


def _per_row(value, name: str, rows: int, check) -> list:
    """``value`` (None, one value for every row, or one per row, None for a row's default)
    as a list of ``rows`` checked values (None where not given)."""
    if value is None:
        return [None] * rows
    if isinstance(value, (list, tuple, np.ndarray)):
        if len(value) != rows:
            raise ValueError(f"{name} has {len(value)} entries for a law of {rows} rows")
        return [None if x is None else check(x, f"{name}[{k}]") for k, x in enumerate(value)]
    return [check(value, name)] * rows


def _bound(value, name: str) -> float:
    return _validate.real(value, name, MAX_BOUND)


def _force(value, name: str) -> float:
    return _validate.force(value, name, "N (or N m)")


def _params(kernel: LawKernel, params) -> np.ndarray:
    values = np.zeros(LAW_PARAMS)
    given = {} if params is None else params
    if not isinstance(given, dict):
        raise TypeError(f"params must be a dict of parameter names to numbers, got "
                        f"{type(given).__name__}")
    unknown = sorted(set(given) - set(kernel.params), key=str)
    if unknown:
        raise ValueError(f"params names unknown parameters {unknown}; the law's are "
                         f"{list(kernel.params)}")
    for k, (name, default) in enumerate(zip(kernel.params, kernel.defaults)):
        if name in given:
            values[k] = _validate.real(given[name], f"params[{name!r}]")
        elif default is None:
            raise ValueError(f"params must give the law's parameter {name!r} (it has no "
                             "default)")
        else:
            values[k] = default
    return values


def pose_state(world, a: int, b: int) -> np.ndarray:
    """The law kernel's state (:data:`~impulse2d._dynamics.verbs.LAW_SIGNATURE`) of bodies
    ``a`` and ``b`` now, velocities included."""
    bodies = world._bodies
    state = np.zeros(LAW_STATE)
    for o, i in ((0, a), (8, b)):
        c, s = bodies.rot[i]
        r = bodies.origin[i] - bodies.center[i]
        w = bodies.w[i]
        state[o:o + 8] = (bodies.origin[i, 0], bodies.origin[i, 1], bodies.angle[i], c, s,
                          bodies.v[i, 0] - w * r[1], bodies.v[i, 1] + w * r[0], w)
    return state


def create(world, body_a, body_b, law, params=None, hertz=0.0, damping_ratio=0.0, lower=None,
           upper=None, motor_speed=None, max_motor_force=0.0, anchor_a=None, anchor_b=None,
           collide_connected=False):
    """:meth:`impulse2d.World.create_custom_joint`: every argument checked, and the law's
    ``C`` and ``J`` finite at the bodies' poses now, before anything is written."""
    _lock.check(world, "World.create_custom_joint")
    kernel = _law_kernel(law)
    a, b = world._joint_bodies(body_a, body_b)
    rows = kernel.rows
    values = _params(kernel, params)
    hertz = check_hertz(hertz, "hertz")
    damping_ratio = check_damping_ratio(damping_ratio, "damping_ratio")
    lowers = _per_row(lower, "lower", rows, _bound)
    uppers = _per_row(upper, "upper", rows, _bound)
    speeds = _per_row(motor_speed, "motor_speed", rows,
                      lambda x, n: _validate.speed(x, n, "per s"))
    forces = _per_row(max_motor_force, "max_motor_force", rows, _force)
    row_lower = np.zeros(LAW_ROWS)
    row_upper = np.zeros(LAW_ROWS)
    motor = np.zeros(LAW_ROWS, dtype=bool)
    speed = np.zeros(LAW_ROWS)
    max_force = np.zeros(LAW_ROWS)
    for k in range(rows):
        # An equality row is lower = upper = 0; an inequality row 0 <= C. A motor frees its row
        # (as a slider's motor drives its free axis); given bounds replace the defaults.
        free = kernel.inequality[k] or speeds[k] is not None
        lo = 0.0 if kernel.inequality[k] or not free else -math.inf
        hi = math.inf if free else 0.0
        if lowers[k] is not None:
            lo = lowers[k]
        if uppers[k] is not None:
            hi = uppers[k]
        if lo > hi:
            raise ValueError(f"row {k}: lower = {lo} is above upper = {hi}")
        row_lower[k], row_upper[k] = lo, hi
        if speeds[k] is not None:
            motor[k] = True
            speed[k] = speeds[k]
            max_force[k] = forces[k] if forces[k] is not None else 0.0
    anchors = []
    for name, value, i in (("anchor_a", anchor_a, a), ("anchor_b", anchor_b, b)):
        anchors.append(tuple(world._bodies.origin[i]) if value is None
                       else _validate.vec2(value, name))
    collide_connected = _validate.flag(collide_connected, "collide_connected")
    out = kernel.evaluate(pose_state(world, a, b), values)
    if not np.all(np.isfinite(out[:, :7])):
        raise ValueError("the law's C or its Jacobian is not finite at the bodies' poses now "
                         f"(C = {out[:, 0].tolist()}): C must be finite and differentiable "
                         "where the joint starts")
    slot = _law_slot(world, kernel)
    kernel.address()  # compiled (or loaded from the cache) now, not in the first step
    options = {
        "law": slot,
        "law_rows": rows,
        "law_angle": kernel.uses_angle,
        "law_params": values,
        "row_lower": row_lower,
        "row_upper": row_upper,
        "row_motor": motor,
        "row_speed": speed,
        "row_max_force": max_force,
        "hertz": hertz,
        "damping_ratio": damping_ratio,
        "collide_connected": collide_connected,
    }
    if slot == len(world._laws):
        world._laws.append(kernel)
    return world._add_joint(CustomJoint, CUSTOM, a, b, anchors[0], anchors[1], options)


def _law_slot(world, kernel: LawKernel) -> int:
    for k, known in enumerate(world._laws):
        if known.key == kernel.key:
            return k
    if len(world._laws) >= MAX_LAWS:
        raise ValueError(f"a world may use at most {MAX_LAWS} distinct laws")
    return len(world._laws)


class JointParams(MutableMapping):
    """A custom joint's parameters by name (``joint.params["L"] = 2.5``): a change takes effect
    at the next step. Checked like creation (a finite number); no name can be added."""

    __slots__ = ("_joint",)

    def __init__(self, joint: "CustomJoint") -> None:
        self._joint = joint

    def _index(self, name) -> int:
        names = self._joint.law.params
        if name not in names:
            raise KeyError(f"{name!r} is not a parameter of the law (its parameters: "
                           f"{list(names)})")
        return names.index(name)

    def __getitem__(self, name) -> float:
        j = self._joint._row()
        return float(self._joint._world._joints.law_params[j, self._index(name)])

    def __setitem__(self, name, value) -> None:
        joint = self._joint
        _lock.check(joint._world, "CustomJoint.params[...] = ...")
        k = self._index(name)
        value = _validate.real(value, f"params[{name!r}]")
        j = joint._row()
        jt = joint._world._joints
        jt.law_params[j, k] = value
        _sleep.wake_body(joint._world, int(jt.body_a[j]))
        _sleep.wake_body(joint._world, int(jt.body_b[j]))

    def __delitem__(self, name) -> None:
        raise TypeError("a law's parameters cannot be removed")

    def __iter__(self):
        return iter(self._joint.law.params)

    def __len__(self) -> int:
        return len(self._joint.law.params)

    def __repr__(self) -> str:
        return repr(dict(self))


class CustomJoint(Joint):
    """A joint made from a constraint law (``world.create_custom_joint``)."""

    __slots__ = ()

    @property
    def law(self) -> LawKernel:
        """The law's kernel (its ``params``, ``rows``, ``inequality``, generated ``source``)."""
        j = self._row()
        return self._world._laws[int(self._world._joints.law[j])]

    @property
    def params(self) -> JointParams:
        """The law's parameters by name, settable (``joint.params["L"] = 2.5``)."""
        self._row()
        return JointParams(self)

    @property
    def value(self) -> tuple:
        """``C`` now, one value per row (in the unit of each row: m, rad, ...)."""
        j = self._row()
        world = self._world
        jt = world._joints
        out = self.law.evaluate(pose_state(world, int(jt.body_a[j]), int(jt.body_b[j])),
                                jt.law_params[j])
        return tuple(float(x) for x in out[:, 0])

    @property
    def jacobian(self) -> np.ndarray:
        """``dC/dq`` now, ``(rows, 6)``: per row the derivatives in body A's ``x``, ``y``,
        ``angle`` (its origin) and then body B's."""
        j = self._row()
        world = self._world
        jt = world._joints
        out = self.law.evaluate(pose_state(world, int(jt.body_a[j]), int(jt.body_b[j])),
                                jt.law_params[j])
        return out[:, 1:7].copy()

    @property
    def reaction_impulses(self) -> tuple:
        """The impulse each row applied in the last step, N s (N m s for an angle row): along
        the row's ``J``, the equality's or motor's plus the lower bound's minus the upper's
        (the solver's last (sub)step's accumulated impulses, as ``reaction_force``)."""
        j = self._row()
        jt = self._world._joints
        rows = int(jt.law_rows[j])
        imp = jt.row_impulse[j, :rows]
        return tuple(float(x) for x in imp[:, 0] + imp[:, 1] - imp[:, 2])

    @property
    def reaction_force(self) -> Vec2:
        """Force the joint applied to body B's centre of mass in the last step, N: ``sum_k
        J_b,k lambda_k / h`` at the poses now."""
        fx, fy, _ = self._reaction()
        return Vec2(fx, fy)

    @property
    def reaction_torque(self) -> float:
        """Torque the joint applied to body B about its centre of mass in the last step, N m."""
        return self._reaction()[2]

    def _reaction(self) -> tuple:
        j = self._row()
        world = self._world
        jt = world._joints
        a, b = int(jt.body_a[j]), int(jt.body_b[j])
        out = self.law.evaluate(pose_state(world, a, b), jt.law_params[j])
        lam = np.array(self.reaction_impulses) * world._joint_inv_h
        bodies = world._bodies
        r = bodies.origin[b] - bodies.center[b]
        jx, jy, jt_ = out[:, 4], out[:, 5], out[:, 6] + r[0] * out[:, 5] - r[1] * out[:, 4]
        return float(jx @ lam), float(jy @ lam), float(jt_ @ lam)

    def _bounds(self, column: str) -> tuple:
        j = self._row()
        rows = int(self._world._joints.law_rows[j])
        return tuple(float(x) for x in getattr(self._world._joints, column)[j, :rows])

    @property
    def lower(self) -> tuple:
        """Per row the lower bound of ``C`` (``-inf``: none; equal to ``upper``: an equality)."""
        return self._bounds("row_lower")

    @property
    def upper(self) -> tuple:
        """Per row the upper bound of ``C`` (``inf``: none)."""
        return self._bounds("row_upper")

    @property
    def motor_speed(self) -> tuple:
        """Per row the motor's target ``Cdot`` (None: no motor on the row); settable for a row
        that has a motor (one value for every such row, or one per row)."""
        j = self._row()
        jt = self._world._joints
        rows = int(jt.law_rows[j])
        return tuple(float(jt.row_speed[j, k]) if jt.row_motor[j, k] else None
                     for k in range(rows))

    @motor_speed.setter
    def motor_speed(self, value) -> None:
        j = self._row()
        jt = self._world._joints
        rows = int(jt.law_rows[j])
        speeds = _per_row(value, "motor_speed", rows, lambda x, n: _validate.speed(x, n, "per s"))
        if not isinstance(value, (list, tuple, np.ndarray)):  # one speed: every motor's
            speeds = [x if jt.row_motor[j, k] else None for k, x in enumerate(speeds)]
        for k, x in enumerate(speeds):
            if x is not None and not jt.row_motor[j, k]:
                raise ValueError(f"row {k} has no motor (give motor_speed at creation)")
        for k, x in enumerate(speeds):
            if x is not None:
                jt.row_speed[j, k] = x

    @property
    def hertz(self) -> float:
        """Stiffness of the equality rows' spring, Hz (0: rigid)."""
        return float(self._world._joints.hertz[self._row()])

    @hertz.setter
    def hertz(self, value) -> None:
        j = self._row()
        self._world._joints.hertz[j] = check_hertz(value, "hertz")

    @property
    def damping_ratio(self) -> float:
        """Damping ratio of the spring (1 = critical)."""
        return float(self._world._joints.damping_ratio[self._row()])

    @damping_ratio.setter
    def damping_ratio(self, value) -> None:
        j = self._row()
        self._world._joints.damping_ratio[j] = check_damping_ratio(value, "damping_ratio")


__all__ = ["CustomJoint", "JointParams", "create", "pose_state"]
