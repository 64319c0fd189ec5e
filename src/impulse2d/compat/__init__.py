"""Compatibility layers: other engines' APIs on impulse2d.

``impulse2d.compat.box2d``: pybox2d's (Box2D 2.3) API, with ``install()`` to make ``import
Box2D`` resolve to it, so that programs written for pybox2d (Gymnasium's LunarLander,
BipedalWalker, CarRacing) run unchanged. Nothing here is imported by ``import impulse2d``.
"""
