"""Loop pipelining of single-block innermost loops: the modulo problem and its schedule.

A loop whose body is one block ``B`` (``B`` branches to itself or leaves) is pipelined:
a new iteration starts every ``II`` cycles.  The problem handed to the modulo scheduler:

* one op per non-phi, non-terminator op of ``B`` (latency, delay, resource as in the
  block scheduler), one zero-delay op per phi (the *phi op*: it selects the initial value
  in the first iteration and the back-edge value of the previous iteration otherwise),
  and a pseudo op ``start`` that every op follows (``t(start) = 0`` after normalisation);
* data edges inside an iteration (distance 0, chaining as in the block scheduler);
* recurrences: back-edge value -> phi op, distance 1 (chained when the previous
  iteration's value is born in the very cycle the phi op reads it);
* memory dependences between iterations (:mod:`hls.analysis._deps`): store -> access
  delay 1, load -> store delay 0, at their distance; inside an iteration, program order
  as in the block scheduler;
* control: the exit condition decides at the last cycle of stage 0 whether the next
  iteration starts, so ``t(cond) + latency(cond) <= II - 1``: edge cond -> start with
  delay ``latency + 1`` and distance 1;
* resources: the memory model's ports per memory (:data:`hls.targets.MEMORY`), in
  modulo slots; each divider op owns a sequential divider (occupancy = latency).
  Multipliers are not shared inside a pipeline.

:func:`schedule_loop` hands this to the exact modulo scheduler
(:func:`hls.scheduling.modulo_schedule`, CP-SAT from II = MII upwards) and re-verifies
the result with two checkers that do not trust it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..analysis import Loop, loop_line, memory_dependences
from ..errors import ScheduleError
from ..ir import Block, Op, op_def
from ..targets import Target
from ._modulo import ModuloEdge, ModuloProblem, compute_mii, modulo_schedule
from ._modulo_check import check_modulo_schedule
from ._problem import SchedOp
from ._resources import DedicatedUnit, MemoryPorts, Resource


@dataclass(frozen=True)
class LoopEdge:
    src: Op | str   # "start" for the pseudo op
    dst: Op | str
    delay: int      # cycles; 0 on a data edge means "chained in the same cycle"
    distance: int
    data: bool      # a value flows (chaining applies when delay == latency == 0)


@dataclass
class LoopProblem:
    block: Block
    ops: list[Op]                     # phis first, then the body, no terminator
    latency: dict[Op, int]
    delay_ns: dict[Op, float]
    resource: dict[Op, Resource | None]
    occupancy: dict[Op, int]
    edges: list[LoopEdge]
    caps: dict[Resource, int]
    clock_period_ns: float
    cond: Op | None


@dataclass
class LoopPipeline:
    """The modulo schedule of one pipelined loop body."""

    block: Block
    loop: Loop
    ii: int
    mii: int
    res_mii: int
    rec_mii: int
    limiting: str
    time: dict[Op, int]               # issue time within an iteration (phis included)
    latency: dict[Op, int]
    stages: int
    port_of: dict[Op, int] = field(default_factory=dict)
    method: str = "cpsat"
    optimal: bool | None = None
    requested_ii: int | None = None   # an II directive
    relaxed: str | None = None        # why the requested II was not met (--relax-ii)

    @property
    def depth(self) -> int:
        """Cycles from an iteration's first op to its last result."""
        return max([self.time[o] + self.latency[o] for o in self.time] + [0]) + 1

    def ready(self, op: Op) -> int:
        return self.time[op] + self.latency[op]

    def to_text(self) -> str:
        lines = [f"pipeline {self.block.name}: II={self.ii} (MII={self.mii}: res {self.res_mii}, "
                 f"rec {self.rec_mii}) stages={self.stages} depth={self.depth}"]
        for op in self.time:
            lines.append(f"  t={self.time[op]:3d} s{self.time[op] // self.ii} {op.kind}"
                         + (f" port{self.port_of[op]}" if op in self.port_of else ""))
        return "\n".join(lines) + "\n"


def why_not_pipelined(lp: Loop, inner: bool) -> str | None:
    """None when ``lp`` can be pipelined, else the reason."""
    if not inner:
        return "not an innermost loop"
    if len(lp.blocks) != 1:
        return "the loop body has several blocks (branches inside the loop)"
    b = lp.header
    t = b.terminator
    if t.kind != "condbr" or (t.targets[0] is b) == (t.targets[1] is b):
        return "the loop has no single conditional exit"
    for op in b.ops:
        if op.kind == "call":
            return f"it calls @{op.attrs['callee'].name}, a separate (non-pipelined) module"
    if all(op.is_terminator for op in b.ops):
        return "its body is empty: only the branch, nothing to overlap"
    return None


