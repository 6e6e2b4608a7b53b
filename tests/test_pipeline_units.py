"""Functional units shared across a pipelined loop's modulo slots
(:func:`hls.scheduling.share_units`): 8x8 matrix multiplies pipelined at II 4 with the
inner loop unrolled, int32 and binary32, co-simulated against native execution; the
units counted in the report, the Verilog and the area model against the same design
built with every op its own unit; the checker rejecting schedules and bindings that
break the sharing."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from hls.errors import ScheduleError
from hls.flow import SynthOptions, synthesize
from hls.scheduling import check, check_loop_units, modulo_schedule, op_timing
from hls.scheduling._pipeline import build_loop_model, unit_loop
from hls.verify import cosim

SRC = Path(__file__).resolve().parent / "kernels" / "shared_units.c"

#: top -> the unit classes its pipelined loop shares: 8 ops each, 2 instances at II 4
SHARED = {"mm8": {"mul32"}, "mm8f": {"fmul32_s1", "fadd32_s1"}}


def _loop(res) -> dict:
    (lp,) = [lp for lp in res.report["loops"] if lp["pipelined"]]
    return lp


def _pipeline(res):
    (pl,) = [pl for fs in res.schedules.values() for pl in fs.pipelines.values()]
    return pl


def _multiplies(res) -> int:
    """The multipliers of the Verilog (Amaranth writes each product as one assign)."""
    return len(re.findall(r"^\s*assign .* \* ", res.verilog, re.M))


@pytest.mark.parametrize("top,target", [("mm8", "generic"), ("mm8f", "generic"),
                                        ("mm8", "ecp5")])
def test_shared_units_cosim(top, target):
    r = cosim(SRC, top, tb=SRC, target=target)
    assert r.passed, r.summary()
    lp = _loop(r.synth)
    assert lp["ii"] == 4
    units = lp["units"]
    if top == "mm8f" or target == "generic":
        assert set(units) == SHARED[top]
    for cls, u in units.items():
        assert u == {"ops": 8, "instances": 2}, (cls, u)
    pl = _pipeline(r.synth)
    assert {c for c, _ in pl.unit_of.values()} == set(units)


@pytest.mark.parametrize("target", ["generic", "ecp5"])
def test_fewer_units_same_ii(target):
    """Against the design with every multiply its own unit: the same II (a call's cycles
    differ by the loop's depth, at most a stage, per entry), the multipliers 8 -> 2
    (Verilog, and DSP blocks on ECP5)."""
    opts = SynthOptions(top="mm8", target=target)
    shared = synthesize(SRC, opts)
    alone = synthesize(SRC, dataclasses.replace(opts, share_pipeline_units=False))
    assert "units" not in _loop(alone) and _pipeline(alone).unit_of == {}
    assert _loop(shared)["ii"] == _loop(alone)["ii"] == 4
    # the same II: a call differs only by the fill of each of the loop's 8 entries
    fill = _loop(shared)["depth"] - _loop(alone)["depth"]
    assert 0 <= fill < 4
    assert shared.report["latency"]["max"] - alone.report["latency"]["max"] == 8 * fill
    res_s, res_a = shared.report["resources"], alone.report["resources"]
    if target == "generic":
        assert (_multiplies(alone), _multiplies(shared)) == (8, 2)
        # the formula target's sum of op areas: six 32-bit multipliers fewer
        mul = next(op for op in _pipeline(shared).unit_of)
        assert res_a["lut"] - res_s["lut"] == 6 * op_timing(shared.target, mul).area_lut
    else:
        assert res_s["parts"]["units"]["dsp"] == 6 and "units" not in res_a["parts"]
        # three MULT18X18D per 32-bit product kept: 24 alone, 6 shared
        assert res_a["dsp"] == 24 and res_s["dsp"] == 6, (res_a, res_s)
        assert res_s["parts"]["muxes"]["lut"] > res_a["parts"]["muxes"]["lut"]


def test_checker_rejects_broken_sharing():
    res = synthesize(SRC, SynthOptions(top="mm8", target="ecp5"))
    pl = _pipeline(res)
    m, ms, target = pl.model, pl.schedule, res.target
    assert m.shared == {"mul32": (2, 4)}
    check(m.problem, ms)
    check_loop_units(m, pl, target, op_timing)

    # the schedule with one unit fewer than it uses in a slot: the resource check
    caps = dict(m.problem.resources)
    (cls,) = [r for r in caps if str(r) == "mul32"]
    fewer = dataclasses.replace(m.problem, resources={**caps, cls: 1})
    with pytest.raises(ScheduleError, match="resource 'mul32' overloaded in modulo slot"):
        check(fewer, ms)

    # the unshared loop's schedule puts more multiplies in a slot than the class has
    # units: the shared problem rejects it
    alone = build_loop_model(pl.block, target, pl.loop.trip_count, op_timing)
    ms0 = modulo_schedule(alone.problem, ii=pl.ii, seed=0, workers=1)
    muls = [i for op, i in alone.id.items() if op.kind == "mul"]
    per_slot = [sum(1 for i in muls if ms0.steps[i] % pl.ii == s) for s in range(pl.ii)]
    assert max(per_slot) > 2, per_slot     # else the next check proves nothing
    steps = {i: ms0.steps[i] for i in ms0.steps}
    relabelled = dataclasses.replace(ms, steps=steps)
    with pytest.raises(ScheduleError, match="resource .mul32. overloaded in modulo slot"):
        check(m.problem, relabelled)

    # bindings: two ops of one slot on one instance; an instance beyond the class's
    by_slot: dict[int, list] = {}
    for op, (c, i) in pl.unit_of.items():
        by_slot.setdefault(pl.time[op] % pl.ii, []).append(op)
    a, b = next(v for v in by_slot.values() if len(v) == 2)
    clash = dataclasses.replace(pl, unit_of={**pl.unit_of, b: pl.unit_of[a]})
    with pytest.raises(ScheduleError, match="serves"):
        check_loop_units(m, clash)
    beyond = dataclasses.replace(pl, unit_of={**pl.unit_of, a: ("mul32", 2)})
    with pytest.raises(ScheduleError, match="not one of the class's"):
        check_loop_units(m, beyond)
    lost = dataclasses.replace(pl, unit_of={k: v for k, v in pl.unit_of.items() if k is not a})
    with pytest.raises(ScheduleError, match="not the problem's shared ops"):
        check_loop_units(m, lost)

    # a shared op timed without its operand multiplexer (4 sources on ECP5)
    assert target.port_mux_ns(4) > 0
    i = m.id[a]
    t = op_timing(target, a)
    sops = tuple(dataclasses.replace(s, in_delay_ns=t.in_delay_ns) if s.id == i else s
                 for s in m.problem.ops)
    untimed = dataclasses.replace(m, problem=dataclasses.replace(m.problem, ops=sops))
    with pytest.raises(ScheduleError, match="not timed as a shared unit"):
        check_loop_units(untimed, pl, target, op_timing)


def test_combinational_loop_through_shared_units():
    """A sharer's result that reaches, within its cycle, an op of a unit whose result
    reaches the first unit's operands is a loop in the netlist (Amaranth and synthesis
    reject it): ``unit_loop`` finds it, and the loop would then keep its own units.  The
    times are made up: ``b`` (at 2) reads ``g ^ x`` and the phi of ``g``, which reads
    ``a + 3`` and ``a`` at 4, the next slot 0 of the previous iteration."""
    res = synthesize(SRC, SynthOptions(top="hash2", auto_unroll=False))
    pl = _pipeline(res)
    assert pl.ii == 2 and unit_loop(pl) is None
    ops = {op.kind: [] for op in pl.time}
    for op in pl.time:
        ops[op.kind].append(op)
    mul_a, mul_b = ops["mul"]
    add = next(o for o in ops["add"] if mul_a in o.operands)        # g = a + 3
    phi_g = next(p for p in ops["phi"] if any(x is add for _, x in p.incoming))
    xor_g = next(o for o in ops["xor"] if phi_g in o.operands)
    time = {op: 0 for op in pl.time} | {mul_b: 2, xor_g: 2, phi_g: 2, add: 4, mul_a: 4}
    latency = {op: 0 for op in pl.time}
    made_up = dataclasses.replace(pl, time=time, latency=latency)
    one = dataclasses.replace(made_up, unit_of={mul_a: ("mul32", 0), mul_b: ("mul32", 0)})
    assert unit_loop(one) == "mul32 0 -> mul32 0"
    two = dataclasses.replace(made_up, unit_of={mul_a: ("mul32", 0), mul_b: ("mul32", 1)})
    assert unit_loop(two) is None      # a path 0 -> 1, none back


def test_cli_no_share_pipeline_units(tmp_path):
    from hls.cli import main as cli_main

    out = {}
    for flag in ((), ("--no-share-pipeline-units",)):
        d = tmp_path / ("alone" if flag else "shared")
        assert cli_main(["synth", str(SRC), "--top", "mm8", "-o", str(d), *flag]) == 0
        (lp,) = [lp for lp in json.loads((d / "report.json").read_text())["loops"]
                 if lp["pipelined"]]
        out[bool(flag)] = lp.get("units")
    assert out == {False: {"mul32": {"ops": 8, "instances": 2}}, True: None}
