"""The family of scheduling problems, in the manner of CIRCT's scheduling infrastructure.

A concrete problem (:class:`hls.scheduling.SchedProblem` for a basic block,
:class:`hls.scheduling.ModuloProblem` for a pipelined loop body) is a frozen dataclass
that mixes in the traits it has:

* :class:`Problem` — operations, dependence edges, client constraints, validation, a
  topological order, labels for messages;
* :class:`ChainingProblem` — combinational delays and a clock period: the one arrival
  computation (:meth:`ChainingProblem.chain_timing`, fed by :meth:`ChainingProblem.chained`)
  the solvers report and the checker re-derives, and the one longest-combinational-path
  search (:meth:`ChainingProblem.chaining_constraints`) that turns timing into difference
  constraints for the SDC and modulo solvers;
* :class:`SharedOperatorsProblem` — resources with a capacity, used by ops for
  ``occupancy`` cycles;
* :class:`CyclicProblem` — edges carry an iteration distance; a schedule of one has an
  initiation interval (CIRCT's ``ModuloProblem`` = cyclic + shared operators).

Mixins hold behaviour only; the fields live in the concrete dataclasses, which keeps their
constructors (used all over the code and tests) unchanged.  The checker
(:func:`hls.scheduling.check`) picks its rules by the mixins a problem has.

Clients add constraints beyond the dependence graph as typed objects
(:class:`OrderConstraint`, :class:`SameCycle`) in the problem's ``constraints``; the SDC
and modulo solvers turn them into difference constraints and the checker verifies them.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType

from hls.errors import ScheduleError

#: Tolerance for comparing delays (ns).
EPS_NS = 1e-9


def is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def topo_sort(succs: Mapping[int, set[int]]) -> tuple[tuple[int, ...], list[int]]:
    """Deterministic topological order (smallest id first) of a graph given by successor
    sets, and the ops left on cycles (empty when it is acyclic)."""
    indeg = {i: 0 for i in succs}
    for s in succs.values():
        for d in s:
            indeg[d] += 1
    heap = [i for i, d in indeg.items() if d == 0]
    heapq.heapify(heap)
    order: list[int] = []
    while heap:
        i = heapq.heappop(heap)
        order.append(i)
        for d in succs[i]:
            indeg[d] -= 1
            if indeg[d] == 0:
                heapq.heappush(heap, d)
    stuck = sorted(i for i, d in indeg.items() if d > 0) if len(order) != len(succs) else []
    return tuple(order), stuck


# -- client constraints -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OrderConstraint:
    """``step(dst) >= step(src) + min_distance`` (``distance`` iterations later in a cyclic
    problem: ``step(dst) + II*distance >= ...``).  No value flows, nothing is chained."""

    src: int
    dst: int
    min_distance: int = 1
    distance: int = 0

    def difference(self) -> list[tuple[int, int, int, int]]:
        """As ``(u, v, w, D)``: ``step(v) - step(u) >= w - II*D``."""
        return [(self.src, self.dst, self.min_distance, self.distance)]

    def violation(self, steps: Mapping[int, int], ii: int = 0) -> str | None:
        if steps[self.dst] + ii * self.distance >= steps[self.src] + self.min_distance:
            return None
        far = f" + {ii}*{self.distance}" if self.distance else ""
        return (f"step {steps[self.dst]}{far} < step {steps[self.src]} + "
                f"distance {self.min_distance}")

    def describe(self, label: Callable[[int], str]) -> str:
        far = f", {self.distance} iterations later" if self.distance else ""
        return (f"order constraint {label(self.src)} -> {label(self.dst)} "
                f"(>= {self.min_distance} steps{far})")

    @property
    def ops(self) -> tuple[int, ...]:
        return (self.src, self.dst)


@dataclass(frozen=True, slots=True)
class SameCycle:
    """``step(a) == step(b)``: e.g. two halves of a transaction that must issue together."""

    a: int
    b: int

    def difference(self) -> list[tuple[int, int, int, int]]:
        return [(self.a, self.b, 0, 0), (self.b, self.a, 0, 0)]

    def violation(self, steps: Mapping[int, int], ii: int = 0) -> str | None:
        if steps[self.a] == steps[self.b]:
            return None
        return f"steps {steps[self.a]} != {steps[self.b]}"

    def describe(self, label: Callable[[int], str]) -> str:
        return f"same-cycle constraint {label(self.a)} == {label(self.b)}"

    @property
    def ops(self) -> tuple[int, ...]:
        return (self.a, self.b)


@dataclass(frozen=True, slots=True)
class ChannelSendBeforeReceive(OrderConstraint):
    """The receive of a value from a channel (a FIFO between two tasks, or between two
    stages of one) is scheduled at least ``min_distance`` steps after the send that
    produces it: the channel's latency (1 for a registered FIFO: what is written in a step
    is readable from the next).  ``distance``: the receive belongs to an iteration that
    many later (a cyclic problem).  An order constraint to every solver and the checker;
    its own type so a violation names the channel."""

    channel: str = ""

    def describe(self, label: Callable[[int], str]) -> str:
        far = f", {self.distance} iterations later" if self.distance else ""
        return (f"channel '{self.channel}': receive {label(self.dst)} at least "
                f"{self.min_distance} step(s) after send {label(self.src)}{far}")


#: The constraint types clients may add.
Constraint = OrderConstraint | SameCycle
CONSTRAINT_TYPES = (OrderConstraint, SameCycle)


# -- the mixins ----------------------------------------------------------------------------


class Problem:
    """Operations and dependences.  Concrete problems provide ``ops``, ``edges`` and
    ``constraints`` (dataclass fields) and :meth:`_where` (the prefix of messages)."""

    ops: tuple
    edges: tuple
    constraints: tuple

    def _where(self) -> str:
        return ""

    # -- validation -----------------------------------------------------------------------

    def _validate_ops(self) -> set[int]:
        """Check every op's own figures; returns the ids."""
        where = self._where()
        seen: set[int] = set()
        for op in self.ops:
            if not is_int(op.id):
                raise ScheduleError(f"{where}op {op.name!r}: id must be an int, not {op.id!r}")
            if op.id in seen:
                raise ScheduleError(f"{where}duplicate op id {op.id} ({op.name!r})")
            seen.add(op.id)
            if not is_int(op.latency) or op.latency < 0:
                raise ScheduleError(f"{where}op {op.name!r}: latency must be an int >= 0, "
                                    f"not {op.latency!r}")
        return seen

    def _validate_constraints(self, ids: set[int]) -> None:
        where = self._where()
        for c in self.constraints:
            if not isinstance(c, CONSTRAINT_TYPES):
                raise ScheduleError(f"{where}unknown constraint {c!r} (known: "
                                    + ", ".join(t.__name__ for t in CONSTRAINT_TYPES) + ")")
            for end in c.ops:
                if end not in ids:
                    raise ScheduleError(f"{where}{type(c).__name__} {c.ops} refers to "
                                        f"unknown op {end}")
            if isinstance(c, OrderConstraint):
                if not is_int(c.min_distance) or c.min_distance < 0:
                    raise ScheduleError(f"{where}{c.describe(self.label)}: min_distance must "
                                        f"be an int >= 0, not {c.min_distance!r}")
                if not is_int(c.distance) or c.distance < 0 or (
                        c.distance and not isinstance(self, CyclicProblem)):
                    raise ScheduleError(f"{where}{c.describe(self.label)}: an iteration "
                                        f"distance needs a cyclic problem, not {c.distance!r}")

    # -- derived indexes (cached; not part of equality) ------------------------------------

    @cached_property
    def by_id(self) -> Mapping[int, object]:
        return MappingProxyType({op.id: op for op in self.ops})

    def op(self, op_id: int):
        return self.by_id[op_id]

    def label(self, op_id: int) -> str:
        """``name(id)`` for messages."""
        op = self.by_id.get(op_id)
        return f"{op.name}({op_id})" if op is not None else f"?({op_id})"

    @cached_property
    def same_cycle_groups(self) -> Mapping[int, int]:
        """op id -> the smallest id of its :class:`SameCycle` group (ops tied together
        issue in one step; a list scheduler places each group as one)."""
        rep = {op.id: op.id for op in self.ops}

        def find(x: int) -> int:
            while rep[x] != x:
                rep[x] = rep[rep[x]]
                x = rep[x]
            return x

        for c in self.constraints:
            if isinstance(c, SameCycle):
                a, b = find(c.a), find(c.b)
                rep[max(a, b)] = min(a, b)
        return MappingProxyType({i: find(i) for i in rep})

    def order_succs(self) -> dict[int, set[int]]:
        """Successor sets of every zero-distance ordering (edges, order constraints and
        what the concrete problem adds, see :meth:`_extra_succs`)."""
        succs: dict[int, set[int]] = {op.id: set() for op in self.ops}
        for e in self.edges:
            if e.distance == 0:
                succs[e.src].add(e.dst)
        for c in self.constraints:
            if isinstance(c, OrderConstraint) and c.distance == 0:
                succs[c.src].add(c.dst)
        self._extra_succs(succs)
        return succs

    def _extra_succs(self, succs: dict[int, set[int]]) -> None:
        pass

    def _topo(self, what: str) -> tuple[int, ...]:
        """Deterministic topological order (smallest id first) of :meth:`order_succs`.
        :class:`SameCycle` ties are not orderings and are left out: the solvers handle the
        two-way constraints they become, and report a tie that contradicts an ordering."""
        order, stuck = topo_sort(self.order_succs())
        if stuck:
            names = ", ".join(self.label(i) for i in stuck[:8])
            raise ScheduleError(f"{self._where()}{what.format(names=names)}")
        return order


