"""Vitis HLS pragmas, C loop labels and lines, declared array extents.

The C source is read by clang's parser (``hls.frontend._source``); each ``#pragma HLS``
becomes the directive a directives file would give (``hls.directives.apply_pragmas``),
is warned about at its line, or is a ``file:line: error:``.  report.json's ``pragmas``
says what each did.
"""

from __future__ import annotations

import json
import os
import re
import textwrap
from pathlib import Path

import pytest

from helpers import assert_one_error, line_of, write_source
from hls.cli import main
from hls.flow import SynthOptions, synthesize
from hls.frontend._source import pragma_options, source_view
from hls.verify import cosim

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"




def _loops(report: dict) -> dict:
    return {(e["function"], e["loop"]): e for e in report["loops"]}


# ------------------------------------------------------------------ the source view

def test_source_view(tmp_path):
    src = write_source(tmp_path, "view.c", """
        #include <stdint.h>
        #define N 8
        static int32_t table[4];
        void view(const int16_t x[N + 8], int32_t y[N], int32_t m[4][N], int32_t *p, int n) {
            int32_t buf[16];
          rows:
            for (int i = 0; i < N; i++) {
        #pragma HLS pipeline II=2
                for (int k = 0; k < 4; k++) {
                    #pragma HLS unroll factor=2
                    buf[k] = x[i + k];
                }
                y[i] = buf[0] + m[0][i] + p[i];
            }
        #pragma HLS array_partition variable=buf cyclic factor=4 dim=1
        #if 0
        #pragma HLS dead_code
        #endif
            int j = 0;
            while (j < n) j++;
            do { j--; } while (j > 0);
        }
        """)
    v = source_view(src)
    fn = v.functions["view"]
    assert [(p.name, p.dims) for p in fn.params] == [
        ("x", (16,)), ("y", (8,)), ("m", (4, 8)), ("p", ()), ("n", ())]
    assert fn.variables["buf"].dims == (16,)
    assert v.variables["table"].dims == (4,)
    kinds = [(lp.kind, lp.line, lp.label) for lp in fn.loops]
    assert kinds == [("for", line_of(src, "for (int i"), "rows"),
                     ("for", line_of(src, "for (int k"), None),
                     ("while", line_of(src, "while (j < n)"), None),
                     ("do", line_of(src, "do {"), None)]
    rows, inner = fn.loops[0], fn.loops[1]
    assert inner.parent is rows and v.nested(rows) == [inner]
    assert rows.col == src.read_text().splitlines()[rows.line - 1].index("for") + 1
    assert inner.name == f"view/L{inner.line}" and rows.name == "rows"
    assert v.loop_at(inner.line) is inner
    # the #if 0 pragma is not one: clang never saw it
    assert [(p.name, p.line, p.loop.name if p.loop else None, p.function) for p in v.pragmas] == [
        ("pipeline", line_of(src, "pipeline II=2"), "rows", "view"),
        ("unroll", line_of(src, "unroll factor"), inner.name, "view"),
        ("array_partition", line_of(src, "array_partition"), None, "view")]
    assert fn.pragmas == [v.pragmas[2]]
    assert pragma_options(v.pragmas[0]) == ([], {"ii": "2"})
    # the older positional form: the type as a bare word
    assert pragma_options(v.pragmas[2]) == (["cyclic"], {"variable": "buf", "factor": "4",
                                                         "dim": "1"})
    assert v.pragmas[2].text == "array_partition variable=buf cyclic factor=4 dim=1"


def test_gemm_loops_at_their_statements():
    """examples/gemm_i32.c: the loops are reported at their for statements."""
    src = EXAMPLES / "gemm_i32.c"
    res = synthesize(src, SynthOptions(top="gemm_i32", depth={"A": 256, "B": 256, "C": 256}))
    text = src.read_text().splitlines()
    fors = [i for i, line in enumerate(text, 1) if line.strip().startswith("for (")
            and i < line_of(src, "volatile")]
    assert sorted(e["source_line"] for e in res.report["loops"]) == fors


# ------------------------------------------------------------------ pragmas applied

