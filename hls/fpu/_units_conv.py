"""Conversions: floating point to integer, integer to floating point, format to format.

* :class:`FPToInt` -- LLVM ``fptosi``/``fptoui`` with the ``llvm.fpto[su]i.sat`` semantics:
  round toward zero, saturate out-of-range values and infinities to the integer minimum or
  maximum (negative values to 0 when unsigned), NaN to 0.  The significand is shifted left
  by the unbiased exponent (clamped to ``width - 1``) and its fraction bits dropped.
* :class:`IntToFP` -- ``sitofp``/``uitofp``: absolute value, leading-zero count,
  normalising shift, :func:`~hls.fpu._common.round_pack` (overflow possible in narrow
  formats, e.g. a 64-bit integer to half).  Zero gives +0.
* :class:`FPConvert` -- ``fpext``/``fptrunc`` and any custom pair: a subnormal source is
  normalised with a leading-zero shifter, the exponent rebiased, a destination exponent
  below 1 shifts right with a sticky bit (gradual underflow), then one rounding.  Logic that
  cannot be reached for the pair of formats (e.g. denormalisation when widening) is not
  generated, so widening conversions are cheap and exact.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Module, Mux, Signal, signed
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from ._common import (
    T_LEVEL, Pipeline, Seg, check_args, clog2, cost_from_segments, d_add, d_lzc, d_shift, lzc,
    rinc_seg, round_pack, shr_sticky, unpack,
)

__all__ = ["FPToInt", "IntToFP", "FPConvert"]


def _check_width(width: int) -> None:
    if type(width) is not int or not 1 <= width <= 64:
        raise ValueError(f"integer width must be an integer in 1..64, not {width!r}")


class FPToInt(wiring.Component):
    """``o = (int) a`` (round toward zero, saturating, NaN -> 0).

    Parameters: ``fmt``, ``width`` (1..64), ``signed``, ``stages``, ``ftz`` (subnormal
    inputs read as zero: no effect on the result).  Ports: ``a`` (in, ``fmt.width``), ``o``
    (out, ``width``: two's complement when signed), ``ce`` (in, 1)."""

    def __init__(self, fmt, width: int, signed: bool = True, stages: int = 0, ftz: bool = False):
        check_args(fmt, stages)
        _check_width(width)
        self.fmt, self.width, self.signed, self.stages, self.ftz = fmt, width, bool(signed), stages, ftz
        super().__init__({"a": In(fmt.width), "o": Out(width), "ce": In(1)})

    @property
    def latency(self) -> int:
        return self.stages

    @staticmethod
    def _segments(fmt, width: int) -> list[Seg]:
        E, M = fmt.exp_bits, fmt.man_bits
        sb = clog2(width)
        return [
            Seg("unpack", d_add(E + 1) + T_LEVEL, 2 * E + 4, M + 1 + sb + 5),
            Seg("shift", d_shift(sb), (M + width) * ((sb + 1) // 2), width + 5),
            Seg("sat", d_add(width) + T_LEVEL, 2 * width, width),
        ]

    @classmethod
    def cost(cls, fmt, stages: int = 0, *, width: int = 32, signed: bool = True) -> dict:
        """Estimated ``latency``, ``delay_ns``, ``lut``, ``ff``, ``dsp`` (model in
        :mod:`hls.fpu._common`)."""
        check_args(fmt, stages)
        _check_width(width)
        return cost_from_segments(cls._segments(fmt, width), stages)

    def elaborate(self, platform):
        m = Module()
        fmt, M, w = self.fmt, self.fmt.man_bits, self.width
        pipe = Pipeline(m, self.ce, self._segments(fmt, w), self.stages)
        u = unpack(m, fmt, self.a, self.ftz, "a")
        k = Signal(signed(fmt.exp_bits + 2), name="k")
        m.d.comb += k.eq(u.exp - fmt.bias)
        sb = max(clog2(w), 1)
        kk = Mux(k < 0, 0, Mux(k > w - 1, w - 1, k[:sb]))[:sb]
        v = pipe.cut(dict(sign=u.sign, nan=u.nan, tiny=(k < 0) | u.zero, big=u.inf | (k >= w),
                          kk=kk, sig=u.sig))

        mag = Signal(w, name="mag")
        m.d.comb += mag.eq(((v["sig"] << v["kk"]) >> M)[:w])
        v = pipe.cut(dict(v, mag=mag, kk=Const(0, 1), sig=Const(0, 1)))

        out = Signal(w, name="res")
        mag, sign = v["mag"], v["sign"]
        if self.signed:
            limit = Mux(sign, 1 << (w - 1), (1 << (w - 1)) - 1)
            sat = v["big"] | (mag > limit)
            val = Mux(sat, limit, mag)[:w]
            m.d.comb += out.eq(Mux(sign, -val, val)[:w])
        else:
            m.d.comb += out.eq(Mux(sign, 0, Mux(v["big"], (1 << w) - 1, mag)))
        res = Signal(w, name="res_final")
        m.d.comb += res.eq(Mux(v["nan"] | v["tiny"], 0, out))
        v = pipe.cut(dict(o=res))
        pipe.finish()
        m.d.comb += self.o.eq(v["o"])
        return m


class IntToFP(wiring.Component):
    """``o = (fmt) a`` for a ``width``-bit integer, correctly rounded by ``rm``.

    Parameters: ``fmt``, ``width`` (1..64), ``signed``, ``stages``, ``rm``, ``ftz`` (no
    effect: integers never give tiny results).  Ports: ``a`` (in, ``width``), ``o`` (out,
    ``fmt.width``), ``ce`` (in, 1)."""

    def __init__(self, fmt, width: int, signed: bool = True, stages: int = 0, rm: str = "rne",
                 ftz: bool = False):
        check_args(fmt, stages, rm)
        _check_width(width)
        self.fmt, self.width, self.signed, self.stages = fmt, width, bool(signed), stages
        self.rm, self.ftz = rm, bool(ftz)
        super().__init__({"a": In(width), "o": Out(fmt.width), "ce": In(1)})

    @property
    def latency(self) -> int:
        return self.stages

    @staticmethod
    def _segments(fmt, width: int) -> list[Seg]:
        E, M, W = fmt.exp_bits, fmt.man_bits, fmt.width
        sb = clog2(width + 1)
        return [
            Seg("abs", d_add(width) + T_LEVEL, 2 * width, width + 1),
            Seg("count", d_lzc(width), width, width + sb + 1),
            Seg("shift", d_shift(sb) + d_add(E + 2), width * ((sb + 1) // 2) + E, width + E + 3),
            rinc_seg(fmt, max(width, M + 2)),
            Seg("round", d_add(E + M + 2) + T_LEVEL, 2 * W, W),
        ]

    @classmethod
    def cost(cls, fmt, stages: int = 0, *, width: int = 32, signed: bool = True, rm: str = "rne") -> dict:
        """As :meth:`FPToInt.cost`."""
        check_args(fmt, stages, rm)
        _check_width(width)
        return cost_from_segments(cls._segments(fmt, width), stages)

    def elaborate(self, platform):
        m = Module()
        fmt, M, w = self.fmt, self.fmt.man_bits, self.width
        pipe = Pipeline(m, self.ce, self._segments(fmt, w), self.stages)
        a = self.a
        neg = a[w - 1] if self.signed else Const(0, 1)
        mag = Signal(w, name="mag")
        m.d.comb += mag.eq(Mux(neg, -a, a)[:w])
        v = pipe.cut(dict(neg=neg, mag=mag))

        lz = lzc(v["mag"], m)
        v = pipe.cut(dict(v, lz=lz))

        norm = Signal(w, name="norm")
        m.d.comb += norm.eq((v["mag"] << v["lz"])[:w])
        e = Signal(signed(max(fmt.exp_bits, 8) + 3), name="e")
        m.d.comb += e.eq(fmt.bias + w - 1 - v["lz"])
        v = pipe.cut(dict(neg=v["neg"], norm=norm, e=e))

        sig = v["norm"]
        if w < M + 2:
            sig = Cat(Const(0, M + 2 - w), sig)
        res, _ = round_pack(m, fmt, v["neg"], v["e"], sig, Const(0, 1), self.rm, self.ftz,
                            pipe=pipe)
        out = Signal(fmt.width, name="res")
        m.d.comb += out.eq(res)
        v = pipe.cut(dict(o=out))
        pipe.finish()
        m.d.comb += self.o.eq(v["o"])
        return m


class FPConvert(wiring.Component):
    """``o = (dst) a`` for ``a`` in format ``src``: exact when ``dst`` holds the value, else
    rounded by ``rm`` with overflow to infinity (``rne``) or the largest finite number
    (``rtz``) and gradual underflow (or, with ``ftz``, flushing of subnormal inputs of
    ``src`` and tiny results in ``dst``).  NaN gives ``dst.qnan``.

    Ports: ``a`` (in, ``src.width``), ``o`` (out, ``dst.width``), ``ce`` (in, 1)."""

    def __init__(self, src, dst, stages: int = 0, rm: str = "rne", ftz: bool = False):
        check_args(src, stages, rm)
        check_args(dst, stages, rm)
        self.src, self.dst, self.stages, self.rm, self.ftz = src, dst, stages, rm, bool(ftz)
        self.fmt = dst
        super().__init__({"a": In(src.width), "o": Out(dst.width), "ce": In(1)})

    @property
    def latency(self) -> int:
        return self.stages

    @staticmethod
    def _needs(src, dst, ftz: bool) -> tuple[bool, bool]:
        """(normalise subnormal sources, denormalise into destination subnormals)."""
        norm_src = not ftz
        lowest = 1 - (src.man_bits if norm_src else 0)         # smallest normalised src exponent
        denorm = (not ftz) and (lowest - src.bias + dst.bias < 1)
        return norm_src, denorm

    @classmethod
    def _segments(cls, src, dst, ftz: bool) -> list[Seg]:
        Ms, Md, Ed = src.man_bits, dst.man_bits, dst.exp_bits
        norm_src, denorm = cls._needs(src, dst, ftz)
        W = max(Ms + 1, Md + 3)
        sb = clog2(Ms + 2)
        db = clog2(W + 2)
        return [
            Seg("unpack", (d_lzc(Ms + 1) + d_shift(sb) if norm_src else 0.0) + d_add(Ed + 3) + T_LEVEL,
                ((Ms + 1) * (1 + (sb + 1) // 2) if norm_src else 0) + 2 * Ed, Ms + 1 + Ed + 8 + dst.width),
            Seg("denorm", (d_shift(db) + d_lzc(W) if denorm else 0.0),
                (W * (1 + (db + 1) // 2) if denorm else 0), W + Ed + 8 + dst.width),
            rinc_seg(dst, W, dst.width + 1),
            Seg("round", d_add(Ed + Md + 2) + T_LEVEL, 2 * dst.width, dst.width),
        ]

    @classmethod
    def cost(cls, src, stages: int = 0, *, dst, rm: str = "rne", ftz: bool = False) -> dict:
        """As :meth:`FPToInt.cost` (``dst`` is required)."""
        check_args(src, stages, rm)
        check_args(dst, stages, rm)
        return cost_from_segments(cls._segments(src, dst, ftz), stages)

    def elaborate(self, platform):
        m = Module()
        src, dst = self.src, self.dst
        Ms, Md, Ed = src.man_bits, dst.man_bits, dst.exp_bits
        norm_src, denorm = self._needs(src, dst, self.ftz)
        W = max(Ms + 1, Md + 3)
        pipe = Pipeline(m, self.ce, self._segments(src, dst, self.ftz), self.stages)
        ew = max(src.exp_bits, Ed) + 3

        u = unpack(m, src, self.a, self.ftz, "a")
        if norm_src:
            lz = lzc(u.sig, m)
            sig = (u.sig << lz)[:Ms + 1]
        else:
            lz, sig = Const(0, 1), u.sig
        e = Signal(signed(ew), name="e_dst")
        m.d.comb += e.eq(u.exp - lz + (dst.bias - src.bias))
        special = u.nan | u.inf
        sval = Mux(u.nan, dst.qnan, Cat(Const(0, Md), Const((1 << Ed) - 1, Ed), u.sign))
        v = pipe.cut(dict(sign=u.sign, special=special, sval=sval, e=e,
                          sig=Cat(Const(0, W - (Ms + 1)), sig)))

        if denorm:
            right = v["e"] < 1
            rb = clog2(W + 2)
            amt = 1 - v["e"]
            r = Mux(amt > W + 1, W + 1, amt[:rb])[:rb]
            shr, st = shr_sticky(v["sig"], r, m, "dn")
            sig2 = Signal(W, name="sig_dn")
            m.d.comb += sig2.eq(Mux(right, shr, v["sig"]))
            e2 = Signal(signed(ew), name="e_dn")
            m.d.comb += e2.eq(Mux(right, 1, v["e"]))
            v = pipe.cut(dict(v, sig=sig2, e=e2, st=st & right))
        else:
            v = pipe.cut(dict(v, st=Const(0, 1)))

        res, v = round_pack(m, dst, v["sign"], v["e"], v["sig"], v["st"], self.rm, self.ftz,
                            pipe=pipe, keep=dict(special=v["special"], sval=v["sval"]))
        out = Signal(dst.width, name="res")
        m.d.comb += out.eq(Mux(v["special"], v["sval"], res))
        v = pipe.cut(dict(o=out))
        pipe.finish()
        m.d.comb += self.o.eq(v["o"])
        return m
