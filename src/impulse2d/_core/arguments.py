"""Numba's lowering with a kernel's arguments kept as values, not in stack slots.

Numba lowers each variable of a kernel that is used in more than one block into a stack slot
(an ``alloca`` of its type, in the entry block), stores its value there and loads the whole
value back at every use; a variable assigned once and used only in its own block stays a value
(``Lower._find_singly_assigned_variable``, "SROA-like"). An argument is assigned once, in the
entry block, but used everywhere, so it gets a slot. For the engine's kernels the arguments
are the world's stores: NamedTuples of 20-80 arrays, each array a 7-field struct, so a slot of
hundreds of fields, loaded whole at each use. LLVM's SROA (run in the function passes on every
new function, ``CPUCodeLibrary._optimize_functions``) then splits every such slot and every
whole load into hundreds of scalars, which later passes fold back to the argument's fields: in
``warmup --all`` the function passes were 18 % of all the compile CPU, and on the revolute
joint's unit SROA was 6.9 of its 7.9 s of function passes (2026-11-30 session 21,
``BENCHMARKS.md``, ``benchmarks/warmup_profile.py``).

Here an argument assigned once in the whole kernel is one of those values too: the value
reassembled from the calling convention's scalars in the entry block, which dominates every
use. After SROA and ``mem2reg`` the slot's loads were exactly that value, so the kernels'
machine code is what it was (checked kernel by kernel with ``benchmarks/compile_objects.py``:
identical object code; the bitcode a link-only callee keeps differs by the slots' names only).

With reference counting (the stage kernels: the pair search, the continuous stage, the
threaded soft step), Numba's slot is also what makes a second ``del`` of a variable harmless:
it stores a null after the decref. A second ``del`` of an argument does run: Numba deletes a
variable at the start of a block it is dead in when it was alive at the end of a predecessor
(``analysis.compute_dead_maps``' escaping set), whether or not the path came through a block
that deleted it after its last use (``if k: use(a)`` then a join: ``a`` deleted in both). A
value has no slot to null, so each such argument has a flag instead (an ``i1`` in a slot of
its own, which ``mem2reg`` makes a value): set where the argument is assigned, its decref done
only while it is set, and cleared there. That is the slot's nulling, one bit wide: the first
version, which kept counted arguments as values without it, corrupted the heap in ``warmup
--all`` (the batch step; reproduced on a seven-line kernel, ``tests/test_kernel_arguments.py``).
The refcount pruning pass then meets other IR, so those kernels' machine code may differ from
Numba's own lowering (the same trajectories: a reference count changes no number).

Only for the package's kernels and Numba's library compiled for them
(:data:`.link_only.OWNERS`: a user's kernels are lowered as Numba lowers them). Installed at
the process's first compile of a kernel of the package (a :data:`.lazy.FIRST_COMPILE` hook),
for Numba versions whose ``Lower`` keeps the set of such variables as described (checked with
Numba 0.68); any other is left as it is. Numba's own rules still apply: not in generators, not
with debug information, not for a variable a parfor needs in memory (``must_use_alloca``).
"""

from __future__ import annotations

from .numba_patch import Patch


def _single_arguments(func_ir) -> set:
    """The names of ``func_ir``'s variables assigned from an argument in the entry block and
    nowhere else, less those Numba must keep in memory (a parfor's)."""
    from numba.core import ir
    from numba.core.analysis import must_use_alloca
    blocks = func_ir.blocks
    assigned: dict = {}
    for block in blocks.values():
        for stmt in block.find_insts(ir.Assign):
            assigned[stmt.target.name] = assigned.get(stmt.target.name, 0) + 1
    names = {stmt.target.name for stmt in blocks[min(blocks)].find_insts(ir.Assign)
             if isinstance(stmt.value, ir.Arg) and assigned[stmt.target.name] == 1}
    return names - must_use_alloca(blocks) if names else names


@Patch
def install() -> bool:
    """Keep kernels' once-assigned arguments as values in Numba's lowering (see the module);
    False, with nothing changed, where Numba's code is not the one this was written for."""
    from numba.core import cgutils, lowering
    lower = lowering.Lower
    original = lower._find_singly_assigned_variable
    flag = lower._disable_sroa_like_opt
    # Numba's own: the set ``_singly_assigned_vars``, that storevar / loadvar / delvar consult
    if (not isinstance(flag, property)
            or "_singly_assigned_vars" not in original.__code__.co_names
            or "_singly_assigned_vars" not in lower.storevar.__code__.co_names
            or "_blk_local_varmap" not in lower.delvar.__code__.co_names):
        return False

    from .link_only import OWNERS

    store, delete = lower.storevar, lower.delvar

    def _find_singly_assigned_variable(self):
        original(self)
        self._argument_flags = {}  # (a counted argument kept as a value: its flag, once stored)
        self._counted_arguments = set()
        func_id = self.func_ir.func_id
        if (not func_id.is_generator and not self._disable_sroa_like_opt
                and func_id.modname.split(".")[0] in OWNERS):
            names = _single_arguments(self.func_ir)
            self._singly_assigned_vars |= names
            if self.context.enable_nrt:
                self._counted_arguments = names

    def storevar(self, value, name, argidx=None):
        store(self, value, name, argidx)
        if (name in getattr(self, "_counted_arguments", ())
                and name in self._blk_local_varmap):
            self._argument_flags[name] = cgutils.alloca_once_value(
                self.builder, cgutils.true_bit, name=f"{name}.alive")

    def delvar(self, name):
        flag = getattr(self, "_argument_flags", {}).get(name)
        if flag is None:
            return delete(self, name)
        with cgutils.if_likely(self.builder, self.builder.load(flag)):
            self.decref(self.typeof(name), self._blk_local_varmap[name])
            self.builder.store(cgutils.false_bit, flag)
        return None

    for patched, was in ((_find_singly_assigned_variable, original), (storevar, store),
                         (delvar, delete)):
        patched.__doc__ = was.__doc__
        patched.__wrapped__ = was
        setattr(lower, was.__name__, patched)
    return True


__all__ = ["install"]
