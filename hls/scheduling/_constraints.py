"""System of difference constraints of a block (SDC, Cong & Zhang, DAC 2006).

Every scheduling constraint except resources is a difference constraint
``step(v) - step(u) >= w`` with ``w >= 0``:

* data edge ``u -> v``: ``w = latency(u)``;
* order edge ``u -> v`` with distance ``d``: ``w = d``;
* client constraints: :class:`~hls.scheduling.OrderConstraint` ``w = min_distance``,
  :class:`~hls.scheduling.SameCycle` ``w = 0`` both ways (the one source of cycles, of
  weight 0 unless they contradict the rest: the least solution then relaxes to a fixpoint);
* sink: ``step(sink) - step(u) >= latency(u)`` for every op ``u``;
* chaining (timing): for every pair ``u``, ``v`` joined by a data path whose intermediate
  ops are combinational, if the longest combinational delay from ``u``'s output to the end
  of ``v`` exceeds the clock, then not all of the path can be in one step:
  ``step(v) - step(u) >= latency(u) + 1``.  The path delay starts with ``delay(u)`` (for a
  multi-cycle ``u`` its output delay in the birth step), adds the delay of every
  combinational op and ends at ``v`` (adding ``delay(v)`` if ``v`` is combinational, 0 if
  ``v`` is multi-cycle, whose inputs end the path).  Because every edge on such a path has a
  non-negative slack and the intermediate ops have latency 0, the constraint is *exact*:
  ``step(v) == step(u) + latency(u)`` holds iff every path from ``u`` to ``v`` is chained.
  An op whose own delay exceeds the clock with no delay in front of it (``u`` has zero
  output delay) gets no constraint from ``u`` (it is tolerated alone, see ``_problem``).

The longest-path search (:meth:`ChainingProblem.chaining_constraints`, shared with the
modulo constraints) stops at the first op that needs a constraint: anything behind it is
already ordered after it, so the system stays small (about one clock period of ops per
source) and Bellman-Ford-free: every constraint points forward in the topological order, so
the least solution is a longest path in a DAG.
"""

from __future__ import annotations

from collections.abc import Mapping

from hls.errors import ScheduleError

from ._family import SameCycle
from ._problem import SchedProblem

Constraint = tuple[int, int, int]  # (u, v, w): step(v) - step(u) >= w


def difference_constraints(problem: SchedProblem) -> list[Constraint]:
    """All difference constraints of ``problem`` (the strongest per ordered pair), sorted."""
    best: dict[tuple[int, int], int] = {}

    def add(u: int, v: int, w: int) -> None:
        key = (u, v)
        if best.get(key, -1) < w:
            best[key] = w

    by_id = problem.by_id
    for e in problem.edges:
        add(e.src, e.dst, by_id[e.src].latency if e.is_data else e.min_distance)
    for c in problem.constraints:
        for u, v, w, _ in c.difference():
            add(u, v, w)
    if problem.sink is not None:
        for op in problem.ops:
            if op.id != problem.sink:
                add(op.id, problem.sink, op.latency)
    for u, v, w, _ in problem.chaining_constraints():
        add(u, v, w)
    return sorted((u, v, w) for (u, v), w in best.items())


def least_solution(problem: SchedProblem, constraints: list[Constraint],
                   order: list[int] | tuple[int, ...] | None = None) -> dict[int, int]:
    """The pointwise-smallest steps satisfying ``constraints`` (longest path in the DAG).

    This is also the unique optimum of the SDC linear program ``min sum(step)``.  ``order``
    must be a topological order of ``constraints`` (default: the problem's, valid for
    :func:`difference_constraints`).
    """
    preds: dict[int, list[tuple[int, int]]] = {op.id: [] for op in problem.ops}
    for u, v, w in constraints:
        preds[v].append((u, w))
    order = problem.topo_order if order is None else order
    steps: dict[int, int] = {}
    for v in order:
        steps[v] = max((steps[u] + w for u, w in preds[v] if u in steps), default=0)
    if _has_ties(problem):
        # SameCycle ties make two-way constraints: relax to the fixpoint (Bellman-Ford in
        # the topological order; a pass beyond the number of ops means a positive cycle).
        for _ in range(len(order) + 1):
            changed = [v for v in order
                       if _raise(steps, v, max((steps[u] + w for u, w in preds[v]), default=0))]
            if not changed:
                break
        else:
            _no_solution(problem, changed)
    return steps


def _has_ties(problem: SchedProblem) -> bool:
    return any(isinstance(c, SameCycle) for c in problem.constraints)


def _raise(values: dict[int, int], v: int, new: int) -> bool:
    if new > values[v]:
        values[v] = new
        return True
    return False


def _no_solution(problem: SchedProblem, ops: list[int]) -> None:
    names = ", ".join(problem.label(i) for i in ops[:8])
    raise ScheduleError(f"the client constraints contradict the dependences: no step "
                        f"assignment satisfies them (positive cycle through {names}); "
                        "e.g. a SameCycle tie across a dependence with latency or a chain "
                        "longer than the clock")


def latest_tails(problem: SchedProblem, constraints: list[Constraint]) -> dict[int, int]:
    """For each op, the longest constraint-path weight to any op (0 for the last ones).

    With the horizon ``H`` (the last step), ``step(v) <= H - tail(v)`` in every schedule
    that fits in ``H + 1`` steps and also leaves room for the op's own birth.
    """
    succs: dict[int, list[tuple[int, int]]] = {op.id: [] for op in problem.ops}
    for u, v, w in constraints:
        succs[u].append((v, w))
    tail: dict[int, int] = {}
    order = tuple(reversed(problem.topo_order))
    for u in order:
        base = problem.by_id[u].latency if problem.sink is None else 0
        tail[u] = max([base] + [w + tail[v] for v, w in succs[u] if v in tail])
    if _has_ties(problem):
        for _ in range(len(order) + 1):
            changed = [u for u in order
                       if _raise(tail, u, max([tail[u]] + [w + tail[v] for v, w in succs[u]]))]
            if not changed:
                break
        else:
            _no_solution(problem, changed)
    return tail


def arrivals(problem: SchedProblem,
             steps: Mapping[int, int]) -> tuple[dict[int, float], tuple[int, ...]]:
    """Arrival times (ns) of every op in its step and the tolerated timing violations
    (:meth:`ChainingProblem.arrivals`)."""
    return problem.arrivals(steps)
