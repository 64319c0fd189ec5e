"""Command line of impulse2d (``impulse2d ...`` or ``python -m impulse2d ...``).

::

    impulse2d demo --list
    impulse2d demo pyramid
    impulse2d demo rain --steps 900 --solver pgs --iterations 10 --out rain.gif
    impulse2d demo pyramid --out pyramid.mp4
    impulse2d demo pyramid --param base=30 --substeps 8 --png last.png
    impulse2d demo many_pyramids --no-gif
    impulse2d compare                                  # stress scenes x every solver
    impulse2d compare --scenes vertical_stack,bridge --solvers soft_step,pgs --out report/
    impulse2d testbed pyramid                          # the interactive window (F1: keys)

``demo`` builds a sample scene (``impulse2d.scenes``), steps it at 1/60 s, prints the step time
about once per simulated second and a summary at the end, and writes an animated GIF of the run
(needs Pillow: ``pip install impulse2d[render]``).

``compare`` runs scenes (default: the Solver2D stress scenes) under every solver and writes a
report folder: metrics.json, report.md with a verdict per scene and solver, a side-by-side
animation per scene and plots (see :mod:`impulse2d.compare`).
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import inspect
import math
import os
import sys
import time
from typing import Any, Sequence

__all__ = ["main"]

DT = 1.0 / 60.0
INSTALL_HINT = "pip install impulse2d[render]"


class UsageError(Exception):
    """A bad command line: reported as one message and exit status 2."""


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="impulse2d", description="impulse2d: a 2D rigid-body physics engine.")
    from . import __version__
    from .settings import SOLVERS
    parser.add_argument("--version", action="version", version=f"impulse2d {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    demo = sub.add_parser(
        "demo", help="run a sample scene, print timings and write an animated GIF",
        description="Run a sample scene at 1/60 s per step, print timings and write an animated "
                    "GIF of it (Pillow required for the GIF: pip install impulse2d[render]).")
    demo.add_argument("scene", nargs="?", help="scene name (see --list)")
    demo.add_argument("--list", action="store_true", help="list the scenes and exit")
    demo.add_argument("--steps", type=int, help="number of steps (default: the scene's)")
    demo.add_argument("--solver", choices=SOLVERS, help="contact solver")
    demo.add_argument("--substeps", type=int, help="soft_step substeps per step")
    demo.add_argument("--iterations", type=int,
                      help="velocity iterations per step (pgs, pgs_ngs, pgs_block)")
    demo.add_argument("--no-warm-starting", action="store_true", help="disable warm starting")
    demo.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                      help="scene parameter (repeatable), e.g. --param base=30; "
                           "`impulse2d demo --list` shows each scene's parameters")
    demo.add_argument("--out", metavar="PATH.gif",
                      help="animation path: .gif (default: SCENE.gif), .webp, or .mp4 (needs "
                           "`pip install impulse2d[video]`)")
    demo.add_argument("--no-gif", action="store_true", help="do not render; simulate only")
    demo.add_argument("--fps", type=float, default=30.0,
                      help="GIF frames per simulated second (default 30; the GIF plays in real "
                           "time, long runs keep fewer frames)")
    demo.add_argument("--width", type=int, default=480, help="GIF width in pixels (default 480)")
    demo.add_argument("--contacts", action="store_true", help="draw contact points and normals")
    demo.add_argument("--png", metavar="PATH.png",
                      help="also save the last frame as an anti-aliased PNG")
    demo.add_argument("--quiet", "-q", action="store_true", help="print only the summary")

    cmp_ = sub.add_parser(
        "compare", help="run scenes under every solver side by side and write a report",
        description="Run scenes (default: the stress scenes) under every solver, measure "
                    "stack height, penetration, joint gaps, energy and step time, and write a "
                    "report folder (metrics.json, report.md, animations, plots).")
    cmp_.add_argument("--scenes", metavar="A,B", help="comma-separated scene names (default: "
                      "the stress scenes; `impulse2d demo --list` lists every scene)")
    cmp_.add_argument("--solvers", metavar="A,B",
                      help="comma-separated solvers (default: every solver of this build)")
    cmp_.add_argument("--steps", type=int, help="steps per run (default: each scene's)")
    cmp_.add_argument("--out", default="compare-report", metavar="DIR",
                      help="report folder (default compare-report/)")
    cmp_.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="settings",
                      help="world setting for every run (repeatable), e.g. --set substeps=8")
    cmp_.add_argument("--param", action="append", default=[], metavar="SCENE:KEY=VALUE",
                      help="scene parameter (repeatable), e.g. --param large_pyramid:base=40")
    cmp_.add_argument("--frames", type=int, default=60,
                      help="animation frames per run (default 60; 0: no animation)")
    cmp_.add_argument("--no-gif", action="store_true", help="no animations")
    cmp_.add_argument("--no-plots", action="store_true", help="no plots")
    cmp_.add_argument("--residuals", action="store_true",
                      help="switch solver diagnostics on and report per-iteration residuals "
                           "(slows the step)")
    cmp_.add_argument("--quiet", "-q", action="store_true", help="no progress output")

    tb = sub.add_parser(
        "testbed", help="open the interactive testbed window (pygame-ce)",
        description="Open the testbed: every sample scene (and Gymnasium's Box2D worlds) in a "
                    "window with a scene browser, mouse drag, a solver panel, live charts, side "
                    "by side solvers, an inspector and recording. F1 in the window lists the "
                    "keys. Needs pygame-ce: pip install impulse2d[testbed].")
    tb.add_argument("scene", nargs="?", help="scene to open (default: the last one)")
    tb.add_argument("--size", default="1280x720", metavar="WxH", help="window size in pixels")
    tb.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                    help="scene parameter (repeatable), as for demo")
    tb.add_argument("--solvers", metavar="A,B",
                    help="start side by side under these 2 to 4 solvers, e.g. soft_step,pgs")
    tb.add_argument("--frames", type=int, help="run this many frames, then exit")
    tb.add_argument("--screenshot", metavar="PATH.png", help="save the window as a PNG on exit")
    tb.add_argument("--forget", action="store_true",
                    help="neither read nor save the remembered scene, flags and panel state")

    warm = sub.add_parser(
        "warmup", help="compile the kernels ahead of time (or load them from the cache)",
        description="Compile the kernels now instead of on a world's first step: those of a "
                    "world of contacts under the default solver, or with --all every solver "
                    "and joint type too, many worlds at once (WorldBatch) and the pybox2d "
                    "layer; with --envs the native Gymnasium environments' episodes too. "
                    "Kernels already in the cache load in about a second.")
    warm.add_argument("--all", action="store_true", dest="all_kernels",
                      help="every solver and joint type, WorldBatch and the pybox2d layer too")
    warm.add_argument("--envs", action="store_true", dest="environments",
                      help="the native Gymnasium environments too (impulse2d.envs: their "
                           "kernels and the batch's that only their restarts reach)")
    return parser


# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------


def _parse_bool(text: str) -> bool:
    t = text.strip().lower()
    if t in ("1", "true", "yes", "on", "y", "t"):
        return True
    if t in ("0", "false", "no", "off", "n", "f"):
        return False
    raise ValueError(f"not a boolean: {text!r}")


def _convert(text: str, default: Any) -> Any:
    """Convert a command-line value to the type of the parameter's default."""
    if isinstance(default, bool):
        return _parse_bool(text)
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            pass
        try:
            f = float(text)
        except ValueError:
            f = math.nan
        if not f.is_integer():
            raise ValueError(f"expected an integer, got {text!r}")
        return int(f)
    if isinstance(default, float):
        try:
            return float(text)
        except ValueError:
            raise ValueError(f"expected a number, got {text!r}") from None
    if isinstance(default, str):
        return text
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _scene_parameters(sc) -> dict[str, Any]:
    """Keyword parameters a scene accepts -> default (``inspect.Parameter.empty`` if none)."""
    out: dict[str, Any] = {}
    try:
        sig = inspect.signature(sc.builder)
    except (TypeError, ValueError):
        sig = None
    if sig is not None:
        params = list(sig.parameters.values())[1:]           # first one is the world
        for p in params:
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
                out[p.name] = p.default
            elif p.kind == p.VAR_KEYWORD:
                out["**"] = None
    out.update(sc.params)
    return out


