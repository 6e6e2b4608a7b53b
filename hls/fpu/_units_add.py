"""Floating-point addition and subtraction in any :class:`~hls.fpu.FPFormat`.

Single-path adder with leading-zero normalisation (the classic textbook datapath, e.g.
Muller et al., *Handbook of Floating-Point Arithmetic*, 2nd ed., section 7.3):

1. **unpack / swap** -- compare the magnitudes as integers (``exponent:fraction``), order
   the operands so that ``|x| >= |y|``, and take the exponent difference ``d``.
2. **align** -- shift ``y``'s significand (with three extra low bits) right by ``d``; the
   bits shifted out are jammed into the LSB (a sticky bit computed from a trailing-zero
   count beside the shifter).  With ``d >= 2`` at most one bit of cancellation can occur,
   so guard + round + jammed sticky round correctly; with ``d <= 1`` nothing is lost.
3. **add** -- ``x + y`` or ``x - y`` on ``M + 5`` bits (never negative).
4. **count** -- leading zeros of the sum, limited so that the exponent does not drop below
   the subnormal exponent (1): an exactly representable subnormal result falls out of the
   same shifter.
5. **normalise** -- left shift.
6. **round / pack** -- :func:`hls.fpu._common.round_pack`, then special operands.

An exact zero sum is +0 unless both addends are -0 (both rounding modes).
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from ._common import (
    T_LEVEL, Pipeline, Seg, check_args, clamp_shift, clog2, cost_from_segments, d_add, d_lzc,
    d_shift, lzc, rinc_seg, round_pack, shr_sticky, tzc, unpack,
)

__all__ = ["FPAdd"]


class FPAdd(wiring.Component):
    """IEEE 754 ``o = a + b`` (or ``a - b`` with ``sub=True``) in ``fmt``.

    Parameters: ``fmt`` (an FPFormat), ``stages`` (pipeline registers; latency is exactly
    ``stages`` cycles, 0 = combinational), ``rm`` ("rne" or "rtz"), ``ftz`` (flush subnormal
    inputs and tiny results to zero), ``sub`` (a static flag: the unit subtracts; LLVM's
    ``fsub`` gets its own unit).

    Ports: ``a``, ``b`` (in, ``fmt.width``), ``o`` (out, ``fmt.width``), ``ce`` (in, 1: the
    pipeline registers advance only when it is 1).  NaN results are ``fmt.qnan``.
    """

    def __init__(self, fmt, stages: int = 0, rm: str = "rne", ftz: bool = False, sub: bool = False):
        check_args(fmt, stages, rm)
        self.fmt, self.stages, self.rm, self.ftz, self.sub = fmt, stages, rm, bool(ftz), bool(sub)
        w = fmt.width
        super().__init__({"a": In(w), "b": In(w), "o": Out(w), "ce": In(1)})

    @property
    def latency(self) -> int:
        return self.stages

    @staticmethod
    def _segments(fmt, ftz: bool = False) -> list[Seg]:
        E, M = fmt.exp_bits, fmt.man_bits
        sw = clog2(M + 5)  # useful alignment-shift bits
        return [
            Seg("swap", d_add(E + M) + T_LEVEL, 2 * (E + M) + E, 2 * (M + 1) + 2 * E + fmt.width + 4),
            Seg("tz", max(d_lzc(M + 4), d_add(E)), M + 4, 2 * (M + 1) + 2 * E + fmt.width + 4 + sw + 1),
            Seg("align", d_shift(sw + 1) + T_LEVEL, (M + 4) * ((sw + 2) // 2) + (M + 4),
                2 * (M + 4) + E + fmt.width + 4),
            Seg("add", d_add(M + 5), M + 5, (M + 5) + E + fmt.width + 4),
            Seg("lzc", d_lzc(M + 5), M + 5, (M + 5) + E + sw + fmt.width + 4),
            Seg("count", d_add(E + 2), 2 * E, (M + 5) + E + sw + fmt.width + 4),
            Seg("norm", d_shift(sw), (M + 5) * ((sw + 1) // 2), (M + 5) + E + fmt.width + 4),
            rinc_seg(fmt, M + 5, fmt.width + 1),
            Seg("round", d_add(E + M + 2) + T_LEVEL, 2 * fmt.width, fmt.width),
        ]

    @classmethod
    def cost(cls, fmt, stages: int = 0, rm: str = "rne", ftz: bool = False, sub: bool = False) -> dict:
        """Estimated ``latency``, ``delay_ns`` (slowest stage), ``lut``, ``ff``, ``dsp`` (0)
        from the segment model of :mod:`hls.fpu._common`."""
        check_args(fmt, stages, rm)
        return cost_from_segments(cls._segments(fmt, ftz), stages)

    def elaborate(self, platform):
        m = Module()
        fmt, E, M, W = self.fmt, self.fmt.exp_bits, self.fmt.man_bits, self.fmt.width
        pipe = Pipeline(m, self.ce, self._segments(fmt, self.ftz), self.stages)

        # 1. unpack / swap / specials
        b_in = self.b ^ (1 << (W - 1)) if self.sub else self.b
        ua = unpack(m, fmt, self.a, self.ftz, "a")
        ub = unpack(m, fmt, b_in, self.ftz, "b")
        swap = Signal(name="swap")
        m.d.comb += swap.eq(b_in[:W - 1] > self.a[:W - 1])
        xs, ys = Mux(swap, ub.sign, ua.sign), Mux(swap, ua.sign, ub.sign)
        xe, ye = Mux(swap, ub.exp, ua.exp), Mux(swap, ua.exp, ub.exp)
        xm, ym = Mux(swap, ub.sig, ua.sig), Mux(swap, ua.sig, ub.sig)
        special = ua.nan | ub.nan | ua.inf | ub.inf
        nan = ua.nan | ub.nan | (ua.inf & ub.inf & (ua.sign != ub.sign))
        inf_sign = Mux(ua.inf, ua.sign, ub.sign)
        sval = Mux(nan, fmt.qnan, Cat(Const(0, M), Const((1 << E) - 1, E), inf_sign))
        v = pipe.cut(dict(xs=xs, zs=xs & ys, eff_sub=xs ^ ys, xe=xe, d=xe - ye, xm=xm, ym=ym,
                          special=special, sval=sval))

        # 2. align: the distance clamped and the smaller significand's trailing zeros (for
        # the sticky bit), then the shift
        ym3 = Cat(Const(0, 3), v["ym"])
        v = pipe.cut(dict(v, d=clamp_shift(v["d"], len(ym3)), tz=tzc(ym3, m, "align_tz")))
        small, st = shr_sticky(Cat(Const(0, 3), v["ym"]), v["d"], m, "align", tz=v.pop("tz"))
        v = pipe.cut(dict(v, ym=small | st, xm=Cat(Const(0, 3), v["xm"]), d=Const(0, 1)))

        # 3. add (|x| >= |y| so the difference is never negative)
        big, sm = v["xm"], v["ym"]
        total = Signal(M + 5, name="sum")
        m.d.comb += total.eq(Mux(v["eff_sub"], big - sm, big + sm))
        v = pipe.cut(dict(v, total=total, xm=Const(0, 1), ym=Const(0, 1)))

        # 4. count leading zeros, limited to e - 1 (subnormal results)
        v = pipe.cut(dict(v, lz=lzc(v["total"], m)))    # (the counter, then its limit)
        lz = v.pop("lz")
        e_msb = v["xe"] + 1          # exponent of the sum's MSB (bit M+4)
        if self.ftz:
            s = lz
        else:
            lim = v["xe"]            # e_msb - 1 >= 0
            s = Mux(lim < lz, lim, lz)[:len(lz)]
        v = pipe.cut(dict(v, s=s, e=e_msb - s))

        # 5. normalise
        norm = Signal(M + 5, name="norm")
        m.d.comb += norm.eq((v["total"] << v["s"])[:M + 5])
        v = pipe.cut(dict(v, norm=norm, s=Const(0, 1)))

        # 6. round and pack
        exact_zero = v["total"] == 0
        sign = Mux(exact_zero, v["zs"], v["xs"])
        e = Signal(range(-(M + 8), (1 << E) + 2), name="e_norm")
        m.d.comb += e.eq(v["e"])
        res, v = round_pack(m, fmt, sign, e, v["norm"], Const(0, 1), self.rm, self.ftz,
                            pipe=pipe, keep=dict(special=v["special"], sval=v["sval"]))
        out = Signal(W, name="res")
        m.d.comb += out.eq(Mux(v["special"], v["sval"], res))
        v = pipe.cut(dict(o=out))
        pipe.finish()
        m.d.comb += self.o.eq(v["o"])
        return m
