"""The scheduling problem family: typed resources, client constraints honoured by the
solvers and verified by the one checker, schedules as JSON."""

from __future__ import annotations

import json

import pytest

from hls.errors import ScheduleError
from hls.scheduling import (
    ChainingProblem,
    ChannelSendBeforeReceive,
    CyclicProblem,
    DedicatedUnit,
    MemoryPorts,
    ModuloEdge,
    ModuloProblem,
    ModuloSchedule,
    OrderConstraint,
    Problem,
    SameCycle,
    SchedEdge,
    SchedOp,
    SchedProblem,
    Schedule,
    SharedOperatorsProblem,
    UnitClass,
    asap_schedule,
    check,
    check_modulo_schedule,
    check_schedule,
    modulo_schedule,
    sdc_schedule,
)
from hls.scheduling._constraints import arrivals
from hls.scheduling._resources import cap_for, resource_from_json
from hls.targets import MEMORY


def _block(constraints=(), resources=None):
    # a -> b -> c (1-cycle ops), d independent, sink e
    ops = [SchedOp(0, "a", 1, 1.0), SchedOp(1, "b", 1, 1.0), SchedOp(2, "c", 1, 1.0),
           SchedOp(3, "d", 1, 1.0, UnitClass("mul", 32)), SchedOp(4, "e", 0, 0.0)]
    edges = [SchedEdge(0, 1), SchedEdge(1, 2)]
    return SchedProblem(ops, edges, resources or {}, 10.0, 4, constraints)


def _with(p, steps):
    arr, viol = arrivals(p, steps)
    return Schedule(steps, steps[p.sink] + 1, arr, "test", viol)


def test_resources_print_as_the_old_keys():
    assert str(MemoryPorts("buf")) == "mem:buf"
    assert MemoryPorts("buf").units == MEMORY.ports == 2
    assert str(UnitClass("mul", 32)) == "mul32" and str(UnitClass("fadd")) == "fadd"
    assert UnitClass.from_target("mul32") == UnitClass("mul", 32)
    assert str(DedicatedUnit("divider 0 (udiv at line 7)")) == "divider 0 (udiv at line 7)"
    assert sorted([UnitClass("mul", 8), MemoryPorts("a"), DedicatedUnit("divider 0")],
                  key=str) == sorted([UnitClass("mul", 8), MemoryPorts("a"),
                                      DedicatedUnit("divider 0")])
    assert cap_for(UnitClass("mul", 16), {"mul": 1}) == 1
    assert cap_for(UnitClass("mul", 16), {"mul16": 3, "mul": 1}) == 3
    assert cap_for(MemoryPorts("a"), {"mul": 1}) is None
    for r in (MemoryPorts("a", 4), UnitClass("mul", 32), DedicatedUnit("d")):
        assert resource_from_json(json.loads(json.dumps(r.to_json()))) == r


def test_the_problems_are_one_family():
    p = _block()
    assert isinstance(p, (Problem, ChainingProblem, SharedOperatorsProblem))
    assert not isinstance(p, CyclicProblem)
    m = ModuloProblem.from_block(p)
    assert isinstance(m, CyclicProblem) and isinstance(m, SharedOperatorsProblem)


def test_checker_catches_a_violated_client_constraint():
    p = _block([OrderConstraint(3, 2, 2)])
    good = sdc_schedule(p)
    check(p, good)
    assert good.steps[2] >= good.steps[3] + 2
    with pytest.raises(ScheduleError, match=r"order constraint d\(3\) -> c\(2\).*violated"):
        check_schedule(p, _with(p, {0: 0, 1: 1, 2: 2, 3: 1, 4: 3}))
    q = _block([SameCycle(0, 3)])
    with pytest.raises(ScheduleError, match=r"same-cycle constraint a\(0\) == d\(3\) violated"):
        check(q, _with(q, {0: 0, 1: 1, 2: 2, 3: 1, 4: 3}))


def test_same_cycle_honoured_by_sdc_and_asap():
    # without the tie d goes to step 0; tied to c it must wait for c (step 2)
    p = _block([SameCycle(3, 2)])
    for s in (sdc_schedule(p), asap_schedule(p)):
        check(p, s)
        assert s.steps[3] == s.steps[2] == 2
    # with a resource bound: two muls tied together need two units
    ops = [SchedOp(i, f"m{i}", 1, 1.0, UnitClass("mul", 32)) for i in range(3)]
    ops.append(SchedOp(3, "br", 0, 0.0))
    p2 = SchedProblem(ops, [], {UnitClass("mul", 32): 2}, 10.0, 3, [SameCycle(0, 2)])
    for s in (sdc_schedule(p2), asap_schedule(p2)):
        check(p2, s)
        assert s.steps[0] == s.steps[2] != s.steps[1]


