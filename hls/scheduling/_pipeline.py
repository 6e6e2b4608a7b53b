"""Loop pipelining of single-block innermost loops: the modulo problem and its schedule.

A loop whose body is one block ``B`` (``B`` branches to itself or leaves) is pipelined:
a new iteration starts every ``II`` cycles.  :func:`build_loop_model` states it as a
member of the scheduling family, a :class:`~hls.scheduling.ModuloProblem` (held by a
:class:`LoopModel` with the map between its op ids and the IR ops):

* one op per non-phi, non-terminator op of ``B`` (latency, delay, resource as in the
  block scheduler), one zero-delay op per phi (the *phi op*: it selects the initial value
  in the first iteration and the back-edge value of the previous iteration otherwise),
  and a pseudo op ``start`` (op id 0) that every op follows (``t(start) = 0`` after
  normalisation);
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

:func:`schedule_loop` hands the problem to the exact modulo scheduler
(:func:`hls.scheduling.modulo_schedule`, CP-SAT from II = MII upwards) and verifies the
result with the family's checker (:func:`hls.scheduling.check`), which trusts nothing but
the step numbers.  What that checker cannot know is whether the problem is the loop's:
:func:`check_loop_model` re-derives the conversion from the IR (every op of the body is a
problem op; every value the body computes and reads, the memory order inside an iteration
and the exit condition are edges).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from ..analysis import Loop, loop_line, memory_dependences
from ..errors import ScheduleError
from ..ir import Block, Op, op_def
from ..targets import Target
from ._check import check
from ._modulo import ModuloEdge, ModuloProblem, ModuloSchedule, compute_mii, modulo_schedule
from ._problem import SchedOp
from ._resources import DedicatedUnit, MemoryPorts, stores_first

#: The op id of the pseudo op ``start`` in a loop's problem.
START = 0


@dataclass(frozen=True)
class LoopModel:
    """A pipelined loop body as a member of the scheduling family: its
    :class:`ModuloProblem` and the IR op of every problem op id (``ops[i - 1]`` is op id
    ``i``; id :data:`START` is the pseudo op ``start``)."""

    block: Block
    problem: ModuloProblem
    ops: tuple[Op, ...]               # phis first, then the body, no terminator
    cond: Op | None                   # the exit condition, when the body computes it

    @cached_property
    def id(self) -> Mapping[Op, int]:
        """IR op -> problem op id."""
        return {op: i for i, op in enumerate(self.ops, start=1)}

    def latency(self, op: Op) -> int:
        return self.problem.by_id[self.id[op]].latency


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
    model: LoopModel | None = None    # the problem it solves
    schedule: ModuloSchedule | None = None  # the solver's schedule (by problem op id)
    #: the exit waits a stage (:func:`exit_waits`): ``stages`` counts an empty last stage
    exit_wait: bool = False

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


def build_loop_model(block: Block, target: Target, trip_count: int | None,
                     timing) -> LoopModel:
    """The modulo problem of the loop body ``block`` (see the module docstring)."""
    ops = [op for op in block.ops if op.kind == "phi"]
    ops += [op for op in block.ops if op.kind != "phi" and not op.is_terminator]
    idx = {op: i for i, op in enumerate(ops, start=1)}
    sops = [SchedOp(START, "start", 0, 0.0)]
    ndiv = 0
    for i, op in enumerate(ops, start=1):
        if op.kind == "phi":
            sops.append(SchedOp(i, f"phi{i}", 0, 0.0))
            continue
        t = timing(target, op)
        res, occ = None, max(1, t.occupancy)
        if op.kind in ("load", "store"):
            res, occ = MemoryPorts(op.mem.name, op.mem.ports), 1
        elif op_def(op.kind).divider:
            # one sequential divider each, named by its order in the body (deterministic)
            line = f" at line {op.loc.line}" if op.loc and op.loc.line else ""
            res = DedicatedUnit(f"divider {ndiv} ({op.kind}{line})")
            ndiv += 1
        sops.append(SchedOp(i, f"{op.kind}{i}", t.latency, t.delay_ns, res, occ,
                            t.in_delay_ns))
    edges: list[ModuloEdge] = []

    def order(src: Op | int, dst: Op | int, delay: int, distance: int) -> None:
        u = src if isinstance(src, int) else idx[src]
        v = dst if isinstance(dst, int) else idx[dst]
        edges.append(ModuloEdge(u, v, distance, delay, False))

    for i, op in enumerate(ops, start=1):
        order(START, i, 0, 0)
        if op.kind == "phi":
            for pred, v in op.incoming:
                if pred is block and isinstance(v, Op) and v in idx:
                    edges.append(ModuloEdge(idx[v], i, 1))   # the recurrence
            continue
        for v in op.operands:
            if isinstance(v, Op) and v in idx:
                edges.append(ModuloEdge(idx[v], i))
    # memory order inside an iteration (as the block scheduler does)
    seen: dict[object, list[Op]] = {}
    for op in ops:
        if op.kind not in ("load", "store"):
            continue
        for prev in seen.get(op.mem, []):
            if prev.kind == "store":
                order(prev, op, 1, 0)
            elif op.kind == "store":
                order(prev, op, 0, 0)
        seen.setdefault(op.mem, []).append(op)
    for dep in memory_dependences(block, trip_count):
        order(dep.src, dep.dst, dep.delay, dep.distance)
    cond = block.terminator.operands[0]
    cond_op = cond if isinstance(cond, Op) and cond in idx else None
    if cond_op is not None:
        order(cond_op, START, sops[idx[cond_op]].latency + 1, 1)
    caps = {s.resource: s.resource.units for s in sops if isinstance(s.resource, MemoryPorts)}
    caps.update({s.resource: s.resource.units for s in sops
                 if isinstance(s.resource, DedicatedUnit)})
    prob = ModuloProblem(tuple(sops), tuple(dict.fromkeys(edges)), caps,
                         target.chain_budget_ns, block.name)
    return LoopModel(block, prob, tuple(ops), cond_op)


def check_loop_model(m: LoopModel) -> None:
    """The conversion, re-derived from the IR (the family checker takes the problem as
    given): the problem's ops are the body's, every value the body computes and reads is
    a data edge (from the previous iteration into a phi), loads and stores of a memory
    keep their program order inside an iteration, and the exit condition is known by the
    last cycle of stage 0.  (The loop-carried memory dependences are the analysis'.)"""
    p, b = m.problem, m.block
    bad = []
    body = [op for op in b.ops if not op.is_terminator]
    if len(m.ops) != len(body) or set(m.ops) != set(body):
        bad.append("its ops are not the body's")
    weight: dict[tuple[int, int, int, bool], int] = {}
    for e in p.edges:
        key = (e.src, e.dst, e.distance, e.is_data)
        weight[key] = max(weight.get(key, 0), e.weight(p))
    reads = [(v, op, 1 if op.kind == "phi" else 0)
             for op in body for v in
             ([v for pred, v in op.incoming if pred is b] if op.kind == "phi" else op.operands)]
    for v, op, d in reads:
        if isinstance(v, Op) and v.block is b and (m.id.get(v), m.id.get(op), d, True) not in weight:
            bad.append(f"{op.kind} reads {v.kind} ({d} iteration(s) earlier) without a data edge")
    mem = [op for op in body if op.kind in ("load", "store")]
    for k, a in enumerate(mem):
        for c in mem[k + 1:]:
            need = 1 if a.kind == "store" else 0 if c.kind == "store" else None
            if a.mem == c.mem and need is not None and \
                    weight.get((m.id[a], m.id[c], 0, False), -1) < need:
                bad.append(f"{a.kind} -> {c.kind} of one memory out of program order")
    cond = b.terminator.operands[0]
    if isinstance(cond, Op) and cond.block is b and cond in m.id and \
            weight.get((m.id[cond], START, 1, False), -1) < m.latency(cond) + 1:
        bad.append("the exit condition is not ordered before the next iteration's start")
    if bad:
        raise ScheduleError(f"internal error: the modulo problem of {b.name} is not its "
                            "loop's: " + "; ".join(bad[:5]))


def check_loop_schedule(m: LoopModel, lpipe: LoopPipeline) -> None:
    """Verify a pipeline: the problem is the loop's (:func:`check_loop_model`), the
    schedule satisfies it (:func:`hls.scheduling.check`), and the issue times the RTL uses
    are the schedule's."""
    check_loop_model(m)
    ms = lpipe.schedule
    check(m.problem, ms)
    base = ms.steps[START]
    if lpipe.ii != ms.ii or lpipe.time != {op: ms.steps[i] - base for op, i in m.id.items()}:
        raise ScheduleError(f"internal error: the pipeline of {m.block.name} is not the "
                            "schedule's")


def schedule_loop(lp: Loop, target: Target, timing, ii: int | None = None,
                  relax_ii: bool = False) -> tuple[LoopModel, LoopPipeline]:
    """Modulo-schedule the body of ``lp`` (CP-SAT at II = MII upwards; see
    :func:`hls.scheduling.modulo_schedule`) and verify the problem against the IR and the
    result with the family checker (:func:`check_loop_schedule`).

    ``ii``: a required initiation interval (a directive).  When it cannot be met, a
    ``ScheduleError`` says why, unless ``relax_ii``: then the smallest feasible II above
    it is used and the report keeps the request and the reason."""
    m = build_loop_model(lp.header, target, lp.trip_count, timing)
    check_loop_model(m)
    mp = m.problem
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
    base = ms.steps[START]
    t = {op: ms.steps[i] - base for op, i in m.id.items()}
    info = ms.mii
    wait = exit_waits(m, ms, target)
    lpipe = LoopPipeline(lp.header, lp, ms.ii, info.mii, info.res_mii, info.rec_mii,
                         info.limiting or "", t, {op: m.latency(op) for op in m.ops},
                         ms.stages + wait, method=ms.method, optimal=ms.optimal_ii,
                         requested_ii=ii, relaxed=relaxed, model=m, schedule=ms,
                         exit_wait=wait)
    _assign_ports(m, lpipe)
    check_loop_schedule(m, lpipe)
    return m, lpipe


def exit_waits(m: LoopModel, ms: ModuloSchedule, target: Target) -> bool:
    """Whether the loop's exit waits a stage: with a single stage, the controller leaves
    the loop in the cycle its exit condition is known (``hls.rtl`` ``PipelineRTL``), so
    the condition drives the FSM's next state, the exit edge's register writes and the
    next loop's entry, as a ``condbr`` does.  A ``condbr`` leaves them
    ``TechParams.branch_ns`` of the cycle (:func:`hls.scheduling.op_timing`); an exit
    condition that arrives later than that instead leaves through an empty last stage,
    whose controller decides from registered valid bits only: one cycle more per entry
    of the loop, none per iteration.  Loops of several stages always leave that way."""
    branch = target.tech.branch_ns
    if not branch or ms.stages != 1 or m.cond is None:
        return False
    return ms.arrival_ns.get(m.id[m.cond], 0.0) + branch > target.chain_budget_ns + 1e-9


def _assign_ports(m: LoopModel, lpipe: LoopPipeline) -> None:
    used: dict[tuple[object, int], int] = {}
    for op in stores_first(m.ops):
        k = (op.mem, lpipe.time[op] % lpipe.ii)
        lpipe.port_of[op] = used.get(k, 0)
        used[k] = used.get(k, 0) + 1
