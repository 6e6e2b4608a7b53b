"""Floating-point multiplication and fused multiply-add in any :class:`~hls.fpu.FPFormat`.

**FPMul** (Muller et al., *Handbook of Floating-Point Arithmetic*, 2nd ed., section 7.4):
the exact ``2M + 2``-bit product of the significands (subnormal significands as they are,
without pre-normalisation) is formed from partial products ``a * b[17k:17k+17]`` (each a
column of DSP48 tiles, 24 x 17 bits unsigned; with ``xtile`` the x side is sliced too,
e.g. 18 x 17 tiles, one ECP5 MULT18X18D each) summed by an adder tree, so that a pipeline
register can sit between the DSPs and the tree.  The exponent of the product's MSB is
``ea + eb - bias + 1``.  Normalisation shifts left by the leading-zero count, limited to
``e - 1`` (a subnormal operand times a normal one), or right with a sticky bit when the
exponent is below 1 (gradual underflow); with ``ftz`` the product is normal within one bit.
Then :func:`hls.fpu._common.round_pack`.

**FPFMA** ``a * b + c`` with a single rounding (IEEE fusedMultiplyAdd, LLVM ``llvm.fma``
and ``llvm.fmuladd``), after Berkeley HardFloat's ``MulAddRecFN``: an accumulator of
``Wa = 3M + 10`` bits holds, from the top, a carry bit, ``c``'s significand (``M + 1``),
two spacer bits, the product (``2M + 2``) and four low bits.  ``c`` is placed at the top
and shifted right by ``sh = M + 4 + ea + eb - ec - bias`` (bits falling off jam into the
LSB); when ``sh < 0`` the addend dominates so much that the product only contributes a
sticky bit at the LSB.  The magnitude ``|P - c|`` comes from two subtractors in parallel
(no negation after the fact).  The accumulator's MSB has biased exponent
``ec + 1 + max(sh, 0)``, always >= 2, and normalisation / rounding are as for the
multiplier.  Jammed bits always lie at least two places below the final rounding position,
so one rounding of the exact value results.  ``inf * 0 + c`` is NaN; an exact zero result
is -0 only when the product and ``c`` are both -0.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Module, Mux, Signal, Value, signed
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from ._common import (
    T_LEVEL, Pipeline, Seg, check_args, clog2, cost_from_segments, d_add, d_lzc, d_mul, d_shift,
    dsp_count, lzc, rinc_seg, round_pack, shr_sticky, tzc, unpack,
)

__all__ = ["FPMul", "FPFMA"]

CHUNK = 17  # bits of b per partial product (the unsigned width of a DSP48 B port)


def _chunks(wb: int, size: int = CHUNK) -> list[tuple[int, int]]:
    return [(lo, min(lo + size, wb)) for lo in range(0, wb, size)]


def _tiles(w: int, xtile: int | None) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The partial products of a ``w`` x ``w`` significand product: (x bits, y bits) of
    each; ``xtile``: the width of an x slice (None: x whole, a column of DSP48 tiles; 18
    on ECP5, whose MULT18X18D takes 18 x 18 bits, so each product is one block)."""
    xs = _chunks(w, xtile) if xtile else [(0, w)]
    return [(xc, yc) for xc in xs for yc in _chunks(w)]