FIR = """
    #include <stdint.h>
    #define TAPS 8
    static const int32_t coef[TAPS] = {3, -1, 4, 1, -5, 9, 2, -6};

    void fir(const int32_t x[64], int32_t y[64])
    {
        int32_t sr[TAPS] = {0};
    #pragma HLS array_partition variable=sr complete
    #pragma HLS array_partition variable=coef complete
    samples:
        for (int i = 0; i < 64; i++) {
    #pragma HLS pipeline II=1
            for (int k = TAPS - 1; k > 0; k--)
                sr[k] = sr[k - 1];
            sr[0] = x[i];
            int32_t acc = 0;
            for (int k = 0; k < TAPS; k++)
                acc += sr[k] * coef[k];
            y[i] = acc;
        }
    }

    int main(void)
    {
        int32_t x[64], y[64];
        for (int i = 0; i < 64; i++)
            x[i] = (i * 37) % 19 - 9;
        fir(x, y);
        fir(y, x);
        return 0;
    }
    """


def test_fir_pipeline_pragma_reaches_ii1_and_cosimulates(tmp_path):
    src = write_source(tmp_path, "fir.c", FIR)
    res = synthesize(src, SynthOptions(top="fir"))         # no --depth: x[64], y[64]
    loop = _loops(res.report)[("fir", "samples")]
    assert loop["pipelined"] and loop["ii"] == 1
    assert loop["source_line"] == line_of(src, "for (int i")
    prag = {p["line"]: p for p in res.report["pragmas"]}
    pl = prag[line_of(src, "pipeline II=1")]
    assert pl["applied"] and pl["ii"] == 1 and pl["ii_reached"] == 1 and pl["pipelined"]
    # the taps loop unrolled, as in Vitis (the shift loop too, unless clang made it a memmove)
    taps, shift = (f"fir/L{line_of(src, s)}" for s in ("k < TAPS; k++", "k > 0; k--"))
    assert taps in pl["unrolls_nested"] and set(pl["unrolls_nested"]) <= {taps, shift}
    ap = prag[line_of(src, "variable=sr")]
    assert ap["applied"] and ap["banks"] == 8
    assert {(a["name"], a["banks"], a["auto"]) for a in res.report["arrays"]} >= {
        ("coef", 8, False)}
    assert [m["depth_words"] for m in res.report["interface"]["memories"]] == [64, 64]
    c = cosim(src, "fir", tb=src, synth=res)
    assert c.passed, c.summary()
    assert len(c.calls) == 2


def test_unroll_and_tripcount_pragmas(tmp_path):
    src = write_source(tmp_path, "u.c", """
        #include <stdint.h>
        #define UF 4
        int32_t acc_u(const int32_t a[64], int n)
        {
            int32_t s = 0;
            for (int i = 0; i < 64; i++) {
        #pragma HLS unroll factor=UF
                s += a[i] * a[i];
            }
            for (int j = 0; j < 4; j++) {
        #pragma HLS unroll
                s += a[j] << j;
            }
            for (int j = 0; j < n; j++) {
        #pragma HLS loop_tripcount min=1 max=16
                s ^= a[j];
            }
            return s;
        }
        """)
    res = synthesize(src, SynthOptions(top="acc_u", auto_unroll=False))
    by_line = {e["source_line"]: e for e in res.report["loops"]}
    assert by_line[line_of(src, "i < 64")]["unrolled"] == 4
    assert line_of(src, "j < 4") not in by_line          # fully unrolled: gone
    var = by_line[line_of(src, "j < n")]
    assert var["latency"]["trip_count"] == {"min": 1, "max": 16}
    prag = {p["line"]: p for p in res.report["pragmas"]}
    assert prag[line_of(src, "factor=UF")]["unrolled"] == 4       # a macro's value
    full = next(i for i, x in enumerate(src.read_text().splitlines(), 1)
                if x.strip() == "#pragma HLS unroll")
    assert prag[full]["unrolled"] == "full"
    assert prag[line_of(src, "tripcount")]["tripcount"] == [1, 16]


