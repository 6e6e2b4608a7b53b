"""Loop pipelining: dependence distances, modulo schedules (re-checked), and co-simulation
of pipelined loops against native execution, with their cycle counts against the
``trip_count x II + depth`` model."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from hls.cli import main as cli_main
from hls.analysis import find_loops, memory_dependences
from hls.flow import SynthOptions, synthesize
from hls.frontend import FrontendOptions, load
from hls.ir import parse_module, run_function
from hls.errors import ScheduleError
from hls.scheduling import check, check_loop_schedule
from hls.scheduling import op_timing
from hls.scheduling._pipeline import build_loop_model, check_loop_model
from hls.verify import cosim

KDIR = Path(__file__).resolve().parent / "kernels"
PIPE = KDIR / "pipe_loops.c"
DEPTH = {"0": 64, "1": 64, "2": 64}


def _ll(tmp_path, body: str) -> Path:
    p = tmp_path / "k.ll"
    p.write_text(body)
    return p


LOOP_LL = """
define void @k(ptr %a, i32 %n) {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %p0 = getelementptr inbounds i32, ptr %a, i32 %i
  %v0 = load i32, ptr %p0, align 4
  %j = add i32 %i, OFFSET
  %p1 = getelementptr inbounds i32, ptr %a, i32 %j
  store i32 %v0, ptr %p1, align 4
  %i1 = add nuw nsw i32 %i, STEP
  %c = icmp ult i32 %i1, 60
  br i1 %c, label %body, label %exit
exit:
  ret void
}
"""


@pytest.mark.parametrize("offset,step,expect", [
    (1, 1, {("store", "load"): 1, ("load", "store"): None}),   # a[i+1] = a[i]
    (2, 1, {("store", "load"): 2, ("load", "store"): None}),   # a[i+2] = a[i]
    (-1, 1, {("store", "load"): None, ("load", "store"): 1}),  # a[i-1] = a[i]: WAR
    (1, 2, {("store", "load"): None, ("load", "store"): None}),  # evens read, odds written
    (4, 2, {("store", "load"): 2, ("load", "store"): None}),
    (0, 1, {("store", "load"): None, ("load", "store"): None}),  # a[i] = a[i]
])
def test_memory_distances(tmp_path, offset, step, expect):
    ll = LOOP_LL.replace("OFFSET", str(offset)).replace("STEP", str(step))
    mod = load(_ll(tmp_path, ll), "k", FrontendOptions(depth={"a": 64}))
    f = mod.top
    (lp,) = find_loops(f)
    deps = {(d.src.kind, d.dst.kind): d.distance for d in memory_dependences(lp.header)}
    for key, dist in expect.items():
        assert deps.get(key) == dist, (key, deps)


def test_unknown_address_is_distance_one(tmp_path):
    ll = LOOP_LL.replace("%j = add i32 %i, OFFSET", "%j = load i32, ptr %a, align 4") \
        .replace("STEP", "1")
    mod = load(_ll(tmp_path, ll), "k", FrontendOptions(depth={"a": 64}))
    (lp,) = find_loops(mod.top)
    deps = {(d.src.kind, d.dst.kind): d.distance for d in memory_dependences(lp.header)}
    assert deps[("store", "load")] == 1 and deps[("load", "store")] == 1


@pytest.fixture(scope="module")
def synths():
    out = {}
    for top in ("reduce", "inplace", "shift2", "prefix", "hist", "nested", "divloop",
                "first_negative", "clip_count"):
        # automatic unrolling off: these check one pipelined loop's II, cycles and ops
        out[top] = synthesize(PIPE, SynthOptions(top=top, depth=DEPTH, auto_unroll=False))
    return out


def _loops(res):
    return [lp for lp in res.report["loops"] if lp["pipelined"]]


def test_every_pipeline_schedule_rechecked(synths):
    for top, res in synths.items():
        for f, fs in res.schedules.items():
            for b, pl in fs.pipelines.items():
                model = build_loop_model(b, res.target, pl.loop.trip_count, op_timing,
                                         pl.model.shared)
                assert model == pl.model  # rebuilt from the IR: the same problem
                check_loop_schedule(model, pl, res.target, op_timing)
                assert pl.ii >= pl.mii >= 1
                # the checker is not vacuous: one cycle less breaks a recurrence or a
                # resource whenever II > 1 is forced
                if pl.ii > 1 and pl.ii == pl.mii:
                    bad = dataclasses.replace(pl.schedule, ii=pl.ii - 1)
                    with pytest.raises(ScheduleError, match="edge|resource|timing|combinational"):
                        check(model.problem, bad)


def test_loop_model_cross_check(synths):
    """The IR-level check catches a problem that lost a dependence of its loop."""
    res = synths["prefix"]
    (pl,) = [pl for fs in res.schedules.values() for pl in fs.pipelines.values()]
    m = pl.model
    check_loop_model(m)
    data = [e for e in m.problem.edges if e.is_data]
    for drop in (data[0], data[-1]):
        edges = tuple(e for e in m.problem.edges if e != drop)
        broken = dataclasses.replace(m, problem=dataclasses.replace(m.problem, edges=edges))
        with pytest.raises(ScheduleError, match="without a data edge"):
            check_loop_model(broken)


def test_if_converted_loop(synths):
    res = synths["clip_count"]
    (lp,) = res.report["loops"]
    assert lp["pipelined"], lp
    stores = [op for op in res.module.top.ops() if op.kind == "store"]
    assert len(stores) == 2 and all("guard" in op.attrs for op in stores)
    r = cosim(PIPE, "clip_count", tb=PIPE, depth=DEPTH, pipeline=False)
    assert r.passed  # the branchy loop, not converted, agrees as well


def test_report_fields(synths):
    res = synths["reduce"]
    (lp,) = _loops(res)
    for k in ("ii", "mii", "res_mii", "rec_mii", "depth", "trip_count", "pipelined"):
        assert k in lp
    assert lp["ii"] == 1
    nested = synths["nested"].report["loops"]
    assert [lp["pipelined"] for lp in nested] == [False, True]
    assert nested[0]["not_pipelined_reason"] == "not an innermost loop"
    assert synths["shift2"].report["loops"][0]["res_mii"] == 2  # 3 accesses, 2 ports
    div = synths["divloop"]
    # one sequential divider per op (not pipelined: occupancy = latency, 10 at 32 bits, 10 ns)
    assert div.report["loops"][0]["ii"] >= div.target.timing("udiv", 32).occupancy == 10


@pytest.mark.parametrize("top", ["reduce", "inplace", "shift2", "prefix", "hist", "nested",
                                 "divloop", "first_negative", "clip_count"])
def test_pipelined_cosim(synths, top):
    r = cosim(PIPE, top, tb=PIPE, depth=DEPTH, synth=synths[top])
    assert r.passed, r.mismatches[:5]


@pytest.mark.parametrize("top", ["reduce", "inplace", "shift2", "hist"])
def test_cycles_follow_trip_count_times_ii(synths, top):
    """main() calls each kernel with n = 0, 1, 2, 7, 64: for a single loop, the cycles
    of two calls differ by exactly (difference of trip counts) x II."""
    res = synths[top]
    (lp,) = _loops(res)
    r = cosim(PIPE, top, tb=PIPE, depth=DEPTH, synth=res)
    assert r.passed
    cyc = [c.cycles for c in r.calls]
    first = 2 if top == "shift2" else 0  # shift2 starts at i = 2
    trips = [max(0, n - first) for n in (0, 1, 2, 7, 64)]
    ii = lp["ii"]
    for (c1, t1), (c2, t2) in zip(zip(cyc, trips), list(zip(cyc, trips))[1:]):
        if t1 >= 1 and t2 >= 1:
            assert c2 - c1 == (t2 - t1) * ii, (cyc, trips, ii)
    # and a loop run costs trip_count x II + depth plus a few cycles of entry/exit
    big = cyc[-1]
    assert trips[-1] * ii + lp["depth"] <= big <= trips[-1] * ii + lp["depth"] + 8


def test_unpipelined_flow_still_passes(synths):
    r = cosim(PIPE, "nested", tb=PIPE, depth=DEPTH, pipeline=False)
    assert r.passed
    assert not any(lp["pipelined"] for lp in r.synth.report["loops"])
    piped = cosim(PIPE, "nested", tb=PIPE, depth=DEPTH, synth=synths["nested"])
    assert piped.passed
    assert sum(c.cycles for c in piped.calls) < sum(c.cycles for c in r.calls)


# ---------------------------------------------------------------- directives
PRAGMAS = KDIR / "pragmas.c"
ADLER = Path(__file__).resolve().parent.parent / "examples" / "kernels" / "adler32_bytes.c"


def test_clang_loop_pragmas_are_honoured():
    res = synthesize(PRAGMAS, SynthOptions(top="f", depth={"a": 16, "b": 16}))
    first, second = res.report["loops"]
    assert first["pipelined"] and first["ii"] == 3 and first["requested_ii"] == 3
    assert first["mii"] == 1
    assert not second["pipelined"]
    assert second["not_pipelined_reason"] == "pipelining disabled by a directive"
    r = cosim(PRAGMAS, "f", tb=PRAGMAS, depth={"a": 16, "b": 16}, synth=res)
    assert r.passed, r.mismatches[:5]


def _adler_line():
    res = synthesize(ADLER, SynthOptions(top="adler32_bytes", depth={"buf": 400}))
    (lp,) = res.report["loops"]
    assert lp["mii"] == 2
    return lp["source_line"]


def test_directives_file_unmet_ii_is_an_error(tmp_path, capsys):
    line = _adler_line()
    d = tmp_path / "d.toml"
    d.write_text(f'[[loop]]\nfunction = "adler32_bytes"\nline = {line}\nii = 1\n')
    out = tmp_path / "o"
    argv = ["synth", str(ADLER), "--top", "adler32_bytes", "--depth", "buf=400",
            "--directives", str(d), "-o", str(out)]
    assert cli_main(argv) == 1
    err = capsys.readouterr().err
    assert f"adler32_bytes.c:{line}: error:" in err
    assert "the requested II=1 cannot be met: the MII is 2 (" in err and "--relax-ii" in err
    assert not out.exists()
    assert cli_main(argv + ["--relax-ii"]) == 0
    (lp,) = json.loads((out / "report.json").read_text())["loops"]
    assert lp["ii"] == 2 and lp["requested_ii"] == 1 and "MII is 2" in lp["ii_relaxed_because"]


def test_directives_file_json_and_errors(tmp_path, capsys):
    line = _adler_line()
    d = tmp_path / "d.json"
    d.write_text(json.dumps({"loop": [{"function": "adler32_bytes", "line": line,
                                       "pipeline": False}]}))
    res = synthesize(ADLER, SynthOptions(top="adler32_bytes", depth={"buf": 400},
                                         directives=str(d)))
    assert not res.report["loops"][0]["pipelined"]
    bad = tmp_path / "bad.toml"
    for text, msg in [('[[loop]]\nfunction = "f"\nline = 3\nunroll = "twice"\n', "'unroll' must be"),
                      ('[[loop]]\nline = 3\n', "'function'"),
                      ('[[loop]]\nfunction = "f"\n', "exactly one of 'line' and 'label'"),
                      ('[[loop]]\nfunction = "f"\nline = 3\nii = 0\n', "'ii' must be"),
                      ('[[loop\n', "malformed directives file")]:
        bad.write_text(text)
        rc = cli_main(["synth", str(ADLER), "--top", "adler32_bytes", "--depth", "buf=400",
                       "--directives", str(bad), "-o", str(tmp_path / "x")])
        err = capsys.readouterr().err
        assert rc == 1 and msg in err and err.startswith(str(bad)), err


def test_switch_in_loop_body_is_if_converted_and_pipelined():
    src = Path(__file__).resolve().parent / "kernels" / "switch_loop.c"
    r = cosim(src, "switch_loop", tb=src, depth={"in": 100, "out": 100}, profile_loops=True)
    assert r.passed, r.summary()
    (lp,) = r.synth.report["loops"]
    assert lp["pipelined"] and lp["ii"] == lp["mii"], lp
    (prof,) = r.loops
    assert prof.cycles == prof.model_cycles, prof


SPIN_HIR = """module @spin
source "spin.hir"
file 0 "spin.hir"

