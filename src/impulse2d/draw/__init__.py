"""Debug draw of any :class:`impulse2d.World`, into any canvas.

* :class:`Camera` maps world metres (x right, y up) to canvas pixels and back (picking);
* :class:`Flags` picks the layers (shapes, joints, AABBs, contacts, normals, impulses, friction,
  islands, sleep colouring, centres of mass, velocities, constraint-graph colours);
* :func:`impulse2d.draw.geometry.build` computes what to draw as NumPy arrays culled to the view;
* back ends rasterise them: :class:`PygameDraw` (pygame-ce, extra ``testbed``),
  :class:`MatplotlibDraw` (extra ``plot``) and :func:`image` (Pillow, extra ``render``).

Example::

    from impulse2d import draw
    draw.PygameDraw(screen).draw(world)                 # in your pygame loop
    draw.image(world, size=(640, 480)).save("world.png")
"""

from __future__ import annotations

from .camera import Camera
from .flags import Flags
from .geometry import ContactMemory, DrawList, build
from .pillow import image
from .pygame_draw import PygameDraw

__all__ = ["Camera", "Flags", "PygameDraw", "MatplotlibDraw", "image", "build", "DrawList",
           "ContactMemory"]


def __getattr__(name):
    if name == "MatplotlibDraw":       # imported on use: matplotlib is slow to import
        from .mpl import MatplotlibDraw

        return MatplotlibDraw
    raise AttributeError(f"module 'impulse2d.draw' has no attribute {name!r}")
