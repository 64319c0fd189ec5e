"""``warmup --all``'s compile plan: units that share callees are compiled in one process."""

from __future__ import annotations

import impulse2d  # noqa: F401  (creates every unit)


def test_every_joint_types_velocity_and_position_entries_are_one_group():
    from impulse2d._core import lazy
    from impulse2d._warmup import _joint_entries

    names = {u.key.rsplit(".", 1)[1] for u in _joint_entries(list(lazy.REGISTRY.values()))}
    velocity = {f"{t}_entry" for t in ("revolute", "distance", "prismatic", "weld", "wheel",
                                       "mouse", "motor", "pulley", "custom", "gear")}
    position = {f"{t}_position_entry" for t in ("revolute", "distance", "prismatic", "weld",
                                                "wheel", "pulley", "custom", "gear")}
    assert names == velocity | position  # (the row exports are a group of their own)
