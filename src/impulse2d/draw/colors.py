"""Colours of the debug draw, as 8-bit RGB.

Body-state colours follow Box2D v3's rule (``b2World_Draw``): the first rule that matches wins:
a dynamic body without mass (red), a sensor shape (wheat), an awake bullet (turquoise), a static
body (pale green), a kinematic body (royal blue), an awake dynamic body (pink), an asleep one
(grey). Box2D's other rules (disabled bodies, "had a time of impact", speed-capped, fast) have no
record in impulse2d after a step and are left out. Fills are the named colour; outlines a darker
shade of it so neighbouring shapes stay apart.

With ``Flags.sleep`` off, shapes take the classic palette of :mod:`impulse2d.render`: static
grey, kinematic blue and one colour per dynamic body hashed from its row.
"""

from __future__ import annotations

import colorsys

import numpy as np

RGB = tuple[int, int, int]

BACKGROUND: RGB = (247, 246, 242)
TEXT: RGB = (24, 24, 28)

# Box2D's state colours (CSS colour names, the values b2HexColor gives them).
BAD_BODY: RGB = (255, 0, 0)          # red
SENSOR: RGB = (245, 222, 179)        # wheat
BULLET: RGB = (64, 224, 208)         # turquoise
STATIC: RGB = (152, 251, 152)        # pale green
KINEMATIC: RGB = (65, 105, 225)      # royal blue
AWAKE: RGB = (255, 192, 203)         # pink
ASLEEP: RGB = (128, 128, 128)        # grey

# The classic palette (Flags.sleep off, and impulse2d.render.render_frame).
STATIC_FILL: RGB = (148, 150, 156)
STATIC_OUTLINE: RGB = (78, 80, 88)
KINEMATIC_FILL: RGB = (132, 178, 232)
KINEMATIC_OUTLINE: RGB = (36, 84, 150)

# Overlays.
JOINT: RGB = (40, 40, 160)           # joint lines and anchors
JOINT_LIMIT: RGB = (200, 30, 30)     # limit marks
JOINT_AXIS: RGB = (30, 140, 60)      # prismatic and wheel axes
ROPE: RGB = TEXT                     # pulley ropes, distance joints and mouse drags
AABB: RGB = (190, 0, 190)            # bounding boxes
CONTACT_NEW: RGB = (20, 190, 40)     # a manifold point that was not in the previous frame
CONTACT_PERSIST: RGB = (30, 80, 230)  # a point matched from the previous frame
CONTACT_POINT: RGB = (214, 32, 40)   # a point whose history is unknown; render_frame's points
CONTACT_NORMAL: RGB = (232, 130, 0)
NORMAL_IMPULSE: RGB = (220, 20, 60)  # crimson
FRICTION_IMPULSE: RGB = (200, 150, 0)
CENTER_X: RGB = (220, 30, 30)        # centre of mass: body x axis red, y axis green
CENTER_Y: RGB = (30, 160, 30)
VELOCITY: RGB = (0, 140, 150)
GRAPH_OVERFLOW: RGB = (0, 0, 0)


def _hues(n: int, s=(0.45, 0.6, 0.75), v=(0.93, 0.84)) -> list[tuple[RGB, RGB]]:
    """``n`` (fill, outline) pairs on a golden-ratio walk round the hue circle, so that
    consecutive indices differ."""
    out = []
    for k in range(n):
        h = (k * 0.618033988749895) % 1.0
        sat = s[k % len(s)]
        val = v[(k // len(s)) % len(v)]
        fill = colorsys.hsv_to_rgb(h, sat, val)
        edge = colorsys.hsv_to_rgb(h, min(1.0, sat + 0.2), val * 0.5)
        out.append((tuple(int(round(255 * c)) for c in fill),
                    tuple(int(round(255 * c)) for c in edge)))
    return out


N_DYNAMIC_COLOURS = 32
"""Distinct dynamic-body colours of the classic palette; a body's is hashed from its row."""
DYNAMIC_COLOURS = _hues(N_DYNAMIC_COLOURS)
DYNAMIC_FILLS = np.array([f for f, _ in DYNAMIC_COLOURS], dtype=np.uint8)
DYNAMIC_EDGES = np.array([e for _, e in DYNAMIC_COLOURS], dtype=np.uint8)

N_ISLAND_COLOURS = 24
_ISLANDS = _hues(N_ISLAND_COLOURS, s=(0.55, 0.8), v=(0.95, 0.75))
ISLAND_FILLS = np.array([f for f, _ in _ISLANDS], dtype=np.uint8)
ISLAND_EDGES = np.array([e for _, e in _ISLANDS], dtype=np.uint8)

# One colour per constraint-graph colour (the solver's 24, then the overflow).
GRAPH_COLOURS = np.array([f for f, _ in _hues(24, s=(0.9,), v=(0.9, 0.6))] + [GRAPH_OVERFLOW],
                         dtype=np.uint8)


def hash_rows(rows: np.ndarray, n: int) -> np.ndarray:
    """Colour slot of store rows: Knuth's multiplicative hash, so that neighbours differ."""
    h = (np.asarray(rows).astype(np.uint64) * np.uint64(2654435761)) & np.uint64(0xFFFFFFFF)
    return (h >> np.uint64(11)).astype(np.int64) % n


def darker(colours: np.ndarray, factor: float = 0.55) -> np.ndarray:
    """Outline shade of fill colours (k, 3) uint8."""
    return (np.asarray(colours, dtype=np.float64) * factor).round().astype(np.uint8)


def dynamic_fill(body_row: int) -> RGB:
    """Classic-palette fill of the dynamic body in store row ``body_row``."""
    return DYNAMIC_COLOURS[int(hash_rows(np.array([body_row]), N_DYNAMIC_COLOURS)[0])][0]
