"""Shared pieces of the floating-point units: operand unpacking, leading/trailing-zero
counters, sticky shifters, normalisation, round-and-pack, and pipeline-register placement
with the delay/area model behind every unit's ``cost()``.

Number representation inside a datapath (all units): a finite non-zero value is
``sig / 2**(W-1) * 2**(e - bias)`` with ``sig`` a ``W``-bit unsigned significand whose MSB
sits at the hidden-bit position and ``e`` a *signed* biased exponent of that MSB.  After
normalisation either ``sig[W-1] = 1`` and ``e >= 1`` (a normal result), or ``e = 1`` and
the MSB is 0 (a subnormal result; never with ``ftz``, where ``e`` may drop to 0 or below
and the result is flushed).  :func:`round_pack` keeps the top ``M + 1`` bits, rounds with
the rest of ``sig`` plus a separate sticky bit and packs with the classic trick
``((e - 1) << M) + sig_top + inc``: the hidden bit carries into the exponent field, so a
subnormal rounding up becomes the smallest normal number and a round-up past the largest
significand moves to the next binade (or to infinity).

Semantics follow :mod:`hls.fpu.ref` exactly: ``rne`` / ``rtz``; overflow to infinity
(``rne``) or the largest finite number (``rtz``); with ``ftz`` subnormal inputs read as zero
of the same sign and results that are tiny *after* rounding (rounded to ``M + 1`` bits with
an unbounded exponent, below the smallest normal) become zero of the same sign.

Delay/area model (a generic 6-LUT FPGA of the 10 ns class, of the order of a 7-series /
UltraScale -2 part; same constants as :mod:`hls.fpu._units_div`): one LUT level with its
routing ``T_LEVEL``; a ``w``-bit carry chain (adder, comparator) ``T_LEVEL + w * T_CARRY``;
a barrel shifter by an ``s``-bit amount ``ceil(s/2)`` levels (4:1 multiplexers in a LUT6)
and ``w * ceil(s/2)`` LUTs; a leading-zero counter of ``w`` bits ``ceil(log4 w) + 1``
levels and ``w`` LUTs; a ``wa x wb`` unsigned multiplier on DSP48 tiles of 24 x 17 bits
``T_DSP`` plus ``T_CASCADE`` per further tile (PCOUT -> PCIN cascade), ``ceil(wa/24) *
ceil(wb/17)`` DSPs (the units split ``b`` into 17-bit chunks, one tile column each, and sum
the columns with an adder tree).
A unit is a list of :class:`Seg` segments (delay, LUTs, live bits after it); ``k`` pipeline
registers are placed at segment boundaries by an optimal linear partition
(:func:`plan_cuts`), and the FFs of a boundary are its live bits.  ``delay_ns`` is the
logic delay of the slowest stage plus ``T_REG`` (clock-to-out + setup) when pipelined.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

from amaranth.hdl import Cat, Const, Module, Mux, Signal, Value, signed

__all__ = [
    "T_LEVEL", "T_CARRY", "T_REG", "T_DSP", "ROUNDING_MODES",
    "Seg", "plan_cuts", "cost_from_segments", "Pipeline",
    "Unpacked", "unpack", "wire", "lzc", "tzc", "shr_sticky", "clamp_shift", "round_pack",
    "rinc_seg",
    "check_args", "d_add", "d_shift", "d_lzc", "d_mul", "dsp_count", "clog2",
]

T_LEVEL = 0.45
T_CARRY = 0.02
T_REG = 0.35
T_DSP = 2.9
T_CASCADE = 1.0
ROUNDING_MODES = ("rne", "rtz")


def clog2(n: int) -> int:
    return max(0, (int(n) - 1).bit_length())


def d_add(w: int) -> float:
    return T_LEVEL + w * T_CARRY


def d_shift(amt_bits: int) -> float:
    return math.ceil(amt_bits / 2) * T_LEVEL


def d_lzc(w: int) -> float:
    return (math.ceil(math.log(max(w, 2), 4)) + 1) * T_LEVEL


def dsp_count(wa: int, wb: int) -> int:
    return math.ceil(wa / 24) * math.ceil(wb / 17)


def d_mul(wa: int, wb: int) -> float:
    rows = math.ceil(wb / 17) * math.ceil(wa / 24)
    return T_DSP + (rows - 1) * T_CASCADE


def check_args(fmt, stages: int, rm: str = "rne") -> None:
    for attr in ("exp_bits", "man_bits", "bias", "width"):
        if not hasattr(fmt, attr):
            raise TypeError(f"fmt must be an FPFormat, not {fmt!r}")
    if type(stages) is not int or stages < 0:
        raise ValueError(f"stages must be a non-negative integer, not {stages!r}")
    if rm not in ROUNDING_MODES:
        raise ValueError(f"rm must be one of {', '.join(ROUNDING_MODES)}, not {rm!r}")


# --------------------------------------------------------------------------- pipelining


@dataclass(frozen=True)
class Seg:
    """One segment of combinational logic: estimated delay (ns), LUTs, and the live bits
    after it (what a register boundary placed after it costs in FFs)."""

    name: str
    delay: float
    lut: int
    live_bits: int


def plan_cuts(delays: list[float], stages: int) -> list[int]:
    """Registers after each segment (``len(delays)`` entries, ``stages`` in all) minimising
    the largest stage delay: an exact dynamic programme over the linear partition (ties go to
    the earliest cuts); stages beyond the number of segments stack at the output."""
    n = len(delays)
    cuts = [0] * n
    if stages <= 0 or n == 0:
        return cuts
    k = min(stages, n)          # at most one register per boundary (the output counts)
    pre = [0.0]
    for d in delays:
        pre.append(pre[-1] + d)
    INF = float("inf")
    # best[r][j]: min bottleneck of segments [0, j) with r registers, the last one after j-1
    best = [[INF] * (n + 1) for _ in range(k + 1)]
    back = [[0] * (n + 1) for _ in range(k + 1)]
    best[0][0] = 0.0
    for r in range(1, k + 1):
        for j in range(1, n + 1):
            for i in range(0 if r == 1 else 1, j):
                if best[r - 1][i] == INF:
                    continue
                v = max(best[r - 1][i], pre[j] - pre[i])
                if v < best[r][j] - 1e-12:
                    best[r][j], back[r][j] = v, i
    end, endv = n, INF
    for j in range(1, n + 1):
        v = max(best[k][j], pre[n] - pre[j])
        if v < endv - 1e-12:
            end, endv = j, v
    j, r = end, k
    while r > 0:
        cuts[j - 1] += 1
        j, r = back[r][j], r - 1
    cuts[-1] += stages - k
    return cuts


def stage_delays(segs: list[Seg], cuts: list[int]) -> list[float]:
    out, acc = [], 0.0
    for s, c in zip(segs, cuts):
        acc += s.delay
        if c:
            out.append(acc)
            acc = 0.0
    if acc > 0 or not out:
        out.append(acc)
    return out


def cost_from_segments(segs: list[Seg], stages: int, dsp: int = 0) -> dict:
    cuts = plan_cuts([s.delay for s in segs], stages)
    worst = max(stage_delays(segs, cuts))
    return dict(
        latency=stages,
        delay_ns=round(worst + (T_REG if stages else 0.0), 3),
        lut=int(sum(s.lut for s in segs)),
        ff=int(sum(c * s.live_bits for s, c in zip(segs, cuts))),
        dsp=int(dsp),
    )


class Pipeline:
    """Pipeline registers between the segments of a unit.

    The unit calls :meth:`cut` once after each segment, in order, with the live values (a
    dict name -> Value); where :func:`plan_cuts` placed registers it returns registered
    copies (``with m.If(ce)``, so they advance only when ``ce`` is 1), else the same
    values.  :meth:`finish` checks that every segment was visited."""

    def __init__(self, m: Module, ce: Value, segs: list[Seg], stages: int, prefix: str = "p"):
        self.m, self.ce, self.segs = m, ce, segs
        self.cuts = plan_cuts([s.delay for s in segs], stages)
        self.index = 0
        self.prefix = prefix

    def cut(self, values: Mapping[str, Value]) -> dict[str, Value]:
        if self.index >= len(self.segs):
            raise AssertionError("Pipeline.cut called more often than there are segments")
        seg = self.segs[self.index]
        n = self.cuts[self.index]
        self.index += 1
        out = {k: wire(self.m, v, f"{self.prefix}_{seg.name}_{k}") for k, v in values.items()}
        for r in range(n):
            nxt = {}
            for name, v in out.items():
                v = Value.cast(v)
                if isinstance(v, Const):  # constants need no register
                    nxt[name] = v
                    continue
                s = Signal(v.shape(), name=f"{self.prefix}_{seg.name}{r}_{name}")
                with self.m.If(self.ce):
                    self.m.d.sync += s.eq(v)
                nxt[name] = s
            out = nxt
        return out

    def finish(self) -> None:
        if self.index != len(self.segs):
            raise AssertionError(f"Pipeline: {self.index} cuts for {len(self.segs)} segments")


# --------------------------------------------------------------------------- datapath


@dataclass
class Unpacked:
    """Fields of an operand.  ``exp`` is the effective biased exponent (``max(field, 1)``,
    ``E`` bits) and ``sig`` the significand with its hidden bit (``M + 1`` bits, zero for a
    zero, and for a subnormal under ``ftz``); ``sub`` is a (non-flushed) subnormal."""

    sign: Value
    exp: Value
    sig: Value
    zero: Value
    sub: Value
    inf: Value
    nan: Value


def unpack(m: Module, fmt, x: Value, ftz: bool, name: str) -> Unpacked:
    E, M = fmt.exp_bits, fmt.man_bits
    ef, frac = x[M:M + E], x[:M]
    ez, eo, fz = ef == 0, ef == (1 << E) - 1, frac == 0
    sig = Signal(M + 1, name=f"{name}_sig")
    exp = Signal(E, name=f"{name}_exp")
    m.d.comb += exp.eq(Mux(ez, 1, ef))
    if ftz:
        m.d.comb += sig.eq(Mux(ez, 0, Cat(frac, Const(1, 1))))
        zero, sub = ez, Const(0, 1)
    else:
        m.d.comb += sig.eq(Cat(frac, ~ez))
        zero, sub = ez & fz, ez & ~fz
    return Unpacked(sign=x[E + M], exp=exp, sig=sig, zero=zero, sub=sub, inf=eo & fz, nan=eo & ~fz)


def wire(m: Module | None, value, name: str) -> Value:
    """``value`` as a named combinational Signal (Signals and constants pass through; with
    no module the expression itself).  Amaranth re-emits an expression at every use, so
    anything used more than once (or sliced bit by bit) goes through a wire first: the
    helpers below take an optional ``m`` for that and are much smaller with it."""
    value = Value.cast(value)
    if m is None or isinstance(value, (Signal, Const)):
        return value
    s = Signal(value.shape(), name=name)
    m.d.comb += s.eq(value)
    return s


def _zc_tree(m: Module | None, v: Value, name: str) -> tuple[Value, Value]:
    """(all_zero, count of leading zeros when not all zero) of ``v`` (len a power of 2)."""
    n = len(v)
    if n == 1:
        return ~v[0], Const(0, 0)
    if n == 2:
        return wire(m, ~(v[0] | v[1]), f"{name}_z"), ~v[1]
    lo, hi = v[:n // 2], v[n // 2:]
    zh, ch = _zc_tree(m, hi, name + "h")
    zl, cl = _zc_tree(m, lo, name + "l")
    z = wire(m, zh & zl, f"{name}_z")
    c = wire(m, Mux(zh, Cat(cl, Const(1, 1)), Cat(ch, Const(0, 1))), f"{name}_c")
    return z, c


def lzc(v: Value, m: Module | None = None, name: str = "lzc") -> Value:
    """Leading zeros of ``v`` (``len(v)`` when zero), ``bits_for(len(v))`` bits: a
    logarithmic tree of 2-to-1 combining steps (Oklobdzija 1994)."""
    v = wire(m, v, f"{name}_in")
    w = len(v)
    n = 1 << clog2(w)
    padded = Cat(Const((1 << (n - w)) - 1, n - w), v) if n > w else v
    z, c = _zc_tree(m, padded, name)
    width = w.bit_length()
    if n == w:
        res = Mux(z, w, c)[:width] if w > 1 else Mux(z, 1, 0)
    else:
        res = c[:width] if len(c) >= width else Cat(c, Const(0, width - len(c)))
    return wire(m, res, name)


def tzc(v: Value, m: Module | None = None, name: str = "tzc") -> Value:
    """Trailing zeros of ``v`` (``len(v)`` when zero)."""
    v = wire(m, v, f"{name}_in")
    return lzc(Cat(*[v[i] for i in reversed(range(len(v)))]), m, name)


def clamp_shift(amt: Value, w: int) -> Value:
    """An unsigned shift distance for a ``w``-bit value in ``w.bit_length()`` bits:
    distances of ``w`` or more become ``w`` (everything shifted out)."""
    amt = Value.cast(amt)
    if amt.shape().signed:  # the caller guarantees amt >= 0
        amt = amt.as_unsigned()
    aw = w.bit_length()
    return Mux(amt >= w, w, amt[:aw]) if len(amt) > aw else amt


def shr_sticky(v: Value, amt: Value, m: Module | None = None, name: str = "shr",
               tz: Value | None = None) -> tuple[Value, Value]:
    """``v >> amt`` (same width) and the OR of the bits shifted out.  ``amt`` is unsigned;
    amounts >= len(v) give 0.  The sticky bit is ``amt > tzc(v)``, computed beside the
    shifter instead of after it; ``tz``: ``tzc(v)`` computed earlier (a stage before, with
    :func:`clamp_shift` of ``amt``), leaving the shifter and a short compare."""
    v = wire(m, v, f"{name}_in")
    amt = wire(m, clamp_shift(amt, len(v)), f"{name}_amt")
    shifted = wire(m, v >> amt, f"{name}_out")
    if tz is None:
        tz = tzc(v, m, f"{name}_tz")
    sticky = wire(m, amt > tz, f"{name}_sticky")
    return shifted, sticky


def rinc_seg(fmt, sig_bits: int, keep_bits: int = 0) -> Seg:
    """The segment of :func:`round_pack` before its pipeline cut (``pipe=``): the
    round-up decision (an OR over the bits below the rounding position) and the zero test
    of a ``sig_bits``-bit significand; live after it the kept significand, the exponent,
    the decision bits and ``keep_bits`` the unit carries past the rounding."""
    E, M = fmt.exp_bits, fmt.man_bits
    levels = 1 + math.ceil(math.log(max(sig_bits + 1, 2), 6))
    return Seg("rinc", levels * T_LEVEL, sig_bits // 5 + 2, M + 1 + E + 6 + keep_bits)


def round_pack(m: Module, fmt, sign: Value, e: Value, sig: Value, sticky: Value, rm: str,
               ftz: bool, *, pipe: "Pipeline", keep: Mapping[str, Value] | None = None,
               name: str = "rp") -> tuple[Value, dict[str, Value]]:
    """Round ``sig`` (normalised as in the module docstring, ``len(sig) >= M + 2``) at
    ``M + 1`` bits with ``rm`` and pack it with the signed exponent ``e``.  Handles
    round-up into the next binade, subnormal-to-normal, overflow and (``ftz``) flushing.  A
    zero ``sig`` without sticky gives zero with ``sign``.

    The rounding is two segments of the unit (:func:`rinc_seg`, then the increment, the
    overflow test and the pack): ``pipe.cut`` between them carries the decision and
    ``keep`` (the caller's values needed after the rounding); the result is ``(packed,
    kept)`` with ``kept`` those values past the cut."""
    E, M = fmt.exp_bits, fmt.man_bits
    sig = wire(m, sig, f"{name}_sig")
    sticky = wire(m, sticky, f"{name}_sticky")
    w = len(sig)
    g = w - (M + 1)
    assert g >= 1, "round_pack needs at least one bit below the rounding position"
    top = sig[g:]
    guard = sig[g - 1]
    rest = (sig[:g - 1] != 0) | sticky if g >= 2 else Value.cast(sticky)
    if rm == "rne":
        inc = guard & (rest | top[0])
    else:
        inc = Const(0, 1)
    iszero = (sig == 0) & ~sticky
    kept = pipe.cut(dict(keep or {}, _sign=sign, _e=e, _top=top, _inc=inc, _iszero=iszero))
    sign, e, top, inc, iszero = (kept.pop(k) for k in ("_sign", "_e", "_top", "_inc", "_iszero"))
    ew = max(len(e), E + 2) + 1
    packed = Signal(signed(ew + M + 1), name=f"{name}_packed")
    m.d.comb += packed.eq(Cat(Const(0, M), (e - 1)).as_signed() + top + inc)
    ef = Signal(signed(ew + 1), name=f"{name}_ef")
    m.d.comb += ef.eq(packed >> M)
    out = Signal(fmt.width - 1, name=f"{name}_mag")
    maxmag = ((1 << E) - 2) << M | ((1 << M) - 1)
    ovf_val = ((1 << E) - 1) << M if rm == "rne" else maxmag
    if ftz:
        iszero = iszero | (ef <= 0)
    with m.If(iszero):
        m.d.comb += out.eq(0)
    with m.Elif(ef >= (1 << E) - 1):
        m.d.comb += out.eq(ovf_val)
    with m.Else():
        m.d.comb += out.eq(packed[:E + M])
    return Cat(out, sign), kept
