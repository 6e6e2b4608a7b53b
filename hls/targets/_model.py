"""Operator timing/area model: one table, one dispatch.

Every number in this module is an *estimate* meant to steer scheduling and binding, not a
sign-off timing model.  The two technology parameter sets are:

``generic``
    A neutral, technology-agnostic model (roughly a mid-range FPGA with plain LUT logic),
    used with a 10 ns default clock.  The formulas follow the textbook shapes: ripple-carry
    adders grow linearly with the width (``0.8 + 0.03*w`` ns), bitwise logic is one LUT level
    (0.3 ns), a barrel shifter is ``ceil(log2 w)`` mux levels (``0.4 + 0.15*levels``), a
    combinational array multiplier grows linearly (``2.0 + 0.08*w`` ns) and is built from LUTs.

``ultrascale+``
    AMD/Xilinx UltraScale+ (the Alveo U280/U250/U55C parts, speed grade -2L), used with a
    3.33 ns (300 MHz) default clock.  Assumptions, from the public UltraScale+ data sheets
    (DS923) and architecture guides (UG574 CLB, UG579 DSP, UG573 BRAM) rounded generously to
    include typical routing: one LUT6 level plus a net ~0.35 ns; CARRY8 makes adders cheap
    (``0.55 + 0.012*w`` ns); multiplies map onto DSP48E2 slices (27x18) used
    *combinationally* (no internal pipeline registers), ``1.6 + 0.04*w`` ns, i.e. a 64-bit
    multiply (~4.2 ns) does not fit a 3.33 ns step and is reported by the scheduler as a
    timing violation; DSP count ``ceil(w/18)**2`` for ``w > 8`` (narrower multiplies are
    LUTs); block RAM clock-to-out without the optional output register ~1.4 ns.

Contract shared with the RTL generator (``hls.rtl``): latencies depend on the target only
where stated here; otherwise only delays and areas do.  Latency 0 = combinational
(chainable); ``load`` has latency 1 (synchronous BRAM read, the data appears after the clock
edge); ``call`` has latency 1 (a ``ap_ctrl_hs`` handshake whose real latency is variable, the
scheduler treats it as 1 and the FSM stalls).  ``udiv/sdiv/urem/srem`` use a sequential
restoring divider that retires ``k = Target.divider_bits(w)`` quotient bits per cycle (``k``
chained restoring steps per clock), with ``divider_latency(w, k) = ceil(w / k) + 2`` cycles
(1 cycle to load/negate operands, ``ceil(w / k)`` iterations, 1 cycle to fix signs) and not
pipelined (occupancy = latency): so the divider latency depends on the target's clock
period and its adder/mux delays (``k`` = 1, i.e. ``w + 2`` cycles, when only one step fits),
and the RTL builds the unit with the same ``k``.  The floating-point units are pipelined to
the clock too (:mod:`hls.targets._fp`).  For latency >= 1 operations ``delay_ns`` is the
output delay in the step where the result is born (register or RAM clock-to-out), not the
delay of the whole operation.

Area figures (LUT, FF, DSP) are per operation instance and equally rough.  ``load`` and
``store`` have ``resource=None``: the memory ports they compete for are a property of the
memory, so the caller (the CDFG builder) assigns port resources itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Callable

from hls.errors import HLSError

from ._platform import PLAIN, Platform

MIN_WIDTH = 1
#: the widest operation the tables answer for: 64 bits for most of the datapath, 128
#: for the multiplies and divisions of wide ap_int/ap_fixed products (the frontend's
#: ``MAX_MULDIV_BITS``); the formulas hold at any width, the ecp5 library extrapolates
#: above its largest sample (``hls.targets._library.ClassData``)
MAX_WIDTH = 128


@dataclass(frozen=True, slots=True)
class OpTiming:
    """Timing and cost of one operation of one width on one target.

    ``latency``: cycles from issue until the result is available (0 = combinational).
    ``delay_ns``: combinational delay (for latency >= 1: output delay in the birth step).
    ``resource``: functional-unit class that binding may share (``mul32``), or ``None``.
    ``occupancy``: cycles a unit instance stays busy per operation.
    ``pipelined``: whether a unit accepts a new operation every cycle.
    """

    latency: int
    delay_ns: float
    area_lut: int
    area_ff: int
    area_dsp: int
    resource: str | None
    occupancy: int
    pipelined: bool
    #: a multi-cycle op's logic before its first register (``SchedOp.in_delay_ns``)
    in_delay_ns: float = 0.0


@dataclass(frozen=True, slots=True)
class TechParams:
    """Technology constants (all delays in ns).  See the module docstring."""

    logic_ns: float          # one LUT level incl. routing
    add_base_ns: float       # adder: base + per_bit * w
    add_per_bit_ns: float
    shift_base_ns: float     # barrel shifter: base + per_level * ceil(log2 w)
    shift_per_level_ns: float
    mux_ns: float            # 2:1 select
    mul_base_ns: float       # combinational multiplier: base + per_bit * w
    mul_per_bit_ns: float
    mul_uses_dsp: bool       # map multiplies wider than 8 bits onto 18-bit DSP tiles
    ram_out_ns: float        # synchronous RAM clock-to-out (+ routing)
    store_ns: float          # address/data/write-enable setup into the RAM
    reg_out_ns: float        # register clock-to-out (+ routing)
    #: the part of every cycle no chained op can use: register clock-to-out, the net into
    #: the destination register's select and enable logic, setup (0 for the uncalibrated
    #: models, whose op delays are meant to fill the whole period)
    step_overhead_ns: float = 0.0
    #: floating-point units' stage delays relative to the generic model (None: the ratio
    #: of ``logic_ns`` to the generic one)
    fp_scale: float | None = None
    #: width of the x slices of a floating-point significand product (``FPMul(xtile=)``):
    #: None: x whole (24 x 17 DSP48 tiles); 18 on ECP5 (one MULT18X18D per product)
    fp_mul_tile: int | None = None
    #: the device's on-chip RAM takes one write per cycle (ECP5's DP16KD: two writes, or
    #: a write and the other port's read, to one address collide undefined; its LUT RAM,
    #: TRELLIS_DPR16X4, has one write port; Yosys builds a two-writer array of either
    #: from flip-flops): an on-chip memory the schedule writes twice in a cycle is
    #: scheduled again with one port
    ram_single_writer: bool = False
    #: multiplies wider than one DSP tile of this many bits are built in two pipeline
    #: stages (``hls.rtl.PipelinedMul``: tile products, then their sum): a multiply over
    #: several MULT18X18D blocks with its carry chain does not fit a cycle between the
    #: FSM's multiplexers on ECP5 (hist_cdf_u8: 15 ns); None: combinational
    mul_tile: int | None = None
    #: routing to and from a DSP block in a whole design, beyond what an operation placed
    #: alone measures (the DSP columns are far from the FSM's multiplexers: 2.6 + 1.1 ns
    #: of routing into hist_cdf_u8's multiplier, about 3 ns more than characterised in
    #: mat_atb_i16's address multiply); added to every multiply on DSP blocks
    dsp_route_ns: float = 0.0
    #: routing out of a block RAM in a whole design, beyond what a RAM placed alone with
    #: its register measures (the DP16KD rows are apart from the logic: 1.69 ns from the
    #: RAM's data output to the first LUT on mat_horner_f32 and on hist_cdf_u8, where the
    #: characterisation's register sits beside the RAM); added to every block-RAM load
    ram_route_ns: float = 0.0
    #: a conditional branch's decision into the controller in a whole design: the FSM's
    #: next-state logic and the enables it drives (a pipelined loop's exit into the state
    #: register, then the next loop's stage enables and register multiplexers: 4.6 ns after
    #: the exit compare on 2mm's divider loop, where the step overhead holds 3); the delay
    #: of ``condbr`` and ``switch``, so that a condition's chain leaves it in the cycle
    branch_ns: float = 0.0
    #: routing of a LUT-RAM array's address and write data in a whole design: they fan
    #: out to every TRELLIS_DPR16X4 of the array (ceil(depth / 16) x ceil(width / 4)
    #: cells, spread over as many slices): on durbin's 40-word ``y`` and ``z`` about 1 ns
    #: more into the RAM's address, and 1.9 ns from the data's last LUT into the RAMW
    #: slice, than the characterised LUT levels; added to every LUT-RAM load and store
    lutram_route_ns: float = 0.0


#: Most quotient bits a sequential divider retires per cycle (restoring steps chained in one
#: clock); more would grow the unit for little gain at the widths we divide.
MAX_DIVIDER_BITS = 8


def divider_latency(width: int, bits_per_cycle: int = 1) -> int:
    """Cycles of the sequential divider for ``width``-bit operands retiring
    ``bits_per_cycle`` (``k``) quotient bits per cycle.

    1 cycle to capture (and make positive) the operands, ``ceil(width / k)`` iterations of
    ``k`` chained restoring steps, 1 cycle to apply the result signs.  ``hls.rtl``
    implements exactly this latency (``SeqDivider``).
    """
    _check_width("udiv", width)
    if isinstance(bits_per_cycle, bool) or not isinstance(bits_per_cycle, int) \
            or not 1 <= bits_per_cycle <= MAX_DIVIDER_BITS:
        raise HLSError(f"divider: {bits_per_cycle!r} bits per cycle is outside "
                       f"1..{MAX_DIVIDER_BITS}")
    return -(-width // bits_per_cycle) + 2


def _check_width(kind: str, width: int) -> None:
    if isinstance(width, bool) or not isinstance(width, int) or not MIN_WIDTH <= width <= MAX_WIDTH:
        raise HLSError(f"operation '{kind}': width {width!r} is outside {MIN_WIDTH}..{MAX_WIDTH}")


def _levels(width: int) -> int:
    """ceil(log2(width)), at least 1: mux levels of a barrel shifter / depth of a tree."""
    return max(1, (width - 1).bit_length())


def _add_ns(t: TechParams, w: int) -> float:
    return t.add_base_ns + t.add_per_bit_ns * w


def _shift_ns(t: TechParams, w: int) -> float:
    return t.shift_base_ns + t.shift_per_level_ns * _levels(w)


def _comb(delay: float, lut: int, ff: int = 0, dsp: int = 0, resource: str | None = None) -> OpTiming:
    return OpTiming(0, round(delay, 4), lut, ff, dsp, resource, 1, True)


# -- the table: timing class -> (tech, width) -> OpTiming ------------------------------
# (each op kind names its class and the width to query in its definition, hls.ir._ops)


def _add(t: TechParams, w: int) -> OpTiming:
    return _comb(_add_ns(t, w), w)


def _logic(t: TechParams, w: int) -> OpTiming:
    return _comb(t.logic_ns, w)


def _shift(t: TechParams, w: int) -> OpTiming:
    return _comb(_shift_ns(t, w), w * _levels(w) // 2 + 1)


def _icmp(t: TechParams, w: int) -> OpTiming:
    return _comb(_add_ns(t, w), (w + 1) // 2 + 1)


def _mux(t: TechParams, w: int) -> OpTiming:
    return _comb(t.mux_ns, w)


def _wire(t: TechParams, w: int) -> OpTiming:
    return _comb(0.0, 0)


def _mul(t: TechParams, w: int) -> OpTiming:
    delay = t.mul_base_ns + t.mul_per_bit_ns * w
    if t.mul_uses_dsp and w > 8:
        tiles = math.ceil(w / 18)
        return _comb(delay, 2 * w, dsp=tiles * tiles, resource=f"mul{w}")
    return _comb(delay, w * w, resource=f"mul{w}")


def _div(t: TechParams, w: int, k: int = 1) -> OpTiming:
    """Sequential divider retiring ``k`` quotient bits per cycle (the ``_TABLE`` entry is
    the radix-2 unit; :meth:`Target.timing` asks :func:`_div_timing` with the target's k)."""
    lat = divider_latency(w, k)
    # remainder/quotient/divisor registers + counter; k subtractors + restore muxes + control.
    return OpTiming(lat, t.reg_out_ns, 2 * w * k + 8, 3 * w + 8, 0, f"div{w}", lat, False)


@lru_cache(maxsize=1024)
def _div_timing(tech: TechParams, width: int, k: int) -> OpTiming:
    _check_width("udiv", width)
    return _div(tech, width, k)


def _div_setup_ns(t: TechParams) -> float:
    """Setup margin (ns) of the divider's iteration registers: the chained restoring steps
    end in the acc/quo registers' D inputs through the load/iterate select, which we charge
    like a RAM input setup, ``store_ns`` (0.5 ns generic, 0.4 ns UltraScale+)."""
    return t.store_ns


@lru_cache(maxsize=4096)
def _divider_bits(tech: TechParams, clock_period_ns: float, width: int) -> int:
    _check_width("udiv", width)
    step = _add_ns(tech, width + 1) + tech.mux_ns  # one restoring step: subtract, then select
    return _fit_divider_bits(step, clock_period_ns - tech.reg_out_ns - _div_setup_ns(tech), width)


def _fit_divider_bits(step_ns: float, budget_ns: float, width: int) -> int:
    """The most restoring steps of ``step_ns`` that fit ``budget_ns`` (1..8, at least 1),
    reduced to the fewest that need the same number of iterations: e.g. 16 bits at up to 5
    steps per cycle needs 4 iterations, which 4 steps per cycle also give (shorter path,
    fewer LUTs)."""
    k = 1
    while k < MAX_DIVIDER_BITS and (k + 1) * step_ns <= budget_ns + 1e-9:
        k += 1
    iters = -(-width // k)
    return -(-width // iters)


def _divc(t: TechParams, w: int) -> OpTiming:
    """Division/remainder by a constant: a multiply-high by the scaled reciprocal
    (Granlund-Montgomery), sign handling and, for the remainder, a multiply-subtract.
    Combinational; the constant multiplier is specialised, so it is never shared."""
    mul = _mul(t, min(w + 1, MAX_WIDTH))
    delay = mul.delay_ns + 2 * _add_ns(t, w) + t.mux_ns
    return _comb(delay, mul.area_lut + 3 * w, dsp=mul.area_dsp)


def _minmax(t: TechParams, w: int) -> OpTiming:
    return _comb(_add_ns(t, w) + t.mux_ns, (w + 1) // 2 + 1 + w)


def _abs(t: TechParams, w: int) -> OpTiming:
    return _comb(_add_ns(t, w) + t.mux_ns, 2 * w)


def _funnel(t: TechParams, w: int) -> OpTiming:
    return _comb(_shift_ns(t, 2 * w), w * _levels(2 * w) // 2 + 1)


def _ctpop(t: TechParams, w: int) -> OpTiming:
    # log-depth tree of small adders (each level a few-bit add).
    return _comb(t.logic_ns + _levels(w) * _add_ns(t, _levels(w)) * 0.6, 2 * w)


def _clz(t: TechParams, w: int) -> OpTiming:
    # priority encoder as a log-depth tree of LUT levels.
    return _comb(t.logic_ns * (1 + _levels(w)), w + _levels(w))


def _sat(t: TechParams, w: int) -> OpTiming:
    return _comb(_add_ns(t, w) + t.mux_ns, 2 * w + 2)


def _load(t: TechParams, w: int) -> OpTiming:
    return OpTiming(1, t.ram_out_ns + t.ram_route_ns, 0, 0, 0, None, 1, True)


def _load_async(t: TechParams, w: int) -> OpTiming:
    """A read of a small array held in LUT RAM (or registers): combinational, the address
    decode and the LUT read (two LUT levels)."""
    return _comb(2 * t.logic_ns, 0)


def _store(t: TechParams, w: int) -> OpTiming:
    return _comb(t.store_ns, 0)


def _call(t: TechParams, w: int) -> OpTiming:
    return OpTiming(1, t.reg_out_ns, 4, 2, 0, None, 1, False)


_TABLE: dict[str, Callable[[TechParams, int], OpTiming]] = {
    "add": _add, "sub": _add,
    "and": _logic, "or": _logic, "xor": _logic,
    "shl": _shift, "lshr": _shift, "ashr": _shift,
    "icmp": _icmp,
    "select": _mux, "mux": _mux,
    "zext": _wire, "sext": _wire, "trunc": _wire, "bitreverse": _wire, "bswap": _wire,
    "const": _wire, "copy": _wire,
    "mul": _mul,
    "udiv": _div, "sdiv": _div, "urem": _div, "srem": _div,
    "udivc": _divc, "sdivc": _divc, "uremc": _divc, "sremc": _divc,
    "smax": _minmax, "smin": _minmax, "umax": _minmax, "umin": _minmax,
    "abs": _abs,
    "fshl": _funnel, "fshr": _funnel,
    "ctpop": _ctpop, "ctlz": _clz, "cttz": _clz,
    "sadd_sat": _sat, "ssub_sat": _sat, "uadd_sat": _sat, "usub_sat": _sat,
    "load": _load, "load_async": _load_async, "store": _store, "call": _call,
}

_DIV_KINDS = frozenset(k for k, fn in _TABLE.items() if fn is _div)

#: Every timing class the model knows, sorted (most are named after the op kind they time).
OP_KINDS: tuple[str, ...] = tuple(sorted(_TABLE))


@lru_cache(maxsize=4096)
def _timing(tech: TechParams, kind: str, width: int) -> OpTiming:
    fn = _TABLE.get(kind)
    if fn is None:
        raise HLSError(f"unknown operation kind '{kind}' for the operator library; "
                       f"known kinds: {', '.join(OP_KINDS)}")
    _check_width(kind, width)
    return fn(tech, width)


#: op kind -> characterised timing class (``hls.pnr._characterise.CLASSES``); kinds not
#: here (wires, dividers, calls, LUT-RAM loads) keep the formulas, with the library's
#: adder and mux where they are built of those
_LIB_CLASS: dict[str, str] = {
    "add": "add", "sub": "add", "and": "logic", "or": "logic", "xor": "logic",
    "shl": "shl", "lshr": "lshr", "ashr": "ashr", "icmp": "icmp", "select": "mux", "mux": "mux",
    "mul": "mul", "udivc": "divc", "sdivc": "divc", "uremc": "divc", "sremc": "divc",
    "smax": "minmax", "smin": "minmax", "umax": "minmax", "umin": "minmax", "abs": "abs",
    "fshl": "funnel", "fshr": "funnel", "ctpop": "ctpop", "ctlz": "clz", "cttz": "clz",
    "sadd_sat": "sat", "ssub_sat": "sat", "uadd_sat": "sat", "usub_sat": "sat",
    "load": "load", "store": "store",
}


@lru_cache(maxsize=8192)
def _lib_timing(library: str, tech: TechParams, kind: str, width: int) -> OpTiming:
    from ._library import load_library

    _check_width(kind, width)
    lib = load_library(library)
    cls = _LIB_CLASS.get(kind)
    if cls is None or not lib.has(cls):
        if kind == "load_async":   # decode + LUT-RAM read: two logic levels of the device
            return _comb(2 * lib.cls("logic").delay(width), 0)
        return _timing(tech, kind, width)
    data = lib.cls(cls)
    delay = data.delay(width)
    lut, ff, dsp = data.area(width)
    if kind == "load":
        return OpTiming(1, delay + tech.ram_route_ns, 0, 0, 0, None, 1, True)
    if kind == "store":
        return _comb(delay, 0)
    if kind == "mul" and tech.mul_tile and len(mul_tiles(width, tech.mul_tile)) > 1:
        # two stages: one tile's product before the first register, nothing after the last
        tiles = mul_tiles(width, tech.mul_tile)
        # one tile is one MULT18X18D: the widest single-block sample (the library's
        # samples jump from one block at 16 bits to three at 24)
        one = max(w for w, d in zip(data.widths, data.dsp) if d <= 1 and w <= tech.mul_tile)
        first = data.delay(one) + tech.dsp_route_ns
        regs = sum(t[4] for t in tiles) + width      # the tile products, then their sum
        return OpTiming(2, 0.0, lut, regs, len(tiles), None, 1, True, first)
    resource = f"mul{width}" if kind == "mul" else None
    if kind == "mul" and dsp:
        delay += tech.dsp_route_ns
    return _comb(delay, lut, ff, dsp, resource)


def mul_signed_bits(v) -> int | None:
    """The bits ``s`` of which a multiply operand ``v`` is the sign extension, when it is
    one below its width: a ``sext`` (its source's width) or a negative constant (the
    fewest two's-complement bits that hold it); else None.  :class:`hls.rtl.PipelinedMul`
    builds such an operand as ``s`` signed bits (:func:`mul_slices`): CHStone adpcm's
    ``(long) a * b`` of two ints is 4 MULT18X18D, not 10."""
    from hls.ir import Const, Op

    if isinstance(v, Op) and v.kind == "sext":
        s = v.operands[0].width
    elif isinstance(v, Const) and v.width > 1 and v.value >> (v.width - 1):
        s = (v.value - (1 << v.width)).bit_length() + 1
    else:
        return None
    return s if s < v.width else None


def mul_unit_signs(ops) -> tuple:
    """The bits each operand of a two-stage multiplier serving ``ops`` is sign-extended
    from (:func:`mul_signed_bits`; a shared unit's: the widest, when every sharer's
    operand is one), else None: one answer for the hardware and the area estimate."""
    out = []
    for i in (0, 1):
        bits = [mul_signed_bits(o.operands[i]) for o in ops]
        out.append(None if None in bits else max(bits))
    return tuple(out)


def mul_slices(width: int, tile: int, signed_bits: int | None = None) -> list[tuple[int, int, bool]]:
    """``(lo, hi, signed)`` slices of a ``width``-bit multiply operand, each one DSP
    tile's operand: ``tile``-bit unsigned slices; an operand sign-extended from
    ``signed_bits`` (:func:`mul_signed_bits`) only up to those bits, unsigned slices of
    ``tile - 1`` bits (a signed tile multiplier takes them zero-extended) below a signed
    top slice of at most ``tile`` bits."""
    if signed_bits is None or signed_bits >= width:
        return [(lo, min(lo + tile, width), False) for lo in range(0, width, tile)]
    out, lo = [], 0
    while signed_bits - lo > tile:
        out.append((lo, lo + tile - 1, False))
        lo += tile - 1
    out.append((lo, signed_bits, True))
    return out


def staged_tiles(used: int, tile: int, wa: int, wb: int, sa: int | None = None,
                 sb: int | None = None) -> list[tuple]:
    """The partial products of a multiply whose ``used`` low bits are kept, operands
    ``wa`` and ``wb`` bits wide (``sa``/``sb``: sign-extended from those bits,
    :func:`mul_slices`): ``(xl, xh, x_signed, yl, yh, y_signed, keep)`` for the slice
    pairs whose offset ``xl + yl`` is below ``used``, ``keep`` the product's bits the
    sum uses (a product with a signed factor is sign-extended from them).  One list for
    the hardware (:class:`hls.rtl.PipelinedMul`) and the area estimate."""
    out = []
    for xl, xh, xs in mul_slices(wa, tile, sa):
        for yl, yh, ys in mul_slices(wb, tile, sb):
            if xl + yl < used:
                out.append((xl, xh, xs, yl, yh, ys, min(used - (xl + yl), (xh - xl) + (yh - yl))))
    return out


def mul_tiles(width: int, tile: int, wa: int | None = None,
              wb: int | None = None) -> list[tuple[int, int, int, int, int]]:
    """The ``tile`` x ``tile`` partial products of a multiply truncated to ``width`` bits
    (operands ``wa`` and ``wb`` bits, default ``width``): ``(xl, xh, yl, yh, keep)`` for
    ``a[xl:xh] * b[yl:yh]`` of each whose offset ``xl + yl`` is below ``width``, ``keep``
    the bits of it the sum uses: :func:`staged_tiles` of unsigned operands (the tile count
    the timing and the area estimate's adders scale by)."""
    return [(xl, xh, yl, yh, keep) for xl, xh, _, yl, yh, _, keep
            in staged_tiles(width, tile, wa or width, wb or width)]


@dataclass(frozen=True, slots=True)
class Target:
    """A synthesis target: a clock period and an operator library.

    ``library``: the name of a characterised library (``hls/targets/data/<name>.json``)
    whose measured delays and areas replace the formulas of ``tech`` where it has the
    class; ``part``: (part, speed grade) for the place-and-route flow that verifies it;
    ``platform``: what the top's ports are (:class:`hls.targets.Platform`)."""

    name: str
    clock_period_ns: float
    family: str
    tech: TechParams
    description: str = ""
    library: str | None = None
    part: tuple | None = None
    #: clock uncertainty (Vitis HLS's ``-clock_uncertainty``): time kept free in every
    #: cycle on top of the step overhead, for routing the model does not see;
    #: ``--close-timing`` raises it by what place and route measured
    uncertainty_ns: float = 0.0
    platform: Platform = PLAIN
    #: extra delays of single ops, ((op key, ns), ...) in key order: what place and route
    #: measured on their paths beyond the model (``--close-timing``; the keys are
    #: :func:`hls.scheduling.op_key`'s, read by :func:`hls.scheduling.op_timing`)
    annotations: tuple = ()
    #: the part's capacities (:class:`hls.targets.Device`), which the estimate is checked
    #: against; None: a technology without a part (``generic``)
    device: object = None

    @property
    def chain_budget_ns(self) -> float:
        """The time chained operations may take in one cycle: the clock period less the
        target's step overhead (``TechParams.step_overhead_ns``) and the clock
        uncertainty."""
        return round(self.usable_ns - self.uncertainty_ns, 6)

    @property
    def verified(self) -> bool:
        """Whether an open place-and-route flow checks this target's timing."""
        return self.part is not None

    def timing(self, kind: str, width: int) -> OpTiming:
        """Timing/area of one ``kind`` operation on ``width``-bit operands (1..128)."""
        if type(width) is not int:  # bool would hit the cache entry of 0/1
            _check_width(kind, width)
        if kind in _DIV_KINDS:
            return _div_timing(self.tech, width, self.divider_bits(width))
        if self.library is not None:
            return _lib_timing(self.library, self.tech, kind, width)
        return _timing(self.tech, kind, width)

    def port_mux_ns(self, fanin: int) -> float:
        """The delay a memory port's multiplexer of ``fanin`` sources adds beyond a 2:1
        one (which the step overhead holds), from the library's ``pmux`` class; 0 for a
        target without a characterised library."""
        if self.library is None or fanin <= 2:
            return 0.0
        return _lib_pmux_ns(self.library, fanin)

    def divider_bits(self, width: int) -> int:
        """Quotient bits per cycle (``k``) of this target's sequential divider for
        ``width``-bit operands: ``k`` chained restoring steps (a ``width + 1``-bit subtract
        and a restore mux each) must fit one clock period after the register clock-to-out,
        with a setup margin of ``store_ns``::

            reg_out_ns + k * (add_ns(width + 1) + mux_ns) + store_ns <= clock_period_ns

        The largest such ``k`` in 1..8 (1 when not even one step fits: the unit is then
        radix 2 and the step a timing problem of the RTL, as before), reduced to the smallest
        ``k`` that needs the same number of iterations ``ceil(width / k)``, so the same
        latency :func:`divider_latency` with a shorter chain.  Never more than ``width``.
        """
        if type(width) is not int:
            _check_width("udiv", width)
        if self.library is not None:
            return _lib_divider_bits(self, width)
        return _divider_bits(self.tech, self.clock_period_ns, width)

    def with_clock(self, clock_period_ns: float) -> Target:
        """The same target with another clock period (e.g. a ``--clock`` option)."""
        if not clock_period_ns > 0:
            raise HLSError(f"clock period must be positive, got {clock_period_ns!r} ns")
        return replace(self, clock_period_ns=float(clock_period_ns))

    @property
    def usable_ns(self) -> float:
        """The part of a cycle that is not step overhead: what chained logic and the clock
        uncertainty share (the uncertainty must stay below it)."""
        return self.clock_period_ns - self.tech.step_overhead_ns

    def annotation(self, key: tuple) -> float:
        """The extra delay back-annotated on the op named ``key`` (0 if none)."""
        return _annotation_map(self.annotations).get(key, 0.0)

    def with_annotations(self, extra: dict) -> Target:
        """The same target with ``extra`` (op key -> ns) added to its annotations."""
        merged = dict(self.annotations)
        for k, ns in extra.items():
            merged[k] = round(merged.get(k, 0.0) + ns, 4)
        return replace(self, annotations=tuple(sorted(merged.items())))

    def with_uncertainty(self, uncertainty_ns: float) -> Target:
        """The same target keeping ``uncertainty_ns`` of every cycle free (``--clock-uncertainty``)."""
        budget = self.usable_ns
        if not 0 <= uncertainty_ns < budget:
            raise HLSError(f"clock uncertainty {uncertainty_ns:g} ns leaves no time for logic: "
                           f"it must be at least 0 and below {budget:g} ns (the {self.clock_period_ns:g} ns "
                           f"clock less the {self.tech.step_overhead_ns:g} ns step overhead of "
                           f"{self.name})")
        return replace(self, uncertainty_ns=round(float(uncertainty_ns), 6))


@lru_cache(maxsize=256)
@lru_cache(maxsize=8)
def _annotation_map(annotations: tuple) -> dict:
    return dict(annotations)


def _lib_pmux_ns(library: str, fanin: int) -> float:
    from ._library import load_library

    lib = load_library(library)
    if not lib.has("pmux"):
        return 0.0
    data = lib.cls("pmux")
    return round(max(0.0, data.delay(fanin) - data.delay(2)), 4)


@lru_cache(maxsize=4096)
def _lib_divider_bits(target: Target, width: int) -> int:
    """``Target.divider_bits`` with the library's adder and mux: ``k`` restoring steps in
    the chain budget (the setup is in the step overhead)."""
    _check_width("udiv", width)
    step = (target.timing("add", min(width + 1, MAX_WIDTH)).delay_ns
            + target.timing("select", width).delay_ns)
    return _fit_divider_bits(step, target.chain_budget_ns, width)
