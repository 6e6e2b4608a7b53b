"""The operators of the datapath, shared by the FSMD and the pipeline controller: the
combinational expression of an op and the multi-cycle units."""

from __future__ import annotations

from amaranth.hdl import Cat, Elaboratable, Module, Mux, Signal

from ..errors import RTLError
from ..ir import op_def
from ..targets import divider_latency


def comb_expr(op, a: list):
    """The combinational expression of ``op`` over its operand values ``a``: the ``rtl``
    builder of its definition (:mod:`hls.ir._ops`)."""
    build = op_def(op.kind).rtl
    if build is None:
        raise RTLError(f"internal error: no hardware for op kind '{op.kind}'")
    return build(op, a)


class SeqDivider(Elaboratable):
    """Sequential radix-2 restoring divider, signed or unsigned per operation.

    Timing (``L = width + 2`` = :func:`hls.targets.divider_latency`): the operands are
    captured (and made non-negative) at the clock edge that ends the issue step, ``width``
    iterations follow, and one more edge fixes the signs into the output registers, so
    ``quot``/``rem`` are valid from step ``issue + L`` on and hold until the next start.
    Division by zero gives an all-ones quotient (its LLVM result is undefined anyway).
    """

    def __init__(self, width: int):
        self.width = width
        self.latency = divider_latency(width)
        assert self.latency == width + 2, "divider latency model and unit disagree"
        self.start = Signal()
        self.signed = Signal()
        self.a = Signal(width)
        self.b = Signal(width)
        self.quot = Signal(width)
        self.rem = Signal(width)

    def elaborate(self, platform):
        m = Module()
        w = self.width
        quo = Signal(w)
        acc = Signal(w)
        den = Signal(w)
        neg_q = Signal()
        neg_r = Signal()
        count = Signal(range(w + 2))
        a_neg = self.signed & self.a[w - 1]
        b_neg = self.signed & self.b[w - 1]
        shifted = Cat(quo[w - 1], acc)  # (acc << 1) | msb(quo), w+1 bits
        diff = Signal(w + 2)
        m.d.comb += diff.eq(shifted - den)
        with m.If(self.start):
            m.d.sync += [
                quo.eq(Mux(a_neg, -self.a, self.a)),
                den.eq(Mux(b_neg, -self.b, self.b)),
                acc.eq(0),
                neg_q.eq(a_neg ^ b_neg),
                neg_r.eq(a_neg),
                count.eq(w + 1),
            ]
        with m.Elif(count > 1):
            m.d.sync += count.eq(count - 1)
            with m.If(~diff[w + 1]):  # no borrow: subtract
                m.d.sync += [acc.eq(diff[:w]), quo.eq(Cat(1, quo[:w - 1]))]
            with m.Else():
                m.d.sync += [acc.eq(shifted[:w]), quo.eq(Cat(0, quo[:w - 1]))]
        with m.Elif(count == 1):
            m.d.sync += [
                count.eq(0),
                self.quot.eq(Mux(neg_q, -quo, quo)),
                self.rem.eq(Mux(neg_r, -acc, acc)),
            ]
        return m
