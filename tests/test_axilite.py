"""The ``s_axi_control`` slave and the Vitis packaging.

* register-map layout against Vitis HLS's published headers and kernel.xml files;
* kernel.xml (parsed back), the C header, package_xo.tcl, connectivity.cfg and the XRT
  host example (compiled against stub XRT headers) consistent with the map;
* the slave's Verilog under ``verilator --lint-only -Wall``;
* a cocotb protocol test (``tests/cocotb/axilite_tb.py``) in Verilator, with
  cocotbext-axi's AXI4-Lite master and random stalls.
"""

from __future__ import annotations

import os
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE / "cocotb"))

from amaranth.back import verilog  # noqa: E402

from hls.errors import HLSError, RTLError, ToolError  # noqa: E402
from hls.interface import MemoryPort, ScalarPort, TopInterface  # noqa: E402
from hls.package import (  # noqa: E402
    MAxiPort, VitisKernel, c_header, connectivity_cfg, header_macros, header_name, host_cpp,
    kernel_xml, package_xo_tcl, write_vitis_package,
)
from hls.rtl import AxiLiteControl, control_addr_width, register_map  # noqa: E402
from helpers import assert_host_compiles  # noqa: E402


def sc(name, idx, width=32, signed=True):
    return ScalarPort(name, idx, width, signed)


def ptr(name, idx, word_bytes=4, depth=64, **kw):
    return MemoryPort(name, word_bytes, depth, 1, idx, elem_bytes=word_bytes, **kw)


def offsets(itf):
    return {r.name: r.offset for r in register_map(itf)}


# ----------------------------------------------------------------------------- layout

def test_control_words():
    regs = register_map(TopInterface("k", "k", (), (), 0))
    assert [(r.name, r.offset) for r in regs] == [
        ("ap_ctrl", 0), ("gie", 4), ("ier", 8), ("isr", 0xC)]
    assert control_addr_width(regs) == 4


def test_scalars_take_data_and_reserved_word():
    # Vivado HLS xkernel0_hw.h: A_V 0x10, B_V 0x18, C_V 0x20 (reserved 0x14, 0x1c, 0x24)
    itf = TopInterface("k", "k", (sc("A_V", 0), sc("B_V", 1), sc("C_V", 2)), (), 0)
    assert offsets(itf) == {"ap_ctrl": 0, "gie": 4, "ier": 8, "isr": 0xC,
                            "A_V": 0x10, "B_V": 0x18, "C_V": 0x20}
    assert control_addr_width(register_map(itf)) == 6


def test_narrow_scalar_still_one_word():
    itf = TopInterface("k", "k", (sc("x", 0, 8), sc("y", 1, 1)), (), 0)
    assert offsets(itf)["y"] == 0x18


def test_pointers_and_64bit_scalars_take_three_words():
    # Vitis hello-world vadd(in1, in2, out_r, size): 0x10, 0x1c, 0x28, 0x34
    itf = TopInterface("vadd", "vadd", (sc("size", 3),),
                       (ptr("in1", 0), ptr("in2", 1), ptr("out_r", 2)), 0)
    o = offsets(itf)
    assert [o[n] for n in ("in1", "in2", "out_r", "size")] == [0x10, 0x1C, 0x28, 0x34]
    # 64-bit scalars (Audio_Equalizer's coefficients): 0x10, 0x1c, 0x28
    itf = TopInterface("k", "k", (sc("l", 0, 64), sc("m", 1, 64), sc("h", 2, 64)), (), 0)
    assert [offsets(itf)[n] for n in "lmh"] == [0x10, 0x1C, 0x28]


def test_return_value_first():
    # Vitis HLS average_float: ap_return 0x10, src (pointer) 0x18, num 0x24
    itf = TopInterface("k", "k", (sc("num", 1),), (ptr("src", 0),), 32)
    o = offsets(itf)
    assert (o["ap_return"], o["src"], o["num"]) == (0x10, 0x18, 0x24)
    # 64-bit return (Vitis: ap_return 0x10/0x14, next argument 0x1c)
    itf = TopInterface("k", "k", (sc("in_value", 0, 64),), (), 64)
    o = offsets(itf)
    assert (o["ap_return"], o["in_value"]) == (0x10, 0x1C)


