"""Live charts of the testbed's right panel: time series kept in ring buffers and drawn as
polylines, plus the residual-against-iteration curve of the current step."""

from __future__ import annotations

import math
from collections import deque

import numpy as np
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


def draw_chart(surface, rect, title: str, series: list[Series], text, unit: str = "",
               log: bool = False, scale: float = 1.0, stacked: bool = False) -> None:
    """Draw ``series`` into ``rect`` (``text.render(string, colour)`` gives a line of text's
    surface): a frame, the title with the last value of each, and the lines scaled to the
    largest value shown (``log``: log10 axis, for residuals). ``scale`` multiplies the values
    for display (1e3: s -> ms); ``stacked`` adds the series up (the profile's stages)."""
    rect = pygame.Rect(rect)
    pygame.draw.rect(surface, (24, 26, 32), rect)
    pygame.draw.rect(surface, (70, 74, 86), rect, 1)
    columns = [np.fromiter(s.values, float, len(s.values)) * scale for s in series]
    if stacked and columns:
        columns = list(np.cumsum(np.nan_to_num(np.array(columns)), axis=0))
        last = f"{columns[-1][-1]:.3g}" if len(columns[-1]) else ""   # the total
    else:
        last = ", ".join(f"{c[-1]:.3g}" for c in columns if len(c))
    if log:
        with np.errstate(divide="ignore", invalid="ignore"):
            columns = [np.where(c > 0, np.log10(np.where(c > 0, c, 1.0)), np.nan)
                       for c in columns]
    label = text.render(f"{title} {last}{(' ' + unit) if unit else ''}", (210, 214, 222))
    surface.blit(label, (rect.x + 4, rect.y + 2))
    finite = [c[np.isfinite(c)] for c in columns]
    if not any(len(f) for f in finite):
        return
    lo = min(float(f.min()) for f in finite if len(f))
    hi = max(float(f.max()) for f in finite if len(f))
    if not log:
        lo = min(lo, 0.0)
    if hi - lo < 1e-12:
        hi = lo + 1.0
    plot = pygame.Rect(rect.x + 4, rect.y + 16, rect.w - 8, rect.h - 20)
    top = text.render(f"{10 ** hi:.2g}" if log else f"{hi:.3g}", (130, 134, 146))
    surface.blit(top, (rect.right - top.get_width() - 4, rect.y + 2 + label.get_height()))
    for s, c in zip(series, columns):
        n = len(c)
        if n < 2:
            continue
        # a history spans its whole buffer (new samples enter at the right); a curve (no
        # maxlen: the residual per iteration) spans the chart
        span = max((s.values.maxlen or n) - 1, 1)
        k = np.arange(n) + ((s.values.maxlen or n) - n)
        keep = np.isfinite(c)
        x = plot.x + plot.w * k[keep] / span
        y = plot.bottom - plot.h * (c[keep] - lo) / (hi - lo)
        if len(x) >= 2:
            pygame.draw.aalines(surface, s.color, False, np.column_stack((x, y)).tolist())
