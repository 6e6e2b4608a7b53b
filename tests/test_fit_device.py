"""The part's capacities against the area estimate: report.json's ``device``, the warning
of a design that does not fit, and ``--fit-device`` (:func:`hls.flow.fit_device`), which
shares multipliers and gives up pipelines until the estimate fits.  CHStone's adpcm
estimated 284 MULT18X18D at 15 ns on the LFE5U-85F's 156; nextpnr stopped after minutes."""

from __future__ import annotations

from pathlib import Path

import pytest

from hls.errors import HLSError
from hls.flow import SynthOptions, _fit_moves, synthesize
from hls.directives import Directives, LoopDirective
from hls.targets import get_target

KERNEL = Path(__file__).parent / "data" / "dsp_heavy.c"
DEPTH = {a: 16 for a in "abxyz"}


def test_parts_have_the_capacities_place_and_route_enforces():
    """nextpnr-ecp5's own ``available`` counts (the 12k is the 25k die to nextpnr); the
    Alveo cards' whole devices; the generic target has no part."""
    d = get_target("ecp5").device
    assert (d.name, d.lut, d.ff, d.dsp, d.bram18) == ("LFE5U-85F-8", 83640, 83640, 156, 208)
    assert (get_target("ecp5:45k").device.dsp, get_target("ecp5:25k").device.dsp) == (72, 28)
    assert get_target("ecp5:12k").device.lut == get_target("ecp5:25k").device.lut == 24288
    assert get_target("ecp5:um5g-45k").device.name == "LFE5UM5G-45F-8"
    assert get_target("alveo").device.dsp == get_target("alveo-u55c").device.dsp == 9024
    assert get_target("alveo-u250").device.bram18 == 5376
    assert get_target("generic").device is None
    assert d.over({"lut": 83641, "ff": 10, "dsp": 156, "bram18": 209}) == [
        ("lut", 83641, 83640), ("bram18", 209, 208)]
    assert d.over({"lut": 1, "ff": 1, "dsp": 1, "bram18": 1}) == []


def _loop(name, line, dsp, seq, pip, function="k", **extra):
    return {"function": function, "loop": f"h{line}", "name": name, "source_line": line,
            "pipelined": True, "ii": 1, "dsp": dsp, "trip_count": 10,
            "estimate": {"sequential_cycles": seq, "pipelined_cycles": pip,
                         "iterations": 10}} | extra


def test_pipelines_changed_cover_the_excess_for_the_fewest_cycles():
    """Copies of one source loop (inlined twice) go together; a pipeline the user asked
    for (a directive, an II request) or one without DSP blocks is never changed; the
    moves cover the excess for the fewest cycles in all: a pipeline at twice its II
    shares its units (ceil(uses / II) per class: report.json's loops[*].units), about one
    cycle more per iteration, or is given up (its sequential less pipelined cycles)."""
    report = {"loops": [
        _loop("k/L10", 10, 8, 100, 20),            # off: 8 blocks for 80 cycles
        _loop("k/L20", 20, 4, 50, 30),             # off: 8 blocks for 40 (two copies)
        _loop("k/L20", 20, 4, 50, 30),
        _loop("k/L30", 30, 20, 60, 50),            # off: 20 for 10, but the user asked
        _loop("k/L40", 40, 6, 400, 10, requested_ii=1),
        _loop("k/L50", 50, 0, 10, 5),              # no DSP block to free
        # four multiplies on four units: at II 2, two units (6 of 12 blocks for 10
        # cycles), or given up (12 blocks for 500 cycles)
        _loop("k/L70", 70, 12, 520, 20, units={"mul32": {"ops": 4, "instances": 4}}),
        {"function": "k", "loop": "h60", "name": "k/L60", "source_line": 60,
         "pipelined": False, "dsp": 0},
    ]}
    dirs = Directives(loops=[LoopDirective("k", line=30, pipeline=True)])
    moves = lambda excess, d=dirs: [(m[3], m[4], m[5], m[6]) for m in _fit_moves(report, d, excess)]
    assert moves(5) == [("k/L70", ("ii", 2), 6, 10)]
    assert moves(8) == [("k/L20", ("off",), 8, 40)]
    assert sorted(moves(12)) == [("k/L20", ("off",), 8, 40), ("k/L70", ("ii", 2), 6, 10)]
    # not enough blocks anywhere: every loop given up
    assert sorted(m[0] for m in moves(100)) == ["k/L10", "k/L20", "k/L70"]
    assert all(m[1] == ("off",) for m in moves(100))
    # with L30 a candidate (nobody asked): 20 blocks for 10 cycles
    assert moves(8, None) == [("k/L30", ("off",), 20, 10)]
    # the fit's own II request on L70 is no user's: at II 4, one unit
    ours = Directives(loops=dirs.loops + [LoopDirective("k", line=70, pipeline=True, ii=2,
                                                        origin=("fitting the part", "k/L70"))])
    report["loops"][6] = _loop("k/L70", 70, 6, 520, 30, ii=2, requested_ii=2,
                               units={"mul32": {"ops": 4, "instances": 2}})
    assert [(m[3], m[4], m[5], m[6]) for m in _fit_moves(report, ours, 3)] == [
        ("k/L70", ("ii", 4), 3, 20)]


