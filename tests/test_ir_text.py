"""The IR text form (hls.ir.print_module / parse_module, ``.hir`` inputs, ``pyhls ir``).

For every kernel of examples/kernels (manifest top and depths), tests/kernels (their
``main``) and an MLIR input: the printed module parses back to a structurally equal module that prints to
the same text, and synthesising the printed text gives the same Verilog as synthesising
the source.  The final CDFG (after if-conversion, unrolling, partitioning and the passes)
round-trips too, banks included."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest
from helpers import same

from hls.cli import main as pyhls
from hls.errors import FrontendError, HLSError
from hls.flow import SynthOptions, ir_module, synthesize
from hls.frontend import FrontendOptions, load
from hls.ir import (Block, Const, Function, MemoryObject, Module, Op, Param, PtrParam,
                    parse_module, print_module)

ROOT = Path(__file__).resolve().parent.parent
MANIFESTS = sorted((ROOT / "examples" / "kernels").glob("*.json"))
SLOW = {"trapezoid_f64", "fsm_tokenizer"}     # seconds to schedule, twice over
TEST_KERNELS = sorted(p for p in (ROOT / "tests" / "kernels").glob("*.c")
                      if "int main(" in p.read_text())


def _cases():
    for man in MANIFESTS:
        meta = json.loads(man.read_text())
        depth = {k: v["depth"] for k, v in meta["args"].items()}
        yield pytest.param(man.with_suffix(".c"), meta["top"], depth, id=man.stem,
                           marks=[pytest.mark.slow] if man.stem in SLOW else [])
    for src in TEST_KERNELS:
        # (a source's #pragma HLS: pyhls ir's text carries them as directive lines)
        yield pytest.param(src, "main", {}, id=f"tests-{src.stem}")
    have_mlir = shutil.which("mlir-opt") or shutil.which("mlir-opt-19") or Path(
        "/usr/lib/llvm-19/bin/mlir-opt").is_file()
    yield pytest.param(ROOT / "tests" / "mlir" / "saxpy.mlir", "saxpy", {}, id="mlir-saxpy",
                       marks=pytest.mark.skipif(not have_mlir, reason="no mlir-opt"))


def _round_trip(module) -> str:
    text = print_module(module)
    parsed = parse_module(text)
    same(module, parsed)
    assert print_module(parsed) == text
    return text


@pytest.mark.parametrize("src,top,depth", list(_cases()))
def test_round_trip_and_same_verilog(src, top, depth, tmp_path):
    # what pyhls ir prints: the frontend's module with the source's directives
    text = _round_trip(ir_module(src, SynthOptions(top=top, depth=depth)))
    hir = tmp_path / f"{src.stem}.hir"
    hir.write_text(text)
    ref = synthesize(src, SynthOptions(top=top, depth=depth))
    got = synthesize(hir, SynthOptions(top=top))
    assert got.verilog == ref.verilog
    _round_trip(ref.module)  # the final CDFG: if-converted, unrolled, partitioned, rewritten


PRAGMAS = """\
int k(const int *a, int *b)
{
    int s = 0;
    for (int i = 0; i < 32; i++) {
#pragma HLS pipeline II=3
        s += a[i] * a[31 - i];
        b[i] = s;
    }
    for (int i = 0; i < 8; i++) {
#pragma HLS unroll
        b[i] += i;
    }
    return s;
}
"""


def test_the_ir_text_carries_the_sources_pragmas(tmp_path):
    """``pyhls ir`` prints a source's ``#pragma HLS`` as ``directive`` lines (with the
    pragma's file and line), and ``pyhls synth`` of the .hir applies them: the same
    Verilog as from the source.  A directives file given to the .hir's synthesis wins
    over a carried entry on the same loop.  A malformed directive line is an error at its
    line."""
    src = tmp_path / "k.c"
    src.write_text(PRAGMAS)
    hir = tmp_path / "k.hir"
    assert pyhls(["ir", str(src), "--top", "k", "--depth", "a=32", "--depth", "b=32",
                  "-o", str(hir)]) == 0
    text = hir.read_text()
    lines = [ln for ln in text.splitlines() if ln.startswith("directive ")]
    assert lines == [
        f'directive "loop" {{function: "k", line: 4, pipeline: true, ii: 3, origin: ("{src}", 5)}}',
        f'directive "loop" {{function: "k", line: 9, unroll: "full", origin: ("{src}", 10)}}']
    opts = SynthOptions(top="k", depth={"a": 32, "b": 32})
    ref = synthesize(src, opts)
    opts = SynthOptions(top="k")                 # (the .hir fixes the depths)
    got = synthesize(hir, opts)
    assert got.verilog == ref.verilog
    assert [(lp["ii"], lp.get("unrolled")) for lp in got.report["loops"]] == [(3, None)]
    over = tmp_path / "d.toml"
    over.write_text('[[loop]]\nfunction = "k"\nline = 4\nii = 2\n')
    again = synthesize(hir, dataclasses.replace(opts, directives=str(over)))
    assert [lp["ii"] for lp in again.report["loops"]] == [2]
    bad = tmp_path / "bad.hir"
    n = text.splitlines().index(lines[0]) + 1
    bad.write_text(text.replace(lines[0], 'directive "loop" [1, 2]'))
    with pytest.raises(FrontendError, match=rf"bad.hir:{n}: .*a directive's fields are a"):
        synthesize(bad, opts)
    bad.write_text(text.replace(lines[0], lines[0].replace("ii:", "iii:")))
    with pytest.raises(HLSError, match=r"directive loop: unknown field\(s\) iii"):
        synthesize(bad, opts)


def test_parse_error_names_the_line(tmp_path):
    src = ROOT / "tests" / "kernels" / "div_const.c"
    lines = print_module(load(src, "main")).split("\n")
    k = next(i for i, s in enumerate(lines) if s.startswith("  %"))
    lines[k] = lines[k].split(" = ")[0] + " = add %nowhere, 1:i32"
    with pytest.raises(FrontendError) as e:
        parse_module("\n".join(lines), "bad.hir")
    assert e.value.line == k + 1 and "%nowhere is not defined" in e.value.message
    lines[k] = lines[k].split(" = ")[0] + " = add 1:i32"    # parses; verify() rejects it
    bad = tmp_path / "bad.hir"
    bad.write_text("\n".join(lines))
    with pytest.raises(FrontendError) as e:
        load(bad, "main")
    assert (e.value.file, e.value.line) == (str(bad), k + 1), e.value
    assert "add takes 2 operands, not 1" in e.value.message
    lines[k] = "  %0:i32 = add ( 1"
    bad = tmp_path / "bad.hir"
    bad.write_text("\n".join(lines))
    assert pyhls(["synth", str(bad), "--top", "main", "-o", str(tmp_path / "o")]) == 1


GUARDED_HIR = """module @k
source "k.c"
file 0 "k.c"
memory &r arg word=2 depth=4 elem=2 readonly arg_index=0 loc=!0:1

