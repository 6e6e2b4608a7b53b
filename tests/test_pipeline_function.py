"""Function pipelining: ``#pragma HLS pipeline II=N`` in a function's body and
``--pipeline-function F=II``.  The function's loops are fully unrolled, it is inlined
into its callers, and the loops that call it are pipelined, so a new call starts every II
cycles.  Each design is co-simulated against native execution with ``main`` of
``tests/kernels/pipe_function.c``, which calls every top with n = 64 and then n = 17: the
two calls differ by exactly 47 x II cycles when a call starts every II cycles, back to
back, under a branch (calls at irregular intervals), and where the caller's memory
ports or its own recurrence hold the calls back to a larger II."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import assert_one_error, write_source
from hls.cli import main
from hls.errors import HLSError
from hls.flow import SynthOptions, synthesize
from hls.verify import cosim

KERNEL = Path(__file__).parent / "kernels" / "pipe_function.c"


def _pipelined(res, name: str) -> dict:
    (lp,) = [lp for lp in res.report["loops"] if lp["name"] == name]
    assert lp["pipelined"], lp
    return lp


@pytest.mark.parametrize("top,funcs,relax,loop,ii", [
    ("run", (), False, "calls", 2),                       # the pragma's II, back to back
    ("sparse", (("poly", 1),), False, "odd", 1),          # calls where the element is odd
    ("window", (("poly", 1),), True, "win", 2),           # two ports for three reads
    ("chain", (("poly", None),), False, "dep", None),     # each call needs the last one
])
def test_a_call_starts_every_ii_cycles(tmp_path, top, funcs, relax, loop, ii):
    opts = SynthOptions(top=top, pipeline_functions=funcs, relax_ii=relax)
    res = synthesize(KERNEL, opts)
    lp = _pipelined(res, loop)
    if ii is not None:
        assert lp["ii"] == ii, lp
    else:                           # the caller's recurrence through the call sets it
        assert lp["ii"] > 1 and lp["ii"] == lp["rec_mii"], lp
    got = cosim(KERNEL, top, tb=KERNEL, synth=res, workdir=tmp_path)
    assert got.passed, got.mismatches
    long, short = (c.cycles for c in got.calls)
    assert long - short == (64 - 17) * lp["ii"], (long, short, lp["ii"])
    lat = res.report["latency"]
    assert lat["min"] <= short and long <= lat["max"]
    (entry,) = [e for e in res.report["pragmas"] if e.get("applied")]
    assert entry["function_pipelined"] == ("mac4" if top == "run" else "poly")
    assert entry["callers_pipelined"] == [loop] and entry["ii_reached"] == lp["ii"]
    assert entry["unrolls_nested"] and entry["pipelined"]


def test_pipeline_function_option_and_its_errors(tmp_path, capsys):
    """``--pipeline-function`` says in the summary what it did; it is an error for a
    function the design does not hold, for the top, for a function whose loop has no
    constant trip count, and beside the function's own pragma; the II a caller's ports
    cannot meet is an error that names --relax-ii, at the caller's loop."""
    out = tmp_path / "o"
    assert main(["synth", str(KERNEL), "--top", "sparse", "--pipeline-function", "poly=1",
                 "-o", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "--pipeline-function poly=1: applied: pipelined, II=1; callers' loops pipelined: odd" \
        in shown
    for args, why in (
            (["--top", "sparse", "--pipeline-function", "mac4"], "no function mac4 in the design"),
            (["--top", "run", "--pipeline-function", "mac4=3"],
             "mac4 has a #pragma HLS pipeline of its own"),
            (["--top", "window", "--pipeline-function", "window"], "window is the top function")):
        assert main(["synth", str(KERNEL), *args, "-o", str(tmp_path / "x")]) == 1
        err = capsys.readouterr().err
        assert why in err and "Traceback" not in err, err
        assert not (tmp_path / "x").exists()
    with pytest.raises(HLSError, match=r"the requested II=1 cannot be met.*--relax-ii"):
        synthesize(KERNEL, SynthOptions(top="window", pipeline_functions=(("poly", 1),)))
    with pytest.raises(SystemExit):
        main(["synth", str(KERNEL), "--top", "run", "--pipeline-function", "poly=0"])
    assert "the II must be an integer > 0" in capsys.readouterr().err


def test_pipelined_function_needs_constant_loops(tmp_path, capsys, monkeypatch):
    src = write_source(tmp_path, "var.c", """
        static int acc(const int *a, int n) {
        #pragma HLS pipeline II=1
            int s = 0;
            for (int k = 0; k < n; k++)
                s += a[k];
            return s;
        }
        void top(const int a[64], int b[8], int n) {
            for (int i = 0; i < 8; i++)
                b[i] = acc(a + 8 * i, n);
        }
        """)
    monkeypatch.chdir(tmp_path)
    assert main(["synth", src.name, "--top", "top", "--depth", "a=64", "-o", "o"]) == 1
    assert_one_error(capsys.readouterr().err, src, "#pragma HLS pipeline",
                     ["the loop at line @@for (int k@@ of acc has no constant trip count",
                      "unrolls its loops fully"])
    assert not (tmp_path / "o").exists()


def test_an_ii_asked_for_may_need_the_automatic_banks(tmp_path):
    """An II a pragma asks for that only automatic partitioning's banks reach (four reads
    of a table an iteration, from the unrolled inner loop, on two ports) is met, not an
    error: the first schedule takes the least II above it, and the loop is scheduled
    again as asked once the banks are made.  Without automatic partitioning it is the
    error it always was."""
    src = write_source(tmp_path, "tab.c", """
        static int T[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
        void tab(const int a[32], int b[32]) {
            for (int i = 0; i < 32; i++) {
        #pragma HLS pipeline II=1
                int s = 0;
                for (int k = 0; k < 4; k++)
                    s += T[k] * (a[i] >> k);
                b[i] = s;
            }
        }
        """)
    res = synthesize(src, SynthOptions(top="tab"))
    (lp,) = res.report["loops"]
    assert lp["ii"] == 1 and lp["pipelined"], lp
    assert [a["auto"] for a in res.report["arrays"]] == [True]
    with pytest.raises(HLSError, match=r"the requested II=1 cannot be met"):
        synthesize(src, SynthOptions(top="tab", auto_partition=False))
