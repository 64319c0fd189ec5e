"""Build a wheel of impulse2d that ships its compiled Numba kernels for this platform.

    python scripts/build_wheel.py [--out dist] [--skip-warmup]

1. Clears ``src/impulse2d/_kernels/`` (the package's own kernel cache, see
   ``src/impulse2d/_core/cache.py``).
2. Compiles every kernel into it, in a subprocess with ``NUMBA_CACHE_DIR`` unset:
   ``impulse2d.warmup(all_kernels=True, environments=True)`` (every shape type, solver and
   joint type, and the native environments where Gymnasium is installed).
3. Builds the wheel (``pip wheel --no-deps``) from a clean copy of the sources plus those kernels,
   keeping only index entries of the current sources and Numba version and the code they refer to.
4. Re-tags it as platform-specific (``cpXY-cpXY-<platform>``, the platform from
   ``sysconfig.get_platform()``, e.g. ``linux_x86_64``) and prints its path.

The wheel holds machine code for THIS CPU (the target triple, CPU name and CPU features Numba
records in each index key), THIS Python (the cache files are named ``*.pyXY.nb[ic]``) and THIS
Numba version (the index header). Numba checks all three when it loads a kernel: anywhere else
it ignores the shipped code and compiles as usual, so the wheel still works, only without the
head start. Build it on (or for) the CPU of the machines it is meant for. Installed into a
writable environment, kernels load from the package's ``_kernels/``; into a read-only one, or
with ``NUMBA_CACHE_DIR`` set, the shipped kernels are copied to that cache directory on first
import and load from there (``_kernels/SHIPPED``, the source stamp, marks them as shipped).
"""

from __future__ import annotations

import argparse
import base64
import csv
import hashlib
import io
import os
import pickle
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SRC = REPO / "src"
PACKAGE = SRC / "impulse2d"
KERNELS = PACKAGE / "_kernels"
TOP_FILES = ("pyproject.toml", "README.md", "LICENSE", "setup.py", "setup.cfg", "MANIFEST.in")

WARMUP = r'''
import json, sys
import impulse2d
from impulse2d._core import cache

root = cache.cache_root()
if root != cache.SHIPPED_DIR:
    sys.exit(f"kernels would be cached in {root}, not in {cache.SHIPPED_DIR}")
how = "impulse2d.warmup(all_kernels=True, environments=True)"
impulse2d.warmup(all_kernels=True, environments=True)
print(json.dumps({"how": how, "stamp": cache.package_stamp(), "root": root}))
'''


def _clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "NUMBA_CACHE_LOCATOR_CLASSES", "NUMBA_DISABLE_JIT")}
    env["IMPULSE2D_NUMBA_CACHE"] = "1"
    env["PYTHONPATH"] = os.pathsep.join([str(SRC)] + ([env["PYTHONPATH"]]
                                                       if env.get("PYTHONPATH") else []))
    return env


