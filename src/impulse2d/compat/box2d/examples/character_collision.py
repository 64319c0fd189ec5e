from .. import b2ChainShape, b2PolygonShape
from ..framework import Framework, main

SPEED = 5.0   # m/s: the characters' push to the right


class CharacterCollision(Framework):
    name = "Character collision"
    description = ("Frictionless characters slide over a chain of 40 vertices and over a "
                   "row of box tiles: no snag at the vertices (the chain is smooth)")

    def __init__(self):
        super().__init__()
        ground = self.world.CreateStaticBody()
        # a flat chain at y = 0 with a vertex every metre (Box2D 2.3's ghost vertices; here
        # impulse2d's smooth chain)
        ground.CreateFixture(shape=b2ChainShape(vertices_chain=[(-20.0 + k, 0.0)
                                                                for k in range(41)]))
        # a row of 1 m box tiles at y = 5 (their seams can catch a sliding box)
        for k in range(30):
            ground.CreateFixture(shape=b2PolygonShape(box=(0.5, 0.5, (-15.0 + k, 4.5), 0.0)))
        self.on_chain = self._character((-18.0, 0.5))
        self.on_tiles = self._character((-14.0, 5.5))

    def _character(self, p):
        body = self.world.CreateDynamicBody(position=p, fixedRotation=True, allowSleep=False,
                                            linearVelocity=(SPEED, 0.0))
        body.CreatePolygonFixture(box=(0.5, 0.5), density=20.0, friction=0.0)
        return body

    def Step(self, settings):
        super().Step(settings)
        self.Print(f"on the chain {self.on_chain.linearVelocity[0]:.2f} m/s, on the tiles "
                   f"{self.on_tiles.linearVelocity[0]:.2f} m/s")


if __name__ == "__main__":
    main(CharacterCollision)
