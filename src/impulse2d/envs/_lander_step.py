"""The native LunarLander's per-step arithmetic over the batch, compiled: the discrete actions'
throttles, the engines' impulses from them (their dispersion drawn from each environment's
generator, :mod:`._draws`), the episodes' draws, terrain and push, the observation, the
shaping reward and the endings, and the rest timers (with the episodes' step counts and
truncations, one pass at the end of every step: :func:`after_step`).

:class:`~.lunar_lander.LunarLanderVectorEnv` did each as some 60 NumPy calls over the
environments, each a pass over the batch and an array made: about 1.9 us of the calling thread
per environment step at 1,024 environments (``benchmarks/envs_split.py``, 2026-11-30), serial
on that thread while the batch's other threads wait for it, so about a seventh of the wall at 2
threads. Here each is one compiled pass, every operation the NumPy code's in its order, so the
same bits (IEEE doubles, no contraction, :mod:`impulse2d._core.jit`'s policy; ``math.hypot``
and ``math.sqrt`` are libm's, as NumPy's ``hypot`` and ``sqrt`` are). The sines and cosines of
the landers' angles are libm's too (``math.sin``/``math.cos``, as Gymnasium's own): NumPy's
``np.sin``/``np.cos``, which the environment took before session 30, give the same bits on the
project's machine (glibc; NumPy 2.4 with AVX-512: every one of 800,000 angles, strided or
not), not on every machine.

Units as Gymnasium's (:mod:`.lunar_lander`): metres, seconds, N s; the observation's scales
are Gymnasium's view (W/2, H/2, FPS).
"""

from __future__ import annotations

import math

import numpy as np
from numba.typed import List

from .._batch_views import scatter_bodies
from .._core.jit import DirectCall, inline_kernel, kernel
from .._dynamics.batch_step import _prefetch_line
from ._draws import next_double, uniform
from ._segments import move_segments


@inline_kernel
def _throttles(a, acting, m_power, s_power, direction):
    """``Discrete(4)`` actions ``a`` (float64, one an environment: nothing, left engine, main
    engine, right engine) as the engines' throttles: ``m_power`` 1 for the main engine,
    ``s_power`` 1 for a side engine (0 where not ``acting``), ``direction`` the action less 2
    (-1 left, +1 right). Returns False, having written nothing, if any action is not one of
    0, 1, 2, 3."""
    for i in range(a.shape[0]):
        x = a[i]
        if not (0.0 <= x < 4.0) or x != math.floor(x):
            return False
    for i in range(a.shape[0]):
        x = a[i]
        m_power[i] = 1.0 if x == 2.0 and acting[i] else 0.0
        s_power[i] = 1.0 if (x == 1.0 or x == 3.0) and acting[i] else 0.0
        direction[i] = x - 2.0
    return True


AHEAD = 8
"""Environments ahead whose generators :func:`_engines` asks the cache for: a miss
(~0.1 us) over a few environments' arithmetic and draws (~30 ns each)."""
STATE_BYTES = 56
"""Bytes of a ``PCG64``'s state that ``next_double`` reads, from its ``state_address`` (the
``pcg64_state`` struct, then the 128-bit state and increment it points to, 24 bytes on:
NumPy 2's ``_pcg64.pyx``, one object); a generator of another kind reads its own, the first
line of which is asked for alike (a hint: the bits do not depend on it)."""


