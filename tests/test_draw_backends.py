"""impulse2d.draw's pygame-ce and matplotlib back ends: pixels and coordinates where the shapes
are, the same draw list as the Pillow back end."""

from __future__ import annotations

import os

import numpy as np
import pytest

import impulse2d
from impulse2d import draw
from impulse2d.draw import colors as C

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")     # SDL 2 name
os.environ.setdefault("SDL_VIDEO_DRIVER", "dummy")    # SDL 3 name
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def _box_world(angle=0.0):
    world = impulse2d.World(gravity=(0.0, 0.0))
    body = world.create_body(type="static", position=(0.4, -0.3), angle=angle)
    shape = body.create_box(1.5, 0.8)
    return world, body, shape


def _inside_polygon(poly, pts):
    mid = poly.mean(axis=0)
    d = np.full(pts.shape[0], np.inf)
    for i in range(poly.shape[0]):
        a, b = poly[i], poly[(i + 1) % poly.shape[0]]
        e = b - a
        nrm = np.array([e[1], -e[0]]) / np.hypot(*e)
        if (mid - a) @ nrm > 0:
            nrm = -nrm
        d = np.minimum(d, -((pts - a) @ nrm))
    return d > 1.0, d < -1.0


# --------------------------------------------------------------------------------------------
# pygame-ce
# --------------------------------------------------------------------------------------------


@pytest.fixture
def pygame():
    pg = pytest.importorskip("pygame")
    assert getattr(pg, "IS_CE", False), "the dev extra installs pygame-ce, not pygame"
    return pg


def _surface_rgb(pg, surf) -> np.ndarray:
    return np.asarray(pg.surfarray.array3d(surf)).transpose(1, 0, 2).astype(np.int64)


@pytest.mark.parametrize("angle", [0.0, 0.5])
def test_pygame_box_covers_the_pixels_its_corners_map_to(pygame, angle):
    world, body, shape = _box_world(angle)
    size = (200, 160)
    cam = draw.Camera(center=(0.0, 0.0), scale=40.0)
    surf = pygame.Surface(size)
    surf.fill(C.BACKGROUND)
    draw.PygameDraw(surf, camera=cam).draw(world)
    px = _surface_rgb(pygame, surf)
    poly = cam.to_screen(np.array([body.world_point(v) for v in shape.vertices]), size)
    jj, ii = np.mgrid[0:size[1], 0:size[0]]
    inside, outside = _inside_polygon(poly, np.stack([ii.ravel() + 0.5, jj.ravel() + 0.5], -1))
    drawn = ~np.all(px == C.BACKGROUND, axis=-1).ravel()
    assert inside.sum() > 0.9 * 118 * 62
    assert drawn[inside].all()
    assert not drawn[outside].any()
    assert np.all(px.reshape(-1, 3)[inside] == C.STATIC, axis=-1).mean() > 0.9


def test_pygame_and_pillow_agree(pygame):
    """Same draw list, two rasterisers: the pictures differ at most along outlines."""
    world = impulse2d.World()
    ground = world.create_body(type="static", position=(0.0, -0.5))
    ground.create_box(5.0, 0.5)
    for i in range(4):
        b = world.create_body(position=(-2.0 + 1.2 * i, 1.0), angle=0.3 * i)
        b.create_box(0.4, 0.4) if i % 2 else b.create_circle(0.45)
    for _ in range(10):
        world.step(1.0 / 60.0)
    size = (320, 200)
    cam = draw.Camera.fit(world, size)
    flags = draw.Flags(contacts=True, centers=True)
    surf = pygame.Surface(size)
    surf.fill(C.BACKGROUND)
    draw.PygameDraw(surf, camera=cam, flags=flags).draw(world)
    a = _surface_rgb(pygame, surf)
    b = np.asarray(draw.image(world, size, cam, flags), dtype=np.int64)
    differ = (a != b).any(-1)
    assert differ.mean() < 0.03, differ.mean()


def test_pygame_fits_a_camera_on_first_draw_and_keeps_it(pygame):
    world, body, shape = _box_world()
    surf = pygame.Surface((300, 200))
    d = draw.PygameDraw(surf)
    assert d.camera is None
    d.draw(world)
    fitted = draw.Camera.fit(world, (300, 200))
    assert d.camera == fitted
    body.position = (50.0, 0.0)
    d.draw(world)
    assert d.camera == fitted                             # the view stays still