func @spin -> i32 loc=!0:1
  param %c: i32 index=0
  param %x: i32 index=1
^entry:
  %0:i1 = icmp %c, 12345:i32 {pred: "eq"} !0:2
  br -> ^loop !0:2
^loop:
BODY
^exit:
  %9:i32 = add %x, 1:i32 !0:4
  ret %9 !0:4
end
"""

# single-block loops with degenerate bodies (Csmith pointers seed 147: `lbl: ... goto lbl;`
# left a self-loop of one condbr on a loop-invariant condition, and the pipeliner crashed
# with "max() arg is an empty sequence")
DEGENERATE_BODIES = {
    "branch only": "  condbr %0 -> ^loop, ^exit !0:3",
    "phi only": "  %1:i32 = phi [^entry: %x], [^loop: %1] !0:3\n  condbr %0 -> ^loop, ^exit !0:3",
    "phi counter": ("  %1:i32 = phi [^entry: 0:i32], [^loop: %2] !0:3\n"
                    "  %2:i32 = add %1, 1:i32 !0:3\n"
                    "  %3:i1 = icmp %2, %c {pred: \"slt\"} !0:3\n"
                    "  condbr %3 -> ^loop, ^exit !0:3"),
}


@pytest.mark.parametrize("body", list(DEGENERATE_BODIES), ids=lambda k: k.replace(" ", "-"))
def test_degenerate_single_block_loops_schedule(tmp_path, body):
    """Every single-block loop shape gets a checked schedule or a stated reason, never a
    crash; the IR interpreter gives the function's meaning on the inputs that terminate."""
    p = tmp_path / "spin.hir"
    p.write_text(SPIN_HIR.replace("BODY", DEGENERATE_BODIES[body]))
    res = synthesize(p, SynthOptions(top="spin"))
    (loop,) = res.report["loops"]
    if body == "branch only":
        assert not loop["pipelined"] and "body is empty" in loop["not_pipelined_reason"]
    else:
        assert loop["pipelined"] or loop["not_pipelined_reason"]
    f = parse_module(p.read_text()).top
    assert run_function(f, {0: 7, 1: 41}).ret == 42
