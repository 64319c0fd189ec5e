from ..framework import Framework, main
from ._ground import flat_ground

ROWS = 20
HALF = 0.5  # m: box half-size


class Pyramid(Framework):
    name = "Pyramid"
    description = "A pyramid of 210 boxes on the ground"

    def __init__(self):
        super().__init__()
        self.boxes = build(self.world)   # (row, body)


def build(world, B=None):
    """The scene in ``world`` (``B``: see ``_ground.flat_ground``); returns (row, box)."""
    flat_ground(world, B=B)
    boxes = []
    for row in range(ROWS):
        count = ROWS - row
        for k in range(count):
            x = (k - 0.5 * (count - 1)) * 2.0 * HALF * 1.125
            y = HALF + row * 2.0 * HALF + 0.02 * row
            body = world.CreateDynamicBody(position=(x, y))
            body.CreatePolygonFixture(box=(HALF, HALF), density=5.0, friction=0.6)
            boxes.append((row, body))
    return boxes


if __name__ == "__main__":
    main(Pyramid)
