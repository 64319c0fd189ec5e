"""Checks at the public boundary: every value is validated before anything is written, so a bad
argument raises with a message that names it and leaves the world as it was.

Finite is not enough: the step multiplies and squares what it is given (a spring's
``(h omega)^2``, a pulley's ``ratio^2``, ``force * dt / mass``, ``|v|^2`` in the speed clamp), so a
finite input such as a hertz of 1e160 or a force of 1e308 still turns into inf and then NaN in
the state. The bounds below keep every input within a range where those products stay finite
with hundreds of decades to spare, while lying far beyond anything physical at the engine's
intended scale (objects of 0.1 m to 10 m, SI units). Each bound is named in the message that
rejects a value, so a user with unusual units sees which limit was hit.
"""

from __future__ import annotations

import math
import numbers
import sys

import numpy as np

from .constants import HUGE, MAX_VELOCITY  # (MAX_VELOCITY: compiled into the batch step)

# -- bounds (SI units) -----------------------------------------------------------------------------
# HUGE (constants.py, 1e5 m) bounds coordinates: positions, anchors, points, sizes.

_FLOAT_MAX = sys.float_info.max  # the largest finite float: |x| <= it rejects inf and NaN
MAX_LENGTH = 1.0e6
"""m. Largest length that is not a coordinate: a distance joint's length and range, a prismatic
or wheel joint's translation limits. Ten times HUGE, so that any distance between two points
within +-HUGE (at most 2.9e5 m) is accepted."""

MAX_ANGLE = 1.0e9
"""rad. Largest angle (body angle, revolute limits, motor joint offset). Angles are continuous,
not wrapped; at 1e9 rad float64 still resolves 1e-7 rad, beyond it a step's rotation is lost
in rounding."""

MAX_SPEED = 1.0e5
"""m/s for linear, rad/s for angular speeds (motor speeds, the speed settings: the largest
``max_linear_speed``). At 1/60 s a step at 1e5 m/s covers 1.7 km; the same bound as the
coordinates' HUGE."""


MAX_ACCELERATION = 1.0e6
"""m/s^2. Largest gravity component (1e5 g)."""

MAX_FORCE = 1.0e30
"""N for forces, N m for torques: a body's accumulated force and torque of a step, and a
motor's or mouse joint's largest force or torque. With MIN_MASS it bounds an acceleration at
1e60 m/s^2, whose square is still finite."""

MAX_HERTZ = 1.0e6
"""Hz. Largest spring stiffness (joint springs, the world's contact and joint stiffness). A
soft constraint is already effectively rigid above a quarter of its (sub)step rate (the solver
caps the world's hertz there), so 1e6 Hz allows microsecond steps; it keeps the soft-constraint
coefficient ``(h omega)^2`` below 4e13."""

MAX_FACTOR = 1.0e6
"""Largest dimensionless factor: damping ratios (1 = critical), friction and restitution
coefficients, gravity scale, pulley and gear ratios (their effective mass has ``ratio^2``).
All are of order 1 in practice."""

MIN_MASS = 1.0e-30
"""kg. Smallest mass of a shape or dynamic body that has one (a shape of zero density or area
has none): the step divides by mass, and 1 / 5e-324 is already inf."""

MAX_MASS = 1.0e30
"""kg. Largest mass of a shape or dynamic body."""

MIN_INERTIA = 1.0e-30
"""kg m^2. Smallest rotational inertia of a shape with mass, and of a rotating dynamic body."""

MAX_INERTIA = 1.0e45
"""kg m^2. Largest rotational inertia (MAX_MASS at 3e7 m from its centre; sizes within HUGE
reach 1e41)."""

MIN_DT = 1.0e-9
"""s. Smallest positive time step: the solver divides by the substep ``h = dt / substeps``
(and squares that rate), so a subnormal dt would make it inf. A dt of exactly 0 is accepted
and steps nothing (``World.step``)."""

MAX_DT = 1.0e6
"""s. Largest time step. A long frame (after a breakpoint, or a game's catch-up) is stepped and
held by the speed limits; the bound keeps what the step multiplies by dt finite with hundreds
of decades to spare: a force's velocity change ``h F / m`` (at most 1e66 m/s, then clamped), a
body's move in one step at the largest speed limit (1e11 m) and its square, the sleep timers
and ``World.time``."""


