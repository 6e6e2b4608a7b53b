"""The design as place and route sees it: the generated top inside a harness that closes
every path through its ports with real hardware.

Out of context, nextpnr times register-to-register paths only: a path from a memory port's
``q`` input or to a scalar input would go unchecked.  So the harness gives every external
memory of the top (``TopInterface.memories``) the RAM the interface contract describes
(synchronous, read-first, byte enables; each port its own bank, so that Yosys maps every
bank to DP16KD or LUT RAM: two write ports on one array have no block RAM mapping),
initialised (a global's contents, else a pattern) so
that nothing folds to constants; it registers ``ap_start`` and each scalar input from the
harness's own inputs, and the return value and ``ap_done`` into registers.  The harness
adds its RAMs and those registers to the utilisation; the top's own logic is what the
report's area compares against.  Each memory also gets a read port of the harness's own,
to an output: otherwise a memory the kernel only writes is observable nowhere and Yosys
removes the whole datapath that computes it (a first version of this harness measured
GEMM kernels with their multipliers gone).
"""

from __future__ import annotations

from ..interface import TopInterface

__all__ = ["HARNESS_TOP", "pnr_harness"]

HARNESS_TOP = "pyhls_pnr_top"


def _init_words(m, width_bits: int) -> list[int]:
    if m.init is not None:
        wb = m.word_bytes
        return [int.from_bytes(m.init[i * wb:(i + 1) * wb], "little") for i in range(m.depth_words)]
    mask = (1 << width_bits) - 1
    return [(i * 0x9E3779B97F4A7C15 + 0x632BE5AB) & mask for i in range(m.depth_words)]


def pnr_harness(verilog: str, iface: TopInterface) -> str:
    """``verilog`` with a harness module :data:`HARNESS_TOP` around ``iface.module_name``."""
    top = iface.module_name
    ports = ["input ap_clk", "input ap_rst_n", "input start_in", "output reg done_out"]
    body: list[str] = ["  reg start_r;", "  wire done_w;",
                       "  always @(posedge ap_clk) begin start_r <= start_in; done_out <= done_w; end"]
    conns = [".ap_clk(ap_clk)", ".ap_rst_n(ap_rst_n)", ".ap_start(start_r)", ".ap_done(done_w)"]
    for s in iface.scalars:
        ports.append(f"input [{s.width - 1}:0] {s.name}_in")
        body.append(f"  reg [{s.width - 1}:0] {s.name}_r;")
        body.append(f"  always @(posedge ap_clk) {s.name}_r <= {s.name}_in;")
        conns.append(f".{s.name}({s.name}_r)")
    if iface.return_width:
        w = iface.return_width
        ports.append(f"output reg [{w - 1}:0] ret_out")
        body.append(f"  wire [{w - 1}:0] ret_w;")
        body.append("  always @(posedge ap_clk) ret_out <= ret_w;")
        conns.append(".ap_return(ret_w)")
    for m in iface.memories:
        n, wbits, ab = m.name, 8 * m.word_bytes, m.addr_bits
        words = _init_words(m, wbits)
        # one RAM per port: a port reads and writes its own bank.  Two write ports on one
        # array have no block RAM mapping (a collision of two writes, or of a write with
        # the other port's read, is undefined in DP16KD), so Yosys would build the array
        # from flip-flops and multiplexers, whose paths are not the ones a RAM port has
        for p in range(m.nports):
            pre, bank = f"{n}_", f"{n}_mem{p}"
            body.append(f"  reg [{wbits - 1}:0] {bank} [0:{m.depth_words - 1}];")
            body.append("  initial begin")
            body += [f"    {bank}[{i}] = {wbits}'h{v:x};" for i, v in enumerate(words)]
            body.append("  end")
            body.append(f"  wire [{ab - 1}:0] {pre}address{p}; wire {pre}ce{p}; "
                        f"wire [{m.word_bytes - 1}:0] {pre}we{p}; wire [{wbits - 1}:0] {pre}d{p}; "
                        f"reg [{wbits - 1}:0] {pre}q{p};")
            writes = " ".join(f"if ({pre}we{p}[{b}]) {bank}[{pre}address{p}][{8 * b + 7}:{8 * b}] "
                              f"<= {pre}d{p}[{8 * b + 7}:{8 * b}];" for b in range(m.word_bytes))
            body.append(f"  always @(posedge ap_clk) if ({pre}ce{p}) begin "
                        f"{pre}q{p} <= {bank}[{pre}address{p}]; {writes} end")
            conns += [f".{pre}{sig}{p}({pre}{sig}{p})" for sig in ("address", "ce", "we", "d", "q")]
        # a read port of the harness's own makes the memory observable: without it a
        # memory the kernel only writes drives no output, and Yosys removes the datapath
        # that computes its contents (each bank is built once more for this port)
        ports += [f"input [{ab - 1}:0] {n}_dump_addr", f"output reg [{wbits - 1}:0] {n}_dump_out"]
        body.append(f"  reg [{ab - 1}:0] {n}_dump_a; reg [{wbits - 1}:0] {n}_dump_q;")
        banks = " ^ ".join(f"{n}_mem{p}[{n}_dump_a]" for p in range(m.nports))
        body.append(f"  always @(posedge ap_clk) begin {n}_dump_a <= {n}_dump_addr; "
                    f"{n}_dump_q <= {banks}; {n}_dump_out <= {n}_dump_q; end")
    lines = [f"module {HARNESS_TOP}({', '.join(p.split()[-1] for p in ports)});"]
    lines += [f"  {p};" for p in ports]
    lines += body
    lines.append(f"  {top} dut({', '.join(conns)});")
    lines.append("endmodule")
    return verilog.rstrip("\n") + "\n\n" + "\n".join(lines) + "\n"
