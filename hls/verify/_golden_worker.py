"""Child-process side of :mod:`hls.verify._golden`: JIT-compiles LLVM IR with llvmlite's
MCJIT and runs it natively.

Run as ``python _golden_worker.py REQUEST.pkl RESPONSE.pkl``.  The request and response
are pickles of plain Python data (dicts, lists, ints, bytes), so this file imports nothing
from ``hls`` and a crash here (segfault in native code) only kills this process.

Requests (``kind``):

* ``capture``: ``ll``, ``top``, ``ptr_args`` {arg index: bytes}, ``globals`` {name: bytes}
  -> ``calls``: list of dicts (scalars, mem_in, mem_out, ret, glob_in, glob_out),
  ``main_ret``.

``capture`` and ``calls`` take ``streams`` {arg index: "r" | "w"}: the pointer arguments
that are ``hls::stream`` objects (``hls_stream.h``'s ``__pyhls_queue``), which the
hardware sees as arrays of their elements in order: an input stream's memory holds the
elements waiting in the queue when the call starts; an output stream's memory gets the
elements the call appends, from element 0 (``mem_out``: those, then ``mem_in``'s
bytes beyond them).
* ``main``: ``ll``, ``globals`` -> ``main_ret``, ``globals`` {name: bytes}.
* ``calls``: ``ll``, ``top``, ``calls`` (list of {scalars, mem_in}), ``ptr_args``,
  ``globals`` -> ``calls`` as for ``capture``.

A struct the top takes by value that the ABI passes in memory (a ``byval`` pointer
argument: on x86-64 a struct of more than 16 bytes) is, to the hardware, a memory that
holds the callee's copy.  ctypes cannot pass a struct on the stack, so the top the worker
calls takes a plain pointer to that copy (``byval`` dropped from its definition: what it
writes there is the hardware's ``mem_out``), and the testbench's calls reach the capture
through a shim with the original signature that makes the copy (:func:`_byval_shim`).
"""

from __future__ import annotations

import ctypes
import os
import pickle
import re
import struct
import sys
import traceback
from typing import Any

REAL_PREFIX = "__pyhls_real_"
#: the capture callback's symbol when the top takes a struct by value (see above)
CAPTURE_SYMBOL = "__pyhls_capture"

#: the response file of this run (written early when the program calls exit or abort)
_RESP_PATH: str | None = None
#: set by the running request: exit status -> the response of a program ending there
_ON_EXIT: dict[str, Any] = {"fn": None}
_HOOKS: dict[str, Any] = {}  # ctypes callbacks replacing exit/abort/assert (kept alive)


class WorkerError(Exception):
    """A problem the parent should report as a CosimError."""


# --------------------------------------------------------------------------- types


class ParamType:
    """One parameter or return type of the top function."""

    def __init__(self, kind: str, width: int, signed: bool):
        self.kind = kind      # "int" | "ptr" | "float" | "double" | "void"
        self.width = width
        self.signed = signed  # signext: pass/return sign-extended
        self.name = ""        # the parameter's LLVM name
        self.text = ""        # a pair's LLVM type

    @property
    def ir(self) -> str:
        if self.kind == "pair":
            return self.text
        return {"ptr": "ptr", "float": "float", "double": "double", "void": "void"}.get(
            self.kind, f"i{self.width}")

    @property
    def wide(self) -> bool:
        """No ctypes type holds it: an integer of more than 64 bits, a piece pair."""
        return self.kind == "pair" or (self.kind == "int" and self.width > 64)

    @property
    def ctype(self) -> Any:
        if self.kind == "void":
            return None
        if self.kind == "ptr":
            return ctypes.c_void_p
        if self.kind == "float":
            return ctypes.c_float
        if self.kind == "double":
            return ctypes.c_double
        w = self.width
        nbits = 8 if w <= 8 else 16 if w <= 16 else 32 if w <= 32 else 64
        if w > 64:
            raise WorkerError(f"integer type i{w} wider than 64 bits is not supported natively")
        table = {
            (8, False): ctypes.c_uint8, (8, True): ctypes.c_int8,
            (16, False): ctypes.c_uint16, (16, True): ctypes.c_int16,
            (32, False): ctypes.c_uint32, (32, True): ctypes.c_int32,
            (64, False): ctypes.c_uint64, (64, True): ctypes.c_int64,
        }
        return table[(nbits, self.signed)]

    @property
    def mask(self) -> int:
        return (1 << self.width) - 1

    def to_bits(self, value: Any) -> int:
        """ctypes value -> raw bits (masked)."""
        if self.kind == "float":
            return struct.unpack("<I", struct.pack("<f", value))[0]
        if self.kind == "double":
            return struct.unpack("<Q", struct.pack("<d", value))[0]
        if self.kind == "ptr":
            return int(value or 0)
        return int(value) & self.mask

    def from_bits(self, bits: int) -> Any:
        """raw bits -> a value ctypes accepts for this type."""
        if self.kind == "float":
            return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]
        if self.kind == "double":
            return struct.unpack("<d", struct.pack("<Q", bits & (2**64 - 1)))[0]
        bits &= self.mask
        if self.signed and self.width < 64 and bits >> (self.width - 1):
            bits -= 1 << self.width
        if self.signed and self.width == 64 and bits >> 63:
            bits -= 1 << 64
        return bits


