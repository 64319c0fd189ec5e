"""``warmup --all --envs`` reaches every call site of the batch and of the native environments
that a program's first lander or walker run enters, so that such a run loads their kernels from
the cache instead of compiling them mid-run (issue 30: 2.3 s of compiles in a benchmark's
restarts).

The call sites are the :class:`impulse2d._core.direct_call.DirectCall` objects of the batch's
and the environments' modules; one prepared in a process is compiled or loaded for the
arguments that process gives it, and written to the cache. The kernels the runs need are
found in full, from an empty cache, by ``benchmarks/warm_cover.py`` (minutes: not a test).

Cost: the warm-up's batch world and three environments' episodes in a fresh process: loads
where the batch's and the environments' tests have compiled their kernels (seconds), else
their compiles (about 2-3 minutes of CPU from an empty cache)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import impulse2d

pytest.importorskip("gymnasium")

SRC = os.path.dirname(os.path.dirname(impulse2d.__file__))

MODULES = ("impulse2d.batch", "impulse2d._batch", "impulse2d._dynamics.batch_",
           "impulse2d._dynamics.world_ref", "impulse2d._snapshot_copy", "impulse2d.envs")
"""The modules (by name prefix) whose call sites the warm-up must reach."""

SCRIPT = f"""
import json, sys
from impulse2d import _warmup
from impulse2d._core.direct_call import DirectCall

_warmup._batch_kernels(_warmup._batch_world())
_warmup._environments()
sites = {{}}
for name, module in list(sys.modules.items()):
    if name.startswith({MODULES!r}):
        for attr, value in vars(module).items():
            if isinstance(value, DirectCall):
                sites.setdefault(id(value), (f"{{name}}.{{attr}}", value.prepared))
print(json.dumps(sorted(sites.values())))
"""


def test_the_warmups_batch_and_environments_prepare_every_call_site_of_their_modules():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": SRC, "IMPULSE2D_QUIET": "1"},
                          timeout=1200)
    assert done.returncode == 0, done.stderr
    sites = dict(json.loads(done.stdout.strip().splitlines()[-1]))
    names = {name.rsplit(".", 1)[1] for name in sites}
    # (the restores', the lists of references', the environments' own: what the warm-up missed)
    assert {"_kept_stores", "_keep_stores", "_restore_again", "_put_contact_stores",
            "_pick_refs", "_put_ref", "_new_refs", "_add_ref", "_others",
            "_discrete_engines", "_start_episodes", "_after_step", "_move", "_episode_ends",
            "_gather_state"} <= names
    assert [name for name, prepared in sites.items() if not prepared] == []

