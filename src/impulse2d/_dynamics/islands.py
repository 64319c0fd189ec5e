"""Islands and sleeping: which bodies move together, and which of them may stop being simulated.

An island is a connected component of the graph whose nodes are the dynamic bodies and whose
edges are the touching contacts (manifold points > 0) and the joints between two dynamic
bodies. Static and kinematic bodies never link islands (Box2D v3: they may touch many islands
at once and are not solved as part of any). An island falls asleep when every one of its
bodies has been slow for ``time_to_sleep`` (Box2D v3: ``B2_TIME_TO_SLEEP`` = 0.5 s): its bodies'
velocities are zeroed and the step skips them (not integrated, not solved, their boxes and
their contacts with each other and with static bodies left as they are), so a sleeping body
keeps its position to the bit. Catto, "Simulation Islands" (box2d.org, 2023).

A body is slow when ``max(|v|, |w| * extent) <= sleep_threshold`` (Box2D v3's sleep velocity:
``extent`` is the body's farthest shape point from its centre of mass, so a slowly turning
long plank counts its tip's speed) and the step moved it no farther than ``sleep_threshold *
dt`` (its centre, or its turn times ``extent``): the position passes of ``pgs_ngs`` and
``pgs_block`` move bodies without giving them velocity, and a pile pushed apart by them alone
would otherwise fall asleep half separated (measured: the overlapping pyramid of
``tests/test_solvers_ngs.py`` fell asleep 2.0 cm short of its height without this, 0.7 cm
with it, where the pass's last steps move it slower than the threshold). Its sleep timer ``sleep_time`` grows by ``dt`` while it
is slow and ``allow_sleep`` is on, and is reset otherwise; a kinematic body that moves (any
nonzero velocity) resets the timers of the dynamic bodies it touches or is jointed to, so a
moving platform keeps what rides on it awake, and so does a joint motor with a nonzero speed
for its two bodies.

Islands are found again each step in which some awake body's timer has reached
``time_to_sleep`` (no island can fall asleep before), by union-find over the awake bodies'
touching contacts and joints (union by lowest row, with path compression), rather than kept
persistent with lazy splitting as Box2D v3 does: the pass is O(awake bodies + their contacts +
joints) with a few integer operations each (the awake sets, :mod:`.awake`), measured at
0.047 ms of the 2.8 ms step of ``rain`` (2000 circles, 1.7 %) and 0.0067 ms of the 0.72 ms
step of ``pyramid`` base 20 (0.9 %) (``benchmarks/sleep.py``), while a settled
``many_pyramids`` asleep steps in 1.7 % of its awake time. A world whose live bodies are all static or asleep (or kinematic and idle) steps without passing over its
contacts at all (:func:`resting_sleepers`: the step returns once it finds no fat box moved and
no pair dirty). A sleeping island keeps the label it fell asleep with, ``island``
= its lowest body row, which is how a touch finds the whole island to wake.

Waking, inside the step (:func:`wake_touched`, after the narrowphase, before the contacts are
ordered for the solver): a touching contact between a sleeping body and an awake dynamic body
or a moving kinematic one wakes the sleeping body's island (a body that begins touching a
sleeping pile, or one resting on it that moves again, wakes it), and so does a joint to a
moving kinematic body. The other wakes (forces, set velocities and positions, joints and shapes
created or destroyed, ``is_awake = True``) come from the public setters (``_sleep.py``).
"""

from __future__ import annotations

import math

import numpy as np

from .._core.jit import borrowing_kernel, inner_kernel, kernel
from .._core.state import DYNAMIC, KINEMATIC


@inner_kernel
def find_root(parent, i):
    """Root of ``i`` (the lowest row of its set), compressing the path to it."""
    root = i
    while parent[root] != root:
        root = parent[root]
    while parent[i] != root:
        up = parent[i]
        parent[i] = root
        i = up
    return root


@inner_kernel
def union(parent, a, b):
    """Join the sets of ``a`` and ``b``; the lower root becomes the root (so a set's root is
    always its lowest row, a label that does not depend on the order of the unions)."""
    ra = find_root(parent, a)
    rb = find_root(parent, b)
    if ra < rb:
        parent[rb] = ra
    elif rb < ra:
        parent[ra] = rb


@inner_kernel
def _moving_kinematic(kind, v, w, i):
    return kind[i] == KINEMATIC and (v[i, 0] != 0.0 or v[i, 1] != 0.0 or w[i] != 0.0)


