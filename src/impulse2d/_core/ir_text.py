"""llvmlite's text of a module's LLVM IR written faster, byte for byte the same text.

Numba hands LLVM every module it lowers as text: ``CPUCodeLibrary.add_ir_module`` calls
``str(ir_module)`` and LLVM parses it again (``parse_assembly``). Writing that text is 4.4 % of
a unit's compile, call by call (``benchmarks/frontend_paired.py``; 7.7 % of the samples of
``benchmarks/frontend_sample.py``: ``direct.solve_islands``, ``continuous_box2d23``,
``lanes_f32_entry`` and ``custom_entry`` from an empty cache, 2026-12-01 session 29;
``custom_entry`` writes 4.9 MB of it for 32,000 instructions), and
llvmlite writes it a value at a time through generic helpers: each instruction's and each
operand's text is kept once made (``_StrCaching``, ``_StringReferenceCaching``), but a first
look-up raises and catches an ``AttributeError`` (two per instruction), and the lines are put
together with ``str.format`` calls whose fields are already strings. Here:

* the kept text is read from the value's ``__dict__`` (the same private slots as llvmlite's:
  ``_clear_string_cache`` and llvmlite's own code see what is kept here, and the reverse), so a
  first look-up raises nothing;
* a named value's reference (``%"x"``) and line (``%"x" = ...``), a block's lines and the
  nine commonest instructions' text (an arithmetic instruction, a terminator (``br``, the base
  of ``ret``), a cast, a comparison, ``load``, ``store``, ``getelementptr``, ``extractvalue``,
  ``insertvalue``) are joined with ``+`` from the same pieces in the same order: the same
  characters.

``str.format`` with an empty field writes ``format(x, "")``, which is ``str(x)`` for a class
that does not define ``__format__``; none of llvmlite's IR values and types does (checked at the
patch, over every subclass defined then). Each replaced function is first checked to be the
code it was written for (llvmlite 0.50: the names it looks up and its string constants), or it
is left as it is; each replacement keeps llvmlite's as ``__wrapped__``
(``benchmarks/frontend_paired.py`` writes every module of a compile both ways and compares).
Installed with the front end's patches (:func:`.frontend.install`, at the first compile). No
kernel here: left out of the cache's source stamp (:data:`.cache.UNCOMPILED_FILES`).
"""

from __future__ import annotations

import hashlib

from .numba_patch import Patch

_STR, _REF = "_StrCaching__cached_str", "_StringReferenceCaching__cached_refstr"
"""llvmlite's slots for a value's kept text and reference (``_utils._StrCaching``'s and
``_StringReferenceCaching``'s private names)."""


def _fingerprint(function) -> str:
    """The names a function's code looks up and its string constants (its own and its nested
    functions'), hashed: what identifies the code a patch replaces."""
    code_type = type(function.__code__)
    todo, parts = [function.__code__], []
    while todo:
        code = todo.pop(0)
        parts.append(code.co_names)
        parts.append(tuple(c for c in code.co_consts if isinstance(c, str)))
        todo.extend(c for c in code.co_consts if isinstance(c, code_type))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def _no_format(*roots) -> bool:
    """No class under ``roots`` (themselves included) defines ``__format__``."""
    todo, seen = list(roots), set()
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        if "__format__" in cls.__dict__:
            return False
        todo.extend(type.__subclasses__(cls))
    return True


def _meta(inst) -> str:
    """An instruction's metadata as llvmlite writes it after its operands (``", !k !n"``), or
    nothing (``_stringify_metadata(leading_comma=True)``)."""
    return inst._stringify_metadata(leading_comma=True) if inst.metadata else ""


def _cached_str(self):
    cached = self.__dict__.get(_STR)
    if cached is None:
        cached = self.__dict__[_STR] = self._to_string()
    return cached


def _cached_reference(self):
    cached = self.__dict__.get(_REF)
    if cached is None:
        cached = self.__dict__[_REF] = self._get_reference()
    return cached


def _named_to_string(self):
    buf = [] if isinstance(self.type, _void_type) else [self.get_reference() + " = "]
    self.descr(buf)
    return "".join(buf).rstrip()


_void_type = None  # llvmlite's VoidType, set at the patch


def _named_reference(self):
    name = self.name
    if "\\" in name or '"' in name:
        name = name.replace("\\", "\\5c").replace('"', "\\22")
    return self.name_prefix + '"' + name + '"'


def _block_descr(self, buf):
    buf.append(self._format_name() + ":\n")
    buf += ["  " + str(inst) + "\n" for inst in self.instructions]


def _instruction(self, buf):
    opname = self.opname
    if self.flags:
        opname = " ".join([opname] + self.flags)
    buf.append(opname + " " + str(self.type) + " "
               + ", ".join([op.get_reference() for op in self.operands]) + _meta(self) + "\n")


