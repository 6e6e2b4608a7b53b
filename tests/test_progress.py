"""Progress on a terminal (hls.progress), pyhls synth's summary and --quiet, and the
co-simulation's diagnostics: its working directory, and a native crash located by a
build with AddressSanitizer/UBSan (hls.verify._sanitize) (issue 25, items 2 and 5)."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
import tempfile
from pathlib import Path

from rich.console import Console

from hls import progress
from hls.cli import main
from hls.flow import SynthOptions, synthesize
from hls.verify import cosim
from hls.verify._sanitize import NO_SANITIZER, SanitizerFinding, parse_report, sanitize_run

REPO = Path(__file__).resolve().parent.parent

SUM8 = ("int sum8(const int *a) {\n"
        "  int s = 0;\n"
        "  for (int i = 0; i < 8; i++) s += a[i] * (i + 1);\n"
        "  return s;\n}\n")

STAGES = ("frontend", "planning loops", "passes", "scheduling", "binding", "RTL",
          "Verilog emission")


class Recorder(progress.Reporter):
    """Every event, in order."""

    def __init__(self) -> None:
        self.events: list[tuple] = []

    def stage(self, name, detail=""):
        self.events.append(("stage", name, detail))

    def count(self, what, done, total=None, detail=""):
        self.events.append(("count", what, done, total, detail))


def _sum8(tmp_path: Path) -> Path:
    src = tmp_path / "sum8.c"
    src.write_text(SUM8)
    return src


# --------------------------------------------------------------------------- the reporters


def test_rich_reporter_draws_stages_and_counts_on_a_terminal():
    buf = io.StringIO()
    rep = progress.RichReporter(Console(file=buf, force_terminal=True, width=120))
    with progress.reporting(rep):
        assert progress.active()
        progress.stage("scheduling", "@f, loop for.body (line 3) pipelined")
        rep.refresh()
        progress.stage("simulation", "f_top")
        progress.count("calls", 3, 10, "1,234 cycles")
        rep.refresh()
    assert not progress.active()
    text = buf.getvalue()
    for shown in ("scheduling", "@f, loop for.body (line 3) pipelined", "simulation",
                  "calls", "3/10", "1,234 cycles"):
        assert shown in text, shown
    progress.stage("after", "the reporter is gone")     # the default shows nothing
    assert "after" not in buf.getvalue()


def test_no_reporter_unless_a_terminal_and_not_quiet():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert progress.for_terminal(False, io.StringIO()) is progress.NULL
    assert progress.for_terminal(True, Tty()) is progress.NULL
    assert isinstance(progress.for_terminal(False, Tty()), progress.RichReporter)


def test_synthesis_reports_its_stages_and_the_loop_scheduled(tmp_path):
    rec = Recorder()
    with progress.reporting(rec):
        synthesize(str(_sum8(tmp_path)), SynthOptions(top="sum8", depth={"a": 8}))
    names = [e[1] for e in rec.events if e[0] == "stage"]
    firsts = [names.index(s) for s in STAGES]
    assert firsts == sorted(firsts), names          # in the flow's order
    assert ("stage", "scheduling", "@sum8") in rec.events
    loops = [e[2] for e in rec.events if e[:2] == ("stage", "scheduling") and "loop" in e[2]]
    assert loops and all(d.startswith("@sum8, loop ") and "(line 3)" in d for d in loops)


def test_simulation_counts_the_calls_it_ran(tmp_path):
    rec = Recorder()
    with progress.reporting(rec):
        res = cosim(str(_sum8(tmp_path)), "sum8", depth={"a": 8}, runs=3)
    assert res.passed
    counts = [e for e in rec.events if e[0] == "count"]
    # the harness's last progress line: every call done, the run's total cycles
    assert counts[-1] == ("count", "calls", 3, 3, f"{res.total_cycles:,} cycles")
    names = [e[1] for e in rec.events if e[0] == "stage"]
    assert names.index("native execution") < names.index("simulation")
    assert not list(tmp_path.glob("**/progress.txt"))


# --------------------------------------------------------------------------- the CLI


def _cli(args, cwd, stderr):
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "120"}
    return subprocess.run([sys.executable, "-m", "hls.cli", *args], cwd=cwd, env=env,
                          stdout=subprocess.PIPE, stderr=stderr)


def test_piped_synth_prints_no_progress_and_ends_with_the_summary(tmp_path):
    src = _sum8(tmp_path)
    proc = _cli(["synth", str(src), "--top", "sum8", "--depth", "a=8", "-o", "out"],
                tmp_path, subprocess.PIPE)
    assert proc.returncode == 0
    assert proc.stderr == b""          # nothing but warnings and errors goes to a pipe
    out = proc.stdout.decode()
    assert out.startswith("pyhls: synthesised sum8 ")
    table = (tmp_path / "out" / "report.rpt").read_text()
    assert table in out                # the summary table, as report.rpt has it


def test_quiet_synth_prints_its_result_line_only(tmp_path, capsys):
    src = _sum8(tmp_path)
    assert main(["synth", str(src), "--top", "sum8", "--depth", "a=8", "-o",
                 str(tmp_path / "out"), "-q"]) == 0
    out = capsys.readouterr()
    assert out.out.splitlines() == [
        f"pyhls: synthesised sum8 for generic at 10.0 ns -> {tmp_path / 'out' / 'rtl' / 'sum8.v'}"]
    assert out.err == ""


def test_progress_goes_to_a_terminal_on_stderr_only(tmp_path):
    src = _sum8(tmp_path)
    parent, child = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "hls.cli", "synth", str(src), "--top", "sum8", "--depth",
         "a=8", "-o", "out"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=child,
        env={**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "120", "TERM": "xterm"})
    os.close(child)
    err = b""
    while True:
        try:
            chunk = os.read(parent, 65536)
        except OSError:             # the child closed the terminal
            break
        if not chunk:
            break
        err += chunk
    os.close(parent)
    out = proc.stdout.read().decode()
    assert proc.wait() == 0
    shown = err.decode("utf-8", "replace")
    assert "scheduling" in shown and "frontend" in shown and "@sum8" in shown
    assert "scheduling" not in out and "\x1b" not in out      # the piped stdout is untouched
    assert (tmp_path / "out" / "report.rpt").read_text() in out


# --------------------------------------------------------------------------- cosim's files


def test_cosim_files_without_output_directory_named_on_failure_only(tmp_path, capsys,
                                                                   monkeypatch):
    src = _sum8(tmp_path)
    monkeypatch.chdir(tmp_path)
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    base = ["cosim", str(src), "--top", "sum8", "--depth", "a=8", "--runs", "1"]
    assert main([*base, "-q"]) == 0
    assert list(temp.iterdir()) == []                   # passed: nothing left
    (verdict,) = capsys.readouterr().out.splitlines()   # --quiet: the verdict line only
    assert verdict.startswith("pyhls: co-simulation of sum8: 1 call(s), ")
    assert verdict.endswith(" cycles in total, PASSED")
    assert main([*base, "--max-cycles", "5"]) == 1
    err = capsys.readouterr().err.splitlines()
    (kept,) = temp.iterdir()
    assert kept.name.startswith("pyhls-cosim-sum8-")
    assert err[-1] == f"  the co-simulation's files: {kept}"
    assert (kept / "stimulus.bin").is_file() and (kept / "results.bin").is_file()


# --------------------------------------------------------------------------- native crashes

TB_STACK = ("int sum8(const int *a);\n"
            "static void fill(int *p, int n) {\n"
            "  for (int i = 0; i < n; i++)\n"
            "    p[i] = i;\n"
            "}\n"
            "int main(void) {\n"
            "  int loc[8];\n"
            "  fill(loc, 1 << 24);\n"
            "  return sum8(loc) != 0;\n"
            "}\n")


def _asan_at_hand(tmp_path: Path) -> bool:
    probe = tmp_path / "probe.c"
    probe.write_text("int main(void) { return 0; }\n")
    return sanitize_run([str(probe)]) != NO_SANITIZER


def test_a_testbench_that_crashes_is_located_by_the_sanitizers(tmp_path, capsys,
                                                               monkeypatch):
    _sum8(tmp_path)
    (tmp_path / "tb.c").write_text(TB_STACK)
    monkeypatch.chdir(tmp_path)
    assert main(["cosim", "sum8.c", "--top", "sum8", "--depth", "a=8", "--tb", "tb.c",
                 "-o", "out"]) == 1
    err = capsys.readouterr().err
    if _asan_at_hand(tmp_path):
        assert err.splitlines()[0] == (
            "tb.c:4: error: capturing calls of sum8: the program crashed natively: stack "
            "buffer overflow writing loc[8] (4 bytes at byte 32 of 'loc', 32 bytes, declared "
            "at line 7) in fill (AddressSanitizer)")
    else:      # the old message and why there is no line
        assert "capturing calls of sum8: native execution crashed (signal SIG" in err
        assert f"(hint: no line found by AddressSanitizer: {NO_SANITIZER})" in err


def test_a_global_indexed_out_of_bounds_is_located_by_ubsan(tmp_path):
    tb = tmp_path / "tbg.c"
    tb.write_text("int buf[8];\nint main(void) {\n  volatile int n = 1 << 26;\n"
                  "  buf[n] = 1;\n  return 0;\n}\n")
    got = sanitize_run([str(tb)])
    if got == NO_SANITIZER:
        return
    assert got == SanitizerFinding(str(tb), 4, "undefined behaviour: index 67108864 out of "
                                   "bounds for type 'int [8]' (UBSan)")


# what gcc's AddressSanitizer prints (addresses shortened), for the forms parse_report reads
ASAN_GLOBAL = """\
==9822==ERROR: AddressSanitizer: global-buffer-overflow on address 0x5597307f32c0 at pc 0x1
WRITE of size 4 at 0x5597307f32c0 thread T0
    #0 0x5597307f02d5 in main /w/g2.c:5
    #1 0x7f8369445249 in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58

