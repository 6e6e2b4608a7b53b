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
from hls.ir import Interpreter, PtrParam
from hls.verify import capture_tb_calls, run_main

KERNELS = Path(__file__).resolve().parent.parent / "examples" / "kernels"
MANIFESTS = sorted(KERNELS.glob("*.json"))
# the binary64 kernel runs thousands of reference-model calls per testbench call
QUICK = [m for m in MANIFESTS if m.stem != "trapezoid_f64"]


def _meta(man: Path):
    meta = json.loads(man.read_text())
    return man.with_suffix(".c"), meta["top"], {k: v["depth"] for k, v in meta["args"].items()}


def _interpret_calls(res, calls) -> list[str]:
    """Run the top on each call with one interpreter (globals persist across calls, as in
    the harness and in native execution); return the differences found."""
    f = res.module.top
    it = Interpreter(max_steps=20_000_000)
    bad = []
    for i, c in enumerate(calls):
        if i == 0:
            for g in res.module.globals:
                if g.symbol in c.glob_in:
                    it.preset[g.name] = bytes(c.glob_in[g.symbol])
        bufs = {}
        for p in f.params:
            if isinstance(p, PtrParam):
                buf = it.buffer(p.mem)
                data = bytes(c.mem_in.get(p.index, b""))[:len(buf)]
                buf[:] = data.ljust(len(buf), b"\0")
                bufs[p.index] = buf
        ret = it.call(f, c.scalars)
        if f.return_width and c.ret is not None:
            mask = (1 << f.return_width) - 1
            if (ret or 0) & mask != c.ret & mask:
                bad.append(f"call {i}: return {(ret or 0) & mask:#x}, native {c.ret & mask:#x}")
        for a, out in c.mem_out.items():
            got = bytes(bufs[a])[:len(out)]
            if got != bytes(out)[:len(got)]:
                k = next(j for j in range(len(got)) if got[j] != out[j])
                bad.append(f"call {i}: argument {a} byte {k}: {got[k]:#x}, native {out[k]:#x}")
    return bad


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
    bad = _interpret_calls(res, calls)
    assert not bad, "\n".join(bad[:8])


@pytest.mark.parametrize("man", [pytest.param(m, marks=pytest.mark.slow)
                                 if m.stem == "fsm_tokenizer" else m for m in QUICK],
                         ids=lambda m: m.stem)
def test_kernel_main_ir_matches_native(man):
    src, _top, _depth = _meta(man)
    res = synthesize(src, SynthOptions(top="main"))
    f = res.module.top
    it = Interpreter(max_steps=50_000_000)
    ret = it.call(f, {})
    sizes = {g.symbol: g.size_bytes for g in res.module.globals if not g.readonly}
    nret, globs = run_main(res.module.llvm_ir, list(sizes), sizes)
    mask = (1 << f.return_width) - 1
    assert (ret or 0) & mask == nret & mask
    for g in res.module.globals:
        if g.symbol in globs:
            got = bytes(it.buffer(g))[:len(globs[g.symbol])]
            assert got == bytes(globs[g.symbol])[:len(got)], g.symbol