class ChainingProblem(Problem):
    """Ops have a combinational delay and there is a clock: values chain within a cycle."""

    clock_period_ns: float
    topo_order: tuple[int, ...]  # the concrete problem's (a cached property)

    def _validate_timing(self) -> None:
        where = self._where()
        if not (isinstance(self.clock_period_ns, (int, float)) and self.clock_period_ns > 0
                and math.isfinite(self.clock_period_ns)):
            raise ScheduleError(f"{where}clock period must be positive, not "
                                f"{self.clock_period_ns!r}")
        for op in self.ops:
            if not (isinstance(op.delay_ns, (int, float)) and op.delay_ns >= 0
                    and math.isfinite(op.delay_ns)):
                raise ScheduleError(f"{where}op {op.name!r}: delay must be finite and >= 0, "
                                    f"not {op.delay_ns!r}")

    def _chainable(self, e) -> bool:
        """A data edge whose delay is its source's latency: its value may be read in the
        cycle it is born (chained)."""
        return e.is_data and e.weight(self) == self.by_id[e.src].latency

    def chained(self, steps: Mapping[int, int], ii: int = 0) -> dict[int, list[int]]:
        """The data predecessors each op reads in the (absolute) cycle they are born in:
        ``step(v) + II*distance == step(u) + latency(u)`` (``ii=0`` for a block)."""
        by_id = self.by_id
        chained: dict[int, list[int]] = {op.id: [] for op in self.ops}
        for e in self.edges:
            if e.is_data and steps[e.dst] + ii * e.distance == steps[e.src] + by_id[e.src].latency:
                chained[e.dst].append(e.src)
        return chained

    def arrivals(self, steps: Mapping[int, int],
                 ii: int = 0) -> tuple[dict[int, float], tuple[int, ...]]:
        """Arrival times (ns) of every op in its cycle and the tolerated timing violations
        of ``steps`` (at ``ii`` for a cyclic problem)."""
        return self.chain_timing(self.chained(steps, ii))

    def chaining_constraints(self) -> list[tuple[int, int, int, int]]:
        """The timing rules as difference constraints ``(u, v, w, D)``: ``step(v) - step(u)
        >= w - II*D`` (``D = 0`` in a block), the one longest-combinational-path search the
        SDC system (``_constraints``) and the modulo constraints (``_modulo``) share.

        For every data path ``u -> ... -> v`` through chainable edges and combinational
        intermediate ops whose delay (``delay(u)``, for a multi-cycle ``u`` its output
        delay, plus every combinational op up to and including ``v``; a multi-cycle ``v``
        adds its ``in_delay``, its first register ends the path) exceeds the clock: ``w = latency(u) + 1`` with
        ``D`` = the path's total distance.  Every edge of such a path has non-negative
        slack and the edges sum to ``latency(u)``, so the constraint forbids exactly
        "every edge of the path chained in one cycle".  An op whose own delay exceeds the
        clock with nothing in front of it gets no constraint (tolerated alone).  The
        search from ``u`` stops at the first op that needs a constraint (anything behind
        it is ordered after it).  It runs over states ``(op, D)``, acyclic because every
        cycle has a distance >= 1, in ``(D, topological rank)`` order; a path that
        revisits an op can never be chained in one cycle, so constraints from such paths
        are implied and harmless, and ``D`` is capped by the sum of the chainable edges'
        distances.  Unsorted, possibly several per ``(u, v, D)``."""
        clock = self.clock_period_ns
        by_id = self.by_id
        succs: dict[int, list[tuple[int, int]]] = {op.id: [] for op in self.ops}
        dcap = 0
        for e in self.edges:
            if self._chainable(e):
                succs[e.src].append((e.dst, e.distance))
                dcap += e.distance
        for k, v in succs.items():
            succs[k] = sorted(set(v))
        rank = {op_id: k for k, op_id in enumerate(self.topo_order)}
        out: list[tuple[int, int, int, int]] = []
        for src in self.ops:
            start = (src.id, 0)
            dist: dict[tuple[int, int], float] = {start: src.delay_ns}
            heap = [(0, rank[src.id], src.id)]
            while heap:
                dd, _, x = heapq.heappop(heap)
                dx = dist[(x, dd)]
                if (x, dd) != start:
                    xop = by_id[x]
                    own = xop.delay_ns if xop.latency == 0 else xop.in_delay_ns
                    if dx > clock + EPS_NS and dx - own > EPS_NS:
                        out.append((src.id, x, src.latency + 1, dd))
                        continue
                    if xop.latency > 0:
                        continue  # a multi-cycle op's first register ends the path
                for y, d in succs[x]:
                    d2 = dd + d
                    if d2 > dcap:
                        continue
                    yop = by_id[y]
                    cand = dx + (yop.delay_ns if yop.latency == 0 else yop.in_delay_ns)
                    old = dist.get((y, d2))
                    if old is None:
                        dist[(y, d2)] = cand
                        heapq.heappush(heap, (d2, rank[y], y))
                    elif cand > old:
                        dist[(y, d2)] = cand
        return out

    def chain_timing(self, chained: Mapping[int, Sequence[int]],
                     strict: Callable[[int], str] | None = None
                     ) -> tuple[dict[int, float], tuple[int, ...]]:
        """Arrival time of every op in its cycle and the tolerated timing violations, given
        which data predecessors of each op are *chained* (their value is born in the cycle
        the op reads it).  The rules (``_problem``'s module docstring): a combinational op
        arrives at ``in + delay``; a multi-cycle op's inputs arrive at ``in`` and its output
        leaves at ``delay``; ``in`` is the latest output among the chained predecessors.

        ``strict``: raise a :class:`ScheduleError` on a violation that is not tolerated
        (``strict(v)`` names where ``v`` is, e.g. ``"step 3"``), and on a chain that loops
        back on itself.  Solvers pass ``None``: their schedules have neither."""
        by_id = self.by_id
        clock = self.clock_period_ns
        lab = self.label
        # out(v): when v's value is ready in its birth cycle.  Chains run through
        # combinational ops only; those are evaluated in topological order of the chained
        # edges (Kahn), so a diamond of chains is fine and a ring is a combinational loop.
        out: dict[int, float] = {op.id: op.delay_ns for op in self.ops if op.latency > 0}
        pending = {op.id: sum(1 for u in chained[op.id] if u not in out)
                   for op in self.ops if op.id not in out}
        users: dict[int, list[int]] = {}
        for v, us in chained.items():
            for u in us:
                users.setdefault(u, []).append(v)
        ready = sorted(v for v, k in pending.items() if k == 0)
        while ready:
            x = ready.pop()
            out[x] = max((out[u] for u in chained[x]), default=0.0) + by_id[x].delay_ns
            for v in users.get(x, ()):
                if v in pending:
                    pending[v] -= 1
                    if pending[v] == 0:
                        ready.append(v)
        stuck = [v for v in pending if v not in out]
        if stuck:
            ring = _ring(stuck[0], chained, set(stuck))
            raise ScheduleError(f"{self._where()}combinational loop chained in one cycle: "
                                + " -> ".join(lab(i) for i in ring))
        arrival: dict[int, float] = {}
        violations: list[int] = []
        for op in self.ops:
            v = op.id
            t_in, worst = max(((out[u], u) for u in chained[v]), default=(0.0, None))
            if op.latency == 0:
                t = arrival[v] = t_in + op.delay_ns
                if t > clock + EPS_NS:
                    if t_in > EPS_NS:
                        if strict is not None:
                            raise ScheduleError(
                                f"timing violated in {strict(v)}: {lab(v)} arrives at "
                                f"{t:.3f} ns > clock {clock:.3f} ns, chained after "
                                f"{lab(worst)} (ready at {t_in:.3f} ns)")
                    else:
                        violations.append(v)
            else:
                arrival[v] = t_in
                t = t_in + op.in_delay_ns      # through its first stage to its first register
                if t > clock + EPS_NS and t_in > EPS_NS and strict is not None:
                    raise ScheduleError(
                        f"timing violated in {strict(v)}: inputs of {lab(v)} arrive at "
                        f"{t_in:.3f} ns, its first stage ends at {t:.3f} ns > clock "
                        f"{clock:.3f} ns, chained after {lab(worst)}")
                if op.delay_ns > clock + EPS_NS or op.in_delay_ns > clock + EPS_NS:
                    violations.append(v)
        return arrival, tuple(sorted(violations))


