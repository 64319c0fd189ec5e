"""Joint scenes: chains, pendulums, a bridge, a joint grid, a Newton's cradle and ragdolls.

``chain`` follows the peer benchmark's ``chain_100`` exactly (SCENES.md section 3); ``bridge``
and ``joint_grid`` follow Box2D's / Solver2D's samples (160 planks 1 x 0.25 m of density 20,
pinned at both ends; 100 x 100 circles r = 0.4 m joined to their right and lower neighbours,
gravity scale 2, the 7 middle bodies of the top row static, no collision among them).

Builders use only the public API (``world.create_body``, ``body.create_*`` and
``world.create_revolute_joint``). Every scene's ``SceneInfo.data["joint_handles"]`` lists its
joints in creation order, and ``SceneInfo.data["joints"]`` the same joints as
``(body_a, body_b, anchor)``: indices into ``SceneInfo.bodies["all"]`` (every body of the scene,
in creation order) and the world anchor at creation, so that a metric can compute joint gaps
from body states alone, for any engine.
"""

from __future__ import annotations

import math

from . import SceneInfo, scene

__all__ = ["chain", "pendulum", "bridge", "joint_grid", "newtons_cradle", "ragdolls",
           "PENDULUM_LENGTHS"]

PENDULUM_LENGTHS = (1.0, 2.0, 3.0, 4.0, 5.0)


class _Builder:
    """Creates bodies and revolute joints and remembers them in order."""

    def __init__(self, world):
        self.world = world
        self.bodies = []
        self.index = {}
        self.joints = []
        self.joint_defs = []

    def body(self, **kw):
        b = self.world.create_body(**kw)
        self.index[id(b)] = len(self.bodies)
        self.bodies.append(b)
        return b

    def revolute(self, a, b, anchor, **options):
        anchor = (float(anchor[0]), float(anchor[1]))
        j = self.world.create_revolute_joint(a, b, anchor, **options)
        self.joints.append(j)
        self.joint_defs.append((self.index[id(a)], self.index[id(b)], anchor))
        return j

    def info(self, bodies, data):
        bodies = {**bodies, "all": self.bodies}
        return SceneInfo(bodies=bodies, data={**data, "joints": self.joint_defs,
                                              "joint_handles": self.joints})


# --------------------------------------------------------------------------------------------
# benchmark scenes
# --------------------------------------------------------------------------------------------

@scene("chain", "A chain of 100 links (1 x 0.25 m boxes) hanging from a static anchor by "
       "revolute joints; it starts horizontal and swings down. No contacts at all.",
       steps=600, view=(-105.0, -105.0, 105.0, 10.0), links=100)
def chain(world, links=100):
    links = int(links)
    if links < 1:
        raise ValueError(f"chain needs links >= 1, got {links}")
    bld = _Builder(world)
    group = -1                                   # one non-colliding group for the whole chain
    anchor = bld.body(type="static", position=(0.0, 0.0))
    anchor.create_box(0.25, 0.25, group=group)
    prev, chain_links = anchor, []
    for i in range(links):
        body = bld.body(type="dynamic", position=(i + 0.5, 0.0))
        body.create_box(0.5, 0.125, group=group)       # 1 m x 0.25 m, mass 0.25 kg
        bld.revolute(prev, body, (float(i), 0.0))
        chain_links.append(body)
        prev = body
    return bld.info({"anchor": anchor, "links": chain_links, "last": chain_links[-1]},
                    {"links": links, "link_length": 1.0})


@scene("bridge", "A 160 m bridge of 160 planks (1 x 0.25 m, density 20) joined by revolute "
       "joints and pinned at both ends; it sags under its own weight.", steps=600,
       view=(-84.0, -18.0, 84.0, 4.0), planks=160)
