"""Dataflow regions (``--dataflow``, ``[[dataflow]]``, ``annotate("pyhls_dataflow")``):
task graphs from plain code, channels chosen by analysis, the distributed controller and
its deadlock monitor (hls.dataflow, hls.rtl.DataflowRTL).

* the graph of each kernel of ``tests/dataflow`` and ``examples/kernels/dataflow_img.c``:
  tasks, channel kinds (FIFO only where the stream proof holds at both ends), depths
  (a whole frame on reconvergent paths), port directions;
* the stream proof over loop nests: row-major nests are streams; column-major, backwards,
  guarded and imperfect nests are not;
* the rules: two producers, a task reading an output of a later task and a conditional
  call are ``file:line: error:`` with exit status 1 and nothing written;
* co-simulation against native execution of every kernel with ``--dataflow`` (the
  region's cycles within 15 % above the throughput bound, and fewer than without
  ``--dataflow`` where frames overlap), the source marker and the directive;
* a reconvergent graph whose channel ``a`` must hold a frame runs with automatic sizing
  and, forced to depth 2, stops with the deadlock report and its wait-for cycle.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hls.analysis import stream_elements, stream_order_problem
from hls.cli import main
from hls.dataflow import extract_graph, choose_channels
from hls.errors import CosimError
from hls.flow import SynthOptions, _load, lower_module, synthesize
from hls.frontend import read_input
from hls.targets import PLAIN
from hls.verify import cosim

ROOT = Path(__file__).resolve().parent.parent
DF = Path(__file__).parent / "dataflow"
IMG = ROOT / "examples" / "kernels" / "dataflow_img.c"

#: kernel -> (file, depths)
KERNELS = {
    "dataflow_img": (IMG, {"img": 256, "mask": 8, "count": 1}),
    "df_chain4": (DF / "df_chain4.c", {"in": 512, "out": 512}),
    "df_forkjoin": (DF / "df_forkjoin.c", {"in": 512, "out": 512}),
    "df_sepfilt": (DF / "df_sepfilt.c", {"img": 768, "out": 768}),
    "df_twice": (DF / "df_twice.c", {"in": 384, "out": 384}),
    "df_reconv": (DF / "df_reconv.c", {"in": 32, "out": 32}),
    "df_rates": (DF / "df_rates.c", {"in": 64, "o1": 64, "o2": 64}),
    "df_nframes": (DF / "df_nframes.c", {"in": 128, "out": 128}),
}


def _graph(top: str, directives=None):
    src, depth = KERNELS[top]
    opts = SynthOptions(top=top, depth=depth, dataflow=(top,))
    mod = _load(src, opts, read_input(src, cflags=("-fno-unroll-loops",)))
    lower_module(mod, opts, None, PLAIN, keep=frozenset())
    region = next(f for f in mod.functions if f.name == top)
    g = extract_graph(mod, region)
    choose_channels(g, directives)
    return g


# ----------------------------------------------------------------------------- graphs

def test_graph_dataflow_img():
    g = _graph("dataflow_img")
    assert [t.name for t in g.tasks] == ["df_center", "df_hpass", "df_pack",
                                         "df_pack_to_count"]
    assert g.frames == 1
    kinds = {c.name: c.kind for c in g.channels}
    # df_hpass reads `centered` three times per pixel: a ping-pong buffer; `edge` is
    # written and read once per element in order through loop nests: a FIFO
    assert kinds == {"centered": "pipo", "edge": "fifo"}
    assert "read by 3 operations" in g.channel("centered").why
    assert [(s.producer.name, [t.name for t in s.consumers]) for s in g.scalars] == [
        ("df_pack", ["df_pack_to_count"])]
    dirs = {p.mem.name: p.direction for p in g.ports}
    assert dirs == {"img": "in", "mask": "out", "count": "out"}


def test_graph_reconvergent_depths():
    g = _graph("df_reconv")
    assert g.frames == 1
    a, b, c = (g.channel(n) for n in ("a", "b", "c"))
    assert (b.kind, b.depth) == ("pipo", 2)
    assert "advances by -1" in b.why
    # `a` and `c` lie on the cycle src -> a -> join <- c <- mid <- b <- src: whole frames
    assert (a.kind, a.depth) == ("fifo", 32) and (c.kind, c.depth) == ("fifo", 32)
    g2 = _graph("df_chain4")
    assert [(c.kind, c.depth) for c in g2.channels] == [("fifo", 2)] * 3


def test_graph_same_function_twice():
    g = _graph("df_twice")
    assert [t.name for t in g.tasks] == ["tw_scale_0", "tw_mix", "tw_scale_1"]
    assert g.tasks[0].function is g.tasks[2].function


def test_graph_sepfilt_column_major_is_pipo():
    g = _graph("df_sepfilt")
    t = g.channel("t")
    assert t.kind == "pipo"


# ----------------------------------------------------------------------------- streams

NESTS = r"""
#include <stdint.h>
#define R 6
#define C 8
void row_major(const int32_t *a, int32_t *o)
{ for (int r = 0; r < R; r++) for (int c = 0; c < C; c++) o[r * C + c] = a[r * C + c] + 1; }
void col_major(const int32_t *a, int32_t *o)
{ for (int c = 0; c < C; c++) for (int r = 0; r < R; r++) o[r * C + c] = a[r * C + c] + 1; }
void backwards(const int32_t *a, int32_t *o)
{ for (int i = 0; i < R * C; i++) o[i] = a[R * C - 1 - i]; }
void skips_rows(const int32_t *a, int32_t *o, int32_t k)
{ for (int r = 0; r < R; r++) { if (r == k) continue;
    for (int c = 0; c < C; c++) o[r * C + c] = a[r * C + c]; } }