def _parse_params(sc, items: Sequence[str]) -> dict[str, Any]:
    accepted = _scene_parameters(sc)
    names = sorted(k for k in accepted if k != "**")
    shown = ", ".join(names) if names else "(none)"
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UsageError(f"bad --param {item!r}: expected KEY=VALUE")
        if key not in accepted and "**" not in accepted:
            raise UsageError(f"unknown parameter {key!r} for scene {sc.name!r}; "
                             f"its parameters: {shown}")
        default = accepted.get(key, inspect.Parameter.empty)
        try:
            out[key] = _convert(value, None if default is inspect.Parameter.empty else default)
        except ValueError as exc:
            raise UsageError(f"bad value for parameter {key!r}: {exc}") from None
    return out


def _format_params(sc) -> str:
    params = {k: v for k, v in _scene_parameters(sc).items()
              if k != "**" and v is not inspect.Parameter.empty}
    return ", ".join(f"{k}={v!r}" for k, v in params.items())


def _live_bodies(world) -> int:
    try:
        return int(world._bodies.alive.sum())
    except AttributeError:
        return len(world.bodies)


def _contact_count(world) -> int | None:
    for attr in ("contact_count",):
        n = getattr(world, attr, None)
        if isinstance(n, int):
            return n
    try:
        return len(world.contacts)
    except Exception:  # noqa: BLE001 - a diagnostic only
        return None


