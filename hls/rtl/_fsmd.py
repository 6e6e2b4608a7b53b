"""FSMD generation: one Amaranth module per hardware function.

States: IDLE, then one state per (block, step) in block order, numbered from 0
(:class:`StateRegister`: one-hot, a flip-flop per state); ``done``
is raised in the step of a ``ret``, which returns to IDLE.  Every state has an ``advance`` condition (1, or the callee's
``done`` in a call step); register writes, phi copies, store enables and the next-state
update happen only when it holds, so a stalled step repeats nothing harmful.

Datapath: every op with a result drives a combinational wire in its birth step; uses in
that step read the wire (chaining), later uses read the register the binding gave the
value.  Phis are registers written on the edge from each predecessor.

Interfaces (``amaranth.lib.wiring``): the block-level handshake of a function is a
:class:`ControlSignature` (``start`` in; ``done``, ``idle``, ``ret`` out; one input
``arg<i>`` per scalar parameter), and :class:`FunctionRTL` is itself an interface object
of it.  Memories, internal or external, are seen through one interface
(:class:`hls.memory.MemPorts`): ``NPORTS`` ports of :class:`hls.memory.MemPortSignature`,
each with address, chip enable, byte-enable, write data and read data.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const as AConst, Elaboratable, Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from ..binding import Binding, is_wire_use
from ..errors import RTLError
from ..ir import Block, Const, Function, MemoryObject, Op, Param, Value, op_def
from ..memory import MemPorts
from ..names import hardware_names
from ..scheduling import op_timing, skipped
from ..targets import MEMORY
from ._fp import connect_fp, fp_operands, fp_unit
from ._pipeline import PipelineRTL
from ._units import PipelinedMul, SeqDivider, comb_expr, pipelined_mul, src_attrs

#: ports of every memory the datapath sees (the scheduler assumed the same model)
NPORTS = MEMORY.ports


def mem_ports(mem: MemoryObject, prefix: str) -> MemPorts:
    """The ``NPORTS`` ports of ``mem`` (signals ``<prefix>_address<k>`` etc.)."""
    return MemPorts(mem.addr_bits, mem.word_bytes, prefix, NPORTS)


class ControlSignature(wiring.Signature):
    """The block-level handshake of a function, seen from the function: ``start`` in,
    ``done``/``idle`` out, ``ret`` out when the function returns a value
    (``ret_width`` > 0), and ``arg<i>`` in for the i-th scalar parameter
    (``arg_widths[i]`` bits).  ``start`` is held until ``done``; the arguments are
    sampled in the cycle ``start`` is seen in IDLE; ``ret`` is valid while ``done`` is
    high and held afterwards."""

    def __init__(self, arg_widths: tuple[int, ...] = (), ret_width: int = 0):
        self.arg_widths = tuple(arg_widths)
        self.ret_width = ret_width
        members = {"start": In(1), "done": Out(1), "idle": Out(1)}
        if ret_width:
            members["ret"] = Out(ret_width)
        for i, w in enumerate(self.arg_widths):
            members[f"arg{i}"] = In(w)
        super().__init__(members)

    def __eq__(self, other):
        return (isinstance(other, ControlSignature) and self.arg_widths == other.arg_widths
                and self.ret_width == other.ret_width)

    def __hash__(self):
        return hash((ControlSignature, self.arg_widths, self.ret_width))

    def __repr__(self):
        return f"ControlSignature({self.arg_widths}, {self.ret_width})"


class Control:
    """An interface object of a :class:`ControlSignature` over given signals (for a top
    whose ports have their own names: ``ap_start``, ``ap_return``, ...)."""

    def __init__(self, signature: ControlSignature, start: Signal, done: Signal, idle: Signal,
                 ret: Signal | None = None, args: tuple[Signal, ...] = ()):
        self.signature = signature
        self.start, self.done, self.idle = start, done, idle
        if ret is not None:
            self.ret = ret
        for i, a in enumerate(args):
            setattr(self, f"arg{i}", a)


class InternalMemory(Elaboratable):
    """A local array or ROM: a true dual-port synchronous RAM (read-first), a simple
    dual-port one (port 0 writes, port 1 reads) when binding found no cycle that needs
    more (``Binding.simple_dual_port``), or for a small array (``mem.async_read``) a LUT
    RAM read in the same cycle.  ``ports`` is
    the function's :class:`~hls.memory.MemPorts` of the memory; the RAM serves it as its
    memory side (``wiring.flipped``), on the same signals, so no forwarding is needed."""

    def __init__(self, mem: MemoryObject, ports: MemPorts, simple_dual_port: bool = False):
        self.mem = mem
        self.ports = wiring.flipped(ports)
        #: port 0 only writes, port 1 only reads (``Binding.simple_dual_port``)
        self.simple_dual_port = simple_dual_port

    def elaborate(self, platform):
        m = Module()
        mem = self.mem
        w = mem.word_bytes
        init = mem.init or bytes(mem.size_bytes)
        words = [int.from_bytes(init[i * w:(i + 1) * w], "little") for i in range(mem.depth_words)]
        # a LUT RAM (a ROM: logic) stays one: Yosys would otherwise fold the register that
        # takes its word (a pipeline's stage register) into a block RAM's read port, and
        # the path after it would start at the block RAM's 4 ns clock-to-out the schedule
        # did not plan for (``ram_style``/``rom_style``: what Yosys's memory_libmap reads;
        # it has no LUT-RAM mapping of a memory without a write port)
        attrs = None
        if mem.async_read:
            attrs = {"rom_style": "logic"} if mem.readonly else {"ram_style": "distributed"}
        store = Memory(shape=8 * w, depth=mem.depth_words, init=words, attrs=attrs)
        m.submodules.store = store
        for k in range(NPORTS):
            bp = getattr(self.ports, f"port{k}")
            # simple dual port: port 0 only writes, port 1 only reads
            reads = not self.simple_dual_port or k == 1
            writes = not mem.readonly and (not self.simple_dual_port or k == 0)
            if reads and mem.async_read:  # LUT RAM: the word at the address, in the same cycle
                rp = store.read_port(domain="comb")
                m.d.comb += [rp.addr.eq(bp.address), bp.q.eq(rp.data)]
            elif reads:
                rp = store.read_port(domain="sync")
                m.d.comb += [rp.addr.eq(bp.address), rp.en.eq(bp.ce), bp.q.eq(rp.data)]
            if writes:
                wp = store.write_port(granularity=8)
                m.d.comb += [wp.addr.eq(bp.address), wp.data.eq(bp.d),
                             wp.en.eq(Mux(bp.ce, bp.we, 0))]
        return m


class StateRegister:
    """The FSM's state register, one-hot: one flip-flop per state, state ``k`` is bit
    ``k`` (IDLE, bit 0, after reset).  In a binary encoding every test of the state is a
    comparison of ``log2(n)`` bits, and the next-state logic a multiplexer over all ``n``
    states behind a late branch condition: on ECP5 a 72-state binary FSM put 5.3 ns
    between 2mm's loop exit test and the state register, more than any other logic of
    the path, and a 156-state one decoded mips's register-file address.  One-hot, a state
    test is one bit and a state's next value an OR over the edges into it, so control
    logic does not grow with the FSM (Vitis HLS encodes its FSMs the same way).  Yosys
    leaves the register alone: Amaranth gives it an initial value, which its ``fsm`` pass
    does not extract."""

    def __init__(self, nstates: int):
        self.n = nstates
        self.sig = Signal(nstates, init=1, name="state")
        #: per state, high when an edge into it / out of it is taken this cycle (comb; one
        #: signal per state, so that a state without edges in or out is a constant 0)
        self.enter = [Signal(name=f"state_enter_{k}") for k in range(nstates)]
        self.leave = [Signal(name=f"state_leave_{k}") for k in range(nstates)]

    def at(self, k: int):
        """High in state ``k``."""
        return self.sig[k]

    def go(self, k: int, src: int):
        """The (comb) statements that take the edge from state ``src`` to state ``k``, in
        the context (``m.If``/``m.Case``) of its condition."""
        return [self.enter[k].eq(1), self.leave[src].eq(1)]

    def elaborate(self, m) -> None:
        """The register's update, bit by bit: state ``k`` is entered by one of its edges,
        or held while none of its own edges out is taken.  Assigning the whole vector
        (``state <= 1 << k``) under every edge's condition would make each bit's hold
        term wait for every edge of the FSM (Yosys cannot know that only the current
        state's edges can fire): on adi, five LUT levels and two long wires between a
        loop's exit and the state register."""
        m.d.sync += self.sig.eq(Cat(*self.enter) | (self.sig & ~Cat(*self.leave)))

    def case(self, k: int) -> str:
        """The ``m.Case`` pattern of state ``k``: its bit, the others don't care.  As
        patterns the cases overlap, but one bit is set at a time, so no two hold together
        (``emit_verilog`` marks the switch ``parallel_case``)."""
        return "-" * (self.n - 1 - k) + "1" + "-" * k


class FunctionRTL(Elaboratable):
    """The FSMD of one function, with its block-level handshake and memory ports.

    An interface object of :attr:`signature` (a :class:`ControlSignature`): ``start``,
    ``done``, ``idle``, ``ret`` and ``arg<i>`` (also reachable per parameter as
    ``params[p]``).  ``ext[mem]`` are the :class:`~hls.memory.MemPorts` of each external
    memory (pointer arguments; writable globals of a top)."""

    def product_bits(self, ops) -> int:
        """The low bits of a two-stage multiplier's product the design reads: the widest
        demand (``hls.estimate.demanded_bits``, the area estimate's own) of the ``mul``
        ops it serves (an op nothing reads: its width)."""
        if self._demand is None:
            from ..estimate import demanded_bits    # (the estimate imports the RTL)
            self._demand = demanded_bits(self.func)
        return max(self._demand.get(op) or op.width for op in ops)

    def __init__(self, binding: Binding, callees: dict[Function, "FunctionRTL"] | None = None,
                 external_globals: tuple[MemoryObject, ...] = ()):
        self._demand = None
        self.bd = binding
        self.fs = binding.fsched
        self.func = f = binding.func
        self.callees = callees or {}
        self.start = Signal(name="start")
        self.done = Signal(name="done")
        self.idle = Signal(name="idle")
        self.ret = Signal(f.return_width, name="ret") if f.return_width else None
        self.params = {p: Signal(p.width, name=p.name) for p in f.scalar_params}
        for i, sig in enumerate(self.params.values()):
            setattr(self, f"arg{i}", sig)
        self._signature = ControlSignature(tuple(p.width for p in f.scalar_params),
                                           f.return_width or 0)
        #: external memories: pointer arguments, plus writable globals of a top
        self.ext: dict[MemoryObject, MemPorts] = {}
        for p in f.ptr_params:
            for mem in p.port_mems:
                self.ext[mem] = mem_ports(mem, mem.name if p.banks else p.name)
        for g in external_globals:
            self.ext[g] = mem_ports(g, g.name)
        #: profiling: (function, block, signal) per pipelined loop of this instance and
        #: of its callee instances; the signal is high while the FSM is in the loop's state
        self.own_probes = {b: Signal(name=f"probe_{b.name}") for b in binding.fsched.pipelines}
        self.probes: list[tuple[str, str, Signal]] = [
            (f.name, b.name, sig) for b, sig in self.own_probes.items()]
        for c in self.callees.values():
            self.probes += c.probes

    @property
    def signature(self) -> ControlSignature:
        return self._signature

    # ------------------------------------------------------------------ helpers
    def _states(self) -> None:
        self.sid: dict[tuple[Block, int], int] = {}
        n = 1
        for b in self.func.blocks:
            for s in range(self.fs.blocks[b].length):
                self.sid[(b, s)] = n
                n += 1
        self.IDLE, self.nstates = 0, n

    def read(self, v: Value, block: Block, step: int):
        if isinstance(v, Const):
            return AConst(v.value, v.width)
        if isinstance(v, Param):
            return self.preg[v]
        if is_wire_use(self.fs, v, block, step):
            return self.wire[v]
        r = self.bd.reg_of.get(v)
        if r is None:
            raise RTLError(f"internal error: value {v.kind}/{v.name} of @{self.func.name} has no "
                           "register but is read after its birth step")
        return self.regs[r]

    # ------------------------------------------------------------------ elaborate
    def elaborate(self, platform):
        m = Module()
        f, fs, bd = self.func, self.fs, self.bd
        self._states()
        state = StateRegister(self.nstates)
        state.elaborate(m)
        advance = Signal(name="advance")
        self.preg = {p: Signal(p.width, name=f"arg_{p.name}") for p in f.scalar_params}
        self.regs = [Signal(w, name=f"r{i}") for i, w in enumerate(bd.reg_width)]
        self.wire: dict[Op, Signal] = {}
        self.pipes: dict[Block, PipelineRTL] = {
            b: PipelineRTL(self, lp, self.sid[(b, 0)]) for b, lp in fs.pipelines.items()}
        n = 0
        for op in f.ops():
            if op.block in self.pipes:
                if op.kind != "phi" and op.width:
                    self.wire[op] = self.pipes[op.block].wire[op]
                continue
            if op.kind != "phi" and op.width:
                self.wire[op] = Signal(op.width, name=f"v{n}_{op.kind}", attrs=src_attrs(op))
                n += 1
        # memories: external ports, internal RAM/ROMs
        mems: dict[MemoryObject, MemPorts] = dict(self.ext)
        for i, mem in enumerate(f.used_memories()):
            if mem in mems:
                continue
            if mem.kind == "arg":
                raise RTLError(f"internal error: argument memory {mem.name} without ports")
            if mem.kind == "global" and not mem.readonly:
                loc = f.loc
                raise RTLError(f"the writable global '{mem.name}' is used inside @{f.name}, which "
                               "is not the top function: only the top may write globals",
                               loc.file if loc else None, loc.line if loc else None)
            ports = mem_ports(mem, f"m{i}_{mem.name}")
            mems[mem] = ports
            m.submodules[f"mem_{mem.name}"] = InternalMemory(
                mem, ports, simple_dual_port=mem in self.bd.simple_dual_port)
        self.mems = mems

        # shared and sequential units
        unit_sigs: dict[tuple[str, int], object] = {}
        for cls, insts in bd.units.items():
            for i, ops in enumerate(insts):
                k = (cls, i)
                if ops[0].kind == "mul" and op_timing(fs.target, ops[0]).latency:
                    # a two-stage multiply shared as the floating-point units are
                    unit = pipelined_mul(ops[0], fs.target, self.product_bits(ops), ops)
                    m.submodules[f"{cls}_{i}"] = unit
                    m.d.comb += unit.ce.eq(advance)
                    unit_sigs[k] = unit
                elif ops[0].kind == "mul":
                    w = ops[0].width
                    a, b, y = Signal(w, name=f"{cls}_{i}_a"), Signal(w, name=f"{cls}_{i}_b"), Signal(w, name=f"{cls}_{i}_y")
                    m.d.comb += y.eq((a * b)[:w])
                    unit_sigs[k] = (a, b, y)
                elif op_def(ops[0].kind).float:
                    # a pipelined unit: each sharer's operands in its own state, its
                    # result out of the last stage in its own birth state
                    unit, _ = fp_unit(ops[0], fs.target)
                    m.submodules[f"{cls}_{i}"] = unit
                    m.d.comb += unit.ce.eq(advance)
                    unit_sigs[k] = unit
                else:
                    w = max(o.width for o in ops)
                    div = SeqDivider(w, fs.target.divider_bits(w))
                    m.submodules[f"{cls}_{i}"] = div
                    unit_sigs[k] = div
        # divisions never shared by binding still need their own unit
        for op in f.ops():
            if (op_def(op.kind).divider and op not in bd.unit_of
                    and op.block not in self.pipes):
                k = (f"div_{op.width}_own", len(unit_sigs))
                div = SeqDivider(op.width, fs.target.divider_bits(op.width))
                m.submodules[f"div_own{len(unit_sigs)}"] = div
                unit_sigs[k] = div
                bd.unit_of[op] = k
        # callee instances (one per callee function)
        sub: dict[Function, FunctionRTL] = {}
        hw = hardware_names(c.name for c in f.callees())   # C++: ns_g, not _ZN2ns1gEi
        for callee in f.callees():
            inst = self.callees[callee]
            sub[callee] = inst
            m.submodules[f"call_{hw[callee.name]}"] = inst

        # ---------------------------------------------------------------- datapath wires
        for pl in self.pipes.values():
            pl.plan()
        for op, w in self.wire.items():
            if op.block in self.pipes:
                continue
            blk, step = op.block, fs.step[op]
            rd = lambda v: self.read(v, blk, step)  # noqa: E731
            k = op.kind
            if op in bd.unit_of:
                u = unit_sigs[bd.unit_of[op]]
                if isinstance(u, PipelinedMul) or op_def(k).float:
                    m.d.comb += w.eq(u.o)
                elif k == "mul":
                    m.d.comb += w.eq(u[2])
                else:
                    m.d.comb += w.eq(u.quot if k in ("udiv", "sdiv") else u.rem)
                continue
            if k == "load":
                ports = mems[op.mem]
                p = bd.port_of[op]
                lane, size = op.attrs["lane"], op.attrs["size"]
                m.d.comb += w.eq(ports.port[p].q[8 * lane:8 * (lane + size)])
                continue
            if k == "mul" and op_timing(fs.target, op).latency:
                unit = pipelined_mul(op, fs.target, self.product_bits([op]))
                m.submodules[f"mul_{w.name}"] = unit
                m.d.comb += [unit.a.eq(rd(op.operands[0])), unit.b.eq(rd(op.operands[1])),
                             unit.ce.eq(advance), w.eq(unit.o)]
                continue
            if op_def(k).float:
                unit, _ = fp_unit(op, fs.target)
                m.submodules[f"fp_{w.name}"] = unit
                connect_fp(m, unit, [rd(v) for v in op.operands], advance)
                m.d.comb += w.eq(unit.o)
                continue
            if k == "call":
                # The callee's return register changes at its next call, which may start
                # in this op's birth step (a stall step): keep the result in our own
                # register, captured in the callee's done cycle.
                inst = sub[op.attrs["callee"]]
                cap = Signal(op.width, name=f"{w.name}_ret")
                with m.If(state.at(self.sid[(blk, step)]) & inst.done):
                    m.d.sync += cap.eq(inst.ret)
                m.d.comb += w.eq(cap)
                continue
            m.d.comb += w.eq(comb_expr(op, [rd(v) for v in op.operands]))

        # ---------------------------------------------------------------- per-state logic
        by_state: dict[int, list[Op]] = {}
        for op in f.ops():
            if op.kind != "phi" and op.block not in self.pipes:
                by_state.setdefault(self.sid[(op.block, fs.step[op])], []).append(op)
        births: dict[int, list[Op]] = {}
        for op in f.ops():
            if op.kind != "phi" and op in bd.reg_of and op.block not in self.pipes:
                births.setdefault(self.sid[(op.block, fs.birth(op))], []).append(op)

        # ``done`` is high in the step of a ``ret`` (one cycle: such a step never stalls);
        # the return value is valid then and held in ``retreg`` afterwards.
        ret_states = [(b, fs.blocks[b].length - 1) for b in f.blocks if b.terminator.kind == "ret"]
        m.d.comb += self.idle.eq(state.at(self.IDLE))
        retreg = Signal(f.return_width, name="retreg") if f.return_width else None
        if self.ret is not None:
            m.d.comb += self.ret.eq(retreg)
        with m.Switch(state.sig):
            for b, st in ret_states:
                with m.Case(state.case(self.sid[(b, st)])):
                    m.d.comb += self.done.eq(1)
                    t = b.terminator
                    if self.ret is not None and t.operands:
                        m.d.comb += self.ret.eq(self.read(t.operands[0], b, st))

        # comb: default advance 1; memory ports, unit inputs, callee handshakes per state
        m.d.comb += advance.eq(1)
        with m.Switch(state.sig):
            for (blk, step), sid in self.sid.items():
                ops = by_state.get(sid, [])
                if not any(o.kind in ("load", "store", "call") or o in bd.unit_of for o in ops):
                    continue
                with m.Case(state.case(sid)):
                    for op in ops:
                        self._comb_op(m, op, blk, step, mems, unit_sigs, sub, advance)
        # sync: IDLE and the states
        with m.Switch(state.sig):
            with m.Case(state.case(self.IDLE)):
                with m.If(self.start):
                    m.d.sync += [self.preg[p].eq(self.params[p]) for p in f.scalar_params]

                    def from_ports(v):  # values of an empty entry block: constants, params
                        if isinstance(v, Param):
                            return self.params[v]
                        if isinstance(v, Const):
                            return AConst(v.value, v.width)
                        raise RTLError("internal error: non-constant value in an empty entry block")

                    self._edge(m, f.entry, 0, f.entry, state, reader=from_ports, src=self.IDLE)
            for (blk, step), sid in self.sid.items():
                if blk in self.pipes:
                    continue
                with m.Case(state.case(sid)):
                    with m.If(advance):
                        for op in births.get(sid, []):
                            m.d.sync += self.regs[bd.reg_of[op]].eq(self.wire[op])
                        last = fs.blocks[blk].length - 1
                        if step < last:
                            m.d.comb += state.go(sid + 1, sid)
                        else:
                            self._terminator(m, blk, step, state, retreg)
        for pl in self.pipes.values():
            pl.elaborate(m, state, mems)
        for b, sig in self.own_probes.items():
            m.d.comb += sig.eq(state.at(self.sid[(b, 0)]))
        return m

    def _comb_op(self, m, op: Op, blk: Block, step: int, mems, unit_sigs, sub, advance) -> None:
        rd = lambda v: self.read(v, blk, step)  # noqa: E731
        bd = self.bd
        if op.kind in ("load", "store"):
            port = mems[op.mem].port[bd.port_of[op]]
            m.d.comb += port.address.eq(rd(op.operands[0]))
            en = rd(op.operands[op.attrs["guard"]]) if "guard" in op.attrs else 1
            if op.kind == "load":
                m.d.comb += port.ce.eq(en)
            else:
                lane, size = op.attrs["lane"], op.attrs["size"]
                data = rd(op.operands[1])
                m.d.comb += [
                    port.ce.eq(advance & en),
                    port.we.eq(((1 << size) - 1) << lane),
                    port.d.eq(Cat(AConst(0, 8 * lane), data[:8 * size]) if lane else data[:8 * size]),
                ]
        elif op.kind == "call":
            inst = sub[op.attrs["callee"]]
            m.d.comb += [inst.start.eq(1), advance.eq(inst.done)]
            callee = op.attrs["callee"]
            for p, v in zip(callee.scalar_params, op.call_scalar_args(), strict=True):
                m.d.comb += inst.params[p].eq(rd(v))
            for pp, mem, word_off in op.call_ptr_args():
                forward_ports(m, mems[mem], inst.ext[pp.mem], rd(word_off))
        elif op in bd.unit_of:
            u = unit_sigs[bd.unit_of[op]]
            if op_def(op.kind).float:
                m.d.comb += fp_operands(u, [rd(v) for v in op.operands])
                return
            a, b = rd(op.operands[0]), rd(op.operands[1])
            if isinstance(u, PipelinedMul):
                m.d.comb += [u.a.eq(a), u.b.eq(b)]
            elif op.kind == "mul":
                m.d.comb += [u[0].eq(a), u[1].eq(b)]
            else:
                m.d.comb += [u.start.eq(advance), u.a.eq(a), u.b.eq(b),
                             u.signed.eq(op.kind in ("sdiv", "srem"))]

    def _resolve(self, succ: Block) -> tuple[Block, Block | None]:
        via, seen = None, set()
        while skipped(succ) and succ not in seen:
            seen.add(succ)
            via, succ = succ, succ.ops[0].targets[0]
        return succ, via

    def _edge(self, m, blk: Block, step: int, succ: Block, state, reader=None,
              src: int | None = None) -> None:
        """Take the edge ``blk -> succ`` at the end of (blk, step): phi copies, next state.

        Phi registers are written at the end of the predecessor's last step; when empty
        blocks are skipped, the phis of the block finally reached take their incoming
        values for the last skipped block, read in the current step.  The binding's
        liveness puts those reads one step later, in the skipped block, where no other
        value is defined, so the registers it assigned stay valid."""
        final, via = self._resolve(succ)
        pred_b = via if via is not None else blk
        rd = reader or (lambda v: self.read(v, blk, step))
        for phi in final.phis:
            for pred, v in phi.incoming:
                if pred is pred_b:
                    m.d.sync += self.regs[self.bd.reg_of[phi]].eq(rd(v))
                    break
        m.d.comb += state.go(self.sid[(final, 0)], self.sid[(blk, step)] if src is None else src)
        if final in self.pipes and pred_b is not final:
            self.pipes[final].on_entry(m)

    def _terminator(self, m, blk: Block, step: int, state, retreg) -> None:
        t = blk.terminator
        rd = lambda v: self.read(v, blk, step)  # noqa: E731
        if t.kind == "br":
            self._edge(m, blk, step, t.targets[0], state)
        elif t.kind == "condbr":
            with m.If(rd(t.operands[0])):
                self._edge(m, blk, step, t.targets[0], state)
            with m.Else():
                self._edge(m, blk, step, t.targets[1], state)
        elif t.kind == "switch":
            with m.Switch(rd(t.operands[0])):
                done = set()
                for c, tgt in zip(t.cases, t.targets[1:]):
                    if c in done:
                        continue
                    done.add(c)
                    with m.Case(c):
                        self._edge(m, blk, step, tgt, state)
                with m.Default():
                    self._edge(m, blk, step, t.targets[0], state)
        elif t.kind == "ret":
            if t.operands and retreg is not None:
                m.d.sync += retreg.eq(rd(t.operands[0]))
            m.d.comb += state.go(self.IDLE, self.sid[(blk, step)])
        else:
            raise RTLError(f"internal error: unknown terminator {t.kind}")


def forward_ports(m: Module, outer: MemPorts, inner: MemPorts, offset=None) -> None:
    """Let ``inner`` (a callee's ports) reach the memory behind ``outer`` (the caller's),
    port by port: ``wiring.connect(m, wiring.flipped(outer), inner)``, except that with a
    word ``offset`` (a pointer into the middle of an array) the address is ``inner``'s plus
    ``offset``, which ``connect`` cannot express (it joins signals, not expressions).  The
    statements land in the current ``m.If``/``m.Case`` (a call drives its callee's ports
    only in its call state)."""
    if offset is None:
        wiring.connect(m, wiring.flipped(outer), inner)
        return
    for o, i in zip(outer.port, inner.port, strict=True):
        m.d.comb += [
            o.address.eq(i.address + offset),
            o.ce.eq(i.ce),
            o.we.eq(i.we),
            o.d.eq(i.d),
            i.q.eq(o.q),
        ]
