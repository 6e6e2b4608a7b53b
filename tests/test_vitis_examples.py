"""examples/vitis: kernels written as a Vitis HLS user writes them (interface pragmas,
loop labels, ``#pragma HLS pipeline II=N``, ``unroll factor=N``, ``array_partition``,
``loop_tripcount``, ``inline off``, ``dataflow`` with ``hls::stream`` and ``stream
depth=N``, ``ap_int``/``ap_uint`` bit manipulation, ``ap_fixed`` with rounding and
saturation, structs in arrays and by value, floats, sized array parameters, function
templates), in C and C++, each with its testbench ``main`` in the same file.

Each co-simulates with ``pyhls cosim K.cpp --top F --tb K.cpp`` and no other flag, and
the report shows what each pragma did: the II a pipeline pragma asks for, reached; the
factor an unroll pragma asks for; a partition's banks; a trip-count hint's bounds (the
loop's latency rests on them); the kind and depth of a dataflow channel; the functions
kept as modules of their own.  A pragma pyhls does not implement (``dependence``,
``loop_flatten``) is a ``file:line: warning:``, and no other warning is given but the
generic target's for the AXI interface pragmas.  On ``--target alveo`` the same sources
build the AXI interfaces their pragmas name (synthesis only).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from hls.cli import main
from hls.flow import SynthOptions, synthesize
from hls.rtl import register_map

VITIS = Path(__file__).resolve().parent.parent / "examples" / "vitis"


@dataclass(frozen=True)
class Kernel:
    """One example and what its pragmas must have done (``F`` is the file's stem)."""

    src: str
    #: the labels of its loops in the hardware (in every function)
    loops: set
    #: pipelined label -> the II its pipeline pragma asks for (in source order)
    ii: dict
    #: label -> the factor its unroll pragma asks for (``"full"``: the loop is gone)
    unroll: dict = field(default_factory=dict)
    #: label -> (min, max) of its loop_tripcount pragma
    tripcount: dict = field(default_factory=dict)
    #: partitioned variable -> banks
    banks: dict = field(default_factory=dict)
    #: dataflow channel -> (kind, depth)
    channels: dict = field(default_factory=dict)
    #: the functions beside the top that are modules of their own
    modules: set = field(default_factory=set)
    #: source line -> the text of its warning (other than an AXI interface pragma's)
    warnings: dict = field(default_factory=dict)


KERNELS = {
    "fir": Kernel("fir.cpp", {"init", "sample"}, {"sample": 1},
                  banks={"shift_reg": 16, "coef": 16}),
    "vadd": Kernel("vadd.cpp", {"vadd_loop"}, {"vadd_loop": 1},
                   tripcount={"vadd_loop": (1, 256)}),
    # one C dimension of each 2-D argument partitioned: A's columns, B's rows
    "matmul": Kernel("matmul.cpp", {"row", "col"}, {"col": 1}, banks={"A": 4, "B": 4}),
    "threshold": Kernel("threshold.cpp", {"pixels"}, {"pixels": 1}),
    # C, a run-time bound: unrolled by 4 with the guarded copies, 4 banks each (x: 4
    # reads, y: 4 reads and 4 writes per iteration), II=1
    "saxpy": Kernel("saxpy.c", {"elems"}, {"elems": 1}, unroll={"elems": 4},
                    tripcount={"elems": (1, 128)}, banks={"x": 4, "y": 4}),
    "dot_fixed": Kernel("dot_fixed.cpp", {"mac"}, {"mac": 1}, unroll={"mac": 2},
                        banks={"a": 2, "b": 2}),
    "biquad": Kernel("biquad.cpp", {"filter"}, {"filter": 3}),
    "particles": Kernel("particles.cpp", {"step"}, {"step": 2}),
    "stream_df": Kernel("stream_df.cpp", {"rd", "avg", "wr"}, {"rd": 1, "avg": 1, "wr": 1},
                        channels={"raw": ("fifo", 4), "smoothed": ("fifo", 8)},
                        modules={"read_in", "smooth", "write_out"}),
    "histogram": Kernel("histogram.cpp", {"count"}, {"count": 2}, warnings={
        22: "#pragma HLS dependence variable=hist inter RAW true: ignored: not a pragma "
            "pyhls knows"}),
    "crc_pack": Kernel("crc_pack.cpp", {"words", "bits"}, {}, unroll={"pop": "full"},
                       modules={"crc8_word"}),
    # a function template's loop pragmas; loop_flatten is not implemented (a warning)
    "fold_tmpl": Kernel("fold_tmpl.cpp", {"rows", "cols", "fold"}, {"fold": 1, "cols": 1},
                        unroll={"fold": 2}, banks={"buf": 2}, warnings={
                            37: "#pragma HLS loop_flatten: ignored: loop nests are not "
                                "flattened"}),
    "scale_float": Kernel("scale_float.cpp", {"relu"}, {"relu": 1},
                          tripcount={"relu": (1, 64)}),
}


def test_the_corpus_is_the_table():
    files = sorted(p.name for p in VITIS.iterdir() if p.suffix in (".c", ".cpp"))
    assert files == sorted(k.src for k in KERNELS.values())
    assert any(k.src.endswith(".c") for k in KERNELS.values())


def _of(report: dict, name: str, loop: str | None = None) -> list[dict]:
    """report.json's pragma entries of kind ``name`` (on ``loop``)."""
    return [p for p in report["pragmas"] if p["pragma"].lower().split()[0] == name
            and (loop is None or p.get("loop") == loop)]


@pytest.mark.parametrize("name", list(KERNELS))
def test_cosimulates_with_top_and_tb_only(name, tmp_path, capsys):
    k = KERNELS[name]
    src = VITIS / k.src
    out = tmp_path / "out"
    assert main(["cosim", str(src), "--top", name, "--tb", str(src), "-o", str(out)]) == 0
    cap = capsys.readouterr()
    assert "PASSED" in cap.out and "2 call(s)" in cap.out, cap.out + cap.err
    assert ": error:" not in cap.err
    warned = {}
    for m in re.finditer(rf"^{re.escape(str(src))}:(\d+): warning: (.*)$", cap.err, re.M):
        warned[int(m.group(1))] = m.group(2)
    assert {ln: w for ln, w in warned.items() if not (
        w.startswith("#pragma HLS interface") and "not applied: the generic target" in w)
    } == k.warnings, cap.err
    assert cap.err.count("warning:") == len(warned), cap.err
    report = json.loads((out / "report.json").read_text())
    loops = {e["loop"]: e for e in report["loops"]}
    assert set(loops) == k.loops
    # pipeline: the II asked for, reached
    for label, ii in k.ii.items():
        assert loops[label]["pipelined"] and loops[label]["ii"] == ii, loops[label]
    assert [(p["loop"], p["ii"], p["ii_reached"]) for p in _of(report, "pipeline")] == [
        (label, ii, ii) for label, ii in k.ii.items()]
    # unroll: the factor asked for (a fully unrolled loop is gone)
    for label, f in k.unroll.items():
        [p] = _of(report, "unroll", label)
        assert p["applied"] and p["unrolled"] == f, p
        assert (label not in loops) if f == "full" else loops[label]["unrolled"] == f
    assert len(_of(report, "unroll")) == len(k.unroll)
    # loop_tripcount: the latency's trip counts rest on it (per unrolled iteration)
    for label, (lo, hi) in k.tripcount.items():
        [p] = _of(report, "loop_tripcount", label)
        assert p["applied"] and p["tripcount"] == [lo, hi], p
        f = k.unroll.get(label, 1)
        assert loops[label]["latency"]["trip_count"] == {"min": -(-lo // f),
                                                         "max": -(-hi // f)}
    assert len(_of(report, "loop_tripcount")) == len(k.tripcount)
    # array_partition: the banks, in report.json's arrays (a local array named after
    # its function) and the pragma's entry
    assert {p["variable"]: p["banks"] for p in _of(report, "array_partition")} == k.banks
    assert {a["name"].removeprefix(f"{name}_"): a["banks"] for a in report.get("arrays", [])
            if not a["auto"]} == k.banks
    # dataflow channels: kind and depth
    chans = {c["name"]: (c["kind"], c["depth"]) for c in
             report.get("dataflow", {}).get("channels", [])}
    assert chans == k.channels
    # inline off and dataflow tasks: modules of their own
    assert {f["name"] for f in report["functions"]} == {name} | k.modules


def test_alveo_builds_the_pragmas_interfaces():
    """The interface pragmas on --target alveo: vadd's two bundles, threshold's two
    AXI4-Streams, scale_float's bundles and its three AXI4-Lite scalars (with their C
    types in the register map; synthesis only)."""
    vadd = synthesize(VITIS / "vadd.cpp", SynthOptions(top="vadd", target="alveo"))
    assert vadd.axi.bundle_of == {"in1": "gmem0", "in2": "gmem1", "out": "gmem0"}
    assert {m["name"]: m["depth_words"] for m in vadd.report["interface"]["memories"]} == {
        "in1": 256, "in2": 256, "out": 256}
    thr = synthesize(VITIS / "threshold.cpp", SynthOptions(top="threshold", target="alveo"))
    assert [(s["name"], s["direction"], s["depth"]) for s in thr.report["axi"]["streams"]] == [
        ("in", "in", 64), ("out", "out", 64)]
    assert all(p["applied"] for p in thr.report["pragmas"])
    sf = synthesize(VITIS / "scale_float.cpp", SynthOptions(top="scale_float",
                                                            target="alveo"))
    assert sf.axi.bundle_of == {"x": "gmem0", "y": "gmem1"}
    assert all(p["applied"] for p in sf.report["pragmas"])
    regs = {r.name: (r.kind, r.ctype.name) for r in register_map(sf.interface)
            if r.kind in ("pointer", "scalar")}
    assert regs == {"x": ("pointer", "float"), "y": ("pointer", "float"),
                    "gain": ("scalar", "float"), "bias": ("scalar", "float"),
                    "n": ("scalar", "int")}