def _percentile(sorted_vals: list[float], q: float) -> float:
    if not sorted_vals:
        return float("nan")
    k = (len(sorted_vals) - 1) * q
    lo = math.floor(k)
    hi = min(lo + 1, len(sorted_vals) - 1)
    return sorted_vals[lo] + (sorted_vals[hi] - sorted_vals[lo]) * (k - lo)


def _import_render():
    import importlib

    try:
        return importlib.import_module("impulse2d.render")
    except ImportError:
        return None


def _fmt_bytes(n: int) -> str:
    if n >= 1 << 20:
        return f"{n / (1 << 20):.1f} MB"
    return f"{n / 1024:.0f} kB"


# --------------------------------------------------------------------------------------------
# commands
# --------------------------------------------------------------------------------------------


def _list_scenes(out) -> int:
    from .scenes import SCENES, _load
    _load()
    print("Scenes (impulse2d demo SCENE):", file=out)
    width = max((len(n) for n in SCENES), default=0)
    for name in sorted(SCENES):
        sc = SCENES[name]
        print(f"  {name:<{width}}  {sc.description}", file=out)
        extra = _format_params(sc)
        detail = f"{sc.steps} steps" + (f"; params: {extra}" if extra else "")
        print(f"  {'':<{width}}  ({detail})", file=out)
    return 0


