"""The hardware of a dataflow region: one accelerator per task, channels between them and a
distributed controller (SODA's execution managers), behind the same handshake as an FSMD.

:class:`DataflowRTL` is an interface object of the region function's
:class:`~hls.rtl.ControlSignature` with the same ``ext`` memory ports as the
:class:`~hls.rtl.FunctionRTL` it replaces, so a top (or a caller) cannot tell them apart.

**Tasks.**  Every task is its own instance of its callee's FSMD (a function called twice
gets two), under ``EnableInserter({"sync": run})``: ``run`` is the AND of the ``ready``
outputs of the task's FIFO adapters, so a task waiting on an empty or full FIFO is frozen
exactly as an Alveo core waiting on AXI (:mod:`hls.memory._axi_master`).  Memory requests
of a task reach memories outside its core only in its running cycles (``ce`` gated by
``run``), so a frozen cycle repeats nothing.

**Execution managers** (one per task, no central FSM).  Each keeps the number of frames
it has ``started`` and ``finished`` and, while ``busy``, the ``frame`` it runs.  It starts
frame ``k`` when the region runs, ``k < frames``, and

* every input PIPO channel holds frame ``k``: its producer's ``finished > k``;
* every output PIPO channel has a free bank: ``k - finished < 2`` for each consumer
  (and likewise for the 2-entry scalar channels of its result);
* every scalar channel it reads holds frame ``k``;
* for a pointer argument that some task writes, its users run in program order, frame by
  frame (a token passes from user to user: the previous user has finished frame ``k``;
  the first user waits for the last one's frame ``k - 1``);
* a pointer argument only read by several tasks is free: no other user is busy, and no
  user of lower index asks for it in the same cycle (all such arguments at once, by a
  fixed priority, so no two managers wait for each other).

It holds ``start`` until the task's ``done``, and drives the task's scalar arguments
from the region's arguments, the frame number and the scalar channels.  A sink (the store
of a task's result into a pointer argument) writes in the cycle it starts.  The region is
``done`` when every manager has finished every frame.

**Channels.**  A PIPO channel is ``depth`` banks (2, more on reconvergent paths) per
consumer (the producer writes all copies, reads back copy 0); frame ``k`` uses bank ``k mod
depth``.  A FIFO channel joins the
producer's output-stream adapter to the consumer's input-stream adapter
(:class:`hls.memory.AxisAdapter`, two skid entries each) through a
``amaranth.lib.fifo.SyncFIFO`` of the channel's depth.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const as AConst, Elaboratable, EnableInserter, Module, Mux, Signal
from amaranth.lib.fifo import SyncFIFO
from amaranth.lib.memory import Memory

from ..dataflow import Channel, Task, TaskGraph
from ..errors import RTLError
from ..ir import Const, MemoryObject, Op, Param
from ..memory import AxisAdapter, MemPorts, StreamArg
from ._fsmd import NPORTS, ControlSignature, InternalMemory, mem_ports
from ._units import comb_expr

__all__ = ["DataflowRTL"]


#: cycles without any task running or starting, while the region is active, after which
#: the monitor reports a deadlock (data in flight between two FIFO ends takes a few)
DEADLOCK_CYCLES = 64


def _bits(n: int) -> int:
    return max(1, int(n).bit_length())


class DataflowRTL(Elaboratable):
    """The region of ``graph``; ``make(func)`` builds a fresh FSMD instance of a callee
    (one per task)."""

    def __init__(self, graph: TaskGraph, make):
        self.g = g = graph
        f = g.func
        self.func = f
        self.start = Signal(name="start")
        self.done = Signal(name="done")
        self.idle = Signal(name="idle")
        self.ret = None
        self.params = {p: Signal(p.width, name=p.name) for p in f.scalar_params}
        for i, sig in enumerate(self.params.values()):
            setattr(self, f"arg{i}", sig)
        self._signature = ControlSignature(tuple(p.width for p in f.scalar_params), 0)
        self.ext: dict[MemoryObject, MemPorts] = {}
        for p in f.ptr_params:
            for mem in p.port_mems:
                self.ext[mem] = mem_ports(mem, mem.name if p.banks else p.name)
        #: one FSMD per accelerator instance (g.instances); tasks that share one take
        #: turns (the resource manager in the start conditions)
        self.inst_cores = [make(fn) for fn in g.instances]
        self.cores = {t: self.inst_cores[g.instance_of[t]] for t in g.tasks if t.kind == "call"}
        self.probes = []
        for core in self.inst_cores:
            self.probes += [(fn, bn, sig) for fn, bn, sig in core.probes]
        self.busy = {t: Signal(name=f"busy_{t.name}") for t in g.tasks}
        #: per instance: its cores' enable (the AND of its FIFO adapters' ready)
        self.inst_run = [Signal(name=f"run_{fn.name}_{i}") for i, fn in enumerate(g.instances)]
        self.run = {t: self.inst_run[g.instance_of[t]] for t in self.cores}
        #: the deadlock monitor: ``deadlock`` is high once no task has run or started for
        #: DEADLOCK_CYCLES cycles while the region is active; bit i of ``wait_bits`` is
        #: high while ``waits[i]`` = (task, the task it waits for, what, FULL/EMPTY/BUSY)
        #: holds (known after elaboration; :meth:`wait_list` before)
        self.deadlock = Signal(name="df_deadlock")
        self.wait_bits = Signal(max(1, self._count_waits()), name="df_waits")

    @property
    def signature(self) -> ControlSignature:
        return self._signature

    def _same_instance(self, t: Task) -> list[Task]:
        """The other tasks on ``t``'s accelerator instance."""
        g = self.g
        i = g.instance_of.get(t)
        return [u for u in g.tasks if u is not t and i is not None and g.instance_of.get(u) == i]

    def _count_waits(self) -> int:
        return len(self.wait_list())

    def wait_list(self) -> list[tuple[str, str, str, str]]:
        """(task, waits for task, what, state) per bit of ``wait_bits``, in the order
        :meth:`elaborate` makes them."""
        g = self.g
        out = []
        for c in g.channels:
            if c.kind == "pipo":
                for t in c.consumers:
                    out.append((t.name, c.producer.name, f"channel {c.name} (pipo)", "EMPTY"))
                    out.append((c.producer.name, t.name, f"channel {c.name} (pipo)", "FULL"))
        for sc in g.scalars:
            for t in sc.consumers:
                out.append((t.name, sc.producer.name, f"channel {sc.name}", "EMPTY"))
                out.append((sc.producer.name, t.name, f"channel {sc.name}", "FULL"))
        ro = {t: [] for t in g.tasks}
        for port in g.ports:
            us = list(dict.fromkeys(t for t, _ in port.users))
            if len(us) < 2:
                continue
            if port.written:
                for j, t in enumerate(us):
                    out.append((t.name, us[j - 1].name,
                                f"argument {port.mem.name} (program order)", "BUSY"))
            else:
                for t in us:
                    ro[t].append((port, us))
        for t in g.tasks:
            for port, us in ro[t]:
                for u in us:
                    if u is not t:
                        out.append((t.name, u.name, f"argument {port.mem.name} (shared)", "BUSY"))
            for u in self._same_instance(t):
                out.append((t.name, u.name, f"accelerator @{t.function.name} (shared)", "BUSY"))
        for c in g.channels:
            if c.kind != "pipo":
                out.append((c.producer.name, c.consumers[0].name, f"channel {c.name} (fifo)",
                            "FULL"))
                out.append((c.consumers[0].name, c.producer.name, f"channel {c.name} (fifo)",
                            "EMPTY"))
        return out

    # ------------------------------------------------------------------ helpers
    def _expr(self, v, frame, cache):
        """Value ``v`` of the region for the frame number ``frame`` (glue, module doc)."""
        if v in cache:
            return cache[v]
        g = self.g
        if isinstance(v, Const):
            e = AConst(v.value, v.width)
        elif isinstance(v, Param):
            e = self.preg[v]
        elif v is g.iv:
            e = (AConst(g.iv_start, v.width) + frame * AConst(g.iv_step, v.width))[:v.width]
        elif isinstance(v, Op) and v.kind == "call":
            raise RTLError("internal error: a call's result used as glue")
        else:
            e = comb_expr(v, [self._expr(o, frame, cache) for o in v.operands])
        cache[v] = e
        return e

    def elaborate(self, platform):
        m = Module()
        g = self.g
        tasks = g.tasks
        self.preg = {p: Signal(p.width, name=f"arg_{p.name}") for p in self.func.scalar_params}
        if g.frames is not None:
            N = g.frames
            cw = _bits(N + 2)
        else:   # frames counted to a bound of the arguments: `bound - start` frames, or none
            b = g.frames_bound
            cw = b.width + 2
            bound = self._expr(b, AConst(0, 1), {})
            s0 = AConst(g.iv_start, b.width)
            more = (bound.as_signed() > s0.as_signed()) if g.frames_signed else (bound > s0)
            N = Signal(cw, name="frames")
            m.d.comb += N.eq(Mux(more, bound - s0, 0))
        running = Signal(name="running")
        started = {t: Signal(cw, name=f"started_{t.name}") for t in tasks}
        finished = {t: Signal(cw, name=f"finished_{t.name}") for t in tasks}
        frame = {t: Signal(cw, name=f"frame_{t.name}") for t in tasks}
        go = {t: Signal(name=f"go_{t.name}") for t in tasks}        # starts now
        req = {t: Signal(name=f"req_{t.name}") for t in tasks}      # could start now
        taken = {t: Signal(name=f"taken_{t.name}") for t in tasks}  # finishes now
        busy = self.busy

        # ---- region handshake
        all_done = Signal(name="all_done")
        m.d.comb += all_done.eq(Cat(*[finished[t] == N for t in tasks]).all())
        m.d.comb += [self.done.eq(running & all_done), self.idle.eq(~running)]
        with m.If(~running & self.start):
            m.d.sync += running.eq(1)
            for p, r in self.preg.items():
                m.d.sync += r.eq(self.params[p])
            for t in tasks:
                m.d.sync += [started[t].eq(0), finished[t].eq(0)]
        with m.If(running & all_done):
            m.d.sync += running.eq(0)

        # ---- start conditions, each with what a task waits for while it is false
        want = {t: running & ~busy[t] & (started[t] < N) for t in tasks}
        conds: dict[Task, list] = {t: [] for t in tasks}
        waits = self.waits = []      # (task, waits for task, what, state)

        def cond(t: Task, e, other: Task | None = None, what: str = "", state: str = ""):
            conds[t].append(e)
            if other is not None:
                waits.append((t, other, what, state, want[t] & ~e))

        for c in g.channels:
            if c.kind == "pipo":
                for t in c.consumers:
                    cond(t, finished[c.producer] > started[t], c.producer,
                         f"channel {c.name} (pipo)", "EMPTY")
                    cond(c.producer, started[c.producer] - finished[t] < c.depth, t,
                         f"channel {c.name} (pipo)", "FULL")
        for sc in g.scalars:
            for t in sc.consumers:
                cond(t, finished[sc.producer] > started[t], sc.producer,
                     f"channel {sc.name}", "EMPTY")
                cond(sc.producer, started[sc.producer] - finished[t] < sc.depth, t,
                     f"channel {sc.name}", "FULL")
        shared_ro: dict[Task, list] = {t: [] for t in tasks}
        for port in g.ports:
            us = list(dict.fromkeys(t for t, _ in port.users))
            if len(us) < 2:
                continue
            if port.written:
                for j, t in enumerate(us):
                    if j:
                        cond(t, finished[us[j - 1]] > started[t], us[j - 1],
                             f"argument {port.mem.name} (program order)", "BUSY")
                    else:
                        cond(t, finished[us[-1]] >= started[t], us[-1],
                             f"argument {port.mem.name} (program order)", "BUSY")
            else:
                for t in us:
                    shared_ro[t].append((port, us))
        for t in tasks:
            m.d.comb += req[t].eq(want[t] & Cat(*conds[t]).all() if conds[t] else want[t])
        for t in tasks:
            grant = [req[t]]
            for port, us in shared_ro[t]:
                for u in us:
                    if u is t:
                        continue
                    grant.append(~busy[u])
                    waits.append((t, u, f"argument {port.mem.name} (shared)", "BUSY",
                                  req[t] & busy[u]))
                    if u.index < t.index:
                        grant.append(~req[u])
            # the resource manager of a shared accelerator: free, and no task asking for
            # it runs an older frame (or the same frame earlier in program order)
            for u in self._same_instance(t):
                grant.append(~busy[u])
                waits.append((t, u, f"accelerator @{t.function.name} (shared)", "BUSY",
                              req[t] & busy[u]))
                older = (started[u] < started[t]) | ((started[u] == started[t])
                                                     & (u.index < t.index))
                grant.append(~(req[u] & older))
            m.d.comb += go[t].eq(Cat(*grant).all())

        # ---- execution managers
        for t in tasks:
            with m.If(go[t]):
                m.d.sync += [frame[t].eq(started[t]), started[t].eq(started[t] + 1)]
            if t.kind == "store":
                m.d.comb += taken[t].eq(go[t])
            else:
                core = self.cores[t]
                m.d.comb += taken[t].eq(busy[t] & self.run[t] & core.done)
                with m.If(go[t]):
                    m.d.sync += busy[t].eq(1)
                with m.If(taken[t]):
                    m.d.sync += busy[t].eq(0)
            with m.If(taken[t]):
                m.d.sync += finished[t].eq(finished[t] + 1)

        # ---- scalar channels: the result of frame k in slot k mod depth
        self.slots: dict = {}
        for sc in g.scalars:
            p = sc.producer
            slots = [Signal(sc.width, name=f"{p.name}_ret{i}") for i in range(sc.depth)]
            self.slots[sc.producer.op] = (sc, slots)
            core = self.cores[p]
            with m.If(taken[p]):
                with m.Switch(frame[p][:_bits(sc.depth - 1)] if sc.depth > 1 else 0):
                    for i, s in enumerate(slots):
                        with m.Case(i):
                            m.d.sync += s.eq(core.ret)

        def result(v: Op, t: Task):
            sc, slots = self.slots[v]
            if sc.depth == 1:
                return slots[0]
            sel = frame[t][:_bits(sc.depth - 1)]
            return Mux(sel == 0, slots[0], slots[1]) if sc.depth == 2 else \
                slots[0]  # depth > 2 is not chosen

        def value(v, t: Task, cache):
            if isinstance(v, Op) and v.kind == "call":
                return result(v, t)
            return self._expr(v, frame[t], cache)

        # ---- accelerators: one core per instance, started by the task that holds it
        for i, core in enumerate(self.inst_cores):
            users = [t for t in self.cores if g.instance_of[t] == i]
            name = users[0].name if len(users) == 1 else f"{g.instances[i].name}_shared{i}"
            m.submodules[f"task_{name}"] = EnableInserter({"sync": self.inst_run[i]})(core)
            m.d.comb += core.start.eq(Cat(*[busy[t] for t in users]).any())
        for t in tasks:
            if t.kind != "call":
                continue
            core = self.cores[t]
            cache: dict = {}
            with m.If(busy[t]):
                for p, v in zip(t.function.scalar_params, t.op.call_scalar_args(), strict=True):
                    m.d.comb += core.params[p].eq(value(v, t, cache))
            t._cache = cache

        readies: dict[Task, list] = {t: [] for t in self.cores}

        # ---- memories: ports, private arrays, channels
        def drive(port, req_port, t, offset=None):
            """Forward one request port of task ``t``'s core onto a memory-side port while
            ``t`` runs (its read data while it holds the core)."""
            stm = [port.address.eq(req_port.address + offset if offset is not None
                                   else req_port.address),
                   port.ce.eq(req_port.ce), port.we.eq(req_port.we), port.d.eq(req_port.d)]
            with m.If(busy[t] & self.run[t]):
                m.d.comb += stm
            with m.If(busy[t]):
                m.d.comb += req_port.q.eq(port.q)

        def offset_of(t: Task, off):
            if isinstance(off, Const) and off.value == 0:
                return None
            return value(off, t, t._cache)

        for port in g.ports:
            ext = self.ext[port.mem]
            for t in dict.fromkeys(u for u, _ in port.users):
                if t.kind == "store":
                    op = t.op
                    lane, size = op.attrs["lane"], op.attrs["size"]
                    data = result(op.operands[1], t)
                    p0 = ext.port[0]
                    with m.If(go[t]):
                        m.d.comb += [p0.address.eq(self._expr(op.operands[0], frame[t], {})
                                                   if not isinstance(op.operands[0], Const)
                                                   else op.operands[0].value),
                                     p0.ce.eq(1), p0.we.eq(((1 << size) - 1) << lane),
                                     p0.d.eq(Cat(AConst(0, 8 * lane), data[:8 * size])
                                             if lane else data[:8 * size])]
                    continue
                core = self.cores[t]
                for pp, mem, off, _how in t.ptr_args:
                    if mem is not port.mem:
                        continue
                    inner = core.ext[pp.mem]
                    for o, i in zip(ext.port, inner.port, strict=True):
                        drive(o, i, t, offset_of(t, off))
        for t, mems in g.private.items():
            core = self.cores[t]
            for mem in mems:
                ports = mem_ports(mem, f"{t.name}_{mem.name}")
                m.submodules[f"mem_{t.name}_{mem.name}"] = InternalMemory(mem, ports)
                for pp, cm, off, _how in t.ptr_args:
                    if cm is not mem:
                        continue
                    inner = core.ext[pp.mem]
                    for o, i in zip(ports.port, inner.port, strict=True):
                        drive(o, i, t, offset_of(t, off))
        for c in g.channels:
            if c.kind == "pipo":
                self._pipo(m, c, busy, go, ~running & self.start, offset_of)
            else:
                self._fifo(m, c, readies, taken)
        for i, run in enumerate(self.inst_run):
            rs = [r for t in self.cores if g.instance_of[t] == i for r in readies[t]]
            m.d.comb += run.eq(Cat(*rs).all() if rs else 1)

        # ---- deadlock monitor: no task runs and none starts for DEADLOCK_CYCLES cycles
        # while the region is active; ``waits`` says who waits for whom, and why
        progress = Cat(*([busy[t] & self.run[t] for t in self.cores] + [go[t] for t in tasks]
                         + [running & all_done])).any()
        quiet = Signal(range(DEADLOCK_CYCLES + 1), name="quiet")
        with m.If(~running | progress):
            m.d.sync += quiet.eq(0)
        with m.Elif(quiet < DEADLOCK_CYCLES):
            m.d.sync += quiet.eq(quiet + 1)
        m.d.comb += self.deadlock.eq(quiet == DEADLOCK_CYCLES)
        # the monitor's bits in the order of wait_list() (the interface's descriptors)
        made = {(a.name, b.name, what, st): e for a, b, what, st, e in waits}
        listed = self.wait_list()
        if set(made) != set(listed) or len(made) != len(waits):
            raise RTLError("internal error: the deadlock monitor's waits differ from wait_list()")
        if listed:
            m.d.comb += self.wait_bits.eq(Cat(*[made[w] for w in listed]))
        return m

    def _pipo(self, m, c: Channel, busy, go, begin, offset_of):
        """``c.depth`` banks per consumer; each user takes the next bank, round robin, when
        it starts a frame (frame k: bank k mod depth), from bank 0 at the region's start."""
        mem = c.mem
        n = c.depth
        w = 8 * mem.word_bytes
        init = [0] * mem.depth_words
        ab = mem.addr_bits
        banks = []   # banks[copy][b]: (read ports, write ports)
        for j, cons in enumerate(c.consumers):
            row = []
            for b in range(n):
                store = Memory(shape=w, depth=mem.depth_words, init=init)
                m.submodules[f"ch_{c.name}_{j}_{b}"] = store
                rps = [store.read_port(domain="sync") for _ in range(NPORTS)]
                wps = [store.write_port(granularity=8) for _ in range(NPORTS)]
                row.append((rps, wps))
            banks.append(row)
        bank = {}
        for t in [c.producer] + c.consumers:
            cur = Signal(range(n), name=f"bank_{c.name}_{t.name}")
            nxt = Signal(range(n), name=f"next_bank_{c.name}_{t.name}")
            with m.If(begin):
                m.d.sync += nxt.eq(0)
            with m.Elif(go[t]):
                m.d.sync += [cur.eq(nxt), nxt.eq(Mux(nxt == n - 1, 0, nxt + 1))]
            bank[t] = cur

        def reqs(t: Task):
            core = self.cores[t]
            for pp, cm, off, _how in t.ptr_args:
                if cm is mem:
                    return core.ext[pp.mem], offset_of(t, off)
            raise RTLError(f"internal error: task {t.name} does not use channel {c.name}")

        prod = c.producer
        pports, poff = reqs(prod)
        crq = [reqs(t) for t in c.consumers]
        for j, cons in enumerate(c.consumers):
            cports, coff = crq[j]
            for b in range(n):
                rps, wps = banks[j][b]
                p_on = busy[prod] & self.run[prod] & (bank[prod] == b)
                c_on = busy[cons] & self.run[cons] & (bank[cons] == b)
                for k in range(NPORTS):
                    rp, wp = rps[k], wps[k]
                    pr, cr = pports.port[k], cports.port[k]
                    paddr = (pr.address + poff)[:ab] if poff is not None else pr.address
                    caddr = (cr.address + coff)[:ab] if coff is not None else cr.address
                    with m.If(p_on):
                        m.d.comb += [rp.addr.eq(paddr), wp.addr.eq(paddr),
                                     rp.en.eq(pr.ce & (pr.we == 0)),
                                     wp.data.eq(pr.d), wp.en.eq(Mux(pr.ce, pr.we, 0))]
                    with m.Elif(c_on):
                        m.d.comb += [rp.addr.eq(caddr), rp.en.eq(cr.ce & (cr.we == 0))]
        # read data: the bank each side runs on (the producer reads copy 0)
        for k in range(NPORTS):
            sides = [(pports.port[k], bank[prod], banks[0])]
            sides += [(crq[j][0].port[k], bank[cons], banks[j])
                      for j, cons in enumerate(c.consumers)]
            for (port, sel, row), t in zip(sides, [prod] + c.consumers):
                with m.If(busy[t]):
                    with m.Switch(sel):
                        for b in range(n):
                            with m.Case(b):
                                m.d.comb += port.q.eq(row[b][0][k].data)

    def _fifo(self, m, c: Channel, readies, taken):
        mem = c.mem
        prod, cons = c.producer, c.consumers[0]
        ends = {}
        for t, direction in ((prod, "out"), (cons, "in")):
            core = self.cores[t]
            cm = c.callee_mem(t)
            inner = core.ext[cm]
            arg = StreamArg(f"{c.name}_{direction}", mem.word_bytes, cm.addr_bits,
                            max(1, cm.depth_words), direction, NPORTS)
            ad = AxisAdapter(arg)
            m.submodules[f"ch_{c.name}_{direction}"] = ad
            for bp, ip in zip(ad.ports, inner.port, strict=True):
                m.d.comb += [bp.address.eq(ip.address), bp.ce.eq(ip.ce), bp.we.eq(ip.we),
                             bp.d.eq(ip.d), ip.q.eq(bp.q)]
            m.d.comb += [ad.run.eq(self.run[t] & self.busy[t]), ad.restart.eq(taken[t])]
            readies[t].append(ad.ready)
            ends[direction] = ad
        out, inp = ends["out"], ends["in"]
        if c.depth > 0:
            fifo = SyncFIFO(width=8 * mem.word_bytes, depth=c.depth)
            m.submodules[f"ch_{c.name}"] = fifo
            m.d.comb += [fifo.w_data.eq(out.axis["TDATA"]), fifo.w_en.eq(out.axis["TVALID"]),
                         out.axis["TREADY"].eq(fifo.w_rdy),
                         inp.axis["TDATA"].eq(fifo.r_data), inp.axis["TVALID"].eq(fifo.r_rdy),
                         fifo.r_en.eq(inp.axis["TREADY"])]
        else:
            m.d.comb += [inp.axis["TDATA"].eq(out.axis["TDATA"]),
                         inp.axis["TVALID"].eq(out.axis["TVALID"]),
                         out.axis["TREADY"].eq(inp.axis["TREADY"])]
        self.waits.append((prod, cons, f"channel {c.name} (fifo)", "FULL",
                           self.busy[prod] & ~out.ready))
        self.waits.append((cons, prod, f"channel {c.name} (fifo)", "EMPTY",
                           self.busy[cons] & ~inp.ready))
