""".mlir input: lowered by mlir-opt/mlir-translate (Debian package mlir-19-tools) to LLVM IR,
then synthesised and co-simulated with random stimulus, under both memref calling
conventions: MLIR's expanded descriptor (allocated ptr, aligned ptr, offset, sizes...,
strides...: the aligned pointer is the memory, the fields the design reads are scalar
ports, the others absent) and bare pointers
(``PYHLS_MLIR_BARE_PTR=1``).  Ports take the MLIR arguments' names (a descriptor's fields:
``x_allocated``, ``x`` (the aligned pointer), ``x_offset``, ``x_size0``, ``x_stride0``);
unnamed MLIR arguments are named ``arg{i}`` by position."""

from __future__ import annotations

from pathlib import Path

import pytest

from hls.errors import ToolError
from hls.flow import SynthOptions, synthesize
from hls.frontend import _load
from hls.ir import parse_module, print_module
from hls.verify import cosim

HERE = Path(__file__).resolve().parent / "mlir"
HAVE_MLIR = all(_load._mlir_tools())
needs_mlir = pytest.mark.skipif(
    not HAVE_MLIR, reason="mlir-opt/mlir-translate not installed (apt-get install mlir-19-tools)")


@pytest.fixture(params=["descriptor", "bare"])
def conv(request, monkeypatch):
    monkeypatch.setenv("PYHLS_MLIR_BARE_PTR", "1" if request.param == "bare" else "0")
    return request.param


def _mems(res):
    return {m.name: m.depth_words for m in res.interface.memories}


@needs_mlir
def test_saxpy_interface(conv):
    res = synthesize(HERE / "saxpy.mlir", SynthOptions(top="saxpy"))
    scalars = [s.name for s in res.interface.scalars]
    if conv == "bare":  # saxpy(i32 a, ptr x, ptr y)
        assert scalars == ["a"] and _mems(res) == {"x": 64, "y": 64}
    else:  # a; x: alloc, aligned, offset, size, stride; y: the same
        # a static shape's offset, size and stride and the allocated pointers are never
        # read: no port, no memory (the golden model passes them as 0)
        assert scalars == ["a"] and _mems(res) == {"x": 64, "y": 64}
        assert res.module.absent_params == [1, 3, 4, 5, 6, 8, 9, 10]
        text = print_module(res.module)     # a .hir of it keeps them
        assert "absent_param 3" in text and parse_module(text).absent_params == [
            1, 3, 4, 5, 6, 8, 9, 10]
        assert not any(n in res.verilog for n in ("allocated", "offset", "size0", "stride0"))
    assert "input [31:0] a;" in res.verilog and "x_address0" in res.verilog


@needs_mlir
def test_saxpy_cosim(conv):
    # the descriptors' fields are no ports: nothing to fix
    r = cosim(HERE / "saxpy.mlir", "saxpy", depth={"x": 64, "y": 64}, runs=3)
    assert r.passed, r.mismatches[:5]
    # MLIR lowers scf/affine loops top-tested; loop rotation makes the body one block,
    # which is pipelined at its MII
    (lp,) = r.synth.report["loops"]
    assert lp["pipelined"] and lp["ii"] == lp["mii"] == 1, lp


@needs_mlir
def test_matmul_cosim(conv):
    # 2-D affine.for over memref<8x8xi32>: depths inferred from the static shapes
    r = cosim(HERE / "matmul.mlir", "matmul", runs=2)
    assert r.passed, r.mismatches[:5]
    inner = [lp for lp in r.synth.report["loops"] if lp["pipelined"]]
    assert len(inner) == 1 and inner[0]["ii"] == inner[0]["mii"], r.synth.report["loops"]
    assert all(_mems(r.synth)[a] == 64 for a in ("A", "B", "C"))


@needs_mlir
def test_dynamic_memref_descriptor(monkeypatch):
    # memref<?xi32>: the loop bound is the descriptor's size (x_size0), so it must be fixed
    monkeypatch.setenv("PYHLS_MLIR_BARE_PTR", "0")
    r = cosim(HERE / "vsum.mlir", "vsum", depth={"x": 64}, fixed={"x_size0": 64}, runs=3)
    assert r.passed, r.mismatches[:5]
    # the size is read: a port; the offset and stride are not
    assert [s.name for s in r.synth.interface.scalars] == ["x_size0"]


@needs_mlir
def test_mlir_syntax_error_is_one_line(tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f(%a: i32) -> i32 {\n  %b = arith.addi %a, %zz : i32\n"
                   "  return %b : i32\n}\n")
    with pytest.raises(ToolError) as ei:
        synthesize(bad, SynthOptions(top="f"))
    msg = str(ei.value)
    assert "\n" not in msg and msg.startswith(f"{bad}:2: error: mlir-opt failed:")


def test_missing_mlir_tools_names_package(tmp_path, monkeypatch):
    src = tmp_path / "k.mlir"
    src.write_text("func.func @f() { return }\n")
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(_load.shutil, "which", lambda *a, **k: None)
    monkeypatch.setattr(_load, "_MLIR_DIRS", ())
    with pytest.raises(ToolError) as ei:
        synthesize(src, SynthOptions(top="f"))
    msg = str(ei.value)
    assert "\n" not in msg and msg.startswith(f"{src}: error:")
    assert "mlir-19-tools" in msg and "mlir-opt" in msg