def _demo(args, out, err) -> int:
    if args.list:
        return _list_scenes(out)
    from .scenes import SCENES, get_scene, _load
    _load()
    if not args.scene:
        raise UsageError("no scene given; known scenes: " + ", ".join(sorted(SCENES))
                         + " (impulse2d demo --list describes them)")
    try:
        sc = get_scene(args.scene)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    params = _parse_params(sc, args.param)
    steps = sc.steps if args.steps is None else args.steps
    if steps < 1:
        raise UsageError(f"--steps must be at least 1, got {steps}")
    if args.fps <= 0:
        raise UsageError(f"--fps must be positive, got {args.fps:g}")
    if args.width < 16:
        raise UsageError(f"--width must be at least 16 pixels, got {args.width}")

    for path in (args.out, args.png):
        if path and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            raise UsageError(f"cannot write {path}: no such directory")
    if args.out:
        suffix = os.path.splitext(args.out)[1].lower()
        if suffix not in (".gif", ".mp4", ".webp"):
            raise UsageError(f"--out must end in .gif, .mp4 or .webp, got {args.out}")
        if suffix == ".mp4" and not args.no_gif and importlib.util.find_spec("av") is None:
            raise UsageError("writing .mp4 needs PyAV: `pip install impulse2d[video]`")

    settings: dict[str, Any] = {}
    if args.solver is not None:
        settings["solver"] = args.solver
    if args.substeps is not None:
        settings["substeps"] = args.substeps
    if args.iterations is not None:
        settings["velocity_iterations"] = args.iterations
    if args.no_warm_starting:
        settings["warm_starting"] = False

    render = None
    want_gif = not args.no_gif
    if want_gif or args.png:
        render = _import_render()
        if render is None:
            print(f"impulse2d: Pillow is not installed, so no GIF will be written; install it "
                  f"with `{INSTALL_HINT}` (or pass --no-gif). Running the simulation only.",
                  file=err)
            want_gif = False

    import impulse2d
    try:
        world = impulse2d.World(**settings)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"bad world setting: {exc}") from None
    try:
        info = sc.builder(world, **{**sc.params, **params})
    except (TypeError, ValueError) as exc:
        if params:
            raise UsageError(f"bad parameter for scene {sc.name!r}: {exc}") from None
        raise

    # a scene's per-step hook (SceneInfo.update): called before each step with its index
    update = getattr(info, "update", None)

    s = getattr(world, "settings", None)
    solver = getattr(s, "solver", settings.get("solver", "?"))
    if solver == "pgs":
        solver_text = f"pgs, {getattr(s, 'velocity_iterations', '?')} iterations"
    elif solver in ("pgs_ngs", "pgs_block"):
        solver_text = (f"{solver}, {getattr(s, 'velocity_iterations', '?')} velocity and "
                       f"{getattr(s, 'position_iterations', '?')} position iterations")
    else:
        solver_text = f"{solver}, {getattr(s, 'substeps', '?')} substeps"
    shown = {**sc.params, **params}
    print(f"scene {sc.name}: {_live_bodies(world)} bodies; {steps} steps of 1/60 s "
          f"({steps * DT:.2f} s); solver {solver_text}"
          + (f"; params {', '.join(f'{k}={v!r}' for k, v in shown.items())}" if shown else ""),
          file=out, flush=True)

    recorder = None
    if want_gif:
        recorder = render.GifRecorder(view=sc.view, width=args.width, fps=args.fps, dt=DT,
                                      total_steps=steps, contacts=args.contacts, caption=sc.name)
        recorder.capture(world, step=0)

    report_every = max(1, int(round(1.0 / DT)))
    times: list[float] = []
    render_time = 0.0
    chunk_start = 0
    perf = time.perf_counter
    t_begin = perf()
    try:
        for i in range(1, steps + 1):
            if update is not None:
                update(world, i - 1)
            t0 = perf()
            world.step(DT)
            times.append(perf() - t0)
            if recorder is not None and i % recorder.every == 0:
                t1 = perf()
                recorder.capture(world, step=i)
                render_time += perf() - t1
            if not args.quiet and (i % report_every == 0 or i == steps):
                chunk = times[chunk_start:i]
                if chunk_start == 0 and len(chunk) > 1:
                    chunk = chunk[1:]                  # keep the JIT compile out of the figure
                ms = 1000.0 * sum(chunk) / len(chunk)
                nc = _contact_count(world)
                print(f"  step {i:6d}  t = {i * DT:7.2f} s  {ms:9.3f} ms/step  "
                      f"bodies {_live_bodies(world):6d}  contacts "
                      f"{nc if nc is not None else '?':>6}", file=out, flush=True)
                chunk_start = i
    except KeyboardInterrupt:
        # Ctrl-C: stop stepping but still report and write what was recorded.
        print(f"impulse2d: interrupted after {len(times)} steps", file=err)
        if not times:
            return 130
    wall = perf() - t_begin
    steps = len(times)

    first = times[0] * 1000.0
    rest = sorted(1000.0 * t for t in times[1:])
    print(f"summary: {steps} steps, {steps * DT:.2f} s simulated", file=out)
    print(f"  first step (incl. JIT compile): {first:.1f} ms", file=out)
    if rest:
        mean = sum(rest) / len(rest)
        print(f"  steps 2-{steps}: mean {mean:.3f} ms/step, median {_percentile(rest, 0.5):.3f} "
              f"ms/step, p95 {_percentile(rest, 0.95):.3f} ms/step "
              f"({1000.0 / mean if mean > 0 else float('inf'):.0f} steps/s)", file=out)
    print(f"  wall time {wall:.2f} s (simulation {sum(times):.2f} s"
          + (f", rendering {render_time:.2f} s" if recorder is not None else "") + ")", file=out)

    if recorder is not None:
        path = args.out or f"{sc.name}.gif"
        t1 = perf()
        try:
            recorder.save(path)
        except OSError as exc:
            print(f"impulse2d: cannot write {path}: {exc}", file=err)
            return 1
        size = os.path.getsize(path)
        w, h = recorder.frames[0].size
        print(f"wrote {os.path.abspath(path)} ({len(recorder.frames)} frames, {w}x{h} px, "
              f"{1.0 / recorder.frame_interval:.0f} fps, {_fmt_bytes(size)}, "
              f"saved in {perf() - t1:.2f} s)", file=out)
    if args.png and render is not None:
        img = render.render_frame(world, sc.view, max(args.width, 16), contacts=args.contacts,
                                  supersample=3, text=f"{sc.name}  t = {steps * DT:.2f} s")
        try:
            img.save(args.png)
        except (OSError, ValueError) as exc:
            print(f"impulse2d: cannot write {args.png}: {exc}", file=err)
            return 1
        print(f"wrote {os.path.abspath(args.png)}", file=out)
    return 0