def bridge(world, planks=160):
    planks = int(planks)
    if planks < 1:
        raise ValueError(f"bridge needs planks >= 1, got {planks}")
    bld = _Builder(world)
    x0 = -0.5 * planks
    ground = bld.body(type="static", position=(0.0, 0.0))   # no shape: only holds the pins
    prev, boards = ground, []
    for i in range(planks):
        body = bld.body(type="dynamic", position=(x0 + i + 0.5, 0.0), linear_damping=0.1,
                        angular_damping=0.1)
        body.create_box(0.5, 0.125, density=20.0)
        bld.revolute(prev, body, (x0 + i, 0.0))
        boards.append(body)
        prev = body
    bld.revolute(prev, ground, (x0 + planks, 0.0))
    return bld.info({"ground": ground, "planks": boards, "middle": boards[planks // 2]},
                    {"planks": planks, "span": float(planks)})


@scene("joint_grid", "A 100 x 100 grid of circles (r = 0.4 m, 1 m apart) joined to their "
       "right and lower neighbours by revolute joints (19 794: none between two static "
       "bodies), hanging from the 7 "
       "middle bodies of its top row; gravity scale 2, no collision among them.", steps=300,
       view=(-80.0, -150.0, 80.0, 5.0), n=100)
def joint_grid(world, n=100):
    n = int(n)
    if n < 2:
        raise ValueError(f"joint_grid needs n >= 2, got {n}")
    bld = _Builder(world)
    mid = n // 2
    grid = []                                    # grid[k][i]: column k (x), row i (down)
    pins = []                                    # the static top-row bodies
    for k in range(n):
        column = []
        for i in range(n):
            static = i == 0 and mid - 3 <= k <= mid + 3
            x, y = float(k - mid), -float(i)
            body = bld.body(type="static" if static else "dynamic", position=(x, y),
                            gravity_scale=2.0)
            body.create_circle(0.4, group=-1)
            if static:
                pins.append(body)
            if i > 0:
                bld.revolute(column[i - 1], body, (x, y + 0.5))
            if k > 0 and not (static and grid[k - 1][i] in pins):
                bld.revolute(grid[k - 1][i], body, (x - 0.5, y))
            column.append(body)
        grid.append(column)
    return bld.info({"grid": grid, "pins": pins, "corner": grid[0][n - 1]},
                    {"n": n, "pitch": 1.0, "radius": 0.4})


# --------------------------------------------------------------------------------------------
# demo scenes
# --------------------------------------------------------------------------------------------

def pendulum_period(length, amplitude):
    """Period of a point pendulum (large-amplitude series to 4th order), s."""
    k = math.sin(0.5 * amplitude) ** 2
    return 2.0 * math.pi * math.sqrt(length / 10.0) * (1.0 + k / 4.0 + 9.0 * k * k / 64.0)


@scene("pendulum", "Five pendulums (small balls on 1 to 5 m rods) released from 30 degrees, "
       "and a double pendulum.", steps=600, view=(-8.0, -8.0, 20.0, 2.0))
def pendulum(world, amplitude_deg=30.0, radius=0.1):
    bld = _Builder(world)
    th = math.radians(amplitude_deg)
    ceiling = bld.body(type="static", position=(0.0, 0.0))
    ceiling.create_box(10.0, 0.1, center=(6.0, 0.1))
    bobs = []
    for k, length in enumerate(PENDULUM_LENGTHS):
        pivot = (2.0 * k, 0.0)
        pos = (pivot[0] + length * math.sin(th), pivot[1] - length * math.cos(th))
        body = bld.body(type="dynamic", position=pos)
        body.create_circle(radius, group=-1)
        bld.revolute(ceiling, body, pivot)
        bobs.append(body)
    # double pendulum: two 1.5 m rods (thin boxes), the upper one horizontal
    pivot = (13.0, 0.0)
    upper = bld.body(type="dynamic", position=(pivot[0] + 0.75, pivot[1]))
    upper.create_box(0.75, 0.05, group=-1)
    lower = bld.body(type="dynamic", position=(pivot[0] + 1.5, pivot[1] - 0.75),
                     angle=-0.5 * math.pi)
    lower.create_box(0.75, 0.05, group=-1)
    bld.revolute(ceiling, upper, pivot)
    bld.revolute(upper, lower, (pivot[0] + 1.5, pivot[1]))
    return bld.info({"ceiling": ceiling, "bobs": bobs, "double": [upper, lower]},
                    {"lengths": list(PENDULUM_LENGTHS), "amplitude": th,
                     "periods": [pendulum_period(L, th) for L in PENDULUM_LENGTHS]})


@scene("newtons_cradle", "Newton's cradle: five balls (r = 0.5 m, restitution 1, no friction) "
       "on 4 m rods, 2 cm apart; the left one is pulled aside 45 degrees and let go.",
       steps=600, view=(-7.0, -5.0, 7.0, 1.0))
def newtons_cradle(world, count=5, length=4.0, radius=0.5, pull_deg=45.0, gap=0.02):
    # The 2 cm gap makes the impacts sequential, one pair at a time, as in a real cradle; with
    # touching balls the solver resolves the row as one simultaneous contact island and the
    # momentum spreads over several balls instead of passing through to the last one.
    count = int(count)
    if count < 1:
        raise ValueError(f"newtons_cradle needs count >= 1, got {count}")
    bld = _Builder(world)
    frame = bld.body(type="static", position=(0.0, 0.0))
    frame.create_box(count * radius + 1.0, 0.1, center=(0.0, 0.1))
    balls = []
    for k in range(count):
        pivot = ((2.0 * radius + gap) * (k - 0.5 * (count - 1)), 0.0)
        th = -math.radians(pull_deg) if k == 0 else 0.0
        pos = (pivot[0] + length * math.sin(th), pivot[1] - length * math.cos(th))
        body = bld.body(type="dynamic", position=pos)
        body.create_circle(radius, restitution=1.0, friction=0.0)
        bld.revolute(frame, body, pivot)
        balls.append(body)
    return bld.info({"frame": frame, "balls": balls},
                    {"count": count, "length": length, "radius": radius, "gap": gap,
                     "pull": math.radians(pull_deg)})


def _ragdoll(bld, x, y, group, motor, vx):
    """One ragdoll standing with its feet at height ``y``; returns (parts dict, joints)."""
    mat = {"group": group}
    parts = {}

    def part(name, cx, cy, hx, hy):
        body = bld.body(type="dynamic", position=(x + cx, y + cy), linear_velocity=(vx, 0.0))
        body.create_capsule((0.0, -hy + hx), (0.0, hy - hx), hx, **mat)
        parts[name] = body
        return body

    head = bld.body(type="dynamic", position=(x, y + 1.75), linear_velocity=(vx, 0.0))
    head.create_circle(0.15, **mat)
    parts["head"] = head
    torso = part("torso", 0.0, 1.3, 0.15, 0.3)
    limbs = []
    for side, dx in (("l", -0.05), ("r", 0.05)):
        upper_leg = part(f"upper_leg_{side}", dx, 0.75, 0.08, 0.25)
        lower_leg = part(f"lower_leg_{side}", dx, 0.25, 0.07, 0.25)
        upper_arm = part(f"upper_arm_{side}", dx, 1.35, 0.06, 0.2)
        lower_arm = part(f"lower_arm_{side}", dx, 0.95, 0.05, 0.2)
        limbs.append((side, dx, upper_leg, lower_leg, upper_arm, lower_arm))
    joints = {}
    lim = {"enable_limit": True}
    joints["neck"] = bld.revolute(torso, head, (x, y + 1.6), lower_angle=-0.5,
                                  upper_angle=0.5, **lim)
    for side, dx, upper_leg, lower_leg, upper_arm, lower_arm in limbs:
        hip = {"enable_motor": True, "motor_speed": 0.0, "max_motor_torque": 5.0} if motor else {}
        joints[f"hip_{side}"] = bld.revolute(torso, upper_leg, (x + dx, y + 1.0),
                                             lower_angle=-0.3 * math.pi,
                                             upper_angle=0.5 * math.pi, **lim, **hip)
        joints[f"knee_{side}"] = bld.revolute(upper_leg, lower_leg, (x + dx, y + 0.5),
                                              lower_angle=-0.5 * math.pi, upper_angle=0.0,
                                              **lim)
        joints[f"shoulder_{side}"] = bld.revolute(torso, upper_arm, (x + dx, y + 1.55),
                                                  lower_angle=-math.pi * 0.9,
                                                  upper_angle=math.pi * 0.9, **lim)
        joints[f"elbow_{side}"] = bld.revolute(upper_arm, lower_arm, (x + dx, y + 1.15),
                                               lower_angle=0.0, upper_angle=0.75 * math.pi,
                                               **lim)
    return parts, joints


@scene("ragdolls", "Six ragdolls (9 capsules and a head each, joined by revolute joints with "
       "angle limits, optional hip motors acting as joint friction) falling onto the ground "
       "and onto each other.", steps=480, view=(-10.0, -1.0, 10.0, 9.0), count=6, motor=True)
def ragdolls(world, count=6, motor=True):
    count = int(count)
    if count < 0:
        raise ValueError(f"ragdolls needs count >= 0, got {count}")
    bld = _Builder(world)
    ground = bld.body(type="static", position=(0.0, -0.5))
    ground.create_box(20.0, 0.5)
    dolls, joints = [], []
    for k in range(count):
        x = -5.0 + 2.0 * (k % 6) + 0.3 * (k // 6)
        y = 1.0 + 2.0 * (k // 6) + 0.7 * (k % 3)
        # a sideways start velocity, so that they topple instead of standing
        parts, js = _ragdoll(bld, x, y, -(k + 1), bool(motor), 2.0 if k % 2 == 0 else -2.0)
        dolls.append(parts)
        joints.append(js)
    return bld.info({"ground": ground, "ragdolls": dolls},
                    {"count": count, "motor": bool(motor), "ragdoll_joints": joints,
                     "joints_per_ragdoll": 9, "bodies_per_ragdoll": 10})