@inline_kernel
def _engines(pose, lc0, lc1, draws, acting, m_power, s_power, direction, main_y, main_power,
             side_away, side_power, side_x, side_height, scale, out, first):
    """Each lander's engines as one impulse at its centre of mass, written into row ``i`` of
    ``out`` at columns ``first`` to ``first + 2`` (N s along x, y, and the angular impulse
    r x p, N m s; the batch step's rows of arguments, where the lander's impulse goes:
    ``WorldBatch._impulse_rows``), the other columns left as they are. Gymnasium's points
    (the main engine ``main_y`` under the lander's origin, the side engines ``side_x`` across
    and ``side_height`` up, in pixels; ``scale`` pixels a metre; the lander's axes from the
    sine and cosine of its angle, ``pose[i, 2]``, libm's as Gymnasium's ``math.sin``), each
    dispersed by Gymnasium's two numbers of the step (``uniform(-1, 1) / scale``), drawn here
    from each acting environment's generator (``draws[i]``: its addresses,
    :func:`._draws.addresses`). An environment not acting (being reset) draws nothing: its
    throttles are 0, so its impulse is a zero (of either sign). Returns whether any engine
    fired (a throttle not 0: else every impulse is a zero and the step has none to write).

    Each generator's state (:func:`._draws.addresses`: 56 bytes of its bit generator's object,
    one line or two) is out of the cache among 1,024 environments, every step: it is asked for
    :data:`AHEAD` environments ahead, where the draws waited for one miss after another (11 us
    less of a 1,024-lander step's serial Python before the kernel: BENCHMARKS.md, session 26)."""
    n = pose.shape[0]
    fired = False
    for i in range(n):
        fired = fired or m_power[i] != 0.0 or s_power[i] != 0.0
        if i + AHEAD < n and acting[i + AHEAD]:
            _prefetch_line(draws[i + AHEAD, 1])
            _prefetch_line(draws[i + AHEAD, 1] + STATE_BYTES - 1)
        d0 = d1 = 0.0
        if acting[i]:
            d0 = uniform(draws[i, 0], draws[i, 1], -1.0, 1.0) / scale
            d1 = uniform(draws[i, 0], draws[i, 1], -1.0, 1.0) / scale
        px, py = pose[i, 0], pose[i, 1]
        s, c = math.sin(pose[i, 2]), math.cos(pose[i, 2])
        # tip (s, c), side (-c, s): the lander's axes; com: its centre of mass
        comx = px + (c * lc0 - s * lc1)
        comy = py + (s * lc0 + c * lc1)
        along = main_y + 2 * d0
        ox = s * along + -c * d1
        oy = -c * along - s * d1
        m = main_power * m_power[i]
        p_mx = -ox * m
        p_my = -oy * m
        r_mx = (px + ox) - comx
        r_my = (py + oy) - comy
        across = 3 * d1 + direction[i] * side_away / scale
        ox = s * d0 + -c * across
        oy = -c * d0 - s * across
        m = side_power * s_power[i]
        p_sx = -ox * m
        p_sy = -oy * m
        r_sx = (px + (ox - s * side_x / scale)) - comx
        r_sy = (py + (oy + c * side_height / scale)) - comy
        out[i, first] = p_mx + p_sx
        out[i, first + 1] = p_my + p_sy
        out[i, first + 2] = (r_mx * p_my - r_my * p_mx + r_sx * p_sy - r_sy * p_sx)
    return fired


@kernel
def engine_impulses(pose, lc0, lc1, draws, acting, m_power, s_power, direction, main_y,
                    main_power, side_away, side_power, side_x, side_height, scale, out, first):
    """Each lander's engines' impulse (:func:`_engines`), for throttles the caller made (the
    continuous actions'); whether any engine fired."""
    return _engines(pose, lc0, lc1, draws, acting, m_power, s_power, direction, main_y,
                    main_power, side_away, side_power, side_x, side_height, scale, out, first)


_engine_impulses = DirectCall(engine_impulses, "the native LunarLander's engines", 2.0)


@kernel
def discrete_engines(a, acting, m_power, s_power, direction, pose, lc0, lc1, draws, main_y,
                     main_power, side_away, side_power, side_x, side_height, scale, out, first):
    """:func:`_throttles` then :func:`_engines` (the arguments theirs), in one call: a step of
    1,024 landers pays one compiled call's entry, cold after the batch kernel streamed its
    worlds, where it paid two (both compiled into this kernel alone: a kernel calling other
    kernels compiles each of them too, 0.85 s more of a lander's first use, session 31).
    Returns -1, having written nothing, if an action is not one of 0, 1, 2, 3; else whether
    any engine fired (1) or none (0)."""
    if not _throttles(a, acting, m_power, s_power, direction):
        return -1
    if _engines(pose, lc0, lc1, draws, acting, m_power, s_power, direction, main_y, main_power,
                side_away, side_power, side_x, side_height, scale, out, first):
        return 1
    return 0


_discrete_engines = DirectCall(discrete_engines, "the native LunarLander's engines", 2.0)


