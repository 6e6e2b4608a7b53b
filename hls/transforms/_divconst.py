"""Division and remainder by constants as multiply-high by a scaled reciprocal.

Granlund and Montgomery, "Division by Invariant Integers using Multiplication" (PLDI
1994), Theorem 4.2: for ``0 <= x < 2**N`` and ``2**(l-1) < d <= 2**l``,
``floor(x / d) == floor(x * m / 2**(N + l))`` with ``m = ceil(2**(N + l) / d)``.  The
hardware is a combinational constant multiplier instead of a multi-cycle sequential
divider (``ceil(w / k) + 2`` cycles, ``k`` bits per cycle from the clock: 10 cycles at 32
bits and 10 ns).
Signed operations divide magnitudes and fix signs (C semantics: the quotient truncates
toward zero, the remainder takes the sign of the dividend).  ``magic_unsigned`` and the
hardware live with the definitions of ``udivc``... (:mod:`hls.ir._ops_rtl`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ir import Const, Function
from ..ir._ops_rtl import magic_unsigned

__all__ = ["DivConstOptions", "divide_by_constants", "magic_unsigned"]


@dataclass(frozen=True, slots=True)
class DivConstOptions:
    #: the target (``hls.targets.Target``): a division whose constant-multiplier form alone
    #: takes longer than the target's chain budget keeps the sequential divider (on ECP5 a
    #: 32-bit one takes 13.6 ns placed and routed); None: every division by a constant
    target: object | None = None

_KINDS = {"udiv": "udivc", "urem": "uremc", "sdiv": "sdivc", "srem": "sremc"}


def divide_by_constants(func: Function, opts: DivConstOptions | None = None) -> int:
    target = opts.target if opts is not None else None
    n = 0
    for op in func.ops():
        if op.kind not in _KINDS or not isinstance(op.operands[1], Const):
            continue
        if target is not None and \
                target.timing(_KINDS[op.kind], op.width).delay_ns > target.chain_budget_ns:
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
