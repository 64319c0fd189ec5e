"""Cost of seeing a world: ``PygameDraw`` per body, ``draw.image``, the step plus draw of a frame,
and MP4 encoding with PyAV and imageio-ffmpeg. Writes ``benchmarks/results/draw.json``.

    python benchmarks/draw_bench.py            # SDL_VIDEODRIVER=dummy is set here
    python benchmarks/draw_bench.py --quick

* ``pygame_draw``: ``PygameDraw.draw`` on a 1280 x 720 surface, default flags and every flag on,
  for ``pyramid_20`` (210 bodies) and ``many_pyramids`` (the scene's default), after 60 steps
  (contacts and impulses in place); median of repeats; per body = median / live bodies.
* ``frame``: one world step plus that draw (the testbed's frame without its HUD).
* ``image``: ``draw.image`` (Pillow) at 640 x 480, default flags and every flag on.
* ``encode``: 240 frames of 640 x 480 recorded from ``pyramid_20`` (drawn once, beforehand),
  encoded to H.264 MP4 by PyAV (in-process) and by imageio-ffmpeg (a piped ffmpeg process),
  frames per second of encoding, best of 3; and the installed size of each package.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent


def _world(scene: str, params: dict):
    import impulse2d
    from impulse2d.scenes import _load, get_scene

    _load()
    sc = get_scene(scene)
    world = impulse2d.World()
    sc.builder(world, **{**sc.params, **params})
    for _ in range(60):
        world.step(1.0 / 60.0)
    return world


def _median_ms(fn, repeats: int) -> float:
    fn()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1000.0 * statistics.median(times)


def _site_size(package: str) -> float | None:
    """Installed size of a package and its bundled libraries, MB."""
    import importlib.util

    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(list(spec.submodule_search_locations)[0])
    total = 0
    for d in [root, root.parent / f"{package}.libs"]:
        if d.exists():
            total += sum(p.stat().st_size for p in d.rglob("*") if p.is_file())
    return total / 1e6


def bench_draw(repeats: int) -> dict:
    import pygame

    from impulse2d import draw

    out = {}
    surf = pygame.Surface((1280, 720))
    for label, scene, params in (("pyramid_20", "pyramid", {"base": 20}),
                                 ("many_pyramids", "many_pyramids", {})):
        world = _world(scene, params)
        bodies = len(world.bodies)
        row = {"bodies": bodies}
        for name, flags in (("default", draw.Flags()), ("all", draw.Flags.all())):
            d = draw.PygameDraw(surf, flags=flags)

            def one(d=d, world=world):
                surf.fill((247, 246, 242))
                d.draw(world)

            ms = _median_ms(one, repeats)

            def frame(d=d, world=world):
                world.step(1.0 / 60.0)
                surf.fill((247, 246, 242))
                d.draw(world)

            frame_ms = _median_ms(frame, repeats)
            cam = draw.Camera.fit(world, (640, 480))
            img_ms = _median_ms(lambda: draw.image(world, (640, 480), cam, flags), repeats)
            row[name] = {"pygame_draw_ms": ms, "per_body_us": 1000.0 * ms / bodies,
                         "step_plus_draw_ms": frame_ms, "frame_rate_hz": 1000.0 / frame_ms,
                         "image_640x480_ms": img_ms}
            print(f"{label:14s} {name:7s} {bodies:5d} bodies: PygameDraw {ms:7.2f} ms "
                  f"({1000 * ms / bodies:5.1f} us/body), step+draw {frame_ms:7.2f} ms "
                  f"({1000 / frame_ms:5.1f} Hz), draw.image {img_ms:7.2f} ms", flush=True)
        out[label] = row
    return out


def bench_encode(n_frames: int) -> dict:
    from impulse2d import draw

    world = _world("pyramid", {"base": 20})
    cam = draw.Camera.fit(world, (640, 480))
    frames = []
    for _ in range(n_frames):
        world.step(1.0 / 60.0)
        frames.append(np.asarray(draw.image(world, (640, 480), cam)))
    out = {"frames": n_frames, "size": [640, 480]}
    with tempfile.TemporaryDirectory() as tmp:
        def pyav():
            from impulse2d.render import VideoWriter

            with VideoWriter(os.path.join(tmp, "a.mp4"), fps=60, size=(640, 480)) as w:
                for f in frames:
                    w.write(f)

        def imageio():
            import imageio_ffmpeg

            w = imageio_ffmpeg.write_frames(os.path.join(tmp, "b.mp4"), (640, 480), fps=60,
                                            codec="libx264", pix_fmt_out="yuv420p",
                                            output_params=["-crf", "20", "-preset", "veryfast"])
            w.send(None)
            for f in frames:
                w.send(f)
            w.close()

        for name, fn, package in (("pyav", pyav, "av"), ("imageio_ffmpeg", imageio, "imageio_ffmpeg")):
            try:
                __import__(package)
            except ImportError:
                out[name] = None
                continue
            best = min(_timed(fn) for _ in range(3))
            size = os.path.getsize(os.path.join(tmp, "a.mp4" if name == "pyav" else "b.mp4"))
            out[name] = {"frames_per_s": n_frames / best, "seconds": best, "file_kb": size / 1024,
                         "installed_mb": _site_size(package),
                         "version": __import__(package).__version__}
            print(f"encode {name:15s}: {n_frames / best:6.1f} frames/s ({size / 1024:.0f} KiB, "
                  f"installed {out[name]['installed_mb']:.0f} MB)", flush=True)
    return out


def _timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "draw.json")
    a = ap.parse_args(argv)
    report = {"python": sys.version.split()[0], "machine": platform.machine(),
              "cpus": os.cpu_count(), "draw": bench_draw(5 if a.quick else 15),
              "encode": bench_encode(120 if a.quick else 240)}
    a.out.write_text(json.dumps(report, indent=1) + "\n")
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
