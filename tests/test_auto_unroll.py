"""Automatic unrolling of pipelined loops (hls.flow.plan_unrolling): a loop is unrolled
where its estimated cycles drop, not where they do not, never against a directive, and
the unrolled design matches native execution with the cycles the estimate predicted."""

from __future__ import annotations

from hls.flow import SynthOptions, synthesize
from hls.verify import cosim

# a dot product (two loads of two memories per iteration, an add recurrence that chains
# twice in a cycle) and a recurrence through a multiplier, whose copies would only
# lengthen the recurrence
PROGRAM = """
static int a[64], b[64];
int main(void) {
    for (int i = 0; i < 64; i++) { a[i] = i * 7 - 100; b[i] = 3 - i; }
    int s = 0;
    for (int i = 0; i < 64; i++)
        s += a[i] * b[i];
    unsigned h = 1;
    for (int i = 0; i < 64; i++)
        h = h * 2654435761u + (unsigned)a[i];
    return s ^ (int)h;
}
"""


def _loops(res) -> dict[int, dict]:
    return {lp["source_line"]: lp for lp in res.report["loops"]}


def test_unrolled_where_it_pays_and_checked(tmp_path):
    src = tmp_path / "dot.c"
    src.write_text(PROGRAM)
    res = synthesize(src, SynthOptions(top="main", loop_probes=True))
    plain = synthesize(src, SynthOptions(top="main", auto_unroll=False))
    got, before = _loops(res), _loops(plain)
    dot, hash_ = got[6], got[9]       # by the lines of their for statements
    assert dot["unrolled"] in (2, 4) and dot["pipelined"]
    assert dot["estimate"]["pipelined_cycles"] <= 0.9 * before[6]["estimate"]["pipelined_cycles"]
    # the multiply recurrence: II doubles with two copies, so no gain and no unrolling
    assert "unrolled" not in hash_ and hash_["pipelined"]
    assert all("unrolled" not in lp for lp in before.values())
    r, rp = cosim(src, "main", synth=res, profile_loops=True), cosim(src, "main", synth=plain)
    assert r.passed and rp.passed, (r.summary(), rp.summary())
    assert r.total_cycles < rp.total_cycles
    for p in r.loops:        # every loop's cycles are the model's (n - 1) x II + depth
        if p.model_cycles is not None:
            assert p.cycles == p.model_cycles, p


def test_a_directive_keeps_a_loop_rolled(tmp_path):
    src = tmp_path / "dot.c"
    src.write_text(PROGRAM)
    dirs = tmp_path / "d.toml"
    dirs.write_text('[[loop]]\nfunction = "main"\nline = 6\nunroll = 1\n')
    res = synthesize(src, SynthOptions(top="main", directives=str(dirs)))
    assert "unrolled" not in _loops(res)[6]


NEST = """
static int m[32][4], v[4], out[32];
int main(void) {
    for (int i = 0; i < 32; i++)
        for (int k = 0; k < 4; k++)
            m[i][k] = i * 3 - k * 5;
    for (int k = 0; k < 4; k++)
        v[k] = k + 1;
    for (int i = 0; i < 32; i++) {
        int s = 0;
        for (int k = 0; k < 4; k++)
            s += m[i][k] * v[k];
        out[i] = s;
    }
    int h = 0;
    for (int i = 0; i < 32; i++)
        h = h * 31 + out[i];
    return h;
}
"""


def test_short_inner_loop_fully_unrolled_and_its_parent_pipelined(tmp_path):
    src = tmp_path / "nest.c"
    src.write_text(NEST)
    res = synthesize(src, SynthOptions(top="main", loop_probes=True))
    plain = synthesize(src, SynthOptions(top="main", auto_unroll=False))
    got = {lp["loop"]: lp for lp in res.report["loops"]}
    before = {lp["loop"]: lp for lp in plain.report["loops"]}
    # before: the k loop of line 11 pipelined inside a sequential i loop
    inner = next(name for name, lp in before.items() if lp["source_line"] == 11)
    # the i loop around it: the second of the two outer loops (the first initialises m)
    outer = [name for name, lp in before.items()
             if lp.get("not_pipelined_reason") == "not an innermost loop"][-1]
    assert before[inner]["pipelined"]
    # after: no k loop left, the i loop is pipelined over the whole nest
    assert inner not in got and got[outer]["pipelined"]
    r, rp = cosim(src, "main", synth=res, profile_loops=True), cosim(src, "main", synth=plain)
    assert r.passed and rp.passed, (r.summary(), rp.summary())
    assert r.total_cycles < rp.total_cycles
    for p in r.loops:
        if p.model_cycles is not None:
            assert p.cycles == p.model_cycles, p


# PolyBench's initialisation helper (vericert's misc.h): two data-dependent do-while
# loops per call, about three iterations each per entry in the profile
MODULO = """
static unsigned modulo(unsigned x, unsigned y) {
    unsigned r0 = x, q0 = 0, y0 = y, y1 = y;
    do { y1 = 2 * y1; } while (y1 <= x);
    do {
        y1 = y1 / 2; q0 = 2 * q0;
        if (r0 >= y1) { r0 = r0 - y1; q0 = q0 + 1; }
    } while ((int)y1 != (int)y0);
    return r0;
}
static int A[12][10];
int main(void) {
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 10; j++)
            A[i][j] = (int)modulo((unsigned)(i * (j + 1)), 5u);
    int s = 0;
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 10; j++)
            s = s * 3 + A[i][j];
    return s;
}
"""


def test_data_dependent_loops_of_few_iterations_unrolled(tmp_path):
    """A loop without a constant trip count, of 2 to 4 iterations per entry in the
    profile, is unrolled with an exit test per copy where that pays, and the design
    matches native execution in fewer cycles."""
    src = tmp_path / "mod.c"
    src.write_text(MODULO)
    res = synthesize(src, SynthOptions(top="main"))
    plain = synthesize(src, SynthOptions(top="main", auto_unroll=False))
    whiles = [lp for lp in res.report["loops"] if lp["trip_count"] is None]
    rolled = [lp for lp in plain.report["loops"] if lp["trip_count"] is None]
    assert len(whiles) == len(rolled) == 2
    for lp in rolled:     # 2.7 iterations per entry: below 4, where unrolling was not tried
        assert 2 <= lp["estimate"]["iterations"] / lp["estimate"]["entries"] < 4, lp
    assert all(lp.get("unrolled", 1) >= 2 for lp in whiles), whiles
    r, rp = cosim(src, "main", synth=res), cosim(src, "main", synth=plain)
    assert r.passed and rp.passed, (r.summary(), rp.summary())
    assert r.total_cycles < 0.9 * rp.total_cycles, (r.total_cycles, rp.total_cycles)
