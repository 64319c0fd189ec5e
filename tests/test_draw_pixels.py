"""The compiled overlay rasteriser (draw.pixels.paint) lights exactly the pixels of the NumPy
one (segment_pixels, square_pixels), in the same order, on and off the canvas."""

import numpy as np

from impulse2d.draw.pixels import paint, segment_pixels, square_pixels

W, H = 97, 61


def _reference(seg, seg_value, centres, half, point_value, channels):
    canvas = np.zeros((W, H, channels), np.int32)
    xs, ys, which = segment_pixels(seg, W, H)
    canvas[xs, ys] = seg_value[which]
    xs, ys, which = square_pixels(centres, half, W, H)
    canvas[xs, ys] = point_value[which]
    return canvas


def _case(rng, k, p, channels):
    # Segments from well outside the canvas to inside it, some axis-aligned, some points.
    seg = rng.uniform(-40.0, 140.0, (k, 4))
    seg[: k // 5, 2] = seg[: k // 5, 0]
    seg[k // 5: 2 * k // 5, 3] = seg[k // 5: 2 * k // 5, 1]
    seg[2 * k // 5: 2 * k // 5 + 3, 2:] = seg[2 * k // 5: 2 * k // 5 + 3, :2]
    seg_value = rng.integers(1, 2**31 - 1, (k, channels)).astype(np.int32)
    centres = rng.uniform(-5.0, 105.0, (p, 2))
    half = rng.choice([0.0, 1.5, 2.0, 3.0, 0.4], p)
    point_value = rng.integers(1, 2**31 - 1, (p, channels)).astype(np.int32)
    return seg, seg_value, centres, half, point_value


def test_paint_matches_numpy_rasteriser_exactly():
    rng = np.random.default_rng(7)
    for channels in (1, 3):
        for _ in range(20):
            args = _case(rng, 300, 80, channels)
            want = _reference(*args, channels)
            got = np.zeros((W, H, channels), np.int32)
            paint(got, *args)
            assert np.array_equal(got, want)
            assert (got != 0).sum() > 0.05 * got.size        # the canvas really was drawn on


def test_paint_on_a_transposed_uint8_image():
    # Pillow's (h, w, 3) array, painted through its (w, h, 3) transpose.
    rng = np.random.default_rng(3)
    seg, _, centres, half, _ = _case(rng, 200, 50, 3)
    seg_rgb = rng.integers(1, 256, (200, 3)).astype(np.uint8)
    pt_rgb = rng.integers(1, 256, (50, 3)).astype(np.uint8)
    img = np.zeros((H, W, 3), np.uint8)
    paint(img.transpose(1, 0, 2), seg, seg_rgb, centres, half, pt_rgb)
    want = np.zeros((H, W, 3), np.uint8)
    xs, ys, which = segment_pixels(seg, W, H)
    want[ys, xs] = seg_rgb[which]
    xs, ys, which = square_pixels(centres, half, W, H)
    want[ys, xs] = pt_rgb[which]
    assert np.array_equal(img, want)


def test_paint_without_items_leaves_the_canvas():
    canvas = np.full((W, H, 1), 5, np.int32)
    paint(canvas, np.zeros((0, 4)), np.zeros((0, 1), np.int32), np.zeros((0, 2)), np.zeros(0),
          np.zeros((0, 1), np.int32))
    assert (canvas == 5).all()
