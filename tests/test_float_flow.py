"""Floating point through the whole flow: every float op against native execution
(bit-exact in binary32/binary64), and custom formats (``--fp-format``) against the
reference models, on the project's FP kernel and on the shared float kernels."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hls.cli import main as cli_main
from hls.flow import SynthOptions, synthesize
from hls.fpu import FPFormat
from hls.ir import FLOAT_KINDS
from hls.verify import cosim

HERE = Path(__file__).resolve().parent
FP_OPS = HERE / "kernels" / "fp_ops.c"
FP_DEPTH = {"a": 32, "b": 32, "o": 256, "k": 32}
SHARED = HERE.parent / "examples" / "kernels"
FLOAT_KERNELS = sorted(m for m in SHARED.glob("*.json") if json.loads(m.read_text())["float"])


def _meta(man: Path):
    meta = json.loads(man.read_text())
    return man.with_suffix(".c"), meta["top"], {k: v["depth"] for k, v in meta["args"].items()}


def test_fp_ops_cover_the_units():
    res = synthesize(FP_OPS, SynthOptions(top="fops", depth=FP_DEPTH))
    kinds = {op.kind for f in res.module.functions for op in f.ops()}
    assert {"fsqrt", "ffma", "fminnum", "fmaxnum", "fcopysign", "fabs", "fdiv", "fpconv",
            "fptosi", "fptoui", "sitofp", "uitofp", "fcmp", "fmul", "fadd", "fsub",
            "fneg"} <= kinds
    assert kinds & FLOAT_KINDS


@pytest.mark.parametrize("fmt", [None, "e8m7", "e5m10", "e6m9"])
def test_fp_ops_cosim(fmt):
    spec = {"*": fmt} if fmt else None
    r = cosim(FP_OPS, "fops", tb=FP_OPS, depth=FP_DEPTH, fp_format=spec)
    assert r.passed, r.mismatches[:5]
    if fmt:
        kinds = {(op.kind, str(op.attrs.get("fmt"))) for op in r.synth.module.top.ops()}
        assert ("fadd", fmt) in kinds  # the arithmetic really runs in the custom format


@pytest.mark.parametrize("fmt", ["e8m7", "e5m10"])
@pytest.mark.parametrize("man", FLOAT_KERNELS, ids=lambda m: m.stem)
def test_shared_float_kernels_custom_format(man, fmt):
    src, top, depth = _meta(man)
    r = cosim(src, top, tb=src, depth=depth, fp_format={"*": fmt})
    assert r.passed, r.summary()


def test_custom_format_changes_results():
    """The golden model really is the custom format: e5m10 and binary32 results differ."""
    from hls.verify import golden_ir

    res = synthesize(FP_OPS, SynthOptions(top="fops", depth=FP_DEPTH,
                                          fp_format={"*": FPFormat.parse("e5m10")}))
    assert "__pyhls_fp_e5m10_fadd_f32" in golden_ir(res.module)
    ieee = synthesize(FP_OPS, SynthOptions(top="fops", depth=FP_DEPTH))
    assert "__pyhls_fp_" not in golden_ir(ieee.module)


def test_fp_format_errors(tmp_path, capsys):
    out = tmp_path / "o"
    rc = cli_main(["synth", str(FP_OPS), "--top", "fops", "--fp-format", "*=e9m30",
                   "--depth", "a=32", "--depth", "b=32", "--depth", "o=256", "--depth", "k=32",
                   "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 1 and "must fit in the C type it replaces" in err and not out.exists()
    rc = cli_main(["synth", str(FP_OPS), "--top", "fops", "--fp-format", "nosuch=e8m7",
                   "--depth", "a=32", "--depth", "b=32", "--depth", "o=256", "--depth", "k=32",
                   "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 1 and "nosuch" in err and "not a hardware function" in err
    rc = cli_main(["synth", str(FP_OPS), "--top", "fops", "--fp-format", "*=e99", "-o", str(out)])
    assert rc == 1 and "--fp-format *=e99" in capsys.readouterr().err


def test_nan_results_compare_by_nan_ness():
    """inf*0 and inf-inf: the host's NaN (0xFFC00000 on x86) and the hardware's canonical
    NaN (0x7FC00000) differ in their bits; float data is compared by NaN-ness."""
    from hls.verify import is_nan

    src = HERE / "kernels" / "fp_nan.c"
    r = cosim(src, "nanny", tb=src, depth={"a": 8, "o": 8})
    assert r.passed, r.mismatches[:5]
    mems = {m.name: m.float_bits for m in r.synth.interface.memories}
    assert mems == {"a": 32, "o": 32} and r.synth.interface.return_float == 32
    assert is_nan(0xFFC00000, 32) and is_nan(0x7FC00000, 32) and not is_nan(0x7F800000, 32)


FP_CHAIN = """
T chain(T x, T y) {
  T a = x + y;
  T b = a + x;
  T c = b + y;
  return c * a;
}
int main(void) {
  volatile T r = chain(1.5, 2.25) + chain(-3.0, 0.125) + chain(1e30, -1e30);
  return r > 0 ? 0 : 1;
}
"""


@pytest.mark.parametrize("ctype, target, sharers", [("double", "generic", 3), ("float", "ecp5", 2)])
def test_fsm_states_share_floating_point_units(tmp_path, ctype, target, sharers):
    """Three dependent additions in three FSM states: one pipelined unit serves them where
    its operand multiplexer fits the cycle (generic: all three; ECP5 at 10 ns: fadd32's
    first stage leaves room for a 2:1 multiplexer but not for a 3:1's 0.32 ns, so two share
    and the third keeps its own unit), and the design still computes what the program does."""
    from hls.scheduling import op_timing

    src = tmp_path / "chain.c"
    src.write_text(f"typedef {ctype} T;\n" + FP_CHAIN)
    res = synthesize(src, SynthOptions(top="chain", target=target))
    f = res.module.top
    bd, fs = res.bindings[f], res.schedules[f]
    adds = [op for op in f.ops() if op.kind == "fadd"]
    assert len(adds) == 3 and len({(op.block, fs.step[op]) for op in adds}) == 3
    units = {k: v for k, v in bd.units.items() if k.startswith("fadd")}
    assert [len(m) for v in units.values() for m in v] == [sharers], units
    budget = res.target.chain_budget_ns
    for key, insts in units.items():
        for members in insts:
            for op in members:   # each sharer's first stage still fits with the multiplexer
                bs = fs.blocks[op.block]
                t = op_timing(res.target, op)
                first = bs.schedule.arrival_ns.get(bs.ops.index(op), 0.0) + t.in_delay_ns
                assert first + res.target.port_mux_ns(len(members)) <= budget + 1e-9
    assert sum(op in bd.unit_of for op in adds) == sharers
    r = cosim(src, "chain", tb=src, synth=res)
    assert r.passed, r.summary()


def test_libm_sqrt_and_fabs_calls_are_units(tmp_path):
    """sqrt() and sqrtf() stay library calls under clang's default -fmath-errno: they are
    the square-root unit (errno has no meaning in hardware; the value is the same), as
    fabs()/fabsf() are the absolute value; a negative operand's NaN compares as a NaN."""
    src = tmp_path / "norm.c"
    src.write_text("""
        #include <math.h>
        double norm(const double v[8], float w[8]) {
            double s = 0.0;
            for (int i = 0; i < 8; i++) {
                s += v[i] * v[i];
                w[i] = sqrtf(w[i]) - fabsf((float)v[i]);
            }
            return sqrt(s) + sqrt(v[0]);
        }
        int main(void) {
            double v[8]; float w[8];
            for (int i = 0; i < 8; i++) { v[i] = (i - 3) * 1.25; w[i] = (i * i - 9) * 0.5f; }
            double r = norm(v, w);       /* sqrt(v[0] = -3.75): NaN */
            v[0] = 6.25;
            r += norm(v, w);
            return (int)r;
        }
        """)
    from hls.toolchain import compile_c_to_ll
    ll = compile_c_to_ll(src, tmp_path / "norm.ll").read_text()
    assert "@sqrt(" in ll and "@sqrtf(" in ll        # the library calls, not llvm.sqrt
    r = cosim(src, "norm", tb=src)
    assert r.passed, r.summary()
    kinds = {op.kind for f in r.synth.module.functions for op in f.ops()}
    assert {"fsqrt", "fabs"} <= kinds, kinds
