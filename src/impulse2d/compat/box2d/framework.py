"""pybox2d's testbed framework (``examples/framework.py``'s interface) on the layer, drawn in a
pygame-ce window by impulse2d's testbed drawing (:class:`impulse2d.draw.PygameDraw`).

A pybox2d example program is a ``Framework`` subclass::

    from impulse2d.compat.box2d.framework import Framework, Keys, main

    class Drop(Framework):
        name = "Drop"
        description = "A box falls"

        def __init__(self):
            super().__init__()                      # self.world: a b2World, gravity (0, -10)
            self.world.CreateDynamicBody(position=(0, 10)).CreatePolygonFixture(
                box=(1, 1), density=1)

        def Step(self, settings):
            super().Step(settings)                  # steps the world at settings.hz, draws it
            self.Print("bodies: %d" % self.world.bodyCount)

    main(Drop)

What it keeps of pybox2d's framework: the class attributes ``name`` and ``description``;
``self.world`` (its ``contactListener`` and ``destructionListener`` are the framework);
``self.groundbody``; ``self.settings`` (:class:`fwSettings`: ``hz``, ``velocityIterations``,
``positionIterations``, the ``draw*`` flags, ``pause``, ``singleStep``...); ``Step(settings)``;
``Keyboard(key)`` / ``KeyboardUp(key)`` with ``Keys.K_a``...; ``MouseDown/MouseUp/MouseMove(p)``
(world points) dragging dynamic bodies with a mouse joint; ``ShiftMouseDown(p)`` and the
space bar launching bombs (``LaunchBomb``, ``LaunchRandomBomb``); ``BeginContact``,
``EndContact``, ``PreSolve``, ``PostSolve`` (the world calls them; the base's do nothing);
``FixtureDestroyed``/``JointDestroyed``; ``Print`` and ``DrawStringAt``; ``self.renderer``, a
``b2DrawExtended`` drawing in screen pixels (``renderer.to_screen(p)`` then
``renderer.DrawSegment(...)``, as pybox2d's examples do); ``viewCenter`` and ``viewZoom``;
``ConvertScreenToWorld``; ``self.points`` when ``using_contacts`` is set.

Differences: the world is drawn by impulse2d's debug draw of the engine underneath
(``world.engine``), the testbed's picture, not through ``world.DrawDebugData``; contact points
for ``self.points`` are read from the touching contacts after each step, not collected in
``PreSolve`` (pybox2d's framework overrides ``PreSolve`` for that, which here would switch the
world to its slower two-call step and Box2D v3's continuous rule for every example); the
framework's own keys are F1 (help), F2 (pause), F3 (one step), F5 (restart), Page Up / Page
Down (zoom), Home (reset the view), the space bar (a bomb) and Esc (back to the chooser, or
quit); every other key goes to ``Keyboard``.
"""

from __future__ import annotations

import time

from ..._validate import integer
from .._b2draw import b2Color, b2DrawExtended
from .._b2points import b2Random
from .._b2world import b2AABB, b2ContactListener, b2DestructionListener, b2QueryCallback, b2World
from .._b2math import b2Vec2, vec_tuple
from .._b2joints import b2Joint
from .._b2shapes import b2Fixture

try:
    import pygame
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError("pybox2d's testbed framework needs pygame-ce: "
                      "pip install impulse2d[testbed]") from exc

__all__ = ["Framework", "FrameworkBase", "Keys", "fwSettings", "main"]

SIZE = (1280, 720)          # px: the window
VIEW_HEIGHT = 48.0          # m: what pybox2d's 640 x 480 window shows at its zoom of 10 px/m
BACKGROUND = (18, 20, 25)   # the testbed's
TEXT_COLOR = (229, 153, 153)  # pybox2d's text colour
LINE = 15                   # px between Print lines


class Keys:
    """Key codes for ``Keyboard(key)``: pygame-ce's (``Keys.K_a == pygame.K_a``), as pybox2d's
    pygame backend has them."""


for _name in dir(pygame):
    if _name.startswith("K_"):
        setattr(Keys, _name, getattr(pygame, _name))