@kernel
def begin_episodes(idx, draws, half_height, push, pad, pad_y, chunk_x, reverse, a, b, forces,
                   prev_shaping, slow, legs):
    """The episodes of environments ``idx`` begun, in one pass (where NumPy made some 20 calls
    a restart, each a pass over a few rows: BENCHMARKS.md session 29). From each one's
    generator (``draws[i]``: its addresses, :func:`._draws.addresses`), in Gymnasium's order,
    the terrain's heights (each ``uniform(0, half_height)``, m), then the initial push (x then
    y, each ``uniform(-push, push)``, N); Gymnasium's terrain from them, its arithmetic: the
    heights ``pad`` - 2 to ``pad`` + 2 set to ``pad_y``, each of the ``chunk_x.shape[0]``
    points' heights the mean of three (0.33 of their sum, the first's taken around the end);
    the surface's segments, ``a[k, s]`` to ``b[k, s]`` (m, (k, segments, 2)), through the
    points at ``chunk_x``, right to left where ``reverse`` (a chain's front faces up); the
    push as ``forces[k]`` (the template bodies' (fx, fy, torque), the lander's first, the
    others 0); and the episodes' state cleared: ``prev_shaping`` NaN (no shaping yet),
    ``slow`` (the rest timers) 0, ``legs`` False."""
    m = chunk_x.shape[0]
    heights = np.empty(m + 1)
    smooth = np.empty(m)
    for k in range(idx.shape[0]):
        i = idx[k]
        f, s = draws[i, 0], draws[i, 1]
        for j in range(m + 1):
            heights[j] = uniform(f, s, 0.0, half_height)
        fx = uniform(f, s, -push, push)
        fy = uniform(f, s, -push, push)
        for j in range(pad - 2, pad + 3):
            heights[j] = pad_y
        smooth[0] = 0.33 * (heights[m] + heights[0] + heights[1])
        for j in range(1, m):
            smooth[j] = 0.33 * (heights[j - 1] + heights[j] + heights[j + 1])
        for p in range(m - 1):
            u, v = (m - 1 - p, m - 2 - p) if reverse else (p, p + 1)
            a[k, p, 0] = chunk_x[u]
            a[k, p, 1] = smooth[u]
            b[k, p, 0] = chunk_x[v]
            b[k, p, 1] = smooth[v]
        for j in range(forces.shape[1]):
            for c in range(3):
                forces[k, j, c] = 0.0
        forces[k, 0, 0] = fx
        forces[k, 0, 1] = fy
        prev_shaping[i] = np.nan
        for j in range(slow.shape[1]):
            slow[i, j] = 0.0
        legs[i, 0] = False
        legs[i, 1] = False


@kernel
def start_episodes(idx, draws, half_height, push, pad, pad_y, chunk_x, reverse, prev_shaping,
                   slow, legs, refs, body, rows, chain, radius, others, slop, pairs_dirty,
                   body_rows, mode, max_force, max_velocity, flags, skip):
    """:func:`begin_episodes` of environments ``idx`` (its arguments up to ``reverse``, then
    the episodes' state), and what it draws written into their worlds (``refs``: the batch's
    step references, every world's), in one call (three calls from Python, their arrays and
    the list of those worlds' references cost a restart about 10 us, BENCHMARKS.md session
    31): the moon's segments moved
    (:func:`._segments.move_segments` with ``body`` to ``pairs_dirty``) and the push added
    (:func:`impulse2d._batch_views.scatter_bodies` of the template bodies ``body_rows``, its
    ``mode`` ADD_FORCE, its ``flags[k]`` for Python: ``_dynamics.batch_step.after_writes``);
    then ``skip`` more numbers of each generator drawn and dropped (:func:`skip_draws`: the
    dispersion of the reset's own step, 2, where nothing is drawn in between; 0 where the
    wind's draws come first: a call of its own, whose code is cold after the batch's step).
    Returns -1, with the episodes begun and no world written, if a segment is too short;
    else how many worlds are flagged."""
    n = idx.shape[0]
    picked = List()  # (the worlds' own references, in the order of idx)
    for k in range(n):
        picked.append(refs[idx[k]])
    a = np.empty((n, chunk_x.shape[0] - 1, 2))
    b = np.empty((n, chunk_x.shape[0] - 1, 2))
    forces = np.empty((n, body_rows.shape[0], 3))
    begin_episodes(idx, draws, half_height, push, pad, pad_y, chunk_x, reverse, a, b, forces,
                   prev_shaping, slow, legs)
    if not move_segments(picked, body, rows, a, b, chain, radius, others, slop, pairs_dirty):
        return -1
    # (its arguments typed as Python's call types them: a literal 0 or False would compile
    # scatter_bodies once more, about 0.5 s)
    scatter_bodies(picked, np.int64(0), n, body_rows, forces, mode, max_force, max_velocity,
                   n < 0, flags)
    skip_draws(idx, draws, skip)
    flagged = 0
    for k in range(n):
        if flags[k] != 0:
            flagged += 1
    return flagged


_start_episodes = DirectCall(start_episodes, "the native LunarLander's episodes begun", 3.0)


