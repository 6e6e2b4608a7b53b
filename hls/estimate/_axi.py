"""The area of the AXI4 master adapters (:class:`hls.memory.AxiMasterAdapter`) that an
Alveo top puts between the core and its ``m_axi`` bundles, in the units of
``report.json["resources"]`` on those targets (UltraScale+ LUT6 and flip-flops).

The form follows what the adapter builds (its docstring): per reading port ``NW`` line
buffers of ``L`` beats (two with prefetch), each with a tag compared at every access, and
a pending miss; per writing port a slot (a beat of data, its tag and strobes); one
write-combining double buffer of ``2 L`` beats per bundle with writers; and the AXI
address and burst registers.  Line and write buffers map to LUT RAM at 16 bits a LUT
(``bits / 16``, as Yosys maps them); the other constants are a non-negative
least-squares fit to Yosys ``synth_xilinx -family xcup`` on thirteen adapters
(``python benchmarks/axi_area.py --fit``; the comparison, with leave-one-out ratios, in
``benchmarks/results/axi_area.md``).  Not counted: the AXI4-Lite control slave and the
AXI4-Stream adapters.
"""

from __future__ import annotations

__all__ = ["AXI_FF", "AXI_LUT", "axi_adapter_area", "axi_adapter_terms"]

ADDR_BITS = 64

#: LUTs per term of :func:`axi_adapter_terms` (``mem``, the LUT RAM, is a device rule:
#: not fitted); non-negative least squares against Yosys (``benchmarks/axi_area.py --fit``)
AXI_LUT = {"mem": 1.0, "tags": 3.078, "rq": 2.553, "rw": 2.114, "wcb": 0.652, "const": 174.0}
#: flip-flops per term
AXI_FF = {"tags": 1.372, "rq": 1.794, "wr": 0.662, "wcb": 0.828, "const": 112.7}


def axi_adapter_terms(adapter) -> dict[str, dict[str, float]]:
    """The model's terms for one :class:`hls.memory.AxiMasterAdapter` (its data width,
    line beats, prefetch and arguments): ``{"lut": {term: count}, "ff": {term: count}}``.  ``R`` reading and ``W`` writing
    ports, ``NW`` ways, ``T`` tag bits, ``D`` data bits: ``mem`` LUT RAM bits / 16;
    ``tags`` ``R NW T`` (each way's tag and its compares), ``rq`` ``R D`` (the ways' data
    and lane selection onto ``q``), ``rw`` ``R NW (T + D)`` with writers (every write
    compared with, and written into, every way), ``wr`` ``W (D + T + D/8)`` (the slots),
    ``wcb`` ``T + D`` with writers (the buffer's window and burst registers)."""
    data_width, L, args = adapter.data_width, adapter.line_beats, adapter.args
    db = data_width // 8
    nw = 2 if adapter.prefetch and L > 1 else 1
    tag = ADDR_BITS - (db.bit_length() - 1) - (L.bit_length() - 1)
    readers = sum(a.nports for a in args if not a.writeonly)
    writers = sum(a.nports for a in args if not a.readonly)
    hw = 1 if writers else 0
    mem_bits = readers * nw * data_width * max(L, 2) + hw * 2 * L * (data_width + db)
    return {"lut": {"mem": mem_bits / 16, "tags": readers * nw * tag,
                    "rq": readers * data_width,
                    "rw": readers * nw * hw * (tag + data_width),
                    "wcb": hw * (tag + data_width), "const": 1},
            "ff": {"tags": readers * (nw + 1) * tag, "rq": readers * data_width,
                   "wr": writers * (data_width + tag + db),
                   "wcb": hw * (tag + data_width), "const": 1}}


def axi_adapter_area(adapter) -> dict[str, int]:
    """LUT, FF, DSP and BRAM18 of one :class:`hls.memory.AxiMasterAdapter` by the model."""
    t = axi_adapter_terms(adapter)
    lut = sum(AXI_LUT[k] * v for k, v in t["lut"].items())
    ff = sum(AXI_FF[k] * v for k, v in t["ff"].items())
    return {"lut": round(lut), "ff": round(ff), "dsp": 0, "bram18": 0}
