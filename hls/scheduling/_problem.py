"""The block scheduling problem and its result, independent of the IR.

A :class:`SchedProblem` describes one basic block: operations with a latency and a
combinational delay, dependence edges, resource capacities, a clock period and an optional
sink (the terminator).  Semantics, which :func:`hls.scheduling.check_schedule` verifies:

* **Steps.** Every op gets an integer ``step(op) >= 0``.  An op *is born* at
  ``step(op) + latency(op)``: its result is available from that step on.
* **Data edge** (``min_distance is None``): ``step(dst) >= step(src) + latency(src)``.  When
  equality holds the value is used combinationally in the same step (*chaining*).
* **Timing.** In its step an op has an input time ``in(v)`` = max over *chained* data
  predecessors ``u`` of ``out(u)`` (0 if none: all inputs come from registers).  For a
  combinational op (latency 0) ``arrival(v) = in(v) + delay(v)`` and ``out(v) = arrival(v)``.
  For a multi-cycle op (latency >= 1) ``arrival(v) = in(v)`` (its inputs must be settled in
  the issue step) and ``out(v) = delay(v)`` in its birth step (register/RAM clock-to-out).
  Every arrival must be ``<= clock_period_ns``.  Exception: an op whose *own* delay exceeds
  the clock and that has no delay in front of it (``in(v) == 0``) is allowed alone; it is
  reported in :attr:`Schedule.timing_violations`, as is a multi-cycle op whose output delay
  exceeds the clock.  Anything else is an error.
* **Order edge** (``min_distance = d >= 0``): ``step(dst) >= step(src) + d``; no value
  flows, no chaining (memory ordering, e.g. ``d = 1`` for store -> load).
* **Client constraints** (``constraints``): ``OrderConstraint(u, v, d)`` requires
  ``step(v) >= step(u) + d`` like an order edge; ``SameCycle(a, b)`` requires
  ``step(a) == step(b)`` (see :mod:`hls.scheduling._family`).
* **Resources.** An op of resource class ``r`` is busy during steps
  ``step .. step + occupancy - 1``; in every step the busy ops of ``r`` number at most
  ``resources[r]``.  Classes absent from ``resources`` (and ``resource=None``) are unlimited.
* **Sink.** ``step(sink) >= step(op) + latency(op)`` for every op: all results are born by
  the sink's step, which is the last step of the block.
* **Objective.** Minimise the length (``step(sink) + 1``, or ``max birth step + 1`` without a
  sink), then, secondarily, the sum of steps (exactly when resources do not bind; for the
  unit assignment found otherwise, see ``_sdc``); results are deterministic.

The graph of data and order edges (plus the implicit edges into the sink) must be acyclic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType

from hls.errors import ScheduleError

from ._family import (
    EPS_NS,
    ChainingProblem,
    Constraint,
    SharedOperatorsProblem,
    is_int,
    topo_sort,
)
from ._resources import Resource

__all__ = ["EPS_NS", "SchedEdge", "SchedOp", "SchedProblem", "Schedule", "schedule_length",
           "topo_sort"]


@dataclass(frozen=True, slots=True)
class SchedOp:
    """One operation: ``latency`` cycles, ``delay_ns`` combinational/output delay;
    ``in_delay_ns`` for a multi-cycle op the logic between its inputs and its first
    register (a pipelined floating-point unit's first stage): what chains into it must
    leave that much of the cycle."""

    id: int
    name: str
    latency: int
    delay_ns: float
    resource: Resource | str | None = None
    occupancy: int = 1
    in_delay_ns: float = 0.0


@dataclass(frozen=True, slots=True)
class SchedEdge:
    """A data edge (``min_distance=None``) or an order edge with a minimum distance."""

    src: int
    dst: int
    min_distance: int | None = None

    @property
    def is_data(self) -> bool:
        return self.min_distance is None

    @property
    def distance(self) -> int:
        """Iterations crossed: none inside a block (the cyclic problems' edges have one)."""
        return 0

    def weight(self, problem: SchedProblem) -> int:
        """The cycles ``dst`` must wait after ``src`` issues."""
        return problem.by_id[self.src].latency if self.min_distance is None else self.min_distance


@dataclass(frozen=True)
class SchedProblem(ChainingProblem, SharedOperatorsProblem):
    """One basic block to schedule (see the module docstring for the semantics).

    ``constraints``: client constraints (:class:`hls.scheduling.OrderConstraint`,
    :class:`hls.scheduling.SameCycle`) on top of the edges."""

    ops: tuple[SchedOp, ...]
    edges: tuple[SchedEdge, ...]
    resources: Mapping[Resource | str, int] = field(default_factory=dict)
    clock_period_ns: float = 10.0
    sink: int | None = None
    constraints: tuple[Constraint, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "ops", tuple(self.ops))
        object.__setattr__(self, "edges", tuple(self.edges))
        object.__setattr__(self, "resources", MappingProxyType(dict(self.resources)))
        object.__setattr__(self, "constraints", tuple(self.constraints))
        self._validate()

    # -- validation -------------------------------------------------------------------

    def _validate(self) -> None:
        self._validate_timing()
        seen = self._validate_ops()
        self._validate_resources()
        for e in self.edges:
            for end in (e.src, e.dst):
                if end not in seen:
                    raise ScheduleError(f"edge {e.src} -> {e.dst} refers to unknown op {end}")
            if e.src == e.dst:
                raise ScheduleError(f"self edge on op {self.op(e.src).name!r}")
            if e.min_distance is not None and (not is_int(e.min_distance) or e.min_distance < 0):
                raise ScheduleError(f"order edge {e.src} -> {e.dst}: min_distance "
                                    f"{e.min_distance!r} must be an int >= 0")
        if self.sink is not None and self.sink not in seen:
            raise ScheduleError(f"sink {self.sink} is not an op of the problem")
        self._validate_constraints(seen)
        _ = self.topo_order  # raises on cycles

    # -- derived indexes (cached; not part of equality) ----------------------------------

    @cached_property
    def data_preds(self) -> Mapping[int, tuple[int, ...]]:
        preds: dict[int, list[int]] = {op.id: [] for op in self.ops}
        for e in self.edges:
            if e.is_data:
                preds[e.dst].append(e.src)
        return MappingProxyType({k: tuple(sorted(set(v))) for k, v in preds.items()})

    @cached_property
    def data_succs(self) -> Mapping[int, tuple[int, ...]]:
        succs: dict[int, list[int]] = {op.id: [] for op in self.ops}
        for e in self.edges:
            if e.is_data:
                succs[e.src].append(e.dst)
        return MappingProxyType({k: tuple(sorted(set(v))) for k, v in succs.items()})

    def _extra_succs(self, succs: dict[int, set[int]]) -> None:
        if self.sink is not None:
            for op in self.ops:
                if op.id != self.sink:
                    succs[op.id].add(self.sink)

    @cached_property
    def topo_order(self) -> tuple[int, ...]:
        """Deterministic topological order (smallest id first) of all edges incl. the
        sink's and the client's order constraints."""
        return self._topo("dependence cycle among ops: {names}")


@dataclass(frozen=True)
class Schedule:
    """A schedule of one :class:`SchedProblem`.

    ``steps``: op id -> step; ``length``: number of steps; ``arrival_ns``: op id -> arrival
    time in its step (see the module docstring); ``method``: how it was obtained
    (``"asap"``, ``"sdc"``, ``"sdc+list"``, ``"sdc+cpsat"``, ``"sdc+cpsat(feasible)"``,
    ``"asap-fallback"``);
    ``timing_violations``: sorted ids of ops whose own delay exceeds the clock (tolerated
    alone in their step, see the module docstring).
    """

    steps: Mapping[int, int]
    length: int
    arrival_ns: Mapping[int, float]
    method: str
    timing_violations: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "steps", MappingProxyType(dict(sorted(self.steps.items()))))
        object.__setattr__(self, "arrival_ns",
                           MappingProxyType(dict(sorted(self.arrival_ns.items()))))
        object.__setattr__(self, "timing_violations", tuple(self.timing_violations))

    def to_json(self) -> dict:
        """A JSON-ready dict (op ids become string keys, as JSON objects require)."""
        return {"kind": "block", "steps": {str(i): s for i, s in self.steps.items()},
                "length": self.length,
                "arrival_ns": {str(i): t for i, t in self.arrival_ns.items()},
                "method": self.method, "timing_violations": list(self.timing_violations)}

    @classmethod
    def from_json(cls, data: Mapping) -> Schedule:
        """Inverse of :meth:`to_json`."""
        if data.get("kind") != "block":
            raise ScheduleError(f"not a block schedule: kind {data.get('kind')!r}")
        return cls({int(i): s for i, s in data["steps"].items()}, data["length"],
                   {int(i): t for i, t in data["arrival_ns"].items()}, data["method"],
                   tuple(data["timing_violations"]))

    def ops_in_step(self, step: int) -> tuple[int, ...]:
        """Ids of the ops issued in ``step``, sorted."""
        return tuple(i for i, s in self.steps.items() if s == step)

    def to_text(self, problem: SchedProblem) -> str:
        """Stable human-readable dump: a header, then one line per step, ops sorted by id."""
        lines = [f"schedule length={self.length} clock={problem.clock_period_ns:.2f}ns"]
        per_step: dict[int, list[int]] = {}
        for i, s in self.steps.items():
            per_step.setdefault(s, []).append(i)
        last = max(per_step, default=-1)
        for s in range(max(last + 1, self.length)):
            items = []
            for i in sorted(per_step.get(s, ())):
                op = problem.op(i)
                txt = f"{op.name}({i})@{self.arrival_ns.get(i, 0.0):.2f}"
                if op.latency:
                    txt += f"+{op.latency}"
                if op.resource is not None:
                    txt += f"[{op.resource}]"
                items.append(txt)
            lines.append(f"  {s}: {' '.join(items)}".rstrip())
        if self.timing_violations:
            lines.append("  timing violations: " +
                         " ".join(problem.label(i) for i in self.timing_violations))
        return "\n".join(lines) + "\n"


def schedule_length(problem: SchedProblem, steps: Mapping[int, int]) -> int:
    """Length implied by ``steps``: ``step(sink) + 1`` or ``max birth step + 1`` (0 if empty)."""
    if problem.sink is not None:
        return steps[problem.sink] + 1
    return max((steps[op.id] + op.latency for op in problem.ops), default=-1) + 1
