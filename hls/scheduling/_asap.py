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

from hls.errors import ScheduleError

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
    # ops tied by SameCycle are placed together, as one node of the list (singletons
    # otherwise); the group is known by its smallest id
    grp = problem.same_cycle_groups
    members: dict[int, list[int]] = {}
    for i in sorted(grp):
        members.setdefault(grp[i], []).append(i)
    preds: dict[int, list[tuple[int, int]]] = {g: [] for g in members}
    succs: dict[int, list[int]] = {g: [] for g in members}
    for u, v, w in constraints:
        if grp[u] == grp[v]:
            if w > 0:
                raise ScheduleError(f"{problem.label(v)} must follow {problem.label(u)} by "
                                    f"{w} step(s) but a SameCycle constraint ties them")
            continue
        preds[grp[v]].append((u, w))
        succs[grp[u]].append(grp[v])
    tail = latest_tails(problem, constraints)
    prio = {g: max(tail[i] for i in ms) for g, ms in members.items()}
    indeg = {g: len(p) for g, p in preds.items()}
    ready = [(-prio[g], g) for g, d in indeg.items() if d == 0]
    heapq.heapify(ready)
    usage: dict[object, dict[int, int]] = {}
    steps: dict[int, int] = {}
    while ready:
        _, g = heapq.heappop(ready)
        t = max((steps[u] + w for u, w in preds[g]), default=0)
        need: dict[object, dict[int, int]] = {}  # resource -> step offset -> units
        for v in members[g]:
            op = by_id[v]
            if op.resource is not None and op.resource in problem.resources:
                for k in range(op.occupancy):
                    row = need.setdefault(op.resource, {})
                    row[k] = row.get(k, 0) + 1
        for r, row in need.items():
            if max(row.values()) > problem.resources[r]:
                raise ScheduleError(
                    f"ops tied by SameCycle need more units of resource '{r}' than its "
                    f"{problem.resources[r]}: " + ", ".join(problem.label(v) for v in members[g]))
        while any(usage.get(r, {}).get(t + k, 0) + n > problem.resources[r]
                  for r, row in need.items() for k, n in row.items()):
            t += 1
        for r, row in need.items():
            table = usage.setdefault(r, {})
            for k, n in row.items():
                table[t + k] = table.get(t + k, 0) + n
        for v in members[g]:
            steps[v] = t
        for x in succs[g]:
            indeg[x] -= 1
            if indeg[x] == 0:
                heapq.heappush(ready, (-prio[x], x))
    return steps
