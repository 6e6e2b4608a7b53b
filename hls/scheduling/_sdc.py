"""SDC scheduling (Cong & Zhang, "An Efficient and Versatile Scheduling Algorithm Based on
SDC Formulation", DAC 2006), with exact resource constraints by CP-SAT.

1. Build the system of difference constraints (``_constraints``): dependences, order edges,
   the sink, and chaining constraints from longest combinational paths.
2. Solve the relaxation without resources.  Its constraint matrix is totally unimodular, so
   the LP ``min sum(step)`` has an integral optimum, which is the pointwise-least solution;
   it also has the least possible length.  By default it is computed as a longest path in
   the (acyclic) constraint graph; ``solver="glop"`` solves the same LP with OR-Tools GLOP
   instead (same answer, used to cross-check).  If it respects every resource capacity it is
   optimal and returned as is (method ``"sdc"``).
3. Otherwise compute a lower bound on the length (the relaxation's length and, per
   over-subscribed resource class, the classic ``ceil(total occupancy / capacity)`` bound,
   see :func:`length_lower_bound`) and the ASAP list schedule (``_asap``, always valid).  If
   the list schedule meets the bound it is length-optimal (method ``"sdc+list"``).
4. Otherwise minimise the length exactly with CP-SAT: the difference constraints are linear
   constraints, each over-subscribed resource class is a ``NoOverlap`` (capacity 1) or
   ``Cumulative`` over fixed-size intervals ``[step, step + occupancy)``.  Domains are
   tightened with the least solution (lower bounds) and the list schedule's length
   (horizon); the list schedule is the hint.  One worker, ``random_seed=0`` and a
   deterministic-time limit (``time_limit_s / 10``; ``time_limit_s`` is a wall-clock safety
   net) make the result reproducible.  Method ``"sdc+cpsat"`` when the length is proven
   optimal, ``"sdc+cpsat(feasible)"`` when the limit stopped the proof; if CP-SAT finds
   nothing, the list schedule is used (``"asap-fallback"``).  Results are never longer than
   the list schedule.
5. Secondary objective (steps 3-4): *compaction*.  Ops of each constrained class are
   assigned to unit instances in the found order and sequenced on their unit; the least
   solution of the augmented difference system is the unique minimum-sum-of-steps schedule
   for that assignment (pointwise no later, hence no longer).  Proving the global
   minimum-sum optimum with CP-SAT is far slower and is not attempted.
"""

from __future__ import annotations

from hls.errors import ScheduleError

from ._asap import asap_schedule
from ._constraints import Constraint, arrivals, difference_constraints, latest_tails, least_solution
from ._problem import SchedProblem, Schedule, schedule_length

SOLVERS = ("cpsat", "glop")


def sdc_schedule(problem: SchedProblem, time_limit_s: float = 1.0, solver: str = "cpsat") -> Schedule:
    """A minimum-length schedule of ``problem`` (see the module docstring), deterministic.

    The first CP-SAT solve in a process pays a one-time OR-Tools start-up (~0.3-1 s).

    ``solver``: ``"cpsat"`` (relaxation by longest path, resources by CP-SAT) or ``"glop"``
    (relaxation by the GLOP LP solver, resources by CP-SAT).
    """
    if solver not in SOLVERS:
        raise ScheduleError(f"unknown scheduling solver '{solver}'; known: {', '.join(SOLVERS)}")
    cons = difference_constraints(problem)
    steps = _glop_least(problem, cons) if solver == "glop" else least_solution(problem, cons)
    if _resource_feasible(problem, steps):
        return _finish(problem, steps, "sdc")
    fallback = asap_schedule(problem, constraints=cons)
    bound = length_lower_bound(problem, cons, steps)
    if fallback.length <= bound:
        # the list schedule meets the resource-free lower bound: length-optimal already.
        return _finish(problem, _compact(problem, cons, dict(fallback.steps)), "sdc+list")
    result = _cpsat(problem, cons, steps, bound, fallback, time_limit_s)
    if result is None:
        return _finish(problem, _compact(problem, cons, dict(fallback.steps)), "asap-fallback")
    steps, optimal = result
    steps = _compact(problem, cons, steps)
    return _finish(problem, steps, "sdc+cpsat" if optimal else "sdc+cpsat(feasible)")


