"""The package's Numba cache locator (src/impulse2d/_core/cache.py) and shipped kernels.

Unit tests of the locator on temporary copies of the package, then an end-to-end test in
subprocesses on a copy of the package: compile a small kernel into its ``_kernels/`` directory,
load it from there through a seeded user cache when the package is read-only, and check that
index entries built for another CPU or another Numba version are never loaded (Numba compiles
instead, giving the same bits).
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import pytest
from numba.core import caching
from numba.core.serialize import dumps

import impulse2d as i2d
from impulse2d._core import cache

PACKAGE = Path(cache.PACKAGE_DIR)
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


@pytest.fixture(autouse=True)
def _fresh_memos():
    cache.reset()
    yield
    cache.reset()


def _copy_package(dest: Path) -> Path:
    """A copy of the package's sources (no caches) at ``dest/impulse2d``."""
    target = dest / "impulse2d"
    shutil.copytree(PACKAGE, target,
                    ignore=shutil.ignore_patterns("__pycache__", "_kernels", "*.nbi", "*.nbc"))
    return target


@pytest.fixture
def pkg(tmp_path, monkeypatch):
    """The cache module pointed at a temporary copy of the package, NUMBA_CACHE_DIR unset."""
    root = _copy_package(tmp_path / "src")
    monkeypatch.setattr(cache, "PACKAGE_DIR", str(root))
    monkeypatch.setattr(cache, "SHIPPED_DIR", str(root / "_kernels"))
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return root


def _func_at(lineno: int):
    """A function whose first line number is ``lineno``."""
    ns: dict = {}
    exec(compile("\n" * (lineno - 1) + "def f(x):\n    return x\n", "<test>", "exec"), ns)
    return ns["f"]


def _make_read_only(path: Path) -> None:
    for p in [path, *path.rglob("*")]:
        mode = p.stat().st_mode
        p.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def _make_writable(path: Path) -> None:
    for p in [path, *path.rglob("*")]:
        p.chmod(p.stat().st_mode | stat.S_IWUSR)


# -- the locator -----------------------------------------------------------------------------

def test_installed_first_and_idempotent():
    classes = caching.CacheImpl._locator_classes
    assert classes[0] is cache.PackageCacheLocator
    before = list(classes)
    cache.install()
    cache.install()
    assert list(classes) == before
    assert sum(c is cache.PackageCacheLocator for c in classes) == 1
    # A real kernel of the package got this locator.
    from impulse2d._collision import geometry
    locator = geometry.mass_properties._cache._impl.locator
    assert isinstance(locator, cache.PackageCacheLocator)


def test_file_outside_package_gets_none(pkg, tmp_path):
    outside = tmp_path / "elsewhere" / "mod.py"
    outside.parent.mkdir()
    outside.write_text("def f(x):\n    return x\n")
    f = _func_at(1)
    assert cache.PackageCacheLocator.from_function(f, str(outside)) is None
    assert cache.PackageCacheLocator.from_function(f, numba.__file__) is None
    assert cache.PackageCacheLocator.from_function(f, caching.__file__) is None
    # A sibling directory whose name starts with the package's is outside too.
    sibling = pkg.parent / "impulse2d_extra" / "mod.py"
    sibling.parent.mkdir()
    sibling.write_text("x = 1\n")
    assert cache.PackageCacheLocator.from_function(f, str(sibling)) is None
    assert not (pkg / "_kernels").exists()  # nothing was created for them


def test_locator_mirrors_package_layout(pkg):
    f = _func_at(42)
    joints = cache.PackageCacheLocator.from_function(f, str(pkg / "_dynamics/joints/__init__.py"))
    dynamics = cache.PackageCacheLocator.from_function(f, str(pkg / "_dynamics/__init__.py"))
    geometry = cache.PackageCacheLocator.from_function(f, str(pkg / "_collision/geometry.py"))
    top = cache.PackageCacheLocator.from_function(f, str(pkg / "world.py"))
    assert joints.get_cache_path() == str(pkg / "_kernels" / "_dynamics" / "joints")
    assert dynamics.get_cache_path() == str(pkg / "_kernels" / "_dynamics")
    assert geometry.get_cache_path() == str(pkg / "_kernels" / "_collision")
    assert top.get_cache_path() == str(pkg / "_kernels")
    assert os.path.isdir(joints.get_cache_path())
    assert joints.get_disambiguator() == "42"
    stamp = cache.compute_stamp(str(pkg))
    assert joints.get_source_stamp() == stamp
    assert geometry.get_source_stamp() == stamp
    # A file outside the compiled part also carries its own hash.
    assert top.get_source_stamp().startswith(stamp + ":")
    assert top.get_source_stamp() != stamp


