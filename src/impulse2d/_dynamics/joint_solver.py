"""The joint verbs for all joint types at once: each verb calls the type modules in turn.

Joints of one type are solved together by their module's kernel (one call per type per pass, so
the stores are passed once per pass rather than once per joint). ``ids`` is a tuple with one
array of joint rows per type, in the order of :data:`JOINT_MODULES`.
"""

from __future__ import annotations

from .._core.jit import kernel
from .joints import revolute

JOINT_MODULES = ("revolute",)
"""Type modules in dispatch order; ``World._joint_rows`` builds ``ids`` in this order."""


@kernel
def prepare_joints(joints, ids, bodies, h, warm_starting):
    revolute.prepare(joints, ids[0], bodies, h, warm_starting)


@kernel
def warm_start_joints(joints, ids, bodies):
    revolute.warm_start(joints, ids[0], bodies)


@kernel
def solve_joints(joints, ids, bodies, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
                 baumgarte):
    revolute.solve(joints, ids[0], bodies, h, use_bias, soft, bias_rate, mass_scale,
                   impulse_scale, baumgarte)
