"""What each CDFG operation computes: one evaluation rule per op kind.

Values are unsigned Python ints holding ``width`` bits (two's complement for the signed
views).  Where LLVM gives poison or undefined behaviour (division by zero, signed
overflow of ``sdiv``, a shift by the width or more), :func:`eval_op` raises
:class:`Undefined`: no hardware result is wrong there, so differential checks skip such
inputs instead of comparing them.

This table is the reference that the IR interpreter (:mod:`hls.ir._interp`), the tests of
every rewriting pass and the tests of the RTL expression of every op read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

__all__ = ["INT_KINDS", "Undefined", "eval_op", "to_signed"]


class Undefined(Exception):
    """The operation has no defined result on these operands (poison or UB in LLVM)."""


def _mask(w: int) -> int:
    return (1 << w) - 1


def to_signed(v: int, w: int) -> int:
    v &= _mask(w)
    return v - (1 << w) if v >> (w - 1) else v


def _tdiv(a: int, b: int) -> int:
    """C division: the quotient truncates toward zero."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _sdiv(a: int, b: int, w: int) -> int:
    x, y = to_signed(a, w), to_signed(b, w)
    if y == 0 or (x == -(1 << (w - 1)) and y == -1):
        raise Undefined("signed division by zero or overflow")
    return _tdiv(x, y)


def _srem(a: int, b: int, w: int) -> int:
    x, y = to_signed(a, w), to_signed(b, w)
    if y == 0 or (x == -(1 << (w - 1)) and y == -1):
        raise Undefined("signed remainder by zero or overflow")
    return x - _tdiv(x, y) * y


def _udiv(a: int, b: int) -> int:
    if b == 0:
        raise Undefined("division by zero")
    return a // b


def _urem(a: int, b: int) -> int:
    if b == 0:
        raise Undefined("remainder by zero")
    return a % b


def _shift(a: int, b: int, w: int, f: Callable[[int, int], int]) -> int:
    if b >= w:
        raise Undefined("shift by the width or more")
    return f(a, b)


def _icmp(pred: str, a: int, b: int, w: int) -> int:
    if pred[0] == "s":
        a, b = to_signed(a, w), to_signed(b, w)
    return int({"eq": a == b, "ne": a != b, "ugt": a > b, "uge": a >= b, "ult": a < b,
                "ule": a <= b, "sgt": a > b, "sge": a >= b, "slt": a < b, "sle": a <= b}[pred])


def _sat(v: int, lo: int, hi: int) -> int:
    return max(lo, min(hi, v))


def _fsh(kind: str, x: int, y: int, s: int, w: int) -> int:
    s %= w
    both = (x << w) | y
    if kind == "fshl":
        return (both << s) >> w
    return both >> s


def _ctlz(a: int, w: int) -> int:
    return w - a.bit_length()


def _cttz(a: int, w: int) -> int:
    return w if a == 0 else (a & -a).bit_length() - 1


def _divc(kind: str, a: int, w: int, d: int) -> int:
    if kind[0] == "u":
        return (_udiv if kind == "udivc" else _urem)(a, d)
    return (_sdiv if kind == "sdivc" else _srem)(a, d & _mask(w), w)


INT_KINDS = frozenset({
    "add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "udivc", "uremc", "sdivc", "sremc",
    "and", "or", "xor", "shl", "lshr", "ashr", "smax", "smin", "umax", "umin", "abs",
    "sadd_sat", "ssub_sat", "uadd_sat", "usub_sat", "fshl", "fshr", "bitreverse", "bswap",
    "ctpop", "ctlz", "cttz", "icmp", "select", "zext", "sext", "trunc", "slice", "concat"})


