"""Golden execution of custom floating-point formats (``--fp-format FUNC=eEmM``).

The hardware of a function with a custom format ``C`` keeps float/double values in their
C-language format ``F`` (memory, registers, arguments) and computes every arithmetic
operation in ``C``: operands are rounded ``F -> C`` at the operation's inputs, the result
is computed in ``C`` and widened back ``C -> F`` (exactly: ``C`` must fit in ``F``).  Sign
operations (fneg, fabs, copysign) act on the bits and are not converted.

For co-simulation the same semantics run natively: :func:`rewrite_ll` replaces each such
LLVM instruction of the selected functions by a call of an external function
``@__pyhls_fp_<fmt>_<op>_<types>`` with the instruction's own signature, and the golden
worker binds those names (:func:`callback_symbols`) to ctypes callbacks that evaluate
the bit-exact reference models of :mod:`hls.fpu.ref`.
"""

from __future__ import annotations

import ctypes
import re
import struct

import numpy as np

from ..fpu import BINARY32, BINARY64, FPFormat, ref

PREFIX = "__pyhls_fp_"
_FT = {"float": "f32", "double": "f64"}
_TF = {"f32": "float", "f64": "double"}
_FMT = {"f32": BINARY32, "f64": BINARY64}
_FMF = r"(?:(?:nnan|ninf|nsz|arcp|contract|afn|reassoc|fast) )*"
_V = r"([^,()]+?)"


def _name(fmt: FPFormat, op: str, *types: str) -> str:
    return PREFIX + f"{fmt.name}_{op}_" + "_".join(types)


def rewrite_ll(ll: str, formats: dict[str, FPFormat]) -> str:
    """``ll`` with the float arithmetic of the functions in ``formats`` (LLVM names)
    replaced by calls of the reference-model callbacks."""
    lines = ll.split("\n")
    out, decls = [], {}
    cur = None
    for line in lines:
        m = re.match(r"define [^@]*@(\"[^\"]+\"|[-\w.$]+)\(", line)
        if m:
            cur = formats.get(m.group(1).strip('"'))
        elif line.startswith("}"):
            cur = None
        if cur is not None and not line.startswith("define"):
            line = _rewrite_line(line, cur, decls)
        out.append(line)
    out.extend(decls.values())
    return "\n".join(out) + "\n"


def _dbg(line: str) -> str:
    m = re.search(r", (!dbg !\d+)", line)
    return f", {m.group(1)}" if m else ""


def _rewrite_line(line: str, c: FPFormat, decls: dict) -> str:
    def call(res: str, ret: str, name: str, args: list[tuple[str, str]]) -> str:
        decls[name] = f"declare {ret} @{name}({', '.join(t for t, _ in args)})"
        return (f"  {res} = call {ret} @{name}(" + ", ".join(f"{t} {v}" for t, v in args)
                + ")" + _dbg(line))

    m = re.match(r"\s*(%[-\w.$]+) = (fadd|fsub|fmul|fdiv) " + _FMF + r"(float|double) "
                 + _V + ", " + _V + r"(?:,|$)", line)
    if m:
        res, op, t, a, b = m.groups()
        return call(res, t, _name(c, op, _FT[t]), [(t, a), (t, b)])
    m = re.match(r"\s*(%[-\w.$]+) = fcmp " + _FMF + r"(\w+) (float|double) " + _V + ", " + _V
                 + r"(?:,|$)", line)
    if m:
        res, pred, t, a, b = m.groups()
        return call(res, "i1", _name(c, "fcmp", pred, _FT[t]), [(t, a), (t, b)])
    m = re.match(r"\s*(%[-\w.$]+) = (fptosi|fptoui) (float|double) " + _V + r" to i(\d+)", line)
    if m:
        res, op, t, a, w = m.groups()
        return call(res, f"i{w}", _name(c, op, _FT[t], f"i{w}"), [(t, a)])
    m = re.match(r"\s*(%[-\w.$]+) = (sitofp|uitofp) (?:nneg )?i(\d+) " + _V + r" to (float|double)",
                 line)
    if m:
        res, op, w, a, t = m.groups()
        return call(res, t, _name(c, op, f"i{w}", _FT[t]), [(f"i{w}", a)])
    m = re.match(r"\s*(%[-\w.$]+) = (fpext|fptrunc) (float|double) " + _V + r" to (float|double)",
                 line)
    if m:
        res, _, ts, a, td = m.groups()
        return call(res, td, _name(c, "fpconv", _FT[ts], _FT[td]), [(ts, a)])
    m = re.search(r"call " + _FMF + r"(float|double) @llvm\.(fmuladd|fma|sqrt|minnum|maxnum)\.f(32|64)\(",
                  line)
    if m:
        t, op = m.group(1), m.group(2)
        name = _name(c, op, _FT[t])
        n = 3 if op in ("fmuladd", "fma") else 1 if op == "sqrt" else 2
        decls[name] = f"declare {t} @{name}({', '.join([t] * n)})"
        return line[:m.start()] + f"call {t} @{name}(" + line[m.end():]
    return line