def _out_of_range(name: str, value: float, bound: float, unit: str) -> ValueError:
    unit = f" {unit}" if unit else ""
    return ValueError(f"{name} = {value:.6g}{unit} is out of range: its magnitude must be at "
                      f"most {bound:g}{unit}")


def real(value, name: str, bound: float | None = None, unit: str = "") -> float:
    """A finite real number, of magnitude at most ``bound`` (``unit`` names its unit in the
    message). Bools are rejected: ``True`` as a radius is always a mistake. NumPy scalars are
    accepted like Python numbers."""
    if type(value) is not float:  # a float needs neither check (isinstance on an ABC is slow)
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
        try:
            value = float(value)
        except (OverflowError, ValueError):
            # An int (or Fraction) beyond float64's range. Not printed: str() of a huge int
            # fails.
            raise ValueError(f"{name} is too large to be a float (magnitude above 1.8e308)") \
                from None
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    if bound is not None and abs(value) > bound:
        raise _out_of_range(name, value, bound, unit)
    return value


def positive(value, name: str, bound: float | None = None, unit: str = "") -> float:
    value = real(value, name, bound, unit)
    if value <= 0.0:
        raise ValueError(f"{name} must be positive, got {value}")
    return value


def non_negative(value, name: str, bound: float | None = None, unit: str = "") -> float:
    value = real(value, name, bound, unit)
    if value < 0.0:
        raise ValueError(f"{name} must be zero or positive, got {value}")
    return value


def coordinate(value, name: str) -> float:
    value = real(value, name)
    if abs(value) > HUGE:
        raise ValueError(f"{name} = {value} is beyond {HUGE:g} m; check units")
    return value


def vec2(value, name: str, limit: bool = True, bound: float | None = None,
         unit: str = "") -> tuple[float, float]:
    """Any 2-sequence of finite reals; with ``limit`` (and no ``bound``) also within +-HUGE
    metres, with ``bound`` within +-bound of ``unit``."""
    if type(value) is tuple and len(value) == 2:
        # the common call, a tuple of two Python floats: the checks below in two comparisons
        # each (false for NaN; the largest float as the bound rejects inf), the tuple as given
        x, y = value
        if type(x) is float and type(y) is float:
            top = (HUGE if limit else _FLOAT_MAX) if bound is None else min(bound, _FLOAT_MAX)
            if -top <= x <= top and -top <= y <= top:
                return value
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be a 2-sequence (x, y), got {value!r}")
    try:
        n = len(value)
    except TypeError:
        raise TypeError(f"{name} must be a 2-sequence (x, y), got {type(value).__name__}") from None
    if n != 2:
        raise TypeError(f"{name} must be a 2-sequence (x, y), got {value!r}")
    if bound is not None:
        return real(value[0], f"{name}[0]", bound, unit), real(value[1], f"{name}[1]", bound, unit)
    check = coordinate if limit else real
    return check(value[0], f"{name}[0]"), check(value[1], f"{name}[1]")


def pair(value, name: str) -> tuple:
    """The two items of a 2-sequence such as ``limits = (lower, upper)``, unchecked."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be a pair (lower, upper), got {value!r}")
    try:
        items = tuple(value)
    except TypeError:
        raise TypeError(f"{name} must be a pair (lower, upper), "
                        f"got {type(value).__name__}") from None
    if len(items) != 2:
        raise TypeError(f"{name} must be a pair (lower, upper), got {len(items)} items: {value!r}")
    return items


def flag(value, name: str) -> bool:
    """True or False; also NumPy's ``np.bool_`` and the integers 0 and 1 (of any integer type)."""
    if value is True or value is False:  # the usual case, without the isinstance calls
        return value
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral) and value in (0, 1):
        return bool(value)
    raise TypeError(f"{name} must be True or False, got {value!r}")


def bits(value, name: str) -> int:
    """A 64-bit unsigned bit field (collision category or mask)."""
    if type(value) is int and 0 <= value < 2**64:  # a plain int in range: nothing to convert
        return value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer bit mask, got {type(value).__name__}")
    value = int(value)
    if not 0 <= value < 2**64:
        raise ValueError(f"{name} must fit in 64 unsigned bits, got {value:#x}"
                         if value.bit_length() <= 256 else f"{name} must fit in 64 unsigned bits")
    return value


