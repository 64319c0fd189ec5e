"""impulse2d.draw: the camera, the draw list and the Pillow back end, checked in pixels.

Where a shape must be is computed here from the public API (body.world_point of the shape's
vertices, the camera's mapping); the drawing must cover those pixels within one pixel.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

pytest.importorskip("PIL")

import impulse2d  # noqa: E402
from impulse2d import draw  # noqa: E402
from impulse2d.draw import colors as C  # noqa: E402
from impulse2d.draw.geometry import ARROW_PX, AXIS_PX, GRAPH_POINT_PX, HEAD_PX, NORMAL_PX, \
    POINT_PX, REVOLUTE_PX, _graph_colors, build  # noqa: E402

SIZE = (200, 160)


def _pixels(img) -> np.ndarray:
    return np.asarray(img.convert("RGB"), dtype=np.int64)


def _is(px, colour) -> np.ndarray:
    return np.all(px == np.asarray(colour), axis=-1)


# --------------------------------------------------------------------------------------------
# Camera
# --------------------------------------------------------------------------------------------


def test_camera_round_trip_is_exact_within_rounding():
    rng = np.random.default_rng(1)
    cam = draw.Camera(center=(3.25, -7.5), scale=37.0)
    p = rng.uniform(-100, 100, size=(500, 2))
    back = cam.to_world(cam.to_screen(p, (640, 480)), (640, 480))
    assert np.max(np.abs(back - p)) < 1e-12
    # one point: shape (2,)
    assert cam.to_screen((3.25, -7.5), (640, 480)).tolist() == [320.0, 240.0]


def test_camera_axes_and_view():
    cam = draw.Camera(center=(1.0, 2.0), scale=10.0)
    # x right, y up: +1 m in x is +10 px in column, +1 m in y is -10 px in row
    a, b, c = cam.to_screen([(1.0, 2.0), (2.0, 2.0), (1.0, 3.0)], (100, 60))
    assert (b - a).tolist() == [10.0, 0.0] and (c - a).tolist() == [0.0, -10.0]
    assert cam.view((100, 60)) == pytest.approx((-4.0, -1.0, 6.0, 5.0), abs=1e-12)
    # the view's corners are the canvas corners
    assert cam.to_screen((-4.0, 5.0), (100, 60)).tolist() == [0.0, 0.0]
    assert cam.to_screen((6.0, -1.0), (100, 60)).tolist() == [100.0, 60.0]


@pytest.mark.parametrize("factor", [0.5, 1.25, 3.0])
def test_zoom_at_keeps_the_point_under_the_cursor(factor):
    cam = draw.Camera(center=(0.3, 4.0), scale=25.0)
    size = (640, 480)
    cursor = (97.0, 411.5)
    under = cam.to_world(cursor, size)
    cam.zoom_at(cursor, factor, size)
    assert cam.scale == pytest.approx(25.0 * factor, rel=1e-15)
    assert np.allclose(cam.to_world(cursor, size), under, atol=1e-12)
    assert np.allclose(cam.to_screen(under, size), cursor, atol=1e-9)


def test_pan_moves_the_picture_by_the_pixels():
    cam = draw.Camera(center=(0.0, 0.0), scale=20.0)
    p = (1.5, -2.0)
    before = cam.to_screen(p, (300, 200))
    cam.pan(13.0, -7.0)
    assert np.allclose(cam.to_screen(p, (300, 200)) - before, (13.0, -7.0), atol=1e-12)


def _scatter_world():
    world = impulse2d.World()
    ground = world.create_body(type="static", position=(2.0, -3.0))
    ground.create_box(6.0, 0.5)
    ball = world.create_body(position=(-5.0, 8.0))
    ball.create_circle(0.75)
    capsule = world.create_body(position=(9.0, 2.0), angle=0.4)
    capsule.create_capsule((-1.0, 0.0), (1.0, 0.0), 0.3)
    return world


def _shape_box(shape):
    """World box of a shape from the public API: its vertices in the world, grown by its radius."""
    v = np.array([shape.body.world_point(p) for p in shape.vertices])
    r = shape.radius
    return (*(v.min(axis=0) - r), *(v.max(axis=0) + r))


def test_fit_contains_every_shape():
    world = _scatter_world()
    boxes = np.array([_shape_box(s) for s in world.shapes])
    assert boxes[:, 2].max() - boxes[:, 0].min() > 10.0
    for size in [(640, 480), (200, 600), (1000, 100)]:
        cam = draw.Camera.fit(world, size)
        x0, y0, x1, y1 = cam.view(size)
        for bx0, by0, bx1, by1 in boxes:
            assert x0 <= bx0 and bx1 <= x1 and y0 <= by0 and by1 <= y1, size
        # and fills the canvas along one axis, with the 5 % margin each side
        w = (x1 - x0) / (boxes[:, 2].max() - boxes[:, 0].min())
        h = (y1 - y0) / (boxes[:, 3].max() - boxes[:, 1].min())
        assert min(w, h) == pytest.approx(1.1, rel=1e-9)


def test_follow_centres_on_the_body():
    world = _scatter_world()
    cam = draw.Camera()
    ball = world.bodies[1]
    cam.follow(ball)
    assert cam.center == tuple(ball.position)


@pytest.mark.parametrize("kwargs", [{"scale": 0.0}, {"scale": -1.0}, {"scale": float("nan")},
                                    {"center": (float("inf"), 0.0)}])
def test_camera_rejects_bad_values(kwargs):
    with pytest.raises(ValueError, match="scale|center"):
        draw.Camera(**kwargs)
    cam = draw.Camera()
    with pytest.raises(ValueError, match="factor"):
        cam.zoom_at((0, 0), 0.0, (10, 10))
    with pytest.raises(ValueError, match="size"):
        cam.to_screen((0, 0), (0, 10))
    assert cam == draw.Camera()     # unchanged by the rejected calls


def test_flags_defaults_and_types():
    f = draw.Flags()
    assert (f.shapes, f.joints, f.sleep) == (True, True, True)
    assert not any(getattr(f, n) for n in ("aabbs", "contacts", "normals", "impulses", "friction",
                                           "islands", "centers", "velocities", "graph_colors"))
    with pytest.raises(TypeError, match="contacts"):
        draw.Flags(contacts=1)
    with pytest.raises(ValueError, match="impulse_scale"):
        draw.Flags(impulse_scale=-1.0)


# --------------------------------------------------------------------------------------------
# Pixels of a box, through the camera
# --------------------------------------------------------------------------------------------


def _box_world(angle=0.0):
    world = impulse2d.World(gravity=(0.0, 0.0))
    body = world.create_body(type="static", position=(0.4, -0.3), angle=angle)
    shape = body.create_box(1.5, 0.8)
    return world, body, shape


def _inside_polygon(poly: np.ndarray, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pixel centres ``pts`` against a convex polygon in pixel space: (inside by more than
    1 px, outside by more than 1 px)."""
    n = poly.shape[0]
    mid = poly.mean(axis=0)
    d = np.full(pts.shape[0], np.inf)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        e = b - a
        nrm = np.array([e[1], -e[0]]) / np.hypot(*e)
        if (mid - a) @ nrm > 0:
            nrm = -nrm                                  # outward
        d = np.minimum(d, -((pts - a) @ nrm))           # > 0 inside
    return d > 1.0, d < -1.0


