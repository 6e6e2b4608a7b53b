"""Design-space exploration (hls.dse): the Pareto front, the candidate space of a
kernel, the search, and ``pyhls dse`` on a local Dask cluster, whose front's directives
files ``pyhls synth`` builds into the designs evaluated, whatever the number of
workers."""

from __future__ import annotations

import dataclasses
import json
import os
import re
from pathlib import Path

import pytest

from hls.cli import main
from hls.dse import (DesignPoint, Knob, Resources, Result, ResultCache, Space,
                     compile_design, costs, design_space, explore, pareto_front)
from hls.dse._search import pareto_layers
from hls.dse._space import ii_candidates, matching_partition, partition_candidates
from hls.estimate import TopLatency
from hls.flow import SynthOptions

ROOT = Path(__file__).resolve().parent.parent

SCALE = """
void scale(const int a[16], int b[16]) {
    for (int i = 0; i < 16; i++)
        b[i] = a[i] * 3 + 1;
}
"""

SCALE_TB = """
int main(void) {
    int a[16], b[16];
    for (int r = 0; r < 2; r++) {
        for (int i = 0; i < 16; i++)
            a[i] = i * 7 - r;
        scale(a, b);
        for (int i = 0; i < 16; i++)
            if (b[i] != a[i] * 3 + 1)
                return 1;
    }
    return 0;
}
"""

NEST = """
void nest(const int a[24], int b[4]) {
    int t[6];
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 6; j++)
            t[j] = a[i * 6 + j] + j;
        b[i] = t[0] + t[5];
    }
}
"""


def test_pareto_front():
    """Minimised in both costs: dominated points drop out, equal vectors keep the
    first, points without costs are never on the front; the order is the input's."""
    pts = [(10, 100), (5, 200), (10, 90), None, (20, 50), (5, 200), (6, 300), (20, 60),
           (1, 1000)]
    assert pareto_front(pts) == [1, 2, 4, 8]
    assert pareto_front([]) == [] and pareto_front([None]) == []
    assert pareto_front([(3, 3)]) == [0]
    assert pareto_front([(2, 1), (1, 2)]) == [0, 1]
    assert pareto_front([(1, 1, 5), (1, 1, 4)]) == [1]     # any number of costs


def test_space_of_a_loop_and_two_arrays(tmp_path):
    """A 16-iteration loop: unroll 1, 2, 4, 8 or fully, pipelined or not; its two
    16-word argument arrays whole, cyclic 2, 4, 8 or complete; a fully unrolled loop
    has no pipeline setting (one design, one point)."""
    src = tmp_path / "scale.c"
    src.write_text(SCALE)
    space = design_space(compile_design(src, SynthOptions(top="scale")))
    parts = (("none", 0), ("cyclic", 2), ("cyclic", 4), ("cyclic", 8), ("complete", 0))
    assert space.knobs == (Knob("unroll", ("scale", 3, None), (1, 2, 4, 8, "full")),
                           Knob("pipeline", ("scale", 3, None), (True, False)),
                           Knob("partition", ("scale", "a"), parts),
                           Knob("partition", ("scale", "b"), parts))
    assert space.size() == (4 * 2 + 1) * 5 * 5 == len(list(space.points()))
    assert not space.feasible((4, 1, 0, 0)) and space.feasible((4, 0, 0, 0))
    assert space.point(space.default).to_toml() == (
        '[[loop]]\nfunction = "scale"\nline = 3\nunroll = 1\npipeline = true\n\n'
        '[[array]]\nfunction = "scale"\nname = "a"\npartition = "none"\n\n'
        '[[array]]\nfunction = "scale"\nname = "b"\npartition = "none"\n')
    # the loop reads a and writes b once an iteration, one word further each time
    assert space.trips == {("scale", 3, None): 16}
    assert space.touches == {("scale", 3, None): ((2, 1), (3, 1))}
    assert space.own == {("scale", 3, None): (2, 3)} and space.parent == {("scale", 3, None): None}
    # rolled, one access an iteration: more banks cannot help (only fewer are tried)
    assert space.neighbours((0, 0, 0, 0)) == [(0, 1, 0, 0), (1, 0, 0, 0)]
    assert space.neighbours((0, 0, 2, 1)) == [(0, 0, 1, 1), (0, 0, 2, 0), (0, 1, 2, 1),
                                              (1, 0, 2, 1)]
    assert space.neighbours((3, 1, 4, 0)) == [(2, 1, 4, 0), (3, 0, 4, 0), (3, 1, 3, 0),
                                              (3, 1, 4, 1)]
    # unrolled one step further with the banks to feed it: one copy a bank, or two
    assert space.coupled((0, 0, 0, 0)) == [(1, 0, 1, 1)]
    assert space.coupled((2, 0, 0, 0)) == [(3, 0, 2, 2), (3, 0, 3, 3)]
    assert space.coupled((3, 0, 1, 4)) == [(4, 0, 3, 4), (4, 0, 4, 4)]
    assert all(space.feasible(n) for n in space.coupled((3, 1, 0, 0)))


BUTTERFLY = """
void bf(int re[32]) {
    for (int log = 0; log < 5; log++) {
        int span = 16 >> log;
        for (int b = 0; b < 16; b++) {
            int odd = ((b & ~(span - 1)) << 1) | span | (b & (span - 1));
            int even = odd ^ span, e = re[even], o = re[odd];
            re[even] = e + o;
            re[odd] = e - o;
        }
    }
}
"""


