from ..framework import Framework, main
from ._ground import flat_ground

ROWS = 20
HALF = 0.5  # m: box half-size


class Pyramid(Framework):
    name = "Pyramid"
    description = "A pyramid of 210 boxes on the ground"

    def __init__(self):
        super().__init__()
        flat_ground(self.world)
        self.boxes = []   # (row, body)
        for row in range(ROWS):
            count = ROWS - row
            for k in range(count):
                x = (k - 0.5 * (count - 1)) * 2.0 * HALF * 1.125
                y = HALF + row * 2.0 * HALF * 1.0 + 0.02 * row
                body = self.world.CreateDynamicBody(position=(x, y))
                body.CreatePolygonFixture(box=(HALF, HALF), density=5.0, friction=0.6)
                self.boxes.append((row, body))


if __name__ == "__main__":
    main(Pyramid)
