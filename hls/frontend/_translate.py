"""Translation of canonicalised LLVM IR (llvmlite binding objects) into the hls CDFG.

Pointers never reach the CDFG: every pointer value is resolved to a ``MemoryObject``
plus a 32-bit byte offset computed by ordinary integer ops (GEP arithmetic is modular, so
32 bits are exact for any memory below 4 GiB).  Every load and store is recorded as a
byte-addressed :class:`._access.Access`; after all functions are translated, the memory
lowering shared by all frontends (:mod:`._memories`) threads globals through the call tree,
gives each memory a word size, and turns byte offsets into word addresses (a free bit
slice) with a static byte lane inside the word.  Legality checks on the LLVM IR as the user
wrote it are in :mod:`._legality`; library calls are lowered by :mod:`._libcalls`.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from ..errors import FrontendError, UnsupportedError
from ..fpu import BINARY32, BINARY64, FPFormat, ref
from ..toolchain import include_dir
from ..names import hardware_names, is_mangled, short_name, verilog_name
from dataclasses import dataclass

from ..ir import Block, Const, Function, Loc, MemoryObject, Module, Op, Param, PtrParam, Value
from ._access import OFF_W, TAG_W, Access, Ptr
from ._common import ABORT_GLOBAL, EXIT_GLOBAL, LIBC_CALLS, key, pointer_differences, value_kind
from ._debuginfo import DebugInfo, define_header
from ._legality import Legality
from ._libcalls import LibraryCalls
from ._memories import align_of, check_depths, lower_memories, thread_globals
from ._types import (
    ArrayT, FloatT, IntT, PtrT, StructT, TypeParser, VectorT, element_layout, field_offsets, sizeof,
    store_size, tokenize,
)


_BINOPS = {"add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr",
           "and", "or", "xor"}
_FLOAT_OPS = {"fadd", "fsub", "fmul", "fdiv", "frem", "fneg", "fcmp", "fptosi", "fptoui",
              "sitofp", "uitofp", "fpext", "fptrunc"}
_INTRINSIC_OPS = {
    "smax": "smax", "smin": "smin", "umax": "umax", "umin": "umin", "abs": "abs",
    "scmp": "scmp", "ucmp": "ucmp",
    "fshl": "fshl", "fshr": "fshr", "bitreverse": "bitreverse", "ctpop": "ctpop",
    "ctlz": "ctlz", "cttz": "cttz", "bswap": "bswap", "sadd.sat": "sadd_sat",
    "ssub.sat": "ssub_sat", "uadd.sat": "uadd_sat", "usub.sat": "usub_sat",
}
_IGNORED_INTRINSICS = ("lifetime.", "assume", "dbg.", "experimental.noalias.scope.decl",
                       "donothing", "sideeffect", "pseudoprobe", "var.annotation",
                       "invariant.start", "invariant.end")


_FLOAT_FORMATS = {32: BINARY32, 64: BINARY64}


def _scalar(t) -> bool:
    """An LLVM scalar the datapath carries as plain bits: an integer, float or double."""
    return isinstance(t, IntT) or (isinstance(t, FloatT) and t.bits in _FLOAT_FORMATS)


def _fmt(t) -> FPFormat:
    return _FLOAT_FORMATS[t.bits]


_FMF = r"(?:(?:nnan|ninf|nsz|arcp|contract|afn|reassoc|fast) )*"


def _strip_instr(s: str) -> str:
    return s.strip()


class AddressTakenGrew(Exception):
    """Translation saw pointers stored to memory into more memories than the points-to
    set it assumed for pointers loaded from memory: translate again with ``keys``."""

    def __init__(self, keys: tuple):
        super().__init__("address-taken set grew")
        self.keys = keys


def _is_global_ref(v) -> bool:
    """A global variable used as an operand (``is_global`` is false for those)."""
    return bool(v.is_global) or value_kind(v) == "global_variable"


class Translator(Legality, LibraryCalls):
    """One LLVM module into a :class:`hls.ir.Module`: values, pointers (tagged where the
    memory is decided at run time), control flow, calls and intrinsics.  Legality checks
    (:class:`._legality.Legality`) and library calls (:class:`._libcalls.LibraryCalls`) are
    mixins on the same state; the memory lowering after translation is
    :mod:`._memories`, shared by any frontend."""

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
        for m in re.finditer(r'^(%"(?:[^"\\]|\\.)*"|%[-\w.$]+) = type (.*)$', text, re.M):
            named[m.group(1)] = m.group(2)
        self.tp = TypeParser(named)
        self.tp.ptr_const = self._init_ptr
        self._gvars = {g.name: g for g in llmod.global_variables}
        self.functions: dict[str, Function] = {}
        self.globals: dict[str, MemoryObject] = {}
        self.accesses: list[Access] = []
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
        f0 = self.dbg.file_of(instr_text) if line is not None else None
        if f0 is not None and not self._is_input(f0):
            # in a header: the user's own is shown; in pyhls's (ap_int.h) or the system's,
            # the line of the user's code that used it
            f, ln = self.dbg.user_location(instr_text, self._users_file)
            if ln is not None:
                return Loc(self._input_path(f) or _shown_path(f), ln)
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
            return Loc(self._input_of(define_header(d)), line)
        return Loc(self._input_of(instr_text), line)

    def _hw_name(self, fn: str) -> str:
        """A function's name in the names of what it owns (its local memories): a C++
        function's Verilog-safe C++ name (``dsp_smooth``), not its mangled symbol."""
        if "_hw_names" not in self.__dict__:
            self._hw_names = hardware_names(f.name for f in self.llmod.functions
                                            if not f.is_declaration)
        return self._hw_names.get(fn, fn)

    def _inputs(self) -> tuple:
        return tuple(self.opts.get("paths") or (self.path,))

    def _users_file(self, f: str) -> bool:
        """Whether the source file ``f`` (a debug-info path) is the user's: an input, or
        a header beside an input or under the working directory, but not pyhls's own."""
        memo = self.__dict__.setdefault("_users_files", {})
        if f not in memo:
            memo[f] = self._users_file_uncached(f)
        return memo[f]

    def _users_file_uncached(self, f: str) -> bool:
        if self._is_input(f):
            return True
        p = Path(f).resolve()
        if p.is_relative_to(include_dir().resolve()):
            return False
        dirs = [Path(i).resolve().parent for i in self._inputs()] + [Path.cwd().resolve()]
        return any(p.is_relative_to(d) for d in dirs)

    def _is_input(self, f: str) -> bool:
        return self._input_path(f) is not None

    def _input_path(self, f: str) -> str | None:
        """The input file that the debug-info file name ``f`` is, or None."""
        memo = self.__dict__.setdefault("_input_paths", {})
        if f not in memo:
            memo[f] = self._input_path_uncached(f)
        return memo[f]

    def _input_path_uncached(self, f: str) -> str | None:
        for p in self._inputs():
            if p == f or Path(p).resolve() == Path(f).resolve():
                return p
        names = [p for p in self._inputs() if Path(p).name == Path(f).name]
        return names[0] if len(names) == 1 and not Path(f).is_absolute() else None

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
        module text; the function's lines in the module text (:attr:`text`) number them as
        the module does.  (Printing is also slow: llvmlite's ``str`` of an instruction or a
        function numbers the whole module each time, hours for the thousands of
        functions and instructions of an ap_fixed kernel, so the module text is split
        once and an instruction printed only when its function's text is not understood.)"""
        cache = self.__dict__.setdefault("_ins_texts", {})
        k = key(ins)
        if k in cache:
            return cache[k]
        fn = ins.function
        body = self._function_lines().get(fn.name)
        if body is None:
            body = str(fn).split("\n")
            body = body[next((i + 1 for i, l in enumerate(body) if l.startswith("define ")),
                             len(body)):]
        lines = [l for l in body if l.strip() and not l.startswith("}")
                 and not l.lstrip().startswith((";", "#dbg_"))
                 and not re.match(r'^([-\w.$]+|"[^"]+"):', l)]
        # each instruction is one line, but for the continuation lines (more indented, or
        # a switch's closing "]") of a switch, an invoke or a landingpad: matched in order
        # when the counts and every opcode agree
        groups: list[list[str]] = []
        for l in lines:
            if (l.startswith("    ") or l.lstrip().startswith("]")) and groups:
                groups[-1].append(l)
            else:
                groups.append([l])
        insts = [other for bb in fn.blocks for other in bb.instructions]
        if len(groups) == len(insts) and all(
                re.search(rf"(^|[\s=]){o.opcode}\b", g[0].lstrip()) for o, g in zip(insts, groups)):
            cache.update({key(o): "\n".join(g) for o, g in zip(insts, groups)})
            return cache[k]
        # not understood: compare with each instruction's own printing
        text = str(ins)
        pos, found, own = 0, {}, {}
        for other in insts:
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

    def _function_lines(self) -> dict[str, list[str]]:
        """Function name -> the lines of its body in the module text (after ``define``)."""
        out = self.__dict__.get("_fn_lines")
        if out is None:
            out, cur = {}, None
            for line in self.text.split("\n"):
                if line.startswith("define "):
                    m = re.match(r'define .*?@([-\w.$]+|"[^"]+")\(', line)
                    cur = m.group(1).strip('"') if m else None
                    if cur is not None:
                        out[cur] = []
                elif cur is not None:
                    if line.startswith("}"):
                        cur = None
                    else:
                        out[cur].append(line)
            self._fn_lines = out
        return out

    # ------------------------------------------------------------------ entry
    def translate(self, top: str) -> Module:
        fn = self._find_function(top)
        self._top_mems = set()
        self._top_name = top
        self._ret_pieces_of: dict[str, list[int]] = {}
        topf = self._function(fn, is_top=True)
        if self.opts.get("check_depth") is not None:
            check_depths(topf, self.opts["check_depth"], self.path)
        if self._seed_used and any(k not in self.addr_taken_seed for k in self.addr_taken):
            raise AddressTakenGrew(self.addr_taken_seed
                                   + tuple(k for k in self.addr_taken
                                           if k not in self.addr_taken_seed))
        if self._deferred:
            raise self._deferred[0]
        funcs = list(self.functions.values())
        globs = list(self.globals.values())
        self.call_binds = thread_globals(topf, funcs, self.accesses, self.call_binds)
        self._check_memmoves()
        lower_memories(funcs, globs, self.accesses, self.call_binds, self._top_mems,
                       self.opts.get("depth", {}), self.path)
        mod = Module(top=topf, functions=funcs, globals=globs,
                     source=self.path)
        for k, tag in self._tags.items():
            if k[0] == "g" and k[1] in self._gvars:
                t = self.tp.type_of(str(self._gvars[k[1]].global_value_type))
                mod.ptr_tags[k[1]] = (tag, sizeof(t))
        for name, slots in self._ptr_slots.items():
            if slots:
                mod.ptr_slots[name] = slots
        return mod

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
        floc = Loc(self._input_of(define_header(define)),
                   self.dbg.subprogram_line(define) or self.line_map.get((name, None)))
        ftype = llfn.global_value_type
        if ftype.is_function_vararg:
            raise UnsupportedError(f"a variadic function is not supported for hardware: @{name}",
                                   floc.file, floc.line)
        func = Function(name=name, loc=floc)
        self.functions[name] = func
        dbg_params = self.dbg.params(define)
        groups = self._abi_groups(llfn, define, dbg_params) if is_top else {}
        c_index: dict[int, int] = {}     # LLVM parameter -> C argument
        c = 0
        for i, _a in enumerate(llfn.arguments):
            if i in groups and groups[i].first != i:
                c_index[i] = c_index[groups[i].first]
                continue
            c_index[i] = c
            c += 1
        if is_top:
            self._check_wide_scalars(name, define, dbg_params, floc)
        ret_t = self.tp.type_of(str(ftype.get_function_return()))  if str(ftype.get_function_return()) != "void" else None
        if ret_t is not None:
            if is_top and _abi_pair(ret_t):      # a struct or wide integer in two pieces
                self._ret_pieces_of[name] = [f.bits for f in ret_t.fields]
                ret_bits = 64 + ret_t.fields[1].bits
            elif not _scalar(ret_t):
                raise self._type_error(ret_t, f"return value of @{name}", define, name)
            else:
                ret_bits = ret_t.bits
            if is_top and ret_bits > 64:
                ret_bits = min(ret_bits, _value_bits(
                    (self.dbg.c_types(define) or (None,))[0], ret_bits))
            func.return_width = ret_bits
            func.return_float = ret_t.bits if isinstance(ret_t, FloatT) else 0
        vals: dict[int, Value | Ptr] = {}
        # the top's integers of up to 128 bits (an ABI piece, a whole unsigned __int128 or
        # ap_uint<128>) are ports; a callee's are not supported in calls
        wide = _wide_int(str(ftype))
        if wide and not (is_top and wide <= MAX_PORT_BITS):
            raise self.too_wide(wide, f"an argument or the return value of {name}", floc)
        self._slices: list[tuple[object, Param, int, int, int, bool]] = []
        for i, arg in enumerate(llfn.arguments):
            t = self.tp.type_of(str(arg.type))
            dname, pointee = dbg_params.get(c_index.get(i, i), (None, None))
            pname = sanitize_name(arg.name or dname or f"arg{i}")
            if i in groups:
                g = groups[i]
                if g.first != i:        # a later piece: a slice of the group's port
                    self._slices.append((key(arg), g.param, *g.piece(i)))
                    continue
                g.param = Param(width=g.width, name=sanitize_name(g.name), index=i)
                func.params.append(g.param)
                if g.whole(i):
                    vals[key(arg)] = g.param
                else:
                    self._slices.append((key(arg), g.param, *g.piece(i)))
                continue
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
        self._p2i_ok |= pointer_differences(llfn)
        #: (phi, LLVM phi, pointer kind: False, True or "tagged", the tag phi of a tagged one)
        self._phis: list[tuple[Op, object, object, Op | None]] = []
        for bb in _rpo(llblocks, self._ins_text):
            self._cur = blocks[key(bb)]
            if self._slices:            # the ABI's pieces of the top's grouped ports
                self._emit_slices()
            for ins in bb.instructions:
                self._instr(ins)
                if self._cur.ops and self._cur.ops[-1].is_terminator:
                    break  # exit()/abort() ended the block; what follows is unreachable
        for op, ins, kind, tag in self._phis:
            self._fill_phi(op, ins, kind, tag)
        self._retarget_split_phis()
        return func

    def _abi_groups(self, llfn, define: str, dbg_params: dict) -> dict[int, "_AbiGroup"]:
        """The top's C arguments that the x86-64 calling convention hands over under
        another name or in pieces (clang names them ``p.coerce`` or ``p.coerce0``,
        ``p.coerce1``, ...: a struct of up to 16 bytes, an ``ap_uint<100>``, a
        ``_BitInt(70)``): LLVM parameter index -> its group, one port each, named after
        the argument and as wide as its C value (a struct: its bytes, padding included,
        the first field at the least significant bits, as Vitis HLS aggregates it)."""
        ctypes_ = self.dbg.c_types(define)
        by_name = {}
        if ctypes_ is not None:
            for j, (t, _ind) in enumerate(ctypes_[1]):
                if j in dbg_params:
                    by_name[dbg_params[j][0]] = t
        args = list(llfn.arguments)
        out: dict[int, _AbiGroup] = {}
        i = 0
        while i < len(args):
            m = _COERCED.match(args[i].name or "")
            if not m or m.group(2) not in ("", "0"):
                i += 1
                continue
            base, idx = m.group(1), [i]
            if m.group(2) == "0":
                while idx[-1] + 1 < len(args) and \
                        args[idx[-1] + 1].name == f"{base}.coerce{len(idx)}":
                    idx.append(idx[-1] + 1)
            i = idx[-1] + 1
            types = [self.tp.type_of(str(args[k].type)) for k in idx]
            if not all(_scalar(t) for t in types):
                continue            # a vector piece: its type error, as before
            bits = [t.bits for t in types]
            total = 64 * (len(idx) - 1) + bits[-1]
            ct = by_name.get(base)
            g = _AbiGroup(base, idx, bits, min(_value_bits(ct, total), total), _signed(ct))
            for k in idx:
                out[k] = g
        return out

    def _emit_slices(self) -> None:
        """Each ABI piece of a grouped port: its bits of the port's C value (extended to
        the pieces' width as the caller extends it)."""
        ext: dict[int, Value] = {}
        for k, param, off, bits, total, signed in self._slices:
            x = ext.get(id(param))
            if x is None:
                x = param
                if param.width < total:
                    x = self._emit("sext" if signed else "zext", [param], total, self._fn.loc)
                ext[id(param)] = x
            if off:
                x = self._emit("lshr", [x, Const(x.width, off)], x.width, self._fn.loc)
            if bits != x.width:
                x = self._emit("trunc", [x], bits, self._fn.loc)
            self._vals[k] = x
        self._slices = []

    def _type_error(self, t, what: str, text: str, fn: str) -> UnsupportedError:
        if isinstance(t, FloatT):
            kind = f"the floating-point type of {what} (only float and double have hardware formats)"
        else:
            kind = ("the vector" if isinstance(t, VectorT) else "the aggregate") + f" type of {what}"
        return self.unsupported(kind, define_header(text).strip() if text.startswith("define")
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
            if value_kind(gv) != "function":
                gv = self._gvars[name]
            if value_kind(gv) == "function":
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
            mname = sanitize_name(name)
            if is_mangled(name):           # a C++ global: by its C++ name, dsp::COEF -> dsp_COEF
                shown = verilog_name(short_name(name))
                if shown not in {g.name for g in self.globals.values()}:
                    mname = shown
            mem = MemoryObject(name=mname, kind="global", elem_bytes=eb,
                               init=init, readonly=(kind == "constant"), symbol=name,
                               elem_dims=dims, elem_fields=fields)
            self.globals[name] = mem
            self._mem_align[mem] = align_of(text)
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
        wide = _too_wide(ins)
        if wide and opc == "ret" and self._llname == self._top_name and wide <= MAX_PORT_BITS:
            wide = 0                    # the top's return port
        if wide:
            loc = self._loc
            if "!dbg" not in text:      # made by a pass (SROA): the next wide one the user wrote
                for other in list(ins.block.instructions):
                    t = self._ins_text(other)
                    if "!dbg" in t and _too_wide(other):
                        loc = self.loc_of(t, self._llname)
                        break
            raise self.too_wide(wide, _WIDE_WHAT.get(opc, f"the operation '{opc}'"), loc)
        handler = getattr(self, "_i_" + opc, None)
        if handler is not None:
            handler(ins, text)
            return
        if opc in _BINOPS:
            a, b = (self._int(o) for o in ins.operands)
            if opc == "mul" and a.width > MAX_MULDIV_BITS:
                # a wide multiply by +-2^k (_too_wide lets only those through): a shift
                x, c = (a, b) if isinstance(b, Const) else (b, a)
                k = _pow2(c.value, c.width)
                r = self._emit("shl", [x, Const(x.width, abs(k))], x.width)
                self._set(ins, r if k >= 0 else self._emit("sub", [Const(x.width, 0), r], x.width))
                return
            extra = {"disjoint": True} if opc == "or" and re.search(r"= or disjoint ", text) else {}
            self._set(ins, self._emit(opc, [a, b], a.width, **extra))
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

    def _check_wide_scalars(self, name: str, define: str, dbg_params: dict, floc: Loc) -> None:
        """The top's scalar arguments and return value of more than 16 bytes (by the
        declared C types of the debug info: ``_BitInt(200)``, ``ap_uint<256>``) are an
        error naming each: the C calling convention passes them in memory.  (Those of up
        to 16 bytes are ports: :meth:`_abi_groups`; a callee's wide values are rejected
        where it is called.)"""
        types = self.dbg.c_types(define)
        if types is None:
            return
        ret, args = types
        found = [(f"argument '{dbg_params.get(i, (f'#{i + 1}',))[0]}'", t)
                 for i, (t, indirect) in enumerate(args)
                 if not indirect and _wide_scalar(t) and t.size * 8 > MAX_PORT_BITS]
        if _wide_scalar(ret) and ret.size * 8 > MAX_PORT_BITS:
            found.append(("the return value", ret))
        if not found:
            return
        wide = [f"{what} ({t.name}, {t.size} bytes)" for what, t in found]
        raise UnsupportedError(
            f"top function {name}: {', '.join(wide)} wider than {MAX_PORT_BITS} bits: a "
            f"scalar argument or return value of more than {MAX_PORT_BITS // 8} bytes is not "
            f"supported (the C calling convention passes it in memory); pass it through a "
            f"pointer instead (an array of {found[0][1].name}), or as parts of up to "
            f"{MAX_PORT_BITS} bits",
            floc.file, floc.line)

    @staticmethod
    def too_wide(bits: int, what: str, loc: Loc | None) -> UnsupportedError:
        """The error of an operation on integers wider than 64 bits that the datapath
        does not have (:data:`_WIDE_OK` are those it has at any width,
        :data:`_WIDE_MULDIV` those it has up to :data:`MAX_MULDIV_BITS`)."""
        return UnsupportedError(
            f"{what} on an integer of {bits} bits is not supported for hardware yet: "
            f"pyhls's datapath converts, calls with and returns integers of at most 64 "
            f"bits and multiplies and divides integers of at most {MAX_MULDIV_BITS} bits; "
            f"wider ones (an ap_int/ap_uint or _BitInt wider than 64 bits, which ap_int.h "
            f"holds in a multiple of 64 bits) only in bitwise operations, shifts, additions, "
            f"subtractions, comparisons and memory accesses",
            loc.file if loc else None, loc.line if loc else None)

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
                op = self._emit("phi", [], OFF_W)
                tag = self._emit("phi", [], TAG_W)
                self._phis.append((op, ins, "tagged", tag))
                self._set(ins, Ptr(None, op, tag, tuple(mems)))
                return
            if mem is None:
                r = refs[0]
                mem = self._global_ptr(self._gvars[r[1]]).mem if isinstance(r, tuple) else r
            op = self._emit("phi", [], OFF_W)
            self._phis.append((op, ins, True, None))
            self._set(ins, Ptr(mem, op))
            return
        t = self._result_type(ins)
        if not _scalar(t):
            raise self._type_error(t, "a phi", text, self._llname)
        op = self._emit("phi", [], t.bits)
        self._phis.append((op, ins, False, None))
        self._set(ins, op)

    def _fill_phi(self, op: Op, ins, kind, tag: Op | None) -> None:
        self._itext = self._ins_text(ins)
        self._loc = op.loc
        self._cur = op.block
        incoming = list(zip(ins.incoming_blocks, ins.operands))
        if kind == "tagged":
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
        mem = MemoryObject(name=f"{self._hw_name(self._fn.name)}_{name}", kind="local", elem_bytes=sizeof(t),
                           init=bytes(sizeof(t)), loc=self._loc)
        self._fn.memories.append(mem)
        self._mem_align[mem] = align_of(text)
        self._set(ins, Ptr(mem, Const(OFF_W, 0)))

    def _i_load(self, ins, text):
        if " atomic " in text:
            raise self.unsupported("an atomic load", text, self._llname)
        t = self._result_type(ins)
        if isinstance(t, PtrT):  # a pointer in memory: its virtual address
            word = self._load(self._host_free(self._ptr(next(iter(ins.operands)))), 8, 0,
                              align_of(text))
            self._set(ins, self._decode(word))
            return
        if not _scalar(t):
            raise self._type_error(t, "a load", text, self._llname)
        p = self._ptr(next(iter(ins.operands)))
        size = store_size(t)
        op = self._load(p, size, t.bits if isinstance(t, FloatT) else 0, align_of(text))
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
                        align_of(text))
            return
        if not _scalar(t):
            raise self._type_error(t, "a store", text, self._llname)
        p = self._ptr(pv)
        data = self._int(v)
        size = store_size(t)
        if 8 * size != t.bits:
            data = self._emit("zext", [data], 8 * size)
        self._store(p, data, size, t.bits if isinstance(t, FloatT) else 0, align_of(text))

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
            self.accesses.append(Access(op, q, size, self._fn, float_bits,
                                         self._base_align(m, align) if p.mem is None else 0))
            out = op if out is None else self._emit("select", [g, op, out], 8 * size)
        return out

    def _store(self, p: Ptr, data: Value, size: int, float_bits: int, align: int = 0) -> None:
        for m, g in self._steer(p):
            op = self._emit("store", [p.off, data] + ([g] if g is not None else []), 0,
                            mem=m, size=size)
            if g is not None:
                op.attrs["guard"] = 2
            self.accesses.append(Access(op, p if p.mem is not None else Ptr(m, p.off), size,
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
        (``unroll_count(N)``, ``"full"``, or 1 for ``unroll(disable)``); and ``line``,
        ``col``: where the loop statement starts (its first debug location)."""
        m = re.search(r"!llvm\.loop (!\d+)", text)
        if not m:
            return {}
        nodes = getattr(self, "_md_nodes", None)
        if nodes is None:
            nodes = self._md_nodes = dict(re.findall(r"^(!\d+) = (?:distinct )?!\{(.*)\}$",
                                                     self.text, re.M))
        out = {}
        for node in re.findall(r"!\d+", nodes.get(m.group(1), "")):
            body = nodes.get(node, "")
            if "line" not in out:   # the first location: the start of the loop statement
                loc = self.dbg.nodes.get(int(node[1:])) if hasattr(self, "dbg") else None
                if loc is not None and loc[0] == "DILocation":
                    line, col = loc[1].get("line", "0"), loc[1].get("column", "0")
                    if line.isdigit() and int(line) > 0:
                        out["line"] = int(line)
                        if col.isdigit():
                            out["col"] = int(col)
                continue
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

    def _i_insertvalue(self, ins, text):
        """A piece of the top's two-piece return value (``{ i64, i64 }``: the ABI's form
        of a ``_BitInt(96)`` or a 12-byte struct), kept until the ``ret`` joins them."""
        agg, val = list(ins.operands)[:2]
        m = re.search(r",\s*(\d+)\s*(?:,\s*!dbg.*)?$", text.strip())
        if not self._ret_pieces or m is None:
            raise self.unsupported("an aggregate value (insertvalue)", text, self._llname)
        before = self._vals.get(key(agg)) if not agg.is_constant else None
        parts = list(before.parts) if isinstance(before, _RetPieces) else \
            [None] * len(self._ret_pieces)
        parts[int(m.group(1))] = self._int(val)
        self._set(ins, _RetPieces(tuple(parts)))

    def _i_ret(self, ins, text):
        ops = list(ins.operands)
        if ops and isinstance(self._vals.get(key(ops[0])), _RetPieces):
            v = self._join_ret(self._vals[key(ops[0])])
        else:
            v = self._int(ops[0]) if ops else None
        if v is not None and v.width > self._fn.return_width:  # ap_uint<100>: 100 of 128
            v = self._emit("trunc", [v], self._fn.return_width)
        self._emit("ret", [v] if v is not None else [], 0)

    @property
    def _ret_pieces(self) -> list[int]:
        """The bits of each ABI piece of the current function's return value (the top's
        two-piece one), else empty."""
        return self._ret_pieces_of.get(self._llname, [])

    def _join_ret(self, pieces: "_RetPieces") -> Value:
        """The top's return value from the ABI's pieces (the second at bit 64)."""
        total = 64 + self._ret_pieces[1]
        out: Value | None = None
        for j, (p, bits) in enumerate(zip(pieces.parts, self._ret_pieces)):
            if p is None:                           # poison: any bits
                continue
            x = self._emit("zext", [p], total) if bits < total else p
            if j:
                x = self._emit("shl", [x, Const(total, 64 * j)], total)
            out = x if out is None else self._emit("or", [out, x], total)
        return out if out is not None else Const(total, 0)

    def _i_unreachable(self, ins, text):
        # Reaching it is undefined behaviour; the hardware simply finishes the call.
        w = self._fn.return_width
        self._emit("ret", [Const(w, 0)] if w else [], 0)

    def _i_call(self, ins, text):
        ops = list(ins.operands)
        callee = ops[-1]
        args = ops[:-1]
        if " asm " in text or value_kind(callee) == "inline_asm":
            raise self.unsupported("inline assembly", text, self._llname)
        if value_kind(callee) != "function":
            raise self.unsupported("an indirect call through a function pointer", text, self._llname)
        name = callee.name
        if name.startswith("llvm."):
            self._intrinsic(ins, text, name[5:], args)
            return
        callee = self.llmod.get_function(name)
        if callee.is_declaration and name in LIBC_CALLS:
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
                    if value_kind(c) == "function" and not self.llmod.get_function(c.name).is_declaration:
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
        for op, *_ in self._phis:
            op.incoming = [(ends.get(b, b), v) for b, v in op.incoming]

    # ------------------------------------------------------------------ globals in callees

def _rpo(llblocks: list, text_of=str) -> list:
    """Blocks in reverse post-order, so every definition is translated before its uses
    (LLVM's textual block order need not follow dominance); ``text_of`` prints an
    instruction (``Translator._ins_text``: fast)."""
    by_name = {bb.name: bb for bb in llblocks}
    succ = {}
    for bb in llblocks:
        term = list(bb.instructions)[-1]
        names = re.findall(r"label %([-\w.$]+|\"[^\"]+\")", text_of(term))
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


def _shown_path(f: str) -> str:
    """A header's path as messages show it: relative to the working directory when it
    is under it."""
    p = Path(f)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return f


_INT_TYPE = re.compile(r"\bi(\d+)\b")


#: the operations on integers wider than 64 bits that the datapath has (Amaranth builds
#: them at any width; the scheduler times them as 64-bit ones): a packed struct's bit
#: fields are read and written through such words, and tests/test_cxx.py co-simulates
#: 100-bit ones
_WIDE_OK = frozenset({"load", "store", "trunc", "zext", "sext", "and", "or", "xor", "shl",
                      "lshr", "ashr", "add", "sub", "icmp", "phi", "select", "freeze"})

#: the most bits of a multiply, division or remainder the datapath has (a product of two
#: 64-bit ap_fixed/ap_int values, a 64-bit division computed one bit wider): the targets
#: time them at their real width (``hls.targets``: the ecp5 library extrapolated above
#: its largest sample)
MAX_MULDIV_BITS = 128
_WIDE_MULDIV = frozenset({"mul", "udiv", "sdiv", "urem", "srem"})

#: intrinsics on integers of any width that are a comparison and a multiplexer (LLVM
#: forms them from ap_fixed.h's saturation and rounding)
_WIDE_INTRINSIC = re.compile(r"llvm\.(smax|smin|umax|umin|abs)\.i\d+$")

_WIDE_WHAT = {"mul": "a multiplication", "udiv": "a division", "sdiv": "a division",
              "urem": "a remainder", "srem": "a remainder", "call": "a call",
              "ret": "a return"}


def _too_wide(ins) -> int:
    """The width of an instruction's integers when they are wider than 64 bits and the
    operation is not one of :data:`_WIDE_OK`, else 0."""
    if ins.opcode in _WIDE_OK:
        return 0
    if ins.opcode == "call" and _WIDE_INTRINSIC.match(list(ins.operands)[-1].name or ""):
        return 0
    bits = _wide_int(str(ins.type), *(str(o.type) for o in ins.operands))
    if ins.opcode == "mul" and bits:
        # by a constant +-2^k (instcombine's form of a negated shift): a shift at any width
        for o in ins.operands:
            m = re.fullmatch(r"i(\d+) (-?\d+)", str(o).strip()) if o.is_constant else None
            if m and _pow2(int(m.group(2)), int(m.group(1))) is not None:
                return 0
    return 0 if ins.opcode in _WIDE_MULDIV and bits <= MAX_MULDIV_BITS else bits


def _pow2(value: int, width: int) -> int | None:
    """k when the ``width``-bit constant ``value`` is 2^k (k >= 1), -k when it is -2^k
    (modulo 2^width), else None."""
    v = value % (1 << width)
    if v > 1 and v & (v - 1) == 0:
        return v.bit_length() - 1
    n = (1 << width) - v
    if n > 1 and n & (n - 1) == 0:
        return -(n.bit_length() - 1)
    return None


_AP_TYPE = re.compile(r"^(?:\w+::)*ap_u?(?:int|fixed)<")


#: an argument the calling convention renamed (a struct or wide integer coerced into
#: one or more integer or floating-point pieces)
_COERCED = re.compile(r"^(.+)\.coerce(\d*)$")

@dataclass(frozen=True)
class _RetPieces:
    """The top's return value as the ABI's pieces, as far as ``insertvalue`` has built
    it (None: not yet set)."""

    parts: tuple


def _abi_pair(t) -> bool:
    """Is the LLVM type ``t`` the ABI's two-piece form of a 9- to 16-byte value (an
    eightbyte, then up to one more: ``{ i64, i64 }``, ``{ i64, i32 }``)?"""
    return (isinstance(t, StructT) and not t.name and len(t.fields) == 2
            and all(isinstance(f, IntT) for f in t.fields) and t.fields[0].bits == 64
            and t.fields[1].bits <= 64)


#: the widest port of the top's scalar argument or return value: 16 bytes (wider C
#: values are passed in memory)
MAX_PORT_BITS = 128


@dataclass
class _AbiGroup:
    """One C argument of the top that LLVM has as the parameters ``indices`` (widths
    ``bits``; every piece but the last is an eightbyte): one port of ``width`` bits."""

    name: str
    indices: list[int]
    bits: list[int]
    width: int
    signed: bool
    param: "Param | None" = None

    @property
    def first(self) -> int:
        return self.indices[0]

    def whole(self, i: int) -> bool:
        """Is parameter ``i`` the whole port (one piece of the port's width)?"""
        return len(self.indices) == 1 and self.bits[0] == self.width

    def piece(self, i: int) -> tuple[int, int, int, bool]:
        """(bit offset, bits, bits of all pieces, signed) of parameter ``i``."""
        j = self.indices.index(i)
        return 64 * j, self.bits[j], 64 * (len(self.bits) - 1) + self.bits[-1], self.signed


def _value_bits(t, default: int) -> int:
    """The bits of the C value of type ``t`` (a :class:`hls.interface.CType` or None:
    ``default``): :attr:`~hls.interface.CType.value_bits`."""
    return default if t is None else t.value_bits


def _signed(t) -> bool:
    """Is the C value of type ``t`` extended as a signed one by its caller?"""
    return t is not None and t.value_signed


def _wide_scalar(t) -> bool:
    """Is the declared C type ``t`` (a :class:`hls.interface.CType` or None) an integer,
    or an ``ap_int``/``ap_fixed`` class, of more than 8 bytes?"""
    return t is not None and t.size > 8 and (
        t.kind == "int" or (t.kind == "record" and bool(_AP_TYPE.match(t.name))))


def _wide_int(*types: str) -> int:
    """The widest integer type wider than 64 bits among the LLVM type strings, else 0."""
    return max((int(m.group(1)) for t in types for m in _INT_TYPE.finditer(t)
                if int(m.group(1)) > 64), default=0)