def test_coupled_moves_offer_a_complete_partition_for_addresses_without_a_stride(tmp_path):
    """The butterflies' addresses are masks and shifts of the counter (no stride): the
    coupled moves of the inner loop include, besides the cyclic partitions matched to a
    stride of 1, the complete partition of the array (one word a bank, whose bank
    copies never run together and merge); the outer loop touches nothing itself."""
    src = tmp_path / "bf.c"
    src.write_text(BUTTERFLY)
    space = design_space(compile_design(src, SynthOptions(top="bf")))
    names = [(k.setting, k.site) for k in space.knobs]
    inner = next(k.site for k in space.knobs if k.setting == "unroll" and k.site[1] == 5)
    part = names.index(("partition", ("bf", "re")))
    assert space.touches[inner] and all(s is None for _, s in space.touches[inner])
    complete = len(space.knobs[part].values) - 1
    assert space.knobs[part].values[complete] == ("complete", 0)
    moves = space.coupled(space.default)
    d = names.index(("unroll", inner))
    assert any(n[d] == 1 and n[part] == complete for n in moves), moves
    assert any(n[d] == 1 and 0 < n[part] < complete for n in moves), moves


def test_matching_partition():
    """The least candidate that spreads the unrolled copies of an access over banks, one
    or two a bank (a memory's two ports): a stride of 16 words needs 16 times the banks
    of a stride of 1; an address the same in every copy needs none; where no candidate
    suffices, the last."""
    values = partition_candidates(256)
    assert values == (("none", 0), ("cyclic", 2), ("cyclic", 4), ("cyclic", 8),
                      ("cyclic", 16), ("cyclic", 32), ("cyclic", 64))
    pick = [values[matching_partition(values, u, s, b)] for u, s, b in (
        (4, 1, 1), (4, 1, 2), (2, 1, 2), (4, 16, 1), (4, 16, 2), (3, 1, 1), (4, 0, 1),
        (4, None, 1), (16, 16, 1), (2, -1, 1))]
    assert pick == [("cyclic", 4), ("cyclic", 2), ("none", 0), ("cyclic", 64), ("cyclic", 32),
                    ("cyclic", 4), ("none", 0), ("cyclic", 4), ("cyclic", 64), ("cyclic", 2)]
    small = partition_candidates(8)
    assert small[matching_partition(small, 16, 1, 1)] == ("complete", 0)


def test_space_of_a_nest(tmp_path):
    """An outer loop may be unrolled only where its inner loop is fully unrolled; the
    inner loop (6 iterations) has unroll factors 1, 2 and full; cyclic factors stop
    below the depth; a local array is a knob by its C name."""
    src = tmp_path / "nest.c"
    src.write_text(NEST)
    space = design_space(compile_design(src, SynthOptions(top="nest")))
    assert [(k.setting, k.site, k.values) for k in space.knobs[:3]] == [
        ("unroll", ("nest", 4, None), (1, 2, "full")),
        ("unroll", ("nest", 5, None), (1, 2, "full")),
        ("pipeline", ("nest", 5, None), (True, False))]
    assert [(k.site, k.values) for k in space.knobs[3:]] == [
        (("nest", "a"), (("none", 0), ("cyclic", 2), ("cyclic", 4), ("cyclic", 8),
                         ("cyclic", 16), ("complete", 0))),
        (("nest", "b"), (("none", 0), ("cyclic", 2), ("complete", 0))),
        (("nest", "t"), (("none", 0), ("cyclic", 2), ("cyclic", 4), ("complete", 0)))]
    assert space.inner == {("nest", 4, None): (("nest", 5, None),), ("nest", 5, None): ()}
    rest = (0,) * (len(space.knobs) - 3)
    assert not space.feasible((1, 1, 0) + rest)
    assert space.feasible((1, 2, 0) + rest) and not space.feasible((1, 2, 1) + rest)
    # more banks pay only for copies beyond a memory's two ports in one iteration of
    # a loop: t (stored in the inner loop, read twice in the outer one) and a once the
    # inner loop is fully unrolled into the outer one (6 and 6 + 2 copies), b never
    default, inner_full = (0,) * len(space.knobs), (0, 2, 0) + rest
    assert [space.banks_useful(default, i) for i in (3, 4, 5)] == [False, False, False]
    assert [space.banks_useful(inner_full, i) for i in (3, 4, 5)] == [True, False, True]
    assert [space.banks_useful((0, 1, 0) + rest, i) for i in (3, 4, 5)] == [False, False, False]
    # outer 1: inner 1 or 2 x pipeline, or full; outer 2 or full: inner full
    assert space.size() == (2 * 2 + 1 + 2) * 6 * 3 * 4

GIVEN = """
void given(const int a[16], int b[16], int c[16]) {
    for (int i = 0; i < 16; i++) {
#pragma HLS unroll factor=2
        b[i] = a[i] + 1;
    }
    for (int i = 0; i < 16; i++)
        c[i] = a[i] * 2;
}
"""

GIVEN_TOML = """[[loop]]
function = "given"
line = 7
pipeline = false

[[array]]
function = "given"
name = "c"
partition = "cyclic"
factor = 2
"""


def _given(tmp_path: Path) -> tuple[Path, Path]:
    src, base = tmp_path / "given.c", tmp_path / "base.toml"
    src.write_text(GIVEN)
    base.write_text(GIVEN_TOML)
    return src, base


def test_space_keeps_what_the_user_gave(tmp_path):
    """Settings given by ``#pragma HLS`` (the first loop's unroll) or the directives file
    (the second loop's pipeline, the partitioning of ``c``) are not knobs."""
    src, base = _given(tmp_path)
    space = design_space(compile_design(src, SynthOptions(top="given", directives=str(base))))
    assert [(k.setting, k.site) for k in space.knobs] == [
        ("pipeline", ("given", 3, None)), ("unroll", ("given", 7, None)),
        ("partition", ("given", "a")), ("partition", ("given", "b"))]
    assert space.given == {("given", 3, None): 2}


def _fake_space() -> Space:
    return Space((Knob("unroll", ("f", 1, None), (1, 2, 4, 8)),
                  Knob("partition", ("f", "a"), (("none", 0), ("cyclic", 2), ("cyclic", 4)))),
                 {("f", 1, None): ()})


