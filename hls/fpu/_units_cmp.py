"""Floating-point comparison, minimum/maximum and sign operations.

These are the cheap units: the ordering of IEEE encodings is the sign-magnitude integer
ordering of their bits once NaNs are set apart and the two zeros identified, so a
comparison is one ``width - 1``-bit magnitude comparator plus a few gates, and min/max adds
a ``width``-bit multiplexer.  ``FPSign`` is wiring and one gate per sign bit.

Conventions shared with :mod:`hls.fpu._units_div`: ports ``a``, ``b``, ``o`` and ``ce``;
``stages = 0`` is combinational, ``stages = k`` delays the result by exactly ``k``
clock-enabled registers (the logic is one short level, so the registers simply follow it);
a new operand pair is accepted every cycle.  Semantics are those of :mod:`hls.fpu.ref`:
``fcmp`` for the sixteen LLVM predicates, ``minnum``/``maxnum`` (a NaN operand yields the
other operand, two NaNs the canonical quiet NaN, ``-0 < +0``; otherwise the result is one
operand's encoding unchanged) and the payload-preserving bit operations ``neg``, ``fabs``,
``copysign``.  With ``ftz`` (an extension, as in the reference) subnormal operands of the
comparison and of min/max read as zeros of the same sign.
"""

from __future__ import annotations

from amaranth.hdl import C, Cat, Module, Mux, Signal, Value
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from ._format import FPFormat
from ._common import T_CARRY, T_LEVEL, T_REG
from .ref import FCMP_PREDICATES  # the LLVM fcmp predicates, defined once

__all__ = ["FPCmp", "FPMinMax", "FPSign", "FCMP_PREDICATES"]



def _check(fmt: FPFormat, stages: int) -> None:
    if not isinstance(fmt, FPFormat):
        raise TypeError(f"fmt must be an FPFormat, not {fmt!r}")
    if type(stages) is not int or stages < 0:
        raise ValueError(f"stages must be a non-negative integer, not {stages!r}")


def _output(m: Module, ce: Value, o: Value, value: Value, stages: int) -> None:
    """``o`` is ``value`` delayed by ``stages`` clock-enabled registers."""
    for k in range(stages):
        r = Signal(len(value), name=f"o_p{k + 1}")
        with m.If(ce):
            m.d.sync += r.eq(value)
        value = r
    m.d.comb += o.eq(value)


class _Ordered:
    """The order relations of two encodings (combinational), NaN aware."""

    def __init__(self, m: Module, fmt: FPFormat, a: Value, b: Value, ftz: bool):
        E, M = fmt.exp_bits, fmt.man_bits
        W = fmt.width

        def wire(name, width, value):
            s = Signal(width, name=name)
            m.d.comb += s.eq(value)
            return s

        def operand(name, x):
            expf = x[M:M + E]
            nan = wire(f"{name}_nan", 1, (expf == fmt.exp_mask) & (x[:M] != 0))
            if ftz:
                x = wire(f"{name}_ftz", W, Mux(expf == 0, Cat(C(0, W - 1), x[W - 1]), x))
            return x, nan

        self.a, self.a_nan = operand("a", a)
        self.b, self.b_nan = operand("b", b)
        a, b = self.a, self.b
        sa, sb = a[W - 1], b[W - 1]
        ma, mb = a[:W - 1], b[:W - 1]
        self.unordered = wire("unordered", 1, self.a_nan | self.b_nan)
        both_zero = wire("both_zero", 1, (ma == 0) & (mb == 0))
        mag_lt = wire("mag_lt", 1, ma < mb)
        mag_gt = wire("mag_gt", 1, mb < ma)
        # numeric relations of non-NaN operands (+0 == -0)
        self.eq = wire("eq", 1, both_zero | (a == b))
        self.lt = wire("lt", 1, ~both_zero & Mux(sa ^ sb, sa, Mux(sa, mag_gt, mag_lt)))
        self.gt = wire("gt", 1, ~both_zero & Mux(sa ^ sb, sb, Mux(sa, mag_lt, mag_gt)))
        # total order of non-NaN encodings with -0 < +0 (min/max)
        self.tlt = wire("tlt", 1, Mux(sa ^ sb, sa, Mux(sa, mag_gt, mag_lt)))


def _cmp_cost(fmt: FPFormat, stages: int, extra_levels: int, extra_lut: int, out_bits: int) -> dict:
    w = fmt.width
    delay = T_LEVEL * (2 + extra_levels) + (w - 1) * T_CARRY     # comparator, NaN/zero, select
    return dict(latency=stages, delay_ns=round(delay + (T_REG if stages else 0.0), 3),
                lut=(w - 1) + (fmt.exp_bits + fmt.man_bits) // 3 + 4 + extra_lut,
                ff=stages * out_bits, dsp=0)


