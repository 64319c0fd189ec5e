"""Machine scenes: a car on a suspension, Box2D's tumbler and a body dragged by a mouse joint.

``car``
    A chassis on two wheels (wheel joints: a vertical suspension spring of 5 Hz, damping ratio
    0.7, in the chassis frame, and a motor on the rear wheel) driving right over flat ground, a
    row of small bumps, a ramp up and down and a bridge of revolute-jointed planks.
``tumbler``
    A hollow square drum (four thick walls on one dynamic body) hinged at its centre to a static
    body; a revolute motor turns it slowly with a large torque, and the small boxes inside it
    tumble over each other as it turns.
``mouse_drag``
    A few boxes on the ground; a mouse joint lifts one of them, swings it once around a circle
    and drops it onto a small pyramid of boxes. The mouse target moves every step, through the
    scene's per-step hook :attr:`SceneInfo.update`.

Every builder uses only the public API (``world.create_body``, ``body.create_*`` and
``world.create_*_joint``); lengths are in m, masses in kg, angles in rad and rates in rad/s.
``pulley``
    Atwood's machine (a light and a heavy box on one rope over two ground points) beside a block
    and tackle (ratio 2) in which a 2 kg counterweight lifts a 3.6 kg crate, while a few boxes
    drop onto the light box's platform and tip the balance.
``gears``
    A motor turns a small wheel; gear joints couple it to a wheel twice its size (ratio 2) and
    that to a rack sliding on a prismatic joint (rack and pinion). The motor reverses every
    4 s (the per-step hook), so the rack shuttles back and forth.
"""

from __future__ import annotations

import math

from . import SceneInfo, scene

__all__ = ["car", "tumbler", "mouse_drag", "pulley", "gears", "CAR_TRACK", "drag_target"]


# --------------------------------------------------------------------------------------------
# car
# --------------------------------------------------------------------------------------------

# The ground profile the car drives over: a polyline of (x, y) points, m. Flat start, a ramp up
# to a 1.2 m plateau and down again, then flat ground to the bridge gap and beyond it.
CAR_TRACK = ((-12.0, 0.0), (14.0, 0.0), (20.0, 1.2), (24.0, 1.2), (30.0, 0.0), (36.0, 0.0))
BRIDGE_START, BRIDGE_PLANKS, BRIDGE_PLANK_LENGTH = 36.0, 10, 1.2   # the gap is 12 m wide
BRIDGE_END = BRIDGE_START + BRIDGE_PLANKS * BRIDGE_PLANK_LENGTH
TRACK_END = BRIDGE_END + 20.0
BUMPS_X = tuple(3.0 + 1.2 * k for k in range(8))    # centres of the small bumps on the flat start

# The chassis outline (body frame, m): a low wedge, wider at the bottom.
CHASSIS_OUTLINE = ((-1.5, -0.5), (1.5, -0.5), (1.5, 0.0), (0.0, 0.9), (-1.15, 0.9), (-1.5, 0.2))
WHEEL_MOUNTS = ((-1.0, -0.65), (1.0, -0.65))        # rear, front: wheel centres, chassis frame


def _car_ground(world):
    """The static track: the polyline, the bumps, a ground below the gap, and the bridge pins."""
    ground = world.create_body(type="static", position=(0.0, 0.0))
    for p, q in zip(CAR_TRACK, CAR_TRACK[1:]):
        ground.create_segment(p, q, friction=0.9)
    ground.create_segment((BRIDGE_END, 0.0), (TRACK_END, 0.0), friction=0.9)
    # The gap's floor, 3 m down, catches the car if the bridge ever fails (so it is visible).
    ground.create_segment((BRIDGE_START, -3.0), (BRIDGE_END, -3.0), friction=0.9)
    for x in BUMPS_X:
        # a low rounded hump, 0.3 m wide and about 0.12 m high: half of it is below the ground
        ground.create_box(0.15, 0.04, center=(x, 0.0), radius=0.08, friction=0.9)
    return ground