def test_labels_name_loops_and_directives_address_them(tmp_path):
    src = write_source(tmp_path, "lab.c", """
        #include <stdint.h>
        void lab(const int32_t a[64], int32_t y[64]) {
          outer: for (int i = 0; i < 8; i++) {
            inner: for (int j = 0; j < 8; j++)
              y[i * 8 + j] = a[i * 8 + j] * 3 + i;
          }
        }
        """)
    dirs = write_source(tmp_path, "d.toml", """
        [[loop]]
        function = "lab"
        label = "inner"
        pipeline = false
        """)
    res = synthesize(src, SynthOptions(top="lab", directives=str(dirs)))
    loops = _loops(res.report)
    assert set(loops) == {("lab", "outer"), ("lab", "inner")}
    assert loops[("lab", "outer")]["source_line"] == line_of(src, "outer:")
    assert loops[("lab", "inner")]["pipelined"] is False
    assert "directive" in loops[("lab", "inner")]["not_pipelined_reason"]


def test_directives_address_a_loop_by_its_report_name(tmp_path, capsys):
    """A loop without a label is ``FUNCTION/L<line>`` in the report, and a directive's
    ``label`` takes that name; one naming another function's loop is an error."""
    src = write_source(tmp_path, "nl.c", """
        #include <stdint.h>
        void nl(const int32_t a[64], int32_t y[64]) {
          for (int i = 0; i < 64; i++)
            y[i] = a[i] * 3 + i;
        }
        """)
    name = f"nl/L{line_of(src, 'for (int i')}"
    dirs = write_source(tmp_path, "d.toml", f"""
        [[loop]]
        function = "nl"
        label = "{name}"
        pipeline = false
        """)
    res = synthesize(src, SynthOptions(top="nl", directives=str(dirs)))
    (loop,) = res.report["loops"]
    assert loop["name"] == name and loop["pipelined"] is False, loop
    bad = write_source(tmp_path, "bad.toml", f"""
        [[loop]]
        function = "nl"
        label = "other/L{line_of(src, 'for (int i')}"
        unroll = 2
        """)
    out = tmp_path / "out"
    assert main(["synth", str(src), "--top", "nl", "--directives", str(bad),
                 "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "label 'other/L" in err and "names a loop of other, not of nl" in err, err
    assert not out.exists()


# ------------------------------------------------------------------ warnings and errors

def test_unsupported_pragmas_warn_at_their_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    src = write_source(tmp_path, "w.c", """
        void w(int a[16]) {
        #pragma HLS array_reshape variable=a complete
          for (int i = 0; i < 16; i++) {
        #pragma HLS loop_flatten
        #pragma HLS frobnicate now
            a[i] += 1;
          }
        }
        """)
    assert main(["synth", "w.c", "--top", "w", "-o", str(tmp_path / "out")]) == 0
    cap = capsys.readouterr()
    for needle, name in (("array_reshape", "array_reshape"), ("loop_flatten", "loop_flatten"),
                         ("frobnicate", "frobnicate now")):
        assert re.search(rf"^w\.c:{line_of(src, needle)}: warning: #pragma HLS {name}\b.*"
                         r"ignored: ", cap.err, re.MULTILINE), cap.err
    assert "#pragma HLS loop_flatten" in cap.out          # the summary lists it too
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert all(not p["applied"] and p["why"] for p in report["pragmas"])


ERRORS = {
    "function_pipeline": ("""
        void k(int a[16]) {
        #pragma HLS pipeline II=1
          for (int i = 0; i < 16; i++) a[i] += 1;
        }
        """, "pipeline II=1", ["#pragma HLS pipeline II=1", "k is the top function",
                               "pipeline the top's loops"]),
    "unknown_variable": ("""
        void k(int a[16]) {
        #pragma HLS array_partition variable=q cyclic factor=2
          for (int i = 0; i < 16; i++) a[i] += 1;
        }
        """, "variable=q", ["no variable 'q'", "a"]),
    "factor_zero": ("""
        void k(int a[16]) {
        #pragma HLS array_partition variable=a cyclic factor=0
          for (int i = 0; i < 16; i++) a[i] += 1;
        }
        """, "factor=0", ["factor=0"]),
    "partition_factor_too_big": ("""
        void k(int a[16]) {
        #pragma HLS array_partition variable=a block factor=32
          for (int i = 0; i < 16; i++) a[i] += 1;
        }
        """, "factor=32", ["does not fit", "16 elements"]),
    "dim_factor_does_not_divide": ("""
        void k(int a[4][6]) {
        #pragma HLS array_partition variable=a cyclic factor=4 dim=2
          for (int i = 0; i < 24; i++) a[i / 6][i % 6] += 1;
        }
        """, "factor=4 dim=2", ["factor=4 does not divide dimension 2 of 'a'", "6 elements"]),
    "dim_beyond_rank": ("""
        void k(int a[4][6]) {
        #pragma HLS array_partition variable=a complete dim=3
          for (int i = 0; i < 24; i++) a[i / 6][i % 6] += 1;
        }
        """, "dim=3", ["dim=3", "2 dimension(s)"]),
    "unroll_factor_too_big": ("""
        void k(int a[16]) {
          for (int i = 0; i < 16; i++) {
        #pragma HLS unroll factor=32
            a[i] += 1;
          }
        }
        """, "factor=32", ["does not fit", "16 times"]),
    "unroll_factor_zero": ("""
        void k(int a[16]) {
          for (int i = 0; i < 16; i++) {
        #pragma HLS unroll factor=0
            a[i] += 1;
          }
        }
        """, "factor=0", ["factor=0"]),
    # (noinline by the C attribute: an inline off pragma would be overridden, below)
    "ii_on_loop_with_call": ("""
        __attribute__((noinline)) int g(int x) {
          return x * 3 + 1;
        }
        void k(int a[16]) {
          for (int i = 0; i < 16; i++) {
        #pragma HLS pipeline II=1
            a[i] = g(a[i]);
          }
        }
        """, "for (int i", ["cannot be pipelined", "calls @g",
                             "#pragma HLS pipeline II=1 at line"]),
    "inner_loop_not_unrollable": ("""
        void k(int a[16], int n) {
          for (int i = 0; i < n; i++) {
        #pragma HLS pipeline II=1
            for (int j = 0; j < n; j++)
              a[j] += i;
          }
        }
        """, "pipeline", ["no constant trip count"]),
    "twice_on_a_loop": ("""
        void k(int a[16]) {
          for (int i = 0; i < 16; i++) {
        #pragma HLS pipeline II=1
        #pragma HLS pipeline II=2
            a[i] += 1;
          }
        }
        """, "II=2", ["a second pipeline pragma for the same loop",
                        "(the first is at line @@II=1@@)"]),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_pragma_errors(name, tmp_path, capsys, monkeypatch):
    text, needle, expect = ERRORS[name]
    monkeypatch.chdir(tmp_path)
    src = write_source(tmp_path, "k.c", text)
    out = tmp_path / "out"
    assert main(["synth", "k.c", "--top", "k", "-o", str(out)]) == 1
    assert_one_error(capsys.readouterr().err, src, needle, expect)
    assert not out.exists()


def test_pragma_and_directive_conflict_names_both(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    src = write_source(tmp_path, "k.c", """
        void k(int a[16]) {
          for (int i = 0; i < 16; i++) {
        #pragma HLS pipeline II=2
            a[i] += 1;
          }
        }
        """)
    write_source(tmp_path, "d.toml", f"""
        [[loop]]
        function = "k"
        line = {line_of(src, "for (")}
        ii = 3
        """)
    assert main(["synth", "k.c", "--top", "k", "--directives", "d.toml",
                 "-o", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"k.c:{line_of(src, 'II=2')}: error: "), err
    assert "d.toml (loop entry 1)" in err and "ii = 2" in err and "ii = 3" in err
    # the same setting in both places is no conflict
    (tmp_path / "d.toml").write_text((tmp_path / "d.toml").read_text().replace("3", "2"))
    assert main(["synth", "k.c", "--top", "k", "--directives", "d.toml",
                 "-o", str(tmp_path / "out")]) == 0, capsys.readouterr().err


# ------------------------------------------------------------------ declared extents

def test_declared_extents_need_no_depth(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_source(tmp_path, "d.c", """
        #include <stdint.h>
        void d(const int32_t m[4][8], int32_t y[256], int n) {
          for (int i = 0; i < n; i++)
            y[i] = m[i & 3][i & 7];
        }
        """)
    res = synthesize(tmp_path / "d.c", SynthOptions(top="d"))
    depth = {m["name"]: m["depth_words"] for m in res.report["interface"]["memories"]}
    assert depth == {"m": 32, "y": 256}
    # --depth still wins over the declaration
    res = synthesize(tmp_path / "d.c", SynthOptions(top="d", depth={"y": 300}))
    assert {m["name"]: m["depth_words"] for m in res.report["interface"]["memories"]}["y"] == 300
    for bad, what in (("q=4", "'q' is not an argument of d"),
                      ("n=4", "'n' is a scalar argument of d")):
        assert main(["synth", "d.c", "--top", "d", "--depth", bad,
                     "-o", str(tmp_path / "out")]) == 1
        err = capsys.readouterr().err
        assert err.startswith("d.c: error: --depth " + bad), err
        assert what in err and "Traceback" not in err


def test_dataflow_and_inline_pragmas(tmp_path):
    src = write_source(tmp_path, "df.c", """
        #include <stdint.h>
        static void produce(const int32_t in[32], int32_t mid[32]) {
          for (int i = 0; i < 32; i++) mid[i] = in[i] * 3;
        }
        static void consume(const int32_t mid[32], int32_t out[32]) {
          for (int i = 0; i < 32; i++) out[i] = mid[i] + 1;
        }
        void df(const int32_t in[32], int32_t out[32]) {
        #pragma HLS dataflow
          int32_t mid[32];
          produce(in, mid);
          consume(mid, out);
        }
        static int32_t twice(int32_t x) {
        #pragma HLS inline off
          return 2 * x + 1;
        }
        void kept(int32_t a[8]) {
          for (int i = 0; i < 8; i++) a[i] = twice(a[i]);
        }
        """)
    res = synthesize(src, SynthOptions(top="df"))
    assert res.report["dataflow"]["region"] == "df"
    assert sorted(t["function"] for t in res.report["dataflow"]["tasks"]) == ["consume", "produce"]
    prag = {p["line"]: p for p in res.report["pragmas"]}
    assert prag[line_of(src, "dataflow")]["applied"]
    res = synthesize(src, SynthOptions(top="kept"))
    assert "dataflow" not in res.report
    assert {f["name"] for f in res.report["functions"]} == {"kept", "twice"}
    prag = {p["line"]: p for p in res.report["pragmas"]}
    assert prag[line_of(src, "inline off")]["applied"]
    assert prag[line_of(src, "inline off")]["inline"] is False


def test_a_pipelined_loop_inlines_an_inline_off_function_it_calls(tmp_path, capsys):
    """``inline off`` on a function that a loop pipelined by pragma calls: a call of a
    separate module cannot be pipelined, so the function is inlined (as Vitis HLS
    pipelines what a pipelined loop calls) and the loop reaches its II; the override is
    a warning at the inline pragma's line and in report.json."""
    src = write_source(tmp_path, "k.c", """
        static int g(int x) {
        #pragma HLS inline off
          return x * x + 3;
        }
        void k(const int a[64], int b[64]) {
          for (int i = 0; i < 64; i++) {
        #pragma HLS pipeline II=1
            b[i] = g(a[i]) + i;
          }
        }
        int main(void) {
          int a[64], b[64];
          for (int i = 0; i < 64; i++) a[i] = i * 7 - 100;
          k(a, b);
          return b[5] & 1;
        }
        """)
    r = cosim(src, "k", tb=src)
    assert r.passed, r.summary()
    err = capsys.readouterr().err
    line = line_of(src, "inline off")
    assert f"{src}:{line}: warning: #pragma HLS inline off: overridden: g is called in loop " \
        f"k/L{line_of(src, 'for (int i')}, which #pragma HLS pipeline II=1 (line " \
        f"{line_of(src, 'pipeline II=1')}) pipelines" in err, err
    prag = {p["line"]: p for p in r.synth.report["pragmas"]}
    assert prag[line]["applied"] is False and prag[line]["inline"] is True
    (lp,) = r.synth.report["loops"]
    assert lp["pipelined"] and lp["ii"] == 1
    assert {f["name"] for f in r.synth.report["functions"]} == {"k"}


def test_every_missing_depth_in_one_error(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    src = write_source(tmp_path, "p.c", """
        void p(const int *a, short *b, int *c, int n) {
          for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
        }
        """)
    assert main(["synth", "p.c", "--top", "p", "-o", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"p.c:{line_of(src, 'void p(')}: error: the extents of pointer "
                          "arguments 'a', 'b', 'c' are unknown"), err
    assert "--depth a=N --depth b=N --depth c=N" in err and "2 bytes for b" in err


def test_partition_of_a_static_local(tmp_path):
    src = write_source(tmp_path, "s.c", """
        #include <stdint.h>
        int32_t s(const int32_t a[16]) {
          static int32_t hist[16];
        #pragma HLS array_partition variable=hist cyclic factor=2
          int32_t t = 0;
          for (int i = 0; i < 16; i++) { hist[i] += a[i]; t += hist[i]; }
          return t;
        }
        """)
    res = synthesize(src, SynthOptions(top="s", auto_partition=False))
    assert [(a["name"], a["partition"], a["banks"], a["auto"]) for a in res.report["arrays"]] == [
        ("s_hist", "cyclic", 2, False)]
    (entry,) = res.report["pragmas"]
    assert entry["line"] == line_of(src, "array_partition") and entry["banks"] == 2


def test_source_view_continued_pragma_and_cpp(tmp_path):
    src = write_source(tmp_path, "bs.cpp", """
        template <int N> struct Acc { int v[N]; };
        void bs(int a[16]) {
          body: for (int i = 0; i < 16; i++) {
        #pragma HLS unroll \\
            factor=4
            a[i] += 1;
          }
        }
        """)
    v = source_view(src)
    (p,) = v.pragmas
    assert (p.line, p.text, p.loop.label) == (line_of(src, "HLS unroll"), "unroll factor=4", "body")
    assert v.functions["_Z2bsPi"].params[0].dims == (16,)   # C++: by LLVM symbol


def test_source_view_whatever_the_directory_include_dirs_were_asked_from(tmp_path, monkeypatch):
    """The compiler's include directories are asked for once per process and cached.
    Asked from a directory above them (CI's venv inside the checkout, where zig prints
    them relative to it), they still hold after the working directory changes: a C++
    stream kernel read by a relative name keeps its pragmas."""
    from hls.frontend import _source
    from hls.toolchain import find_cxx_compiler
    prefix = tuple(find_cxx_compiler(None))
    _source._system_includes.cache_clear()
    dirs = _source._system_includes(prefix, "c++")
    assert dirs, "the C++ compiler names no include directory"
    monkeypatch.chdir(os.path.commonpath(dirs))
    _source._system_includes.cache_clear()
    try:
        dirs = _source._system_includes(prefix, "c++")
    finally:
        monkeypatch.chdir(tmp_path)
    assert all(Path(d).is_absolute() and Path(d).is_dir() for d in dirs), dirs
    Path("k.cpp").write_text(textwrap.dedent("""\
        #include <hls_stream.h>
        void k(hls::stream<int> &s, int *o) {
        #pragma HLS pipeline II=1
            for (int i = 0; i < 4; i++) o[i] = s.read();
        }
        """))
    v = source_view("k.cpp")
    assert [(p.name, p.line) for p in v.pragmas] == [("pipeline", 3)]


def test_source_view_fatal_libclang_error_is_reported(tmp_path, monkeypatch):
    """A fatal error in libclang's reading of the source (here: no include directories)
    ends its diagnostics, so the pragmas after it would be missing: an error naming the
    header, never a view without them."""
    from hls.errors import ToolError
    from hls.frontend import _source
    src = write_source(tmp_path, "f.c", """
        #include <stddef.h>
        void f(int a[8]) {
        #pragma HLS pipeline II=1
          for (size_t i = 0; i < 8; i++) a[i] += 1;
        }
        """)
    monkeypatch.setattr(_source, "parse_args", lambda *a: ["-x", "c", "-nostdinc"])
    with pytest.raises(ToolError, match=r"stddef\.h"):
        source_view(src)


def test_loops_are_named_by_label_else_function_and_line(tmp_path):
    """report.json names a labelled loop by its label, also where a block of that name
    exists already (the header keeps its own name), and an unlabelled one
    ``FUNCTION/L<line>``; the latency messages use the same names."""
    src = write_source(tmp_path, "names.c", """
        int names(int a[32], int n) {
          int s = 0;
          entry: for (int i = 0; i < 32; i++)
            a[i] += i;
          for (int j = 0; j < n; j++)
            s = s * 7 + a[j];
          return s;
        }
        """)
    res = synthesize(src, SynthOptions(top="names", auto_unroll=False))
    got = {lp["name"]: lp for lp in res.report["loops"]}
    free = f"names/L{line_of(src, 'int j = 0')}"
    assert set(got) == {"entry", free}, got
    assert got["entry"]["loop"] != "entry"            # the entry block keeps its name
    assert any(a.startswith(f"loop {free} (") for a in res.report["latency"]["assumptions"])


def test_one_dimension_of_a_2d_array(tmp_path, capsys, monkeypatch):
    """``dim=N`` partitions one C dimension: rows of A[i][*] over banks by column (dim=2
    cyclic 2), B's rows over banks (dim=1 block 2: two rows each), C whole; the pipelined
    loop reaches the II its banks allow and the design co-simulates.  ``cyclic`` of
    every dimension (dim=0) is warned about and ignored."""
    monkeypatch.chdir(tmp_path)
    src = write_source(tmp_path, "mm.c", """
        void mm(const int A[4][4], const int B[4][4], int C[4][4], int D[2][2]) {
        #pragma HLS array_partition variable=A cyclic factor=2 dim=2
        #pragma HLS array_partition variable=B block factor=2 dim=1
        #pragma HLS array_partition variable=D cyclic factor=2 dim=0
          for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
        #pragma HLS pipeline II=1
              int s = 0;
              for (int k = 0; k < 4; k++) s += A[i][k] * B[k][j];
              C[i][j] = s + D[i & 1][j & 1];
            }
        }
        int main(void) {
          int A[4][4], B[4][4], C[4][4], D[2][2] = {{1, 2}, {3, 4}};
          for (int i = 0; i < 16; i++) { A[i / 4][i % 4] = i * 7 - 20; B[i / 4][i % 4] = 3 - i * i; }
          mm(A, B, C, D);
          return C[1][2] & 1;
        }
        """)
    out = tmp_path / "out"
    assert main(["cosim", "mm.c", "--top", "mm", "--tb", "mm.c", "-o", str(out)]) == 0
    cap = capsys.readouterr()
    assert "PASSED" in cap.out
    assert re.search(rf"^mm\.c:{line_of(src, 'variable=D')}: warning: .*dim=0", cap.err,
                     re.MULTILINE), cap.err
    report = json.loads((out / "report.json").read_text())
    arrays = {a["name"]: (a["partition"], a["factor"], a["dim"], a["banks"])
              for a in report["arrays"]}
    assert arrays == {"A": ("cyclic", 2, 2, 2), "B": ("block", 2, 1, 2)}
    loop = next(lp for lp in report["loops"] if lp["pipelined"])
    # four loads of A and of B per iteration: two per bank, on two ports each
    assert loop["ii"] == 1, loop
    d = next(p for p in report["pragmas"] if "variable=D" in p["pragma"])
    assert not d["applied"] and "dim=0" in d["why"], d
