"""The area model: LUT, FF, DSP and block RAM of the generated hardware, per function and
for the top, from the target's per-operation areas and the structure the RTL builds.

One model that the flow (``report["resources"]``, ``functions[*].resources``), dataflow
regions and PLM reports read.  Two variants, by target:

*Formula targets* (``generic``, ``ultrascale+``): the original count, kept as it was: the
operator table's area of every unshared op and of every bound unit, the binding's
registers, argument registers and state register, and block RAM by the device's tiling
(:func:`memory_bram18`).  Not calibrated against a synthesis tool.

*Characterised targets* (``ecp5``, library ``hls/targets/data/ecp5.json``): what the FSMD
and pipeline generators (:mod:`hls.rtl`) build, counted the way Yosys ``synth_ecp5``
counts it (:func:`hls.estimate.yosys_ecp5_area`: LUT = ``LUT4 + 2 CCU2C + 4
TRELLIS_DPR16X4``, the library's unit):

``ops``        every op with hardware of its own (unshared, or in a pipeline: every op
               there has its own; a pipelined phi is a 2:1 mux) at the library's area for
               its class and width, with what synthesis removes taken out: a shift or
               rotate by a constant is wiring, ``and``/``or``/``xor`` with a constant
               fold into the next LUT, an equality compare is the ``icmp_eq`` class (half
               of it against a constant); ``add``/``sub``/``select``/bitwise ops are
               computed in the bits that are used (:func:`demanded_bits`) and can be
               non-zero; a select inside a tree of selects costs ``SELECT_TREE`` of one,
               a two-input bitwise op inside a tree of them ``LOGIC_TREE``; a multiply's
               LUTs are the carry chains summing its partial products (:func:`mul_lut`);
               floating-point units their cost model times ``FP_LUT_SCALE`` /
               ``FP_FF_SCALE`` (measured, see there)
``dsp``        a multiply's ``MULT18X18D`` as Yosys's ``mul2dsp`` splits it: 18-bit
               chunks of each operand, the partial products below the bits the design
               uses (:func:`mul_dsp`; operand bits as the RTL reads them: a constant's
               length, a ``zext``'s source, a ``sext`` of at most 18 bits its source, a
               register shared by several values its whole width); a floating-point
               multiplier's significand product likewise (:func:`_fp_dsp`)
``units``      shared multipliers (once per instance) and sequential dividers (the
               structure of :class:`hls.rtl.SeqDivider`: ``k`` restoring steps of an adder
               and a mux, operand and result negation when signed, its registers)
``registers``  the binding's registers, argument registers, return and call-capture
               registers, the state register (one-hot: a flip-flop per state,
               :class:`hls.rtl.StateRegister`), pipeline slot counters, valid and first bits, and the
               pipeline register chains (:func:`hls.rtl.chain_stages`): each stage only
               the bits a reader at that stage or later uses and that can be non-zero
               (:func:`_chain_ffs`; the copies of a sign bit merge, a stage nobody reads
               is removed)
``muxes``      the input multiplexers: of every register written from more than one
               source (phi copies, values sharing a register), of shared units' operands,
               of memory ports' address and write data (one source per distinct value an
               access drives); ``MUX_LUT`` per variable and ``MUX_CONST_LUT`` per
               constant input per bit
``fsm``        next-state logic and state decode: ``FSM_LUT`` per state, and per
               ``II + stages`` of a pipeline controller
``memories``   on-chip memories (locals, ROMs) by ECP5 rules as Yosys applies them: a
               synchronous memory above ``LUTRAM_MAX_BITS`` written through at most one
               port is DP16KD (18 Kib; its aspect ratios, :func:`dp16kd`), reported as
               ``bram18``; smaller ones and asynchronous (LUT RAM) ones are
               ``TRELLIS_DPR16X4`` (16 x 4, one write port, a copy per read port); a
               memory written through both ports (by the function or by callees it
               forwards the memory to, :func:`port_use`) is registers with a 2:1 mux per
               bit and write port and a read multiplexer per read port; a ROM is LUTs
               (16 words per LUT4 per bit)

The library's figures and ``mul_dsp``/``dp16kd`` are measurements and device rules; the
three multiplexer/FSM constants are the only fitted ones (least squares against Yosys
over the shared kernels, ``benchmarks/area_ecp5.py --fit``, with a leave-one-out check in
``benchmarks/results/area_ecp5.md``).  What the model does not see: logic ABC duplicates
into the cones of registers written under complex conditions (dcblock_iir's registers
written at its pipeline's exit take 8 LUTs a bit), multiplies Yosys merges or maps
otherwise (mat_horner_f32: 6 MULT18X18D where the model counts 8).

The top's interface memories are ports, outside the count; interface adapters (the Alveo
AXI adapters) are not modelled on ECP5 (there are none).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..binding import is_wire_use
from ..targets._model import mul_unit_signs
from ..ir import Const, Function, MemoryObject, Module, Op, op_def
from ..scheduling import op_timing
from ..targets import MAX_WIDTH, Target

__all__ = [
    "FP_FF_SCALE",
    "FP_LUT_SCALE",
    "FSM_LUT",
    "LOGIC_TREE",
    "LUTRAM_MAX_BITS",
    "MUX_CONST_LUT",
    "MUX_LUT",
    "SELECT_TREE",
    "Area",
    "area_report",
    "dataflow_resources",
    "demanded_bits",
    "dp16kd",
    "function_area",
    "memory_bram18",
    "mul_dsp",
    "mul_lut",
    "port_use",
    "select_trees",
]

#: LUTs per input per bit of a register, unit-operand or memory-port multiplexer with
#: two or more sources (variable inputs), per constant input, and per FSM state (next
#: state, state decode, a pipeline controller counting ``II + stages``): fitted to Yosys
#: ``synth_ecp5`` by ``benchmarks/area_ecp5.py --fit``, non-negative least squares of
#: the LUTs the rest of the model leaves unexplained, relative errors, over the 20
#: kernels of ``benchmarks/results/area_ecp5.md`` (leave-one-out there).  About half a
#: LUT per input bit agrees with a LUT4 taking two data/select pairs of a one-hot
#: multiplexer (the state bits select it directly); a constant input is a state bit
#: ANDed into an OR; the per-state figure is the next-state logic of the one-hot state
#: register and the enables it drives (refitted after the state register became
#: one-hot: 0.48, 0.0 and 5.84 fitted the binary one; refitted again after the state
#: register was updated bit by bit, each state from its own edges: 0.495, 0.171, 3.96
#: before)
MUX_LUT = 0.485
MUX_CONST_LUT = 0.075
FSM_LUT = 3.811
#: the floating-point units' cost models (:mod:`hls.fpu`, LUT6-style formulas) against
#: Yosys ``synth_ecp5`` of the units alone: binary32 ``fadd`` 871 LUT / 115 FF (model
#: 398 / 175), ``fmul`` 1166 / 165 (model 576 / 218), both 2 stages at 10 ns
#: (``benchmarks/area_ecp5.py --fp-units``): LUTs x 2.09, FFs x 0.71 on ECP5
FP_LUT_SCALE = round((871 + 1166) / (398 + 576), 2)
FP_FF_SCALE = round((115 + 165) / (175 + 218), 2)
#: LUTs per bit of a select inside a tree of selects, relative to a lone one: a slice's
#: PFUMX and L6MUX21 are the two mux levels above its LUT4s, so a tree of 2:1 muxes
#: needs LUTs for about half of them (an 8:1 mux, 7 selects: 4 LUT4s)
SELECT_TREE = 0.5
#: the same for a two-input bitwise op inside a tree of them: a LUT4 computes any function
#: of four inputs, three two-input gates
LOGIC_TREE = 1 / 3
#: a synchronous on-chip memory of at most this many bits is LUT RAM, above it DP16KD
LUTRAM_MAX_BITS = 1024

_SHIFTS = {"shl": 1, "lshr": 1, "ashr": 1, "fshl": 2, "fshr": 2}
_BITWISE = {"and", "or", "xor"}
_KEYS = ("lut", "ff", "dsp", "bram18")


@dataclass
class Area:
    """Resources of one function (or a sum), with the parts they come from
    (``parts[name] = [lut, ff, dsp, bram18]``)."""

    parts: dict[str, list] = field(default_factory=dict)
    #: structural counts the calibration fits constants to (not reported)
    features: dict[str, float] = field(default_factory=dict)
    #: DSP blocks of each pipelined loop (by its block's name): its own multipliers and
    #: units, which nothing outside the loop shares (part of ``parts``; what
    #: ``--fit-device`` weighs a pipeline's cycles against)
    loop_dsp: dict[str, int] = field(default_factory=dict)

    def add_loop_dsp(self, block, dsp: int) -> None:
        if dsp:
            self.loop_dsp[block.name] = self.loop_dsp.get(block.name, 0) + dsp

    def feature(self, name: str, n: float) -> None:
        self.features[name] = self.features.get(name, 0) + n

    def add(self, part: str, lut: float = 0, ff: float = 0, dsp: int = 0, bram18: int = 0) -> None:
        p = self.parts.setdefault(part, [0.0, 0.0, 0, 0])
        p[0] += lut
        p[1] += ff
        p[2] += dsp
        p[3] += bram18

    def total(self) -> tuple[int, int, int, int]:
        lut = sum(p[0] for p in self.parts.values())
        ff = sum(p[1] for p in self.parts.values())
        dsp = sum(p[2] for p in self.parts.values())
        bram = sum(p[3] for p in self.parts.values())
        return round(lut), round(ff), dsp, bram

    def to_json(self) -> dict:
        lut, ff, dsp, bram = self.total()
        return {"lut": lut, "ff": ff, "dsp": dsp, "bram18": bram,
                "parts": {k: {"lut": round(v[0]), "ff": round(v[1]), "dsp": v[2], "bram18": v[3]}
                          for k, v in sorted(self.parts.items())}}


# ----------------------------------------------------------------------- block RAM
def memory_bram18(mem: MemoryObject, simple_dual_port: bool = False) -> int:
    """Block RAM halves (RAMB18) of one on-chip memory by the device's tiling rules
    (:func:`hls.transforms.bram36_tiles`, true or simple dual port); none for LUT RAMs
    (``async_read``) and memories of at most 1 Kib, which synthesis maps to LUTs."""
    from ..transforms import bram36_tiles

    if mem.async_read or mem.size_bytes * 8 <= 1024:
        return 0
    return round(2 * bram36_tiles(mem.depth_words, 8 * mem.word_bytes,
                                  true_dual_port=not simple_dual_port))


#: DP16KD configurations (width, depth); 36 x 512 only as a simple dual-port RAM
_DP16KD = ((1, 16384), (2, 8192), (4, 4096), (9, 2048), (18, 1024))


def dp16kd(depth: int, width: int, simple_dual_port: bool = False) -> int:
    """ECP5 DP16KD blocks of a ``depth`` x ``width`` memory: the fewest over the block's
    aspect ratios (36 bits wide only with one write and one read port)."""
    confs = _DP16KD + (((36, 512),) if simple_dual_port else ())
    return min(math.ceil(width / w) * math.ceil(depth / d) for w, d in confs)


# ----------------------------------------------------------------------- multipliers
def mul_dsp(a_bits: int, b_bits: int, y_bits: int) -> int:
    """``MULT18X18D`` blocks of an ``a_bits`` x ``b_bits`` multiply of which the low
    ``y_bits`` are used: Yosys ``mul2dsp`` splits each operand in 18-bit chunks and drops
    the partial products at or above ``y_bits`` (checked against the library's samples:
    1 at 2..16 bits, 3 at 24 and 32, 10 at 64); an operand under 2 bits is no multiply."""
    if a_bits < 2 or b_bits < 2 or y_bits <= 0:
        return 0
    na, nb = math.ceil(a_bits / 18), math.ceil(b_bits / 18)
    return sum(1 for i in range(na) for j in range(nb) if 18 * (i + j) < y_bits)


_LOW_CLOSED = {"add", "sub", "mul", "and", "or", "xor"}


def operand_demand(u: Op, i: int, d: int) -> int:
    """The low bits of operand ``i`` that ``u`` reads when ``d`` low bits of its result are
    used (a ``trunc``/``slice``, a shift by a constant, a ``zext``/``sext`` and the
    low-bit-closed arithmetic pass the demand on; anything else reads its operand whole)."""
    k, v = u.kind, u.operands[i]
    if k == "and" and isinstance(u.operands[1 - i], Const):
        return min(d, u.operands[1 - i].value.bit_length())   # a mask
    if k in ("trunc", "zext", "sext") or k in _LOW_CLOSED or (k == "select" and i > 0):
        return d
    if k == "slice":
        return u.attrs["lo"] + d if d else 0
    if k in ("lshr", "ashr") and i == 0 and isinstance(u.operands[1], Const):
        bits = d + u.operands[1].value if d else 0
        return v.width if k == "ashr" and bits >= v.width else bits
    if k == "shl" and i == 0 and isinstance(u.operands[1], Const):
        return d - u.operands[1].value
    return getattr(v, "width", 0)


def mul_lut(a_bits: int, b_bits: int, y_bits: int) -> int:
    """LUTs of the adders that sum a multiply's partial products (:func:`mul_dsp`): one
    carry chain per partial product after the first, from its position to ``y_bits``
    (the library's samples: 12 at 24 bits, 28 at 32; it undercounts the 48- and 64-bit
    samples, 149 and 606, whose sums Yosys builds less tightly)."""
    if a_bits < 2 or b_bits < 2 or y_bits <= 0:
        return 0
    na, nb = math.ceil(a_bits / 18), math.ceil(b_bits / 18)
    pos = sorted(18 * (i + j) for i in range(na) for j in range(nb) if 18 * (i + j) < y_bits)
    return sum(y_bits - p for p in pos[1:])


def demanded_bits(f: Function) -> dict[Op, int]:
    """How many low bits of each op's result the function uses: a backward data-flow fixed
    point of :func:`operand_demand` (ops with effects, terminators and calls read their
    operands whole)."""
    demand: dict[Op, int] = {op: 0 for op in f.ops()}

    def want(v, bits: int) -> bool:
        if isinstance(v, Op) and v in demand:
            bits = min(v.width, max(0, bits))
            if bits > demand[v]:
                demand[v] = bits
                return True
        return False

    ops = list(f.ops())
    changed = True
    while changed:
        changed = False
        for u in reversed(ops):
            if u.kind == "phi":
                for _, v in u.incoming:
                    changed |= want(v, demand[u])
                continue
            for i, v in enumerate(u.operands):
                changed |= want(v, operand_demand(u, i, demand[u]))
    return demand


def _mul_bits(v) -> int:
    """An operand's bits as Yosys's DSP mapping sees them: a ``sext`` of at most 18 bits is
    its source (one signed 18 x 18 multiply), a wider one the whole extended width (an
    unsigned multiply of it: measured, a 32-bit value sign-extended to 64 times a 15-bit
    constant is 3 MULT18X18D, zero-extended 2); else the significant bits."""
    if isinstance(v, Op) and v.kind == "sext":
        return v.operands[0].width if v.operands[0].width <= 18 else v.width
    return _significant(v)


def _significant(v, depth: int = 0, products: bool = True) -> int:
    """Low bits of ``v`` that can be non-zero, as far as the model sees (the bits above are
    zero: a register bit holding a constant is no flip-flop, an operand bit no logic).
    ``products=False``: as Yosys sees them, bit by bit, which does not narrow a product
    (a multiply's high bits are not constant zeros to it)."""
    if isinstance(v, Const):
        return v.value.bit_length()
    if not isinstance(v, Op) or depth > 8:
        return v.width
    k, ops = v.kind, v.operands
    sig = lambda x: _significant(x, depth + 1, products)
    if k == "zext":
        return sig(ops[0])
    if k in ("trunc", "slice"):
        lo = v.attrs.get("lo", 0) if k == "slice" else 0
        return min(v.width, max(0, sig(ops[0]) - lo))
    if k == "and":
        return min(sig(x) for x in ops)
    if k in ("or", "xor"):
        return max(sig(x) for x in ops)
    if k == "select":
        return max(sig(ops[1]), sig(ops[2]))
    if k == "lshr" and isinstance(ops[1], Const):
        return max(0, sig(ops[0]) - ops[1].value)
    if k == "shl" and isinstance(ops[1], Const):
        return min(v.width, sig(ops[0]) + ops[1].value)
    if k == "add":
        return min(v.width, max(sig(x) for x in ops) + 1)
    if k == "mul" and products:
        return min(v.width, sig(ops[0]) + sig(ops[1]))
    if k == "icmp":
        return 1
    return v.width


def _low_zeros(v, depth: int = 0) -> int:
    """Low bits of ``v`` known to be zero (a shift left by a constant, a mask)."""
    if isinstance(v, Const):
        return (v.value & -v.value).bit_length() - 1 if v.value else v.width
    if not isinstance(v, Op) or depth > 8:
        return 0
    k, ops = v.kind, v.operands
    lz = lambda x: _low_zeros(x, depth + 1)
    if k == "shl" and isinstance(ops[1], Const):
        return min(v.width, lz(ops[0]) + ops[1].value)
    if k in ("zext", "sext", "trunc"):
        return min(v.width, lz(ops[0]))
    if k == "and":
        return max(lz(x) for x in ops)
    if k in ("or", "xor", "add", "sub", "select"):
        return min(lz(x) for x in (ops[1:] if k == "select" else ops))
    if k == "mul":
        return min(v.width, lz(ops[0]) + lz(ops[1]))
    return 0


def _bits(v, demand: dict, pipelined: bool = False) -> int:
    """The flip-flops a register of ``v`` keeps: its demanded low bits that can be non-zero
    less those known zero (a ``sext``'s copies of the sign bit are one flip-flop, merged by
    synthesis, as are a ``sub``'s; a phi's bits are its demand, or its constants' when all
    its inputs are constants; ``pipelined``: a phi of a pipelined loop, whose register
    holds the values entering the loop only)."""
    d = demand.get(v, v.width) if isinstance(v, Op) else v.width
    if isinstance(v, Op) and v.kind == "sext":
        return min(d, v.operands[0].width)
    if isinstance(v, Op) and v.kind == "sub":     # sign-extended: the copies merge
        return min(d, v.width, max(_significant(x) for x in v.operands) + 1)
    if isinstance(v, Op) and v.kind == "phi":
        ins = [x for pred, x in v.incoming if not (pipelined and pred is v.block)]
        if ins and all(isinstance(x, Const) for x in ins):
            return min(d, max(x.value.bit_length() for x in ins))
        return min(d, v.width)
    return max(0, min(d, _significant(v)) - _low_zeros(v))


# ----------------------------------------------------------------------- operations
def _op_lut_dsp(target: Target, op: Op, demand: dict[Op, int],
                operand_bits=None, tree: set | None = None) -> tuple[float, int]:
    """(LUTs, DSPs) of one op with hardware of its own on a characterised target;
    ``operand_bits(v)``: a multiply operand's bits as the RTL reads it (default
    :func:`_mul_bits`); ``tree``: the selects that only feed selects
    (:func:`select_trees`)."""
    t = op_timing(target, op)
    k = op.kind
    ops = op.operands
    if k in _SHIFTS and isinstance(ops[_SHIFTS[k]], Const):
        return 0.0, 0
    if k in _BITWISE and any(isinstance(v, Const) for v in ops):
        return 0.0, 0
    if k == "icmp":
        lut = t.area_lut
        if op.attrs.get("pred") in ("eq", "ne"):
            w = max(v.width for v in ops)
            lut = _lib_lut(target, "icmp_eq", w, lut)
        if any(isinstance(v, Const) for v in ops):
            lut /= 2
        return lut, 0
    if k == "mul":
        d = demand.get(op) or op.width
        a, b = (min((operand_bits or _mul_bits)(v), d) for v in ops)
        if any(isinstance(v, Const) and v.value & (v.value - 1) == 0 for v in ops):
            return 0.0, 0                    # by a power of two (or 0): a shift
        return mul_lut(a, b, min(d, a + b)), mul_dsp(a, b, d)
    if k in _NARROWABLE:
        if k == "select" and all(isinstance(v, Const) for v in ops[1:]):
            return 0.0, 0                    # each bit is a constant, the condition or not
        w = min(op.width, demand.get(op, op.width) or op.width, max(_significant(op), 1))
        lut = float(t.area_lut if w == op.width else op_timing(target, _Resized(op, w)).area_lut)
        if tree is not None and op in tree:
            lut *= SELECT_TREE if k == "select" else LOGIC_TREE
        return lut, t.area_dsp
    return float(t.area_lut), t.area_dsp


#: ops whose result bit ``i`` needs operand bits ``<= i`` only: computed in the bits that
#: are used and can be non-zero
_NARROWABLE = {"add", "sub", "select", "and", "or", "xor"}


class _Resized:
    """``op`` seen at another width, for :func:`hls.scheduling.op_timing`."""

    def __init__(self, op: Op, width: int):
        self.kind, self.attrs, self.mem = op.kind, op.attrs, op.mem
        self.width = width
        self.operands = [_Narrow(v, width) if v.width == op.width else v for v in op.operands]


class _Narrow:
    def __init__(self, v, width: int):
        self.width = width


def select_trees(f: Function) -> set:
    """The selects of ``f`` whose every use is a data operand of another select, and the
    bitwise ops (``and``/``or``/``xor`` of two variables) whose every use is another such
    op: parts of a larger function that synthesis packs into fewer LUT4s."""
    uses: dict[Op, list] = {}
    for u in f.ops():
        vals = [v for _, v in u.incoming] if u.kind == "phi" else u.operands
        for i, v in enumerate(vals):
            if isinstance(v, Op):
                uses.setdefault(v, []).append((u, i if u.kind != "phi" else -1))
    def logic(u: Op) -> bool:
        return u.kind in _BITWISE and not any(isinstance(v, Const) for v in u.operands)

    out = set()
    for op in f.ops():
        if not uses.get(op):
            continue
        if op.kind == "select" and all(u.kind == "select" and i > 0 for u, i in uses[op]) or logic(op) and all(logic(u) for u, _ in uses[op]):
            out.add(op)
    return out


def _staged_mul(target: Target, op: Op, demand: int | None = None,
                sig: tuple[int, int] | None = None,
                signs: tuple | None = None) -> tuple[float, int, int]:
    """(LUT, FF, DSP) of a two-stage multiply (:class:`hls.rtl.PipelinedMul`): one
    MULT18X18D per tile product whose operand slices can be non-zero (a slice above a
    zero-extended operand's bits, or a constant slice of zeros, is no product; the upper
    slices of a sign-extended operand are sign copies, products all the same) and whose
    bits reach the ``demand`` low bits of the result the design uses (Yosys removes a
    tile no used bit depends on: dcblock_iir's 64-bit product of which bits 15..46 are
    used is three MULT18X18D, not four), the adders of their sum and the stages' registers
    for those tiles only (the library's LUTs of the whole multiply, one adder per tile
    beyond the first, scaled to the tiles kept and the bits used).  ``sig``: a shared
    unit's significant operand bits (the widest of its sharers'), its operands then not
    constants; ``signs``: its operands' sign-extension bits
    (:func:`hls.targets._model.mul_unit_signs`, default the op's own), whose slices are
    the hardware's (``staged_tiles``: a signed top slice, every bit of it counted)."""
    from ..targets._model import mul_tiles, staged_tiles

    t = op_timing(target, op)
    tile = target.tech.mul_tile
    a, b = op.operands

    def nonzero(v) -> int:   # the slices are unsigned: a sign copy is not zero (a zext's
        # high bits are, as a mask's: lut_gamma's (g1 - g0) * (p & 7) is two tiles, not 3)
        return max(_significant(v, products=False), 1)

    consts = sig is None
    sig = [nonzero(v) for v in (a, b)] if sig is None else list(sig)
    used = min(demand or op.width, op.width)
    signs = mul_unit_signs([op]) if signs is None else signs
    tiles = mul_tiles(op.width, tile)
    dsp, kept, regs = 0, 0, used          # the sum's register: the bits used
    for xl, xh, xs, yl, yh, ys, keep in staged_tiles(used, tile, a.width, b.width, *signs):
        # a signed slice is all sign and value bits; an unsigned one up to the
        # operand's significant bits
        wa = xh - xl if xs else min(xh, sig[0]) - xl
        wb = yh - yl if ys else min(yh, sig[1]) - yl
        if wa <= 0 or wb <= 0:
            continue
        if consts and any(isinstance(v, Const) and (v.value >> lo) & ((1 << (hi - lo)) - 1) == 0
                          for v, lo, hi in ((a, xl, xh), (b, yl, yh))):
            continue
        dsp += mul_dsp(wa, wb, used - (xl + yl))
        kept += 1
        regs += min(keep, used - (xl + yl))
    adders = max(len(tiles) - 1, 1)
    lut = t.area_lut * max(kept - 1, 0) / adders * used / op.width
    return float(lut), min(regs, t.area_ff), dsp


def _fp_measured(target: Target, op: Op) -> bool:
    """Whether the library measured ``op``'s floating-point unit (its area is the unit's
    own, from ``characterise_ecp5.py --fp``)."""
    if target.library is None:
        return False
    from ..targets._fp import fp_class, op_attrs
    from ..targets._library import load_library

    return fp_class(op.kind, op.attrs["fmt"], op_attrs(op)) in (load_library(target.library).fp or {})


def _fp_dsp(op: Op, default: int) -> int:
    """``MULT18X18D`` of a floating-point multiplier: its significand product is built as
    partial products of 17-bit chunks of one operand (:mod:`hls.fpu._units_mul`, chunks
    under 4 bits in LUTs), each split by Yosys as :func:`mul_dsp` does."""
    if op.kind != "fmul":
        return default
    from ..fpu._units_mul import CHUNK

    w = op.attrs["fmt"].man_bits + 1
    return sum(mul_dsp(w, min(lo + CHUNK, w) - lo, w + min(lo + CHUNK, w) - lo)
               for lo in range(0, w, CHUNK) if min(lo + CHUNK, w) - lo >= 4)


def _fp_unit_area(target: Target, op: Op) -> tuple[float, float, int]:
    """(LUT, FF, DSP) of the floating-point unit that serves ``op``."""
    t = op_timing(target, op)
    if _fp_measured(target, op):     # the unit as placed and routed, stages and all
        return t.area_lut, t.area_ff, t.area_dsp
    return FP_LUT_SCALE * t.area_lut, FP_FF_SCALE * t.area_ff, _fp_dsp(op, t.area_dsp)


def _lib_lut(target: Target, cls: str, width: int, default: float) -> float:
    """The library's LUTs of class ``cls`` (one the op kinds do not name) at ``width``."""
    from ..targets._library import load_library

    lib = load_library(target.library) if target.library is not None else None
    if lib is None or not lib.has(cls):
        return default
    return lib.cls(cls).area(min(max(width, 1), MAX_WIDTH))[0]


def _divider(target: Target, ops: list[Op]) -> tuple[float, float]:
    """(LUTs, FFs) of one :class:`hls.rtl.SeqDivider` serving ``ops``: ``k`` restoring
    steps (a ``w + 2``-bit subtract and a ``w``-bit mux each), the registers quo/acc/den
    and the count, the quotient and remainder output registers when read, and when some
    op is signed the operand and result negations (a negate and a mux each)."""
    w = max(op.width for op in ops)
    k = target.divider_bits(w)
    n = -(-w // k)
    add = lambda x: target.timing("add", min(max(x, 1), MAX_WIDTH)).area_lut
    mux = target.timing("select", w).area_lut
    lut = k * (add(w + 2) + mux) + add(n.bit_length() + 1)
    ff = n * k + 2 * w + (n + 1).bit_length()
    kinds = {op.kind for op in ops}
    ff += w * (bool(kinds & {"udiv", "sdiv"}) + bool(kinds & {"urem", "srem"}))
    if kinds & {"sdiv", "srem"}:
        lut += 4 * (add(w) + mux)
        ff += 2
    return lut, ff


# ----------------------------------------------------------------------- structure
def _src(v):
    """A multiplexer input's identity: a constant by value, anything else by identity."""
    return ("c", v.value, v.width) if isinstance(v, Const) else v


def _pipe_src(lp, v, op: Op):
    """:func:`_src` of ``op``'s operand ``v``, where a pipelined loop ``lp`` reads a load
    in the cycle its data arrives: that is the memory port's output (``PipelineRTL``), one
    source for every load of that port and lane (the operands of a shared unit fed by one
    array's loads in different slots are one wire, which synthesis does not multiplex)."""
    if lp is not None and isinstance(v, Op) and v.kind == "load" and v in lp.port_of \
            and op in lp.time and lp.time[op] == lp.ready(v):
        return ("q", v.mem, lp.port_of[v], v.attrs["lane"], v.attrs["size"])
    return _src(v)


def _mux(area: Area, sources: list, width: int) -> None:
    """The input multiplexer of a ``width``-bit register, unit operand or memory port
    with these ``sources`` (one per write; equal ones counted once): nothing for a single
    source (the flip-flops' enable), else ``MUX_LUT`` per variable and ``MUX_CONST_LUT``
    per constant input per bit (a constant input is an OR of state decodes)."""
    srcs = set(sources)
    if len(srcs) < 2:
        return
    n_const = sum(1 for x in srcs if isinstance(x, tuple) and x[0] == "c")
    n_var = len(srcs) - n_const
    area.feature("mux_var_bits", width * n_var)
    area.feature("mux_const_bits", width * n_const)
    area.add("muxes", width * (MUX_LUT * n_var + MUX_CONST_LUT * n_const))


def _memory_area(area: Area, mem: MemoryObject, reads: set, writes: set, sdp: bool) -> None:
    """One on-chip memory by ECP5 rules (see the module docstring); ``reads``/``writes``
    the ports that load/store."""
    d, w = mem.depth_words, 8 * mem.word_bytes
    bits = d * w
    nr = max(1, len(reads))
    if mem.readonly:
        if not mem.async_read and bits > LUTRAM_MAX_BITS:
            area.add("memories", bram18=dp16kd(d, w, sdp) * max(1, math.ceil(len(reads) / 2)))
            return
        area.add("memories", lut=nr * w * math.ceil(d / 16) + nr * w * max(0, math.ceil(d / 64) - 1),
                 ff=0 if mem.async_read else nr * w)
        return
    if not mem.async_read and bits > LUTRAM_MAX_BITS and len(writes) <= 1:
        area.add("memories", bram18=dp16kd(d, w, sdp))
        return
    if len(writes) <= 1:
        cells = math.ceil(d / 16) * math.ceil(w / 4) * nr
        read_mux = nr * w * max(0, math.ceil(d / 16) - 1)
        area.add("memories", lut=4 * cells + read_mux, ff=0 if mem.async_read else nr * w)
        return
    # written through both ports: registers (measured: dataflow_img's 256 x 16 array,
    # stored through both ports, is 4096 flip-flops, not a DP16KD; hist_cdf_u8's 64 x 32
    # LUT-RAM array 2048), a 2:1 mux per bit and write port (the decoded enables are
    # shared) and a d:1 read multiplexer per bit and read port: d/2 LUT4s as 2:1 muxes,
    # the slices' PFUMX/L6MUX21 two levels above them, a LUT4 level per 8:1 beyond
    read_mux = math.ceil(d / 2) + math.ceil(d / 16) if d > 1 else 0
    area.add("memories", lut=bits * len(writes) + nr * w * read_mux,
             ff=bits + (0 if mem.async_read else nr * w))


def port_use(module: Module, schedules, bindings) -> dict:
    """``(function, memory) -> (ports read, ports written)`` for every memory a function
    accesses, its own accesses and those of the callees it forwards the memory to."""
    out: dict[tuple, tuple[set, set]] = {}
    done: set = set()

    def visit(f: Function) -> None:
        if f in done:
            return
        done.add(f)
        bd, fs = bindings[f], schedules[f]
        own = dict(bd.port_of)
        for lp in fs.pipelines.values():
            own.update(lp.port_of)
        for op, port in own.items():
            r, w = out.setdefault((f, op.mem), (set(), set()))
            (w if op.kind == "store" else r).add(port)
        for op in f.ops():
            if op.kind == "call":
                callee = op.attrs["callee"]
                visit(callee)
                for pp, mem, _ in op.call_ptr_args():
                    cr, cw = out.get((callee, pp.mem), ({0, 1}, {0, 1}))
                    r, w = out.setdefault((f, mem), (set(), set()))
                    r |= cr
                    w |= cw

    for f in module.functions:
        visit(f)
    return out


def function_area(module: Module, target: Target, f: Function, fs, bd,
                  external: frozenset = frozenset(), callee_ports: dict | None = None) -> Area:
    """The :class:`Area` of one function's FSMD (its callees are functions of their own)
    on a characterised target.  ``external``: memories outside the design (the top's
    interface memories and external globals); ``callee_ports``: :func:`port_use` (which
    ports a callee reads and writes of a memory a call forwards; else both)."""
    from ..rtl import chain_stages

    area = Area()
    demand = demanded_bits(f)
    tree = select_trees(f)
    states = sum(bs.length for bs in fs.blocks.values()) + 1
    pipes = fs.pipelines
    members: dict[int, list] = {}
    for v, r in bd.reg_of.items():
        members.setdefault(r, []).append(v)

    def operand_bits(v, op: Op) -> int:
        """A multiply operand as the RTL reads it: a wire or a pipeline register chain as
        :func:`_mul_bits`; a register that holds other values too is read whole (no sign
        extension to see), its bits the widest member's."""
        lp = pipes.get(op.block)
        if lp is not None and v in lp.time:
            return _mul_bits(v)
        if lp is None and is_wire_use(fs, v, op.block, fs.step[op]):
            return _mul_bits(v)
        r = bd.reg_of.get(v)
        if r is None or len(members[r]) == 1:
            return _mul_bits(v)
        return min(bd.reg_width[r], max(_significant(x) for x in members[r]))

    # ---- ops with hardware of their own, FP units, call capture registers
    for op in f.ops():
        d = op_def(op.kind)
        if op.kind == "phi" and op.block in pipes:
            # the first iteration's value or the previous iteration's: a 2:1 mux
            w = min(op.width, demand.get(op) or op.width)
            area.add("ops", target.timing("select", max(w, 1)).area_lut)
            continue
        if op.kind == "phi" or op in bd.unit_of or op.kind in ("load", "store", "call"):
            if op.kind == "call" and op.width:
                area.add("registers", ff=op.width)
            continue
        if op.block in pipes and op in pipes[op.block].unit_of:
            continue        # a pipeline's shared unit: counted once per instance below
        if d.divider:
            lut, ff = _divider(target, [op])
            area.add("units", lut, ff)
            continue
        if d.float:
            got = _fp_unit_area(target, op)
            area.add("ops", *got)
            if op.block in pipes:
                area.add_loop_dsp(op.block, got[2])
            continue
        if op.kind == "mul" and op_timing(target, op).latency:
            # a two-stage multiplier (hls.rtl.PipelinedMul): the multiply as Yosys builds
            # it from the operands' significant bits, plus the stages' registers
            got = _staged_mul(target, op, demand.get(op))
            area.add("ops", *got)
            if op.block in pipes:
                area.add_loop_dsp(op.block, got[2])
            continue
        # a multiply binding left alone is a multiplier of its own, whatever its state:
        # Yosys's ``share`` merged those of exclusive states while the state register was
        # binary (it proves exclusion from the state comparisons), not the one-hot bits
        lut, dsp = _op_lut_dsp(target, op, demand, lambda v, op=op: operand_bits(v, op), tree)
        area.add("ops", lut, 0, dsp)
        if op.block in pipes:
            area.add_loop_dsp(op.block, dsp)

    # ---- shared units and their operand multiplexers: the FSM's (binding) and the
    # pipelined loops' (hls.scheduling.share_units, one instance per modulo-slot group)
    shared = [ops for insts in bd.units.values() for ops in insts]
    shared += [ops for lp in pipes.values() for ops in lp.unit_members().values()]
    for ops in shared:
        op = ops[0]
        before = area.total()[2]
        if op.kind == "mul" and op_timing(target, op).latency:
            # a pipeline's shared two-stage multiplier: its tiles for the widest
            # operands and demand of its sharers (constants not seen: they differ)
            d = max(demand.get(o) or o.width for o in ops)
            sig = tuple(max(max(_significant(o.operands[i], products=False), 1)
                            for o in ops) for i in (0, 1))
            area.add("units", *_staged_mul(target, op, d, sig, mul_unit_signs(ops)))
        elif op.kind == "mul":
            # the unit's operands are multiplexed per state, as the FSM reads them;
            # a constant among them is seen whole (measured: hist_cdf_u8's 32-bit
            # unit multiplying by 255 is 3 MULT18X18D)
            d = max(demand.get(o) or o.width for o in ops)
            a, b = (min(d, max(o.width if isinstance(o.operands[i], Const)
                               else operand_bits(o.operands[i], o) for o in ops))
                    for i in (0, 1))
            area.add("units", mul_lut(a, b, min(d, a + b)), 0, mul_dsp(a, b, d))
        elif op_def(op.kind).float:
            area.add("units", *_fp_unit_area(target, op))
        else:
            lut, ff = _divider(target, ops)
            area.add("units", lut, ff)
        if op.block in pipes:
            area.add_loop_dsp(op.block, area.total()[2] - before)
        for i in range(len(op.operands)):
            _mux(area, [_pipe_src(pipes.get(o.block), o.operands[i], o) for o in ops],
                 max(o.operands[i].width for o in ops))

    # ---- registers and their input multiplexers
    sources: dict[int, list] = {}
    kept: dict[int, int] = {}
    for v, r in bd.reg_of.items():
        kept[r] = max(kept.get(r, 0), _bits(v, demand, v.kind == "phi" and v.block in pipes))
        src = sources.setdefault(r, [])
        if v.kind == "phi":
            for pred, x in v.incoming:
                if not (v.block in pipes and pred is v.block):
                    src.append(_src(x))
        else:
            src.append(v)
    for r, w in enumerate(bd.reg_width):
        w = kept.get(r, w)
        area.add("registers", ff=w)
        _mux(area, sources.get(r, []), w)
    area.add("registers", ff=sum(p.width for p in f.scalar_params) + (f.return_width or 0)
             + states)
    area.add("fsm", FSM_LUT * states)
    area.feature("states", states)

    # ---- pipelines: controller and register chains
    for lp in pipes.values():
        S = lp.stages
        area.add("registers", ff=(max(lp.ii, 2) - 1).bit_length() + 2 * S
                 + _chain_ffs(f, lp, demand, chain_stages(lp, f)))
        area.add("fsm", FSM_LUT * (lp.ii + S))
        area.feature("states", lp.ii + S)

    # ---- memory ports: address and write-data multiplexers; on-chip memories
    accesses: dict[tuple, list[Op]] = {}
    for op, port in bd.port_of.items():
        accesses.setdefault((op.mem, port), []).append(op)
    for lp in pipes.values():
        for op, port in lp.port_of.items():
            accesses.setdefault((op.mem, port), []).append(op)
    # a call forwards the ports its callee uses (both, read and write, when unknown)
    forwarded: dict[tuple, tuple[bool, bool]] = {}
    for op in f.ops():
        if op.kind == "call":
            callee = op.attrs["callee"]
            for pp, mem, _ in op.call_ptr_args():
                r_w = (callee_ports or {}).get((callee, pp.mem))
                for port in range(2):
                    rd, wr = (True, True) if r_w is None else (port in r_w[0], port in r_w[1])
                    if rd or wr:
                        accesses.setdefault((mem, port), []).append(op)
                        forwarded[(op, mem, port)] = (rd, wr)
    reads: dict[MemoryObject, set] = {}
    writes: dict[MemoryObject, set] = {}
    for (mem, port), ops in accesses.items():
        addr = [("call", id(o)) if o.kind == "call" else _src(o.operands[0]) for o in ops]
        _mux(area, addr, mem.addr_bits)
        data = [("call", id(o)) if o.kind == "call" else _src(o.operands[1])
                for o in ops if o.kind == "store" or (o.kind == "call"
                                                       and forwarded[(o, mem, port)][1])]
        _mux(area, data, 8 * mem.word_bytes)
        for o in ops:
            rd, wr = forwarded.get((o, mem, port), (o.kind == "load", o.kind == "store"))
            if rd:
                reads.setdefault(mem, set()).add(port)
            if wr:
                writes.setdefault(mem, set()).add(port)
    for mem in f.used_memories():
        if mem.kind == "arg" or mem in external:
            continue
        _memory_area(area, mem, reads.get(mem, set()), writes.get(mem, set()),
                     mem in bd.simple_dual_port)
    return area


#: ops that are wiring: a register chain of one holds bits of its source's chain
_WIRING = {"zext", "sext", "trunc", "slice", "copy"}


def _chain_ffs(f: Function, lp, demand: dict, chains: dict) -> int:
    """Flip-flops of a pipeline's register chains as synthesis keeps them: the register
    of a value at stage ``j`` holds the bits some reader at stage ``j`` or later uses
    (:func:`operand_demand`) that can be non-zero; a chain of a wiring op (``zext``,
    ``trunc``...) of another chained value is the same flip-flops (merged)."""
    from ..ir import uses_outside
    from ..rtl import exit_time

    ii = lp.ii
    reads: dict[Op, dict[int, int]] = {}

    def read(v, t: int, bits: int) -> None:
        # a read in the cycle the value is ready sees its wire, not a register
        if isinstance(v, Op) and v in chains and t > lp.ready(v):
            st = reads.setdefault(v, {})
            st[t // ii] = max(st.get(t // ii, 0), min(bits, v.width))

    for u, t in lp.time.items():
        if u.kind == "phi":
            for pred, v in u.incoming:
                if pred is lp.block:
                    read(v, t + ii, demand.get(u, u.width))
            continue
        for i, v in enumerate(u.operands):
            read(v, t, operand_demand(u, i, demand.get(u, u.width)))
    cond = lp.block.terminator.operands[0]
    read(cond, ii - 1, 1)
    outside = uses_outside(f, lp.block)
    for v in chains:
        if v.width and v in outside:
            read(v, exit_time(lp), v.width)

    def root(v):
        while v.kind in _WIRING and isinstance(v.operands[0], Op) and v.operands[0] in chains:
            v = v.operands[0]
        return v

    need: dict[tuple, int] = {}
    for v, (k0, k1) in chains.items():
        st = reads.get(v, {})
        sig = _bits(v, {})
        # ready in the last slot of its stage: the next stage's register takes the wire
        # and the first register is read by nobody
        first = k0 + 1 if lp.ready(v) % ii == ii - 1 else k0
        for j in range(first, k1 + 1):
            bits = min(sig, max([b for s, b in st.items() if s >= j] or [0]))
            key = (root(v), j)
            need[key] = max(need.get(key, 0), bits)
    return sum(need.values())


def _formula_area(module: Module, target: Target, f: Function, fs, bd) -> Area:
    """The formula targets' count (see the module docstring)."""
    area = Area()
    states = sum(bs.length for bs in fs.blocks.values()) + 1
    piped = {op for lp in fs.pipelines.values() for op in lp.unit_of}
    for op in f.ops():
        if op.kind == "phi" or op in bd.unit_of or op in piped:
            continue
        t = op_timing(target, op)
        area.add("ops", t.area_lut, 0, t.area_dsp)
        if op.block in fs.pipelines:
            area.add_loop_dsp(op.block, t.area_dsp)
    insts = [ops for units in bd.units.values() for ops in units]
    insts += [ops for lp in fs.pipelines.values() for ops in lp.unit_members().values()]
    for ops in insts:
        t = op_timing(target, ops[0])
        area.add("units", t.area_lut, 0, t.area_dsp)
        if ops[0].block in fs.pipelines:
            area.add_loop_dsp(ops[0].block, t.area_dsp)
    area.add("registers", ff=sum(bd.reg_width) + sum(p.width for p in f.scalar_params)
             + states)
    for mem in f.memories + [g for g in module.globals if g.readonly]:
        area.add("memories", bram18=memory_bram18(mem, simple_dual_port=mem in bd.simple_dual_port))
    return area


def _area_of(module: Module, target: Target, f: Function, fs, bd, external=frozenset(),
             callee_ports=None) -> Area:
    if target.library is not None:
        return function_area(module, target, f, fs, bd, external, callee_ports)
    return _formula_area(module, target, f, fs, bd)


def area_report(module: Module, target: Target, schedules, bindings,
                external: frozenset = frozenset()) -> tuple[dict, dict]:
    """report.json's ``resources`` (the design: every function once, each FSMD is
    instantiated once) and per function name its own ``resources``."""
    total = Area()
    per: dict[str, dict] = {}
    uses = port_use(module, schedules, bindings) if target.library is not None else None
    for f in module.functions:
        a = _area_of(module, target, f, schedules[f], bindings[f], external, uses)
        per[f.name] = a.to_json() | ({"loop_dsp": dict(sorted(a.loop_dsp.items()))}
                                     if a.loop_dsp else {})
        for part, vals in a.parts.items():
            total.add(part, *vals)
    res = total.to_json()
    if target.library is None:
        res.pop("parts")
    return res, per


def dataflow_resources(report: dict, graphs: dict, regions: list) -> None:
    """report.json's resources of a design with regions (``regions``: their report
    entries, in the order of ``graphs``): each accelerator instance beyond a function's
    first (with its callees), the channels as built (banks, FIFOs) instead of the
    region's arrays, and no FSMD for the region itself (its managers are not counted).
    The functions' areas are those :func:`area_report` put in ``report["functions"]``."""
    res = report["resources"]
    res.pop("parts", None)       # the parts are the functions' sum, which this corrects
    # each function's own area, as area_report counted it
    own = {e["name"]: e["resources"] for e in report["functions"]}

    def add(fx, k=1):
        for key in _KEYS:
            res[key] += k * own[fx.name][key]

    for g, rep in zip(graphs.values(), regions):
        add(g.func, -1)
        for fn in set(g.instances):
            extra = sum(1 for x in g.instances if x is fn) - 1
            for callee in fn.call_closure() if extra > 0 else ():
                add(callee, extra)
        bram = 0
        for c in rep["channels"]:
            if c["kind"] == "pipo":
                per = c["elements"] * c["width"]
                banks = c["bits"] // max(1, per)
                bram += banks * (0 if per <= 1024 else -(-per // 18432))
            else:
                bram += 0 if c["bits"] <= 1024 else -(-c["bits"] // 18432)
        res["bram18"] += bram
        res["bram18"] = max(0, res["bram18"])
