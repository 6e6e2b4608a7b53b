"""The pytest plugin (hls.pytest_plugin), as a new user meets it: a test file written
from the README's "Co-simulation in pytest" co-simulates a kernel through the ``hls``
fixture, parametrised over two directive sets by the ``hls`` marker, under ``pytest -n
2``; a deliberately wrong kernel fails with the C element named, the expected and the
received values, and the path of the waveform that was dumped."""

from __future__ import annotations

import re
from pathlib import Path

from hls.toolchain._cache import cache_root

pytest_plugins = ["pytester"]

README = Path(__file__).resolve().parent.parent / "README.md"
# the model cache of this session, read before pytester gives inner runs a fresh HOME
CACHE = str(cache_root())


def _readme_files() -> dict[str, str]:
    """The files of the README's "Co-simulation in pytest" example, by the name each
    code block's first line gives (``/* twice.c */``, ``# test_twice.py``)."""
    text = README.read_text()
    section = text[text.index("### Co-simulation in pytest"):]
    section = section[:section.index("\n### ", 1)]
    files = {}
    for block in re.findall(r"```(?:c|python)\n(.*?)```", section, re.S):
        name = re.match(r"(?:/\*|#) (\w+\.(?:c|py))\b", block)
        if name:
            files[name.group(1)] = block
    return files


# a deliberately wrong kernel: element 3 is off by one, in the C itself
WRONG_TEST = """

def test_wrong(hls):
    hls.cosim("wrong.c", top="twice", tb="tb.c",
              expect={"out": [2 * (i - 2) for i in range(8)]})
"""


def test_readme_workflow_under_xdist(pytester, monkeypatch):
    monkeypatch.setenv("PYHLS_CACHE", CACHE)
    files = _readme_files()
    assert sorted(files) == ["tb.c", "test_twice.py", "twice.c"]
    for name, text in files.items():
        (pytester.path / name).write_text(text)
    wrong = files["twice.c"].replace("out[i] = 2 * in[i];", "out[i] = 2 * in[i] + (i == 3);")
    assert wrong != files["twice.c"]
    (pytester.path / "wrong.c").write_text(wrong)
    (pytester.path / "test_twice.py").write_text(files["test_twice.py"] + WRONG_TEST)
    res = pytester.runpytest_subprocess("-n", "2", "-p", "hls.pytest_plugin",
                                        "-p", "no:cacheprovider", "-rf")
    res.assert_outcomes(passed=2, failed=1)
    out = res.stdout.str()
    assert "test_twice.py::test_twice[rolled]" not in out      # only the failure is shown
    assert "co-simulation of twice in test_twice.py::test_wrong failed" in out
    assert "the C's results differ from expect (the hardware agrees with the C):" in out
    assert "call 0: out[3]: expected 2, got 3" in out
    assert "out[2]" not in out                                 # only what differs
    m = re.search(r"waveform: (\S+waves\.vcd)", out)
    assert m, out
    vcd = Path(m.group(1))
    assert vcd.is_file() and "$enddefinitions" in vcd.read_text()[:20000]
    assert "Traceback" not in out                              # a message, not a trace
    # the two parametrised runs: each in a directory of its own, each with its own design
    # (pytest links the latest of each node's directories as ...current: resolve())
    # (sorted by the test's directory name: each worker has its own popen-gwN parent)
    dirs = sorted({d.resolve() for d in pytester.path.rglob("test_twice_*/twice/rtl/twice.v")},
                  key=lambda d: d.parts[-4])
    assert [d.parts[-4] for d in dirs] == ["test_twice_rolled_0", "test_twice_unroll2_0"]
    assert dirs[0].read_text() != dirs[1].read_text()


def test_marker_ids_and_errors(pytester):
    pytester.makepyfile(test_ids="""
        import pytest

        @pytest.mark.hls(directives=[None, "sets/wide.toml"], targets=["generic", "ecp5"],
                         fp_formats=[{"dot": "e5m10"}])
        def test_grid(hls):
            pass

        @pytest.mark.hls(fp_formats={"native": None, "half": "e5m10"})
        def test_named(hls):
            pass
    """, test_bad="""
        import pytest

        @pytest.mark.hls(unrolls=[1, 2])
        def test_a(hls):
            pass
    """, test_unused="""
        import pytest

        @pytest.mark.hls(targets=["generic"])
        def test_b():
            pass
    """)
    res = pytester.runpytest_inprocess("-p", "hls.pytest_plugin", "-p", "no:cacheprovider",
                                       "--collect-only", "-q")
    out = res.stdout.str()
    assert [line for line in out.splitlines() if line.startswith("test_ids.py::")] == [
        "test_ids.py::test_grid[no-directives-generic-dot=e5m10]",
        "test_ids.py::test_grid[no-directives-ecp5-dot=e5m10]",
        "test_ids.py::test_grid[wide-generic-dot=e5m10]",
        "test_ids.py::test_grid[wide-ecp5-dot=e5m10]",
        "test_ids.py::test_named[native]",
        "test_ids.py::test_named[half]"]
    assert "test_bad.py::test_a: hls marker: unknown keyword 'unrolls'; keywords: " \
           "directives, targets, fp_formats" in out
    assert "test_unused.py::test_b: the hls marker parametrises the hls fixture, which " \
           "this test does not use" in out
    res.assert_outcomes(errors=2)