def build_loop_problem(block: Block, target: Target, trip_count: int | None,
                       timing) -> LoopProblem:
    ops = [op for op in block.ops if op.kind == "phi"]
    ops += [op for op in block.ops if op.kind != "phi" and not op.is_terminator]
    inb = set(ops)
    lat, dly, res, occ = {}, {}, {}, {}
    ndiv = 0
    for op in ops:
        if op.kind == "phi":
            lat[op], dly[op], res[op], occ[op] = 0, 0.0, None, 1
            continue
        t = timing(target, op)
        lat[op], dly[op], occ[op] = t.latency, t.delay_ns, max(1, t.occupancy)
        if op.kind in ("load", "store"):
            res[op], occ[op] = MemoryPorts(op.mem.name), 1
        elif op_def(op.kind).divider:
            # one sequential divider each, named by its order in the body (deterministic)
            line = f" at line {op.loc.line}" if op.loc and op.loc.line else ""
            res[op] = DedicatedUnit(f"divider {ndiv} ({op.kind}{line})")
            ndiv += 1
        else:
            res[op] = None
    edges: list[LoopEdge] = []
    for op in ops:
        edges.append(LoopEdge("start", op, 0, 0, False))
        if op.kind == "phi":
            for pred, v in op.incoming:
                if pred is block and isinstance(v, Op) and v in inb:
                    edges.append(LoopEdge(v, op, lat[v], 1, True))
            continue
        for v in op.operands:
            if isinstance(v, Op) and v in inb:
                edges.append(LoopEdge(v, op, lat[v], 0, True))
    # memory order inside an iteration (as the block scheduler does)
    seen: dict[object, list[Op]] = {}
    for op in ops:
        if op.kind not in ("load", "store"):
            continue
        for prev in seen.get(op.mem, []):
            if prev.kind == "store":
                edges.append(LoopEdge(prev, op, 1, 0, False))
            elif op.kind == "store":
                edges.append(LoopEdge(prev, op, 0, 0, False))
        seen.setdefault(op.mem, []).append(op)
    for dep in memory_dependences(block, trip_count):
        edges.append(LoopEdge(dep.src, dep.dst, dep.delay, dep.distance, False))
    cond = block.terminator.operands[0]
    cond_op = cond if isinstance(cond, Op) and cond in inb else None
    if cond_op is not None:
        edges.append(LoopEdge(cond_op, "start", lat[cond_op] + 1, 1, False))
    caps = {r: r.units for r in res.values() if isinstance(r, MemoryPorts)}
    caps.update({r: r.units for r in res.values() if isinstance(r, DedicatedUnit)})
    return LoopProblem(block, ops, lat, dly, res, occ, edges, caps, target.clock_period_ns, cond_op)


def modulo_violations(p: LoopProblem, t: dict[Op, int], ii: int) -> list[str]:
    """Every violated constraint of times ``t`` at ``ii`` (empty: a valid modulo schedule).
    Trusts nothing but the numbers: edges with distances, modulo resources."""
    bad = []
    tt = dict(t)
    tt["start"] = 0
    for op in p.ops:
        if t[op] < 0:
            bad.append(f"{op.kind} at negative time {t[op]}")
    for e in p.edges:
        if tt[e.dst] + ii * e.distance < tt[e.src] + e.delay:
            bad.append(f"edge {getattr(e.src, 'kind', e.src)} -> {getattr(e.dst, 'kind', e.dst)} "
                       f"(delay {e.delay}, distance {e.distance}): "
                       f"{tt[e.dst]} + {ii}*{e.distance} < {tt[e.src]} + {e.delay}")
    table: dict[tuple[Resource, int], int] = {}
    for op in p.ops:
        r = p.resource[op]
        if not r:
            continue
        for k in range(p.occupancy[op]):
            key = (r, (t[op] + k) % ii)
            table[key] = table.get(key, 0) + 1
    for (r, slot), n in sorted(table.items()):
        if n > p.caps.get(r, 1):
            bad.append(f"resource {r}: {n} uses in modulo slot {slot} of II={ii}, "
                       f"capacity {p.caps.get(r, 1)}")
    return bad


def check_loop_schedule(p: LoopProblem, lpipe: LoopPipeline) -> None:
    bad = modulo_violations(p, lpipe.time, lpipe.ii)
    # chaining: a distance-0 data edge at equal times must carry a combinational value
    for e in p.edges:
        if e.data and e.distance == 0 and isinstance(e.src, Op):
            if lpipe.time[e.dst] < lpipe.time[e.src] + p.latency[e.src]:
                bad.append(f"{e.dst.kind} reads {e.src.kind} before it is ready")
    if bad:
        raise ScheduleError(f"internal error: invalid pipeline schedule of {p.block.name}: "
                            + "; ".join(bad[:5]))


