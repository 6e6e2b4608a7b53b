"""What the CDFG operations compute: the arithmetic behind the evaluation rules.

Values are unsigned Python ints holding ``width`` bits (two's complement for the signed
views).  Where LLVM gives poison or undefined behaviour (division by zero, signed
overflow of ``sdiv``, a shift by the width or more), :func:`eval_op` raises
:class:`Undefined`: no hardware result is wrong there, so differential checks skip such
inputs instead of comparing them.

The rule of each kind is the ``eval`` of its definition in :mod:`hls.ir._ops` (read by
:func:`hls.ir.eval_op`); the helpers here are the parts that take more than one line.
That rule is the reference that the IR interpreter (:mod:`hls.ir._interp`), the tests of
every rewriting pass and the tests of the RTL expression of every op read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..fpu import ref

__all__ = ["Undefined", "to_signed"]


class Undefined(Exception):
    """The operation has no defined result on these operands (poison or UB in LLVM)."""


def mask(w: int) -> int:
    return (1 << w) - 1


def to_signed(v: int, w: int) -> int:
    v &= mask(w)
    return v - (1 << w) if v >> (w - 1) else v


def tdiv(a: int, b: int) -> int:
    """C division: the quotient truncates toward zero."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def sdiv(a: int, b: int, w: int) -> int:
    x, y = to_signed(a, w), to_signed(b, w)
    if y == 0 or (x == -(1 << (w - 1)) and y == -1):
        raise Undefined("signed division by zero or overflow")
    return tdiv(x, y)


def srem(a: int, b: int, w: int) -> int:
    x, y = to_signed(a, w), to_signed(b, w)
    if y == 0 or (x == -(1 << (w - 1)) and y == -1):
        raise Undefined("signed remainder by zero or overflow")
    return x - tdiv(x, y) * y


def udiv(a: int, b: int) -> int:
    if b == 0:
        raise Undefined("division by zero")
    return a // b


def urem(a: int, b: int) -> int:
    if b == 0:
        raise Undefined("remainder by zero")
    return a % b


def shift(a: int, b: int, w: int, f: Callable[[int, int], int]) -> int:
    if b >= w:
        raise Undefined("shift by the width or more")
    return f(a, b)


def icmp(pred: str, a: int, b: int, w: int) -> int:
    if pred[0] == "s":
        a, b = to_signed(a, w), to_signed(b, w)
    return int({"eq": a == b, "ne": a != b, "ugt": a > b, "uge": a >= b, "ult": a < b,
                "ule": a <= b, "sgt": a > b, "sge": a >= b, "slt": a < b, "sle": a <= b}[pred])


def cmp3(a: int, b: int, w: int, signed: bool) -> int:
    """Three-way comparison (``llvm.scmp``/``llvm.ucmp``): -1, 0 or 1."""
    if signed:
        a, b = to_signed(a, w), to_signed(b, w)
    return (a > b) - (a < b)


def sat(v: int, lo: int, hi: int) -> int:
    return max(lo, min(hi, v))


def fsh(kind: str, x: int, y: int, s: int, w: int) -> int:
    s %= w
    both = (x << w) | y
    if kind == "fshl":
        return (both << s) >> w
    return both >> s


def ctlz(a: int, w: int) -> int:
    return w - a.bit_length()


def cttz(a: int, w: int) -> int:
    return w if a == 0 else (a & -a).bit_length() - 1


def divc(kind: str, a: int, w: int, d: int) -> int:
    """``udivc``/``uremc``/``sdivc``/``sremc``: division by the constant ``d`` (signed
    for ``s*``), with the poison of the division it replaced."""
    if kind[0] == "u":
        return (udiv if kind == "udivc" else urem)(a, d)
    return (sdiv if kind == "sdivc" else srem)(a, d & mask(w), w)


def bitreverse(a: int, w: int) -> int:
    return int(format(a, f"0{w}b")[::-1], 2)


def bswap(a: int, w: int) -> int:
    return int.from_bytes(a.to_bytes(w // 8, "little"), "big")


def concat(a: Sequence[int], widths: Sequence[int]) -> int:
    """Operand 0 is the low part."""
    r, sh = 0, 0
    for v, x in zip(a, widths):
        r |= v << sh
        sh += x
    return r


def signed_sat(kind: str, a: Sequence[int], w: int) -> int:
    x, y = to_signed(a[0], w), to_signed(a[1], w)
    return sat(x + y if kind == "sadd_sat" else x - y, -(1 << (w - 1)), (1 << (w - 1)) - 1)


#: the binary floating-point reference models by op kind
FP_BINARY = {"fadd": ref.add, "fsub": ref.sub, "fmul": ref.mul, "fdiv": ref.div,
             "fminnum": ref.minnum, "fmaxnum": ref.maxnum, "fcopysign": ref.copysign}
