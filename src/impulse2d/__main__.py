"""``python -m impulse2d ...``: the same as the ``impulse2d`` command (see :mod:`impulse2d.cli`)."""

from .cli import main

raise SystemExit(main())
