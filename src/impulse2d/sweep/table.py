"""A sweep's table (a list of row dicts) as columns, and written as CSV, without pandas.

``pandas.DataFrame(table)`` reads the same table where pandas is installed; these two cover the
common cases without it: columns to plot (``cols["substeps"]``, ``cols["error"]``), and a file
that any spreadsheet or ``csv.DictReader`` reads back.
"""

from __future__ import annotations

import csv
import io
import numbers
import os

import numpy as np

__all__ = ["columns", "write_csv"]


def _keys(table) -> list[str]:
    if isinstance(table, dict) or not hasattr(table, "__iter__"):
        raise TypeError(f"table must be a list of row dicts (what sweep.run returns), not "
                        f"{type(table).__name__}")
    keys: dict[str, None] = {}
    for i, row in enumerate(table):
        if not isinstance(row, dict):
            raise TypeError(f"table[{i}] must be a dict, not {type(row).__name__}")
        keys.update(dict.fromkeys(row))
    return list(keys)


def columns(table) -> dict[str, list]:
    """``{name: [value of each row]}``, names in order of first appearance; a row that lacks a
    name (points of a list grid may differ in keys) gives None there."""
    names = _keys(table)
    return {name: [row.get(name) for row in table] for name in names}


def _cell(value, name: str, i: int) -> str:
    if isinstance(value, np.generic):
        value = value.item()
    if value is None:
        return ""
    if isinstance(value, (str, bool)):
        return str(value)
    if isinstance(value, float):
        return repr(value)         # the shortest text that reads back as the same float
    if isinstance(value, numbers.Integral):
        return str(int(value))
    raise TypeError(f"table[{i}][{name!r}] is {type(value).__name__}: write_csv writes numbers, "
                    "strings, booleans and None; reduce the value to those (or drop the column) "
                    "first")


def write_csv(table, path) -> None:
    """Write ``table`` as CSV to ``path`` (a file name, or a text file opened with
    ``newline=""``): a header of the column names (:func:`columns`' order), then a line per row.
    Floats are written exactly (Python's shortest round-trip repr), None as an empty field.
    Raises TypeError, naming the cell, for a value that is not a number, string, bool or None;
    nothing is written then."""
    names = _keys(table)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(names)
    for i, row in enumerate(table):
        writer.writerow([_cell(row.get(name), name, i) for name in names])
    if isinstance(path, (str, os.PathLike)):
        with open(path, "w", newline="", encoding="utf-8") as f:
            f.write(buffer.getvalue())
    else:
        path.write(buffer.getvalue())
