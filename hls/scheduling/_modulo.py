"""Modulo scheduling of one loop body: problem, MII, CP-SAT scheduler, IMS fallback.

The problem (:class:`ModuloProblem`) is the block problem of :mod:`hls.scheduling._problem`
with loop-carried dependences: the same :class:`SchedOp` (latency, delay, resource class,
occupancy) and the same timing rules, plus an iteration *distance* on every edge.  A new
iteration starts every ``II`` cycles; op ``v`` of iteration ``n`` issues at absolute cycle
``n*II + step(v)``.  Semantics, which :func:`hls.scheduling.check_modulo_schedule` verifies:

* **Edges.** Every edge ``u -> v`` with distance ``d`` and delay ``w`` (default
  ``latency(u)``) requires ``step(v) + II*d >= step(u) + w``.  A *data* edge (the default
  when no delay is given) carries the value ``u`` produced in iteration ``n`` to ``v`` of
  iteration ``n + d``; when ``step(v) + II*d == step(u) + latency(u)`` it is used
  combinationally in the cycle it is born (*chaining*, also across iterations).  A data
  edge may have a delay ``> latency(u)`` (e.g. a recurrence forced through a register),
  then it is never chained.  An *order* edge (a delay given, ``data`` not set) carries no
  value (memory ordering: ``w = 1`` store -> load of the next iteration, ``d = 1``).
* **Timing.** As for blocks (``_problem``), with "chained" meaning the absolute cycles
  coincide: ``in(v)`` = max ``out(u)`` over data edges with
  ``step(v) + II*d == step(u) + latency(u)``; a combinational op arrives at
  ``in + delay``, a multi-cycle op's inputs arrive at ``in`` and its output leaves at
  ``delay`` (clock-to-out).  Every arrival must be ``<= clock_period_ns``, except an op whose
  own delay exceeds the clock with nothing chained in front (tolerated, reported in
  :attr:`ModuloSchedule.timing_violations`).
* **Resources (modulo reservation table).** An op of class ``r`` with occupancy ``o`` keeps
  a unit busy in the absolute cycles ``step .. step + o - 1`` of every iteration, i.e. in
  the slots ``(step + k) mod II``; in every slot the busy ops of ``r`` number at most
  ``resources[r]`` (an op with ``o > II`` counts once per wrap).  Classes absent from
  ``resources`` (and ``resource=None``) are unlimited.  A dual-port memory is a class with 2
  units, a duplicated ROM a class with 2 * copies units.
* **Depth and stages.** ``depth = max(step + latency) + 1`` (the block convention without a
  sink: every result of an iteration is born by its last cycle), ``stages =
  ceil(depth / II)``, ``stage(v) = step(v) // II``.
* **Objective.** The smallest II; at that II the smallest depth; then the smallest register
  pressure, the sum over values of their lifetime ``max(step(v) + II*d) - (step(u) +
  latency(u))`` over their consumers (cycles a value is held after its birth).

Every constraint except resources is a difference constraint with an II-parametric weight,
``step(v) - step(u) >= w - II*D`` (:func:`modulo_constraints`): edges, and the chaining
constraints of :mod:`hls.scheduling._constraints` generalised to paths that cross iterations
(``D`` = the path's total distance).  Hence

* ``RecMII`` (:func:`compute_mii`) is exactly the least ``II >= 1`` with no positive cycle
  in that graph (Bellman-Ford, binary search): ``max over cycles of ceil(sum w / sum D)``,
  chaining included (a recurrence of combinational ops that fits in one clock has
  ``RecMII = 1``; one that does not is cut by a chaining constraint of weight 1).
  ``ResMII = max over limited classes of ceil(total occupancy / units)`` (Rau 1996).
* :func:`modulo_schedule` tries ``II = MII, MII+1, ...``.  At each II it first runs Rau's
  iterative modulo scheduling (:func:`iterative_modulo_schedule`; B. R. Rau, "Iterative
  Modulo Scheduling", IJPP 24(1), 1996) as a hint and upper bound, then an exact CP-SAT
  model in the style of Eichenberger & Davidson (PLDI 1997) / Moovac (Oppermann et al.
  2016): integer start times ``s_i = II*k_i + r_i``, one boolean per op and modulo slot for
  every over-subscribed class, at most ``units`` busy per slot (plus, for propagation, a
  ``NoOverlap``/``Cumulative`` over the slot circle unrolled twice), and the difference
  constraints.  Without an over-subscribed class the resource-free least solution is the
  hint; when the hint already meets the depth lower bound, the depth solve is skipped.
  The II grows only when CP-SAT *proves* the II infeasible, or when neither
  CP-SAT (timed out) nor IMS found a schedule (then optimality of the II is unknown).
  Infeasibility proofs are sound: the start-time horizon is the bound
  ``II*(K + 1)`` where ``K`` bounds the least iteration offsets of any slot assignment (see
  :func:`_horizon`).
* At the chosen II, CP-SAT minimises the depth, then the register pressure at that depth:
  exactly with the modulo slots of the over-subscribed classes kept (only the iteration
  offsets move: a difference system, solved fast), then by a short search over all slots
  from there (best effort).  One worker and a fixed seed with deterministic-time limits make
  the result reproducible (``workers > 1`` trades that for speed).

The last resort, always valid, is the non-overlapped schedule: the block's list schedule
(:func:`hls.scheduling.asap_schedule` on the distance-0 graph) with ``II`` larger than its
length, which no loop-carried edge or chain can reach.
"""

from __future__ import annotations

import dataclasses
import heapq
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType

from hls.errors import ScheduleError

from ._asap import asap_schedule
from ._family import (
    ChainingProblem,
    ChannelSendBeforeReceive,
    Constraint,
    CyclicProblem,
    OrderConstraint,
    SameCycle,
    SharedOperatorsProblem,
)
from ._problem import SchedEdge, SchedOp, SchedProblem
from ._resources import Resource