void row_gap(const int32_t *a, int32_t *o)
{ for (int r = 0; r < R; r++) for (int c = 0; c < C; c++) o[r * (C + 1) + c] = a[r * C + c]; }
void three_deep(const int16_t *a, int16_t *o)
{ for (int p = 0; p < 4; p++) for (int r = 0; r < 3; r++) for (int c = 0; c < 5; c++)
    o[(p * 3 + r) * 5 + c] = (int16_t)(a[(p * 3 + r) * 5 + c] * 3); }
"""


@pytest.mark.parametrize("fn, arg, why, n", [
    ("row_major", "a", None, 48),
    ("row_major", "o", None, 48),
    ("three_deep", "a", None, 60),
    ("three_deep", "o", None, 60),
    ("col_major", "a", "advances by 8 per iteration, not 1", None),
    ("col_major", "o", "advances by 8 per iteration, not 1", None),
    ("backwards", "a", "advances by -1", None),
    ("skips_rows", "o", "branches around its inner loop", None),
    ("row_gap", "o", "not 8 (the elements its inner loop covers)", None),
])
def test_stream_proof_over_nests(tmp_path, fn, arg, why, n):
    src = tmp_path / "nests.c"
    src.write_text(NESTS)
    opts = SynthOptions(top=fn, depth={"a": 60, "o": 60}, auto_unroll=False)
    mod = _load(src, opts, read_input(src))
    lower_module(mod, opts, None, PLAIN, keep=frozenset())
    f = mod.top
    mem = next(p.mem for p in f.ptr_params if p.name == arg)
    got = stream_order_problem(f, mem)
    if why is None:
        assert got is None
        assert stream_elements(f, mem) == n
    else:
        assert got is not None and why in got, got


# ----------------------------------------------------------------------------- rules

@pytest.mark.parametrize("name, line, expect", [
    ("bad_two_producers.c", 9, "channel 't' has two producers: @fill (line 8), @fill (line 9)"),
    ("bad_reads_later.c", 8, "task use reads channel 't' before its producer make (line 9) "
                             "writes it (a task reading an output of a later task)"),
    ("bad_conditional.c", 10, "the call of @use is conditional"),
    ("bad_step.c", 8, "the frames loop must count by 1 from a constant to a bound"),
])
def test_rejected_regions(name, line, expect, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(DF)
    out = tmp_path / "out"
    text = (DF / name).read_text()      # --depth only for the top's own arguments
    depth = [a for n in ("o", "in") if f"*{n}" in text for a in ("--depth", f"{n}=16")]
    rc = main(["synth", name, "--top", "top", "--dataflow", *depth, "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 1, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert re.fullmatch(re.escape(name) + f":{line}: error: .+", lines[0]), lines[0]
    assert expect in lines[0], lines[0]
    assert not out.exists()


def test_channel_directive_errors(tmp_path):
    src, depth = KERNELS["df_sepfilt"]
    d = tmp_path / "d.toml"
    d.write_text('[[channel]]\nfunction = "df_sepfilt"\nname = "t"\nkind = "fifo"\n')
    with pytest.raises(Exception, match="channel 't' of @df_sepfilt cannot be a FIFO: in "
                                        "sf_rows"):
        synthesize(src, SynthOptions(top="df_sepfilt", depth=depth, dataflow=("df_sepfilt",),
                                     directives=str(d)))
    d.write_text('[[channel]]\nfunction = "df_sepfilt"\nname = "nosuch"\ndepth = 4\n')
    with pytest.raises(Exception, match="'nosuch', which is not a channel of dataflow "
                                        r"region @df_sepfilt \(its channels: t\)"):
        synthesize(src, SynthOptions(top="df_sepfilt", depth=depth, dataflow=("df_sepfilt",),
                                     directives=str(d)))
    d.write_text('[[channel]]\nfunction = "df_sepfilt"\nname = "t"\nkind = "pipo"\ndepth = 4\n')
    with pytest.raises(Exception, match="a PIPO channel.s banks follow from the graph"):
        synthesize(src, SynthOptions(top="df_sepfilt", depth=depth, dataflow=("df_sepfilt",),
                                     directives=str(d)))


# ----------------------------------------------------------------------------- co-simulation

def _cosim(top: str, dataflow=True, directives=None, **kw):
    monitor = dataflow or directives is not None
    src, depth = KERNELS[top]
    res = synthesize(src, SynthOptions(top=top, depth=depth,
                                       dataflow=(top,) if dataflow else (),
                                       dataflow_monitor=monitor, directives=directives, **kw))
    return res, cosim(src, top, tb=src, depth=depth, synth=res)


@pytest.mark.parametrize("top", list(KERNELS))
def test_cosim_dataflow(top):
    res, got = _cosim(top)
    assert got.passed, got.summary()
    rep = res.report["dataflow"]
    calls = len(got.calls)
    per_call = got.total_cycles / calls
    bound = rep["throughput_bound_cycles"]
    if bound is None:       # frames counted to an argument: the calls' cycles vary
        assert top == "df_nframes" and rep["frames"] == "n - 0"
        return
    # within 15 % above the bound of the static schedules (FIFO channels overlap tasks
    # inside a frame, so a region may beat it)
    assert per_call <= 1.15 * bound, (per_call, bound)
    assert {t["name"] for t in rep["tasks"]} == {t.name for t in
                                                  res.rtl.core.g.tasks}
    for ch in rep["channels"]:
        assert ch["kind"] in ("fifo", "pipo") and ch["depth"] >= 1 and ch["bits"] > 0


@pytest.mark.parametrize("top", ["df_chain4", "df_forkjoin"])
def test_dataflow_beats_sequential(top):
    _, seq = _cosim(top, dataflow=False)
    _, df = _cosim(top)
    assert seq.passed and df.passed
    assert df.total_cycles < 0.7 * seq.total_cycles, (df.total_cycles, seq.total_cycles)


def test_source_marker_and_directive(tmp_path):
    src = DF / "df_annotated.c"
    res = synthesize(src, SynthOptions(top="df_annotated", depth={"in": 128, "out": 128}))
    assert res.report["dataflow"]["tasks"][0]["name"] == "an_sq"
    got = cosim(src, "df_annotated", tb=src, depth={"in": 128, "out": 128}, synth=res)
    assert got.passed, got.summary()
    d = tmp_path / "d.toml"
    d.write_text('[[dataflow]]\nfunction = "df_twice"\n')
    s2, depth = KERNELS["df_twice"]
    res = synthesize(s2, SynthOptions(top="df_twice", depth=depth, directives=str(d)))
    assert [t["name"] for t in res.report["dataflow"]["tasks"]] == [
        "tw_scale_0", "tw_mix", "tw_scale_1"]


def test_deadlock_reported_with_its_cycle(tmp_path):
    d = tmp_path / "d.toml"
    d.write_text('[[channel]]\nfunction = "df_reconv"\nname = "a"\ndepth = 2\n')
    with pytest.raises(CosimError) as ei:
        _cosim("df_reconv", directives=str(d))
    msg = ei.value.message
    assert msg.startswith("deadlock in dataflow region df_reconv"), msg
    cycle = msg.split("the wait-for cycle:")[1]
    assert "rc_src (" in cycle and "waits for rc_join: channel a (fifo) is FULL" in cycle
    assert "waits for rc_mid: channel c (fifo) is EMPTY" in cycle
    assert "waits for rc_src: channel b (pipo) is EMPTY" in cycle
    assert re.search(r"df_reconv\.c:3[789]\)", cycle)


def test_deadlock_cli(tmp_path, capsys):
    d = tmp_path / "d.toml"
    d.write_text('[[channel]]\nfunction = "df_reconv"\nname = "a"\ndepth = 2\n')
    src = str(KERNELS["df_reconv"][0])
    rc = main(["cosim", src, "--top", "df_reconv", "--tb", src, "--dataflow",
               "--depth", "in=32", "--depth", "out=32", "--directives", str(d),
               "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert rc == 1
    assert "Traceback" not in err
    assert re.search(r"df_reconv\.c:\d+: error: deadlock in dataflow region df_reconv", err)


def test_deterministic():
    src, depth = KERNELS["df_forkjoin"]
    opts = SynthOptions(top="df_forkjoin", depth=depth, dataflow=("df_forkjoin",))
    a, b = synthesize(src, opts), synthesize(src, opts)
    assert a.verilog == b.verilog
    a.report.pop("time_s")
    b.report.pop("time_s")
    assert a.report == b.report


# ----------------------------------------------------------------------------- task graphs

def test_task_graph_cosim():
    src, graph = DF / "tg_stages.c", DF / "tg_pipe.json"
    res = synthesize(src, SynthOptions(top="tg_pipe", task_graph=str(graph),
                                       dataflow_monitor=True))
    rep = res.report["dataflow"]
    assert rep["frames"] == 6
    assert [t["name"] for t in rep["tasks"]] == ["tg_scale", "tg_diff", "tg_emit"]
    # tg_diff reads `t` backwards: a ping-pong buffer; `u` is a FIFO or, with its tasks'
    # loops unrolled, a ping-pong buffer, whichever the region estimate prefers
    kinds = {c["name"]: c["kind"] for c in rep["channels"]}
    assert kinds["t"] == "pipo" and set(kinds) == {"t", "u"}
    got = cosim(src, "tg_pipe", synth=res)
    assert got.passed, got.summary()


@pytest.mark.parametrize("edit, expect", [
    (lambda g: g["tasks"][1].update(function="nosuch"),
     "tasks[1]: 'nosuch' is not a function defined in the input module"),
    (lambda g: g["tasks"][1]["args"].pop(),
     "tasks[1]: @tg_diff takes 2 argument(s), the task gives 1"),
    (lambda g: g["tasks"][0]["args"].__setitem__(2, {"buffer": "t"}),
     "tasks[0].args[2]: @tg_scale's parameter 2 is i32, not a pointer"),
    (lambda g: g["tasks"][0]["args"].__setitem__(0, {"port": "nope"}),
     "tasks[0].args[0]: 'nope' is not a port of the graph"),
    (lambda g: g.update(frames=0), "'frames' must be an integer >= 1"),
    (lambda g: g["buffers"].append({"name": "t", "element": "i32", "elements": 4}),
     "buffers[2]: 't' is defined twice"),
])
def test_task_graph_errors(tmp_path, capsys, edit, expect):
    import json
    g = json.loads((DF / "tg_pipe.json").read_text())
    edit(g)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(g))
    out = tmp_path / "out"
    rc = main(["synth", str(DF / "tg_stages.c"), "--top", "tg_pipe", "--task-graph", str(path),
               "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" not in err
    assert err.startswith(f"{path}: error: task graph: "), err
    assert expect in err, err
    assert not out.exists()


def test_cosim_alveo():
    """A dataflow top on --target alveo: its ports are m_axi masters (with random AXI
    stalls freezing the whole region), scalars in s_axi_control; cocotb against native
    execution."""
    from helpers import need_cocotb
    need_cocotb()
    src = DF / "df_annotated.c"
    depth = {"in": 128, "out": 128}
    res = synthesize(src, SynthOptions(top="df_annotated", target="alveo", depth=depth))
    assert res.report["dataflow"]["tasks"][1]["name"] == "an_acc"
    got = cosim(src, "df_annotated", tb=src, depth=depth, target="alveo", synth=res)
    assert got.passed, got.summary()


def test_shared_accelerator(tmp_path):
    """Two calls of one function on one accelerator: the resource manager gives it to
    one task at a time (the older frame first); the design co-simulates, its channels
    are ping-pong buffers (a task holding a shared core never waits on a FIFO), and the
    bound counts both calls in the instance's interval."""
    d = tmp_path / "d.toml"
    d.write_text('[[dataflow]]\nfunction = "df_twice"\nshare = ["tw_scale"]\n')
    res, got = _cosim("df_twice", dataflow=False, directives=str(d))
    assert got.passed, got.summary()
    rep = res.report["dataflow"]
    assert rep["instances"] == [{"function": "tw_scale", "tasks": ["tw_scale_0", "tw_scale_1"]},
                                {"function": "tw_mix", "tasks": ["tw_mix"]}]
    assert {c["kind"] for c in rep["channels"]} == {"pipo"}
    lat = {t["name"]: t["latency"] for t in rep["tasks"]}
    assert rep["max_interval"] >= lat["tw_scale_0"] + lat["tw_scale_1"]
    assert got.total_cycles / len(got.calls) <= 1.15 * rep["throughput_bound_cycles"]
    # by default a small function is replicated
    res2 = synthesize(KERNELS["df_twice"][0], SynthOptions(
        top="df_twice", depth=KERNELS["df_twice"][1], dataflow=("df_twice",)))
    assert len(res2.report["dataflow"]["instances"]) == 3
    d.write_text('[[dataflow]]\nfunction = "df_twice"\nshare = ["nosuch"]\n')
    with pytest.raises(Exception, match="names 'nosuch' in share/replicate, which no task"):
        _cosim("df_twice", dataflow=False, directives=str(d))