@kernel
def skip_draws(idx, draws, count):
    """``count`` numbers of each environment ``idx``'s generator drawn and dropped (the
    dispersion of a reset's own step, whose engines are off)."""
    for k in range(idx.shape[0]):
        f, s = draws[idx[k], 0], draws[idx[k], 1]
        for _ in range(count):
            next_double(f, s)


SURE = 1e-9
"""A relative margin far above the rounding of ``x^2 + y^2`` (a few ulps, 1e-16 each) and of
libm's ``hypot`` (under 1 ulp): outside ``t^2 (1 +- SURE)`` the square decides the test."""


@inline_kernel
def _at_most(x, y, t):
    """``math.hypot(x, y) <= t``, with ``hypot`` (libm's: about 20 ns, three a lander
    step) only where ``x^2 + y^2`` lies within :data:`SURE` of ``t^2``: a body far from its
    threshold, as nearly all are, is decided by the square. The same answer: where the square
    is below ``t^2 (1 - SURE)`` (or above ``t^2 (1 + SURE)``) so is the exact sum, and its root
    below (above) ``t``, far beyond the roundings; a square that overflows to inf is above, one
    that underflows is below by far, for any ``t`` within 1e+-100 (outside: ``hypot``)."""
    if not 1e-100 < t < 1e100:
        return math.hypot(x, y) <= t
    s = x * x + y * y
    tt = t * t
    if s < tt * (1.0 - SURE):
        return True
    if s > tt * (1.0 + SURE):
        return False
    return math.hypot(x, y) <= t


@inline_kernel
def _rest_timer(i, k, velocities, extent, threshold, elapsed, slow, dt, time_to_sleep):
    """Box2D 2.3's sleep timing for lander ``i``'s bodies (row ``k`` of ``velocities``):
    ``slow[i, j]`` (s) grows by ``dt`` while body ``j``'s speed (``max(|v|, |w| extent)``, the
    engine's test) is at most its ``threshold`` after a step of the episode
    (``elapsed[i] > 0``), else is 0. Whether every body of the lander has been slow for
    ``time_to_sleep``."""
    all_slow = True
    for j in range(slow.shape[1]):
        if elapsed[i] > 0 and abs(velocities[k, j, 2]) * extent[j] <= threshold[j] and \
                _at_most(velocities[k, j, 0], velocities[k, j, 1], threshold[j]):
            slow[i, j] = slow[i, j] + dt
        else:
            slow[i, j] = 0.0
        all_slow = all_slow and slow[i, j] >= time_to_sleep
    return all_slow


@inline_kernel
def _observation(k, i, positions, angles, velocities, touching, rest, pose, legs, prev_shaping,
                 m_power, s_power, half_w, half_h, pad_y, fps, obs, reward, terminated):
    """Environment ``i``'s observation, reward and ending into row ``k`` of ``obs``,
    ``reward`` and ``terminated``, from row ``k`` of the state arrays; ``rest``: whether its
    lander has come to rest. The shaping and the ending are computed from the float64 state,
    as Gymnasium does before its float32 cast: the reward is the shaping's change (0 on an
    episode's first step, ``prev_shaping`` NaN) less the engines' fuel, -100 on a crash (the
    lander's body touching, or ``|x| >= 1``) and 100 at rest."""
    x0 = positions[k, 0, 0]
    y0 = positions[k, 0, 1]
    angle = angles[k, 0]
    pose[i, 0] = x0
    pose[i, 1] = y0
    pose[i, 2] = angle
    leg0 = touching[k, 1]
    leg1 = touching[k, 2]
    legs[i, 0] = leg0
    legs[i, 1] = leg1
    x = (x0 - half_w) / half_w
    y = (y0 - pad_y) / half_h
    vx = velocities[k, 0, 0] * half_w / fps
    vy = velocities[k, 0, 1] * half_h / fps
    obs[k, 0] = x
    obs[k, 1] = y
    obs[k, 2] = vx
    obs[k, 3] = vy
    obs[k, 4] = angle
    obs[k, 5] = 20.0 * velocities[k, 0, 2] / fps
    obs[k, 6] = 1.0 if leg0 else 0.0
    obs[k, 7] = 1.0 if leg1 else 0.0
    shaping = (-100 * math.sqrt(x * x + y * y) - 100 * math.sqrt(vx * vx + vy * vy)
               - 100 * abs(angle) + (10.0 if leg0 else 0.0) + (10.0 if leg1 else 0.0))
    prev = prev_shaping[i]
    r = 0.0 if math.isnan(prev) else shaping - prev
    prev_shaping[i] = shaping
    r -= m_power[i] * 0.30 + s_power[i] * 0.03
    crashed = touching[k, 0] or abs(x) >= 1.0
    if crashed:
        r = -100.0
    if rest:
        r = 100.0
    reward[k] = r
    terminated[k] = crashed or rest


