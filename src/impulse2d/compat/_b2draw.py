"""pybox2d's debug-draw types: ``b2Color``, the ``b2Draw`` interface and ``b2DrawExtended``
(the variant whose vertices pybox2d converts to screen coordinates before the calls).

Programs (and pybox2d's testbed framework) subclass ``b2Draw``/``b2DrawExtended`` and override
``DrawPolygon``, ``DrawSolidPolygon``, ``DrawCircle``, ``DrawSolidCircle``, ``DrawSegment``,
``DrawTransform`` and ``DrawPoint``; the base methods do nothing. The flags are Box2D 2.3's
``b2Draw`` bits (``e_shapeBit`` ...), read and written as pybox2d's dict
(``{"drawShapes": True, ...}``) or as the integer. The screen conversion is pybox2d's:
``x * zoom - offset.x``, mirrored against ``screenSize.x`` when ``flipX`` (and the same for y
with ``flipY``). Which world calls these methods, and when, is the debug-draw part of
issue 33, not this module.
"""

from __future__ import annotations

from ._b2math import _Triple, b2Vec2, vec_tuple


class b2Color(_Triple):  # noqa: N801
    """An RGB colour, each component a float in [0, 1] (Box2D 2.3's ``b2Color`` has no
    alpha). ``b2Color()``, ``b2Color(r, g, b)``, ``b2Color([r, g, b])`` or
    ``b2Color(other)``; indexable and iterable as a 3-sequence; ``+``, ``-`` with a colour,
    ``*`` and ``/`` by a number; ``bytes``: the components as ints in [0, 255] (pybox2d:
    ``int(255 * c)``), settable; ``list``: ``[r, g, b]``."""

    __slots__ = ("r", "g", "b")

    @property
    def list(self):
        return [self.r, self.g, self.b]

    def copy(self):
        return b2Color(self.r, self.g, self.b)

    @list.setter
    def list(self, value):
        self.r, self.g, self.b = (float(c) for c in value)

    @property
    def bytes(self):
        return [int(255 * self.r), int(255 * self.g), int(255 * self.b)]

    @bytes.setter
    def bytes(self, value):
        self.r, self.g, self.b = (int(c) / 255.0 for c in value)


# Box2D 2.3's b2Draw flag bits, and the names pybox2d's flags dict gives them
e_shapeBit, e_jointBit, e_aabbBit, e_pairBit, e_centerOfMassBit = 0x1, 0x2, 0x4, 0x8, 0x10
_FLAG_NAMES = {"drawShapes": e_shapeBit, "drawJoints": e_jointBit, "drawAABBs": e_aabbBit,
               "drawPairs": e_pairBit, "drawCOMs": e_centerOfMassBit}


class b2Draw:  # noqa: N801
    """The debug-draw interface: subclass it and override the ``Draw*`` methods (the base's
    do nothing). ``flags``: a dict of pybox2d's names (``drawShapes``, ``drawJoints``,
    ``drawAABBs``, ``drawPairs``, ``drawCOMs``) or Box2D's integer of bits; reads as the dict.
    ``AppendFlags``/``ClearFlags`` take the integer bits, as in Box2D."""

    e_shapeBit, e_jointBit, e_aabbBit = e_shapeBit, e_jointBit, e_aabbBit
    e_pairBit, e_centerOfMassBit = e_pairBit, e_centerOfMassBit

    def __init__(self, **kwargs):
        self._bits = 0
        for name, value in kwargs.items():
            setattr(self, name, value)

    @property
    def flags(self):
        return {name: bool(self._bits & bit) for name, bit in _FLAG_NAMES.items()}

    @flags.setter
    def flags(self, value):
        if isinstance(value, dict):
            bits = self._bits
            for name, on in value.items():
                if name in _FLAG_NAMES:
                    bit = _FLAG_NAMES[name]
                    bits = (bits | bit) if on else (bits & ~bit)
                elif name != "convertVertices":  # pybox2d's dict carries it too
                    raise ValueError(f"flags: unknown flag {name!r} (one of "
                                     f"{', '.join(_FLAG_NAMES)})")
                else:
                    self.convertVertices = bool(on)
            self._bits = bits
        elif isinstance(value, int):
            self._bits = value & 0x1F
        else:
            raise TypeError(f"flags must be a dict or an int, got {type(value).__name__}")

    def SetFlags(self, bits):  # noqa: N802
        self.flags = int(bits)

    def GetFlags(self):  # noqa: N802
        return self._bits

    def AppendFlags(self, bits):  # noqa: N802
        self._bits |= int(bits) & 0x1F

    def ClearFlags(self, bits):  # noqa: N802
        self._bits &= ~int(bits)

    def StartDraw(self):  # noqa: N802
        pass

    def EndDraw(self):  # noqa: N802
        pass

    def DrawPolygon(self, vertices, color):  # noqa: N802
        pass

    def DrawSolidPolygon(self, vertices, color):  # noqa: N802
        pass

    def DrawCircle(self, center, radius, color):  # noqa: N802
        pass

    def DrawSolidCircle(self, center, radius, axis, color):  # noqa: N802
        pass

    def DrawSegment(self, p1, p2, color):  # noqa: N802
        pass

    def DrawTransform(self, xf):  # noqa: N802
        pass

    def DrawPoint(self, p, size, color):  # noqa: N802
        pass


class b2DrawExtended(b2Draw):  # noqa: N801
    """``b2Draw`` with pybox2d's screen conversion: ``zoom`` (pixels per metre), ``offset``
    (pixels), ``screenSize`` (pixels), ``flipX``/``flipY``, ``convertVertices`` (whether the
    vertices given to the ``Draw*`` methods are converted with :meth:`to_screen`), ``center``
    (a field the program keeps; the conversion does not read it)."""

    def __init__(self, **kwargs):
        self.zoom = 1.0
        self.offset = b2Vec2(0.0, 0.0)
        self.screenSize = b2Vec2(0.0, 0.0)
        self.flipX = False
        self.flipY = False
        self.convertVertices = False
        self.center = b2Vec2(0.0, 0.0)  # kept for the program (pybox2d's field); unused here
        super().__init__(**kwargs)

    def to_screen(self, point):
        """A world point in pixels: scaled by ``zoom``, less ``offset``, mirrored when
        flipped (pybox2d's ``b2DrawExtended::to_screen``)."""
        x, y = vec_tuple(point, "point")
        x = x * self.zoom - self.offset[0]
        if self.flipX:
            x = self.screenSize[0] - x
        y = y * self.zoom - self.offset[1]
        if self.flipY:
            y = self.screenSize[1] - y
        return (x, y)
