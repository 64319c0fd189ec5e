from .. import b2PolygonShape
from ..framework import Framework, main

ROWS = 12
HALF = 0.5


class Tiles(Framework):
    name = "Tiles"
    description = "A pyramid on a ground made of 200 static box tiles in one body"

    def __init__(self):
        super().__init__()
        ground = self.world.CreateStaticBody()
        # 40 x 5 tiles of 1 m, their top at y = 0 (Box2D's tiles: many fixtures, one body)
        for i in range(40):
            for j in range(5):
                ground.CreateFixture(shape=b2PolygonShape(
                    box=(0.5, 0.5, (-20.0 + i + 0.5, -0.5 - j), 0.0)))
        self.tiles = ground
        self.boxes = []
        for row in range(ROWS):
            count = ROWS - row
            for k in range(count):
                x = (k - 0.5 * (count - 1)) * 1.125
                body = self.world.CreateDynamicBody(position=(x, HALF + row * 1.02))
                body.CreatePolygonFixture(box=(HALF, HALF), density=5.0, friction=0.6)
                self.boxes.append((row, body))


if __name__ == "__main__":
    main(Tiles)