def test_pygame_primitives_in_world_coordinates(pygame):
    size = (100, 100)
    surf = pygame.Surface(size)
    surf.fill((0, 0, 0))
    d = draw.PygameDraw(surf, camera=draw.Camera(center=(0.0, 0.0), scale=10.0))
    d.segment((-2.0, 1.0), (2.0, 1.0), (255, 0, 0))       # row 40, columns 30..70
    d.point((3.0, -3.0), 2, (0, 255, 0))                  # pixel (80, 80)
    d.circle((-2.5, -2.5), 1.0, (0, 0, 255))              # radius 10 px about (25, 75)
    d.text((-4.5, 4.5), "hi", (255, 255, 255))
    px = _surface_rgb(pygame, surf)
    assert (px[40, 31:70] == (255, 0, 0)).all()
    assert (px[80, 80] == (0, 255, 0)).all()
    assert (px[75, 34:36] == (0, 0, 255)).all(-1).any()   # the rim, 10 px right of the centre
    assert (px[75, 25] == 0).all()                        # an outline, not a disc
    assert (px[5:20, 5:30] == 255).any()                  # the text
    with pytest.raises(ValueError, match="color"):
        d.segment((0, 0), (1, 1), (300, 0, 0))
    with pytest.raises(TypeError, match="surface"):
        draw.PygameDraw(np.zeros((4, 4, 3)))


def test_pygame_cost_is_bulk_not_per_layer_call(pygame):
    """Every flag on, a pyramid: the overlays are thousands of segments, written into the pixels
    in one pass (pixels.py); their pixels are where the Pillow back end puts them."""
    from impulse2d.scenes import _load, get_scene

    _load()
    sc = get_scene("pyramid")
    world = impulse2d.World()
    sc.builder(world, **{**sc.params, "base": 6})
    for _ in range(20):
        world.step(1.0 / 60.0)
    size = (400, 300)
    cam = draw.Camera.fit(world, size)
    flags = draw.Flags(shapes=False, joints=False, aabbs=True, contacts=True, normals=True,
                       impulses=True, friction=True, centers=True, velocities=True)
    surf = pygame.Surface(size)
    surf.fill(C.BACKGROUND)
    draw.PygameDraw(surf, camera=cam, flags=flags).draw(world)
    a = _surface_rgb(pygame, surf)
    b = np.asarray(draw.image(world, size, cam, flags), dtype=np.int64)
    assert (a == b).all()


# --------------------------------------------------------------------------------------------
# matplotlib
# --------------------------------------------------------------------------------------------


@pytest.fixture
def plt():
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")


def test_matplotlib_patches_are_the_shapes_world_geometry(plt):
    world = impulse2d.World()
    ground = world.create_body(type="static", position=(0.0, -0.5))
    ground.create_box(5.0, 0.5)
    box = world.create_body(position=(-1.0, 2.0), angle=0.7)
    box.create_polygon([(-0.5, -0.3), (0.6, -0.3), (0.2, 0.5)])
    ball = world.create_body(position=(2.0, 1.0), angle=1.1)
    circle = ball.create_circle(0.4)
    cap = world.create_body(position=(0.0, 4.0), angle=-0.2)
    capsule = cap.create_capsule((-0.5, 0.0), (0.5, 0.0), 0.25)
    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    md = draw.MatplotlibDraw(ax)
    md.draw(world)

    polys = md.collections["polygons"]
    assert len(polys.get_paths()) == 2
    for shape_row, path in zip(md.polygon_rows.tolist(), polys.get_paths()):
        shape = world.shape_from_index(shape_row)
        want = np.array([shape.body.world_point(v) for v in shape.vertices])
        got = path.vertices[: len(want)]
        assert np.allclose(got, want, atol=1e-12)

    circles = md.collections["circles"]
    c = np.asarray(ball.world_point(circle.vertices[0]))
    ext = circles.get_datalim(ax.transData)
    assert np.allclose([ext.x0, ext.y0, ext.x1, ext.y1],
                       [c[0] - 0.4, c[1] - 0.4, c[0] + 0.4, c[1] + 0.4], atol=1e-9)

    # the capsule's outline: every point 0.25 m from the core segment
    (outline,) = md.collections["rounded"].get_paths()
    a, b = (np.asarray(cap.world_point(v)) for v in capsule.vertices)
    p = outline.vertices[:-1]
    t = np.clip(((p - a) @ (b - a)) / ((b - a) @ (b - a)), 0, 1)
    dist = np.hypot(*(p - (a + t[:, None] * (b - a))).T)
    assert np.allclose(dist, 0.25, atol=1e-9)

    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    assert x0 < -5.0 and x1 > 5.0 and y0 < -1.0 and y1 > 4.25


def test_matplotlib_overlays_are_the_draw_list(plt):
    world = impulse2d.World()
    ground = world.create_body(type="static", position=(0.0, -0.5))
    ground.create_box(3.0, 0.5)
    box = world.create_body(position=(0.0, 0.5))
    box.create_box(0.5, 0.5)
    for _ in range(10):
        world.step(1.0 / 60.0)
    fig, ax = plt.subplots()
    md = draw.MatplotlibDraw(ax, flags=draw.Flags(contacts=True, aabbs=True))
    md.draw(world)
    pts = np.array([cp.point for c in world.contacts for cp in c.points])
    assert np.allclose(md.collections["points"].get_offsets(), pts, atol=1e-12)
    segs = md.collections["lines"].get_segments()
    assert len(segs) == 8                                   # two boxes, four sides each