def _fake_evaluate(calls: list):
    """Latency falls with unrolling once the array has the banks for it; LUTs grow with
    both; unroll 8 with 4 banks is an error."""
    def evaluate_many(points: list[DesignPoint]) -> list[Result]:
        calls.append(len(points))
        out = []
        for p in points:
            u, banks = p.loops[0].unroll, max(1, p.arrays[0].factor)
            if (u, banks) == (8, 4):
                out.append(Result(p, "error", message="no"))
                continue
            lat = 64 // min(u, banks) + u
            out.append(Result(p, "ok", latency=TopLatency(lat, lat, True),
                              resources=Resources(100 * u + 30 * banks, 0, 0, 0)))
        return out
    return evaluate_many


def _front(exp) -> list:
    return [(exp.evaluated[i][0], costs(exp.evaluated[i][1])) for i in exp.front]


def test_search_exhaustive_and_local():
    """A space of at most ``max_points`` is evaluated whole, in one batch; a larger one
    by rounds of neighbours from the default point within the budget, on past a local
    optimum (the default point alone on the front: unrolling pays only with banks);
    the objective picks the best front point."""
    space = _fake_space()
    calls: list = []
    full = explore(space, _fake_evaluate(calls), max_points=12)
    assert full.search == "exhaustive" and calls == [12] and len(full.evaluated) == 12
    assert [k for k, _ in full.evaluated] == sorted(space.points())
    assert full.evaluated[-1][1].status == "error"
    assert _front(full) == [((2, 2), (20, 520)), ((1, 1), (34, 260)), ((0, 0), (65, 130))]
    assert full.evaluated[full.best][0] == (2, 2)
    for objective in ("area", "product"):
        got = explore(space, _fake_evaluate([]), max_points=12, objective=objective)
        assert got.evaluated[got.best][0] == (0, 0)
    calls = []
    local = explore(space, _fake_evaluate(calls), max_points=7)
    assert local.search == "local" and calls == [1, 2, 2, 2]
    assert [k for k, _ in local.evaluated] == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2),
                                               (2, 1)]
    assert _front(local) == [((1, 1), (34, 260)), ((0, 0), (65, 130))]
    assert explore(space, _fake_evaluate([]), max_points=7) == local


def test_search_within_a_budget():
    """A point whose estimate needs more than the budget of any one resource is
    evaluated but never on the front, never the best, and its neighbours are not
    explored from it; within the budget the front is the unlimited front's points
    that fit.  ``--budget`` names the limits, the part's capacities fill the rest."""
    from hls.dse._search import Budget
    from hls.targets import Device
    space = _fake_space()
    full = explore(space, _fake_evaluate([]), max_points=12)
    for limit in (600, 300, 200, 129):
        got = explore(space, _fake_evaluate([]), max_points=12, budget=Budget(lut=limit))
        assert got.evaluated == full.evaluated
        assert _front(got) == [f for f in _front(full) if f[1][1] <= limit]
        assert (got.best is None) == (limit < 130)
    # the local search from the default point: the points beyond 300 LUTs are not expanded
    local = explore(space, _fake_evaluate([]), max_points=12 - 1, budget=Budget(lut=300))
    assert _front(local) == [((1, 1), (34, 260)), ((0, 0), (65, 130))]
    part = Device("P", 1000, 2000, 8, 16)
    assert Budget.parse("lut=300,dsp=2", part) == Budget(300, 2000, 2, 16,
                                                         "--budget, else the part P")
    assert Budget.parse("bram=4") == Budget(None, None, None, 4)
    assert Budget.of_device(part) == Budget(1000, 2000, 8, 16, "the part P")
    assert Budget(lut=10, dsp=1).over(Resources(11, 0, 2, 0)) == ["lut", "dsp"]
    for text, why in (("27", "the number of points to evaluate is --max-points"),
                      ("lut=-1", "must be a count"), ("lut=1,lut=2", "limited twice"),
                      ("luts=3", "expected KIND=N")):
        with pytest.raises(ValueError, match=why):
            Budget.parse(text)


