from ..framework import Framework, main
from ._ground import flat_ground


class CollisionProcessing(Framework):
    name = "Collision processing"
    description = ("Shapes of three sizes fall; where two touch, the lighter one is destroyed "
                   "after the step (the framework's contact points, self.points)")

    def __init__(self):
        super().__init__()
        flat_ground(self.world)
        self.using_contacts = True   # the framework fills self.points after each step
        self.destroyed = []          # (mass, mass of what it touched)
        for k in range(12):
            size = (0.5, 1.0, 1.5)[k % 3]
            body = self.world.CreateDynamicBody(position=(-6.0 + 1.1 * (k % 6),
                                                          4.0 + 4.0 * (k // 6) + size))
            if k % 2:
                body.CreateCircleFixture(radius=size, density=1.0)
            else:
                body.CreatePolygonFixture(box=(size, size), density=1.0)

    def Step(self, settings):
        super().Step(settings)
        # Bodies cannot be destroyed inside the step's callbacks: gather, then destroy
        doomed = set()
        for point in self.points:
            a, b = point["fixtureA"].body, point["fixtureB"].body
            if a.type != 2 or b.type != 2:   # only pairs of dynamic bodies
                continue
            lighter, heavier = (a, b) if a.mass < b.mass else (b, a)
            if lighter not in doomed and heavier not in doomed:
                doomed.add(lighter)
                self.destroyed.append((lighter.mass, heavier.mass))
        self.points = [p for p in self.points
                       if p["fixtureA"].body not in doomed and p["fixtureB"].body not in doomed]
        for body in doomed:
            if body is self.bomb:
                self.bomb = None
            self.world.DestroyBody(body)
        self.Print(f"bodies: {self.world.bodyCount}")


if __name__ == "__main__":
    main(CollisionProcessing)
