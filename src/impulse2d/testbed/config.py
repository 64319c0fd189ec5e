"""What the testbed remembers between runs: the last scene, the draw flags and the panel state,
as JSON in the user's configuration directory (``$XDG_CONFIG_HOME/impulse2d/testbed.json``,
``~/.config/impulse2d/testbed.json`` without it, ``%APPDATA%\\impulse2d\\testbed.json`` on
Windows)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

__all__ = ["config_path", "load", "save"]


def config_path() -> Path:
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        base = Path(os.environ["APPDATA"])
    else:
        base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "impulse2d" / "testbed.json"


def load() -> dict:
    """The remembered state, or {} when there is none or it cannot be read (a damaged file is
    ignored, not fatal: the testbed starts with its defaults and overwrites it on exit)."""
    try:
        state = json.loads(config_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}


def save(state: dict) -> Path:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(state, indent=1, sort_keys=True), encoding="utf-8")
    tmp.replace(path)  # atomic: a crash mid-write leaves the old file
    return path