def test_search_expands_the_bottleneck_first():
    """A point's moves are grouped by the loop they act on, the loop with the most
    cycles of its own first (AutoDSE's bottleneck): from the default point the search
    tries the slow loop's unrolling and the partitions of the array it reads, and the
    fast loop's moves only once the slow loop's are all known.  Without cycles per
    loop (``Result.loops`` empty) every move is one group, as before."""
    a, b = ("f", 1, None), ("f", 5, None)
    space = Space((Knob("unroll", a, (1, 2, 4)), Knob("unroll", b, (1, 2, 4)),
                   Knob("partition", ("f", "x"), (("none", 0), ("cyclic", 2), ("cyclic", 4)))),
                  {a: (), b: ()}, trips={a: 8, b: 8}, touches={b: ((2, 1),)},
                  own={a: (), b: (2,)}, parent={a: None, b: None})
    batches: list = []

    def evaluate_many(points: list[DesignPoint]) -> list[Result]:
        batches.append([p.loops[0].unroll for p in points])
        out = []
        for p in points:
            ua, ub, banks = p.loops[0].unroll, p.loops[1].unroll, max(1, p.arrays[0].factor)
            ca, cb = 64 // ua, 512 // min(ub, banks)
            out.append(Result(p, "ok", latency=TopLatency(ca + cb, ca + cb, True),
                              resources=Resources(100 * (ua + ub) + 30 * banks, 0, 0, 0),
                              loops=((("f", 1, "h1"), ca), (("f", 5, "h5"), cb))))
        return out

    loops = ((("f", 1, "h1"), 64), (("f", 5, "h5"), 512))
    groups = space.move_groups(space.default, loops)
    # b unrolled with x partitioned to match (coupled), b unrolled alone; then a
    assert groups == [[(0, 1, 1), (0, 1, 0)], [(1, 0, 0)]]
    assert space.move_groups(space.default) == [[(0, 1, 1), (0, 1, 0), (1, 0, 0)]]
    # what bounds the bottleneck's II says whether more banks can pay: b unrolled by 4
    # reads x four times an iteration; banks of x are b's moves where x's own ports (or
    # a bank's) bound its II, and come last where a recurrence or another memory does
    at = (0, 2, 0)
    for limit, first in ((None, True), ("mem:x", True), ("mem:x_1", True), ("mem:f_x", True),
                         ("mem:y", False), ("mem:xx_0", False), ("recurrence", False),
                         ("resource", False)):
        got = space.move_groups(at, ((("f", 1, "h1"), 16), (("f", 5, "h5"), 128, limit)))
        assert ((0, 2, 1) in got[0]) == first and (0, 2, 1) in sum(got, []), (limit, got)
        assert not first or got[-1] == [(1, 2, 0)]
        assert first or got[-1] == [(0, 2, 1)]
    from hls.dse._evaluate import ii_limit, loop_cycles
    pl = {"pipelined": True, "ii": 2, "res_mii": 2, "rec_mii": 1,
          "limited_by": "resource 'mem:vec_0' (4 uses / 2 units)"}
    assert ii_limit(pl) == "mem:vec_0"
    assert ii_limit(pl | {"limited_by": "resource 'mul32' (3 uses / 2 units)"}) == "resource"
    assert ii_limit(pl | {"rec_mii": 2, "limited_by": "recurrence %4 -> %9"}) == "recurrence"
    assert ii_limit(pl | {"ii": 1}) is None and ii_limit(pl | {"ii": 3}) is None
    assert ii_limit({"pipelined": False, "ii": None}) is None
    rep = {"loops": [{"function": "f", "source_line": 5, "loop": "h5",
                      "latency": {"min": 9, "max": 20, "entries_per_call": {"min": 0, "max": 4}}} | pl,
                     {"function": "f", "source_line": 1, "loop": "h1", "pipelined": False,
                      "latency": {"min": 3, "max": None}}]}
    assert loop_cycles(rep) == ((("f", 5, "h5"), 80, "mem:vec_0"), (("f", 1, "h1"), 3, None))
    # a loop inside another: the outer loop's own cycles leave out the inner one's
    nest = Space(space.knobs, {a: (b,), b: ()}, trips=space.trips, touches=space.touches,
                 own=space.own, parent={a: None, b: a})
    assert nest.move_groups(nest.default, ((("f", 1, "h1"), 600), (("f", 5, "h5"), 512)))[0] \
        == groups[0]
    got = explore(space, evaluate_many, max_points=6)
    # the default point; b's moves; b's again from the new front point, then a's from
    # the default point (cut by the budget)
    assert batches == [[1], [1, 1], [1, 1, 1]]
    assert [k for k, _ in got.evaluated] == [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1),
                                             (0, 2, 1), (0, 2, 2)]
    assert got.evaluated[got.best][0] == (0, 2, 2)

    def blind(points):
        return [dataclasses.replace(r, loops=()) for r in evaluate_many(points)]
    batches.clear()
    explore(space, blind, max_points=6)
    assert batches[1] == [1, 1, 2]      # one group: a's unrolling in the first round


def test_search_coupled_moves_and_time_limit():
    """Where the space knows which arrays a loop accesses, the local search unrolls and
    partitions in one move: from the default point (alone on the front until unrolling
    has the banks) the first round reaches unroll 2 with cyclic 2; more banks for a
    rolled loop are not tried.  A time limit ends the search after the round under
    way."""
    fake = _fake_space()
    space = Space(fake.knobs, fake.inner, trips={("f", 1, None): 8},
                  touches={("f", 1, None): ((1, 1),)}, own={("f", 1, None): (1,)},
                  parent={("f", 1, None): None})
    calls: list = []
    got = explore(space, _fake_evaluate(calls), max_points=4)
    assert calls == [1, 2, 1]
    assert [k for k, _ in got.evaluated] == [(0, 0), (1, 0), (1, 1), (2, 2)]
    assert _front(got) == [((2, 2), (20, 520)), ((1, 1), (34, 260)), ((0, 0), (65, 130))]
    assert got.stopped is None
    calls = []
    rounds = iter([False, True])
    stopped = explore(space, _fake_evaluate(calls), max_points=11, stop=lambda: next(rounds))
    assert calls == [1, 2] and stopped.stopped == "time-limit" and len(stopped.evaluated) == 3


def _dse(tmp_path: Path, workers: int, monkeypatch, *more) -> dict:
    # the worker processes import hls from this tree, as the test does
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = tmp_path / f"dse{workers}"
    # (the front is co-simulated only where a test asks: with --tb, or --cosim-random)
    cos = [] if "--tb" in more or "--cosim-random" in more else ["--no-cosim"]
    more = tuple(m for m in more if m != "--cosim-random")
    args = ["dse", str(tmp_path / "scale.c"), "--top", "scale", "--max-points", "5",
            "--workers", str(workers), "-o", str(out), *cos, *more]
    assert main(args) == 0
    return json.loads((out / "dse.json").read_text())


def _without_seconds(doc: dict) -> dict:
    doc = {k: v for k, v in doc.items() if k != "run"}
    return dict(doc, points=[{k: v for k, v in p.items() if k != "seconds"}
                             for p in doc["points"]],
                pareto=[{k: v for k, v in p.items() if k != "cosim"} for p in doc["pareto"]])


