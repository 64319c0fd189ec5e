"""Mouse interaction with the worlds on screen: drag a body with a mouse joint, launch a ball.

Side by side, the same input reaches every pane: the body picked in the first pane is the body
of the same row in the others (the panes are copies of one world), grabbed at the same point
of the body (its local coordinates), and pulled toward the same target.
"""

from __future__ import annotations

import math

from ..types import BodyType
from ..world import World

__all__ = ["pick_body", "MouseDrag", "launch_ball", "DRAG_FORCE_PER_MASS", "DRAG_HERTZ",
           "DRAG_DAMPING_RATIO", "BALL_RADIUS", "BALL_DENSITY"]

# Box2D v3's samples (samples/sample.cpp, MouseDown): the mouse joint pulls with at most
# 1000 times the body's mass (N per kg: 100 g at Earth's gravity), with a 5 Hz spring at a
# damping ratio of 0.7: any body follows the mouse briskly, however heavy.
DRAG_FORCE_PER_MASS = 1000.0
DRAG_HERTZ = 5.0
DRAG_DAMPING_RATIO = 0.7

# The launched ball: 0.25 m, steel-like density (kg/m^2), a bullet so it cannot tunnel.
BALL_RADIUS = 0.25
BALL_DENSITY = 20.0


def pick_body(world: World, point):
    """The dynamic body with a shape containing ``point`` (world, m), or None; the first such
    shape in index order (``world.query_point``) wins."""
    for shape in world.query_point((float(point[0]), float(point[1]))):
        if shape.body.type == BodyType.DYNAMIC:
            return shape.body
    return None


def _local(body, point):
    c, s = math.cos(body.angle), math.sin(body.angle)
    dx, dy = point[0] - body.position[0], point[1] - body.position[1]
    return (c * dx + s * dy, -s * dx + c * dy)


def _world_point(body, local):
    c, s = math.cos(body.angle), math.sin(body.angle)
    return (body.position[0] + c * local[0] - s * local[1],
            body.position[1] + s * local[0] + c * local[1])


class MouseDrag:
    """A drag in progress over one or more worlds (one mouse joint in each)."""

    def __init__(self):
        self.joints = []   # (world, joint) per pane

    @property
    def active(self) -> bool:
        return bool(self.joints)

    def begin(self, worlds: list[World], point) -> bool:
        """Grab the dynamic body under ``point`` in the first world (and the same body in the
        others); False when there is none."""
        self.end()
        body = pick_body(worlds[0], point)
        if body is None:
            return False
        row = worlds[0].bodies.index(body)
        local = _local(body, point)
        for world in worlds:
            bodies = world.bodies
            if row >= len(bodies) or bodies[row].type != BodyType.DYNAMIC:
                continue
            b = bodies[row]
            anchor = _world_point(b, local)
            joint = world.create_mouse_joint(b, anchor, max_force=DRAG_FORCE_PER_MASS * b.mass,
                                             hertz=DRAG_HERTZ, damping_ratio=DRAG_DAMPING_RATIO)
            joint.target = (float(point[0]), float(point[1]))
            b.is_awake = True
            self.joints.append((world, joint))
        return True

    def move(self, point) -> None:
        for _, joint in self.joints:
            joint.target = (float(point[0]), float(point[1]))

    def end(self) -> None:
        for world, joint in self.joints:
            if joint in world.joints:
                world.destroy_joint(joint)
        self.joints = []


def launch_ball(world: World, point, velocity):
    """A ball (:data:`BALL_RADIUS`, :data:`BALL_DENSITY`) at ``point`` moving at ``velocity``
    (m/s), a bullet; returns its body."""
    body = world.create_body(position=(float(point[0]), float(point[1])),
                             linear_velocity=(float(velocity[0]), float(velocity[1])),
                             bullet=True)
    body.create_circle(BALL_RADIUS, density=BALL_DENSITY)
    return body
