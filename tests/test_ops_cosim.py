"""Bit-exact co-simulation of every LLVM integer operation pyhls claims, at widths
1, 7, 8, 13, 16, 32, 33 and 64, and of the memory, control-flow and call features.

The LLVM IR is hand-written by ``tests/ops_ll.py`` (see its docstring).  Four designs, so
four Verilator builds, cached by content (``$PYHLS_CACHE`` or ~/.cache/pyhls): the first
run builds them in parallel (about two minutes on two cores), later runs take seconds.

Stimulus: random (several seeds; golden = native execution of the same canonicalised IR),
and edge values: for each width, every pair of (0, 1, -1, INT_MIN, INT_MAX) at that width
(sign-extended to i64) for a and b, all replayed in one harness run, plus a few calls
through ``cosim(fixed=...)``.
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ops_ll import (  # noqa: E402
    CTL_DEPTHS, ICMP_PREDS, MEM_DEPTHS, OPS_TOPS, WIDE_WIDTHS, WIDTHS, ctl_ll, mem_ll, ops_ll,
    wide_ll,
)

from hls.errors import ToolError  # noqa: E402
from hls.flow import SynthOptions, synthesize  # noqa: E402
from hls.verify import Call, build_harness, cosim, find_verilator, run_calls, run_cosim  # noqa: E402

try:
    find_verilator()
except ToolError:  # pragma: no cover
    pytest.skip("Verilator is not available", allow_module_level=True)

M64 = (1 << 64) - 1
SEEDS = (0, 1, 2, 3)


class Design:
    def __init__(self, path: Path, top: str, depth: dict[str, int], slots=None):
        self.path, self.top, self.depth, self.slots = path, top, depth, slots
        self.res = synthesize(path, SynthOptions(top=top, depth=depth))
        self.vfile = path.parent / top / f"{self.res.interface.module_name}.v"
        self.vfile.parent.mkdir(exist_ok=True)
        self.vfile.write_text(self.res.verilog)

    def build(self) -> Path:
        return build_harness([self.vfile], self.res.interface)

    def explain(self, result) -> str:
        """The cosim summary with each out[k] mismatch named after its operation."""
        lines = [result.summary()]
        for m in result.mismatches:
            if self.slots and m.arg == "out" and m.index is not None:
                name = self.slots[m.index]
                extra = ""
                if name.startswith("icmp."):
                    diff = m.expected ^ m.got
                    extra = " (predicates differing: " + ", ".join(
                        p for k, p in enumerate(ICMP_PREDS) if diff >> k & 1) + ")"
                lines.append(f"  out[{m.index}] = {name}: expected {m.expected:#x}, "
                             f"got {m.got:#x}{extra}")
        return "\n".join(lines)


@pytest.fixture(scope="module")
def designs(tmp_path_factory) -> dict[str, Design]:
    d = tmp_path_factory.mktemp("ops_cosim")
    text, slots = ops_ll()
    (d / "ops.ll").write_text(text)
    (d / "mem.ll").write_text(mem_ll())
    (d / "ctl.ll").write_text(ctl_ll())
    out: dict[str, Design] = {}
    for top in OPS_TOPS:
        out[top] = Design(d / "ops.ll", top, {"out": len(slots[top])}, slots[top])
    wide, wslots = wide_ll()
    (d / "wide.ll").write_text(wide)
    out["ops_wide"] = Design(d / "wide.ll", "ops_wide", {"out": len(wslots)}, wslots)
    out["memk"] = Design(d / "mem.ll", "memk", dict(MEM_DEPTHS))
    out["ctl"] = Design(d / "ctl.ll", "ctl", dict(CTL_DEPTHS))
    # build every harness at once (cached by content; cosim() below then finds them)
    with ThreadPoolExecutor(max_workers=4) as ex:
        list(ex.map(lambda k: out[k].build(), out))
    return out


def _check(design: Design, result) -> None:
    assert result.passed, design.explain(result)
    assert all(c.status == "ok" for c in result.calls)


# --------------------------------------------------------------------------- coverage

# op kinds of the hls IR, and where they must survive canonicalisation
_ALL_KINDS = {"add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr",
              "and", "or", "xor", "icmp", "select", "zext", "sext", "trunc", "smax", "smin",
              "umax", "umin", "abs", "fshl", "fshr", "bitreverse", "ctpop", "ctlz", "cttz",
              "bswap", "sadd_sat", "ssub_sat", "uadd_sat", "usub_sat"}


def test_ops_all_kinds_reach_hardware(designs):
    """instcombine must not have folded an operation away at any width >= 7 (at width 1
    LLVM legitimately rewrites most of them into logic ops)."""
    seen: set[tuple[str, int]] = set()
    preds: set[tuple[str, int]] = set()
    for top in OPS_TOPS:
        for f in designs[top].res.module.functions:
            for op in f.ops():
                w = op.operands[0].width if op.kind in ("icmp", "zext", "sext", "trunc") \
                    else op.width
                seen.add((op.kind, w))
                if op.kind == "icmp":
                    preds.add((op.attrs["pred"], w))
    kinds = {k for k, _ in seen}
    assert _ALL_KINDS <= kinds, f"never reached the hardware: {_ALL_KINDS - kinds}"
    missing = []
    for w in WIDTHS:
        if w < 7:
            continue
        for k in _ALL_KINDS - {"zext", "sext", "trunc", "select", "icmp"}:
            if k == "bswap" and w % 16:
                continue
            if (k, w) not in seen:
                missing.append(f"{k}.{w}")
    assert not missing, f"folded away by canonicalisation: {missing}"
    # every predicate family survives at some width (LLVM canonicalises ule/uge/sle/sge
    # against non-constants only rarely; against constants it turns them into ult/ugt...,
    # and a packed zext(icmp ne) may become an xor of the eq bit)
    assert {p for p, _ in preds} >= {"eq", "ult", "ugt", "slt", "sgt"}


# --------------------------------------------------------------------------- random

@pytest.mark.parametrize("top", list(OPS_TOPS))
def test_ops_random(designs, top):
    d = designs[top]
    for seed in SEEDS:
        r = cosim(d.path, top, depth=d.depth, seed=seed, runs=8, synth=d.res)
        _check(d, r)


def _edges(w: int) -> list[int]:
    """0, 1, -1, INT_MIN, INT_MAX of width ``w``, sign-extended to 64 bits."""
    def sx(v):
        v &= (1 << w) - 1
        if v >> (w - 1):
            v -= 1 << w
        return v & M64
    return sorted({0, 1, M64, sx(1 << (w - 1)), sx((1 << (w - 1)) - 1)})


def _edge_calls(d: Design) -> list[Call]:
    scal = {p.name: p.index for p in d.res.module.top.scalar_params}
    ia, ib, ic = scal["a"], scal["b"], scal["c"]
    seen, calls = set(), []
    for w in WIDTHS:
        e = _edges(w)
        for i, x in enumerate(e):
            for j, y in enumerate(e):
                z = e[(i + 2 * j) % len(e)]
                if (x, y, z) not in seen:
                    seen.add((x, y, z))
                    calls.append(Call(scalars={ia: x, ib: y, ic: z}, mem_in={}))
    # and: each value against itself plus one (neighbours across the signed wrap)
    for w in WIDTHS:
        for x in _edges(w):
            calls.append(Call(scalars={ia: x, ib: (x + 1) & M64, ic: (x - 1) & M64}, mem_in={}))
    size = {m.arg_index: m.size_bytes for m in d.res.interface.memories}
    for c in calls:
        c.mem_in = {k: bytes(n) for k, n in size.items()}
    return calls


@pytest.mark.parametrize("top", list(OPS_TOPS))
def test_ops_edge_values(designs, top, tmp_path):
    d = designs[top]
    iface = d.res.interface
    size = {m.arg_index: m.size_bytes for m in iface.memories}
    calls = run_calls(d.res.module.llvm_ir, top, _edge_calls(d), size)
    r = run_cosim([d.vfile], iface, calls, max_cycles=10**6, workdir=tmp_path)
    _check(d, r)


@pytest.mark.parametrize("fixed", [
    {"a": 1 << 63, "b": M64, "c": 0},                 # INT64_MIN, -1
    {"a": (1 << 63) - 1, "b": 1 << 63, "c": M64},     # INT64_MAX, INT64_MIN
    {"a": 0, "b": 0},                                 # c random
    {"a": 1 << 32, "b": (1 << 32) - 1},               # INT33_MIN, INT33_MAX
])
def test_ops_fixed(designs, fixed):
    """The ``fixed`` path of cosim (as from ``pyhls cosim --set``)."""
    for top in OPS_TOPS:
        d = designs[top]
        r = cosim(d.path, top, depth=d.depth, fixed=fixed, seed=7, runs=2, synth=d.res)
        _check(d, r)


# --------------------------------------------------------------------------- wide mul/div

def test_ops_wide(designs, tmp_path):
    """mul/udiv/urem/sdiv/srem at 96 and 128 bits (tests/ops_ll.py wide_ll): random calls,
    and the edge values of each width crossed (each value split into its two words)."""
    d = designs["ops_wide"]
    kinds = {(op.kind, op.width) for op in d.res.module.top.ops()}
    for w in WIDE_WIDTHS:
        assert {(k, w) for k in ("mul", "udiv", "urem", "sdiv", "srem")} <= kinds, kinds
    for seed in SEEDS[:2]:
        _check(d, cosim(d.path, "ops_wide", depth=d.depth, seed=seed, runs=8, synth=d.res))
    scal = {p.name: p.index for p in d.res.module.top.scalar_params}
    iface = d.res.interface
    size = {m.arg_index: m.size_bytes for m in iface.memories}
    calls = []
    for w in WIDE_WIDTHS:
        e = _edges_wide(w)
        for i, x in enumerate(e):
            for y in e[i % 3::3]:
                calls.append(Call(scalars={scal["a"]: x >> 64, scal["b"]: x & M64,
                                           scal["c"]: y >> 64, scal["d"]: y & M64},
                                  mem_in={k: bytes(n) for k, n in size.items()}))
    calls = run_calls(d.res.module.llvm_ir, "ops_wide", calls, size)
    r = run_cosim([d.vfile], iface, calls, max_cycles=10**6, workdir=tmp_path)
    _check(d, r)


def _edges_wide(w: int) -> list[int]:
    """0, ±1, ±2, MIN, MAX, MIN+1, MAX-1 and powers of two of ``w`` bits with their
    neighbours, sign-extended to 128 bits (as ``ops_wide`` truncates them)."""
    from test_op_rtl import edge_values

    m128 = (1 << 128) - 1
    return sorted({(v - (1 << w) if v >> (w - 1) else v) & m128 for v in edge_values(w)})


# --------------------------------------------------------------------------- memories, calls

def test_memk_random(designs):
    d = designs["memk"]
    # runs > 1: the writable global @acc accumulates across calls in both worlds
    for seed in SEEDS:
        r = cosim(d.path, "memk", depth=d.depth, seed=seed, runs=6, synth=d.res)
        _check(d, r)


def test_memk_structure(designs):
    res = designs["memk"].res
    mems = {m.name: m for m in res.interface.memories}
    assert mems["acc"].global_name == "acc"           # writable global -> external port
    assert set(mems) == {"buf", "rec", "mat", "dst", "acc"}
    f = res.module.top
    kinds = {m.kind for m in f.memories}
    assert "local" in kinds                           # the alloca
    assert any(m.readonly for m in res.module.globals)  # the ROMs


@pytest.mark.parametrize("op", range(8))
def test_ctl_each_switch_case(designs, op):
    d = designs["ctl"]
    r = cosim(d.path, "ctl", depth=d.depth, fixed={"op": op}, seed=op, runs=6, synth=d.res)
    _check(d, r)


def test_ctl_random(designs):
    d = designs["ctl"]
    for seed in SEEDS:
        r = cosim(d.path, "ctl", depth=d.depth, seed=seed, runs=8, synth=d.res)
        _check(d, r)


def test_ctl_structure(designs):
    res = designs["ctl"].res
    names = {f.name for f in res.module.functions}
    assert names == {"ctl", "helper", "clamp8"}        # @mix was inlined
    assert "module ctl__" in res.verilog or "module ctl" in res.verilog
    # each noinline function is its own hardware module
    assert res.verilog.count("\nmodule ") >= 3
