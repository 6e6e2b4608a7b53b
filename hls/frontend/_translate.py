"""Translation of canonicalised LLVM IR (llvmlite binding objects) into the hls CDFG.

Pointers never reach the CDFG: every pointer value is resolved to a ``MemoryObject``
plus a 32-bit byte offset computed by ordinary integer ops (GEP arithmetic is modular, so
32 bits are exact for any memory below 4 GiB).  After all functions are translated, each
memory gets a word size (``_choose_word_bytes``), and byte offsets become word addresses
(a free bit slice) with a static byte lane inside the word; accesses wider than a word are
split.
"""

from __future__ import annotations

import ctypes
import re
import sys
from pathlib import Path
from dataclasses import dataclass

import numpy as np

from ..errors import FrontendError, UnsupportedError
from ..fpu import BINARY32, BINARY64, FPFormat, ref
from ..ir import Block, Const, Function, Loc, MemoryObject, Module, Op, Param, PtrParam, Value
from ._debuginfo import DebugInfo
from ._types import (
    ArrayT, FloatT, IntT, PtrT, StructT, TypeParser, VectorT, element_layout, field_offsets, sizeof,
    store_size, tokenize,
)

OFF_W = 32  # width of byte offsets
TAG_W = 32  # width of a pointer's memory tag: a pointer as a value is ``tag << 32 | offset``

_BINOPS = {"add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr",
           "and", "or", "xor"}
_FLOAT_OPS = {"fadd", "fsub", "fmul", "fdiv", "frem", "fneg", "fcmp", "fptosi", "fptoui",
              "sitofp", "uitofp", "fpext", "fptrunc"}
_INTRINSIC_OPS = {
    "smax": "smax", "smin": "smin", "umax": "umax", "umin": "umin", "abs": "abs",
    "fshl": "fshl", "fshr": "fshr", "bitreverse": "bitreverse", "ctpop": "ctpop",
    "ctlz": "ctlz", "cttz": "cttz", "bswap": "bswap", "sadd.sat": "sadd_sat",
    "ssub.sat": "ssub_sat", "uadd.sat": "uadd_sat", "usub.sat": "usub_sat",
}
_IGNORED_INTRINSICS = ("lifetime.", "assume", "dbg.", "experimental.noalias.scope.decl",
                       "donothing", "sideeffect", "pseudoprobe", "var.annotation",
                       "invariant.start", "invariant.end")


_FLOAT_FORMATS = {32: BINARY32, 64: BINARY64}

#: library functions dropped from the hardware (with a warning)
_PRINT_CALLS = ("printf", "puts", "putchar", "__printf_chk")
#: library functions that end the run with a failure
_ABORT_CALLS = ("abort", "__assert_fail", "__assert_rtn")
#: library functions with a hardware meaning (when only declared in the module)
_LIBC_CALLS = (*_PRINT_CALLS, *_ABORT_CALLS, "exit", "memset", "memcpy", "memmove")
#: the flag memory a failed run (abort, failed assert) writes its site number into
ABORT_GLOBAL = "__pyhls_abort"
#: exit(n) in a function called by main: [1, n] in this memory; main returns n
EXIT_GLOBAL = "__pyhls_exit"
#: memories of the hardware that stand for no global of the program
INTERNAL_GLOBALS = (ABORT_GLOBAL, EXIT_GLOBAL)
#: constant-length memset/memcpy/memmove up to this many bytes become straight-line
#: accesses; longer ones (and any run-time length) become a loop
_UNROLL_MEM_BYTES = 4096
#: ... except a memmove within one memory: straight-line only up to this many bytes
_UNROLL_MEMMOVE_BYTES = 64


def _warn(file: str | None, line: int | None, msg: str) -> None:
    loc = file or "pyhls"
    if line is not None:
        loc = f"{loc}:{line}"
    print(f"{loc}: warning: {msg}", file=sys.stderr)


def _scalar(t) -> bool:
    """An LLVM scalar the datapath carries as plain bits: an integer, float or double."""
    return isinstance(t, IntT) or (isinstance(t, FloatT) and t.bits in _FLOAT_FORMATS)


def _fmt(t) -> FPFormat:
    return _FLOAT_FORMATS[t.bits]


_FMF = r"(?:(?:nnan|ninf|nsz|arcp|contract|afn|reassoc|fast) )*"


def _vk(v) -> str:
    k = v.value_kind
    return getattr(k, "name", str(k))


def key(v) -> int:
    return ctypes.cast(v._ptr, ctypes.c_void_p).value


def _strip_instr(s: str) -> str:
    return s.strip()


@dataclass
class Ptr:
    """A pointer: a memory and a byte offset (``OFF_W`` bits).  A pointer whose memory is
    decided at run time (a phi or select over different memories, a pointer loaded from
    memory, a possible null) is *tagged*: ``mem`` is None, ``tag`` (``TAG_W`` bits) names
    the memory at run time (0 for null) and ``mems`` lists the memories it may point into.
    One virtual address space: a pointer as an integer is ``tag << 32 | off``."""

    mem: MemoryObject | None
    off: Value  # byte offset, OFF_W bits
    tag: Value | None = None
    mems: tuple = ()

    @property
    def targets(self) -> tuple:
        return (self.mem,) if self.mem is not None else self.mems


class AddressTakenGrew(Exception):
    """Translation saw pointers stored to memory into more memories than the points-to
    set it assumed for pointers loaded from memory: translate again with ``keys``."""

    def __init__(self, keys: tuple):
        super().__init__("address-taken set grew")
        self.keys = keys


def _is_global_ref(v) -> bool:
    """A global variable used as an operand (``is_global`` is false for those)."""
    return bool(v.is_global) or _vk(v) == "global_variable"


@dataclass
class _Access:
    op: Op
    ptr: Ptr
    size: int
    func: Function
    float_bits: int = 0  # the access is a float (32) or double (64)
    align: int = 0  # a tagged pointer's access: LLVM's ``align`` (its offset is a multiple)


