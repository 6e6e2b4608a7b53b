"""The EKL frontend (hls.ekl): parsing with diagnostics, types and shapes, contraction
factorisation, and the lowered LLVM IR against NumPy.

* each kernel of ``examples/ekl`` (inverse Helmholtz p = 11, a tensor-product
  interpolation with non-square matrices, a matrix chain through a temporary, a
  single-precision gradient with three outputs) is lowered, run natively (llvmlite's JIT)
  on random inputs and compared with ``numpy.einsum`` (relative 1e-10 for f64, 1e-5 for
  f32);
* the factorised Helmholtz kernel makes 6 x 11^4 + 11^3 = 89,177 multiplies, the
  published floor (against 2 x 11^6 unfactorised);
* every class of malformed program is a ``file:line:col: error:`` with the span marked,
  exit status 1, no traceback and nothing written;
* the small kernels co-simulate (random stimulus) from the ``.ekl`` file, and pyhls writes
  ``NAME.ll`` and ``NAME.h`` beside the design.
"""

from __future__ import annotations

import ctypes
import re
from pathlib import Path

import llvmlite.binding as llvm
import numpy as np
import pytest

from hls.cli import main
from hls.ekl import EKLError, c_header, compile_ekl, contraction_order, multiplies, parse
from hls.verify import cosim

EKL = Path(__file__).resolve().parent.parent / "examples" / "ekl"


def _jit(text: str):
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    mod = llvm.parse_assembly(text)
    mod.verify()
    tm = llvm.Target.from_default_triple().create_target_machine()
    ee = llvm.create_mcjit_compiler(mod, tm)
    ee.finalize_object()
    return ee


def _run(name: str, inputs: list, outputs: list):
    text, kernels = compile_ekl((EKL / f"{name}.ekl").read_text(), f"{name}.ekl")
    ee = _jit(text)
    arrays = [np.ascontiguousarray(a) for a in inputs] + outputs
    fn = ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * len(arrays))(
        ee.get_function_address(kernels[0].name))
    fn(*[a.ctypes.data for a in arrays])
    del ee
    return outputs


def _close(got, want, rtol):
    scale = max(1.0, float(np.max(np.abs(want))))
    assert np.max(np.abs(got - want)) <= rtol * scale, np.max(np.abs(got - want)) / scale


RNG = np.random.default_rng(7)


def test_helmholtz_matches_numpy():
    S, D, u = RNG.standard_normal((11, 11)), RNG.standard_normal((11,) * 3), \
        RNG.standard_normal((11,) * 3)
    (v,) = _run("helmholtz", [S, D, u], [np.zeros((11,) * 3)])
    t = np.einsum("ia,jb,kc,abc->ijk", S, S, S, u)
    want = np.einsum("ai,bj,ck,abc->ijk", S, S, S, D * t)
    _close(v, want, 1e-10)


def test_interp_matches_numpy():
    A, B, C = RNG.standard_normal((6, 4)), RNG.standard_normal((5, 4)), RNG.standard_normal((3, 4))
    u = RNG.standard_normal((4, 4, 4))
    (v,) = _run("interp", [A, B, C, u], [np.zeros((6, 5, 3))])
    _close(v, np.einsum("ia,jb,kc,abc->ijk", A, B, C, u), 1e-10)


def test_matchain_matches_numpy():
    A, B, C = RNG.standard_normal((8, 12)), RNG.standard_normal((12, 5)), RNG.standard_normal((5, 9))
    (R,) = _run("matchain", [A, B, C], [np.zeros((8, 9))])
    _close(R, A @ B @ C, 1e-10)


def test_gradient_f32_matches_numpy():
    D = RNG.standard_normal((7, 7)).astype(np.float32)
    u = RNG.standard_normal((7, 7, 7)).astype(np.float32)
    outs = [np.zeros((7, 7, 7), np.float32) for _ in range(3)]
    gx, gy, gz = _run("gradient", [D, u], outs)
    _close(gx, np.einsum("ia,ajk->ijk", D, u), 1e-5)
    _close(gy, np.einsum("jb,ibk->ijk", D, u), 1e-5)
    _close(gz, 0.5 * np.einsum("kc,ijc->ijk", D, u), 1e-5)


def test_factorisation_reaches_the_floor():
    text = (EKL / "helmholtz.ekl").read_text()
    _, (k,) = compile_ekl(text, "helmholtz.ekl")
    assert multiplies(k) == 6 * 11 ** 4 + 11 ** 3 == 89177
    ext = dict.fromkeys("ijkabc", 11)
    cost, tree = contraction_order([("i", "a"), ("j", "b"), ("k", "c"), ("a", "b", "c")],
                                   ("i", "j", "k"), ext)
    assert cost == 3 * 11 ** 4
    # the non-square interpolation: contract the small matrices against u first
    ext = {"i": 6, "j": 5, "k": 3, "a": 4, "b": 4, "c": 4}
    cost, _ = contraction_order([("i", "a"), ("j", "b"), ("k", "c"), ("a", "b", "c")],
                                ("i", "j", "k"), ext)
    assert cost == 3 * 4 * 4 * 4 + 3 * 4 * 4 * 5 + 3 * 4 * 5 * 6  # c, then b, then a


