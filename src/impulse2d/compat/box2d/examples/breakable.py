from .. import b2PolygonShape
from ..framework import Framework, main
from ._ground import flat_ground

BREAK_IMPULSE = 15.0   # N s: a contact impulse above this breaks the body in two
DROP = 10.0            # m: the start height (see the class docstring)


class Breakable(Framework):
    name = "Breakable"
    description = "A two-piece body falls and breaks where it lands hard (PostSolve impulses)"
    # Box2D's example drops it from 40 m and breaks it at 40 N s. Here a body that fast (28
    # m/s, half a metre a step) is stopped at the ground by the continuous collision, which
    # reports no impulse to PostSolve (Box2D 2.3 reports its time-of-impact solve's): from 10
    # m the contact itself stops it, with about 24 N s.

    def __init__(self):
        super().__init__()
        flat_ground(self.world)
        self.body = self.world.CreateDynamicBody(position=(0.0, DROP), angle=0.25 * 3.14159265)
        self.shape1 = b2PolygonShape(box=(0.5, 0.5, (-0.5, 0.0), 0.0))
        self.shape2 = b2PolygonShape(box=(0.5, 0.5, (0.5, 0.0), 0.0))
        self.piece1 = self.body.CreateFixture(shape=self.shape1, density=1.0)
        self.piece2 = self.body.CreateFixture(shape=self.shape2, density=1.0)
        self.broke = False
        self.break_now = False
        self.largest_impulse = 0.0
        self.pieces = [self.body]

    def PostSolve(self, contact, impulse):
        if self.broke:
            return
        largest = max(impulse.normalImpulses[:impulse.count])
        self.largest_impulse = max(self.largest_impulse, largest)
        if largest > BREAK_IMPULSE:
            self.break_now = True   # not inside the step's callback: the next Step does it

    def Break(self):
        """The second piece becomes a body of its own, moving as it moved on the whole."""
        body = self.body
        center = body.worldCenter
        velocity, spin = body.linearVelocity, body.angularVelocity
        body.DestroyFixture(self.piece2)
        self.piece2 = None
        other = self.world.CreateDynamicBody(position=body.position, angle=body.angle)
        self.piece2 = other.CreateFixture(shape=self.shape2, density=1.0)
        # each piece keeps the velocity its centre had on the rigid whole
        for piece in (body, other):
            r = piece.worldCenter - center
            piece.linearVelocity = velocity + spin * type(r)(-r[1], r[0])
            piece.angularVelocity = spin
        self.pieces.append(other)
        self.broke = True

    def Step(self, settings):
        if self.break_now:
            self.Break()
            self.break_now = False
        super().Step(settings)
        self.Print("broken" if self.broke else "whole")


if __name__ == "__main__":
    main(Breakable)
