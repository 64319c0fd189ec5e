"""A kernel another process of the same compile has cached is loaded from that process's cache,
not compiled again (:func:`impulse2d._core.cache.adopt_from_peers`).

Each run is a fresh process with its own empty ``NUMBA_CACHE_DIR``; the compile helpers are off
(``IMPULSE2D_COMPILE_PROCESSES=1``) so that a process compiles only what it asks for itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import impulse2d as i2d

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1",
                                reason="compiles kernels")

RUN = """
import json
import sys
import numba
import numpy as np
from numba.core import event

compiled = []

class Log(event.Listener):
    def on_start(self, ev):
        function = ev.data["dispatcher"].py_func
        compiled.append(f"{function.__module__}.{function.__qualname__}")

    def on_end(self, ev):
        pass

event.register("numba:compile", Log())
from impulse2d._collision import geometry
from impulse2d._core import cache

vertices = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]], dtype=sys.argv[1])

@numba.njit
def caller(count, vertices, density):  # compiled here, whatever the cache: its callee linked
    mass, center, inertia = geometry.mass_properties(count, vertices, 0.0, density)
    return mass, inertia

mass, inertia = caller(4, vertices, 2.0)
print(json.dumps({"compiled": compiled, "mass": mass, "inertia": inertia,
                  "peers": cache.PEER_ROOTS}))
"""

KERNEL = "impulse2d._collision.geometry.mass_properties"


def _run(cache_dir: Path, peers: list[Path], dtype: str = "float64") -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_DISABLE_JIT", "NUMBA_CACHE_LOCATOR_CLASSES")}
    env.update(PYTHONPATH=str(Path(i2d.__file__).resolve().parents[1]),
               NUMBA_CACHE_DIR=str(cache_dir), IMPULSE2D_COMPILE_PROCESSES="1",
               IMPULSE2D_QUIET="1", IMPULSE2D_PEER_CACHES=os.pathsep.join(map(str, peers)))
    proc = subprocess.run([sys.executable, "-c", RUN, dtype], capture_output=True, text=True, env=env,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _kernel_files(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (root / "impulse2d" / "_collision").iterdir()
            if p.name.startswith("geometry.mass_properties-") and p.suffix in (".nbi", ".nbc")}


def test_a_callee_a_peer_compiled_is_loaded_from_its_cache(tmp_path):
    """The first process (its peer root gone: nothing there) compiles the callee into its
    cache; the second, whose peer that cache is, links the callee into its own new caller
    without compiling it, from a copy of the peer's files, and computes the same numbers."""
    first, second = tmp_path / "first", tmp_path / "second"
    made = _run(first, [tmp_path / "gone" / "impulse2d"])
    assert KERNEL in made["compiled"]
    adopted = _run(second, [first / "impulse2d"])
    assert adopted["peers"] == [str(first / "impulse2d")]
    assert KERNEL not in adopted["compiled"]
    assert any(name.endswith(".caller") for name in adopted["compiled"])
    files = _kernel_files(second)
    assert any(name.endswith(".nbi") for name in files)
    assert files == _kernel_files(first)  # (the peer's own index and data, byte for byte)
    # a 1 m x 1 m square at 2 kg/m^2: m = 2 kg, I = m (1 + 1) / 12 = 1/3 kg m^2; the same bits
    assert made["mass"] == adopted["mass"] == pytest.approx(2.0, rel=1e-12)
    assert made["inertia"] == adopted["inertia"] == pytest.approx(1.0 / 3.0, rel=1e-12)


def test_a_process_without_peers_compiles_and_its_own_index_is_kept(tmp_path):
    """Without a peer the callee compiles (the test above measures something); a cache with
    its own index of the kernel (another signature: float32 vertices) keeps it, whatever a
    peer holds: the signature it lacks is compiled here and added to it."""
    first, second = tmp_path / "first", tmp_path / "second"
    assert KERNEL in _run(first, [])["compiled"]
    assert KERNEL in _run(second, [], "float32")["compiled"]
    again = _run(second, [first / "impulse2d"])
    assert KERNEL in again["compiled"]
    files = _kernel_files(second)
    assert sorted(name.rsplit(".", 2)[-2:][1] for name in files) == ["nbc", "nbc", "nbi"]
    assert files != _kernel_files(first)
    assert again["mass"] == pytest.approx(2.0, rel=1e-12)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_helper_and_its_parent_are_each_others_peers():
    """A compile helper (:mod:`impulse2d._core.parallel`) is given its parent's cache root,
    and the parent reads the helper's cache while the helper runs, not after."""
    from impulse2d._core import cache, parallel
    helper = parallel._Helper([])
    try:
        assert helper.peer_root == os.path.join(helper.root, "impulse2d")
        assert cache.PEER_ROOTS.count(helper.peer_root) == 1
        # Popen returns once the helper's exec has closed its close-on-exec pipe, which the
        # kernel does before it writes the new program's environment: read until it is there
        environ_file = Path(f"/proc/{helper.process.pid}/environ")
        deadline = time.monotonic() + 30.0
        while not environ_file.read_bytes() and time.monotonic() < deadline:
            assert helper.process.poll() is None  # (an exited helper's reads empty too)
            time.sleep(0.01)
        environ = environ_file.read_bytes().split(b"\0")
        assert f"IMPULSE2D_PEER_CACHES={cache.cache_root()}".encode() in environ
    finally:
        helper.stop()
    assert helper.peer_root not in cache.PEER_ROOTS
    assert not os.path.exists(helper.root)