#: ``(u, v, w, D)``: ``step(v) - step(u) >= w - II*D``.
ModConstraint = tuple[int, int, int, int]


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


# -- problem ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ModuloEdge:
    """An edge to the op ``distance`` iterations later: ``step(dst) + II*distance >=
    step(src) + delay`` (``delay=None``: the latency of ``src``).  ``data``: a value flows
    (chaining applies); default: ``True`` without a delay, ``False`` (order edge) with one."""

    src: int
    dst: int
    distance: int = 0
    delay: int | None = None
    data: bool | None = None

    @property
    def is_data(self) -> bool:
        return self.delay is None if self.data is None else self.data

    def weight(self, problem: ModuloProblem) -> int:
        """The delay in cycles (``latency(src)`` by default)."""
        return problem.by_id[self.src].latency if self.delay is None else self.delay

    def chainable(self, problem: ModuloProblem) -> bool:
        """A data edge whose delay is the producer's latency (so it may be chained)."""
        return self.is_data and self.weight(problem) == problem.by_id[self.src].latency


@dataclass(frozen=True)
class ModuloProblem(CyclicProblem, ChainingProblem, SharedOperatorsProblem):
    """One loop body to modulo-schedule (see the module docstring for the semantics).

    ``constraints``: client constraints (:class:`hls.scheduling.OrderConstraint` with an
    iteration distance, :class:`hls.scheduling.SameCycle`) on top of the edges."""

    ops: tuple[SchedOp, ...]
    edges: tuple[ModuloEdge, ...]
    resources: Mapping[Resource | str, int] = field(default_factory=dict)
    clock_period_ns: float = 10.0
    name: str = ""
    constraints: tuple[Constraint, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "ops", tuple(self.ops))
        object.__setattr__(self, "edges", tuple(self.edges))
        object.__setattr__(self, "resources", MappingProxyType(dict(self.resources)))
        object.__setattr__(self, "constraints", tuple(self.constraints))
        self._validate()

    @classmethod
    def from_block(cls, problem: SchedProblem, carried: Iterable[ModuloEdge] = (),
                   name: str = "") -> ModuloProblem:
        """The loop body ``problem`` (a block problem; its sink becomes an ordinary op) with
        the loop-carried edges ``carried`` added."""
        edges = [ModuloEdge(e.src, e.dst, 0, e.min_distance) for e in problem.edges]
        return cls(problem.ops, tuple(edges) + tuple(carried), problem.resources,
                   problem.clock_period_ns, name, problem.constraints)

    # -- validation -------------------------------------------------------------------

    def _validate(self) -> None:
        where = self._where()
        for op in self.ops:
            if not isinstance(op, SchedOp):
                raise ScheduleError(f"{where}ops must be SchedOp, not {type(op).__name__}")
        self._validate_timing()
        seen = self._validate_ops()
        self._validate_resources()
        for e in self.edges:
            if not isinstance(e, ModuloEdge):
                raise ScheduleError(f"{where}edges must be ModuloEdge, not {type(e).__name__}")
            for end in (e.src, e.dst):
                if end not in seen:
                    raise ScheduleError(f"{where}edge {e.src} -> {e.dst} refers to unknown op {end}")
            if not _is_int(e.distance) or e.distance < 0:
                raise ScheduleError(f"{where}edge {self.label(e.src)} -> {self.label(e.dst)}: "
                                    f"distance must be an int >= 0, not {e.distance!r}")
            if e.delay is not None and (not _is_int(e.delay) or e.delay < 0):
                raise ScheduleError(f"{where}edge {self.label(e.src)} -> {self.label(e.dst)}: "
                                    f"delay must be an int >= 0, not {e.delay!r}")
            if e.data is not None and not isinstance(e.data, bool):
                raise ScheduleError(f"{where}edge {self.label(e.src)} -> {self.label(e.dst)}: "
                                    f"data must be a bool or None, not {e.data!r}")
            if e.is_data and e.weight(self) < self.by_id[e.src].latency:
                raise ScheduleError(f"{where}data edge {self.label(e.src)} -> "
                                    f"{self.label(e.dst)}: delay must be >= the latency "
                                    f"{self.by_id[e.src].latency} of its source, not {e.delay}")
            if e.src == e.dst and e.distance == 0:
                raise ScheduleError(f"{where}self edge on {self.label(e.src)} must have a "
                                    "distance >= 1, not 0")
        self._validate_constraints(seen)
        _ = self.topo_order  # raises on a cycle of distance-0 edges

    # -- derived indexes (cached; not part of equality) --------------------------------

    @cached_property
    def topo_order(self) -> tuple[int, ...]:
        """Deterministic topological order (smallest id first) of the distance-0 edges."""
        return self._topo("cycle of distance-0 edges among ops {names} "
                          "(every recurrence must have a distance >= 1)")


# -- results ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MIIInfo:
    """``mii = max(res_mii, rec_mii)``; ``limiting`` names the critical recurrence (op
    labels around the cycle) or resource class, ``"none"`` when both are 1."""

    mii: int
    res_mii: int
    rec_mii: int
    limiting: str


@dataclass(frozen=True, slots=True)
class IIAttempt:
    """One tried II.  ``status``: ``"infeasible"`` (proven by CP-SAT), ``"optimal"`` (a
    schedule of proven-minimum depth), ``"feasible"`` (CP-SAT schedule, depth not proven),
    ``"ims"`` (CP-SAT timed out, the IMS schedule is used), ``"unknown"`` (nothing found,
    nothing proven), ``"fallback"`` (the non-overlapped schedule)."""

    ii: int
    status: str
    seconds: float