class fwSettings:  # noqa: N801
    """The testbed's settings, pybox2d's names and defaults. Each framework gets its own copy
    (``self.settings``); pybox2d shares one class among them."""

    hz = 60.0                  # steps per second of simulated time (the step is 1 / hz)
    velocityIterations = 8
    positionIterations = 3
    enableWarmStarting = True
    enableContinuous = True    # accepted; the layer's continuous collision is always on
    enableSubStepping = False  # accepted; no meaning here (see docs/compat-box2d.md)
    drawStats = False
    drawShapes = True
    drawJoints = True
    drawCoreShapes = False     # accepted; impulse2d's shapes have no core/skin split to show
    drawAABBs = False
    drawOBBs = False           # accepted; Box2D 2.3 draws no OBBs either
    drawPairs = False          # accepted; the engine's pairs are not drawn
    drawContactPoints = False
    maxContactPoints = 100
    drawContactNormals = False
    drawFPS = True
    drawMenu = True
    drawCOMs = False
    pointSize = 2.5
    pause = False
    singleStep = False
    onlyInit = False

    def __init__(self, **changes):
        for name, value in changes.items():
            if not hasattr(fwSettings, name):
                raise TypeError(f"fwSettings has no setting {name!r}")
            setattr(self, name, value)


class _ScreenRenderer(b2DrawExtended):
    """``self.renderer``: a ``b2DrawExtended`` whose ``Draw*`` take screen pixels (pybox2d's
    pygame renderer: the examples convert with ``to_screen`` first) and draw on the
    framework's surface. Its zoom and offset follow the framework's camera each frame."""

    def __init__(self, framework):
        super().__init__(convertVertices=True, flipY=True)
        self._fw = framework

    def _follow(self, camera, size):
        # Camera: px = w/2 + (x - cx) s; py = h/2 - (y - cy) s. pybox2d's conversion:
        # px = x zoom - offset.x; py = h - (y zoom - offset.y) (flipY)
        s = camera.scale
        cx, cy = camera.center
        self.zoom = s
        self.offset = b2Vec2(cx * s - 0.5 * size[0], cy * s - 0.5 * size[1])
        self.screenSize = b2Vec2(*size)

    @staticmethod
    def _rgb(color):
        if isinstance(color, b2Color):
            return tuple(color.bytes)
        c = tuple(color)[:3]
        return tuple(int(255 * v) if isinstance(v, float) and v <= 1.0 else int(v) for v in c)

    def _surface(self):
        return self._fw.screen

    def DrawPoint(self, p, size, color):  # noqa: N802
        x, y = vec_tuple(p, "p")
        pygame.draw.circle(self._surface(), self._rgb(color), (x, y), max(float(size), 1.0))

    def DrawSegment(self, p1, p2, color):  # noqa: N802
        pygame.draw.aaline(self._surface(), self._rgb(color), vec_tuple(p1, "p1"),
                           vec_tuple(p2, "p2"))

    def DrawCircle(self, center, radius, color, drawwidth=1):  # noqa: N802
        pygame.draw.circle(self._surface(), self._rgb(color), vec_tuple(center, "center"),
                           max(float(radius), 1.0), int(drawwidth))

    def DrawSolidCircle(self, center, radius, axis, color):  # noqa: N802
        c = vec_tuple(center, "center")
        rgb = self._rgb(color)
        pygame.draw.circle(self._surface(), tuple(v // 2 for v in rgb), c, max(float(radius), 1.0))
        pygame.draw.circle(self._surface(), rgb, c, max(float(radius), 1.0), 1)
        ax, ay = vec_tuple(axis, "axis")
        pygame.draw.aaline(self._surface(), rgb, c, (c[0] + radius * ax, c[1] - radius * ay))

    def DrawPolygon(self, vertices, color):  # noqa: N802
        pts = [vec_tuple(v, "vertices") for v in vertices]
        if len(pts) >= 2:
            pygame.draw.polygon(self._surface(), self._rgb(color), pts, 1)

    def DrawSolidPolygon(self, vertices, color):  # noqa: N802
        pts = [vec_tuple(v, "vertices") for v in vertices]
        if len(pts) >= 3:
            rgb = self._rgb(color)
            pygame.draw.polygon(self._surface(), tuple(v // 2 for v in rgb), pts)
            pygame.draw.polygon(self._surface(), rgb, pts, 1)

    def DrawTransform(self, xf):  # noqa: N802
        p = xf.position
        o = self.to_screen(p)
        R = xf.R
        x_end = self.to_screen((p[0] + 0.4 * R.col1[0], p[1] + 0.4 * R.col1[1]))
        y_end = self.to_screen((p[0] + 0.4 * R.col2[0], p[1] + 0.4 * R.col2[1]))
        pygame.draw.aaline(self._surface(), (255, 0, 0), o, x_end)
        pygame.draw.aaline(self._surface(), (0, 255, 0), o, y_end)


class _Query(b2QueryCallback):
    """The first dynamic fixture containing ``point`` (what a click grabs)."""

    def __init__(self, point):
        super().__init__()
        self.point = point
        self.fixture = None

    def ReportFixture(self, fixture):  # noqa: N802
        if fixture.body.type == 2 and fixture.TestPoint(self.point):  # b2_dynamicBody
            self.fixture = fixture
            return False
        return True


class _Goodbye(b2DestructionListener):
    """pybox2d's framework listener: tells the framework what the world destroyed with a
    body (``JointDestroyed``, ``FixtureDestroyed``)."""

    def __init__(self, framework):
        super().__init__()
        self.fw = framework

    def SayGoodbye(self, obj):  # noqa: N802
        if isinstance(obj, b2Joint):
            if obj is self.fw.mouseJoint:
                self.fw.mouseJoint = None
            else:
                self.fw.JointDestroyed(obj)
        elif isinstance(obj, b2Fixture):
            self.fw.FixtureDestroyed(obj)


class FrameworkBase(b2ContactListener):
    """pybox2d's framework without a window: the world, the step, the mouse joint, bombs, the
    text lines. :class:`Framework` adds the pygame-ce window."""

    name = "None"
    description = None
    TEXTLINE_START = 30
    colors = {
        "mouse_point": b2Color(0, 1, 0),
        "bomb_center": b2Color(0, 0, 1.0),
        "bomb_line": b2Color(0, 1.0, 1.0),
        "joint_line": b2Color(0.8, 0.8, 0.8),
        "contact_add": b2Color(0.3, 0.95, 0.3),
        "contact_persist": b2Color(0.3, 0.3, 0.95),
        "contact_normal": b2Color(0.4, 0.9, 0.4),
    }

    def __init__(self):
        super().__init__()
        self.world = b2World(gravity=(0, -10), doSleep=True)
        self.destructionListener = _Goodbye(self)
        self.world.destructionListener = self.destructionListener
        self.world.contactListener = self
        self.groundbody = self.world.CreateBody()
        self.settings = fwSettings()
        self.mouseJoint = None
        self.mouseWorld = None
        self.bomb = None
        self.bombSpawning = False
        self.bombSpawnPoint = None
        self.using_contacts = False
        self.points: list[dict] = []
        self._touching_before: set = set()
        self.stepCount = 0
        self.textLine = self.TEXTLINE_START
        self.t_steps = [0.0]  # s per world Step, the last few (drawStats)

    # -- the step ------------------------------------------------------------------------------
    def Step(self, settings):  # noqa: N802
        """One frame: the world stepped by ``1 / settings.hz`` (none when paused, unless
        ``singleStep``) with the settings' iterations, then the frame drawn."""
        hz = float(settings.hz)
        dt = 1.0 / hz if hz > 0.0 else 0.0
        if settings.pause:
            if settings.singleStep:
                settings.singleStep = False
            else:
                dt = 0.0
        self.world.warmStarting = bool(settings.enableWarmStarting)
        self.world.continuousPhysics = bool(settings.enableContinuous)
        self.world.subStepping = bool(settings.enableSubStepping)
        if dt > 0.0:
            t0 = time.perf_counter()
            self.world.Step(dt, int(settings.velocityIterations),
                            int(settings.positionIterations))
            self.t_steps = (self.t_steps + [time.perf_counter() - t0])[-60:]
            self.stepCount += 1
            if self.using_contacts:
                self._collect_points(settings)
        self._draw_frame(settings)

    def _collect_points(self, settings):
        """``self.points``: one dict per touching manifold point after the step
        (``fixtureA``, ``fixtureB``, ``position``, ``normal``, ``state``: ``b2_addState`` for a
        pair that began touching in this step, else ``b2_persistState``), at most
        ``settings.maxContactPoints``."""
        from .. import _b2points
        points = []
        now = set()
        for c in self.world.contacts:
            if not c.touching:
                continue
            key = (id(c.fixtureA), id(c.fixtureB))
            now.add(key)
            state = (_b2points.b2_persistState if key in self._touching_before
                     else _b2points.b2_addState)
            m = c.worldManifold
            for p in m.points:
                if len(points) < int(settings.maxContactPoints):
                    points.append({"fixtureA": c.fixtureA, "fixtureB": c.fixtureB,
                                   "position": b2Vec2(*p), "normal": b2Vec2(*m.normal),
                                   "state": state})
        self._touching_before = now
        self.points = points

    def _draw_frame(self, settings):
        """Draw the world and the framework's overlays (the window's job)."""

    # -- text ----------------------------------------------------------------------------------
    def Print(self, str, color=TEXT_COLOR):  # noqa: N802, A002  (pybox2d's names)
        """A line of text under the previous one (top-left of the window)."""
        self.DrawStringAt(5, self.textLine, str, color)
        self.textLine += LINE

    def DrawStringAt(self, x, y, str, color=TEXT_COLOR):  # noqa: N802, A002
        """Text at pixel ``(x, y)`` (the window draws it)."""

    # -- keys and mouse ------------------------------------------------------------------------
    def Keyboard(self, key):  # noqa: N802
        """A key went down (``Keys.K_...``); the base does nothing."""

    def KeyboardUp(self, key):  # noqa: N802
        """A key went up; the base does nothing."""

    def MouseDown(self, p):  # noqa: N802
        """Grab the dynamic body under world point ``p`` with a mouse joint (pybox2d's
        ``maxForce`` of 1000 times the body's mass)."""
        p = b2Vec2(*vec_tuple(p, "p"))
        if self.mouseJoint is not None:
            return
        d = 0.001
        query = _Query(p)
        self.world.QueryAABB(query, b2AABB(lowerBound=(p[0] - d, p[1] - d),
                                           upperBound=(p[0] + d, p[1] + d)))
        if query.fixture is None:
            return
        body = query.fixture.body
        self.mouseJoint = self.world.CreateMouseJoint(bodyA=self.groundbody, bodyB=body,
                                                      target=p, maxForce=1000.0 * body.mass)
        body.awake = True

    def ShiftMouseDown(self, p):  # noqa: N802
        """Start aiming a bomb from ``p`` (released by :meth:`MouseUp`)."""
        self.mouseWorld = b2Vec2(*vec_tuple(p, "p"))
        if not self.mouseJoint:
            self.bombSpawnPoint = b2Vec2(*self.mouseWorld)
            self.bombSpawning = True

    def MouseUp(self, p):  # noqa: N802
        """Let go of the dragged body, or launch the aimed bomb (speed 30 1/s times the
        pull-back, pybox2d's multiplier)."""
        if self.mouseJoint is not None:
            self.world.DestroyJoint(self.mouseJoint)
            self.mouseJoint = None
        if self.bombSpawning:
            p = b2Vec2(*vec_tuple(p, "p"))
            self.LaunchBomb(self.bombSpawnPoint, 30.0 * (self.bombSpawnPoint - p))
            self.bombSpawning = False

    def MouseMove(self, p):  # noqa: N802
        """The mouse is at world point ``p``: the dragged body's target follows it."""
        self.mouseWorld = b2Vec2(*vec_tuple(p, "p"))
        if self.mouseJoint is not None:
            self.mouseJoint.target = self.mouseWorld

    # -- bombs ---------------------------------------------------------------------------------
    def LaunchBomb(self, position, velocity):  # noqa: N802
        """A heavy ball (radius 0.3 m, density 20) at ``position`` with ``velocity``; the
        previous bomb goes."""
        if self.bomb is not None:
            self.world.DestroyBody(self.bomb)
            self.bomb = None
        self.bomb = self.world.CreateDynamicBody(
            allowSleep=True, position=position, linearVelocity=velocity, bullet=True)
        self.bomb.CreateCircleFixture(radius=0.3, density=20, restitution=0.1)

    def LaunchRandomBomb(self):  # noqa: N802
        """A bomb from a random point 30 m up, thrown down toward the middle."""
        p = b2Vec2(b2Random(-15.0, 15.0), 30.0)
        self.LaunchBomb(p, -5.0 * p)

    # -- destruction ---------------------------------------------------------------------------
    def FixtureDestroyed(self, fixture):  # noqa: N802
        """A fixture went with its body; the base does nothing."""

    def JointDestroyed(self, joint):  # noqa: N802
        """A joint went with one of its bodies; the base does nothing."""


class Framework(FrameworkBase):
    """:class:`FrameworkBase` in a pygame-ce window (or, headless, an off-screen surface):
    ``run()`` until the window closes, ``run(frames=n)`` for ``n`` frames, ``screenshot``."""

    def __init__(self):
        super().__init__()
        pygame.display.init()  # (not pygame.init(): no audio wanted)
        pygame.font.init()
        self.screen = pygame.display.get_surface() or pygame.Surface(SIZE)
        self.font = pygame.font.Font(None, 17)
        from ...draw import Camera, Flags, PygameDraw
        self._Flags = Flags
        self.camera = Camera(center=(0.0, 20.0), scale=self.screen.get_height() / VIEW_HEIGHT)
        self.drawer = PygameDraw(self.screen, camera=self.camera)
        self.renderer = _ScreenRenderer(self)
        self.show_help = False
        self.drawing = True   # False: Step only steps (the testbed's panes draw the world)
        self._running = True
        self._pan_from = None
        self._fps = 0.0
        self._frame_t = time.perf_counter()

    # -- the view (pybox2d's names) ------------------------------------------------------------
    @property
    def viewCenter(self):  # noqa: N802
        """The world point at the middle of the window, m."""
        return b2Vec2(*self.camera.center)

    @viewCenter.setter
    def viewCenter(self, value):  # noqa: N802
        self.camera.center = vec_tuple(value, "viewCenter")

    @property
    def viewZoom(self):  # noqa: N802
        """pybox2d's zoom: 10 shows 48 m of height (pybox2d's 480 px window at 10 px/m)."""
        return 10.0 * self.camera.scale * VIEW_HEIGHT / self.screen.get_height()

    @viewZoom.setter
    def viewZoom(self, zoom):  # noqa: N802
        self.camera.scale = float(zoom) / 10.0 * self.screen.get_height() / VIEW_HEIGHT

    def ConvertScreenToWorld(self, x, y):  # noqa: N802
        """The world point under pixel ``(x, y)``."""
        p = self.camera.to_world((float(x), float(y)), self.screen.get_size())
        return b2Vec2(float(p[0]), float(p[1]))

    # -- drawing -------------------------------------------------------------------------------
    def _draw_frame(self, settings):
        if not self.drawing:
            return
        s = settings
        self.drawer.surface = self.screen
        self.drawer.flags = self._Flags(
            shapes=bool(s.drawShapes), joints=bool(s.drawJoints), aabbs=bool(s.drawAABBs),
            contacts=bool(s.drawContactPoints), normals=bool(s.drawContactNormals),
            centers=bool(s.drawCOMs))
        self.renderer._follow(self.camera, self.screen.get_size())
        self.drawer.draw(self.world.engine)
        r = self.renderer
        if self.mouseJoint is not None:
            a = r.to_screen(self.mouseJoint.anchorB)
            b = r.to_screen(self.mouseJoint.target)
            r.DrawPoint(b, s.pointSize, self.colors["mouse_point"])
            r.DrawSegment(a, b, self.colors["joint_line"])
        if self.bombSpawning and self.mouseWorld is not None:
            a = r.to_screen(self.bombSpawnPoint)
            r.DrawPoint(a, s.pointSize, self.colors["bomb_center"])
            r.DrawSegment(a, r.to_screen(self.mouseWorld), self.colors["bomb_line"])
        if s.drawMenu:
            paused = "  PAUSED" if s.pause else ""
            self.Print(f"{self.name}  (F1: keys){paused}", (255, 255, 255))
            if self.description:
                for line in str(self.description).splitlines():
                    self.Print(line, (200, 200, 200))
        if s.drawStats:
            w = self.world
            self.Print(f"bodies {w.bodyCount}  contacts {len(w.contacts)}  joints "
                       f"{w.jointCount}  step {1000.0 * sum(self.t_steps) / len(self.t_steps):.2f}"
                       " ms")
        if s.drawFPS:
            self.DrawStringAt(self.screen.get_width() - 80, 5, f"{self._fps:.0f} fps")
        if self.show_help:
            for k, line in enumerate(HELP):
                self.DrawStringAt(self.screen.get_width() // 2 - 150, 80 + LINE * k, line,
                                  (255, 230, 160))

    def DrawStringAt(self, x, y, str, color=TEXT_COLOR):  # noqa: N802, A002
        if not self.drawing:
            return
        rgb = _ScreenRenderer._rgb(color)
        self.screen.blit(self.font.render(f"{str}", True, rgb[:3]), (int(x), int(y)))

    # -- the loop ------------------------------------------------------------------------------
    def frame(self, events=()):
        """One frame: ``events`` (pygame events) handled, the screen cleared, ``Step``."""
        for event in events:
            self._handle(event)
        self.screen.fill(BACKGROUND)
        self.textLine = self.TEXTLINE_START
        self.Step(self.settings)
        now = time.perf_counter()
        dt = now - self._frame_t
        self._frame_t = now
        if dt > 0.0:
            self._fps = 0.9 * self._fps + 0.1 / dt if self._fps else 1.0 / dt

    def run(self, frames=None, window=True):
        """Run the example: ``frames`` frames (None: until the window closes or Esc), in a
        window paced at ``settings.hz``, or off-screen (``window=False``, as fast as it
        steps). Returns whether the user asked to quit (the window's close box) rather than
        leave the example (Esc)."""
        if frames is not None:
            frames = integer(frames, "frames")
            if frames < 0:
                raise ValueError(f"frames must be >= 0, got {frames}")
        if window:
            self._open_window()
        clock = pygame.time.Clock()
        self._running = True
        self.quit_all = False
        k = 0
        while self._running and (frames is None or k < frames):
            self.frame(pygame.event.get() if window else ())
            if window:
                pygame.display.flip()
                if frames is None:
                    clock.tick(max(int(self.settings.hz), 1))
            k += 1
        return self.quit_all

    def _open_window(self):
        if pygame.display.get_surface() is None:
            pygame.display.set_mode(SIZE)
        pygame.display.set_caption(f"impulse2d: pybox2d example {self.name}")
        self.screen = pygame.display.get_surface()

    def screenshot(self, path):
        """The last frame as a PNG at ``path``."""
        pygame.image.save(self.screen, str(path))

    def _handle(self, event):
        size = self.screen.get_size()
        if event.type == pygame.QUIT:
            self._running = False
            self.quit_all = True
        elif event.type == pygame.KEYDOWN:
            key = event.key
            if key == pygame.K_ESCAPE:
                self._running = False
            elif key == pygame.K_F1:
                self.show_help = not self.show_help
            elif key == pygame.K_F2:
                self.settings.pause = not self.settings.pause
            elif key == pygame.K_F3:
                self.settings.pause = True
                self.settings.singleStep = True
            elif key == pygame.K_F5:
                self._restart = True
                self._running = False
            elif key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
                self.camera.zoom_at((size[0] / 2, size[1] / 2),
                                    1.1 if key == pygame.K_PAGEUP else 1 / 1.1, size)
            elif key == pygame.K_HOME:
                self.camera.center = (0.0, 20.0)
                self.camera.scale = size[1] / VIEW_HEIGHT
            elif key == pygame.K_SPACE:
                self.LaunchRandomBomb()
            else:
                self.Keyboard(key)
        elif event.type == pygame.KEYUP:
            self.KeyboardUp(event.key)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            p = self.ConvertScreenToWorld(*event.pos)
            if event.button == 3:
                self._pan_from = event.pos
            elif pygame.key.get_mods() & pygame.KMOD_SHIFT:
                self.ShiftMouseDown(p)
            else:
                self.MouseDown(p)
        elif event.type == pygame.MOUSEBUTTONUP and event.button in (1, 3):
            if event.button == 3:
                self._pan_from = None
            else:
                self.MouseUp(self.ConvertScreenToWorld(*event.pos))
        elif event.type == pygame.MOUSEMOTION:
            if self._pan_from is not None:
                self.camera.pan(event.pos[0] - self._pan_from[0],
                                event.pos[1] - self._pan_from[1])
                self._pan_from = event.pos
            self.MouseMove(self.ConvertScreenToWorld(*event.pos))
        elif event.type == pygame.MOUSEWHEEL:
            self.camera.zoom_at(pygame.mouse.get_pos(), 1.1 ** event.y, size)


HELP = (
    "F1 this help    F2 pause    F3 one step    F5 restart",
    "Page Up / Down zoom    Home reset the view    right drag pan, wheel zoom",
    "left drag: drag a body    Shift + left drag: aim and launch a bomb",
    "Space: a random bomb    Esc: back to the list (or quit)",
    "other keys: the example's own (see its text)",
)


def main(test_class, frames=None, window=True, out=None):
    """Run ``test_class`` (a :class:`Framework` subclass), pybox2d's ``framework.main``: in a
    window until closed, or ``frames`` frames; ``out``: a PNG of the last frame. F5 restarts
    it. Returns the example object."""
    while True:
        fw = test_class()
        fw._restart = False
        fw.run(frames, window=window)
        if not fw._restart:
            break
    if out is not None:
        fw.screenshot(out)
    return fw