def test_wide_scalar_and_globals():
    itf = TopInterface("k", "k", (sc("w", 0, 128), sc("x", 1)),
                       (MemoryPort("g", 4, 16, 1, None, global_name="g"),), 0)
    o = offsets(itf)
    assert o == {"ap_ctrl": 0, "gie": 4, "ier": 8, "isr": 0xC, "w": 0x10, "x": 0x24}


def test_argument_order_is_c_order():
    itf = TopInterface("k", "k", (sc("n", 0), sc("m", 2)), (ptr("p", 1),), 0)
    regs = [r for r in register_map(itf) if r.is_arg]
    assert [(r.name, r.arg_index, r.offset) for r in regs] == [
        ("n", 0, 0x10), ("p", 1, 0x18), ("m", 2, 0x24)]


def test_duplicate_names_rejected():
    itf = TopInterface("k", "k", (sc("isr", 0),), (), 0)
    with pytest.raises(RTLError, match="unique"):
        register_map(itf)


# ----------------------------------------------------------------------------- packaging

ITF = TopInterface(
    "vadd_k", "vadd",
    scalars=(sc("n", 3), sc("scale", 4, 64, signed=False), sc("flag", 5, 8, signed=False)),
    memories=(ptr("in1", 0, readonly=True), ptr("in2", 1, word_bytes=2, readonly=True),
              ptr("out", 2, word_bytes=8, writeonly=True),
              MemoryPort("tab", 4, 8, 1, None, global_name="tab")),
    return_width=32)
M_AXI = [("gmem0", 512), MAxiPort("gmem1", 64, 64)]
BUNDLES = {"out": "gmem1"}


@pytest.fixture(scope="module")
def kern():
    return VitisKernel.build(ITF, M_AXI, BUNDLES)


def test_kernel_xml_consistent(kern):
    root = ET.fromstring(kernel_xml(kern))
    assert root.tag == "root" and root.get("versionMajor") == "1" and root.get("versionMinor") == "6"
    k = root.find("kernel")
    assert k.get("name") == "vadd_k" and k.get("language") == "ip_c"
    assert k.get("hwControlProtocol") == "ap_ctrl_hs" and k.get("interrupt") == "true"
    ports = {p.get("name"): p.attrib for p in k.find("ports")}
    assert ports["s_axi_control"]["mode"] == "slave" and ports["s_axi_control"]["range"] == "0x1000"
    assert ports["m_axi_gmem0"]["dataWidth"] == "512"
    assert ports["m_axi_gmem1"]["range"] == "0xFFFFFFFFFFFFFFFF"
    assert all(p["portType"] == "addressable" and p["base"] == "0x0" for p in ports.values())
    args = [a.attrib for a in k.find("args")]
    regs = [r for r in register_map(ITF) if r.is_arg]
    assert [a["name"] for a in args] == [r.name for r in regs] == [
        "in1", "in2", "out", "n", "scale", "flag"]
    assert [int(a["id"]) for a in args] == list(range(6))
    for a, r in zip(args, regs):
        assert int(a["offset"], 16) == r.offset
        assert a["port"] in ports
        assert a["hostOffset"] == "0x0"
    by = {a["name"]: a for a in args}
    assert by["in1"]["addressQualifier"] == "1" and by["in1"]["port"] == "m_axi_gmem0"
    assert by["out"]["port"] == "m_axi_gmem1" and by["out"]["size"] == "0x8"
    assert by["in2"]["type"] == "short*" and by["out"]["type"] == "long long*"
    assert by["n"]["addressQualifier"] == "0" and by["n"]["port"] == "s_axi_control"
    assert (by["n"]["size"], by["n"]["hostSize"], by["n"]["type"]) == ("0x4", "0x4", "int")
    assert (by["scale"]["size"], by["scale"]["hostSize"]) == ("0x8", "0x8")
    assert by["scale"]["type"] == "unsigned long long"
    assert (by["flag"]["size"], by["flag"]["hostSize"], by["flag"]["type"]) == (
        "0x4", "0x1", "unsigned char")
    assert by["in1"]["offset"] == "0x18"   # after ap_return at 0x10


