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
    rinc_seg, round_pack, shr_sticky,
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


def _classify(m: Module, fmt, x: Value, ftz: bool, name: str) -> dict[str, Value]:
    """Segment "classify" for one operand: sign, zero / inf / NaN flags, the significand
    with its hidden bit (``raw``), its leading-zero count (``lz``; none with ``ftz``, where
    a subnormal is a zero) and the effective biased exponent ``max(field, 1)``."""
    E, M = fmt.exp_bits, fmt.man_bits
    ew = _exp_width(fmt)
    frac, expf = x[:M], x[M:M + E]
    ezero = _wire(m, f"{name}_ez", 1, expf == 0)
    eones = _wire(m, f"{name}_e1", 1, expf == fmt.exp_mask)
    fzero = _wire(m, f"{name}_fz", 1, frac == 0)
    d = {
        "sign": x[M + E],
        "zero": _wire(m, f"{name}_zero", 1, ezero & (fzero | (1 if ftz else 0))),
        "inf": _wire(m, f"{name}_inf", 1, eones & fzero),
        "nan": _wire(m, f"{name}_nan", 1, eones & ~fzero),
    }
    if ftz:
        d["raw"] = Cat(frac, C(1, 1))
        d["exp0"] = _wire(m, f"{name}_exp0", signed(ew), expf)
    else:
        d["raw"] = _wire(m, f"{name}_raw", M + 1, Cat(frac, ~ezero))
        d["lz"] = _wire(m, f"{name}_lz", clog2(M + 2), lzc(d["raw"]))
        d["exp0"] = _wire(m, f"{name}_exp0", signed(ew), Mux(ezero, 1, expf))
    return d


def _normalise(m: Module, fmt, st: dict[str, Value], name: str) -> tuple[Value, Value]:
    """Segment "normalise": pop ``name``'s ``raw``, ``lz``, ``exp0`` from ``st``; return the
    signed biased exponent of the normalised significand and that significand (``M + 1``
    bits, leading bit set for a finite non-zero operand)."""
    M = fmt.man_bits
    ew = _exp_width(fmt)
    raw, exp0 = st.pop(f"{name}_raw"), st.pop(f"{name}_exp0")
    lz = st.pop(f"{name}_lz", None)
    if lz is None:
        return exp0, raw
    sig = _wire(m, f"{name}_sig", M + 1, raw << lz)
    exp = _wire(m, f"{name}_exp", signed(ew), exp0 - lz)
    return exp, sig


