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
* shared units (:func:`share_units`): once the loop has its II, the expensive units
  (multipliers of at least :data:`SHARE_MIN_WIDTH` bits, combinational or the target's
  two-stage ones, and pipelined floating-point units; :func:`pipeline_unit_class`) are
  limited to ``ceil(uses / II)`` instances per class, in modulo slots, and the body is
  scheduled again at that same II with each shared op's delay grown by its operand
  multiplexer (``Target.port_mux_ns`` of the most ops one instance can serve).  When
  that II cannot be met so, the loop keeps its unshared schedule: sharing never makes
  an II worse.  The ops are bound to instances by modulo slot
  (:attr:`LoopPipeline.unit_of`; :func:`check_loop_units` verifies the binding).

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
from dataclasses import dataclass, field, replace
from functools import cached_property

from ..analysis import Loop, loop_line, memory_dependences
from ..errors import ScheduleError
from ..ir import Block, Op, op_def
from ..targets import Target
from ..targets._fp import fp_unit_key
from ._check import check
from ._words import unordered, word_keys
from ._modulo import ModuloEdge, ModuloProblem, ModuloSchedule, compute_mii, modulo_schedule
from ._problem import SchedOp
from ._resources import DedicatedUnit, MemoryPorts, UnitClass, stores_first

#: The op id of the pseudo op ``start`` in a loop's problem.
START = 0

#: Multipliers narrower than this keep their own unit in a pipeline (as binding keeps
#: them in FSM states: a few LUTs, cheaper than the multiplexer a shared one needs).
SHARE_MIN_WIDTH = 16


@dataclass(frozen=True)
class LoopModel:
    """A pipelined loop body as a member of the scheduling family: its
    :class:`ModuloProblem` and the IR op of every problem op id (``ops[i - 1]`` is op id
    ``i``; id :data:`START` is the pseudo op ``start``)."""

    block: Block
    problem: ModuloProblem
    ops: tuple[Op, ...]               # phis first, then the body, no terminator
    cond: Op | None                   # the exit condition, when the body computes it
    #: shared unit class -> (instances, the most ops one instance serves: the operand
    #: multiplexer whose delay the shared ops' timing includes); empty: nothing shared
    shared: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    #: the target's RAMs take one write a cycle: stores of different words stay ordered
    single_writer: bool = False

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
    #: shared units: op -> (unit class, instance), bound by modulo slot (:func:`share_units`)
    unit_of: dict[Op, tuple[str, int]] = field(default_factory=dict)
    #: unit class -> (ops of the class in the body, instances built)
    units: dict[str, tuple[int, int]] = field(default_factory=dict)

    def unit_members(self) -> dict[tuple[str, int], list[Op]]:
        """(class, instance) -> the ops it serves, in issue order (body order on ties)."""
        out: dict[tuple[str, int], list[Op]] = {}
        for op, k in self.unit_of.items():
            out.setdefault(k, []).append(op)
        order = {op: n for n, op in enumerate(self.time)}
        return {k: sorted(v, key=lambda o: (self.time[o] % self.ii, order[o]))
                for k, v in sorted(out.items())}

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


def pipeline_unit_class(target: Target, op: Op, t) -> str | None:
    """The class of units a pipelined loop shares ``op``'s with (``t``: its timing), or
    None: a multiply of at least :data:`SHARE_MIN_WIDTH` bits (the target's class,
    ``mul32``, for a combinational one; ``mul{w}`` for the target's two-stage one, which
    the target names no class for since FSM states do not share it), a floating-point op
    of a pipelined unit (:func:`hls.targets._fp.fp_unit_key`, as binding shares them).
    Dividers keep their own sequential unit (occupancy = latency, rarely below an II)."""
    if op.kind == "mul":
        if op.width < SHARE_MIN_WIDTH:
            return None
        if t.resource is not None:
            return t.resource
        return f"mul{op.width}" if t.latency and t.pipelined else None
    if op_def(op.kind).float and t.latency and t.pipelined:
        return fp_unit_key(op, t.latency)
    return None


