"""Per-pass tests written in IR text (``tests/passes/*.hir``, format in its README), the
pass manager's reports of broken passes, and the pass options of the CLI.

Each case runs one registered pass on its input module, then checks the printed result
against its ``CHECK`` lines and, differentially, that the input and the output
interpreted (:func:`hls.ir.run_function`) on the same random calls agree: a CHECK line
pins what the pass should do, the interpreter that it kept the meaning.
"""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path

import pytest

import hls.transforms
from hls.cli import main as pyhls
from hls.directives import load_directives
from hls.errors import HLSError, InternalError
from hls.flow import STAGES, SynthOptions, ir_module
from hls.ir import InterpError, Module, Undefined, parse_module, print_module, run_function
from hls.transforms import PASSES, PassError, PassManager, pass_named

CASES = Path(__file__).resolve().parent / "passes"
FILES = sorted(CASES.glob("*.hir"))
_DIRECTIVE = re.compile(r";\s*(RUN|CHECK|CHECK-NEXT|CHECK-NOT|DIRECTIVES):\s?(.*)$")


@dataclasses.dataclass
class Case:
    pass_name: str
    checks: list[tuple[str, str]]
    directives: str
    text: str


def _read(path: Path) -> Case:
    text = path.read_text()
    run, checks, dirs = None, [], []
    for line in text.splitlines():
        m = _DIRECTIVE.match(line.strip())
        if m is None:
            continue
        key, arg = m.group(1), m.group(2).rstrip()
        if key == "RUN":
            run = arg
        elif key == "DIRECTIVES":
            dirs.append(arg)
        else:
            checks.append((key, arg))
    assert run is not None, f"{path.name}: no '; RUN: PASS' line"
    return Case(run, checks, "\n".join(dirs), text)


def file_check(output: str, checks: list[tuple[str, str]]) -> None:
    """FileCheck's core: CHECK finds its text on a later line than the previous match,
    CHECK-NEXT on the very next line, CHECK-NOT nowhere between the previous match and
    the next (or the end of the output)."""
    lines = output.splitlines()
    pos, nots = 0, []           # pos: first line a match may use

    def forbid(upto: int) -> None:
        for text, start in nots:
            for k in range(start, upto):
                assert text not in lines[k], (f"CHECK-NOT: {text} found on line {k + 1}: "
                                              f"{lines[k]!r}\n{output}")
        nots.clear()

    for key, text in checks:
        if key == "CHECK-NOT":
            nots.append((text, pos))
            continue
        if key == "CHECK-NEXT":
            assert pos < len(lines) and text in lines[pos], (
                f"CHECK-NEXT: {text} is not on line {pos + 1} "
                f"({lines[pos] if pos < len(lines) else 'end of output'!r})\n{output}")
            at = pos
        else:
            at = next((k for k in range(pos, len(lines)) if text in lines[k]), None)
            assert at is not None, f"CHECK: {text} not found after line {pos}\n{output}"
        forbid(at)
        pos = at + 1
    forbid(len(lines))


def _calls(module: Module, seed: int, n: int = 24) -> list[tuple[dict, dict]]:
    """Random calls of the top: scalars mixing small and edge values with random bits
    (small values keep loop bounds inside the arrays), random bytes in every array."""
    rng = random.Random(seed)
    top = module.top
    out = []
    for _ in range(n):
        scalars = {}
        for p in top.scalar_params:
            w = p.width
            scalars[p.index] = rng.choice([rng.randrange(0, 10), rng.getrandbits(w),
                                           (1 << w) - 1, 1 << (w - 1)]) & ((1 << w) - 1)
        mems = {p.index: rng.randbytes(p.mem.size_bytes) for p in top.ptr_params}
        out.append((scalars, mems))
    return out


def _outcome(module: Module, call) -> tuple | None:
    """(return value, final memories the caller sees: arguments and globals), or None
    when the run has no defined result.  Local arrays are not observable after the call
    (share-memories gives two of them one storage)."""
    try:
        r = run_function(module.top, call[0], call[1], max_steps=100_000)
    except (Undefined, InterpError):
        return None
    ret = None if r.ret is None else r.ret & ((1 << module.top.return_width) - 1)
    local = {m.name for f in module.functions for m in f.memories if m.kind == "local"}
    return ret, {k: v for k, v in r.memories.items() if k not in local}


def run_one(p, module: Module, directives=None) -> None:
    opts = None
    if p.options is not None:
        names = {f.name for f in dataclasses.fields(p.options)}
        opts = p.options(**({"directives": directives} if "directives" in names else {}))
    PassManager([p], {p.name: opts} if opts is not None else None).run(module)


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_pass_case(path, tmp_path):
    case = _read(path)
    p = pass_named(case.pass_name)
    dirs = None
    if case.directives:
        (tmp_path / "d.toml").write_text(case.directives + "\n")
        dirs = load_directives(tmp_path / "d.toml")
    before = parse_module(case.text, str(path))
    after = parse_module(case.text, str(path))
    run_one(p, after, dirs)
    file_check(print_module(after), case.checks)
    compared = 0
    for call in _calls(before, seed=len(path.stem)):
        want = _outcome(before, call)
        if want is None:
            continue        # nothing defined to keep
        assert _outcome(after, call) == want, f"{path.name}: {case.pass_name} changed {call}"
        compared += 1
    assert compared >= 4, f"{path.name}: only {compared} calls had a defined result"


