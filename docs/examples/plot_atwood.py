"""
Atwood's machine
================

Two platforms hang from one rope over two pulleys (a pulley joint): a 2 kg and a 3 kg one.
Newton's second law for the pair gives each an acceleration ``a = g (m2 - m1) / (m1 + m2)``,
2 m/s^2 here, the heavy one down, the light one up, until the light one reaches its pulley.
This is the ``pulley`` scene of :mod:`impulse2d.scenes` without the boxes it drops on the light
platform; beside it a crate rises on a block and tackle of ratio 2.
"""

import matplotlib.pyplot as plt
import numpy as np

import impulse2d as i2d
from impulse2d.render import render_frame
from impulse2d.scenes import build_scene, get_scene, step_scene

world = i2d.World(enable_sleep=False)
info = build_scene(world, "pulley", drops=0)       # Atwood alone: no boxes dropped
light, heavy = info.bodies["light"], info.bodies["heavy"]
m1, m2, g = light.mass, heavy.mass, 10.0
dt, steps = 1 / 60, 90
y_light, y_heavy, frames = [light.position.y], [heavy.position.y], []
for i in range(steps):
    step_scene(world, info, i, dt)
    y_light.append(light.position.y)
    y_heavy.append(heavy.position.y)
    if i % 30 == 29:
        frames.append(render_frame(world, view=get_scene("pulley").view, size=(200, 150)))
t = np.arange(steps + 1) * dt
a_expected = g * (m2 - m1) / (m1 + m2)
# fit y = y0 + v0 t + a t^2 / 2 over the run
a_light = 2 * np.polyfit(t, y_light, 2)[0]
a_heavy = 2 * np.polyfit(t, y_heavy, 2)[0]
print(f"m1 = {m1:.2f} kg, m2 = {m2:.2f} kg: expected {a_expected:.3f} m/s^2, "
      f"light {a_light:+.3f}, heavy {a_heavy:+.3f}")
assert abs(a_light - a_expected) < 0.02 * a_expected
assert abs(a_heavy + a_expected) < 0.02 * a_expected

fig = plt.figure(figsize=(10, 3.2))
ax = fig.add_axes([0.07, 0.15, 0.38, 0.75])
ax.plot(t, np.array(y_light) - y_light[0], label="light platform")
ax.plot(t, np.array(y_heavy) - y_heavy[0], label="heavy platform")
ax.plot(t, a_expected * t ** 2 / 2, "k--", lw=1, label="± a t² / 2")
ax.plot(t, -a_expected * t ** 2 / 2, "k--", lw=1)
ax.set_xlabel("time, s")
ax.set_ylabel("height change, m")
ax.legend(fontsize=8)
for n, frame in enumerate(frames):
    sub = fig.add_axes([0.47 + 0.175 * n, 0.1, 0.17, 0.8])
    sub.imshow(frame)
    sub.set_title(f"t = {(n + 1) * 0.5:.1f} s", fontsize=8)
    sub.axis("off")
plt.show()
