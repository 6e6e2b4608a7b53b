"""examples/vitis: kernels written as a Vitis HLS user writes them (interface pragmas,
loop labels, ``#pragma HLS pipeline II=N``, ``ap_int``, sized array parameters, streams),
each with its testbench ``main`` in the same file.

Each co-simulates with ``pyhls cosim K.cpp --top F --tb K.cpp`` and no other flag; the
report shows the II its pipeline pragma asks for, reached, and the loops by their labels.
On ``--target alveo`` the same sources build the AXI interfaces their pragmas name.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hls.cli import main
from hls.flow import SynthOptions, synthesize

VITIS = Path(__file__).resolve().parent.parent / "examples" / "vitis"

#: kernel -> (the labels of its loops in the hardware, {pipelined label: requested II})
KERNELS = {
    "fir": ({"init", "sample"}, {"sample": 1}),
    "vadd": ({"vadd_loop"}, {"vadd_loop": 1}),
    "matmul": ({"row", "col"}, {"col": 1}),
    "threshold": ({"pixels"}, {"pixels": 1}),
}


def test_the_corpus_is_the_table():
    assert sorted(p.stem for p in VITIS.glob("*.cpp")) == sorted(KERNELS)


@pytest.mark.parametrize("name", list(KERNELS))
def test_cosimulates_with_top_and_tb_only(name, tmp_path, capsys):
    src = VITIS / f"{name}.cpp"
    out = tmp_path / "out"
    assert main(["cosim", str(src), "--top", name, "--tb", str(src), "-o", str(out)]) == 0
    cap = capsys.readouterr()
    assert "PASSED" in cap.out and "2 call(s)" in cap.out, cap.out + cap.err
    assert ": error:" not in cap.err
    report = json.loads((out / "report.json").read_text())
    labels, iis = KERNELS[name]
    loops = {e["loop"]: e for e in report["loops"] if e["function"] == name}
    assert set(loops) == labels
    for label, ii in iis.items():
        assert loops[label]["pipelined"] and loops[label]["ii"] == ii, loops[label]
    pipes = [p for p in report["pragmas"] if p["pragma"].lower().startswith("pipeline")]
    assert [(p["loop"], p["ii"], p["ii_reached"]) for p in pipes] == [
        (label, ii, ii) for label, ii in iis.items()]
    if name == "fir":   # a local array of a C++ function and a global, by pragma
        parts = {p["variable"]: p["banks"] for p in report["pragmas"]
                 if p["pragma"].lower().startswith("array_partition")}
        assert parts == {"shift_reg": 16, "coef": 16}


def test_alveo_builds_the_pragmas_interfaces():
    """The interface pragmas on --target alveo: vadd's two bundles, threshold's two
    AXI4-Streams (synthesis only)."""
    vadd = synthesize(VITIS / "vadd.cpp", SynthOptions(top="vadd", target="alveo"))
    assert vadd.axi.bundle_of == {"in1": "gmem0", "in2": "gmem1", "out": "gmem0"}
    assert {m["name"]: m["depth_words"] for m in vadd.report["interface"]["memories"]} == {
        "in1": 256, "in2": 256, "out": 256}
    thr = synthesize(VITIS / "threshold.cpp", SynthOptions(top="threshold", target="alveo"))
    assert [(s["name"], s["direction"], s["depth"]) for s in thr.report["axi"]["streams"]] == [
        ("in", "in", 64), ("out", "out", 64)]
    assert all(p["applied"] for p in thr.report["pragmas"])