def test_stamp_changes_with_any_compiled_source(tmp_path):
    root = _copy_package(tmp_path)
    base = cache.compute_stamp(str(root))
    assert len(base) == 64
    sources = cache.compiled_sources(str(root))
    assert "constants.py" in sources
    assert "_dynamics/joints/revolute.py" in sources
    assert "_core/jit.py" in sources and "_collision/geometry.py" in sources
    assert "world.py" not in sources and not any(s.startswith("scenes/") for s in sources)
    # The cache's own code and the compile helpers hold no kernel.
    assert "_core/cache.py" not in sources and "_core/parallel.py" not in sources

    def edited(rel: str, text: str) -> str:
        path = root / rel
        old = path.read_bytes()
        path.write_bytes(old + text.encode())
        try:
            return cache.compute_stamp(str(root))
        finally:
            path.write_bytes(old)

    seen = {base}
    for rel in ("constants.py", "_core/jit.py", "_collision/geometry.py",
                "_dynamics/joints/revolute.py", "_dynamics/joints/__init__.py"):
        new = edited(rel, "\n# edited\n")
        assert new not in seen, rel
        seen.add(new)
        assert cache.compute_stamp(str(root)) == base  # restored: the same stamp again
    # Files outside the compiled part, and non-.py files inside it, do not count.
    assert edited("world.py", "\n# edited\n") == base
    assert edited("scenes/standard.py", "\n# edited\n") == base
    assert edited("_core/cache.py", "\n# edited\n") == base
    assert edited("_core/parallel.py", "\n# edited\n") == base
    (root / "_dynamics" / "notes.txt").write_text("not a source\n")
    (root / "_dynamics" / "__pycache__").mkdir(exist_ok=True)
    (root / "_dynamics" / "__pycache__" / "x.py").write_text("y = 1\n")
    assert cache.compute_stamp(str(root)) == base
    # Only the contents count, not the modification time.
    os.utime(root / "constants.py", (1, 1))
    assert cache.compute_stamp(str(root)) == base
    # A new module, or a renamed one, changes it.
    (root / "_collision" / "extra.py").write_text("")
    added = cache.compute_stamp(str(root))
    assert added != base
    (root / "_collision" / "extra.py").rename(root / "_collision" / "extra2.py")
    assert cache.compute_stamp(str(root)) not in (base, added)


def test_stamp_computed_once_per_process(pkg, monkeypatch):
    calls = []
    real = cache.compute_stamp
    monkeypatch.setattr(cache, "compute_stamp", lambda d=None: calls.append(d) or real(d))
    f = _func_at(3)
    for name in ("_core/jit.py", "_collision/geometry.py", "_dynamics/step.py"):
        cache.PackageCacheLocator.from_function(f, str(pkg / name))
    assert calls == [str(pkg)]
    # ... so an edit made while the process runs is seen by the next process only.
    before = cache.package_stamp()
    (pkg / "constants.py").write_text("# edited\n")
    assert cache.package_stamp() == before != real(str(pkg))


def test_numba_cache_dir_honoured(pkg, tmp_path, monkeypatch):
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "nc"))
    f = _func_at(7)
    loc = cache.PackageCacheLocator.from_function(f, str(pkg / "_dynamics/joints/weld.py"))
    assert loc.get_cache_path() == str(tmp_path / "nc" / "impulse2d" / "_dynamics" / "joints")
    assert os.path.isdir(loc.get_cache_path())
    assert not (pkg / "_kernels").exists()
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    loc = cache.PackageCacheLocator.from_function(f, str(pkg / "_dynamics/joints/weld.py"))
    assert loc.get_cache_path() == str(pkg / "_kernels" / "_dynamics" / "joints")


