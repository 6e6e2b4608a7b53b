"""Floating-point division and square root: radix-2 restoring digit recurrences unrolled
into a fully pipelined array.

Both units follow the same plan, one *layer* of combinational logic after another:

1. **unpack** -- split each operand into sign, exponent and significand, classify it (zero,
   subnormal, infinity, NaN) and normalise a subnormal significand with a logarithmic
   leading-zero shifter, so that the recurrence always sees a significand ``1.f`` and an
   exponent that may lie below ``emin``.  With ``ftz`` a subnormal operand is a zero.
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
   shifted-out bits joining the sticky bit (gradual underflow), and the round bit and the
   increment are formed.
4. **round and pack** -- the increment is added to the packed ``exponent:fraction`` word, so
   a carry out of the fraction moves to the next binade, a subnormal rounds up to the
   smallest normal and the largest finite number rounds up to infinity; overflow, special
   operands and flush-to-zero select the final encoding.  Every NaN result is the format's
   canonical quiet NaN.

Pipelining: ``stages = k`` places ``k`` register boundaries between these layers so that
the slowest stage is as short as the layer granularity allows (an optimal linear partition
of the layers' estimated delays, :func:`_partition`); registers beyond one per layer
boundary are added at the output.  All registers advance when ``ce`` is 1, a new operand
pair enters every cycle and the result appears exactly ``k`` cycles later.

The delays, LUT and flip-flop counts that place the registers are also what ``cost()``
reports (:class:`_Layer`); the model is stated there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from amaranth.hdl import C, Cat, Const, Module, Mux, Signal, Value, signed, unsigned
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from ._format import FPFormat

__all__ = ["FPDiv", "FPSqrt"]

_ROUNDING = ("rne", "rtz")

# -- delay / area model -----------------------------------------------------------------
#
# A generic 6-input-LUT FPGA fabric (numbers of the order of an UltraScale+ -2 part):
#   T_LEVEL  one LUT level including its local routing,
#   T_CARRY  per bit of a carry chain (an adder / comparator of w bits costs
#            T_LEVEL + w * T_CARRY),
#   T_REG    clock-to-out plus setup of a pipeline register.
# LUTs: an adder/subtractor costs one LUT per bit, a 2:1 multiplexer one LUT per bit (the
# restoring step's subtract-and-select: two LUTs per bit), a barrel shifter one LUT per bit
# per level (4:1 multiplexers in a LUT6 would halve that; not assumed).  FFs: the live bits
# at each register boundary, counted exactly from the datapath below.
T_LEVEL = 0.45
T_CARRY = 0.02
T_REG = 0.35


def _clog2(n: int) -> int:
    return max(0, (n - 1).bit_length())


@dataclass(frozen=True)
class _Layer:
    """One layer of combinational logic: estimated delay (ns), LUTs, and the number of live
    bits after it (the flip-flops a register boundary placed after it costs)."""

    name: str
    delay: float
    lut: int
    live_bits: int


def _partition(delays: list[float], stages: int) -> list[int]:
    """Registers to place after each layer: ``stages`` in all, splitting the layers into at
    most ``stages + 1`` contiguous groups whose largest delay is minimal (binary search on
    the bottleneck, greedy packing); registers beyond ``len(delays) - 1`` go at the end."""
    n = len(delays)
    cuts = [0] * n
    if stages <= 0:
        return cuts
    groups = min(stages + 1, n)

    def pack(bound: float) -> list[int] | None:
        ends, acc = [], 0.0
        for i, d in enumerate(delays):
            if acc > 0 and acc + d > bound:
                ends.append(i - 1)
                acc = 0.0
            acc += d
        return ends if len(ends) + 1 <= groups else None

    lo, hi = max(delays), sum(delays)
    for _ in range(60):
        mid = (lo + hi) / 2
        if pack(mid) is None:
            lo = mid
        else:
            hi = mid
    ends = pack(hi)
    assert ends is not None
    # use the spare group boundaries too: split the largest remaining groups further
    while len(ends) + 1 < groups:
        bounds = [-1, *ends, n - 1]
        best, best_i = -1.0, None
        for a, b in zip(bounds, bounds[1:]):
            if b - a >= 2:
                s = sum(delays[a + 1:b + 1])
                if s > best:
                    best, best_i = s, (a, b)
        if best_i is None:
            break
        a, b = best_i
        acc, half, split = 0.0, best / 2, a + 1
        for j in range(a + 1, b):
            acc += delays[j]
            split = j
            if acc >= half:
                break
        ends = sorted({*ends, split})
    for e in ends:
        cuts[e] += 1
    cuts[-1] += stages - len(ends)
    return cuts


def _stage_delays(layers: list[_Layer], stages: int) -> tuple[list[int], float]:
    cuts = _partition([ly.delay for ly in layers], stages)
    worst, acc = 0.0, 0.0
    for ly, c in zip(layers, cuts):
        acc += ly.delay
        if c:
            worst, acc = max(worst, acc), 0.0
    worst = max(worst, acc)
    return cuts, worst


def _cost(layers: list[_Layer], stages: int) -> dict:
    cuts, worst = _stage_delays(layers, stages)
    return dict(
        latency=stages,
        delay_ns=round(worst + (T_REG if stages else 0.0), 3),
        lut=sum(ly.lut for ly in layers),
        ff=sum(c * ly.live_bits for ly, c in zip(layers, cuts)),
        dsp=0,
    )


# -- shared datapath pieces --------------------------------------------------------------


def _check(fmt: FPFormat, stages: int, rm: str) -> None:
    if not isinstance(fmt, FPFormat):
        raise TypeError(f"fmt must be an FPFormat, not {fmt!r}")
    if type(stages) is not int or stages < 0:
        raise ValueError(f"stages must be a non-negative integer, not {stages!r}")
    if rm not in _ROUNDING:
        raise ValueError(f"rm must be one of {', '.join(_ROUNDING)}, not {rm!r}")


def _exp_width(fmt: FPFormat) -> int:
    """Signed width holding every intermediate exponent: biased exponents of normalised
    subnormals (down to ``1 - M``), quotient exponents (up to twice the range) and the
    denormalisation distance."""
    lim = 2 * (fmt.exp_mask + fmt.man_bits + 4)
    return lim.bit_length() + 1


class _Builder:
    """Combinational wires in one module, and pipeline registers between layers.

    ``cut(state)`` is called after every layer with the live values (a dict); when the
    partition puts registers after this layer it returns registered copies (clock-enabled
    by ``ce``), else the same values."""

    def __init__(self, m: Module, ce: Value, cuts: list[int]):
        self.m, self.ce, self.cuts = m, ce, cuts
        self.layer = 0
        self.stage = 0

    def wire(self, name: str, shape, value) -> Signal:
        s = Signal(shape, name=name)
        self.m.d.comb += s.eq(value)
        return s

    def cut(self, state: dict[str, Value]) -> dict[str, Value]:
        n = self.cuts[self.layer]
        self.layer += 1
        for _ in range(n):
            self.stage += 1
            new = {}
            for k, v in state.items():
                v = Value.cast(v)
                if isinstance(v, Const):
                    new[k] = v
                    continue
                r = Signal(v.shape(), name=f"{k}_p{self.stage}")
                with self.m.If(self.ce):
                    self.m.d.sync += r.eq(v)
                new[k] = r
            state = new
        return state


def _normalise(b: _Builder, name: str, sig: Value, width: int) -> tuple[Value, Value]:
    """Shift ``sig`` (``width`` bits, non-zero) left until its top bit is 1; return the
    shifted value and the shift distance (logarithmic shifter, one level per count bit)."""
    levels = _clog2(width)
    count = []
    for k in reversed(range(levels)):
        s = 1 << k
        z = b.wire(f"{name}_z{k}", 1, sig[width - s:] == 0)
        sig = b.wire(f"{name}_n{k}", width, Mux(z, Cat(C(0, s), sig[:width - s]), sig))
        count.append(z)
    cnt = Cat(*reversed(count)) if count else C(0, 1)
    return sig, cnt


@dataclass
class _Operand:
    sign: Value
    exp: Value      # signed biased exponent of the normalised significand's leading bit
    sig: Value      # M+1 bits, leading bit set (don't care for zero / inf / NaN)
    zero: Value
    inf: Value
    nan: Value


def _unpack(b: _Builder, name: str, fmt: FPFormat, x: Value, ftz: bool) -> _Operand:
    E, M = fmt.exp_bits, fmt.man_bits
    ew = _exp_width(fmt)
    frac, expf, sign = x[:M], x[M:M + E], x[M + E]
    ezero = b.wire(f"{name}_ez", 1, expf == 0)
    eones = b.wire(f"{name}_e1", 1, expf == fmt.exp_mask)
    fzero = b.wire(f"{name}_fz", 1, frac == 0)
    zero = b.wire(f"{name}_zero", 1, ezero & (fzero | (1 if ftz else 0)))
    inf = b.wire(f"{name}_inf", 1, eones & fzero)
    nan = b.wire(f"{name}_nan", 1, eones & ~fzero)
    if ftz:
        sig = Cat(frac, C(1, 1))
        exp = b.wire(f"{name}_exp", signed(ew), expf)
    else:
        sig, lz = _normalise(b, name, Cat(frac, ~ezero), M + 1)
        exp = b.wire(f"{name}_exp", signed(ew), Mux(ezero, 1, expf) - lz)
    return _Operand(sign, exp, sig, zero, inf, nan)


def _denormalise(b: _Builder, fmt: FPFormat, st: dict[str, Value], width: int,
                 ftz: bool) -> dict:
    """Layer 3: ``st['be']`` is the biased exponent of ``st['sig']``'s leading bit (set,
    ``width >= M + 2`` bits), ``st['sticky']`` the recurrence's sticky bit.  Below ``emin``
    shift right (gradual underflow; not with ``ftz``, which rounds every result to full
    precision and flushes it afterwards when tiny); form the kept significand, the round
    and the sticky bits."""
    M = fmt.man_bits
    E = fmt.exp_bits
    be, sig = st["be"], st["sig"]
    tiny = b.wire("tiny", 1, be < 1)
    out = {k: v for k, v in st.items() if k not in ("sig", "sticky", "be")}
    if ftz:
        sd = sig
        lost = st["sticky"]
        out["bz"] = b.wire("be_zero", 1, be == 0)
        # exponent field minus one; for be == 0 this is -1 (all ones in E bits): only a
        # carry out of the significand (rounding up to the smallest normal) survives
        ebase = be - 1
    else:
        dist_w = _clog2(width + 1)
        dist = b.wire("dist", unsigned(dist_w),
                      Mux(tiny, Mux(be <= 1 - width, width, (1 - be)[:dist_w]), 0))
        ext = b.wire("dn_ext", 2 * width, Cat(C(0, width), sig) >> dist)
        sd = ext[width:]
        lost = ext[:width] != 0
        # exponent field minus one for a normal result; 0 for a tiny one, whose kept hidden
        # bit is then 0 (a carry into it makes the smallest normal number)
        ebase = Mux(tiny, 0, be - 1)
    low = (sd[:width - M - 2] != 0) if width > M + 2 else C(0, 1)
    out["kept"] = b.wire("kept", M + 1, sd[width - M - 1:])
    out["rbit"] = b.wire("rbit", 1, sd[width - M - 2])
    out["sbit"] = b.wire("sbit", 1, lost | low | st["sticky"])
    out["ebase"] = b.wire("ebase", E, ebase)
    out["ovf"] = b.wire("ovf_pre", 1, be >= fmt.exp_mask)
    out["tiny"] = tiny
    return out


def _round_pack(b: _Builder, fmt: FPFormat, st: dict[str, Value], rm: str, ftz: bool,
                qnan_when: Value) -> Value:
    """Layer 4: increment, pack, overflow, specials, flush-to-zero.  Returns the encoding."""
    E, M = fmt.exp_bits, fmt.man_bits
    kept, rbit, sbit = st["kept"], st["rbit"], st["sbit"]
    if rm == "rne":
        inc = b.wire("inc", 1, rbit & (sbit | kept[0]))
    else:
        inc = C(0, 1)
    packed = b.wire("packed", E + M, (st["ebase"] << M) + kept + inc)
    sign = st["sign"]
    inf_enc = C(fmt.exp_mask << M, E + M)
    big_enc = inf_enc if rm == "rne" else C(fmt.max_finite, E + M)
    o = Signal(fmt.width, name="result")
    if ftz:
        # tiny after rounding to full precision: flushed unless it rounded up to 2**emin
        carry = kept.all() & inc
        flush = b.wire("flush", 1, st["tiny"] & ~(st["bz"] & carry))
    else:
        flush = C(0, 1)
    m = b.m
    with m.If(qnan_when):
        m.d.comb += o.eq(fmt.qnan)
    with m.Elif(st["rinf"]):
        m.d.comb += o.eq(Cat(inf_enc, sign))
    with m.Elif(st["rzero"] | flush):
        m.d.comb += o.eq(Cat(C(0, E + M), sign))
    with m.Elif(st["ovf"]):
        m.d.comb += o.eq(Cat(big_enc, sign))
    with m.Else():
        m.d.comb += o.eq(Cat(packed, sign))
    return o


def _unpack_layer(fmt: FPFormat, ftz: bool, operands: int, live: int) -> _Layer:
    E, M = fmt.exp_bits, fmt.man_bits
    lv = 0 if ftz else _clog2(M + 1)
    delay = T_LEVEL * (1 + lv) + T_LEVEL + (E + 2) * T_CARRY      # classify, shift, exponent
    lut = operands * ((M + 1) * lv + E + 2 + (E + M) // 5 + 3)
    return _Layer("unpack", delay, lut, live)


def _round_layers(fmt: FPFormat, width: int, extra_live: int) -> list[_Layer]:
    E, M = fmt.exp_bits, fmt.man_bits
    ew = _exp_width(fmt)
    lv = _clog2(width + 1)
    dn = _Layer("denormalise", T_LEVEL * (lv + 2) + ew * T_CARRY,
                2 * width * lv // 2 + ew + width // 3,
                (M + 1) + 2 + E + 3 + extra_live)
    rp = _Layer("round", 2 * T_LEVEL + (E + M) * T_CARRY, (E + M) + 2 * (E + M + 1), fmt.width)
    return [dn, rp]


# -- division ------------------------------------------------------------------------------


class FPDiv(wiring.Component):
    """IEEE 754 division ``o = a / b`` in ``fmt``, rounded by ``rm`` ("rne" or "rtz").

    Ports: ``a``, ``b``, ``o`` (``fmt.width`` bits each), ``ce`` (clock enable of the
    pipeline registers).  ``stages = 0`` is combinational, ``stages = k`` has exactly ``k``
    cycles of latency and accepts an operand pair every cycle.  Special cases: a NaN
    operand, ``0/0`` and ``inf/inf`` give the canonical quiet NaN; ``x/0`` (x non-zero) is
    infinity, ``x/inf`` zero, with the sign the XOR of the operands' signs.  With ``ftz``
    subnormal operands are zeros and results that are subnormal after rounding become
    zeros of the same sign.
    """

    def __init__(self, fmt: FPFormat, stages: int = 0, rm: str = "rne", ftz: bool = False):
        _check(fmt, stages, rm)
        self.fmt, self.stages, self.rm, self.ftz = fmt, stages, rm, bool(ftz)
        w = fmt.width
        super().__init__({"a": In(w), "b": In(w), "o": Out(w), "ce": In(1, init=1)})

    @staticmethod
    def _layers(fmt: FPFormat, ftz: bool = False) -> list[_Layer]:
        M = fmt.man_bits
        ew = _exp_width(fmt)
        flags = 1 + 3                                    # sign, nan / inf / zero result
        n = M + 3
        layers = [_unpack_layer(fmt, ftz, 2, 2 * (M + 1) + ew + flags)]
        for i in range(n):
            w = M + 2
            live = (w + (M + 1) if i < n - 1 else M + 1) + (i + 1) + ew + flags
            layers.append(_Layer(f"div{i}", 2 * T_LEVEL + w * T_CARRY, 2 * w, live))
        layers += _round_layers(fmt, n, flags)
        return layers

    @classmethod
    def cost(cls, fmt: FPFormat, stages: int = 0, rm: str = "rne", ftz: bool = False) -> dict:
        """Estimated ``latency`` (cycles), ``delay_ns`` (slowest stage including register
        overhead, or the whole combinational path when ``stages = 0``), ``lut``, ``ff`` and
        ``dsp`` (none): see the model at the top of this module."""
        _check(fmt, stages, rm)
        return _cost(cls._layers(fmt, ftz), stages)

    def elaborate(self, platform) -> Module:
        fmt, M = self.fmt, self.fmt.man_bits
        ew = _exp_width(fmt)
        m = Module()
        layers = self._layers(fmt, self.ftz)
        cuts, _ = _stage_delays(layers, self.stages)
        b = _Builder(m, self.ce, cuts)

        # layer 1: unpack, classify, normalise, special results, quotient exponent
        x = _unpack(b, "a", fmt, self.a, self.ftz)
        y = _unpack(b, "b", fmt, self.b, self.ftz)
        st = {
            "sign": b.wire("sign", 1, x.sign ^ y.sign),
            "rnan": b.wire("rnan", 1, x.nan | y.nan | (x.zero & y.zero) | (x.inf & y.inf)),
            "rinf": b.wire("rinf", 1, x.inf | y.zero),
            "rzero": b.wire("rzero", 1, x.zero | y.inf),
            "be": b.wire("qexp", signed(ew), x.exp - y.exp + fmt.bias),
            "r": x.sig,
            "d": y.sig,
        }
        st = b.cut(st)

        # layers 2 .. M+4: restoring division, one quotient bit per layer
        n = M + 3
        for i in range(n):
            r, d = st.pop("r"), st["d"]
            ge = b.wire(f"q{i}", 1, r >= d)
            rem = b.wire(f"rem{i}", M + 1, Mux(ge, r - d, r))
            st["q"] = Cat(ge, st["q"]) if i else ge          # first bit ends up the MSB
            if i < n - 1:
                st["r"] = Cat(C(0, 1), rem)              # 2 * remainder, M + 2 bits
            else:
                del st["d"]
                st["sticky"] = b.wire("sticky", 1, rem != 0)
            st = b.cut(st)

        # normalise the quotient: leading bit at n-1 (q >= 1) or n-2 (q < 1)
        Q = st.pop("q")
        top = Q[n - 1]
        st["sig"] = b.wire("qsig", n, Mux(top, Q, Q << 1))
        st["be"] = b.wire("qbe", signed(ew), Mux(top, st["be"], st["be"] - 1))
        st = b.cut(_denormalise(b, fmt, st, n, self.ftz))
        o = _round_pack(b, fmt, st, self.rm, self.ftz, st["rnan"])
        st = b.cut({"o": o})
        m.d.comb += self.o.eq(st["o"])
        return m


# -- square root ---------------------------------------------------------------------------


class FPSqrt(wiring.Component):
    """IEEE 754 square root ``o = sqrt(a)`` in ``fmt``, rounded by ``rm``.

    Ports: ``a``, ``o``, ``ce``; pipelining as :class:`FPDiv`.  ``sqrt(+-0) = +-0``,
    ``sqrt(+inf) = +inf``, the square root of a NaN or of any number below zero (``-inf``
    included) is the canonical quiet NaN.  In formats with few exponent bits the root of a
    subnormal can itself be subnormal; it is rounded as such.
    """

    def __init__(self, fmt: FPFormat, stages: int = 0, rm: str = "rne", ftz: bool = False):
        _check(fmt, stages, rm)
        self.fmt, self.stages, self.rm, self.ftz = fmt, stages, rm, bool(ftz)
        w = fmt.width
        super().__init__({"a": In(w), "o": Out(w), "ce": In(1, init=1)})

    @staticmethod
    def _layers(fmt: FPFormat, ftz: bool = False) -> list[_Layer]:
        M = fmt.man_bits
        ew = _exp_width(fmt)
        flags = 1 + 3
        n = M + 2
        layers = [_unpack_layer(fmt, ftz, 1, (M + 2) + ew + flags)]
        for i in range(n):
            w = i + 3
            pending = max(0, min(M + 2, 2 * (n - 1 - i) - (M + 2)))   # radicand bits left
            live = (i + 2) + (i + 1) + pending + ew + flags
            layers.append(_Layer(f"sqrt{i}", 2 * T_LEVEL + w * T_CARRY, 2 * w, live))
        layers += _round_layers(fmt, n, flags)
        return layers

    @classmethod
    def cost(cls, fmt: FPFormat, stages: int = 0, rm: str = "rne", ftz: bool = False) -> dict:
        """As :meth:`FPDiv.cost`."""
        _check(fmt, stages, rm)
        return _cost(cls._layers(fmt, ftz), stages)

    def elaborate(self, platform) -> Module:
        fmt, M = self.fmt, self.fmt.man_bits
        ew = _exp_width(fmt)
        m = Module()
        layers = self._layers(fmt, self.ftz)
        cuts, _ = _stage_delays(layers, self.stages)
        b = _Builder(m, self.ce, cuts)

        x = _unpack(b, "a", fmt, self.a, self.ftz)
        e = b.wire("e_unb", signed(ew), x.exp - fmt.bias)
        odd = e[0]
        n = M + 2
        st = {
            "sign": x.sign,
            "rnan": b.wire("rnan", 1, x.nan | (x.sign & ~x.zero)),
            "rinf": b.wire("rinf", 1, x.inf),
            "rzero": b.wire("rzero", 1, x.zero),
            # arithmetic shift: floor(e / 2), then biased
            "be": b.wire("rexp", signed(ew), (e >> 1) + fmt.bias),
            "xm": b.wire("radicand", M + 2, Mux(odd, Cat(C(0, 1), x.sig), x.sig)),
        }
        st = b.cut(st)

        # radicand X = xm << (M + 2), 2n bits; step i consumes bits 2(n-1-i) + 1 .. 2(n-1-i)
        def xbit(p: int, xm: Value) -> Value:
            return xm[p - (M + 2)] if p >= M + 2 else C(0, 1)

        for i in range(n):
            p = 2 * (n - 1 - i)
            xm = st.get("xm")
            pair = Cat(xbit(p, xm), xbit(p + 1, xm))
            if i == 0:
                cand = b.wire("sq_c0", 3, pair)
                t = C(1, 2)
            else:
                cand = b.wire(f"sq_c{i}", i + 3, Cat(pair, st["r"]))
                t = Cat(C(1, 2), st["q"])                      # 4q + 1, i + 2 bits
            ge = b.wire(f"s{i}", 1, cand >= t)
            rem = b.wire(f"srem{i}", i + 2, Mux(ge, cand - t, cand))
            st["q"] = Cat(ge, st["q"]) if i else ge
            if i < n - 1:
                st["r"] = rem
                if "xm" in st and 2 * (n - 2 - i) + 1 < M + 2:
                    del st["xm"]                             # no radicand bits left
            else:
                del st["r"]
                st["sticky"] = b.wire("sticky", 1, rem != 0)
            st = b.cut(st)

        st["sig"] = st.pop("q")
        st = b.cut(_denormalise(b, fmt, st, n, self.ftz))
        o = _round_pack(b, fmt, st, self.rm, self.ftz, st["rnan"])
        st = b.cut({"o": o})
        m.d.comb += self.o.eq(st["o"])
        return m