@kernel
def after_step(idx, every, elapsed, fresh, max_steps, positions, angles, velocities, touching,
               awake, extent, threshold, slow, dt, time_to_sleep, pose, legs, prev_shaping,
               m_power, s_power, view_w, view_h, pad_y, fps, obs, reward, terminated, truncated,
               ready, finished, acting, restart):
    """Everything a step of every environment ends with (``every``), in one pass over the
    batch where the environment made five (the episodes' step counts, the rest timers, the
    observation, the truncations, the restarted environments' flags: 35-40 us less a step of
    1,024 landers, of which the next NumPy call of the step then pays about 13 us, its code out
    of the cache after the batch step: BENCHMARKS.md session 29), every operation theirs in
    their order, so the same bits:

    * ``elapsed`` (each episode's steps) counted, 0 for the environments ``fresh`` (restarted
      for this step: it was their reset's);
    * the rest timers (:func:`_rest_timer`; ``extent``, ``threshold``: the template bodies',
      ``slow``: (n, bodies), s): ``ready[i]`` where every body of an awake lander has been
      slow for ``time_to_sleep``, its timers then 0 (the caller puts it to sleep, Box2D 2.3's
      "not awake" ending: see :mod:`.lunar_lander`);
    * the observation (``obs``, float32 (n, 8): Gymnasium's 8 numbers), reward and ending
      (:func:`_observation`: from the state of the template bodies, body 0 the lander, 1 and
      2 the legs; a lander ``ready`` has come to rest, as one not awake), ``pose``, ``legs``
      and ``prev_shaping`` updated;
    * ``truncated[i]`` where the episode has taken ``max_steps`` steps (never if
      ``max_steps`` is 0: Gymnasium's ``TimeLimit`` rule), then the environments ``fresh``
      given reward 0 and both flags False (``_vector.episode_ends``);
    * ``finished[i]`` (``terminated or truncated``), and for a next-step autoreset the next
      step's environments: ``acting[i]`` where not ``finished[i]``, the others' indices,
      ascending, into ``restart`` (their count returned): where the base made three NumPy
      calls over the batch (``BatchVectorEnv._after_step``).

    Or, not ``every``, the observation, reward and ending alone of the environments ``idx``
    after a reset's own step (row ``k`` of each state and output array environment
    ``idx[k]``'s; a lander at rest is one not awake; none counted, timed or truncated:
    ``truncated`` False): the same kernel for both, where a kernel of its own compiled the
    observation again (0.4-0.9 s of a lander's first use: BENCHMARKS.md session 30).

    Returns whether any lander is ``ready``, and how many environments ``restart`` holds
    (0 if not ``every``)."""
    n = elapsed.shape[0] if every else idx.shape[0]
    if every:
        for i in range(n):
            elapsed[i] += 1
        for k in range(fresh.shape[0]):
            elapsed[fresh[k]] = 0
    half_w = view_w / 2
    half_h = view_h / 2
    anyone = False
    for k in range(n):
        i = k if every else idx[k]
        ready[i] = every and _rest_timer(i, k, velocities, extent, threshold, elapsed, slow,
                                         dt, time_to_sleep) and awake[k, 0]
        if ready[i]:
            anyone = True
            for j in range(slow.shape[1]):
                slow[i, j] = 0.0
        _observation(k, i, positions, angles, velocities, touching,
                     ready[i] or not awake[k, 0], pose, legs, prev_shaping, m_power, s_power,
                     half_w, half_h, pad_y, fps, obs, reward, terminated)
        truncated[k] = every and max_steps > 0 and elapsed[i] >= max_steps
    restarts = 0
    if every:
        for k in range(fresh.shape[0]):
            i = fresh[k]
            reward[i] = 0.0
            terminated[i] = False
            truncated[i] = False
        for i in range(n):
            finished[i] = terminated[i] or truncated[i]
            acting[i] = not finished[i]
            if finished[i]:
                restart[restarts] = i
                restarts += 1
    return anyone, restarts


_after_step = DirectCall(after_step, "the native LunarLander's step's end", 2.0)


__all__ = ["engine_impulses", "discrete_engines", "begin_episodes", "start_episodes",
           "skip_draws", "after_step"]