def _split(text: str | None) -> list[str] | None:
    if text is None:
        return None
    items = [t.strip() for t in text.split(",") if t.strip()]
    if not items:
        raise UsageError(f"empty list {text!r}")
    return items


def _compare(args, out, err) -> int:
    from dataclasses import fields

    from . import compare as cmp
    from .scenes import SCENES, get_scene, _load
    from .settings import SOLVERS, WorldSettings
    _load()
    scenes = _split(args.scenes)
    for name in scenes or ():
        if name not in SCENES:
            raise UsageError(f"unknown scene {name!r}; known scenes: {', '.join(sorted(SCENES))}")
    solvers = _split(args.solvers)
    for name in solvers or ():
        if name not in SOLVERS:
            raise UsageError(f"unknown solver {name!r}; this build has: {', '.join(SOLVERS)}")
    if args.steps is not None and args.steps < 1:
        raise UsageError(f"--steps must be at least 1, got {args.steps}")
    if args.frames < 0:
        raise UsageError(f"--frames must be >= 0, got {args.frames}")

    defaults = {f.name: getattr(WorldSettings(), f.name) for f in fields(WorldSettings)}
    settings: dict[str, Any] = {}
    for item in args.settings:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or key not in defaults or key == "solver":
            raise UsageError(f"bad --set {item!r}: expected KEY=VALUE with KEY one of "
                             f"{', '.join(k for k in defaults if k != 'solver')}")
        try:
            settings[key] = _convert(value, defaults[key])
        except ValueError as exc:
            raise UsageError(f"bad value for setting {key!r}: {exc}") from None
    try:
        WorldSettings().replace(**settings)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"bad world setting: {exc}") from None

    params: dict[str, dict[str, Any]] = {}
    for item in args.param:
        name, sep, rest = item.partition(":")
        if not sep or name not in SCENES:
            raise UsageError(f"bad --param {item!r}: expected SCENE:KEY=VALUE with a known scene")
        params.setdefault(name, {}).update(_parse_params(get_scene(name), [rest]))

    os.makedirs(args.out, exist_ok=True)
    report = cmp.compare(scenes, solvers, steps=args.steps, out=args.out, settings=settings,
                         params=params, animate=not args.no_gif and args.frames > 0,
                         plots=not args.no_plots, progress=not args.quiet, frames=args.frames,
                         residuals=args.residuals)
    width = max(len(n) for n in report.scenes)
    print(f"{'scene':<{width}}  " + "  ".join(f"{s:>24}" for s in report.solvers), file=out)
    for name in report.scenes:
        cells = []
        for s in report.solvers:
            r = report.results[name][s]
            ms = r.metrics.get("ms_median")
            text = "error" if r.error else f"{r.verdict or '-'} {'?' if ms is None else f'{ms:.3f}'} ms"
            cells.append(f"{text:>24}")
        print(f"{name:<{width}}  " + "  ".join(cells), file=out)
    for note in report.notes:
        print(f"note: {note}", file=out)
    print(f"wrote {os.path.abspath(os.path.join(args.out, 'report.md'))} and "
          f"{len(report.files) - 1} more files", file=out)
    return 0