@inner_kernel
def _stirs(kind, asleep, v, w, i):
    """Whether body ``i`` wakes a sleeping body it touches: an awake dynamic body, or a moving
    kinematic one."""
    return (kind[i] == DYNAMIC and not asleep[i]) or _moving_kinematic(kind, v, w, i)


@borrowing_kernel
def wake_touched(bodies, contacts, joints, rows, n_rows):
    """Wake every sleeping island touched (touching contact) by an awake dynamic body or a
    moving kinematic body, or jointed to a moving kinematic body. Returns the number of bodies
    woken. ``rows[:n_rows]``: the contacts with an awake body (:mod:`.awake`), or every
    contact when ``n_rows`` is -1 (a touch needs an awake side).

    A sleeping island's mark is its root's ``sleep_time`` set to -1 (a sleeping body's timer is
    not read until it wakes, and waking resets it), so no scratch array is allocated.
    """
    kind = bodies.type
    asleep = bodies.asleep
    v = bodies.v
    w = bodies.w
    island = bodies.island
    mark = bodies.sleep_time
    marked = False
    count = contacts.count
    every = n_rows < 0
    for t in range(count.shape[0] if every else n_rows):
        k = t if every else rows[t]
        if count[k] == 0:
            continue
        a = contacts.body_a[k]
        b = contacts.body_b[k]
        if asleep[a] != asleep[b]:  # only then can one side stir the other
            if asleep[a] and _stirs(kind, asleep, v, w, b):
                mark[island[a]] = -1.0
                marked = True
            elif asleep[b] and _stirs(kind, asleep, v, w, a):
                mark[island[b]] = -1.0
                marked = True
    for j in range(joints.alive.shape[0]):
        if not joints.alive[j]:
            continue
        a = joints.body_a[j]
        b = joints.body_b[j]
        if asleep[a] and _moving_kinematic(kind, v, w, b):
            mark[island[a]] = -1.0
            marked = True
        elif asleep[b] and _moving_kinematic(kind, v, w, a):
            mark[island[b]] = -1.0
            marked = True
    if not marked:
        return 0
    woken = 0
    alive = bodies.alive
    for i in range(alive.shape[0]):
        if alive[i] and asleep[i] and mark[island[i]] < 0.0:
            asleep[i] = False
            if island[i] != i:  # the root keeps its mark until every member has seen it
                mark[i] = 0.0
            woken += 1
    for i in range(alive.shape[0]):
        if mark[i] < 0.0:
            mark[i] = 0.0  # the roots: their timers restart with the others'
    return woken


@inner_kernel
def _same_bits(a, b):
    """``a`` and ``b`` are the same float to the bit (NaN aside: no NaN enters state), the
    sign of a zero included (``-0.0 + 0.0`` is ``+0.0``)."""
    return a == b and (a != 0.0 or math.copysign(1.0, a) == math.copysign(1.0, b))


@inner_kernel
def _idle_kinematic(bodies, i):
    """Whether kinematic body ``i`` would come out of a step to the same bits: no velocity, no
    force left to clear, and the pose that :func:`.integrate.finalize_bodies` computes from a
    zero delta (``dp`` = 0, ``dq`` = (1, 0)) equal to the stored one. The renormalisation of
    ``rot`` can move a unit vector by an ulp, a zero's sign can flip, and a pose set from
    Python is not computed as finalize computes it: each is a change the full step makes."""
    if (bodies.v[i, 0] != 0.0 or bodies.v[i, 1] != 0.0 or bodies.w[i] != 0.0
            or bodies.force[i, 0] != 0.0 or bodies.force[i, 1] != 0.0
            or bodies.torque[i] != 0.0 or bodies.step_motion[i] != 0.0):
        return False
    cx = bodies.center[i, 0] + 0.0
    cy = bodies.center[i, 1] + 0.0
    angle = bodies.angle[i] + math.atan(0.0 / 1.0)
    c = bodies.rot[i, 0] * 1.0 - bodies.rot[i, 1] * 0.0
    s = bodies.rot[i, 1] * 1.0 + bodies.rot[i, 0] * 0.0
    inv_len = 1.0 / math.sqrt(c * c + s * s)
    c *= inv_len
    s *= inv_len
    lx = bodies.local_center[i, 0]
    ly = bodies.local_center[i, 1]
    return (_same_bits(cx, bodies.center[i, 0]) and _same_bits(cy, bodies.center[i, 1])
            and _same_bits(angle, bodies.angle[i]) and _same_bits(c, bodies.rot[i, 0])
            and _same_bits(s, bodies.rot[i, 1])
            and _same_bits(cx - (c * lx - s * ly), bodies.origin[i, 0])
            and _same_bits(cy - (s * lx + c * ly), bodies.origin[i, 1]))