@dataclass(frozen=True)
class ModuloSchedule:
    """A modulo schedule: ``steps`` (op id -> start cycle within its iteration, >= 0),
    ``ii``, ``depth``/``stages`` (see the module docstring), ``optimal_ii`` (proven: II ==
    MII or every smaller II proven infeasible), ``depth_optimal`` (proven minimum at this
    II), ``register_pressure`` (the secondary objective's value), ``arrival_ns`` and
    ``timing_violations`` as for blocks, ``attempts`` (one per tried II) and ``method``
    (``"cpsat"``, ``"ims"`` or ``"fallback"``)."""

    ii: int
    steps: Mapping[int, int]
    depth: int
    stages: int
    optimal_ii: bool
    depth_optimal: bool
    register_pressure: int
    mii: MIIInfo
    attempts: tuple[IIAttempt, ...]
    method: str
    arrival_ns: Mapping[int, float]
    timing_violations: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "steps", MappingProxyType(dict(sorted(self.steps.items()))))
        object.__setattr__(self, "arrival_ns",
                           MappingProxyType(dict(sorted(self.arrival_ns.items()))))
        object.__setattr__(self, "attempts", tuple(self.attempts))
        object.__setattr__(self, "timing_violations", tuple(self.timing_violations))

    def to_json(self) -> dict:
        """A JSON-ready dict (op ids become string keys, as JSON objects require)."""
        m = self.mii
        return {"kind": "modulo", "ii": self.ii,
                "steps": {str(i): s for i, s in self.steps.items()},
                "depth": self.depth, "stages": self.stages, "optimal_ii": self.optimal_ii,
                "depth_optimal": self.depth_optimal,
                "register_pressure": self.register_pressure,
                "mii": {"mii": m.mii, "res_mii": m.res_mii, "rec_mii": m.rec_mii,
                        "limiting": m.limiting},
                "attempts": [[a.ii, a.status, a.seconds] for a in self.attempts],
                "method": self.method,
                "arrival_ns": {str(i): t for i, t in self.arrival_ns.items()},
                "timing_violations": list(self.timing_violations)}

    @classmethod
    def from_json(cls, data: Mapping) -> ModuloSchedule:
        """Inverse of :meth:`to_json`."""
        if data.get("kind") != "modulo":
            raise ScheduleError(f"not a modulo schedule: kind {data.get('kind')!r}")
        return cls(data["ii"], {int(i): s for i, s in data["steps"].items()}, data["depth"],
                   data["stages"], data["optimal_ii"], data["depth_optimal"],
                   data["register_pressure"], MIIInfo(**data["mii"]),
                   tuple(IIAttempt(*a) for a in data["attempts"]), data["method"],
                   {int(i): t for i, t in data["arrival_ns"].items()},
                   tuple(data["timing_violations"]))

    def stage(self, op_id: int) -> int:
        return self.steps[op_id] // self.ii

    def slot(self, op_id: int) -> int:
        return self.steps[op_id] % self.ii

    def to_text(self, problem: ModuloProblem) -> str:
        """Stable dump: a header, one line per step (ops sorted by id), the reservation
        table of the limited classes."""
        m = self.mii
        lines = [f"modulo schedule{' ' + problem.name if problem.name else ''}: ii={self.ii} "
                 f"(mii={m.mii} res={m.res_mii} rec={m.rec_mii}) depth={self.depth} "
                 f"stages={self.stages} pressure={self.register_pressure} "
                 f"optimal_ii={self.optimal_ii} clock={problem.clock_period_ns:.2f}ns"]
        per_step: dict[int, list[int]] = {}
        for i, s in self.steps.items():
            per_step.setdefault(s, []).append(i)
        for s in range(self.depth):
            items = []
            for i in sorted(per_step.get(s, ())):
                op = problem.op(i)
                txt = f"{op.name}({i})@{self.arrival_ns.get(i, 0.0):.2f}"
                if op.latency:
                    txt += f"+{op.latency}"
                if op.resource is not None:
                    txt += f"[{op.resource}]"
                items.append(txt)
            lines.append(f"  {s} (stage {s // self.ii}, slot {s % self.ii}): "
                         f"{' '.join(items)}".rstrip())
        for r, ids in problem.limited.items():
            table = _reservation(problem, self.steps, self.ii, ids)
            cells = " ".join(str(len(table[t])) for t in range(self.ii))
            lines.append(f"  mrt {r}/{problem.resources[r]}: {cells}")
        if self.timing_violations:
            lines.append("  timing violations: " +
                         " ".join(problem.label(i) for i in self.timing_violations))
        return "\n".join(lines) + "\n"


def _reservation(problem: ModuloProblem, steps: Mapping[int, int], ii: int,
                 ids: Iterable[int]) -> list[list[int]]:
    table: list[list[int]] = [[] for _ in range(ii)]
    for i in ids:
        for k in range(problem.by_id[i].occupancy):
            table[(steps[i] + k) % ii].append(i)
    return table


# -- difference constraints ---------------------------------------------------------------


def modulo_constraints(problem: ModuloProblem) -> list[ModConstraint]:
    """Every non-resource constraint as ``(u, v, w, D)``: ``step(v) - step(u) >= w - II*D``.

    Edges give their delay ``w`` (by default ``latency(u)``) with ``D = distance``, client
    constraints theirs (:meth:`OrderConstraint.difference`, :meth:`SameCycle.difference`).
    Chaining gives, for every data path ``u -> ... -> v`` through combinational ops whose
    delay (as in :mod:`hls.scheduling._constraints`) exceeds the clock, ``w = latency(u) +
    1`` with ``D`` = the path's distance (:meth:`ChainingProblem.chaining_constraints`, the
    search the block's SDC system uses too).  Along such a path the edges have non-negative
    slack and sum to ``latency(u)``, so the constraint forbids exactly "every edge of the
    path chained in one cycle".
    Returned sorted, the strongest ``w`` per ``(u, v, D)``.
    """
    best: dict[tuple[int, int, int], int] = {}

    def add(u: int, v: int, w: int, d: int) -> None:
        key = (u, v, d)
        if best.get(key, -1) < w:
            best[key] = w

    for e in problem.edges:
        add(e.src, e.dst, e.weight(problem), e.distance)
    for c in problem.constraints:
        for u, v, w, d in c.difference():
            add(u, v, w, d)
    for u, v, w, d in problem.chaining_constraints():
        add(u, v, w, d)
    return sorted((u, v, w, d) for (u, v, d), w in best.items())


