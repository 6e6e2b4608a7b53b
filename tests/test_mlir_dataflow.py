""".mlir input with a dataflow region (``--dataflow``): LLVM IR lowered from MLIR whose
top calls outlined functions per frame (``func.call`` inside ``affine.for``), with
``memref.alloca`` buffers between the calls (tests/mlir/df_frames.mlir).

* the task graph: one task per call, the two local buffers are in-order FIFO channels,
  the memref arguments are ports.  Under MLIR's expanded descriptors every memref is
  passed to a callee as two pointers (allocated and aligned); only the aligned one is
  accessed, so the allocated one connects nothing (``hls.dataflow.used_ptr_args``);
* co-simulation with random stimulus PASSES under both calling conventions, with FIFO
  channels and with a channel forced to a ping-pong buffer, and in fewer cycles than
  without ``--dataflow``;
* a call passing one array to two pointer parameters it accesses is rejected.

Skipped when mlir-opt/mlir-translate are absent (as tests/test_mlir.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hls.cli import main
from hls.flow import SynthOptions, synthesize
from hls.frontend import _load
from hls.verify import cosim

SRC = Path(__file__).resolve().parent / "mlir" / "df_frames.mlir"
TOP = "df_frames"
HAVE_MLIR = all(_load._mlir_tools())
needs_mlir = pytest.mark.skipif(
    not HAVE_MLIR, reason="mlir-opt/mlir-translate not installed (apt-get install mlir-19-tools)")


def _synth(dataflow=True, directives=None, auto_unroll=True):
    return synthesize(SRC, SynthOptions(top=TOP, dataflow=(TOP,) if dataflow else (),
                                        dataflow_monitor=dataflow, directives=directives,
                                        auto_unroll=auto_unroll))


@needs_mlir
@pytest.mark.parametrize("conv", ["descriptor", "bare"])
def test_graph(conv, monkeypatch):
    monkeypatch.setenv("PYHLS_MLIR_BARE_PTR", "1" if conv == "bare" else "0")
    # rolled stage loops (4 frames over 3 tasks would otherwise unroll them for
    # throughput, flow.dataflow_streams): the stream proof on MLIR's IR is what is checked
    res = _synth(auto_unroll=False)
    rep = res.report["dataflow"]
    assert rep["region"] == TOP and rep["frames"] == 4
    assert [t["name"] for t in rep["tasks"]] == ["df_scale", "df_smooth", "df_clamp"]
    # the allocas are unnamed in MLIR's LLVM IR (LLVM's instruction namer: i, i1)
    chans = [(c["producer"], c["consumer"], c["kind"], c["elements"]) for c in rep["channels"]]
    assert chans == [("df_scale", "df_smooth", "fifo", 32),
                     ("df_smooth", "df_clamp", "fifo", 32)], rep["channels"]
    # sized from the schedules: equal rates, a few elements ahead
    assert all(2 <= c["depth"] <= 4 for c in rep["channels"]), rep["channels"]
    assert all(c["why"].startswith("in-order stream; depth") for c in rep["channels"])
    used = {p["name"]: (p["direction"], p["users"]) for p in rep["ports"] if p["users"]}
    # the aligned pointers of the descriptors, by their MLIR names
    assert used == {"in": ("in", ["df_scale"]), "out": ("out", ["df_clamp"])}
    g = res.rtl.core.g
    assert [t.name for t in g.tasks] == ["df_scale", "df_smooth", "df_clamp"]
    for c in g.channels:
        # each end is the one callee pointer that touches the buffer
        assert len(c.users) == 2
        for t, cm, _off in c.users:
            assert [pp.mem for pp, *_ in t.ptr_args if pp.mem is cm] == [cm]


@needs_mlir
def test_cosim_faster_than_sequential(monkeypatch):
    monkeypatch.setenv("PYHLS_MLIR_BARE_PTR", "0")
    df_res = _synth()
    df = cosim(SRC, TOP, synth=df_res, runs=2)
    assert df.passed, df.summary()
    seq = cosim(SRC, TOP, synth=_synth(dataflow=False), runs=2)
    assert seq.passed, seq.summary()
    per_df, per_seq = df.total_cycles / len(df.calls), seq.total_cycles / len(seq.calls)
    assert per_df < 0.8 * per_seq, (per_df, per_seq)
    assert per_df <= 1.15 * df_res.report["dataflow"]["throughput_bound_cycles"]


@needs_mlir
def test_cosim_bare_and_pipo(monkeypatch, tmp_path):
    monkeypatch.setenv("PYHLS_MLIR_BARE_PTR", "1")
    got = cosim(SRC, TOP, synth=_synth(), runs=1)
    assert got.passed, got.summary()
    # a ping-pong channel is bound to the callee pointer that accesses it
    monkeypatch.setenv("PYHLS_MLIR_BARE_PTR", "0")
    d = tmp_path / "d.toml"
    d.write_text(f'[[channel]]\nfunction = "{TOP}"\nname = "i"\nkind = "pipo"\n')
    res = _synth(directives=str(d), auto_unroll=False)
    assert [c["kind"] for c in res.report["dataflow"]["channels"]] == ["pipo", "fifo"]
    got = cosim(SRC, TOP, synth=res, runs=1)
    assert got.passed, got.summary()


@needs_mlir
def test_cli(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["cosim", str(SRC), "--top", TOP, "--dataflow", "-o", str(out)]) == 0
    assert re.search(r"co-simulation of df_frames: \d+ call\(s\), \d+ cycles in total, PASSED",
                     capsys.readouterr().out)


ALIAS = r"""
#include <stdint.h>
static void fill(int32_t *t, const int32_t *in)
{ for (int i = 0; i < 16; i++) t[i] = in[i] + 1; }
static void both(const int32_t *a, const int32_t *b, int32_t *o)
{ for (int i = 0; i < 16; i++) o[i] = a[i] + b[15 - i]; }
void top(const int32_t *in, int32_t *o)
{
    int32_t t[16];
    fill(t, in);
    both(t, t, o);
}
"""


def test_array_to_two_accessed_parameters_rejected(tmp_path, capsys, monkeypatch):
    (tmp_path / "alias.c").write_text(ALIAS)
    monkeypatch.chdir(tmp_path)
    rc = main(["synth", "alias.c", "--top", "top", "--dataflow", "--depth", "in=16",
               "--depth", "o=16", "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert rc == 1, err
    assert "Traceback" not in err
    assert re.fullmatch(r"alias\.c:11: error: .*the call of @both passes 't' to two pointer "
                        r"parameters it accesses .*", err.strip()), err
