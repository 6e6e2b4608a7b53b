"""Solver-independent checker of modulo schedules (the modulo counterpart of ``_check``).

Re-derives every constraint of :mod:`hls.scheduling._modulo` from the problem, the II and
the step numbers alone: step domain, every edge with its iteration distance, combinational
timing recomputed from scratch along the data edges that are chained in the same absolute
cycle (it does not use the chaining constraints the scheduler derived), the modulo
reservation table of every limited class (with occupancy, wrapping around the II), and the
reported figures (depth, stages, register pressure, arrival times, timing violations, the
claim of a proven-optimal II).  The first violation raises
:class:`hls.errors.ScheduleError` naming the edge, ops, slot or resource involved.
"""

from __future__ import annotations

from hls.errors import ScheduleError

from ._modulo import ModuloProblem, ModuloSchedule
from ._problem import EPS_NS


def check_modulo_schedule(problem: ModuloProblem, sched: ModuloSchedule) -> None:
    """Raise :class:`ScheduleError` unless ``sched`` satisfies every constraint."""
    lab = problem.label
    by_id = problem.by_id
    steps = sched.steps
    ii = sched.ii
    pre = "modulo schedule: "

    # -- domain ------------------------------------------------------------------------
    if not isinstance(ii, int) or isinstance(ii, bool) or ii < 1:
        raise ScheduleError(f"{pre}II must be an integer >= 1, not {ii!r}")
    for op in problem.ops:
        if op.id not in steps:
            raise ScheduleError(f"{pre}op {lab(op.id)} has no step")
        s = steps[op.id]
        if not isinstance(s, int) or isinstance(s, bool) or s < 0:
            raise ScheduleError(f"{pre}op {lab(op.id)} has invalid step {s!r} "
                                "(must be an integer >= 0)")
    extra = sorted(set(steps) - set(by_id))
    if extra:
        raise ScheduleError(f"{pre}steps given for unknown op ids {extra}")

    # -- dependences (with iteration distances) -------------------------------------------
    for e in problem.edges:
        su, sv = steps[e.src], steps[e.dst]
        w = by_id[e.src].latency if e.delay is None else e.delay
        kind = "data" if e.is_data else "order"
        if sv + ii * e.distance < su + w:
            raise ScheduleError(
                f"{pre}{kind} edge {lab(e.src)} -> {lab(e.dst)} (distance {e.distance}) "
                f"violated at II={ii}: step {sv} + {ii}*{e.distance} < step {su} + "
                f"{'latency' if e.delay is None else 'delay'} {w}")

    # -- timing: chains within one absolute cycle ---------------------------------------------
    clock = problem.clock_period_ns
    chained: dict[int, list[int]] = {op.id: [] for op in problem.ops}
    for e in problem.edges:
        if e.is_data and steps[e.dst] + ii * e.distance == steps[e.src] + by_id[e.src].latency:
            chained[e.dst].append(e.src)
    ready: dict[int, float] = {}  # when an op's output is valid in its birth cycle

    def ready_of(v: int, path: tuple[int, ...]) -> float:
        if v in ready:
            return ready[v]
        op = by_id[v]
        if op.latency > 0:
            ready[v] = op.delay_ns
            return ready[v]
        if v in path:
            ring = " -> ".join(lab(i) for i in path[path.index(v):] + (v,))
            raise ScheduleError(f"{pre}combinational loop chained in one cycle: {ring}")
        t_in = max((ready_of(u, path + (v,)) for u in chained[v]), default=0.0)
        ready[v] = t_in + op.delay_ns
        return ready[v]

    arrival: dict[int, float] = {}
    violations: list[int] = []
    for op in problem.ops:
        v = op.id
        ins = [(ready_of(u, (v,)), u) for u in chained[v]]
        t_in, worst = max(ins, default=(0.0, None))
        if op.latency == 0:
            t = t_in + op.delay_ns
            arrival[v] = t
            if t > clock + EPS_NS:
                if t_in > EPS_NS:
                    raise ScheduleError(
                        f"{pre}timing violated in step {steps[v]} (slot {steps[v] % ii}): "
                        f"{lab(v)} arrives at {t:.3f} ns > clock {clock:.3f} ns, chained "
                        f"after {lab(worst)} (ready at {t_in:.3f} ns)")
                violations.append(v)
        else:
            arrival[v] = t_in
            if t_in > clock + EPS_NS:
                raise ScheduleError(
                    f"{pre}timing violated in step {steps[v]} (slot {steps[v] % ii}): inputs "
                    f"of {lab(v)} arrive at {t_in:.3f} ns > clock {clock:.3f} ns, chained "
                    f"after {lab(worst)}")
            if op.delay_ns > clock + EPS_NS:
                violations.append(v)

    # -- modulo reservation table ---------------------------------------------------------------
    table: dict[tuple[str, int], list[int]] = {}
    for op in problem.ops:
        if op.resource is None or op.resource not in problem.resources:
            continue
        for k in range(op.occupancy):
            table.setdefault((op.resource, (steps[op.id] + k) % ii), []).append(op.id)
    for (r, slot), ids in sorted(table.items()):
        cap = problem.resources[r]
        if len(ids) > cap:
            names = ", ".join(lab(i) for i in sorted(ids))
            raise ScheduleError(
                f"{pre}resource '{r}' overloaded in modulo slot {slot} at II={ii}: "
                f"{len(ids)} busy ({names}) > {cap} units")

    # -- reported figures ---------------------------------------------------------------
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
            t = steps[e.dst] + ii * e.distance - steps[e.src] - by_id[e.src].latency
            life[e.src] = max(life.get(e.src, 0), t)
    if sched.register_pressure != sum(life.values()):
        raise ScheduleError(f"{pre}reported register pressure {sched.register_pressure} != "
                            f"actual {sum(life.values())}")
    if tuple(sorted(violations)) != tuple(sched.timing_violations):
        raise ScheduleError(f"{pre}reported timing violations {list(sched.timing_violations)} "
                            f"!= actual {sorted(violations)}")
    for i, t in arrival.items():
        got = sched.arrival_ns.get(i)
        if got is None or abs(got - t) > 1e-6:
            raise ScheduleError(f"{pre}reported arrival of {lab(i)} is {got!r}, actual {t:.6f} ns")
    if ii < sched.mii.mii:
        raise ScheduleError(f"{pre}II {ii} is below the reported MII {sched.mii.mii}")
    if sched.optimal_ii and ii > sched.mii.mii:
        proven = {a.ii for a in sched.attempts if a.status == "infeasible"}
        missing = [k for k in range(sched.mii.mii, ii) if k not in proven]
        if missing:
            raise ScheduleError(f"{pre}II {ii} claimed optimal but II {missing[0]} "
                                "was not proven infeasible")
