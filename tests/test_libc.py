"""Library calls and builtins (memset/memcpy/memmove of any length, exit, printf/puts/
putchar, abort/assert) and the C compiler options of the frontend (-I/-D/-U/--std, several
input files, testbenches of several files).

Each lowering is checked differentially: the programs of ``tests/programs/libc`` run the
builtins on edge lengths (0, 1, odd sizes, word multiples, > 4096 bytes) and overlaps in
both directions, and co-simulation compares the hardware with native execution of the
same program (return value and every global)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from hls.analysis import find_loops
from hls.cli import main as cli
from hls.errors import CosimError, UnsupportedError
from hls.flow import SynthOptions, synthesize
from hls.frontend import FrontendOptions, load
from hls.verify import cosim
from hls.verify import run_cosim_main
from hls.verify._flow import golden_ir, name_aborts
from hls.verify import run_main

PROGS = Path(__file__).resolve().parent / "programs" / "libc"
CFLAGS_DIR = Path(__file__).resolve().parent / "data" / "cflags"


@pytest.mark.parametrize("name", ["memcpy_var", "memcpy_in_loop", "memmove_overlap",
                                  "memset_big", "exit_helper", "exit_callee", "printf_dropped"])
def test_whole_program(name):
    res = cosim(PROGS / f"{name}.c", "main")
    assert res.passed, res.summary()
    if name == "printf_dropped":  # the native run's output is kept
        assert res.native_output.splitlines() == [
            "step 0: 3", "step 1: 10", "step 2: 34", "step 3: 103", "step 4: 314",
            "step 5: 951", "step 6: 2855", "step 7: 8571", "done", "", "sum"]


def test_memmove_run_time_direction_tb():
    """memmove within a pointer argument, offsets and length from the arguments: the
    direction is chosen in hardware; unpipelined loops too."""
    src = PROGS / "memmove_args.c"
    for pipeline in (True, False):
        res = cosim(src, "shift", tb=src, depth={"buf": 64}, pipeline=pipeline)
        assert res.passed, res.summary()
        assert len(res.calls) == 12


def test_mem_builtins_become_loops():
    """Run-time lengths and long constant ones: loops (no straight-line access per byte)."""
    m = load(PROGS / "memset_big.c", "main")
    blocks = [b.name for b in m.top.blocks]
    assert sum("mem_loop" in b for b in blocks) == 2, blocks  # the 8000 and 4100 bytes
    stores = sum(op.kind == "store" for op in m.top.ops())
    assert stores < 16
    m = load(PROGS / "memmove_overlap.c", "main")
    blocks = [b.name for b in m.top.blocks]
    assert any("move_up" in b for b in blocks) and any("move_down" in b for b in blocks)


def test_short_mem_builtins_stay_straight_line_but_a_memmove_within_an_array(tmp_path):
    """A memset or memcpy of up to UNROLL_MEM_ELEMS element stores is straight-line
    whatever its bytes; a memmove within one array beyond UNROLL_MEMMOVE_BYTES stays a
    loop (all its loads before all its stores straight-line cost CHStone adpcm's encoder
    14 states an iteration: its delay line of 22 ints)."""
    src = tmp_path / "mm.c"
    src.write_text("#include <stdint.h>\n"
                   "int32_t acc[20], line[24], out[24];\n"
                   "int f(const int32_t *p, int v) {\n"
                   "  __builtin_memset(acc, v, sizeof acc);\n"           # 80 bytes
                   "  __builtin_memcpy(out, p, 88);\n"                   # 22 words
                   "  __builtin_memmove(line + 2, line, 88);\n"          # within line: a loop
                   "  return acc[3] + out[5] + line[7];\n}\n")
    m = load(src, "f", FrontendOptions(depth={"p": 24}))
    (lp,) = find_loops(m.top)
    assert {op.mem.name for b in lp.blocks for op in b.ops if op.kind == "store"} == {"line"}
    outside = [op.mem.name for b in m.top.blocks if b not in lp.blocks for op in b.ops
               if op.kind == "store"]
    assert outside.count("out") == 22 and 10 <= outside.count("acc") <= 20, outside


def test_exit_status_is_the_golden_return():
    m = load(PROGS / "exit_helper.c", "main")
    ret, globs = run_main(golden_ir(m), ["table"], {"table": 64})
    assert ret == 49  # exit(40 + 9)
    assert int.from_bytes(globs["table"][36:40], "little") == 9 * 9 * 13
    assert globs["table"][40:] == bytes(24)  # the loop ended at i = 9


def test_exit_outside_main_is_rejected(tmp_path):
    src = tmp_path / "ex.c"
    src.write_text("void exit(int);\nint f(int x) {\n  if (x < 0) exit(3);\n  return x;\n}\n")
    with pytest.raises(UnsupportedError, match=r"exit\(\) outside a whole program") as e:
        load(src, "f")
    assert e.value.line == 3


def test_abort_natively_is_a_clear_error():
    with pytest.raises(CosimError, match=r"abort_run\.c:13: .*assertion 'vals\[i\] < limit' "
                                         r"failed: native execution gives no golden result"):
        cosim(PROGS / "abort_run.c", "main")


def test_abort_in_hardware_is_a_failed_run():
    """The design's abort flag: the run fails, naming the site (here the hardware is
    compared with an invented golden, as the native run aborts too)."""
    res = synthesize(PROGS / "abort_run.c", SynthOptions(top="main"))
    assert set(res.module.abort_sites.values()) == {
        f"{PROGS / 'abort_run.c'}:12: abort()",
        f"{PROGS / 'abort_run.c'}:13: assertion 'vals[i] < limit' failed"}
    with tempfile.TemporaryDirectory() as d:
        v = Path(d) / "main.v"
        v.write_text(res.verilog)
        r = run_cosim_main([v], res.interface, 42, {}, 100_000, workdir=d)
    name_aborts(r, res.module.abort_sites)
    assert not r.passed
    assert r.calls[0].status == "aborted"
    assert "assertion 'vals[i] < limit' failed" in r.calls[0].message
    assert "aborted" in r.summary()


# --------------------------------------------------------------------------- the CLI


def test_printf_warning(tmp_path, capsys):
    rc = cli(["synth", str(PROGS / "printf_dropped.c"), "--top", "main", "-o",
              str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert rc == 0, err
    lines = [l for l in err.splitlines() if "warning" in l]
    path = PROGS / "printf_dropped.c"
    assert lines == [f"{path}:12: warning: call of 'printf' is dropped from the hardware",
                     f"{path}:14: warning: call of 'puts' is dropped from the hardware",
                     f"{path}:15: warning: call of 'putchar' is dropped from the hardware",
                     f"{path}:16: warning: call of 'printf' is dropped from the hardware"]


def _flags(*extra):
    return ["-I", "include", "-D", "SCALE=3", "-D", "BROKEN", "-U", "BROKEN", "--std=c99",
            *extra]


def test_cflags_and_two_inputs_synth(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(CFLAGS_DIR)
    rc = cli(["synth", "scaled.c", "helper.c", "--top", "scaled", "-o", str(tmp_path / "o"),
              *_flags()])
    assert rc == 0, capsys.readouterr().err
    assert (tmp_path / "o" / "rtl" / "scaled.v").exists()


@pytest.mark.parametrize("flags,msg", [
    (["-I", "include"], "scale.h:3: error: \"SCALE must be defined with -D\""),
    (["-I", "include", "-DSCALE=1", "-U", "BROKEN", "-D", "BROKEN"],
     "scale.h:6: error: \"BROKEN must be undefined (-U BROKEN)\""),
    (["-DSCALE=1"], "scaled.c:2: error: 'scale.h' file not found"),
    (["-I", "include", "-DSCALE=1", "--std=c89"], "scaled.c:10: error: unknown type name 'inline'"),
    (["-D", "1X"], "-D 1X: expected NAME or NAME=VALUE with NAME a C identifier"),
])
def test_cflags_errors(flags, msg, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(CFLAGS_DIR)
    rc = cli(["synth", "scaled.c", "helper.c", "--top", "scaled", "-o", str(tmp_path / "o"),
              *flags])
    err = capsys.readouterr().err
    assert rc == 1
    assert msg in err, err


def test_second_input_is_needed(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(CFLAGS_DIR)
    rc = cli(["synth", "scaled.c", "--top", "scaled", "-o", str(tmp_path / "o"), *_flags()])
    assert rc == 1
    assert "undefined external function 'twice'" in capsys.readouterr().err


def test_cflags_two_inputs_two_file_testbench_cosim(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(CFLAGS_DIR)
    rc = cli(["cosim", "scaled.c", "helper.c", "--top", "scaled", "-o", str(tmp_path / "o"),
              *_flags("-DOFFSET=5"), "--tb", "tb.c,tb_values.c"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert "4 call(s)" in out.out and "PASSED" in out.out
    rc = cli(["cosim", "scaled.c", "helper.c", "--top", "scaled", "-o", str(tmp_path / "o"),
              *_flags(), "--tb", "tb.c", "--tb", "tb_values.c", "--tb", "scaled.c"])
    assert rc == 0, capsys.readouterr().err


def test_two_inputs_locations(tmp_path, capsys, monkeypatch):
    """Warnings and errors in the second input name that file."""
    monkeypatch.chdir(tmp_path)
    Path("a.c").write_text("int g(int x);\nint f(int x) {\n  return g(x) + 1;\n}\n")
    Path("b.c").write_text("int printf(const char *, ...);\n\nint g(int x) {\n"
                           "  printf(\"%d\\n\", x);\n  return x * 2;\n}\n")
    assert cli(["synth", "a.c", "b.c", "--top", "f", "-o", "o"]) == 0
    assert "b.c:4: warning: call of 'printf' is dropped" in capsys.readouterr().err
    Path("b.c").write_text("int printf(const char *, ...);\n\nint g(int x) {\n"
                           "  return printf(\"%d\\n\", x);\n}\n")
    assert cli(["synth", "a.c", "b.c", "--top", "f", "-o", "o"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("b.c:4: error: using the value of 'printf'"), err
    assert cli(["synth", "a.c", "a.c", "--top", "f", "-o", "o"]) == 1
    assert "an input file is given twice" in capsys.readouterr().err


def test_abort_in_a_callee_ends_the_run():
    """abort() in a noinline function: no abort, a normal pass; with -DLIMIT=20 the
    hardware stops at vals[2] (out[0..1] written, nothing after) and the run fails."""
    src = PROGS / "abort_callee.c"
    res = cosim(src, "main")
    assert res.passed, res.summary()
    with pytest.raises(CosimError, match="called abort"):
        cosim(src, "main", cflags=("-DLIMIT=20",))
    syn = synthesize(src, SynthOptions(top="main", cflags=("-DLIMIT=20",)))
    out = b"".join(v.to_bytes(4, "little") for v in (11, 17, 0, 0, 0, 0, 0, 0))
    with tempfile.TemporaryDirectory() as d:
        v = Path(d) / "main.v"
        v.write_text(syn.verilog)
        r = run_cosim_main([v], syn.interface, 0, {"out": out}, 100_000, workdir=d)
    name_aborts(r, syn.module.abort_sites)
    assert r.calls[0].status == "aborted" and r.calls[0].n_mismatches == 0, r.summary()
    assert r.calls[0].message.endswith("abort_callee.c:14: abort()")


def test_memmove_between_aliased_arguments_is_rejected(tmp_path):
    """A memmove between two pointer arguments of a noinline function is copied as if they
    did not overlap: rejected when a call binds both to one memory, accepted otherwise."""
    src = tmp_path / "mv.c"
    src.write_text(
        "unsigned char buf[64], other[64];\n"
        "__attribute__((noinline)) void mv(unsigned char *d, const unsigned char *s, int n) {\n"
        "  __builtin_memmove(d, s, n);\n}\n"
        "int main(void) {\n  for (int i = 0; i < 64; i++) buf[i] = i;\n"
        "  mv(SAME ? buf + 1 : other, buf, buf[5] + 3);\n  return buf[9] + other[7];\n}\n")
    with pytest.raises(UnsupportedError, match="memmove between pointer arguments 's' and 'd' "
                                               "that a call binds to the same memory") as e:
        synthesize(src, SynthOptions(top="main", cflags=("-DSAME=1",)))
    assert e.value.line == 3
    synthesize(src, SynthOptions(top="main", cflags=("-DSAME=0",)))


def test_printf_value_kept_only_in_debug_info(tmp_path, capsys):
    """A printf result stored in an unused variable (only debug records name it) is no use."""
    src = tmp_path / "pr.c"
    src.write_text("int printf(const char *, ...);\nint main(void) {\n"
                   "  int n = printf(\"hello %d\\n\", 3);\n  (void)n;\n  return 4;\n}\n")
    assert cli(["synth", str(src), "--top", "main", "-o", str(tmp_path / "o")]) == 0
    assert f"{src}:3: warning: call of 'printf' is dropped" in capsys.readouterr().err


def test_cli_cosim_shows_native_output(tmp_path, capsys):
    rc = cli(["cosim", str(PROGS / "printf_dropped.c"), "--top", "main", "-o",
              str(tmp_path / "out")])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert "PASSED" in out.out
    assert "  output of the native run (11 line(s)):\n  | step 0: 3\n" in out.out
    assert "  | step 7: 8571\n  | done\n" in out.out


def test_cli_cosim_abort_is_an_error(tmp_path, capsys):
    rc = cli(["cosim", str(PROGS / "abort_run.c"), "--top", "main", "-o", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert rc == 1
    assert "assertion 'vals[i] < limit' failed: native execution gives no golden result" in err
    assert "Traceback" not in err


def test_builtin_trap_is_an_abort_site(tmp_path):
    src = tmp_path / "tr.c"
    src.write_text("int g[4] = {1, 2, 3, 4};\nint main(void) {\n  int s = 0;\n"
                   "  for (int i = 0; i < 4; i++) {\n    if (g[i] > 10) __builtin_trap();\n"
                   "    s += g[i];\n  }\n  return s;\n}\n")
    assert load(src, "main").abort_sites == {1: f"{src}:5: __builtin_trap()"}


LIBC_MAINS = sorted(p for p in (Path(__file__).resolve().parent / "programs" / "libc").glob("*.c")
                    if "int main(" in p.read_text() and not p.stem.startswith("abort"))


@pytest.mark.parametrize("src", LIBC_MAINS, ids=lambda p: p.stem)
def test_libc_lowering_at_ir_level(src):
    """The CDFG the library calls are lowered into (copy/fill loops, exit flags, dropped
    printf) interpreted against native execution, with no Verilator."""
    from hls.frontend import INTERNAL_GLOBALS
    from hls.verify import Call, ir_differences

    module = load(src, "main")
    sizes = {g.symbol: g.size_bytes for g in module.globals
             if not g.readonly and g.symbol not in INTERNAL_GLOBALS}
    nret, globs = run_main(module.llvm_ir, list(sizes), sizes)
    call = Call(scalars={}, mem_in={}, ret=nret, glob_out=globs)
    bad = ir_differences(module, [call], skip_globals=INTERNAL_GLOBALS)
    assert not bad, "\n".join(bad)
