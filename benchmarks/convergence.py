"""How fast projected Gauss-Seidel converges, read from the solver diagnostics.

Catto's example (GDC 2014, "Understanding Constraints"): a circle of mass ``ratio`` resting
on a unit circle resting on the ground, one step from rest without warm starting. For each
mass ratio, ``pgs`` with ``n`` iterations is measured against the exact solution of the same
system (``WorldSettings.diagnostics = "exact"``: the ``direct`` solver's Lemke solve), and the
residual after every iteration of a 1000-iteration step is recorded.

Writes ``benchmarks/results/convergence.json`` and the plot ``docs/convergence.png``.

    python benchmarks/convergence.py
"""

from __future__ import annotations

import json
import os
import platform

import numpy as np

import impulse2d as i2d

HERE = os.path.dirname(os.path.abspath(__file__))
RATIOS = (1.0, 10.0, 100.0)
COUNTS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
DT = 1.0 / 60.0


def two_circles(ratio: float, iterations: int) -> i2d.World:
    world = i2d.World(gravity=(0.0, -10.0), solver="pgs", warm_starting=False,
                      velocity_iterations=iterations, diagnostics="exact")
    ground = world.create_body(type="static")
    ground.create_box(50.0, 0.5, center=(0.0, -0.5))
    world.create_body(position=(0.0, 0.496)).create_circle(0.5, density=1.0)
    world.create_body(position=(0.0, 1.492)).create_circle(0.5, density=ratio)
    world.step(DT)
    return world


def main() -> dict:
    out: dict = {"machine": platform.machine(), "python": platform.python_version(),
                 "scene": "two circles (radius 0.5) on the ground, top circle ratio x heavier, "
                          "one step of 1/60 s from rest, no warm starting",
                 "ratios": {}}
    for ratio in RATIOS:
        errors = {n: two_circles(ratio, n).solver_stats.exact_impulse_error for n in COUNTS}
        history = two_circles(ratio, max(COUNTS)).solver_stats.residuals
        # iterations until the impulses are within 5 % of the exact ones (Catto's measure)
        within = next((n for n in range(1, max(COUNTS) + 1)
                       if two_circles(ratio, n).solver_stats.exact_impulse_error < 0.05), None)
        out["ratios"][str(ratio)] = {
            "exact_impulse_error": {str(n): e for n, e in errors.items()},
            "iterations_to_5_percent": within,
            "residual_per_iteration": [float(x) for x in history],
        }
        print(f"ratio {ratio:>5}: relative impulse error after "
              + ", ".join(f"{n}: {errors[n]:.2g}" for n in (10, 100, 1000))
              + f"; within 5 % after {within} iterations")
    path = os.path.join(HERE, "results", "convergence.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return out
    fig, axes = plt.subplots(1, 2, figsize=(9.0, 3.4))
    for ratio in RATIOS:
        data = out["ratios"][str(ratio)]
        residual = np.maximum(np.array(data["residual_per_iteration"]), 1e-17)
        axes[0].semilogy(np.arange(1, residual.size + 1), residual, label=f"mass ratio {ratio:g}")
        errors = data["exact_impulse_error"]
        axes[1].loglog([int(n) for n in errors], np.maximum(list(errors.values()), 1e-17),
                       marker="o", label=f"mass ratio {ratio:g}")
    axes[0].set_xlabel("iteration")
    axes[0].set_ylabel("largest row residual (m/s)")
    axes[0].set_title("pgs residual within one step")
    axes[1].set_xlabel("velocity iterations")
    axes[1].set_ylabel("relative impulse error")
    axes[1].set_title("pgs against the exact solution")
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(HERE, "..", "docs", "convergence.png"), dpi=90)
    return out


if __name__ == "__main__":
    main()
