"""Design points and their evaluation (hls.dse): a point is its directives (and options)
both ways, an evaluation is what ``pyhls synth`` with those directives makes, two points
that lower alike share an IR hash, and results are deterministic."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hls.cli import main
from hls.directives import Directives, LoopDirective, load_directives
from hls.dse import ArrayKnob, DesignPoint, LoopKnob, compile_design, evaluate
from hls.errors import HLSError
from hls.flow import SynthOptions

ROOT = Path(__file__).resolve().parent.parent

GEMM = """
#define N 8
void gemm(const int a[N * N], const int b[N * N], int c[N * N]) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int s = 0;
        inner:
            for (int k = 0; k < N; k++)
                s += a[i * N + k] * b[k * N + j];
            c[i * N + j] = s;
        }
}
"""


def _inner(**kw) -> DesignPoint:
    return DesignPoint((LoopKnob("gemm", label="inner", **kw),))


@pytest.fixture(scope="module")
def gemm(tmp_path_factory):
    src = tmp_path_factory.mktemp("gemm") / "gemm.c"
    src.write_text(GEMM)
    return src, compile_design(src, SynthOptions(top="gemm"))


def test_point_directives_round_trip(tmp_path):
    p = DesignPoint((LoopKnob("gemm", label="inner", unroll=2, ii=1),
                     LoopKnob("gemm", line=3, pipeline=False),
                     LoopKnob("gemm", line=4, unroll="full")),
                    (ArrayKnob("gemm", "b", "cyclic", 2), ArrayKnob("gemm", "a", "complete")),
                    share_memories=False, clock_period_ns=5)
    # canonical: the same knobs in another order are the same point
    q = DesignPoint(tuple(reversed(p.loops)), tuple(reversed(p.arrays)), False, 5.0)
    assert p == q and hash(p) == hash(q)
    assert DesignPoint.from_directives(p.to_directives(), False, 5.0) == p
    f = tmp_path / "d.toml"
    f.write_text(p.to_toml())
    assert DesignPoint.from_directives(load_directives(f), False, 5.0) == p
    assert p.cli_args() == ["--no-share-memories", "--clock-period", "5.0"]
    # several entries for one loop: merged, the later setting winning, as the flow reads them
    dirs = Directives([LoopDirective("gemm", label="inner", unroll=2, ii=2),
                       LoopDirective("gemm", label="inner", ii=1)])
    assert DesignPoint.from_directives(dirs) == _inner(unroll=2, ii=1)
    # over a base: the point's loop entries last, its arrays in place of the base's
    base = Directives([LoopDirective("gemm", label="inner", unroll=4)],
                      load_directives(f).arrays[:1], source="base.toml")
    over = _inner(unroll=2).to_directives(base)
    assert over.for_loop("gemm", 7, "inner")["unroll"] == 2 and over.arrays == base.arrays
    assert over.source == "base.toml"


def test_point_errors():
    with pytest.raises(HLSError, match="more than one loop knob for gemm/inner"):
        DesignPoint((LoopKnob("gemm", label="inner"), LoopKnob("gemm", label="inner", ii=2)))
    with pytest.raises(HLSError, match="exactly one of line and label"):
        LoopKnob("gemm", line=3, label="inner")
    with pytest.raises(HLSError, match="unroll must be an integer >= 1"):
        LoopKnob("gemm", line=3, unroll=0)
    with pytest.raises(HLSError, match="needs a factor >= 2"):
        ArrayKnob("gemm", "a", "cyclic")
    with pytest.raises(HLSError, match="not design-point knobs: tripcount of gemm/7"):
        DesignPoint.from_directives(Directives([LoopDirective("gemm", 7, tripcount=(1, 8))]))


def test_evaluate_points(gemm):
    """Unrolling the inner loop by 2 is faster than leaving it rolled; the default point
    (the flow's own plan unrolls it by 2) lowers as the explicit factor 2 does, and is
    evaluated once; the same point gives the same result."""
    _src, design = gemm
    seen: dict = {}
    two = evaluate(design, _inner(unroll=2), seen=seen)
    one = evaluate(design, _inner(unroll=1), seen=seen)
    assert two.ok and one.ok, (two.message, one.message)
    assert two.latency.max < one.latency.max and two.latency.exact
    assert two.ir_hash != one.ir_hash
    default = evaluate(design, DesignPoint(), seen=seen)
    assert default.ir_hash == two.ir_hash and default.point == DesignPoint()
    assert (default.latency, default.resources) == (two.latency, two.resources)
    assert len(seen) == 2
    again = evaluate(design, _inner(unroll=1))
    assert again == one
    slow = evaluate(design, _inner(unroll=1, pipeline=False))
    assert slow.latency.max > one.latency.max and slow.ir_hash != one.ir_hash
    bad = evaluate(design, DesignPoint((LoopKnob("gemm", label="nope", unroll=2),)))
    assert bad.status == "error" and "matches no loop" in bad.message


def test_evaluate_is_pyhls_synth(gemm, tmp_path):
    """The outputs of an evaluation are those of ``pyhls synth`` with the point's
    directives file and options."""
    src, design = gemm
    point = DesignPoint((LoopKnob("gemm", line=8, unroll=4),),
                        (ArrayKnob("gemm", "a", "cyclic", 2),), clock_period_ns=8)
    res = evaluate(design, point, out_dir=tmp_path / "eval")
    assert res.ok, res.message
    assert res.verilog.is_file() and res.clock_period_ns == 8.0
    d = tmp_path / "point.toml"
    d.write_text(point.to_toml())
    assert main(["synth", str(src), "--top", "gemm", "--directives", str(d),
                 "-o", str(tmp_path / "synth"), *point.cli_args()]) == 0
    want = json.loads((tmp_path / "synth" / "report.json").read_text())
    got = json.loads(res.report.read_text())
    assert got == want
    assert res.latency.to_json() == want["latency"]
    assert (res.latency.min, res.latency.max) == (want["latency"]["min"], want["latency"]["max"])
    area = want["resources"]
    assert (res.resources.lut, res.resources.ff, res.resources.dsp, res.resources.bram18) == (
        area["lut"], area["ff"], area["dsp"], area["bram18"])
    assert res.clock_estimated_ns == want["clock_estimated_ns"]
    assert res.verilog.read_text() == (tmp_path / "synth" / "rtl" / "gemm.v").read_text()


def test_latency_is_typed_on_alveo(gemm, tmp_path):
    """On Alveo only the latency's minimum is a bound, and the typed latency says why;
    its ``to_json`` is report.json's ``latency`` there too."""
    src, _design = gemm
    design = compile_design(src, SynthOptions(top="gemm", target="alveo"))
    res = evaluate(design, _inner(unroll=2), out_dir=tmp_path / "o")
    assert res.ok and res.latency.max is None and not res.latency.exact
    assert any("AXI" in a for a in res.latency.assumptions)
    assert res.latency.to_json() == json.loads(res.report.read_text())["latency"]


HASH_OF = """
import sys
from hls.dse import DesignPoint, LoopKnob, compile_design, evaluate
from hls.flow import SynthOptions
design = compile_design(sys.argv[1], SynthOptions(top="gemm"))
print(evaluate(design, DesignPoint((LoopKnob("gemm", label="inner", unroll=2),))).ir_hash)
"""


def test_ir_hash_is_stable_across_processes(gemm):
    """The hash names a lowered design, not a process: the same in processes with other
    ``PYTHONHASHSEED`` values (set and dict order must not leak into it), and the same
    as in this one."""
    src, design = gemm
    here = evaluate(design, _inner(unroll=2)).ir_hash
    got = set()
    for seed in ("0", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        proc = subprocess.run([sys.executable, "-c", HASH_OF, str(src)], env=env,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        got.add(proc.stdout.strip())
    assert got == {here}
