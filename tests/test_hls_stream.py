"""pyhls's ``hls_stream.h``: ``hls::stream<T>`` natively an unbounded queue (the testbench
and the golden model), in synthesis a FIFO channel between dataflow tasks (depth from
``#pragma HLS stream``), a BRAM-style port of its elements in order as an argument of
the top (AXI4-Stream on Alveo), and what cannot be built that way a ``file:line``
error (hls.frontend._streams)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import need_cocotb

from hls.cli import main

CXX = Path(__file__).parent / "cxx"
#: a top reading four elements of a stream argument (its testbench gives fewer, or reads
#: natively with read_nb)
SUM4 = """#include <hls_stream.h>
int sum4(hls::stream<int> &in) {
    int s = 0;
    for (int i = 0; i < 4; i++) s += in.read();
    return s;
}
"""


def _run(argv, capsys) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def test_stream_channels_of_a_dataflow_region(tmp_path, capsys):
    """Three tasks joined by two hls::streams (int, ap_uint<12>), the testbench in the same
    file: co-simulates with --top and --tb only; both channels are FIFOs, one of the
    pragma's depth, the other sized from the schedules."""
    k = CXX / "stream_dataflow.cpp"
    out = tmp_path / "out"
    rc, so, err = _run(["cosim", k, "--top", "stream_dataflow", "--tb", k, "-o", out], capsys)
    assert rc == 0, err
    assert "co-simulation of stream_dataflow: 2 call(s)" in so and "PASSED" in so
    r = json.loads((out / "report.json").read_text())
    ch = {c["name"]: c for c in r["dataflow"]["channels"]}
    assert set(ch) == {"raw", "scaled"}
    assert ch["raw"]["kind"] == "fifo" and ch["raw"]["depth"] == 4 and ch["raw"]["stream"]
    assert "depth asked for (line 32)" in ch["raw"]["why"]
    assert ch["scaled"]["kind"] == "fifo" and ch["scaled"]["width"] == 16
    assert [t["function"] for t in r["dataflow"]["tasks"]] == ["read_in", "scale", "write_out"]
    (p,) = [p for p in r["pragmas"] if p["pragma"].startswith("stream")]
    assert p["applied"] and (p["channel"], p["depth"]) == ("raw", 4)


def test_stream_channel_in_a_frames_loop(tmp_path, capsys, monkeypatch):
    """A region looping over frames: each frame's tasks write and read the stream from
    its first element again, as the queue does when each frame moves all it writes."""
    monkeypatch.chdir(tmp_path)
    Path("fr.cpp").write_text("""#include <hls_stream.h>
#define N 8
static void a(const int *in, hls::stream<int> &s) { for (int i = 0; i < N; i++) s.write(in[i] * 5); }
static void b(hls::stream<int> &s, int *out) { for (int i = 0; i < N; i++) out[i] = s.read() - 1; }
void fr(const int in[4 * N], int out[4 * N]) {
#pragma HLS dataflow
    hls::stream<int> s("s");
    for (int f = 0; f < 4; f++) {
        a(in + f * N, s);
        b(s, out + f * N);
    }
}
int main() {
    int in[4 * N], out[4 * N];
    for (int i = 0; i < 4 * N; i++) in[i] = i * 3 - 11;
    fr(in, out);
    int bad = 0;
    for (int i = 0; i < 4 * N; i++) bad += out[i] != (i * 3 - 11) * 5 - 1;
    return bad;
}
""")
    rc, so, err = _run(["cosim", "fr.cpp", "--top", "fr", "--tb", "fr.cpp", "-o", "o"], capsys)
    assert rc == 0, err
    r = json.loads(Path("o/report.json").read_text())
    assert r["dataflow"]["frames"] == 4
    assert [(c["name"], c["kind"]) for c in r["dataflow"]["channels"]] == [("s", "fifo")]


def test_stream_memories_in_the_ir_text():
    """The IR text marks stream memories and reads them back."""
    from hls.flow import SynthOptions, ir_module
    from hls.ir import parse_module, print_module
    k = CXX / "stream_dataflow.cpp"
    text = print_module(ir_module(k, SynthOptions(top="stream_dataflow"), "frontend"))
    assert re.search(r"^memory &\S+ local word=4 depth=48 .*\bstream\b", text, re.M), text
    assert print_module(parse_module(text)) == text


def test_stream_arguments_of_the_top(tmp_path, capsys):
    """hls::stream arguments on the generic target: each call sees the elements waiting
    in the testbench's input queue and appends to its output queue; random stimulus
    builds the queues."""
    k = CXX / "stream_args.cpp"
    rc, so, err = _run(["cosim", k, "--top", "stream_scale", "--tb", k, "-o",
                        tmp_path / "a"], capsys)
    assert rc == 0, err
    assert "co-simulation of stream_scale: 2 call(s)" in so and "PASSED" in so
    rc, so, err = _run(["cosim", k, "--top", "stream_scale", "--runs", "2", "-o",
                        tmp_path / "b"], capsys)
    assert rc == 0, err
    assert "PASSED" in so


