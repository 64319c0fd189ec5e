"""Numba's casting rules between its number types, set from the package's cache instead of
propagated in every process.

Numba's import builds them (``numba.core.typeconv.rules``): 23 rules (``int8`` promotes to
``int16``, ``int64`` converts safely to ``float64``, ...) whose transitive closure a graph in
Python propagates (``castgraph.TypeGraph``), each relation it finds set in the type manager's C
table (``TypeManager.set_compatible``): about 2,900 graph insertions for 15.6 ms of CPU of a
warm start (the module's own time at load 5 on the 2-core machine, session 21), the largest
module of Numba's import. The table is the same in every process of one Numba, so while Numba
imports, the rules are only recorded (:class:`Recorded`, in place of Numba's
``TypeCastingRules``), and once Numba is imported :func:`complete` sets the table's relations
in the order Numba's propagation set them, read from the cache (``casting-<key>.nbt`` under
:func:`.cache.cache_root`), where the key (a hash of the recorded rules, their types' names,
Numba's version and this file's format) matches; else it propagates the rules as Numba does
and saves what they set. Numba's ``default_casting_rules`` (read by nothing in Numba itself)
is made on first read, from the same rules.

Nothing queries the table while Numba imports (a dispatcher's C code reads it at a call, and
Numba's import calls none): :func:`complete` runs before the package's import goes on. Holds no
kernel: left out of the cache's source stamp.
"""

from __future__ import annotations

import hashlib
import os
import pickle

SUFFIX = ".nbt"
FORMAT = 1
"""The file's layout: a pickled list of (from, to, relation) settings, the types as indexes
into the recorded rules' types in their order of first use, the relation
``numba.core.typeconv.Conversion``'s value."""


class Recorded:
    """Numba's ``TypeCastingRules`` (its rule methods) that records each rule and sets
    nothing: :func:`complete` sets their relations. (Made while Numba imports: this module
    imports none of Numba at its own import.)"""

    METHODS = ("promote", "unsafe", "safe", "promote_unsafe", "safe_unsafe", "unsafe_unsafe")

    def __init__(self, tm):
        self.tm = tm
        self.rules: list[tuple[str, object, object]] = []

    def __getattr__(self, method):
        if method not in self.METHODS:
            raise AttributeError(method)
        return lambda a, b: self.rules.append((method, a, b))


def complete(recorded: Recorded, rules_module) -> str:
    """Set the relations of ``recorded``'s rules in its type manager, from the cache or
    propagated (see the module), and make ``rules_module.default_casting_rules`` on its first
    read: how they were set, ``"cache"`` or ``"propagated"``."""
    kinds = list(dict.fromkeys(t for _, a, b in recorded.rules for t in (a, b)))
    path = None
    try:
        path = _path(recorded, kinds)
        with open(path, "rb") as f:
            settings = [(kinds[a], kinds[b], rel) for a, b, rel in pickle.load(f)]
    except Exception:  # not cached yet, or unreadable: propagated as Numba does
        propagated, settings = _propagate(recorded)
        rules_module.default_casting_rules = propagated
        if path is not None:
            from .runtime_cache import _save
            _save(path, [(kinds.index(a), kinds.index(b), int(rel)) for a, b, rel in settings])
        return "propagated"
    from numba.core.typeconv import Conversion
    for a, b, rel in settings:
        recorded.tm.set_compatible(a, b, Conversion(rel))
    _made_on_read(recorded, rules_module)
    return "cache"


def _path(recorded: Recorded, kinds: list) -> str:
    """The cache file of ``recorded``'s rules (see the module)."""
    import numba
    from . import cache
    digest = hashlib.sha256()
    for part in (str(FORMAT), numba.__version__, repr([str(t) for t in kinds]),
                 repr([(m, kinds.index(a), kinds.index(b)) for m, a, b in recorded.rules])):
        digest.update(part.encode())
        digest.update(b"\0")
    return os.path.join(cache.cache_root(), f"casting-{digest.hexdigest()[:32]}{SUFFIX}")


def _propagate(recorded: Recorded):
    """Numba's own ``TypeCastingRules`` over ``recorded``'s type manager, given its rules: the
    rules object and the relations it set, in order."""
    from numba.core.typeconv.typeconv import TypeCastingRules

    settings = []

    class Listed(TypeCastingRules):
        def _cb_update(self, a, b, rel):
            settings.append((a, b, rel))
            super()._cb_update(a, b, rel)

    propagated = Listed(recorded.tm)
    for method, a, b in recorded.rules:
        getattr(propagated, method)(a, b)
    return propagated, settings


def _made_on_read(recorded: Recorded, rules_module) -> None:
    """``rules_module.default_casting_rules`` made from ``recorded``'s rules when first read
    (setting again what the table holds already)."""
    if rules_module.__dict__.get("default_casting_rules") is recorded:
        del rules_module.default_casting_rules

    def __getattr__(name):
        if name != "default_casting_rules":
            raise AttributeError(f"module {rules_module.__name__!r} has no attribute {name!r}")
        made = rules_module.default_casting_rules = _propagate(recorded)[0]
        return made

    rules_module.__getattr__ = __getattr__


__all__ = ["Recorded", "complete", "SUFFIX"]