def test_header_and_abi():
    _, kernels = compile_ekl((EKL / "gradient.ekl").read_text(), "gradient.ekl")
    h = c_header(kernels, "GRADIENT_H")
    assert "void gradient(const float *D, const float *u, float *gx, float *gy, float *gz);" in h


# ----------------------------------------------------------------------------- errors

BAD = [
    ("syntax", "kernel k(a : f64[2]) {\n    out b = a +;\n}\n", 2, 16, "expected an expression, found ';'"),
    ("unknown-name", "kernel k(a : f64[2], b : out& f64[2]) {\n    out b[i] = c[i];\n}\n", 2, 16,
     "unknown name 'c'"),
    ("extents", "kernel k(a : f64[2, 3], b : out& f64[2]) {\n"
                "    out b[i] = <+ j< a[i, j] * a[j, i];\n}\n", 2, 34,
     "index 'j' has conflicting extents 3 and 2"),
    ("free-index", "kernel k(a : f64[2, 3], b : out& f64[2]) {\n    out b[i] = a[i, j];\n}\n",
     2, 21, "index 'j' is free on the right but not bound on the left"),
    ("type", "kernel k(a : f64[2], c : f32[2], b : out& f64[2]) {\n    out b[i] = a[i] + c[i];\n}\n",
     2, 21, "type mismatch: f64 and f32"),
    ("out-type", "kernel k(a : f32[2], b : out& f64[2]) {\n    out b[i] = a[i];\n}\n",
     2, 9, "type mismatch: 'b' is f64, the right side is f32"),
    ("shape", "kernel k(a : f64[2], b : out& f64[3]) {\n    out b[i] = a[i];\n}\n", 2, 9,
     "'b' is declared f64[3], the right side gives shape [2]"),
    ("unused-sum", "kernel k(a : f64[2], b : out& f64[2]) {\n    out b[i] = <+ j< a[i];\n}\n",
     2, 19, "summation index 'j' does not appear in the sum's body"),
    ("never-written", "kernel k(a : f64[2], b : out& f64[2]) {\n    let t = a * 2;\n}\n",
     1, 22, "output 'b' is never written"),
    ("elementwise", "kernel k(a : f64[2], c : f64[3], b : out& f64[2]) {\n    out b = a * c;\n}\n",
     2, 15, "shapes [2] and [3] of an elementwise '*' differ"),
]


@pytest.mark.parametrize("name, text, line, col, expect", BAD, ids=[b[0] for b in BAD])
def test_errors(name, text, line, col, expect, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    src = Path(f"{name}.ekl")
    src.write_text(text)
    with pytest.raises(EKLError) as ei:
        compile_ekl(text, str(src))
    assert (ei.value.span.line, ei.value.span.col) == (line, col), ei.value.format()
    rc = main(["synth", str(src), "--top", "k", "-o", "out"])
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" not in err
    first, shown, mark = err.splitlines()[:3]
    assert re.fullmatch(re.escape(f"{src}:{line}:{col}: error: ") + ".+", first), first
    assert expect in first, first
    assert shown.strip() == text.splitlines()[line - 1].strip()
    assert mark.index("^") - 2 == col - 1            # the span under the source line
    assert not Path("out").exists()


def test_parse_spans():
    (k,) = parse("kernel k(a : f64[2], b : out& f64[2]) {\n  out b = a;\n}\n", "x.ekl")
    assert [a.out for a in k.args] == [False, True]
    assert (k.stmts[0].span.line, k.stmts[0].span.col) == (2, 7)


# ----------------------------------------------------------------------------- flow

@pytest.mark.parametrize("name", ["interp", "matchain", "gradient"])
def test_cosim_small_kernels(name, tmp_path):
    got = cosim(EKL / f"{name}.ekl", name, runs=2, workdir=tmp_path / "w")
    assert got.passed, got.summary()


def test_synth_writes_ll_and_header(tmp_path):
    out = tmp_path / "out"
    assert main(["synth", str(EKL / "matchain.ekl"), "--top", "matchain", "-o", str(out)]) == 0
    assert (out / "matchain.h").read_text().count("void matchain(") == 1
    assert re.search(r'define void @"?matchain"?\(', (out / "matchain.ll").read_text())


@pytest.mark.slow
def test_cosim_helmholtz(tmp_path):
    """Inverse Helmholtz p = 11 from the .ekl file against native execution of its
    lowered IR (random inputs); about a minute (python -m pytest -m slow)."""
    got = cosim(EKL / "helmholtz.ekl", "inverse_helmholtz", runs=2, workdir=tmp_path / "w")
    assert got.passed, got.summary()
