"""Solver-independent schedule checker (in the spirit of XLS's ``PipelineSchedule::Verify``
and ``VerifyTiming``), one for the whole problem family.

:func:`check` re-derives every constraint of a problem from the problem and the step
numbers alone, rule by rule according to the traits the problem mixes in
(:mod:`hls.scheduling._family`):

* every problem: step domain, dependence edges, the client's constraints
  (:class:`~hls.scheduling.OrderConstraint`, :class:`~hls.scheduling.SameCycle`), the sink;
* cyclic problems: edges and constraints at their iteration distance, ``II`` apart;
* chaining problems: combinational timing recomputed from scratch along the data edges
  chained in one (absolute) cycle, with :meth:`ChainingProblem.chain_timing` (not with the
  chaining constraints the solvers derived);
* shared-operator problems: occupancy per step, or per modulo slot when cyclic;
* the figures the scheduler reported (length, or depth/stages/register pressure and the
  II claims; arrival times, timing violations) must agree with the recomputation.

The first violated constraint raises :class:`hls.errors.ScheduleError` naming it and the
ops involved.
"""

from __future__ import annotations

from collections.abc import Mapping

from hls.errors import ScheduleError

from ._family import ChainingProblem, CyclicProblem, Problem, SharedOperatorsProblem, is_int
from ._modulo import ModuloProblem, ModuloSchedule
from ._problem import SchedProblem, Schedule


def check(problem: Problem, schedule: Schedule | ModuloSchedule) -> None:
    """Raise :class:`ScheduleError` unless ``schedule`` satisfies every constraint of
    ``problem`` (a :class:`SchedProblem` with a :class:`Schedule`, or a cyclic problem with
    a :class:`ModuloSchedule`)."""
    cyclic = isinstance(problem, CyclicProblem)
    pre = "modulo schedule: " if cyclic else "schedule: "
    ii = schedule.ii if cyclic else 0
    if cyclic and (not is_int(ii) or ii < 1):
        raise ScheduleError(f"{pre}II must be an integer >= 1, not {ii!r}")
    steps = schedule.steps
    _check_domain(problem, steps, pre)
    _check_edges(problem, steps, ii, pre, cyclic)
    _check_constraints(problem, steps, ii, pre)
    if getattr(problem, "sink", None) is not None:
        _check_sink(problem, steps, pre)
    arrival: dict[int, float] = {}
    violations: tuple[int, ...] = ()
    if isinstance(problem, ChainingProblem):
        chained = problem.chained(steps, ii)
        if cyclic:
            def where(v: int) -> str:
                return f"step {steps[v]} (slot {steps[v] % ii})"
        else:
            def where(v: int) -> str:
                return f"step {steps[v]}"
        try:
            arrival, violations = problem.chain_timing(chained, strict=where)
        except ScheduleError as exc:
            raise ScheduleError(pre + exc.message.removeprefix(problem._where())) from None
    if isinstance(problem, SharedOperatorsProblem):
        _check_resources(problem, steps, ii, pre, cyclic)
    if cyclic:
        _check_modulo_figures(problem, schedule, pre)
    else:
        _check_block_figures(problem, schedule, pre)
    if isinstance(problem, ChainingProblem):
        if tuple(sorted(violations)) != tuple(schedule.timing_violations):
            raise ScheduleError(f"{pre}reported timing violations "
                                f"{list(schedule.timing_violations)} != actual "
                                f"{sorted(violations)}")
        for i, t in arrival.items():
            got = schedule.arrival_ns.get(i)
            if got is None or abs(got - t) > 1e-6:
                raise ScheduleError(f"{pre}reported arrival of {problem.label(i)} is {got!r}, "
                                    f"actual {t:.6f} ns")


def check_schedule(problem: SchedProblem, schedule: Schedule) -> None:
    """:func:`check` for a block (the historical name)."""
    check(problem, schedule)


def check_modulo_schedule(problem: ModuloProblem, sched: ModuloSchedule) -> None:
    """:func:`check` for a loop body (the historical name)."""
    check(problem, sched)


# -- the rules --------------------------------------------------------------------------


def _check_domain(problem: Problem, steps: Mapping[int, int], pre: str) -> None:
    lab = problem.label
    for op in problem.ops:
        if op.id not in steps:
            raise ScheduleError(f"{pre}op {lab(op.id)} has no step")
        s = steps[op.id]
        if not is_int(s) or s < 0:
            raise ScheduleError(f"{pre}op {lab(op.id)} has invalid step {s!r} "
                                "(must be an integer >= 0)")
    extra = sorted(set(steps) - set(problem.by_id))
    if extra:
        raise ScheduleError(f"{pre}steps given for unknown op ids {extra}")