class FPCmp(wiring.Component):
    """LLVM ``fcmp pred a, b``: ``o`` is 1 bit.  Ordered predicates (``o*``, ``ord``) are
    false and unordered ones (``u*``, ``uno``) true when either operand is a NaN; ``+0``
    equals ``-0``.  Ports ``a``, ``b`` (``fmt.width`` bits), ``o`` (1 bit), ``ce``."""

    def __init__(self, fmt: FPFormat, pred: str, stages: int = 0, ftz: bool = False):
        _check(fmt, stages)
        if pred not in FCMP_PREDICATES:
            raise ValueError(f"pred must be one of {', '.join(FCMP_PREDICATES)}, not {pred!r}")
        self.fmt, self.pred, self.stages, self.ftz = fmt, pred, stages, bool(ftz)
        w = fmt.width
        super().__init__({"a": In(w), "b": In(w), "o": Out(1), "ce": In(1)})

    @classmethod
    def cost(cls, fmt: FPFormat, stages: int = 0, pred: str = "olt") -> dict:
        """Estimated latency, delay (ns), LUT, FF, DSP; the model of
        :mod:`hls.fpu._units_div`: one ``width - 1``-bit magnitude comparator (carry
        chain), NaN and zero detection, two LUT levels to combine them, ``stages`` output
        flip-flops.  ``true``/``false`` are free."""
        _check(fmt, stages)
        if pred in ("true", "false"):
            return dict(latency=stages, delay_ns=0.0, lut=0, ff=stages, dsp=0)
        return _cmp_cost(fmt, stages, 0, 0, 1)

    def elaborate(self, platform) -> Module:
        m = Module()
        pred = self.pred
        if pred in ("true", "false"):
            _output(m, self.ce, self.o, C(int(pred == "true"), 1), self.stages)
            return m
        r = _Ordered(m, self.fmt, self.a, self.b, self.ftz)
        base = pred[1:]
        rel = {
            "eq": r.eq, "ne": ~r.eq, "gt": r.gt, "ge": r.gt | r.eq, "lt": r.lt,
            "le": r.lt | r.eq, "rd": C(1, 1), "no": C(0, 1),
        }[base]
        value = rel & ~r.unordered if pred[0] == "o" else rel | r.unordered
        _output(m, self.ce, self.o, value, self.stages)
        return m


class FPMinMax(wiring.Component):
    """LLVM ``minnum`` (``is_max=False``) / ``maxnum``: the smaller / larger operand, the
    other operand when one is a NaN, the canonical quiet NaN when both are; ``-0 < +0``.
    Ports ``a``, ``b``, ``o`` (``fmt.width`` bits), ``ce``."""

    def __init__(self, fmt: FPFormat, is_max: bool, stages: int = 0, ftz: bool = False):
        _check(fmt, stages)
        self.fmt, self.is_max, self.stages, self.ftz = fmt, bool(is_max), stages, bool(ftz)
        w = fmt.width
        super().__init__({"a": In(w), "b": In(w), "o": Out(w), "ce": In(1)})

    @classmethod
    def cost(cls, fmt: FPFormat, stages: int = 0) -> dict:
        """As :meth:`FPCmp.cost` plus a ``width``-bit 3:1 result multiplexer (one LUT
        level, one LUT per bit) and ``width`` flip-flops per stage."""
        _check(fmt, stages)
        return _cmp_cost(fmt, stages, 1, fmt.width, fmt.width)

    def elaborate(self, platform) -> Module:
        m = Module()
        fmt = self.fmt
        r = _Ordered(m, fmt, self.a, self.b, self.ftz)
        # ref: min takes a when key(a) <= key(b), max when key(a) >= key(b); equal keys are
        # equal encodings, so ties may take either
        take_a = ~r.tlt if self.is_max else r.tlt | (r.a == r.b)
        res = Signal(fmt.width, name="minmax")
        with m.If(r.a_nan & r.b_nan):
            m.d.comb += res.eq(fmt.qnan)
        with m.Elif(r.a_nan):
            m.d.comb += res.eq(r.b)
        with m.Elif(r.b_nan | take_a):
            m.d.comb += res.eq(r.a)
        with m.Else():
            m.d.comb += res.eq(r.b)
        _output(m, self.ce, self.o, res, self.stages)
        return m


class FPSign(wiring.Component):
    """Sign operations on encodings, NaN payloads passed through: ``op = "neg"`` flips the
    sign bit of ``a`` (LLVM ``fneg``), ``"abs"`` clears it (``llvm.fabs``), ``"copysign"``
    gives ``a``'s magnitude ``b``'s sign (``llvm.copysign``).  Ports ``a`` (and ``b`` for
    copysign), ``o``, ``ce``; combinational unless ``stages > 0``."""

    OPS = ("neg", "abs", "copysign")

    def __init__(self, fmt: FPFormat, op: str, stages: int = 0):
        _check(fmt, stages)
        if op not in self.OPS:
            raise ValueError(f"op must be one of {', '.join(self.OPS)}, not {op!r}")
        self.fmt, self.op, self.stages = fmt, op, stages
        w = fmt.width
        ports = {"a": In(w)}
        if op == "copysign":
            ports["b"] = In(w)
        ports.update({"o": Out(w), "ce": In(1)})
        super().__init__(ports)

    @classmethod
    def cost(cls, fmt: FPFormat, stages: int = 0, op: str = "neg") -> dict:
        """Wiring plus at most one LUT (the sign bit); ``width`` flip-flops per stage."""
        _check(fmt, stages)
        lut = 0 if op == "abs" else 1
        return dict(latency=stages, delay_ns=round((T_LEVEL if lut else 0.0) + (T_REG if stages else 0.0), 3),
                    lut=lut, ff=stages * fmt.width, dsp=0)

    def elaborate(self, platform) -> Module:
        m = Module()
        W = self.fmt.width
        mag, sa = self.a[:W - 1], self.a[W - 1]
        sign = {"neg": ~sa, "abs": C(0, 1)}.get(self.op)
        if sign is None:
            sign = self.b[W - 1]
        _output(m, self.ce, self.o, Cat(mag, sign), self.stages)
        return m