def _longest(ids: Iterable[int], cons: list[ModConstraint], ii: int, reverse: bool = False,
             base: Mapping[int, int] | None = None) -> dict[int, int] | None:
    """Longest paths (Bellman-Ford) from a virtual source with weight ``base[i]`` (0) to
    every op in the graph of weights ``w - II*D``; ``None`` on a positive cycle.  With
    ``reverse`` the edges are reversed (longest path to the end)."""
    dist, cycle = _bellman_ford(ids, cons, ii, reverse, base)
    return None if cycle else dist


def _bellman_ford(ids: Iterable[int], cons: list[ModConstraint], ii: int, reverse: bool = False,
                  base: Mapping[int, int] | None = None) -> tuple[dict[int, int], list[int]]:
    """``(distances, [])`` as :func:`_longest`, or ``(partial, cycle)`` with the ops of
    a positive cycle (in arc order) when there is one.

    The arcs go in depth-first order (:func:`_in_depth_order`), and after every pass
    that changed a distance the predecessor graph is searched for a cycle: one there is
    a positive cycle (Cherkassky and Goldberg, "Negative-cycle detection algorithms",
    1999), found long before the ``n`` passes that prove it otherwise."""
    dist = {i: (base[i] if base else 0) for i in ids}
    arcs = _in_depth_order(dist, [((v, u) if reverse else (u, v), w - ii * d)
                                  for u, v, w, d in cons])
    pred: dict[int, int] = {}
    for _ in range(len(dist) + 1):
        changed = False
        for (a, b), c in arcs:
            if dist[a] + c > dist[b]:
                dist[b] = dist[a] + c
                pred[b] = a
                changed = True
        if not changed:
            return dist, []
        cycle = _pred_cycle(pred)
        if cycle:
            return dist, cycle
    raise AssertionError("Bellman-Ford: no fixpoint after n passes but no cycle of "
                         "predecessors")  # pragma: no cover - a cycle must exist


def _pred_cycle(pred: Mapping[int, int]) -> list[int]:
    """The nodes of a cycle of ``pred`` (in the direction of the arcs), or ``[]``."""
    done: dict[int, int] = {}        # node -> the walk that reached it
    for k, start in enumerate(pred):
        x = start
        while x in pred and x not in done:
            done[x] = k
            x = pred[x]
        if done.get(x) == k:
            cycle = [x]
            y = pred[x]
            while y != x:
                cycle.append(y)
                y = pred[y]
            cycle.reverse()
            return cycle
    return []


def _in_depth_order(ids: Iterable[int], arcs: list) -> list:
    """``arcs`` (``((a, b), c)``) sorted by the reverse postorder of their source in a
    depth-first search of their graph: an acyclic graph's arcs in topological order, so
    that one Bellman-Ford pass carries a distance along a whole path, and the passes
    only count the arcs that go back (the loop-carried ones).  The distances do not
    depend on the order, only the number of passes to reach them."""
    succ: dict[int, list[int]] = {}
    for (a, b), _ in arcs:
        succ.setdefault(a, []).append(b)
    rank: dict[int, int] = {}
    seen: set[int] = set()
    post: list[int] = []
    for root in ids:
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(succ.get(root, ())))]
        while stack:
            node, it = stack[-1]
            for nxt in it:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, iter(succ.get(nxt, ()))))
                    break
            else:
                stack.pop()
                post.append(node)
    for k, node in enumerate(reversed(post)):
        rank[node] = k
    return sorted(arcs, key=lambda arc: rank[arc[0][0]])


def _positive_cycle(ids: list[int], cons: list[ModConstraint], ii: int) -> list[int]:
    """The ops around one positive cycle of weights ``w - II*D`` (there must be one),
    from the smallest id (deterministic text)."""
    cycle = _bellman_ford(ids, cons, ii)[1]
    assert cycle, "no positive cycle"
    k = cycle.index(min(cycle))
    return cycle[k:] + cycle[:k]


# -- MII ------------------------------------------------------------------------------------


