from ..framework import Framework, Keys, main
from ._ground import flat_ground


class Web(Framework):
    name = "Web"
    description = "Four boxes held by 12 springs (distance joints); B breaks a box away"

    def __init__(self):
        super().__init__()
        ground = flat_ground(self.world)
        corners = ((-5.0, 5.0), (5.0, 5.0), (5.0, 15.0), (-5.0, 15.0))
        self.boxes = []
        for p in corners:
            body = self.world.CreateDynamicBody(position=p)
            body.CreatePolygonFixture(box=(0.5, 0.5), density=5.0)
            self.boxes.append(body)
        self.joints = []
        self.destroyed = []
        spring = dict(frequencyHz=2.0, dampingRatio=0.0)
        ground_points = ((-10.0, 0.0), (10.0, 0.0), (10.0, 20.0), (-10.0, 20.0))
        local = ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5))
        for box, g, a in zip(self.boxes, ground_points, local):
            self.joints.append(self.world.CreateDistanceJoint(
                bodyA=ground, bodyB=box, anchorA=g, anchorB=box.GetWorldPoint(a), **spring))
        for k in range(4):   # each box to the next one round the square
            a, b = self.boxes[k], self.boxes[(k + 1) % 4]
            side = (b.position - a.position) * (0.5 / 10.0)
            self.joints.append(self.world.CreateDistanceJoint(
                bodyA=a, bodyB=b, anchorA=a.position + side, anchorB=b.position - side,
                **spring))
        # diagonals
        for a, b in ((self.boxes[0], self.boxes[2]), (self.boxes[1], self.boxes[3])):
            self.joints.append(self.world.CreateDistanceJoint(
                bodyA=a, bodyB=b, anchorA=a.position, anchorB=b.position, **spring))

    def Keyboard(self, key):
        if key == Keys.K_b and self.boxes:
            self.world.DestroyBody(self.boxes.pop(0))

    def JointDestroyed(self, joint):
        if joint in self.joints:
            self.joints.remove(joint)
            self.destroyed.append(joint)

    def Step(self, settings):
        super().Step(settings)
        self.Print(f"joints: {len(self.joints)} (B: destroy a box)")


if __name__ == "__main__":
    main(Web)
