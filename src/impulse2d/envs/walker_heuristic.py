"""A scripted gait for BipedalWalker, over a whole batch of walkers at once.

The gait is the one of Gymnasium's ``BipedalWalkerHeuristics`` (its facts: three phases,
their targets, gains and switching rules; written here over arrays, one row per walker). Each
walker is in one of three phases, with one leg moving and the other supporting:

1. **stay on one leg**: lift the moving leg (hip to 1.1 rad, knee to -0.6 rad) while the
   supporting knee straightens by 0.03 rad a step (0.06 when going faster than
   :data:`SPEED`) up to :data:`SUPPORT_KNEE_ANGLE`; once the supporting hip is behind (its
   angle below 0.1 rad), put the other leg down;
2. **put the other down**: swing the moving leg forward (hip 0.1 rad, knee at
   :data:`SUPPORT_KNEE_ANGLE`) until its foot touches the ground; the supporting knee angle is
   then the moving knee's (observation + 1, at most :data:`SUPPORT_KNEE_ANGLE`);
3. **push off**: bend the supporting knee to 1.0 rad until its observation passes 0.88 or the
   walker goes faster than 1.2 :data:`SPEED`; then the legs swap roles.

A phase that switches runs the next one's rules in the same step (as the original's chain of
``if``\\ s does). Each joint's action is a PD term towards its target (hips: 0.9 per rad,
-0.25 on the speed observation; knees: 4.0 and -0.25), the hips add a PD term that keeps the
hull level (0.9 on its angle, 1.5 on its angular velocity observation), the knees damp the
hull's vertical speed (-15 on its observation), and the action is half that, clipped to
[-1, 1]. A target of 0 counts as none (the original tests targets for truth). It has no notion
of balance: on Box2D 2.3 it walks about 17 m in 500 steps on average and falls on about 10 of
16 seeds.

Observation indices (Gymnasium's): 0 hull angle, 1 its angular velocity, 2 horizontal speed,
3 vertical speed; 4-8 the first leg (hip angle, hip speed, knee angle + 1, knee speed, ground
contact), 9-13 the second.
"""

from __future__ import annotations

import numpy as np

STAY_ON_ONE_LEG, PUT_OTHER_DOWN, PUSH_OFF = 1, 2, 3
"""The gait's phases."""
SPEED = 0.29
"""Target horizontal speed (observation units); faster, it falls forward."""
SUPPORT_KNEE_ANGLE = 0.1
"""rad: the supporting knee's straightest target."""


class ScriptedWalker:
    """The scripted gait for ``num_envs`` walkers (see the module's docstring).

    ``actions = walker(obs)`` takes a ``(num_envs, 24)`` batch of observations and returns a
    ``(num_envs, 4)`` float64 batch of actions; :meth:`reset` puts chosen walkers back at the
    gait's start (call it for environments that begin a new episode)."""

    def __init__(self, num_envs: int) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
            raise TypeError(f"num_envs must be an int, got {type(num_envs).__name__}")
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        self.num_envs = int(num_envs)
        self.phase = np.empty(self.num_envs, dtype=np.int64)
        self.moving_leg = np.empty(self.num_envs, dtype=np.int64)
        self.supporting_knee_angle = np.empty(self.num_envs)
        self.reset()

    def reset(self, mask=None) -> None:
        """Back to the gait's start (first phase, leg 0 moving) for every walker, or those
        where the boolean ``mask`` is True."""
        m = slice(None) if mask is None else np.asarray(mask, dtype=bool)
        self.phase[m] = STAY_ON_ONE_LEG
        self.moving_leg[m] = 0
        self.supporting_knee_angle[m] = SUPPORT_KNEE_ANGLE

    def __call__(self, obs) -> np.ndarray:
        s = np.asarray(obs, dtype=np.float64)
        if s.shape != (self.num_envs, 24):
            raise ValueError(f"obs must have shape ({self.num_envs}, 24), got {s.shape}")
        n = self.num_envs
        rows = np.arange(n)
        moving = self.moving_leg
        supporting = 1 - moving
        ska = self.supporting_knee_angle
        hip_target = np.zeros((n, 2))    # 0: no target for that joint
        knee_target = np.zeros((n, 2))
        speed = s[:, 2]

        stay = self.phase == STAY_ON_ONE_LEG
        hip_target[rows[stay], moving[stay]] = 1.1
        knee_target[rows[stay], moving[stay]] = -0.6
        ska = np.where(stay, np.minimum(ska + 0.03 + np.where(speed > SPEED, 0.03, 0.0),
                                        SUPPORT_KNEE_ANGLE), ska)
        knee_target[rows[stay], supporting[stay]] = ska[stay]
        # the supporting hip is behind: put the other leg down (this step already)
        self.phase[stay & (s[rows, 4 + 5 * supporting] < 0.10)] = PUT_OTHER_DOWN

        down = self.phase == PUT_OTHER_DOWN
        hip_target[rows[down], moving[down]] = 0.1
        knee_target[rows[down], moving[down]] = SUPPORT_KNEE_ANGLE
        knee_target[rows[down], supporting[down]] = ska[down]
        landed = down & (s[rows, 8 + 5 * moving] != 0.0)
        ska = np.where(landed, np.minimum(s[rows, 6 + 5 * moving], SUPPORT_KNEE_ANGLE), ska)
        self.phase[landed] = PUSH_OFF

        push = self.phase == PUSH_OFF
        knee_target[rows[push], moving[push]] = ska[push]
        knee_target[rows[push], supporting[push]] = 1.0
        swap = push & ((s[rows, 6 + 5 * supporting] > 0.88) | (speed > 1.2 * SPEED))
        self.phase[swap] = STAY_ON_ONE_LEG
        self.moving_leg[swap] = 1 - moving[swap]
        self.supporting_knee_angle = ska

        hip = np.where(hip_target != 0.0,
                       0.9 * (hip_target - s[:, [4, 9]]) - 0.25 * s[:, [5, 10]], 0.0)
        knee = np.where(knee_target != 0.0,
                        4.0 * (knee_target - s[:, [6, 11]]) - 0.25 * s[:, [7, 12]], 0.0)
        hip -= (0.9 * (0.0 - s[:, [0]]) - 1.5 * s[:, [1]])    # keep the hull level
        knee -= 15.0 * s[:, [3]]                             # damp the vertical bounce
        a = np.stack((hip[:, 0], knee[:, 0], hip[:, 1], knee[:, 1]), axis=1)
        return np.clip(0.5 * a, -1.0, 1.0)


__all__ = ["ScriptedWalker", "STAY_ON_ONE_LEG", "PUT_OTHER_DOWN", "PUSH_OFF", "SPEED",
           "SUPPORT_KNEE_ANGLE"]
