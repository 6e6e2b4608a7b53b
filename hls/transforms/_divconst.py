"""Division and remainder by constants as multiply-high by a scaled reciprocal.

Granlund and Montgomery, "Division by Invariant Integers using Multiplication" (PLDI
1994), Theorem 4.2: for ``0 <= x < 2**N`` and ``2**(l-1) < d <= 2**l``,
``floor(x / d) == floor(x * m / 2**(N + l))`` with ``m = ceil(2**(N + l) / d)``.  The
hardware is a combinational constant multiplier instead of a 34-cycle sequential divider.
Signed operations divide magnitudes and fix signs (C semantics: the quotient truncates
toward zero, the remainder takes the sign of the dividend).
"""

from __future__ import annotations

from ..ir import Const, Function

_KINDS = {"udiv": "udivc", "urem": "uremc", "sdiv": "sdivc", "srem": "sremc"}


def magic_unsigned(d: int, n: int) -> tuple[int, int]:
    """``(m, shift)`` with ``x // d == (x * m) >> shift`` for every ``0 <= x < 2**n``."""
    if d <= 0:
        raise ValueError("divisor must be positive")
    if d & (d - 1) == 0:
        return 1, d.bit_length() - 1
    ell = (d - 1).bit_length()
    m = -(-(1 << (n + ell)) // d)
    return m, n + ell


def divide_by_constants(func: Function) -> int:
    n = 0
    for op in func.ops():
        if op.kind not in _KINDS or not isinstance(op.operands[1], Const):
            continue
        d = op.operands[1]
        w = op.width
        if op.kind[0] == "u":
            dv = d.value
        else:
            dv = d.signed()
            if dv == -(1 << (w - 1)):
                continue  # |INT_MIN| does not fit; keep the sequential divider
        if dv == 0:
            continue  # undefined behaviour: leave it to the divider
        op.kind = _KINDS[op.kind]
        op.operands = [op.operands[0]]
        op.attrs["divisor"] = dv
        n += 1
    return n
