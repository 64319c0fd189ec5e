"""``benchmarks/envs_paired.py``'s statistics on fixed numbers (pure Python; no timing)."""

from __future__ import annotations

import importlib.util
import statistics
from pathlib import Path

import numpy as np
import pytest

_PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "envs_paired.py"
_spec = importlib.util.spec_from_file_location("envs_paired", _PATH)
envs_paired = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(envs_paired)

NATIVE = [240_000.0, 210_000.0, 300_000.0, 180_000.0, 250_000.0]
BOX2D = [20_000.0, 24_000.0, 25_000.0, 20_000.0, 22_000.0]
RATIOS = [12.0, 8.75, 12.0, 9.0, 250 / 22]  # NATIVE / BOX2D, round by round


def test_round_ratios_divide_round_by_round():
    assert envs_paired.round_ratios(NATIVE, BOX2D) == pytest.approx(RATIOS, rel=1e-15)
    with pytest.raises(ValueError):
        envs_paired.round_ratios(NATIVE, BOX2D[:-1])


@pytest.mark.parametrize("values", [RATIOS, [3.0], [1.0, 2.0], [5.0, 1.0, 4.0, 2.0, 3.0, 9.5]])
@pytest.mark.parametrize("q", [0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0])
def test_quantile_is_numpys_linear_quantile(values, q):
    assert envs_paired.quantile(values, q) == pytest.approx(float(np.quantile(values, q)),
                                                            rel=1e-12)


def test_summary_of_fixed_ratios():
    s = envs_paired.summary(RATIOS, target=10.0)
    assert s["rounds"] == 5
    # sorted: 8.75, 9.0, 11.3636..., 12.0, 12.0
    assert s["median"] == pytest.approx(250 / 22, rel=1e-15)
    assert s["q1"] == 9.0 and s["q3"] == 12.0
    assert s["min"] == 8.75 and s["max"] == 12.0
    assert s["share_at_or_above_target"] == pytest.approx(3 / 5)
    # a ratio exactly on the target counts as met
    assert envs_paired.summary([10.0, 9.99], 10.0)["share_at_or_above_target"] == 0.5
    assert "share_at_or_above_target" not in envs_paired.summary(RATIOS)


def test_halves_leave_an_odd_middle_round_out():
    assert envs_paired.halves(RATIOS) == (statistics.median([12.0, 8.75]),
                                          statistics.median([9.0, 250 / 22]))
    assert envs_paired.halves([1.0, 2.0, 3.0, 4.0]) == (1.5, 3.5)
    assert envs_paired.halves([7.0]) == (None, None)


def test_settling_narrows_with_the_rounds_and_is_seeded():
    ratios = [8.0 + 0.25 * k for k in range(20)]  # 8.0 .. 12.75
    rows = envs_paired.settling(ratios, sizes=[2, 8, 20], draws=500, seed=3, target=10.0)
    widths = [r["p95"] - r["p5"] for r in rows]
    assert [r["rounds"] for r in rows] == [2, 8, 20]
    assert widths[0] > widths[1] > widths[2] > 0
    for r in rows:
        assert 8.0 <= r["p5"] <= r["p95"] <= 12.75
        assert 0.0 <= r["share_of_medians_at_or_above_target"] <= 1.0
    assert rows == envs_paired.settling(ratios, sizes=[2, 8, 20], draws=500, seed=3,
                                        target=10.0)
    # one value: no spread at all
    assert envs_paired.settling([7.0], draws=10) == [{"rounds": 1, "p5": 7.0, "p95": 7.0}]


def test_orders_rotate_every_party_first_in_turn():
    assert envs_paired.orders(["a", "b"], 4) == [["a", "b"], ["b", "a"], ["a", "b"], ["b", "a"]]
    three = envs_paired.orders(["n", "b", "s"], 6)
    assert sorted(map(tuple, three)) == sorted(
        [("n", "b", "s"), ("n", "s", "b"), ("b", "n", "s"), ("b", "s", "n"),
         ("s", "n", "b"), ("s", "b", "n")])
    assert [o[0] for o in three[:3]] == ["n", "b", "s"]


def test_correlation_and_relative_spread():
    assert envs_paired.correlation(NATIVE, BOX2D) == pytest.approx(
        float(np.corrcoef(NATIVE, BOX2D)[0, 1]), rel=1e-12)
    assert envs_paired.correlation([1.0, 2.0, 3.0], [3.0, 2.0, 1.0]) == pytest.approx(-1.0)
    assert envs_paired.correlation([1.0, 2.0], [1.0, 2.0]) is None  # too few
    assert envs_paired.correlation([1.0, 1.0, 1.0], [1.0, 2.0, 3.0]) is None  # no spread
    # sorted RATIOS: q1 9.0, median 11.36..., q3 12.0
    assert envs_paired.relative_spread(RATIOS) == pytest.approx(3.0 / (250 / 22), rel=1e-12)