def res_mii(problem: ModuloProblem) -> tuple[int, str | None]:
    """``max over limited classes of ceil(total occupancy / units)`` and the class."""
    best, which = 1, None
    for r, ids in problem.limited.items():
        need = -(-sum(problem.by_id[i].occupancy for i in ids) // problem.resources[r])
        if need > best:
            best, which = need, r
    return best, which


def rec_mii(problem: ModuloProblem, cons: list[ModConstraint] | None = None) -> tuple[int, list[int]]:
    """The least ``II >= 1`` with no positive cycle (exact, chaining included) and the ops
    of a critical recurrence (empty if the bound is 1 and no recurrence forces it)."""
    if cons is None:
        cons = modulo_constraints(problem)
    ids = [op.id for op in problem.ops]
    if _longest(ids, cons, 1) is not None:
        return 1, []
    lo, hi = 1, max(2, sum(w for _, _, w, _ in cons) + 1)  # infeasible at lo, feasible at hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _longest(ids, cons, mid) is None:
            lo = mid
        else:
            hi = mid
    return hi, _positive_cycle(ids, cons, hi - 1)


def compute_mii(problem: ModuloProblem, cons: list[ModConstraint] | None = None) -> MIIInfo:
    """``MIIInfo(mii, res_mii, rec_mii, limiting)``; see the module docstring."""
    if cons is None:
        cons = modulo_constraints(problem)
    res, res_class = res_mii(problem)
    rec, cycle = rec_mii(problem, cons)
    parts = []
    if cycle and rec >= res:
        ring = " -> ".join(problem.label(i) for i in cycle + cycle[:1])
        parts.append(f"recurrence {ring}")
    if res_class is not None and res >= rec:
        uses = sum(problem.by_id[i].occupancy for i in problem.limited[res_class])
        parts.append(f"resource '{res_class}' ({uses} uses / {problem.resources[res_class]} units)")
    return MIIInfo(max(res, rec), res, rec, "; ".join(parts) or "none")


# -- iterative modulo scheduling (Rau 1996) ----------------------------------------------


def iterative_modulo_schedule(problem: ModuloProblem, ii: int, budget_ratio: int = 20,
                              cons: list[ModConstraint] | None = None) -> dict[int, int] | None:
    """Rau's iterative modulo scheduling at ``ii``: steps (>= 0, min 0) or ``None``.

    Ops are placed by decreasing height (longest constraint path to the end, ties by id) in
    the first cycle of ``[Estart, Estart + II - 1]`` whose modulo slots have free units;
    when none has, the op is forced at ``Estart`` (or one past its previous cycle) and the
    ops holding the needed slots, then the successors it now violates, are unscheduled.
    The run gives up after ``budget_ratio * len(ops)`` placements.  Deterministic.
    """
    if cons is None:
        cons = modulo_constraints(problem)
    by_id = problem.by_id
    ids = [op.id for op in problem.ops]
    height = _longest(ids, cons, ii, reverse=True, base={i: by_id[i].latency for i in ids})
    if height is None:
        return None  # below RecMII
    preds: dict[int, list[tuple[int, int]]] = {i: [] for i in ids}
    succs: dict[int, list[tuple[int, int]]] = {i: [] for i in ids}
    for u, v, w, d in cons:
        preds[v].append((u, w - ii * d))
        succs[u].append((v, w - ii * d))
    units = {r: problem.resources[r] for r in problem.limited}
    for r, ids_r in problem.limited.items():
        for i in ids_r:
            if -(-by_id[i].occupancy // ii) > units[r]:
                return None  # one op alone over-fills a slot
    mrt: dict[str, list[list[int]]] = {r: [[] for _ in range(ii)] for r in units}
    sched: dict[int, int] = {}
    prev: dict[int, int] = {}
    prio = {i: (-height[i], i) for i in ids}
    pending = [prio[i] for i in ids]
    heapq.heapify(pending)
    queued = set(ids)

    def slots(i: int, t: int) -> list[int]:
        return [(t + k) % ii for k in range(by_id[i].occupancy)]

    def fits(i: int, t: int) -> bool:
        r = by_id[i].resource
        if r not in mrt:
            return True
        need: dict[int, int] = {}
        for sl in slots(i, t):
            need[sl] = need.get(sl, 0) + 1
        return all(len(mrt[r][sl]) + n <= units[r] for sl, n in need.items())

    def unschedule(j: int) -> None:
        r = by_id[j].resource
        if r in mrt:
            for sl in slots(j, sched[j]):
                mrt[r][sl].remove(j)
        del sched[j]
        if j not in queued:
            queued.add(j)
            heapq.heappush(pending, prio[j])

    budget = budget_ratio * max(1, len(ids))
    while pending and budget > 0:
        _, i = heapq.heappop(pending)
        queued.discard(i)
        budget -= 1
        estart = max([0] + [sched[u] + c for u, c in preds[i] if u in sched])
        t = next((x for x in range(estart, estart + ii) if fits(i, x)), None)
        if t is None:
            t = estart if i not in prev or estart > prev[i] else prev[i] + 1
            r = by_id[i].resource
            for sl in slots(i, t):
                # evict the lowest-priority holders until this op's uses of the slot fit
                need = slots(i, t).count(sl)
                while len(mrt[r][sl]) + need > units[r]:
                    unschedule(max(mrt[r][sl], key=lambda j: prio[j]))
        for v, c in succs[i]:
            if v in sched and v != i and sched[v] < t + c:
                unschedule(v)
        sched[i] = t
        prev[i] = t
        r = by_id[i].resource
        if r in mrt:
            for sl in slots(i, t):
                mrt[r][sl].append(i)
    if pending:
        return None
    low = min(sched.values(), default=0)
    return {i: t - low for i, t in sched.items()}


# -- the scheduler ----------------------------------------------------------------------------


def modulo_schedule(problem: ModuloProblem, ii: int | None = None, max_ii: int | None = None,
                    time_limit_s: float = 10.0, seed: int = 0, workers: int = 1) -> ModuloSchedule:
    """A modulo schedule of ``problem`` of minimum II, then depth, then register pressure.

    ``ii``: schedule at exactly this II (error if it is below the MII or infeasible).
    ``max_ii``: give up (error) beyond it.  ``time_limit_s``: the budget per II, as in
    :func:`hls.scheduling.sdc_schedule`: CP-SAT's deterministic-time limit is a tenth of it
    for the depth solve (a fortieth when iterative modulo scheduling gave no hint: the
    search for a first solution), a fortieth and a two-hundredth for the pressure solves (slots
    fixed, then free); ``time_limit_s`` of wall-clock time is a per-solve safety net.
    ``seed``/``workers``: CP-SAT's; one worker gives reproducible results.
    The first CP-SAT solve in a process pays OR-Tools' start-up (~0.3-1 s).
    """
    cons = modulo_constraints(problem)
    info = compute_mii(problem, cons)
    memo, key = _memo.get(), None
    if memo is not None:
        key, ids = _memo_key(problem, (ii, max_ii, time_limit_s, seed, workers))
        if key is not None and key in memo:
            ii_, by_rank, attempts, method, optimal_ii, depth_opt = memo[key]
            return _finish(problem, ii_, {ids[r]: s for r, s in enumerate(by_rank)}, info,
                           attempts, method, optimal_ii, depth_opt)
    ms = _modulo_schedule(problem, cons, info, ii, max_ii, time_limit_s, seed, workers)
    if key is not None:
        memo[key] = (ms.ii, tuple(ms.steps[i] for i in ids), ms.attempts, ms.method,
                     ms.optimal_ii, ms.depth_optimal)
    return ms


#: problems solved in this :func:`schedule_memo` (None outside one)
_memo: ContextVar[dict | None] = ContextVar("modulo_schedule_memo", default=None)


@contextmanager
def schedule_memo() -> Iterator[None]:
    """Within it, :func:`modulo_schedule` answers a problem it has solved before from
    memory: one with the same ops, edges, constraints, resources, clock, name and
    options, its op ids renumbered in the same order (a loop a planning trial schedules
    again, lowered once more from a clone).  Every solver orders ops by id (ties, the
    topological order, the sorted constraints), so such a problem has the same schedule;
    the MII and the timing are computed for the problem asked.  Scoped to one synthesis,
    so its result does not depend on what the process built before."""
    tok = _memo.set({})
    try:
        yield
    finally:
        _memo.reset(tok)


def _memo_key(problem: ModuloProblem, options: tuple) -> tuple[str | None, list[int]]:
    """``(key, ids in order)``: ``problem`` with every op id replaced by its rank among
    the ids, as text; ``(None, ids)`` when a constraint is of a type it does not know
    (its op ids could not be renumbered)."""
    ids = sorted(op.id for op in problem.ops)
    rank = {i: r for r, i in enumerate(ids)}
    cs = []
    for c in problem.constraints:
        if type(c) in (OrderConstraint, ChannelSendBeforeReceive):
            cs.append(dataclasses.replace(c, src=rank[c.src], dst=rank[c.dst]))
        elif type(c) is SameCycle:
            cs.append(dataclasses.replace(c, a=rank[c.a], b=rank[c.b]))
        else:
            return None, ids
    key = (problem.name, problem.clock_period_ns, options,
           sorted((repr(r), n) for r, n in problem.resources.items()),
           [dataclasses.replace(op, id=rank[op.id]) for op in problem.ops],
           [dataclasses.replace(e, src=rank[e.src], dst=rank[e.dst]) for e in problem.edges],
           cs)
    return repr(key), ids


def _modulo_schedule(problem: ModuloProblem, cons: list[ModConstraint], info: MIIInfo,
                     ii: int | None, max_ii: int | None, time_limit_s: float, seed: int,
                     workers: int) -> ModuloSchedule:
    where = f"modulo schedule of {problem.name!r}: " if problem.name else "modulo schedule: "
    if ii is not None:
        if not _is_int(ii) or ii < info.mii:
            raise ScheduleError(f"{where}II must be >= the MII {info.mii} ({info.limiting}), "
                                f"not {ii!r}")
        first, last = ii, ii
    else:
        first, last = info.mii, max_ii if max_ii is not None else None
    if last is not None and last < first:
        raise ScheduleError(f"{where}max_ii must be >= the MII {info.mii} ({info.limiting}), "
                            f"not {last}")
    flat_steps, flat_ii = _non_overlapped(problem)
    attempts: list[IIAttempt] = []
    proven = first == info.mii  # every II from the MII up to the current one is infeasible
    cur = first
    while True:
        t0 = time.perf_counter()
        status, steps, depth_opt = _schedule_at(problem, cons, cur, time_limit_s, seed, workers)
        method = "cpsat" if status in ("optimal", "feasible") else "ims"
        if steps is None and cur >= flat_ii:
            # never seen in practice: IMS or CP-SAT succeed first
            status, steps, depth_opt, method = "fallback", flat_steps, False, "fallback"
        attempts.append(IIAttempt(cur, status, time.perf_counter() - t0))
        if steps is not None:
            return _finish(problem, cur, steps, info, attempts, method,
                           optimal_ii=(cur == info.mii or proven), depth_optimal=depth_opt)
        if status != "infeasible":
            proven = False
        if last is not None and cur >= last:
            tried = ", ".join(f"{a.ii}: {a.status}" for a in attempts)
            raise ScheduleError(f"{where}no schedule with II <= {last} (tried {tried})")
        cur += 1


def _finish(problem: ModuloProblem, ii: int, steps: dict[int, int], info: MIIInfo,
            attempts: list[IIAttempt], method: str, optimal_ii: bool,
            depth_optimal: bool) -> ModuloSchedule:
    low = min(steps.values(), default=0)
    steps = {i: s - low for i, s in steps.items()}
    depth = max((steps[op.id] + op.latency for op in problem.ops), default=-1) + 1
    arr, viol = problem.arrivals(steps, ii)
    return ModuloSchedule(ii, steps, depth, -(-depth // ii), optimal_ii, depth_optimal,
                          register_pressure(problem, steps, ii), info, tuple(attempts), method,
                          arr, viol)


def register_pressure(problem: ModuloProblem, steps: Mapping[int, int], ii: int) -> int:
    """Sum over producers of ``max(0, max over data consumers (step(v) + II*d) - birth)``."""
    life: dict[int, int] = {}
    by_id = problem.by_id
    for e in problem.edges:
        if e.is_data:
            t = steps[e.dst] + ii * e.distance - steps[e.src] - by_id[e.src].latency
            life[e.src] = max(life.get(e.src, 0), t)
    return sum(life.values())


def _non_overlapped(problem: ModuloProblem) -> tuple[dict[int, int], int]:
    """The block list schedule of the distance-0 graph and an II (> its length and every
    busy cycle and loop-carried order delay) at which it is a valid modulo schedule:
    iterations do not overlap, so no carried edge is violated or chained."""
    edges = []
    for e in problem.edges:
        if e.distance == 0:
            edges.append(SchedEdge(e.src, e.dst, None if e.chainable(problem) else e.weight(problem)))
    inner = tuple(c for c in problem.constraints
                  if not (isinstance(c, OrderConstraint) and c.distance > 0))
    block = SchedProblem(problem.ops, tuple(dict.fromkeys(edges)), problem.resources,
                         problem.clock_period_ns, constraints=inner)
    steps = dict(asap_schedule(block).steps)
    length = max((steps[op.id] + op.latency for op in problem.ops), default=-1) + 1
    ii = max([1, length + 1] + [steps[op.id] + op.occupancy for op in problem.ops] +
             [steps[e.src] + e.weight(problem) - steps[e.dst] + 1
              for e in problem.edges if e.distance > 0] +
             [steps[c.src] + c.min_distance - steps[c.dst] + 1 for c in problem.constraints
              if isinstance(c, OrderConstraint) and c.distance > 0])
    return steps, ii


def _horizon(problem: ModuloProblem, cons: list[ModConstraint], ii: int) -> int:
    """A bound ``H`` such that if any schedule exists at ``ii``, one exists with every
    step in ``[0, H)``.

    Fix any feasible schedule's slots ``r``; the offsets ``k`` (``s = II*k + r``) must only
    satisfy ``k_v - k_u >= ceil((w - II*D + r_u - r_v) / II)``, a difference system whose
    least solution (from a virtual source of weight 0) keeps the slots, hence the
    resources, and is at most the heaviest simple path: ``K = sum over u of max(0, max over
    constraints from u of ceil((w - II*D + II - 1) / II))``.  So ``H = II*(K + 1)``.
    """
    out: dict[int, int] = {}
    for u, _, w, d in cons:
        c = -(-(w - ii * d + ii - 1) // ii)
        if c > out.get(u, 0):
            out[u] = c
    return ii * (sum(out.values()) + 1)


def _schedule_at(problem: ModuloProblem, cons: list[ModConstraint], ii: int,
                 time_limit_s: float, seed: int,
                 workers: int) -> tuple[str, dict[int, int] | None, bool]:
    """``(status, steps or None, depth proven optimal)`` at ``ii`` (see IIAttempt)."""
    by_id = problem.by_id
    ids = [op.id for op in problem.ops]
    if not ids:
        return "optimal", {}, True
    lower = _longest(ids, cons, ii)
    if lower is None:
        return "infeasible", None, False  # below RecMII (only with an explicit ii)
    tail = _longest(ids, cons, ii, reverse=True, base={i: by_id[i].latency for i in ids})
    assert tail is not None
    last_lb = max(lower[i] + by_id[i].latency for i in ids)
    binding = {r: v for r, v in problem.limited.items()
               if sum(by_id[i].occupancy for i in v) > problem.resources[r]}
    if not binding:
        hint = dict(lower)  # resource-free least solution: feasible and of minimum depth
    else:
        hint = iterative_modulo_schedule(problem, ii, cons=cons)
    if hint is not None:
        hint_last = max(hint[i] + by_id[i].latency for i in ids)
        hi_last = hint_last
    else:
        hint_last = None
        hi_last = _horizon(problem, cons, ii) - 1 + max(by_id[i].latency for i in ids)
    model = _ModuloModel(problem, cons, ii, binding, lower, tail, hi_last, last_lb)
    if hint is not None and hint_last == last_lb:
        steps, depth_opt, status = hint, True, "optimal"
    else:
        # det. limit: 1/10 of the budget, 1/40 without a hint: where iterative modulo
        # scheduling found nothing, CP-SAT rarely finds a first solution late (blowfish's
        # 600-op loops: six such solves at IIs below the one reached, 6-10 s each, all
        # timed out), and the next II is tried anyway
        res = model.solve_depth(hint, time_limit_s, seed, workers,
                                share=10 if hint is not None else 40)
        if res == "infeasible":
            return "infeasible", None, False
        if res is None:
            if hint is None:
                return "unknown", None, False
            steps, depth_opt, status = hint, False, "ims"
        else:
            steps, depth_opt = res
            status = "optimal" if depth_opt else "feasible"
    best_last = max(steps[i] + by_id[i].latency for i in ids)
    # register pressure at that depth: first exactly with the modulo slots of the binding
    # classes kept (a difference system: fast), then a short search over every slot.
    slots = {i: steps[i] % ii for ids_r in binding.values() for i in ids_r}
    fixed = _ModuloModel(problem, cons, ii, binding, lower, tail, best_last, last_lb, slots)
    steps = fixed.solve_pressure(steps, best_last, time_limit_s, seed, workers, 40) or steps
    if binding:
        steps = model.solve_pressure(steps, best_last, time_limit_s, seed, workers, 200) or steps
    return status, steps, depth_opt


class _ModuloModel:
    """The CP-SAT model at one II (build in ``__init__``, one ``add_*`` per family of
    constraints, then :meth:`solve_depth` / :meth:`solve_pressure`)."""

    def __init__(self, problem: ModuloProblem, cons: list[ModConstraint], ii: int,
                 binding: Mapping[str, tuple[int, ...]], lower: Mapping[int, int],
                 tail: Mapping[int, int], hi_last: int, last_lb: int,
                 slots: Mapping[int, int] | None = None) -> None:
        from ortools.sat.python import cp_model

        self.cp_model = cp_model
        self.problem, self.cons, self.ii = problem, cons, ii
        self.m = cp_model.CpModel()
        self.s: dict[int, object] = {}
        self.last = None
        self.add_start_vars(lower, tail, hi_last, last_lb)
        self.add_dependence_constraints()
        if slots is None:
            self.add_modulo_resource_constraints(binding)
        else:
            self.add_fixed_slot_constraints(slots)

    def add_start_vars(self, lower: Mapping[int, int], tail: Mapping[int, int], hi_last: int,
                       last_lb: int) -> None:
        m, by_id = self.m, self.problem.by_id
        self.bounds: dict[int, tuple[int, int]] = {}
        for op in self.problem.ops:
            # s + tail <= last: tail is the longest constraint path to the end of the body
            lo, hi = lower[op.id], max(lower[op.id], hi_last - tail[op.id])
            self.bounds[op.id] = (lo, hi)
            self.s[op.id] = m.NewIntVar(lo, hi, f"s{op.id}")
        self.last = m.NewIntVar(last_lb, max(last_lb, hi_last), "last")
        for i, var in self.s.items():
            m.Add(self.last >= var + by_id[i].latency)

    def add_dependence_constraints(self) -> None:
        for u, v, w, d in self.cons:
            self.m.Add(self.s[v] - self.s[u] >= w - self.ii * d)

    def add_modulo_resource_constraints(self, binding: Mapping[str, tuple[int, ...]]) -> None:
        m, ii, by_id = self.m, self.ii, self.problem.by_id
        for r, ids in binding.items():
            x: dict[int, list[object]] = {}
            for i in ids:
                var = self.s[i]
                lb, ub = self.bounds[i]
                k = m.NewIntVar(lb // ii, ub // ii, f"k{i}")
                x[i] = [m.NewBoolVar(f"x{i}_{t}") for t in range(ii)]
                m.AddExactlyOne(x[i])
                m.Add(var == ii * k + sum(t * b for t, b in enumerate(x[i])))
            units = self.problem.resources[r]
            for t in range(ii):
                busy = [x[i][(t - k) % ii] for i in ids for k in range(by_id[i].occupancy)]
                m.Add(sum(busy) <= units)
            if ii > 1 and all(by_id[i].occupancy <= ii for i in ids):
                # redundant, for propagation: the circle of II slots unrolled twice.  Each op
                # is busy in [r, r + occ) and [r + II, r + II + occ); every point of
                # [II, 2*II) is covered by exactly the ops busy in its slot.
                ivs = []
                for i in ids:
                    occ = by_id[i].occupancy
                    slot = m.NewIntVar(0, ii - 1, f"r{i}")
                    m.Add(slot == sum(t * b for t, b in enumerate(x[i])))
                    ivs.append(m.NewFixedSizeIntervalVar(slot, occ, f"a{i}"))
                    ivs.append(m.NewFixedSizeIntervalVar(slot + ii, occ, f"b{i}"))
                if units == 1:
                    m.AddNoOverlap(ivs)
                else:
                    m.AddCumulative(ivs, [1] * len(ivs), units)

    def add_fixed_slot_constraints(self, slots: Mapping[int, int]) -> None:
        """``s_i = II*k_i + slots[i]``: the reservation table stays as it is."""
        m, ii = self.m, self.ii
        for i, r in slots.items():
            lb, ub = self.bounds[i]
            k = m.NewIntVar(lb // ii, ub // ii, f"k{i}")
            m.Add(self.s[i] == ii * k + r)

    def _solver(self, limit: float, seed: int, workers: int, share: int):
        cp = self.cp_model.CpSolver()
        cp.parameters.num_workers = max(1, int(workers))
        cp.parameters.random_seed = int(seed)
        cp.parameters.max_deterministic_time = float(limit) / share
        # the deterministic limit binds first (reproducible results); the wall-clock limit
        # is a safety net on slow or loaded machines.
        cp.parameters.max_time_in_seconds = float(limit)
        return cp

    def _hint(self, steps: Mapping[int, int] | None) -> None:
        self.m.ClearHints()
        if steps is not None:
            for i, var in self.s.items():
                self.m.AddHint(var, steps[i])

    def solve_depth(self, hint: Mapping[int, int] | None, limit: float, seed: int,
                    workers: int, share: int = 10) -> str | tuple[dict[int, int], bool] | None:
        """Minimise the depth: ``"infeasible"``, ``(steps, proven)`` or ``None`` (timeout)."""
        cp_model = self.cp_model
        self._hint(hint)
        self.m.Minimize(self.last)
        cp = self._solver(limit, seed, workers, share)
        st = cp.Solve(self.m)
        if st == cp_model.INFEASIBLE:
            return "infeasible"
        if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        return {i: int(cp.Value(v)) for i, v in self.s.items()}, st == cp_model.OPTIMAL

    def solve_pressure(self, steps: Mapping[int, int], last: int, limit: float, seed: int,
                       workers: int, share: int) -> dict[int, int] | None:
        """At depth ``last + 1``, minimise the register pressure from ``steps`` (hint)."""
        cp_model, m = self.cp_model, self.m
        by_id, ii = self.problem.by_id, self.ii
        cons = [e for e in self.problem.edges if e.is_data]
        if not cons:
            return None
        m.Add(self.last == last)  # the last solve on this model: the depth stays fixed
        life: dict[int, object] = {}
        hi = last + ii * max(e.distance for e in cons) + 1
        for e in cons:
            if e.src not in life:
                life[e.src] = m.NewIntVar(0, hi, f"l{e.src}")
            m.Add(life[e.src] >= self.s[e.dst] + ii * e.distance - self.s[e.src]
                  - by_id[e.src].latency)
        self._hint(steps)
        m.Minimize(sum(life[k] for k in sorted(life)))
        cp = self._solver(limit, seed, workers, share)
        st = cp.Solve(m)
        if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        return {i: int(cp.Value(v)) for i, v in self.s.items()}