@pytest.mark.parametrize("angle", [0.0, 0.5])
def test_image_box_covers_the_pixels_its_corners_map_to(angle):
    world, body, shape = _box_world(angle)
    cam = draw.Camera(center=(0.0, 0.0), scale=40.0)
    px = _pixels(draw.image(world, SIZE, cam))
    corners = np.array([body.world_point(v) for v in shape.vertices])
    poly = cam.to_screen(corners, SIZE)
    jj, ii = np.mgrid[0:SIZE[1], 0:SIZE[0]]
    centres = np.stack([ii.ravel() + 0.5, jj.ravel() + 0.5], -1)
    inside, outside = _inside_polygon(poly, centres)
    drawn = ~_is(px, C.BACKGROUND).ravel()
    assert inside.sum() > 0.9 * 118 * 62                # 3 m x 1.6 m at 40 px/m, 1 px in
    assert drawn[inside].all()
    assert not drawn[outside].any()
    assert _is(px, C.STATIC).ravel()[inside].mean() > 0.9     # Box2D's static colour


def test_culling_skips_off_screen_shapes():
    world = impulse2d.World()
    a = world.create_body(type="static", position=(0.0, 0.0))
    a.create_box(1.0, 1.0)
    b = world.create_body(type="static", position=(50.0, 0.0))
    b.create_box(1.0, 1.0)
    c = world.create_body(type="static", position=(5.3, 0.0))   # straddles the right edge
    c.create_box(1.0, 1.0)
    cam = draw.Camera(center=(0.0, 0.0), scale=20.0)            # view x in [-5, 5]
    dl = build(world, cam, (200, 200))
    rows = set(dl.shape_rows.tolist())
    assert rows == {a.shapes[0].index, c.shapes[0].index}
    px = _pixels(draw.image(world, (200, 200), cam))
    assert not _is(px[:, 195:], C.BACKGROUND).all()            # the straddling box is drawn


