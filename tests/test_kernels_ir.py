"""Every shared kernel's CDFG, as the flow leaves it for scheduling (after if-conversion,
unrolling, automatic partitioning and every pass), interpreted on the calls its own
testbench makes, against native execution of the LLVM IR: return values and every byte
of every pointer argument.  No Verilator: a wrong translation or rewrite shows up here
with the function and call that expose it, before any RTL is involved.  The same is done
for ``--top main`` (return value and final globals) and with pipelining off (no
if-conversion)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hls.flow import SynthOptions, synthesize
from hls.verify import Call, capture_tb_calls, ir_differences, run_main

KERNELS = Path(__file__).resolve().parent.parent / "examples" / "kernels"
MANIFESTS = sorted(KERNELS.glob("*.json"))
# the binary64 kernel runs thousands of reference-model calls per testbench call
QUICK = [m for m in MANIFESTS if m.stem != "trapezoid_f64"]


def _meta(man: Path):
    meta = json.loads(man.read_text())
    return man.with_suffix(".c"), meta["top"], {k: v["depth"] for k, v in meta["args"].items()}


@pytest.mark.parametrize("pipeline", [True, False], ids=["pipelined", "sequential"])
@pytest.mark.parametrize("man", QUICK, ids=lambda m: m.stem)
def test_kernel_ir_matches_native(man, pipeline):
    src, top, depth = _meta(man)
    res = synthesize(src, SynthOptions(top=top, depth=depth, pipeline=pipeline))
    ptr_sizes = {m.arg_index: m.whole_bytes for m in res.interface.memories
                 if m.arg_index is not None}
    glob_sizes = {g.symbol: g.size_bytes for g in res.module.globals if g.bank is None}
    calls = capture_tb_calls(res.module.llvm_ir, top, ptr_sizes, globals_=glob_sizes or None)
    assert calls
    bad = ir_differences(res.module, calls, max_steps=20_000_000)
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("man", [pytest.param(m, marks=pytest.mark.slow)
                                 if m.stem == "fsm_tokenizer" else m for m in QUICK],
                         ids=lambda m: m.stem)
def test_kernel_main_ir_matches_native(man):
    src, _top, _depth = _meta(man)
    res = synthesize(src, SynthOptions(top="main"))
    sizes = {g.symbol: g.size_bytes for g in res.module.globals if not g.readonly}
    nret, globs = run_main(res.module.llvm_ir, list(sizes), sizes)
    call = Call(scalars={}, mem_in={}, ret=nret, glob_out=globs)
    bad = ir_differences(res.module, [call], max_steps=50_000_000)
    assert not bad, "\n".join(bad)
