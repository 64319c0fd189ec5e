"""The testbed: a pygame-ce window onto impulse2d's scenes (``impulse2d testbed [SCENE]``), and
:class:`Testbed`, the same window driven from code.

Everything that changes what is simulated or drawn (a restart, a solver switch, a drag, a
flag...) goes through :meth:`Testbed._do`, which applies it and logs it against the frame it
happened in: that log is what a replay file holds (:mod:`.recording`). The window's own
furniture lives in other modules: the scene list (:mod:`.catalog`), the panes and their
stepping (:mod:`.panes`), the mouse (:mod:`.mouse`), the solver controls
(:mod:`.solver_panel`), the panels and charts (:mod:`.panels`, :mod:`.charts`), the inspector
(:mod:`.inspector`), recording (:mod:`.recording`) and the remembered state (:mod:`.config`).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from .. import _validate
from ..settings import SOLVERS, WorldSettings
from . import catalog, config, inspector, mouse, panels, recording
from .panes import Pane, build_pane, copy_pane, divergence, release_gym
from .solver_panel import CONTROLS, panel_settings

try:
    import pygame
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError("the testbed needs pygame-ce: pip install impulse2d[testbed]") from exc

__all__ = ["Testbed"]

DEFAULT_SCENE = "pyramid"
LEFT_PANEL = 240    # px
RIGHT_PANEL = 290   # px
PICK_PIXELS = 10.0  # a click inspects what lies within this many pixels
LAUNCH_GAIN = 4.0   # launched ball speed per metre pulled back, 1/s
MAX_PANES = 4
# Settings every pane gets: the diagnostics feed the solver health charts; an island too big
# for the direct solver (WorldSettings.direct_max_rows) is stepped by pgs rather than stopping
# the window with an error (the counters show the direct solver's fallback steps).
PANE_SETTINGS = {"diagnostics": True, "direct_fallback": "pgs"}


def _flags_cls():
    from ..draw import Flags
    return Flags


class Testbed:
    """The testbed window. ``Testbed(scene="pyramid", size=(1280, 720))``; ``window=False``
    draws into an off-screen surface (no display at all); ``remember=True`` starts from the
    last scene, flags and panel state and saves them on :meth:`close` (the command line does;
    a script does not unless asked). ``params`` override the scene's parameters."""

    def __init__(self, scene: str | None = None, size=(1280, 720), *, dt: float = 1.0 / 60.0,
                 params: dict | None = None, remember: bool = False, window: bool = True,
                 _state: dict | None = None):
        self.size = _check_size(size)
        self.dt = _validate.positive(dt, "dt", 1.0, "s")
        self.remember = bool(remember)
        # _state: a replay file's start state (Testbed.from_start) instead of the remembered one
        state = _state if _state is not None else (config.load() if self.remember else {})
        if scene is None:
            scene = state.get("scene", DEFAULT_SCENE)
            try:
                catalog.find(scene)
            except ValueError:
                scene = DEFAULT_SCENE
        pygame.init()
        if window:
            self.screen = pygame.display.set_mode(self.size)
            pygame.display.set_caption("impulse2d testbed")
            pygame.event.clear()  # a QUIT left by a window closed before this one opened
        else:
            self.screen = pygame.Surface(self.size)
        self.window = bool(window)
        self.font = pygame.font.Font(None, 17)
        self.entries = catalog.entries()
        Flags = _flags_cls()
        names = {f.name for f in dataclasses.fields(Flags)}
        try:
            self._flags = Flags(**{k: v for k, v in state.get("flags", {}).items() if k in names})
        except (TypeError, ValueError):  # a damaged remembered state: the defaults
            self._flags = Flags()
        self._settings = dict(panel_settings(WorldSettings()))
        for name, value in state.get("settings", {}).items():
            if name in self._settings:
                try:
                    WorldSettings().replace(**{name: value})
                except (TypeError, ValueError):
                    continue
                self._settings[name] = value
        self.show_ui = bool(state.get("show_ui", True))
        self.show_help = False
        self.search: str | None = None     # the browser's filter while typing, else None
        self.list_offset = 0
        self.panes: list[Pane] = []
        self.solvers: list[str] | None = state.get("solvers")  # side by side: pane solvers
        self.paused = False
        self.frame = 0
        self.selection = None
        self.mouse = mouse.MouseDrag()
        self._launch_from = None   # a Shift-drag's start (world), controls.py
        self._pan_from = None      # a right-drag's last pixel
        self._swallow_text = None  # the text event the key that opened the search also makes
        self._recorder = None
        self._replay_video = None
        self._record_area = None
        self._running = True
        self.panels = panels.Panels(self)
        self.clock = pygame.time.Clock()
        self.open(scene, **(params or {}))
        if "camera" in state:
            self.camera.center = tuple(state["camera"][0])
            self.camera.scale = state["camera"][1]
            self._start = self._start_state()

    # -- scenes ----------------------------------------------------------------------------
    @property
    def scenes(self) -> list[str]:
        """The names of every scene the browser lists, grouped."""
        return [e.name for e in self.entries]

    @property
    def scene(self) -> str:
        return self.entry.name

    def open(self, name: str, **params) -> None:
        """Open scene ``name`` (ValueError for an unknown one): a fresh world in one pane with
        the panel's settings (side by side: one pane per solver again), the camera on the
        scene's view, unpaused, the input log started afresh."""
        entry = catalog.find(name)
        panes = self._make_panes(entry, dict(params))   # raises before anything changes
        self._stop_recording()
        self.mouse.end()
        self._close_envs()
        self.selection = None
        self.entry, self.params, self.panes = entry, dict(params), panes
        from ..draw import Camera
        self.camera = _camera_for(Camera, entry.view, self.pane_rects()[0].size)
        self.paused = False
        self.frame = 0
        self._inputs: dict[int, list] = {}
        self._start = self._start_state()
        self.panels.reset()

    def _close_envs(self) -> None:
        for pane in getattr(self, "panes", []):
            if pane.env is not None:
                pane.env.close()

    def _make_panes(self, entry, params) -> list[Pane]:
        """Fresh panes of ``entry``: one, or one per side-by-side solver (copies of one world;
        a Gymnasium scene: one environment each, from the same seed)."""
        settings = {**self._settings, **PANE_SETTINGS}
        first = build_pane(entry, settings, params)
        if self.solvers is None:
            return [first]
        if first.env is not None or first.framework is not None:   # not copyable: anew
            if first.env is not None:
                first.env.close()
            return [build_pane(entry, {**settings, "solver": s}, params) for s in self.solvers]
        panes = [first] + [copy_pane(first) for _ in self.solvers[1:]]
        for pane, solver in zip(panes, self.solvers):
            pane.world.settings.solver = solver
        return panes

    def _build(self) -> None:
        """The current scene rebuilt from scratch (a restart)."""
        self.mouse.end()
        self._close_envs()
        self.selection = None
        self.panes = self._make_panes(self.entry, self.params)

    def restart(self) -> None:
        """The scene rebuilt from scratch, with the current settings and panes."""
        self._do(["restart"])

    def next_scene(self, direction: int = 1) -> None:
        names = self.scenes
        self.open(names[(names.index(self.entry.name) + direction) % len(names)])

    # -- the clock -------------------------------------------------------------------------
    def pause(self) -> None:
        self._do(["pause"])

    def resume(self) -> None:
        self._do(["resume"])

    def single_step(self) -> None:
        """Exactly one ``world.step(dt)`` in every pane (paused or not), then a redraw."""
        self._do(["single_step"])
        self._draw()

    def run(self, frames: int | None = None) -> None:
        """Run ``frames`` frames of the loop (paused: drawn, not stepped); None: until the
        window is closed, paced at 1 / dt frames per second."""
        if frames is not None:
            frames = _validate.integer(frames, "frames")
            if frames < 0:
                raise ValueError(f"frames must be >= 0, got {frames}")
        k = 0
        while self._running and (frames is None or k < frames):
            self._frame(events=True)
            k += 1
            if frames is None:
                self.clock.tick(round(1.0 / self.dt))

    def _frame(self, events: bool = False, draw: bool = True) -> None:
        if events and self.window:
            self.panels.handle_events(pygame.event.get())
        if not self.paused:
            for pane in self.panes:
                pane.step(self.dt)
        self.panels.sample()
        self.frame += 1
        if draw:
            self._draw(capture=True)

    # -- worlds and solvers ----------------------------------------------------------------
    @property
    def world(self):
        """The world on screen (the first pane's)."""
        return self.panes[0].world

    @property
    def worlds(self) -> list:
        """Every pane's world, left to right."""
        return [p.world for p in self.panes]

    @property
    def settings(self) -> dict:
        """The solver panel's settings (a copy; change them with :meth:`configure`)."""
        return dict(self._settings)

    def set_solver(self, name: str, level: str | None = None) -> None:
        """Switch every pane's solver between steps (``direct``: ``level`` "velocity" or
        "acceleration"); the bodies are untouched."""
        if name not in SOLVERS:
            raise ValueError(f"solver must be one of {SOLVERS}, got {name!r}")
        changes = {"solver": name}
        if level is not None:
            changes["direct_level"] = level
        self.configure(**changes)

    def configure(self, **settings) -> None:
        """Change solver panel settings (any of :data:`.solver_panel.CONTROLS`' fields) in
        every pane; validated first, so a bad value changes nothing. Side by side, ``solver``
        changes the first pane's."""
        known = {c.name for c in CONTROLS}
        for name in settings:
            if name not in known:
                raise TypeError(f"configure() takes the solver panel's settings "
                                f"({', '.join(sorted(known))}), got {name!r}")
        WorldSettings().replace(**settings)  # raises for a bad value, nothing changed yet
        self._do(["configure", {k: _plain(v) for k, v in settings.items()}])

    def side_by_side(self, solvers) -> None:
        """Show the scene as it is now under each of ``solvers`` (2 to 4), one pane each,
        copies of the first pane's world stepped in lock-step; None or an empty list: back to
        one pane."""
        if solvers:
            solvers = list(solvers)
            if not 2 <= len(solvers) <= MAX_PANES:
                raise ValueError(f"side_by_side takes 2 to {MAX_PANES} solvers, got "
                                 f"{len(solvers)}")
            for s in solvers:
                if s not in SOLVERS:
                    raise ValueError(f"solvers must be among {SOLVERS}, got {s!r}")
        self._do(["side_by_side", list(solvers) if solvers else None])

    @property
    def divergence(self):
        """How far the panes have drifted apart (:class:`.panes.Divergence`)."""
        return divergence(self.panes)

    # -- mouse -----------------------------------------------------------------------------
    def drag(self, body_point, target_point, frames: int) -> None:
        """Grab the body at ``body_point`` (world, m) as a mouse would, hold the mouse at
        ``target_point`` for ``frames`` frames, let go. ValueError when no dynamic body is
        there."""
        p = _validate.vec2(body_point, "body_point")
        q = _validate.vec2(target_point, "target_point")
        frames = _validate.integer(frames, "frames")
        if mouse.pick_body(self.world, p) is None:
            raise ValueError(f"no dynamic body at body_point {tuple(p)}")
        self._do(["drag_begin", list(p)])
        self._do(["drag_move", list(q)])
        self.run(frames)
        self._do(["drag_end"])

    def launch(self, point, velocity) -> None:
        """Launch a ball at ``point`` with ``velocity`` (world, m and m/s) in every pane."""
        p = _validate.vec2(point, "point")
        v = _validate.vec2(velocity, "velocity")
        self._do(["launch", list(p), list(v)])

    def inspect(self, world_point) -> list:
        """Select the contact point or joint nearest ``world_point`` (within 10 pixels), else
        the body there, for the inspector; returns the selection's constraint rows
        (``world.constraint_rows()``; a body: [])."""
        p = _validate.vec2(world_point, "world_point")
        self._do(["inspect", list(p)])
        return inspector.rows_of(self.world, self.selection)

    # -- drawing ---------------------------------------------------------------------------
    @property
    def flags(self):
        return self._flags

    @flags.setter
    def flags(self, value) -> None:
        Flags = _flags_cls()
        if not isinstance(value, Flags):
            raise TypeError(f"flags must be an impulse2d.draw.Flags, got {type(value).__name__}")
        self._do(["flags", dataclasses.asdict(value)])

    def show_panels(self, visible: bool) -> None:
        """Show or hide the side panels (the scene view takes the whole window)."""
        self._do(["ui", _validate.flag(visible, "visible")])

    def toggle_flag(self, name: str) -> None:
        """Turn the draw flag ``name`` on or off."""
        flags = dataclasses.asdict(self._flags)
        if name not in flags:
            raise ValueError(f"unknown draw flag {name!r}; known: {', '.join(flags)}")
        flags[name] = not flags[name]
        self._do(["flags", flags])

    def pane_rects(self) -> list:
        """The window rectangle (pygame.Rect) of each pane."""
        x0 = LEFT_PANEL if self.show_ui else 0
        x1 = self.size[0] - (RIGHT_PANEL if self.show_ui else 0)
        view = pygame.Rect(x0, 0, max(x1 - x0, 1), self.size[1])
        n = max(len(self.panes), 1)
        if n == 1:
            return [view]
        cols = 2
        rows = 1 if n == 2 else 2
        w, h = view.w // cols, view.h // rows
        return [pygame.Rect(view.x + (k % cols) * w, view.y + (k // cols) * h, w, h)
                for k in range(n)]

    def to_screen(self, point, pane: int = 0):
        """Window pixel (x, y) of world ``point`` in pane ``pane``: the camera's transform."""
        rect = self.pane_rects()[pane]
        px = self.camera.to_screen(point, rect.size)
        return (float(px[0]) + rect.x, float(px[1]) + rect.y)

    def to_world(self, pixel):
        """The pane under window ``pixel`` and the world point there: (pane index, (x, y))."""
        for k, rect in enumerate(self.pane_rects()):
            if rect.collidepoint(pixel):
                local = (pixel[0] - rect.x, pixel[1] - rect.y)
                w = self.camera.to_world(local, rect.size)
                return k, (float(w[0]), float(w[1]))
        return None, None

    def fit(self) -> None:
        """Fit the first pane's world in view."""
        from ..draw import Camera
        cam = Camera.fit(self.world, self.pane_rects()[0].size)
        self._do(["camera", [float(c) for c in cam.center], float(cam.scale)])

    def _draw(self, capture: bool = False) -> None:
        """Draw the window; ``capture``: also hand the scene view to the recording (one
        video frame per loop frame, never for a redraw between frames)."""
        self.screen.fill((18, 20, 25))
        self.panels.draw_panes()
        if capture and (self._recorder is not None or self._replay_video is not None):
            frame = self._view_pixels(self._record_area)
            (self._recorder or self._replay_video).write(frame)
        if self.show_ui:
            self.panels.draw_ui()
        if self.show_help:
            self.panels.draw_help()
        if self.window:
            pygame.display.flip()

    def view_area(self):
        """The window rectangle of the scene view (every pane)."""
        rects = self.pane_rects()
        return rects[0].unionall(rects[1:]) if len(rects) > 1 else rects[0]

    def _view_pixels(self, area):
        """The window's ``area`` (the scene view as a recording began: a recording keeps its
        size when the panels are hidden or shown) as an (h, w, 3) uint8 RGB array."""
        return pygame.surfarray.array3d(self.screen.subsurface(area)).swapaxes(0, 1).copy()

    def screenshot(self, path) -> Path:
        """The window as it is now, as a PNG at ``path``."""
        path = Path(path)
        self._draw()
        pygame.image.save(self.screen, str(path))
        return path

    # -- recording -------------------------------------------------------------------------
    def record(self, path, frames: int) -> Path:
        """Run ``frames`` frames while writing the scene view to ``path`` (.mp4, .gif, .webp)
        and a replay file beside it (``x.replay.json``); returns the video's path."""
        frames = _validate.integer(frames, "frames")
        if frames < 1:
            raise ValueError(f"frames must be >= 1, got {frames}")
        self.start_recording(path)
        try:
            self.run(frames)
        finally:
            self._stop_recording()
        return Path(path)

    def start_recording(self, path) -> None:
        self._stop_recording()
        self._record_area = self.view_area()
        self._recorder = recording.Recorder(path, round(1.0 / self.dt), self._record_area.size,
                                            self.frame)

    def stop_recording(self):
        """Finish the recording; returns the replay file's path (None: none was running)."""
        return self._stop_recording()

    def _stop_recording(self):
        rec, self._recorder = self._recorder, None
        if rec is None:
            return None
        rec.close()
        return recording.write_replay(recording.replay_path_for(rec.path), self._start,
                                      self._inputs, rec.first, rec.frames)

    @property
    def recording(self) -> bool:
        return self._recorder is not None

    def _start_state(self) -> dict:
        return {"scene": self.entry.name, "params": self.params, "size": list(self.size),
                "dt": self.dt, "settings": {k: _plain(v) for k, v in self._settings.items()},
                "flags": dataclasses.asdict(self._flags), "solvers": self.solvers,
                "show_ui": self.show_ui,
                "camera": [[float(c) for c in self.camera.center], float(self.camera.scale)]}

    @classmethod
    def from_start(cls, start: dict, window: bool = False) -> "Testbed":
        """A testbed in the state a replay file's ``start`` describes (headless by default)."""
        return cls(start["scene"], tuple(start["size"]), dt=start["dt"], params=start["params"],
                   window=window, _state=start)

    def _replay(self, inputs: dict, first: int, frames: int, out_path, fps: float) -> None:
        from ..render import VideoWriter
        while self.frame < first + frames:
            for action in inputs.get(self.frame, []):
                self._do(action)
            if self.frame < first:
                self._frame(draw=False)
                continue
            if self._replay_video is None:
                self._record_area = self.view_area()
                self._replay_video = VideoWriter(str(out_path), fps=fps,
                                                 size=self._record_area.size)
                self._replay_video.__enter__()
            self._frame()
        if self._replay_video is not None:
            self._replay_video.__exit__(None, None, None)
            self._replay_video = None

    # -- the one door for every input ------------------------------------------------------
    def _do(self, action: list) -> None:
        """Apply ``action`` and log it against the current frame (the replay's inputs)."""
        kind = action[0]
        if kind == "restart":
            self._build()
            self.panels.reset()
        elif kind == "pause":
            self.paused = True
        elif kind == "resume":
            self.paused = False
        elif kind == "single_step":
            for pane in self.panes:
                pane.step(self.dt)
            self.panels.sample()
        elif kind == "configure":
            self._settings.update(action[1])
            for k, pane in enumerate(self.panes):
                changes = dict(action[1])
                if self.solvers is not None and k > 0:
                    changes.pop("solver", None)
                for name, value in changes.items():
                    setattr(pane.world.settings, name, value)
                if pane.env is not None:   # the next episode's world gets them too
                    pane.settings.update(changes)
            if self.solvers is not None and "solver" in action[1]:
                self.solvers[0] = action[1]["solver"]
        elif kind == "side_by_side":
            before = self.pane_rects()[0].size
            self._side_by_side(action[1])
            self._keep_view(before)
        elif kind == "flags":
            self._flags = _flags_cls()(**action[1])
        elif kind == "ui":
            self.show_ui = bool(action[1])
        elif kind == "camera":
            self.camera.center = tuple(action[1])
            self.camera.scale = action[2]
        elif kind == "drag_begin":
            self.mouse.begin(self.worlds, action[1])
        elif kind == "drag_move":
            self.mouse.move(action[1])
        elif kind == "drag_end":
            self.mouse.end()
        elif kind == "launch":
            for pane in self.panes:
                if pane.framework is not None:   # a body the pybox2d layer knows: its bomb
                    pane.framework.LaunchBomb(action[1], action[2])
                else:
                    mouse.launch_ball(pane.world, action[1], action[2])
        elif kind == "inspect":
            radius = PICK_PIXELS / self.camera.scale
            skip = [joint for _, joint in self.mouse.joints]
            self.selection = inspector.select(self.world, action[1], radius, skip)
        else:  # pragma: no cover - every caller is above
            raise ValueError(f"unknown testbed action {kind!r}")
        self._inputs.setdefault(self.frame, []).append(action)

    def _side_by_side(self, solvers) -> None:
        self.mouse.end()
        if not solvers:
            self.solvers = None
            self.panes = self.panes[:1]
            self.panes[0].world.settings.solver = self._settings["solver"]
            return
        self.solvers = list(solvers)
        first = self.panes[0]
        if first.env is not None or first.framework is not None:
            self._build()
            return
        self.panes = [first] + [copy_pane(first) for _ in solvers[1:]]
        for pane, solver in zip(self.panes, solvers):
            pane.world.settings.solver = solver
        self.panels.reset()

    def _keep_view(self, before) -> None:
        """Zoom the camera by as much as a pane shrank or grew (from ``before``, pixels), so
        that what the old pane showed still fits in each new one: a pyramid framed in one
        pane keeps its whole base in two (it was cut at the pane's sides)."""
        after = self.pane_rects()[0].size
        self.camera.scale *= min(after[0] / before[0], after[1] / before[1])

    # -- the window ------------------------------------------------------------------------
    def quit(self) -> None:
        self._running = False

    def close(self) -> None:
        """Stop recording, remember the state (``remember=True``), close the window."""
        self._stop_recording()
        if self.remember:
            config.save({"scene": self.entry.name, "flags": dataclasses.asdict(self._flags),
                         "settings": {k: _plain(v) for k, v in self._settings.items()},
                         "show_ui": self.show_ui})
        self._close_envs()
        release_gym()
        if self.window:
            pygame.display.quit()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _plain(value):
    """A JSON-friendly copy of a setting value."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return int(value)
    return float(value)


def _check_size(size) -> tuple[int, int]:
    try:
        w, h = size
    except (TypeError, ValueError):
        raise TypeError(f"size must be a (width, height) pair, got {size!r}") from None
    w = _validate.integer(w, "size[0]")
    h = _validate.integer(h, "size[1]")
    if w < 320 or h < 240:
        raise ValueError(f"size must be at least (320, 240) pixels, got {(w, h)}")
    return (w, h)


def _camera_for(Camera, view, size):
    """A camera showing the world rectangle ``view`` (x0, y0, x1, y1, m) whole in ``size``."""
    x0, y0, x1, y1 = view
    scale = min(size[0] / (x1 - x0), size[1] / (y1 - y0))
    return Camera(center=(0.5 * (x0 + x1), 0.5 * (y0 + y1)), scale=scale)
