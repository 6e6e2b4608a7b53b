"""Floating-point division and square root: radix-2 restoring digit recurrences unrolled
into a fully pipelined array.

Both units follow the same plan, one *layer* of combinational logic after another:

1. **unpack** -- split each operand into sign, exponent and significand, classify it (zero,
   subnormal, infinity, NaN) and normalise a subnormal significand (leading-zero count and
   left shift), so that the recurrence always sees a significand ``1.f`` and an exponent
   that may lie below ``emin``.  With ``ftz`` a subnormal operand is a zero.
2. **recurrence** -- one layer per result bit.

   Division (restoring, Ercegovac & Lang, *Digital Arithmetic*, 2004, ch. 5): with the
   normalised significands ``x, d`` in ``[2**M, 2**(M+1))`` the partial remainder starts at
   ``r = x < 2d``; each step emits ``q_i = (r >= d)``, keeps ``r - q_i*d`` and doubles it.
   ``M + 3`` steps give ``Q = floor(x * 2**(M+2) / d)`` in ``[2**(M+1), 2**(M+3))``: the
   ``M + 1`` result bits, the round bit and one more, whatever the leading bit; the final
   remainder is non-zero exactly when the quotient is inexact (the sticky bit).

   Square root (restoring, ibid. ch. 6): the exponent is made even by doubling the
   significand, so the radicand ``X = m * 2**(M+2)`` with ``m`` in ``[2**M, 2**(M+2))`` has
   ``2N`` bits, ``N = M + 2``.  Each step brings down two radicand bits,
   ``r = 4r + X_pair``, tries ``t = 4q + 1`` and emits ``q_i = (r >= t)``; the remainder
   stays ``<= 2q`` so step ``i`` needs only ``i + 3`` bits.  ``Q = floor(sqrt(X))`` has its
   leading bit at ``N - 1``; the remainder is the sticky bit.

3. **denormalise** -- a result exponent below ``emin`` shifts the significand right, the
   shifted-out bits joining the sticky bit (gradual underflow; not with ``ftz``, where the
   result is rounded at full precision and flushed when tiny).
4. **round and pack** -- :func:`hls.fpu._common.round_pack`, the same rounding as every other
   unit; then the special results (the canonical quiet NaN, infinity, zero) override it.

Pipelining: the layers are :class:`~hls.fpu._common.Seg` segments (one per recurrence step)
and ``stages = k`` places ``k`` register boundaries between them by the optimal linear
partition of :func:`~hls.fpu._common.plan_cuts` (registers beyond one per boundary stack at
the output).  All registers advance when ``ce`` is 1, a new operand pair enters every cycle
and the result appears exactly ``k`` cycles later.  ``cost()`` reports the same segment
model (delays, LUTs, live bits at the chosen boundaries).
"""

from __future__ import annotations

from amaranth.hdl import C, Cat, Module, Mux, Signal, Value, signed, unsigned
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from ._format import FPFormat
from ._common import (
    T_LEVEL, Pipeline, Seg, check_args, clog2, cost_from_segments, d_add, d_lzc, d_shift, lzc,
    round_pack, shr_sticky,
)

__all__ = ["FPDiv", "FPSqrt"]


def _exp_width(fmt) -> int:
    """Signed width holding every intermediate exponent: biased exponents of normalised
    subnormals (down to ``1 - M``), quotient exponents (up to twice the range) and the
    denormalisation distance."""
    lim = 2 * (fmt.exp_mask + fmt.man_bits + 4)
    return lim.bit_length() + 1


def _wire(m: Module, name: str, shape, value) -> Signal:
    s = Signal(shape, name=name)
    m.d.comb += s.eq(value)
    return s


class _Operand:
    """An unpacked operand: ``exp`` is the signed biased exponent of the normalised
    significand ``sig`` (``M + 1`` bits, leading bit set unless zero / inf / NaN)."""

    def __init__(self, m: Module, fmt, x: Value, ftz: bool, name: str):
        E, M = fmt.exp_bits, fmt.man_bits
        ew = _exp_width(fmt)
        frac, expf = x[:M], x[M:M + E]
        self.sign = x[M + E]
        ezero = _wire(m, f"{name}_ez", 1, expf == 0)
        eones = _wire(m, f"{name}_e1", 1, expf == fmt.exp_mask)
        fzero = _wire(m, f"{name}_fz", 1, frac == 0)
        self.zero = _wire(m, f"{name}_zero", 1, ezero & (fzero | (1 if ftz else 0)))
        self.inf = _wire(m, f"{name}_inf", 1, eones & fzero)
        self.nan = _wire(m, f"{name}_nan", 1, eones & ~fzero)
        if ftz:
            self.sig = Cat(frac, C(1, 1))
            self.exp = _wire(m, f"{name}_exp", signed(ew), expf)
        else:
            raw = _wire(m, f"{name}_raw", M + 1, Cat(frac, ~ezero))
            lz = _wire(m, f"{name}_lz", clog2(M + 2), lzc(raw))
            self.sig = _wire(m, f"{name}_sig", M + 1, raw << lz)
            self.exp = _wire(m, f"{name}_exp", signed(ew), Mux(ezero, 1, expf) - lz)


