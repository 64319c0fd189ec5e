"""Live charts of the testbed's right panel: time series kept in ring buffers and drawn as
polylines, plus the residual-against-iteration curve of the current step."""

from __future__ import annotations

import math
from collections import deque

import pygame

__all__ = ["Series", "draw_chart", "HISTORY"]

HISTORY = 240  # samples kept: four seconds at 60 frames per second


class Series:
    def __init__(self, name: str, color, history: int | None = HISTORY):
        self.name = name
        self.color = color
        self.values: deque = deque(maxlen=history)

    def add(self, value) -> None:
        self.values.append(float(value) if value is not None else math.nan)

    def clear(self) -> None:
        self.values.clear()


def _finite(values, log: bool):
    out = []
    for v in values:
        if log:
            v = math.log10(v) if v > 0 else math.nan
        out.append(v)
    return out


def draw_chart(surface, rect, title: str, series: list[Series], text, unit: str = "",
               log: bool = False, scale: float = 1.0, stacked: bool = False) -> None:
    """Draw ``series`` into ``rect`` (``text.render(string, colour)`` gives a line of text's
    surface): a frame, the title with the last value of each, and the
    lines scaled to the largest value shown (``log``: log10 axis, for residuals). ``scale``
    multiplies the values for display (1e3: s -> ms); ``stacked`` adds the series up (the
    profile's stages)."""
    rect = pygame.Rect(rect)
    pygame.draw.rect(surface, (24, 26, 32), rect)
    pygame.draw.rect(surface, (70, 74, 86), rect, 1)
    columns = [[v * scale for v in s.values] for s in series]
    if stacked and columns:
        running = [0.0] * max(len(c) for c in columns)
        for c in columns:
            for k, v in enumerate(c):
                running[k] += v if math.isfinite(v) else 0.0
                c[k] = running[k]
    shown = [_finite(c, log) for c in columns]
    flat = [v for c in shown for v in c if math.isfinite(v)]
    if stacked:  # the total, which the top line shows
        last = f"{columns[-1][-1]:.3g}" if columns and columns[-1] else ""
    else:
        last = ", ".join(f"{s.values[-1] * scale:.3g}" for s in series if s.values)
    label = text.render(f"{title} {last}{(' ' + unit) if unit else ''}", (210, 214, 222))
    surface.blit(label, (rect.x + 4, rect.y + 2))
    if not flat:
        return
    lo, hi = min(flat), max(flat)
    if not log:
        lo = min(lo, 0.0)
    if hi - lo < 1e-12:
        hi = lo + 1.0
    plot = pygame.Rect(rect.x + 4, rect.y + 16, rect.w - 8, rect.h - 20)
    top = text.render(f"{10 ** hi:.2g}" if log else f"{hi:.3g}", (130, 134, 146))
    surface.blit(top, (rect.right - top.get_width() - 4, rect.y + 2 + label.get_height()))
    for s, values in zip(series, shown):
        n = len(values)
        if n < 2:
            continue
        # a history spans its whole buffer (new samples enter at the right); a curve (no
        # maxlen: the residual per iteration) spans the chart
        span = max((s.values.maxlen or n) - 1, 1)
        offset = (s.values.maxlen or n) - n
        points = []
        for k, v in enumerate(values):
            if not math.isfinite(v):
                continue
            x = plot.x + plot.w * (k + offset) / span
            y = plot.bottom - plot.h * (v - lo) / (hi - lo)
            points.append((x, y))
        if len(points) >= 2:
            pygame.draw.aalines(surface, s.color, False, points)
