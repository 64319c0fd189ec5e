"""The testbed's keyboard and mouse: pygame events turned into the Testbed's own calls (so a
key does exactly what the scripted method of the same name does, and is logged for replays
the same way). The table of keys is :mod:`.keys`."""

from __future__ import annotations

import time

import pygame

from .keys import FLAG_KEYS
from .solver_panel import CONTROLS, step_value

__all__ = ["handle"]

ZOOM_STEP = 1.1   # per wheel notch

_CONTROL_KEYS = {c.key: c for c in CONTROLS}


def handle(tb, events) -> None:
    for event in events:
        if event.type == pygame.QUIT:
            tb.quit()
        elif event.type == pygame.KEYDOWN:
            _key(tb, event)
        elif event.type == pygame.TEXTINPUT and tb.search is not None:
            swallow, tb._swallow_text = tb._swallow_text, None
            if swallow == event.text:
                continue   # the "/" that opened the search box arrives as text too
            tb.search += event.text
            tb.list_offset = 0
        elif event.type == pygame.MOUSEBUTTONDOWN:
            _button_down(tb, event)
        elif event.type == pygame.MOUSEBUTTONUP:
            _button_up(tb, event)
        elif event.type == pygame.MOUSEMOTION:
            _motion(tb, event)
        elif event.type == pygame.MOUSEWHEEL:
            _wheel(tb, event)


def _key(tb, event) -> None:
    key, mods = event.key, event.mod
    shift = bool(mods & pygame.KMOD_SHIFT)
    ctrl = bool(mods & pygame.KMOD_CTRL)
    if tb.search is not None:  # typing into the scene browser's search box
        if key == pygame.K_ESCAPE:
            tb.search = None
        elif key == pygame.K_BACKSPACE:
            tb.search = tb.search[:-1]
        elif key == pygame.K_RETURN:
            shown = tb.panels.visible_entries()
            tb.search = None
            if shown:
                tb.open(shown[0].name)
        return
    name = pygame.key.name(key)
    if key == pygame.K_ESCAPE:
        if tb.show_help:
            tb.show_help = False
        else:
            tb.quit()
    elif key == pygame.K_F1:
        tb.show_help = not tb.show_help
    elif key in (pygame.K_SPACE, pygame.K_p):
        tb.resume() if tb.paused else tb.pause()
    elif key == pygame.K_o:
        tb.single_step()
    elif key == pygame.K_r:
        tb.restart()
    elif key == pygame.K_PAGEUP:
        tb.next_scene(-1)
    elif key == pygame.K_PAGEDOWN:
        tb.next_scene(1)
    elif key == pygame.K_SLASH or (ctrl and key == pygame.K_f):
        tb.search = ""
        if key == pygame.K_SLASH:
            tb._swallow_text = "/"
    elif key in (pygame.K_HOME, pygame.K_f):
        tb.fit()
    elif key == pygame.K_TAB:
        tb.show_panels(not tb.show_ui)
    elif key == pygame.K_b:
        _side_by_side_key(tb, shift)
    elif key == pygame.K_v:
        if tb.recording:
            tb._stop_recording()
        else:
            tb.start_recording(f"testbed-{tb.scene}-{time.strftime('%Y%m%d-%H%M%S')}.mp4")
    elif key == pygame.K_F12:
        tb.screenshot(f"testbed-{tb.scene}-{time.strftime('%Y%m%d-%H%M%S')}.png")
    elif name in FLAG_KEYS:
        tb.toggle_flag(FLAG_KEYS[name])
    elif name in _CONTROL_KEYS:
        ctrl_ = _CONTROL_KEYS[name]
        tb.configure(**{ctrl_.name: step_value(ctrl_, tb.settings[ctrl_.name],
                                               -1 if shift else 1)})


def _side_by_side_key(tb, shift: bool) -> None:
    from ..settings import SOLVERS
    from .app import MAX_PANES
    if not shift:
        tb.side_by_side(None if tb.solvers else ["soft_step", "pgs"])
        return
    solvers = list(tb.solvers or [tb.settings["solver"]])
    if len(solvers) >= MAX_PANES:
        return
    solvers.append(next(s for s in SOLVERS if s not in solvers))
    tb.side_by_side(solvers)


def _button_down(tb, event) -> None:
    if event.button == 1 and tb.show_ui and tb.panels.click(event.pos):
        return
    pane, point = tb.to_world(event.pos)
    mods = pygame.key.get_mods()
    if event.button == 3:
        tb._pan_from = event.pos
        return
    if point is None:
        return
    if event.button == 2 or (event.button == 1 and mods & pygame.KMOD_CTRL):
        tb.inspect(point)
    elif event.button == 1 and mods & pygame.KMOD_SHIFT:
        tb._launch_from = point
    elif event.button == 1:
        from .mouse import pick_body
        if pick_body(tb.world, point) is not None:
            tb._do(["drag_begin", list(point)])


def _button_up(tb, event) -> None:
    if event.button == 3:
        tb._pan_from = None
    elif event.button == 1:
        if tb.mouse.active:
            tb._do(["drag_end"])
        if tb._launch_from is not None:
            start, tb._launch_from = tb._launch_from, None
            _, end = tb.to_world(event.pos)
            if end is not None:
                from .app import LAUNCH_GAIN
                velocity = [LAUNCH_GAIN * (start[0] - end[0]), LAUNCH_GAIN * (start[1] - end[1])]
                tb.launch(start, velocity)


def _motion(tb, event) -> None:
    if tb._pan_from is not None:
        dx, dy = event.pos[0] - tb._pan_from[0], event.pos[1] - tb._pan_from[1]
        tb._pan_from = event.pos
        cam = tb.camera
        cam.pan(dx, dy)
        tb._do(["camera", [float(c) for c in cam.center], float(cam.scale)])
    elif tb.mouse.active:
        _, point = tb.to_world(event.pos)
        if point is not None:
            tb._do(["drag_move", list(point)])


def _wheel(tb, event) -> None:
    pos = pygame.mouse.get_pos()
    if tb.show_ui and pos[0] < tb.pane_rects()[0].x:
        tb.list_offset = max(0, tb.list_offset - 3 * event.y)  # scroll the scene list
        return
    for rect in tb.pane_rects():
        if rect.collidepoint(pos):
            cam = tb.camera
            cam.zoom_at((pos[0] - rect.x, pos[1] - rect.y), ZOOM_STEP ** event.y, rect.size)
            tb._do(["camera", [float(c) for c in cam.center], float(cam.scale)])
            return
