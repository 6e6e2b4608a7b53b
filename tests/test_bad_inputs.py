"""Bad inputs are rejected cleanly: exit status 1, one ``file:line: error: ...`` line on
stderr (no traceback), and nothing written to the output directory.

The corpus is ``tests/bad/``: hand-written ``.ll`` files (no debug info, so the line is
the ``.ll`` line of the offending instruction) and ``.c`` files (compiled by clang or
``zig cc``; the line comes from debug info and is the C line of the offending construct).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hls.cli import main

BAD = Path(__file__).parent / "bad"

NOT_SUPPORTED = "is not supported for hardware: "

# (file, --top, expected line (None: an error about the file as a whole), expected
# substrings of the message)
CASES = [
    # malformed IR: the line of the parser's or verifier's complaint
    ("malformed.ll", "top", 4, ["malformed LLVM IR: expected instruction opcode"]),
    ("malformed_undefined.ll", "top", 5, ["malformed LLVM IR: use of undefined value '%c'"]),
    ("malformed_verify.ll", "top", 4,
     ["malformed LLVM IR: Instruction does not dominate all uses"]),
    # unsupported constructs, hand-written LLVM IR
    ("recursion_direct.ll", "fact", 9, ["recursion " + NOT_SUPPORTED + "%r = call i32 @fact(i32 %m)"]),
    ("recursion_mutual.ll", "is_even", 21,
     ["recursion " + NOT_SUPPORTED + "%r = call i32 @is_even(i32 %m)"]),
    ("indirect_call.ll", "top", 9,
     ["an indirect call through a function pointer " + NOT_SUPPORTED + "%r = call i32 %f(i32 %x)"]),
    ("varargs_def.ll", "top", 1,
     ["a variadic function " + NOT_SUPPORTED + "define i32 @top(i32 %n, ...)"]),
    ("varargs_call.ll", "top", 8,
     ["a call to a variadic function " + NOT_SUPPORTED + "%r = call i32 (i32, ...) @first("]),
    ("dynamic_alloca.ll", "top", 3,
     ["a dynamically sized stack array (dynamic alloca) " + NOT_SUPPORTED
      + "%buf = alloca i32, i32 %n"]),
    ("inline_asm.ll", "top", 3, ["inline assembly " + NOT_SUPPORTED + '%r = call i32 asm "bswap $0"']),
    ("invoke.ll", "top", 10,
     ["exception handling (invoke) " + NOT_SUPPORTED
      + "%r = invoke i32 @may_throw(i32 %a) to label %ok unwind label %lpad"]),
    ("landingpad.ll", "top", 12,
     ["exception handling " + NOT_SUPPORTED + "%lp = landingpad { ptr, i32 } cleanup"]),
    ("undefined_external.ll", "top", 5,
     ["a call to the undefined external function 'foo' " + NOT_SUPPORTED + "%r = call i32 @foo("]),
    ("float_arith.ll", "top", 7, ["frem (floating-point remainder) " + NOT_SUPPORTED + "%f = frem"]),
    ("ptrtoint.ll", "top", 4,
     ["a pointer-to-integer conversion " + NOT_SUPPORTED + "%a = ptrtoint ptr %p to i64"]),
    ("inttoptr.ll", "top", 3,
     ["an integer-to-pointer conversion " + NOT_SUPPORTED + "%p = inttoptr i64 %addr to ptr"]),
    ("missing_depth.ll", "top", 1,
     ["pointer argument 'a' is unknown", "--depth a=N"]),
    # missing top: the defined functions are listed
    ("ok.ll", "nosuch", 1,
     ["top function 'nosuch' is not defined in the input; defined functions: top"]),
    # unsupported constructs in C: the line of the construct, from debug info
    ("recursion.c", "fib", 6, ["recursion " + NOT_SUPPORTED, "@fib("]),
    ("recursion_mutual.c", "top", 6, ["recursion " + NOT_SUPPORTED, "@ping("]),
    ("fnptr.c", "top", 6, ["an indirect call through a function pointer " + NOT_SUPPORTED, "%f("]),
    ("varargs.c", "sum", 4, ["a variadic function " + NOT_SUPPORTED + "define i32 @sum("]),
    ("varargs_call.c", "top", 18, ["a call to a variadic function " + NOT_SUPPORTED, "@sum("]),
    ("vla.c", "top", 10, ["a dynamically sized stack array (dynamic alloca) " + NOT_SUPPORTED,
                          "alloca i32"]),
    ("asm.c", "top", 5, ["inline assembly " + NOT_SUPPORTED, 'asm "bswap $0"']),
    ("printf.c", "top", 7,
     ["using the value of 'printf', which is dropped from the hardware, " + NOT_SUPPORTED,
      "@printf("]),
    ("extern_call.c", "top", 7,
     ["a call to the undefined external function 'foo' " + NOT_SUPPORTED, "@foo("]),
    ("float.c", "top", 2, ["the floating-point type of return value of @top (only float and "
                           "double have hardware formats) " + NOT_SUPPORTED + "define"]),
    ("ptrtoint.c", "top", 4, ["a pointer-to-integer conversion " + NOT_SUPPORTED, "ptrtoint"]),
    ("missing_depth.c", "top", 2, ["pointer argument 'data' is unknown", "--depth data=N"]),
    ("c_syntax.c", "top", 4, ["expected ';'"]),
    ("extern_call.c", "nosuch", 1,
     ["top function 'nosuch' is not defined in the input; defined functions: top"]),
    # errors about the file as a whole: no line
    ("nosuch.ll", "top", None, ["input file 'nosuch.ll' does not exist"]),
    ("wrong_suffix.txt", "top", None, ["input must be .c, .cpp/.cc/.cxx, .ll, .bc, .mlir, .ekl or .hir, not '.txt'"]),
]


def _synth(path: str, top: str, out: Path, *extra: str) -> int:
    return main(["synth", path, "--top", top, "-o", str(out), *extra])


@pytest.mark.parametrize("name,top,line,expect", CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_bad_input(name, top, line, expect, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(BAD)  # the path is given relative, as a user would type it
    out = tmp_path / "out"
    rc = _synth(name, top, out)
    captured = capsys.readouterr()
    err = captured.err
    assert rc == 1, err
    assert "Traceback" not in err
    assert captured.out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    loc = re.escape(name) + (f":{line}" if line is not None else "")
    assert re.fullmatch(loc + r": error: .+", lines[0]), lines[0]
    for s in expect:
        assert s in lines[0], lines[0]
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []  # no temporary directory left behind either


def test_absolute_path_is_reported_as_given(tmp_path, capsys):
    path = str(BAD / "recursion_direct.ll")
    assert _synth(path, "fact", tmp_path / "out") == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:9: error: recursion {NOT_SUPPORTED}")
    assert not (tmp_path / "out").exists()


def test_failed_run_leaves_existing_output_untouched(tmp_path, capsys):
    out = tmp_path / "out"
    (out / "rtl").mkdir(parents=True)
    (out / "rtl" / "old.v").write_text("// old\n")
    assert _synth(str(BAD / "inline_asm.ll"), "top", out) == 1
    capsys.readouterr()
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == ["rtl", "rtl/old.v"]
    assert (out / "rtl" / "old.v").read_text() == "// old\n"


def test_debug_shows_traceback(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(BAD)
    rc = _synth("recursion_direct.ll", "fact", tmp_path / "out", "--debug")
    err = capsys.readouterr().err
    assert rc == 1
    assert "Traceback" in err
    assert "UnsupportedError" in err
    assert err.splitlines()[-1].startswith("recursion_direct.ll:9: error: recursion ")
    assert not (tmp_path / "out").exists()


def test_good_input_succeeds(tmp_path, capsys, monkeypatch):
    """The corpus's reference for the failures: a correct kernel writes its outputs."""
    monkeypatch.chdir(BAD)
    out = tmp_path / "out"
    assert _synth("ok.ll", "top", out) == 0, capsys.readouterr().err
    assert (out / "report.json").is_file()
    assert list((out / "rtl").glob("*.v"))


@pytest.mark.parametrize("argv", [
    ["synth", "ok.ll"],                        # --top missing
    ["synth", "--top", "top"],                 # input missing
    ["synth", "ok.ll", "--top", "top", "--depth", "a"],  # --depth without =N
    ["frobnicate", "ok.ll", "--top", "top"],   # unknown command
])
def test_usage_error_exits_2(argv, capsys, monkeypatch):
    monkeypatch.chdir(BAD)
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "usage:" in err
    assert "Traceback" not in err
