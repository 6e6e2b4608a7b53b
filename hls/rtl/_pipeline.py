"""The datapath and controller of a pipelined loop (one FSM state of its function).

Timing: iteration ``i`` starts at cycle ``i * II`` after loop entry; an op scheduled at
time ``t`` runs in stage ``t // II`` at slot ``t % II``.  The controller keeps a slot
counter ``r`` (``0 .. II-1``), a valid bit per stage and a *first* bit per stage (which
stage holds iteration 0).  At the end of each period (``r == II - 1``) the bits shift one
stage on; stage 0 takes a new iteration when the one in it decided to continue (the
exit condition is ready within stage 0 by construction of the schedule).  The loop
leaves as soon as the last iteration has done all its work: at the *exit slot* of the
last stage (the slot of time ``depth - 1``), when no earlier stage holds an iteration (or,
with a single stage, when the iteration decided not to continue).  The exit edge reads
the live-out values of that iteration then, so an entry with ``n`` iterations takes
``(n - 1) * II + depth`` cycles in the loop's state (plus at most the cycles from the
exit condition's ready time to the end of a single-stage iteration).
A single-stage loop whose exit condition arrives late in its cycle
(:func:`hls.scheduling.exit_waits`, ``LoopPipeline.exit_wait``) counts an empty second
stage: it leaves from the registered valid bits a cycle later, and its exit slot is 0.

Values: an op's result is a wire at its ready time ``t + latency`` and is registered at
the end of that cycle into a per-stage register chain ``v@k`` that shifts with the
stages, so a later op of the same iteration in stage ``k`` reads ``v@k``, and a phi op of
iteration ``i + 1`` reads the previous iteration's value one stage further on.  This is
modulo variable expansion by shift registers: no value is overwritten while some
iteration still needs it.  Registers of invalid stages may hold garbage that no valid
iteration ever reads; side effects (stores, divider starts) are gated by the valid bits.
Live-out values are copied into the function's registers when an iteration completes
(the last one written is the exiting iteration's).
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const as AConst, Mux, Signal

from ..errors import RTLError
from ..ir import Op, op_def, uses_outside
from ._fp import connect_fp, fp_unit
from ..scheduling import LoopPipeline, op_timing
from ._units import SeqDivider, comb_expr, pipelined_mul, src_attrs


def exit_slot(lp: LoopPipeline) -> int:
    """The slot of the last stage in which an iteration has done all its work: the loop
    leaves there, not at the end of the period.  With a single stage the exit condition
    must be known too."""
    last = max(0, lp.depth - 1 - (lp.stages - 1) * lp.ii)   # 0: an empty last stage
    if lp.stages == 1:
        cond = lp.block.terminator.operands[0]
        if isinstance(cond, Op) and cond in lp.time:
            last = max(last, lp.ready(cond))
    return last


def exit_time(lp: LoopPipeline) -> int:
    """The exiting iteration's time (cycles after its start) when the loop leaves."""
    return (lp.stages - 1) * lp.ii + exit_slot(lp)


def entry_cycles(lp: LoopPipeline, n: int) -> int:
    """Cycles the FSM spends in the loop's state for one entry of ``n`` >= 1 iterations:
    iteration ``n - 1`` starts ``(n - 1) * II`` cycles after entry and the loop leaves at
    its :func:`exit_time` (``depth - 1`` unless a single-stage loop's exit condition is
    ready later), so ``(n - 1) * II + exit_time + 1`` (:mod:`hls.estimate._latency`
    relies on it)."""
    return (n - 1) * lp.ii + exit_time(lp) + 1


