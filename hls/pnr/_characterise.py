"""Characterisation of the operator library by place and route, as XLS does it.

Each sample is one operation of one timing class at one width, built by the op's own
hardware builder (``hls.ir.op_def(kind).rtl``, the code the FSMD uses) between input and
output registers, then synthesised, placed and routed alone (:class:`hls.pnr.Ecp5Flow`).
nextpnr's critical path is register to register: clock-to-out, routing, the operation,
routing, setup.  The same harness around a plain wire (class ``wire``) gives the path
without the operation; the difference is the operation's delay *with its routing*, which
is what chains in a cycle.  Area is Yosys's count after ``synth_ecp5`` minus the harness
registers: LUT4 (a ``CCU2C`` carry cell is two LUT4s; ``PFUMX``/``L6MUX21`` are free muxes
of a slice), flip-flops and ``MULT18X18D``.

Memories (classes ``load`` and ``store``) are a 512-word synchronous RAM, as Yosys maps
it (DP16KD): ``load`` is the RAM's clock-to-out plus routing into a register, minus the wire
path; ``store`` a multiply written into the RAM against the same multiply into a register
(``mulstore``), the RAM's input setup beyond a register's.

``benchmarks/characterise_ecp5.py`` runs every sample and writes the data file
(:data:`hls.targets.ECP5_DATA`); a test re-runs a few samples against it.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from ._flow import Ecp5Flow, PnrResult

__all__ = ["CLASSES", "FANINS", "FP_STAGES", "Sample", "WIDTHS", "characterise", "characterise_fp",
           "fp_sample_verilog", "sample_verilog"]

#: timing class -> (op kind built, attributes, operand count)
CLASSES: dict[str, tuple[str, dict, int]] = {
    "wire": ("copy", {}, 1),
    "add": ("add", {}, 2),
    "logic": ("xor", {}, 2),
    "shl": ("shl", {}, 2),
    "lshr": ("lshr", {}, 2),
    "ashr": ("ashr", {}, 2),
    "icmp": ("icmp", {"pred": "slt"}, 2),
    "icmp_eq": ("icmp", {"pred": "eq"}, 2),
    "mux": ("select", {}, 3),
    "mul": ("mul", {}, 2),
    "minmax": ("smax", {}, 2),
    "abs": ("abs", {}, 1),
    "funnel": ("fshl", {}, 3),
    "ctpop": ("ctpop", {}, 1),
    "clz": ("ctlz", {}, 1),
    "sat": ("sadd_sat", {}, 2),
    "divc": ("sdivc", {"divisor": 7}, 1),
    "load": ("load", {}, 1),
    "store": ("store", {}, 2),
    "mulstore": ("mul", {}, 2),
    "pmux": ("pmux", {}, 0),
}

#: the fan-ins the ``pmux`` class is sampled at (its "width" is the fan-in; the data 32 bits)
FANINS = (2, 4, 8, 16, 32, 64)

#: the widths every class is sampled at (others are interpolated)
WIDTHS = (1, 2, 4, 8, 12, 16, 24, 32, 48, 64)


@dataclass(frozen=True)
class Sample:
    cls: str
    width: int
    path_ns: float          # register-to-register critical path
    fmax_mhz: float | None
    lut: int
    ff: int
    dsp: int
    bram: int

    def to_json(self) -> dict:
        return {"path_ns": self.path_ns, "lut": self.lut, "ff": self.ff, "dsp": self.dsp,
                "bram": self.bram}


def _memory_verilog(cls: str, w: int) -> str:
    """``load``: registered address -> RAM (synchronous read) -> register.  ``store``: a
    32-bit multiply of two registers written into the RAM (``w`` bits), read back through
    two registers: the multiply makes the write path the critical one, and the class
    ``mulstore`` (the same multiply into a register) is subtracted from it."""
    aw = 9
    if cls == "load":
        body = "always @(posedge clk) begin a <= in0; q <= mem[a]; y <= q; end"
    elif cls == "store":
        body = ("always @(posedge clk) begin a <= in0; x <= in1; z <= in2; mem[a] <= p[{w1}:0]; end\n"
                "  always @(posedge clk) begin b <= ~in0; q <= mem[b]; y <= q; end").format(w1=w - 1)
    else:  # mulstore
        body = "always @(posedge clk) begin x <= in1; z <= in2; y <= p[{w1}:0]; end".format(w1=w - 1)
    return f"""module char(input clk, input [{aw - 1}:0] in0, input [31:0] in1, input [31:0] in2,
            output reg [{w - 1}:0] y);
  reg [{w - 1}:0] mem [0:{(1 << aw) - 1}];
  reg [{aw - 1}:0] a, b; reg [31:0] x, z; reg [{w - 1}:0] q;
  wire [31:0] p = x * z;
  integer i;
  initial for (i = 0; i < {1 << aw}; i = i + 1) mem[i] = i * 37;
  {body}
