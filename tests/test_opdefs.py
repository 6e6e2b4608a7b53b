"""The op definitions (``hls.ir._ops``) are complete, and ``verify`` enforces them.

Every kind has what each stage reads from its definition: an evaluation rule (or is one
of the memory, call, phi and control kinds the interpreter runs itself), a timing class
the target's operator table knows, and a hardware builder when it is combinational.  A
kind added without one of them fails here, not in the scheduler or in co-simulation.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hls.errors import HLSError
from hls.fpu import BINARY32
from hls.ir import FPU, OPS, Block, Const, Function, Op, Param, eval_op, op_def, parse_module, verify
from hls.targets import get_target
from hls.targets._fp import op_attrs, unit_spec
from hls.targets._model import _TABLE

#: kinds with no ``eval`` and no ``rtl``: the interpreter and hls.rtl run them directly
SPECIAL = {"phi", "load", "store", "call", "br", "condbr", "switch", "ret"}


def test_unknown_kind_is_a_clear_error():
    with pytest.raises(HLSError, match="unknown op kind 'frobnicate'.*known kinds: .*add"):
        op_def("frobnicate")


@pytest.mark.parametrize("kind", sorted(OPS))
def test_every_kind_is_complete(kind):
    d = OPS[kind]
    assert d.kind == kind
    special = d.memory or d.terminator or kind in ("phi", "call")
    assert special == (kind in SPECIAL)
    # evaluation: every kind but the ones the interpreter runs itself
    assert (d.eval is None) == special
    # timing: a class of the operator table, or the floating-point units; phis are
    # registers on the edges, never scheduled
    if kind == "phi":
        assert d.timing is None
    elif d.float:
        assert d.timing == FPU and "fmt" in d.attrs
        attrs = {"fmt": BINARY32, "pred": "oeq", "src": BINARY32}
        fake = Op(width=32, kind=kind, operands=[Param(32, "x", 0)], attrs=attrs)
        unit_spec(kind, BINARY32, op_attrs(fake))  # the unit exists
    else:
        assert d.timing in _TABLE
        assert d.timing_width in ("result", "widest")
    # hardware: combinational kinds have a builder; the others have units of their own
    assert (d.rtl is None) == (special or d.float or d.divider)
    assert d.pure == (not special)
    assert d.narrow in (None, "low", "low-shift")


def test_every_hardware_builder_is_compared_with_its_semantics():
    """tests/test_op_rtl.py names every kind with hardware of its own making (combinational
    builders and the divider), so a new kind cannot skip the comparison unnoticed."""
    text = (Path(__file__).parent / "test_op_rtl.py").read_text()
    missing = [k for k, d in OPS.items() if (d.rtl or d.divider) and f'"{k}"' not in text]
    assert not missing, f"not compared in tests/test_op_rtl.py: {missing}"


def test_timing_of_every_integer_kind_resolves():
    t = get_target("generic")
    for d in OPS.values():
        if d.timing not in (None, FPU):
            assert t.timing(d.timing, 32).latency >= 0
    # the 65..128-bit multiplies and divisions of wide products, on the formula target
    # and extrapolated on the characterised one (the widest ecp5 sample is 64 bits)
    for target in (t, get_target("ecp5")):
        for kind in ("udiv", "sdiv", "urem", "srem"):    # fewer bits per cycle, more cycles
            wide, w64 = target.timing(kind, 128), target.timing(kind, 64)
            assert wide.latency > w64.latency and wide.area_ff > w64.area_ff, kind
        for kind in ("mul", "udivc", "add"):
            wide, w64 = target.timing(kind, 128), target.timing(kind, 64)
            assert wide.latency == w64.latency and wide.area_lut > w64.area_lut, kind
            assert wide.delay_ns + wide.in_delay_ns >= w64.delay_ns + w64.in_delay_ns, kind
        assert target.timing("mul", 128).area_dsp >= target.timing("mul", 64).area_dsp


def test_eval_reads_the_definition():
    assert eval_op("add", 8, {}, [200, 100], [8, 8]) == 44
    assert eval_op("icmp", 1, {"pred": "slt"}, [0xFF, 0], [8, 8]) == 1
    with pytest.raises(ValueError, match="no evaluation rule"):
        eval_op("load", 8, {}, [0], [8])


def _func(*ops: Op, params=()) -> Function:
    f = Function("f", params=list(params))
    b = Block("entry", function=f)
    f.blocks.append(b)
    for op in ops:
        b.append(op)
    b.append(Op(width=0, kind="ret"))
    return f


def test_verify_accepts_good_widths():
    x = Param(16, "x", 0)
    ops = [Op(width=16, kind="add", operands=[x, Const(16, 1)]),
           Op(width=1, kind="icmp", operands=[x, x], attrs={"pred": "eq"}),
           Op(width=32, kind="zext", operands=[x]),
           Op(width=4, kind="slice", operands=[x], attrs={"lo": 12}),
           Op(width=48, kind="concat", operands=[x, Const(32, 0)])]
    verify(_func(*ops, params=[x]))


@pytest.mark.parametrize("op, message", [
    (Op(width=8, kind="add", operands=[Const(16, 1), Const(16, 2)]),
     "add has a result of i8; its operands and attributes make it i16"),
    (Op(width=16, kind="add", operands=[Const(16, 1), Const(8, 2)]), "equal widths"),
    (Op(width=8, kind="icmp", operands=[Const(8, 1), Const(8, 2)], attrs={"pred": "eq"}),
     "icmp has a result of i8"),
    (Op(width=8, kind="zext", operands=[Const(16, 1)]), "wider than the result"),
    (Op(width=8, kind="slice", operands=[Const(8, 1)], attrs={"lo": 4}), "outside"),
    (Op(width=16, kind="fadd", operands=[Const(32, 1), Const(32, 2)], attrs={"fmt": BINARY32}),
     "fadd has a result of i16"),
])
def test_verify_rejects_a_wrong_width(op, message):
    with pytest.raises(HLSError, match=message):
        verify(_func(op))


@pytest.mark.parametrize("attrs, message", [
    ({"pred": 3}, "attribute 'pred' must be str, not int 3"),
    ({"pred": "lt"}, "attribute 'pred' must be one of"),
    ({}, "lacks its attribute 'pred'"),
])
def test_verify_rejects_a_wrong_attribute(attrs, message):
    op = Op(width=1, kind="icmp", operands=[Const(8, 1), Const(8, 2)], attrs=attrs)
    with pytest.raises(HLSError, match=message):
        verify(_func(op))


def test_verify_rejects_a_bool_for_an_int_attribute():
    op = Op(width=8, kind="slice", operands=[Const(16, 1)], attrs={"lo": True})
    with pytest.raises(HLSError, match="'lo' must be int, not bool"):
        verify(_func(op))


@pytest.mark.parametrize("op, message", [
    (Op(width=1, kind="icmp", operands=[Const(8, 1), Const(8, 2)],
        attrs={"pred": "eq", "note": (1, "x")}),
     "icmp: unknown attribute 'note' (allowed: pred)"),
    (Op(width=8, kind="add", operands=[Const(8, 1), Const(8, 2)], attrs={"pred": "eq"},
        name="s"),
     "add %s: unknown attribute 'pred' (allowed: none)"),
    (Op(width=0, kind="br", attrs={"loop_md": {"unrol": 4}}),
     "br attribute 'loop_md' has the unknown key 'unrol' (allowed: col, ii, label, line, pipeline, unroll)"),
])
def test_verify_rejects_an_attribute_outside_the_schema(op, message):
    """A misspelled optional attribute is an error, not an attribute silently absent."""
    f = _func(op)
    if op.kind == "br":     # a terminator of its own block
        f.blocks[0].ops.pop()
        f.blocks[0].ops[-1].targets = [f.blocks[0]]
    with pytest.raises(HLSError, match=re.escape(message)):
        verify(f)



DOM_HIR = """module @d
source "d.hir"
file 0 "d.hir"