def _car_bridge(world, ground, density):
    """Planks pinned end to end across the gap and to the ground at both ends."""
    planks, previous = [], ground
    for k in range(BRIDGE_PLANKS):
        x = BRIDGE_START + (k + 0.5) * BRIDGE_PLANK_LENGTH
        plank = world.create_body(position=(x, -0.125))
        # capsules, so the wheels roll smoothly over the joints between planks
        half = 0.5 * BRIDGE_PLANK_LENGTH - 0.125
        plank.create_capsule((-half, 0.0), (half, 0.0), 0.125, density=density, friction=0.9)
        world.create_revolute_joint(previous, plank, (x - 0.5 * BRIDGE_PLANK_LENGTH, -0.125))
        planks.append(plank)
        previous = plank
    world.create_revolute_joint(previous, ground, (BRIDGE_END, -0.125))
    return planks


@scene("car", "A car (chassis on two wheels with 5 Hz sprung suspension, rear-wheel motor) "
       "drives right over bumps, a ramp and a bridge of hinged planks.", steps=780,
       view=(-8.0, -4.0, 58.0, 12.0), motor_speed=12.0, max_motor_torque=40.0,
       suspension_hertz=5.0, suspension_damping=0.7, wheel_radius=0.4, start_x=-6.0)
def car(world, motor_speed=12.0, max_motor_torque=40.0, suspension_hertz=5.0,
        suspension_damping=0.7, wheel_radius=0.4, start_x=-6.0, all_wheel_drive=False,
        bridge_density=4.0):
    """``motor_speed`` is the wheels' target spin, rad/s (positive drives to the right, so the
    car's top speed on flat ground is about ``motor_speed * wheel_radius`` m/s)."""
    wheel_radius = float(wheel_radius)
    if not 0.1 <= wheel_radius <= 0.6:
        raise ValueError(f"car needs 0.1 <= wheel_radius <= 0.6 m, got {wheel_radius}")
    ground = _car_ground(world)
    planks = _car_bridge(world, ground, bridge_density)

    # Chassis centre high enough that the wheels start just touching the ground.
    mount_y = WHEEL_MOUNTS[0][1]
    height = wheel_radius - mount_y
    chassis = world.create_body(position=(start_x, height))
    chassis.create_polygon(CHASSIS_OUTLINE, density=1.0, friction=0.5)    # about 3.5 kg

    wheels, joints = [], []
    for k, (mx, my) in enumerate(WHEEL_MOUNTS):
        centre = (start_x + mx, height + my)
        wheel = world.create_body(position=centre)
        # dense rubber tyres: grip (friction 0.9) and a low centre of mass (about 1 kg each)
        wheel.create_circle(wheel_radius, density=2.0, friction=0.9)
        driven = k == 0 or bool(all_wheel_drive)
        # Wheels spin clockwise (negative) to drive right. The axis is the chassis' vertical.
        joint = world.create_wheel_joint(
            chassis, wheel, centre, (0.0, 1.0), hertz=suspension_hertz,
            damping_ratio=suspension_damping, enable_motor=driven,
            motor_speed=-float(motor_speed) if driven else 0.0,
            max_motor_torque=float(max_motor_torque) if driven else 0.0,
            enable_limit=True, lower=-0.25, upper=0.25)
        wheels.append(wheel)
        joints.append(joint)
    return SceneInfo(
        bodies={"chassis": chassis, "wheels": wheels, "ground": ground, "planks": planks},
        data={"joints": joints, "wheel_mounts": WHEEL_MOUNTS, "wheel_radius": wheel_radius,
              "motor_speed": float(motor_speed), "bridge": (BRIDGE_START, BRIDGE_END),
              "track": CAR_TRACK, "bumps_x": BUMPS_X})


# --------------------------------------------------------------------------------------------
# tumbler
# --------------------------------------------------------------------------------------------

TUMBLER_CENTRE = (0.0, 8.0)


@scene("tumbler", "Box2D's tumbler: a hollow 10 m square drum turned slowly by a motor about "
       "its centre, with a few hundred small boxes tumbling inside.", steps=900,
       view=(-9.0, -1.0, 9.0, 17.0), count=300, box_size=0.3, motor_speed=0.05 * math.pi)