def integer(value, name: str, lower: int = -2**63, upper: int = 2**63 - 1) -> int:
    """An integer in ``[lower, upper]`` (default: what a signed 64-bit column holds)."""
    if type(value) is int and lower <= value <= upper:  # a plain int in range
        return value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    value = int(value)
    if not lower <= value <= upper:
        shown = str(value) if value.bit_length() <= 256 else "an integer that large"
        raise ValueError(f"{name} must be between {lower} and {upper}, got {shown}")
    return value


# -- the bounded quantities, by unit ---------------------------------------------------------------
# Every public parameter of a kind goes through the same one of these, at creation and in its
# setter, so the two can never disagree.

def length(value, name: str) -> float:
    """A positive length, m, up to MAX_LENGTH."""
    return positive(value, name, MAX_LENGTH, "m")


def size(value, name: str) -> float:
    """A positive size (radius, half extent), m, up to HUGE."""
    return positive(value, name, HUGE, "m")


def rounding(value, name: str) -> float:
    """A polygon's rounding radius: zero or positive, m, up to HUGE."""
    return non_negative(value, name, HUGE, "m")


def angle(value, name: str) -> float:
    """An angle, rad, up to +-MAX_ANGLE."""
    return real(value, name, MAX_ANGLE, "rad")


def time_step(value, name: str = "dt") -> float:
    """A time step, s: 0 (a paused step) or in [MIN_DT, MAX_DT]."""
    value = non_negative(value, name, MAX_DT, "s")
    if 0.0 < value < MIN_DT:
        raise ValueError(f"{name} = {value:g} s is too small: the solver divides by it; use 0 "
                         f"(a step that moves nothing) or at least {MIN_DT:g} s")
    return value


def velocity(value, name: str, unit: str = "m/s") -> float:
    """A body's velocity component, m/s or rad/s, up to +-MAX_VELOCITY (the step clamps it to
    its speed limits)."""
    return real(value, name, MAX_VELOCITY, unit)


def speed(value, name: str, unit: str = "m/s") -> float:
    """A signed speed, m/s or rad/s, up to +-MAX_SPEED."""
    return real(value, name, MAX_SPEED, unit)


def speed_limit(value, name: str, positive_only: bool = True, units: float = 1.0) -> float:
    """A speed threshold or limit (settings), m/s, up to MAX_SPEED; in a world of ``units``
    length units per metre (``WorldSettings.length_units_per_meter``), units/s up to that many
    times MAX_SPEED."""
    check = positive if positive_only else non_negative
    return check(value, name, MAX_SPEED * units, "m/s" if units == 1.0 else "length units/s")


def force(value, name: str, unit: str = "N") -> float:
    """A largest force (N) or torque (N m) of a motor: zero or positive, up to MAX_FORCE."""
    return non_negative(value, name, MAX_FORCE, unit)


def hertz(value, name: str, allow_zero: bool = True) -> float:
    """A spring stiffness, Hz, up to MAX_HERTZ; 0 (where allowed) means rigid or no spring."""
    check = non_negative if allow_zero else positive
    return check(value, name, MAX_HERTZ, "Hz")


def factor(value, name: str) -> float:
    """A dimensionless coefficient that is zero or positive (damping ratio, friction,
    restitution), up to MAX_FACTOR."""
    return non_negative(value, name, MAX_FACTOR)


def signed_factor(value, name: str) -> float:
    """A dimensionless signed factor (gravity scale, gear ratio), up to +-MAX_FACTOR."""
    return real(value, name, MAX_FACTOR)


def check_mass(mass: float, inertia: float, rotates: bool, what: str, blame: str) -> None:
    """Reject a mass (kg) or rotational inertia (kg m^2) the step cannot divide by or multiply
    with: each must be finite and, where there is one, within [MIN, MAX]. ``what`` says whose
    (``"this shape"``, ``"the body"``), ``blame`` which parameters set it. A mass of exactly 0 is
    allowed (zero density, or no area: a shape without mass)."""
    if not math.isfinite(mass) or mass < 0.0 or (mass != 0.0 and not MIN_MASS <= mass <= MAX_MASS):
        raise ValueError(f"{blame} would give {what} a mass of {mass:.6g} kg, outside "
                         f"[{MIN_MASS:g}, {MAX_MASS:g}] kg")
    if not rotates or mass == 0.0:
        return
    if not math.isfinite(inertia) or not MIN_INERTIA <= inertia <= MAX_INERTIA:
        raise ValueError(f"{blame} would give {what} a rotational inertia of {inertia:.6g} kg m^2, "
                         f"outside [{MIN_INERTIA:g}, {MAX_INERTIA:g}] kg m^2")