def test_header_consistent(kern):
    text = c_header(kern)
    defs = {}
    for line in text.splitlines():
        if line.startswith("#define") and len(line.split()) == 3:
            _, n, v = line.split()
            defs[n] = int(v, 0)
    assert defs == header_macros(kern)
    p = "XVADD_K_CONTROL"
    assert defs[f"{p}_ADDR_AP_CTRL"] == 0 and defs[f"{p}_ADDR_ISR"] == 0xC
    assert defs[f"{p}_ADDR_AP_RETURN"] == 0x10 and defs[f"{p}_BITS_AP_RETURN"] == 32
    for r in register_map(ITF):
        if r.is_arg:
            assert defs[f"{p}_ADDR_{r.name.upper()}_DATA"] == r.offset
            assert defs[f"{p}_BITS_{r.name.upper()}_DATA"] == r.width
    assert "// 0x20 : reserved" in text  # after in1's two words
    assert header_name(kern) == "xvadd_k_hw.h"


def test_package_xo_tcl(kern):
    tcl = package_xo_tcl(kern, ["vadd_k.v"])
    assert "ipx::package_project" in tcl
    assert "package_xo -force -xo_path $xo_path -kernel_name $kernel_name" in tcl
    assert "-kernel_xml [file join $root kernel.xml]" in tcl
    for busif in ("s_axi_control", "m_axi_gmem0", "m_axi_gmem1"):
        assert f"ipx::associate_bus_interfaces -busif {busif} -clock ap_clk $core" in tcl
    assert "add_reg $ab out 0x030 64 m_axi_gmem1" in tcl
    assert tcl.count("{") == tcl.count("}")


def test_connectivity(kern):
    cfg = connectivity_cfg(kern, "HBM[0]", count=2)
    lines = cfg.splitlines()
    assert "[connectivity]" in lines
    assert "nk=vadd_k:2:vadd_k_1.vadd_k_2" in lines
    assert "sp=vadd_k_2.m_axi_gmem1:HBM[0]" in lines
    cfg = connectivity_cfg(kern, {"gmem0": "DDR[0]", "gmem1": "DDR[1]"})
    assert "sp=vadd_k_1.m_axi_gmem1:DDR[1]" in cfg.splitlines()


def test_default_bundle():
    k = VitisKernel.build(ITF)
    assert [(p.bundle, p.data_width, p.address_width) for p in k.m_axi] == [("gmem", 64, 64)]
    assert set(k.bundle_of.values()) == {"gmem"}
    assert VitisKernel.build(TopInterface("s", "s", (sc("a", 0),), (), 0)).m_axi == ()


def test_declared_c_types():
    """CTypes on the interface reach every register of their argument, and kernel.xml and
    the host code use them; a type narrower than its port is an error."""
    from hls.interface import CType
    f32, s16 = CType("float", "float", 4, True), CType("short", "int", 2, True)
    itf = ITF.with_c_types({0: f32, 1: s16, 3: CType("int", "int", 4, True)}, f32)
    assert [m.ctype for m in itf.memories] == [f32, s16, None, None]
    assert itf.return_ctype == f32
    args = {a.get("name"): (a.get("type"), a.get("hostSize")) for a in
            ET.fromstring(kernel_xml(VitisKernel.build(itf, M_AXI, BUNDLES))).iter("arg")}
    assert args == {"in1": ("float*", "0x8"), "in2": ("short*", "0x8"),
                    "out": ("long long*", "0x8"), "n": ("int", "0x4"),
                    "scale": ("unsigned long long", "0x8"), "flag": ("unsigned char", "0x1")}
    host = host_cpp(VitisKernel.build(itf, M_AXI, BUNDLES))
    assert "    std::vector<float> in1_host(IN1_COUNT);" in host.splitlines()
    assert "static const size_t IN1_COUNT = 64;  // elements of in1 (256 bytes)" in host
    with pytest.raises(ValueError, match="narrower"):
        ITF.with_c_types({3: s16})