def test_fifo_sized_from_schedules(tmp_path):
    """df_rates (rolled loops): the split writes one element per cycle, the slow
    consumer reads one per divider latency; the FIFO between them is sized from the two
    schedules to what the split writes ahead, so the split (and the fast branch and long
    stage behind it) runs at full speed: as fast as with a whole-frame FIFO, and faster
    than with depth 2, where the split is held to the slow consumer's pace."""
    res, sized = _cosim("df_rates", auto_unroll=False)
    assert sized.passed, sized.summary()
    ch = {c["name"]: c for c in res.report["dataflow"]["channels"]}
    assert ch["x"]["kind"] == "fifo" and 32 <= ch["x"]["depth"] < 64, ch["x"]
    assert ch["y"]["kind"] == "fifo" and ch["y"]["depth"] <= 4, ch["y"]
    d = tmp_path / "d.toml"
    cycles = {}
    for depth in (2, 64):
        d.write_text(f'[[channel]]\nfunction = "df_rates"\nname = "x"\ndepth = {depth}\n')
        _, got = _cosim("df_rates", directives=str(d), auto_unroll=False)
        assert got.passed, got.summary()
        cycles[depth] = got.total_cycles
    assert sized.total_cycles <= cycles[64] + 2, (sized.total_cycles, cycles)
    assert cycles[2] > sized.total_cycles * 1.05, (sized.total_cycles, cycles)


def test_unrolling_weighed_against_fifos():
    """With automatic unrolling, the flow keeps whichever plan its region estimate says
    is faster: df_chain4's four balanced stages over one frame keep their FIFOs (they
    overlap), df_rates unrolls its slow divider loop (ping-pong channels)."""
    res, got = _cosim("df_rates")
    assert got.passed
    assert {c["kind"] for c in res.report["dataflow"]["channels"]} == {"pipo"}
    _, seq = _cosim("df_rates", dataflow=False)
    assert got.total_cycles < seq.total_cycles
    src, depth = KERNELS["df_chain4"]
    one = synthesize(src, SynthOptions(top="df_chain4", depth={"in": 64, "out": 64},
                                       cflags=("-DFRAMES=1",), dataflow=("df_chain4",)))
    assert {c["kind"] for c in one.report["dataflow"]["channels"]} == {"fifo"}


def test_region_called_by_a_plain_top():
    src = DF / "df_callee_region.c"
    depth = {"in": 64, "o": 64}
    res = synthesize(src, SynthOptions(top="top", depth=depth))
    assert res.report["dataflow"]["region"] == "region"
    got = cosim(src, "top", tb=src, depth=depth, synth=res)
    assert got.passed, got.summary()