class Translator:
    def __init__(self, llmod, text: str, path: str, opts: dict, line_map: dict | None = None,
                 addr_taken: tuple = ()):
        self.llmod = llmod
        #: memory keys (``_mem_key``) whose addresses may be stored in memory, assumed as
        #: the points-to set of every pointer loaded from memory; and those seen so far
        self.addr_taken_seed = tuple(addr_taken)
        self.addr_taken: dict = {}
        self._seed_used = False
        self._deferred: list[UnsupportedError] = []
        self._tags: dict = {}
        self._ptr_slots: dict[str, list[int]] = {}
        self._mem_align: dict[MemoryObject, int] = {}
        self._p2i_ok: set[int] = set()
        self.text = text
        self.path = path
        self.opts = opts
        self.dbg = DebugInfo(text)
        named = {}
        for m in re.finditer(r"^(%[-\w.$\"]+) = type (.*)$", text, re.M):
            named[m.group(1)] = m.group(2)
        self.tp = TypeParser(named)
        self.tp.ptr_const = self._init_ptr
        self._gvars = {g.name: g for g in llmod.global_variables}
        self.functions: dict[str, Function] = {}
        self.globals: dict[str, MemoryObject] = {}
        self.accesses: list[_Access] = []
        self.call_binds: list[tuple[Op, list[tuple[PtrParam, Ptr]]]] = []
        self.line_map = line_map or {}
        self._define_lines = {}
        for i, line in enumerate(text.splitlines(), 1):
            m = re.match(r"define .*?@([-\w.$]+|\"[^\"]+\")\(", line)
            if m:
                self._define_lines[m.group(1)] = line

    # ------------------------------------------------------------------ errors
    def loc_of(self, instr_text: str, fn_name: str) -> Loc:
        line = self.dbg.line_of(instr_text)
        if line is None:
            s = _strip_instr(instr_text).split(", !dbg")[0]
            line = self.line_map.get((fn_name, s))
            if line is None:  # an instruction printed over several lines (invoke, landingpad)
                line = self.line_map.get((fn_name, s.split("\n")[0].strip()))
            if line is None:  # written differently from LLVM's printing: its result name
                m = re.match(r'(%[-\w.$]+|%"[^"]+") = ', s)
                line = self.line_map.get((fn_name, m.group(1) + " =")) if m else None
        if line is None:
            d = self._define_lines.get(fn_name, "")
            line = self.dbg.subprogram_line(d) or self.line_map.get((fn_name, None))
            return Loc(self._input_of(d.split("{")[0]), line)
        return Loc(self._input_of(instr_text), line)

    def _input_of(self, text: str) -> str:
        """Of several linked inputs, the one whose debug info holds ``text``."""
        paths = self.opts.get("paths") or ()
        if len(paths) < 2:
            return self.path
        f = self.dbg.file_of(text)
        if f:
            for p in paths:
                if p == f or Path(p).resolve() == Path(f).resolve():
                    return p
            for p in paths:
                if Path(p).name == Path(f).name:
                    return p
        return self.path

    def unsupported(self, what: str, instr_text: str, fn_name: str) -> UnsupportedError:
        loc = self.loc_of(instr_text, fn_name)
        ins = _strip_instr(instr_text).split(", !")[0]
        ins = re.sub(r"\s*\n\s*", " ", ins)  # one line: invoke/landingpad print over several
        ins = re.sub(r"(\s+(#\d+|!\w+ !\d+))+\s*$", "", ins)  # attribute groups, !dbg of a define
        return UnsupportedError(f"{what} is not supported for hardware: {ins}", loc.file, loc.line)

    def _ins_text(self, ins) -> str:
        """``str(ins)`` with the module's metadata numbering.  Printing one instruction
        numbers metadata per function, so its ``!dbg !N`` would name the wrong node of the
        module text; printing its function numbers them as the module does."""
        cache = self.__dict__.setdefault("_ins_texts", {})
        k = key(ins)
        if k in cache:
            return cache[k]
        text = str(ins)
        fn = ins.function
        body = str(fn).split("\n")
        start = next((i + 1 for i, l in enumerate(body) if l.startswith("define ")), len(body))
        lines = [l for l in body[start:] if l.strip() and not l.startswith("}")
                 and not l.lstrip().startswith((";", "#dbg_"))
                 and not re.match(r'^([-\w.$]+|"[^"]+"):', l)]
        pos, found, own = 0, {}, {}
        for bb in fn.blocks:
            for other in bb.instructions:
                t = str(other)
                own[key(other)] = t
                n = t.count("\n") + 1
                printed = "\n".join(lines[pos:pos + n])
                pos += n
                if found is not None:
                    if re.sub(r"!\d+", "!", printed) != re.sub(r"!\d+", "!", t):
                        found = None  # printing not understood: keep each instruction's text
                    else:
                        found[key(other)] = printed
        cache.update(found if found is not None else own)
        return cache.get(k, text)

    # ------------------------------------------------------------------ entry
    def translate(self, top: str) -> Module:
        fn = self._find_function(top)
        self._top_mems = set()
        self._top_name = top
        topf = self._function(fn, is_top=True)
        if self._seed_used and any(k not in self.addr_taken_seed for k in self.addr_taken):
            raise AddressTakenGrew(self.addr_taken_seed
                                   + tuple(k for k in self.addr_taken
                                           if k not in self.addr_taken_seed))
        if self._deferred:
            raise self._deferred[0]
        self._thread_globals(topf)
        self._check_memmoves()
        self._finish_memories()
        funcs = list(self.functions.values())
        mod = Module(top=topf, functions=funcs, globals=list(self.globals.values()),
                     source=self.path)
        for k, tag in self._tags.items():
            if k[0] == "g" and k[1] in self._gvars:
                t = self.tp.type_of(str(self._gvars[k[1]].global_value_type))
                mod.ptr_tags[k[1]] = (tag, sizeof(t))
        for name, slots in self._ptr_slots.items():
            if slots:
                mod.ptr_slots[name] = slots
        return mod

    def check(self, top: str) -> None:
        """Reject constructs without a hardware meaning, on the IR as the user wrote it,
        so the message points at the user's line before any pass rewrites it."""
        fn = self._find_function(top)
        self._warnings: list[tuple[int, str, str]] = []
        try:
            self._check(fn, top)
        finally:
            for line, file, msg in sorted(set(self._warnings)):
                _warn(file, line or None, msg)

    def _check(self, fn, top: str) -> None:
        seen: dict[str, None] = {}
        stack: list[tuple[object, tuple[str, ...]]] = [(fn, ())]
        while stack:
            f, path = stack.pop()
            if f.name in seen:
                continue
            seen[f.name] = None
            self._llname = f.name
            if f.global_value_type.is_function_vararg:
                d = self._define_lines.get(f.name, "")
                raise self.unsupported("a variadic function", d.split("{")[0], f.name)
            diffs = _pointer_differences(f)
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
                    if " asm " in text or _vk(callee) == "inline_asm":
                        raise self.unsupported("inline assembly", text, f.name)
                    if _vk(callee) != "function":
                        raise self.unsupported("an indirect call through a function pointer",
                                               text, f.name)
                    name = callee.name
                    callee = self.llmod.get_function(name)
                    if name.startswith("llvm."):
                        if name.startswith(("llvm.va_start", "llvm.va_end", "llvm.va_copy")):
                            raise self.unsupported("a variadic argument list", text, f.name)
                        if name.startswith(("llvm.stacksave", "llvm.stackrestore")):
                            raise self.unsupported("a dynamically sized stack array", text, f.name)
                        continue
                    if callee.is_declaration and name in _LIBC_CALLS:
                        self._check_libc(name, ins, text, f.name, top)
                        continue
                    if callee.is_declaration:
                        raise self.unsupported(
                            f"a call to the undefined external function '{name}'", text, f.name)
                    if callee.global_value_type.is_function_vararg:
                        raise self.unsupported("a call to a variadic function", text, f.name)
                    if name == f.name or name in path:
                        raise self.unsupported("recursion", text, f.name)
                    stack.append((callee, path + (f.name,)))

    def _check_libc(self, name: str, ins, text: str, fn: str, top: str) -> None:
        """A call of a library function the hardware understands (see ``_libc_call``)."""
        if name in _PRINT_CALLS:
            if str(ins.type) != "void" and self._result_used(ins):
                raise self.unsupported(f"using the value of '{name}', which is dropped from "
                                       f"the hardware,", text, fn)
            loc = self.loc_of(text, fn)
            shown = name
            if name != "printf" and _source_says(loc, "printf"):
                shown = "printf"  # clang turns printf("...\\n") into puts, printf("%c") into putchar
            self._warnings.append((loc.line or 0, loc.file, f"call of '{shown}' is dropped "
                                                             f"from the hardware"))
        elif name == "exit" and top != "main":
            raise self.unsupported("exit() outside a whole program (--top main)", text, fn)

    def _instr_error(self, ins, text):
        self._itext = text
        self._instr(ins)

    def _find_function(self, name: str):
        try:
            fn = self.llmod.get_function(name)
        except NameError:
            fn = None
        if fn is None or fn.is_declaration:
            names = sorted(f.name for f in self.llmod.functions if not f.is_declaration)
            raise FrontendError(
                f"top function '{name}' is not defined in the input; defined functions: "
                + (", ".join(names) or "none"), self.path, 1)
        return fn

    # ------------------------------------------------------------------ functions
    def _function(self, llfn, is_top: bool = False) -> Function:
        name = llfn.name
        if name in self.functions:
            return self.functions[name]
        define = self._define_lines.get(name, str(llfn).split("\n", 1)[0])
        floc = Loc(self._input_of(define.split("{")[0]),
                   self.dbg.subprogram_line(define) or self.line_map.get((name, None)))
        ftype = llfn.global_value_type
        if ftype.is_function_vararg:
            raise UnsupportedError(f"a variadic function is not supported for hardware: @{name}",
                                   floc.file, floc.line)
        func = Function(name=name, loc=floc)
        self.functions[name] = func
        dbg_params = self.dbg.params(define)
        ret_t = self.tp.type_of(str(ftype.get_function_return()))  if str(ftype.get_function_return()) != "void" else None
        if ret_t is not None:
            if not _scalar(ret_t):
                raise self._type_error(ret_t, f"return value of @{name}", define, name)
            func.return_width = ret_t.bits
            func.return_float = ret_t.bits if isinstance(ret_t, FloatT) else 0
        vals: dict[int, Value | Ptr] = {}
        for i, arg in enumerate(llfn.arguments):
            t = self.tp.type_of(str(arg.type))
            dname, pointee = dbg_params.get(i, (None, None))
            pname = sanitize_name(arg.name or dname or f"arg{i}")
            if isinstance(t, PtrT):
                mem = MemoryObject(name=pname, kind="arg", arg_index=i, loc=floc,
                                   elem_bytes=pointee or 0)
                if is_top:
                    self._top_mems.add(mem)
                p = PtrParam(index=i, name=pname, mem=mem)
                func.params.append(p)
                vals[key(arg)] = Ptr(mem, Const(OFF_W, 0))
            elif _scalar(t):
                p = Param(width=t.bits, name=pname, index=i)
                func.params.append(p)
                vals[key(arg)] = p
            else:
                raise self._type_error(t, f"argument {i} of @{name}", define, name)
        self._fn = func
        self._vals = vals
        self._llname = name
        blocks: dict[int, Block] = {}
        llblocks = list(llfn.blocks)
        for i, bb in enumerate(llblocks):
            b = Block(name=sanitize_name(bb.name or f"bb{i}"), function=func)
            blocks[key(bb)] = b
            func.blocks.append(b)
        self._blocks = blocks
        self._llins = {key(i): i for bb in llblocks for i in bb.instructions}
        self._p2i_ok |= _pointer_differences(llfn)
        self._phis: list[tuple[Op, object]] = []
        for bb in _rpo(llblocks):
            self._cur = blocks[key(bb)]
            for ins in bb.instructions:
                self._instr(ins)
                if self._cur.ops and self._cur.ops[-1].is_terminator:
                    break  # exit()/abort() ended the block; what follows is unreachable
        for op, ins in self._phis:
            self._fill_phi(op, ins)
        self._retarget_split_phis()
        return func

    def _type_error(self, t, what: str, text: str, fn: str) -> UnsupportedError:
        if isinstance(t, FloatT):
            kind = f"the floating-point type of {what} (only float and double have hardware formats)"
        else:
            kind = ("the vector" if isinstance(t, VectorT) else "the aggregate") + f" type of {what}"
        return self.unsupported(kind, text.split("{")[0].strip() if text.startswith("define")
                                else text, fn)

    # ------------------------------------------------------------------ values
    def _emit(self, kind: str, operands: list[Value], width: int, loc: Loc | None = None,
              **attrs) -> Op:
        op = Op(width=width, kind=kind, operands=operands, attrs=attrs, loc=loc or self._loc)
        self._cur.append(op)
        return op

    def _val(self, v, want_ptr: bool = False):
        k = key(v)
        if k in self._vals:
            return self._vals[k]
        tstr = str(v.type)
        if _is_global_ref(v):
            return self._global_ptr(v)
        if v.is_constant:
            if tstr == "ptr":
                return self._const_ptr(v)
            t = self.tp.type_of(tstr)
            if _scalar(t) and isinstance(t, FloatT):
                text = str(v).strip()
                tail = text.split(" ", 1)[1].strip() if " " in text else text
                if tail in ("undef", "poison"):
                    return Const(t.bits, 0)
                try:
                    data, _ = self.tp.parse_const(tokenize(tail), 0, t)
                except Exception:
                    raise self.unsupported("this floating-point constant", text, self._llname)
                return Const(t.bits, int.from_bytes(data, "little"))
            if isinstance(t, IntT):
                text = str(v).strip()
                tail = text.split(" ", 1)[1].strip() if " " in text else text
                if tail in ("undef", "poison"):
                    return Const(t.bits, 0)
                m = re.match(r"ptrtoint \(ptr (.*) to i\d+\)$", tail)
                if m and k in self._p2i_ok:  # a constant pointer in a difference p - q
                    inner = m.group(1).strip()
                    p = (self._global_ptr(self._gvars[inner[1:].strip('"')])
                         if inner.startswith("@") else self._const_ptr_text("ptr " + inner))
                    return self._p2i(p, t.bits)
                try:
                    return Const(t.bits, v.get_constant_value(signed_int=False))
                except Exception:
                    raise self.unsupported("this constant expression", text, self._llname)
            raise self._type_error(t, "a constant", str(v), self._llname)
        raise self.unsupported("this value", str(v), self._llname)

    def _global_ptr(self, gv) -> Ptr:
        name = gv.name
        if name not in self.globals:
            if _vk(gv) != "function":
                gv = self._gvars[name]
            if _vk(gv) == "function":
                raise self.unsupported("taking the address of a function (indirect calls)",
                                       self._itext, self._llname)
            text = str(gv).strip()
            m = re.match(r"@[-\w.$\"]+ = (.*)$", text)
            body = m.group(1) if m else text
            toks = tokenize(body.split(", align")[0].split(", !dbg")[0])
            i = 0
            quals = {"internal", "private", "external", "dso_local", "unnamed_addr",
                     "local_unnamed_addr", "common", "weak", "linkonce_odr", "weak_odr",
                     "linkonce", "hidden", "protected", "default", "available_externally",
                     "thread_local", "externally_initialized", "dso_preemptable", "appending"}
            while toks[i] in quals:
                i += 1
            kind = toks[i]
            i += 1
            t, i = self.tp.parse_type(toks, i)
            if gv.is_declaration:
                raise self.unsupported("an external global without a definition", text,
                                       self._llname)
            init, _ = self.tp.parse_const(toks, i, t)
            size = sizeof(t)
            self._ptr_slots[name] = _ptr_offsets(t)
            init = init.ljust(size, b"\0")
            if any(isinstance(x, FloatT) for x in _leaves(t)) and self.opts.get("reject_float", True):
                pass  # float data in memory is plain bits; arithmetic on it is rejected later
            eb, dims, fields = element_layout(t)
            mem = MemoryObject(name=sanitize_name(name), kind="global", elem_bytes=eb,
                               init=init, readonly=(kind == "constant"), symbol=name,
                               elem_dims=dims, elem_fields=fields)
            self.globals[name] = mem
            self._mem_align[mem] = _align(text)
        return Ptr(self.globals[name], Const(OFF_W, 0))

    def _const_ptr(self, v) -> Ptr:
        return self._const_ptr_text(str(v).strip())

    def _const_ptr_text(self, text: str) -> Ptr:
        if text.endswith(("null", "undef", "poison")):
            return Ptr(None, Const(OFF_W, 0), Const(TAG_W, 0), ())
        m = re.match(r"ptr getelementptr (?:inbounds |nuw |nusw |inrange\([^)]*\) )*\((.*)\)$", text)
        if not m:
            raise self.unsupported("this constant pointer expression", text, self._llname)
        toks = tokenize(m.group(1))
        src, i = self.tp.parse_type(toks, 0)
        assert toks[i] == ","
        assert toks[i + 1] == "ptr"
        gname = toks[i + 2][1:]
        gv = self._gvars[gname.strip('"')]
        base = self._global_ptr(gv)
        i += 3
        idx = []
        while i < len(toks) and toks[i] == ",":
            it, i = self.tp.parse_type(toks, i + 1)
            idx.append(int(toks[i]))
            i += 1
        off = _const_gep_offset(src, idx)
        return Ptr(base.mem, Const(OFF_W, off))

    # ------------------------------------------------------------------ pointers as values
    def _mem_key(self, m: MemoryObject):
        """A name for a memory that survives a second translation (``AddressTakenGrew``)."""
        if m.kind == "global":
            return ("g", m.symbol)
        if m.kind == "local":
            return ("l", m.name)
        if m in self._top_mems:
            return ("a", m.arg_index)
        return None

    def _tag_of(self, m: MemoryObject | None) -> int:
        """Memory tags from 1 in order of first use (0 is null): a memory's base address
        in the virtual address space is ``tag << 32``."""
        k = self._mem_key(m)
        if k is None:
            raise self.unsupported("a pointer argument of a called (noinline) function used as "
                                   "a value (stored, compared or merged with another memory)",
                                   self._itext, self._llname)
        return self._tags.setdefault(k, len(self._tags) + 1)

    def _tagv(self, p: Ptr) -> Value:
        return Const(TAG_W, self._tag_of(p.mem)) if p.mem is not None else p.tag

    def _vaddr(self, p: Ptr) -> Value:
        """The pointer as a 64-bit integer: its virtual address ``tag << 32 | off``."""
        tag = self._tagv(p)
        if isinstance(tag, Const) and isinstance(p.off, Const):
            return Const(2 * OFF_W, (tag.value << OFF_W) | (p.off.value & ((1 << OFF_W) - 1)))
        return self._emit("concat", [p.off, tag], OFF_W + TAG_W)

    def _encode(self, p: Ptr) -> Value:
        """A pointer stored to memory: its memories become address-taken."""
        for m in p.targets:
            k = self._mem_key(m)
            if k is None:
                self._tag_of(m)  # the error
            self.addr_taken.setdefault(k, None)
        return self._vaddr(p)

    def _resolve_key(self, k) -> MemoryObject | None:
        if k[0] == "g":
            return self._global_ptr(self._gvars[k[1]]).mem
        if k[0] == "l":
            return next((m for m in self._fn.memories if m.name == k[1]), None)
        if self._fn.name == self._top_name:
            return next((p.mem for p in self._fn.ptr_params if p.mem.arg_index == k[1]), None)
        return None

    def _loaded_mems(self) -> tuple:
        """The points-to set of a pointer loaded from memory: the address-taken memories."""
        self._seed_used = True
        out = []
        for k in self.addr_taken_seed:
            m = self._resolve_key(k)
            if m is None:  # not visible here: a local or argument of another function
                what = "a local array" if k[0] == "l" else "a pointer argument"
                raise self.unsupported(f"a pointer loaded from memory in @{self._fn.name} that may "
                                       f"point into {what} of another function", self._itext,
                                       self._llname)
            if m not in out:
                out.append(m)
        return tuple(out)

    def _decode(self, word: Value) -> Ptr:
        tag = self._emit("slice", [word], TAG_W, lo=OFF_W)
        off = self._emit("trunc", [word], OFF_W)
        return Ptr(None, off, tag, self._loaded_mems())

    def _merge(self, pa: Ptr, pb: Ptr, make) -> Ptr:
        """A pointer that is ``pa`` or ``pb``: ``make(a, b, width)`` merges their parts."""
        if pa.mem is not None and pa.mem is pb.mem:
            return Ptr(pa.mem, make(pa.off, pb.off, OFF_W))
        mems = list(pa.targets)
        mems += [m for m in pb.targets if m not in mems]
        return Ptr(None, make(pa.off, pb.off, OFF_W),
                   make(self._tagv(pa), self._tagv(pb), TAG_W), tuple(mems))

    def _init_ptr(self, toks: list[str], i: int) -> tuple[int, int]:
        """A pointer in a global's initialiser: ``@g`` or a constant getelementptr."""
        off = 0
        if toks[i] == "getelementptr":
            j = i + 1
            while toks[j] != "(":
                j += 1
            src, j = self.tp.parse_type(toks, j + 1)
            assert toks[j] == "," and toks[j + 1] == "ptr", toks[j:j + 2]
            name, j = toks[j + 2], j + 3
            idx = []
            while toks[j] == ",":
                _, j = self.tp.parse_type(toks, j + 1)
                idx.append(int(toks[j]))
                j += 1
            assert toks[j] == ")"
            j += 1
            off = _const_gep_offset(src, idx)
        else:
            name, j = toks[i], i + 1
        name = name[1:].strip('"')
        if name not in self._gvars:
            raise self.unsupported("taking the address of a function (indirect calls)",
                                   getattr(self, "_itext", ""), getattr(self, "_llname", ""))
        k = ("g", name)
        self.addr_taken.setdefault(k, None)
        tag = self._tags.setdefault(k, len(self._tags) + 1)
        return (tag << OFF_W) | (off & ((1 << OFF_W) - 1)), j

    def _pts(self, v, seen: set) -> list:
        """What an LLVM pointer value may point to, before it is translated: memories,
        ``("g", name)`` for globals, ``"tagged"`` when the pointer needs a run-time tag."""
        known = self._vals.get(key(v))
        if isinstance(known, Ptr):
            return [known.mem] if known.mem is not None else list(known.mems) + ["tagged"]
        if _is_global_ref(v):
            return [("g", v.name)]
        if v.is_constant:
            text = str(v).strip()
            m = re.search(r"getelementptr .*?\(.*?, ptr (@[-\w.$]+|@\"[^\"]+\")", text)
            if m:
                return [("g", m.group(1)[1:].strip('"'))]
            return ["tagged"]  # null, undef
        if key(v) in seen:
            return []
        seen.add(key(v))
        v = self._llins.get(key(v), v)  # operands are wrapped as such: their instruction
        try:
            opc = v.opcode
        except ValueError:  # not an instruction
            opc = None
        ops = list(v.operands) if opc else []
        if opc in ("getelementptr", "freeze", "bitcast"):
            return self._pts(ops[0], seen)
        if opc == "select":
            return self._pts(ops[1], seen) + self._pts(ops[2], seen)
        if opc == "phi":
            return [x for o in ops for x in self._pts(o, seen)]
        if opc == "load":
            return list(self._loaded_mems()) + ["tagged"]
        return ["tagged"]

    # ------------------------------------------------------------------ instructions
    def _instr(self, ins) -> None:
        opc = ins.opcode
        text = self._ins_text(ins)
        self._itext = text
        self._loc = self.loc_of(text, self._llname)
        handler = getattr(self, "_i_" + opc, None)
        if handler is not None:
            handler(ins, text)
            return
        if opc in _BINOPS:
            a, b = (self._int(o) for o in ins.operands)
            self._set(ins, self._emit(opc, [a, b], a.width))
            return
        if opc in _FLOAT_OPS:
            self._float_op(ins, text, opc)
            return
        what = {
            "invoke": "exception handling (invoke)", "landingpad": "exception handling",
            "resume": "exception handling", "va_arg": "a variadic argument",
            "indirectbr": "an indirect branch", "callbr": "an asm goto",
            "atomicrmw": "an atomic operation", "cmpxchg": "an atomic operation",
            "fence": "a memory fence", "ptrtoint": "a pointer-to-integer conversion",
            "inttoptr": "an integer-to-pointer conversion",
        }.get(opc, f"the LLVM instruction '{opc}'")
        raise self.unsupported(what, text, self._llname)

    def _set(self, ins, v) -> None:
        self._vals[key(ins)] = v

    def _int(self, v) -> Value:
        x = self._val(v)
        if isinstance(x, Ptr):
            raise self.unsupported("using a pointer as an integer", self._itext, self._llname)
        return x

    def _ptr(self, v) -> Ptr:
        x = self._val(v)
        if not isinstance(x, Ptr):
            raise self.unsupported("an integer used as a pointer", self._itext, self._llname)
        return x

    def _result_type(self, ins):
        tstr = str(ins.type)
        return self.tp.type_of(tstr)

    def _float_op(self, ins, text, opc) -> None:
        ops = list(ins.operands)
        if opc == "frem":
            raise self.unsupported("frem (floating-point remainder)", text, self._llname)
        if opc in ("fptosi", "fptoui"):
            ts, t = self.tp.type_of(str(ops[0].type)), self._result_type(ins)
            if not (_scalar(ts) and isinstance(ts, FloatT) and isinstance(t, IntT)) or t.bits > 64:
                raise self._type_error(ts if not isinstance(ts, IntT) else t, "a conversion",
                                       text, self._llname)
            self._set(ins, self._fop(opc, [self._int(ops[0])], _fmt(ts), t.bits))
            return
        t = self._result_type(ins)
        if opc in ("sitofp", "uitofp"):
            ts = self.tp.type_of(str(ops[0].type))
            if not (_scalar(t) and isinstance(t, FloatT) and isinstance(ts, IntT)) or ts.bits > 64:
                raise self._type_error(t, "a conversion", text, self._llname)
            self._set(ins, self._fop(opc, [self._int(ops[0])], _fmt(t), t.bits))
            return
        if opc == "fcmp":
            ts = self.tp.type_of(str(ops[0].type))
            if not (_scalar(ts) and isinstance(ts, FloatT)):
                raise self._type_error(ts, "a floating-point comparison", text, self._llname)
            m = re.search(r"fcmp " + _FMF + r"(\w+) ", text)
            a, b = self._int(ops[0]), self._int(ops[1])
            self._set(ins, self._fop("fcmp", [a, b], _fmt(ts), 1, pred=m.group(1)))
            return
        if not (_scalar(t) and isinstance(t, FloatT)):
            raise self._type_error(t, f"'{opc}'", text, self._llname)
        if opc in ("fpext", "fptrunc"):
            ts = self.tp.type_of(str(ops[0].type))
            if not (_scalar(ts) and isinstance(ts, FloatT)):
                raise self._type_error(ts, "a conversion", text, self._llname)
            self._set(ins, self._fop("fpconv", [self._int(ops[0])], _fmt(t), t.bits,
                                     src=_fmt(ts)))
            return
        vals = [self._int(o) for o in ops]
        self._set(ins, self._fop(opc, vals, _fmt(t), t.bits))

    # ------------------------------------------------------------------ custom formats
    def _custom(self) -> FPFormat | None:
        """The ``--fp-format`` of the function being translated (None: IEEE)."""
        fmts = self.opts.get("fp_format") or {}
        return fmts.get(self._llname, fmts.get("*"))

    def _to_c(self, v: Value, f: FPFormat, c: FPFormat) -> Value:
        """``v`` (a value of format ``f``) rounded to the custom format ``c``."""
        if isinstance(v, Op) and v.kind == "fpconv" and v.attrs["src"] == c and v.attrs["fmt"] == f:
            return v.operands[0]  # widened from c just before: the c value itself
        if isinstance(v, Const):
            return Const(c.width, int(ref.convert(f, c, np.uint64(v.value))))
        return self._emit("fpconv", [v], c.width, fmt=c, src=f)

    def _fop(self, kind: str, vals: list[Value], f: FPFormat, width: int, **attrs) -> Value:
        """Emit float op ``kind`` of format ``f`` (the operand's format for fcmp/fptosi/
        fptoui; the result's otherwise).  In a function with a custom format ``c`` the op
        is computed in ``c``: operands rounded ``f -> c``, result widened ``c -> f``."""
        c = self._custom()
        if c is None or kind in ("fneg", "fabs", "fcopysign"):
            return self._emit(kind, vals, width, fmt=f, **attrs)
        self._check_fits(c, f)
        if kind == "fpconv":
            src = attrs["src"]
            self._check_fits(c, src)
            x = self._to_c(vals[0], src, c)
            return self._emit("fpconv", [x], width, fmt=f, src=c)
        if kind in ("sitofp", "uitofp"):
            r = self._emit(kind, vals, c.width, fmt=c, **attrs)
            return self._emit("fpconv", [r], width, fmt=f, src=c)
        ins = [self._to_c(v, f, c) for v in vals]
        if kind in ("fcmp", "fptosi", "fptoui"):
            return self._emit(kind, ins, width, fmt=c, **attrs)
        r = self._emit(kind, ins, c.width, fmt=c, **attrs)
        return self._emit("fpconv", [r], width, fmt=f, src=c)

    def _check_fits(self, c: FPFormat, f: FPFormat) -> None:
        if c.exp_bits > f.exp_bits or c.man_bits > f.man_bits:
            raise self.unsupported(
                f"--fp-format {c} for {'float' if f == BINARY32 else 'double'} arithmetic "
                f"({f}): the custom format must fit in the C type it replaces, and", self._itext,
                self._llname)

    def _i_icmp(self, ins, text):
        m = re.search(r"icmp (?:samesign )?(\w+) ", text)
        pred = m.group(1)
        a, b = ins.operands
        if str(a.type) == "ptr":
            pa, pb = self._ptr(a), self._ptr(b)
            if pa.mem is not None and pa.mem is pb.mem:
                self._set(ins, self._emit("icmp", [pa.off, pb.off], 1, pred=pred))
                return
            # different memories: compare virtual addresses (distinct bases per memory)
            self._set(ins, self._emit("icmp", [self._vaddr(pa), self._vaddr(pb)], 1, pred=pred))
            return
        self._set(ins, self._emit("icmp", [self._int(a), self._int(b)], 1, pred=pred))

    def _i_select(self, ins, text):
        c, a, b = ins.operands
        cond = self._int(c)
        if str(a.type) == "ptr":
            pa, pb = self._ptr(a), self._ptr(b)
            self._set(ins, self._merge(
                pa, pb, lambda x, y, w: self._emit("select", [cond, x, y], w)))
            return
        t = self._result_type(ins)
        if not _scalar(t):
            raise self._type_error(t, "a select", text, self._llname)
        self._set(ins, self._emit("select", [cond, self._int(a), self._int(b)], t.bits))

    def _cast(self, ins, text, kind):
        t = self._result_type(ins)
        if not isinstance(t, IntT):
            raise self._type_error(t, "a cast", text, self._llname)
        a = self._int(next(iter(ins.operands)))
        self._set(ins, self._emit(kind, [a], t.bits))

    def _i_zext(self, ins, text):
        self._cast(ins, text, "zext")

    def _i_sext(self, ins, text):
        self._cast(ins, text, "sext")

    def _i_trunc(self, ins, text):
        self._cast(ins, text, "trunc")

    def _i_freeze(self, ins, text):
        self._set(ins, self._val(next(iter(ins.operands))))

    def _i_bitcast(self, ins, text):
        src = next(iter(ins.operands))
        if str(src.type) == str(ins.type):
            self._set(ins, self._val(src))
            return
        ts, td = self.tp.type_of(str(src.type)), self._result_type(ins)
        if _scalar(ts) and _scalar(td) and ts.bits == td.bits:
            self._set(ins, self._int(src))  # float <-> integer of the same size: the bits
            return
        raise self.unsupported("a bit cast between different types", text, self._llname)

    def _i_phi(self, ins, text):
        if str(ins.type) == "ptr":
            mem = None
            for v in ins.operands:
                k = key(v)
                known = self._vals.get(k)
                if isinstance(known, Ptr) and known.mem is not None:
                    mem = known.mem
                elif _is_global_ref(v) or (v.is_constant and str(v).strip().startswith("ptr getelementptr")):
                    mem = self._ptr(v).mem
                if mem is not None:
                    break
            refs = self._pts(ins, set())
            names = {("g", r.symbol) if isinstance(r, MemoryObject) and r.kind == "global"
                     else r for r in refs}
            if len(names) != 1 or "tagged" in names or (mem is None and not refs):
                # several memories (or null): a tagged pointer, one phi for tags, one for offsets
                mems: list[MemoryObject] = []
                for r in refs:
                    m = self._global_ptr(self._gvars[r[1]]).mem if isinstance(r, tuple) else r
                    if isinstance(m, MemoryObject) and m not in mems:
                        mems.append(m)
                op = self._emit("phi", [], OFF_W, ptr_phi="tagged")
                tag = self._emit("phi", [], TAG_W)
                op.attrs["tag_phi"] = tag
                self._phis.append((op, ins))
                self._set(ins, Ptr(None, op, tag, tuple(mems)))
                return
            if mem is None:
                r = refs[0]
                mem = self._global_ptr(self._gvars[r[1]]).mem if isinstance(r, tuple) else r
            op = self._emit("phi", [], OFF_W, ptr_phi=True)
            self._phis.append((op, ins))
            self._set(ins, Ptr(mem, op))
            return
        t = self._result_type(ins)
        if not _scalar(t):
            raise self._type_error(t, "a phi", text, self._llname)
        op = self._emit("phi", [], t.bits)
        self._phis.append((op, ins))
        self._set(ins, op)

    def _fill_phi(self, op: Op, ins) -> None:
        self._itext = self._ins_text(ins)
        self._loc = op.loc
        self._cur = op.block
        incoming = list(zip(ins.incoming_blocks, ins.operands))
        kind = op.attrs.pop("ptr_phi", False)
        if kind == "tagged":
            tag = op.attrs.pop("tag_phi")
            me = self._vals[key(ins)]
            op.incoming, tag.incoming = [], []
            seen_t: set[int] = set()
            for bb, v in incoming:
                if key(bb) in seen_t:
                    continue
                seen_t.add(key(bb))
                p = self._ptr(v)
                if any(m not in me.mems for m in p.targets):
                    raise self.unsupported("a pointer phi whose memories are not known on entry",
                                           self._itext, self._llname)
                op.incoming.append((self._blocks[key(bb)], p.off))
                tag.incoming.append((self._blocks[key(bb)], self._tagv(p)))
            return
        if kind:
            mem = self._vals[key(ins)].mem
            pairs = []
            seen_b: set[int] = set()
            for bb, v in incoming:
                if key(bb) in seen_b:
                    continue
                seen_b.add(key(bb))
                p = self._ptr(v)
                if p.mem is not mem:
                    raise self.unsupported("a pointer phi over different memories", self._itext,
                                           self._llname)
                pairs.append((self._blocks[key(bb)], p.off))
            op.incoming = pairs
            return
        seen: set[int] = set()
        op.incoming = []
        for bb, v in incoming:  # a switch may list one predecessor several times
            if key(bb) not in seen:
                seen.add(key(bb))
                op.incoming.append((self._blocks[key(bb)], self._int(v)))

    def _i_ptrtoint(self, ins, text):
        """Only in a pointer difference (``check``): the virtual addresses of two pointers
        into one memory differ by the difference of their offsets."""
        if key(ins) not in self._p2i_ok:
            raise self.unsupported("a pointer-to-integer conversion", text, self._llname)
        t = self._result_type(ins)
        self._set(ins, self._p2i(self._ptr(next(iter(ins.operands))), t.bits))

    def _p2i(self, p: Ptr, bits: int) -> Value:
        v = self._vaddr(p)
        if bits == v.width:
            return v
        if isinstance(v, Const):
            return Const(bits, v.value)
        return self._emit("trunc" if bits < v.width else "zext", [v], bits)

    def _i_getelementptr(self, ins, text):
        m = re.search(r"getelementptr (?:(?:inbounds|nuw|nusw|inrange\([^)]*\)) )*(.*)$", text)
        toks = tokenize(m.group(1).split(", !")[0])
        src, _ = self.tp.parse_type(toks, 0)
        ops = list(ins.operands)
        base = self._ptr(ops[0])
        off: Value = base.off
        t = src
        for n, idx in enumerate(ops[1:]):
            if n == 0:
                stride_t = src
            else:
                if isinstance(t, StructT):
                    field = self._int(idx)
                    assert isinstance(field, Const)
                    fo = field_offsets(t)[field.value]
                    off = self._add(off, Const(OFF_W, fo))
                    t = t.fields[field.value]
                    continue
                if isinstance(t, (ArrayT, VectorT)):
                    t = t.elem
                    stride_t = t
                else:
                    raise self.unsupported("this getelementptr", text, self._llname)
            if n == 0:
                t = src
            stride = sizeof(stride_t)
            iv = self._int(idx)
            off = self._add(off, self._scale(self._to_off(iv), stride))
        self._set(ins, Ptr(base.mem, off, base.tag, base.mems))

    def _i_ptradd(self, ins, text):
        raise self.unsupported("ptradd", text, self._llname)

    def _to_off(self, v: Value) -> Value:
        if isinstance(v, Const):
            sv = v.value - (1 << v.width) if v.value >> (v.width - 1) else v.value
            return Const(OFF_W, sv)
        if v.width == OFF_W:
            return v
        if v.width > OFF_W:
            return self._emit("trunc", [v], OFF_W)
        return self._emit("sext", [v], OFF_W)

    def _scale(self, v: Value, k: int) -> Value:
        if isinstance(v, Const):
            return Const(OFF_W, v.value * k)
        if k == 1:
            return v
        if k & (k - 1) == 0:
            return self._emit("shl", [v, Const(OFF_W, k.bit_length() - 1)], OFF_W)
        return self._emit("mul", [v, Const(OFF_W, k)], OFF_W)

    def _add(self, a: Value, b: Value) -> Value:
        if isinstance(b, Const) and b.value == 0:
            return a
        if isinstance(a, Const) and a.value == 0:
            return b
        if isinstance(a, Const) and isinstance(b, Const):
            return Const(OFF_W, a.value + b.value)
        return self._emit("add", [a, b], OFF_W)

    def _i_alloca(self, ins, text):
        m = re.search(r"alloca (?:inalloca )?(.*)$", text)
        toks = tokenize(m.group(1).split(", !")[0])
        t, i = self.tp.parse_type(toks, 0)
        if i < len(toks) and toks[i] == "," and toks[i + 1] != "align":
            count = self._val(next(iter(ins.operands)))
            if not isinstance(count, Const):
                raise self.unsupported("a dynamically sized stack array (dynamic alloca)", text,
                                       self._llname)
            t = ArrayT(count.value, t)
        if self._cur is not self._fn.entry:
            raise self.unsupported("a stack allocation outside the entry block", text, self._llname)
        name = sanitize_name(ins.name or f"local{len(self._fn.memories)}")
        mem = MemoryObject(name=f"{self._fn.name}_{name}", kind="local", elem_bytes=sizeof(t),
                           init=bytes(sizeof(t)), loc=self._loc)
        self._fn.memories.append(mem)
        self._mem_align[mem] = _align(text)
        self._set(ins, Ptr(mem, Const(OFF_W, 0)))

    def _i_load(self, ins, text):
        if " atomic " in text:
            raise self.unsupported("an atomic load", text, self._llname)
        t = self._result_type(ins)
        if isinstance(t, PtrT):  # a pointer in memory: its virtual address
            word = self._load(self._host_free(self._ptr(next(iter(ins.operands)))), 8, 0,
                              _align(text))
            self._set(ins, self._decode(word))
            return
        if not _scalar(t):
            raise self._type_error(t, "a load", text, self._llname)
        p = self._ptr(next(iter(ins.operands)))
        size = store_size(t)
        op = self._load(p, size, t.bits if isinstance(t, FloatT) else 0, _align(text))
        if 8 * size != t.bits:
            op2 = self._emit("trunc", [op], t.bits)
            self._set(ins, op2)
        else:
            self._set(ins, op)

    def _i_store(self, ins, text):
        if " atomic " in text:
            raise self.unsupported("an atomic store", text, self._llname)
        v, pv = ins.operands
        t = self.tp.type_of(str(v.type))
        if isinstance(t, PtrT):  # a pointer to memory: its virtual address
            self._store(self._host_free(self._ptr(pv)), self._encode(self._ptr(v)), 8, 0,
                        _align(text))
            return
        if not _scalar(t):
            raise self._type_error(t, "a store", text, self._llname)
        p = self._ptr(pv)
        data = self._int(v)
        size = store_size(t)
        if 8 * size != t.bits:
            data = self._emit("zext", [data], 8 * size)
        self._store(p, data, size, t.bits if isinstance(t, FloatT) else 0, _align(text))

    def _host_free(self, p: Ptr) -> Ptr:
        """A pointer held in memory must not live in a buffer of the host (a pointer
        argument of the top): the host's addresses mean nothing in hardware."""
        if any(m in self._top_mems for m in p.targets):
            raise self.unsupported("a pointer held in the buffer of a pointer argument of the "
                                   "top function (host addresses)", self._itext, self._llname)
        return p

    def _steer(self, p: Ptr) -> list[tuple[MemoryObject, Value | None]]:
        """The memories an access through ``p`` may touch, each with its guard."""
        if p.mem is not None:
            return [(p.mem, None)]
        if not p.mems:
            if not self._seed_used:
                raise self.unsupported("a null pointer access", self._itext, self._llname)
            err = self.unsupported("an access through a pointer loaded from memory that no code "
                                   "of the design sets (null, or set outside the top function)",
                                   self._itext, self._llname)
            # a pointer loaded from memory before all stored pointers were seen: decided
            # at the end of translation (``AddressTakenGrew``)
            self._deferred.append(err)
            return []
        if len(p.mems) == 1:
            return [(p.mems[0], None)]  # or null: undefined
        return [(m, self._emit("icmp", [p.tag, Const(TAG_W, self._tag_of(m))], 1, pred="eq"))
                for m in p.mems]

    def _base_align(self, m: MemoryObject, align: int) -> int:
        """The alignment an access's offset has: the access's own, when its memory's base
        is at least as aligned natively (a global's or alloca's ``align``)."""
        return min(align, self._mem_align.get(m, 0))

    def _load(self, p: Ptr, size: int, float_bits: int, align: int = 0) -> Op:
        """A load through ``p``; through a tagged pointer, one guarded load per memory it
        may point into, the value selected by the tag."""
        out = None
        steer = self._steer(p)
        if not steer:
            return Const(8 * size, 0)
        for m, g in steer:
            q = p if p.mem is not None else Ptr(m, p.off)
            op = self._emit("load", [p.off] + ([g] if g is not None else []), 8 * size,
                            mem=m, size=size)
            if g is not None:
                op.attrs["guard"] = 1
            self.accesses.append(_Access(op, q, size, self._fn, float_bits,
                                         self._base_align(m, align) if p.mem is None else 0))
            out = op if out is None else self._emit("select", [g, op, out], 8 * size)
        return out

    def _store(self, p: Ptr, data: Value, size: int, float_bits: int, align: int = 0) -> None:
        for m, g in self._steer(p):
            op = self._emit("store", [p.off, data] + ([g] if g is not None else []), 0,
                            mem=m, size=size)
            if g is not None:
                op.attrs["guard"] = 2
            self.accesses.append(_Access(op, p if p.mem is not None else Ptr(m, p.off), size,
                                         self._fn, float_bits,
                                         self._base_align(m, align) if p.mem is None else 0))

    def _i_br(self, ins, text):
        labels = re.findall(r"label (%[-\w.$]+|%\"[^\"]+\")", text)
        targets = [self._block_by_name(lbl[1:]) for lbl in labels]
        if len(targets) == 1:
            op = self._emit("br", [], 0)
        else:
            c = self._int(next(iter(ins.operands)))
            op = self._emit("condbr", [c], 0)
        op.targets = targets
        md = self._loop_metadata(text)
        if md:
            op.attrs["loop_md"] = md

    def _loop_metadata(self, text: str) -> dict:
        """clang's loop pragmas on a latch branch (``!llvm.loop``): ``pipeline`` (False for
        ``pipeline(disable)``), ``ii`` (``pipeline_initiation_interval(N)``), ``unroll``
        (``unroll_count(N)``, ``"full"``, or 1 for ``unroll(disable)``)."""
        m = re.search(r"!llvm\.loop (!\d+)", text)
        if not m:
            return {}
        nodes = getattr(self, "_md_nodes", None)
        if nodes is None:
            nodes = self._md_nodes = dict(re.findall(r"^(!\d+) = (?:distinct )?!\{(.*)\}$",
                                                     self.text, re.M))
        out = {}
        for ref in re.findall(r"!\d+", nodes.get(m.group(1), "")):
            body = nodes.get(ref, "")
            k = re.match(r'!"([\w.]+)"(?:, i\d+ (-?\d+|true|false))?', body)
            if not k:
                continue
            name, val = k.group(1), k.group(2)
            if name == "llvm.loop.pipeline.disable" and val in ("true", "1"):
                out["pipeline"] = False
            elif name == "llvm.loop.pipeline.initiationinterval" and val:
                out["ii"] = int(val)
            elif name == "llvm.loop.unroll.count" and val:
                out["unroll"] = int(val)
            elif name == "llvm.loop.unroll.full":
                out["unroll"] = "full"
            elif name == "llvm.loop.unroll.disable":
                out["unroll"] = 1
        return out

    def _block_by_name(self, name: str) -> Block:
        name = sanitize_name(name.strip('"'))
        for b in self._fn.blocks:
            if b.name == name:
                return b
        raise FrontendError(f"branch to unknown block {name}")

    def _i_switch(self, ins, text):
        ops = list(ins.operands)
        v = self._int(ops[0])
        labels = re.findall(r"label (%[-\w.$]+|%\"[^\"]+\")", text)
        targets = [self._block_by_name(lbl[1:]) for lbl in labels]
        w = v.width
        cases = [int(c) & ((1 << w) - 1) if c not in ("true", "false") else int(c == "true")
                 for c in re.findall(r"i\d+ (-?\d+|true|false), label", text)]
        if len(cases) != len(targets) - 1:
            raise self.unsupported("this switch", text, self._llname)
        op = self._emit("switch", [v], 0)
        op.targets = targets
        op.cases = cases

    def _i_ret(self, ins, text):
        ops = list(ins.operands)
        self._emit("ret", [self._int(ops[0])] if ops else [], 0)

    def _i_unreachable(self, ins, text):
        # Reaching it is undefined behaviour; the hardware simply finishes the call.
        w = self._fn.return_width
        self._emit("ret", [Const(w, 0)] if w else [], 0)

    def _i_call(self, ins, text):
        ops = list(ins.operands)
        callee = ops[-1]
        args = ops[:-1]
        if " asm " in text or _vk(callee) == "inline_asm":
            raise self.unsupported("inline assembly", text, self._llname)
        if _vk(callee) != "function":
            raise self.unsupported("an indirect call through a function pointer", text, self._llname)
        name = callee.name
        if name.startswith("llvm."):
            self._intrinsic(ins, text, name[5:], args)
            return
        callee = self.llmod.get_function(name)
        if callee.is_declaration and name in _LIBC_CALLS:
            self._libc_call(ins, text, name, args)
            return
        if callee.is_declaration:
            raise self.unsupported(f"a call to the undefined external function '{name}'", text,
                                   self._llname)
        if name == self._llname or self._reaches(callee, self._llname):
            raise self.unsupported("recursion", text, self._llname)
        saved = (self._fn, self._vals, self._llname, self._blocks, self._llins, self._phis, self._cur,
                 self._loc, self._itext)
        sub = self._function(callee)
        (self._fn, self._vals, self._llname, self._blocks, self._llins, self._phis, self._cur,
         self._loc, self._itext) = saved
        scalars: list[Value] = []
        binds: list[tuple[PtrParam, Ptr]] = []
        for p, a in zip(sub.params, args):
            if isinstance(p, PtrParam):
                pa = self._ptr(a)
                if pa.mem is None:
                    raise self.unsupported("passing a pointer whose memory is decided at run time "
                                           "(several memories, loaded from memory, or null) to a "
                                           "noinline function", text, self._llname)
                binds.append((p, pa))
            else:
                scalars.append(self._int(a))
        op = self._emit("call", scalars, sub.return_width, callee=sub, ptr_args=[])
        self.call_binds.append((op, binds))
        if sub.return_width:
            self._set(ins, op)
        if sub.name in self.__dict__.get("_may_abort", ()):
            self._flag_check(ABORT_GLOBAL)
        if sub.name in self.__dict__.get("_may_exit", ()):
            self._flag_check(EXIT_GLOBAL)

    def _reaches(self, fn, target: str, seen=None) -> bool:
        seen = set() if seen is None else seen
        if fn.name in seen:
            return False
        seen.add(fn.name)
        for bb in fn.blocks:
            for ins in bb.instructions:
                if ins.opcode == "call":
                    c = list(ins.operands)[-1]
                    if _vk(c) == "function" and not self.llmod.get_function(c.name).is_declaration:
                        if c.name == target or self._reaches(self.llmod.get_function(c.name), target, seen):
                            return True
        return False

    def _intrinsic(self, ins, text, name: str, args) -> None:
        if name.startswith(_IGNORED_INTRINSICS):
            return
        base = name.split(".")[0]
        base2 = ".".join(name.split(".")[:2])
        kind = _INTRINSIC_OPS.get(base2) or _INTRINSIC_OPS.get(base)
        if kind is not None:
            t = self._result_type(ins)
            if not isinstance(t, IntT):
                raise self._type_error(t, f"llvm.{name}", text, self._llname)
            vals = [self._int(a) for a in args]
            if kind in ("abs", "ctlz", "cttz"):
                vals = vals[:1]  # the i1 flag only narrows poison
            self._set(ins, self._emit(kind, vals, t.bits))
            return
        if base in ("memset", "memcpy", "memmove"):
            if any(self._ptr(a).mem is None for a in args[:1 if base == "memset" else 2]):
                self._mem_tagged(base, text, args)
            else:
                self._mem_intrinsic(base, ins, text, args)
            return
        if base in ("trap", "ubsantrap"):  # __builtin_trap(): a failed run, as abort()
            self._abort("__builtin_trap()")
            return
        if base == "expect":
            self._set(ins, self._int(args[0]))
            return
        if base in ("fabs", "fmuladd", "fma", "sqrt", "minnum", "maxnum", "copysign"):
            t = self._result_type(ins)
            if not (isinstance(t, FloatT) and t.bits in _FLOAT_FORMATS):
                raise self._type_error(t, f"llvm.{name}", text, self._llname)
            fmt, w = _fmt(t), t.bits
            vals = [self._int(a) for a in args]
            if base == "fmuladd":
                # LLVM lets fmuladd round twice; native execution (no FMA in the JIT's
                # generic x86-64 target) does, so the hardware does too
                prod = self._fop("fmul", vals[:2], fmt, w)
                self._set(ins, self._fop("fadd", [prod, vals[2]], fmt, w))
                return
            kind = {"fabs": "fabs", "fma": "ffma", "sqrt": "fsqrt", "minnum": "fminnum",
                    "maxnum": "fmaxnum", "copysign": "fcopysign"}[base]
            self._set(ins, self._fop(kind, vals, fmt, w))
            return
        raise self.unsupported(f"the intrinsic llvm.{name}", text, self._llname)

    # ------------------------------------------------------------------ library calls
    def _libc_call(self, ins, text, name: str, args) -> None:
        """printf/puts/putchar: dropped (warned about in ``check``); exit(n): a return of n
        from main; abort()/failed assert: the site number into the abort flag memory and
        a return; memset/memcpy/memmove: as the intrinsics."""
        if name in _PRINT_CALLS:
            if str(ins.type) != "void" and self._result_used(ins):
                raise self.unsupported(f"using the value of '{name}', which is dropped from "
                                       f"the hardware,", text, self._llname)
            return
        if name in ("memset", "memcpy", "memmove"):
            self._mem_intrinsic(name, ins, text, args)
            if str(ins.type) == "ptr":
                self._set(ins, self._ptr(args[0]))
            return
        if name == "exit":
            if getattr(self, "_top_name", None) != "main":
                raise self.unsupported("exit() outside a whole program (--top main)", text,
                                       self._llname)
            w = self._fn.return_width
            status = self._fit(self._int(args[0]) if args else Const(32, 0), 32)
            if self._llname != "main":  # a function main calls: [1, status], then return
                mem = self._flag_mem(EXIT_GLOBAL, 8)
                for off, v in ((0, Const(32, 1)), (4, status)):
                    p = Ptr(mem, Const(OFF_W, off))
                    op = self._emit("store", [p.off, v], 0, mem=mem, size=4)
                    self.accesses.append(_Access(op, p, 4, self._fn))
                self.__dict__.setdefault("_may_exit", set()).add(self._fn.name)
                self._emit("ret", [Const(w, 0)] if w else [], 0)
                return
            self._emit("ret", [self._fit(status, w)] if w else [], 0)
            return
        what = "abort()"
        if name in ("__assert_fail", "__assert_rtn"):
            cond = _c_string(self, args[0 if name == "__assert_fail" else 3])
            what = f"assertion '{cond}' failed" if cond else "an assertion failed"
        self._abort(what)

    def _fit(self, v: Value, w: int) -> Value:
        if v.width == w:
            return v
        if isinstance(v, Const):
            return Const(w, v.value)
        return self._emit("trunc" if v.width > w else "zext", [v], w)

    def _result_used(self, ins) -> bool:
        name = ins.name
        if not name:
            return False
        body = "\n".join(l for l in str(ins.function).splitlines()
                         if not l.lstrip().startswith(("#dbg_", "call void @llvm.dbg.")))
        uses = re.findall(r"%" + re.escape(name) + r"(?![-\w.$])", body)
        return len(uses) > 1

    def _flag_mem(self, name: str, nbytes: int) -> MemoryObject:
        mem = self.globals.get(name)
        if mem is None:  # Verilator mangles the port names of a leading "__"
            mem = MemoryObject(name=name.strip("_"), kind="global", elem_bytes=4,
                               init=bytes(nbytes), symbol=name)
            self.globals[name] = mem
        return mem

    def _flag_check(self, name: str) -> None:
        """After a call that may have aborted (``ABORT_GLOBAL``) or called exit
        (``EXIT_GLOBAL``): end this call too when the flag is set (main returns the exit
        status)."""
        mem = self.globals[name]
        p = Ptr(mem, Const(OFF_W, 0))
        flag = self._emit("load", [p.off], 32, mem=mem, size=4)
        self.accesses.append(_Access(flag, p, 4, self._fn))
        c = self._emit("icmp", [flag, Const(32, 0)], 1, pred="ne")
        head = self._cur
        stop, cont = self._new_block("stop"), self._new_block("go_on")
        self._branch([c], [stop, cont])
        self._cur = stop
        w = self._fn.return_width
        ret = Const(w, 0) if w else None
        if name == EXIT_GLOBAL and self._llname == "main" and w:
            p = Ptr(mem, Const(OFF_W, 4))
            st = self._emit("load", [p.off], 32, mem=mem, size=4)
            self.accesses.append(_Access(st, p, 4, self._fn))
            ret = self._fit(st, w)
        self._emit("ret", [ret] if w else [], 0)
        self._cur = cont
        self._note_split(head, cont)
        which = "_may_exit" if name == EXIT_GLOBAL else "_may_abort"
        self.__dict__.setdefault(which, set()).add(self._fn.name)

    def _abort(self, what: str) -> None:
        """End the call with a failure: write the site number (1, 2, ...) into the abort
        flag memory (a writable global the co-simulation reads) and return."""
        mem = self._flag_mem(ABORT_GLOBAL, 4)
        sites = self.__dict__.setdefault("abort_sites", {})
        k = len(sites) + 1
        loc = self._loc
        sites[k] = f"{loc.file}:{loc.line}: {what}" if loc and loc.line else what
        p = Ptr(mem, Const(OFF_W, 0))
        op = self._emit("store", [p.off, Const(32, k)], 0, mem=mem, size=4)
        self.accesses.append(_Access(op, p, 4, self._fn))
        w = self._fn.return_width
        self._emit("ret", [Const(w, 0)] if w else [], 0)
        self.__dict__.setdefault("_may_abort", set()).add(self._fn.name)

    # ------------------------------------------------------------------ memset/memcpy/memmove
    def _mem_intrinsic(self, base, ins, text, args) -> None:
        """Constant lengths up to ``_UNROLL_MEM_BYTES``: straight-line accesses (a memmove
        within one memory: all loads before all stores, up to ``_UNROLL_MEMMOVE_BYTES``).
        Otherwise a loop of element accesses (the element: the largest power of two up to
        8 bytes that divides the length, as far as it is known, and the alignment); a
        memmove within one memory copies upwards when the destination is below the source
        and downwards otherwise, so overlapping ranges are right."""
        n = self._val(args[2])
        if not isinstance(n, Const) and not isinstance(n, Value):
            raise self.unsupported(f"{base} with a pointer length", text, self._llname)
        dst = self._ptr(args[0])
        src = self._ptr(args[1]) if base != "memset" else None
        aligns = [int(a) for a in re.findall(r"align (\d+)", text)] or [1]
        same = src is not None and src.mem is dst.mem
        limit = _UNROLL_MEMMOVE_BYTES if base == "memmove" and same else _UNROLL_MEM_BYTES
        if isinstance(n, Const):
            nres, nbits = n.value, OFF_W
        else:
            n = self._to_len(n)
            nres, nbits = _Residues().get(n)
        chunk = 8
        while chunk > 1 and (chunk > min(aligns) or nbits < chunk.bit_length() - 1
                             or nres % chunk):
            chunk //= 2
        word = None
        if base == "memset":
            byte = self._int(args[1])
            if byte.width != 8:
                byte = self._fit(byte, 8)
            if isinstance(byte, Const):
                word = Const(8 * chunk, int.from_bytes(bytes([byte.value]) * chunk, "little"))
            else:
                word = byte if chunk == 1 else self._emit("concat", [byte] * chunk, 8 * chunk)
        if isinstance(n, Const) and n.value <= limit:
            self._mem_unrolled(dst, src, word, n.value, chunk)
            return
        if isinstance(n, Const):
            n = Const(OFF_W, n.value)
        head = self._cur
        join = self._new_block("mem_done")
        if not isinstance(n, Const):  # nothing to do for a zero length
            z = self._emit("icmp", [n, Const(OFF_W, 0)], 1, pred="eq")
            body = self._new_block("mem_go")
            self._branch([z], [join, body])
            self._cur = body
        if base == "memmove" and same and isinstance(dst.off, Const) and isinstance(src.off, Const):
            self._mem_loop(dst, src, None, n, chunk, join, down=dst.off.value > src.off.value)
        elif base == "memmove" and same:
            up, down = self._new_block("move_up"), self._new_block("move_down")
            c = self._emit("icmp", [dst.off, src.off], 1, pred="ule")
            self._branch([c], [up, down])
            self._cur = up
            self._mem_loop(dst, src, None, n, chunk, join, down=False)
            self._cur = down
            self._mem_loop(dst, src, None, n, chunk, join, down=True)
        else:
            if base == "memmove" and src.mem.kind == dst.mem.kind == "arg":
                self.__dict__.setdefault("_memmoves", []).append(
                    (src.mem, dst.mem, text, self._llname, self._loc))
            self._mem_loop(dst, src, word, n, chunk, join, down=False)
        self._cur = join
        self._note_split(head, join)

    def _check_memmoves(self) -> None:
        """A memmove between two pointer arguments of a called function copies upwards,
        as if they did not overlap: reject it where a call binds both to one memory."""
        pairs = self.__dict__.get("_memmoves", [])
        if not pairs:
            return
        edges: dict[MemoryObject, list[MemoryObject]] = {}
        for _, binds in self.call_binds:
            for param, ptr in binds:
                edges.setdefault(param.mem, []).append(ptr.mem)

        def roots(m, seen=()):
            if m in seen or m not in edges:
                return {m}
            return set().union(*(roots(x, seen + (m,)) for x in edges[m]))

        for src, dst, text, fn, loc in pairs:
            common = roots(src) & roots(dst)
            if common:
                self._loc = loc
                raise self.unsupported(
                    f"memmove between pointer arguments '{src.name}' and '{dst.name}' that a "
                    f"call binds to the same memory ('{sorted(m.name for m in common)[0]}'; "
                    f"they may overlap)", text, fn)

    def _to_len(self, n: Value) -> Value:
        """A length (size_t) as an unsigned OFF_W-bit value."""
        if n.width == OFF_W:
            return n
        return self._emit("trunc" if n.width > OFF_W else "zext", [n], OFF_W)

    def _mem_unrolled(self, dst: Ptr, src: Ptr | None, word, n: int, chunk: int) -> None:
        offs = range(0, n, chunk)
        if src is None:
            for off in offs:
                p = Ptr(dst.mem, self._add(dst.off, Const(OFF_W, off)))
                op = self._emit("store", [p.off, word], 0, mem=p.mem, size=chunk)
                self.accesses.append(_Access(op, p, chunk, self._fn))
            return
        loads = []
        for off in offs:
            p = Ptr(src.mem, self._add(src.off, Const(OFF_W, off)))
            op = self._emit("load", [p.off], 8 * chunk, mem=p.mem, size=chunk)
            self.accesses.append(_Access(op, p, chunk, self._fn))
            loads.append(op)
        for off, ld in zip(offs, loads):
            p = Ptr(dst.mem, self._add(dst.off, Const(OFF_W, off)))
            op = self._emit("store", [p.off, ld], 0, mem=p.mem, size=chunk)
            self.accesses.append(_Access(op, p, chunk, self._fn))

    def _mem_tagged(self, base, text, args) -> None:
        """memset/memcpy/memmove of a constant length through a tagged pointer (a struct
        copied through a pointer loaded from memory, say): every chunk steered."""
        n = self._val(args[2])
        if not isinstance(n, Const) or n.value > 4096:
            raise self.unsupported(f"{base} through a pointer whose memory is decided at run time, "
                                   "of a length that is not a constant of at most 4096 bytes",
                                   text, self._llname)
        aligns = [int(a) for a in re.findall(r"align (\d+)", text)] or [1]
        chunk = 8
        while chunk > 1 and (n.value % chunk or chunk > min(aligns)):
            chunk //= 2

        def at(p: Ptr, off: int) -> Ptr:
            return Ptr(p.mem, self._add(p.off, Const(OFF_W, off)), p.tag, p.mems)

        dst = self._ptr(args[0])
        if base == "memset":
            byte = self._int(args[1])
            if isinstance(byte, Const):
                word = Const(8 * chunk, int.from_bytes(bytes([byte.value]) * chunk, "little"))
            else:
                word = byte if chunk == 1 else self._emit("concat", [byte] * chunk, 8 * chunk)
            for off in range(0, n.value, chunk):
                self._store(at(dst, off), word, chunk, 0, chunk)
            return
        src = self._ptr(args[1])
        if base == "memmove" and set(src.targets) & set(dst.targets):
            raise self.unsupported("memmove within one memory", text, self._llname)
        loads = [self._load(at(src, off), chunk, 0, chunk) for off in range(0, n.value, chunk)]
        for off, ld in zip(range(0, n.value, chunk), loads):
            self._store(at(dst, off), ld, chunk, 0, chunk)

    def _mem_loop(self, dst: Ptr, src: Ptr | None, word, n: Value, chunk: int, exit_: Block,
                  down: bool) -> None:
        """One single-block loop from the current block over ``n`` bytes (n > 0) in
        ``chunk``-byte elements: stores of ``word`` (memset) or copies from ``src``,
        upwards from offset 0 or downwards from n - chunk; then on to ``exit_``."""
        pre = self._cur
        loop = self._new_block("mem_down" if down else "mem_loop")
        self._branch([], [loop])
        self._cur = loop
        i = self._emit("phi", [], OFF_W)
        step = Const(OFF_W, -chunk if down else chunk)
        nxt = self._emit("add", [i, step], OFF_W)
        if down:  # i: bytes left; the element at i - chunk
            i.incoming = [(pre, n), (loop, nxt)]
            at = nxt
        else:
            i.incoming = [(pre, Const(OFF_W, 0)), (loop, nxt)]
            at = i
        if src is not None:
            p = Ptr(src.mem, self._add(src.off, at))
            word = self._emit("load", [p.off], 8 * chunk, mem=p.mem, size=chunk)
            self.accesses.append(_Access(word, p, chunk, self._fn))
        p = Ptr(dst.mem, self._add(dst.off, at))
        op = self._emit("store", [p.off, word], 0, mem=p.mem, size=chunk)
        self.accesses.append(_Access(op, p, chunk, self._fn))
        if down:
            c = self._emit("icmp", [nxt, Const(OFF_W, 0)], 1, pred="ne")
        else:
            c = self._emit("icmp", [nxt, n], 1, pred="ult")
        self._branch([c], [loop, exit_])

    def _branch(self, cond: list[Value], targets: list[Block]) -> None:
        op = self._emit("condbr" if cond else "br", cond, 0)
        op.targets = targets

    def _new_block(self, tag: str) -> Block:
        """A block of the function being translated, after its LLVM blocks (so a branch
        by LLVM name finds the LLVM block first)."""
        k = self.__dict__.setdefault("_nsplit", [0])
        k[0] += 1
        h = self.__dict__.get("_split_head", {}).get(self._cur, self._cur)
        b = Block(name=f"{h.name}_{tag}{k[0]}", function=self._fn)
        self._fn.blocks.append(b)
        return b

    def _note_split(self, head: Block, tail: Block) -> None:
        """The LLVM block that began in ``head`` now ends in ``tail``: its successors'
        phis name ``tail`` as their predecessor (``_retarget_split_phis``)."""
        heads = self.__dict__.setdefault("_split_head", {})
        ends = self.__dict__.setdefault("_split_end", {})
        h = heads.get(head, head)
        ends[h] = tail
        heads[tail] = h

    def _retarget_split_phis(self) -> None:
        ends = getattr(self, "_split_end", None)
        if not ends:
            return
        for op, _ in self._phis:
            op.incoming = [(ends.get(b, b), v) for b, v in op.incoming]

    # ------------------------------------------------------------------ globals in callees
    def _thread_globals(self, top: Function) -> None:
        """Writable globals used below the top become implicit pointer parameters of every
        function on the way, bound by each caller to its own view of the global; the top
        sees the global itself (an external memory).  Read-only globals stay ROMs, one
        copy per function that reads them."""
        direct: dict[Function, list[MemoryObject]] = {f: [] for f in self.functions.values()}
        for acc in self.accesses:
            m = acc.ptr.mem
            if m.kind == "global" and not m.readonly and m not in direct[acc.func]:
                direct[acc.func].append(m)
        for op, binds in self.call_binds:
            f = op.block.function
            for _, ptr in binds:
                m = ptr.mem
                if m.kind == "global" and not m.readonly and m not in direct[f]:
                    direct[f].append(m)
        used: dict[Function, list[MemoryObject]] = {}

        def closure(f: Function) -> list[MemoryObject]:
            if f not in used:
                used[f] = []
                out = list(direct[f])
                for c in f.callees():
                    for m in closure(c):
                        if m not in out:
                            out.append(m)
                used[f] = out
            return used[f]

        closure(top)
        view: dict[tuple[Function, MemoryObject], MemoryObject] = {}
        for f in self.functions.values():
            for g in closure(f):
                if f is top:
                    view[(f, g)] = g
                    continue
                mem = MemoryObject(name=f"g_{g.name}", kind="arg", elem_bytes=g.elem_bytes,
                                   loc=f.loc)
                f.params.append(PtrParam(index=-1, name=f"g_{g.name}", mem=mem))
                view[(f, g)] = mem
        for acc in self.accesses:
            m = acc.ptr.mem
            if (acc.func, m) in view:
                acc.ptr = Ptr(view[(acc.func, m)], acc.ptr.off)
        new_binds = []
        for op, binds in self.call_binds:
            f = op.block.function
            callee = op.attrs["callee"]
            out = [(p, Ptr(view.get((f, ptr.mem), ptr.mem), ptr.off)) for p, ptr in binds]
            for g in closure(callee):
                p = next(pp for pp in callee.ptr_params if pp.mem is view[(callee, g)])
                out.append((p, Ptr(view[(f, g)], Const(OFF_W, 0))))
            new_binds.append((op, out))
        self.call_binds = new_binds

    # ------------------------------------------------------------------ memories
    def _finish_memories(self) -> None:
        """Choose word sizes, depths, and rewrite byte offsets into word addresses."""
        # union memories bound together through calls
        parent: dict[MemoryObject, MemoryObject] = {}

        def find(m):
            while parent.get(m, m) is not m:
                m = parent.get(m, m)
            return m

        for op, binds in self.call_binds:
            for p, ptr in binds:
                a, b = find(p.mem), find(ptr.mem)
                if a is not b:
                    parent[a] = b
        groups: dict[MemoryObject, list[MemoryObject]] = {}
        allmems = set()
        for acc in self.accesses:
            allmems.add(acc.ptr.mem)
        for f in self.functions.values():
            allmems.update(p.mem for p in f.ptr_params)
            allmems.update(f.memories)
        allmems.update(self.globals.values())
        for m in allmems:
            groups.setdefault(find(m), []).append(m)
        res = _Residues()
        by_group: dict[MemoryObject, list[_Access]] = {}
        for acc in self.accesses:
            by_group.setdefault(find(acc.ptr.mem), []).append(acc)
        bind_offs: dict[MemoryObject, list[Value]] = {}
        for op, binds in self.call_binds:
            for p, ptr in binds:
                bind_offs.setdefault(find(p.mem), []).append(ptr.off)
        for root, members in groups.items():
            accs = by_group.get(root, [])
            w = _choose_word_bytes(accs, bind_offs.get(root, []), res)
            for m in members:
                m.word_bytes = w
            for m in members:
                self._size_memory(m, w)
            sized = [m.depth_words for m in members if m.depth_words]
            for m in members:
                if m.kind == "arg" and m not in self._top_mems:
                    m.depth_words = max(sized, default=0)
                if m.depth_words == 0:
                    self._infer_depth(m, accs, res)
            fl = {a.float_bits for a in accs}
            if len(fl) == 1 and fl != {0}:
                fbits = next(iter(fl))
                for m in members:
                    m.float_bits = fbits
            reads = any(a.op.kind == "load" for a in accs)
            writes = any(a.op.kind == "store" for a in accs)
            for m in members:
                if m.kind == "arg":
                    m.readonly = not writes
                    m.writeonly = writes and not reads
        for acc in self.accesses:
            _lower_access(acc, res)
        for op, binds in self.call_binds:
            out = []
            for p, ptr in binds:
                w = p.mem.word_bytes
                sh = w.bit_length() - 1
                wa = _slice_before(op, ptr.off, sh, OFF_W - sh)
                out.append((p, ptr.mem))
                op.operands.append(wa)  # word offsets follow the scalar arguments
            op.attrs["ptr_args"] = out

    def _infer_depth(self, m: MemoryObject, accs: list[_Access], res: "_Residues") -> None:
        """An argument without --depth: only constant offsets give a provable extent."""
        offs = [a.ptr.off for a in accs]
        if accs and all(isinstance(o, Const) for o in offs):
            end = max(a.ptr.off.value + a.size for a in accs)
            m.depth_words = max(1, -(-end // m.word_bytes))
            return
        if not accs:
            m.depth_words = 1
            return
        loc = m.loc or Loc(self.path, None)
        raise FrontendError(
            f"the extent of pointer argument '{m.name}' is unknown: give it with "
            f"--depth {m.name}=N (N elements of {m.elem_bytes or m.word_bytes} bytes)",
            loc.file, loc.line)

    def _size_memory(self, m: MemoryObject, w: int) -> None:
        if m.kind in ("global", "local"):
            size = max(len(m.init or b""), 1)
            m.depth_words = max(1, -(-size // w))
            m.init = (m.init or b"").ljust(m.depth_words * w, b"\0")
            return
        depths = self.opts.get("depth", {})
        d = None
        if m in self._top_mems:
            d = depths.get(m.name, depths.get(str(m.arg_index)))
        if d is None:
            m.depth_words = 0  # filled in from the callers' bindings or reported later
            return
        eb = m.elem_bytes or w
        m.depth_words = max(1, -(-(int(d) * eb) // w))


def _pointer_differences(fn) -> set[int]:
    """ptrtoints whose every use is a ``sub`` of two ptrtoints (C's ``p - q``)."""
    p2i = {key(i) for bb in fn.blocks for i in bb.instructions if i.opcode == "ptrtoint"}
    consts: set[int] = set()
    bad: set[int] = set()
    for bb in fn.blocks:
        for i in bb.instructions:
            ops = list(i.operands)
            const = {key(o) for o in ops if o.is_constant and " ptrtoint (ptr " in str(o)}
            if i.opcode == "sub" and all(key(o) in p2i or key(o) in const for o in ops):
                consts |= const
                continue
            bad.update(key(o) for o in ops if key(o) in p2i)
    return (p2i - bad) | consts


def _source_says(loc: Loc, word: str) -> bool:
    """Does the source line at ``loc`` contain ``word``?"""
    try:
        with open(loc.file, errors="replace") as f:
            for i, line in enumerate(f, 1):
                if i == loc.line:
                    return word in line
    except (OSError, TypeError):
        pass
    return False


def _c_string(tr: "Translator", v) -> str | None:
    """The text of a constant C string argument (a global ``c"...\\00"``), if any."""
    try:
        if _vk(v) == "global_variable":
            gv = tr._gvars[v.name]
        else:  # a constant getelementptr into one
            gv = tr._gvars[re.search(r"ptr @([-\w.$]+)", str(v)).group(1)]
        c = re.search(r'c"((?:[^"\\]|\\[0-9A-Fa-f]{2})*)"', str(gv))
        raw = re.sub(r"\\([0-9A-Fa-f]{2})", lambda x: chr(int(x.group(1), 16)), c.group(1))
        return raw.split("\0")[0]
    except Exception:  # noqa: BLE001 - only a nicer message
        return None


def _rpo(llblocks: list) -> list:
    """Blocks in reverse post-order, so every definition is translated before its uses
    (LLVM's textual block order need not follow dominance)."""
    by_name = {bb.name: bb for bb in llblocks}
    succ = {}
    for bb in llblocks:
        term = list(bb.instructions)[-1]
        names = re.findall(r"label %([-\w.$]+|\"[^\"]+\")", str(term))
        succ[key(bb)] = [by_name[n.strip('"')] for n in names if n.strip('"') in by_name]
    seen, post = set(), []
    stack = [(llblocks[0], iter(succ[key(llblocks[0])]))]
    seen.add(key(llblocks[0]))
    while stack:
        node, it = stack[-1]
        for nxt in it:
            if key(nxt) not in seen:
                seen.add(key(nxt))
                stack.append((nxt, iter(succ[key(nxt)])))
                break
        else:
            post.append(node)
            stack.pop()
    order = post[::-1]
    order += [bb for bb in llblocks if key(bb) not in seen]
    return order


def _leaves(t):
    if isinstance(t, (ArrayT, VectorT)):
        yield from _leaves(t.elem)
    elif isinstance(t, StructT):
        for f in t.fields:
            yield from _leaves(f)
    else:
        yield t


def _ptr_offsets(t, base: int = 0) -> list[int]:
    """Byte offsets of the pointers inside a value of type ``t``."""
    if isinstance(t, PtrT):
        return [base]
    if isinstance(t, ArrayT):
        inner = _ptr_offsets(t.elem)
        n = sizeof(t.elem)
        return [base + i * n + o for i in range(t.n)
                for o in inner] if inner else []
    if isinstance(t, StructT):
        return [o for f, fo in zip(t.fields, field_offsets(t)) for o in _ptr_offsets(f, base + fo)]
    return []


def _const_gep_offset(src, idx: list[int]) -> int:
    off = idx[0] * sizeof(src) if idx else 0
    t = src
    for i in idx[1:]:
        if isinstance(t, StructT):
            off += field_offsets(t)[i]
            t = t.fields[i]
        else:
            t = t.elem
            off += i * sizeof(t)
    return off


def sanitize_name(name: str) -> str:
    """An LLVM value or block name as pyhls names it in the CDFG (and the RTL)."""
    s = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if not s or s[0].isdigit():
        s = "v" + s
    return s


class _Residues:
    """Known low bits of byte offsets: ``v ≡ r (mod 2**k)``; phis by fixpoint."""

    def __init__(self):
        self.memo: dict[Value, tuple[int, int]] = {}

    def get(self, v: Value) -> tuple[int, int]:
        if isinstance(v, Const):
            return v.value, OFF_W
        if v in self.memo:
            return self.memo[v]
        if isinstance(v, Op) and v.kind == "phi":
            # optimistic fixpoint over the phi's incoming values
            self.memo[v] = (0, OFF_W + 1)  # top
            for _ in range(8):
                cur = self.memo[v]
                acc = None
                for _, x in v.incoming:
                    rx = self.get(x)
                    acc = rx if acc is None else _meet(acc, rx)
                acc = acc or (0, 0)
                if acc == cur:
                    break
                self.memo[v] = acc
                self._invalidate(v)
            else:
                self.memo[v] = (0, 0)
            r = self.memo[v]
            if r[1] > OFF_W:
                self.memo[v] = r = (0, OFF_W)
            return r
        r = self._compute(v)
        self.memo[v] = r
        return r

    def _invalidate(self, phi: Value) -> None:
        for k in [k for k in self.memo if k is not phi and not (isinstance(k, Op) and k.kind == "phi")]:
            del self.memo[k]

    def _compute(self, v: Value) -> tuple[int, int]:
        if not isinstance(v, Op):
            return 0, 0
        k = v.kind
        if k in ("add", "sub"):
            (ra, ka), (rb, kb) = self.get(v.operands[0]), self.get(v.operands[1])
            n = min(ka, kb)
            r = (ra + rb) if k == "add" else (ra - rb)
            return r % (1 << n) if n else 0, n
        if k == "mul" and isinstance(v.operands[1], Const):
            ra, ka = self.get(v.operands[0])
            c = v.operands[1].value
            tz = (c & -c).bit_length() - 1 if c else OFF_W
            n = min(OFF_W, ka + tz)
            return (ra * c) % (1 << n), n
        if k == "shl" and isinstance(v.operands[1], Const):
            ra, ka = self.get(v.operands[0])
            s = v.operands[1].value
            n = min(OFF_W, ka + s)
            return (ra << s) % (1 << n), n
        if k == "select":
            return _meet(self.get(v.operands[1]), self.get(v.operands[2]))
        if k in ("sext", "zext", "trunc"):
            ra, ka = self.get(v.operands[0])
            n = min(ka, v.operands[0].width, v.width)
            return ra % (1 << n) if n else 0, n
        return 0, 0


def _meet(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    n = min(a[1], b[1])
    while n > 0 and (a[0] - b[0]) % (1 << n):
        n -= 1
    return a[0] % (1 << n) if n else 0, n


def _align(text: str) -> int:
    m = re.search(r", align (\d+)", text)
    return int(m.group(1)) if m else 0


def _known(acc: _Access, res: _Residues) -> tuple[int, int]:
    """Known low bits of an access's byte offset; a tagged pointer's access (an offset
    loaded from memory, say) may also rely on the alignment LLVM states for it."""
    r, k = res.get(acc.ptr.off)
    a = (acc.align & -acc.align).bit_length() - 1 if acc.align else 0
    if a > k:
        return 0, a
    return r, k


def _choose_word_bytes(accs: list[_Access], bind_offs: list[Value], res: _Residues) -> int:
    if not accs:
        return 1
    top = max(a.size for a in accs)
    w = 1 << (top - 1).bit_length()
    w = min(w, 16)
    while w > 1:
        lg = w.bit_length() - 1
        ok = True
        for a in accs:
            r, k = _known(a, res)
            if k < lg:
                ok = False
                break
            lane = r % w
            if a.size <= w:
                if lane + a.size > w:
                    ok = False
                    break
            elif a.size % w or lane:
                ok = False
                break
        for off in bind_offs:
            r, k = res.get(off)
            if k < lg or r % w:
                ok = False
        if ok:
            return w
        w //= 2
    return 1


def _slice_before(anchor: Op, v: Value, lo: int, width: int) -> Value:
    if isinstance(v, Const):
        return Const(width, v.value >> lo)
    op = Op(width=width, kind="slice", operands=[v], attrs={"lo": lo}, loc=anchor.loc)
    b = anchor.block
    op.block = b
    b.ops.insert(b.ops.index(anchor), op)
    return op


def _lower_access(acc: _Access, res: _Residues) -> None:
    op, mem = acc.op, acc.ptr.mem
    w = mem.word_bytes
    lg = w.bit_length() - 1
    r, _ = _known(acc, res)
    lane = r % w
    aw = OFF_W - lg
    base = _slice_before(op, acc.ptr.off, lg, aw)
    op.attrs["mem"] = mem
    if acc.size <= w:
        op.operands[0] = base
        op.attrs["lane"] = lane
        return
    # split into word accesses: word i at base + i
    n = acc.size // w
    guard = [op.operands[op.attrs["guard"]]] if "guard" in op.attrs else []
    b = op.block
    parts: list[Value] = []
    idx = b.ops.index(op)
    new_ops: list[Op] = []
    for i in range(n):
        addr: Value
        if isinstance(base, Const):
            addr = Const(aw, base.value + i)
        elif i == 0:
            addr = base
        else:
            addr = Op(width=aw, kind="add", operands=[base, Const(aw, i)], loc=op.loc)
            new_ops.append(addr)
        if op.kind == "load":
            ld = Op(width=8 * w, kind="load", operands=[addr] + guard, loc=op.loc,
                    attrs={"mem": mem, "lane": 0, "size": w, **({"guard": 1} if guard else {})})
            new_ops.append(ld)
            parts.append(ld)
        else:
            piece = Op(width=8 * w, kind="slice", operands=[op.operands[1]], loc=op.loc,
                       attrs={"lo": 8 * w * i})
            st = Op(width=0, kind="store", operands=[addr, piece] + guard, loc=op.loc,
                    attrs={"mem": mem, "lane": 0, "size": w, **({"guard": 2} if guard else {})})
            new_ops += [piece, st]
    for o in new_ops:
        o.block = b
    if op.kind == "load":
        b.ops[idx:idx] = new_ops
        op.kind = "concat"
        op.operands = parts
        op.attrs = {}
    else:
        b.ops[idx:idx + 1] = new_ops
