"""
A pendulum's period
===================

A ball on a massless rod is a revolute joint between a static pivot and a body whose centre
is a distance ``L`` away. For small swings it is a physical pendulum with period
``T = 2 pi sqrt(I_p / (m g L))``, where ``I_p = m L^2 + m r^2 / 2`` is the ball's moment of
inertia about the pivot (a uniform disc of radius ``r``). We release it from 5 degrees and
time its zero crossings.
"""

import math

import matplotlib.pyplot as plt
import numpy as np

import impulse2d as i2d
from impulse2d.render import render_frame

g, L, r, dt = 10.0, 2.0, 0.1, 1 / 240
world = i2d.World(gravity=(0, -g), enable_sleep=False)
pivot = world.create_body(type="static", position=(0, 0))
theta0 = math.radians(5)
ball = world.create_body(position=(L * math.sin(theta0), -L * math.cos(theta0)))
ball.create_circle(r)
world.create_revolute_joint(pivot, ball, (0, 0))

t, angle, frames = [], [], []
for i in range(2400):                                   # 10 s
    world.step(dt)
    x, y = ball.position
    t.append((i + 1) * dt)
    angle.append(math.atan2(x, -y))
    if i % 60 == 0 and len(frames) < 5:
        frames.append(render_frame(world, view=(-0.6, -2.3, 0.6, 0.1), size=(90, 180)))
t, angle = np.array(t), np.array(angle)

# downward zero crossings, linearly interpolated; the period is their spacing
k = np.flatnonzero((angle[:-1] > 0) & (angle[1:] <= 0))
crossings = t[k] + dt * angle[k] / (angle[k] - angle[k + 1])
measured = float(np.mean(np.diff(crossings)))
I_p = ball.mass * L ** 2 + 0.5 * ball.mass * r ** 2
expected = 2 * math.pi * math.sqrt(I_p / (ball.mass * g * L))
# the small-angle period runs 0.05 % short of the true one at 5 degrees (theta0^2 / 16)
expected *= 1 + theta0 ** 2 / 16
print(f"period: measured {measured:.4f} s, expected {expected:.4f} s")
assert abs(measured - expected) < 2e-3 * expected

fig = plt.figure(figsize=(9, 3.2))
ax = fig.add_axes([0.08, 0.15, 0.55, 0.75])
ax.plot(t, np.degrees(angle))
ax.plot(t, np.degrees(theta0 * np.cos(2 * np.pi * t / expected)), "--", lw=1,
        label=f"theta0 cos(2 pi t / T), T = {expected:.3f} s")
ax.set_xlabel("time, s")
ax.set_ylabel("angle, degrees")
ax.legend(loc="lower left", fontsize=8)
for n, frame in enumerate(frames):
    sub = fig.add_axes([0.66 + 0.067 * n, 0.1, 0.065, 0.8])
    sub.imshow(frame)
    sub.axis("off")
plt.show()