def test_contradictory_tie_is_reported():
    with pytest.raises(ScheduleError, match="SameCycle"):
        sdc_schedule(_block([SameCycle(0, 1)]))  # b needs a's result a cycle later


def test_modulo_constraints_honoured():
    ops = [SchedOp(0, "a", 1, 1.0), SchedOp(1, "b", 1, 1.0), SchedOp(2, "c", 0, 1.0)]
    edges = [ModuloEdge(0, 1), ModuloEdge(1, 0, 1)]
    p = ModuloProblem(ops, edges, {}, 10.0, "t", (SameCycle(2, 1),))
    s = modulo_schedule(p, seed=0, workers=1)
    check(p, s)
    assert s.steps[2] == s.steps[1]
    bad = dict(s.steps)
    bad[2] = bad[1] + 1
    broken = ModuloSchedule(s.ii, bad, max(bad.values()) + 1, s.stages, s.optimal_ii,
                            s.depth_optimal, s.register_pressure, s.mii, s.attempts,
                            s.method, s.arrival_ns, s.timing_violations)
    with pytest.raises(ScheduleError, match="same-cycle constraint"):
        check_modulo_schedule(p, broken)


def test_channel_send_before_receive():
    """A channel between two ops (task-level FIFOs will add these): the receive waits the
    channel's latency after the send, in the block and the modulo solvers; a violation
    names the channel."""
    p = _block([ChannelSendBeforeReceive(3, 0, 2, channel="q")])   # d sends, a receives
    s = sdc_schedule(p)
    check(p, s)
    assert s.steps[0] >= s.steps[3] + 2
    with pytest.raises(ScheduleError, match=r"channel 'q': receive a\(0\) at least 2 step"):
        check(p, _with(p, {0: 0, 1: 1, 2: 2, 3: 0, 4: 3}))
    # cyclic: what iteration i sends, iteration i+1 receives
    ops = [SchedOp(0, "send", 1, 1.0), SchedOp(1, "recv", 1, 1.0), SchedOp(2, "use", 0, 1.0)]
    m = ModuloProblem(ops, [ModuloEdge(1, 2)], {}, 10.0, "t",
                      (ChannelSendBeforeReceive(0, 1, 3, 1, channel="loop"),))
    ms = modulo_schedule(m, seed=0, workers=1)
    check(m, ms)
    assert ms.steps[1] + ms.ii >= ms.steps[0] + 3


def test_schedules_round_trip_through_json():
    p = _block([OrderConstraint(3, 2, 2)])
    s = sdc_schedule(p)
    back = Schedule.from_json(json.loads(json.dumps(s.to_json())))
    assert back == s
    check(p, back)
    ops = [SchedOp(0, "a", 1, 1.0), SchedOp(1, "b", 1, 1.0, MemoryPorts("m", 1)),
           SchedOp(2, "c", 1, 1.0, MemoryPorts("m", 1))]
    mp = ModuloProblem(ops, [ModuloEdge(0, 1), ModuloEdge(1, 0, 1)],
                       {MemoryPorts("m", 1): 1}, 10.0, "j")
    ms = modulo_schedule(mp, seed=0, workers=1)
    mback = ModuloSchedule.from_json(json.loads(json.dumps(ms.to_json())))
    assert mback == ms
    check(mp, mback)
    with pytest.raises(ScheduleError, match="not a block schedule"):
        Schedule.from_json(ms.to_json())


def test_first_stage_of_a_pipelined_unit_limits_chaining():
    """A pipelined unit's logic before its first register (``in_delay_ns``: ECP5's
    floating-point units) counts on the path that chains into it: an add of 4 ns before a
    unit whose first stage takes 7 ns cannot share a 10 ns cycle with it (dot_i8_f32's
    multiply chained into its add reached 72 MHz), and the checker says so."""
    def problem(in_delay):
        ops = [SchedOp(0, "add", 0, 4.0), SchedOp(1, "fadd", 3, 6.0, None, 1, in_delay),
               SchedOp(2, "br", 0, 0.0)]
        return SchedProblem(ops, [SchedEdge(0, 1), SchedEdge(1, 2)], {}, 10.0, 2)

    for s in (sdc_schedule(problem(0.0)), asap_schedule(problem(0.0))):
        assert s.steps[1] == s.steps[0]         # without a first stage: chained
    p = problem(7.0)
    for s in (sdc_schedule(p), asap_schedule(p)):
        check(p, s)
        assert s.steps[1] == s.steps[0] + 1
    s = sdc_schedule(problem(0.0))             # the chained schedule, checked against p
    with pytest.raises(ScheduleError, match="first stage ends at 11.000 ns > clock 10.000 ns"):
        check(p, s)
    # the modulo problems share the constraint
    m = ModuloProblem.from_block(p, [], name="loop")
    ms = modulo_schedule(m)
    check_modulo_schedule(m, ms)
    assert ms.steps[1] >= ms.steps[0] + 1
