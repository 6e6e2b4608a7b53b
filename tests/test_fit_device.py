"""The part's capacities against the area estimate: report.json's ``device``, the warning
of a design that does not fit, and ``--fit-device`` (:func:`hls.flow.fit_device`), which
shares multipliers and gives up pipelines until the estimate fits.  CHStone's adpcm
estimated 284 MULT18X18D at 15 ns on the LFE5U-85F's 156; nextpnr stopped after minutes."""

from __future__ import annotations

from pathlib import Path

import pytest

from hls.errors import HLSError
from hls.flow import SynthOptions, _loops_to_give_up, synthesize
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
            "pipelined": True, "dsp": dsp,
            "estimate": {"sequential_cycles": seq, "pipelined_cycles": pip}} | extra


def test_pipelines_given_up_cover_the_excess_for_the_fewest_cycles():
    """Copies of one source loop (inlined twice) go together; a pipeline the user asked
    for (a directive, an II request) or one without DSP blocks is never given up; the
    loops given up cover the excess for the fewest cycles in all."""
    report = {"loops": [
        _loop("k/L10", 10, 8, 100, 20),            # 80 cycles for 8: 10 per block
        _loop("k/L20", 20, 4, 50, 30),             # 20 for 4 (two copies): 5 per block
        _loop("k/L20", 20, 4, 50, 30),
        _loop("k/L30", 30, 20, 60, 50),            # 10 for 20: 0.5 per block, but asked for
        _loop("k/L40", 40, 6, 400, 10, requested_ii=1),
        _loop("k/L50", 50, 0, 10, 5),              # no DSP block to free
        {"function": "k", "loop": "h60", "name": "k/L60", "source_line": 60,
         "pipelined": False, "dsp": 0},
    ]}
    dirs = Directives(loops=[LoopDirective("k", line=30, pipeline=True)])
    got = _loops_to_give_up(report, dirs, excess=5)
    assert [(g[3], g[4], g[5]) for g in got] == [("k/L20", 8, 40)]
    got = _loops_to_give_up(report, dirs, excess=9)
    assert sorted(g[3] for g in got) == ["k/L10", "k/L20"]
    assert sorted(g[3] for g in _loops_to_give_up(report, dirs, excess=100)) == [
        "k/L10", "k/L20"]                      # not enough: every loop there is
    assert [g[3] for g in _loops_to_give_up(report, None, excess=1)] == ["k/L30"]  # 10 cycles
    # 8 blocks: L20 (40 cycles), not L10 (80); with L30 a candidate, L30 (10 cycles)
    assert [g[3] for g in _loops_to_give_up(report, dirs, excess=8)] == ["k/L20"]
    assert [g[3] for g in _loops_to_give_up(report, None, excess=8)] == ["k/L30"]


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
    assert fit["given_up"]
    piped = {lp["name"]: lp["pipelined"] for lp in res.report["loops"]}
    assert all(piped[name] is False for name in fit["given_up"])
    assert any(piped.values())            # not every pipeline had to go
    for name in fit["given_up"]:
        assert (f"warning: fitting the LFE5U-25F-8 (--no-fit-device: do not): loop {name} "
                f"is not pipelined") in err
    assert "does not fit" not in err
    # the first loops given up cover the first build's excess for the fewest cycles:
    # no other set of its loops covers it for fewer
    from itertools import combinations

    first = next(s for s in fit["steps"] if "loops" in s)["loops"]
    cost = {lp["name"]: (lp["dsp"], lp["estimate"]["sequential_cycles"]
                         - lp["estimate"]["pipelined_cycles"])
            for lp in plain.report["loops"] if lp.get("dsp")}
    excess = plain.report["resources"]["dsp"] - 28
    cheapest = min(sum(cost[n][1] for n in c) for k in range(1, len(cost) + 1)
                   for c in combinations(cost, k) if sum(cost[n][0] for n in c) >= excess)
    assert sum(lp["cycles_lost"] for lp in first) == cheapest
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
    assert "place and route will fail" in err
    assert "only DSP blocks can be traded" in err
    assert "fit_device" not in res.report     # nothing traded: the LUTs would stay
