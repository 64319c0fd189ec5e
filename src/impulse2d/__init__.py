"""impulse2d: a 2D rigid-body physics engine with an open impulse-based constraint solver.

>>> import impulse2d as i2d
>>> world = i2d.World(gravity=(0, -10))
>>> ground = world.create_body(type="static")
>>> _ = ground.create_box(10, 0.5, center=(0, -0.5))
>>> box = world.create_body(position=(0, 2))
>>> _ = box.create_box(0.5, 0.5)
>>> for _ in range(120):
...     world.step(1 / 60)
>>> round(box.position.y, 2)
0.5
"""

from .body import Body
from .joints import (DistanceJoint, GearJoint, Joint, MotorJoint, MouseJoint, PrismaticJoint,
                     PulleyJoint, RevoluteJoint, WeldJoint, WheelJoint)
from .settings import WorldSettings
from .shapes import Shape
from .types import BodyType, JointType, ShapeType, Vec2
from .world import ContactInfo, ContactPoint, Profile, World

__version__ = "0.1.0"

__all__ = [
    "World", "WorldSettings", "Body", "Shape", "Joint", "RevoluteJoint", "DistanceJoint",
    "PrismaticJoint", "WeldJoint", "WheelJoint",
    "MouseJoint", "MotorJoint", "PulleyJoint", "GearJoint", "BodyType", "ShapeType",
    "JointType", "Vec2",
    "ContactInfo", "ContactPoint", "Profile", "warmup", "__version__",
]


def warmup() -> None:
    """Compile (or load from the cache) every kernel of the step now, instead of on the first step.

    Builds a tiny world with every shape type and joint type and steps it with each solver.
    """
    for solver in ("soft_step", "pgs"):
        world = World(solver=solver)
        ground = world.create_body(type="static")
        ground.create_box(5.0, 0.5, center=(0.0, -0.5))
        ground.create_segment((-5.0, 0.0), (5.0, 0.0))
        shapes = [
            lambda b: b.create_circle(0.25),
            lambda b: b.create_box(0.25, 0.25),
            lambda b: b.create_capsule((-0.2, 0.0), (0.2, 0.0), 0.1),
            lambda b: b.create_polygon([(0, 0), (0.4, 0), (0.2, 0.3)], radius=0.02),
        ]
        for k, make in enumerate(shapes):
            make(world.create_body(position=(-1.5 + k, 0.2)))
        pivot = world.create_body(type="static", position=(0.0, 5.0))
        bob = world.create_body(position=(1.0, 5.0))
        bob.create_circle(0.1)
        world.create_revolute_joint(pivot, bob, (0.0, 5.0), enable_limit=True, lower_angle=-1.0,
                                    upper_angle=1.0, enable_motor=True, max_motor_torque=1.0,
                                    enable_spring=True, hertz=1.0)
        rope_end = world.create_body(position=(-1.0, 5.0))
        rope_end.create_circle(0.1)
        world.create_distance_joint(pivot, rope_end, (0.0, 5.0), (-1.0, 5.0))
        world.create_distance_joint(pivot, rope_end, (0.0, 5.0), (-1.0, 5.0), enable_spring=True,
                                    hertz=2.0, min_length=0.5, max_length=1.5, enable_motor=True,
                                    max_motor_force=1.0)
        slider = world.create_body(position=(2.0, 5.0))
        slider.create_box(0.1, 0.1)
        world.create_prismatic_joint(pivot, slider, (2.0, 5.0), (1.0, 1.0), enable_limit=True,
                                     lower=-1.0, upper=1.0, enable_motor=True,
                                     max_motor_force=1.0, enable_spring=True, hertz=1.0)
        glued = world.create_body(position=(-2.0, 5.0))
        glued.create_box(0.1, 0.1)
        world.create_weld_joint(pivot, glued, (-2.0, 5.0))
        world.create_weld_joint(pivot, glued, (-2.0, 5.0), linear_hertz=5.0, angular_hertz=5.0)
        tyre = world.create_body(position=(3.0, 5.0))
        tyre.create_circle(0.2)
        world.create_wheel_joint(pivot, tyre, (3.0, 5.0), (0.0, 1.0), enable_motor=True,
                                 max_motor_torque=1.0, enable_limit=True, lower=-0.5, upper=0.5)
        world.create_mouse_joint(tyre, (3.0, 5.0), max_force=10.0)
        world.create_motor_joint(pivot, tyre, linear_offset=(3.0, 0.0), angular_offset=0.5)
        world.create_pulley_joint(bob, slider, (1.0, 7.0), (2.0, 7.0), (1.0, 5.0), (2.0, 5.0),
                                  ratio=2.0)
        hinge = world.create_revolute_joint(pivot, bob, (0.0, 5.0))
        slide = world.create_prismatic_joint(pivot, slider, (2.0, 5.0), (1.0, 0.0))
        world.create_gear_joint(hinge, slide, ratio=0.5)
        for _ in range(2):
            world.step(1.0 / 60.0)