def _check_edges(problem: Problem, steps: Mapping[int, int], ii: int, pre: str,
                 cyclic: bool) -> None:
    lab = problem.label
    for e in problem.edges:
        su, sv = steps[e.src], steps[e.dst]
        w = e.weight(problem)
        if sv + ii * e.distance >= su + w:
            continue
        kind = "data" if e.is_data else "order"
        if cyclic:
            raise ScheduleError(
                f"{pre}{kind} edge {lab(e.src)} -> {lab(e.dst)} (distance {e.distance}) "
                f"violated at II={ii}: step {sv} + {ii}*{e.distance} < step {su} + "
                f"{'latency' if e.delay is None else 'delay'} {w}")
        raise ScheduleError(
            f"{pre}{kind} edge {lab(e.src)} -> {lab(e.dst)} violated: step {sv} < step {su} "
            f"+ {'latency' if e.is_data else 'distance'} {w}")


def _check_constraints(problem: Problem, steps: Mapping[int, int], ii: int, pre: str) -> None:
    for c in problem.constraints:
        why = c.violation(steps, ii)
        if why is not None:
            at = f" at II={ii}" if ii else ""
            raise ScheduleError(f"{pre}{c.describe(problem.label)} violated{at}: {why}")


def _check_sink(problem: SchedProblem, steps: Mapping[int, int], pre: str) -> None:
    lab = problem.label
    ss = steps[problem.sink]
    for op in problem.ops:
        if op.id != problem.sink and ss < steps[op.id] + op.latency:
            raise ScheduleError(
                f"{pre}sink {lab(problem.sink)} at step {ss} precedes the birth step "
                f"{steps[op.id] + op.latency} of {lab(op.id)}")


def _check_resources(problem: SharedOperatorsProblem, steps: Mapping[int, int], ii: int,
                     pre: str, cyclic: bool) -> None:
    lab = problem.label
    busy: dict[object, dict[int, list[int]]] = {}
    for op in problem.ops:
        if op.resource is None or op.resource not in problem.resources:
            continue
        table = busy.setdefault(op.resource, {})
        for k in range(op.occupancy):
            t = steps[op.id] + k
            table.setdefault(t % ii if cyclic else t, []).append(op.id)
    for r in sorted(busy, key=str):
        cap = problem.resources[r]
        for s, ids in sorted(busy[r].items()):
            if len(ids) <= cap:
                continue
            names = ", ".join(lab(i) for i in sorted(ids))
            if cyclic:
                raise ScheduleError(
                    f"{pre}resource '{r}' overloaded in modulo slot {s} at II={ii}: "
                    f"{len(ids)} busy ({names}) > {cap} units")
            raise ScheduleError(
                f"{pre}resource '{r}' overloaded in step {s}: {len(ids)} busy ops "
                f"({names}) > capacity {cap}")


def _check_block_figures(problem: SchedProblem, schedule: Schedule, pre: str) -> None:
    steps = schedule.steps
    if problem.sink is not None:
        length = steps[problem.sink] + 1
    else:
        length = max((steps[op.id] + op.latency for op in problem.ops), default=-1) + 1
    if schedule.length != length:
        raise ScheduleError(f"{pre}reported length {schedule.length} != actual {length}")


def _check_modulo_figures(problem: ModuloProblem, sched: ModuloSchedule, pre: str) -> None:
    steps, ii = sched.steps, sched.ii
    depth = max((steps[op.id] + op.latency for op in problem.ops), default=-1) + 1
    if sched.depth != depth:
        raise ScheduleError(f"{pre}reported depth {sched.depth} != actual {depth}")
    stages = -(-depth // ii)
    if sched.stages != stages:
        raise ScheduleError(f"{pre}reported stages {sched.stages} != ceil(depth {depth} / "
                            f"II {ii}) = {stages}")
    life: dict[int, int] = {}
    for e in problem.edges:
        if e.is_data:
            t = steps[e.dst] + ii * e.distance - steps[e.src] - problem.by_id[e.src].latency
            life[e.src] = max(life.get(e.src, 0), t)
    pressure = sum(life.values())
    if sched.register_pressure != pressure:
        raise ScheduleError(f"{pre}reported register pressure {sched.register_pressure} != "
                            f"actual {pressure}")
    if ii < sched.mii.mii:
        raise ScheduleError(f"{pre}II {ii} is below the reported MII {sched.mii.mii}")
    if sched.optimal_ii and ii > sched.mii.mii:
        proven = {a.ii for a in sched.attempts if a.status == "infeasible"}
        missing = [k for k in range(sched.mii.mii, ii) if k not in proven]
        if missing:
            raise ScheduleError(f"{pre}II {ii} claimed optimal but II {missing[0]} "
                                "was not proven infeasible")