def test_pyhls_dse(tmp_path, monkeypatch, capsys):
    """``pyhls dse`` with one worker: a front of at least two points, each with a
    directives file ``pyhls synth --directives`` builds into the latency and area
    evaluated, co-simulated with the testbench (passing, its cycles the latency); with
    two workers the same points, results and front."""
    (tmp_path / "scale.c").write_text(SCALE + SCALE_TB)
    one = _dse(tmp_path, 1, monkeypatch, "--tb", str(tmp_path / "scale.c"))
    shown = capsys.readouterr().out
    assert one["search"] == "local" and len(one["points"]) == 5
    assert one["space"]["points"] == 250     # 225, and 25 with the loop at II 2
    assert len(one["pareto"]) >= 2
    assert "pareto_0.toml" in shown and "on the front" in shown
    assert f"{len(one['pareto'])} point(s) PASSED" in shown
    for n, entry in enumerate(one["pareto"]):
        assert entry["directives"] == f"pareto_{n}.toml"
        point = one["points"][entry["point"]]
        assert point["status"] == "ok"
        assert entry["cosim"] == {"passed": True, "stimulus": "testbench",
                                  "cycles": [entry["latency_max"]] * 2, "within_latency": True}
        synth = tmp_path / f"synth{n}"
        assert main(["synth", str(tmp_path / "scale.c"), "--top", "scale", "--directives",
                     str(tmp_path / "dse1" / entry["directives"]), "-o", str(synth)]) == 0
        report = json.loads((synth / "report.json").read_text())
        assert report["latency"] == point["latency"]
        assert report["latency"]["max"] == entry["latency_max"]
        assert report["resources"]["lut"] == point["area"]["lut"] == entry["lut"]
    lats = [e["latency_max"] for e in one["pareto"]]
    assert lats == sorted(lats) and len(set(lats)) == len(lats)
    # dse.html: a dot per point built, the front's directives files and co-simulations
    page = (tmp_path / "dse1" / "dse.html").read_text()
    assert page.count('<circle class="pt') == sum(p["status"] == "ok" for p in one["points"])
    assert page.count('<circle class="pt best"') == 1
    for entry in one["pareto"]:
        assert f"<td class=\"l\">{entry['directives']}</td>" in page
    assert page.count("passed, cycles") == len(one["pareto"])
    two = _dse(tmp_path, 2, monkeypatch)
    assert _without_seconds(two) == _without_seconds(one)


def test_dse_result_cache(tmp_path, monkeypatch, capsys):
    """A second run over the same output directory takes every point from the result
    cache (``DIR/cache``) and evaluates none, with the same dse.json; ``--no-cache``
    evaluates again.  The key is the point's and the kernel's: a compilation with other
    options (a clock period) or another point has another key, the same compilation
    again the same."""
    (tmp_path / "scale.c").write_text(SCALE)
    first = _dse(tmp_path, 1, monkeypatch, "--max-points", "3")
    assert first["run"] == {"cached": 0, "evaluated": 3}
    assert len(list((tmp_path / "dse1" / "cache").rglob("*.pkl"))) == 3
    capsys.readouterr()
    again = _dse(tmp_path, 1, monkeypatch, "--max-points", "3")
    assert again["run"] == {"cached": 3, "evaluated": 0}
    assert "3 from the cache" in capsys.readouterr().out
    assert _without_seconds(again) == _without_seconds(first)
    # a resource budget does not change an evaluation: the same points, from the cache,
    # with those beyond it kept off the front
    luts = sorted(p["area"]["lut"] for p in first["points"] if p["status"] == "ok")
    assert luts[0] < luts[-1]
    limit = luts[-1] - 1
    capsys.readouterr()
    within = _dse(tmp_path, 1, monkeypatch, "--max-points", "3", "--budget", f"lut={limit}",
                  "--time-limit", "3600")
    assert within["run"] == {"cached": 3, "evaluated": 0}
    assert within["budget"] == {"lut": limit, "ff": None, "dsp": None, "bram18": None,
                                "source": "--budget"}
    over = [p for p in within["points"] if "over_budget" in p]
    assert over and all(p["area"]["lut"] > limit and p["over_budget"] == ["lut"] for p in over)
    assert within["pareto"] and all(e["lut"] <= limit for e in within["pareto"])
    assert {e["point"] for e in within["pareto"]} == {
        e["point"] for e in first["pareto"] if e["lut"] <= limit}
    shown = capsys.readouterr().out
    assert f"budget lut <= {limit} (--budget): {len(over)} point(s) beyond it" in shown
    assert re.search(r"1 point\(s\) evaluated \(3[56]\d\d s of the time limit left\), front:",
                     shown), shown
    fresh = _dse(tmp_path, 1, monkeypatch, "--max-points", "3", "--no-cache")
    assert fresh["run"] == {"cached": 0, "evaluated": 3}
    src = tmp_path / "scale.c"
    design = compile_design(src, SynthOptions(top="scale"))
    point = design_space(design).point(design_space(design).default)
    other = design_space(design).point((1, 0, 0, 0))
    keys = [ResultCache(tmp_path, d).key(p) for d, p in (
        (design, point), (compile_design(src, SynthOptions(top="scale")), point),
        (compile_design(src, SynthOptions(top="scale", clock_period_ns=20.0)), point),
        (design, other))]
    assert keys[0] == keys[1] and len(set(keys)) == 3


def test_dse_cosimulates_the_front_with_random_stimulus(tmp_path, monkeypatch, capsys):
    """Without a testbench every front point is co-simulated with random stimulus (as
    ``pyhls cosim`` without ``--tb``), each call's cycles within the latency evaluated;
    ``--no-cosim`` skips it."""
    (tmp_path / "scale.c").write_text(SCALE)
    doc = _dse(tmp_path, 1, monkeypatch, "--max-points", "3", "--cosim-random")
    assert doc["pareto"]
    for e in doc["pareto"]:
        c = e["cosim"]
        assert c["passed"] and c["stimulus"] == "random" and c["within_latency"], c
        assert c["cycles"] and all(n == e["latency_max"] for n in c["cycles"])
    assert f"co-simulation of the front with random stimulus: {len(doc['pareto'])} point(s) " \
        "PASSED" in capsys.readouterr().out
    doc = _dse(tmp_path, 1, monkeypatch, "--max-points", "3")
    assert all("cosim" not in e for e in doc["pareto"])


