"""Co-simulation of the shared kernel suite (tier 3).

Every integer kernel is synthesised and co-simulated with its own testbench (``--tb
K.c``: each call of the top captured natively and replayed in RTL), with loop pipelining
on (the default) and off, and as a whole program (``--top main``: return value and final
globals).  Float kernels (binary32/binary64) are compared
bit for bit with native execution like the others.  Cycle counts are recorded in the
test output, never asserted against wall-clock time.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hls.cli import main as cli_main
from hls.verify import cosim

KERNELS = Path(__file__).resolve().parent.parent / "examples" / "kernels"
MANIFESTS = sorted(KERNELS.glob("*.json"))
INT_KERNELS = [m for m in MANIFESTS if not json.loads(m.read_text())["float"]]
FLOAT_KERNELS = [m for m in MANIFESTS if json.loads(m.read_text())["float"]]
ALL_KERNELS = INT_KERNELS + FLOAT_KERNELS


def _meta(man: Path) -> tuple[Path, str, dict[str, int]]:
    meta = json.loads(man.read_text())
    depth = {k: v["depth"] for k, v in meta.get("args", {}).items()}
    return man.with_suffix(".c"), meta["top"], depth


def test_suite_is_present():
    assert len(INT_KERNELS) >= 15, "the shared kernel suite is missing from examples/kernels"
    assert len(FLOAT_KERNELS) >= 3


@pytest.mark.parametrize("man", ALL_KERNELS, ids=lambda m: m.stem)
def test_kernel_tb(man):
    src, top, depth = _meta(man)
    res = cosim(src, top, tb=src, depth=depth, profile_loops=True)
    assert res.passed, res.summary()
    assert len(res.calls) >= 1
    assert all(c.cycles > 0 for c in res.calls)
    # every loop that is pipelined reaches the lower bound of its initiation interval
    pipelined = [lp for lp in res.synth.report["loops"] if lp["pipelined"]]
    for lp in pipelined:
        assert lp["ii"] == lp["mii"], lp
    # ... and its co-simulated cycles are trip x II + depth per entry, within a few cycles
    # of entry/exit overhead (iterations from native execution, cycles from RTL probes)
    assert len(res.loops) == len(pipelined)
    for prof in res.loops:
        print("   ", prof)
        if prof.iterations:
            assert prof.entries >= 1, prof
        assert prof.model_cycles is not None, prof
        assert 0 <= prof.cycles - prof.model_cycles <= 2 * prof.entries, prof
    print(f"{man.stem}: {len(res.calls)} calls, {res.total_cycles} cycles")


@pytest.mark.parametrize("man", ALL_KERNELS, ids=lambda m: m.stem)
def test_kernel_tb_unpipelined(man):
    src, top, depth = _meta(man)
    res = cosim(src, top, tb=src, depth=depth, pipeline=False)
    assert res.passed, res.summary()
    assert not any(lp["pipelined"] for lp in res.synth.report["loops"])
    print(f"{man.stem} (no pipelining): {res.total_cycles} cycles")


@pytest.mark.parametrize("man", ALL_KERNELS, ids=lambda m: m.stem)
def test_kernel_whole_program(man):
    src, _, _ = _meta(man)
    res = cosim(src, "main")
    assert res.passed, res.summary()
    print(f"{man.stem} (main): {res.total_cycles} cycles")


def test_cli_cosim_writes_report(tmp_path, capsys):
    src = KERNELS / "adler32_bytes.c"
    out = tmp_path / "out"
    rc = cli_main(["cosim", str(src), "--top", "adler32_bytes", "--tb", str(src),
                   "--depth", "buf=400", "-o", str(out)])
    assert rc == 0, capsys.readouterr().err
    report = json.loads((out / "report.json").read_text())
    for key in ("top", "target", "clock_period_ns", "functions", "loops", "latency", "resources"):
        assert key in report
    cs = report["cosim"]
    assert cs["passed"] is True
    assert len(cs["calls"]) == 6
    assert cs["total_cycles"] == sum(c["cycles"] for c in cs["calls"])
    assert (out / "rtl" / "adler32_bytes.v").read_text().startswith("/*")
    for lp in report["loops"]:
        assert set(lp) >= {"function", "loop", "source_line", "trip_count", "pipelined", "ii",
                           "mii", "res_mii", "rec_mii", "depth"}


def test_cli_profile_loops(tmp_path, capsys):
    src = KERNELS / "adler32_bytes.c"
    out = tmp_path / "out"
    rc = cli_main(["cosim", str(src), "--top", "adler32_bytes", "--tb", str(src),
                   "--depth", "buf=400", "--profile-loops", "-o", str(out)])
    text = capsys.readouterr()
    assert rc == 0, text.err
    assert "loop adler32_bytes/for_body:" in text.out and "model" in text.out
    (lp,) = json.loads((out / "report.json").read_text())["cosim"]["loops"]
    assert lp["cycles"] == lp["model_cycles"] and lp["iterations"] > lp["entries"] >= 1
    # the written RTL is the design without probe outputs
    assert "prof0" not in (out / "rtl" / "adler32_bytes.v").read_text()
    # random stimulus has no native run of main to count iterations: a clear error
    rc = cli_main(["cosim", str(src), "--top", "adler32_bytes", "--depth", "buf=400",
                   "--profile-loops", "-o", str(tmp_path / "o2")])
    err = capsys.readouterr().err
    assert rc == 1 and "loop profiles need a testbench" in err and "Traceback" not in err