def tumbler(world, count=300, box_size=0.3, motor_speed=0.05 * math.pi, inner_half=5.0,
            wall=0.5, max_motor_torque=1.0e8):
    """``box_size`` is the small boxes' side (m); ``motor_speed`` the drum's turn rate (rad/s,
    counter-clockwise); ``inner_half`` half the drum's inside width (m)."""
    count = int(count)
    box_size, inner_half, wall = float(box_size), float(inner_half), float(wall)
    if count < 0:
        raise ValueError(f"tumbler needs count >= 0, got {count}")
    pitch = 1.5 * box_size                                   # grid spacing of the start layout
    per_row = int((2.0 * inner_half - box_size) // pitch)
    rows = -(-count // per_row) if count else 0
    if per_row < 1 or rows * pitch > 2.0 * inner_half - box_size:
        raise ValueError(f"{count} boxes of {box_size} m do not fit in the drum")

    cx, cy = TUMBLER_CENTRE
    hinge = world.create_body(type="static", position=(cx, cy))   # no shape: holds the pin
    drum = world.create_body(position=(cx, cy))
    # Four walls on one body; heavy (density 5) so that the boxes barely disturb its turning.
    edge = inner_half + 0.5 * wall                              # wall centre line
    span = inner_half + wall                                    # walls overlap at the corners
    for x, y, hx, hy in ((edge, 0.0, 0.5 * wall, span), (-edge, 0.0, 0.5 * wall, span),
                         (0.0, edge, span, 0.5 * wall), (0.0, -edge, span, 0.5 * wall)):
        drum.create_box(hx, hy, center=(x, y), density=5.0)
    motor = world.create_revolute_joint(hinge, drum, (cx, cy), enable_motor=True,
                                        motor_speed=float(motor_speed),
                                        max_motor_torque=float(max_motor_torque))

    # The boxes start in a loose grid in the lower part of the drum and fall into a heap.
    boxes = []
    x0 = cx - 0.5 * (per_row - 1) * pitch
    y0 = cy - inner_half + 0.5 * box_size + 0.05
    for k in range(count):
        row, col = divmod(k, per_row)
        box = world.create_body(position=(x0 + col * pitch, y0 + row * pitch))
        box.create_box(0.5 * box_size, 0.5 * box_size, density=1.0, friction=0.6)
        boxes.append(box)
    return SceneInfo(bodies={"drum": drum, "hinge": hinge, "boxes": boxes},
                     data={"joint": motor, "motor_speed": float(motor_speed),
                           "inner_half": inner_half, "box_size": box_size,
                           "centre": TUMBLER_CENTRE})


# --------------------------------------------------------------------------------------------
# mouse drag
# --------------------------------------------------------------------------------------------

# The scripted mouse: times (s) at which each phase starts, and points (m). Rest, lift, one
# turn of a circle, carry over the pyramid, hold still there (so that the box stops swinging
# and falls straight down), let go.
DRAG_START = (-6.0, 0.5)          # the dragged box's centre at rest on the ground
DRAG_LIFT_TO = (-6.0, 4.0)
DRAG_CIRCLE_CENTRE, DRAG_CIRCLE_RADIUS = (-4.0, 4.0), 2.0
PILE_X = 3.0                      # centre of the pyramid of boxes it is dropped onto
DRAG_DROP_AT = (3.3, 4.2)         # 0.7 m above the pyramid's top, a little off its centre
DRAG_TIMES = {"lift": 0.5, "circle": 1.5, "carry": 4.5, "hold": 6.0, "release": 6.5}
DRAG_CIRCLE_PERIOD = DRAG_TIMES["carry"] - DRAG_TIMES["circle"]     # one turn, 3 s


def _ease(s):
    """0 -> 1 with zero slope at both ends (a smooth start and stop), for s in [0, 1]."""
    s = min(max(s, 0.0), 1.0)
    return 0.5 - 0.5 * math.cos(math.pi * s)


def _between(p, q, s):
    e = _ease(s)
    return (p[0] + (q[0] - p[0]) * e, p[1] + (q[1] - p[1]) * e)


def drag_target(t):
    """Where the scripted mouse is at time ``t`` (s): a world point, or None once released."""
    lift, circle, carry, hold, release = (DRAG_TIMES[k] for k in
                                          ("lift", "circle", "carry", "hold", "release"))
    if t < lift:
        return DRAG_START
    if t < circle:
        return _between(DRAG_START, DRAG_LIFT_TO, (t - lift) / (circle - lift))
    if t < carry:
        # Constant angular speed, clockwise over the top, starting at the circle's left point.
        phase = math.pi - 2.0 * math.pi * (t - circle) / DRAG_CIRCLE_PERIOD
        (cx, cy), r = DRAG_CIRCLE_CENTRE, DRAG_CIRCLE_RADIUS
        return (cx + r * math.cos(phase), cy + r * math.sin(phase))
    if t < release:
        return _between(DRAG_LIFT_TO, DRAG_DROP_AT, (t - carry) / (hold - carry))
    return None


@scene("mouse_drag", "A mouse joint lifts a box, swings it once around a 2 m circle and drops "
       "it onto a small pyramid of boxes.", steps=540, view=(-10.0, -1.0, 8.0, 9.0),
       hertz=5.0, damping_ratio=0.7, pyramid_base=3)
def mouse_drag(world, hertz=5.0, damping_ratio=0.7, pyramid_base=3, force_per_weight=50.0):
    """``hertz`` and ``damping_ratio`` are the mouse spring's; ``force_per_weight`` caps its
    pull in multiples of the dragged box's weight."""
    pyramid_base = int(pyramid_base)
    if pyramid_base < 1:
        raise ValueError(f"mouse_drag needs pyramid_base >= 1, got {pyramid_base}")
    ground = world.create_body(type="static", position=(0.0, -0.5))
    ground.create_box(12.0, 0.5)

    dragged = world.create_body(position=DRAG_START)
    dragged.create_box(0.5, 0.5)                                         # 1 kg
    # a pyramid of 1 m boxes to drop it onto
    pile = []
    for row in range(pyramid_base):
        for k in range(pyramid_base - row):
            x = PILE_X + k - 0.5 * (pyramid_base - row - 1)
            box = world.create_body(position=(x, 0.5 + row))
            box.create_box(0.5, 0.5)
            pile.append(box)
    loose = []
    for x in (-2.0, -0.5):                                               # two boxes on their own
        box = world.create_body(position=(x, 0.5))
        box.create_box(0.5, 0.5)
        loose.append(box)

    weight = dragged.mass * math.hypot(*world.gravity)
    mouse = world.create_mouse_joint(dragged, DRAG_START, max_force=force_per_weight * weight,
                                     hertz=hertz, damping_ratio=damping_ratio)
    held = {"joint": mouse}

    def move_mouse(world, step):
        # The mouse follows the script by the world's clock, so any time step works.
        target = drag_target(world.time)
        joint = held["joint"]
        if joint is None:
            return
        if target is None:                                     # the button is let go
            world.destroy_joint(joint)
            held["joint"] = None
        else:
            joint.target = target

    return SceneInfo(bodies={"dragged": dragged, "pile": pile, "loose": loose, "ground": ground},
                     data={"joint": mouse, "target": drag_target, "hertz": float(hertz),
                           "damping_ratio": float(damping_ratio), "times": dict(DRAG_TIMES),
                           "circle": (DRAG_CIRCLE_CENTRE, DRAG_CIRCLE_RADIUS,
                                      DRAG_CIRCLE_PERIOD),
                           "pile_top": float(pyramid_base)},
                     update=move_mouse)


# --------------------------------------------------------------------------------------------
# pulley
# --------------------------------------------------------------------------------------------

def _hanging_box(world, x, y, half_width, half_height, mass, fixed_rotation=False):
    body = world.create_body(position=(x, y), fixed_rotation=fixed_rotation)
    body.create_box(half_width, half_height,
                    density=mass / (4.0 * half_width * half_height), friction=0.6)
    return body


@scene("pulley", "Atwood's machine (2 kg and 3 kg platforms on one rope over two pulleys) with "
       "boxes dropping onto the light side, beside a block and tackle (ratio 2) in which a 2 kg "
       "counterweight lifts a 3.6 kg crate.", steps=480, view=(-9.0, -1.0, 9.0, 13.0),
       drops=4)
def pulley(world, drops=4):
    ground = world.create_body(type="static")
    ground.create_box(9.0, 0.25, center=(0.0, -0.25), friction=0.6)
    for x in (-6.0, -3.0, 3.0, 6.0):                     # the pulley wheels, as fixed discs
        ground.create_circle(0.3, center=(x, 11.0))
    # Atwood's machine: the heavy side wins, until the drops land on the light platform.
    # The platform hangs from one point: it is kept level (as a real one is by its bridle), or
    # any off-centre load would tip it and dump its boxes.
    light = _hanging_box(world, -6.0, 6.0, 0.8, 0.1, 2.0, fixed_rotation=True)
    heavy = _hanging_box(world, -3.0, 6.0, 0.5, 0.5, 3.0)
    atwood = world.create_pulley_joint(light, heavy, (-6.0, 11.0), (-3.0, 11.0),
                                       (-6.0, 6.1), (-3.0, 6.5))
    boxes = [_hanging_box(world, -6.0 + 0.4 * (k % 3 - 1), 8.0 + 0.6 * k, 0.2, 0.2, 0.6)
             for k in range(int(drops))]
    # Block and tackle: the crate hangs from a rope reeved twice, so 2 kg would hold 4 kg; this
    # crate is lighter and rises at half the speed the counterweight falls.
    counterweight = _hanging_box(world, 3.0, 7.0, 0.3, 0.3, 2.0)
    crate = _hanging_box(world, 6.0, 4.0, 0.6, 0.6, 3.6)
    tackle = world.create_pulley_joint(counterweight, crate, (3.0, 11.0), (6.0, 11.0),
                                       (3.0, 7.3), (6.0, 4.6), ratio=2.0)
    return SceneInfo(bodies={"light": light, "heavy": heavy, "drops": boxes,
                             "counterweight": counterweight, "crate": crate, "ground": ground},
                     data={"atwood": atwood, "tackle": tackle})


# --------------------------------------------------------------------------------------------
# gears
# --------------------------------------------------------------------------------------------

def _wheel(world, position, radius, spokes):
    """A disc with ``spokes`` thin boxes across it, so its turning shows in pictures."""
    body = world.create_body(position=position)
    body.create_circle(radius)
    for k in range(spokes):
        angle = math.pi * k / spokes
        body.create_box(0.9 * radius, 0.05, angle=angle, density=0.0)
    return body


@scene("gears", "A motor turns a 0.5 m wheel; gear joints couple it to a 1 m wheel (ratio 2) "
       "and that to a rack on a prismatic joint (rack and pinion). The motor reverses every "
       "4 s, so the rack shuttles to and fro with three crates on it.", steps=600, view=(-6.0, -3.0, 6.0, 4.0),
       motor_speed=1.5, period=4.0)
def gears(world, motor_speed=1.5, period=4.0):
    ground = world.create_body(type="static")
    small_r, big_r = 0.5, 1.0
    small = _wheel(world, (-small_r - big_r, 1.0), small_r, 2)
    big = _wheel(world, (0.0, 1.0), big_r, 3)
    rack = world.create_body(position=(0.0, 1.0 - big_r - 0.1))
    rack.create_box(3.5, 0.1, friction=0.8)
    # Crates riding on the rack, clear of the wheels over its whole travel.
    crates = []
    for x in (1.7, 2.4, 3.1):
        crate = world.create_body(position=(x, 0.25))
        crate.create_box(0.25, 0.25, friction=0.8)
        crates.append(crate)
    drive = world.create_revolute_joint(ground, small, small.position, enable_motor=True,
                                        motor_speed=motor_speed, max_motor_torque=50.0)
    axle = world.create_revolute_joint(ground, big, big.position)
    slide = world.create_prismatic_joint(ground, rack, rack.position, (1.0, 0.0))
    # Meshing wheels turn opposite ways at speeds inverse to their radii:
    # small_angle + (big_r / small_r) big_angle stays constant. The rack's contact point moves
    # with the big wheel's rim: big_angle * big_r + translation stays constant.
    mesh = world.create_gear_joint(drive, axle, ratio=big_r / small_r)
    pinion = world.create_gear_joint(axle, slide, ratio=1.0 / big_r)

    def reverse_motor(world, step):
        # Turn one way for ``period`` seconds, then the other.
        drive.motor_speed = motor_speed if (step * (1.0 / 60.0)) % (2.0 * period) < period \
            else -motor_speed

    return SceneInfo(bodies={"small": small, "big": big, "rack": rack, "crates": crates,
                             "ground": ground},
                     data={"drive": drive, "axle": axle, "slide": slide, "mesh": mesh,
                           "pinion": pinion, "radii": (small_r, big_r)},
                     update=reverse_motor)