def _type_of(t: Any, attrs: set[str]) -> ParamType:
    text = str(t)
    if t.is_pointer or text == "ptr":
        return ParamType("ptr", 64, False)
    if text == "void":
        return ParamType("void", 0, False)
    if text == "float":
        return ParamType("float", 32, False)
    if text == "double":
        return ParamType("double", 64, False)
    m = re.fullmatch(r"i(\d+)", text)
    pair = re.fullmatch(r"\{\s*i64,\s*i(\d+)\s*\}", text)
    if pair:        # the ABI's two pieces of a 9- to 16-byte value: its bytes
        t = ParamType("pair", 64 + int(pair.group(1)), False)
        t.text = text
        return t
    if not m:
        raise WorkerError(f"unsupported parameter/return type {text} of the top function")
    return ParamType("int", int(m.group(1)), "signext" in attrs)


#: a ``byval(TYPE)`` parameter attribute (TYPE may be a quoted name or hold parentheses)
_BYVAL = re.compile(r'\s*\bbyval\((?:"[^"]*"|\([^()]*\)|[^()"])*\)')


def _byval_params(ll: str, top: str) -> dict[int, str]:
    """The parameters of ``top`` passed ``byval``: index -> their ``byval(T)`` and
    ``align N`` attributes as written."""
    import llvmlite.binding as llvm

    line = _define_line(ll, top)
    head = ll[line.end():].partition("{")[0] if line else ""
    if "byval(" not in head:
        return {}
    ks = []
    for k, arg in enumerate(llvm.parse_assembly(ll).get_function(top).arguments):
        attrs = [a.decode() if isinstance(a, bytes) else str(a) for a in arg.attributes]
        if any(a.startswith("byval(") for a in attrs):
            ks.append((k, " ".join(a for a in attrs if a.startswith("align "))))
    # the types as the text names them (llvmlite may rename a struct type it parsed
    # before: %struct.co.0), in parameter order
    types = [m.group(0).strip() for m in _BYVAL.finditer(head)]
    if len(types) != len(ks):
        raise WorkerError(f"cannot read the byval parameters of @{top} from its definition")
    return {k: f"{t} {align}".strip() for (k, align), t in zip(ks, types)}


def _strip_byval(ll: str, name: str) -> str:
    """``ll`` with the definition of ``name`` taking its ``byval`` parameters as plain
    pointers."""
    line = _define_line(ll, name)
    if line is None:
        raise WorkerError(f"cannot find the definition line of @{name}")
    head, brace, body = ll[line.end():].partition("{")
    return ll[:line.end()] + _BYVAL.sub("", head) + brace + body


def _byval_shim(name: str, target: str, ret_t: "ParamType", params: list, byval: dict,
                declare: bool) -> str:
    """A definition of ``name`` with the top's signature (``byval`` parameters as the
    ABI passes them) calling ``target`` with plain pointers (declared when
    ``declare``)."""
    def ext(p):
        return " signext" if p.kind == "int" and p.signed else ""
    formal = ", ".join(f"{p.ir}{ext(p)}{' ' + byval[k] if k in byval else ''} %a{k}"
                       for k, p in enumerate(params))
    actual = ", ".join(f"{p.ir}{ext(p)} %a{k}" for k, p in enumerate(params))
    ret_ext = ext(ret_t)
    call = f"call{ret_ext} {ret_t.ir} @{_quoted(target)}({actual})"
    body = (f"  {call}\n  ret void" if ret_t.kind == "void" else
            f"  %r = {call}\n  ret {ret_t.ir} %r")
    out = f"\ndefine{ret_ext} {ret_t.ir} @{_quoted(name)}({formal}) {{\n{body}\n}}\n"
    if declare:
        plain = ", ".join(f"{p.ir}{ext(p)}" for p in params)
        out += f"declare{ret_ext} {ret_t.ir} @{_quoted(target)}({plain})\n"
    return out


def _define_line(ll: str, name: str) -> re.Match[str] | None:
    pat = re.compile(r"^(define\b[^\n]*?)@(?:" + re.escape(name) + r'|"' + re.escape(name)
                     + r'")\(', re.M)
    return pat.search(ll)


#: a parameter the calling convention renamed: a piece of a struct or wide integer
#: (``p.coerce``, ``p.coerce0``, ``p.coerce1``; as ``hls.frontend._translate`` groups them)
_COERCED = re.compile(r"^(.+)\.coerce(\d*)$")

#: the shims' symbols for a top with integers of more than 64 bits (ctypes has none)
SPLIT_SYMBOL = "__pyhls_split"
WIDE_CAPTURE_SYMBOL = "__pyhls_capture_wide"


def coerced_groups(names: list[str]) -> dict[int, list[int]]:
    """First parameter index -> the parameter indices of one C argument the ABI passes
    in several pieces (``p.coerce0``, ``p.coerce1``, ...; every piece but the last an
    eightbyte, the first at the least significant bits): the hardware has one port."""
    out: dict[int, list[int]] = {}
    i = 0
    while i < len(names):
        m = _COERCED.match(names[i] or "")
        if not m or m.group(2) != "0":
            i += 1
            continue
        idx = [i]
        while idx[-1] + 1 < len(names) and names[idx[-1] + 1] == f"{m.group(1)}.coerce{len(idx)}":
            idx.append(idx[-1] + 1)
        if len(idx) > 1:
            out[i] = idx
        i = idx[-1] + 1
    return out


