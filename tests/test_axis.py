"""AXI4-Stream arguments of ``--target alveo`` tops (``--interface ARG=axis``).

* the stream adapters (:mod:`hls.memory._axis`) in the Amaranth simulator against a model
  of the core (in-order reads with repeats, random TVALID gaps / TREADY back-pressure):
  every element arrives once, in order; an out-of-order address sets the sticky error;
* their Verilog, and a whole top with streams, under ``verilator --lint-only -Wall``;
* the compile-time proof (:func:`hls.analysis.stream_order_problem`): a pointer read
  backwards, or read and written, is rejected with a message naming the argument;
* kernel.xml / header / register map: stream arguments have no register;
* cocotb co-simulation with cocotbext-axi AxiStreamSource / AxiStreamSink and random
  pauses on every stream (and on the AXI channels of the mixed design), against native
  execution; and a design whose stream order is wrong (the compile-time check bypassed)
  fails the co-simulation through the adapters' run-time check.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from amaranth.back import verilog as amaranth_verilog
from amaranth.sim import Simulator

from hls.errors import HLSError, RTLError, ToolError
from hls.flow import SynthOptions, synthesize, write_outputs
from hls.memory import AxisAdapter, StreamArg
from helpers import assert_alveo_lint_clean, need_cocotb

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "examples" / "alveo" / "stream_kernels.c"
N = 64
DEPTH = {k: N for k in ("a", "b", "c", "x", "y")}


def _synth(top: str, axis, m_axi=None, **kw):
    return synthesize(SRC, SynthOptions(top=top, target="alveo", depth=DEPTH, axis=list(axis),
                                        m_axi=m_axi or {}, **kw))


# ----------------------------------------------------------------------------- adapters

def _sim(ad, bench):
    sim = Simulator(ad)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()


def _input_run(seed: int, plan=None, n: int = 50, p_valid: float = 0.6):
    """Drive an input adapter: the stream sends ``n`` random elements with random gaps;
    the core model (run = ready) reads either ``plan`` (a list of word addresses) or a
    random in-order mix of new elements, re-reads of the last one and idle cycles, and
    checks every q against the element it asked for.  Returns what it saw."""
    rng = random.Random(seed)
    ad = AxisAdapter(StreamArg("x", 4, 8, 200, "in"))
    data = [rng.randrange(1 << 32) for _ in range(n)]
    seen = {"checked": 0, "stalls": 0, "bad_q": 0}

    async def bench(ctx):
        ax, p = ad.axis, ad.ports[0]
        sent = nxt = 0
        want = None
        todo = list(plan) if plan is not None else None
        for _ in range(20 * n):
            on = sent < n and rng.random() < p_valid
            ctx.set(ax["TVALID"], on)
            ctx.set(ax["TDATA"], data[sent] if on else 0)
            rdy = ctx.get(ad.ready)
            ctx.set(ad.run, rdy)
            if not rdy:
                seen["stalls"] += 1
            else:
                if want is not None:         # the read of the previous core cycle
                    seen["checked"] += 1
                    seen["bad_q"] += ctx.get(p.q) != data[want]
                    want = None
                ctx.set(p.ce, 0)
                if todo is not None:
                    if not todo:
                        break
                    a = todo.pop(0)
                    ctx.set(p.ce, 1)
                    ctx.set(p.address, a)
                    want = a if a < n else None
                else:
                    r = rng.random()
                    if nxt == n:
                        break
                    if r < 0.6:
                        ctx.set(p.ce, 1)
                        ctx.set(p.address, nxt)
                        want, nxt = nxt, nxt + 1
                    elif r < 0.75 and nxt:
                        ctx.set(p.ce, 1)
                        ctx.set(p.address, nxt - 1)
                        want = nxt - 1
            handshake = ctx.get(ax["TVALID"]) and ctx.get(ax["TREADY"])
            await ctx.tick()
            sent += bool(handshake)
        seen["error"] = ctx.get(ad.error)
        seen["elements"] = ctx.get(ad.elements)
        seen["sent"] = sent

    _sim(ad, bench)
    return seen


@pytest.mark.parametrize("seed", range(4))
def test_input_adapter_in_order(seed):
    got = _input_run(seed, p_valid=[0.3, 0.6, 0.95, 1.0][seed])
    assert got["error"] == 0 and got["bad_q"] == 0
    assert got["elements"] == 50 and got["checked"] > 50
    if seed == 0:
        assert got["stalls"] > 0              # a slow stream stalls the core


def test_input_adapter_one_element_per_cycle():
    """A stream that never pauses feeds a core reading every cycle without a stall."""
    got = _input_run(1, plan=list(range(40)), n=40, p_valid=1.0)
    assert got == {"checked": 40, "stalls": 0, "bad_q": 0, "error": 0, "elements": 40,
                   "sent": 40}


@pytest.mark.parametrize("plan", [[0, 1, 2, 4], [1], [0, 1, 0], [0, 1, 2, 2, 3, 5]])
def test_input_adapter_flags_out_of_order(plan):
    assert _input_run(3, plan=plan, p_valid=1.0)["error"] == 1


def test_input_adapter_repeat_is_not_an_error():
    got = _input_run(3, plan=[0, 0, 1, 1, 1, 2], p_valid=1.0)
    assert got["error"] == 0 and got["bad_q"] == 0 and got["elements"] == 3


def _output_run(seed: int, plan=None, n: int = 40, p_ready: float = 0.5):
    """Drive an output adapter: the core model writes ``plan`` addresses (default 0..n-1)
    with random idle cycles, a sink with random TREADY collects (data, TLAST) beats."""
    rng = random.Random(seed)
    depth = n if plan is None else max(plan) + 1
    ad = AxisAdapter(StreamArg("y", 2, 8, depth, "out"))
    plan = list(range(n)) if plan is None else list(plan)
    data = [rng.randrange(1 << 16) for _ in plan]
    out = {"beats": [], "stalls": 0}

    async def bench(ctx):
        ax, p = ad.axis, ad.ports[1]         # port 1 of the core, as a schedule may use
        k = 0
        for _ in range(30 * len(plan) + 20):
            ctx.set(ax["TREADY"], rng.random() < p_ready)
            rdy = ctx.get(ad.ready)
            ctx.set(ad.run, rdy)
            ctx.set(p.ce, 0)
            if not rdy:
                out["stalls"] += 1
            elif k < len(plan) and rng.random() < 0.8:
                ctx.set(p.ce, 1)
                ctx.set(p.we, 0b11)
                ctx.set(p.address, plan[k])
                ctx.set(p.d, data[k])
                k += 1
            if ctx.get(ax["TVALID"]) and ctx.get(ax["TREADY"]):
                out["beats"].append((ctx.get(ax["TDATA"]), ctx.get(ax["TLAST"])))
            await ctx.tick()
        out["error"] = ctx.get(ad.error)
        out["idle"] = ctx.get(ad.idle)
        out["data"] = data

    _sim(ad, bench)
    return out


@pytest.mark.parametrize("seed, p_ready", [(0, 0.2), (1, 0.5), (2, 1.0)])
def test_output_adapter_in_order(seed, p_ready):
    got = _output_run(seed, p_ready=p_ready)
    assert got["error"] == 0 and got["idle"] == 1
    assert [d for d, _ in got["beats"]] == got["data"]          # none lost or duplicated
    assert [i for i, (_, last) in enumerate(got["beats"]) if last] == [len(got["data"]) - 1]
    if p_ready < 1:
        assert got["stalls"] > 0


@pytest.mark.parametrize("plan", [[0, 1, 3], [1, 2], [0, 0]])
def test_output_adapter_flags_out_of_order(plan):
    assert _output_run(5, plan=plan, p_ready=1.0)["error"] == 1


def test_stream_arg_errors():
    with pytest.raises(RTLError, match="direction"):
        StreamArg("x", 4, 8, 10, "inout")
    with pytest.raises(RTLError, match="depth"):
        StreamArg("x", 4, 4, 16, "in")


@pytest.mark.parametrize("direction", ["in", "out"])
def test_adapter_lint(direction):
    from hls.verify import lint_verilog
    ad = AxisAdapter(StreamArg("s", 4, 9, 300, direction))
    ports = [ad.run, ad.ready, ad.restart, ad.idle, ad.error, ad.elements, *ad.axis_ports()]
    for p in ad.ports:
        ports += p.inputs() + [p.q]
    text = amaranth_verilog.convert(ad, name="axis_adapter", ports=ports, emit_src=False)
    try:
        res = lint_verilog(text, "axis_adapter")
    except ToolError as exc:  # pragma: no cover
        pytest.skip(f"Verilator is not available: {exc}")
    assert not res.defects and res.clean, res.summary()


# ----------------------------------------------------------------------------- compile time

@pytest.mark.parametrize("top, arg, match", [
    ("reverse_copy", "x", "advances by -1 per iteration"),
    ("scale_in_place", "a", "both read and written"),
])
def test_rejected_streams(top, arg, match):
    with pytest.raises(HLSError, match=match) as ei:
        _synth(top, [arg])
    assert f"argument '{arg}' of {top} cannot be an AXI4-Stream" in str(ei.value)
    assert ei.value.line is not None


def test_cli_errors(capsys, tmp_path):
    from hls.cli import main
    # --depth names only the top's own arguments (another name is an error)
    base = ["synth", str(SRC), "--depth", "x=64", "--depth", "y=64", "-o", str(tmp_path / "o")]
    assert main(base + ["--top", "reverse_copy", "--target", "alveo",
                        "--interface", "x=axis"]) == 1
    err = capsys.readouterr().err
    assert re.search(r"stream_kernels\.c:\d+: error: argument 'x' of reverse_copy cannot be "
                     r"an AXI4-Stream", err), err
    assert main(base + ["--top", "reverse_copy", "--interface", "y=axis"]) == 1
    assert "Alveo target" in capsys.readouterr().err
    assert main(base + ["--top", "reverse_copy", "--target", "alveo", "--interface", "y=axis",
                        "--interface", "y=m_axi"]) == 1
    assert "has an interface already" in capsys.readouterr().err
    assert main(["synth", str(SRC), "--depth", "a=64", "-o", str(tmp_path / "o"),
                 "--top", "scale_in_place", "--target", "alveo", "--interface", "k=axis"]) == 1
    assert "must be a pointer argument" in capsys.readouterr().err
    assert main(base + ["--top", "reverse_copy", "--target", "alveo", "--interface", "1=axis"]) == 0
    report = (tmp_path / "o" / "report.json").read_text()
    assert '"stream": "out"' in report


# ----------------------------------------------------------------------------- RTL, package

@pytest.fixture(scope="module")
def fir():
    return _synth("fir_axis", ["x", "y"])


def _port_list(verilog: str, module: str) -> dict[str, tuple[str, int]]:
    body = verilog[verilog.index(f"module {module}("):]
    body = body[:body.index("endmodule")]
    return {m.group(3): (m.group(1), int(m.group(2) or 0) + 1) for m in re.finditer(
        r"^\s*(input|output)\s+(?:wire\s+|reg\s+)?(?:\[(\d+):0\]\s+)?(\w+)\s*;", body, re.MULTILINE)}


def test_ports_registers_and_package(fir, tmp_path):
    ports = _port_list(fir.verilog, "fir_axis")
    assert ports["x_TDATA"] == ("input", 16) and ports["x_TVALID"] == ("input", 1)
    assert ports["x_TREADY"] == ("output", 1) and "x_TLAST" not in ports
    assert ports["y_TDATA"] == ("output", 32) and ports["y_TVALID"] == ("output", 1)
    assert ports["y_TREADY"] == ("input", 1) and ports["y_TLAST"] == ("output", 1)
    assert not any(p.startswith("m_axi_") for p in ports)
    assert [(s.name, s.direction, s.data_width, s.depth) for s in fir.axi.streams] == [
        ("x", "in", 16, N), ("y", "out", 32, N)]

    from hls.rtl import register_map
    regs = {r.name: r for r in register_map(fir.interface) if r.is_arg}
    assert set(regs) == {"h0", "h1", "h2", "h3"}       # no register for the streams
    out = write_outputs(fir, tmp_path / "out")
    kern = ET.parse(out / "vitis" / "kernel.xml").getroot().find("kernel")
    xports = {p.get("name"): p.attrib for p in kern.find("ports")}
    assert set(xports) == {"s_axi_control", "x", "y"}
    assert xports["x"]["mode"] == "read_only" and xports["y"]["mode"] == "write_only"
    for name in ("x", "y"):
        assert xports[name]["portType"] == "stream"
        assert int(xports[name]["dataWidth"]) == ports[f"{name}_TDATA"][1]
    args = {a.get("name"): a.attrib for a in kern.find("args")}
    assert list(args) == ["x", "y", "h0", "h1", "h2", "h3"]
    assert [args[a]["id"] for a in args] == ["0", "1", "2", "3", "4", "5"]
    for name in ("x", "y"):
        assert args[name]["addressQualifier"] == "4" and args[name]["port"] == name
        assert int(args[name]["offset"], 16) == 0
    # the declared C types (const int16_t *x, int32_t *y, int32_t h0..h3)
    assert [args[a]["type"] for a in args] == ["stream<int16_t>&", "stream<int32_t>&"] + \
        ["int"] * 4
    header = (out / "vitis" / "xfir_axis_hw.h").read_text()
    defs = {m.group(1): int(m.group(2), 0) for m in re.finditer(
        r"#define[ \t]+XFIR_AXIS_CONTROL_(\w+)[ \t]+(\S+)", header)}
    assert "ADDR_X_DATA" not in defs and "ADDR_Y_DATA" not in defs
    for name in ("h0", "h1", "h2", "h3"):
        assert int(args[name]["offset"], 16) == defs[f"ADDR_{name.upper()}_DATA"] == regs[name].offset
    assert regs["h0"].offset == 0x18                    # after ap_return (0x10, 0x14)
    host = (out / "vitis" / "host.cpp").read_text()
    assert "run.set_arg(2, h0);" in host and "x_bo" not in host
    assert "stream_connect" in (out / "vitis" / "connectivity.cfg").read_text()


def test_lint_top(fir):
    assert_alveo_lint_clean(fir.verilog, "fir_axis")


def test_deterministic(fir):
    assert _synth("fir_axis", ["x", "y"]).verilog == fir.verilog


# ----------------------------------------------------------------------------- cosim

@pytest.mark.parametrize("top, axis, m_axi, seed, stall", [
    ("vadd_axis", ["a", "b", "c"], {}, 1, 0.5),       # all streams, heavy pauses
    ("vadd_axis", ["a", "b"], {"c": "gmem1"}, 2, 0.3),  # axis in, m_axi out
    ("fir_axis", ["x", "y"], {}, 3, 0.3),              # 16-bit in, 32-bit out, return value
])
def test_cosim_streams(top, axis, m_axi, seed, stall, tmp_path):
    need_cocotb()
    from hls.verify import cosim
    res = _synth(top, axis, m_axi)
    out = cosim(SRC, top, tb=SRC, synth=res, seed=seed, axi_stall=stall, workdir=tmp_path)
    out.synth = None
    assert out.passed, out.summary()
    assert len(out.calls) == 3 and all(c.cycles >= N for c in out.calls)


def test_cosim_detects_wrong_golden(tmp_path):
    """The streamed output is really compared: a changed expected element is a mismatch."""
    need_cocotb()
    from hls.verify import Call, run_axi_cosim
    res = _synth("vadd_axis", ["a", "b", "c"])
    rng = random.Random(7)
    a = [rng.randrange(-(1 << 31), 1 << 31) for _ in range(N)]
    b = [rng.randrange(-(1 << 31), 1 << 31) for _ in range(N)]
    c = [(x + y + (1 << 31)) % (1 << 32) - (1 << 31) for x, y in zip(a, b)]
    enc = lambda v: b"".join(int(x).to_bytes(4, "little", signed=True) for x in v)
    good = Call(scalars={}, mem_in={0: enc(a), 1: enc(b), 2: bytes(4 * N)},
                mem_out={0: enc(a), 1: enc(b), 2: enc(c)}, ret=None)
    bad_c = list(c)
    bad_c[17] ^= 1 << 9
    bad = Call(scalars={}, mem_in=good.mem_in, mem_out={**good.mem_out, 2: enc(bad_c)}, ret=None)
    out = run_axi_cosim(res.verilog, res.interface, res.axi, [good, bad, good], seed=4,
                        workdir=tmp_path)
    assert [c.passed for c in out.calls] == [True, False, True], out.summary()
    (m,) = out.mismatches
    assert (m.call, m.arg, m.index) == (1, "c", 17)


def test_cosim_catches_wrong_order(tmp_path, monkeypatch):
    """With the compile-time proof bypassed, reading x backwards as a stream is caught at
    run time by the adapter (stream_error) and the co-simulation fails."""
    need_cocotb()
    import hls.flow
    from hls.verify import cosim
    monkeypatch.setattr(hls.flow, "stream_order_problem", lambda f, m: None)
    res = _synth("reverse_copy", ["x"])
    out = cosim(SRC, "reverse_copy", tb=SRC, synth=res, seed=5, max_cycles=5000,
                workdir=tmp_path)
    out.synth = None
    assert not out.passed
    assert "stream_error" in out.summary()
