"""The joint verbs for all joint types at once, one compiled entry per joint type.

Joints of one type are solved together by their module's kernel: one call per type per pass.
Each type has an entry below with the one signature of :data:`~.verbs.JOINT_SIGNATURE`; an entry
is compiled on its own the first time a world has a joint of that type, and the solvers reach it
through the world's table of verbs (:func:`joint_pass`). So a world of contacts compiles no
joint code, and a chain compiles the revolute joint alone. A row list with no joints is not
called at all (even an empty call would cost a few ns per pass, and the soft step makes three
passes per substep).

One exception: the rigid sweeps of ``pgs_ngs`` and ``pgs_block`` (180 a step in Gymnasium's
Box2D games) take a world whose joints are all revolute through :func:`revolute_rigid_pass`,
the revolute kernels compiled into the solver, in the same order and to the same bits:
for a small world the call by address and the entry's set-up were a sixth of a sweep. Likewise
the soft step's passes (:func:`revolute_prepare`, :func:`revolute_warm_start`,
:func:`revolute_solve`) in :func:`.solvers.soft_step_revolute`, the solver unit such a world
gets (:func:`.step.needed_units`): 25 calls by address a step of LunarLander's 8 substeps.

The position corrections of the solvers that make them (``pgs_ngs``, ``pgs_block``) have
entries of their own, :data:`POSITION_ENTRIES`, in slots of their own, so that a world of
another solver does not compile them (:func:`joint_position_pass`).

The entries are written out one per type rather than made by a factory: a kernel that closes
over other kernels cannot be loaded from Numba's cache by another process (the closure's key
holds each kernel's per-process id), and these are the kernels a first run must not recompile.
"""

from __future__ import annotations

import numpy as np

from .._core.jit import entry_kernel, inline_kernel
from .joints import JOINT_MODULES, ROW_LISTS, custom, distance, gear, motor, mouse, prismatic
from .joints import pulley, revolute, weld, wheel
from .lengths import MAX_CORRECTION, SLOP
from .rigid_revolute import rigid_sweep
from .verbs import JOINT_POSITIONS, JOINTS, PREPARE, WARM_START, call_joint, call_joint_position
from .world_ref import borrow

PIN_ROWS = 0
"""The row list of the pins (``ROW_LISTS[0]``), solved by :func:`revolute.solve_pins`."""

REVOLUTE_ROWS = 1
"""The row list of the other revolute joints (``ROW_LISTS[1]``)."""

_LISTS = len(ROW_LISTS)


@inline_kernel
def joint_pass(world, verb, h, flag, soft, bias_rate, mass_scale, impulse_scale, baumgarte,
               speed_cap, spin_cap):
    """One verb for every joint of ``world``, type by type in :data:`ROW_LISTS` order (the
    arguments as :data:`~.verbs.JOINT_SIGNATURE`)."""
    ids = borrow(world, "joint_ids")
    table = borrow(world, "verbs")
    for k in range(_LISTS):
        if ids[k].shape[0] > 0:
            call_joint(table[JOINTS + k], (world, k, verb, h, flag, soft, bias_rate, mass_scale,
                                           impulse_scale, baumgarte, speed_cap, spin_cap))


@inline_kernel
def all_revolute(world):
    """Whether ``world`` has joints and every one is a revolute joint, pins included."""
    ids = borrow(world, "joint_ids")
    for k in range(REVOLUTE_ROWS + 1, _LISTS):
        if ids[k].shape[0] > 0:
            return False
    return ids[PIN_ROWS].shape[0] + ids[REVOLUTE_ROWS].shape[0] > 0


