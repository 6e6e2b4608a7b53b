"""Pipelining only where it pays (hls.scheduling.Profitability): the profile of a whole
program, the estimates, and the decisions they drive, checked against co-simulation."""

from __future__ import annotations

from pathlib import Path

from hls.analysis import find_loops, profile_top
from hls.flow import SynthOptions, synthesize
from hls.frontend import FrontendOptions, load
from hls.scheduling import iteration_weights
from hls.verify import cosim

PROGRAMS = Path(__file__).resolve().parent / "programs"
RARE = PROGRAMS / "rare_heavy_branch.c"

NESTED = """
static int m[6][5];
int main(void) {
    int s = 0;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j <= i % 5; j++)
            s += m[i][j] += i + j;
    return s;
}
"""


def test_profile_counts_iterations_and_entries(tmp_path):
    src = tmp_path / "nested.c"
    src.write_text(NESTED)
    module = load(src, "main")
    prof = profile_top(module)
    assert prof is not None and prof.complete
    outer, inner = find_loops(module.top)
    assert prof.loop_counts(outer) == (6, 1)
    # inner trip counts 1, 2, 3, 4, 5, 1 over six entries
    assert prof.loop_counts(inner) == (16, 6)


def test_a_top_with_arguments_is_not_profiled(tmp_path):
    src = tmp_path / "k.c"
    src.write_text("int k(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }")
    assert profile_top(load(src, "k")) is None


def test_static_weights_split_branches_evenly(tmp_path):
    src = tmp_path / "diamond.c"
    src.write_text("void f(int *a, int *b, int n) {\n"
                   "  for (int i = 0; i < n; i++) { if (a[i] > 0) a[i] = 1; else b[i] = 2; }\n}\n")
    module = load(src, "f", FrontendOptions(depth={"a": 64, "b": 64}))
    (lp,) = find_loops(module.top)
    w = {b.name: x for b, x in iteration_weights(lp, None).items()}
    assert w == {"for_body": 1.0, "if_then": 0.5, "if_else": 0.5, "for_inc": 1.0}


def test_unprofitable_if_conversion_keeps_the_branches():
    # without automatic unrolling (which --pipeline-always has not either), so that the
    # difference below is the if-conversion decision's alone
    res = synthesize(RARE, SynthOptions(top="main", auto_unroll=False))
    lp = next(l for l in res.report["loops"] if l["loop"] == "for_body7")
    assert not lp["pipelined"]
    assert lp["not_pipelined_reason"].startswith("its branches are kept")
    est = lp["estimate"]
    assert est["counts_from"] == "profile" and est["iterations"] == 64
    assert est["pipelined_cycles"] > est["sequential_cycles"]
    forced = synthesize(RARE, SynthOptions(top="main", profitability=False))
    assert next(l for l in forced.report["loops"] if l["loop"] == "for_body7")["pipelined"]
    # and the estimate was right: the kept branches are faster in co-simulation
    r, rf = cosim(RARE, "main", synth=res), cosim(RARE, "main", synth=forced)
    assert r.passed and rf.passed
    gain = rf.total_cycles - r.total_cycles
    assert gain > 0
    assert abs(gain - (est["pipelined_cycles"] - est["sequential_cycles"])) <= 8
