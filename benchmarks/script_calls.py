"""The benchmark scripts' calls into the engine, checked against the engine as it is, without
running them: what ``tests/test_benchmark_imports.py`` cannot see (a call inside a function
body whose signature drifted, a source marker a script cuts an engine file by).

    PYTHONPATH=src python benchmarks/script_calls.py [benchmarks/NAME.py ...]

For each script (all of ``benchmarks/`` by default), read as text (nothing of it is run):

* every call of a function it imports from ``impulse2d`` (``from impulse2d.X import f``, or
  ``import impulse2d.X as m`` then ``m.f(...)``) is bound (``inspect.Signature.bind``) to that
  function's signature now, with as many positional arguments and the same keywords; calls
  with ``*args`` or ``**kwargs`` and Numba intrinsics (whose first parameter is the typing
  context) are passed over;
* every string that is a decorated ``def`` (``"@inline_kernel\\ndef name("``: where a script
  that compiles an engine function from its source text cuts the text) must appear in some
  file of ``src/impulse2d``.

Prints one line a finding (``script | kind | what``) and exits 1 when there is one. A finding
is a place to look, not a verdict: ``narrow_kernel.py`` calls ``update_manifolds`` with an
older tree's arguments on purpose (it asks the signature first), and a marker the script
writes itself is not the engine's. Written in session 31 (``hygieneB56``, BENCHMARKS.md),
where it named every script broken by a drifted call.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MARKER = re.compile(r"^@\w+\ndef \w+\(?$")
"""A decorated ``def`` (up to its name or its parenthesis): a cut in an engine file's text."""


def _engine_names(tree: ast.Module) -> tuple[dict, dict, list]:
    """The functions (by the name the script calls them) and modules (by alias) a script
    imports from ``impulse2d``, and the imports that failed."""
    functions, modules, failed = {}, {}, []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("impulse2d"):
            try:
                module = importlib.import_module(node.module)
            except ImportError as error:
                failed.append(f"{node.module} (line {node.lineno}): {error}")
                continue
            for alias in node.names:
                name = alias.asname or alias.name
                if hasattr(module, alias.name):
                    target = getattr(module, alias.name)
                    (modules if inspect.ismodule(target) else functions)[name] = target
                    continue
                try:
                    modules[name] = importlib.import_module(f"{node.module}.{alias.name}")
                except ImportError:
                    failed.append(f"{node.module}.{alias.name} (line {node.lineno})")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("impulse2d") and alias.asname:
                    try:
                        modules[alias.asname] = importlib.import_module(alias.name)
                    except ImportError as error:
                        failed.append(f"{alias.name} (line {node.lineno}): {error}")
    return functions, modules, failed


def _signature(target):
    """The Python signature behind ``target`` (a Numba dispatcher's ``py_func``), or None
    where it has none to bind to (a class, a builtin, an intrinsic)."""
    if inspect.isclass(target) or not callable(target):
        return None
    try:
        signature = inspect.signature(getattr(target, "py_func", target))
    except (TypeError, ValueError):
        return None
    if next(iter(signature.parameters), None) == "typingctx":
        return None
    return signature


def check(path: Path, engine_source: str) -> list[str]:
    """The findings of one script."""
    tree = ast.parse(path.read_text(), str(path))
    functions, modules, failed = _engine_names(tree)
    found = [f"import | {what}" for what in failed]
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            # (a marker that ends at the name must not match a longer name)
            if MARKER.match(node.value) and not re.search(
                    re.escape(node.value) + ("" if node.value.endswith("(") else r"(?!\w)"),
                    engine_source):
                found.append(f"marker | {node.value!r} (line {node.lineno}) is in no engine file")
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id in functions:
            label, target = func.id, functions[func.id]
        elif (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
              and func.value.id in modules):
            module = modules[func.value.id]
            label = f"{func.value.id}.{func.attr}"
            if not hasattr(module, func.attr):
                found.append(f"call | {label} (line {node.lineno}): {module.__name__} has none")
                continue
            target = getattr(module, func.attr)
        else:
            continue
        if any(isinstance(a, ast.Starred) for a in node.args) or any(
                k.arg is None for k in node.keywords):
            continue
        signature = _signature(target)
        if signature is None:
            continue
        try:
            signature.bind(*node.args, **{k.arg: k.value for k in node.keywords})
        except TypeError as error:
            found.append(f"call | {label} (line {node.lineno}), {len(node.args)} positional: "
                         f"{error}; now {label.rsplit('.', 1)[-1]}{signature}")
    return [f"{path.name} | {line}" for line in found]


def main(argv=None) -> None:
    paths = [Path(p) for p in (argv if argv is not None else sys.argv[1:])]
    paths = paths or sorted(HERE.glob("*.py"))
    sys.path.insert(0, str(HERE))
    import impulse2d
    package = Path(impulse2d.__file__).resolve().parent
    engine_source = "".join(p.read_text() for p in sorted(package.rglob("*.py")))
    findings = [line for path in paths for line in check(path, engine_source)]
    print("\n".join(findings) if findings else f"{len(paths)} scripts: nothing found")
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