def test_every_pass_has_a_case():
    tested = {_read(f).pass_name for f in FILES}
    assert {p.name for p in PASSES} <= tested


def test_stages_are_the_pipeline():
    assert STAGES == ("frontend", "plm", "licm", "if-conversion", "unroll", "partition", "forward-stores",
                      "scalar-replacement",
                      "load-reuse", "combine-loads", "exclusive-accesses", "div-by-constant",
                      "narrow-widths",
                      "tail-duplication", "known-stores", "merge-branches", "small-memories", "share-memories")


# ------------------------------------------------------------------- broken passes

def _broken(monkeypatch, name: str, run) -> None:
    monkeypatch.setattr(hls.transforms, "PASSES", tuple(
        dataclasses.replace(p, run=run) if p.name == name else p for p in PASSES))


def _drop_an_operand(func, *options):
    op = next(op for op in func.ops() if op.kind == "add")
    op.operands = op.operands[:1]
    return 1


def test_a_pass_that_breaks_the_ir_is_named(monkeypatch):
    _broken(monkeypatch, "div-by-constant", _drop_an_operand)
    with pytest.raises(PassError) as exc:
        ir_module(CASES / "narrow_widths.hir", SynthOptions(top="narrow"), after="passes")
    assert exc.value.pass_name == "div-by-constant" and exc.value.function == "narrow"
    assert "pass 'div-by-constant' broke @narrow" in str(exc.value)
    assert "add takes 2 operands, not 1" in str(exc.value)
    assert isinstance(exc.value, InternalError) and not isinstance(exc.value, HLSError)


def test_a_pass_that_crashes_is_named(monkeypatch):
    def crash(func):
        raise KeyError("oops")

    _broken(monkeypatch, "combine-loads", crash)
    with pytest.raises(PassError, match=r"pass 'combine-loads' broke @narrow: KeyError"):
        ir_module(CASES / "narrow_widths.hir", SynthOptions(top="narrow"), after="passes")


def test_user_errors_of_a_pass_pass_through(tmp_path):
    d = tmp_path / "d.toml"
    d.write_text('[[array]]\nfunction = "part"\nname = "zz"\npartition = "cyclic"\nfactor = 2\n')
    with pytest.raises(HLSError, match="'part' has no array 'zz'"):
        ir_module(CASES / "partition.hir", SynthOptions(top="part", directives=str(d)),
                  after="partition")


def test_results_by_pass_and_function():
    module = parse_module((CASES / "narrow_widths.hir").read_text())
    results = PassManager([pass_named("div-by-constant"), pass_named("narrow-widths")]).run(module)
    assert results == {"div-by-constant": {"narrow": 0}, "narrow-widths": {"narrow": 4}}


# ------------------------------------------------------------------- CLI

def test_list_passes(capsys):
    assert pyhls(["passes"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out[:len(PASSES)]] == [p.name for p in PASSES]
    assert re.search(r"^div-by-constant +function +division/remainder by a constant",
                     "\n".join(out), re.M)


def test_print_ir_after(capsys, tmp_path):
    src = str(CASES / "div_by_constant.hir")
    assert pyhls(["ir", src, "--top", "divc", "--after", "passes", "-o", str(tmp_path / "o"),
                  "--print-ir-after", "div-by-constant"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("; ----- IR after div-by-constant -----\n")
    assert err.count("; ----- IR after") == 1 and "udivc %x {divisor: 7}" in err
    # one dump reads back as a module
    assert parse_module(err).top.name == "divc"

    dump = tmp_path / "dump.txt"
    assert pyhls(["ir", src, "--top", "divc", "--after", "combine-loads", "-o",
                  str(tmp_path / "o"), "--print-ir-after", "all", "--print-ir-to", str(dump)]) == 0
    heads = re.findall(r"^; ----- IR after (\S+) -----$", dump.read_text(), re.MULTILINE)
    # if-conversion and unroll run (pipelining is on), and the pipeline stops at --after
    assert heads == ["frontend", "licm", "if-conversion", "unroll", "partition", "forward-stores",
                     "scalar-replacement",
                     "load-reuse", "combine-loads"]


def test_print_ir_after_an_unknown_pass(capsys):
    assert pyhls(["ir", str(CASES / "div_by_constant.hir"), "--top", "divc",
                  "--print-ir-after", "unrol"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pyhls: error: --print-ir-after unrol: no pass 'unrol' "
                          "(expected one of: frontend, all, plm, licm, if-conversion, unroll")
    assert "Traceback" not in err
