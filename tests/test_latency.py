"""report.json's latency (hls.estimate._latency) against co-simulated cycles per call.

Two small kernels of tests/kernels/latency.c, each co-simulated once on its testbench's
calls: ``nest`` (constant trip counts: a pipelined inner loop entered 8 times per call,
a call to a non-inlined function with a loop of its own) must be exact, ``search`` (a
data-dependent branch in a counted loop, a data-dependent while loop) within bounds.
Every call is also replayed: the cost model on the block visits of the final CDFG
interpreted on that call must give the measured cycles exactly.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hls.estimate import Span, replay_calls
from hls.flow import SynthOptions, synthesize
from hls.rtl import entry_cycles
from hls.verify import cosim

SRC = Path(__file__).parent / "kernels" / "latency.c"
DEPTH = {"a": 64, "out": 8}


def _run(top: str):
    res = synthesize(SRC, SynthOptions(top=top, depth=DEPTH))
    r = cosim(SRC, top, tb=SRC, depth=DEPTH, synth=res)
    assert r.passed, r.summary()
    return res, r


@pytest.fixture(scope="module")
def nest():
    return _run("nest")


@pytest.fixture(scope="module")
def search():
    return _run("search")


def _loops(res):
    return {(lp["function"], lp["loop"]): lp for lp in res.report["loops"]}


def test_constant_trips_exact(nest):
    res, r = nest
    lat = res.report["latency"]
    assert lat["exact"] and lat["min"] == lat["max"]
    assert len(r.calls) == 2
    assert [c.cycles for c in r.calls] == [lat["min"]] * 2
    # the old keys agree with the new ones; an FSMD top starts again the cycle after done
    assert lat["min_cycles"] == lat["min"]
    assert lat["interval"] == {"min": lat["min"], "max": lat["max"]}
    assert "assumptions" not in lat
    assert replay_calls(res.module, res.schedules, r.stimulus) == [c.cycles for c in r.calls]


def test_nested_pipelined_loop_entries(nest):
    res, _ = nest
    loops = _loops(res)
    nest_loops = [lp for (fn, _), lp in loops.items() if fn == "nest"]
    inner = [lp for lp in nest_loops if lp["pipelined"]]
    assert len(inner) == 1, nest_loops
    inner = inner[0]
    n = 8 // inner.get("unrolled", 1)       # automatic unrolling may pair iterations
    assert inner["latency"]["trip_count"] == {"min": n, "max": n}
    assert inner["latency"]["entries_per_call"] == {"min": 8, "max": 8}
    # one entry: (n - 1) x II + exit time + 1, the pipeline's own figures
    fs = next(s for f, s in res.schedules.items() if f.name == "nest")
    lp = next(p for b, p in fs.pipelines.items() if b.name == inner["loop"])
    assert inner["latency"]["min"] == inner["latency"]["max"] == entry_cycles(lp, n)
    assert entry_cycles(lp, n) == (n - 1) * inner["ii"] + inner["depth"]
    outer = [lp for lp in nest_loops if not lp["pipelined"]]
    assert [o["latency"]["entries_per_call"] for o in outer] == [{"min": 1, "max": 1}]
    # the callee's loop runs once per call of scale, scale once per outer iteration
    (scale_loop,) = [lp for (fn, _), lp in loops.items() if fn == "scale"]
    assert scale_loop["latency"]["entries_per_call"] == {"min": 8, "max": 8}


def test_call_adds_callee_latency(nest):
    res, _ = nest
    funcs = {f["name"]: f for f in res.report["functions"]}
    scale = funcs["scale"]["latency"]
    assert scale["exact"]
    # the outer loop's entry holds 8 calls of scale: take them out and what is left is
    # the caller's own states, which do not depend on the callee
    outer = next(lp for (fn, _), lp in _loops(res).items() if fn == "nest" and not lp["pipelined"])
    assert outer["latency"]["min"] > 8 * scale["min"]
    assert funcs["nest"]["latency"]["min"] == res.report["latency"]["min"]


def test_data_dependent_bounds(search):
    res, r = search
    lat = res.report["latency"]
    assert not lat["exact"] and lat["max"] is None
    measured = [c.cycles for c in r.calls]
    assert len(measured) == 3 and len(set(measured)) > 1
    assert all(lat["min"] <= m for m in measured)
    assert lat["min_cycles"] == lat["min"]
    assert replay_calls(res.module, res.schedules, r.stimulus) == measured
    # the Collatz loop has no maximum: named with its source line (its body's, the
    # header of the rotated loop)
    w = next(i for i, t in enumerate(SRC.read_text().splitlines(), 1) if "while (v > 1u)" in t)
    (collatz,) = [lp for lp in res.report["loops"] if lp["latency"]["max"] is None]
    assert w <= collatz["source_line"] <= w + 3
    assert collatz["latency"]["trip_count"] == {"min": 1, "max": None}
    assert len(lat["assumptions"]) == 1
    assert f"latency.c:{collatz['source_line']}" in lat["assumptions"][0]
    # the search loop leaves early or by its counted test: 1 to 64 iterations, bounded
    (early,) = [lp["latency"] for lp in res.report["loops"]
                if lp["latency"]["trip_count"] == {"min": 1, "max": 64}]
    assert early["max"] is not None and early["min"] < early["max"]
    # the counted loop with a branch whose sides differ (one calls scale): min < max,
    # both bounded
    counted = [lp for lp in res.report["loops"]
               if lp["function"] == "search" and lp["latency"]["trip_count"]["max"] == 8]
    assert len(counted) == 1
    c = counted[0]["latency"]
    assert c["min"] < c["max"]


def test_span_arithmetic():
    assert Span(1, 2) + Span(3, None) == Span(4, None)
    assert Span(2, 3).join(Span(1, 2)) == Span(1, 3)
    assert Span(2, 3).times(Span(0, 4)) == Span(0, 12)
    assert Span(2, None).times(Span(0, 0)) == Span(0, 0)
    assert Span(5, 5).exact and not Span(5, None).exact


def test_summary_table_shows_the_report(nest, search, tmp_path):
    """pyhls synth's Vitis-style table is read from report.json: the top's min/max, one
    row per loop with its latency, II and trip count, the resources; ``?`` where the
    report has no bound; the same text is written to report.rpt."""
    from hls.estimate._summary import summary_table
    from hls.flow import write_outputs

    for res, _ in (nest, search):
        rep = res.report
        text = summary_table(rep)
        rows = {ln.split("|")[1].strip(): [c.strip() for c in ln.split("|")[2:-1]]
                for ln in text.splitlines() if ln.strip().startswith("|")}
        lat = rep["latency"]
        top = next(v for k, v in rows.items() if k == str(lat["min"]))
        assert top[0] == (str(lat["max"]) if lat["max"] is not None else "?")
        for lp in rep["loops"]:
            # unlabelled: FUNCTION/L<line>, the loop's name
            assert lp["name"] == f"{lp['function']}/L{lp['source_line']}"
            row = rows[lp["name"]]
            ll = lp["latency"]
            assert row[0] == str(ll["min"]) and row[1] == (str(ll["max"]) if ll["max"] is not None else "?")
            assert row[3] == (str(lp["ii"]) if lp["pipelined"] else "-")
            assert row[6] == ("yes" if lp["pipelined"] else "no")
        est = rows["estimate (model)"]
        r = rep["resources"]
        assert est == [str(r["bram18"]), str(r["dsp"]), str(r["ff"]), str(r["lut"])]
    write_outputs(nest[0], tmp_path / "out")
    assert (tmp_path / "out" / "report.rpt").read_text() == summary_table(nest[0].report)
    assert "?" not in (tmp_path / "out" / "report.rpt").read_text().split("+ Loops")[0]


def test_tripcount_directive_bounds_the_while_loop(search, tmp_path, capfd):
    """A ``tripcount`` directive on the loop without a constant trip count gives the call a
    maximum (not exact: it rests on the directive, which the report says); the measured
    calls fall inside; on a loop with a constant trip count it is ignored with a warning."""
    res0, r = search
    assert res0.report["latency"]["max"] is None
    d = tmp_path / "d.toml"
    # Collatz steps of v < 256: at most 127, so at most 128 header executions per entry
    d.write_text('[[loop]]\nfunction = "search"\nline = 43\ntripcount = [0, 128]\n'
                 '[[loop]]\nfunction = "search"\nline = 33\ntripcount = 3\n')
    res = synthesize(SRC, SynthOptions(top="search", depth=DEPTH, directives=str(d)))
    assert res.verilog == res0.verilog          # a reporting directive: the design is unchanged
    lat = res.report["latency"]
    assert lat["max"] is not None and not lat["exact"] and lat["min"] == res0.report["latency"]["min"]
    assert any("tripcount directive, assumed, not proven" in a for a in lat["assumptions"])
    assert all(lat["min"] <= c.cycles <= lat["max"] for c in r.calls)
    lp = next(lp for lp in res.report["loops"] if lp["source_line"] == 43)
    assert lp["latency"]["trip_count"] == {"min": 1, "max": 128} and "assumed" in lp["latency"]
    err = capfd.readouterr().err
    assert "latency.c:33: warning: tripcount directive 3..3" in err and "constant 8" in err


@pytest.mark.parametrize("value", ["-1", "[5, 2]", "true", '"many"', "[1, 2, 3]"])
def test_tripcount_directive_errors(tmp_path, value):
    from hls.directives import load_directives
    from hls.errors import HLSError

    d = tmp_path / "d.toml"
    d.write_text(f'[[loop]]\nfunction = "search"\nline = 43\ntripcount = {value}\n')
    with pytest.raises(HLSError, match="'tripcount' must be a count"):
        load_directives(d)


EXTENT = Path(__file__).parent / "kernels" / "extent_bounds.c"


@pytest.mark.parametrize("top,bound,args", [
    ("sum_n", 100, lambda r: [r.randint(-5, 100)]),
    ("sum_back", 100, lambda r: [r.randint(-5, 100)]),
    ("sum_step3", 34, lambda r: [r.randint(-5, 100)]),
    ("copy_n", 40, lambda r: [r.randint(-5, 40)]),
    ("wrapped", None, lambda r: [r.randint(0, 1000)]),
    ("masked", None, lambda r: [r.randint(0, 1000)]),
    ("guarded", None, lambda r: [r.randint(0, 1000), r.randint(-5, 100)]),
])
def test_array_depth_bounds_the_trip_count(top, bound, args):
    """A loop counted by an argument has at most as many iterations as the array it
    steps through in every iteration has words (C's accesses stay within their arrays);
    an index that wraps, or an access that does not run in every iteration, bounds
    nothing.  The bounds hold on the final CDFG: the cycles the cost model gives for
    the interpreted run of random and edge calls (the largest legal count included)
    lie within the report's min and max, and the largest count reaches max."""
    import random

    from hls.verify import Call
    res = synthesize(EXTENT, SynthOptions(top=top))
    (lp,) = res.report["loops"]
    u = lp.get("unrolled", 1)            # automatic unrolling: u iterations per trip
    assert lp["latency"]["trip_count"]["max"] == (bound and -(-bound // u)), lp
    lat = res.report["latency"]
    assert (lat["max"] is None) == (bound is None)
    if bound is not None:
        assert f"at most {-(-bound // u)} iterations per entry" in " ".join(lat["assumptions"])
    rng = random.Random(7)
    f = res.module.top
    counts = [args(rng) for _ in range(12)]
    edge = {"sum_n": [[100], [0], [1]], "sum_back": [[100], [0]], "sum_step3": [[100], [98]],
            "copy_n": [[40]], "wrapped": [[1000]], "masked": [[1000]],
            "guarded": [[1000, 100]]}[top]
    calls = []
    for vals in edge + counts:
        mem = {p.index: bytes(rng.randrange(256) for _ in range(p.mem.word_bytes
                                                               * p.mem.depth_words))
               for p in f.ptr_params}
        calls.append(Call(scalars={p.index: v & ((1 << p.width) - 1)
                                   for p, v in zip(f.scalar_params, vals)}, mem_in=mem))
    got = replay_calls(res.module, res.schedules, calls)
    assert all(lat["min"] <= c and (lat["max"] is None or c <= lat["max"]) for c in got), got
    if bound is not None:
        assert got[0] == lat["max"]         # the largest legal count: the bound is tight


@pytest.mark.parametrize("top,factor,kind", [
    ("sum_from", 4, "cyclic"), ("sum_from", 2, "cyclic"), ("sum_from", 4, "complete"),
    ("sum_n", 4, "block"), ("sum_n", 4, "cyclic")])
def test_array_depth_bound_survives_partitioning(tmp_path, top, factor, kind):
    """Unrolled by ``factor`` with a run-time count, the copies after the first are
    guarded and the first steps ``factor`` words an iteration: 100 words bound the loop
    to ceil(100 / factor) trips.  Partitioning the array splits an access whose bank is
    not static (a run-time start, as a CRS row has; a block partition of an unrolled
    walk) into guarded bank accesses, which bound nothing: the bound recorded on the
    back edge before the rewrite (``extent_bound``) still holds, so max is finite,
    every replayed call lies within min..max and the largest legal count meets max."""
    import random

    from hls.verify import Call
    line = {"sum_n": 6, "sum_from": 57}[top]
    d = tmp_path / "d.toml"
    d.write_text(f'[[loop]]\nfunction = "{top}"\nline = {line}\nunroll = {factor}\n'
                 f'[[array]]\nfunction = "{top}"\nname = "a"\npartition = "{kind}"\n'
                 + (f'factor = {factor}\n' if kind != "complete" else ""))
    res = synthesize(EXTENT, SynthOptions(top=top, directives=str(d)))
    assert [a["name"] for a in res.report["arrays"]] == ["a"], res.report["arrays"]
    (lp,) = res.report["loops"]
    bound = -(-100 // factor)
    assert lp["latency"]["trip_count"]["max"] == bound, lp
    lat = res.report["latency"]
    assert f"at most {bound} iterations per entry" in " ".join(lat["assumptions"])
    rng = random.Random(11)
    f = res.module.top
    # (lo, hi): the whole array first, the largest legal count
    spans = [(0, 100), (0, 0), (5, 6), (1, 100), (0, factor + 1), (99, 100), (7, 3)]
    spans += [tuple(sorted((rng.randint(0, 100), rng.randint(0, 100)))) for _ in range(8)]
    calls = []
    for lo, hi in spans:
        mem = {p.index: bytes(rng.randrange(256) for _ in range(
            p.mem.word_bytes * p.mem.depth_words)) for p in f.ptr_params}
        vals = [lo, hi] if top == "sum_from" else [hi - lo]
        calls.append(Call(scalars={p.index: v & 0xFFFFFFFF
                                   for p, v in zip(f.scalar_params, vals)}, mem_in=mem))
    got = replay_calls(res.module, res.schedules, calls)
    assert all(lat["min"] <= c <= lat["max"] for c in got), (got, lat)
    assert got[0] == lat["max"]


def test_counted_test_duplicated_into_both_paths(tmp_path):
    """A counted loop whose body branches on an invariant, where the frontend duplicated
    the counter's test into both paths (the latch only jumps back): the trip count is
    still the constant, and each path's exit is an exit after exactly that many
    iterations, so the call is bounded: the replayed cycles of every call lie within
    min..max and each path's calls meet one end."""
    from helpers import write_source

    from hls.analysis import counted_tests, find_loops
    from hls.verify import Call
    src = write_source(tmp_path, "dup.c", """
        #include <stdint.h>
        void dup(const uint32_t cdf[64], uint8_t map[64], int32_t n) {
            for (int b = 0; b < 64; b++)
                map[b] = n > 0 ? (uint8_t)((cdf[b] * 255u + (uint32_t)n / 2u) / (uint32_t)n) : 0;
        }
        """)
    res = synthesize(src, SynthOptions(top="dup"))
    f = res.module.top
    loops = [lp for lp in find_loops(f) if len(counted_tests(lp)) == 2]
    assert len(loops) == 1 and loops[0].trip_count == 64, [
        (lp.header.name, [b.name for b in counted_tests(lp)]) for lp in find_loops(f)]
    (entry,) = res.report["loops"]
    assert entry["trip_count"] == 64
    lat = res.report["latency"]
    assert lat["max"] is not None and "assumptions" not in lat, lat
    calls = [Call(scalars={f.scalar_params[0].index: n & 0xFFFFFFFF},
                  mem_in={p.index: bytes(range(p.mem.word_bytes * p.mem.depth_words % 256))
                          .ljust(p.mem.word_bytes * p.mem.depth_words, b"\1")
                          for p in f.ptr_params})
             for n in (0, -3, 5, 1000)]
    got = replay_calls(res.module, res.schedules, calls)
    assert all(lat["min"] <= c <= lat["max"] for c in got), (got, lat)
    assert {got[0], got[2]} == {lat["min"], lat["max"]}, (got, lat)


def test_counters_updated_by_shifts(tmp_path):
    """``s >>= 1`` and ``m <<= 1`` counters with constant bounds have constant trip
    counts (7 and 8), so the call is exact: the replayed cycles equal min = max."""
    from helpers import write_source

    from hls.verify import Call
    src = write_source(tmp_path, "sh.c", """
        #include <stdint.h>
        int32_t sh(const int32_t a[128], int32_t k) {
            int32_t s = 0;
            for (int span = 64; span > 0; span >>= 1) {
                int32_t t = a[span - 1] ^ k;
                s = s * 3 + (t >> 2);
            }
            for (unsigned m = 1; m < 200u; m <<= 1)
                s += a[m & 127] * (int32_t)m;
            return s;
        }
        """)
    res = synthesize(src, SynthOptions(top="sh", auto_unroll=False))
    trips = sorted(lp["trip_count"] for lp in res.report["loops"])
    assert trips == [7, 8], res.report["loops"]
    lat = res.report["latency"]
    assert lat["exact"] and lat["min"] == lat["max"], lat
    f = res.module.top
    calls = [Call(scalars={f.scalar_params[0].index: k},
                  mem_in={f.ptr_params[0].index: bytes(range(256)) * 2}) for k in (0, 77)]
    assert replay_calls(res.module, res.schedules, calls) == [lat["min"]] * 2
