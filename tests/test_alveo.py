"""``--target alveo`` tops (:class:`hls.rtl.AlveoTop`): m_axi masters + s_axi_control.

* co-simulation in cocotb/Verilator against native execution, with random stalls on every
  AXI channel and random memory latency (:mod:`hls.verify.cocotb_axi_tb`), for a few
  shared kernels: one pointer and a return value, two bundles with read-modify-write at
  data-dependent addresses, and several pointers with a return value;
* the top's Verilog under ``verilator --lint-only -Wall`` (no defect classes; the port
  name ``interrupt`` that Vitis requires is a C++ word for Verilator: SYMRSVDWORD waived);
* kernel.xml parsed back and checked against the Verilog port list and the header;
* flow/CLI hooks: the Vitis package in the output directory, ``--interface`` errors.

The full sweep over every integer kernel is ``benchmarks/run_alveo.py``.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import pytest

from hls.errors import HLSError
from hls.flow import SynthOptions, synthesize, write_outputs
from helpers import assert_alveo_lint_clean, need_cocotb

ROOT = Path(__file__).resolve().parent.parent
KERNELS = ROOT / "examples" / "kernels"


def _manifest_depths(name: str) -> dict[str, int]:
    d = json.loads((KERNELS / f"{name}.json").read_text())
    return {k: v["depth"] for k, v in d["args"].items()}


def _synth(name: str, **kw):
    return synthesize(KERNELS / f"{name}.c", SynthOptions(
        top=name, target="alveo", depth=_manifest_depths(name), **kw))


def _small(res) -> SimpleNamespace:
    """What the checks need of a SynthResult (whose repr is huge: pytest would print it
    with a failure)."""
    return SimpleNamespace(verilog=res.verilog, axi=res.axi, report=res.report,
                           interface=res.interface)


@pytest.fixture(scope="module")
def hist():
    return _small(_synth("hist_cdf_u8", m_axi={"hist": "gmem1"}))


# ----------------------------------------------------------------------------- cosim

@pytest.mark.parametrize("name, m_axi, seed", [
    ("adler32_bytes", {}, 1),               # one read-only pointer, return value
    ("hist_cdf_u8", {"hist": "gmem1"}, 2),  # two bundles, RMW at data-dependent addresses
    ("bubble_sort_u8", {}, 3),              # two in-place pointers, return value
])
def test_cosim_with_stalls(name, m_axi, seed, tmp_path):
    need_cocotb()
    from hls.verify import cosim
    src = KERNELS / f"{name}.c"
    out = cosim(src, name, tb=src, synth=_synth(name, m_axi=m_axi), seed=seed,
                workdir=tmp_path)
    out.synth = None
    assert out.passed, out.summary()
    assert len(out.calls) >= 2 and all(c.cycles > 0 for c in out.calls)
    assert out.total_cycles == sum(c.cycles for c in out.calls)


def test_cosim_reports_mismatches(tmp_path):
    """A wrong golden value comes back as a Mismatch in the plain flow's format."""
    need_cocotb()
    from hls.verify import Call, run_axi_cosim
    res = _synth("adler32_bytes")
    data = bytes(range(40))
    a, b = 1, 0
    for x in data[:30]:
        a = (a + x) % 65521
        b = (b + a) % 65521
    good = Call(scalars={1: 30, 2: 1}, mem_in={0: data}, mem_out={0: data}, ret=(b << 16) | a)
    bad = Call(scalars={1: 30, 2: 1}, mem_in={0: data}, mem_out={0: data}, ret=good.ret ^ 4)
    out = run_axi_cosim(res.verilog, res.interface, res.axi, [good, bad], seed=5,
                        workdir=tmp_path)
    assert [c.passed for c in out.calls] == [True, False]
    (m,) = out.mismatches
    assert (m.call, m.arg, m.index, m.expected, m.got) == (1, "return", None, bad.ret, good.ret)


# ----------------------------------------------------------------------------- RTL

def _port_list(verilog: str, module: str) -> dict[str, tuple[str, int]]:
    """name -> (direction, width) of the module's ports."""
    body = verilog[verilog.index(f"module {module}("):]
    body = body[:body.index("endmodule")]
    ports = {}
    for m in re.finditer(r"^\s*(input|output)\s+(?:wire\s+|reg\s+)?(?:\[(\d+):0\]\s+)?(\w+)\s*;",
                         body, re.M):
        ports[m.group(3)] = (m.group(1), int(m.group(2) or 0) + 1)
    return ports


