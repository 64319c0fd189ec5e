"""Checks at the public boundary: every value is validated before anything is written, so a bad
argument raises with a message that names it and leaves the world as it was."""

from __future__ import annotations

import math
import numbers

from .constants import HUGE


def real(value, name: str) -> float:
    """A finite real number (bools are rejected: ``True`` as a radius is always a mistake)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    return value


def positive(value, name: str) -> float:
    value = real(value, name)
    if value <= 0.0:
        raise ValueError(f"{name} must be positive, got {value}")
    return value


def non_negative(value, name: str) -> float:
    value = real(value, name)
    if value < 0.0:
        raise ValueError(f"{name} must be zero or positive, got {value}")
    return value


def coordinate(value, name: str) -> float:
    value = real(value, name)
    if abs(value) > HUGE:
        raise ValueError(f"{name} = {value} is beyond {HUGE:g} m; check units")
    return value


def vec2(value, name: str, limit: bool = True) -> tuple[float, float]:
    """Any 2-sequence of finite reals; with ``limit`` also within +-HUGE."""
    try:
        n = len(value)
    except TypeError:
        raise TypeError(f"{name} must be a 2-sequence (x, y), got {type(value).__name__}") from None
    if isinstance(value, (str, bytes)) or n != 2:
        raise TypeError(f"{name} must be a 2-sequence (x, y), got {value!r}")
    check = coordinate if limit else real
    return check(value[0], f"{name}[0]"), check(value[1], f"{name}[1]")


def flag(value, name: str) -> bool:
    if not isinstance(value, (bool, int)) or (isinstance(value, int) and value not in (0, 1)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def bits(value, name: str) -> int:
    """A 64-bit unsigned bit field (collision category or mask)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer bit mask, got {type(value).__name__}")
    value = int(value)
    if not 0 <= value < 2**64:
        raise ValueError(f"{name} must fit in 64 unsigned bits, got {value}")
    return value


def integer(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    return int(value)
