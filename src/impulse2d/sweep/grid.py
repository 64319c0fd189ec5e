"""A sweep's grid, expanded into its points in a fixed order and checked before anything runs.

A grid is either

* a dict of lists, ``{"solver": ["soft_step", "pgs"], "substeps": [2, 4, 8]}``: every combination
  of one value per key (their Cartesian product), in the order of nested ``for`` loops written
  in the dict's key order: the first key varies slowest, the last fastest; or
* a list of dicts, one point each, taken as they are and in their order (for grids that are not
  products: a few hand-picked cases, or keys that differ between points).

Either way the points are a list of dicts whose keys become ``fn``'s keyword arguments, so the
order, and therefore the order of the table, depends on nothing but the grid itself.

``seeds`` adds a ``seed`` axis as the innermost loop (every point repeated for each seed). A
point may also carry ``seed`` itself. A seed is a non-negative int; what the runner does with it
is in :mod:`impulse2d.sweep.tasks`.
"""

from __future__ import annotations

import itertools
import numbers
from collections.abc import Mapping, Sequence

import numpy as np

__all__ = ["points"]


def points(grid, seeds=None) -> list[dict]:
    """The points of ``grid`` in sweep order (a list of new dicts; the grid is not changed).

    ``seeds``: None, a count ``n`` (seeds ``0 .. n-1``), or a sequence of seeds; it repeats every
    point once per seed, with the seed as the innermost loop.

    Raises ``TypeError`` for a grid that is neither a dict of lists nor a list of dicts, a key
    that is not a string, or a value that is a single value rather than a list of them;
    ``ValueError`` for an empty grid, an empty list of values, a bad seed, or ``seeds`` given for
    points that already carry a ``seed``.
    """
    if isinstance(grid, Mapping):
        pts = _product(grid)
    elif isinstance(grid, Sequence) and not isinstance(grid, (str, bytes)):
        pts = _listed(grid)
    else:
        raise TypeError("grid must be a dict of lists (their product is swept) or a list of "
                        f"dicts (one point each), not {type(grid).__name__}")
    if seeds is not None:
        seed_list = _seed_list(seeds)
        for i, point in enumerate(pts):
            if "seed" in point:
                raise ValueError(f"seeds= was given but point #{i} {point!r} already has a "
                                 "'seed': give the seeds one way, not both")
        pts = [{**point, "seed": seed} for point in pts for seed in seed_list]
    for i, point in enumerate(pts):
        if "seed" in point:
            check_seed(point["seed"], f"point #{i} {point!r}: seed")
    return pts


def check_seed(seed, where: str) -> int:
    """``seed`` as an int, or a ValueError/TypeError that starts with ``where``."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"{where} must be an int, not {type(seed).__name__} {seed!r}")
    if seed < 0:
        raise ValueError(f"{where} must be >= 0 (NumPy's seed sequences take non-negative "
                         f"ints), not {seed}")
    return int(seed)


def _product(grid: Mapping) -> list[dict]:
    if not grid:
        raise ValueError("grid is empty: give at least one key with a list of values")
    axes = []
    for key, values in grid.items():
        if not isinstance(key, str):
            raise TypeError(f"grid keys must be strings (they become fn's keyword arguments), "
                            f"not {type(key).__name__} {key!r}")
        axes.append(_values(key, values))
    keys = list(grid)
    return [dict(zip(keys, combo)) for combo in itertools.product(*axes)]


def _values(key: str, values) -> list:
    where = f"grid[{key!r}]"
    if isinstance(values, np.ndarray):
        if values.ndim != 1:
            raise ValueError(f"{where} must be one-dimensional, not an array of shape "
                             f"{values.shape}")
        values = values.tolist()       # Python scalars: the table holds plain floats and ints
    elif isinstance(values, (set, frozenset)):
        raise TypeError(f"{where} is a set, which has no order: give a list (sorted(...)) so "
                        "the sweep's order is fixed")
    elif isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, range)):
        raise TypeError(f"{where} must be a list of values, not {type(values).__name__} "
                        f"{values!r}; write [{values!r}] for a single value")
    values = list(values)
    if not values:
        raise ValueError(f"{where} is an empty list: the grid would have no points")
    return values


def _listed(grid: Sequence) -> list[dict]:
    if len(grid) == 0:
        raise ValueError("grid is an empty list: give at least one point")
    pts = []
    for i, point in enumerate(grid):
        if not isinstance(point, Mapping):
            raise TypeError(f"grid[{i}] must be a dict (one point: keyword arguments of fn), "
                            f"not {type(point).__name__} {point!r}")
        for key in point:
            if not isinstance(key, str):
                raise TypeError(f"grid[{i}] has the key {key!r}: keys must be strings (they "
                                "become fn's keyword arguments)")
        pts.append(dict(point))
    return pts


def _seed_list(seeds) -> list[int]:
    if isinstance(seeds, numbers.Integral) and not isinstance(seeds, bool):
        if seeds < 1:
            raise ValueError(f"seeds must be a count >= 1 or a list of seeds, not {seeds}")
        return list(range(int(seeds)))
    if isinstance(seeds, np.ndarray):
        seeds = seeds.tolist()
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, (Sequence, range)):
        raise TypeError(f"seeds must be a count or a list of ints, not {type(seeds).__name__}")
    out = [check_seed(s, f"seeds[{i}]") for i, s in enumerate(seeds)]
    if not out:
        raise ValueError("seeds is empty: the grid would have no points")
    if len(set(out)) != len(out):
        raise ValueError(f"seeds has repeats ({out}): each would run the same points twice")
    return out