def eval_op(kind: str, width: int, attrs: dict, vals: Sequence[int],
            widths: Sequence[int]) -> int:
    """The result (``width`` bits, unsigned) of a pure op of ``kind`` on operand values
    ``vals`` of widths ``widths``.  Floating-point kinds need ``attrs["fmt"]`` and use the
    bit-exact reference models of :mod:`hls.fpu.ref`.  Raises :class:`Undefined` where LLVM
    defines no result."""
    w = width
    m = _mask(w) if w else 0
    a = [v & _mask(x) for v, x in zip(vals, widths)]
    ow = widths[0] if widths else w
    k = kind
    if k == "add":
        r = a[0] + a[1]
    elif k == "sub":
        r = a[0] - a[1]
    elif k == "mul":
        r = a[0] * a[1]
    elif k == "udiv":
        r = _udiv(a[0], a[1])
    elif k == "urem":
        r = _urem(a[0], a[1])
    elif k == "sdiv":
        r = _sdiv(a[0], a[1], w)
    elif k == "srem":
        r = _srem(a[0], a[1], w)
    elif k in ("udivc", "uremc", "sdivc", "sremc"):
        r = _divc(k, a[0], w, attrs["divisor"])
    elif k == "and":
        r = a[0] & a[1]
    elif k == "or":
        r = a[0] | a[1]
    elif k == "xor":
        r = a[0] ^ a[1]
    elif k == "shl":
        r = _shift(a[0], a[1], w, lambda x, s: x << s)
    elif k == "lshr":
        r = _shift(a[0], a[1], w, lambda x, s: x >> s)
    elif k == "ashr":
        r = _shift(to_signed(a[0], w), a[1], w, lambda x, s: x >> s)
    elif k in ("smax", "smin"):
        x, y = to_signed(a[0], w), to_signed(a[1], w)
        r = max(x, y) if k == "smax" else min(x, y)
    elif k in ("umax", "umin"):
        r = max(a[0], a[1]) if k == "umax" else min(a[0], a[1])
    elif k == "abs":
        r = abs(to_signed(a[0], w))  # abs(INT_MIN) wraps to INT_MIN
    elif k in ("sadd_sat", "ssub_sat"):
        x, y = to_signed(a[0], w), to_signed(a[1], w)
        r = _sat(x + y if k == "sadd_sat" else x - y, -(1 << (w - 1)), (1 << (w - 1)) - 1)
    elif k == "uadd_sat":
        r = min(a[0] + a[1], m)
    elif k == "usub_sat":
        r = max(a[0] - a[1], 0)
    elif k in ("fshl", "fshr"):
        r = _fsh(k, a[0], a[1], a[2], w)
    elif k == "bitreverse":
        r = int(format(a[0], f"0{w}b")[::-1], 2)
    elif k == "bswap":
        r = int.from_bytes(a[0].to_bytes(w // 8, "little"), "big")
    elif k == "ctpop":
        r = a[0].bit_count()
    elif k == "ctlz":
        r = _ctlz(a[0], w)
    elif k == "cttz":
        r = _cttz(a[0], w)
    elif k == "icmp":
        r = _icmp(attrs["pred"], a[0], a[1], ow)
    elif k == "select":
        r = a[1] if a[0] & 1 else a[2]
    elif k in ("zext", "trunc"):
        r = a[0]
    elif k == "sext":
        r = to_signed(a[0], ow)
    elif k == "slice":
        r = a[0] >> attrs["lo"]
    elif k == "concat":
        r, sh = 0, 0
        for v, x in zip(a, widths):
            r |= v << sh
            sh += x
    else:
        r = _eval_float(k, w, attrs, a, widths)
    return r & m


def _eval_float(k: str, w: int, attrs: dict, a: list[int], widths: Sequence[int]) -> int:
    from ..fpu import ref

    fmt = attrs.get("fmt")
    if fmt is None:
        raise ValueError(f"no evaluation rule for op kind '{k}'")
    two = {"fadd": ref.add, "fsub": ref.sub, "fmul": ref.mul, "fdiv": ref.div,
           "fminnum": ref.minnum, "fmaxnum": ref.maxnum, "fcopysign": ref.copysign}
    if k in two:
        return int(two[k](fmt, a[0], a[1]))
    if k == "ffma":
        return int(ref.fma(fmt, a[0], a[1], a[2]))
    if k == "fsqrt":
        return int(ref.sqrt(fmt, a[0]))
    if k == "fneg":
        return int(ref.neg(fmt, a[0]))
    if k == "fabs":
        return int(ref.fabs(fmt, a[0]))
    if k == "fcmp":
        return int(ref.fcmp(fmt, attrs["pred"], a[0], a[1]))
    if k in ("fptosi", "fptoui"):
        return int(ref.to_int(fmt, a[0], w, k == "fptosi"))
    if k in ("sitofp", "uitofp"):
        return int(ref.from_int(fmt, a[0], widths[0], k == "sitofp"))
    if k == "fpconv":
        return int(ref.convert(attrs["src"], fmt, a[0]))
    raise ValueError(f"no evaluation rule for op kind '{k}'")