@inline_kernel
def revolute_rigid_pass(world, h, speed_cap, spin_cap):
    """``joint_pass(world, SOLVE, h, False, False, 0.0, 1.0, 0.0, 0.0, speed_cap, spin_cap)``
    (the rigid, unbiased sweep of ``pgs_ngs`` and ``pgs_block``) for a world whose joints are
    all revolute (:func:`all_revolute`), with the revolute kernels compiled into the caller.

    The same rows in the same order with the same arguments, so the same bits; what it saves
    is the call by address and the entry's set-up (loading the addresses of every array any
    verb reads), paid per sweep: about 27 ns of LunarLander's 120 ns sweep (2 joints; measured
    on the 2-core CI machine), at its 180 sweeps a step. The joints other than pins go through
    :func:`.rigid_revolute.rigid_sweep`, which leaves out the push of an angle row whose impulse
    did not change (a saturated motor, the far bound of a limit): about 65 ns a sweep then.
    """
    ids = borrow(world, "joint_ids")
    # np.bool_ and np.int64, not the literals: Numba types a literal argument as a type of its
    # own and compiles the callee again for it, a second revolute.solve beside the entry's
    # (measured: two overloads in the cache, a LunarLander first run 61 -> 79 s)
    off = np.bool_(False)
    if ids[PIN_ROWS].shape[0] > 0:
        revolute.solve_pins(world, np.int64(PIN_ROWS), h, off, off, 0.0, 1.0, 0.0, 0.0,
                            speed_cap, spin_cap)
    if ids[REVOLUTE_ROWS].shape[0] > 0:
        # revolute.solve's rows, an unchanged angle row's push left out (.rigid_revolute)
        rigid_sweep(world, np.int64(REVOLUTE_ROWS), h, speed_cap, spin_cap)


@inline_kernel
def revolute_prepare(world, h, warm_starting):
    """``joint_pass(world, PREPARE, h, warm_starting, ...)`` for a world whose joints are all
    revolute (:func:`all_revolute`): the revolute entry's prepare of the pins, then of the
    other revolute joints."""
    ids = borrow(world, "joint_ids")
    for k in range(PIN_ROWS, REVOLUTE_ROWS + 1):
        if ids[k].shape[0] > 0:
            revolute.prepare(world, k, h, warm_starting)


@inline_kernel
def revolute_warm_start(world):
    """``joint_pass(world, WARM_START, ...)`` for such a world, as :func:`revolute_prepare`."""
    ids = borrow(world, "joint_ids")
    for k in range(PIN_ROWS, REVOLUTE_ROWS + 1):
        if ids[k].shape[0] > 0:
            revolute.warm_start(world, k)


@inline_kernel
def revolute_solve(world, h, use_bias, soft, bias_rate, mass_scale, impulse_scale, baumgarte,
                   speed_cap, spin_cap):
    """``joint_pass(world, SOLVE, h, use_bias, soft, ...)`` for such a world, as
    :func:`revolute_prepare`: the soft step's biased and relax passes with the revolute kernels
    compiled into the solver (:func:`.solvers.soft_step_revolute`). The same rows in the same
    order with the same arguments as the entry's, so the same bits. ``use_bias`` and ``soft``
    must be ``np.bool_`` values, not literals (see :func:`revolute_rigid_pass`)."""
    ids = borrow(world, "joint_ids")
    if ids[PIN_ROWS].shape[0] > 0:
        revolute.solve_pins(world, np.int64(PIN_ROWS), h, use_bias, soft, bias_rate,
                            mass_scale, impulse_scale, baumgarte, speed_cap, spin_cap)
    if ids[REVOLUTE_ROWS].shape[0] > 0:
        revolute.solve(world, np.int64(REVOLUTE_ROWS), h, use_bias, soft, bias_rate,
                       mass_scale, impulse_scale, baumgarte, speed_cap, spin_cap)


