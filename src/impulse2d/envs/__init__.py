"""impulse2d's native Gymnasium environments: ``import impulse2d.envs`` registers them.

* ``impulse2d/LunarLander-v3`` (:mod:`.lunar_lander`): Gymnasium's LunarLander-v3 on the
  engine's own world, as a single ``gymnasium.Env`` (``gymnasium.make``) and as a vector
  environment stepping every environment in one batch call (``gymnasium.make_vec(...,
  vectorization_mode="vector_entry_point")``).

The vector environments share one base (:mod:`._vector`): a ``gymnasium.vector.VectorEnv``
over an :class:`impulse2d.WorldBatch`. Needs Gymnasium (extra ``envs``; rendering also Pillow).
"""

from __future__ import annotations

try:
    import gymnasium
except ImportError as exc:  # pragma: no cover (the dev extra installs it)
    raise ImportError("impulse2d.envs needs Gymnasium: pip install impulse2d[envs]") from exc


def _register(env_id: str, **kwargs) -> None:
    # idempotent: importing the package again (a reload, a second interpreter path) must not
    # make Gymnasium warn about overriding an id
    if env_id not in gymnasium.registry:
        gymnasium.register(env_id, **kwargs)


_register("impulse2d/LunarLander-v3",
          entry_point="impulse2d.envs.lunar_lander:LunarLander",
          vector_entry_point="impulse2d.envs.lunar_lander:LunarLanderVectorEnv",
          max_episode_steps=1000, reward_threshold=200)

# BipedalWalker (envs/bipedal_walker.py): as Gymnasium, hardcore its own id with 2000 steps
_register("impulse2d/BipedalWalker-v3",
          entry_point="impulse2d.envs.bipedal_walker:BipedalWalker",
          vector_entry_point="impulse2d.envs.bipedal_walker:BipedalWalkerVectorEnv",
          max_episode_steps=1600, reward_threshold=300)
_register("impulse2d/BipedalWalkerHardcore-v3",
          entry_point="impulse2d.envs.bipedal_walker:BipedalWalker",
          vector_entry_point="impulse2d.envs.bipedal_walker:BipedalWalkerVectorEnv",
          kwargs={"hardcore": True}, max_episode_steps=2000, reward_threshold=300)

__all__: list[str] = []