func @d -> i32 loc=!0:1
  param %c: i1 index=0
  param %x: i32 index=1
^entry:
  condbr %c -> ^left, ^right !0:2
^left:
LEFT
  br -> ^join !0:3
^right:
RIGHT
  br -> ^join !0:4
^join:
JOIN
end
"""

DOM_CASES = {
    "ok": ("  %1:i32 = add %x, 1:i32", "  %2:i32 = add %x, 2:i32",
           "  %3:i32 = phi [^left: %1], [^right: %2]\n  ret %3", None),
    "use before def": ("  %1:i32 = add %0, 1:i32\n  %0:i32 = add %x, 2:i32", "", 
                       "  ret %x", "add uses the add before its definition in left"),
    "sibling block": ("  %1:i32 = add %x, 1:i32", "  %2:i32 = add %1, 2:i32",
                      "  ret %x", "add in right uses the add, whose block left does not dominate it"),
    "join uses a branch": ("  %1:i32 = add %x, 1:i32", "",
                           "  ret %1", "ret in join uses the add, whose block left does not dominate it"),
    "phi from the wrong side": ("  %1:i32 = add %x, 1:i32", "",
                                "  %3:i32 = phi [^left: %1], [^right: %1]\n  ret %3",
                                "phi in join takes the add from right"),
}


@pytest.mark.parametrize("case", list(DOM_CASES), ids=lambda k: k.replace(" ", "-"))
def test_verify_checks_dominance(case):
    """SSA: every use is dominated by its definition (same block: defined first; phis:
    at the end of the incoming predecessor)."""
    left, right, join, message = DOM_CASES[case]
    text = DOM_HIR.replace("LEFT", left or "").replace("RIGHT", right or "").replace("JOIN", join)
    text = "\n".join(line for line in text.splitlines() if line.strip() != "") + "\n"
    f = parse_module(text).top  # the text form parses any graph; verify judges it
    if message is None:
        verify(f)
    else:
        with pytest.raises(HLSError, match=message):
            verify(f)