@inline_kernel
def joint_position_pass(world):
    """One nonlinear Gauss-Seidel correction of every joint's position, type by type; returns
    the largest error in units of its tolerance (:data:`~.verbs.JOINT_POSITION_SIGNATURE`).
    Types without a correction (mouse, motor) have no entry (slot 0) and are skipped."""
    ids = borrow(world, "joint_ids")
    table = borrow(world, "verbs")
    worst = 0.0
    for k in range(_LISTS):
        entry = table[JOINT_POSITIONS + k]
        if ids[k].shape[0] > 0 and entry != 0:
            worst = max(worst, call_joint_position(entry, (world, k)))
    return worst


# -- the entries: each forwards a verb to its type's kernels --------------------------------------
@entry_kernel
def revolute_entry(world, rows, verb, h, flag, soft, bias_rate, mass_scale, impulse_scale,
                   baumgarte, speed_cap, spin_cap):
    if verb == PREPARE:
        revolute.prepare(world, rows, h, flag)
    elif verb == WARM_START:
        revolute.warm_start(world, rows)
    elif rows == PIN_ROWS:
        revolute.solve_pins(world, rows, h, flag, soft, bias_rate, mass_scale, impulse_scale,
                            baumgarte, speed_cap, spin_cap)
    else:
        revolute.solve(world, rows, h, flag, soft, bias_rate, mass_scale, impulse_scale,
                       baumgarte, speed_cap, spin_cap)
    return 0.0


@entry_kernel
def distance_entry(world, rows, verb, h, flag, soft, bias_rate, mass_scale, impulse_scale,
                   baumgarte, speed_cap, spin_cap):
    if verb == PREPARE:
        distance.prepare(world, rows, h, flag)
    elif verb == WARM_START:
        distance.warm_start(world, rows)
    else:
        distance.solve(world, rows, h, flag, soft, bias_rate, mass_scale, impulse_scale,
                       baumgarte, speed_cap, spin_cap)
    return 0.0


@entry_kernel
def prismatic_entry(world, rows, verb, h, flag, soft, bias_rate, mass_scale, impulse_scale,
                    baumgarte, speed_cap, spin_cap):
    if verb == PREPARE:
        prismatic.prepare(world, rows, h, flag)
    elif verb == WARM_START:
        prismatic.warm_start(world, rows)
    else:
        prismatic.solve(world, rows, h, flag, soft, bias_rate, mass_scale,
                        impulse_scale, baumgarte, speed_cap, spin_cap)
    return 0.0


@entry_kernel
def weld_entry(world, rows, verb, h, flag, soft, bias_rate, mass_scale, impulse_scale,
               baumgarte, speed_cap, spin_cap):
    if verb == PREPARE:
        weld.prepare(world, rows, h, flag)
    elif verb == WARM_START:
        weld.warm_start(world, rows)
    else:
        weld.solve(world, rows, h, flag, soft, bias_rate, mass_scale,
                   impulse_scale, baumgarte, speed_cap, spin_cap)
    return 0.0


@entry_kernel
def wheel_entry(world, rows, verb, h, flag, soft, bias_rate, mass_scale, impulse_scale,
                baumgarte, speed_cap, spin_cap):
    if verb == PREPARE:
        wheel.prepare(world, rows, h, flag)
    elif verb == WARM_START:
        wheel.warm_start(world, rows)
    else:
        wheel.solve(world, rows, h, flag, soft, bias_rate, mass_scale,
                    impulse_scale, baumgarte, speed_cap, spin_cap)
    return 0.0


@entry_kernel
def mouse_entry(world, rows, verb, h, flag, soft, bias_rate, mass_scale, impulse_scale,
                baumgarte, speed_cap, spin_cap):
    if verb == PREPARE:
        mouse.prepare(world, rows, h, flag)
    elif verb == WARM_START:
        mouse.warm_start(world, rows)
    else:
        mouse.solve(world, rows, h, flag, soft, bias_rate, mass_scale,
                    impulse_scale, baumgarte, speed_cap, spin_cap)
    return 0.0