def test_ports(hist):
    ports = _port_list(hist.verilog, "hist_cdf_u8")
    assert ports["ap_clk"] == ("input", 1) and ports["ap_rst_n"] == ("input", 1)
    assert ports["interrupt"] == ("output", 1)
    assert not any(p in ports for p in ("ap_start", "ap_done", "ap_idle", "n", "img_ce0"))
    for b in ("gmem", "gmem1"):
        assert ports[f"m_axi_{b}_ARADDR"] == ("output", 64)
        assert ports[f"m_axi_{b}_WDATA"] == ("output", 64)
        assert ports[f"m_axi_{b}_RDATA"] == ("input", 64)
        assert ports[f"m_axi_{b}_AWLEN"] == ("output", 8)
    assert ports["s_axi_control_wdata"] == ("input", 32)
    assert hist.axi.bundle_of == {"img": "gmem", "eq": "gmem", "hist": "gmem1"}
    assert hist.report["axi"]["bundles"][1] == {"name": "gmem1", "data_width": 64,
                                                "line_beats": 16, "args": ["hist"]}


def test_lint(hist):
    assert_alveo_lint_clean(hist.verilog, "hist_cdf_u8")


def test_deterministic(hist):
    again = _synth("hist_cdf_u8", m_axi={"hist": "gmem1"}).verilog
    assert again == hist.verilog


def test_package_consistent_with_rtl(hist, tmp_path):
    out = write_outputs(hist, tmp_path / "out")
    pkg = out / "vitis"
    assert (pkg / "hist_cdf_u8.v").read_text() == hist.verilog
    assert (out / "rtl" / "hist_cdf_u8.v").read_text() == hist.verilog
    ports = _port_list(hist.verilog, "hist_cdf_u8")
    root = ET.parse(pkg / "kernel.xml").getroot()
    kern = root.find("kernel")
    assert kern.get("name") == "hist_cdf_u8" and kern.get("hwControlProtocol") == "ap_ctrl_hs"
    xports = {p.get("name"): p.attrib for p in kern.find("ports")}
    # every kernel.xml port is an RTL interface with the same data width, and vice versa
    rtl_ifaces = {n.rsplit("_", 1)[0] for n in ports if n.startswith("m_axi_")} | {
        "s_axi_control"}
    assert set(xports) == rtl_ifaces
    for name, p in xports.items():
        if name == "s_axi_control":
            assert int(p["dataWidth"]) == ports["s_axi_control_wdata"][1]
            assert int(p["range"], 16) >= 1 << ports["s_axi_control_awaddr"][1]
        else:
            assert int(p["dataWidth"]) == ports[f"{name}_WDATA"][1] == ports[f"{name}_RDATA"][1]
    # arguments: bundle and offsets against the header and the register map
    header = (pkg / "xhist_cdf_u8_hw.h").read_text()
    defs = {m.group(1): int(m.group(2), 0)
            for m in re.finditer(r"#define[ \t]+XHIST_CDF_U8_CONTROL_(\w+)[ \t]+(\S+)", header)}
    args = {a.get("name"): a.attrib for a in kern.find("args")}
    assert list(args) == ["img", "eq", "hist", "n"]
    for name, a in args.items():
        assert int(a["offset"], 16) == defs[f"ADDR_{name.upper()}_DATA"]
        want = f"m_axi_{hist.axi.bundle_of[name]}" if a["addressQualifier"] == "1" else "s_axi_control"
        assert a["port"] == want
    assert [int(args[n]["offset"], 16) for n in ("img", "eq", "hist", "n")] == [
        0x10, 0x1C, 0x28, 0x34]


# ----------------------------------------------------------------------------- CLI

def test_cli_interface_errors(capsys, tmp_path):
    from hls.cli import main
    src = str(KERNELS / "hist_cdf_u8.c")
    base = ["synth", src, "--top", "hist_cdf_u8", "--depth", "img=512", "--depth", "eq=512",
            "--depth", "hist=64", "-o", str(tmp_path / "o")]
    assert main(base + ["--target", "alveo", "--interface", "img=ap_fifo"]) == 1
    assert "interface kind must be m_axi[:BUNDLE] or axis" in capsys.readouterr().err
    assert main(base + ["--interface", "img=m_axi"]) == 1
    assert "Alveo target" in capsys.readouterr().err
    assert main(base + ["--target", "alveo", "--interface", "n=m_axi"]) == 1
    assert "must be a pointer argument" in capsys.readouterr().err
    assert main(base + ["--target", "alveo", "--interface", "2=m_axi:gmem2"]) == 0
    report = json.loads((tmp_path / "o" / "report.json").read_text())
    assert [b["name"] for b in report["axi"]["bundles"]] == ["gmem", "gmem2"]
    assert (tmp_path / "o" / "vitis" / "kernel.xml").exists()


def test_generic_target_unchanged():
    res = synthesize(KERNELS / "adler32_bytes.c", SynthOptions(top="adler32_bytes",
                                                              depth={"buf": 400}))
    assert res.axi is None and "buf_address0" in res.verilog
    with pytest.raises(HLSError, match="Alveo target"):
        synthesize(KERNELS / "adler32_bytes.c", SynthOptions(
            top="adler32_bytes", depth={"buf": 400}, m_axi={"buf": "gmem"}))