def to_modulo_problem(p: LoopProblem) -> tuple[ModuloProblem, list]:
    """The loop problem as a :class:`ModuloProblem` (op id 0 is the pseudo op ``start``)."""
    nodes: list = ["start"] + p.ops
    idx = {n: i for i, n in enumerate(nodes)}
    sops = [SchedOp(0, "start", 0, 0.0)]
    for i, op in enumerate(p.ops, start=1):
        sops.append(SchedOp(i, f"{op.kind}{i}", p.latency[op], p.delay_ns[op], p.resource[op],
                            p.occupancy[op]))
    edges = []
    for e in p.edges:
        if e.data and isinstance(e.src, Op) and e.delay == p.latency[e.src]:
            edges.append(ModuloEdge(idx[e.src], idx[e.dst], e.distance))  # chaining allowed
        else:
            edges.append(ModuloEdge(idx[e.src], idx[e.dst], e.distance, e.delay, e.data))
    prob = ModuloProblem(tuple(sops), tuple(dict.fromkeys(edges)), dict(p.caps),
                         p.clock_period_ns, p.block.name)
    return prob, nodes


def schedule_loop(lp: Loop, target: Target, timing, ii: int | None = None,
                  relax_ii: bool = False) -> tuple[LoopProblem, LoopPipeline]:
    """Modulo-schedule the body of ``lp`` (CP-SAT at II = MII upwards; see
    :func:`hls.scheduling.modulo_schedule`) and re-verify the result twice: with the
    modulo checker and with :func:`check_loop_schedule` on the loop's own terms.

    ``ii``: a required initiation interval (a directive).  When it cannot be met, a
    ``ScheduleError`` says why, unless ``relax_ii``: then the smallest feasible II above
    it is used and the report keeps the request and the reason."""
    p = build_loop_problem(lp.header, target, lp.trip_count, timing)
    mp, nodes = to_modulo_problem(p)
    relaxed = None
    if ii is None:
        ms = modulo_schedule(mp, seed=0, workers=1)
    else:
        info = compute_mii(mp)
        where = (f"loop {lp.header.name} of @{lp.header.function.name}"
                 + (f" (line {loop_line(lp)})" if loop_line(lp) else ""))
        if ii < info.mii:
            why = f"the MII is {info.mii} ({info.limiting})"
            if not relax_ii:
                loc = lp.header.function.loc
                raise ScheduleError(f"{where}: the requested II={ii} cannot be met: {why}; "
                                    f"--relax-ii accepts II={info.mii} or more",
                                    loc.file if loc else None, loop_line(lp))
            relaxed = why
            ms = modulo_schedule(mp, seed=0, workers=1)
        else:
            ms = None
            try:
                ms = modulo_schedule(mp, ii=ii, seed=0, workers=1)
            except ScheduleError as exc:
                if not relax_ii:
                    loc = lp.header.function.loc
                    raise ScheduleError(f"{where}: the requested II={ii} cannot be met: "
                                        f"{exc.message}; --relax-ii accepts a larger II",
                                        loc.file if loc else None, loop_line(lp)) from None
                relaxed = exc.message
                k = ii + 1
                while ms is None:
                    try:
                        ms = modulo_schedule(mp, ii=k, seed=0, workers=1)
                    except ScheduleError:
                        k += 1
    check_modulo_schedule(mp, ms)
    base = ms.steps[0]
    t = {op: ms.steps[i] - base for i, op in enumerate(nodes) if i}
    requested, ii = ii, ms.ii
    depth = max(t[o] + p.latency[o] for o in p.ops) + 1
    stages = max(1, math.ceil(depth / ii))
    info = ms.mii
    limiting = info.limiting or ""
    lpipe = LoopPipeline(lp.header, lp, ii, info.mii, info.res_mii, info.rec_mii, limiting, t,
                         dict(p.latency), stages, method=ms.method, optimal=ms.optimal_ii,
                         requested_ii=requested, relaxed=relaxed)
    _assign_ports(p, lpipe)
    check_loop_schedule(p, lpipe)
    return p, lpipe


def _assign_ports(p: LoopProblem, lpipe: LoopPipeline) -> None:
    used: dict[tuple[object, int], int] = {}
    for op in p.ops:
        if op.kind in ("load", "store"):
            k = (op.mem, lpipe.time[op] % lpipe.ii)
            lpipe.port_of[op] = used.get(k, 0)
            used[k] = used.get(k, 0) + 1
