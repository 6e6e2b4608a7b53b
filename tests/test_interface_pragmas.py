"""``#pragma HLS interface``: Vitis HLS's interface modes on pyhls's ports.

On ``--target alveo`` m_axi (with its bundle) and axis are applied as ``--interface``
would apply them, s_axilite and ap_ctrl_hs are accepted as what is built; on the other
targets m_axi and axis are warned about at their line (a BRAM-style port is built) but
never fail, and ``depth=N`` gives a pointer its depth on every target.  Modes pyhls does
not build are warned about with what is built instead; a pragma that cannot apply is
``file:line: error:``.  report.json's ``pragmas`` says, per pragma, what was built.
"""

from __future__ import annotations

import json
import re

import pytest

from hls.cli import main
from hls.flow import SynthOptions, synthesize
from helpers import assert_one_error, line_of, need_cocotb, write_source

#: a vector add as a Vitis HLS user writes it: both spellings of the mode, bundles,
#: depths for co-simulation, the control in s_axilite
VADD = """
    #include <stdint.h>
    void vadd(const int32_t *a, const int32_t *b, int32_t *c, int n) {
    #pragma HLS INTERFACE m_axi port=a offset=slave bundle=gmem0 depth=64
    #pragma HLS INTERFACE mode=m_axi port=b bundle=gmem1 depth=64 max_read_burst_length=16
    #pragma HLS INTERFACE m_axi port=c offset=slave bundle=gmem0 depth=64
    #pragma HLS INTERFACE s_axilite port=n bundle=control
    #pragma HLS INTERFACE s_axilite port=return bundle=control
      for (int i = 0; i < n; i++) {
    #pragma HLS pipeline II=1
        c[i] = a[i] + b[i];
      }
    }
    """

VADD_TB = """
    #include <stdint.h>
    #include <stdio.h>
    void vadd(const int32_t *a, const int32_t *b, int32_t *c, int n);
    int main(void) {
      int32_t a[64], b[64], c[64];
      for (int i = 0; i < 64; i++) { a[i] = i * 3 - 7; b[i] = 100 - i; c[i] = 0; }
      vadd(a, b, c, 64);
      vadd(b, a, c, 17);
      int s = 0;
      for (int i = 0; i < 64; i++) s += c[i];
      printf("%d\\n", s);
      return 0;
    }
    """




def _pragmas(report: dict) -> dict:
    """The interface pragmas' report entries by (port, mode)."""
    return {(e["port"], e["interface"]): e for e in report["pragmas"] if e.get("interface")}


# ------------------------------------------------------------------ generic target

