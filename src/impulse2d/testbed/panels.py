"""What the testbed draws around and over the worlds: the panes (through
:class:`impulse2d.draw.PygameDraw`) with their overlays, the left panel (scene browser, solver
panel, draw flags), the right panel (counters, the profile and solver health charts,
divergence, the inspector) and the help overlay. Every clickable thing registers a hit box
with the action a click takes."""

from __future__ import annotations

import dataclasses

import pygame

from ..types import BodyType
from . import inspector
from .charts import Series, draw_chart
from .keys import FLAG_KEYS, HELP
from .solver_panel import CONTROLS, step_value

__all__ = ["Panels", "PANE_COLORS"]

TEXT = (214, 218, 226)
DIM = (130, 135, 148)
ACCENT = (255, 196, 64)
PANEL_BG = (30, 33, 40)
ROW = 16  # px per line of text

# one colour per pane, for the charts and the pane labels
PANE_COLORS = ((102, 204, 255), (255, 140, 90), (140, 230, 120), (220, 130, 240))
STAGES = ("pairs", "collide", "prepare", "solve", "finalize", "continuous")
STAGE_COLORS = ((120, 170, 255), (110, 220, 160), (240, 200, 90), (250, 120, 100),
                (190, 140, 250), (160, 160, 160))
COUNTER_EVERY = 30  # frames between counter updates (they walk every body): twice a second