def test_a_design_that_does_not_fit_is_fitted_and_still_computes(capsys):
    """Three pipelined loops of 32-bit multiplies need 46 MULT18X18D of the LFE5U-25F's
    28: built as the options say (--no-fit-device), a warning and report.json's device
    say so; by default, pipelines are given up (each step recorded, each with a warning)
    until the estimate fits, and the design kept co-simulates against the program."""
    from hls.verify import cosim

    opts = SynthOptions(top="dsp_heavy", target="ecp5:25k", depth=DEPTH, fit_device=False)
    plain = synthesize(KERNEL, opts)
    err = capsys.readouterr().err
    assert plain.report["device"]["fits"] is False
    assert plain.report["resources"]["dsp"] > 28
    assert "dsp_heavy.c:5: warning: dsp_heavy does not fit: its estimate needs " \
           f"{plain.report['resources']['dsp']} MULT18X18D of the LFE5U-25F-8's 28" in err
    assert "fit_device" not in plain.report

    res = synthesize(KERNEL, SynthOptions(top="dsp_heavy", target="ecp5:25k", depth=DEPTH))
    err = capsys.readouterr().err
    fit = res.report["fit_device"]
    assert res.report["device"]["fits"] is True
    assert res.report["resources"]["dsp"] <= 28
    assert [s["fits"] for s in fit["steps"]] == [False] * (len(fit["steps"]) - 1) + [True]
    assert fit["steps"][0]["dsp"] == plain.report["resources"]["dsp"]
    assert fit["steps"][-1]["dsp"] == res.report["resources"]["dsp"]
    assert fit["given_up"] or fit["ii_raised"]
    loops = {lp["name"]: lp for lp in res.report["loops"]}
    assert all(loops[name]["pipelined"] is False for name in fit["given_up"])
    # each warning is at its loop's line (dsp_heavy/L9: dsp_heavy.c:9)
    for name in fit["given_up"]:
        assert (f"dsp_heavy.c:{loops[name]['source_line']}: warning: fitting the LFE5U-25F-8 "
                f"(--no-fit-device: do not): loop {name} is not pipelined") in err
    for name, ii in fit["ii_raised"].items():
        assert loops[name]["pipelined"] and loops[name]["ii"] == ii
        assert (f"dsp_heavy.c:{loops[name]['source_line']}: warning: fitting the LFE5U-25F-8 "
                f"(--no-fit-device: do not): loop {name} is pipelined at II {ii}, its "
                f"multipliers shared") in err
    assert "does not fit" not in err
    # each change is recorded with what it was estimated to free and cost
    first = next(s for s in fit["steps"] if "loops" in s)["loops"]
    assert first and all(lp["dsp"] > 0 and lp["cycles_lost"] >= 0 for lp in first)
    r = cosim(KERNEL, "dsp_heavy", tb=KERNEL, depth=DEPTH, synth=res)
    assert r.passed, r.summary()


def test_fit_device_says_what_it_cannot_trade(monkeypatch, tmp_path, capsys):
    """No part (the generic target), or too many LUTs: errors with --fit-device; by
    default, too many LUTs is a warning on the design as the options say."""
    from hls.cli import main
    from hls.targets import _device

    with pytest.raises(HLSError, match="target 'generic' has no part to fit"):
        synthesize(KERNEL, SynthOptions(top="dsp_heavy", depth=DEPTH, fit_device=True))
    # the command line's flag: a message and exit status 1, no output written
    out = tmp_path / "out"
    assert main(["synth", str(KERNEL), "--top", "dsp_heavy", "--fit-device", "-o", str(out)]
                + [f"--depth={a}=16" for a in "abxyz"]) == 1
    err = capsys.readouterr().err
    assert "error: --fit-device: target 'generic' has no part to fit" in err
    assert "Traceback" not in err and not out.exists()
    monkeypatch.setitem(_device._ECP5_DIES, "25k", (500, 28, 56))
    with pytest.raises(HLSError, match=r"--fit-device: dsp_heavy does not fit: its estimate "
                                       r"needs \d+ LUT of the LFE5U-25F-8's 500 .*only DSP "
                                       r"blocks can be traded"):
        synthesize(KERNEL, SynthOptions(top="dsp_heavy", target="ecp5:25k", depth=DEPTH,
                                        fit_device=True))
    res = synthesize(KERNEL, SynthOptions(top="dsp_heavy", target="ecp5:25k", depth=DEPTH))
    err = capsys.readouterr().err
    assert res.report["device"]["fits"] is False
    assert "dsp_heavy.c:5: warning: dsp_heavy does not fit: its estimate needs " in err
    assert "place and route may fail (the LUT and FF estimates are approximate)" in err
    assert "only DSP blocks can be traded" in err
    assert "fit_device" not in res.report     # nothing traded: the LUTs would stay
