"""The joint verbs for all joint types at once: each verb calls the type modules in turn.

Joints of one type are solved together by their module's kernel (one call per type per pass, so
the stores are passed once per pass rather than once per joint). ``ids`` is a tuple with one
array of joint rows per type, in the order of :data:`JOINT_MODULES`.
"""

from __future__ import annotations

from .._core.jit import kernel
from .joints import distance, gear, motor, mouse, prismatic, pulley, revolute, weld, wheel

JOINT_MODULES = ("revolute", "distance", "prismatic", "weld", "wheel", "mouse",
                 "motor", "pulley", "gear")
"""Type modules in dispatch order; ``World._joint_rows`` builds ``ids`` in this order."""


@kernel
def prepare_joints(joints, ids, bodies, h, warm_starting):
    revolute.prepare(joints, ids[0], bodies, h, warm_starting)
    distance.prepare(joints, ids[1], bodies, h, warm_starting)
    prismatic.prepare(joints, ids[2], bodies, h, warm_starting)
    weld.prepare(joints, ids[3], bodies, h, warm_starting)
    wheel.prepare(joints, ids[4], bodies, h, warm_starting)
    mouse.prepare(joints, ids[5], bodies, h, warm_starting)
    motor.prepare(joints, ids[6], bodies, h, warm_starting)
    pulley.prepare(joints, ids[7], bodies, h, warm_starting)
    gear.prepare(joints, ids[8], bodies, h, warm_starting)


@kernel
def warm_start_joints(joints, ids, bodies):
    revolute.warm_start(joints, ids[0], bodies)
    distance.warm_start(joints, ids[1], bodies)
    prismatic.warm_start(joints, ids[2], bodies)
    weld.warm_start(joints, ids[3], bodies)
    wheel.warm_start(joints, ids[4], bodies)
    mouse.warm_start(joints, ids[5], bodies)
    motor.warm_start(joints, ids[6], bodies)
    pulley.warm_start(joints, ids[7], bodies)
    gear.warm_start(joints, ids[8], bodies)


@kernel
def solve_joints(joints, ids, bodies, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
                 baumgarte):
    revolute.solve(joints, ids[0], bodies, h, use_bias, soft, bias_rate, mass_scale,
                   impulse_scale, baumgarte)
    distance.solve(joints, ids[1], bodies, h, use_bias, soft, bias_rate, mass_scale,
                   impulse_scale, baumgarte)
    prismatic.solve(joints, ids[2], bodies, h, use_bias, soft, bias_rate, mass_scale,
                    impulse_scale, baumgarte)
    weld.solve(joints, ids[3], bodies, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
               baumgarte)
    wheel.solve(joints, ids[4], bodies, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
                baumgarte)
    mouse.solve(joints, ids[5], bodies, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
                baumgarte)
    motor.solve(joints, ids[6], bodies, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
                baumgarte)
    pulley.solve(joints, ids[7], bodies, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
                 baumgarte)
    # Gears last: they read the coordinates the coupled joints have just enforced.
    gear.solve(joints, ids[8], bodies, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
               baumgarte)
