"""The ``pyhls`` command line behaves as a compiler's does (issue 25, item 4): a version,
a subcommand's own usage on its errors, no abbreviated options, targets listed, a
closed pipe ended quietly, and help texts that say what each subcommand takes."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from hls.cli import EXIT_BROKEN_PIPE, main
from hls.targets import known_targets

BAD = Path(__file__).parent / "bad"
ROOT = Path(__file__).parent.parent


def _usage_error(argv, capsys) -> str:
    """Run ``pyhls argv``, which must be a usage error; its stderr."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def _pyhls(*argv: str, **kw) -> subprocess.Popen:
    """``python -m hls.cli argv`` in a child process, this checkout first on its path."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    return subprocess.Popen([sys.executable, "-m", "hls.cli", *argv], env=env,
                            stderr=subprocess.PIPE, text=True, **kw)


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"pyhls {version('pyhls')}\n"


def test_version_loads_nothing_of_the_compiler():
    code = ("import sys\nfrom hls.cli import main\ntry:\n    main(['--version'])\n"
            "except SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('hls.')))")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout.splitlines()[-1]
    for heavy in ("hls.flow", "hls.estimate", "hls.scheduling", "hls.rtl", "hls.frontend"):
        assert f"'{heavy}'" not in out, out


def test_a_misspelt_option_shows_the_subcommands_usage(capsys):
    err = _usage_error(["synth", str(BAD / "ok.ll"), "--top", "top", "--dpeth", "a=4"], capsys)
    assert err.startswith("usage: pyhls synth ")
    assert err.splitlines()[-1] == ("pyhls synth: error: unrecognized arguments: --dpeth a=4 "
                                    "(did you mean --depth?)")
    err = _usage_error(["cosim", str(BAD / "ok.ll"), "--top", "top", "--wave"], capsys)
    assert err.startswith("usage: pyhls cosim ")
    assert "pyhls cosim: error: unrecognized arguments: --wave (did you mean --waves?)" in err


@pytest.mark.parametrize("argv", [
    ["synth", "ok.ll", "--top", "top", "--dep", "a=4"],
    ["synth", "ok.ll", "--to", "top"],
    ["cosim", "ok.ll", "--top", "top", "--max-cyc", "5"],
    ["ir", "ok.ll", "--top", "top", "--aft", "passes"],
])
def test_no_abbreviations(argv, capsys):
    err = _usage_error([*argv[:1], str(BAD / argv[1]), *argv[2:]], capsys)
    assert f"usage: pyhls {argv[0]} " in err


def test_targets_listed_and_an_unknown_one_is_an_error(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["synth", "-h"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--target TARGET target device, one of: " + ", ".join(known_targets()) in help_text
    out = tmp_path / "out"
    assert main(["synth", str(BAD / "ok.ll"), "--top", "top", "--target", "virtex2",
                 "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err == ("pyhls: error: unknown target 'virtex2'; known targets: "
                   + ", ".join(known_targets()) + "\n")
    assert not out.exists()


def test_depth_of_an_argument_the_top_does_not_have(tmp_path, capsys):
    src = tmp_path / "k.c"
    src.write_text("int k(const int *a, int *b, int n) {\n"
                   "  int s = 0;\n  for (int i = 0; i < 4; i++) { s += a[i]; b[i] = s; }\n"
                   "  return s + n;\n}\n")
    out = tmp_path / "out"
    # the misspelt name is the error, not the extents it leaves unknown
    for given in (["c=4"], ["a=4", "b=4", "c=4"]):
        assert main(["synth", str(src), "--top", "k", *(f"--depth={d}" for d in given),
                     "-o", str(out)]) == 1
        err = capsys.readouterr().err
        assert err == (f"{src}: error: --depth c=4: 'c' is not an argument of k "
                       "(its pointer arguments: a, b)\n")
    assert main(["synth", str(src), "--top", "k", "--depth", "n=4", "-o", str(out)]) == 1
    assert "--depth n=4: 'n' is a scalar argument of k (its pointer arguments: a, b)" in \
        capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("argv,rc", [
    (["passes"], EXIT_BROKEN_PIPE),
    (["synth", "ok.ll", "--top", "top", "-o", "OUT"], EXIT_BROKEN_PIPE),
    # argparse writes -h and --version itself and drops a failed write: status 0
    (["synth", "-h"], 0),
    (["--version"], 0),
])
def test_a_closed_pipe_ends_quietly(argv, rc, tmp_path):
    argv = [str(tmp_path / "out") if a == "OUT" else a for a in argv]
    proc = _pyhls(*argv, cwd=BAD, stdout=subprocess.PIPE)
    proc.stdout.close()      # the reader is gone before pyhls writes (pyhls ... | head)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == rc, err
    assert err == ""
    if "synth" in argv and rc:   # the outputs are written before anything is printed
        assert (tmp_path / "out" / "report.json").is_file()


def test_help_is_per_subcommand(capsys):
    helps = {}
    for cmd in ("synth", "ir", "cosim"):
        with pytest.raises(SystemExit):
            main([cmd, "-h"])
        helps[cmd] = " ".join(capsys.readouterr().out.split())
        # every input kind named
        for kind in (".c,", ".cpp", ".cc", ".cxx", ".ll", ".bc", ".mlir", ".ekl", ".hir"):
            assert kind in helps[cmd].split("positional arguments:")[1].split("options:")[0]
    ir = helps["ir"]
    assert "-o FILE, --output FILE write the IR text to the file FILE" in ir
    for flag in ("--report-json", "--interface", "--axi-data-width", "--axi-line-beats",
                 "--axi-no-prefetch", "--place-route", "--close-timing", "--clock-uncertainty",
                 "--estimate-area", "--estimate-memories", "--tb", "--max-cycles", "--waves"):
        assert flag not in ir, flag
        assert flag in helps["cosim"], flag
    for flag in ("--tb", "--max-cycles", "--waves", "--seed", "--after"):
        assert flag not in helps["synth"], flag
    # what ir does use (the loops planned before --after PASS are scheduled) stays
    for flag in ("--depth", "--target", "--clock-period", "--scheduler", "--max-units",
                 "--no-pipeline", "--dataflow", "--print-ir-after", "--after"):
        assert flag in ir, flag
    assert "-o DIR, --output DIR output directory" in helps["synth"]


def test_ir_rejects_synth_only_options(capsys):
    err = _usage_error(["ir", str(BAD / "ok.ll"), "--top", "top", "--place-route"], capsys)
    assert "pyhls ir: error: unrecognized arguments: --place-route" in err


# co-simulation diagnostics (issue 25, item 5), on the smallest kernel that loops

SUM8 = ("int sum8(const int *a) {\n"
        "  int s = 0;\n"
        "  for (int i = 0; i < 8; i++) s += a[i] * (i + 1);\n"
        "  return s;\n}\n")


def _sum8(tmp_path: Path, tb: str | None = None) -> list[str]:
    src = tmp_path / "sum8.c"
    src.write_text(SUM8 + (tb or ""))
    return [str(src), "--top", "sum8", "--depth", "a=8"] + (["--tb", str(src)] if tb else [])


def test_a_timeout_at_max_cycles_is_reported_as_such(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["cosim", *_sum8(tmp_path), "--runs", "2", "--max-cycles", "5",
                 "-o", str(out)]) == 1
    captured = capsys.readouterr()
    err = captured.err.splitlines()
    assert err[0] == f"{tmp_path / 'sum8.c'}: error: co-simulation failed: 2 of 2 call(s) failed"
    assert err[1] == "  call 0: no ap_done within 5 cycles, the limit --max-cycles sets; raise it"
    assert err[2] == "  call 1: skipped: not run: an earlier call timed out"
    # no expected/got lines for outputs the call never produced, and no blame on the RTL
    assert len(err) == 4 and "expected" not in captured.err
    assert err[3].startswith("  diagnosis: report.json's latency: a call takes at least ")
    assert err[3].endswith(" cycles, more than the limit of 5; the design was stopped, not "
                           "found wrong")
    assert "PASSED" not in captured.out and "FAILED" in captured.out


def test_waves_are_written_under_the_output_directory(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["cosim", *_sum8(tmp_path), "--runs", "1", "--waves", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"  waveform: {out / 'waves.vcd'}\n" in printed
    assert (out / "waves.vcd").read_text().startswith("$")     # a VCD header
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "sum8.c"]
    # the simulation's own files are kept beside the outputs (the trace moved out of them)
    assert sorted(p.name for p in (out / "cosim").iterdir()) == [
        "results.bin", "stimulus.bin", "sum8.v"]


def test_native_timeout(tmp_path, capsys):
    tb = ("int main(void) {\n  int a[8] = {0};\n  volatile int go = 1;\n"
          "  while (go) {}\n  return sum8(a);\n}\n")
    out = tmp_path / "out"
    assert main(["cosim", *_sum8(tmp_path, tb), "--native-timeout", "0.5",
                 "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "pyhls: error: capturing calls of sum8: native execution did not finish within 0.5 s, "
        "the limit --native-timeout sets (cosim's native_timeout); raise it, or make the "
        "program end"]
    # no outputs: only the co-simulation's own directory, which -o places in DIR/cosim
    assert sorted(p.name for p in out.iterdir()) == ["cosim"]
    for bad in ("0", "-1", "soon"):
        _usage_error(["cosim", *_sum8(tmp_path, tb), "--native-timeout", bad], capsys)