def test_numba_cache_dir_is_seeded_from_shipped_kernels(pkg, tmp_path, monkeypatch):
    """A wheel's kernels (``_kernels/SHIPPED`` present) seed an empty NUMBA_CACHE_DIR, once per
    source stamp; a source checkout's own cache (no marker) seeds nothing."""
    shipped = pkg / "_kernels"
    files = {"_collision/geometry.mass_properties-237.py311.nbi": b"index",
             "_collision/geometry.mass_properties-237.py311.1.nbc": b"code",
             "top.g-1.py311.nbi": b"index 2", "nrt-0123abcd.nbo": b"runtime"}
    for rel, data in files.items():
        (shipped / rel).parent.mkdir(parents=True, exist_ok=True)
        (shipped / rel).write_bytes(data)
    # a source checkout: no marker, the directory stays empty (a cold start stays cold)
    checkout = tmp_path / "checkout-cache"
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(checkout))
    assert cache.cache_root() == str(checkout / "impulse2d")
    assert not (checkout / "impulse2d").exists() or not any((checkout / "impulse2d").iterdir())
    # a wheel: the marker names the stamp its kernels were compiled from
    cache.reset()
    (shipped / cache.SHIPPED_MARKER).write_text(cache.package_stamp(str(pkg)))
    ci = tmp_path / "ci-cache"
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(ci))
    f = _func_at(237)
    loc = cache.PackageCacheLocator.from_function(f, str(pkg / "_collision/geometry.py"))
    root = ci / "impulse2d"
    assert loc.get_cache_path() == str(root / "_collision")
    for rel, data in files.items():
        assert (root / rel).read_bytes() == data, rel
    assert not (root / cache.SHIPPED_MARKER).exists()
    assert (root / cache.SEED_MARKER).read_text() == cache.package_stamp()
    # seeded once per stamp: what the user's runs compiled into it since is kept
    (root / "top.g-1.py311.nbi").write_bytes(b"compiled by the user")
    cache.reset()
    assert cache.cache_root() == str(root)
    assert (root / "top.g-1.py311.nbi").read_bytes() == b"compiled by the user"


def test_writability_check_memoised(tmp_path, monkeypatch):
    calls = []
    real = cache.tempfile.TemporaryFile
    monkeypatch.setattr(cache.tempfile, "TemporaryFile",
                        lambda *a, **k: calls.append(k.get("dir")) or real(*a, **k))
    d = str(tmp_path / "new" / "dir")
    assert cache.is_writable(d) and cache.is_writable(d) and os.path.isdir(d)
    assert calls == [d]
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert cache.is_writable(str(blocker / "sub")) is False  # cannot be created


