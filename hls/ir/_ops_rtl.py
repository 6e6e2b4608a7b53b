"""The combinational hardware of each op kind: Amaranth expression builders.

Each builder takes the op and its operand values (exact-width unsigned Amaranth values)
and returns the expression of its ``op.width``-bit result.  They live beside the op
definitions (:mod:`hls.ir._ops` names one per kind) rather than in :mod:`hls.rtl` so that
an op kind is defined in one place: the FSMD and the pipeline controller both call
``op_def(kind).rtl``, and ``tests/test_op_rtl.py`` checks every builder against the
evaluation rule of the same definition.  Only Amaranth is needed here, never ``hls.rtl``.

The expressions are part of the generated Verilog: changing their shape (even to an
equivalent one) changes the output, which ``benchmarks/verilog_baseline.py`` catches.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Mux
from amaranth.hdl import Const as AConst

__all__ = ["magic_unsigned"]


def magic_unsigned(d: int, n: int) -> tuple[int, int]:
    """``(m, shift)`` with ``x // d == (x * m) >> shift`` for every ``0 <= x < 2**n``.

    Granlund and Montgomery, "Division by Invariant Integers using Multiplication" (PLDI
    1994), Theorem 4.2: for ``0 <= x < 2**N`` and ``2**(l-1) < d <= 2**l``,
    ``floor(x / d) == floor(x * m / 2**(N + l))`` with ``m = ceil(2**(N + l) / d)``.  It
    is here because the hardware of ``udivc``/``sdivc``/... is built from it;
    ``hls.transforms`` re-exports it."""
    if d <= 0:
        raise ValueError("divisor must be positive")
    if d & (d - 1) == 0:
        return 1, d.bit_length() - 1
    ell = (d - 1).bit_length()
    m = -(-(1 << (n + ell)) // d)
    return m, n + ell


def _neg(v, w: int):
    """``-v`` modulo ``2**w`` as a ``w``-bit value, whatever the width of ``v``: a narrower
    ``v`` is zero-extended first (``(-v)[:w]`` of a narrow ``v`` would be narrow too, and
    zero-extend where the negation must sign-extend)."""
    return (AConst(0, w) - v)[:w]


def div_const(op, a: list):
    """Quotient/remainder by the constant ``attrs["divisor"]`` (see
    hls.transforms._divconst): a multiply by the scaled reciprocal.  Every intermediate is
    exactly ``w`` bits wide."""
    k, x, w, d = op.kind, a[0], op.width, op.attrs["divisor"]
    signed = k[0] == "s"
    ad = abs(d)
    if signed:
        neg_x = x[w - 1]
        mag = Mux(neg_x, _neg(x, w), x)[:w]  # |x| as w-bit unsigned (INT_MIN stays 2**(w-1))
    else:
        mag = x
    m, sh = magic_unsigned(ad, w)
    if sh or m != 1:
        prod = mag * AConst(m, max(1, m.bit_length()))
        q = Cat(prod, AConst(0, w))[sh:sh + w]  # the product may be narrower than sh + w
    else:
        q = mag
    if k.endswith("divc"):
        if not signed:
            return q
        neg_q = neg_x ^ (d < 0)
        return Mux(neg_q, _neg(q, w), q)
    r = (mag - (q * AConst(ad, max(1, ad.bit_length())))[:w])[:w]
    if not signed:
        return r
    return Mux(neg_x, _neg(r, w), r)


def _shamt(b, w: int):
    k = max(1, (w - 1).bit_length())
    return b[:k] if len(b) > k else b


def shl(op, a):
    return (a[0] << _shamt(a[1], op.width))[:op.width]


def lshr(op, a):
    return (a[0] >> _shamt(a[1], op.width))[:op.width]


def ashr(op, a):
    return (a[0].as_signed() >> _shamt(a[1], op.width))[:op.width]


def icmp(op, a):
    x, y = a
    pred = op.attrs["pred"]
    if pred in ("eq", "ne") and len(x) > 1:
        # against zero: a reduction (x == 0 is written `!x`, which lint takes for a
        # logical operator on a vector)
        zx, zy = (isinstance(v, AConst) and v.value == 0 for v in (x, y))
        if zx or zy:
            nz = (y if zx else x).any()
            return ~nz if pred == "eq" else nz
    if pred.startswith("s"):
        x, y = x.as_signed(), y.as_signed()
    return {
        "eq": lambda: x == y, "ne": lambda: x != y,
        "ugt": lambda: x > y, "uge": lambda: x >= y, "ult": lambda: x < y, "ule": lambda: x <= y,
        "sgt": lambda: x > y, "sge": lambda: x >= y, "slt": lambda: x < y, "sle": lambda: x <= y,
    }[pred]()


def cmp3(op, a):
    """-1, 0 or 1 at the result's width: two comparators and a mux."""
    x, y = a
    if op.kind == "scmp":
        x, y = x.as_signed(), y.as_signed()
    w = op.width
    return Mux(x > y, AConst(1, w), Mux(x < y, AConst((1 << w) - 1, w), AConst(0, w)))


def minmax(op, a):
    k = op.kind
    x, y = a
    if k[0] == "s":
        xs, ys = x.as_signed(), y.as_signed()
    else:
        xs, ys = x, y
    return Mux(xs > ys, x, y) if k.endswith("max") else Mux(xs < ys, x, y)


def abs_(op, a):
    x, w = a[0], op.width
    return Mux(x[w - 1], (-x)[:w], x)


def funnel(op, a):
    x, y, s = a
    w = op.width
    amt = s[:w.bit_length() - 1] if w & (w - 1) == 0 else (s % w)
    both = Cat(y, x)
    if op.kind == "fshl":
        return (both << amt)[w:2 * w]
    return (both >> amt)[:w]


def bitreverse(op, a):
    return Cat(*[a[0][i] for i in reversed(range(op.width))])


def bswap(op, a):
    return Cat(*[a[0][8 * i:8 * i + 8] for i in reversed(range(op.width // 8))])


def ctpop(op, a):
    w = op.width
    total = AConst(0, w)
    for i in range(w):
        total = (total + a[0][i])[:w]
    return total


def ctlz(op, a):
    w = op.width
    r = AConst(w, w)
    for i in range(w):
        r = Mux(a[0][i], AConst(w - 1 - i, w), r)
    return r


def cttz(op, a):
    w = op.width
    r = AConst(w, w)
    for i in reversed(range(w)):
        r = Mux(a[0][i], AConst(i, w), r)
    return r


def signed_sat(op, a):
    w = op.width
    x, y = a[0].as_signed(), a[1].as_signed()
    full = x + y if op.kind == "sadd_sat" else x - y
    hi, lo = (1 << (w - 1)) - 1, -(1 << (w - 1))
    return Mux(full > hi, AConst(hi, w), Mux(full < lo, AConst(lo & ((1 << w) - 1), w), full[:w]))


def uadd_sat(op, a):
    w = op.width
    full = a[0] + a[1]
    return Mux(full[w], AConst((1 << w) - 1, w), full[:w])


def usub_sat(op, a):
    w = op.width
    return Mux(a[0] < a[1], AConst(0, w), (a[0] - a[1])[:w])


def slice_(op, a):
    lo = op.attrs["lo"]
    return a[0][lo:lo + op.width]


def concat(op, a):
    return Cat(*a)


def select(op, a):
    return Mux(a[0], a[1], a[2])