def build_loop_model(block: Block, target: Target, trip_count: int | None,
                     timing, shared: Mapping[str, tuple[int, int]] | None = None,
                     loop: Loop | None = None) -> LoopModel:
    """The modulo problem of the loop body ``block`` (see the module docstring).

    ``shared``: unit class -> (instances, most ops per instance) of the classes shared
    (:func:`share_units`): their ops compete for that many units in modulo slots, each
    with the delay of an operand multiplexer of that many sources before its logic.
    ``loop``: the loop whose body ``block`` is (its enclosing loops let the dependence
    analysis enumerate addresses that are not affine: :class:`hls.analysis.Enumeration`)."""
    shared = dict(shared or {})
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
        elif (cls := pipeline_unit_class(target, op, t)) in shared:
            res, occ = UnitClass(cls), max(1, t.occupancy)
            mux = target.port_mux_ns(shared[cls][1]) if shared[cls][1] > 1 else 0.0
            if mux:    # the unit's operand multiplexer: in the chain, or before stage 1
                t = (replace(t, in_delay_ns=round(t.in_delay_ns + mux, 4)) if t.latency
                     else replace(t, delay_ns=round(t.delay_ns + mux, 4)))
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
    words = word_keys(block, ops)
    single_writer = target.tech.ram_single_writer
    for op in ops:
        if op.kind not in ("load", "store"):
            continue
        for prev in seen.get(op.mem, []):
            if unordered(prev, op, words, two_stores=not single_writer):
                continue
            if prev.kind == "store":
                order(prev, op, 1, 0)
            elif op.kind == "store":
                order(prev, op, 0, 0)
        seen.setdefault(op.mem, []).append(op)
    for dep in memory_dependences(block, trip_count, loop):
        order(dep.src, dep.dst, dep.delay, dep.distance)
    cond = block.terminator.operands[0]
    cond_op = cond if isinstance(cond, Op) and cond in idx else None
    if cond_op is not None:
        order(cond_op, START, sops[idx[cond_op]].latency + 1, 1)
    caps = {s.resource: s.resource.units for s in sops if isinstance(s.resource, MemoryPorts)}
    caps.update({s.resource: s.resource.units for s in sops
                 if isinstance(s.resource, DedicatedUnit)})
    caps.update({s.resource: shared[str(s.resource)][0] for s in sops
                 if isinstance(s.resource, UnitClass)})
    prob = ModuloProblem(tuple(sops), tuple(dict.fromkeys(edges)), caps,
                         target.chain_budget_ns, block.name)
    used = {str(r) for r in caps}
    return LoopModel(block, prob, tuple(ops), cond_op,
                     {c: v for c, v in sorted(shared.items()) if c in used}, single_writer)


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
    words = word_keys(b, mem)
    for k, a in enumerate(mem):
        for c in mem[k + 1:]:
            need = 1 if a.kind == "store" else 0 if c.kind == "store" else None
            if need is not None and unordered(a, c, words, two_stores=not m.single_writer):
                need = None
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


def check_loop_schedule(m: LoopModel, lpipe: LoopPipeline, target: Target | None = None,
                        timing=None) -> None:
    """Verify a pipeline: the problem is the loop's (:func:`check_loop_model`), the
    schedule satisfies it (:func:`hls.scheduling.check`: the shared units' classes at most
    their instances busy in every modulo slot), the issue times the RTL uses are the
    schedule's, and the shared units' binding is sound (:func:`check_loop_units`)."""
    check_loop_model(m)
    ms = lpipe.schedule
    check(m.problem, ms)
    base = ms.steps[START]
    if lpipe.ii != ms.ii or lpipe.time != {op: ms.steps[i] - base for op, i in m.id.items()}:
        raise ScheduleError(f"internal error: the pipeline of {m.block.name} is not the "
                            "schedule's")
    check_loop_units(m, lpipe, target, timing)