def test_read_only_shipped_dir_seeds_user_cache(pkg, tmp_path, monkeypatch):
    shipped = pkg / "_kernels"
    files = {"_collision/geometry.mass_properties-237.py311.nbi": b"index",
             "_collision/geometry.mass_properties-237.py311.1.nbc": b"code",
             "_dynamics/joints/weld.f-3.py311.nbi": b"index 2",
             "top.g-1.py311.nbi": b"index 3"}
    for rel, data in files.items():
        (shipped / rel).parent.mkdir(parents=True, exist_ok=True)
        (shipped / rel).write_bytes(data)
    (shipped / "README.txt").write_text("not a cache file")
    _make_read_only(pkg)
    try:
        real = cache.is_writable
        if IS_ROOT or real(str(shipped)):
            # chmod does not stop root: simulate the read-only install.
            cache.reset()
            monkeypatch.setattr(cache, "is_writable", lambda p: (
                False if os.path.realpath(p).startswith(os.path.realpath(pkg)) else real(p)))
        else:
            assert real(str(shipped)) is False
        user = Path(cache.user_cache_root())
        assert user.parent == tmp_path / "xdg" / "impulse2d"
        assert user.name.endswith(f"-numba{numba.__version__}")
        assert not user.exists()

        f = _func_at(237)
        loc = cache.PackageCacheLocator.from_function(f, str(pkg / "_collision/geometry.py"))
        assert loc.get_cache_path() == str(user / "_collision")
        for rel, data in files.items():
            assert (user / rel).read_bytes() == data, rel
        assert not (user / "README.txt").exists()
        assert (user / cache.SEED_MARKER).read_text() == cache.package_stamp()
        assert cache.cache_root() == str(user)

        # Seeded once: a later process with the same stamp keeps the user's files...
        (user / "top.g-1.py311.nbi").write_bytes(b"compiled by the user")
        cache.reset()
        assert cache.cache_root() == str(user)
        assert (user / "top.g-1.py311.nbi").read_bytes() == b"compiled by the user"
        # ... and one with other sources (a new install) seeds again.
        cache.reset()
        cache._stamps[cache.PACKAGE_DIR] = "another stamp"
        assert cache.cache_root() == str(user)
        assert (user / "top.g-1.py311.nbi").read_bytes() == b"index 3"
        assert (user / cache.SEED_MARKER).read_text() == "another stamp"
    finally:
        _make_writable(pkg)


def test_no_shipped_dir_uses_empty_user_cache(pkg, tmp_path, monkeypatch):
    real = cache.is_writable
    monkeypatch.setattr(cache, "is_writable", lambda p: (
        False if os.path.realpath(p).startswith(os.path.realpath(pkg)) else real(p)))
    root = Path(cache.cache_root())
    assert root.parent == tmp_path / "xdg" / "impulse2d"
    assert root.is_dir() is False or not any(root.iterdir())
    assert not (pkg / "_kernels").exists()


# -- end to end, in subprocesses -------------------------------------------------------------

DRIVER = textwrap.dedent('''
    import json, os, sys
    if os.environ.get("TEST_SIMULATE_READ_ONLY") == "1":
        # Running as root, where chmod does not stop writes: make the cache module see the
        # package directory as read-only, as soon as it is executed.
        import importlib.abc, importlib.machinery

        class Hook(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path, target=None):
                if name != "impulse2d._core.cache":
                    return None
                spec = importlib.machinery.PathFinder.find_spec(name, path)
                run = spec.loader.exec_module

                def exec_module(module):
                    run(module)
                    real, pkg = module.is_writable, os.path.realpath(module.PACKAGE_DIR)
                    module.is_writable = lambda p: (
                        False if os.path.realpath(p).startswith(pkg) else real(p))
                spec.loader.exec_module = exec_module
                return spec

        sys.meta_path.insert(0, Hook())

    from numba.core import event
    compiled = []

    class Listener(event.Listener):
        def on_start(self, ev):
            f = ev.data["dispatcher"].py_func
            compiled.append(f"{f.__module__}.{f.__qualname__}")

        def on_end(self, ev):
            pass

    event.register("numba:compile", Listener())

    import impulse2d as i2d
    from impulse2d._collision import geometry
    from impulse2d._core import cache

    world = i2d.World()
    values = []
    for make in (lambda b: b.create_box(0.5, 0.25),
                 lambda b: b.create_box(0.3, 0.2, center=(0.1, -0.2), angle=0.4, radius=0.05),
                 lambda b: b.create_polygon([(0, 0), (0.7, 0.1), (0.2, 0.45)], radius=0.02),
                 lambda b: b.create_capsule((-0.2, 0.1), (0.3, 0.0), 0.15),
                 lambda b: b.create_circle(0.3, center=(0.2, 0.1))):
        body = world.create_body(position=(0.0, 1.0))
        make(body)
        values += [body.mass, body.inertia, body.local_center.x, body.local_center.y]
    stats = geometry.mass_properties.stats
    print(json.dumps({
        "file": i2d.__file__, "root": cache.cache_root(), "compiled": compiled,
        "hits": sum(stats.cache_hits.values()), "misses": sum(stats.cache_misses.values()),
        "bits": [float(v).hex() for v in values]}))
''')