def test_sleep_colours_follow_box2d_rules():
    world = impulse2d.World()
    ground = world.create_body(type="static", position=(0.0, -1.0))
    ground.create_box(5.0, 0.5)
    kin = world.create_body(type="kinematic", position=(-3.0, 3.0))
    kin.create_box(0.5, 0.5)
    awake = world.create_body(position=(0.0, 3.0))
    awake.create_box(0.5, 0.5)
    bullet = world.create_body(position=(3.0, 3.0), bullet=True)
    bullet.create_box(0.5, 0.5)
    sensor = world.create_body(type="static", position=(0.0, 6.0))
    sensor.create_box(0.5, 0.5, is_sensor=True)
    cam = draw.Camera(center=(0.0, 2.5), scale=20.0)
    px = _pixels(draw.image(world, (240, 200), cam))

    def at(p):
        x, y = cam.to_screen(p, (240, 200)).astype(int)
        return tuple(px[y, x])

    assert at((0.0, -1.0)) == C.STATIC
    assert at((-3.0, 3.0)) == C.KINEMATIC
    assert at((0.0, 3.0)) == C.AWAKE
    assert at((3.0, 3.0)) == C.BULLET
    assert at((0.0, 6.0)) == C.SENSOR
    awake.is_awake = False
    px = _pixels(draw.image(world, (240, 200), cam))
    assert at((0.0, 3.0)) == C.ASLEEP
    # sleep off: one hashed colour per dynamic body, static grey
    px = _pixels(draw.image(world, (240, 200), cam, draw.Flags(sleep=False)))
    assert at((0.0, -1.0)) == C.STATIC_FILL
    assert at((0.0, 3.0)) == C.dynamic_fill(awake._row())


# --------------------------------------------------------------------------------------------
# Every flag changes the drawing only where its items are
# --------------------------------------------------------------------------------------------


def _busy_world():
    """A small pile with contacts, a revolute with a limit, a prismatic with a limit, a rope."""
    world = impulse2d.World()
    ground = world.create_body(type="static", position=(0.0, -0.5))
    ground.create_box(8.0, 0.5)
    for i in range(3):
        b = world.create_body(position=(-3.0 + 0.1 * i, 0.5 + 1.05 * i))
        b.create_box(0.5, 0.5)
    ball = world.create_body(position=(2.0, 0.5))
    ball.create_circle(0.5)
    arm = world.create_body(position=(4.5, 3.0))
    arm.create_box(1.0, 0.1)
    world.create_revolute_joint(ground, arm, (3.5, 3.0), enable_limit=True,
                                lower_angle=-0.5, upper_angle=0.5)
    slider = world.create_body(position=(-6.0, 3.0))
    slider.create_box(0.3, 0.3)
    world.create_prismatic_joint(ground, slider, (-6.0, 3.0), (1.0, 0.0), enable_limit=True,
                                 lower=-1.0, upper=1.0)
    for _ in range(20):
        world.step(1.0 / 60.0)
    assert len(world.contacts) >= 3
    ball.linear_velocity = (2.0, 0.0)        # something for the velocity layer
    return world


