"""``Module.clone`` (hls.ir): a deep, independent copy of a module.

On real modules (kernels of ../shared/kernels with their manifests' depths, tests/programs
whole programs, a lowered and automatically partitioned module with banks): the clone is
structurally equal to the original (same fields, same sharing) and prints the same text,
shares no IR object with it, and the passes run on the clone leave the original as it was
(and lower it as they lower a fresh clone)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import same

from hls.errors import HLSError, InternalError
from hls.flow import SynthOptions, lower_module, synthesize
from hls.frontend import FrontendOptions, load
from hls.ir import Block, Function, MemoryObject, Module, Op, PtrParam, Value, print_module, verify
from hls.targets import PLAIN

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "kernels"
KERNELS = ("fir_decim2", "mat_horner_f32", "dataflow_img", "struct_records", "fft8_dif_q12",
           "hist_cdf_u8", "lut_gamma", "noinline_helpers")
PROGRAMS = sorted((ROOT / "tests" / "programs").glob("*.c"))

_NODES = (Module, Function, Block, Value, PtrParam, MemoryObject)


def _nodes(module: Module) -> dict[int, object]:
    """Every IR object reachable from ``module``, by id (constants included)."""
    seen: dict[int, object] = {}
    work: list = [module]
    while work:
        v = work.pop()
        if isinstance(v, _NODES):
            if id(v) not in seen:
                seen[id(v)] = v
                work.extend(vars(v).values())
        elif isinstance(v, dict):
            work.extend(v.keys())
            work.extend(v.values())
        elif isinstance(v, (list, tuple, set, frozenset)):
            work.extend(v)
    return seen


def _check_clone(module: Module, top: str) -> str:
    text = print_module(module)
    copy = module.clone()
    same(module, copy)
    assert print_module(copy) == text
    assert not set(_nodes(module)) & set(_nodes(copy)), "the clone shares IR objects"
    # mutate the clone: the whole pass pipeline
    other = module.clone()
    lower_module(copy, SynthOptions(top=top), None, PLAIN)
    assert print_module(module) == text, "lowering the clone changed the original"
    for f in module.functions:
        verify(f)
    # and the passes see the same module in every clone
    lower_module(other, SynthOptions(top=top), None, PLAIN)
    assert print_module(other) == print_module(copy)
    return print_module(copy)


def _manifest(name: str):
    meta = json.loads((SHARED / f"{name}.json").read_text())
    return meta["top"], {k: v["depth"] for k, v in meta.get("args", {}).items()}


@pytest.mark.skipif(not SHARED.is_dir(), reason="no ../shared/kernels")
@pytest.mark.parametrize("name", KERNELS)
def test_kernel_clone(name):
    top, depth = _manifest(name)
    module = load(SHARED / f"{name}.c", top, FrontendOptions(depth=depth))
    before = print_module(module)
    assert _check_clone(module, top) != before, "the passes changed nothing"


@pytest.mark.parametrize("src", PROGRAMS, ids=lambda p: p.stem)
def test_program_clone(src):
    """Whole programs: tagged pointers (``ptr_tags``, ``ptr_slots``), abort sites."""
    try:
        module = load(src, "main", FrontendOptions())
    except HLSError as exc:   # a program kept as an example of a rejected construct
        pytest.skip(f"not synthesisable: {exc}")
    _check_clone(module, "main")


def test_lowered_module_with_banks_clone():
    """The final CDFG of a synthesis: partitioned into banks (``bank``, ``whole``),
    if-converted, rewritten."""
    res = synthesize(ROOT / "tests" / "kernels" / "partition.c",
                     SynthOptions(top="quad_sum", depth={"a": 32, "out": 32}))
    module = res.module
    assert any(m.bank is not None for f in module.functions for m in f.memories
               + [b for p in f.ptr_params for b in p.banks])
    copy = module.clone()
    same(module, copy)
    assert print_module(copy) == print_module(module)
    assert not set(_nodes(module)) & set(_nodes(copy))
    # a bank's whole array is the clone's own
    for f in copy.functions:
        for p in f.ptr_params:
            for b in p.banks:
                assert b.whole is p.mem


def test_clone_rejects_a_mutable_stranger():
    """An attribute value that is neither an IR object nor immutable cannot be copied
    faithfully: a compiler bug, said so."""
    module = load(ROOT / "tests" / "kernels" / "partition.c", "quad_sum",
                  FrontendOptions(depth={"a": 32, "out": 32}))
    op: Op = next(module.top.ops())
    op.attrs["stranger"] = bytearray(b"x")
    with pytest.raises(InternalError, match="bytearray"):
        module.clone()
