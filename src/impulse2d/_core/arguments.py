"""Numba's lowering with a kernel's arguments, and the stores it borrows at its start, kept as
values, not in stack slots.

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

So is a tuple (a store: a NamedTuple of arrays) assigned once in the whole kernel, in its
entry block, whose value too dominates every use: a store the kernel borrows from the world at
its start (``joints = borrow(world, "joints")``, :func:`..._dynamics.world_ref.borrow`). In a
slot, the joint store's ~400 fields were loaded whole at each of its uses, and SROA took 5.6 s
of the revolute joint's unit rewriting them, three times what the same kernels cost taking the
stores as arguments (2026-12-02 session 30, ``jointW55``, ``BENCHMARKS.md``). Kept as values,
they changed the machine code of 21 of a cold pyramid's 149 kernels, by a few bytes (LLVM's
choices over other input; the same results, by the hash scripts). Other variables keep Numba's
rules: kept as values too, they changed 66 of the 149 for 1.6 % of the compile.

Only for kernels without reference counting (``_nrt=False``: the solver's and the joints'
borrowing and entry kernels, which take the stores), and only for the package's kernels and
Numba's library compiled for them (:data:`.link_only.OWNERS`: a user's kernels are lowered as
Numba lowers them). With reference counting a slot is also how Numba makes a second ``del``
of a variable harmless (it stores a null after the decref); a value has no such guard, and
the pair search's three units (which count references) came out with other machine code
(same trajectories): those keep Numba's lowering. Installed at the process's first compile
of a kernel of the package (a :data:`.lazy.FIRST_COMPILE` hook), for Numba versions whose ``Lower`` keeps the set of such
variables as described (checked with Numba 0.68); any other is left as it is. Numba's own rules
still apply: not in generators, not with debug information, not for a variable a parfor needs
in memory (``must_use_alloca``).
"""

from __future__ import annotations

from .numba_patch import Patch


def _entry_values(func_ir, typeof) -> set:
    """The names of ``func_ir``'s variables assigned once, in the entry block, from an argument
    or with a tuple's type (``typeof``: a variable's Numba type by its name), less those Numba
    must keep in memory (a parfor's)."""
    from numba.core import ir, types
    from numba.core.analysis import must_use_alloca
    blocks = func_ir.blocks
    assigned: dict = {}
    for block in blocks.values():
        for stmt in block.find_insts(ir.Assign):
            assigned[stmt.target.name] = assigned.get(stmt.target.name, 0) + 1
    names = {stmt.target.name for stmt in blocks[min(blocks)].find_insts(ir.Assign)
             if assigned[stmt.target.name] == 1 and (
                 isinstance(stmt.value, ir.Arg)
                 or isinstance(typeof(stmt.target.name), types.BaseTuple))}
    return names - must_use_alloca(blocks) if names else names


@Patch
def install() -> bool:
    """Keep kernels' once-assigned arguments and the stores they borrow at their start as values
    in Numba's lowering (see the module); False, with nothing changed, where Numba's code is not
    the one this was written for."""
    from numba.core import lowering
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

    def _find_singly_assigned_variable(self):
        original(self)
        func_id = self.func_ir.func_id
        if (not func_id.is_generator and not self._disable_sroa_like_opt
                and not self.context.enable_nrt and func_id.modname.split(".")[0] in OWNERS):
            self._singly_assigned_vars |= _entry_values(self.func_ir, self.typeof)

    _find_singly_assigned_variable.__doc__ = original.__doc__
    _find_singly_assigned_variable.__wrapped__ = original
    lower._find_singly_assigned_variable = _find_singly_assigned_variable
    return True


__all__ = ["install"]
