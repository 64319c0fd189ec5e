"""Every world's rays in one compiled pass per thread: the kernel of
``WorldBatch.ray_cast_many``.

The batch's lidar used to be a kernel that held Python's global lock, so it ran on one core
while the step ran on all (14 % of the native BipedalWalker's time at 2 threads, measured
2026-11-28 afternoon, load 8). This is that pass (each world's query index refreshed first
where asked, then its rays cast: the same functions, so the same bits) with the lock
released, which the batch runs over chunks of its worlds on its threads as it runs its step.
Kept outside the engine's folders, whose every edit makes the whole kernel cache stale, so
that it compiles on its own.
"""

from __future__ import annotations

from ._collision.query_index import refresh
from ._collision.shape_queries import cast_rays
from ._core.jit import DirectCall, gil_free_kernel


@gil_free_kernel
def cast_rays_many(ats, refresh_first, cell_scale, origins, translations, max_fraction,
                   category, mask, out_fraction, out_point, out_normal, out_row, done):
    """World ``i``'s rays ``origins[i]``, ``translations[i]`` through the query index at
    ``ats[i]`` into ``out_*[i]``, its moving layer binned again first where
    ``refresh_first[i]``; ``done[i]`` False where that needs Python (the index's buffers must
    grow or its static layer no longer holds: the world's rays are left for Python)."""
    for i in range(ats.shape[0]):
        if refresh_first[i]:
            status, _, _ = refresh(ats[i], cell_scale)
            if status != 1:
                done[i] = False
                continue
        cast_rays(ats[i], origins[i], translations[i], max_fraction, category, mask,
                  out_fraction[i], out_point[i], out_normal[i], out_row[i])
        done[i] = True


_cast_rays_many = DirectCall(cast_rays_many, "batched ray casts in many worlds", 3.0)