def test_synth_and_user_errors(pytester):
    pytester.makefile(".c", ok="int k(int a) { return a * 3; }\n",
                      bad="int k(int a) {\n  return a * ;\n}\n")
    pytester.makepyfile(test_err="""
        import pytest

        @pytest.mark.hls(targets=["ecp5"])
        def test_ok(hls):
            assert hls.params == {"target": "ecp5"}
            run = hls.synth("ok.c", top="k", clock_period_ns=12.5)
            assert run.report["target"].startswith("ecp5")
            assert run.report["clock_period_ns"] == 12.5
            assert "module k(" in run.paths.verilog.read_text()
            assert run.paths.out.name == "k" and run.paths.out.parent.name.startswith("test_ok")

        def test_bad(hls):
            hls.synth("bad.c", top="k")

        @pytest.mark.hls(targets=["generic"])
        def test_clash(hls):
            hls.synth("ok.c", top="k", target="ecp5")
    """)
    # (in a process of its own: an in-process run unloads what it imported, numpy too,
    # which cannot be loaded twice)
    res = pytester.runpytest_subprocess("-p", "hls.pytest_plugin", "-p", "no:cacheprovider")
    res.assert_outcomes(passed=1, failed=2)
    out = res.stdout.str()
    assert re.search(r"\n\S+/bad\.c:2: error: expected expression\n", out), out
    # once in the failure's report: no chained exception (the short summary at the end
    # may repeat the message, as pytest 9.2 does)
    failures = out.split("short test summary info")[0]
    assert failures.count("bad.c:2: error") == 1
    assert "direct cause" not in out and "During handling" not in out
    assert "hls fixture: target: set by the hls marker's parameters " \
           "(test_err.py::test_clash[generic]) and given to the call as well" in out
    assert "pytest_plugin.py" not in out and "hls/flow.py" not in out  # no trace of pyhls


PROGRAM = """
int hist[4];
float acc;
int main(void) {
    for (int i = 0; i < 6; i++) {
        hist[i & 3] += i;
        acc += 0.5f;
    }
    return -7;
}
"""


def test_expect_of_a_whole_program(hls, tmp_path):
    # the fixture itself (tests/conftest.py loads the plugin): globals, a float and the
    # return value expected; what differs named with its C value, signed or float
    src = tmp_path / "prog.c"
    src.write_text(PROGRAM)
    run = hls.cosim(src, top="main", expect={"hist": [4, 6], "acc": 3.0, "return": -7})
    assert run.passed and not run.mismatches and run.paths.waves is None
    bad = hls.cosim(src, top="main", expect={"hist": [4, 5, 2, 3], "acc": [2.5], "return": 7},
                    check=False)
    assert not bad.passed and bad.paths.out.name == "main-2"
    assert [(d.element, d.expected, d.got, d.against) for d in bad.mismatches] == [
        ("acc[0]", 2.5, 3.0, "expect"), ("hist[1]", 5, 6, "expect"), ("return", 7, -7, "expect")]
    assert "call 0: return: expected 7, got -7" in bad.message
    assert bad.paths.waves.is_file() and f"waveform: {bad.paths.waves}" in bad.message


def test_a_hardware_mismatch_message():
    # the other kind of failure: the hardware differs from the C (co-simulation proper)
    from hls.interface import CType, MemoryPort, TopInterface
    from hls.pytest_plugin import CosimPaths, _difference, _message
    from hls.verify import CallResult, CosimResult, Mismatch

    port = MemoryPort("out", 4, 8, 2, 1, elem_bytes=4, ctype=CType("int", "int", 4, True))
    iface = TopInterface("k", "k", (), (port,), 0)
    m = Mismatch(0, "out", 3, 6, 0xFFFFFFFF, where="[3]", size=4)
    d = _difference(m, "c", 0, iface)
    assert (d.element, d.expected, d.got, d.against) == ("out[3]", 6, -1, "c")
    cres = CosimResult(False, [CallResult(20, False, "ok", [m], 1)], 20, [m])
    out = Path("/o/k")
    paths = CosimPaths(out, out / "rtl" / "k.v", out / "report.json", out / "waves/waves.vcd")
    assert _message("k", "t.py::test_k", cres, [], 0, paths, False).splitlines() == [
        "co-simulation of k in t.py::test_k failed",
        "the hardware differs from the C:",
        "  call 0: out[3]: expected 6, got -1 (0xffffffff)",
        "waveform: /o/k/waves/waves.vcd",
        "outputs: /o/k"]


def test_the_shipped_example(pytester, monkeypatch):
    monkeypatch.setenv("PYHLS_CACHE", CACHE)
    example = README.parent / "examples" / "pytest"
    res = pytester.runpytest_subprocess(str(example), "-p", "hls.pytest_plugin",
                                        "-p", "no:cacheprovider", "-v")
    res.assert_outcomes(passed=2)
    res.stdout.fnmatch_lines(["*test_saxpy.py::test_saxpy?rolled? PASSED*",
                              "*test_saxpy.py::test_saxpy?unroll2? PASSED*"])
