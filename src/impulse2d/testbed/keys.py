"""The testbed's keys and mouse buttons: one table that the event handler, the help overlay and
the README share."""

from __future__ import annotations

__all__ = ["HELP", "FLAG_KEYS"]

# draw.Flags field toggled by each key (the number row, then - and =)
FLAG_KEYS = {
    "1": "shapes", "2": "joints", "3": "aabbs", "4": "contacts", "5": "normals",
    "6": "impulses", "7": "friction", "8": "islands", "9": "sleep", "0": "centers",
    "-": "velocities", "=": "graph_colors",
}

HELP = (
    ("F1", "this help"),
    ("Space / P", "pause, resume"),
    ("O", "single step (exactly one world step)"),
    ("R", "restart the scene"),
    ("PgUp / PgDn", "previous / next scene"),
    ("/ or Ctrl+F", "search scenes (type, Enter opens, Esc leaves)"),
    ("S / Shift+S", "next / previous solver"),
    ("U I Y", "substeps, iterations, position iterations (Shift: down)"),
    ("K J G H", "contact hertz, damping; joint hertz, damping"),
    ("D", "direct solver level (velocity, acceleration)"),
    ("W Z C", "warm starting, sleeping, continuous collision"),
    ("1-0 - =", "draw flags (see the left panel)"),
    ("B / Shift+B", "side by side: soft_step vs pgs / add a pane"),
    ("Home / F", "fit the world in view"),
    ("Tab", "hide, show the panels"),
    ("V", "start, stop recording (MP4 and replay file)"),
    ("F12", "screenshot (PNG)"),
    ("left drag", "drag a body (mouse joint)"),
    ("Shift+left drag", "launch a ball (pull back, release)"),
    ("Ctrl+click, middle", "inspect a contact, joint or body"),
    ("right drag, wheel", "pan; zoom about the cursor"),
    ("Esc", "quit"),
)
