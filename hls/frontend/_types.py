"""LLVM type strings, their memory layout (x86-64 data layout: natural alignment,
little endian) and constant initialisers turned into bytes.

llvmlite exposes types only as strings for GEP source types and initialisers, so this
module parses the textual type and constant grammar of LLVM IR (the subset that can
describe memory: integers, pointers, floating-point scalars, arrays, literal, packed and
named structs).
"""

from __future__ import annotations

import re
import struct as _struct
from dataclasses import dataclass

from ..errors import FrontendError


@dataclass(frozen=True, slots=True)
class IntT:
    bits: int


@dataclass(frozen=True, slots=True)
class PtrT:
    pass


@dataclass(frozen=True, slots=True)
class FloatT:
    bits: int


@dataclass(frozen=True, slots=True)
class ArrayT:
    n: int
    elem: "LType"


@dataclass(frozen=True, slots=True)
class StructT:
    fields: tuple["LType", ...]
    packed: bool = False
    name: str = ""


@dataclass(frozen=True, slots=True)
class VectorT:
    n: int
    elem: "LType"


LType = IntT | PtrT | FloatT | ArrayT | StructT | VectorT

_TOKEN = re.compile(
    r'\s*(c"(?:[^"\\]|\\.)*"|%"(?:[^"\\]|\\.)*"|@"(?:[^"\\]|\\.)*"|[%@][-\w.$]+|<\{|\}>'
    r'|-?0x[0-9A-Fa-f]+|-?\d+(?:\.\d+)?(?:e[-+]?\d+)?|[A-Za-z_][\w.]*|[\[\]{}(),<>=*])'
)


def tokenize(text: str) -> list[str]:
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            if text[pos:].strip() == "":
                break
            raise FrontendError(f"cannot parse LLVM text near '{text[pos:pos + 30]}'")
        out.append(m.group(1))
        pos = m.end()
    return out


class TypeParser:
    """Parses types (and constants) from a token list; named structs come from the
    module's ``%name = type {...}`` definitions."""

    def __init__(self, named: dict[str, str]):
        self._named_src = named
        self._named: dict[str, StructT] = {}
        #: encodes a pointer constant (``@g`` or a constant getelementptr) found in an
        #: initialiser: ``(toks, i) -> (64-bit value, next i)``; None: rejected
        self.ptr_const = None

    def named(self, name: str) -> StructT:
        if name not in self._named:
            src = self._named_src.get(name)
            if src is None or src.strip() == "opaque":
                raise FrontendError(f"type {name} is opaque or undefined")
            t = self.parse_type(tokenize(src), 0)[0]
            if not isinstance(t, StructT):
                raise FrontendError(f"named type {name} must be a struct")
            self._named[name] = StructT(t.fields, t.packed, name)
        return self._named[name]

    def parse_type(self, toks: list[str], i: int) -> tuple[LType, int]:
        t = toks[i]
        if re.fullmatch(r"i\d+", t):
            return IntT(int(t[1:])), i + 1
        if t == "ptr":
            return PtrT(), i + 1
        if t in ("float", "double", "half", "bfloat", "fp128", "x86_fp80"):
            bits = {"float": 32, "double": 64, "half": 16, "bfloat": 16, "fp128": 128,
                    "x86_fp80": 80}[t]
            return FloatT(bits), i + 1
        if t == "[":
            n = int(toks[i + 1])
            assert toks[i + 2] == "x"
            elem, j = self.parse_type(toks, i + 3)
            assert toks[j] == "]"
            return ArrayT(n, elem), j + 1
        if t == "<":
            n = int(toks[i + 1])
            elem, j = self.parse_type(toks, i + 3)
            return VectorT(n, elem), j + 1
        if t in ("{", "<{"):
            close = "}" if t == "{" else "}>"
            fields, j = [], i + 1
            while toks[j] != close:
                f, j = self.parse_type(toks, j)
                fields.append(f)
                if toks[j] == ",":
                    j += 1
            return StructT(tuple(fields), t == "<{"), j + 1
        if t.startswith("%"):
            return self.named(t), i + 1
        raise FrontendError(f"unsupported LLVM type '{t}'")

    def type_of(self, text: str) -> LType:
        return self.parse_type(tokenize(text), 0)[0]

    # ------------------------------------------------------------------ constants
    def parse_const(self, toks: list[str], i: int, t: LType) -> tuple[bytes, int]:
        """Parse the constant value (after its type) starting at toks[i]."""
        tok = toks[i]
        size = sizeof(t)
        if tok in ("zeroinitializer", "undef", "poison"):
            return bytes(size), i + 1
        if isinstance(t, IntT):
            if tok in ("true", "false"):
                v = int(tok == "true")
            else:
                v = int(tok, 0)
            return (v & ((1 << (8 * size)) - 1)).to_bytes(size, "little"), i + 1
        if isinstance(t, FloatT):
            if tok.startswith("0x") and t.bits == 32:
                # LLVM prints float constants as the double with the same value
                d = _struct.unpack("<d", int(tok, 16).to_bytes(8, "little"))[0]
                return _struct.pack("<f", d), i + 1
            if tok.startswith("0x") and t.bits == 64:
                return int(tok, 16).to_bytes(8, "little"), i + 1
            fmt = {32: "<f", 64: "<d"}.get(t.bits)
            if fmt is None:
                raise FrontendError(f"unsupported floating-point constant type f{t.bits}")
            return _struct.pack(fmt, float(tok)), i + 1
        if isinstance(t, ArrayT):
            if tok.startswith('c"'):
                data = _unescape(tok[2:-1])
                return data, i + 1
            assert tok == "[", tok
            out, j = bytearray(), i + 1
            while toks[j] != "]":
                et, j = self.parse_type(toks, j)
                b, j = self.parse_const(toks, j, et)
                out += b
                if toks[j] == ",":
                    j += 1
            return bytes(out), j + 1
        if isinstance(t, StructT):
            close = "}>" if tok == "<{" else "}"
            out, j, k = bytearray(size), i + 1, 0
            offs = field_offsets(t)
            while toks[j] != close:
                et, j = self.parse_type(toks, j)
                b, j = self.parse_const(toks, j, et)
                out[offs[k]:offs[k] + len(b)] = b
                k += 1
                if toks[j] == ",":
                    j += 1
            return bytes(out), j + 1
        if isinstance(t, PtrT) and tok == "null":
            return bytes(8), i + 1
        if isinstance(t, PtrT) and self.ptr_const is not None and (
                tok.startswith("@") or tok == "getelementptr"):
            v, j = self.ptr_const(toks, i)
            return v.to_bytes(8, "little"), j
        raise FrontendError(f"unsupported constant initialiser '{tok}' of type {t}")