# --------------------------------------------------------------------------- worker side

_KEEP: list = []  # ctypes callbacks must outlive the JIT


def _ctype(t: str):
    if t == "f32":
        return ctypes.c_float
    if t == "f64":
        return ctypes.c_double
    if t == "i1":
        return ctypes.c_bool
    w = int(t[1:])
    return {8: ctypes.c_uint8, 16: ctypes.c_uint16, 32: ctypes.c_uint32}.get(
        8 if w <= 8 else 16 if w <= 16 else 32 if w <= 32 else 64, ctypes.c_uint64)


def _bits(t: str, x) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0] if t == "f32" else \
        struct.unpack("<Q", struct.pack("<d", x))[0]


def _val(t: str, bits: int):
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0] if t == "f32" else \
        struct.unpack("<d", struct.pack("<Q", bits & (2**64 - 1)))[0]


def _make(fmt: FPFormat, op: str, types: list[str]):
    """(ctypes prototype args, python function) of one callback."""
    u = np.uint64

    def q(t, x):  # round an F value to C
        return ref.convert(_FMT[t], fmt, u(_bits(t, x)))

    def e(t, cbits):  # widen a C value back to F (exact)
        return _val(t, int(ref.convert(fmt, _FMT[t], cbits)))

    if op in ("fadd", "fsub", "fmul", "fdiv", "minnum", "maxnum"):
        t = types[0]
        f = {"fadd": ref.add, "fsub": ref.sub, "fmul": ref.mul, "fdiv": ref.div,
             "minnum": ref.minnum, "maxnum": ref.maxnum}[op]
        return [t, t, t], lambda a, b: e(t, f(fmt, q(t, a), q(t, b)))
    if op == "sqrt":
        t = types[0]
        return [t, t], lambda a: e(t, ref.sqrt(fmt, q(t, a)))
    if op == "fma":
        t = types[0]
        return [t, t, t, t], lambda a, b, c: e(t, ref.fma(fmt, q(t, a), q(t, b), q(t, c)))
    if op == "fmuladd":  # two roundings, as the hardware (an fmul then an fadd)
        t = types[0]
        return [t, t, t, t], lambda a, b, c: e(t, ref.add(fmt, ref.mul(fmt, q(t, a), q(t, b)),
                                                          q(t, c)))
    if op == "fcmp":
        pred, t = types
        return ["i1", t, t], lambda a, b: bool(ref.fcmp(fmt, pred, q(t, a), q(t, b)))
    if op in ("fptosi", "fptoui"):
        t, it = types
        w = int(it[1:])
        return [it, t], lambda a: int(ref.to_int(fmt, q(t, a), w, op == "fptosi"))
    if op in ("sitofp", "uitofp"):
        it, t = types
        w = int(it[1:])
        return [t, it], lambda x: e(t, ref.from_int(fmt, u(int(x) & ((1 << w) - 1)), w,
                                                    op == "sitofp"))
    if op == "fpconv":
        ts, td = types
        return [td, ts], lambda a: e(td, q(ts, a))
    raise ValueError(f"unknown floating-point callback {op}")


def callback_symbols(ll: str) -> dict[str, int]:
    """Addresses of ctypes callbacks for every ``@__pyhls_fp_*`` function ``ll`` declares."""
    out = {}
    for name in sorted(set(re.findall(r"declare [^@]*@(" + PREFIX + r"[\w]+)\(", ll))):
        fmt_name, op, *types = name[len(PREFIX):].split("_")
        sig, fn = _make(FPFormat.parse(fmt_name), op, types)
        proto = ctypes.CFUNCTYPE(*[_ctype(t) for t in sig])
        cb = proto(fn)
        _KEEP.append(cb)
        out[name] = ctypes.cast(cb, ctypes.c_void_p).value
    return out