def length_lower_bound(problem: SchedProblem, cons: list[Constraint],
                       least: dict[int, int]) -> int:
    """A lower bound on the length of every schedule (dependences and resources).

    The larger of the resource-free SDC length and, for each over-subscribed class ``r`` with
    capacity ``c`` and total occupancy ``S``, the classic resource bound: the class is busy
    in at least ``ceil(S / c)`` distinct steps starting no earlier than the least start of
    its ops, and the op busy in the last of them, ``j``, still needs ``tail(j)`` steps to the
    end: ``length >= min_lower + ceil(S/c) - occ(j) + tail(j) + 1``.
    """
    bound = schedule_length(problem, least)
    tail = latest_tails(problem, cons)
    groups: dict[str, list[int]] = {}
    for op in problem.ops:
        if op.resource is not None and op.resource in problem.resources:
            groups.setdefault(op.resource, []).append(op.id)
    by_id = problem.by_id
    for r, ids in groups.items():
        cap = problem.resources[r]
        if len(ids) <= cap:
            continue
        busy = -(-sum(by_id[i].occupancy for i in ids) // cap)
        start = min(least[i] for i in ids)
        slack = min(tail[i] - by_id[i].occupancy for i in ids)
        # busy at step B >= start + busy - 1 => step(j) >= B - occ(j) + 1; the last step
        # (sink, or last birth without a sink) >= step(j) + tail(j); length = last + 1.
        bound = max(bound, start + busy + slack + 1)
    return bound


def _compact(problem: SchedProblem, cons: list[Constraint], steps: dict[int, int]) -> dict[int, int]:
    """Left-shift a resource-feasible schedule without changing the order of use of units.

    The ops of each constrained resource class are assigned to unit instances by greedy
    interval colouring in (step, id) order (optimal for interval graphs, so at most
    ``capacity`` units); consecutive ops of a unit get a sequencing constraint
    ``step(b) - step(a) >= occupancy(a)``.  The least solution of the augmented difference
    system is pointwise <= ``steps`` (which satisfies it), hence valid, no longer, and the
    unique minimum-sum schedule for that unit assignment and order.
    """
    extra: list[Constraint] = []
    groups: dict[str, list[int]] = {}
    for op in problem.ops:
        if op.resource is not None and op.resource in problem.resources:
            groups.setdefault(op.resource, []).append(op.id)
    by_id = problem.by_id
    for r in sorted(groups):
        ids = groups[r]
        if len(ids) <= problem.resources[r]:
            continue
        units: list[tuple[int, int]] = []  # (free-from step, last op) per unit
        for i in sorted(ids, key=lambda i: (steps[i], i)):
            for k, (free, last) in enumerate(units):
                if free <= steps[i]:
                    extra.append((last, i, by_id[last].occupancy))
                    units[k] = (steps[i] + by_id[i].occupancy, i)
                    break
            else:
                units.append((steps[i] + by_id[i].occupancy, i))
    if not extra:
        return steps
    # every constraint with weight 0 is in the problem's topological order and every other
    # one strictly increases the step in ``steps``: (step, rank) is a topological order.
    rank = {v: k for k, v in enumerate(problem.topo_order)}
    order = sorted(rank, key=lambda v: (steps[v], rank[v]))
    return least_solution(problem, cons + extra, order)


def _finish(problem: SchedProblem, steps: dict[int, int], method: str) -> Schedule:
    arr, viol = arrivals(problem, steps)
    return Schedule(steps, schedule_length(problem, steps), arr, method, viol)


def _resource_feasible(problem: SchedProblem, steps: dict[int, int]) -> bool:
    usage: dict[tuple[str, int], int] = {}
    for op in problem.ops:
        if op.resource is None or op.resource not in problem.resources:
            continue
        cap = problem.resources[op.resource]
        for k in range(op.occupancy):
            key = (op.resource, steps[op.id] + k)
            n = usage.get(key, 0) + 1
            if n > cap:
                return False
            usage[key] = n
    return True


def _glop_least(problem: SchedProblem, cons: list[Constraint]) -> dict[int, int]:
    from ortools.linear_solver import pywraplp

    lp = pywraplp.Solver.CreateSolver("GLOP")
    if lp is None:  # pragma: no cover - GLOP ships with OR-Tools
        raise ScheduleError("OR-Tools GLOP solver is unavailable")
    x = {op.id: lp.NumVar(0.0, lp.infinity(), f"s{op.id}") for op in problem.ops}
    for u, v, w in cons:
        lp.Add(x[v] - x[u] >= w)
    lp.Minimize(sum(x.values()) if x else 0)
    status = lp.Solve()
    if status != pywraplp.Solver.OPTIMAL:
        raise ScheduleError(f"SDC relaxation has no optimum (GLOP status {status})")
    steps = {i: int(round(var.solution_value())) for i, var in x.items()}
    return steps


def _cpsat(problem: SchedProblem, cons: list[Constraint], lower: dict[int, int], bound: int,
           fallback: Schedule, time_limit_s: float) -> tuple[dict[int, int], bool] | None:
    from ortools.sat.python import cp_model

    by_id = problem.by_id
    tail = latest_tails(problem, cons)
    if problem.sink is not None:
        horizon = fallback.steps[problem.sink]
    else:
        horizon = fallback.length - 1  # the last birth step
    m = cp_model.CpModel()
    s = {}
    for op in problem.ops:
        lo, hi = lower[op.id], horizon - tail[op.id]
        if hi < lo:  # cannot happen: the fallback satisfies the same bounds
            raise ScheduleError(f"internal: empty step domain for {problem.label(op.id)}")
        s[op.id] = m.NewIntVar(lo, hi, f"s{op.id}")
    for u, v, w in cons:
        m.Add(s[v] >= s[u] + w)
    groups: dict[str, list[int]] = {}
    for op in problem.ops:
        if op.resource is not None and op.resource in problem.resources:
            groups.setdefault(op.resource, []).append(op.id)
    for r in sorted(groups):
        ids = groups[r]
        cap = problem.resources[r]
        if len(ids) <= cap:
            continue
        ivs = [m.NewFixedSizeIntervalVar(s[i], by_id[i].occupancy, f"i{i}") for i in ids]
        if cap == 1:
            m.AddNoOverlap(ivs)
        else:
            m.AddCumulative(ivs, [1] * len(ivs), cap)
    if problem.sink is not None:
        last = s[problem.sink]
        m.Add(last >= bound - 1)
    else:  # the last birth step
        last = m.NewIntVar(bound - 1, horizon, "last")
        for op in problem.ops:
            m.Add(last >= s[op.id] + op.latency)
        m.AddHint(last, horizon)
    m.Minimize(last)
    for i, var in s.items():
        m.AddHint(var, fallback.steps[i])

    cp = cp_model.CpSolver()
    cp.parameters.num_workers = 1
    cp.parameters.random_seed = 0
    # the deterministic limit binds first in practice (reproducible results); the wall-clock
    # limit is a safety net on slow machines.
    cp.parameters.max_deterministic_time = float(time_limit_s) / 10
    cp.parameters.max_time_in_seconds = float(time_limit_s)
    status = cp.Solve(m)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    steps = {i: int(cp.Value(var)) for i, var in s.items()}
    return steps, status == cp_model.OPTIMAL