def _unescape(s: str) -> bytes:
    out, i = bytearray(), 0
    while i < len(s):
        if s[i] == "\\":
            if s[i + 1] == "\\":
                out.append(0x5C)
                i += 2
            else:
                out.append(int(s[i + 1:i + 3], 16))
                i += 3
        else:
            out += s[i].encode("latin-1")
            i += 1
    return bytes(out)


def alignof(t: LType) -> int:
    if isinstance(t, IntT):
        return min(16, _pow2_bytes(t.bits))
    if isinstance(t, PtrT):
        return 8
    if isinstance(t, FloatT):
        return min(16, _pow2_bytes(t.bits))
    if isinstance(t, (ArrayT, VectorT)):
        return alignof(t.elem)
    if isinstance(t, StructT):
        return 1 if t.packed else max((alignof(f) for f in t.fields), default=1)
    raise TypeError(t)


def _pow2_bytes(bits: int) -> int:
    n = max(1, (bits + 7) // 8)
    return 1 << (n - 1).bit_length()


def sizeof(t: LType) -> int:
    """The alloc size (ABI size including tail padding)."""
    if isinstance(t, IntT):
        return _pow2_bytes(t.bits)
    if isinstance(t, PtrT):
        return 8
    if isinstance(t, FloatT):
        return 16 if t.bits == 80 else _pow2_bytes(t.bits)
    if isinstance(t, (ArrayT, VectorT)):
        return t.n * sizeof(t.elem)
    if isinstance(t, StructT):
        offs = field_offsets(t)
        end = offs[-1] + sizeof(t.fields[-1]) if t.fields else 0
        a = alignof(t)
        return (end + a - 1) // a * a
    raise TypeError(t)


def store_size(t: LType) -> int:
    """Bytes a load/store of ``t`` touches."""
    if isinstance(t, IntT):
        return (t.bits + 7) // 8
    return sizeof(t)


def field_offsets(t: StructT) -> list[int]:
    offs, off = [], 0
    for f in t.fields:
        if not t.packed:
            a = alignof(f)
            off = (off + a - 1) // a * a
        offs.append(off)
        off += sizeof(f)
    return offs


def element_layout(t: LType) -> tuple[int, tuple[int, ...], tuple[tuple[int, int, str, int], ...]]:
    """How co-simulation messages name the parts of a memory of type ``t``:
    ``(elem_bytes, dims, fields)``.  ``dims`` are the extents of the (nested) array
    ``t`` is, ``elem_bytes`` the size of its innermost element, and ``fields`` one
    ``(byte offset, bytes, suffix, float bits)`` per scalar of an element (suffix ``""``
    for a scalar element, ``.1[2]`` for element 2 of an array in field 1 of a struct)."""
    dims = []
    while isinstance(t, ArrayT):
        dims.append(t.n)
        t = t.elem
    fields: list[tuple[int, int, str, int]] = []

    def leaves(t: LType, off: int, path: str) -> None:
        if len(fields) > 4096:
            return
        if isinstance(t, StructT):
            for i, (f, o) in enumerate(zip(t.fields, field_offsets(t))):
                leaves(f, off + o, f"{path}.{i}")
        elif isinstance(t, (ArrayT, VectorT)):
            for k in range(t.n):
                leaves(t.elem, off + k * sizeof(t.elem), f"{path}[{k}]")
        else:
            fb = t.bits if isinstance(t, FloatT) else 0
            fields.append((off, store_size(t) if not isinstance(t, PtrT) else 8, path, fb))

    leaves(t, 0, "")
    return sizeof(t), tuple(dims), tuple(fields)
