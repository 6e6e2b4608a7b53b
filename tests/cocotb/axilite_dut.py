"""The design under test of the AXI4-Lite protocol tests: :class:`AxiLiteControl` plus a
fake ``ap_ctrl_hs`` kernel, exported to Verilog as module ``axil_dut``.

The fake kernel: while idle it samples ``ap_start``; it then latches its arguments, waits
``delay`` cycles (an argument, so the testbench picks random latencies) and raises
``ap_done`` and ``ap_ready`` for one cycle with ``ap_return = fake_result(...)``.  A
16-bit counter ``runs`` of completed calls is an extra top-level output for the tests.
"""

from __future__ import annotations

from amaranth.back import verilog
from amaranth.hdl import ClockDomain, Elaboratable, Module, Signal

from hls.interface import MemoryPort, ScalarPort, TopInterface
from hls.rtl import AxiLiteControl

MODULE = "axil_dut"

#: ``int fake(int a, int b, unsigned char delay, unsigned long long c, int *p)``
INTERFACE = TopInterface(
    MODULE, "fake",
    scalars=(ScalarPort("a", 0, 32, True), ScalarPort("b", 1, 32, True),
             ScalarPort("delay", 2, 8), ScalarPort("c", 3, 64)),
    memories=(MemoryPort("p", word_bytes=4, depth_words=64, nports=1, arg_index=4,
                         elem_bytes=4),),
    return_width=32, return_signed=True)


def fake_result(a: int, b: int, c: int, p: int) -> int:
    """What the fake kernel returns (32 bits): every argument word takes part, so a
    register wired to the wrong word shows."""
    return (a + b + (c & 0xFFFFFFFF) + (c >> 32) + (p & 0xFFFFFFFF) + (p >> 32)) & 0xFFFFFFFF


class AxilDut(Elaboratable):
    def __init__(self, own_domain: bool = True):
        """``own_domain``: clock the design from ``ap_clk``/``ap_rst_n`` (Verilog export);
        else leave the ``sync`` domain to the environment (Amaranth's simulator)."""
        self.own_domain = own_domain
        self.ctl = AxiLiteControl.from_interface(INTERFACE)
        self.ap_clk = Signal(name="ap_clk")
        self.ap_rst_n = Signal(name="ap_rst_n")
        self.runs = Signal(16, name="runs")

    def ports(self):
        return [self.ap_clk, self.ap_rst_n, *self.ctl.bus_ports(), self.runs]

    def elaborate(self, platform):
        m = Module()
        if self.own_domain:
            m.domains.sync = cd = ClockDomain("sync")
            m.d.comb += [cd.clk.eq(self.ap_clk), cd.rst.eq(~self.ap_rst_n)]
        m.submodules.ctl = ctl = self.ctl
        args = ctl.args

        busy = Signal()
        count = Signal(8)
        result = Signal(32)
        finish = Signal()
        m.d.comb += [
            finish.eq(busy & (count == 0)),
            ctl.ap_idle.eq(~busy),
            ctl.ap_done.eq(finish),
            ctl.ap_ready.eq(finish),
            ctl.ap_return.eq(result),
        ]
        with m.If(~busy & ctl.ap_start):
            c, p = args["c"], args["p"]
            m.d.sync += [
                busy.eq(1),
                count.eq(args["delay"]),
                result.eq(args["a"] + args["b"] + c[:32] + c[32:] + p[:32] + p[32:]),
            ]
        with m.Elif(finish):
            m.d.sync += [busy.eq(0), self.runs.eq(self.runs + 1)]
        with m.Elif(busy):
            m.d.sync += count.eq(count - 1)
        return m


def dut_verilog() -> str:
    dut = AxilDut()
    return verilog.convert(dut, name=MODULE, ports=dut.ports(), emit_src=False)
