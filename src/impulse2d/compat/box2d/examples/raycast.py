import math

from .. import b2RayCastCallback
from ..framework import Framework, main
from ._ground import flat_ground

LENGTH = 11.0   # m: the ray


class Closest(b2RayCastCallback):
    """The nearest fixture along the ray (clip at each hit)."""

    def __init__(self):
        super().__init__()
        self.hit = False
        self.fixture = self.point = self.normal = None

    def ReportFixture(self, fixture, point, normal, fraction):
        self.hit = True
        self.fixture, self.point, self.normal = fixture, point, normal
        return fraction


class Raycast(Framework):
    name = "Ray cast"
    description = "A ray turns about (0, 10) and stops at the nearest shape"

    def __init__(self):
        super().__init__()
        flat_ground(self.world)
        self.shapes = []
        for k, x in enumerate((-6.0, -2.0, 2.0, 6.0)):
            body = self.world.CreateStaticBody(position=(x, 3.0))
            if k % 2:
                body.CreateCircleFixture(radius=1.0)
            else:
                body.CreatePolygonFixture(box=(1.0, 1.0))
            self.shapes.append(body)
        self.angle = 0.0
        self.origin = (0.0, 10.0)
        self.callback = None

    def cast(self, angle):
        """The ray from ``origin`` at ``angle`` (rad): the Closest callback after it."""
        p1 = self.origin
        p2 = (p1[0] + LENGTH * math.cos(angle), p1[1] + LENGTH * math.sin(angle))
        callback = Closest()
        self.world.RayCast(callback, p1, p2)
        return callback, p2

    def Step(self, settings):
        super().Step(settings)
        self.callback, p2 = self.cast(self.angle)
        r = self.renderer
        c = self.callback
        if c.hit:
            r.DrawPoint(r.to_screen(c.point), 5.0, (102, 230, 102))
            r.DrawSegment(r.to_screen(self.origin), r.to_screen(c.point), (204, 204, 204))
            tip = c.point + 0.5 * c.normal
            r.DrawSegment(r.to_screen(c.point), r.to_screen(tip), (230, 230, 102))
        else:
            r.DrawSegment(r.to_screen(self.origin), r.to_screen(p2), (204, 204, 204))
        if not settings.pause:
            self.angle += 0.25 * math.pi / 180.0


if __name__ == "__main__":
    main(Raycast)