def check_loop_units(m: LoopModel, lpipe: LoopPipeline, target: Target | None = None,
                     timing=None) -> None:
    """The binding of the shared units, re-derived from the schedule's issue times: the
    ops bound are exactly the problem's ops of a shared class; an instance is below its
    class's count and serves one op per modulo slot it is busy in (an op is busy in
    ``(t + k) mod II`` for ``k`` below its occupancy); no instance serves more ops than
    the operand multiplexer the timing assumed; the figures reported are the binding's.
    With ``target`` and ``timing``, also that every op of a shared class (by the IR,
    :func:`pipeline_unit_class`) is in the problem's class, its delay including that
    multiplexer's."""
    p, ii, name = m.problem, lpipe.ii, m.block.name
    bad: list[str] = []
    want = {op: str(p.by_id[i].resource) for op, i in m.id.items()
            if isinstance(p.by_id[i].resource, UnitClass)}
    if {op: c for op, (c, _) in lpipe.unit_of.items()} != want:
        bad.append("the ops bound to shared units are not the problem's shared ops")
    busy: dict[tuple[str, int], dict[int, Op]] = {}
    for op, (cls, inst) in lpipe.unit_of.items():
        if cls not in m.shared or not 0 <= inst < m.shared[cls][0]:
            bad.append(f"{op.kind} bound to {cls} instance {inst}, not one of the class's")
            continue
        sop = p.by_id[m.id[op]]
        for k in range(sop.occupancy):
            slot = (lpipe.time[op] + k) % ii
            other = busy.setdefault((cls, inst), {}).setdefault(slot, op)
            if other is not op:
                bad.append(f"{cls} instance {inst} serves {other.kind} and {op.kind} in "
                           f"modulo slot {slot}")
    members = lpipe.unit_members()
    for (cls, inst), ops in members.items():
        if cls in m.shared and len(ops) > m.shared[cls][1]:
            bad.append(f"{cls} instance {inst} serves {len(ops)} ops, its multiplexer "
                       f"was timed for {m.shared[cls][1]}")
    figures = {cls: (sum(1 for c in want.values() if c == cls),
                     len({i for (c, i) in members if c == cls})) for cls in m.shared}
    if lpipe.units != figures:
        bad.append(f"reported units {lpipe.units} are not the binding's {figures}")
    if (ring := unit_loop(lpipe)) is not None:
        bad.append(f"a combinational loop through the units {ring}")
    if target is not None and timing is not None:
        for op, i in m.id.items():
            if op.kind == "phi":
                continue
            t, sop = timing(target, op), p.by_id[i]
            cls = pipeline_unit_class(target, op, t)
            if cls not in m.shared:
                continue
            mux = target.port_mux_ns(m.shared[cls][1]) if m.shared[cls][1] > 1 else 0.0
            got = sop.in_delay_ns - t.in_delay_ns if t.latency else sop.delay_ns - t.delay_ns
            if str(sop.resource) != cls or got < mux - 1e-6:
                bad.append(f"{op.kind} of class {cls} is not timed as a shared unit "
                           f"(resource {sop.resource}, multiplexer {got:.3f} < {mux:.3f} ns)")
    if bad:
        raise ScheduleError(f"internal error: the shared units of the pipeline of {name}: "
                            + "; ".join(bad[:5]))


