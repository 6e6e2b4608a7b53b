"""Scheduling a whole CDFG function: one :class:`SchedProblem` per basic block.

The execution model the problems encode (and ``hls.rtl`` implements):

* The FSM runs one block at a time; a block's steps are consecutive states, the
  terminator is the sink, so every result of a block is born by its last step and the
  successor starts in a fresh state.
* Phis are registers written on the edge from each predecessor: their incoming values
  are read in the predecessor's last step (data edges into the sink).
* Memories are synchronous RAMs with two ports: loads return data one step after issue
  (latency 1), stores commit at the end of their step, reads are read-first.  Within a
  block, per memory, in program order: store -> load and store -> store need one step
  (``d = 1``); load -> store may share a step (read-first).  A store and a load of
  provably different words (affine addresses in the same terms whose constants differ:
  a delay line's ``d[5] = d[4]; d[4] = d[3]; ...``) need no order; two stores keep theirs.  A ``call`` hands the ports
  of every memory it touches to the callee for its whole step, so memory ops on those
  memories keep clear of it (load -> call ``d = 2``: the load's data must be captured
  before the callee drives the port).
* Scalar operands of the same block chain combinationally within the clock period.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field, replace

from .. import progress
from ..analysis import find_loops, loop_line
from ..ir import FPU, Block, Const, Function, Op, Param, Value, op_def
from ..targets._fp import fp_timing
from ..targets import MAX_WIDTH, OpTiming, Target
from ._asap import asap_schedule
from ._check import check_schedule
from ._problem import SchedEdge, SchedOp, SchedProblem, Schedule
from ._resources import MemoryPorts, UnitClass, cap_for
from ..errors import ScheduleError
from ._pipeline import LoopPipeline, schedule_loop, why_not_pipelined
from ._words import unordered, word_keys
from ._profit import LoopEstimate, Profitability
from ._sdc import sdc_schedule



def op_timing(target: Target, op: Op) -> OpTiming:
    """The target's timing of ``op``: its definition names the class in the operator
    table (or the floating-point units) and which width the class is queried at."""
    d = op_def(op.kind)
    if d.timing == FPU:
        return fp_timing(target, op)[1]
    if d.timing is None:
        raise ScheduleError(f"internal error: op kind '{op.kind}' has no timing")
    width = op.width
    if d.timing_width == "widest" or width == 0:
        width = max([o.width for o in op.operands] + [op.width, 1])
    cls = d.timing
    lutram = op.kind in ("load", "store") and op.mem is not None and op.mem.async_read
    if lutram and op.kind == "load":
        cls = "load_async"  # a small array in LUT RAM: the data in the issue cycle
    t = target.timing(cls, min(max(width, 1), MAX_WIDTH))
    if cls == "load_async":
        # LUT RAM is 16 words deep (TRELLIS_DPR16X4): a deeper array is several, and its
        # read a multiplexer of their outputs (mips's 64-word ``dmem``: four, 1.8 ns of
        # multiplexer and routing after the RAM's read on ECP5)
        t = replace(t, delay_ns=round(t.delay_ns + target.port_mux_ns(-(-op.mem.depth_words // 16)), 4))
    if lutram:
        t = replace(t, delay_ns=round(t.delay_ns + target.tech.lutram_route_ns, 4))
    if op.kind in ("load", "store") and op.mem is not None:
        mux = target.port_mux_ns(port_fanin(op))
        if mux:
            # the port's address (and a store's data) multiplexer: before the RAM's input
            # register for a block RAM load, in the chain for the others
            t = (replace(t, in_delay_ns=round(t.in_delay_ns + mux, 4)) if t.latency
                 else replace(t, delay_ns=round(t.delay_ns + mux, 4)))
    if op.kind in ("condbr", "switch") and target.tech.branch_ns:
        t = replace(t, delay_ns=round(t.delay_ns + target.tech.branch_ns, 4))
    if target.annotations:
        extra = target.annotation(op_key(op))
        if extra:
            # what place and route measured on this op's path beyond the model
            # (``--close-timing``); at most what a cycle holds, so that it still fits one
            t = replace(t, delay_ns=round(max(t.delay_ns, min(t.delay_ns + extra,
                                                                target.chain_budget_ns)), 4))
    return t


#: block -> (its op count when keyed, op -> key): :func:`op_key` without a scan per call
_KEYS: "weakref.WeakKeyDictionary[Block, tuple[int, dict]]" = weakref.WeakKeyDictionary()


def op_key(op: Op) -> tuple:
    """A name for ``op`` that a design built again from the same source gives the same
    op: (function, block, kind, C line, its rank among the block's ops of that kind and
    line).  ``--close-timing`` keys the delays place and route measured by it
    (:meth:`hls.targets.Target.with_annotations`), across builds whose ops are new
    objects; an op the next build no longer has matches nothing."""
    blk = getattr(op, "block", None)    # (an area estimate's op seen at another width: none)
    if blk is None:
        return ("", "", op.kind, 0, 0)
    known = _KEYS.get(blk)
    if known is None or known[0] != len(blk.ops) or op not in known[1]:
        fname = blk.function.name if blk.function is not None else ""
        rank: dict = {}
        keys = {}
        for o in blk.ops:
            line = o.loc.line if o.loc else 0
            k = rank[(o.kind, line)] = rank.get((o.kind, line), -1) + 1
            keys[o] = (fname, blk.name, o.kind, line, k)
        known = _KEYS[blk] = (len(blk.ops), keys)
    return known[1].get(op, ("", blk.name, op.kind, 0, 0))


#: function -> memory -> accesses of it per port (:func:`port_fanin`), computed when the
#: function is scheduled (:func:`schedule_function`) so that the checker, binding and the
#: estimates read the figures the scheduler used
_FANIN: "weakref.WeakKeyDictionary[Function, dict]" = weakref.WeakKeyDictionary()


def memory_fanin(func: Function) -> dict:
    """Memory -> the sources of one of its ports in ``func``: the loads, stores and calls
    that reach it (in FSM states and pipelined loops alike) shared by its ports.  Each is
    an input of the multiplexer in front of the port's address (a store's, of its data
    too): a wide one is several LUT levels (the ``pmux`` class of the library)."""
    count: dict = {}
    for op in func.ops():
        if op.kind in ("load", "store") and op.mem is not None:
            count[op.mem] = count.get(op.mem, 0) + 1
        elif op.kind == "call":
            for _, mem in op.attrs.get("ptr_args", []):
                count[mem] = count.get(mem, 0) + 1
    out = {mem: -(-n // max(1, mem.ports)) for mem, n in count.items()}
    _FANIN[func] = out
    return out


def port_fanin(op: Op) -> int:
    """The sources of the port ``op`` (a load or store) uses (:func:`memory_fanin`)."""
    block = getattr(op, "block", None)
    func = getattr(block, "function", None)
    if func is None:
        return 1
    fan = _FANIN.get(func)
    if fan is None or op.mem not in fan:
        fan = memory_fanin(func)
    return fan.get(op.mem, 1)


@dataclass
class BlockSchedule:
    block: Block
    problem: SchedProblem
    schedule: Schedule
    ops: list[Op]                  # problem op id i -> ops[i]

    #: set when the block is a pipelined loop body: one FSM state runs the whole loop
    pipeline: "LoopPipeline | None" = None

    @property
    def length(self) -> int:
        return 1 if self.pipeline is not None else self.schedule.length


@dataclass
class FunctionSchedule:
    func: Function
    target: Target
    blocks: dict[Block, BlockSchedule] = field(default_factory=dict)
    step: dict[Op, int] = field(default_factory=dict)      # issue step of every non-phi op
    latency: dict[Op, int] = field(default_factory=dict)
    #: pipelined loop bodies (their ops are at step 0 with latency 0 in ``step``/``latency``:
    #: to the FSM and the register binding the whole loop is one step)
    pipelines: dict[Block, "LoopPipeline"] = field(default_factory=dict)
    #: every natural loop: (loop, reason it is not pipelined or None)
    loops: list = field(default_factory=list)
    #: estimated cycles of each loop, by header (with ``schedule_function(profit=...)``)
    estimates: dict[Block, LoopEstimate] = field(default_factory=dict)

    def birth(self, op: Op) -> int:
        return self.step[op] + self.latency[op]

    def to_text(self) -> str:
        out = [f"schedule @{self.func.name}"]
        for b, bs in self.blocks.items():
            out.append(f"{b.name}: {bs.schedule.length} steps ({bs.schedule.method})")
            out.append(bs.schedule.to_text(bs.problem))
            if bs.pipeline is not None:
                out.append(bs.pipeline.to_text())
        return "\n".join(out) + "\n"


def _touches(call: Op) -> list:
    return list(dict.fromkeys(m for _, m in call.attrs.get("ptr_args", [])))


def build_block_problem(block: Block, target: Target,
                        resources: dict[str, int] | None = None) -> tuple[SchedProblem, list[Op]]:
    ops = [op for op in block.ops if op.kind != "phi"]
    index = {op: i for i, op in enumerate(ops)}
    sops, edges = [], []
    for i, op in enumerate(ops):
        t = op_timing(target, op)
        res = UnitClass.from_target(t.resource) if t.resource is not None else None
        occ = t.occupancy
        if res is None and resources and op.kind == "mul" and t.latency:
            # a two-stage multiply (ECP5's over several MULT18X18D): no class of the
            # library, limited as a combinational one of its width (a new one per cycle)
            if cap_for(UnitClass("mul", op.width), resources) is not None:
                res = UnitClass("mul", op.width)
        if op.kind in ("load", "store"):
            res, occ = MemoryPorts(op.mem.name, op.mem.ports), 1
        sops.append(SchedOp(i, f"{op.kind}{i}", t.latency, t.delay_ns, res, occ,
                            t.in_delay_ns))
        for v in op.operands:
            if isinstance(v, Op) and v in index and v.kind != "phi":
                edges.append(SchedEdge(index[v], i))
    sink = len(ops) - 1
    # phi copies on the outgoing edges read their incoming values in the last step
    for succ in block.successors:
        for phi in succ.phis:
            for pred, v in phi.incoming:
                if pred is block and isinstance(v, Op) and v in index and v is not ops[sink]:
                    edges.append(SchedEdge(index[v], sink))
    # memory ordering, in program order (accesses of provably different words are free)
    # (two stores stay a step apart: on a target whose RAMs take one write a cycle two
    # in a step would cost the memory its second port for every access,
    # flow.two_writers; elsewhere they tie a straight-line clear to both ports, which
    # kept matvec_t_i16's accumulator from the cyclic banks its unrolled loop needs)
    words = word_keys(block, ops)
    last: dict[object, list[Op]] = {}
    for i, op in enumerate(ops):
        if op.kind in ("load", "store"):
            key = op.mem
            for prev in last.get(key, []):
                j = index[prev]
                if unordered(prev, op, words, two_stores=False):
                    continue
                if prev.kind == "store":
                    edges.append(SchedEdge(j, i, 1))
                elif prev.kind == "call":
                    edges.append(SchedEdge(j, i, 1))
                else:  # load -> store may share a step (read-first); load -> load free
                    if op.kind == "store":
                        edges.append(SchedEdge(j, i, 0))
            last.setdefault(key, []).append(op)
        elif op.kind == "call":
            for key in _touches(op):
                for prev in last.get(key, []):
                    j = index[prev]
                    edges.append(SchedEdge(j, i, 2 if prev.kind == "load" else 1))
                last.setdefault(key, []).append(op)
    # calls run one at a time (each is a stall state of the FSM)
    calls = [i for i, op in enumerate(ops) if op.kind == "call"]
    for a, b in zip(calls, calls[1:]):
        edges.append(SchedEdge(a, b, 1))
    caps: dict = {sop.resource: sop.resource.units for sop in sops
                  if isinstance(sop.resource, MemoryPorts)}
    # unit limits: by exact class ("mul32") or by operator for every width ("mul")
    for sop in sops:
        if isinstance(sop.resource, UnitClass) and (cap := cap_for(sop.resource, resources)) is not None:
            caps[sop.resource] = cap
    prob = SchedProblem(tuple(sops), tuple(dict.fromkeys(edges)), caps,
                        target.chain_budget_ns, sink)
    return prob, ops


def loop_directives(lp, directives=None) -> dict:
    """The pipelining directives of a loop: clang's loop pragmas on its latch branch,
    overridden by entries of a directives file (:mod:`hls.directives`)."""
    out = {}
    for latch in lp.latches:
        md = latch.terminator.attrs.get("loop_md", {})
        out.update({k: v for k, v in md.items() if k in ("pipeline", "ii")})
    if directives is not None:
        out.update(directives.for_loop(lp.header.function.name, loop_line(lp), lp.header.name))
    return out


def schedule_function(func: Function, target: Target, method: str = "sdc",
                      resources: dict[str, int] | None = None,
                      check: bool = True, pipeline: bool = True, directives=None,
                      relax_ii: bool = False,
                      profit: Profitability | None = None,
                      share_units: bool = True) -> FunctionSchedule:
    """Schedule every block of ``func``; every schedule is re-verified by the checker.

    ``profit``: pipeline a loop only where the estimate says it is faster than running
    it block by block (:mod:`hls.scheduling._profit`), unless a pragma or directive asks
    for the pipeline; the estimates are kept in ``fs.estimates``.  Without it every loop
    that can be pipelined is.  ``share_units``: pipelined loops share their multipliers
    and floating-point units across the II's modulo slots
    (:func:`hls.scheduling._pipeline.share_units`)."""
    fs = FunctionSchedule(func, target)
    progress.stage("scheduling", f"@{func.name}")
    memory_fanin(func)
    for b in func.blocks:
        prob, ops = build_block_problem(b, target, resources)
        if method == "asap":
            sched = asap_schedule(prob)
        else:
            sched = sdc_schedule(prob)
        if check:
            check_schedule(prob, sched)
        fs.blocks[b] = BlockSchedule(b, prob, sched, ops)
        for i, op in enumerate(ops):
            fs.step[op] = sched.steps[i]
            fs.latency[op] = prob.ops[i].latency
    loops = find_loops(func)
    for lp in loops:
        inner = not any(o.parent is lp for o in loops)
        want = loop_directives(lp, directives)
        why = why_not_pipelined(lp, inner) if pipeline else "pipelining disabled (--no-pipeline)"
        if want.get("pipeline") is False:
            why = "pipelining disabled by a directive"
        elif why is not None and (want.get("pipeline") or want.get("ii")) and pipeline:
            loc = func.loc
            raise ScheduleError(f"loop {lp.header.name} of @{func.name}: pipelining was requested "
                                f"but the loop cannot be pipelined: {why}",
                                loc.file if loc else None, loop_line(lp))
        lengths = {blk: fs.blocks[blk].schedule.length for blk in lp.blocks}
        if why is not None:
            kept = profit.kept.get((func.name, lp.header.name)) if profit is not None else None
            if kept is not None and len(lp.blocks) > 1:
                fs.loops.append((lp, kept.why_not(converted=True)))
                fs.estimates[lp.header] = kept
                continue
            fs.loops.append((lp, why))
            if profit is not None:
                fs.estimates[lp.header] = profit.estimate(lp, lengths)
            continue
        line = loop_line(lp)
        progress.stage("scheduling", f"@{func.name}, loop {lp.header.name}"
                       + (f" (line {line})" if line is not None else "") + " pipelined")
        _, lpipe = schedule_loop(lp, target, op_timing, ii=want.get("ii"), relax_ii=relax_ii,
                                 share=share_units)
        if profit is not None:
            est = profit.estimate(lp, lengths, lpipe.ii, lpipe.depth)
            fs.estimates[lp.header] = est
            if not est.pays and not (want.get("pipeline") or want.get("ii")):
                fs.loops.append((lp, est.why_not()))
                continue
        fs.loops.append((lp, None))
        b = lp.header
        fs.pipelines[b] = lpipe
        fs.blocks[b].pipeline = lpipe
        for op in b.ops:
            if op.kind != "phi":
                fs.step[op], fs.latency[op] = 0, 0
    return fs


def is_const(v: Value) -> bool:
    return isinstance(v, Const)


def is_param(v: Value) -> bool:
    return isinstance(v, Param)
