"""Headless renderer: pixel-level checks of what render_frame draws, and the GIF recorder."""

from __future__ import annotations

import math

import numpy as np
import pytest

PIL = pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

import impulse2d  # noqa: E402
from impulse2d.render import (  # noqa: E402
    BACKGROUND,
    KINEMATIC_FILL,
    PALETTE,
    STATIC_FILL,
    GifRecorder,
    dynamic_fill,
    fit_view,
    render_frame,
    world_to_pixels,
)

# A 10 m x 10 m view on a 100 x 100 image: 10 px per metre, world (0, 0) at the image centre,
# world x in [-5, 5] -> columns 0..99, world y in [5, -5] -> rows 0..99.
VIEW = (-5.0, -5.0, 5.0, 5.0)
SIZE = (100, 100)


def _world():
    return impulse2d.World(gravity=(0.0, -10.0))


def _pixels(img) -> np.ndarray:
    return np.asarray(img.convert("RGB"), dtype=np.int64)


def _is(px: np.ndarray, colour) -> np.ndarray:
    return np.all(px == np.asarray(colour), axis=-1)


def _footprint(img) -> np.ndarray:
    return ~_is(_pixels(img), BACKGROUND)


# --------------------------------------------------------------------------------------------
# geometry of the picture
# --------------------------------------------------------------------------------------------


def test_empty_world_is_all_background():
    img = render_frame(_world(), VIEW, SIZE)
    assert img.size == SIZE and img.mode == "RGB"
    assert _is(_pixels(img), BACKGROUND).all()


def test_static_box_fills_exactly_its_pixel_rectangle():
    world = _world()
    body = world.create_body(type="static", position=(0.0, 0.0))
    body.create_box(2.0, 1.0)                       # x in [-2, 2], y in [-1, 1]
    px = _pixels(render_frame(world, VIEW, SIZE))
    # columns 30..69, rows 40..59 are the box; its interior is the static colour
    assert _is(px[42:58, 32:68], STATIC_FILL).all()
    drawn = ~_is(px, BACKGROUND)
    rows, cols = np.nonzero(drawn)
    assert (rows.min(), rows.max(), cols.min(), cols.max()) == (40, 59, 30, 69)
    assert drawn.sum() == 40 * 20
    # and nothing anywhere else
    assert not drawn[:40].any() and not drawn[60:].any()
    assert not drawn[:, :30].any() and not drawn[:, 70:].any()


def test_y_up_and_x_right():
    world = _world()
    body = world.create_body(type="static", position=(3.0, 3.0))   # upper right in the world
    body.create_box(0.5, 0.5)
    drawn = _footprint(render_frame(world, VIEW, SIZE))
    rows, cols = np.nonzero(drawn)
    assert rows.max() < 50 and cols.min() > 50     # upper right on screen
    assert (rows.min(), rows.max(), cols.min(), cols.max()) == (15, 24, 75, 84)


def test_world_to_pixels_matches_drawing():
    p = world_to_pixels(np.array([[0.0, 0.0], [-5.0, 5.0], [5.0, -5.0]]), VIEW, SIZE)
    # pixel (i, j) covers [i, i + 1) x [j, j + 1): the view's corners are the image's corners
    np.testing.assert_allclose(p, [[50.0, 50.0], [0.0, 0.0], [100.0, 100.0]])


@pytest.mark.parametrize("radius_m, scale", [(2.0, 20.0), (0.5, 20.0), (1.0, 7.3)])
def test_circle_pixel_area_matches_pi_r_squared(radius_m, scale):
    world = _world()
    body = world.create_body(type="dynamic", position=(0.13, -0.21), angle=0.4)
    body.create_circle(radius_m)
    half = 60.0 / scale                              # 120 x 120 px image
    img = render_frame(world, (-half, -half, half, half), (120, 120))
    r_px = radius_m * scale
    area = _footprint(img).sum()
    assert abs(area - math.pi * r_px ** 2) <= 0.05 * math.pi * r_px ** 2


