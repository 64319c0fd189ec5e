"""Solver diagnostics: what ``World.solver_stats`` reports after a step.

With ``WorldSettings.diagnostics`` on, every solver records, inside the step
(:mod:`._dynamics.diagnostics` says how each number is measured):

* the residual of the rows it iterates on after every iteration (the soft step: after each
  substep's relax pass; ``direct``: after its one solve), largest and RMS, in m/s: the
  convergence curve;
* for the last iteration: the largest and RMS velocity residual of the rigid equality rows
  (joints), the complementarity error of the contacts' normal rows, and how far a friction
  impulse is outside its cone;
* after the solve: the deepest penetration and the largest joint position errors;
* with ``diagnostics="exact"`` (the iterative solvers that solve one velocity system a step:
  ``pgs``, ``pgs_ngs``, ``pgs_block``), the distance of the solver's contact impulses and
  velocities from the exact solution of the same system (the ``direct`` solver's Lemke solve).

The kinetic energy is computed here from the bodies after the step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._core.state import DYNAMIC

# The record's layout (kept in step with :mod:`._dynamics.diagnostics`, which imports Numba;
# this module is imported with the package and must not).
(_RECORDED, _CAPACITY, _EXACT, _EQUALITY_MAX, _EQUALITY_RMS, _COMPLEMENTARITY, _CONE,
 _PENETRATION, _JOINT_LINEAR, _JOINT_ANGULAR, _EXACT_IMPULSE, _EXACT_VELOCITY, _PASSES,
 _ROW_COUNT, _EQUALITY_ROWS, _CONTACT_POINTS) = range(16)
_HEADER = 16


@dataclass(frozen=True)
class SolverStats:
    """What the solver did in the last step (``World.solver_stats``). Velocity residuals are in
    m/s (rad/s for angular rows), impulses in N s; a value the step did not measure is None."""

    solver: str
    iterations: int
    """Velocity iterations run (the soft step: substeps, one soft and one relax pass each;
    ``direct``: 1)."""
    position_iterations: int | None
    """Position passes run (``pgs_ngs``, ``pgs_block``: they stop early once every error is
    within tolerance); None for the solvers without them."""
    residuals: np.ndarray
    """(iterations,) largest residual of every measured row after each iteration, m/s."""
    residuals_rms: np.ndarray
    """(iterations,) RMS residual of the measured rows after each iteration, m/s."""
    equality_residual_max: float
    equality_residual_rms: float
    """Velocity residual ``|J v + bias|`` of the rigid equality rows (joints) after the last
    iteration."""
    complementarity_error: float
    """``max |min(lambda_n, v_n / K)|`` over contact points (N s): 0 when every point either
    pushes and stays shut or is free and separates."""
    friction_cone_violation: float
    """``max(|lambda_t| - mu lambda_n, 0)`` over contact points, N s."""
    max_penetration: float
    """Deepest overlap of touching shapes after the solve, m (0 for none)."""
    max_joint_error: float
    """Largest linear position error of a rigid joint row after the solve, m."""
    max_joint_angle_error: float
    """Largest angular position error of a rigid joint row after the solve, rad."""
    kinetic_energy: float
    """Translational plus rotational kinetic energy of the dynamic bodies after the step, J."""
    exact_impulse_error: float | None
    """With ``diagnostics="exact"``: the largest difference between the solver's contact
    impulses and the exact solution's, relative to the largest exact impulse (None for the
    soft step, ``direct`` itself, or a step with an island above ``direct_max_rows``)."""
    exact_velocity_error: float | None
    """With ``diagnostics="exact"``: the largest difference between the bodies' velocities
    after the solver and after the exact solution, m/s or rad/s."""
    rows: int
    """Rows measured (rigid joint rows and two per contact point)."""
    contact_points: int


def capacity(settings) -> int:
    """Iterations a step of these settings can record."""
    return max(int(settings.velocity_iterations), int(settings.substeps), 1)


def prepare_record(world) -> None:
    """Give ``world`` a record of the right size for its next step (an empty one while the
    diagnostics are off), or keep the one it has."""
    settings = world.settings
    record = world._diagnostics
    if not settings.diagnostics:
        if record.shape[0]:
            world._diagnostics = np.zeros(0)
        return
    history = capacity(settings)
    size = _HEADER + 2 * history + 3 * world._bodies.type.shape[0]
    if (record.shape[0] != size or int(record[_CAPACITY]) != history):
        record = np.full(size, math.nan)
        record[_RECORDED] = 0.0
        record[_CAPACITY] = history
        world._diagnostics = record
    record[_EXACT] = 1.0 if settings.diagnostics == "exact" else 0.0
    # "not measured" until a solver's opening says otherwise (the acceleration level of the
    # direct solver records nothing: its stats are then None, not the last step's)
    record[_COMPLEMENTARITY] = math.nan
    world._stats_solver = settings.solver


def _value(record, slot) -> float | None:
    x = float(record[slot])
    return None if math.isnan(x) else x


def read(world) -> SolverStats | None:
    """The last step's stats, or None when the diagnostics were off for it (or no step ran)."""
    record = world._diagnostics
    if record.shape[0] < _HEADER or math.isnan(record[_COMPLEMENTARITY]):
        return None
    n = int(record[_RECORDED])
    history = record[_HEADER:_HEADER + 2 * n].reshape(n, 2)
    bodies = world._bodies
    moving = bodies.alive & (bodies.type == DYNAMIC)
    v = bodies.v[moving]
    energy = 0.5 * float(np.sum(bodies.mass[moving] * np.einsum("ij,ij->i", v, v))
                         + np.sum(bodies.inertia[moving] * bodies.w[moving] ** 2))
    passes = _value(record, _PASSES)
    exact = record[_EXACT] != 0.0
    return SolverStats(
        solver=world._stats_solver,
        iterations=n,
        position_iterations=None if passes is None else int(passes),
        residuals=history[:, 0].copy(),
        residuals_rms=history[:, 1].copy(),
        equality_residual_max=float(record[_EQUALITY_MAX]),
        equality_residual_rms=float(record[_EQUALITY_RMS]),
        complementarity_error=float(record[_COMPLEMENTARITY]),
        friction_cone_violation=max(0.0, float(record[_CONE])),
        max_penetration=float(record[_PENETRATION]),
        max_joint_error=float(record[_JOINT_LINEAR]),
        max_joint_angle_error=float(record[_JOINT_ANGULAR]),
        kinetic_energy=energy,
        exact_impulse_error=_value(record, _EXACT_IMPULSE) if exact else None,
        exact_velocity_error=_value(record, _EXACT_VELOCITY) if exact else None,
        rows=int(record[_ROW_COUNT]),
        contact_points=int(record[_CONTACT_POINTS]),
    )