def _unpack_seg(fmt, ftz: bool, operands: int, live: int) -> Seg:
    E, M = fmt.exp_bits, fmt.man_bits
    lzb = clog2(M + 2)
    if ftz:
        delay, lut = T_LEVEL + d_add(E + 2), operands * (E + 2 + (E + M) // 3)
    else:
        delay = d_lzc(M + 1) + d_shift(lzb) + d_add(E + 2)
        lut = operands * ((M + 1) + (M + 1) * ((lzb + 1) // 2) + E + 2 + (E + M) // 3)
    return Seg("unpack", delay, lut, live)


def _finish_segs(fmt, width: int, flags: int, ftz: bool) -> list[Seg]:
    """Quotient / root normalisation and denormalisation below ``emin``, then rounding."""
    E, M = fmt.exp_bits, fmt.man_bits
    ew = _exp_width(fmt)
    if ftz:
        dn = Seg("denorm", T_LEVEL + d_add(ew), width + ew, width + 1 + ew + flags)
    else:
        sb = clog2(width + 1)
        dn = Seg("denorm", T_LEVEL + d_add(ew) + max(d_shift(sb), d_lzc(width) + d_add(sb)),
                 width + 2 * ew + width * ((sb + 1) // 2) + 2 * width, width + 1 + ew + flags)
    rp = Seg("round", d_add(E + M + 2) + 2 * T_LEVEL, 2 * fmt.width + fmt.width, fmt.width)
    return [dn, rp]


def _finish(m: Module, pipe: Pipeline, fmt, st: dict, width: int, rm: str, ftz: bool) -> Value:
    """Segments "denorm" and "round": ``st['sig']`` (``width`` bits, leading bit set) with
    the signed biased exponent ``st['be']`` of that bit and the recurrence's
    ``st['sticky']``.  Without ``ftz`` a result below ``emin`` is shifted right (gradual
    underflow) with the shifted-out bits joining the sticky bit; with ``ftz``
    :func:`round_pack` rounds at full precision and flushes tiny results.  Special results
    (``rnan``, ``rinf``, ``rzero``) override the rounded one."""
    be, sig, sticky = st.pop("be"), st.pop("sig"), st.pop("sticky")
    ew = _exp_width(fmt)
    if not ftz:
        tiny = _wire(m, "tiny", 1, be < 1)
        amt = _wire(m, "dn_amt", unsigned(ew), Mux(tiny, 1 - be, 0))
        sd, lost = shr_sticky(sig, amt)
        sig = _wire(m, "dn_sig", width, sd)
        sticky = _wire(m, "dn_sticky", 1, sticky | lost)
        be = _wire(m, "dn_exp", signed(ew), Mux(tiny, 1, be))
    st.update(sig=sig, sticky=sticky, be=be)
    st = pipe.cut(st)
    res = round_pack(m, fmt, st["sign"], st["be"], st["sig"], st["sticky"], rm, ftz)
    E, M = fmt.exp_bits, fmt.man_bits
    o = Signal(fmt.width, name="result")
    with m.If(st["rnan"]):
        m.d.comb += o.eq(fmt.qnan)
    with m.Elif(st["rinf"]):
        m.d.comb += o.eq(Cat(C(fmt.exp_mask << M, E + M), st["sign"]))
    with m.Elif(st["rzero"]):
        m.d.comb += o.eq(Cat(C(0, E + M), st["sign"]))
    with m.Else():
        m.d.comb += o.eq(res)
    return pipe.cut({"o": o})["o"]


# -- division ------------------------------------------------------------------------------


class FPDiv(wiring.Component):
    """IEEE 754 division ``o = a / b`` in ``fmt``, rounded by ``rm`` ("rne" or "rtz").

    Ports: ``a``, ``b``, ``o`` (``fmt.width`` bits each), ``ce`` (in, 1: the pipeline
    registers advance only when it is 1).  ``stages = 0`` is combinational, ``stages = k``
    has exactly ``k`` cycles of latency and accepts an operand pair every cycle.  Special
    cases: a NaN operand, ``0/0`` and ``inf/inf`` give the canonical quiet NaN; ``x/0`` (x
    non-zero) is infinity, ``x/inf`` zero, with the sign the XOR of the operands' signs.
    With ``ftz`` subnormal operands are zeros and tiny results (after rounding) become
    zeros of the same sign.
    """

    def __init__(self, fmt: FPFormat, stages: int = 0, rm: str = "rne", ftz: bool = False):
        check_args(fmt, stages, rm)
        self.fmt, self.stages, self.rm, self.ftz = fmt, stages, rm, bool(ftz)
        w = fmt.width
        super().__init__({"a": In(w), "b": In(w), "o": Out(w), "ce": In(1)})

    @property
    def latency(self) -> int:
        return self.stages

    @staticmethod
    def _segments(fmt: FPFormat, ftz: bool = False) -> list[Seg]:
        M = fmt.man_bits
        ew = _exp_width(fmt)
        flags = 1 + 3                                    # sign, nan / inf / zero result
        n = M + 3
        segs = [_unpack_seg(fmt, ftz, 2, 2 * (M + 1) + ew + flags)]
        for i in range(n):
            # compare-subtract on M + 2 bits, then the remainder multiplexer
            live = ((M + 2) + (M + 1) if i < n - 1 else 1) + (i + 1) + ew + flags
            segs.append(Seg(f"div{i}", d_add(M + 2) + T_LEVEL, 2 * (M + 2), live))
        return segs + _finish_segs(fmt, n, flags, ftz)

    @classmethod
    def cost(cls, fmt: FPFormat, stages: int = 0, rm: str = "rne", ftz: bool = False) -> dict:
        """Estimated ``latency`` (cycles), ``delay_ns`` (slowest stage plus register
        overhead, or the whole combinational path when ``stages = 0``), ``lut``, ``ff`` and
        ``dsp`` (none), from the segment model of :mod:`hls.fpu._common`: unpacking with a
        leading-zero count and shift per operand, ``M + 3`` restoring steps of an
        ``(M + 2)``-bit subtract-and-select (two LUTs per bit, one carry chain plus a LUT
        level each), a denormalising sticky shifter and the shared round-and-pack; the
        flip-flops are the live bits at each register boundary."""
        check_args(fmt, stages, rm)
        return cost_from_segments(cls._segments(fmt, ftz), stages)

    def elaborate(self, platform) -> Module:
        fmt, M = self.fmt, self.fmt.man_bits
        ew = _exp_width(fmt)
        m = Module()
        pipe = Pipeline(m, self.ce, self._segments(fmt, self.ftz), self.stages)

        # unpack, classify, normalise, special results, quotient exponent
        x = _Operand(m, fmt, self.a, self.ftz, "a")
        y = _Operand(m, fmt, self.b, self.ftz, "b")
        st = pipe.cut({
            "sign": _wire(m, "sign", 1, x.sign ^ y.sign),
            "rnan": _wire(m, "rnan", 1, x.nan | y.nan | (x.zero & y.zero) | (x.inf & y.inf)),
            "rinf": _wire(m, "rinf", 1, x.inf | y.zero),
            "rzero": _wire(m, "rzero", 1, x.zero | y.inf),
            "be": _wire(m, "qexp", signed(ew), x.exp - y.exp + fmt.bias),
            "r": x.sig,
            "d": y.sig,
        })

        # restoring division, one quotient bit per segment; the partial remainder is
        # < 2d, so M + 2 bits, and after the step < d, so M + 1 bits
        n = M + 3
        for i in range(n):
            r, d = st.pop("r"), st["d"]
            ge = _wire(m, f"q{i}", 1, r >= d)
            rem = _wire(m, f"rem{i}", M + 1, Mux(ge, r - d, r))
            st["q"] = Cat(ge, st["q"]) if i else ge          # first bit ends up the MSB
            if i < n - 1:
                st["r"] = Cat(C(0, 1), rem)                  # 2 * remainder
            else:
                del st["d"]
                st["sticky"] = _wire(m, "sticky", 1, rem != 0)
            st = pipe.cut(st)

        # Q = floor(x * 2**(M+2) / d): leading bit at n-1 (x >= d) or n-2 (x < d)
        Q = st.pop("q")
        top = Q[n - 1]
        st["sig"] = _wire(m, "qsig", n, Mux(top, Q, Q << 1))
        st["be"] = _wire(m, "qbe", signed(ew), Mux(top, st["be"], st["be"] - 1))
        m.d.comb += self.o.eq(_finish(m, pipe, fmt, st, n, self.rm, self.ftz))
        pipe.finish()
        return m


# -- square root ---------------------------------------------------------------------------


class FPSqrt(wiring.Component):
    """IEEE 754 square root ``o = sqrt(a)`` in ``fmt``, rounded by ``rm``.

    Ports: ``a``, ``o``, ``ce``; pipelining as :class:`FPDiv`.  ``sqrt(+-0) = +-0``,
    ``sqrt(+inf) = +inf``, the square root of a NaN or of any number below zero (``-inf``
    included) is the canonical quiet NaN.  In formats with few exponent bits (``M >
    bias - 1``) the root of a subnormal can itself be subnormal; it is rounded as such.
    """

    def __init__(self, fmt: FPFormat, stages: int = 0, rm: str = "rne", ftz: bool = False):
        check_args(fmt, stages, rm)
        self.fmt, self.stages, self.rm, self.ftz = fmt, stages, rm, bool(ftz)
        w = fmt.width
        super().__init__({"a": In(w), "o": Out(w), "ce": In(1)})

    @property
    def latency(self) -> int:
        return self.stages

    @staticmethod
    def _segments(fmt: FPFormat, ftz: bool = False) -> list[Seg]:
        M = fmt.man_bits
        ew = _exp_width(fmt)
        flags = 1 + 3
        n = M + 2
        segs = [_unpack_seg(fmt, ftz, 1, (M + 2) + ew + flags)]
        for i in range(n):
            w = i + 3                                        # step i works on i + 3 bits
            nxt = 2 * (n - 2 - i) + 1                        # top radicand bit still needed
            pending = max(0, nxt - (M + 2) + 1) if nxt >= M + 2 else 0
            live = (i + 2 if i < n - 1 else 1) + (i + 1) + pending + ew + flags
            segs.append(Seg(f"sqrt{i}", d_add(w) + T_LEVEL, 2 * w, live))
        return segs + _finish_segs(fmt, n, flags, ftz)

    @classmethod
    def cost(cls, fmt: FPFormat, stages: int = 0, rm: str = "rne", ftz: bool = False) -> dict:
        """As :meth:`FPDiv.cost`, with ``M + 2`` restoring square-root steps whose widths
        grow from 3 to ``M + 4`` bits."""
        check_args(fmt, stages, rm)
        return cost_from_segments(cls._segments(fmt, ftz), stages)

    def elaborate(self, platform) -> Module:
        fmt, M = self.fmt, self.fmt.man_bits
        ew = _exp_width(fmt)
        m = Module()
        pipe = Pipeline(m, self.ce, self._segments(fmt, self.ftz), self.stages)

        x = _Operand(m, fmt, self.a, self.ftz, "a")
        e = _wire(m, "e_unb", signed(ew), x.exp - fmt.bias)
        odd = e[0]
        n = M + 2
        st = pipe.cut({
            "sign": x.sign,
            "rnan": _wire(m, "rnan", 1, x.nan | (x.sign & ~x.zero)),
            "rinf": _wire(m, "rinf", 1, x.inf),
            "rzero": _wire(m, "rzero", 1, x.zero),
            # arithmetic shift: floor(e / 2), then biased
            "be": _wire(m, "rexp", signed(ew), (e >> 1) + fmt.bias),
            # significand doubled for an odd exponent: [1, 4) as M + 2 bits
            "xm": _wire(m, "radicand", M + 2, Mux(odd, Cat(C(0, 1), x.sig), x.sig)),
        })

        # radicand X = xm << (M + 2), 2n bits; step i brings down bits 2(n-1-i) + 1, 2(n-1-i)
        def xbit(p: int) -> Value:
            return st["xm"][p - (M + 2)] if p >= M + 2 else C(0, 1)

        for i in range(n):
            p = 2 * (n - 1 - i)
            pair = Cat(xbit(p), xbit(p + 1))
            if i == 0:
                cand = _wire(m, "sq_c0", 3, pair)
                t = C(1, 2)
            else:
                cand = _wire(m, f"sq_c{i}", i + 3, Cat(pair, st["r"]))   # 4r + pair
                t = Cat(C(1, 2), st["q"])                              # 4q + 1
            ge = _wire(m, f"s{i}", 1, cand >= t)
            rem = _wire(m, f"srem{i}", i + 2, Mux(ge, cand - t, cand))   # <= 2q < 2**(i+2)
            st["q"] = Cat(ge, st["q"]) if i else ge
            if i < n - 1:
                st["r"] = rem
                if "xm" in st and 2 * (n - 2 - i) + 1 < M + 2:
                    del st["xm"]                             # no radicand bits left
            else:
                del st["r"]
                st["sticky"] = _wire(m, "sticky", 1, rem != 0)
            st = pipe.cut(st)

        st["sig"] = st.pop("q")                              # leading bit at n - 1
        m.d.comb += self.o.eq(_finish(m, pipe, fmt, st, n, self.rm, self.ftz))
        pipe.finish()
        return m
