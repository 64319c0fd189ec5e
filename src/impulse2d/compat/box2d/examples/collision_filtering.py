from .. import b2Filter
from ..framework import Framework, main
from ._ground import flat_ground

SMALL_GROUP, LARGE_GROUP = 1, -1           # small shapes always meet, large ones never
TRIANGLE, BOX, CIRCLE = 0x0002, 0x0004, 0x0008
MASKS = {TRIANGLE: 0xFFFF, BOX: 0xFFFF ^ TRIANGLE, CIRCLE: 0xFFFF}   # boxes ignore triangles


class CollisionFiltering(Framework):
    name = "Collision filtering"
    description = ("Groups: small shapes (1) always collide, large ones (-1) never; "
                   "categories: boxes pass through triangles")

    def __init__(self):
        super().__init__()
        flat_ground(self.world)
        self.shapes = []   # (kind, size, fixture)
        x = -12.0
        for kind, make in ((TRIANGLE, self._triangle), (BOX, self._box), (CIRCLE, self._circle)):
            for size, group, y in (("small", SMALL_GROUP, 2.0), ("large", LARGE_GROUP, 6.0)):
                scale = 1.0 if size == "small" else 2.0
                for k in range(2):   # two of each, stacked so that they fall on each other
                    body = self.world.CreateDynamicBody(position=(x, y + 5.0 * k))
                    fixture = make(body, scale)
                    fixture.filterData = b2Filter(categoryBits=kind, maskBits=MASKS[kind],
                                                  groupIndex=group)
                    self.shapes.append((kind, size, fixture))
                x += 4.0

    @staticmethod
    def _triangle(body, s):
        return body.CreatePolygonFixture(vertices=[(-s, 0.0), (s, 0.0), (0.0, 2.0 * s)],
                                         density=1.0)

    @staticmethod
    def _box(body, s):
        return body.CreatePolygonFixture(box=(s, 0.5 * s), density=1.0)

    @staticmethod
    def _circle(body, s):
        return body.CreateCircleFixture(radius=s, density=1.0)


if __name__ == "__main__":
    main(CollisionFiltering)