class Panels:
    def __init__(self, tb):
        self.tb = tb
        self.hits: list = []   # (pygame.Rect, callable) of the last drawing
        self._texts: dict = {}  # (text, colour) -> rendered surface
        self._listed_for = None  # the scene the browser list last scrolled to
        self.reset()

    # -- live data -------------------------------------------------------------------------
    def reset(self) -> None:
        n = len(self.tb.panes) if getattr(self.tb, "panes", None) else 1
        self.profile = [Series(s, c) for s, c in zip(STAGES, STAGE_COLORS)]
        self.residual = [Series(f"pane {k}", PANE_COLORS[k], history=None) for k in range(n)]
        self.energy = [Series(f"pane {k}", PANE_COLORS[k]) for k in range(n)]
        self.penetration = [Series(f"pane {k}", PANE_COLORS[k]) for k in range(n)]
        self.drift = [Series(f"pane {k}", PANE_COLORS[k]) for k in range(n)]
        self.divergence = Series("divergence", ACCENT)
        self.counters: dict = {}
        self._since_counters = COUNTER_EVERY
        self.last_divergence = None

    def sample(self) -> None:
        """Read the last step of every pane into the charts."""
        tb = self.tb
        if len(self.energy) != len(tb.panes):
            self.reset()
        profile = tb.world.profile
        for series in self.profile:
            series.add(getattr(profile, series.name))
        for k, pane in enumerate(tb.panes):
            stats = pane.world.solver_stats
            self.residual[k].clear()
            if stats is None:
                for s in (self.energy, self.penetration, self.drift):
                    s[k].add(None)
                continue
            for r in stats.residuals:
                self.residual[k].add(r)
            self.energy[k].add(stats.kinetic_energy)
            self.penetration[k].add(stats.max_penetration)
            self.drift[k].add(stats.max_joint_error)
        # side by side: measured once a frame (it walks every body of every pane)
        self.last_divergence = tb.divergence if len(tb.panes) > 1 else None
        if self.last_divergence is not None:
            self.divergence.add(self.last_divergence.position)
        self._since_counters += 1

    def _update_counters(self) -> None:
        world = self.tb.world
        bodies = world.bodies
        self.counters = {
            "bodies": len(bodies),
            "awake": sum(1 for b in bodies if b.is_awake and b.type != BodyType.STATIC),
            "contacts": len(world.contacts),
            "joints": len(world.joints),
            "islands": len(world.islands),
        }
        self._since_counters = 0

    # -- the panes -------------------------------------------------------------------------
    def draw_panes(self) -> None:
        from ..draw import PygameDraw
        tb = self.tb
        screen = tb.screen
        for k, (pane, rect) in enumerate(zip(tb.panes, tb.pane_rects())):
            sub = screen.subsurface(rect)
            sub.fill((18, 20, 25))
            PygameDraw(sub, camera=tb.camera, flags=tb.flags).draw(pane.world)
            self._overlays(sub, k, pane, rect.size)
            if len(tb.panes) > 1:
                pygame.draw.rect(sub, (60, 64, 76), sub.get_rect(), 1)

    def _overlays(self, sub, k, pane, size) -> None:
        tb = self.tb
        cam = tb.camera
        for world, joint in tb.mouse.joints:
            if world is pane.world:
                a = cam.to_screen(joint.world_anchor_b, size)
                b = cam.to_screen(joint.target, size)
                pygame.draw.line(sub, (240, 240, 240), a, b, 1)
                pygame.draw.circle(sub, (240, 240, 240), (round(b[0]), round(b[1])), 4, 1)
        sel = tb.selection
        if sel is not None and k == 0:
            p = cam.to_screen(sel.point, size)
            pygame.draw.circle(sub, ACCENT, (round(p[0]), round(p[1])), 9, 2)
        lines = []
        if len(tb.panes) > 1:
            lines.append((f"{pane.world.settings.solver}", PANE_COLORS[k]))
            div = self.last_divergence
            if div is None or len(div.energies) != len(tb.panes):   # panes changed since
                div = self.last_divergence = tb.divergence
            if k == 0:
                lines.append((f"divergence {div.position:.4g} m", ACCENT))
            lines.append((f"kinetic energy {div.energies[k]:.4g} J", PANE_COLORS[k]))
        if k == 0:
            title = f"{pane.entry.label}  step {pane.steps}"
            if tb.paused:
                title += "  PAUSED"
            lines.insert(0, (title, TEXT))
        y = 4
        for text, color in lines:
            # on a plate of the panels' colour: the scene's own shapes (a container's wall, a
            # light ground) may lie under the text, and light text on them is unreadable
            surface = self.render(text, color)
            sub.fill(PANEL_BG, surface.get_rect(topleft=(6, y)).inflate(4, 0))
            sub.blit(surface, (6, y))
            y += ROW

    # -- the panels ------------------------------------------------------------------------
    def _text(self, text, pos, color=TEXT):
        self.tb.screen.blit(self.render(text, color), pos)

    def render(self, text, color=TEXT):
        """The text's surface, from a cache: most of the panels' text is the same frame after
        frame, and rendering a line costs about 0.1 ms."""
        key = (text, color)
        surface = self._texts.get(key)
        if surface is None:
            if len(self._texts) > 2000:   # numbers change: keep the cache bounded
                self._texts.clear()
            surface = self._texts[key] = self.tb.font.render(text, True, color)
        return surface

    def _hit(self, rect, fn) -> None:
        self.hits.append((pygame.Rect(rect), fn))

    def draw_ui(self) -> None:
        from .app import LEFT_PANEL, RIGHT_PANEL
        tb = self.tb
        w, h = tb.size
        self.hits = []
        pygame.draw.rect(tb.screen, PANEL_BG, (0, 0, LEFT_PANEL, h))
        pygame.draw.rect(tb.screen, PANEL_BG, (w - RIGHT_PANEL, 0, RIGHT_PANEL, h))
        self._left(pygame.Rect(0, 0, LEFT_PANEL, h))
        self._right(pygame.Rect(w - RIGHT_PANEL, 0, RIGHT_PANEL, h))

    def visible_entries(self):
        from . import catalog
        tb = self.tb
        return catalog.matching(tb.search, tb.entries) if tb.search else tb.entries

    def _left(self, rect) -> None:
        tb = self.tb
        x, y = rect.x + 8, 6
        self._text("impulse2d testbed  (F1: help)", (x, y), ACCENT)
        y += ROW + 4
        query = tb.search
        box = pygame.Rect(x, y, rect.w - 16, ROW + 2)
        pygame.draw.rect(tb.screen, (20, 22, 28), box)
        pygame.draw.rect(tb.screen, ACCENT if query is not None else (70, 74, 86), box, 1)
        self._text(f"search: {query}_" if query is not None else "search (/)", (x + 4, y + 1),
                   TEXT if query is not None else DIM)
        self._hit(box, lambda: setattr(tb, "search", ""))
        y += ROW + 6
        shown = self.visible_entries()
        rows = 16
        if tb.entry is not self._listed_for and tb.entry in shown and tb.search is None:
            # a scene just opened: bring it into the list's view (after that the wheel scrolls
            # freely)
            self._listed_for = tb.entry
            current = shown.index(tb.entry)
            if not tb.list_offset <= current < tb.list_offset + rows:
                tb.list_offset = max(0, current - rows // 2)
        tb.list_offset = max(0, min(tb.list_offset, max(len(shown) - rows, 0)))
        group = None
        for entry in shown[tb.list_offset:tb.list_offset + rows]:
            color = ACCENT if entry is tb.entry else TEXT
            if entry.group != group:
                group = entry.group
                self._text(group, (x + 130, y), DIM)
            self._text(entry.name, (x + 4, y), color)
            self._hit((x, y, rect.w - 16, ROW), lambda e=entry: tb.open(e.name))
            y += ROW
        y = max(y, 46 + rows * ROW) + 8
        self._text("solver", (x, y), ACCENT)
        y += ROW
        solver = tb.settings["solver"]
        for ctrl in CONTROLS:
            value = tb.settings[ctrl.name]
            active = not ctrl.applies or solver in ctrl.applies
            shown_value = ("on" if value else "off") if isinstance(value, bool) else f"{value:g}" \
                if isinstance(value, float) else str(value)
            self._text(f"{ctrl.label}", (x + 4, y), TEXT if active else DIM)
            self._text(f"< {shown_value} >", (x + 130, y), TEXT if active else DIM)
            self._hit((x + 130, y, 16, ROW), lambda c=ctrl: tb.configure(
                **{c.name: step_value(c, tb.settings[c.name], -1)}))
            self._hit((x + 146, y, rect.w - 162, ROW), lambda c=ctrl: tb.configure(
                **{c.name: step_value(c, tb.settings[c.name], 1)}))
            y += ROW
        y += 8
        self._text("draw flags", (x, y), ACCENT)
        y += ROW
        flags = {k: v for k, v in dataclasses.asdict(tb.flags).items() if isinstance(v, bool)}
        keys = {v: k for k, v in FLAG_KEYS.items()}
        for n, (name, on) in enumerate(flags.items()):
            cx, cy = x + 4 + (n % 2) * 112, y + (n // 2) * ROW
            pygame.draw.rect(tb.screen, ACCENT if on else (70, 74, 86), (cx, cy + 3, 10, 10),
                             0 if on else 1)
            self._text(f"{keys.get(name, '')} {name}", (cx + 14, cy), TEXT if on else DIM)
            self._hit((cx, cy, 108, ROW), lambda f=name: tb.toggle_flag(f))

    def _right(self, rect) -> None:
        tb = self.tb
        x, y = rect.x + 8, 6
        if self._since_counters >= COUNTER_EVERY or not self.counters:
            self._update_counters()
        c = self.counters
        fps = tb.clock.get_fps()
        self._text(f"bodies {c['bodies']}  awake {c['awake']}  joints {c['joints']}", (x, y))
        y += ROW
        self._text(f"contacts {c['contacts']}  islands {c['islands']}"
                   f"{'  fps %.0f' % fps if fps else ''}", (x, y))
        y += ROW
        stats = tb.world.solver_stats
        if stats is not None:
            self._text(f"{stats.solver}: {stats.iterations} iterations", (x, y), DIM)
        y += ROW
        if tb.recording:
            self._text("REC", (rect.right - 40, 6), (255, 80, 80))
        cw = rect.w - 16
        charts = (("step ms", self.profile, dict(scale=1e3, stacked=True), 74),
                  ("residual/iteration", self.residual, dict(log=True), 64),
                  ("kinetic energy J", self.energy, {}, 60),
                  ("penetration m", self.penetration, {}, 60),
                  ("joint drift m", self.drift, {}, 60))
        for title, series, kw, ch in charts:
            draw_chart(tb.screen, (x, y, cw, ch), title, series, self, **kw)
            y += ch + 4
        if len(tb.panes) > 1:
            draw_chart(tb.screen, (x, y, cw, 50), "divergence m", [self.divergence], self)
            y += 54
        self._text("inspector", (x, y), ACCENT)
        y += ROW
        for line in inspector.describe(tb.world, tb.selection):
            if y > rect.bottom - ROW:
                break
            self._text(line, (x, y))
            y += ROW

    def draw_help(self) -> None:
        tb = self.tb
        w = 470
        h = (len(HELP) + 2) * ROW + 8
        box = pygame.Surface((w, h), pygame.SRCALPHA)
        box.fill((10, 12, 16, 225))
        left = (tb.size[0] - w) // 2
        top = max((tb.size[1] - h) // 2, 0)
        tb.screen.blit(box, (left, top))
        self._text("keys and mouse (F1 closes)", (left + 10, top + 6), ACCENT)
        for k, (key, what) in enumerate(HELP):
            self._text(key, (left + 10, top + 6 + (k + 1) * ROW + 4), ACCENT)
            self._text(what, (left + 150, top + 6 + (k + 1) * ROW + 4))

    def click(self, pos) -> bool:
        """Run the hit box under ``pos``; whether there was one."""
        for rect, fn in self.hits:
            if rect.collidepoint(pos):
                fn()
                return True
        return False

    def handle_events(self, events) -> None:
        from .controls import handle
        handle(self.tb, events)
