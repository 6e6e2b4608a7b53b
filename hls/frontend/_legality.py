"""Legality: constructs without a hardware meaning are rejected on the LLVM IR as the user
wrote it (before any pass), so the error points at the user's line.  A mixin of the
translator (:class:`._translate.Translator`): it uses its error helpers and LLVM module."""

from __future__ import annotations

import re

from ..errors import UnsupportedError
from ._debuginfo import define_header
from ._streams import STREAM_PREFIX
from ._libm import describe, library_name
from ._common import LIBC_CALLS, PRINT_CALLS, key, pointer_differences, source_says, value_kind, warn


class Legality:
    def check(self, top: str) -> None:
        """Reject constructs without a hardware meaning, on the IR as the user wrote it,
        so the message points at the user's line before any pass rewrites it."""
        fn = self._find_function(top)
        self._warnings: list[tuple[int, str, str]] = []
        try:
            self._check(fn, top)
            self._check_constructors()
        finally:
            for line, file, msg in sorted(set(self._warnings)):
                warn(file, line or None, msg)

    def _check(self, fn, top: str) -> None:
        seen: dict[str, None] = {}
        stack: list[tuple[object, tuple[str, ...]]] = [(fn, ())]
        while stack:
            f, path = stack.pop()
            if f.name in seen:
                continue
            seen[f.name] = None
            self._reached = seen
            self._llname = f.name
            if f.global_value_type.is_function_vararg:
                d = self._define_lines.get(f.name, "")
                raise self.unsupported("a variadic function", define_header(d), f.name)
            diffs = pointer_differences(f)
            for bb in f.blocks:
                for ins in bb.instructions:
                    text = self._ins_text(ins)
                    opc = ins.opcode
                    if opc == "ptrtoint":
                        if key(ins) in diffs:
                            continue  # only subtracted from another pointer: p - q
                        raise self.unsupported("a pointer-to-integer conversion", text, f.name)
                    if opc in ("invoke", "landingpad", "resume", "va_arg", "indirectbr",
                               "callbr", "ptrtoint", "inttoptr"):
                        self._instr_error(ins, text)
                    if opc == "alloca":
                        ops = list(ins.operands)
                        if ops and not ops[0].is_constant:
                            raise self.unsupported("a dynamically sized stack array (dynamic alloca)",
                                                   text, f.name)
                    if opc != "call":
                        continue
                    callee = list(ins.operands)[-1]
                    if " asm " in text or value_kind(callee) == "inline_asm":
                        raise self.unsupported("inline assembly", text, f.name)
                    if value_kind(callee) != "function":
                        raise self.unsupported("an indirect call through a function pointer",
                                               text, f.name)
                    name = callee.name
                    if name.startswith(STREAM_PREFIX):
                        continue    # hls_stream.h's queue: lowered after canonicalisation
                    if library_name(name) is not None:     # pyhls's libm: said at the call
                        loc = self.loc_of(text, f.name)
                        self._warnings.append((loc.line or 0, loc.file, describe(library_name(name))))
                    callee = self.llmod.get_function(name)
                    if name.startswith("llvm."):
                        if name.startswith(("llvm.va_start", "llvm.va_end", "llvm.va_copy")):
                            raise self.unsupported("a variadic argument list", text, f.name)
                        if name.startswith(("llvm.stacksave", "llvm.stackrestore")):
                            raise self.unsupported("a dynamically sized stack array", text, f.name)
                        continue
                    if callee.is_declaration and name in LIBC_CALLS:
                        self._check_libc(name, ins, text, f.name, top)
                        continue
                    if callee.is_declaration:
                        what = _cxx_runtime_call(name)
                        raise self.unsupported(
                            what or f"a call to the undefined external function '{name}'",
                            text, f.name)
                    if callee.global_value_type.is_function_vararg:
                        raise self.unsupported("a call to a variadic function", text, f.name)
                    if name == f.name or name in path:
                        raise self.unsupported("recursion", text, f.name)
                    stack.append((callee, path + (f.name,)))

    def _check_constructors(self) -> None:
        """A C++ global initialised at run time (its constructor is called from
        ``llvm.global_ctors`` before ``main``) has no hardware meaning: the hardware's
        memory would start as the constant image, without what the constructor writes.
        An error when the design reads or writes such a global; clang folds constructors
        it can evaluate (``constexpr``) into the image, which is fine."""
        try:
            ctors = self.llmod.get_global_variable("llvm.global_ctors")
        except NameError:
            return
        todo = [n.strip('"') for n in re.findall(r'ptr @([-\w.$]+|"[^"]+")', str(ctors))]
        written: dict[str, str] = {}        # global -> the constructor function
        done: set[str] = set()
        while todo:
            name = todo.pop()
            if name in done:
                continue
            done.add(name)
            try:
                f = self.llmod.get_function(name)
            except NameError:
                continue
            for bb in f.blocks:
                for ins in bb.instructions:
                    for ref in _global_refs(ins):
                        try:
                            self.llmod.get_function(ref)
                            todo.append(ref)
                        except NameError:
                            written.setdefault(ref, name)
        if not written:
            return
        for fname in getattr(self, "_reached", {}):
            f = self.llmod.get_function(fname)
            for bb in f.blocks:
                for ins in bb.instructions:
                    for ref in _global_refs(ins):
                        if ref not in written:
                            continue
                        gv = self.llmod.get_global_variable(ref)
                        line = self.dbg.global_line(str(gv))
                        loc = self.loc_of(self._ins_text(ins), fname) if line is None else None
                        raise UnsupportedError(
                            f"the global '{self.dbg.global_name(str(gv)) or ref}' is initialised "
                            f"by a C++ constructor at run time (dynamic initialisation), which "
                            f"the hardware cannot run: give it a constant initialiser "
                            f"(a constexpr constructor) or initialise it in the top function",
                            self.path if loc is None else loc.file,
                            line if loc is None else loc.line)

    def _check_libc(self, name: str, ins, text: str, fn: str, top: str) -> None:
        """A call of a library function the hardware understands (see ``_libc_call``)."""
        if name in PRINT_CALLS:
            if str(ins.type) != "void" and self._result_used(ins):
                raise self.unsupported(f"using the value of '{name}', which is dropped from "
                                       f"the hardware,", text, fn)
            loc = self.loc_of(text, fn)
            shown = name
            if name != "printf" and source_says(loc, "printf"):
                shown = "printf"  # clang turns printf("...\\n") into puts, printf("%c") into putchar
            self._warnings.append((loc.line or 0, loc.file, f"call of '{shown}' is dropped "
                                                             f"from the hardware"))
        elif name == "exit" and top != "main":
            raise self.unsupported("exit() outside a whole program (--top main)", text, fn)


def _global_refs(ins) -> list[str]:
    """The globals and functions an instruction names (``@name`` in its text, metadata
    and debug records left out)."""
    text = str(ins).split(", !dbg")[0]
    return [n.strip('"') for n in re.findall(r'@([-\w.$]+|"[^"]+")', text)
            if not n.startswith("llvm.")]


def _cxx_runtime_call(name: str) -> str | None:
    """What a call of a C++ runtime function stands for in the user's code, or None."""
    if name.startswith("__cxa_guard_"):
        return ("a static local variable initialised at run time (its C++ guard, "
                f"'{name}'; give it a constant initialiser)")
    if re.match(r"_Zn[wa]m|_Zd[la]Pv", name):
        return "dynamic memory (C++ operator new or delete)"
    if name == "__cxa_atexit":
        return "a global or static object with a destructor run at exit"
    if name.startswith("__cxa_"):
        return f"the C++ runtime function '{name}'"
    return None