endmodule
"""


def _pmux_verilog(n: int, w: int = 32) -> str:
    """``pmux``: the multiplexer in front of a memory port (address, data) or a shared
    unit's operand, as the FSM builds it: ``n`` registered ``w``-bit sources, one chosen
    by a registered state, the choice registered."""
    from amaranth.back import verilog
    from amaranth.hdl import Module, Signal

    sb = max(1, (n - 1).bit_length())
    st_in, st = Signal(sb, name="st_in"), Signal(sb, name="st")
    ins = [Signal(w, name=f"in{i}") for i in range(n)]
    regs = [Signal(w, name=f"a{i}") for i in range(n)]
    y, c = Signal(w, name="y"), Signal(w, name="c")
    m = Module()
    m.d.sync += [st.eq(st_in), *(r.eq(i) for r, i in zip(regs, ins)), y.eq(c)]
    with m.Switch(st):
        for i in range(n):
            with m.Case(i):
                m.d.comb += c.eq(regs[i])
    return verilog.convert(m, name="char", ports=[st_in, *ins, y], emit_src=False)


def sample_verilog(cls: str, width: int) -> str:
    """The Verilog of one sample: ``char(clk, in0.., y)``, inputs registered, the op, the
    output registered."""
    if cls in ("load", "store", "mulstore"):
        return _memory_verilog(cls, width)
    if cls == "pmux":
        return _pmux_verilog(width)
    from amaranth.back import verilog
    from amaranth.hdl import Module, Signal

    from ..ir import op_def

    kind, attrs, n = CLASSES[cls]
    w = width
    if kind == "sdivc" and w < 4:
        w = 4
    opw = [w] * n
    if kind == "select":
        opw[0] = 1
    out_w = 1 if kind == "icmp" else w
    ins = [Signal(x, name=f"in{i}") for i, x in enumerate(opw)]
    regs = [Signal(x, name=f"a{i}") for i, x in enumerate(opw)]
    y = Signal(out_w, name="y")
    m = Module()
    m.d.sync += [r.eq(i) for r, i in zip(regs, ins)]
    if kind == "copy":
        m.d.sync += y.eq(regs[0])
    else:
        op = SimpleNamespace(kind=kind, width=out_w, attrs=attrs,
                             operands=[SimpleNamespace(width=x) for x in opw])
        m.d.sync += y.eq(op_def(kind).rtl(op, regs))
    return verilog.convert(m, name="char", ports=[*ins, y], emit_src=False)


def _area(cells: dict) -> tuple[int, int, int, int]:
    lut = cells.get("LUT4", 0) + 2 * cells.get("CCU2C", 0)
    lut += 4 * cells.get("TRELLIS_DPR16X4", 0)
    return (lut, cells.get("TRELLIS_FF", 0), cells.get("MULT18X18D", 0) + cells.get("ALU54B", 0),
            cells.get("DP16KD", 0))


def harness_ffs(cls: str, width: int) -> int:
    if cls == "load":
        return 9 + 2 * width          # address, RAM output register, y
    if cls == "store":
        return 18 + 64 + 2 * width    # two addresses, operands, RAM output register, y
    if cls == "mulstore":
        return 64 + width
    if cls == "pmux":
        return max(1, (width - 1).bit_length()) + 32 * (width + 1)
    kind, _, n = CLASSES[cls]
    w = max(width, 4) if kind == "sdivc" else width
    ins = w * n - (w - 1 if kind == "select" else 0)
    return ins + (1 if kind == "icmp" else w)


def characterise(cls: str, width: int, flow: Ecp5Flow | None = None,
                 clock_ns: float = 4.0) -> Sample:
    """Place and route one sample; ``clock_ns`` is the (tight) constraint that makes the
    placer work on the path."""
    flow = flow or Ecp5Flow()
    r: PnrResult = flow.run(sample_verilog(cls, width), "char", clock_ns)
    lut, ff, dsp, bram = _area(r.cells)
    return Sample(cls, width, r.path_delay_ns, r.fmax_mhz, lut,
                  max(0, ff - harness_ffs(cls, width)), dsp, bram)


# -- floating-point units -------------------------------------------------------------

#: pipelining depths sampled per floating-point class (:data:`hls.targets._fp.FP_CLASS_UNITS`;
#: fixed-latency units: 0 only); binary64 units go deeper
FP_STAGES = (0, 1, 2, 3, 4, 5, 6, 7, 8)
FP_STAGES_64 = FP_STAGES + (10, 12)


def _fp_sample(cls: str, stages: int) -> tuple[str, int]:
    """One floating-point unit (the FSMD's own, :mod:`hls.fpu`, built as
    :func:`hls.rtl._fp.fp_unit` builds it on ECP5) with ``stages`` pipeline registers, its
    inputs and output registered: ``char(clk, in_a.., y)``, and the harness's flip-flops."""
    from amaranth.back import verilog
    from amaranth.hdl import Module, Signal

    from ..targets._fp import FP_CLASS_UNITS, unit_spec
    from ..targets._registry import ECP5_TECH

    kind, fmt, attrs = FP_CLASS_UNITS[cls]
    ucls, kw = unit_spec(kind, fmt, attrs, ECP5_TECH.fp_mul_tile)
    unit = ucls(stages=stages, **kw)
    m = Module()
    m.submodules.u = unit
    ins = []
    for name in ("a", "b", "c"):
        port = getattr(unit, name, None)
        if port is None:
            continue
        i = Signal(len(port), name=f"in_{name}")
        r = Signal(len(port), name=f"r_{name}")
        m.d.sync += r.eq(i)
        m.d.comb += port.eq(r)
        ins.append(i)
    m.d.comb += unit.ce.eq(1)
    y = Signal(len(unit.o), name="y")
    m.d.sync += y.eq(unit.o)
    harness = sum(len(i) for i in ins) + len(y)
    return verilog.convert(m, name="char", ports=[*ins, y], emit_src=False), harness


def fp_sample_verilog(cls: str, stages: int) -> str:
    """The Verilog of one floating-point sample (:func:`_fp_sample`)."""
    return _fp_sample(cls, stages)[0]


def characterise_fp(cls: str, stages: int, flow: Ecp5Flow | None = None,
                    clock_ns: float = 4.0) -> Sample:
    """Place and route one floating-point sample (``width`` holds the stages); its
    flip-flops less the harness's are the unit's pipeline registers."""
    flow = flow or Ecp5Flow()
    src, harness = _fp_sample(cls, stages)
    r: PnrResult = flow.run(src, "char", clock_ns)
    lut, ff, dsp, bram = _area(r.cells)
    return Sample(cls, stages, r.path_delay_ns, r.fmax_mhz, lut, max(0, ff - harness), dsp, bram)