def compile_kernels(python: str) -> dict:
    """Clear ``_kernels/`` and compile every kernel into it; returns the warm-up's report."""
    import json

    shutil.rmtree(KERNELS, ignore_errors=True)
    print(f"compiling kernels into {KERNELS} (minutes on a small machine) ...", flush=True)
    proc = subprocess.run([python, "-c", WARMUP], env=_clean_env(), cwd=str(REPO),
                          stdout=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit(f"warm-up failed (exit status {proc.returncode})")
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    print(f"compiled with {report['how']}", flush=True)
    return report


def _current_stamp(package_dir: Path) -> str:
    """The source stamp of the package at ``package_dir`` (the cache module's own function,
    imported from this checkout's package: the module imports its siblings)."""
    if sys.path[0] != str(SRC):
        sys.path.insert(0, str(SRC))
    from impulse2d._core import cache

    assert Path(cache.__file__).resolve().is_relative_to(SRC.resolve()), cache.__file__
    return cache.compute_stamp(str(package_dir))


def prune_kernels(kernels: Path, stamp: str, numba_version: str) -> tuple[int, int]:
    """Delete from ``kernels`` every index not of ``stamp`` and ``numba_version``, every code
    file no kept index refers to, and every unit or entry file (``*.nbu``, ``*.nbe``,
    ``_core/unit_cache.py``) but those of a kept index's kernel, source stamp and Numba; Numba's runtime module
    (``nrt-*.nbo``, which the compile just wrote for this Numba and machine:
    ``_core/runtime_cache.py``) and its casting rules (``casting-*.nbt``:
    ``_core/casting_rules.py``) are kept. Returns (indexes, code files) kept."""
    keep_data: set[Path] = set()
    kept_indexes: set[Path] = set()
    indexes = 0
    for index in sorted(kernels.rglob("*.nbi")):
        try:
            with open(index, "rb") as f:
                version = pickle.load(f)
                payload = f.read()
            ok = version == numba_version
            if ok:
                index_stamp, overloads = pickle.loads(payload)
                ok = index_stamp == stamp and bool(overloads)
        except Exception:
            ok = False
        if ok:
            indexes += 1
            kept_indexes.add(index)
            keep_data.update(index.parent / name for name in overloads.values())
        else:
            index.unlink()
    data_files = 0
    for path in sorted(kernels.rglob("*")):
        if path.is_file() and path.suffix not in (".nbi", ".nbo", ".nbt"):
            if path.suffix == ".nbc" and path in keep_data:
                data_files += 1
            elif not (path.suffix in (".nbu", ".nbe") and path.with_suffix(".nbi") in kept_indexes
                      and _unit_file_of(path, stamp, numba_version)):
                path.unlink()
    return indexes, data_files


def _unit_file_of(path: Path, stamp: str, numba_version: str) -> bool:
    """Whether the unit file ``path``'s header names ``stamp`` and ``numba_version`` (its
    layout: ``_core/unit_cache.py``'s ``_header``)."""
    try:
        with open(path, "rb") as f:
            header = pickle.load(f)  # (the payload's pickle follows it)
        return header[1] == stamp and header[4] == numba_version
    except Exception:
        return False


def stage_sources(stage: Path) -> None:
    """A clean copy of what the wheel is built from: the top files and ``src/`` with the
    kernels, without byte code, build metadata or temporary files."""
    for name in TOP_FILES:
        if (REPO / name).is_file():
            shutil.copy2(REPO / name, stage / name)
    shutil.copytree(SRC, stage / "src", ignore=shutil.ignore_patterns(
        "__pycache__", "*.pyc", "*.egg-info", "*.tmp.*"))


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def platform_tag() -> str:
    return sysconfig.get_platform().replace("-", "_").replace(".", "_").replace(" ", "_")


def retag(wheel: Path, out_dir: Path) -> Path:
    """Copy ``wheel`` into ``out_dir`` as a ``cpXY-cpXY<abiflags>-<platform>`` wheel: new file
    name, new ``Tag`` in ``WHEEL``, and ``RECORD`` updated for it."""
    name, version = wheel.name.split("-")[:2]
    py = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    abi = py + getattr(sys, "abiflags", "")
    tag = f"{py}-{abi}-{platform_tag()}"
    target = out_dir / f"{name}-{version}-{tag}.whl"
    dist_info = f"{name}-{version}.dist-info"
    wheel_file, record_file = f"{dist_info}/WHEEL", f"{dist_info}/RECORD"
    with zipfile.ZipFile(wheel) as src:
        infos = src.infolist()
        contents = {info.filename: src.read(info) for info in infos}
    if wheel_file not in contents or record_file not in contents:
        sys.exit(f"{wheel} has no {wheel_file} or {record_file}")
    lines = [ln for ln in contents[wheel_file].decode().splitlines() if not ln.startswith("Tag:")]
    while lines and not lines[-1].strip():  # a blank line would end the headers
        lines.pop()
    lines.append(f"Tag: {tag}")
    contents[wheel_file] = ("\n".join(lines) + "\n\n").encode()
    rows = list(csv.reader(io.StringIO(contents[record_file].decode())))
    for row in rows:
        if row and row[0] == wheel_file:
            row[1:] = [_record_hash(contents[wheel_file]), str(len(contents[wheel_file]))]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    contents[record_file] = out.getvalue().encode()
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".whl.tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as dst:
        for info in infos:  # same order: RECORD stays last
            dst.writestr(info, contents[info.filename])
    os.replace(tmp, target)
    return target


def check_wheel(wheel: Path) -> int:
    """Check every RECORD hash of ``wheel``; return how many kernel files it ships."""
    with zipfile.ZipFile(wheel) as zf:
        record = next(n for n in zf.namelist() if n.endswith(".dist-info/RECORD"))
        for row in csv.reader(io.StringIO(zf.read(record).decode())):
            if row and row[1]:
                data = zf.read(row[0])
                if row[1] != _record_hash(data) or int(row[2]) != len(data):
                    sys.exit(f"{wheel}: RECORD does not match {row[0]}")
        return sum(1 for n in zf.namelist()
                   if "/_kernels/" in n and n.endswith((".nbi", ".nbc")))


def _pip_wheel_args(python: str) -> list[str]:
    """``--no-build-isolation`` where ``python`` can already build the wheel (setuptools >= 64,
    and the ``wheel`` package where setuptools < 70.1 needs it for ``bdist_wheel``): no
    download. Otherwise pip's usual isolated build, which fetches them."""
    probe = ("import setuptools, importlib.util as u; v = tuple(int(x) for x in "
             "setuptools.__version__.split('.')[:2]); "
             "ok = v >= (64, 0) and (v >= (70, 1) or u.find_spec('wheel') is not None); "
             "raise SystemExit(0 if ok else 1)")
    ok = subprocess.run([python, "-c", probe], stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL).returncode == 0
    return ["--no-build-isolation"] if ok else []


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(REPO / "dist"), help="where the wheel goes")
    parser.add_argument("--python", default=sys.executable,
                        help="the Python (with NumPy and Numba) that compiles the kernels")
    parser.add_argument("--skip-warmup", action="store_true",
                        help="ship the kernels already in src/impulse2d/_kernels")
    args = parser.parse_args(argv)

    if not args.skip_warmup:
        report = compile_kernels(args.python)
        stamp = report["stamp"]
    else:
        stamp = _current_stamp(PACKAGE)
    numba_version = subprocess.run(
        [args.python, "-c", "import numba; print(numba.__version__)"], env=_clean_env(),
        stdout=subprocess.PIPE, text=True, check=True).stdout.strip()

    with tempfile.TemporaryDirectory(prefix="impulse2d-wheel-") as tmp:
        stage = Path(tmp) / "stage"
        stage.mkdir()
        stage_sources(stage)
        staged_package = stage / "src" / "impulse2d"
        if _current_stamp(staged_package) != stamp:
            sys.exit("the sources changed while the kernels compiled: run the script again")
        indexes, data_files = prune_kernels(staged_package / "_kernels", stamp, numba_version)
        if indexes == 0:
            sys.exit("no compiled kernels to ship")
        # marks the kernels as shipped ones (a NUMBA_CACHE_DIR is seeded from them: .cache)
        (staged_package / "_kernels" / "SHIPPED").write_text(stamp, encoding="ascii")
        print(f"shipping {indexes} kernel indexes and {data_files} code files", flush=True)
        built = Path(tmp) / "built"
        subprocess.run([args.python, "-m", "pip", "wheel", str(stage), "--no-deps",
                        "-w", str(built), *_pip_wheel_args(args.python)], check=True,
                       env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
        wheels = sorted(built.glob("impulse2d-*.whl"))
        if len(wheels) != 1:
            sys.exit(f"expected one wheel, got {wheels}")
        target = retag(wheels[0], Path(args.out))
    shipped = check_wheel(target)
    if shipped != indexes + data_files:
        sys.exit(f"{target} ships {shipped} kernel files, expected {indexes + data_files}")
    print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