def _segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance of points p (n, 2) to the nearest of segments a-b (k, 2)."""
    ab = b - a
    t = np.clip(np.einsum("nkd,kd->nk", p[:, None, :] - a[None], ab)
                / np.maximum((ab * ab).sum(-1), 1e-12)[None], 0.0, 1.0)
    q = a[None] + t[..., None] * ab[None]
    return np.hypot(*(p[:, None, :] - q).transpose(2, 0, 1)).min(axis=1)


def _expected_items(world, flag: str, cam, size):
    """Screen segments (a, b) and a reach (px) such that every pixel a flag changes lies within
    reach of one of them: computed from the public API, not from the draw list."""
    to = lambda p: cam.to_screen(np.asarray(p, dtype=np.float64).reshape(-1, 2), size)  # noqa: E731
    pts = np.array([cp.point for c in world.contacts for cp in c.points])
    if flag == "aabbs":
        boxes = np.array([_shape_box(s) for s in world.shapes])
        corners = [boxes[:, [0, 1]], boxes[:, [2, 1]], boxes[:, [2, 3]], boxes[:, [0, 3]]]
        a = np.concatenate([to(corners[k]) for k in range(4)])
        b = np.concatenate([to(corners[(k + 1) % 4]) for k in range(4)])
        return a, b, 1.5
    if flag == "contacts":
        return to(pts), to(pts), POINT_PX * math.sqrt(2) + 1.0
    if flag == "graph_colors":
        return to(pts), to(pts), GRAPH_POINT_PX * math.sqrt(2) + 1.0
    if flag == "normals":
        return to(pts), to(pts), NORMAL_PX + 1.5
    if flag in ("impulses", "friction"):
        return to(pts), to(pts), ARROW_PX + 1.5
    if flag in ("centers", "velocities"):
        moving = [b for b in world.bodies if b.type != impulse2d.BodyType.STATIC]
        c = to([b.world_center for b in moving])
        reach = AXIS_PX + 1.5 if flag == "centers" else max(
            0.1 * math.hypot(*b.linear_velocity) * cam.scale for b in moving) + 1.5
        return c, c, reach
    if flag == "joints":
        a, b = [], []
        for j in world.joints:
            oa, ob = j.body_a.position, j.body_b.position
            pa, pb = j.world_anchor_a, j.world_anchor_b
            a += [oa, pa, ob]
            b += [pa, pb, pb]
        # revolute marks and prismatic axes reach REVOLUTE_PX / the limits from the anchors
        return to(a), to(b), max(REVOLUTE_PX, 1.0 * cam.scale + 6.0) + 1.5
    if flag in ("islands", "sleep"):
        boxes = np.array([_shape_box(s) for s in world.shapes])
        lo, hi = to(boxes[:, [0, 3]]), to(boxes[:, [2, 1]])
        return (lo + hi) / 2, (lo + hi) / 2, float(np.max(np.hypot(*(hi - lo).T)) / 2 + 1.5)
    raise AssertionError(flag)


FLAG_NAMES = ["joints", "aabbs", "contacts", "normals", "impulses", "friction", "islands",
              "sleep", "centers", "velocities", "graph_colors"]


@pytest.mark.parametrize("flag", FLAG_NAMES)
def test_each_flag_changes_pixels_only_near_its_items(flag):
    world = _busy_world()
    size = (400, 240)
    cam = draw.Camera(center=(-1.0, 2.0), scale=24.0)
    base = {"joints": False, "sleep": False}
    off = draw.Flags(**base)
    on = dataclasses.replace(off, **{flag: True})
    a = _pixels(draw.image(world, size, cam, off))
    b = _pixels(draw.image(world, size, cam, on))
    changed = np.argwhere((a != b).any(-1))
    assert changed.shape[0] > 0, f"{flag} drew nothing"
    centres = changed[:, ::-1] + 0.5
    sa, sb, reach = _expected_items(world, flag, cam, size)
    d = _segment_distance(centres, sa, sb)
    assert d.max() <= reach, (flag, d.max(), reach)


def test_contact_points_unknown_new_then_persisting():
    world = impulse2d.World()
    ground = world.create_body(type="static", position=(0.0, -0.5))
    ground.create_box(4.0, 0.5)
    box = world.create_body(position=(0.0, 0.49))
    box.create_box(0.5, 0.5)
    cam = draw.Camera(center=(0.0, 0.0), scale=40.0)
    flags = draw.Flags(shapes=False, joints=False, contacts=True)
    world.step(1.0 / 60.0)
    fresh = build(world, cam, (200, 200), flags, draw.ContactMemory())
    assert (fresh.point_color == C.CONTACT_POINT).all()        # no frame before: unknown

    world = impulse2d.World()
    ground = world.create_body(type="static", position=(0.0, -0.5))
    ground.create_box(4.0, 0.5)
    box = world.create_body(position=(0.0, 0.49))
    box.create_box(0.5, 0.5)
    memory = draw.ContactMemory()
    assert build(world, cam, (200, 200), flags, memory).points.shape[0] == 0   # before a step
    world.step(1.0 / 60.0)
    first = build(world, cam, (200, 200), flags, memory)
    n = len([p for c in world.contacts for p in c.points])
    assert n == 2 and first.points.shape[0] == 2
    assert (first.point_color == C.CONTACT_NEW).all()
    again = build(world, cam, (200, 200), flags, memory)       # same step redrawn: still new
    assert (again.point_color == C.CONTACT_NEW).all()
    world.step(1.0 / 60.0)
    second = build(world, cam, (200, 200), flags, memory)
    assert (second.point_color == C.CONTACT_PERSIST).all()
    # the points are the world's contact points, to the bit
    pts = np.array([cp.point for c in world.contacts for cp in c.points])
    assert (second.points == pts).all()
    # draw.image keeps a memory per world: a picture after the next step shows them persisting
    draw.image(world, (200, 200), cam, flags)
    world.step(1.0 / 60.0)
    px = _pixels(draw.image(world, (200, 200), cam, flags))
    assert _is(px, C.CONTACT_PERSIST).sum() >= 2 * 25 and not _is(px, C.CONTACT_NEW).any()


def test_impulse_arrows_are_proportional_to_the_impulses():
    world = impulse2d.World()
    ground = world.create_body(type="static", position=(0.0, -0.5))
    ground.create_box(4.0, 0.5)
    box = world.create_body(position=(0.0, 0.5))
    box.create_box(0.5, 0.5)
    for _ in range(30):
        world.step(1.0 / 60.0)
    cam = draw.Camera(center=(0.0, 0.0), scale=40.0)
    flags = draw.Flags(shapes=False, joints=False, impulses=True, impulse_scale=0.5)
    dl = build(world, cam, (200, 200), flags)
    info = world.contacts[0]
    imp = np.array([p.normal_impulse for p in info.points])
    shafts = dl.lines[0::1][: len(imp)]        # shafts first, then the heads
    lengths = np.hypot(*(shafts[:, 1] - shafts[:, 0]).T)
    assert np.allclose(lengths, 0.5 * imp, rtol=1e-12)
    # along the normal, from A to B
    u = (shafts[:, 1] - shafts[:, 0]) / lengths[:, None]
    assert np.allclose(u, np.asarray(info.normal)[None], atol=1e-12)
    # the weight is carried: total normal impulse = m g dt
    assert imp.sum() == pytest.approx(box.mass * 10.0 / 60.0, rel=0.02)


def test_graph_colours_never_share_a_dynamic_body():
    from impulse2d.scenes import get_scene, _load

    _load()
    sc = get_scene("pyramid")
    world = impulse2d.World()
    sc.builder(world, **{**sc.params, "base": 8})
    for _ in range(30):
        world.step(1.0 / 60.0)
    colour = _graph_colors(world)
    c = world._contacts
    rows = np.flatnonzero((colour >= 0) & (colour < 24))
    assert rows.size > 20
    dynamic = world._bodies.type == impulse2d.BodyType.DYNAMIC
    seen = {}
    for k in rows.tolist():
        for body in (int(c.body_a[k]), int(c.body_b[k])):
            if dynamic[body]:
                key = (body, int(colour[k]))
                assert key not in seen, f"colour {colour[k]} twice on body {body}"
                seen[key] = k
    assert len(set(colour[rows].tolist())) >= 3


def test_world_repr_png_is_a_picture_of_the_world():
    import io

    from PIL import Image

    world, body, shape = _box_world()
    data = world._repr_png_()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    assert img.size == (640, 480)
    px = _pixels(img)
    cam = draw.Camera.fit(world, (640, 480))
    x, y = cam.to_screen(body.position, (640, 480)).astype(int)
    assert tuple(px[y, x]) == C.STATIC
    assert tuple(px[2, 2]) == C.BACKGROUND