def test_stream_ports_of_a_region(tmp_path, capsys):
    """The Vitis pattern: stream arguments read and written by the tasks of a dataflow
    region, a stream channel between them."""
    k = CXX / "stream_ports.cpp"
    rc, so, err = _run(["cosim", k, "--top", "stream_ports", "--tb", k, "-o", tmp_path / "a"],
                       capsys)
    assert rc == 0, err
    assert "co-simulation of stream_ports: 2 call(s)" in so and "PASSED" in so
    r = json.loads((tmp_path / "a" / "report.json").read_text())
    assert [(c["name"], c["kind"]) for c in r["dataflow"]["channels"]] == [("mid", "fifo")]
    assert [(p["name"], p["direction"]) for p in r["dataflow"]["ports"]] == [
        ("in", "in"), ("out", "out")]


def test_stream_ports_alveo_axis(tmp_path, capsys):
    """On --target alveo the region's stream arguments are AXI4-Stream interfaces (cocotb,
    random stalls)."""
    need_cocotb()
    k = CXX / "stream_ports.cpp"
    rc, so, err = _run(["cosim", k, "--top", "stream_ports", "--tb", k, "--target", "alveo",
                        "-o", tmp_path / "a"], capsys)
    assert rc == 0, err
    assert "PASSED" in so
    r = json.loads((tmp_path / "a" / "report.json").read_text())
    assert [(s["name"], s["direction"], s["data_width"]) for s in r["axi"]["streams"]] == [
        ("in", "in", 32), ("out", "out", 32)]


def test_reading_an_empty_stream_is_reported(tmp_path, capsys, monkeypatch):
    """The testbench gives fewer elements than the top reads: the native run warns as
    Vitis HLS does, and co-simulation shows it."""
    monkeypatch.chdir(tmp_path)
    Path("k.cpp").write_text(SUM4)
    Path("tb.cpp").write_text(
        "#include <hls_stream.h>\n"
        "int sum4(hls::stream<int> &in);\n"
        "int main() {\n"
        "    hls::stream<int> a(\"a\");\n"
        "    a << 5; a << 6;\n"
        "    return sum4(a) != 11;\n"
        "}\n")
    rc, so, err = _run(["cosim", "k.cpp", "--top", "sum4", "--tb", "tb.cpp", "-o", "o"],
                       capsys)
    assert rc == 0, err
    assert "WARNING: hls::stream 'a' is read while empty" in so


def test_non_blocking_accesses_in_the_testbench(tmp_path, capsys, monkeypatch):
    """read_nb/write_nb/full natively (the testbench): a read of an empty stream fails
    and leaves its argument, a write succeeds, a stream is never full; the design reads
    with read()."""
    monkeypatch.chdir(tmp_path)
    Path("k.cpp").write_text(SUM4)
    Path("tb.cpp").write_text(
        "#include <hls_stream.h>\n"
        "#include <stdio.h>\n"
        "int sum4(hls::stream<int> &in);\n"
        "int main() {\n"
        "    hls::stream<int> a(\"a\");\n"
        "    int v = 7;\n"
        "    bool got = a.read_nb(v);\n"
        "    printf(\"empty %d %d\\n\", got, v);\n"
        "    for (int i = 1; i <= 4; i++) if (!a.write_nb(i)) return 1;\n"
        "    int s = sum4(a);\n"
        "    a.write_nb(9);\n"
        "    got = a.read_nb(v);\n"
        "    printf(\"sum %d then %d %d\\n\", s, got, v);\n"
        "    got = a.read_nb(v);\n"
        "    printf(\"after %d %d size %d full %d\\n\", got, v, (int)a.size(), "
        "(int)a.full());\n"
        "    return 0;\n"
        "}\n")
    rc, so, err = _run(["cosim", "k.cpp", "--top", "sum4", "--tb", "tb.cpp", "-o", "o"],
                       capsys)
    assert rc == 0, err
    assert "PASSED" in so
    for line in ("| empty 0 7", "| sum 10 then 1 9", "| after 0 9 size 0 full 0"):
        assert line in so, so