def chain_stages(lp: LoopPipeline, func) -> dict[Op, tuple[int, int]]:
    """The register chain of every value of the pipelined loop ``lp`` (of function
    ``func``) read after the cycle it is ready in: ``(first, last)`` stage, so
    ``last - first + 1`` registers of the value's width (``v@first`` .. ``v@last``).
    What :class:`PipelineRTL` builds and :mod:`hls.estimate._area` counts."""
    ii, S = lp.ii, lp.stages
    b = lp.block
    last_stage: dict[Op, int] = {}

    def need(v: Op, t: int) -> None:
        rt = lp.ready(v)
        if t < rt:
            raise RTLError(f"internal error: pipeline reads {v.kind} at {t} before ready {rt}")
        if t > rt:
            last_stage[v] = max(last_stage.get(v, rt // ii), t // ii)

    for op in lp.time:
        t = lp.time[op]
        if op.kind == "phi":
            for pred, v in op.incoming:
                if pred is b and isinstance(v, Op) and v in lp.time:
                    need(v, t + ii)
            continue
        for v in op.operands:
            if isinstance(v, Op) and v in lp.time:
                need(v, t)
    cond = b.terminator.operands[0]
    if isinstance(cond, Op) and cond in lp.time:
        need(cond, ii - 1)
        if S == 1:
            need(cond, exit_slot(lp))
    outside = uses_outside(func, b)
    for v in lp.time:
        if v.width and v in outside:
            need(v, exit_time(lp))
    return {v: (lp.ready(v) // ii, k) for v, k in last_stage.items()}


class PipelineRTL:
    def __init__(self, frtl, lpipe: LoopPipeline, sid: int):
        self.f = frtl
        self.lp = lpipe
        self.sid = sid
        b = lpipe.block
        self.block = b
        ii, S = lpipe.ii, lpipe.stages
        self.r = Signal(range(max(ii, 2)), name=f"pl_{b.name}_slot")
        self.valid = Signal(S, name=f"pl_{b.name}_valid")
        self.first = Signal(S, name=f"pl_{b.name}_first")
        self.ops = list(lpipe.time)
        self.wire: dict[Op, Signal] = {}
        for n, op in enumerate(self.ops):
            if op.width:
                self.wire[op] = Signal(op.width, name=f"pl_{b.name}_v{n}_{op.kind}",
                                       attrs=src_attrs(op))
        #: values read after the loop (by later blocks or the exit edge's phi copies) ...
        outside = uses_outside(frtl.func, b)
        self.read_after = [op for op in self.ops if op.width and op in outside]
        #: ... and those of them that later blocks read from the function's registers
        self.live_out = [op for op in self.read_after if op in frtl.bd.reg_of]
        self.chain: dict[Op, list[Signal]] = {}

    # ---------------------------------------------------------------- reads
    def read_at(self, v, t: int):
        """The value ``v`` as seen at time ``t`` of the reading iteration's timeline."""
        if isinstance(v, Op) and v in self.lp.time:
            rt = self.lp.ready(v)
            if t == rt:
                return self.wire[v]
            return self.chain[v][t // self.lp.ii - rt // self.lp.ii]
        return self.f.read(v, self.block, 0)

    # ---------------------------------------------------------------- timing
    @property
    def exit_slot(self) -> int:
        """The slot of the last stage in which an iteration has done all its work
        (:func:`exit_slot`)."""
        return exit_slot(self.lp)

    @property
    def exit_time(self) -> int:
        """The exiting iteration's time at the exit (live-outs are read then)."""
        return exit_time(self.lp)

    # ---------------------------------------------------------------- elaborate
    def plan(self) -> None:
        """First pass: which register stages every value needs (:func:`chain_stages`)."""
        for v, (k0, k_last) in chain_stages(self.lp, self.f.func).items():
            self.chain[v] = [Signal(v.width, name=f"{self.wire[v].name}_s{k}")
                             for k in range(k0, k_last + 1)]

    def elaborate(self, m, state, mems) -> None:
        f, lp, b = self.f, self.lp, self.block
        ii, S = lp.ii, lp.stages
        active_state = state.at(self.sid)
        period_end = self.r == ii - 1

        def active(op: Op):
            t = lp.time[op]
            return active_state & self.valid[t // ii] & (self.r == t % ii)

        # datapath
        self._shared_units(m)
        for op in self.ops:
            t = lp.time[op]
            w = self.wire.get(op)
            k = op.kind
            if op in lp.unit_of:
                continue        # served by a shared unit (_shared_units)
            if k == "phi":
                init = f.regs[f.bd.reg_of[op]]
                back = [v for pred, v in op.incoming if pred is b][0]
                prev = self.read_at(back, t + ii)
                m.d.comb += w.eq(Mux(self.first[t // ii], init, prev))
            elif k == "load":
                port = mems[op.mem].port[lp.port_of[op]]
                lane, size = op.attrs["lane"], op.attrs["size"]
                m.d.comb += w.eq(port.q[8 * lane:8 * (lane + size)])
                with m.If(active(op) & self._pred(op, t)):
                    m.d.comb += [port.address.eq(self.read_at(op.operands[0], t)), port.ce.eq(1)]
            elif k == "store":
                port = mems[op.mem].port[lp.port_of[op]]
                lane, size = op.attrs["lane"], op.attrs["size"]
                data = self.read_at(op.operands[1], t)
                with m.If(active(op) & self._pred(op, t)):
                    m.d.comb += [
                        port.address.eq(self.read_at(op.operands[0], t)),
                        port.ce.eq(1),
                        port.we.eq(((1 << size) - 1) << lane),
                        port.d.eq(Cat(AConst(0, 8 * lane), data[:8 * size]) if lane
                                  else data[:8 * size]),
                    ]
            elif op_def(k).divider:
                div = SeqDivider(op.width, f.fs.target.divider_bits(op.width))
                m.submodules[f"pl_{b.name}_div{self.ops.index(op)}"] = div
                m.d.comb += [div.start.eq(active(op)), div.a.eq(self.read_at(op.operands[0], t)),
                             div.b.eq(self.read_at(op.operands[1], t)),
                             div.signed.eq(k in ("sdiv", "srem")),
                             w.eq(div.quot if k in ("udiv", "sdiv") else div.rem)]
            elif k == "mul" and op_timing(f.fs.target, op).latency:
                unit = pipelined_mul(op, f.fs.target, f.product_bits([op]))
                m.submodules[f"pl_{b.name}_mul{self.ops.index(op)}"] = unit
                m.d.comb += [unit.a.eq(self.read_at(op.operands[0], t)),
                             unit.b.eq(self.read_at(op.operands[1], t)), unit.ce.eq(1),
                             w.eq(unit.o)]
            elif op_def(k).float:
                unit, _ = fp_unit(op, f.fs.target)
                m.submodules[f"pl_{b.name}_fp{self.ops.index(op)}"] = unit
                connect_fp(m, unit, [self.read_at(v, t) for v in op.operands], 1)
                m.d.comb += w.eq(unit.o)
            elif k == "call":
                raise RTLError("internal error: a call inside a pipelined loop")
            elif w is not None:
                m.d.comb += w.eq(comb_expr(op, [self.read_at(v, t) for v in op.operands]))

        # register chains: written at the ready cycle, shifted at each period end
        for v, regs in self.chain.items():
            rt = lp.ready(v)
            at_ready = active_state & (self.r == rt % ii)
            with m.If(at_ready):
                m.d.sync += regs[0].eq(self.wire[v])
            with m.If(active_state & period_end):
                for j in range(1, len(regs)):
                    src = self.wire[v] if (j == 1 and rt % ii == ii - 1) else regs[j - 1]
                    m.d.sync += regs[j].eq(src)

        # controller
        t = b.terminator
        cond = self.read_at(t.operands[0], ii - 1)
        cont = cond if t.targets[0] is b else ~cond
        issue = self.valid[0] & cont
        nxt_valid = Cat(issue, self.valid[:S - 1]) if S > 1 else issue
        exit_tgt = t.targets[1] if t.targets[0] is b else t.targets[0]
        # the last iteration leaves at its exit slot in the last stage: no earlier stage
        # holds an iteration (S > 1), or it decided not to continue (S == 1)
        e, te = self.exit_slot, self.exit_time
        at_exit = self.valid[S - 1] & (self.r == e)
        if S > 1:
            leaving = at_exit & ~self.valid[:S - 1].any()
        else:
            c = self.read_at(t.operands[0], e)
            leaving = at_exit & ~(c if t.targets[0] is b else ~c)
        with m.If(active_state):
            with m.If(period_end):
                m.d.sync += [self.r.eq(0), self.valid.eq(nxt_valid),
                             self.first.eq(Cat(AConst(0, 1), self.first[:S - 1]) if S > 1 else 0)]
            with m.Else():
                m.d.sync += self.r.eq(self.r + 1)
            with m.If(at_exit):
                for v in self.live_out:
                    m.d.sync += f.regs[f.bd.reg_of[v]].eq(self.read_at(v, te))
            with m.If(leaving):
                f._edge(m, b, 0, exit_tgt, state, reader=lambda v: self.read_at(v, te))

    def _shared_units(self, m) -> None:
        """The loop's shared units (``LoopPipeline.unit_of``, bound by modulo slot): one
        unit per instance, whose operands are multiplexed by the slot counter (each sharer
        in its issue slot, the first sharer in every other slot, where the unit's result
        is read by no one), and whose result is each sharer's wire at its ready time: the
        unit is combinational, or pipelined with a new operation every cycle (``ce`` 1),
        so its output then is the product of the operands of the sharer's issue slot."""
        f, lp, b = self.f, self.lp, self.block
        target = f.fs.target
        for (cls, inst), ops in lp.unit_members().items():
            name = f"pl_{b.name}_{cls}_{inst}"
            op0 = ops[0]
            if op0.kind == "mul" and not op_timing(target, op0).latency:
                w = op0.width
                ins = [Signal(w, name=f"{name}_a"), Signal(w, name=f"{name}_b")]
                out = Signal(w, name=f"{name}_y")
                m.d.comb += out.eq((ins[0] * ins[1])[:w])
            elif op0.kind == "mul":
                # (a mul's operands are its width)
                unit = pipelined_mul(op0, target, f.product_bits(ops), ops)
                m.submodules[name] = unit
                m.d.comb += unit.ce.eq(1)
                ins, out = [unit.a, unit.b], unit.o
            elif op_def(op0.kind).float:
                unit, _ = fp_unit(op0, target)
                m.submodules[name] = unit
                m.d.comb += unit.ce.eq(1)
                ins = [getattr(unit, n) for n in ("a", "b", "c")[:len(op0.operands)]]
                out = unit.o
            else:
                raise RTLError(f"internal error: a shared {op0.kind} unit in a pipeline")
            for j, port in enumerate(ins):
                with m.Switch(self.r):
                    for op in ops[1:]:
                        with m.Case(lp.time[op] % lp.ii):
                            m.d.comb += port.eq(self.read_at(op.operands[j], lp.time[op]))
                    with m.Default():
                        m.d.comb += port.eq(self.read_at(op0.operands[j], lp.time[op0]))
            for op in ops:
                m.d.comb += self.wire[op].eq(out)

    def _pred(self, op: Op, t: int):
        """The access predicate of an if-converted load/store (1 when unconditional)."""
        if "guard" not in op.attrs:
            return AConst(1, 1)
        return self.read_at(op.operands[op.attrs["guard"]], t)

    def on_entry(self, m) -> None:
        """Sync statements for the edge that enters the loop."""
        m.d.sync += [self.r.eq(0), self.valid.eq(1), self.first.eq(1)]
