from ..framework import Framework, main

DEPTH = 4
ARM = 0.5      # m: each arm's half-length at the top (halved per level)
DROP = 4.0     # m: each level hangs this far below its parent's ends


class Mobile(Framework):
    name = "Mobile"
    description = "A balanced mobile: 31 bars, each hinged at its middle under its parent's end"

    def __init__(self):
        super().__init__()
        ground = self.world.CreateStaticBody(position=(0.0, 30.0))
        self.bars = []
        root = self._add(ground, (0.0, 30.0 - DROP), 0, 2.0 * ARM * 4)
        self.world.CreateRevoluteJoint(bodyA=ground, bodyB=root, anchor=(0.0, 30.0))

    def _add(self, parent, at, depth, half):
        """A bar of half-length ``half`` hinged at its middle at ``at``, with two below."""
        bar = self.world.CreateDynamicBody(position=at)
        bar.CreatePolygonFixture(box=(half, 0.25), density=20.0)
        self.bars.append(bar)
        if depth + 1 < DEPTH + 1:
            for side in (-1.0, 1.0):
                end = (at[0] + side * half, at[1])
                child = self._add(bar, (end[0], end[1] - DROP), depth + 1, 0.5 * half)
                self.world.CreateRevoluteJoint(bodyA=bar, bodyB=child, anchor=end)
        return bar


if __name__ == "__main__":
    main(Mobile)
