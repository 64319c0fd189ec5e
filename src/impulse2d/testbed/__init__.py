"""The interactive testbed (``impulse2d testbed [SCENE]``; ``pip install impulse2d[testbed]``).

::

    from impulse2d.testbed import Testbed
    tb = Testbed(scene="pyramid", size=(1280, 720))   # SDL_VIDEODRIVER=dummy: no display needed
    tb.run(120); tb.side_by_side(["soft_step", "pgs"]); tb.run(300); print(tb.divergence)
    tb.record("stack.mp4", 300)                       # and stack.replay.json beside it
    impulse2d.testbed.replay("stack.replay.json", "again.mp4")

See :mod:`impulse2d.testbed.app` for the window and :mod:`impulse2d.testbed.keys` for the keys.
"""

from __future__ import annotations

from .recording import replay

__all__ = ["Testbed", "replay"]


def __getattr__(name):
    # Testbed imports pygame: only when asked for, so that `import impulse2d.testbed` (and
    # replay's docs) work without the extra and the error names it when it is needed.
    if name == "Testbed":
        from .app import Testbed
        return Testbed
    raise AttributeError(f"module 'impulse2d.testbed' has no attribute {name!r}")
