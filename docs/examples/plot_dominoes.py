"""
Dominoes
========

Thirty thin dominoes (0.2 x 2 m, 1.2 m apart); the first is tipped over and the wave runs
down the row. Each domino falls until it rests on the next, so at the end every domino but
the last leans on its neighbour, all at the same angle, and the last lies flat. The wave's
speed is read from the time each domino passes 45 degrees.
"""

import math

import matplotlib.pyplot as plt
import numpy as np

import impulse2d as i2d
from impulse2d.render import render_frame
from impulse2d.scenes import build_scene, get_scene, step_scene

world = i2d.World()
info = build_scene(world, "dominoes")
dominoes = info.bodies["dominoes"]
spacing = info.data["spacing"]
dt, steps = 1 / 60, get_scene("dominoes").steps
passed = np.full(len(dominoes), np.nan)            # time each domino passes 45 degrees
frames = []
for i in range(steps):
    step_scene(world, info, i, dt)
    for k, d in enumerate(dominoes):
        if math.isnan(passed[k]) and abs(d.angle) > math.pi / 4:
            passed[k] = (i + 1) * dt
    if i in (60, 180, 300, steps - 1):
        frames.append(render_frame(world, view=get_scene("dominoes").view, size=(480, 110)))

assert not np.isnan(passed).any(), "every domino falls"
speed = np.polyfit(passed[5:25], np.arange(5, 25) * spacing, 1)[0]
print(f"every domino fell; the wave runs at {speed:.2f} m/s")
assert 1.0 < speed < 20.0
# at the end each domino leans on the next, all at one angle short of flat; the last is flat
tilt = np.degrees([abs(d.angle) for d in dominoes])
print(f"leaning at {tilt[:-1].mean():.1f} +- {tilt[:-1].std():.2f} degrees, "
      f"the last at {tilt[-1]:.1f}")
assert 60 < tilt[:-1].mean() < 88 and tilt[:-1].std() < 0.5 and abs(tilt[-1] - 90) < 0.5

fig, axes = plt.subplots(len(frames) + 1, 1, figsize=(8, 7),
                         gridspec_kw={"height_ratios": [1] * len(frames) + [2.2]})
for ax, frame in zip(axes, frames):
    ax.imshow(frame)
    ax.axis("off")
axes[-1].plot(np.arange(len(dominoes)) * spacing, passed, "o")
axes[-1].set_xlabel("position along the row, m")
axes[-1].set_ylabel("passes 45°, s")
fig.tight_layout()
plt.show()