def test_dse_places_and_routes_the_front(tmp_path, monkeypatch, capsys):
    """``--place-route`` (``--pnr-seeds N``) places and routes each front point after the
    exploration, never the points evaluated during it: the front entries get the
    timing (stand-in Yosys and nextpnr whose fmax depends on the seed), and one line
    says how many meet the clock, naming those that miss.  On ecp5 the budget is the
    part's.  Without an open flow for the target it is an error before anything is
    built."""
    from test_pnr import _fake_tools
    (tmp_path / "scale.c").write_text(SCALE)
    _fake_tools(monkeypatch, tmp_path, {1: 97.0, 2: 104.0})
    doc = _dse(tmp_path, 1, monkeypatch, "--max-points", "3", "--target", "ecp5",
               "--pnr-seeds", "2")
    out = capsys.readouterr().out
    n = len(doc["pareto"])
    assert n >= 1 and doc["budget"]["source"] == "the part LFE5U-85F-8"
    assert doc["budget"]["lut"] == 83640 and doc["budget"]["dsp"] == 156
    for e in doc["pareto"]:
        assert e["timing"]["met"] and e["timing"]["fmax_mhz"] == 104.0
        assert e["timing"]["seed"] == 2 and e["timing"]["clock_mhz"] == 100.0
    assert all("timing" not in p for p in doc["points"])
    assert f"place and route of the front: {n} of {n} point(s) meet 100.0 MHz" in out
    assert (tmp_path / "dse1" / "dse.html").read_text().count("104.0 MHz, met") == n
    # one seed that misses: the same points (from the cache), each named as missed
    _fake_tools(monkeypatch, tmp_path, {1: 91.5})
    doc = _dse(tmp_path, 1, monkeypatch, "--max-points", "3", "--target", "ecp5",
               "--place-route")
    assert doc["run"] == {"cached": 3, "evaluated": 0}
    assert all(not e["timing"]["met"] for e in doc["pareto"])
    assert "meet 100.0 MHz; missed by pareto_0.toml (91.5 MHz)" in capsys.readouterr().out
    assert main(["dse", str(tmp_path / "scale.c"), "--top", "scale", "--place-route",
                 "-o", str(tmp_path / "g")]) == 1
    assert "no open flow for target 'generic'" in capsys.readouterr().err
    assert not (tmp_path / "g").exists()


def test_dse_on_a_running_scheduler(tmp_path, monkeypatch):
    """``--scheduler ADDR``: the same exploration on a running Dask cluster's two
    workers gives the same points and front as on the local cluster."""
    from distributed import LocalCluster

    (tmp_path / "scale.c").write_text(SCALE)
    local = _dse(tmp_path, 1, monkeypatch, "--max-points", "3", "--no-cache")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        remote = _dse(tmp_path, 2, monkeypatch, "--max-points", "3", "--no-cache",
                      "--scheduler", cluster.scheduler_address)
    assert remote["run"] == {"cached": 0, "evaluated": 3}
    assert _without_seconds(remote) == _without_seconds(local)