@pytest.mark.parametrize("angle", [0.0, 0.7, 2.0])
def test_capsule_and_rounded_box_pixel_areas(angle):
    scale = 20.0
    view = (-3.0, -3.0, 3.0, 3.0)                    # 120 x 120 px
    world = _world()
    cap = world.create_body(type="dynamic", position=(0.1, 0.0), angle=angle)
    cap.create_capsule((-1.0, 0.0), (1.0, 0.0), 0.6)
    img = render_frame(world, view, (120, 120))
    expect = (2.0 * 2 * 0.6 + math.pi * 0.6 ** 2) * scale ** 2
    assert abs(_footprint(img).sum() - expect) <= 0.05 * expect

    world = _world()
    box = world.create_body(type="dynamic", position=(0.0, 0.2), angle=-angle)
    box.create_box(1.0, 0.6, radius=0.4)
    img = render_frame(world, view, (120, 120))
    expect = (2.0 * 1.2 + 0.4 * 2 * (2.0 + 1.2) + math.pi * 0.16) * scale ** 2
    assert abs(_footprint(img).sum() - expect) <= 0.05 * expect


def test_rotated_box_is_drawn_rotated():
    world = _world()
    body = world.create_body(type="dynamic", position=(0.0, 0.0), angle=math.pi / 4)
    body.create_box(2.0, 2.0)
    drawn = _footprint(render_frame(world, VIEW, SIZE))
    assert drawn[49, 49]                     # centre
    assert not drawn[31, 31] and not drawn[68, 68]   # corners of the unrotated box: outside
    assert drawn[49, 25] and drawn[25, 49]   # the diamond reaches 2 sqrt(2) m left and up
    assert drawn[49, 74] and drawn[74, 49]
    area = drawn.sum()
    assert abs(area - 1600) < 0.05 * 1600


def test_circle_radius_line_shows_rotation():
    def spoke_pixels(angle):
        world = _world()
        body = world.create_body(type="dynamic", position=(0.0, 0.0), angle=angle)
        body.create_circle(3.0)
        px = _pixels(render_frame(world, VIEW, SIZE))
        fill = px[49, 30]                     # inside the disc, away from the spoke at 0 and pi/2
        return ~_is(px, fill) & ~_is(px, BACKGROUND)

    right = spoke_pixels(0.0)
    up = spoke_pixels(math.pi / 2)
    assert right[49:51, 60:75].any() and not right[25:40, 49:51].any()
    assert up[25:40, 49:51].any() and not up[49:51, 60:75].any()


def test_segment_is_a_line():
    world = _world()
    ground = world.create_body(type="static", position=(0.0, 0.0))
    ground.create_segment((-4.0, -4.0), (4.0, 4.0))
    drawn = _footprint(render_frame(world, VIEW, SIZE))
    for x in (-3.0, -1.0, 0.0, 2.0, 3.5):    # pixels along the diagonal, +- 1
        c = int(round(49.5 + 10 * x))
        r = int(round(49.5 - 10 * x))
        assert drawn[r - 1:r + 2, c - 1:c + 2].any()
    assert drawn.sum() < 300                  # thin: about two pixels per column
    assert not drawn[80:, 80:].any() and not drawn[:20, :20].any()


def test_polygon_and_body_type_colours():
    world = _world()
    ground = world.create_body(type="static", position=(0.0, -4.0))
    ground.create_box(5.0, 0.5)
    kin = world.create_body(type="kinematic", position=(-3.0, 0.0))
    kin.create_box(1.0, 1.0)
    dyn = world.create_body(type="dynamic", position=(2.5, 0.0))
    dyn.create_polygon([(-1.5, -1.0), (1.5, -1.0), (0.0, 1.5)])
    px = _pixels(render_frame(world, VIEW, SIZE))
    assert (px[90, 50] == STATIC_FILL).all()
    assert (px[50, 20] == KINEMATIC_FILL).all()
    dyn_colour = px[52, 75]
    assert not _is(dyn_colour[None], BACKGROUND)[0]
    assert tuple(dyn_colour) not in (STATIC_FILL, KINEMATIC_FILL)
    assert tuple(dyn_colour) in {tuple(dynamic_fill(i)) for i in range(64)}
    # the triangle narrows upwards: wide at 0.8 m below its centre, narrow at 0.8 m above
    assert _footprint_row_width(px, 58) > 2 * _footprint_row_width(px, 42)


def _footprint_row_width(px, row):
    return int((~_is(px[row, 55:], BACKGROUND)).sum())


def test_neighbouring_dynamic_bodies_get_different_colours():
    colours = [dynamic_fill(i) for i in range(200)]
    assert all(a != b for a, b in zip(colours, colours[1:]))
    assert len(set(colours)) >= 16
    for c in colours:
        assert c not in (STATIC_FILL, KINEMATIC_FILL, BACKGROUND)


