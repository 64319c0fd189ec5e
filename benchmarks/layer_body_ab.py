"""The lander's and legs' bodies written by one compiled call (new,
``impulse2d._batch_dynamic``) or by ``World.create_body`` and ``World._attach_shape`` (old),
alternated episode by episode in one run of Gymnasium's LunarLander episodes on the pybox2d
layer (issue 31 item 8; branch ``layer37``).

    PYTHONPATH=src python benchmarks/layer_body_ab.py [--resets 600] [--json F]

A reset's code runs once per ~90 steps, out of the caches: this measures it where it runs.
Random-action episodes (the action space seeded 0); each episode's reset takes the old or the
new form, alternating. Timed, in thread CPU: the three ``CreateDynamicBody`` calls (the
lander's makes the queued moon first: timed apart, ``_batch.create_static_bodies`` as the
layer's queue calls it), the bodies without the moon, and the whole ``reset()``. Per form:
mean, median and least in microseconds (the first 20 episodes left out). Both forms write the
same rows (``tests/test_batch_dynamic.py``), so the episodes are the same.
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
    from impulse2d import _batch
    from impulse2d.compat import _b2dynamic, _b2queue
    from impulse2d.compat._b2world import b2World
    forms = {"new": _b2dynamic.create_dynamic_body, "old": lambda *args: None}

    def install(form):
        _b2dynamic.create_dynamic_body = forms[form]

    def wrap(timed):
        _b2queue.create_static_bodies = timed(_batch.create_static_bodies, "moon")
        b2World.CreateDynamicBody = timed(b2World.CreateDynamicBody, "bodies")

    times = reset_ab(args.resets, install, wrap)
    for form in forms:  # the lander's and legs' bodies: the moon is made inside the first
        times[f"bodies less moon {form}"] = [
            b - m for b, m in zip(times[f"bodies {form}"], times[f"moon {form}"])]
    report(args.resets, times, args.json)


if __name__ == "__main__":
    main()