def test_bundle_errors():
    with pytest.raises(HLSError, match="not one of"):
        VitisKernel.build(ITF, M_AXI, {"out": "gmem7"})
    with pytest.raises(HLSError, match="no pointer argument"):
        VitisKernel.build(ITF, M_AXI, {"n": "gmem0"})
    with pytest.raises(HLSError, match="data width"):
        VitisKernel.build(ITF, [("gmem0", 48)])


@pytest.mark.skipif(shutil.which("g++") is None, reason="no g++ to syntax-check host.cpp")
def test_host_cpp_compiles(tmp_path, kern):
    files = write_vitis_package(tmp_path / "pkg", ITF, m_axi=M_AXI, bundles=BUNDLES)
    src = files["host"].read_text()
    assert src == host_cpp(kern)
    assert "USER" in src and "reference_vadd_k" in src
    assert "auto run = krnl(in1_bo, in2_bo, out_bo, n, scale, flag);" in src
    assert "out_bo.sync(XCL_BO_SYNC_BO_FROM_DEVICE);" in src
    assert "in1_bo.sync(XCL_BO_SYNC_BO_FROM_DEVICE);" not in src  # read-only input
    assert_host_compiles(files, tmp_path)


def test_write_package_deterministic(tmp_path):
    a = write_vitis_package(tmp_path / "a", ITF, verilog="module vadd_k; endmodule\n",
                            m_axi=M_AXI, bundles=BUNDLES)
    b = write_vitis_package(tmp_path / "b", ITF, verilog="module vadd_k; endmodule\n",
                            m_axi=M_AXI, bundles=BUNDLES)
    assert set(a) == {"verilog", "kernel_xml", "header", "package_xo", "connectivity", "host"}
    for role in a:
        assert a[role].read_bytes() == b[role].read_bytes(), role
    ET.parse(a["kernel_xml"])


# ----------------------------------------------------------------------------- RTL

def test_slave_ports_and_lint():
    from hls.verify import lint_verilog
    ctl = AxiLiteControl(register_map(ITF))
    assert ctl.addr_width == 7
    assert len(ctl.s_axi_control_awaddr) == 7 and len(ctl.s_axi_control_wdata) == 32
    assert len(ctl.ap_return) == 32 and len(ctl.args["out"]) == 64 and len(ctl.args["flag"]) == 8
    try:
        res = lint_verilog(verilog.convert(ctl, name="ctl"), "ctl")
    except ToolError as exc:  # pragma: no cover
        pytest.skip(f"Verilator is not available: {exc}")
    # 'interrupt' is the port name Vitis requires; Verilator notes it is a C++ word
    problems = [m for m in res.problems
                if not (m.code == "SYMRSVDWORD" and "interrupt" in m.text)]
    assert not res.defects and not problems, res.summary()