def test_only_live_rows_are_drawn():
    world = _world()
    # more rows of capacity than live shapes; unused rows are zeros at the world origin
    body = world.create_body(type="dynamic", position=(3.0, 3.0))
    body.create_box(0.5, 0.5)
    assert len(world._shapes.alive) >= 1
    drawn = _footprint(render_frame(world, VIEW, SIZE))
    assert not drawn[40:60, 40:60].any()     # nothing at the world origin
    assert drawn.sum() == 100


def test_many_bodies_share_one_bulk_transform():
    world = _world()
    rng = np.random.default_rng(3)
    for x, y in rng.uniform(-4.5, 4.5, size=(300, 2)):
        world.create_body(type="dynamic", position=(x, y)).create_circle(0.1)
    drawn = _footprint(render_frame(world, VIEW, SIZE))
    expected = np.zeros(SIZE, dtype=bool)
    for x, y in world._bodies.origin[world._bodies.alive]:
        expected[int(49.5 - 10 * y + 0.5), int(49.5 + 10 * x + 0.5)] = True
    assert (drawn | ~expected).all()          # every body's centre pixel is drawn


# --------------------------------------------------------------------------------------------
# options
# --------------------------------------------------------------------------------------------


def test_shapes_partly_outside_the_view_are_clipped_not_dropped():
    world = _world()
    ground = world.create_body(type="static", position=(0.0, 0.0))
    ground.create_box(100.0, 1.0)                  # far wider than the view
    far = world.create_body(type="dynamic", position=(50.0, 50.0))
    far.create_circle(1.0)                         # entirely outside
    px = _pixels(render_frame(world, VIEW, SIZE))
    assert _is(px[42:58, :], STATIC_FILL).all()   # spans the whole width, no outline at the sides
    assert (~_is(px, BACKGROUND)).sum() == 100 * 20


def test_size_as_width_keeps_the_aspect_ratio():
    img = render_frame(_world(), (-20.0, -2.0, 20.0, 28.0), 480)
    assert img.size == (480, 360)


def test_size_tuple_letterboxes_uniformly():
    world = _world()
    body = world.create_body(type="static", position=(0.0, 0.0))
    body.create_circle(4.0)
    img = render_frame(world, VIEW, (200, 100))   # 10 px per metre, view centred horizontally
    rows, cols = np.nonzero(_footprint(img))
    assert abs((cols.max() - cols.min()) - (rows.max() - rows.min())) <= 1   # still round
    assert abs(0.5 * (cols.max() + cols.min()) - 99.5) <= 1


def test_default_view_fits_every_shape():
    world = _world()
    a = world.create_body(type="static", position=(-30.0, 0.0))
    a.create_box(1.0, 1.0)
    b = world.create_body(type="dynamic", position=(40.0, 12.0))
    b.create_circle(2.0)
    x0, y0, x1, y1 = fit_view(world)
    assert x0 < -31.0 and x1 > 42.0 and y0 < -1.0 and y1 > 14.0
    drawn = _footprint(render_frame(world, size=300))
    assert drawn[:, :30].any() and drawn[:, -30:].any()


def test_bad_view_is_rejected():
    with pytest.raises(ValueError):
        render_frame(_world(), (1.0, 0.0, -1.0, 1.0), 100)


def test_palette_mode_and_supersampling():
    world = _world()
    body = world.create_body(type="dynamic", position=(0.0, 0.0), angle=0.3)
    body.create_box(2.0, 1.0, radius=0.2)
    p = render_frame(world, VIEW, SIZE, mode="P")
    assert p.mode == "P"
    rgb = render_frame(world, VIEW, SIZE)
    assert (np.asarray(p.convert("RGB")) == np.asarray(rgb)).all()
    smooth = render_frame(world, VIEW, SIZE, supersample=3)
    assert smooth.size == SIZE and smooth.mode == "RGB"
    # anti-aliased: edge pixels take colours between the fill and the background
    n_colours = len({tuple(c) for c in _pixels(smooth).reshape(-1, 3)})
    assert n_colours > len({tuple(c) for c in _pixels(rgb).reshape(-1, 3)})
    # but the footprint is the same shape
    a = _footprint(rgb).sum()
    b = (_pixels(smooth) != np.asarray(BACKGROUND)).any(-1).sum()
    assert abs(a - b) < 0.1 * a


def test_caption_is_drawn():
    img = render_frame(_world(), VIEW, (200, 100), text="t = 1.00 s")
    assert _footprint(img)[:20, :80].any()