def test_pragma_depth_too_small_deadlocks_and_the_monitor_says_so(tmp_path, capsys,
                                                                   monkeypatch):
    """Two streams from one task to another, the first written whole before the second:
    at the pragma's depth 2 the region deadlocks, and the monitor names the cycle."""
    monkeypatch.chdir(tmp_path)
    Path("dl.cpp").write_text("""#include <hls_stream.h>
#define N 32
static void split(const int in[N], hls::stream<int> &lo, hls::stream<int> &hi) {
    for (int i = 0; i < N; i++) lo.write(in[i] & 0xffff);
    for (int i = 0; i < N; i++) hi.write(in[i] >> 16);
}
static void merge(hls::stream<int> &lo, hls::stream<int> &hi, int out[N]) {
    for (int i = 0; i < N; i++) out[i] = lo.read() + 3 * hi.read();
}
void dl(const int in[N], int out[N]) {
#pragma HLS dataflow
    hls::stream<int> lo("lo"), hi("hi");
#pragma HLS stream variable=lo depth=2
    split(in, lo, hi);
    merge(lo, hi, out);
}
int main() {
    int in[N], out[N];
    for (int i = 0; i < N; i++) in[i] = i * 65537;
    dl(in, out);
    return 0;
}
""")
    rc, so, err = _run(["cosim", "dl.cpp", "--top", "dl", "--tb", "dl.cpp", "-o", "o"],
                       capsys)
    assert rc == 1 and "Traceback" not in err, err
    assert re.search(r"dl\.cpp:10: error: deadlock in dataflow region dl", err), err
    assert "channel lo (fifo) is FULL" in err and "channel hi (fifo) is EMPTY" in err


# --------------------------------------------------------------------------- errors

_TASKS = """#include <hls_stream.h>
static void a(const int *in, hls::stream<int> &s) { for (int i = 0; i < 8; i++) s.write(in[i]); }
static void b(hls::stream<int> &s, int *out) { for (int i = 0; i < 8; i++) out[i] = s.read(); }
static void b4(hls::stream<int> &s, int *out) { for (int i = 0; i < 4; i++) out[i] = s.read(); }
"""

BAD = [
    ("unknown_variable.cpp", _TASKS + """void f(const int in[8], int out[8]) {
#pragma HLS dataflow
    hls::stream<int> s;
#pragma HLS stream variable=t depth=4
    a(in, s);
    b(s, out);
}
""", 8, "#pragma HLS stream variable=t depth=4: f(int const*, int*) has no variable 't'"),
    ("not_a_stream.cpp", _TASKS + """void f(const int in[8], int out[8], int n) {
#pragma HLS dataflow
    hls::stream<int> s;
#pragma HLS stream variable=n depth=4
    a(in, s);
    b(s, out);
}
""", 8, "'n' is neither an hls::stream nor an array (it is int)"),
    ("two_consumers.cpp", _TASKS + """void f(const int in[8], int out[4], int out2[4]) {
#pragma HLS dataflow
    hls::stream<int> s;
    a(in, s);
    b4(s, out);
    b4(s, out2);
}
""", 7, "hls::stream 's' of @f(int const*, int*, int*) cannot be a FIFO channel between its "
        "tasks: it has 2 consumers (a FIFO has one)"),
    ("counts.cpp", _TASKS + """void f(const int in[8], int out[4]) {
#pragma HLS dataflow
    hls::stream<int> s;
    a(in, s);
    b4(s, out);
}
""", 7, "writes 8 elements but b4(hls::stream<int>&, int*) reads 4"),
    ("empty.cpp", """#include <hls_stream.h>
void f(hls::stream<int> &in, int out[8]) {
    int n = 0;
    while (!in.empty() && n < 8)
        out[n++] = in.read();
}
""", 4, "hls::stream::empty() has no hardware meaning in pyhls"),
    ("read_nb.cpp", """#include <hls_stream.h>
void f(hls::stream<int> &in, int out[8]) {
    for (int i = 0; i < 8; i++) {
        int v = -1;
        in.read_nb(v);
        out[i] = v;
    }
}
""", 5, "hls::stream::read_nb() is not synthesised: pyhls builds a stream as in-order "
        "accesses of its elements"),
    ("full.cpp", """#include <hls_stream.h>
void f(const int in[8], hls::stream<int> &out) {
    for (int i = 0; i < 8; i++)
        if (!out.full()) out.write(in[i]);
}
""", 4, "hls::stream::full() has no hardware meaning in pyhls"),
    ("write_nb.cpp", """#include <hls_stream.h>
void f(const int in[8], hls::stream<int> &out) {
    for (int i = 0; i < 8; i++)
        if (!out.write_nb(in[i])) break;
}
""", 4, "hls::stream::write_nb() is not synthesised"),
    ("shared.cpp", """#include <hls_stream.h>
static void g(hls::stream<int> &s, int *out) {
#pragma HLS inline off
    for (int i = 0; i < 4; i++) out[i] = s.read();
}
void f(hls::stream<int> &in, int out[8]) {
    g(in, out);
    g(in, out + 4);
}
""", 7, "an hls::stream passed to g(hls::stream<int>&, int*), which is not inlined, outside "
        "the tasks of a dataflow region"),
    ("read_write.cpp", """#include <hls_stream.h>
void f(hls::stream<int> &s) {
    for (int i = 0; i < 8; i++) {
        int v = s.read();
        s.write(v + 1);
    }
}
""", 2, "hls::stream argument 's' of f(hls::stream<int>&) is both read and written"),
    ("wide.cpp", """#include <hls_stream.h>
struct rgb { int r, g, b; };
void f(hls::stream<rgb> &in, int out[8]) {
    for (int i = 0; i < 8; i++) { rgb p = in.read(); out[i] = p.r + p.g + p.b; }
}
""", 4, "an hls::stream of 12-byte elements: pyhls synthesises streams of elements of 1, 2, "
        "4 or 8 bytes"),
    ("uncounted.cpp", """#include <hls_stream.h>
void f(hls::stream<int> &in, int out[64], int n) {
    for (int i = 0; i < n; i++) out[i] = in.read();
}
""", 2, "hls::stream argument 'in' of f(hls::stream<int>&, int*, int): the number of "
        "elements it reads or writes per call is not a constant: give the most with "
        "--depth in=N"),
]


