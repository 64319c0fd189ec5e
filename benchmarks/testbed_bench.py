"""The testbed's frame time: step + draw with every draw flag on (issue 27).

    SDL_VIDEODRIVER=dummy PYTHONPATH=src python benchmarks/testbed_bench.py \\
        --json benchmarks/results/testbed.json

For each scene (``pyramid`` base 20: target 60 frames per second, 16.7 ms; ``many_pyramids``,
5500 boxes: target 30, 33.3 ms) a 1280 x 720 testbed window (SDL's dummy driver: the drawing is
pygame's software rendering either way) runs ``--frames`` frames with every flag of
:class:`impulse2d.draw.Flags` on and sleeping off (so every body is stepped and drawn awake:
the worst case), after ``--warm`` frames that compile and settle. Reported per frame: the
median and 90th percentile of the whole frame (events, step, charts, drawing, panels), of the
step alone (``World.profile.step``) and of the rest. The solver panel's diagnostics are on,
as in the window. Also ``PygameDraw`` alone per body (the scene drawn with the default flags
and with every flag, divided by the bodies; 5 draws each). ``many_pyramids`` runs a quarter of
the frames.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from impulse2d import draw  # noqa: E402
from impulse2d.testbed import Testbed  # noqa: E402

# scene, parameters, target frames per second, share of --frames run (many_pyramids' frames
# take seconds on a loaded 2-core machine)
SCENES = (("pyramid", {"base": 20}, 60.0, 1.0), ("many_pyramids", {}, 30.0, 0.25))


def _ms(values, q=None) -> float:
    if q is None:
        return round(1e3 * statistics.median(values), 3)
    return round(1e3 * sorted(values)[int(q * (len(values) - 1))], 3)


def _frames(tb, frames: int):
    whole, step = [], []
    for _ in range(frames):
        t0 = time.perf_counter()
        tb.run(1)
        whole.append(time.perf_counter() - t0)
        step.append(tb.world.profile.step)
    return whole, step, [w - s for w, s in zip(whole, step)]


def measure(scene: str, params: dict, target_fps: float, frames: int, warm: int) -> dict:
    tb = Testbed(scene, size=(1280, 720), params=params)
    try:
        tb.configure(enable_sleep=False)
        tb.run(warm)
        # the default flags (shapes, joints, sleep colours) first: what the testbed costs
        # beside the drawing of the extra layers
        plain, _, plain_rest = _frames(tb, max(frames // 2, 5))
        tb.flags = draw.Flags.all()
        whole, step, rest = _frames(tb, frames)
        bodies = len(tb.world.bodies)
        per_body = {}
        rect = tb.pane_rects()[0]
        surface = tb.screen.subsurface(rect)
        for name, flags in (("default_flags", draw.Flags()), ("every_flag", draw.Flags.all())):
            painter = draw.PygameDraw(surface, camera=tb.camera, flags=flags)
            times = []
            for _ in range(5):
                t0 = time.perf_counter()
                painter.draw(tb.world)
                times.append(time.perf_counter() - t0)
            per_body[name] = round(1e6 * statistics.median(times) / bodies, 3)
        return {"scene": scene, "params": params, "bodies": bodies, "frames": frames,
                "frame_ms": _ms(whole), "frame_ms_p90": _ms(whole, 0.9),
                "step_ms": _ms(step), "draw_and_panels_ms": _ms(rest),
                "draw_and_panels_ms_p90": _ms(rest, 0.9),
                "fps": round(1.0 / statistics.median(whole), 1), "target_fps": target_fps,
                "default_flags_frame_ms": _ms(plain),
                "default_flags_draw_and_panels_ms": _ms(plain_rest),
                "meets_target": 1.0 / statistics.median(whole) >= target_fps,
                "pygame_draw_us_per_body": per_body}
    finally:
        tb.close()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=120)
    parser.add_argument("--warm", type=int, default=30)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args(argv)
    results = []
    for scene, params, fps, share in SCENES:
        r = measure(scene, params, fps, max(int(args.frames * share), 10),
                    max(int(args.warm * share), 5))
        print(json.dumps(r), flush=True)
        results.append(r)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"date": time.strftime("%Y-%m-%d"), "machine": platform.machine(),
                       "python": sys.version.split()[0], "cpus": os.cpu_count(),
                       "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
                       "results": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