KERNEL = "impulse2d._collision.geometry.mass_properties"


def _run_copy(src: Path, home: Path, read_only: bool = False) -> dict:
    """Run :data:`DRIVER` against the package copy whose parent directory is ``src``."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "NUMBA_CACHE_LOCATOR_CLASSES", "NUMBA_DISABLE_JIT",
                        "IMPULSE2D_NUMBA_CACHE", "PYTHONPATH", "XDG_CACHE_HOME")}
    env.update(PYTHONPATH=str(src), HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"),
               IMPULSE2D_QUIET="1", TEST_SIMULATE_READ_ONLY="1" if read_only and IS_ROOT else "0")
    script = src.parent / "driver.py"
    script.write_text(DRIVER)
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=env, cwd=str(src.parent), timeout=300)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["file"] == str(src / "impulse2d" / "__init__.py")
    return result


def _cache_files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.suffix in (".nbi", ".nbc")}


def _read_index(path: Path):
    with open(path, "rb") as f:
        version = pickle.load(f)
        payload = f.read()
    return version, payload


def _host_magic_tuple():
    from numba.core.registry import cpu_target
    return cpu_target.target_context.codegen().magic_tuple()


@pytest.fixture(scope="module")
def compiled_copy(tmp_path_factory):
    """A copy of the package whose ``_kernels/`` holds the compiled kernel, and its results."""
    if numba.config.DISABLE_JIT:
        pytest.skip("needs the JIT")
    base = tmp_path_factory.mktemp("e2e")
    src = base / "src"
    _copy_package(src)
    first = _run_copy(src, base / "home")
    assert KERNEL in first["compiled"]
    assert first["misses"] >= 1 and first["hits"] == 0
    assert first["root"] == str(src / "impulse2d" / "_kernels")
    shipped = _cache_files(src / "impulse2d" / "_kernels")
    assert any(k.startswith("_collision/geometry.mass_properties-") and k.endswith(".nbi")
               for k in shipped)
    assert any(k.startswith("_collision/geometry.mass_properties-") and k.endswith(".nbc")
               for k in shipped)
    assert not (base / "home" / ".cache").exists()  # the writable package was used
    return src, first


def _fresh_copy(compiled_copy, tmp_path) -> Path:
    src, _ = compiled_copy
    dest = tmp_path / "src"
    shutil.copytree(src, dest)
    return dest


def test_e2e_loads_in_place_and_from_seeded_user_cache(compiled_copy, tmp_path):
    _, first = compiled_copy
    src = _fresh_copy(compiled_copy, tmp_path)
    shipped_dir = src / "impulse2d" / "_kernels"

    warm = _run_copy(src, tmp_path / "home0")  # writable: loads from _kernels in place
    assert warm["compiled"] == [] and warm["misses"] == 0 and warm["hits"] >= 1
    assert warm["bits"] == first["bits"]

    shipped = _cache_files(shipped_dir)
    _make_read_only(src / "impulse2d")
    try:
        home = tmp_path / "home"
        result = _run_copy(src, home, read_only=True)
    finally:
        _make_writable(src / "impulse2d")
    assert result["compiled"] == [], result["compiled"]  # nothing compiled, not even a helper
    assert result["misses"] == 0 and result["hits"] >= 1
    assert result["bits"] == first["bits"]
    user = Path(result["root"])
    assert user.parent == home / ".cache" / "impulse2d"
    seeded = _cache_files(user)
    assert seeded == shipped  # a byte-for-byte copy, and loading did not change it
    assert _cache_files(shipped_dir) == shipped


def _tamper(shipped_dir: Path, *, cpu: bool = False, version: bool = False) -> int:
    """Rewrite each index under ``shipped_dir`` as built for another CPU or Numba version, and
    make every code file unloadable (so that loading a tampered entry could not go unnoticed).
    Returns the number of index entries rewritten."""
    entries = 0
    for index in shipped_dir.rglob("*.nbi"):
        header, payload = _read_index(index)
        assert header == numba.__version__
        stamp, overloads = pickle.loads(payload)
        if cpu:
            new = {}
            for (sig, magic, hashes), name in overloads.items():
                triple, cpu_name, features = magic
                new[(sig, (triple, cpu_name + "-other", features), hashes)] = name
            overloads = new
        entries += len(overloads)
        with open(index, "wb") as f:
            pickle.dump("0.0.1-other" if version else header, f, protocol=-1)
            f.write(dumps((stamp, overloads)))
    for data in shipped_dir.rglob("*.nbc"):
        data.write_bytes(b"not a Numba cache entry")
    return entries


@pytest.mark.parametrize("kind", ["cpu", "version"])
def test_e2e_foreign_kernels_are_compiled_not_loaded(compiled_copy, tmp_path, kind):
    _, first = compiled_copy
    src = _fresh_copy(compiled_copy, tmp_path)
    shipped_dir = src / "impulse2d" / "_kernels"
    assert _tamper(shipped_dir, cpu=kind == "cpu", version=kind == "version") >= 2
    _make_read_only(src / "impulse2d")
    try:
        result = _run_copy(src, tmp_path / "home", read_only=True)
    finally:
        _make_writable(src / "impulse2d")
    assert KERNEL in result["compiled"]
    assert result["misses"] >= 1 and result["hits"] == 0
    assert result["bits"] == first["bits"]

    # The seeded index was read and the foreign entry kept out: the index now holds an entry
    # for this CPU and this Numba, next to the foreign one (another CPU) or instead of it.
    user = Path(result["root"])
    assert user.parent == tmp_path / "home" / ".cache" / "impulse2d"
    assert (user / cache.SEED_MARKER).is_file()  # seeded with the tampered files
    index = next((user / "_collision").glob("geometry.mass_properties-*.nbi"))
    header, payload = _read_index(index)
    assert header == numba.__version__
    _, overloads = pickle.loads(payload)
    magics = [magic for (_, magic, _) in overloads]
    assert tuple(_host_magic_tuple()) in [tuple(m) for m in magics]
    if kind == "cpu":
        assert any(m[1].endswith("-other") for m in magics)
    else:
        assert len(magics) == 1


# -- loading without the compiler's registries (QuickLoadCache) --------------------------------

QUICK_LOAD_RUN = """
import json, sys
import impulse2d as i2d
world = i2d.World()
world.create_body(type="static").create_box(5, 0.5, center=(0, -0.5))
world.create_body(position=(0, 1)).create_box(0.5, 0.5)
world.step(1 / 60)
# Modules that only Numba's refresh of its target context imports (cached code's environments
# may import others, such as numba.np.arraymath, themselves).
refresh_only = ("numba.misc.gdb_hook", "numba.np.polynomial.polynomial_core",
                "numba.typed.typeddict")
