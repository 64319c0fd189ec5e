"""How a sweep's ``fn`` travels to other processes (spawned ones and Ray workers).

Plain pickle sends a function by reference: its module's name and its own name, which the
receiving process imports. That fails for the functions sweeps are usually written as: in a
script, a notebook, a test file, a closure or a lambda, none of which a worker can import (a Ray
worker does not even share the driver's ``sys.path``). cloudpickle (Ray ships a copy, and
``pip install cloudpickle`` another) sends those by value: their code, and the module-level
functions and values they use. This module sends ``fn`` by value when its module is not an
installed package, and by reference otherwise: the packages ``fn`` imports (impulse2d itself,
NumPy) must be installed where it runs, as in any Ray job.
"""

from __future__ import annotations

import functools
import os
import pickle
import site
import sys
import sysconfig

__all__ = ["dumps_fn"]


def _installed_roots() -> tuple[str, ...]:
    roots = set(site.getsitepackages()) | {site.getusersitepackages()}
    roots |= {sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    return tuple(os.path.realpath(r) + os.sep for r in roots if r)


def _by_value(module) -> bool:
    """Whether ``module`` should travel by value: a file of the caller's, not of an installed
    package, and not impulse2d (which every worker of a sweep must have anyway)."""
    if module is None or module.__name__ == "__main__":
        return False               # cloudpickle sends __main__'s functions by value already
    if module.__name__.split(".")[0] == "impulse2d":
        return False
    path = getattr(module, "__file__", None)
    if not path:
        return False               # built in, or a namespace package: nothing to send
    return not os.path.realpath(path).startswith(_installed_roots())


def _module_name(fn) -> str | None:
    """The module that defines ``fn``: a function's or method's own, a ``functools.partial``'s
    wrapped function's, a callable object's class's."""
    while isinstance(fn, functools.partial):
        fn = fn.func
    name = getattr(fn, "__module__", None)
    return name if isinstance(name, str) else type(fn).__module__


def dumps_fn(fn, cloudpickle=None) -> bytes:
    """``fn`` pickled for another process: by ``cloudpickle`` (a module, e.g. ``ray.cloudpickle``)
    when given, with ``fn``'s own module by value where :func:`_by_value` says so; by plain
    pickle otherwise. Raises TypeError, naming ``fn``, when it cannot be pickled."""
    if cloudpickle is None:
        try:
            return pickle.dumps(fn, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:   # noqa: BLE001 - pickle raises several types for this
            raise TypeError(
                f"fn ({fn!r}) cannot be pickled to run in another process ({exc}); define it at "
                "the top level of an importable module, or `pip install cloudpickle`, which "
                "sends closures, lambdas and notebook functions") from exc
    module = sys.modules.get(_module_name(fn) or "")
    register = _by_value(module) and module.__name__ not in \
        cloudpickle.list_registry_pickle_by_value()
    if register:
        cloudpickle.register_pickle_by_value(module)
    try:
        return cloudpickle.dumps(fn, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:       # noqa: BLE001
        raise TypeError(f"fn ({fn!r}) cannot be pickled to run in another process: {exc}") \
            from exc
    finally:
        if register:
            cloudpickle.unregister_pickle_by_value(module)
