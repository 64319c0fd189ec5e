"""The inspector: what is under a click, and its constraint rows live.

A click selects the nearest contact point or joint anchor within a pick radius (contacts
first: they are what a student asks about), else the body under the point. A selection is
kept by identity (a contact by its pair of shapes, a joint by its handle, a body by its
handle) and re-read every frame from ``world.constraint_rows()``, so the panel shows the rows
of the last step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Selection", "select", "rows_of", "describe"]


@dataclass(frozen=True)
class Selection:
    kind: str          # "contact", "joint" or "body"
    target: object     # (shape_a, shape_b) for a contact; the Joint or Body handle
    point: tuple       # where it was picked, world m


def _distance(p, q) -> float:
    return math.hypot(p[0] - q[0], p[1] - q[1])


def select(world, point, radius: float, skip=()) -> Selection | None:
    """The contact point or joint anchor nearest ``point`` within ``radius`` (m), else the body
    whose shape contains ``point``, else None. ``skip``: joints to ignore (the testbed's own
    mouse joints)."""
    best, best_d = None, radius
    for contact in world.contacts:
        for p in contact.points:
            d = _distance(p.point, point)
            if d <= best_d:
                best, best_d = Selection("contact", (contact.shape_a, contact.shape_b),
                                         tuple(p.point)), d
    if best is not None:
        return best
    for joint in world.joints:
        if joint in skip:
            continue
        for anchor in (joint.world_anchor_a, joint.world_anchor_b):
            d = _distance(anchor, point)
            if d <= best_d:
                best, best_d = Selection("joint", joint, tuple(anchor)), d
    if best is not None:
        return best
    shapes = world.query_point((float(point[0]), float(point[1])))
    if shapes:
        return Selection("body", shapes[0].body, (float(point[0]), float(point[1])))
    return None


def _owner_matches(selection: Selection, owner) -> bool:
    if selection.kind == "contact":
        shape_a = getattr(owner, "shape_a", None)
        return shape_a is not None and (owner.shape_a, owner.shape_b) == selection.target
    return owner == selection.target


def rows_of(world, selection: Selection | None) -> list:
    """The selection's rows from ``world.constraint_rows()`` (a body has none of its own)."""
    if selection is None or selection.kind == "body":
        return []
    return [row for row in world.constraint_rows() if _owner_matches(selection, row.owner)]


def _alive(world, selection: Selection) -> bool:
    if selection.kind == "joint":
        return selection.target in world.joints
    if selection.kind == "body":
        return selection.target in world.bodies
    return True


def describe(world, selection: Selection | None) -> list[str]:
    """Text lines for the inspector panel."""
    if selection is None:
        return ["ctrl-click or middle-click a contact,", "a joint or a body to inspect it"]
    if not _alive(world, selection):
        return [f"the selected {selection.kind} is gone"]
    if selection.kind == "body":
        body = selection.target
        v = body.linear_velocity
        island = next((k for k, members in enumerate(world.islands) if body in members), None)
        return [f"body {world.bodies.index(body)} ({body.type})",
                f"mass {body.mass:.4g} kg",
                f"inertia {body.inertia:.4g} kg m^2",
                f"position ({body.position[0]:.3f}, {body.position[1]:.3f}) m",
                f"velocity ({v[0]:.3f}, {v[1]:.3f}) m/s",
                f"angular velocity {body.angular_velocity:.3f} rad/s",
                f"awake {body.is_awake}, island {island if island is not None else '-'}"]
    rows = rows_of(world, selection)
    if selection.kind == "contact":
        head = "contact"
    else:
        head = f"joint {type(selection.target).__name__}"
    lines = [f"{head}: {len(rows)} rows"]
    if not rows:
        lines.append("(not solved this step: apart or asleep)")
    for row in rows:
        j = ", ".join(f"{x:.2f}" for x in row.J)
        lines.append(f"{row.kind}[{row.index}]")
        lines.append(f" J ({j})")
        lines.append(f" m_eff {row.effective_mass:.4g} bias {row.bias:.3g}")
        lines.append(f" impulse {row.impulse:.4g} (unclamped {row.unclamped:.4g})")
        if math.isfinite(row.lower) or math.isfinite(row.upper):
            lines.append(f" bounds [{row.lower:.4g}, {row.upper:.4g}]")
    return lines
