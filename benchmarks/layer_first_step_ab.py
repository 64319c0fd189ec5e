"""A reset's first ``b2World.Step`` with the joint rows found by the layer before the engine's
step (new: ``World.step`` then takes its usual path when the rows are those its kernels were set
for, a recycled world's) or by the engine's checked path (old: main 22e9c7c), alternated
episode by episode in one run of Gymnasium's LunarLander episodes on the pybox2d layer (issue
31 item 8; branch ``layer40``).

    PYTHONPATH=src python benchmarks/layer_first_step_ab.py [--resets 600] [--json F]

A reset's code runs once per ~90 steps, out of the caches: this measures it where it runs.
Random-action episodes (the action space seeded 0); each episode's reset takes the old or the
new ``Step``, alternating (the old one is this tree's without the lines that find the rows
first). Timed, in thread CPU: the reset's ``Step`` calls (``Step``: its closing observation's
step, the new world's first) and the whole ``reset()``. Per form: mean, median and least in
microseconds (the first 20 episodes left out). Both forms take the same steps (the same rows,
the same kernel), so the episodes are the same.
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))
sys.path.insert(0, HERE)
from layer_moon_ab import report, reset_ab  # noqa: E402  (the same episodes, alternated)

_AHEAD = "if w.__dict__[\"_joint_index\"] is None:"


def _old_step(new_step):
    """``new_step`` (``b2World.Step``) without the block that finds the joint rows first."""
    lines = textwrap.dedent(inspect.getsource(new_step)).splitlines()
    start = next(k for k, line in enumerate(lines) if line.strip() == _AHEAD)
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = start + 1
    while len(lines[end]) - len(lines[end].lstrip()) > indent:
        end += 1
    from impulse2d.compat import _b2world
    scope: dict = {}
    exec("\n".join(lines[:start] + lines[end:]), vars(_b2world), scope)
    return scope["Step"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--resets", type=int, default=600)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    from impulse2d.compat._b2world import b2World
    timed_step = {}
    forms = {"new": b2World.Step, "old": _old_step(b2World.Step)}

    def install(form):
        b2World.Step = timed_step[form]

    def wrap(timed):
        for form, step in forms.items():
            timed_step[form] = timed(step, "Step")

    report(args.resets, reset_ab(args.resets, install, wrap), args.json)


if __name__ == "__main__":
    main()