class Ports:
    """The hardware's view of the top's scalars: a coerced group's pieces joined into
    one value at its first index (``ports``: index -> (width, signed), the port's C
    value, from the parent), every other scalar as it is."""

    def __init__(self, params: list[ParamType], names: list[str],
                 ports: dict[int, tuple[int, bool]]):
        self.params = params
        self.groups = coerced_groups(names)
        self.ports = ports
        self.later = {k for idx in self.groups.values() for k in idx[1:]}

    def _pieces(self) -> dict[int, list[int]]:
        """First parameter index -> its pieces, for every port and group."""
        firsts = {k for k in self.ports if k < len(self.params)} | set(self.groups)
        return {k: self.groups.get(k, [k]) for k in sorted(firsts)}

    def join(self, bits: dict[int, int]) -> dict[int, int]:
        """Per-parameter bits -> per-port values (a port narrower than its pieces, an
        ``ap_uint<100>`` in an ``i128``, keeps its own bits)."""
        out = {k: v for k, v in bits.items() if k not in self.later}
        for first, idx in self._pieces().items():
            if not all(k in bits for k in idx):
                continue
            v = sum((bits[k] & self.params[k].mask) << (64 * j) for j, k in enumerate(idx))
            width = self.ports.get(first, (None,))[0]
            out[first] = v & ((1 << width) - 1) if width else v
        return out

    def split(self, values: dict[int, int]) -> dict[int, int]:
        """Per-port values -> per-parameter bits: a port's value extended to its pieces
        as its caller extends it (a signed one sign-extended), then cut into them."""
        out = dict(values)
        for first, idx in self._pieces().items():
            if first not in values:
                continue
            v = values[first]
            width, signed = self.ports.get(first, (None, False))
            if width and signed and v >> (width - 1) & 1:
                v -= 1 << width
            for j, k in enumerate(idx):
                out[k] = (v >> (64 * j)) & self.params[k].mask
        return out


def _wide(ret_t: ParamType, params: list[ParamType]) -> bool:
    """Does the signature hold an integer of more than 64 bits (ctypes has none)?"""
    return any(p.wide for p in [ret_t, *params])


