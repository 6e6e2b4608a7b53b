"""Reference ASAP list scheduler with resource reservation.

Operations are placed one at a time in a topological order of the difference-constraint
graph (``_constraints``; dependences, order edges, chaining, sink), choosing among the
ready ops the one with the longest constraint path to the end (critical-path priority, as
in classic list scheduling, Hu 1961 / Gajski et al. 1992), ties broken by smallest id.  Each
op goes to the first step at or after its earliest feasible step where its resource class
has a free unit for all of its ``occupancy`` steps (a reservation table).  The result is
always valid and is the fallback (and the upper bound) of the SDC scheduler.
"""

from __future__ import annotations

import heapq

from ._constraints import Constraint, arrivals, difference_constraints, latest_tails
from ._problem import SchedProblem, Schedule, schedule_length


def asap_schedule(problem: SchedProblem, *, constraints: list[Constraint] | None = None) -> Schedule:
    """A valid, deterministic, resource-aware list schedule of ``problem``."""
    steps = _asap_steps(problem, constraints if constraints is not None
                        else difference_constraints(problem))
    arr, viol = arrivals(problem, steps)
    return Schedule(steps, schedule_length(problem, steps), arr, "asap", viol)


def _asap_steps(problem: SchedProblem, constraints: list[Constraint]) -> dict[int, int]:
    by_id = problem.by_id
    preds: dict[int, list[tuple[int, int]]] = {op.id: [] for op in problem.ops}
    succs: dict[int, list[int]] = {op.id: [] for op in problem.ops}
    for u, v, w in constraints:
        preds[v].append((u, w))
        succs[u].append(v)
    tail = latest_tails(problem, constraints)
    indeg = {i: len(p) for i, p in preds.items()}
    ready = [(-tail[i], i) for i, d in indeg.items() if d == 0]
    heapq.heapify(ready)
    usage: dict[str, dict[int, int]] = {}
    steps: dict[int, int] = {}
    while ready:
        _, v = heapq.heappop(ready)
        op = by_id[v]
        t = max((steps[u] + w for u, w in preds[v]), default=0)
        cap = problem.resources.get(op.resource) if op.resource is not None else None
        if cap is not None:
            table = usage.setdefault(op.resource, {})
            while any(table.get(t + k, 0) >= cap for k in range(op.occupancy)):
                t += 1
            for k in range(op.occupancy):
                table[t + k] = table.get(t + k, 0) + 1
        steps[v] = t
        for x in succs[v]:
            indeg[x] -= 1
            if indeg[x] == 0:
                heapq.heappush(ready, (-tail[x], x))
    return steps
