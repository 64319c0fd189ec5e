"""The joints' rows read from Python, for ``world.constraint_rows()``.

Each joint type's row export (:mod:`.direct_rows`, the ``direct`` solver's and the diagnostics'
view of the joints) is an entry compiled without a Python wrapper and called by address from
compiled code. This kernel is that caller for Python: it passes the world's stores and the
arrays to one export, once per joint type a reader asks about; nothing on the step's path
calls it.
"""

from __future__ import annotations

from .._core.jit import kernel
from .verbs import call_direct_rows


@kernel
def export_rows(world, address, row_list, verb, h, baumgarte, speed_cap, spin_cap, body,
                jacobian, data, impulse):
    """Call the export at ``address`` (:data:`~.verbs.DIRECT_ROWS_SIGNATURE`) for row list
    ``row_list`` with ``verb`` (COUNT or ROWS) from row 0; returns the rows it covered."""
    return call_direct_rows(address, (world, row_list, verb, 0, h, baumgarte, speed_cap,
                                      spin_cap, body, jacobian, data, impulse))
