"""Cycle latency of the generated hardware, from the schedules and the FSMD's behaviour.

What the RTL does (:mod:`hls.rtl._fsmd`, :mod:`hls.rtl._pipeline`, :mod:`hls.rtl._top`),
and so what this model counts, cycle for cycle:

* **A call** of a function (of the top by the harness, of a callee by its caller's call
  state) lasts ``1 + T`` cycles: one cycle in IDLE, where ``start`` is seen, then ``T``
  cycles in the function's states, ``done`` being high in the last of them (the step of
  a ``ret``), after which the FSM is in IDLE again.  Co-simulation counts exactly these
  cycles per call (from the cycle ``ap_start`` is seen to the cycle ``ap_done`` is high,
  both included), and a new call can start in the next cycle: the interval between the
  starts of consecutive calls of an FSMD top is its latency.  :func:`function_latency`
  is this ``1 + T``.
* **A block** runs its ``length`` states, one cycle each, except that a ``call`` state
  repeats until the callee's ``done``: a call adds the callee's ``T`` (its latency less
  one, the caller's call state counting once in ``length``).  A block holding only a
  ``br`` costs nothing (the FSM skips it: :func:`hls.scheduling.skipped`).  Loads, FP
  units and dividers never stall the FSM (the schedule gave them their cycles).
* **A pipelined loop** is one state; an entry of ``n`` iterations spends
  ``(n - 1) * II + exit_time + 1`` cycles in it (:func:`hls.rtl.entry_cycles`).

A function's ``T`` is then a path problem over its loop tree (:func:`hls.analysis.find_loops`):
innermost loops first, a loop's body (its blocks and its child loops collapsed into one
node per loop, whose cost depends on the edge it leaves by) is a DAG; the shortest and
longest paths from the header to each back edge give the cycles of an iteration, those
to each exit edge the cycles of the last one.  An entry leaving by the exit of the
loop's counted test (the latch of a loop with a constant trip count ``n``) runs ``n``
iterations; leaving by any other exit (an early ``break`` or ``return``), between 1 and
``n`` (1 and unbounded without a constant trip count: the header runs at least once
per entry, so ``min`` stays a lower bound and ``max`` is ``None``; unless the depth of an
array the loop steps through in every iteration bounds the trip count,
:func:`hls.analysis.extent_trip_bound`).  ``min`` takes the
shortest path in every iteration, ``max`` the longest, so a data-dependent branch of
unequal sides makes ``min < max``; paths the data never takes only widen the bounds.
Where ``min == max`` the latency is exact.

The same walk with other costs counts events: how often each loop is entered per call
of the top (``entries_per_call``).

A **dataflow region** (``module.dataflow``) is not an FSMD: its tasks overlap and stall
on their channels.  Its latency is a bound only: at least the longest task's total
(executions of its call site times the callee's minimum latency), no upper bound.

:func:`replay_cycles` gives the cycles of a run from its block visits and edge
traversals (the interpreter's counts on the final CDFG): the same costs, no paths;
``benchmarks/latency_check.py`` checks it, and the bounds, against co-simulation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..analysis import (
    ExtentBound, Loop, counted_tests, extent_trip_bound, find_loops, loop_line, loop_name,
    window_memories,
)
from ..errors import InternalError
from ..ir import Block, Function, Module
from ..rtl import entry_cycles
from ..scheduling import skipped
from ..targets import PLAIN, Platform

__all__ = ["LatencyModel", "LatencyReport", "LoopLatency", "Span", "TopLatency", "latency_report",
           "replay_calls", "replay_cycles"]


@dataclass(frozen=True)
class Span:
    """An interval of non-negative integers; ``max`` None is unbounded."""

    min: int
    max: int | None

    @property
    def exact(self) -> bool:
        return self.max is not None and self.min == self.max

    def __add__(self, o: "Span") -> "Span":
        return Span(self.min + o.min,
                    None if self.max is None or o.max is None else self.max + o.max)

    def join(self, o: "Span | None") -> "Span":
        """The smallest interval holding both."""
        if o is None:
            return self
        return Span(min(self.min, o.min),
                    None if self.max is None or o.max is None else max(self.max, o.max))

    def times(self, n: "Span") -> "Span":
        """``n`` repetitions of something costing ``self`` each (both non-negative)."""
        if n.max == 0 or self.max == 0:
            top = 0
        elif n.max is None or self.max is None:
            top = None
        else:
            top = self.max * n.max
        return Span(self.min * n.min, top)

    def to_json(self) -> dict:
        return {"min": self.min, "max": self.max}


ZERO = Span(0, 0)


def _const(n: int) -> Span:
    return Span(n, n)


#: the key of a ``ret`` leaving a region: (block, None)
Edge = tuple[Block, "Block | None"]


@dataclass
class LoopLatency:
    """One entry of a loop: ``trips`` header executions; ``iteration`` the cycles (or
    counts) of one iteration that goes round (None for a pipelined loop); ``exits`` the
    cost of a whole entry leaving by each exit edge (``(block, None)`` for a return from
    inside the loop)."""

    loop: Loop
    trips: Span
    iteration: Span | None
    exits: dict = field(default_factory=dict)
    #: why ``trips.max`` is unbounded (None when it is not)
    unbounded_because: str | None = None
    #: the trip-count assumption of a directive the bounds rest on (None: none)
    assumed: str | None = None
    #: how the depth of an array bounds ``trips.max`` (:func:`hls.analysis.extent_trip_bound`)
    bounded_because: str | None = None

    @property
    def per_entry(self) -> Span:
        out = None
        for s in self.exits.values():
            out = s if out is None else out.join(s)
        return out if out is not None else ZERO


class _Irreducible(Exception):
    pass


def _extent_text(ext: ExtentBound) -> str:
    line = ext.line
    return (f"at most {ext.trips} iterations per entry: its {ext.kind} of "
            f"{ext.memory}{f' (line {line})' if line else ''} runs in every iteration "
            f"{abs(ext.stride)} word(s) {'on' if ext.stride > 0 else 'back'} in "
            f"{ext.depth} words, and a C program's accesses stay within their arrays")


def _depth(lp: Loop) -> int:
    d = 0
    while lp.parent is not None:
        lp, d = lp.parent, d + 1
    return d


def _where(f: Function, lp: Loop) -> str:
    line = loop_line(lp)
    file = f.loc.file if f.loc is not None else None
    at = f"{file}:{line}" if file and line else (f"line {line}" if line else "no source line")
    name = loop_name(f, lp)      # a label, or FUNCTION/L<line>
    return f"loop {name} ({at})" if "/" in name else f"loop {name} of @{f.name} ({at})"


def trip_span(lp: Loop, given: tuple[int, int] | None = None) -> tuple[Span, str | None]:
    """Header executions per entry of ``lp``, and why there is no upper bound (or, with a
    ``tripcount`` directive ``given`` = (min, max) iterations, the assumption made).  A
    constant trip count wins over the directive (the flow warns)."""
    if lp.trip_count is not None:
        return _const(lp.trip_count), None
    if given is not None:
        lo, hi = given
        return Span(max(1, lo), max(1, hi)), (
            f"trip count {lo}..{hi} per entry from a tripcount directive, assumed, not "
            "proven" + (" (the header runs at least once per entry)" if lo < 1 else ""))
    return Span(1, None), ("its trip count is not a constant (no counted loop with "
                           "constant bounds was found); at least 1 iteration per entry")


class _Walk:
    """The path problem of one function under one cost: ``block(b)`` the cost of a
    non-pipelined block (calls included), ``pipe(b, trips)`` of an entry of the
    pipelined loop headed by ``b``, ``enter(lp)`` of each entry of a loop."""

    def __init__(self, f: Function, fs, loops: list[Loop], block: Callable[[Block], Span],
                 pipe: Callable[[Block, Span], Span], enter: Callable[[Loop], Span],
                 tripcount: Callable[[Function, Loop], tuple[int, int] | None] = lambda f, lp: None,
                 extent: Callable[[Function, Loop], ExtentBound | None] = lambda f, lp: None):
        self.f, self.fs, self.loops, self.tripcount = f, fs, loops, tripcount
        self.extent = extent
        self.block, self.pipe, self.enter = block, pipe, enter
        self.innermost: dict[Block, Loop] = {}
        for lp in sorted(loops, key=_depth):       # outer first: inner ones overwrite
            for b in lp.blocks:
                self.innermost[b] = lp
        self.summary: dict[Loop, LoopLatency] = {}

    # which node of region ``region`` (a loop, or None for the function) block ``b`` is
    def _node(self, region: Loop | None, b: Block):
        if region is not None and b not in region.blocks:
            return ("out", b)
        if region is not None and b is region.header:
            return ("back", b)
        lp = self.innermost.get(b)
        if lp is region:
            return ("block", b)
        while lp.parent is not region:
            lp = lp.parent
        if lp.header is not b:
            raise _Irreducible(f"edge into {b.name}, inside loop {lp.header.name}")
        return ("loop", lp)

    def _out(self, region: Loop | None, node) -> list[tuple[object, Span, Edge]]:
        """(target node, cost, CFG edge) of every edge leaving ``node``; a target
        ``("ret", None)`` for a return."""
        kind, x = node
        edges: list[tuple[Block, Block | None, Span]] = []
        if kind == "block":
            c = self.block(x)
            if x.terminator.kind == "ret":
                edges.append((x, None, c))
            for s in x.successors:
                edges.append((x, s, c))
        else:
            edges = [(src, dst, c) for (src, dst), c in self.summary[x].exits.items()]
        out = []
        for src, dst, c in edges:
            if dst is None:
                tgt = ("ret", None)
            else:
                tgt = self._node(region, dst)
                if tgt[0] == "loop":
                    c = c + self.enter(tgt[1])
            out.append((tgt, c, (src, dst)))
        return out

    def _paths(self, region: Loop | None, start) -> dict[tuple[str, Edge], Span]:
        """Shortest and longest costs from ``start`` to every edge leaving the region
        (("back", edge), ("exit", edge) or ("ret", edge))."""
        succ: dict = {}
        work, seen = [start], {start}
        while work:
            n = work.pop()
            succ[n] = self._out(region, n)
            for t, _, _ in succ[n]:
                if t[0] in ("block", "loop") and t not in seen:
                    seen.add(t)
                    work.append(t)
        indeg = {n: 0 for n in succ}
        for n, outs in succ.items():
            for t, _, _ in outs:
                if t in indeg:
                    indeg[t] += 1
        order, ready = [], [start]
        while ready:
            n = ready.pop()
            order.append(n)
            for t, _, _ in succ[n]:
                if t in indeg:
                    indeg[t] -= 1
                    if indeg[t] == 0:
                        ready.append(t)
        if len(order) != len(succ):
            raise _Irreducible("a cycle that is no natural loop")
        reach: dict = {start: ZERO}
        term: dict = {}
        for n in order:
            if n not in reach:
                continue
            for t, c, e in succ[n]:
                v = reach[n] + c
                if t[0] in ("block", "loop"):
                    reach[t] = v.join(reach.get(t))
                else:
                    k = ({"out": "exit", "back": "back", "ret": "ret"}[t[0]], e)
                    term[k] = v.join(term.get(k))
        return term

    def _loop(self, lp: Loop) -> LoopLatency:
        pl = self.fs.pipelines.get(lp.header)
        trips, why = trip_span(lp, self.tripcount(self.f, lp))
        why, assumed = (why, None) if trips.max is None else (None, why)
        bounded = None
        ext = self.extent(self.f, lp) if trips.max is None else None
        if ext is not None:
            trips, why, bounded = Span(trips.min, ext.trips), None, _extent_text(ext)
        if pl is not None:
            t = lp.header.terminator
            tgt = t.targets[1] if t.targets[0] is lp.header else t.targets[0]
            return LoopLatency(lp, trips, None, {(lp.header, tgt): self.pipe(lp.header, trips)},
                               why, assumed, bounded)
        term = self._paths(lp, ("block", lp.header))
        it = None
        for (k, _), c in term.items():
            if k == "back":
                it = c.join(it)
        if it is None:
            raise _Irreducible(f"loop {lp.header.name} without a back edge")
        # the blocks whose counted test exits (the latch, or the latch's predecessors)
        counted = set(counted_tests(lp)) if lp.trip_count is not None else set()
        exits = {}
        for (k, (src, dst)), c in term.items():
            if k == "back":
                continue
            if src in counted and dst is not None:
                # the counted test exits: exactly trip_count iterations
                exits[(src, dst)] = it.times(Span(trips.min - 1, trips.max - 1)) + c
            else:
                # any other exit: after 1 .. trips iterations
                more = Span(0, None if trips.max is None else trips.max - 1)
                exits[(src, dst)] = Span(c.min, (it.times(more) + c).max)
        if any(src not in counted or dst is None for src, dst in exits):
            trips = Span(1, trips.max)      # an early exit may leave in any iteration
        return LoopLatency(lp, trips, it, exits, why, assumed, bounded)

    def run(self) -> Span:
        """The cost of one run of the function, from its entry state to its ``ret``."""
        for lp in sorted(self.loops, key=_depth, reverse=True):
            self.summary[lp] = self._loop(lp)
        term = self._paths(None, self._node(None, self.f.entry))
        out = None
        for (k, _), c in term.items():
            if k != "ret":
                raise InternalError(f"@{self.f.name}: a path leaves the function other than "
                                    "by a return")
            out = c.join(out)
        if out is None:
            raise InternalError(f"@{self.f.name}: no path reaches a return")
        return out


def _call_order(module: Module) -> list[Function]:
    """Functions reachable from the top, callees before callers."""
    order: list[Function] = []
    seen: set = set()

    def visit(f: Function) -> None:
        if f in seen:
            return
        seen.add(f)
        for c in f.callees():
            visit(c)
        order.append(f)

    visit(module.top)
    return order


class LatencyModel:
    """Latency of every function reachable from the top of ``module`` scheduled by
    ``schedules`` (function -> :class:`~hls.scheduling.FunctionSchedule`).

    ``latency[f]``: cycles of one call of ``f`` (``1 + T``, see the module docstring);
    ``loops[f][lp]``: the :class:`LoopLatency` of each loop (cycles per entry);
    ``entries[(f, header)]``: entries of each loop per call of the top;
    ``bound[f]``: why ``f``'s latency is only a bound (a dataflow region), else absent.
    ``tripcount(f, lp)``: (min, max) iterations per entry a directive assumes for a loop
    without a constant trip count, or None."""

    def __init__(self, module: Module, schedules,
                 tripcount: Callable[[Function, Loop], tuple[int, int] | None] | None = None):
        self.module = module
        self.schedules = schedules
        self.tripcount = tripcount or (lambda f, lp: None)
        self.order = _call_order(module)
        self.found = {f: find_loops(f) for f in self.order}
        # a pointer parameter of a callee is a window on its caller's array: its word
        # addresses are not words of an array of its depth
        self.windows = window_memories(module, self.order)
        self._extents: dict = {}
        self.regions = {f for f in self.order if f.name in set(module.dataflow)}
        self.latency: dict[Function, Span] = {}
        self.loops: dict[Function, dict[Loop, LoopLatency]] = {}
        self.bound: dict[Function, str] = {}
        for f in self.order:
            self.latency[f] = self._cycles(f)
        self.entries: dict[tuple[Function, Block], Span] = {}
        if not self.regions:
            for f in self.order:
                for lp in self.found[f]:
                    self.entries[(f, lp.header)] = self._entries(f, lp)

    def extent(self, f: Function, lp: Loop) -> ExtentBound | None:
        """The bound the depths of its arrays give the trip count of ``lp`` (memoised)."""
        key = (f, lp.header)
        if key not in self._extents:
            self._extents[key] = extent_trip_bound(f, lp, self.windows)
        return self._extents[key]

    # ------------------------------------------------------------------ cycles
    def block_cycles(self, f: Function, b: Block) -> Span:
        """Cycles of one visit of the non-pipelined block ``b`` (its calls included)."""
        if skipped(b):
            return ZERO
        c = _const(self.schedules[f].blocks[b].length)
        for op in b.ops:
            if op.kind == "call":
                lat = self.latency[op.attrs["callee"]]      # the call state counts once
                c = c + Span(lat.min - 1, None if lat.max is None else lat.max - 1)
        return c

    def _cycles(self, f: Function) -> Span:
        fs = self.schedules[f]
        if f in self.regions:
            return self._region(f)

        def pipe(b: Block, trips: Span) -> Span:
            lp = fs.pipelines[b]
            return Span(entry_cycles(lp, trips.min),
                        None if trips.max is None else entry_cycles(lp, trips.max))

        w = _Walk(f, fs, self.found[f], lambda b: self.block_cycles(f, b), pipe,
                  lambda lp: ZERO, self.tripcount, self.extent)
        try:
            t = w.run()
        except _Irreducible as exc:
            self.bound[f] = f"irreducible control flow ({exc}): no path model"
            self.loops[f] = {}
            return Span(1, None)
        self.loops[f] = w.summary
        return t + _const(1)

    def _region(self, f: Function) -> Span:
        """A dataflow region: a lower bound only (module docstring)."""
        self.loops[f] = {}
        low = 1
        for op in f.ops():
            if op.kind == "call":
                try:    # executions of this call site per call of the region
                    n = self._count(f, lambda g, b, op=op: _const(
                        sum(1 for o in b.ops if o is op)) if g is f else ZERO)
                except _Irreducible:
                    continue
                low = max(low, n.min * self.latency[op.attrs["callee"]].min)
        self.bound[f] = ("dataflow region: its tasks overlap and stall on their channels; "
                         "min is the longest task's own minimum, no maximum is modelled")
        return Span(low, None)

    # ------------------------------------------------------------------ counts
    def _count(self, f: Function, own: Callable[[Function, Block], Span],
               loop: Loop | None = None) -> Span:
        """How often an event happens in one call of ``f``: ``own(g, b)`` per visit of
        block ``b`` of ``g`` (callees' counts added per call), 1 per entry of ``loop``."""
        memo: dict[Function, Span] = {}

        def count(g: Function) -> Span:
            if g in memo:
                return memo[g]

            def block(b: Block) -> Span:
                c = own(g, b)
                for op in b.ops:
                    if op.kind == "call":
                        c = c + count(op.attrs["callee"])
                return c

            fs = self.schedules[g]
            w = _Walk(g, fs, self.found[g], block, lambda b, trips: ZERO,
                      lambda lp: _const(1) if lp is loop else ZERO, self.tripcount,
                      self.extent)
            memo[g] = w.run()
            return memo[g]

        return count(f)

    def _entries(self, f: Function, lp: Loop) -> Span:
        """Entries of ``lp`` (of ``f``) per call of the top."""
        try:   # callees' entries add into their callers, per call
            return self._count(self.module.top, lambda g, b: ZERO, lp)
        except (_Irreducible, InternalError):
            return Span(0, None)


# ---------------------------------------------------------------------- report
def _assumptions(model: LatencyModel) -> list[str]:
    out = []
    for f in model.order:
        if f in model.bound:
            out.append(f"@{f.name}: {model.bound[f]}")
        for lp, ll in model.loops.get(f, {}).items():
            note = ll.unbounded_because or ll.assumed or ll.bounded_because
            if note:
                out.append(f"{_where(f, lp)}: {note}")
    return out


def _rests_on_directives(m: LatencyModel, f: Function) -> bool:
    """Whether a loop of ``f`` or of a function it calls has a directive's trip count."""
    return any(ll.assumed for g in f.call_closure() for ll in m.loops.get(g, {}).values())


def latency_report(module: Module, schedules, platform: Platform = PLAIN,
                   tripcount=None) -> "LatencyReport":
    """report.json's latency fields (see :class:`LatencyReport`) on the target's
    ``platform``; ``tripcount`` as for :class:`LatencyModel`."""
    return LatencyReport(LatencyModel(module, schedules, tripcount), platform)


#: how report.json's ``latency`` counts cycles (its ``counted``)
COUNTED = ("cycles of one call of the top: from the cycle ap_start is seen (the core "
           "idle) to the cycle ap_done is high, both included, as co-simulation counts "
           "them; the next call can start in the cycle after ap_done")


@dataclass(frozen=True, slots=True)
class TopLatency:
    """report.json's ``latency``: the cycles of one call of the top (:data:`COUNTED`),
    at least ``min`` and at most ``max`` (None: unbounded, or only ``min`` is a bound),
    ``exact`` where they are the cycles of every call, and the ``assumptions`` the bounds
    rest on (loops without a constant trip count, directives' trip counts, AXI stalls).
    :meth:`to_json` is the report's dict, in its key order: ``min_cycles`` and
    ``interval`` repeat the bounds for the readers that take them from there."""

    min: int
    max: int | None
    exact: bool
    assumptions: tuple[str, ...] = ()

    def to_json(self) -> dict:
        out = {"min_cycles": self.min, "exact": self.exact, "min": self.min, "max": self.max,
               "interval": Span(self.min, self.max).to_json(), "counted": COUNTED}
        if self.assumptions:
            out["assumptions"] = list(self.assumptions)
        return out

    @classmethod
    def from_json(cls, d: dict) -> TopLatency:
        """The latency of a report.json (``report["latency"]``)."""
        return cls(d["min"], d["max"], d["exact"], tuple(d.get("assumptions", ())))


class LatencyReport:
    """The report's view of a :class:`LatencyModel`: :meth:`top` for
    ``report["latency"]``, :meth:`function` for ``functions[*].latency``, :meth:`loop`
    for ``loops[*].latency``."""

    def __init__(self, model: LatencyModel, platform: Platform = PLAIN):
        self.model = model
        #: with AXI ports (Alveo) the top's latency has only a lower bound
        self.platform = platform

    def top(self) -> TopLatency:
        m = self.model
        top = m.module.top
        lat = m.latency[top]
        if self.platform.axi:
            lat = Span(lat.min, None)
        why = _assumptions(m)
        if self.platform.axi:
            why.append("Alveo top: the core's cycles with memories answering at once; "
                       "AXI transfers stall it, so only min is a bound")
        # a bound that rests on a directive's trip count is not exact, even at min == max
        return TopLatency(lat.min, lat.max, lat.exact and not _rests_on_directives(m, top),
                          tuple(why))

    def function(self, f: Function) -> dict | None:
        m = self.model
        if f not in m.latency:
            return None
        out = m.latency[f].to_json()
        out["exact"] = m.latency[f].exact and not _rests_on_directives(m, f)
        if f in m.bound:
            out["bound"] = m.bound[f]
        return out

    def loop(self, f: Function, lp: Loop) -> dict | None:
        m = self.model
        got = next((ll for l2, ll in m.loops.get(f, {}).items() if l2.header is lp.header), None)
        if got is None:
            return None
        out = got.per_entry.to_json()
        out["trip_count"] = got.trips.to_json()
        ent = m.entries.get((f, lp.header))
        if ent is not None:
            out["entries_per_call"] = ent.to_json()
        if got.unbounded_because:
            out["unbounded_because"] = f"{_where(f, lp)}: {got.unbounded_because}"
        if got.assumed:
            out["assumed"] = f"{_where(f, lp)}: {got.assumed}"
        if got.bounded_because:
            out["bounded_because"] = f"{_where(f, lp)}: {got.bounded_because}"
        return out


# ---------------------------------------------------------------------- replay
def replay_cycles(module: Module, schedules, visits: dict[tuple[str, str], int],
                  edges: dict[tuple[str, str, str], int]) -> int:
    """Cycles of one call of the top whose run visited blocks ``visits[(function,
    block)]`` times and took edges ``edges[(function, src, dst)]`` times (the
    :class:`hls.ir.Interpreter`'s counts of that call, on the final CDFG): the cost of
    each block visit, each pipelined loop entry and the call's own IDLE cycle, with no
    path reasoning.  Not for dataflow regions."""
    total = 1
    for f in _call_order(module):
        fs = schedules[f]
        for b in f.blocks:
            n = visits.get((f.name, b.name), 0)
            if not n:
                continue
            lp = fs.pipelines.get(b)
            if lp is None:
                total += n * (0 if skipped(b) else fs.blocks[b].length)
                continue
            entries = sum(k for (fn, src, dst), k in edges.items()
                          if fn == f.name and dst == b.name and src != b.name)
            # entries x (exit_time + 1) + (visits - entries) x II
            total += entries * entry_cycles(lp, 1) + (n - entries) * lp.ii
    return total


def replay_calls(module: Module, schedules, calls, max_steps: int = 20_000_000) -> list[int]:
    """:func:`replay_cycles` of each of ``calls`` (:class:`hls.verify.Call`, as
    co-simulation ran them, e.g. ``CosimResult.stimulus``), the final CDFG interpreted on
    them in order with one interpreter (globals persist across calls, as in the harness)."""
    from ..verify._irdiag import call_interpreter

    f = module.top
    it = call_interpreter(module, calls, max_steps)
    out = []
    for c in calls:
        v0, e0 = dict(it.visits), dict(it.edges)
        it.load_args(f, c.mem_in)
        it.call(f, c.scalars)
        visits = {k: n - v0.get(k, 0) for k, n in it.visits.items()}
        edges = {k: n - e0.get(k, 0) for k, n in it.edges.items()}
        out.append(replay_cycles(module, schedules, visits, edges))
    return out