def _testbed(args, out, err) -> int:
    try:
        import pygame  # noqa: F401
    except ImportError:
        raise UsageError("the testbed needs pygame-ce: pip install impulse2d[testbed]") from None
    from .scenes import get_scene
    from .testbed import Testbed, catalog
    try:
        w, h = (int(x) for x in args.size.lower().split("x"))
    except ValueError:
        raise UsageError(f"--size must be WIDTHxHEIGHT, e.g. 1280x720, got {args.size!r}") from None
    params = {}
    if args.param:
        if args.scene is None or catalog.find(args.scene).gym_id is not None:
            raise UsageError("--param needs a scene of impulse2d.scenes")
        params = _parse_params(get_scene(args.scene), args.param)
    try:
        bed = Testbed(args.scene, size=(w, h), params=params, remember=not args.forget)
        if args.solvers:
            bed.side_by_side(args.solvers.split(","))
    except (ValueError, TypeError) as exc:
        raise UsageError(str(exc)) from None
    try:
        bed.run(args.frames)
        if args.screenshot:
            bed.screenshot(args.screenshot)
            print(f"wrote {args.screenshot}", file=out)
    finally:
        bed.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``impulse2d`` command; returns the exit status."""
    out, err = sys.stdout, sys.stderr
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:           # argparse: --help, --version, or a usage error (2)
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 2)
    if args.command is None:
        parser.print_help(out)
        return 2
    try:
        if args.command == "demo":
            return _demo(args, out, err)
        if args.command == "compare":
            return _compare(args, out, err)
        if args.command == "testbed":
            return _testbed(args, out, err)
        if args.command == "warmup":
            if argv is None:  # the command's own process: it ends here, its heap not freed
                from ._core.parallel import keep_garbage
                keep_garbage()
            from ._warmup import warmup
            warmup(all_kernels=args.all_kernels, environments=args.environments)
            if argv is None:
                from ._core.parallel import exit_now
                exit_now()
            return 0
    except UsageError as exc:
        print(f"impulse2d: error: {exc}", file=err)
        return 2
    except KeyboardInterrupt:
        print("impulse2d: interrupted", file=err)
        return 130
    parser.print_help(out)
    return 2


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