@borrowing_kernel
def resting_sleepers(bodies, awake, sleeping):
    """``sleeping`` (the number of sleeping bodies) if every live body is static, asleep or an
    idle kinematic body (:func:`_idle_kinematic`), else -1. ``awake``: the live bodies neither
    static nor asleep (:mod:`.awake`), the only ones to look at.

    Such a world's step, once its pairs are known and nothing marked them dirty, changes
    nothing: the narrowphase keeps the manifolds of contacts whose bodies are all asleep or
    static and recomputes those of an idle kinematic body to the same bits, nothing can wake
    a sleeping island, the solver and finalize skip sleeping bodies and leave an idle
    kinematic one as it is, and the sleep stage only counts the sleepers. The step kernel
    then returns early (``step._at_rest``), which makes a sleeping world's step one pass over
    the awake rows instead of a dozen over bodies, shapes and contacts.
    """
    kind = bodies.type
    for t in range(awake.shape[0]):
        i = awake[t]
        if kind[i] != KINEMATIC or not _idle_kinematic(bodies, i):
            return -1
    return sleeping


@borrowing_kernel
def may_ripen(bodies, dt, time_to_sleep):
    """Whether :func:`sleep_timers` may find a ripe timer this step (a step of ``dt``, s): some
    live awake dynamic body that may sleep has a timer that reaches ``time_to_sleep`` (s) with
    ``dt`` added, the same sum in the same rounding (the stage only lowers timers otherwise).
    Read before a step whose islands stage (:func:`fall_asleep`) is not loaded yet
    (``step._lacks_sleepers_stage``)."""
    alive = bodies.alive
    for i in range(alive.shape[0]):
        if (alive[i] and bodies.type[i] == DYNAMIC and not bodies.asleep[i]
                and bodies.allow_sleep[i] and bodies.sleep_time[i] + dt >= time_to_sleep):
            return True
    return False


@borrowing_kernel
def sleep_timers(bodies, contacts, joints, dt, time_to_sleep, enable_sleep, awake, rows,
                 n_rows):
    """The sleep stage's first part, after the bodies are finalized: advance the awake bodies'
    sleep timers. Returns whether some timer is ripe (has been slow for ``time_to_sleep``, s):
    only then can an island fall asleep (:func:`fall_asleep`), and never with ``enable_sleep``
    off (every timer is then held at 0: bodies put to sleep by ``is_awake = False`` stay asleep
    until woken).

    ``awake``: the live bodies neither static nor asleep, ascending (:mod:`.awake`);
    ``rows[:n_rows]`` the contacts with an awake body, or every contact when ``n_rows`` is -1.
    The passes visit these only: a contact with no awake body links no awake island and stirs
    no body. Each awake dynamic body's island label is reset to itself (:func:`fall_asleep`
    joins them).
    """
    kind = bodies.type
    v = bodies.v
    w = bodies.w
    timer = bodies.sleep_time
    parent = bodies.island
    stirring = False
    ripe = False  # some awake body has been slow for time_to_sleep
    for t in range(awake.shape[0]):
        i = awake[t]
        if kind[i] != DYNAMIC:
            stirring = stirring or _moving_kinematic(kind, v, w, i)
            continue
        parent[i] = i
        if not (enable_sleep and bodies.allow_sleep[i]):
            timer[i] = 0.0
            continue
        limit = bodies.sleep_threshold[i]
        vx = v[i, 0]
        vy = v[i, 1]
        step = limit * dt
        if (vx * vx + vy * vy > limit * limit or abs(w[i]) * bodies.extent[i] > limit
                or bodies.step_motion[i] > step * step):
            timer[i] = 0.0
        else:
            timer[i] += dt
            ripe = ripe or timer[i] >= time_to_sleep
    if not enable_sleep:
        return False
    count = contacts.count
    ca = contacts.body_a
    cb = contacts.body_b
    every = n_rows < 0
    n_contacts = count.shape[0] if every else n_rows
    if stirring:  # moving kinematic bodies keep what they touch or hold awake
        for t in range(n_contacts):
            k = t if every else rows[t]
            if count[k] > 0:
                if _moving_kinematic(kind, v, w, ca[k]):
                    timer[cb[k]] = 0.0
                elif _moving_kinematic(kind, v, w, cb[k]):
                    timer[ca[k]] = 0.0
        for j in range(joints.alive.shape[0]):
            if joints.alive[j]:
                if _moving_kinematic(kind, v, w, joints.body_a[j]):
                    timer[joints.body_b[j]] = 0.0
                elif _moving_kinematic(kind, v, w, joints.body_b[j]):
                    timer[joints.body_a[j]] = 0.0
    # A joint motor turning (nonzero speed) keeps its bodies awake: however slow, it drives
    # them (a slow motor would otherwise fall asleep, and so stop, Box2D's known pitfall).
    for j in range(joints.alive.shape[0]):
        if joints.alive[j] and joints.enable_motor[j] and joints.motor_speed[j] != 0.0:
            timer[joints.body_a[j]] = 0.0
            timer[joints.body_b[j]] = 0.0
    # An island sleeps when its least timer has reached time_to_sleep, so none can while no
    # body's has (the resets above only lower timers): the islands are not labelled (an awake
    # body's label is only read once it sleeps, and it is set the step it falls asleep). This
    # skips fall_asleep's passes, over every contact and three over the bodies, in every step
    # of a world in motion and of one where only a falling body is awake.
    return ripe