def test_pyhls_dse_over_a_directives_file(tmp_path, monkeypatch):
    """Over a directives file (and pragmas), each front point's file is that file's
    entries and the point's knobs, which ``pyhls synth`` accepts (no knob contradicts a
    pragma) and builds into the latency evaluated."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    src, base = _given(tmp_path)
    out = tmp_path / "dse"
    assert main(["dse", str(src), "--top", "given", "--no-cosim", "--directives", str(base),
                 "--max-points", "3", "--workers", "1", "--objective", "area",
                 "-o", str(out)]) == 0
    doc = json.loads((out / "dse.json").read_text())
    entry = doc["pareto"][0]
    text = (out / entry["directives"]).read_text()
    assert entry["directives"] == "pareto_0.toml" and text.startswith(GIVEN_TOML)
    assert main(["synth", str(src), "--top", "given", "--directives",
                 str(out / entry["directives"]), "-o", str(tmp_path / "synth")]) == 0
    report = json.loads((tmp_path / "synth" / "report.json").read_text())
    assert report["latency"]["max"] == entry["latency_max"]
    assert report["resources"]["lut"] == entry["lut"]
    with pytest.raises(SystemExit):
        main(["dse", str(tmp_path / "scale.c"), "--top", "scale", "--workers", "0"])


def test_dse_options(tmp_path, capsys):
    """``pyhls dse`` has the design options, its block scheduler as
    ``--block-scheduler`` (``--scheduler`` is the Dask cluster's), a testbench but none
    of synth's other output or co-simulation options, and no IR dumps."""
    with pytest.raises(SystemExit):
        main(["dse", "-h"])
    text = " ".join(capsys.readouterr().out.split())
    for flag in ("--max-points", "--budget", "--place-route", "--pnr-seeds",
                 "--time-limit SECONDS", "--cache DIR",
                 "--no-cache", "--workers", "--objective", "--scheduler ADDR",
                 "--block-scheduler {sdc,asap}", "--directives", "--clock-period"):
        assert flag in text, flag
    for flag in ("--max-cycles", "--waves", "--close-timing", "--report-json", "--interface"):
        assert flag not in text, flag
    (tmp_path / "scale.c").write_text(SCALE)
    assert main(["dse", str(tmp_path / "scale.c"), "--top", "scale", "--print-ir-after",
                 "all", "-o", str(tmp_path / "o")]) == 1
    assert "--print-ir-after applies to pyhls synth, cosim and ir" in capsys.readouterr().err
    assert main(["dse", str(tmp_path / "scale.c"), "--top", "scale", "--budget", "27",
                 "-o", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert "error: --budget 27: '27' is not a resource limit" in err and "--max-points" in err
    assert not (tmp_path / "o").exists()


def test_ii_candidates_and_pareto_layers():
    """An II knob tries the scheduler's least II, then 2 and 4 times the MII up to the
    iteration's depth; Pareto layers peel fronts off one after the other."""
    assert ii_candidates(1, 2) == (None, 2)
    assert ii_candidates(3, 3) == (None,)
    assert ii_candidates(2, 9) == (None, 4, 8)
    assert ii_candidates(1, 4) == (None, 2, 4)
    pts = [(10, 100), (5, 200), (12, 120), None, (20, 50), (5, 200), (30, 300), (12, 110)]
    assert pareto_layers(pts) == [0, 0, 2, None, 0, 0, 3, 1]
    assert pareto_layers([]) == [] and pareto_layers([None]) == [None]


def test_ii_knob(tmp_path):
    """With the default point's pipelined loops, the innermost loop gets an II knob (the
    least II, then twice the MII): set only where the loop is pipelined and not
    unrolled.  A point at II 2 is the design ``pyhls synth`` builds from its directives
    file (its loop at II 2, slower than at the least II), estimated as evaluated, and
    co-simulates against the C."""
    from hls.dse import evaluate
    from hls.dse._estimate import estimate
    from hls.dse._explore import cosim_point, default_bounds

    src = tmp_path / "scale.c"
    src.write_text(SCALE + SCALE_TB)
    design = compile_design(src, SynthOptions(top="scale"))
    bounds = default_bounds(design)
    assert [(b.function, b.line, b.ii, b.mii) for b in bounds] == [("scale", 3, 1, 1)]
    space = design_space(design, bounds)
    site = ("scale", 3, None)
    ii = space.knobs[2]
    assert (ii.setting, ii.site, ii.values) == ("ii", site, ii_candidates(1, bounds[0].depth))
    assert ii.values[1] == 2
    assert ii.to_json() | {"depth": 0} == {"function": "scale", "line": 3, "setting": "ii",
                                           "values": ["least"] + list(ii.values[1:]),
                                           "mii": 1, "depth": 0}
    assert space.feasible((0, 0, 1, 0, 0))
    assert not space.feasible((0, 1, 1, 0, 0))     # pipeline off: no II
    assert not space.feasible((1, 0, 1, 0, 0))     # unrolled: no II
    assert not space.feasible((4, 0, 1, 0, 0))     # fully unrolled: no II either
    assert space.size() == (1 + 1 + len(ii.values) - 1 + 3 * 2 + 1) * 5 * 5
    assert (0, 0, 1, 0, 0) in space.neighbours(space.default)
    point = space.point((0, 0, 1, 0, 0))
    assert point.loops[0].ii == 2 and "ii = 2" in point.to_toml()
    base = evaluate(design, space.point(space.default))
    got = evaluate(design, point, out_dir=tmp_path / "ii2")
    assert got.ok and got.latency.max > base.latency.max
    assert [lp["ii"] for lp in json.loads(got.report.read_text())["loops"]] == [2]
    for p, res in ((space.default, base), ((0, 0, 1, 0, 0), got)):
        assert costs(estimate(design, space.point(p))) == costs(res)
    toml = tmp_path / "ii2.toml"
    toml.write_text(point.to_toml())
    check = cosim_point(src, SynthOptions(top="scale"), toml, str(src), got)
    assert check == {"passed": True, "stimulus": "testbench", "cycles": [got.latency.max] * 2,
                     "within_latency": True}


def test_search_prerank():
    """Pre-ranked, the points are estimated first and only those in the first two
    Pareto layers evaluated: a space within the estimate budget is estimated whole and
    its near-front points evaluated (by layer, in the budget), with the exhaustive
    search's front when the estimates are exact; the local search evaluates fewer
    points for the same front, deterministically; past the estimate budget the points
    are evaluated as without it."""
    space = _fake_space()
    full = explore(space, _fake_evaluate([]), max_points=12)
    calls, est = [], []
    got = explore(space, _fake_evaluate(calls), max_points=6,
                  estimate_many=_fake_evaluate(est), max_estimates=12)
    assert got.search == "exhaustive-prerank" and est == [12] and len(got.estimated) == 12
    layers = pareto_layers([costs(e) for _, e in got.estimated])
    near = {k for (k, _), n in zip(got.estimated, layers) if n is not None and n < 2}
    assert len(near) == 5 and calls == [5] and {k for k, _ in got.evaluated} == near
    assert _front(got) == _front(full)
    cut = explore(space, _fake_evaluate([]), max_points=4, estimate_many=_fake_evaluate([]),
                  max_estimates=12)      # the budget takes the front first
    assert {k for k, _ in _front(full)} < {k for k, _ in cut.evaluated}
    assert cut.near - {k for k, _ in cut.evaluated} and len(cut.evaluated) == 4
    calls, est = [], []
    local = explore(space, _fake_evaluate(calls), max_points=7,
                    estimate_many=_fake_evaluate(est), max_estimates=8)
    assert local.search == "local" and calls[0] == 1 and sum(calls) == len(local.evaluated)
    assert sum(est) == len(local.estimated) == 8
    assert _front(local) == _front(full)
    assert explore(space, _fake_evaluate([]), max_points=7, estimate_many=_fake_evaluate([]),
                   max_estimates=8) == local
    # an estimate budget of one: the rest of the points evaluated as without pre-ranking
    plain = explore(space, _fake_evaluate([]), max_points=7)
    one = explore(space, _fake_evaluate([]), max_points=7, estimate_many=_fake_evaluate([]),
                  max_estimates=1)
    assert len(one.estimated) == 1 and len(one.evaluated) >= len(plain.evaluated) - 1


# scale with a second read of ``a`` in reverse (``a[15 - i]``): banks of ``a`` then cost
# where they buy nothing, so some estimated points fall behind two Pareto layers (with
# SCALE's one read, every point of the space is on the first two)
SCALE_REVERSED = """
void scale(const int a[16], int b[16]) {
    for (int i = 0; i < 16; i++)
        b[i] = a[i] * 3 + a[15 - i];
}
"""


def test_pyhls_dse_prerank(tmp_path, monkeypatch):
    """``pyhls dse --prerank N``: dse.json counts the points estimated and evaluated,
    the space shows the II knob, every evaluated point that was estimated has the costs
    its estimate gave (one cost model: the estimate only skips the RTL), and the
    estimated points not evaluated are off the first two layers of what was known; two
    workers give the same dse.json."""
    (tmp_path / "scale.c").write_text(SCALE_REVERSED)
    doc = _dse(tmp_path, 1, monkeypatch, "--max-points", "4", "--prerank", "12",
               "--no-cache")
    pre = doc["prerank"]
    assert pre["budget"] == 12 and 4 < pre["estimated"] == len(pre["points"]) <= 12
    assert pre["evaluated"] == len(doc["points"]) == 4
    assert any(k["setting"] == "ii" and k["values"][0] == "least" for k in doc["space"]["knobs"])
    got = {tuple(p["key"]): [p["latency"]["max"], p["area"]["lut"]] for p in doc["points"]
           if p["status"] == "ok"}
    both = [e for e in pre["points"] if e["evaluated"]]
    assert both and pre["estimated_then_evaluated"] == len(both)
    for e in both:
        assert got[tuple(e["key"])] == e["estimate"]
    assert all(e["near"] for e in both)
    skipped = [tuple(e["estimate"]) for e in pre["points"]
               if not e["near"] and e["estimate"] is not None]
    assert skipped
    # a point's Pareto layer only deepens as points are added: what was skipped as
    # dominated is behind two layers of everything evaluated and estimated at the end
    known = [tuple(c) for c in got.values()] + [tuple(e["estimate"]) for e in pre["points"]
                                                if e["estimate"] is not None]
    layers = pareto_layers(known + skipped)
    assert all(n >= 2 for n in layers[len(known):])
    assert f"{pre['estimated']} pre-ranked by their estimates" in \
        (tmp_path / "dse1" / "dse.html").read_text()
    two = _dse(tmp_path, 2, monkeypatch, "--max-points", "4", "--prerank", "12", "--no-cache")
    assert _without_seconds(two) == _without_seconds(doc)      # whatever the workers


FSCALE = """
void fscale(const float a[8], float b[8]) {
    for (int i = 0; i < 8; i++)
        b[i] = a[i] * 1.37f + 0.25f;
}

int main(void) {
    float a[8], b[8];
    for (int r = 0; r < 2; r++) {
        for (int i = 0; i < 8; i++)
            a[i] = i * 0.731f - r * 3.3f;
        fscale(a, b);
    }
    return 0;
}
"""


def test_fp_format_knob(tmp_path, monkeypatch, capsys):
    """Only when asked for (``fp_formats``), a function computing in floating point gets
    a format knob (IEEE, then each format), after the loop and array knobs.  A point at
    e5m10 is evaluated on the kernel compiled at that format (never on the IEEE one),
    costs fewer LUTs than IEEE, is estimated as evaluated, and co-simulates against the
    C at e5m10 (the golden model's arithmetic by the e5m10 reference models);
    ``pyhls dse --fp-formats`` explores it and gives a front point's formats as
    options."""
    from hls.dse import evaluate, evaluate_task
    from hls.dse._cluster import estimate_task
    from hls.dse._explore import cosim_point
    from hls.dse._point import point_options
    from hls.flow import synthesize
    from hls.verify import golden_ir

    src = tmp_path / "fscale.c"
    src.write_text(FSCALE)
    opts = SynthOptions(top="fscale")
    design = compile_design(src, opts)
    plain = design_space(design)
    assert all(k.setting != "fp" for k in plain.knobs)
    space = design_space(design, (), ("e5m10",))
    assert space.knobs[:-1] == plain.knobs
    assert space.knobs[-1] == Knob("fp", ("fscale",), (None, "e5m10"))
    assert space.knobs[-1].to_json() == {"function": "fscale", "setting": "fp",
                                         "values": ["ieee", "e5m10"]}
    assert space.size() == 2 * plain.size()
    half = space.default[:-1] + (1,)
    point = space.point(half)
    assert point.fp_formats == (("fscale", "e5m10"),)
    assert point.loops == space.point(space.default).loops
    assert point.cli_args() == ["--fp-format", "fscale=e5m10"]
    with pytest.raises(ValueError, match="compile it with point_options"):
        evaluate(design, point)
    ieee = evaluate_task(src, opts, space.point(space.default))
    got = evaluate_task(src, opts, point)
    assert ieee.ok and got.ok and got.resources.lut < ieee.resources.lut
    assert costs(estimate_task(src, opts, point)) == costs(got)
    low = synthesize(src, point_options(opts, point))
    assert "__pyhls_fp_e5m10_" in golden_ir(low.module)
    assert {str(op.attrs["fmt"]) for op in low.module.top.ops() if op.kind == "fmul"} == \
        {"e5m10"}
    toml = tmp_path / "half.toml"
    toml.write_text(point.to_toml())
    check = cosim_point(src, opts, toml, str(src), got)
    assert check == {"passed": True, "stimulus": "testbench", "cycles": [got.latency.max] * 2,
                     "within_latency": True}
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = tmp_path / "dse"
    assert main(["dse", str(src), "--top", "fscale", "--max-points", "4", "--workers", "1",
                 "--fp-formats", "e5m10,half", "-o", str(out), "--no-cache", "--no-cosim"]) == 0
    doc = json.loads((out / "dse.json").read_text())
    assert doc["space"]["knobs"][-1]["values"] == ["ieee", "e5m10"]
    assert any(p["knobs"].get("fp_formats") for p in doc["points"])
    page = (out / "dse.html").read_text()
    for e in doc["pareto"]:
        fps = doc["points"][e["point"]]["knobs"].get("fp_formats")
        assert e.get("options", []) == [a for f, t in (fps or {}).items()
                                        for a in ("--fp-format", f"{f}={t}")]
        assert all(f"{f}: floating point {t}" in page for f, t in (fps or {}).items())
    assert main(["dse", str(src), "--top", "fscale", "--fp-formats", "e5m99"]) == 1
    assert "error: --fp-formats e5m99: FPFormat man_bits must be an integer in 1..52" \
        in capsys.readouterr().err
    # a design without floating point: the formats are ignored, and said to be
    (tmp_path / "scale.c").write_text(SCALE)
    assert main(["dse", str(tmp_path / "scale.c"), "--top", "scale", "--no-cosim",
                 "--max-points", "1",
                 "--workers", "1", "--fp-formats", "e5m10", "-o", str(tmp_path / "int"),
                 "--no-cache"]) == 0
    assert f"{tmp_path / 'scale.c'}:2: warning: --fp-formats e5m10 ignored: no function " \
        "of scale computes in floating point" in capsys.readouterr().err