@entry_kernel
def motor_entry(world, rows, verb, h, flag, soft, bias_rate, mass_scale, impulse_scale,
                baumgarte, speed_cap, spin_cap):
    if verb == PREPARE:
        motor.prepare(world, rows, h, flag)
    elif verb == WARM_START:
        motor.warm_start(world, rows)
    else:
        motor.solve(world, rows, h, flag, soft, bias_rate, mass_scale,
                    impulse_scale, baumgarte, speed_cap, spin_cap)
    return 0.0


@entry_kernel
def pulley_entry(world, rows, verb, h, flag, soft, bias_rate, mass_scale, impulse_scale,
                 baumgarte, speed_cap, spin_cap):
    if verb == PREPARE:
        pulley.prepare(world, rows, h, flag)
    elif verb == WARM_START:
        pulley.warm_start(world, rows)
    else:
        pulley.solve(world, rows, h, flag, soft, bias_rate, mass_scale,
                     impulse_scale, baumgarte, speed_cap, spin_cap)
    return 0.0


@entry_kernel
def custom_entry(world, rows, verb, h, flag, soft, bias_rate, mass_scale, impulse_scale,
                 baumgarte, speed_cap, spin_cap):
    if verb == PREPARE:
        custom.prepare(world, rows, h, flag)
    elif verb == WARM_START:
        custom.warm_start(world, rows)
    else:
        custom.solve(world, rows, h, flag, soft, bias_rate, mass_scale,
                     impulse_scale, baumgarte, speed_cap, spin_cap)
    return 0.0


@entry_kernel
def gear_entry(world, rows, verb, h, flag, soft, bias_rate, mass_scale, impulse_scale,
               baumgarte, speed_cap, spin_cap):
    if verb == PREPARE:
        gear.prepare(world, rows, h, flag)
    elif verb == WARM_START:
        gear.warm_start(world, rows)
    else:
        gear.solve(world, rows, h, flag, soft, bias_rate, mass_scale,
                   impulse_scale, baumgarte, speed_cap, spin_cap)
    return 0.0




# -- the position corrections (pgs_ngs, pgs_block): one entry per type that has one ---------------
# Box2D v2.4's mouse and motor joints have none (both are soft drives toward a target, with no
# position error of their own), and neither do ours. The slop and the largest correction are
# the world's, in its length unit (.lengths).
@entry_kernel
def revolute_position_entry(world, rows):
    lengths = borrow(world, "lengths")
    return revolute.solve_position(world, rows, lengths[SLOP], lengths[MAX_CORRECTION])


@entry_kernel
def distance_position_entry(world, rows):
    lengths = borrow(world, "lengths")
    return distance.solve_position(world, rows, lengths[SLOP], lengths[MAX_CORRECTION])


@entry_kernel
def prismatic_position_entry(world, rows):
    lengths = borrow(world, "lengths")
    return prismatic.solve_position(world, rows, lengths[SLOP], lengths[MAX_CORRECTION])


@entry_kernel
def weld_position_entry(world, rows):
    lengths = borrow(world, "lengths")
    return weld.solve_position(world, rows, lengths[SLOP], lengths[MAX_CORRECTION])


@entry_kernel
def wheel_position_entry(world, rows):
    lengths = borrow(world, "lengths")
    return wheel.solve_position(world, rows, lengths[SLOP], lengths[MAX_CORRECTION])


@entry_kernel
def pulley_position_entry(world, rows):
    lengths = borrow(world, "lengths")
    return pulley.solve_position(world, rows, lengths[SLOP], lengths[MAX_CORRECTION])


@entry_kernel
def custom_position_entry(world, rows):
    lengths = borrow(world, "lengths")
    return custom.solve_position(world, rows, lengths[SLOP], lengths[MAX_CORRECTION])


@entry_kernel
def gear_position_entry(world, rows):
    lengths = borrow(world, "lengths")
    return gear.solve_position(world, rows, lengths[SLOP], lengths[MAX_CORRECTION])