@pytest.mark.parametrize("name,src,line,expect", BAD, ids=[b[0] for b in BAD])
def test_bad_streams(name, src, line, expect, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path(name).write_text(src)
    argv = ["synth", name, "--top", "f", "-o", tmp_path / "out"]
    if name == "uncounted.cpp":
        argv += ["--depth", "out=64"]
    rc, so, err = _run(argv, capsys)
    assert rc == 1 and "Traceback" not in err, err
    msg = [m for m in err.splitlines() if ": error: " in m][0]
    assert msg.startswith(f"{name}:{line}: error: "), msg
    assert expect in msg, msg


def test_alveo_stream_argument_out_of_order(tmp_path, capsys, monkeypatch):
    """A stream argument read twice per iteration is fine as a BRAM-style port, but not an
    AXI4-Stream: on Alveo that is an error naming the argument."""
    monkeypatch.chdir(tmp_path)
    Path("k.cpp").write_text("""#include <hls_stream.h>
void f(hls::stream<int> &in, int out[8]) {
    for (int i = 0; i < 8; i++) {
        int x = in.read();
        int y = in.read();
        out[i] = x - y;
    }
}
""")
    rc, so, err = _run(["synth", "k.cpp", "--top", "f", "--target", "alveo", "-o", "o"],
                       capsys)
    assert rc == 1 and "Traceback" not in err, err
    assert "hls::stream argument 'in' of f(hls::stream<int>&, int*) cannot be an " \
           "AXI4-Stream on --target alveo" in err, err


@pytest.mark.parametrize("src,top", [
    (CXX / "stream_dataflow.cpp", "stream_dataflow"),       # FIFO channels of a region
    (CXX / "stream_ports.cpp", "stream_ports"),             # stream arguments of the top
    (Path(__file__).resolve().parent.parent / "examples" / "vitis" / "threshold.cpp",
     "threshold"),
], ids=lambda x: getattr(x, "stem", x))
def test_stream_lowering_against_the_queue_at_the_ir_level(src, top):
    """The stream lowering (hls.frontend._streams) as an IR rewrite: the CDFG just after
    the frontend and as the scheduler gets it (pipelined or not) interpreted on the calls
    of the kernel's testbench and on random calls (edge and random values), against
    native execution with the queues: return values and every stream and array argument,
    byte for byte.  No Verilator: a wrong lowering shows here before any RTL."""
    from hls.flow import SynthOptions, ir_module, synthesize
    from hls.verify import capture_tb_calls, ir_differences, random_calls, run_calls

    for after, pipeline in (("frontend", True), ("passes", True), ("passes", False)):
        opts = SynthOptions(top=top, pipeline=pipeline)
        res = synthesize(src, opts)
        module = ir_module(src, opts, after=after)
        f = module.top
        ptr_sizes = {m.arg_index: m.whole_bytes for m in res.interface.memories
                     if m.arg_index is not None}
        streams = {p.index: "w" if p.mem.writeonly else "r" for p in f.ptr_params
                   if p.mem.stream and p.index >= 0}
        calls = capture_tb_calls(res.module.llvm_ir, f.name, ptr_sizes, streams=streams)
        calls += run_calls(res.module.llvm_ir, f.name,
                           random_calls(res.interface, k=6, seed=11), ptr_sizes,
                           streams=streams)
        assert len(calls) >= 8
        bad = ir_differences(module, calls)
        assert not bad, f"{after}, pipeline={pipeline}:\n" + "\n".join(bad)