def test_contact_overlay():
    world = _world()
    ground = world.create_body(type="static", position=(0.0, -0.5))
    ground.create_box(4.0, 0.5)
    box = world.create_body(type="dynamic", position=(0.0, 0.5))
    box.create_box(0.5, 0.5)
    for _ in range(5):
        world.step(1.0 / 60.0)
    assert len(world.contacts) > 0
    red = PALETTE[5]
    plain = _pixels(render_frame(world, (-3.0, -2.0, 3.0, 2.0), 240))
    over = _pixels(render_frame(world, (-3.0, -2.0, 3.0, 2.0), 240, contacts=True))
    assert not _is(plain, red).any()
    ys, xs = np.nonzero(_is(over, red))
    assert ys.size > 0
    # the contact points lie on the ground's top surface, y = 0 -> row 119.5 of 160
    assert abs(np.median(ys) - 79.5) <= 3


# --------------------------------------------------------------------------------------------
# GIF recording
# --------------------------------------------------------------------------------------------


def _scene_world():
    world = _world()
    ground = world.create_body(type="static", position=(0.0, -0.5))
    ground.create_box(5.0, 0.5)
    ball = world.create_body(type="dynamic", position=(0.0, 3.0))
    ball.create_circle(0.5)
    return world


def test_gif_recorder_frame_skipping_and_file(tmp_path):
    world = _scene_world()
    rec = GifRecorder(view=VIEW, width=120, fps=30, dt=1.0 / 60.0, caption="ball")
    assert rec.every == 2
    rec.capture(world, step=0)
    for i in range(1, 61):
        world.step(1.0 / 60.0)
        rec.maybe_capture(world, i)
    assert len(rec.frames) == 31
    durations = rec.durations_ms()
    assert all(d % 10 == 0 for d in durations)
    assert abs(sum(durations) - 31 * 1000 / 30) <= 10      # plays in real time
    path = rec.save(tmp_path / "ball.gif")
    with Image.open(path) as gif:
        assert gif.format == "GIF"
        assert gif.n_frames == 31
        assert gif.size == (120, 120)
        assert gif.info.get("loop") == 0
        first = np.asarray(gif.convert("RGB")).copy()
        gif.seek(30)
        last = np.asarray(gif.convert("RGB")).copy()
    assert (first != last).any()               # the ball fell


def test_gif_recorder_caps_the_frame_count():
    rec = GifRecorder(view=VIEW, width=64, fps=30, dt=1.0 / 60.0, total_steps=6000, max_frames=500)
    assert rec.every == 12
    assert 6000 // rec.every + 1 <= 501
    assert rec.frame_interval == pytest.approx(0.2)


def test_gif_recorder_needs_frames(tmp_path):
    with pytest.raises(ValueError):
        GifRecorder(view=VIEW).save(tmp_path / "x.gif")


def test_identical_frames_are_merged_keeping_the_play_time(tmp_path):
    world = _scene_world()
    rec = GifRecorder(view=VIEW, width=60, fps=30, dt=1.0 / 60.0)    # no caption: frames repeat
    for i in range(0, 21):
        rec.maybe_capture(world, i)                 # the world does not move
    assert len(rec.frames) == 11
    path = rec.save(tmp_path / "still.gif")
    with Image.open(path) as gif:
        total = 0
        for k in range(gif.n_frames):
            gif.seek(k)
            total += gif.info["duration"]
    assert abs(total - 11 * 1000 / 30) <= 10


def test_ropes_of_pulley_distance_and_mouse_joints_are_drawn():
    world = impulse2d.World(gravity=(0.0, 0.0))
    a = world.create_body(position=(-2.0, 0.0))
    a.create_circle(0.2)
    b = world.create_body(position=(2.0, 0.0))
    b.create_circle(0.2)
    world.create_pulley_joint(a, b, (-2.0, 4.0), (2.0, 4.0), (-2.0, 0.0), (2.0, 0.0))
    view = (-4.0, -1.0, 4.0, 5.0)
    size = (160, 120)                               # 20 px per metre
    px = world_to_pixels(np.array([[0.0, 4.0], [-2.0, 2.0], [2.0, 2.0]]), view, size)
    drawn = np.asarray(render_frame(world, view, size))
    bare = np.asarray(render_frame(world, view, size, joints=False))
    for x, y in np.round(px).astype(int):
        # The rope runs across the top and down both sides: dark pixels on it (or next to it).
        patch = drawn[y - 1:y + 2, x - 1:x + 2].reshape(-1, 3)
        assert patch.sum(axis=1).min() < 200
        assert bare[y, x].sum() > 600                 # background without the joints
