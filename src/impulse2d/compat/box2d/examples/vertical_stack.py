from ..framework import Framework, main
from ._ground import flat_ground

COLUMNS = (-10.0, -5.0, 0.0, 5.0, 10.0)   # m: each column's x
ROWS = 12
HALF = 0.5                                 # m: box half-size


class VerticalStack(Framework):
    name = "Vertical stack"
    description = "Columns of boxes standing on the ground (drag one, or Space for a bomb)"

    def __init__(self):
        super().__init__()
        self.columns = build(self.world)


def build(world, B=None):
    """The scene in ``world`` (``B``: see ``_ground.flat_ground``); returns the columns."""
    ground = flat_ground(world, B=B)
    ground.CreateEdgeFixture(vertices=[(20.0, 0.0), (20.0, 20.0)])
    columns = []
    for x in COLUMNS:
        column = []
        for i in range(ROWS):
            body = world.CreateDynamicBody(position=(x, HALF + 1.02 * 2 * HALF * i))
            body.CreatePolygonFixture(box=(HALF, HALF), density=1.0, friction=0.3)
            column.append(body)
        columns.append(column)
    return columns


if __name__ == "__main__":
    main(VerticalStack)