def _terminator(self, buf):
    buf.append(self.opname + " "
               + ", ".join([str(op.type) + " " + op.get_reference() for op in self.operands])
               + _meta(self))


def _cast(self, buf):
    value = self.operands[0]
    buf.append(self.opname + " " + str(value.type) + " " + value.get_reference() + " to "
               + str(self.type) + " " + _meta(self) + "\n")


def _compare(self, buf):
    lhs, rhs = self.operands[0], self.operands[1]
    buf.append(self.opname + "".join([" " + flag for flag in self.flags]) + " " + self.op + " "
               + str(lhs.type) + " " + lhs.get_reference() + ", " + rhs.get_reference() + " "
               + _meta(self) + "\n")


def _load(self, buf):
    [pointer] = self.operands
    align = "" if self.align is None else ", align %d" % (self.align)
    buf.append("load " + str(self.type) + ", " + str(pointer.type) + " "
               + pointer.get_reference() + align + _meta(self) + "\n")


def _store(self, buf):
    value, pointer = self.operands
    align = "" if self.align is None else ", align %d" % (self.align)
    buf.append("store " + str(value.type) + " " + value.get_reference() + ", "
               + str(pointer.type) + " " + pointer.get_reference() + align + _meta(self) + "\n")


def _gep(self, buf):
    indices = [str(index.type) + " " + index.get_reference() for index in self.indices]
    pointer = self.pointer
    buf.append(("getelementptr inbounds" if self.inbounds else "getelementptr") + " "
               + str(self.source_etype) + ", " + str(pointer.type) + " "
               + pointer.get_reference() + ", " + ", ".join(indices) + " " + _meta(self) + "\n")


def _extract_value(self, buf):
    aggregate = self.aggregate
    buf.append("extractvalue " + str(aggregate.type) + " " + aggregate.get_reference() + ", "
               + ", ".join([str(i) for i in self.indices]) + " " + _meta(self) + "\n")


def _insert_value(self, buf):
    aggregate, value = self.aggregate, self.value
    buf.append("insertvalue " + str(aggregate.type) + " " + aggregate.get_reference() + ", "
               + str(value.type) + " " + value.get_reference() + ", "
               + ", ".join([str(i) for i in self.indices]) + " " + _meta(self) + "\n")


def _replacements():
    """(class, attribute, llvmlite's code's fingerprint, replacement) for every function
    replaced, and (..., None) for one the replacements rely on (llvmlite 0.50's code)."""
    from llvmlite.ir import _utils, instructions as ins, values
    return (
        (_utils._StrCaching, "__str__", "70a9e6e444864f75", _cached_str),
        (_utils._StringReferenceCaching, "get_reference", "e58976bc1110dc98", _cached_reference),
        (values.NamedValue, "_to_string", "9538448a0282850a", _named_to_string),
        (values.NamedValue, "_get_reference", "0f49b7c69c6bd138", _named_reference),
        (values.Block, "descr", "6dcda7dca6ab7957", _block_descr),
        (ins.Instruction, "descr", "4126fbe04e93d757", _instruction),
        (ins.Terminator, "descr", "b5658d6af1967adb", _terminator),
        (ins.CastInstr, "descr", "362959b8834dbf44", _cast),
        (ins.CompareInstr, "descr", "700d1b99b38439ba", _compare),
        (ins.LoadInstr, "descr", "897763cdd5068221", _load),
        (ins.StoreInstr, "descr", "b1e21e05f1ef629e", _store),
        (ins.GEPInstr, "descr", "a4ed1608ac686469", _gep),
        (ins.ExtractValue, "descr", "b5107250b2be318d", _extract_value),
        (ins.InsertValue, "descr", "2637b80a810c2732", _insert_value),
        # relied on, not replaced: the replacements skip it for an instruction without metadata
        (_utils._HasMetadata, "_stringify_metadata", "0e8d819f7db06f4f", None),
    )


REPLACED: list = []
"""(class, attribute, llvmlite's function) for each function replaced, once installed."""


@Patch
def install() -> bool:
    """llvmlite's IR text written as above (see the module); False, with nothing changed,
    where llvmlite's code is not the one this was written for or an IR class defines
    ``__format__``."""
    from llvmlite.ir import _utils, types, values
    table = _replacements()
    if (not _no_format(types.Type, values.Value, _utils._StrCaching)
            or any(_fingerprint(cls.__dict__[name]) != expected
                   for cls, name, expected, _ in table)):
        return False
    global _void_type
    _void_type = types.VoidType
    for cls, name, _, replacement in table:
        if replacement is None:
            continue
        original = cls.__dict__[name]
        replacement.__doc__, replacement.__wrapped__ = original.__doc__, original
        REPLACED.append((cls, name, original))
        setattr(cls, name, replacement)
    return True


__all__ = ["install", "REPLACED"]
