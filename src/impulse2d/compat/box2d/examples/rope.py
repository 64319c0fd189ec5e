from ..framework import Framework, Keys, main
from ._ground import flat_ground

LINKS = 10
Y = 15.0


class Rope(Framework):
    name = "Rope joint"
    description = "A hinged chain with a heavy end, held by a rope joint (J: cut or tie it)"

    def __init__(self):
        super().__init__()
        self.ground = flat_ground(self.world)
        previous = self.ground
        self.links = []
        for i in range(LINKS):
            link = self.world.CreateDynamicBody(position=(0.5 + i, Y))
            if i == LINKS - 1:   # the heavy end, a 1.5 m box
                link.CreatePolygonFixture(box=(1.5, 1.5), density=100.0, friction=0.2)
            else:
                link.CreatePolygonFixture(box=(0.5, 0.125), density=20.0, friction=0.2)
            self.world.CreateRevoluteJoint(bodyA=previous, bodyB=link, anchor=(float(i), Y),
                                           collideConnected=False)
            self.links.append(link)
            previous = link
        self.maxLength = LINKS - 1.0 + 0.01   # m: ground point to the end's centre
        self.rope = None
        self.Keyboard(Keys.K_j)

    def Keyboard(self, key):
        if key == Keys.K_j:
            if self.rope is not None:
                self.world.DestroyJoint(self.rope)
                self.rope = None
            else:
                self.rope = self.world.CreateRopeJoint(
                    bodyA=self.ground, bodyB=self.links[-1], localAnchorA=(0.0, Y),
                    localAnchorB=(0.0, 0.0), maxLength=self.maxLength)

    def Step(self, settings):
        super().Step(settings)
        self.Print("rope " + ("on" if self.rope is not None else "off") + " (J)")


if __name__ == "__main__":
    main(Rope)