0x5597307f32c0 is located 0 bytes to the right of global variable 'buf' defined in 'g2.c:1:5' (0x5597307f32a0) of size 32
SUMMARY: AddressSanitizer: global-buffer-overflow /w/g2.c:5 in main
"""
ASAN_HEAP = """\
==9737==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x603000000060 at pc 0x1
READ of size 4 at 0x603000000060 thread T0
    #0 0x7efe1c2b89cf in __interceptor_memcpy ../../../../src/libsanitizer/sanitizer_common/sanitizer_common_interceptors.inc:827
    #1 0x564ba14ee2ed in main /w/h.c:9

0x603000000060 is located 0 bytes to the right of 32-byte region [0x603000000040,0x603000000060)
allocated by thread T0 here:
    #0 0x7efe1c2b89cf in __interceptor_malloc ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:69
"""
ASAN_SEGV = """\
AddressSanitizer:DEADLYSIGNAL
==9748==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000010 (pc 0x1 T0)
==9748==The signal is caused by a WRITE memory access.
    #0 0x7faebb245249 in memset ../sysdeps/x86_64/memset.S:58
    #1 0x55f1ac7c3279 in main /w/s.c:4
"""


def test_parse_report_reads_asan_reports():
    assert parse_report(ASAN_GLOBAL, ["/w/g2.c"]) == SanitizerFinding(
        "/w/g2.c", 5, "buffer overflow of a global writing buf[8] (4 bytes at byte 32 of "
        "'buf', 32 bytes, declared at g2.c:1) in main (AddressSanitizer)")
    # the first frame in the user's files (not the library's), named as the user spelt it
    assert parse_report(ASAN_HEAP, ["h.c", "/w/k.c"]) == SanitizerFinding(
        "h.c", 9, "heap buffer overflow reading 4 bytes at byte 32 of a 32-byte block "
        "from malloc in main (AddressSanitizer)")
    assert parse_report(ASAN_SEGV, ["/w/s.c"]) == SanitizerFinding(
        "/w/s.c", 4, "invalid memory access (segmentation fault) writing memory in main "
        "(AddressSanitizer)")
    assert parse_report(ASAN_SEGV, ["/elsewhere/t.c"]).file is None
    assert parse_report("Segmentation fault\n", ["/w/s.c"]) is None


def test_without_sanitizers_a_crash_keeps_its_message_with_a_hint(tmp_path, monkeypatch):
    from hls.verify import _sanitize
    from hls.verify._flow import explain_crash
    from hls.verify._golden import NativeCrash

    tb = tmp_path / "tb.c"
    tb.write_text(TB_STACK)
    monkeypatch.setattr(_sanitize, "_compilers", lambda cc, cxx: [])
    crash = NativeCrash("capturing calls of sum8: native execution crashed (signal SIGSEGV):"
                        "\nprinted before", "k.c", None)
    assert explain_crash(crash, [[str(tb)]], None, (), 10.0).format() == (
        "k.c: error: capturing calls of sum8: native execution crashed (signal SIGSEGV)\n"
        f"(hint: no line found by AddressSanitizer: {NO_SANITIZER})\nprinted before")