def test_generic_target_warns_and_builds_bram_ports(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    src = write_source(tmp_path, "vadd.c", VADD.replace(
        "  for (int i", "#pragma HLS INTERFACE ap_ctrl_none port=return\n"
        "#pragma HLS INTERFACE ap_vld port=n\n  for (int i"))
    out = tmp_path / "out"
    assert main(["synth", "vadd.c", "--top", "vadd", "-o", str(out)]) == 0   # no --depth
    err = capsys.readouterr().err

    def warned(needle: str, *what: str) -> None:
        line = line_of(src, needle)
        got = [x for x in err.splitlines() if x.startswith(f"vadd.c:{line}: warning: ")]
        assert got and all(any(w in g for g in got) for w in what), (needle, err)

    bram = "the generic target builds a BRAM-style memory port"
    alveo = "the pragma applies with --target alveo"
    warned("port=a offset", f"{bram} (a_address0, ...; one per bank if partitioned) for 'a'",
           alveo, "depth=64 is its depth")
    warned("mode=m_axi port=b", f"{bram} (b_address0, ...; one per bank if partitioned) for "
           "'b'", alveo,
           "option(s) max_read_burst_length ignored")
    warned("s_axilite port=n", "a plain input port (n)", alveo)
    warned("s_axilite port=return", "ap_ctrl_hs ports", alveo)
    warned("ap_ctrl_none", "not applied: pyhls builds ap_ctrl_hs ports")
    warned("ap_vld", "not applied: pyhls builds a plain input port (n)")
    assert "Traceback" not in err
    report = json.loads((out / "report.json").read_text())
    assert {m["name"]: m["depth_words"] for m in report["interface"]["memories"]} == {
        "a": 64, "b": 64, "c": 64}
    assert all(not e["applied"] and e["why"] and e["built"]
               for e in report["pragmas"] if e.get("interface"))
    assert _pragmas(report)[("a", "m_axi")]["depth"] == 64
    verilog = (out / "rtl" / "vadd.v").read_text()
    assert "a_address0" in verilog and "m_axi" not in verilog


def test_generic_target_accepts_what_it_builds(tmp_path, capsys):
    src = write_source(tmp_path, "mem.c", """
        void mem(int a[16], int k) {
        #pragma HLS interface ap_memory port=a
        #pragma HLS interface ap_none port=k
        #pragma HLS interface ap_ctrl_hs port=return
          for (int i = 0; i < 16; i++) a[i] += k;
        }
        """)
    res = synthesize(src, SynthOptions(top="mem"))
    assert "warning" not in capsys.readouterr().err
    got = {e["interface"]: e for e in res.report["pragmas"]}
    assert all(e["applied"] for e in got.values())
    assert got["ap_memory"]["built"].startswith("a BRAM-style memory port (a_address0")
    assert got["ap_none"]["built"] == "a plain input port (k)"
    assert got["ap_ctrl_hs"]["built"].startswith("ap_ctrl_hs ports")


def test_pragma_in_a_function_that_is_not_the_top(tmp_path, capsys):
    src = write_source(tmp_path, "sub.c", """
        static int sub(int *p) {
        #pragma HLS inline off
        #pragma HLS interface m_axi port=p bundle=gmem1
          return p[0] + p[1];
        }
        int top(int q[4]) { return sub(q) + sub(q + 2); }
        """)
    res = synthesize(src, SynthOptions(top="top", target="alveo"))
    err = capsys.readouterr().err
    line = line_of(src, "m_axi port=p")
    assert re.search(rf"sub\.c:{line}: warning: .*ignored: interface pragmas apply to the "
                     r"arguments of the top function \(top\), not of sub", err), err
    assert res.axi.bundle_of == {"q": "gmem"}


# ------------------------------------------------------------------ alveo target

def test_alveo_applies_bundles(tmp_path, capsys):
    src = write_source(tmp_path, "vadd.c", VADD)
    res = synthesize(src, SynthOptions(top="vadd", target="alveo"))
    err = capsys.readouterr().err
    # only the option Vitis has and pyhls does not: no warning about the interfaces
    assert [x for x in err.splitlines() if "warning" in x] == [
        f"{src}:{line_of(src, 'mode=m_axi')}: warning: #pragma HLS interface mode=m_axi "
        "port=b bundle=gmem1 depth=64 max_read_burst_length=16: option(s) "
        "max_read_burst_length ignored"]
    assert res.axi.bundle_of == {"a": "gmem0", "b": "gmem1", "c": "gmem0"}
    assert [(b["name"], b["args"]) for b in res.report["axi"]["bundles"]] == [
        ("gmem0", ["a", "c"]), ("gmem1", ["b"])]
    for b in ("gmem0", "gmem1"):
        assert re.search(rf"output \[63:0\] m_axi_{b}_ARADDR", res.verilog)
    assert "m_axi_gmem_" not in res.verilog
    prag = _pragmas(res.report)
    assert prag[("a", "m_axi")]["applied"] and prag[("a", "m_axi")]["bundle"] == "gmem0"
    assert prag[("b", "m_axi")]["built"].startswith("the AXI4 master m_axi_gmem1")
    assert prag[("n", "s_axilite")]["applied"]
    assert "s_axi_control" in prag[("n", "s_axilite")]["built"]
    assert prag[("return", "s_axilite")]["applied"]
    assert {m["name"]: m["depth_words"] for m in res.report["interface"]["memories"]} == {
        "a": 64, "b": 64, "c": 64}


def test_alveo_stream_and_pointer_axis(tmp_path, capsys):
    src = write_source(tmp_path, "sk.cpp", """
        #include <hls_stream.h>
        void sk(hls::stream<int> &in, int *out, int scale) {
        #pragma HLS interface axis port=in
        #pragma HLS interface axis port=out depth=32
        #pragma HLS interface s_axilite port=scale
        #pragma HLS interface ap_memory port=out
          for (int i = 0; i < 32; i++) {
        #pragma HLS pipeline II=1
            out[i] = in.read() * scale;
          }
        }
        """)
    res = synthesize(src, SynthOptions(top="sk", target="alveo"))
    err = capsys.readouterr().err
    assert re.search(rf"sk\.cpp:{line_of(src, 'ap_memory')}: warning: .*not applied: "
                     r"pyhls builds the AXI4-Stream out_TDATA, \.\.\. for 'out'", err), err
    assert [(s["name"], s["direction"], s["depth"]) for s in res.report["axi"]["streams"]] == [
        ("in", "in", 32), ("out", "out", 32)]
    assert res.report["axi"]["bundles"] == []
    assert "out_TDATA" in res.verilog and "in_TREADY" in res.verilog


def test_interface_option_and_pragma(tmp_path, capsys, monkeypatch):
    """``--interface`` and a pragma on one argument: the same interface is fine, two
    different ones an error naming both."""
    monkeypatch.chdir(tmp_path)
    src = write_source(tmp_path, "vadd.c", VADD)
    base = ["synth", "vadd.c", "--top", "vadd", "--target", "alveo", "-o", str(tmp_path / "o")]
    assert main(base + ["--interface", "a=m_axi:gmem1"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    (line,) = [x for x in err.splitlines() if ": error: " in x]
    assert line.startswith(f"vadd.c:{line_of(src, 'port=a')}: error: #pragma HLS interface "
                           "here makes 'a' m_axi:gmem0, and --interface a=m_axi:gmem1 makes "
                           "it m_axi:gmem1: give it in one place"), line
    assert main(base + ["--interface", "2=axis"]) == 1
    assert "--interface 2=axis makes it axis" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
    assert main(base + ["--interface", "0=m_axi:gmem0", "--interface", "b=m_axi:gmem1"]) == 0
    report = json.loads((tmp_path / "o" / "report.json").read_text())
    assert [b["name"] for b in report["axi"]["bundles"]] == ["gmem0", "gmem1"]


# ------------------------------------------------------------------ errors

ERRORS = {
    "unknown_port": ("""
        void k(int *a, int n) {
        #pragma HLS interface m_axi port=zz bundle=gmem
          for (int i = 0; i < n; i++) a[i] += 1;
        }
        """, "port=zz", ["k has no argument 'zz'", "its arguments: a, n"]),
    "missing_port": ("""
        void k(int *a, int n) {
        #pragma HLS interface mode=m_axi bundle=gmem
          for (int i = 0; i < n; i++) a[i] += 1;
        }
        """, "bundle=gmem", ["give the argument it is for with port=NAME"]),
    "missing_mode": ("""
        void k(int *a, int n) {
        #pragma HLS interface port=a
          for (int i = 0; i < n; i++) a[i] += 1;
        }
        """, "port=a", ["give the interface mode"]),
    "m_axi_on_a_scalar": ("""
        void k(int *a, int n) {
        #pragma HLS interface m_axi port=n
          for (int i = 0; i < n; i++) a[i] += 1;
        }
        """, "port=n", ["'n' is a scalar (int): m_axi is an AXI4 master for a pointer"]),
    "axis_on_a_scalar": ("""
        void k(int *a, int n) {
        #pragma HLS interface axis port=n
          for (int i = 0; i < n; i++) a[i] += 1;
        }
        """, "port=n", ["'n' is a scalar (int): axis is an interface of an hls::stream, "
                        "pointer or array argument"]),
    "m_axi_on_return": ("""
        int k(int *a) {
        #pragma HLS interface m_axi port=return
          return a[0];
        }
        """, "port=return", ["port=return is the function's control and return value"]),
    "control_on_an_argument": ("""
        int k(int *a) {
        #pragma HLS interface ap_ctrl_hs port=a
          return a[0];
        }
        """, "port=a", ["ap_ctrl_hs is the function's control protocol: give port=return"]),
    "m_axi_and_axis": ("""
        void k(int a[8]) {
        #pragma HLS interface m_axi port=a
        #pragma HLS interface axis port=a
          for (int i = 0; i < 8; i++) a[i] += 1;
        }
        """, "axis port=a", ["'a' is m_axi by the pragma at line @@m_axi port=a@@"]),
    "twice": ("""
        void k(int a[8]) {
        #pragma HLS interface m_axi port=a bundle=g1
        #pragma HLS interface m_axi port=a bundle=g2
          for (int i = 0; i < 8; i++) a[i] += 1;
        }
        """, "bundle=g2", ["a second interface pragma for the same port "
                           "(the first is at line @@bundle=g1@@)"]),
    "bad_depth": ("""
        void k(int *a) {
        #pragma HLS interface m_axi port=a depth=lots
          a[0] = 1;
        }
        """, "depth=lots", ["depth must be an integer, not 'lots'"]),
    "axis_out_of_order": ("""
        void k(int a[8]) {
        #pragma HLS interface axis port=a
          for (int i = 0; i < 8; i++) a[7 - i] += 1;
        }
        """, "axis port=a", ["argument 'a' of k cannot be an AXI4-Stream "
                             "(#pragma HLS interface axis)"]),
}


@pytest.mark.parametrize("target", ["alveo", "generic"])
@pytest.mark.parametrize("name", list(ERRORS))
def test_interface_pragma_errors(name, target, tmp_path, capsys, monkeypatch):
    """Wrong uses are errors on every target (an in-order proof is Alveo's only)."""
    text, needle, expect = ERRORS[name]
    if name == "axis_out_of_order" and target != "alveo":
        pytest.skip("a BRAM-style port takes any order")
    monkeypatch.chdir(tmp_path)
    src = write_source(tmp_path, "k.c", text)
    out = tmp_path / "out"
    assert main(["synth", "k.c", "--top", "k", "--target", target, "-o", str(out)]) == 1
    assert_one_error(capsys.readouterr().err, src, needle, expect)
    assert not out.exists()


# ------------------------------------------------------------------ co-simulation

def test_alveo_cosim_with_pragmas_only(tmp_path, capsys, monkeypatch):
    """The vector add co-simulates on Alveo (cocotb, AXI stalls) with no flag beyond
    ``--top``, ``--tb`` and the target: the depths and bundles come from its pragmas."""
    need_cocotb()
    monkeypatch.chdir(tmp_path)
    write_source(tmp_path, "vadd.c", VADD)
    write_source(tmp_path, "tb.c", VADD_TB)
    assert main(["cosim", "vadd.c", "--top", "vadd", "--tb", "tb.c", "--target", "alveo"]) == 0
    out = capsys.readouterr().out
    assert "2 call(s)" in out and "PASSED" in out, out


#: Bambu's spellings: file-scope pragmas before the function they are about
BAMBU = """
    #pragma HLS_interface a m_axi direct bundle=gmem0
    #pragma HLS_interface b array 16
    #pragma HLS_interface n none
    #pragma HLS_interface c m_axi offset bundle=gmem1
    #pragma HLS_simple_pipeline
    int acc(int a[16], int *b, int c[16], int n) {
        int s = 0;
        for (int i = 0; i < 16; i++) {
            s += a[i] * (i < n ? b[i] : 1);
            b[i] = s + c[i];
        }
        return s;
    }

    #pragma HLS_cache bundle=gmem0 way_size=16 line_size=16
    int main(void) {
        int a[16], b[16], c[16];
        for (int i = 0; i < 16; i++) { a[i] = i * 3 - 7; b[i] = 5 - i; c[i] = i ^ 5; }
        return acc(a, b, c, 9) & 0xff;
    }
    """


def test_bambu_spellings(tmp_path, capsys, monkeypatch):
    """``#pragma HLS_interface ARG TYPE`` is the Vitis interface pragma it means (array N:
    ap_memory with its depth; m_axi direct|offset with its bundle), for the function after
    it; Bambu's function pipelining and cache pragmas are warned about at their line."""
    monkeypatch.chdir(tmp_path)
    src = write_source(tmp_path, "acc.c", BAMBU)
    out = tmp_path / "out"
    assert main(["cosim", "acc.c", "--top", "acc", "--tb", "acc.c", "-o", str(out)]) == 0
    cap = capsys.readouterr()
    assert "PASSED" in cap.out
    warned = re.findall(r"^acc\.c:(\d+): warning: #pragma (\w+)", cap.err, re.MULTILINE)
    assert sorted((int(n), w) for n, w in warned) == [
        (line_of(src, "a m_axi"), "HLS_interface"), (line_of(src, "c m_axi"), "HLS_interface"),
        (line_of(src, "simple_pipeline"), "HLS_simple_pipeline"),
        (line_of(src, "HLS_cache"), "HLS_cache")], cap.err
    report = json.loads((out / "report.json").read_text())
    by_line = {p["line"]: p for p in report["pragmas"]}
    b = by_line[line_of(src, "b array")]
    assert (b["pragma"], b["as"], b["applied"], b["depth"]) == (
        "HLS_interface b array 16", "interface mode=ap_memory port=b depth=16", True, 16)
    assert by_line[line_of(src, "n none")]["applied"]
    assert not by_line[line_of(src, "simple_pipeline")]["applied"]
    # on Alveo the m_axi ones are its AXI masters, with their bundles
    res = synthesize(src, SynthOptions(top="acc", target="alveo"))
    assert res.axi.bundle_of == {"a": "gmem0", "b": "gmem", "c": "gmem1"}, res.axi.bundle_of
