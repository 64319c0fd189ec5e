"""``benchmarks/startup.py``'s paired cold start read as rounds of two: each round's ratio is
this tree's figure over the other's in the same round (the two share its load), with the
median over the rounds."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from startup import paired_summary  # noqa: E402


def _round(cpu: float, wall: float) -> dict:
    return {"cold": {"process_cpu_s": cpu, "process_wall_s": wall}}


def test_the_paired_summary_takes_each_rounds_own_ratio_and_their_median():
    rows = {"this": [_round(17.0, 160.0), _round(18.0, 20.0), _round(16.0, 30.0)],
            "other": [_round(17.0, 80.0), _round(16.0, 20.0), _round(20.0, 40.0)]}
    summary = paired_summary(rows)
    assert summary["this / other cold process_cpu_s by round"] == pytest.approx(
        [1.0, 1.125, 0.8], abs=5e-4)
    assert summary["this / other cold process_cpu_s median"] == pytest.approx(1.0, abs=5e-4)
    # by round, not the medians' ratio: the wall's medians (30 / 40) would read 0.75
    assert summary["this / other cold process_wall_s by round"] == pytest.approx(
        [2.0, 1.0, 0.75], abs=5e-4)
    assert summary["this / other cold process_wall_s median"] == pytest.approx(1.0, abs=5e-4)
    assert summary["this cold process_cpu_s median"] == pytest.approx(17.0, abs=5e-4)
    assert summary["other cold process_wall_s median"] == pytest.approx(40.0, abs=5e-4)
