"""The legs' revolute joints written by one compiled call (new, ``impulse2d._batch_joint``) or
by ``World.create_revolute_joint`` and the layer's writes after it (old), alternated episode by
episode in one run of Gymnasium's LunarLander episodes on the pybox2d layer (issue 31 item 8;
branch ``layer38``).

    PYTHONPATH=src python benchmarks/layer_joint_ab.py [--resets 600] [--json F]

A reset's code runs once per ~90 steps, out of the caches: this measures it where it runs.
Random-action episodes (the action space seeded 0); each episode's reset takes the old or the
new form, alternating. Timed, in thread CPU: the two ``CreateJoint`` calls and the whole
``reset()``. Per form: mean, median and least in microseconds (the first 20 episodes left
out). Both forms write the same rows (``tests/test_batch_joint.py``), so the episodes are the
same.
"""

from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))
sys.path.insert(0, HERE)
from layer_moon_ab import report, reset_ab  # noqa: E402  (the same episodes, alternated)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--resets", type=int, default=600)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    from impulse2d import _batch_joint
    from impulse2d.compat import _b2joints
    from impulse2d.compat._b2world import b2World
    forms = {"new": _batch_joint.create_revolute_joint, "old": lambda *args: None}

    def install(form):
        _b2joints.create_revolute_joint = forms[form]

    def wrap(timed):
        b2World.CreateJoint = timed(b2World.CreateJoint, "joints")

    report(args.resets, reset_ab(args.resets, install, wrap), args.json)


if __name__ == "__main__":
    main()
