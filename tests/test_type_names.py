"""Types compare as users write them (issue 29, item 6).

``create_body(type="static")`` then ``body.type == "static"`` was False (``print(body.type)``
showed 0), so ``if b.type != "static": world.destroy_body(b)`` destroyed the ground. The public
enums are ``str`` enums now: equal to, hashed as and printed as their names, with the integer
code the kernels store kept as ``.code``.
"""

from __future__ import annotations

import pickle

import pytest

import impulse2d as i2d
from conftest import DT


def test_body_types_equal_the_strings_that_made_them():
    world = i2d.World()
    made = {kind: world.create_body(type=kind) for kind in ("static", "kinematic", "dynamic")}
    for kind, body in made.items():
        assert body.type == kind and str(body.type) == kind and f"{body.type}" == kind
        assert body.type is getattr(i2d.BodyType, kind.upper())
        assert {kind: 1}[body.type] == 1  # hashed as the string
    assert made["static"].type != "dynamic"
    # the filter of the issue keeps the ground
    for body in world.bodies:
        if body.type != "static":
            world.destroy_body(body)
    assert [b.type for b in world.bodies] == ["static"]


def test_body_type_setter_takes_the_enum_or_its_name_in_any_case():
    world = i2d.World()
    body = world.create_body(type=i2d.BodyType.KINEMATIC)
    body.type = "Dynamic"
    assert body.type == "dynamic"
    body.type = i2d.BodyType.STATIC
    assert body.type == "static" and body.mass == 0.0


def test_shape_and_joint_types_equal_their_names():
    world = i2d.World()
    ground = world.create_body(type="static")
    names = [ground.create_circle(1.0), ground.create_box(1.0, 1.0), ground.create_capsule(
        (0, 0), (1, 0), 0.2), ground.create_segment((0, 0), (1, 1))]
    assert [s.type for s in names] == ["circle", "polygon", "capsule", "segment"]
    assert print_form(names[0].type) == "circle"
    chain = ground.create_chain([(0, 0), (1, 0), (2, 0)])
    assert all(s.type == "chain_segment" for s in chain.segments)
    a = world.create_body(position=(0, 2))
    a.create_box(0.5, 0.5)
    b = world.create_body(position=(2, 2))
    b.create_box(0.5, 0.5)
    hinge = world.create_revolute_joint(a, b, (1, 2))
    rope = world.create_distance_joint(a, b, (0, 2), (2, 2))
    assert hinge.type == "revolute" and rope.type == "distance" and str(rope.type) == "distance"
    world.step(DT)  # the step's dispatch still reads the integer codes
    assert hinge.type.code == i2d.JointType.REVOLUTE.code == 0


def print_form(value) -> str:
    import io
    out = io.StringIO()
    print(value, file=out, end="")
    return out.getvalue()


def test_codes_and_old_pickles_still_map_to_the_members():
    assert i2d.BodyType(0) is i2d.BodyType.STATIC and int(i2d.BodyType.DYNAMIC) == 2
    assert i2d.ShapeType(4) is i2d.ShapeType.CHAIN_SEGMENT
    assert i2d.JointType("GEAR") is i2d.JointType.GEAR
    # [BodyType.STATIC, ShapeType.CIRCLE, JointType.GEAR] pickled (protocol 4) when these
    # enums were IntEnums: the pickle holds the codes
    old = (b'\x80\x04\x95V\x00\x00\x00\x00\x00\x00\x00]\x94(\x8c\x0fimpulse2d.types\x94\x8c'
           b'\x08BodyType\x94\x93\x94K\x00\x85\x94R\x94h\x01\x8c\tShapeType\x94\x93\x94K\x00'
           b'\x85\x94R\x94h\x01\x8c\tJointType\x94\x93\x94K\x08\x85\x94R\x94e.')
    assert pickle.loads(old) == [i2d.BodyType.STATIC, i2d.ShapeType.CIRCLE, i2d.JointType.GEAR]
    for member in (i2d.BodyType.KINEMATIC, i2d.ShapeType.POLYGON, i2d.JointType.WHEEL):
        assert pickle.loads(pickle.dumps(member)) is member


def test_unknown_names_and_codes_are_refused():
    with pytest.raises(ValueError):
        i2d.BodyType("floating")
    with pytest.raises(ValueError):
        i2d.ShapeType(9)
    world = i2d.World()
    with pytest.raises(ValueError, match="body type"):
        world.create_body(type="floating")