def _ring(start: int, chained: Mapping[int, Sequence[int]], stuck: set[int]) -> list[int]:
    """A cycle of chained edges through the ops left over by Kahn's algorithm."""
    path: list[int] = []
    seen: dict[int, int] = {}
    v = start
    while v not in seen:
        seen[v] = len(path)
        path.append(v)
        v = next(u for u in sorted(chained[v]) if u in stuck)
    return path[seen[v]:] + [v]


class SharedOperatorsProblem(Problem):
    """Ops use a resource for ``occupancy`` cycles; a limited resource has ``resources[r]``
    units (resources absent from the mapping, and ``resource=None``, are unlimited)."""

    resources: Mapping

    def _validate_resources(self) -> None:
        where = self._where()
        for r, cap in self.resources.items():
            if not is_int(cap) or cap < 0:
                raise ScheduleError(f"{where}resource '{r}': capacity must be an int >= 0, "
                                    f"not {cap!r}")
        for op in self.ops:
            if not is_int(op.occupancy) or op.occupancy < 1:
                raise ScheduleError(f"{where}op {op.name!r}: occupancy must be an int >= 1, "
                                    f"not {op.occupancy!r}")
            if op.resource is not None and self.resources.get(op.resource, 1) < 1:
                raise ScheduleError(f"{where}op {op.name!r} needs resource '{op.resource}', "
                                    f"which has {self.resources[op.resource]} units: "
                                    "capacity must be >= 1")

    @cached_property
    def limited(self) -> Mapping[object, tuple[int, ...]]:
        """Limited resource -> ids of its ops (sorted), for resources with >= 1 op, in the
        order of the resources' keys (deterministic)."""
        groups: dict[object, list[int]] = {}
        for op in self.ops:
            if op.resource is not None and op.resource in self.resources:
                groups.setdefault(op.resource, []).append(op.id)
        return MappingProxyType({r: tuple(sorted(v)) for r, v in
                                 sorted(groups.items(), key=lambda kv: str(kv[0]))})


class CyclicProblem(Problem):
    """Edges carry an iteration distance; a schedule repeats every II cycles."""

    def _where(self) -> str:
        name = getattr(self, "name", "")
        return f"modulo problem {name!r}: " if name else "modulo problem: "
