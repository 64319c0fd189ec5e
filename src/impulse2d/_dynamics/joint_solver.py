"""The joint verbs for all joint types at once: each verb calls the type modules in turn.

Joints of one type are solved together by their module's kernel (one call per type per pass, so
the stores are passed once per pass rather than once per joint). A type with no joints is not
called at all: even an empty call passes ~80 arrays (0.1-0.2 us, measured), and the soft step
makes three passes per substep. ``ids`` is a tuple of arrays of joint rows, one per entry of
:data:`ROW_LISTS`.
"""

from __future__ import annotations

from .._core.jit import inline_kernel
from .joints import distance, gear, motor, mouse, prismatic, pulley, revolute, weld, wheel

JOINT_MODULES = ("revolute", "distance", "prismatic", "weld", "wheel", "mouse",
                 "motor", "pulley", "gear")
"""Type modules in dispatch order."""

ROW_LISTS = ("pin",) + JOINT_MODULES
"""The joint row lists of ``ids``, in order (``World._joint_rows`` builds them): first the "pins",
revolute joints with no spring, motor or limit, whose solve has a lean loop of its own
(:func:`revolute.solve_pins`); then each type's rows, the revolute list holding the others."""


@inline_kernel
def prepare_joints(joints, ids, bodies, h, warm_starting):
    if ids[0].shape[0] > 0:
        revolute.prepare(joints, ids[0], bodies, h, warm_starting)
    if ids[1].shape[0] > 0:
        revolute.prepare(joints, ids[1], bodies, h, warm_starting)
    if ids[2].shape[0] > 0:
        distance.prepare(joints, ids[2], bodies, h, warm_starting)
    if ids[3].shape[0] > 0:
        prismatic.prepare(joints, ids[3], bodies, h, warm_starting)
    if ids[4].shape[0] > 0:
        weld.prepare(joints, ids[4], bodies, h, warm_starting)
    if ids[5].shape[0] > 0:
        wheel.prepare(joints, ids[5], bodies, h, warm_starting)
    if ids[6].shape[0] > 0:
        mouse.prepare(joints, ids[6], bodies, h, warm_starting)
    if ids[7].shape[0] > 0:
        motor.prepare(joints, ids[7], bodies, h, warm_starting)
    if ids[8].shape[0] > 0:
        pulley.prepare(joints, ids[8], bodies, h, warm_starting)
    if ids[9].shape[0] > 0:
        gear.prepare(joints, ids[9], bodies, h, warm_starting)


@inline_kernel
def warm_start_joints(joints, ids, bodies):
    if ids[0].shape[0] > 0:
        revolute.warm_start(joints, ids[0], bodies)
    if ids[1].shape[0] > 0:
        revolute.warm_start(joints, ids[1], bodies)
    if ids[2].shape[0] > 0:
        distance.warm_start(joints, ids[2], bodies)
    if ids[3].shape[0] > 0:
        prismatic.warm_start(joints, ids[3], bodies)
    if ids[4].shape[0] > 0:
        weld.warm_start(joints, ids[4], bodies)
    if ids[5].shape[0] > 0:
        wheel.warm_start(joints, ids[5], bodies)
    if ids[6].shape[0] > 0:
        mouse.warm_start(joints, ids[6], bodies)
    if ids[7].shape[0] > 0:
        motor.warm_start(joints, ids[7], bodies)
    if ids[8].shape[0] > 0:
        pulley.warm_start(joints, ids[8], bodies)
    if ids[9].shape[0] > 0:
        gear.warm_start(joints, ids[9], bodies)


@inline_kernel
def solve_joints(joints, ids, bodies, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
                 baumgarte):
    if ids[0].shape[0] > 0:
        revolute.solve_pins(joints, ids[0], bodies, h, use_bias, soft, bias_rate, mass_scale,
                            impulse_scale, baumgarte)
    if ids[1].shape[0] > 0:
        revolute.solve(joints, ids[1], bodies, h, use_bias, soft, bias_rate, mass_scale,
                       impulse_scale, baumgarte)
    if ids[2].shape[0] > 0:
        distance.solve(joints, ids[2], bodies, h, use_bias, soft, bias_rate, mass_scale,
                       impulse_scale, baumgarte)
    if ids[3].shape[0] > 0:
        prismatic.solve(joints, ids[3], bodies, h, use_bias, soft, bias_rate, mass_scale,
                        impulse_scale, baumgarte)
    if ids[4].shape[0] > 0:
        weld.solve(joints, ids[4], bodies, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
                   baumgarte)
    if ids[5].shape[0] > 0:
        wheel.solve(joints, ids[5], bodies, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
                    baumgarte)
    if ids[6].shape[0] > 0:
        mouse.solve(joints, ids[6], bodies, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
                    baumgarte)
    if ids[7].shape[0] > 0:
        motor.solve(joints, ids[7], bodies, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
                    baumgarte)
    if ids[8].shape[0] > 0:
        pulley.solve(joints, ids[8], bodies, h, use_bias, soft, bias_rate, mass_scale,
                     impulse_scale, baumgarte)
    # Gears last: they read the coordinates the coupled joints have just enforced.
    if ids[9].shape[0] > 0:
        gear.solve(joints, ids[9], bodies, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
                   baumgarte)