# -- the row exports of the direct solver: one entry per type ------------------------------------
# Compiled only for worlds of the direct solver (slots DIRECT_ROWS + k), like the position
# corrections above. The pins' row list takes the revolute export.
@entry_kernel
def revolute_rows_entry(world, rows, verb, start, h, baumgarte, speed_cap, spin_cap, body,
                       jacobian, data, impulse):
    return float(revolute.direct_rows(world, rows, verb, start, h, baumgarte, speed_cap,
                                      spin_cap, body, jacobian, data, impulse))


@entry_kernel
def distance_rows_entry(world, rows, verb, start, h, baumgarte, speed_cap, spin_cap, body,
                       jacobian, data, impulse):
    return float(distance.direct_rows(world, rows, verb, start, h, baumgarte, speed_cap,
                                      spin_cap, body, jacobian, data, impulse))


@entry_kernel
def prismatic_rows_entry(world, rows, verb, start, h, baumgarte, speed_cap, spin_cap, body,
                        jacobian, data, impulse):
    return float(prismatic.direct_rows(world, rows, verb, start, h, baumgarte, speed_cap,
                                       spin_cap, body, jacobian, data, impulse))


@entry_kernel
def weld_rows_entry(world, rows, verb, start, h, baumgarte, speed_cap, spin_cap, body,
                   jacobian, data, impulse):
    return float(weld.direct_rows(world, rows, verb, start, h, baumgarte, speed_cap,
                                  spin_cap, body, jacobian, data, impulse))


@entry_kernel
def wheel_rows_entry(world, rows, verb, start, h, baumgarte, speed_cap, spin_cap, body,
                    jacobian, data, impulse):
    return float(wheel.direct_rows(world, rows, verb, start, h, baumgarte, speed_cap,
                                   spin_cap, body, jacobian, data, impulse))


@entry_kernel
def mouse_rows_entry(world, rows, verb, start, h, baumgarte, speed_cap, spin_cap, body,
                    jacobian, data, impulse):
    return float(mouse.direct_rows(world, rows, verb, start, h, baumgarte, speed_cap,
                                   spin_cap, body, jacobian, data, impulse))


@entry_kernel
def motor_rows_entry(world, rows, verb, start, h, baumgarte, speed_cap, spin_cap, body,
                    jacobian, data, impulse):
    return float(motor.direct_rows(world, rows, verb, start, h, baumgarte, speed_cap,
                                   spin_cap, body, jacobian, data, impulse))


@entry_kernel
def pulley_rows_entry(world, rows, verb, start, h, baumgarte, speed_cap, spin_cap, body,
                     jacobian, data, impulse):
    return float(pulley.direct_rows(world, rows, verb, start, h, baumgarte, speed_cap,
                                    spin_cap, body, jacobian, data, impulse))


@entry_kernel
def custom_rows_entry(world, rows, verb, start, h, baumgarte, speed_cap, spin_cap, body,
                      jacobian, data, impulse):
    return float(custom.direct_rows(world, rows, verb, start, h, baumgarte, speed_cap,
                                    spin_cap, body, jacobian, data, impulse))


@entry_kernel
def gear_rows_entry(world, rows, verb, start, h, baumgarte, speed_cap, spin_cap, body,
                   jacobian, data, impulse):
    return float(gear.direct_rows(world, rows, verb, start, h, baumgarte, speed_cap,
                                  spin_cap, body, jacobian, data, impulse))



ENTRIES = {name: globals()[f"{name}_entry"] for name in JOINT_MODULES}
"""The entry kernel of each joint type."""

POSITION_ENTRIES = {name: globals()[f"{name}_position_entry"] for name in JOINT_MODULES
                    if f"{name}_position_entry" in globals()}
"""The position correction entry of each joint type that has one (all but mouse and motor)."""

ROWS_ENTRIES = {name: globals()[f"{name}_rows_entry"] for name in JOINT_MODULES}
"""The ``direct`` solver's row export entry of each joint type."""