def test_slave_amaranth_sim():
    """A quick check without cocotb: write a, start, done, read ap_return and ctrl."""
    from amaranth.sim import Simulator
    from axilite_dut import AxilDut, fake_result

    dut = AxilDut(own_domain=False)
    ctl = dut.ctl
    s = lambda n: getattr(ctl, "s_axi_control_" + n)  # noqa: E731
    offs = {r.name: r.offset for r in ctl.regs}

    async def bench(ctx):
        async def write(addr, data):
            ctx.set(s("awaddr"), addr)
            ctx.set(s("awvalid"), 1)
            ctx.set(s("wdata"), data)
            ctx.set(s("wstrb"), 0xF)
            ctx.set(s("wvalid"), 1)
            ctx.set(s("bready"), 1)
            await ctx.tick().until(s("awready") & s("wready"))
            ctx.set(s("awvalid"), 0)
            ctx.set(s("wvalid"), 0)
            await ctx.tick().until(s("bvalid"))
            await ctx.tick()

        async def read(addr):
            ctx.set(s("araddr"), addr)
            ctx.set(s("arvalid"), 1)
            ctx.set(s("rready"), 1)
            await ctx.tick().until(s("arready"))
            ctx.set(s("arvalid"), 0)
            while not ctx.get(s("rvalid")):
                await ctx.tick()
            data = ctx.get(s("rdata"))
            await ctx.tick()
            return data

        await write(offs["a"], 40)
        await write(offs["b"], 2)
        await write(offs["delay"], 3)
        await write(0, 1)
        for _ in range(50):
            v = await read(0)
            if v & 2:
                break
        assert v & 2 and v & 8, hex(v)
        assert await read(offs["ap_return"]) == fake_result(40, 2, 0, 0)
        assert await read(0) == 4

    sim = Simulator(dut)
    sim.add_clock(1e-8, domain="sync")
    sim.add_testbench(bench)
    sim.run()


# ----------------------------------------------------------------------------- cocotb

def test_axilite_protocol_cocotb(tmp_path, monkeypatch):
    """cocotbext-axi's AxiLiteMaster against the slave in Verilator (tests/cocotb)."""
    try:
        import cocotb
        import cocotbext.axi  # noqa: F401
        from cocotb_tools.runner import get_results, get_runner
    except ImportError as exc:
        pytest.skip(f"cocotb/cocotbext-axi cannot be imported ({exc}); "
                    "install the test extra: pip install -e .[test]")
    from axilite_dut import INTERFACE, MODULE, dut_verilog

    from hls.verify import default_cache_dir, find_verilator
    try:
        vl = find_verilator()
    except ToolError as exc:  # pragma: no cover
        pytest.skip(f"Verilator is not available: {exc}")
    for key, value in vl.cocotb_env().items():  # the runner calls `verilator` from PATH
        monkeypatch.setenv(key, value)

    text = dut_verilog()
    pkg = write_vitis_package(tmp_path / "pkg", INTERFACE, verilog=text)
    # the C++ build takes about a minute: cache it by content, as hls.verify does
    from hls.verify._axi_cosim import cocotb_build_key
    key = cocotb_build_key(vl, text)
    cache = default_cache_dir().parent / "cocotb"
    build = cache / f"{MODULE}-{key}"
    runner = get_runner("verilator")
    if not (build / MODULE).exists():
        tmp_build = cache / f"{MODULE}-{key}.tmp{os.getpid()}"
        shutil.rmtree(tmp_build, ignore_errors=True)
        runner.build(sources=[pkg["verilog"]], hdl_toplevel=MODULE, build_dir=tmp_build,
                     build_args=["-Wno-fatal"], timescale=("1ns", "1ps"), always=True,
                     log_file=tmp_path / "build.log")
        try:
            os.replace(tmp_build, build)
        except OSError:  # another process cached it meanwhile
            shutil.rmtree(tmp_build, ignore_errors=True)
    xml = tmp_path / "results.xml"
    try:
        runner.test(test_module="axilite_tb", hdl_toplevel=MODULE, build_dir=build,
                    hdl_toplevel_lang="verilog", test_dir=HERE / "cocotb",
                    results_xml=str(xml), extra_env={"PYHLS_AXIL_HEADER": str(pkg["header"])},
                    seed=1, log_file=tmp_path / "sim.log")
    except SystemExit:  # the runner exits when a test fails; the results say which
        pass
    log = (tmp_path / "sim.log").read_text() if (tmp_path / "sim.log").exists() else ""
    assert xml.exists(), f"the simulation did not run:\n{log[-4000:]}"
    ntests, nfailed = get_results(xml)
    summary = "\n".join(line.strip() for line in log.splitlines()
                        if "axilite_tb." in line and ("PASS" in line or "FAIL" in line))
    assert ntests == 6 and nfailed == 0, f"{summary}\n\n{log[-6000:]}"