@borrowing_kernel
def fall_asleep(bodies, contacts, joints, time_to_sleep, awake, rows, n_rows):
    """The sleep stage's second part, on a step whose timers are ripe (:func:`sleep_timers`,
    which this follows, with the same ``awake``, ``rows`` and ``n_rows``): label the awake
    bodies' islands and put to sleep each island whose bodies have all been slow for
    ``time_to_sleep`` (s). Returns the bodies that fell asleep. Only a world at rest for
    ``time_to_sleep`` runs it: the step calls it by address (``step.sleepers_stage``), so that
    a cold start's first step does not compile it."""
    kind = bodies.type
    asleep = bodies.asleep
    v = bodies.v
    w = bodies.w
    timer = bodies.sleep_time
    parent = bodies.island
    count = contacts.count
    ca = contacts.body_a
    cb = contacts.body_b
    every = n_rows < 0
    n_contacts = count.shape[0] if every else n_rows
    # Union-find over the awake dynamic bodies (a touching contact between an awake and a
    # sleeping body cannot outlive wake_touched, so both ends of a link are awake).
    for t in range(n_contacts):
        k = t if every else rows[t]
        if count[k] > 0:
            a = ca[k]
            b = cb[k]
            if kind[a] == DYNAMIC and kind[b] == DYNAMIC and not asleep[a] and not asleep[b]:
                union(parent, a, b)
    for j in range(joints.alive.shape[0]):
        if joints.alive[j]:
            a = joints.body_a[j]
            b = joints.body_b[j]
            if kind[a] == DYNAMIC and kind[b] == DYNAMIC and not asleep[a] and not asleep[b]:
                union(parent, a, b)
    # Each island's least timer, at its root. One pass: a root is its island's lowest row, so
    # in ascending order it is met (and its minimum started) before any other member.
    least = bodies.island_sleep
    for t in range(awake.shape[0]):
        i = awake[t]
        if kind[i] == DYNAMIC:
            r = find_root(parent, i)
            parent[i] = r
            if r == i:
                least[i] = timer[i]
            elif timer[i] < least[r]:
                least[r] = timer[i]
    fell = 0
    for t in range(awake.shape[0]):
        i = awake[t]
        if kind[i] == DYNAMIC and least[parent[i]] >= time_to_sleep:
            asleep[i] = True
            v[i, 0] = 0.0
            v[i, 1] = 0.0
            w[i] = 0.0
            fell += 1
    return fell


@kernel
def label_islands(alive, kind, count, body_a, body_b, joint_alive, joint_a, joint_b):
    """Island label of every body row (its island's lowest row; -1 for rows that are not live
    dynamic bodies), sleeping or awake, from the touching contacts and the joints."""
    n = alive.shape[0]
    parent = np.full(n, -1, dtype=np.int64)
    for i in range(n):
        if alive[i] and kind[i] == DYNAMIC:
            parent[i] = i
    for k in range(count.shape[0]):
        if count[k] > 0 and parent[body_a[k]] >= 0 and parent[body_b[k]] >= 0:
            union(parent, body_a[k], body_b[k])
    for j in range(joint_alive.shape[0]):
        if joint_alive[j] and parent[joint_a[j]] >= 0 and parent[joint_b[j]] >= 0:
            union(parent, joint_a[j], joint_b[j])
    for i in range(n):
        if parent[i] >= 0:
            parent[i] = find_root(parent, i)
    return parent