func @k -> i16 loc=!0:1
  ptr "r" &r index=0
  param %c: i1 index=1
^entry:
  %0:i16 = load 2:i31, %c {mem: &r, size: 2, lane: 0, guard: 1} !0:2
  br -> ^entry {loop_md: {unroll: 2}} !0:3
end
"""


def test_misspelled_attribute_is_a_parse_error(tmp_path):
    """An attribute name outside the op's schema is reported at its line, naming the
    allowed ones (a misspelled optional attribute would otherwise read as absent)."""
    from hls.ir import verify

    verify(parse_module(GUARDED_HIR).top)
    with pytest.raises(FrontendError) as e:
        parse_module(GUARDED_HIR.replace("guard:", "gaurd:"), "bad.hir")
    assert (e.value.file, e.value.line) == ("bad.hir", 10)
    assert ("load %0: unknown attribute 'gaurd' (allowed: guard, lane, mem, size)"
            in e.value.message), e.value.message
    with pytest.raises(FrontendError, match=r"br: unknown attribute 'loop' \(allowed: "
                                            r"extent_bound, loop_md, unrolled\)"):
        parse_module(GUARDED_HIR.replace("loop_md:", "loop:"))
    # a misspelled key of the loop pragmas: verify() reports it at its line
    bad = tmp_path / "bad.hir"
    bad.write_text(GUARDED_HIR.replace("unroll:", "unrol:"))
    with pytest.raises(FrontendError) as e:
        load(bad, "k")
    assert (e.value.file, e.value.line) == (str(bad), 11), e.value
    assert "'loop_md' has the unknown key 'unrol'" in e.value.message


def test_misspelled_attribute_fails_verify():
    """verify() rejects it too, for IR built in memory (a pass's typo)."""
    from hls.ir import verify

    f = parse_module(GUARDED_HIR).top
    load_op = f.entry.ops[0]
    load_op.attrs["gaurd"] = load_op.attrs.pop("guard")
    with pytest.raises(HLSError, match=r"load: unknown attribute 'gaurd' \(allowed: guard, "
                                       r"lane, mem, size\)") as e:
        verify(f)
    assert e.value.op is load_op and e.value.line == 2


def test_cli_ir(tmp_path, capsys):
    src = ROOT / "tests" / "kernels" / "unroll.c"
    assert pyhls(["ir", str(src), "--top", "main", "--after", "passes"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("; pyhls IR module") and "\nllvm_ir\n" in text
    assert print_module(parse_module(text)) == text
    out = tmp_path / "u.hir"
    assert pyhls(["ir", str(src), "--top", "main", "-o", str(out)]) == 0
    assert out.read_text() == print_module(load(src, "main"))


def test_cosim_of_hir_random(tmp_path):
    from hls.verify import cosim

    src = tmp_path / "k.c"
    src.write_text("#include <stdint.h>\n"
                   "int32_t k(const int16_t *a, int32_t *b, int32_t s) {\n"
                   "  int32_t t = 0;\n"
                   "  for (int i = 0; i < 16; i++) { t += a[i] * s; b[i] = t >> 2; }\n"
                   "  return t;\n}\n")
    hir = tmp_path / "k.hir"
    assert pyhls(["ir", str(src), "--top", "k", "--depth", "a=16", "--depth", "b=16",
                  "-o", str(hir)]) == 0
    res = cosim(hir, "k", runs=3, seed=1)
    assert res.passed, res.summary()


def _odd_module():
    """Names that need quoting or repeat, memories sharing a name, banks, a named constant,
    a call with pointer arguments, loop metadata, and LLVM text with a carriage return."""
    from hls.fpu import FPFormat
    from hls.ir import Bank, Loc, verify

    loc = Loc("dir with space/k.c", 3)
    whole = MemoryObject("a", "arg", word_bytes=4, depth_words=4, elem_bytes=4, arg_index=0,
                         elem_dims=(4,), elem_fields=((0, 4, "", 32),), float_bits=32)
    banks = [MemoryObject("a", "arg", 4, 2, 4, bank=Bank("cyclic", 2, i, 4), whole=whole)
             for i in range(2)]
    rom = MemoryObject("a", "global", 1, 3, 1, init=b"\x01\x00\xff", readonly=True,
                       symbol="a.rom", loc=Loc("k.c", None))
    zero = MemoryObject("", "local", 2, 2, 2, init=bytes(4))
    g = Function("g h", params=[PtrParam(-1, "p q", banks[0])], return_width=8, loc=loc)
    gb = Block("entry", function=g)
    g.blocks = [gb]
    gb.append(Op(width=0, kind="ret", operands=[Const(8, -3, name="c")]))
    f = Function("f", return_width=1, return_signed=True, memories=[zero], loc=loc)
    f.params = [Param(32, "x y", 0), Param(32, "x y", 1), Param(32, "p1", 2),
                PtrParam(3, "a", whole, banks=banks)]
    b0, b1 = Block("entry", function=f), Block("loop body", function=f)
    f.blocks = [b0, b1]
    c = b0.append(Op(width=1, kind="icmp", operands=[f.params[0], f.params[1]],
                     attrs={"pred": "eq"}, loc=loc, name="cmp"))
    b0.append(Op(width=0, kind="switch", operands=[f.params[2]], targets=[b1, b1],
                 cases=[-5]))
    ph = b1.append(Op(width=1, kind="phi", incoming=[(b0, c), (b1, Const(1, 1))]))
    b1.append(Op(width=8, kind="call", operands=[Const(1, 0)],
                 attrs={"callee": g, "ptr_args": [(g.params[0], banks[1])]}))
    b1.append(Op(width=32, kind="fadd", operands=[f.params[0], f.params[1]],
                 attrs={"fmt": FPFormat(8, 23)}))
    b1.append(Op(width=0, kind="condbr", operands=[ph], targets=[b1, b1],
                 attrs={"loop_md": {"ii": 2, "pipeline": True}, "unrolled": (4, True)}))
    m = Module(f, [f, g], globals=[rom], source="k.c", llvm_ir="a\r\nb\n\n",
               fp_formats={"f": FPFormat(5, 10)}, abort_sites={1: "k.c:3: abort"})
    for fn in m.functions:
        verify(fn)
    return m


def test_odd_names_round_trip():
    text = _round_trip(_odd_module())
    assert '&"a.1"' not in text and "&a.1 arg" in text and 'name="a"' in text


def test_every_value_type_round_trips():
    """Every attribute value type of the text form (no op kind declares an attribute of
    each, so the values are printed and parsed on their own, against the names of a
    printed module)."""
    from hls.fpu import FPFormat
    from hls.ir import Bank
    from hls.ir._text import _Parser, _Printer, _resolve, _Tokens

    m = _odd_module()
    printer = _Printer(m)
    parser = _Parser(printer.run(), "k.hir")
    parsed = parser.run()
    f, g = m.functions
    rom = m.globals[0]
    loc = f.loc
    value = {"odd key": (1,), "t": (), "d": {1: None}, "mem": rom, "where": loc,
             "flag": False, "s": "q\"\n", "fn": g, "pp": g.params[0], "b": b"\x00\x01",
             "z": bytes(3), "fmt": FPFormat(8, 23), "bank": Bank("block", 2, 1, 5),
             "runs": Bank("cyclic", 2, 1, 10, 3),
             "l": [-1, True, None]}
    text = printer.value(value)
    t = _Tokens(text)
    got = _resolve(parser.value(t))
    assert t.at_end()
    pg = parsed.functions[1]
    assert got["mem"] is parsed.globals[0] and got["fn"] is pg and got["pp"] is pg.params[0]
    same(value, got)    # types too: a bool is not parsed back as an int


PROGRAMS = sorted(p for d in ("programs", "programs/libc") for p in (ROOT / "tests" / d).glob("*.c")
                  if "int main(" in p.read_text())


@pytest.mark.parametrize("src", PROGRAMS, ids=lambda p: p.stem)
def test_programs_round_trip(src):
    """Whole programs with tagged pointers (Module.ptr_tags/ptr_slots), exit flags and
    abort sites print and parse back to the same module."""
    try:
        module = load(src, "main", FrontendOptions())
    except HLSError as exc:   # a program kept as an example of a rejected construct
        pytest.skip(f"not synthesisable: {exc}")
    _round_trip(module)


def test_tagged_pointer_program_same_verilog(tmp_path):
    src = ROOT / "tests" / "programs" / "ptr_global_var.c"
    module = load(src, "main", FrontendOptions())
    assert module.ptr_tags, "the program stores a pointer in a global"
    hir = tmp_path / "p.hir"
    hir.write_text(_round_trip(module))
    assert synthesize(hir, SynthOptions(top="main")).verilog == \
        synthesize(src, SynthOptions(top="main")).verilog


@pytest.mark.parametrize("name", ["pipe_loops.c", "switch_loop.c"])
def test_uses_outside_holds_the_values_used_outside_the_block(name):
    """``uses_outside(f, b)`` (one walk per block) holds exactly the values that an
    operand or phi incoming value of an op of another block is (asked value by value,
    by identity), for every block and every op and parameter of the frontend's and the
    final CDFG."""
    from hls.ir import uses_outside

    def used_outside(f, b, v):
        return any(x is v for op in f.ops() if op.block is not b
                   for x in list(op.operands) + [val for _, val in op.incoming])
    src = ROOT / "tests" / "kernels" / name
    checked = 0
    for after in ("frontend", "share-memories"):
        module = ir_module(src, SynthOptions(top="main"), after=after)
        for f in module.functions:
            values = [op for op in f.ops()] + list(f.params)
            for b in f.blocks:
                outside = uses_outside(f, b)
                for v in values:
                    assert (v in outside) == used_outside(f, b, v), (f.name, b.name, v)
                    checked += v in outside
    assert checked


@pytest.mark.parametrize("name", ["pipe_loops.c", "switch_loop.c"])
def test_dominance_numbering_answers_as_dominates(name):
    """find_loops' constant-time dominance test (intervals of the dominator tree) gives
    ``hls.ir.dominates``' answer for every pair of blocks of the frontend's CDFG."""
    from hls.analysis._loops import _dominance_test
    from hls.ir import dominates, dominators
    module = ir_module(ROOT / "tests" / "kernels" / name, SynthOptions(top="main"))
    pairs = 0
    for f in module.functions:
        idom = dominators(f)
        dom = _dominance_test(f, idom)
        for a in f.blocks:
            for b in f.blocks:
                assert dom(a, b) == dominates(idom, a, b), (f.name, a.name, b.name)
                pairs += a is not b and dom(a, b)
    assert pairs
