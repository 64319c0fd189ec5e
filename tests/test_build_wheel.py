"""``scripts/build_wheel.py``'s own parts, without building a wheel: the source stamp it ships
kernels under is the cache's, and its pruning keeps Numba's runtime and casting rules beside
the kept kernels."""

import importlib.util
import pickle
from pathlib import Path

import numba

from impulse2d._core import cache

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("build_wheel", ROOT / "scripts" / "build_wheel.py")
build_wheel = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build_wheel)


def test_the_stamp_is_the_caches_own():
    assert build_wheel._current_stamp(build_wheel.PACKAGE) == cache.compute_stamp(
        str(build_wheel.PACKAGE))


def test_pruning_keeps_the_runtime_and_the_casting_rules(tmp_path):
    stamp = "s" * 64
    kept, stale = tmp_path / "_dynamics" / "a.py10.nbi", tmp_path / "_dynamics" / "b.py11.nbi"
    kept.parent.mkdir()
    for index, index_stamp, data in ((kept, stamp, "a.py10.1.nbc"),
                                     (stale, "t" * 64, "b.py11.1.nbc")):
        with open(index, "wb") as f:
            pickle.dump(numba.__version__, f)
            f.write(pickle.dumps((index_stamp, {"key": data})))
        (index.parent / data).write_bytes(b"code")
    for name in ("nrt-0123.nbo", "casting-4567.nbt", "stray.nbc"):
        (tmp_path / name).write_bytes(b"x")
    assert build_wheel.prune_kernels(tmp_path, stamp, numba.__version__) == (1, 1)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.nb?")) == [
        "_dynamics/a.py10.1.nbc", "_dynamics/a.py10.nbi", "casting-4567.nbt", "nrt-0123.nbo"]