def _front_segs(fmt, ftz: bool, operands: int, flags: int, live: int, exp_adds: int) -> list[Seg]:
    """"classify" (flags, leading-zero count) and "normalise" (left shift beside
    ``exp_adds`` chained exponent additions), ``live`` bits after the latter."""
    E, M = fmt.exp_bits, fmt.man_bits
    ew = _exp_width(fmt)
    lzb = clog2(M + 2)
    cls_live = operands * ((M + 1) + ew + (0 if ftz else lzb)) + flags
    cls_lut = operands * (E + M) // 3 + flags
    if ftz:
        return [Seg("classify", 2 * T_LEVEL, cls_lut, cls_live),
                Seg("normalise", exp_adds * d_add(ew), exp_adds * ew, live)]
    return [
        Seg("classify", max(2 * T_LEVEL, d_lzc(M + 1)), cls_lut + operands * (M + 1), cls_live),
        Seg("normalise", max(d_shift(lzb) + T_LEVEL, (exp_adds + 1) * d_add(ew)),
            operands * (M + 1) * ((lzb + 1) // 2) + (exp_adds + 1) * ew, live),
    ]


def _finish_segs(fmt, width: int, flags: int, ftz: bool) -> list[Seg]:
    """"dn_amt" (quotient normalisation, tininess and shift distance), "dn_shift" (the
    sticky right shift; absent with ``ftz``) and "round"."""
    E, M = fmt.exp_bits, fmt.man_bits
    ew = _exp_width(fmt)
    segs = []
    if ftz:
        segs.append(Seg("dn_amt", T_LEVEL, width + ew, width + 1 + ew + flags))
    else:
        sb = clog2(width + 1)
        segs.append(Seg("dn_amt", T_LEVEL + d_add(ew) + T_LEVEL, width + 3 * ew,
                        width + 1 + 2 * ew + flags))
        segs.append(Seg("dn_shift", max(d_shift(sb), d_lzc(width) + d_add(sb)) + T_LEVEL,
                        width * ((sb + 1) // 2) + 2 * width, width + 1 + ew + flags))
    segs.append(rinc_seg(fmt, width, 4))
    segs.append(Seg("round", d_add(E + M + 2) + 2 * T_LEVEL, 3 * fmt.width, fmt.width))
    return segs


def _finish(m: Module, pipe: Pipeline, fmt, st: dict, width: int, rm: str, ftz: bool) -> Value:
    """The segments of :func:`_finish_segs` from inside "dn_amt": ``st['sig']`` (``width``
    bits, leading bit set) with the signed biased exponent ``st['be']`` of that bit and the
    recurrence's ``st['sticky']``.  Without ``ftz`` a result below ``emin`` is shifted
    right (gradual underflow) with the shifted-out bits joining the sticky bit; with ``ftz``
    :func:`round_pack` rounds at full precision and flushes tiny results.  Special results
    (``rnan``, ``rinf``, ``rzero``) override the rounded one."""
    ew = _exp_width(fmt)
    if not ftz:
        be = st["be"]
        tiny = _wire(m, "tiny", 1, be < 1)
        st["amt"] = _wire(m, "dn_amt", unsigned(ew), Mux(tiny, 1 - be, 0))
        st["be"] = _wire(m, "dn_exp", signed(ew), Mux(tiny, 1, be))
        st = pipe.cut(st)
        sd, lost = shr_sticky(st.pop("sig"), st.pop("amt"))
        st["sig"] = _wire(m, "dn_sig", width, sd)
        st["sticky"] = _wire(m, "dn_sticky", 1, st["sticky"] | lost)
    st = pipe.cut(st)
    res, st = round_pack(m, fmt, st["sign"], st["be"], st["sig"], st["sticky"], rm, ftz,
                         pipe=pipe, keep={k: st[k] for k in ("sign", "rnan", "rinf", "rzero")})
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
        segs = _front_segs(fmt, ftz, 2, flags, 2 * (M + 1) + ew + flags, 2)
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

        # classify, special results, leading-zero counts
        x = _classify(m, fmt, self.a, self.ftz, "a")
        y = _classify(m, fmt, self.b, self.ftz, "b")
        st = {
            "sign": _wire(m, "sign", 1, x["sign"] ^ y["sign"]),
            "rnan": _wire(m, "rnan", 1, x["nan"] | y["nan"] | (x["zero"] & y["zero"])
                          | (x["inf"] & y["inf"])),
            "rinf": _wire(m, "rinf", 1, x["inf"] | y["zero"]),
            "rzero": _wire(m, "rzero", 1, x["zero"] | y["inf"]),
        }
        for name, d in (("a", x), ("b", y)):
            st.update({f"{name}_{k}": d[k] for k in ("raw", "lz", "exp0") if k in d})
        st = pipe.cut(st)
        # normalise, quotient exponent
        xe, xs = _normalise(m, fmt, st, "a")
        ye, ys = _normalise(m, fmt, st, "b")
        st.update(be=_wire(m, "qexp", signed(ew), xe - ye + fmt.bias), r=xs, d=ys)
        st = pipe.cut(st)

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
        segs = _front_segs(fmt, ftz, 1, flags, (M + 2) + ew + flags, 2)
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

        x = _classify(m, fmt, self.a, self.ftz, "a")
        st = {
            "sign": x["sign"],
            "rnan": _wire(m, "rnan", 1, x["nan"] | (x["sign"] & ~x["zero"])),
            "rinf": _wire(m, "rinf", 1, x["inf"]),
            "rzero": _wire(m, "rzero", 1, x["zero"]),
            **{f"a_{k}": x[k] for k in ("raw", "lz", "exp0") if k in x},
        }
        st = pipe.cut(st)
        xe, xs = _normalise(m, fmt, st, "a")
        e = _wire(m, "e_unb", signed(ew), xe - fmt.bias)
        odd = e[0]
        n = M + 2
        # arithmetic shift: floor(e / 2), then biased
        st["be"] = _wire(m, "rexp", signed(ew), (e >> 1) + fmt.bias)
        # significand doubled for an odd exponent: [1, 4) as M + 2 bits
        st["xm"] = _wire(m, "radicand", M + 2, Mux(odd, Cat(C(0, 1), xs), xs))
        st = pipe.cut(st)

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