def _mul_segs(fmt, xtile: int | None = None) -> tuple[Seg, list[Seg]]:
    """The partial products' segment, and the adder tree's: one segment without
    ``xtile`` (as the DSP48 columns are summed); with it one per level of the tree, so
    that pipeline registers can sit between the levels of its many terms."""
    M = fmt.man_bits
    w = M + 1
    tiles = _tiles(w, xtile)
    n = len(tiles)
    pp_bits = sum((xh - xl) + (yh - yl) for (xl, xh), (yl, yh) in tiles)
    # tiny chunks go to LUTs
    small = sum(xh - xl for (xl, xh), (yl, yh) in tiles if yh - yl < 4 or xh - xl < 4)
    pp = Seg("pp", d_mul(min(w, xtile or w), min(w, CHUNK)), small * 2, pp_bits)
    if xtile is None:
        return pp, [Seg("tree", clog2(n) * d_add(2 * w), (n - 1) * 2 * w, 2 * w)]
    levels = []
    while n > 1 or not levels:
        half = (n + 1) // 2
        levels.append(Seg(f"tree{len(levels)}", d_add(2 * w) if n > 1 else 0.0,
                          (n // 2) * 2 * w, half * 2 * w))
        n = half
    return pp, levels


def _mul_dsps(fmt, xtile: int | None = None) -> int:
    w = fmt.man_bits + 1
    return sum(dsp_count(xh - xl, yh - yl) for (xl, xh), (yl, yh) in _tiles(w, xtile)
               if yh - yl >= 4 and xh - xl >= 4)


def _partial_products(m: Module, x: Value, y: Value, name: str,
                      xtile: int | None = None) -> list[Value]:
    out = []
    for k, ((xl, xh), (yl, yh)) in enumerate(_tiles(len(y), xtile)):
        s = Signal((xh - xl) + (yh - yl), name=f"{name}_pp{k}")
        m.d.comb += s.eq(x[xl:xh] * y[yl:yh])
        out.append(s)
    return out


def _sum_partial_products(pipe: Pipeline, v: dict, w: int, xtile: int | None = None
                          ) -> tuple[dict, Value]:
    """Sum the partial products ``v["pp<i>"]`` of a ``w`` x ``w`` product by a balanced
    adder tree: (the other live values, the ``2w``-bit sum).  With ``xtile`` every level
    but the last ends at a cut of ``pipe`` (the segments of :func:`_mul_segs`); the
    caller's next cut ends the last."""
    tiles = _tiles(w, xtile)
    rest = {k: x for k, x in v.items() if not k.startswith("pp")}
    # (without xtile, the expression the units always had: their Verilog is unchanged)
    cut_to = (lambda x: x[:2 * w]) if xtile else (lambda x: x)
    terms = [cut_to(Value.cast(v[f"pp{i}"]) << (xl + yl))
             for i, ((xl, _), (yl, _)) in enumerate(tiles)]

    def level(ts):
        return [cut_to(ts[i] + ts[i + 1]) if i + 1 < len(ts) else ts[i]
                for i in range(0, len(ts), 2)]

    while len(terms) > 2 if xtile else len(terms) > 1:
        terms = level(terms)
        if xtile:
            cut = pipe.cut(dict(rest, **{f"tr{j}": t for j, t in enumerate(terms)}))
            rest = {k: x for k, x in cut.items() if not k.startswith("tr")}
            terms = [cut[f"tr{j}"] for j in range(len(terms))]
    return rest, level(terms)[0][:2 * w]


class FPMul(wiring.Component):
    """IEEE 754 ``o = a * b`` in ``fmt``.

    Parameters: ``fmt``, ``stages`` (latency exactly ``stages`` cycles; 0 = combinational),
    ``rm`` ("rne" / "rtz"), ``ftz``.  Ports: ``a``, ``b`` (in), ``o`` (out), all
    ``fmt.width`` bits; ``ce`` (in, 1 bit) enables the pipeline registers.
    """

    def __init__(self, fmt, stages: int = 0, rm: str = "rne", ftz: bool = False,
                 xtile: int | None = None):
        check_args(fmt, stages, rm)
        self.fmt, self.stages, self.rm, self.ftz = fmt, stages, rm, bool(ftz)
        self.xtile = xtile
        w = fmt.width
        super().__init__({"a": In(w), "b": In(w), "o": Out(w), "ce": In(1)})

    @property
    def latency(self) -> int:
        return self.stages

    @staticmethod
    def _segments(fmt, ftz: bool = False, xtile: int | None = None) -> list[Seg]:
        E, M, W = fmt.exp_bits, fmt.man_bits, fmt.width
        P = 2 * M + 2
        sb = clog2(P + 1)
        pp, trees = _mul_segs(fmt, xtile)
        live = E + 3 + W + 3
        if ftz:
            norm = [Seg("norm", T_LEVEL, P, P + live)]
        else:
            norm = [
                Seg("lzc", max(d_lzc(P), d_add(E + 2)), P + E, P + sb + E + 4 + live),
                Seg("count", d_add(E + 2), 2 * E, P + sb + live),
                Seg("shift", d_shift(sb) + T_LEVEL, 2 * P * ((sb + 1) // 2) + P, P + 1 + live),
            ]
        return [
            Seg("unpack", d_add(E + 2) + T_LEVEL, 3 * E + W, 2 * (M + 1) + live),
            Seg(pp.name, pp.delay, pp.lut, pp.live_bits + live),
            *(Seg(t.name, t.delay, t.lut, t.live_bits + live) for t in trees),
            *norm,
            rinc_seg(fmt, P, W + 1),
            Seg("round", d_add(E + M + 2) + T_LEVEL, 2 * W, W),
        ]

    @classmethod
    def cost(cls, fmt, stages: int = 0, rm: str = "rne", ftz: bool = False,
             xtile: int | None = None) -> dict:
        """Estimated ``latency``, ``delay_ns``, ``lut``, ``ff``, ``dsp`` (model in
        :mod:`hls.fpu._common`; DSPs: 24 x 17 tiles of the partial products)."""
        check_args(fmt, stages, rm)
        return cost_from_segments(cls._segments(fmt, ftz, xtile), stages,
                                  dsp=_mul_dsps(fmt, xtile))

    def elaborate(self, platform):
        m = Module()
        fmt, E, M, W = self.fmt, self.fmt.exp_bits, self.fmt.man_bits, self.fmt.width
        P = 2 * M + 2
        pipe = Pipeline(m, self.ce, self._segments(fmt, self.ftz, self.xtile), self.stages)

        ua = unpack(m, fmt, self.a, self.ftz, "a")
        ub = unpack(m, fmt, self.b, self.ftz, "b")
        sign = ua.sign ^ ub.sign
        zero, inf = ua.zero | ub.zero, ua.inf | ub.inf
        nan = ua.nan | ub.nan | (inf & zero)
        special = nan | inf | zero
        sval = Mux(nan, fmt.qnan,
                   Cat(Const(0, M), Mux(inf, (1 << E) - 1, 0)[:E], sign))
        e_msb = Signal(signed(E + 3), name="e_msb")
        m.d.comb += e_msb.eq(ua.exp + ub.exp - fmt.bias + 1)
        v = pipe.cut(dict(sign=sign, special=special, sval=sval, e=e_msb, xm=ua.sig, ym=ub.sig))

        pps = _partial_products(m, v["xm"], v["ym"], "p", self.xtile)
        v = pipe.cut(dict({k: x for k, x in v.items() if k not in ("xm", "ym")},
                          **{f"pp{i}": p for i, p in enumerate(pps)}))

        v, total = _sum_partial_products(pipe, v, M + 1, self.xtile)
        prod = Signal(P, name="prod")
        m.d.comb += prod.eq(total)
        v = pipe.cut(dict(v, prod=prod))

        e = v["e"]
        if self.ftz:
            top = v["prod"][P - 1]
            norm = Signal(P, name="norm")
            m.d.comb += norm.eq(Mux(top, v["prod"], v["prod"] << 1))
            v = pipe.cut(dict(v, prod=norm, e=e - ~top, st=Const(0, 1)))
        else:
            lim = e - 1
            rmax = P + 1
            # the counter beside the exponent's limits, then the shift distances
            v = pipe.cut(dict(v, lz=lzc(v["prod"], m), lim=lim, right=lim < 0,
                              sr=Mux(-lim > rmax, rmax, (-lim)[:clog2(rmax + 1)]),
                              tz=tzc(v["prod"], m, "dn_tz")))
            lz, lim = v.pop("lz"), v.pop("lim")
            sl = Mux(lim < lz, lim[:len(lz)], lz)
            v = pipe.cut(dict(v, sl=sl))
            shl = (v["prod"] << v["sl"])[:P]
            shr, st = shr_sticky(v["prod"], v["sr"], m, "dn", tz=v.pop("tz"))
            norm = Signal(P, name="norm")
            m.d.comb += norm.eq(Mux(v["right"], shr, shl))
            en = Signal(signed(E + 3), name="e_norm")
            m.d.comb += en.eq(Mux(v["right"], 1, v["e"] - v["sl"]))
            v = pipe.cut(dict(sign=v["sign"], special=v["special"], sval=v["sval"], prod=norm,
                              e=en, st=st & v["right"]))

        res, v = round_pack(m, fmt, v["sign"], v["e"], v["prod"], v["st"], self.rm, self.ftz,
                            pipe=pipe, keep=dict(special=v["special"], sval=v["sval"]))
        out = Signal(W, name="res")
        m.d.comb += out.eq(Mux(v["special"], v["sval"], res))
        v = pipe.cut(dict(o=out))
        pipe.finish()
        m.d.comb += self.o.eq(v["o"])
        return m


class FPFMA(wiring.Component):
    """IEEE 754 fused ``o = a * b + c`` in ``fmt`` with one rounding.

    Parameters as :class:`FPMul`.  Ports: ``a``, ``b``, ``c`` (in), ``o`` (out), all
    ``fmt.width`` bits; ``ce`` (in, 1 bit).
    """

    G = 4  # accumulator bits below the product

    def __init__(self, fmt, stages: int = 0, rm: str = "rne", ftz: bool = False,
                 xtile: int | None = None):
        check_args(fmt, stages, rm)
        self.fmt, self.stages, self.rm, self.ftz = fmt, stages, rm, bool(ftz)
        self.xtile = xtile
        w = fmt.width
        super().__init__({"a": In(w), "b": In(w), "c": In(w), "o": Out(w), "ce": In(1)})

    @property
    def latency(self) -> int:
        return self.stages

    @classmethod
    def _segments(cls, fmt, ftz: bool = False, xtile: int | None = None) -> list[Seg]:
        E, M, W = fmt.exp_bits, fmt.man_bits, fmt.width
        Wa = 3 * M + 6 + cls.G
        sb = clog2(Wa + 1)
        pp, trees = _mul_segs(fmt, xtile)
        live = 2 * E + 8 + W + 3
        return [
            Seg("unpack", 2 * d_add(E + 3) + T_LEVEL, 6 * E + W, 2 * (M + 1) + (M + 1) + live),
            Seg("pp_align", max(pp.delay, d_shift(sb) + d_lzc(M + 1)), pp.lut + Wa * ((sb + 1) // 2),
                pp.live_bits + Wa + 1 + live),
            *(Seg(t.name, t.delay, t.lut, t.live_bits + Wa + 1 + live) for t in trees),
            Seg("add", d_add(Wa + 1) + T_LEVEL, 4 * Wa, Wa + live),
            Seg("count", d_lzc(Wa) + d_add(E + 3), Wa + 2 * E, Wa + sb + live),
            Seg("shift", d_shift(sb), Wa * ((sb + 1) // 2), Wa + live),
            rinc_seg(fmt, Wa, W + 1),
            Seg("round", d_add(E + M + 2) + T_LEVEL, 2 * W, W),
        ]

    @classmethod
    def cost(cls, fmt, stages: int = 0, rm: str = "rne", ftz: bool = False,
             xtile: int | None = None) -> dict:
        """As :meth:`FPMul.cost`."""
        check_args(fmt, stages, rm)
        return cost_from_segments(cls._segments(fmt, ftz, xtile), stages,
                                  dsp=_mul_dsps(fmt, xtile))

    def elaborate(self, platform):
        m = Module()
        fmt, E, M, W, G = self.fmt, self.fmt.exp_bits, self.fmt.man_bits, self.fmt.width, self.G
        P = 2 * M + 2
        Wa = 3 * M + 6 + G
        pipe = Pipeline(m, self.ce, self._segments(fmt, self.ftz, self.xtile), self.stages)

        ua = unpack(m, fmt, self.a, self.ftz, "a")
        ub = unpack(m, fmt, self.b, self.ftz, "b")
        uc = unpack(m, fmt, self.c, self.ftz, "c")
        psign = ua.sign ^ ub.sign
        pzero, pinf = ua.zero | ub.zero, ua.inf | ub.inf
        eff_sub = psign ^ uc.sign
        nan = ua.nan | ub.nan | uc.nan | (pinf & pzero) | (pinf & uc.inf & eff_sub)
        special = nan | pinf | uc.inf
        inf_sign = Mux(pinf, psign, uc.sign)
        sval = Mux(nan, fmt.qnan, Cat(Const(0, M), Const((1 << E) - 1, E), inf_sign))
        sh = Signal(signed(E + 4), name="sh")
        m.d.comb += sh.eq(Mux(pzero, 0, (M + 4 - fmt.bias) + ua.exp + ub.exp - uc.exp))
        collapse = sh < 0
        e_msb = Signal(signed(E + 4), name="e_msb")
        m.d.comb += e_msb.eq(uc.exp + 1 + Mux(collapse, 0, sh))
        shc = Mux(collapse, 0, Mux(sh > Wa, Wa, sh[:clog2(Wa + 1)]))[:clog2(Wa + 1)]
        v = pipe.cut(dict(psign=psign, csign=uc.sign, zs=psign & uc.sign, eff_sub=eff_sub,
                          special=special, sval=sval, e=e_msb, collapse=collapse, shc=shc,
                          xm=ua.sig, ym=ub.sig, zm=uc.sig))

        # product partial products, and the addend aligned in parallel
        pps = _partial_products(m, v["xm"], v["ym"], "p", self.xtile)
        c_top = Cat(Const(0, Wa - 2 - M), v["zm"], Const(0, 1))
        c_sh, c_st = shr_sticky(c_top, v["shc"], m, "align")
        c_al = Signal(Wa, name="c_al")
        m.d.comb += c_al.eq(c_sh | c_st)
        keep = {k: x for k, x in v.items() if k not in ("xm", "ym", "zm", "shc")}
        v = pipe.cut(dict(keep, c_al=c_al, **{f"pp{i}": p for i, p in enumerate(pps)}))

        v, total = _sum_partial_products(pipe, v, M + 1, self.xtile)
        prod = Signal(P, name="prod")
        m.d.comb += prod.eq(total)
        p_acc = Signal(Wa, name="p_acc")
        m.d.comb += p_acc.eq(Mux(v["collapse"], prod != 0, prod << G))
        v = {k: x for k, x in v.items() if k != "collapse"}
        v = pipe.cut(dict(v, p_acc=p_acc))

        pa, ca = v["p_acc"], v["c_al"]
        d1 = Signal(signed(Wa + 2), name="d_pc")
        m.d.comb += d1.eq(pa - ca)
        neg = d1 < 0
        mag = Signal(Wa, name="mag")
        m.d.comb += mag.eq(Mux(v["eff_sub"], Mux(neg, ca - pa, pa - ca), pa + ca))
        sign = Mux(mag == 0, v["zs"], Mux(v["eff_sub"] & neg, v["csign"], v["psign"]))
        v = pipe.cut(dict(sign=sign, special=v["special"], sval=v["sval"], e=v["e"], mag=mag))

        lz = lzc(v["mag"], m)
        if self.ftz:
            s = lz
        else:
            lim = (v["e"] - 1)[:len(v["e"])]   # e >= 2
            s = Mux(lim < lz, lim, lz)[:len(lz)]
        en = Signal(signed(E + 5), name="e_norm")
        m.d.comb += en.eq(v["e"] - s)
        v = pipe.cut(dict(v, s=s, e=en))

        norm = Signal(Wa, name="norm")
        m.d.comb += norm.eq((v["mag"] << v["s"])[:Wa])
        v = pipe.cut(dict(sign=v["sign"], special=v["special"], sval=v["sval"], e=v["e"], mag=norm))

        res, v = round_pack(m, fmt, v["sign"], v["e"], v["mag"], Const(0, 1), self.rm, self.ftz,
                            pipe=pipe, keep=dict(special=v["special"], sval=v["sval"]))
        out = Signal(W, name="res")
        m.d.comb += out.eq(Mux(v["special"], v["sval"], res))
        v = pipe.cut(dict(o=out))
        pipe.finish()
        m.d.comb += self.o.eq(v["o"])
        return m