def share_units(lp: Loop, target: Target, timing, m: LoopModel,
                ms: ModuloSchedule) -> tuple[LoopModel, ModuloSchedule] | None:
    """The loop scheduled again at its II ``ms.ii`` with every shared class
    (:func:`pipeline_unit_class`) limited to ``ceil(busy cycles / II)`` instances where
    that is fewer than its ops, or None when no class is shared or that II cannot be met
    so (the delay of the units' operand multiplexers may lengthen a recurrence): then the
    loop keeps ``ms`` and its own units.  The II is the one found without sharing, so the
    resource bound the units add (``ceil(uses / units)``) never raises it."""
    ii = ms.ii
    busy: dict[str, list[int]] = {}
    for op in m.ops:
        if op.kind == "phi":
            continue
        t = timing(target, op)
        cls = pipeline_unit_class(target, op, t)
        if cls is not None:
            busy.setdefault(cls, []).append(max(1, t.occupancy))
    shared = {}
    for cls, occ in sorted(busy.items()):
        units = -(-sum(occ) // ii)
        if units < len(occ):
            shared[cls] = (units, min(len(occ), ii))
    if not shared:
        return None
    m2 = build_loop_model(lp.header, target, lp.trip_count, timing, shared, lp)
    check_loop_model(m2)
    try:
        return m2, modulo_schedule(m2.problem, ii=ii, seed=0, workers=1)
    except ScheduleError:
        return None


def _bind_units(m: LoopModel, lpipe: LoopPipeline) -> None:
    """Bind the shared ops to instances by modulo slot: in body order, each op takes the
    lowest instance of its class free in the slots it is busy in (with occupancy 1,
    the ``k``-th op of a slot takes instance ``k``)."""
    p, ii = m.problem, lpipe.ii
    busy: dict[tuple[str, int], set[int]] = {}
    for op in m.ops:
        sop = p.by_id[m.id[op]]
        if not isinstance(sop.resource, UnitClass):
            continue
        cls = str(sop.resource)
        slots = {(lpipe.time[op] + k) % ii for k in range(sop.occupancy)}
        inst = 0
        while busy.get((cls, inst), set()) & slots:
            inst += 1
        busy.setdefault((cls, inst), set()).update(slots)
        lpipe.unit_of[op] = (cls, inst)
    for cls in m.shared:
        insts = {i for (c, i) in busy if c == cls}
        lpipe.units[cls] = (sum(1 for c, _ in lpipe.unit_of.values() if c == cls), len(insts))


def schedule_loop(lp: Loop, target: Target, timing, ii: int | None = None,
                  relax_ii: bool = False, share: bool = True) -> tuple[LoopModel, LoopPipeline]:
    """Modulo-schedule the body of ``lp`` (CP-SAT at II = MII upwards; see
    :func:`hls.scheduling.modulo_schedule`) and verify the problem against the IR and the
    result with the family checker (:func:`check_loop_schedule`).

    ``ii``: a required initiation interval (a directive).  When it cannot be met, a
    ``ScheduleError`` says why, unless ``relax_ii``: then the smallest feasible II above
    it is used and the report keeps the request and the reason.  ``share``: at the II
    found, share the multipliers and floating-point units (:func:`share_units`)."""
    m = build_loop_model(lp.header, target, lp.trip_count, timing, loop=lp)
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
    info, optimal = ms.mii, ms.optimal_ii    # the loop's as found, units unshared

    def pipeline(m: LoopModel, ms: ModuloSchedule) -> LoopPipeline:
        base = ms.steps[START]
        t = {op: ms.steps[i] - base for op, i in m.id.items()}
        wait = exit_waits(m, ms, target)
        lpipe = LoopPipeline(lp.header, lp, ms.ii, info.mii, info.res_mii, info.rec_mii,
                             info.limiting or "", t, {op: m.latency(op) for op in m.ops},
                             ms.stages + wait, method=ms.method, optimal=optimal,
                             requested_ii=ii, relaxed=relaxed, model=m, schedule=ms,
                             exit_wait=wait)
        _assign_ports(m, lpipe)
        _bind_units(m, lpipe)
        return lpipe

    sharing = share_units(lp, target, timing, m, ms) if share else None
    lpipe = pipeline(*sharing) if sharing is not None else None
    if lpipe is not None and unit_loop(lpipe) is None:
        m = sharing[0]
    else:       # nothing shared, or only at the price of a combinational loop
        lpipe = pipeline(m, ms)
    check_loop_schedule(m, lpipe, target, timing)
    return m, lpipe


def unit_loop(lpipe: LoopPipeline) -> str | None:
    """A combinational loop through the shared combinational units, or None.  A unit's
    output is the wire of each of its sharers, and its operand multiplexer takes every
    sharer's operands: when a sharer's result reaches, within its cycle (chained logic,
    a phi's previous-iteration value read in the cycle it is born), an op of a second
    unit, whose other sharer's result reaches the first unit's in the same way, the
    netlist has a loop though no cycle ever runs around it (the multiplexers select
    different slots).  Synthesis rejects such a loop, so the loop keeps its own units.
    Returns the units around the loop ("mul32 0 -> mul32 1 -> mul32 0")."""
    ii = lpipe.ii
    comb = {op: k for op, k in lpipe.unit_of.items() if lpipe.latency[op] == 0}
    if not comb:
        return None
    memo: dict[tuple[Op, int], frozenset] = {}

    def reach(v, t: int) -> frozenset:
        """The combinational units whose output ``v`` read at time ``t`` depends on
        within that cycle (nothing when it is read from a register)."""
        if not isinstance(v, Op) or v not in lpipe.time or lpipe.ready(v) != t:
            return frozenset()
        if (v, t) in memo:
            return memo[(v, t)]
        memo[(v, t)] = frozenset()           # (a phi's own loop is cut by its register)
        if v in comb:
            out = frozenset([comb[v]])
        elif v.kind == "phi":
            out = frozenset().union(*(reach(x, lpipe.time[v] + ii) for p, x in v.incoming
                                      if p is lpipe.block))
        elif lpipe.latency[v] == 0:
            out = frozenset().union(*(reach(x, t) for x in v.operands))
        else:
            out = frozenset()
        memo[(v, t)] = out
        return out

    edges: dict[tuple[str, int], set] = {}
    for op, k in comb.items():
        for x in op.operands:
            for src in reach(x, lpipe.time[op]):
                edges.setdefault(src, set()).add(k)
    state: dict = {}

    def visit(u, path: list):
        state[u] = 1
        for v in sorted(edges.get(u, ())):
            if state.get(v) == 1:
                ring = path[path.index(v):] + [v] if v in path else [u, v]
                return " -> ".join(f"{c} {i}" for c, i in ring)
            if v not in state and (found := visit(v, path + [v])):
                return found
        state[u] = 2
        return None

    for u in sorted(edges):
        if u not in state and (found := visit(u, [u])):
            return found
    return None


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