print(json.dumps({"registries": [m for m in refresh_only if m in sys.modules],
                  "y": world.get_positions()[1, 1]}))
"""


def test_a_cached_world_loads_without_numbas_compiler_registries():
    """A warm process never imports the typing and lowering registries that only compiling
    needs; a compile would have imported them."""
    i2d.warmup(progress=False)  # the kernels below are in the cache
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    env["PYTHONPATH"] = str(Path(i2d.__file__).resolve().parents[1])
    proc = subprocess.run([sys.executable, "-c", QUICK_LOAD_RUN], capture_output=True,
                          text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["registries"] == []
    assert 0.9 < result["y"] < 1.0  # it stepped: the box fell from 1 m


def test_a_quick_load_that_fails_is_retried_numbas_own_way(monkeypatch):
    """If loading without the refresh raises, the load is Numba's own (refresh first) and
    gives the same code."""
    from impulse2d._collision import geometry

    world = i2d.World()
    world.create_body().create_box(0.5, 0.5)  # mass_properties is called (compiled or loaded)
    original = geometry.mass_properties
    signature = original.signatures[0]

    class Broken:
        def initialize(self, context):
            raise RuntimeError("simulated")

    monkeypatch.setattr(cache, "rtsys", Broken())
    fresh = numba.njit(cache=True, error_model="numpy", no_cfunc_wrapper=True)(original.py_func)
    cache.quick_loading(fresh)
    assert type(fresh._cache) is cache.QuickLoadCache
    fresh.compile(signature)
    assert sum(fresh.stats.cache_hits.values()) == 1  # loaded, not compiled
    assert sum(fresh.stats.cache_misses.values()) == 0


# -- the linking bitcode, parsed on first link (LazyLinkingLibrary) ---------------------------

def _object_code(ir_text: str) -> bytes:
    """The host's object code for the LLVM IR module ``ir_text``, as Numba's JIT emits it."""
    from numba.core.registry import cpu_target

    module = llvmlite_binding().parse_assembly(ir_text)
    return cpu_target.target_context.codegen()._tm.emit_object(module)


def llvmlite_binding():
    from llvmlite import binding
    return binding


@pytest.mark.skipif(sys.platform != "linux", reason="ELF object code (Linux)")
def test_the_names_an_object_defines_come_from_its_symbol_table():
    """Defined global and weak symbols count; internal ones, references and declarations do
    not (the names Numba's own load registers that an execution engine can look up)."""
    code = _object_code("""
        @table = global [2 x i64] zeroinitializer
        @hidden = internal global i64 0
        declare i64 @elsewhere(i64)
        define i64 @entry(i64 %x) { %y = call i64 @elsewhere(i64 %x) ret i64 %y }
        define linkonce_odr i64 @shared(i64 %x) { ret i64 %x }
        define internal i64 @helper(i64 %x) { %y = load i64, ptr @hidden ret i64 %y }
        define i64 @uses(i64 %x) { %y = call i64 @helper(i64 %x) ret i64 %y }
    """)
    assert cache.elf_defined_symbols(code) == {"table", "entry", "shared", "uses"}
    # Anything else is left to Numba's own load.
    assert cache.elf_defined_symbols(b"MZ\x90\x00" + code[4:]) is None
    assert cache.elf_defined_symbols(code[:40]) is None
    assert cache.elf_defined_symbols(b"") is None


LAZY_LINK_RUN = """
import json
import numba
import numpy as np
import impulse2d as i2d
from impulse2d._core import cache
from impulse2d._collision import geometry

world = i2d.World()
body = world.create_body()
body.create_box(0.5, 0.5)  # geometry.mass_properties, loaded from the cache
library = geometry.mass_properties.overloads[geometry.mass_properties.signatures[0]].library
unparsed = type(library) is cache.LazyLinkingLibrary and library._shared_module is None
vertices = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
loaded = geometry.mass_properties(4, vertices, 0.0, 2.0)

@numba.njit
def caller(count, vertices, density):  # compiled here: links the cached kernel into its code
    mass, center, inertia = geometry.mass_properties(count, vertices, 0.0, density)
    return mass, inertia

linked = caller(4, vertices, 2.0)
print(json.dumps({"unparsed": unparsed, "parsed_after": library._shared_module is not None,
                  "mass": [loaded[0], linked[0], body.mass],
                  "inertia": [loaded[2], linked[1]]}))
"""


def test_a_cached_kernel_parses_its_bitcode_only_when_a_compile_links_it():
    """A warm process loads a kernel without parsing its linking bitcode; a kernel compiled
    later that calls it links it (parsing it then) and computes the same numbers."""
    world = i2d.World()
    world.create_body().create_box(0.5, 0.5)  # mass_properties is in the cache
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    env["PYTHONPATH"] = str(Path(i2d.__file__).resolve().parents[1])
    proc = subprocess.run([sys.executable, "-c", LAZY_LINK_RUN], capture_output=True,
                          text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["unparsed"] is True and result["parsed_after"] is True
    # a 1 m x 1 m square at 2 kg/m^2: m = 2 kg, I = m (1 + 1) / 12 = 1/3 kg m^2 (the body's
    # box: the same square at the default 1 kg/m^2)
    assert result["mass"] == pytest.approx([2.0, 2.0, 1.0], rel=1e-12)
    assert result["inertia"] == pytest.approx([1.0 / 3.0] * 2, rel=1e-12)
