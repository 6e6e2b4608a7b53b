"""Solver-independent schedule checker (in the spirit of XLS's ``PipelineSchedule::Verify``
and ``VerifyTiming``).

Re-derives every constraint of :mod:`hls.scheduling._problem` from the problem and the step
numbers alone: step domain, data and order edges, combinational timing recomputed from
scratch along chained data edges (it does not use the SDC chaining constraints), resource
occupancy per step and the sink.  The derived figures the scheduler reported (length,
timing violations, arrival times) must agree with the recomputation.  The first violated
constraint raises :class:`hls.errors.ScheduleError` naming it and the ops involved.
"""

from __future__ import annotations

from hls.errors import ScheduleError

from ._problem import EPS_NS, SchedProblem, Schedule


def check_schedule(problem: SchedProblem, schedule: Schedule) -> None:
    """Raise :class:`ScheduleError` unless ``schedule`` satisfies every constraint."""
    lab = problem.label
    steps = schedule.steps
    by_id = problem.by_id

    # -- domain --------------------------------------------------------------------------
    for op in problem.ops:
        if op.id not in steps:
            raise ScheduleError(f"schedule: op {lab(op.id)} has no step")
        s = steps[op.id]
        if not isinstance(s, int) or isinstance(s, bool) or s < 0:
            raise ScheduleError(f"schedule: op {lab(op.id)} has invalid step {s!r} "
                                "(must be an integer >= 0)")
    extra = sorted(set(steps) - set(by_id))
    if extra:
        raise ScheduleError(f"schedule: steps given for unknown op ids {extra}")

    # -- dependences -----------------------------------------------------------------------
    for e in problem.edges:
        su, sv = steps[e.src], steps[e.dst]
        if e.is_data:
            lat = by_id[e.src].latency
            if sv < su + lat:
                raise ScheduleError(
                    f"schedule: data edge {lab(e.src)} -> {lab(e.dst)} violated: "
                    f"step {sv} < step {su} + latency {lat}")
        elif sv < su + e.min_distance:
            raise ScheduleError(
                f"schedule: order edge {lab(e.src)} -> {lab(e.dst)} violated: "
                f"step {sv} < step {su} + distance {e.min_distance}")

    # -- sink ------------------------------------------------------------------------------
    if problem.sink is not None:
        ss = steps[problem.sink]
        for op in problem.ops:
            if op.id != problem.sink and ss < steps[op.id] + op.latency:
                raise ScheduleError(
                    f"schedule: sink {lab(problem.sink)} at step {ss} precedes the birth step "
                    f"{steps[op.id] + op.latency} of {lab(op.id)}")

    # -- timing (recomputed from scratch, in step order then data order) ---------------------
    clock = problem.clock_period_ns
    preds = problem.data_preds
    pending = {op.id: len(preds[op.id]) for op in problem.ops}
    succs: dict[int, list[int]] = {op.id: [] for op in problem.ops}
    for v, ps in preds.items():
        for u in ps:
            succs[u].append(v)
    work = sorted(i for i, n in pending.items() if n == 0)
    out: dict[int, float] = {}
    arrival: dict[int, float] = {}
    violations: list[int] = []
    while work:
        v = work.pop()
        op = by_id[v]
        chained = [u for u in preds[v] if steps[u] + by_id[u].latency == steps[v]]
        t_in = max((out[u] for u in chained), default=0.0)
        if op.latency == 0:
            t = t_in + op.delay_ns
            arrival[v] = out[v] = t
            if t > clock + EPS_NS:
                if t_in > EPS_NS:
                    worst = max(chained, key=lambda u: (out[u], u))
                    raise ScheduleError(
                        f"schedule: timing violated in step {steps[v]}: {lab(v)} arrives at "
                        f"{t:.3f} ns > clock {clock:.3f} ns, chained after {lab(worst)} "
                        f"(ready at {out[worst]:.3f} ns)")
                violations.append(v)
        else:
            arrival[v] = t_in
            out[v] = op.delay_ns
            if t_in > clock + EPS_NS:
                worst = max(chained, key=lambda u: (out[u], u))
                raise ScheduleError(
                    f"schedule: timing violated in step {steps[v]}: inputs of {lab(v)} arrive "
                    f"at {t_in:.3f} ns > clock {clock:.3f} ns, chained after {lab(worst)}")
            if op.delay_ns > clock + EPS_NS:
                violations.append(v)
        for x in succs[v]:
            pending[x] -= 1
            if pending[x] == 0:
                work.append(x)
    if len(out) != len(by_id):  # pragma: no cover - SchedProblem rejects cycles
        raise ScheduleError("schedule: data dependence cycle")

    # -- resources ---------------------------------------------------------------------------
    busy: dict[tuple[str, int], list[int]] = {}
    for op in problem.ops:
        if op.resource is None or op.resource not in problem.resources:
            continue
        for k in range(op.occupancy):
            busy.setdefault((op.resource, steps[op.id] + k), []).append(op.id)
    for (r, s), ids in sorted(busy.items()):
        cap = problem.resources[r]
        if len(ids) > cap:
            names = ", ".join(lab(i) for i in sorted(ids))
            raise ScheduleError(
                f"schedule: resource '{r}' overloaded in step {s}: {len(ids)} busy ops "
                f"({names}) > capacity {cap}")

    # -- reported figures ----------------------------------------------------------------
    if problem.sink is not None:
        length = steps[problem.sink] + 1
    else:
        length = max((steps[op.id] + op.latency for op in problem.ops), default=-1) + 1
    if schedule.length != length:
        raise ScheduleError(f"schedule: reported length {schedule.length} != actual {length}")
    if tuple(sorted(violations)) != tuple(schedule.timing_violations):
        raise ScheduleError(
            f"schedule: reported timing violations {list(schedule.timing_violations)} != "
            f"actual {sorted(violations)}")
    for i, t in arrival.items():
        got = schedule.arrival_ns.get(i)
        if got is None or abs(got - t) > 1e-6:
            raise ScheduleError(f"schedule: reported arrival of {lab(i)} is {got!r}, "
                                f"actual {t:.6f} ns")
