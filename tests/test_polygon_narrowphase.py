"""The narrowphase of a world without circles (``step.POLYGON_COLLIDE_KERNEL``: the polygon
routine alone, the circle routines not compiled in): a world of boxes gets it, and a world that
later gains a circle takes the general narrowphase from its next step, with the bits of a world
whose narrowphase was the general one from the start."""

import numpy as np
import pytest

import impulse2d as i2
from impulse2d._dynamics import step, verbs

DT = 1.0 / 60.0


def _boxes():
    """Ten boxes dropped in a staggered column onto the ground, a capsule and a segment among
    them (two vertices each: the polygon routine's)."""
    world = i2.World()
    ground = world.create_body(type="static")
    ground.create_box(8.0, 0.5, center=(0.0, -0.5))
    ground.create_segment((-8.0, 0.0), (-6.0, 2.0))
    for k in range(10):
        body = world.create_body(position=(0.37 * (k % 4) - 0.5, 1.0 + 1.3 * k), angle=0.2 * k)
        if k == 3:
            body.create_capsule((-0.3, 0.0), (0.3, 0.0), 0.2, density=1.0, friction=0.5)
        else:
            body.create_box(0.4, 0.3, density=1.0, friction=0.5)
    return world


def _general(world):
    """``world``'s table with the general narrowphase, as a world with a circle gets it (its
    table filled by ``step(0)``, which moves nothing)."""
    world.step(0.0)
    world._verbs[verbs.COLLIDE] = step.STAGE_KERNELS[verbs.COLLIDE].address()
    world._verbs[verbs.POLYGONS_ONLY] = 0


def _same_bits(a, b):
    for read in ("get_positions", "get_angles", "get_velocities"):
        assert getattr(a, read)().tobytes() == getattr(b, read)().tobytes(), read
    assert a.state_hash() == b.state_hash()


def _drop(world, what, x):
    """A body of kind ``what`` dropped onto the heap at ``x``; its handle."""
    body = world.create_body(position=(x, 16.0))
    if what == "circle":
        body.create_circle(0.35, density=1.0, friction=0.5, restitution=0.2)
    elif what == "capsule":
        body.create_capsule((-0.25, 0.0), (0.25, 0.0), 0.15, density=1.0, friction=0.5)
    else:  # a segment on a dynamic body (massless alone): with a small box for its mass
        body.create_segment((-0.4, 0.0), (0.4, 0.0), friction=0.5)
        body.create_box(0.1, 0.1, density=1.0)
    return body


@pytest.mark.parametrize("first", ["circle", "capsule", "segment"])
def test_a_world_of_boxes_that_gains_shapes_steps_as_one_with_the_general_narrowphase(first):
    """Boxes (with a capsule and a segment) stepped 60 steps on the polygons' narrowphase, then
    ``first`` and the two other kinds dropped in at steps 60, 90 and 120 (a circle among them:
    from that step the table holds the general narrowphase): every step's state the bits of a
    world whose narrowphase was the general one throughout; the circle comes to rest (it
    collides)."""
    polygons, general = _boxes(), _boxes()
    polygons.step(0.0)
    _general(general)
    assert polygons._verbs[verbs.POLYGONS_ONLY] == 1
    assert polygons._verbs[verbs.COLLIDE] == step.POLYGON_COLLIDE_KERNEL.address()
    kinds = [first] + [k for k in ("circle", "capsule", "segment") if k != first]
    dropped = {}
    for k in range(1, 360):
        if k in (60, 90, 120):
            what = kinds[(k - 60) // 30]
            x = 0.9 * ((k - 60) // 30) - 0.9
            dropped[what] = (_drop(polygons, what, x), _drop(general, what, x))
        polygons.step(DT)
        general.step(DT)
        _same_bits(polygons, general)
        circle = "circle" in dropped
        assert polygons._verbs[verbs.POLYGONS_ONLY] == (0 if circle else 1), k
    assert polygons._verbs[verbs.COLLIDE] == step.STAGE_KERNELS[verbs.COLLIDE].address()
    ball = dropped["circle"][0]
    # at rest on the heap or on the ground (its top at y = 0), not through it: it collided
    assert ball.position.y > 0.35 - 0.01
    assert abs(ball.linear_velocity.y) < 0.05
    assert any(c.shape_a == ball.shapes[0] or c.shape_b == ball.shapes[0]
               for c in polygons.contacts if c.points)


def test_step_zero_after_a_circle_collides_it():
    """``World.step(0)`` (the narrowphase alone) of a world of boxes that has just gained a
    circle touching a box: the circle's contact made with the general narrowphase, its
    manifold the bits of a world that had it from the start."""
    polygons, general = _boxes(), _boxes()
    polygons.step(0.0)
    _general(general)
    for world in (polygons, general):
        body = world.create_body(position=(0.0, 0.5 + 0.3))  # on the ground, 0.05 m apart
        body.create_circle(0.25, density=1.0)
        world.step(0.0)
    assert polygons._verbs[verbs.POLYGONS_ONLY] == 0
    made = [[(c.normal, [(p.point, p.separation) for p in c.points]) for c in w.contacts
             if c.points] for w in (polygons, general)]
    assert len(made[0]) == len(made[1]) >= 1
    assert repr(made[0]) == repr(made[1])
    _same_bits(polygons, general)


def test_a_world_with_a_circle_takes_the_general_narrowphase():
    world = _boxes()
    world.create_body(position=(3.0, 3.0)).create_circle(0.3, density=1.0)
    world.step(DT)
    assert world._verbs[verbs.POLYGONS_ONLY] == 0
    assert world._verbs[verbs.COLLIDE] == step.STAGE_KERNELS[verbs.COLLIDE].address()
    assert np.isfinite(world.get_positions()).all()
