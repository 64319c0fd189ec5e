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
        ground = flat_ground(self.world)
        ground.CreateEdgeFixture(vertices=[(20.0, 0.0), (20.0, 20.0)])
        self.columns = []
        for x in COLUMNS:
            column = []
            for i in range(ROWS):
                body = self.world.CreateDynamicBody(position=(x, HALF + 1.02 * 2 * HALF * i))
                body.CreatePolygonFixture(box=(HALF, HALF), density=1.0, friction=0.3)
                column.append(body)
            self.columns.append(column)


if __name__ == "__main__":
    main(VerticalStack)