def _flat(params: list[ParamType]) -> list[tuple[int, str]]:
    """The shim's parameters: (index, ir type) with each integer of more than 64 bits
    as 64-bit words, least significant first."""
    out = []
    for k, p in enumerate(params):
        if p.kind == "int" and p.width > 64:
            out += [(k, "i64")] * -(-p.width // 64)
        else:
            out.append((k, p.ir))
    return out


def _ext(p: ParamType) -> str:
    return " signext" if p.kind == "int" and p.signed else ""


def _wide_shims(name: str, target: str, ret_t: ParamType, params: list[ParamType],
                flat_in: bool, byval: dict[int, str] | None = None) -> str:
    """A definition of ``name`` calling ``target``.  ``flat_in``: ``name`` takes the
    flat parameters (a pointer to the result first, when the result is an integer of
    more than 64 bits) and ``target`` the top's own; else the other way round, ``name``
    taking the ``byval`` parameters as the ABI passes them (the struct on the stack:
    the shim hands on a pointer to it)."""
    wide_ret = ret_t.wide
    flat = _flat(params)
    byval = byval or {}
    own_formal = [f"{p.ir}{_ext(p)}{' ' + byval[k] if k in byval else ''} %a{k}"
                  for k, p in enumerate(params)]
    flat_formal = (["ptr %ret"] if wide_ret else []) + \
        [f"{t}{_ext(params[k]) if t == params[k].ir else ''} %f{j}" for j, (k, t) in enumerate(flat)]
    body: list[str] = []
    if flat_in:         # join the words into the top's integers, call, store a wide result
        actual = []
        for k, p in enumerate(params):
            words = [j for j, (kk, _t) in enumerate(flat) if kk == k]
            if p.kind == "int" and p.width > 64:
                n = 64 * len(words)
                acc = None
                for w, j in enumerate(words):
                    body.append(f"  %z{j} = zext i64 %f{j} to i{n}")
                    body.append(f"  %s{j} = shl i{n} %z{j}, {64 * w}")
                    if acc is None:
                        acc = f"%s{j}"
                    else:
                        body.append(f"  %o{j} = or i{n} {acc}, %s{j}")
                        acc = f"%o{j}"
                if n != p.width:
                    body.append(f"  %t{k} = trunc i{n} {acc} to i{p.width}")
                    acc = f"%t{k}"
                actual.append(f"{p.ir} {acc}")
            else:
                actual.append(f"{p.ir}{_ext(p)} %f{words[0]}")
        call = f"call{_ext(ret_t)} {ret_t.ir} @{_quoted(target)}({', '.join(actual)})"
        if ret_t.kind == "void":
            body += [f"  {call}", "  ret void"]
        elif wide_ret:
            body += [f"  %r = {call}", f"  store {ret_t.ir} %r, ptr %ret, align 1",
                     "  ret void"]
        else:
            body += [f"  %r = {call}", f"  ret {ret_t.ir} %r"]
        rt = "void" if wide_ret else f"{_ext(ret_t).strip()} {ret_t.ir}".strip()
        return (f"\ndefine {rt} @{_quoted(name)}({', '.join(flat_formal)}) {{\n"
                + "\n".join(body) + "\n}\n")
    # the top's own parameters split into words for a flat target
    actual = []
    if wide_ret:
        body.append(f"  %ret = alloca {ret_t.ir}, align 16")
        actual.append("ptr %ret")
    for j, (k, t) in enumerate(flat):
        p = params[k]
        if p.kind == "int" and p.width > 64:
            w = [jj for jj, (kk, _t) in enumerate(flat) if kk == k].index(j)
            n = 64 * -(-p.width // 64)
            src = f"%a{k}"
            if n != p.width:
                body.append(f"  %x{j} = zext {p.ir} %a{k} to i{n}")
                src = f"%x{j}"
            body.append(f"  %h{j} = lshr i{n} {src}, {64 * w}")
            body.append(f"  %w{j} = trunc i{n} %h{j} to i64")
            actual.append(f"i64 %w{j}")
        else:
            actual.append(f"{t}{_ext(p)} %a{k}")
    flat_rt = "void" if wide_ret else f"{ret_t.ir}"
    call = f"call{'' if wide_ret else _ext(ret_t)} {flat_rt} @{_quoted(target)}({', '.join(actual)})"
    if ret_t.kind == "void":
        body += [f"  {call}", "  ret void"]
    elif wide_ret:
        body += [f"  {call}", f"  %r = load {ret_t.ir}, ptr %ret, align 16",
                 f"  ret {ret_t.ir} %r"]
    else:
        body += [f"  %r = {call}", f"  ret {ret_t.ir} %r"]
    decl_params = ", ".join((["ptr"] if wide_ret else [])
                            + [f"{t}{_ext(params[k]) if t == params[k].ir else ''}"
                               for k, t in flat])
    return (f"\ndefine{_ext(ret_t)} {ret_t.ir} @{_quoted(name)}({', '.join(own_formal)}) {{\n"
            + "\n".join(body) + "\n}\n"
            + f"declare {flat_rt} @{_quoted(target)}({decl_params})\n")


def _flat_ctypes(ret_t: ParamType, params: list[ParamType]) -> tuple[Any, list[Any]]:
    """The ctypes prototype of a flat shim: (result type, parameter types)."""
    wide_ret = ret_t.wide
    types = [ctypes.c_void_p] if wide_ret else []
    for k, t in _flat(params):
        types.append(ctypes.c_uint64 if t == "i64" and params[k].width > 64 else params[k].ctype)
    return (None if wide_ret else ret_t.ctype), types


def _flat_args(params: list[ParamType], values: list[Any]) -> list[Any]:
    """Per-parameter ctypes values (an int of its bits for a wide one) -> the flat
    shim's arguments."""
    out: list[Any] = []
    for p, v in zip(params, values):
        if p.kind == "int" and p.width > 64:
            out += [(v >> (64 * w)) & (2**64 - 1) for w in range(-(-p.width // 64))]
        else:
            out.append(v)
    return out


def _unflat(params: list[ParamType], args: tuple) -> list[Any]:
    """The flat shim's arguments -> per-parameter values (an int for a wide one)."""
    out: list[Any] = []
    pos = 0
    for p in params:
        if p.kind == "int" and p.width > 64:
            n = -(-p.width // 64)
            out.append(sum(int(a) << (64 * w) for w, a in enumerate(args[pos:pos + n])) & p.mask)
            pos += n
        else:
            out.append(args[pos])
            pos += 1
    return out


def signature(ll: str, top: str) -> tuple[ParamType, list[ParamType]]:
    import llvmlite.binding as llvm

    mod = llvm.parse_assembly(ll)
    try:
        fn = mod.get_function(top)
    except NameError as exc:
        raise WorkerError(f"function @{top} not found in the LLVM module") from exc
    if fn.is_declaration:
        raise WorkerError(f"@{top} is only declared in the LLVM module, not defined")
    fty = fn.global_value_type
    if fty.is_function_vararg:
        raise WorkerError(f"@{top} is variadic")
    params = []
    for arg in fn.arguments:
        attrs = {a.decode() if isinstance(a, bytes) else str(a) for a in arg.attributes}
        params.append(_type_of(arg.type, attrs))
        params[-1].name = arg.name
    line = _define_line(ll, top)
    ret_attrs = set(line.group(1).split()) if line else set()
    ret = _type_of(fty.get_function_return(), ret_attrs)
    return ret, params


# --------------------------------------------------------------------------- libc hooks


def _finish(resp: dict[str, Any]) -> None:
    """Write ``resp`` and end this process now (from inside native code)."""
    try:
        ctypes.CDLL(None).fflush(None)
    except Exception:  # noqa: BLE001
        pass
    sys.stdout.flush()
    if _RESP_PATH is not None:
        with open(_RESP_PATH, "wb") as f:
            pickle.dump(resp, f)
    os._exit(0)


def _on_exit(status: int) -> None:
    fn = _ON_EXIT["fn"]
    try:
        if fn is None:
            raise WorkerError(f"the program called exit({status})")
        resp = {"ok": True, "exited": status, **fn(status)}
    except WorkerError as exc:
        resp = {"ok": False, "error": str(exc)}
    except Exception:  # noqa: BLE001
        resp = {"ok": False, "error": traceback.format_exc()}
    _finish(resp)


_NO_GOLDEN = "native execution gives no golden result"


def _on_abort() -> None:
    _finish({"ok": False, "aborted": True, "error": f"the program called abort(): {_NO_GOLDEN}"})


def _text(b: bytes | None) -> str:
    return (b or b"?").decode(errors="replace")


def _on_assert_fail(expr: bytes, file: bytes, line: int, func: bytes) -> None:
    _finish({"ok": False, "aborted": True,
             "error": f"{_text(file)}:{line}: {_text(func)}: assertion '{_text(expr)}' failed: "
                      f"{_NO_GOLDEN}"})


def _on_assert_rtn(func: bytes, file: bytes, line: int, expr: bytes) -> None:
    _on_assert_fail(expr, file, line, func)


def libc_hooks() -> dict[str, int]:
    """Addresses replacing exit, abort and the assert failure functions in JIT code: the
    run ends with a response (exit: the request's result with the status as main's value;
    abort/assert: an error, as there is nothing to compare with)."""
    if not _HOOKS:
        s, p, i = ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint
        _HOOKS["exit"] = ctypes.CFUNCTYPE(None, ctypes.c_int)(_on_exit)
        _HOOKS["abort"] = ctypes.CFUNCTYPE(None)(_on_abort)
        _HOOKS["__assert_fail"] = ctypes.CFUNCTYPE(None, s, p, i, s)(_on_assert_fail)
        _HOOKS["__assert_rtn"] = ctypes.CFUNCTYPE(None, s, p, ctypes.c_int, s)(_on_assert_rtn)
    return {k: ctypes.cast(v, ctypes.c_void_p).value or 0 for k, v in _HOOKS.items()}


# --------------------------------------------------------------------------- JIT


def _check_externals(llvm, mod, symbols: dict) -> None:
    """Every function the program calls but does not define must be found in this process
    (the C library; for C++, the C++ runtime, loaded here): otherwise the JIT would call
    address 0.  A C++ library function that is not in its headers (zig c++'s libc++ is
    not loaded) is an error naming it."""
    missing = []
    for f in mod.functions:
        if not f.is_declaration or f.name.startswith("llvm.") or f.name in symbols:
            continue
        if not llvm.address_of_symbol(f.name) and f.name.startswith("_Z"):
            _load_cxx_runtime(llvm)
        if not llvm.address_of_symbol(f.name):
            missing.append(f.name)
    if missing:
        shown = ", ".join(f"'{_demangle(n)}'" for n in missing[:6])
        raise WorkerError(f"the program calls {shown}{' ...' if len(missing) > 6 else ''}, "
                          f"which native execution cannot find: it links the C library and "
                          f"the C++ runtime (operator new/delete), not the compiled parts of "
                          f"the C++ standard library (give the testbench plain arrays, or "
                          f"--cc clang-19 for libstdc++'s headers)")


def _demangle(name: str) -> str:
    """As hls.names.demangle (the worker imports nothing of pyhls it can do without)."""
    try:
        import cxxfilt
        return cxxfilt.demangle(name)
    except Exception:
        return name


_CXX_RUNTIME: list = []


def _load_cxx_runtime(llvm) -> None:
    if not _CXX_RUNTIME:
        import ctypes.util
        lib = ctypes.util.find_library("stdc++") or ctypes.util.find_library("c++")
        _CXX_RUNTIME.append(lib)
        if lib:
            llvm.load_library_permanently(lib)


#: LLVM's code generator calls these for a 128-bit division or remainder (``udiv i128``,
#: ``sdiv i96`` widened...): the compiler runtime's, libgcc_s here, which the Python
#: process need not have loaded
_INT128_LIBCALLS = ("__udivti3", "__divti3", "__umodti3", "__modti3")
_WIDE_DIV = re.compile(r"\b[us](?:div|rem) i(\d+)\b")


def _load_int128_runtime(llvm, ll: str) -> None:
    """Make the 128-bit division helpers resolvable when the program divides integers
    wider than 64 bits (the JIT would otherwise call address 0)."""
    if not any(int(m.group(1)) > 64 for m in _WIDE_DIV.finditer(ll)):
        return
    if all(llvm.address_of_symbol(n) for n in _INT128_LIBCALLS):
        return
    import ctypes.util
    lib = ctypes.util.find_library("gcc_s")
    if lib:
        llvm.load_library_permanently(lib)
    missing = [n for n in _INT128_LIBCALLS if not llvm.address_of_symbol(n)]
    if missing:
        raise WorkerError(f"the program divides integers wider than 64 bits, and native "
                          f"execution cannot find the compiler runtime's {missing[0]} "
                          f"(libgcc_s)")


class Jit:
    def __init__(self, ll: str, symbols: dict[str, int] | None = None):
        import llvmlite.binding as llvm

        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        if "__pyhls_fp_" in ll:  # custom floating-point formats: reference-model callbacks
            from hls.verify._fpgolden import callback_symbols

            symbols = {**callback_symbols(ll), **(symbols or {})}
        symbols = {**libc_hooks(), **(symbols or {})}
        for name, addr in (symbols or {}).items():
            llvm.add_symbol(name, addr)
        _load_int128_runtime(llvm, ll)
        self.mod = llvm.parse_assembly(ll)
        self.mod.verify()
        target = llvm.Target.from_default_triple()
        self.tm = target.create_target_machine(opt=1)
        self.engine = llvm.create_mcjit_compiler(self.mod, self.tm)   # (the process's
        _check_externals(llvm, self.mod, symbols)                      # symbols searchable)
        self.engine.finalize_object()
        self.engine.run_static_constructors()
        #: each global's own allocation in bytes (Module.get_global_variable skips
        #: internal globals, so by iteration)
        self.sizes = {g.name: self.tm.target_data.get_abi_size(g.global_value_type)
                      for g in self.mod.global_variables}

    def fn(self, name: str) -> int:
        addr = self.engine.get_function_address(name)
        if not addr:
            raise WorkerError(f"no JIT address for function @{name}")
        return addr

    def global_bytes(self, sizes: dict[str, int]) -> dict[str, bytes]:
        """The bytes of each global, at most ``sizes[name]`` and never past the global's
        own allocation: a hardware memory is rounded up to whole words (an 11-byte packed
        struct is four 4-byte words), and the bytes after the C object belong to the next
        global in the host's data section, not to this one.  A shorter result means
        'unchanged beyond' to the comparison (the padding keeps its initial zeros)."""
        out = {}
        for name, size in sizes.items():
            addr = self.engine.get_global_value_address(name)
            if not addr:
                raise WorkerError(f"global @{name} not found in the LLVM module")
            out[name] = ctypes.string_at(addr, min(size, self.sizes.get(name, size)))
        return out


class _Queue(ctypes.Structure):
    """``struct __pyhls_queue`` of hls_stream.h."""
    _fields_ = [("data", ctypes.c_void_p), ("head", ctypes.c_size_t),
                ("tail", ctypes.c_size_t), ("cap", ctypes.c_size_t),
                ("name", ctypes.c_char_p), ("size", ctypes.c_size_t)]


def _queue(ptr: int) -> _Queue:
    return _Queue.from_address(ptr)


def _pending(ptr: int) -> bytes:
    q = _queue(ptr)
    if not q.data or q.tail <= q.head:
        return b""
    return ctypes.string_at(q.data + q.head, q.tail - q.head)


def _stream_in(ptr: int, size: int) -> bytes:
    """An input stream's memory before a call: its waiting elements (as many as fit)."""
    data = _pending(ptr)[:size]
    return data + bytes(size - len(data))


def _stream_out(ptr: int, before: int, size: int, mem_in: bytes, k: int) -> bytes:
    """An output stream's memory after a call that found ``before`` bytes waiting in it:
    what the call appended, from element 0, then ``mem_in``'s bytes."""
    data = _pending(ptr)
    out = data[before:] if len(data) >= before else b""
    if len(out) > size:
        raise WorkerError(f"the top wrote {len(out)} bytes to its hls::stream argument {k}, "
                          f"more than the {size} its port holds: give a larger --depth")
    return out + mem_in[len(out):size]


_LIBC: list = []


def _new_queue(data: bytes, elem: int) -> tuple:
    """A native queue holding ``data`` (its buffer from malloc: the queue may free it)."""
    if not _LIBC:
        libc = ctypes.CDLL(None)
        libc.malloc.restype = ctypes.c_void_p
        libc.malloc.argtypes = [ctypes.c_size_t]
        _LIBC.append(libc)
    libc = _LIBC[0]
    cap = max(64, 2 * len(data))
    buf = libc.malloc(cap)
    ctypes.memmove(buf, data, len(data))
    q = _Queue(buf, 0, len(data), cap, b"arg", elem)
    return q, ctypes.cast(ctypes.pointer(q), ctypes.c_void_p)


def _clamp_disjoint(ptrs: dict[int, int], sizes: dict[int, int]) -> dict[int, int]:
    """Byte ranges per pointer argument, cut where another argument's range begins.

    Sizes come from depths, which only bound what a call may touch; hardware gives every
    pointer argument its own memory (no aliasing), so the part of an over-long range that
    runs into the next argument's buffer cannot belong to this argument.  Without the cut
    that buffer's outputs would show up as spurious changes of this one."""
    out = {}
    for k, n in sizes.items():
        p = ptrs[k]
        for j, q in ptrs.items():
            if j != k and p < q < p + n:
                n = q - p
        out[k] = n
    return out


def _snap(ptr: int, size: int) -> bytes:
    if not ptr or size <= 0:
        return bytes(max(size, 0))
    return ctypes.string_at(ptr, size)


def _quoted(name: str) -> str:
    """An LLVM name as written after ``@`` or ``$``: quoted unless it is plain."""
    return name if re.fullmatch(r"[-\w.$]+", name) else '"' + name + '"'


def do_capture(req: dict[str, Any]) -> dict[str, Any]:
    ll: str = req["ll"]
    top: str = req["top"]
    ptr_args: dict[int, int] = req["ptr_args"]
    gsizes: dict[str, int] = req.get("globals") or {}
    streams: dict[int, str] = req.get("streams") or {}
    ret_t, params = signature(ll, top)
    for k in ptr_args:
        if not (0 <= k < len(params)) or params[k].kind != "ptr":
            raise WorkerError(f"argument {k} of @{top} is not a pointer")
    real = REAL_PREFIX + top
    line = _define_line(ll, top)
    if line is None:
        raise WorkerError(f"cannot find the definition line of @{top}")
    rest = ll[line.end():]
    head, brace, body = rest.partition("{")
    # a C++ inline function's implicit comdat is named after it: keep that name
    head = re.sub(r"\bcomdat\b(?!\s*\()", f"comdat(${_quoted(top)})", head, count=1)
    byval = _byval_params(ll, top)
    ll2 = (ll[:line.start()] + line.group(1) + f"@{real}(" + _BYVAL.sub("", head) + brace
           + body)
    bound = top                     # the symbol the capture callback is bound to
    wide = _wide(ret_t, params)     # integers of more than 64 bits: shims of 64-bit words
    wide_ret = ret_t.wide
    if wide:                        # the testbench's calls reach the callback in words
        bound = WIDE_CAPTURE_SYMBOL     # (and a struct in memory as a pointer to it)
        ll2 += _wide_shims(top, bound, ret_t, params, flat_in=False, byval=byval)
        ll2 += _wide_shims(SPLIT_SYMBOL, real, ret_t, params, flat_in=True)
    elif byval:                     # the testbench's calls copy the struct: a shim
        bound = CAPTURE_SYMBOL
        ll2 += _byval_shim(top, bound, ret_t, params, byval, declare=True)
    else:
        decl_params = ", ".join(
            p.ir + (" signext" if p.kind == "int" and p.signed else "") for p in params)
        ret_ext = " signext" if ret_t.kind == "int" and ret_t.signed else ""
        ll2 += f"\ndeclare{ret_ext} {ret_t.ir} @{top}({decl_params})\n"

    ports = Ports(params, [p.name for p in params], req.get("ports") or {})
    if wide:
        restype, argtypes = _flat_ctypes(ret_t, params)
        proto = ctypes.CFUNCTYPE(restype, *argtypes)
    else:
        proto = ctypes.CFUNCTYPE(ret_t.ctype, *[p.ctype for p in params])
    calls: list[dict[str, Any]] = []
    state: dict[str, Any] = {"real": None, "jit": None, "error": None}

    def callback(*flat: Any) -> Any:
        try:
            jit: Jit = state["jit"]
            retp = flat[0] if wide_ret else None
            args = _unflat(params, flat[1:] if wide_ret else flat) if wide else list(flat)
            scalars = ports.join({i: p.to_bits(a) for i, (p, a) in enumerate(zip(params, args))
                                  if p.kind != "ptr"})
            ptrs = {k: int(args[k] or 0) for k in ptr_args}
            sizes = _clamp_disjoint({k: p for k, p in ptrs.items() if k not in streams},
                                    {k: n for k, n in ptr_args.items() if k not in streams})
            mem_in = {k: _snap(ptrs[k], n) for k, n in sizes.items()}
            before = {}
            for k in streams:
                mem_in[k] = _stream_in(ptrs[k], ptr_args[k])
                before[k] = len(_pending(ptrs[k]))
            glob_in = jit.global_bytes(gsizes)
            result = state["real"](*flat)
            if wide_ret:
                result = int.from_bytes(ctypes.string_at(retp, -(-ret_t.width // 8)), "little")
            mem_out = {k: _snap(ptrs[k], n) for k, n in sizes.items()}
            for k, how in streams.items():
                mem_out[k] = (_stream_out(ptrs[k], before[k], ptr_args[k], mem_in[k], k)
                              if how == "w" else mem_in[k])
            glob_out = jit.global_bytes(gsizes)
            ret = None if ret_t.kind == "void" else ret_t.to_bits(result)
            calls.append({"scalars": scalars, "mem_in": mem_in, "mem_out": mem_out,
                          "ret": ret, "glob_in": glob_in, "glob_out": glob_out})
            return None if wide_ret else result
        except BaseException as exc:  # noqa: BLE001 - reported after main returns
            if state["error"] is None:
                state["error"] = "".join(traceback.format_exception(exc))
            return None if ret_t.kind == "void" or wide_ret else 0

    cb = proto(callback)
    jit = Jit(ll2, {bound: ctypes.cast(cb, ctypes.c_void_p).value or 0})
    state["jit"] = jit
    state["real"] = proto(jit.fn(SPLIT_SYMBOL if wide else real))
    main = ctypes.CFUNCTYPE(ctypes.c_int)(jit.fn("main"))

    def done(main_ret: int) -> dict[str, Any]:
        if state["error"]:
            raise WorkerError("error while capturing a call of the top function:\n"
                              + state["error"])
        return {"calls": calls, "main_ret": main_ret}

    _ON_EXIT["fn"] = done  # exit(n) in the testbench: the calls so far
    return done(main())


def do_main(req: dict[str, Any]) -> dict[str, Any]:
    jit = Jit(req["ll"])
    main = ctypes.CFUNCTYPE(ctypes.c_int)(jit.fn("main"))
    # exit(n) anywhere: as if main returned n
    def finish(status: int) -> dict[str, Any]:
        globs = jit.global_bytes(req.get("globals") or {})
        dangling: dict[str, list[int]] = {}
        if req.get("ptr_slots"):  # pointers held in globals: as the hardware encodes them
            globs = _encode_pointers(jit, globs, req.get("ptr_tags") or {}, req["ptr_slots"],
                                     dangling)
        return {"main_ret": status, "globals": globs, "dangling": dangling}

    _ON_EXIT["fn"] = finish
    return finish(main())


def _encode_pointers(jit: "Jit", globs: dict[str, bytes], tags: dict[str, list[int]],
                     slots: dict[str, list[int]],
                     dangling: dict[str, list[int]] | None = None) -> dict[str, bytes]:
    """Native pointers held in globals, re-encoded as the hardware holds them: the
    pointed-to global's tag in the high 32 bits, the byte offset into it in the low.  A
    pointer into no global points into main's frame (a local array): once main has
    returned it is dangling and its value means nothing; its slot goes to ``dangling``
    (global -> byte offsets) and is not compared."""
    spans = []
    for name, (tag, size) in tags.items():
        addr = jit.engine.get_global_value_address(name)
        if addr:
            spans.append((addr, size, tag))
    out = dict(globs)
    for name, offs in slots.items():
        if name not in out:
            continue
        data = bytearray(out[name])
        for o in offs:
            if o + 8 > len(data):
                continue
            p = int.from_bytes(data[o:o + 8], "little")
            if p == 0:
                continue
            # inside a global, else one past its end
            hit = next(((t, p - a) for a, n, t in spans if a <= p < a + n), None) or next(
                ((t, p - a) for a, n, t in spans if p == a + n), None)
            if hit is not None:
                data[o:o + 8] = ((hit[0] << 32) | hit[1]).to_bytes(8, "little")
            elif dangling is not None:
                dangling.setdefault(name, []).append(o)
        out[name] = bytes(data)
    return out


def do_calls(req: dict[str, Any]) -> dict[str, Any]:
    ll: str = req["ll"]
    top: str = req["top"]
    ptr_args: dict[int, int] = req["ptr_args"]
    gsizes: dict[str, int] = req.get("globals") or {}
    streams: dict[int, str] = req.get("streams") or {}
    ret_t, params = signature(ll, top)
    ports = Ports(params, [p.name for p in params], req.get("ports") or {})
    wide = _wide(ret_t, params)     # integers of more than 64 bits: a shim of 64-bit words
    wide_ret = ret_t.wide
    if _byval_params(ll, top):      # a struct by value: called with a pointer to it
        ll = _strip_byval(ll, top)
    if wide:
        ll += _wide_shims(SPLIT_SYMBOL, top, ret_t, params, flat_in=True)
        restype, argtypes = _flat_ctypes(ret_t, params)
    jit = Jit(ll)
    if wide:
        fn = ctypes.CFUNCTYPE(restype, *argtypes)(jit.fn(SPLIT_SYMBOL))
    else:
        fn = ctypes.CFUNCTYPE(ret_t.ctype, *[p.ctype for p in params])(jit.fn(top))
    out = []
    for i, c in enumerate(req["calls"]):
        bufs = {}
        queues = {}
        args: list[Any] = []
        c = dict(c, scalars=ports.split(dict(c["scalars"])))
        for k, p in enumerate(params):
            if k in streams:
                size = ptr_args.get(k, 0)
                data = bytes(c["mem_in"].get(k, b""))[:size]
                data += bytes(size - len(data))
                q, ptr = _new_queue(data if streams[k] == "r" else b"", 0)
                queues[k] = (q, data)
                args.append(ptr)
            elif p.kind == "ptr":
                size = ptr_args.get(k, 0)
                data = bytes(c["mem_in"].get(k, b""))
                data = (data + bytes(max(0, size - len(data))))[:max(size, len(data))]
                buf = ctypes.create_string_buffer(data, len(data) + 64)
                bufs[k] = buf
                args.append(ctypes.cast(buf, ctypes.c_void_p))
            else:
                if k not in c["scalars"]:
                    raise WorkerError(f"call {i}: no value for scalar argument {k}")
                args.append(p.from_bits(c["scalars"][k]))
        glob_in = jit.global_bytes(gsizes)
        mem_in = {k: ctypes.string_at(bufs[k], ptr_args.get(k, 0)) for k in bufs}
        mem_in.update({k: data for k, (_q, data) in queues.items()})
        if wide:
            retbuf = ctypes.create_string_buffer(16 * -(-max(ret_t.width, 1) // 128))
            result = fn(*(([ctypes.cast(retbuf, ctypes.c_void_p)] if wide_ret else [])
                          + _flat_args(params, args)))
            if wide_ret:
                result = int.from_bytes(retbuf.raw[:-(-ret_t.width // 8)], "little")
        else:
            result = fn(*args)
        mem_out = {k: ctypes.string_at(bufs[k], ptr_args.get(k, 0)) for k in bufs}
        for k, (q, data) in queues.items():
            addr = ctypes.addressof(q)
            mem_out[k] = (_stream_out(addr, 0, ptr_args.get(k, 0), data, k)
                          if streams[k] == "w" else data)
        scalars = ports.join({k: p.to_bits(p.from_bits(c["scalars"][k]))
                              for k, p in enumerate(params) if p.kind != "ptr"})
        out.append({"scalars": scalars, "mem_in": mem_in, "mem_out": mem_out,
                    "ret": None if ret_t.kind == "void" else ret_t.to_bits(result),
                    "glob_in": glob_in, "glob_out": jit.global_bytes(gsizes)})
    return {"calls": out}


def main(argv: list[str]) -> int:
    global _RESP_PATH
    req_path, resp_path = argv[1], argv[2]
    _RESP_PATH = resp_path
    with open(req_path, "rb") as f:
        req = pickle.load(f)
    try:
        handler = {"capture": do_capture, "main": do_main, "calls": do_calls}[req["kind"]]
        resp = {"ok": True, **handler(req)}
    except WorkerError as exc:
        resp = {"ok": False, "error": str(exc)}
    except Exception:  # noqa: BLE001 - any failure goes back to the parent as text
        resp = {"ok": False, "error": traceback.format_exc()}
    with open(resp_path, "wb") as f:
        pickle.dump(resp, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
