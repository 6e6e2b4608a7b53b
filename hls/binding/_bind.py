"""Functional-unit, register and memory-port binding of a scheduled function.

* **Registers** by lifetime: liveness is computed on the step-level control flow graph
  (a block's steps in a chain, its last step followed by the first step of each
  successor); a value is *defined* at the end of its birth step (a phi at the end of the
  last step of each predecessor) and *used* in every step that reads it from its
  register (uses in the birth step read the combinational wire and need no register).
  Values interfere when one is defined where the other is live out; registers are then
  assigned by greedy colouring in order of definition (the interval-graph left-edge
  algorithm when the CFG is a chain), only between values of equal width, and only
  while the register's input multiplexer (one input per write of its values) fits the
  cycle after the latest of them (:func:`_register_writes`).
* **Functional units**: multipliers of at least ``share_min_width`` bits and dividers
  are shared between ops whose busy intervals never overlap (different blocks never run
  together; in one block the busy steps must be disjoint).  This is a colouring of the
  conflict graph, i.e. a clique cover of the compatibility graph (Tseng-Siewiorek), done
  greedily in schedule order, which is optimal for interval conflicts.
* **Floating-point units** and **two-stage multiplies** (pipelined, a new operation
  every cycle) are shared the same way between the ops of one unit class
  (:func:`hls.targets._fp.fp_unit_key`, :func:`pipelined_mul_key`) issued in different
  FSM states, where the multiplexer a shared unit puts before its first stage
  (the target's ``port_mux_ns`` for that many sources) still fits the op's cycle.
* **Memory ports**: in each step, the loads and stores of a memory take ports 0 and 1
  in program order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ir import Block, Const, Function, Op, Param, Value, op_def
from ..scheduling import FunctionSchedule, op_timing, stores_first
from ..targets._fp import fp_unit_key

Point = tuple[Block, int]


@dataclass
class Binding:
    func: Function
    fsched: FunctionSchedule
    reg_of: dict[Value, int] = field(default_factory=dict)
    reg_width: list[int] = field(default_factory=list)
    #: op -> (resource class, instance index) for shared units
    unit_of: dict[Op, tuple[str, int]] = field(default_factory=dict)
    units: dict[str, list[list[Op]]] = field(default_factory=dict)
    port_of: dict[Op, int] = field(default_factory=dict)
    #: local memories that no cycle stores to twice or loads from twice: simple dual
    #: port, stores through port 0 (write only), loads through port 1 (read only)
    simple_dual_port: set = field(default_factory=set)

    def summary(self) -> dict:
        return {
            "registers": len(self.reg_width),
            "register_bits": sum(self.reg_width),
            "values_in_registers": len(self.reg_of),
            "shared_units": {k: len(v) for k, v in self.units.items()},
        }


def is_wire_use(fs: FunctionSchedule, v: Value, block: Block, step: int) -> bool:
    """Does a read of ``v`` at (block, step) see its combinational wire?"""
    return (isinstance(v, Op) and v.kind != "phi" and v.block is block
            and fs.birth(v) == step)


def bind(fs: FunctionSchedule, share_min_width: int = 16, limited: bool = False) -> Binding:
    """``limited``: the schedule keeps to unit limits (``--max-units``), which binding
    must meet: every two-stage multiply of a class shares its units, whatever its
    operands' multiplexer adds to the first stage."""
    func = fs.func
    b = Binding(func, fs)
    _bind_registers(b)
    _bind_units(b, share_min_width)
    _bind_fp_units(b, limited)
    _bind_ports(b)
    _simple_dual_port(b)
    return b


def _last(fs: FunctionSchedule, block: Block) -> int:
    return fs.blocks[block].length - 1


def _bind_registers(bd: Binding) -> None:
    fs, func = bd.fsched, bd.func
    uses: dict[Point, list[Value]] = {}
    defs: dict[Point, list[Value]] = {}

    def use(v: Value, p: Point) -> None:
        if isinstance(v, (Const, Param)):
            return
        if is_wire_use(fs, v, p[0], p[1]):
            return
        uses.setdefault(p, []).append(v)

    for blk in func.blocks:
        last = _last(fs, blk)
        for op in blk.ops:
            if op.kind == "phi":
                continue
            for v in op.operands:
                use(v, (blk, fs.step[op]))
        for succ in blk.successors:
            for phi in succ.phis:
                for pred, v in phi.incoming:
                    if pred is blk:
                        use(v, (blk, last))
                defs.setdefault((blk, last), []).append(phi)
    needs = {v for vs in uses.values() for v in vs}
    for blk in func.blocks:
        for op in blk.ops:
            if op.kind != "phi" and op in needs:
                defs.setdefault((blk, fs.birth(op)), []).append(op)
    values = [v for blk in func.blocks for v in blk.ops if v in needs or v.kind == "phi"]
    values = list(dict.fromkeys(values))
    bit = {v: i for i, v in enumerate(values)}
    # points in a fixed order and their successors
    points: list[Point] = [(blk, s) for blk in func.blocks for s in range(fs.blocks[blk].length)]
    succ: dict[Point, list[Point]] = {}
    for blk in func.blocks:
        n = fs.blocks[blk].length
        for s in range(n):
            succ[(blk, s)] = [(blk, s + 1)] if s + 1 < n else [(t, 0) for t in blk.successors]
    use_m = {p: _mask(bit, uses.get(p, ())) for p in points}
    def_m = {p: _mask(bit, defs.get(p, ())) for p in points}
    live_in = {p: 0 for p in points}
    live_out = {p: 0 for p in points}
    changed = True
    while changed:
        changed = False
        for p in reversed(points):
            out = 0
            for q in succ[p]:
                out |= live_in[q]
            inn = use_m[p] | (out & ~def_m[p])
            if out != live_out[p] or inn != live_in[p]:
                live_out[p], live_in[p] = out, inn
                changed = True
    interf = {v: 0 for v in values}
    for p in points:
        d = def_m[p]
        if not d:
            continue
        conflict = live_out[p] | d
        for v in defs[p]:
            interf[v] |= conflict & ~(1 << bit[v])
    # symmetric closure
    for v in values:
        m = interf[v]
        i = 0
        while m:
            if m & 1:
                interf[values[i]] |= 1 << bit[v]
            m >>= 1
            i += 1
    writes = _register_writes(bd, values)
    target = fs.target
    regs_members: list[int] = []
    reg_writes: list[tuple[int, float]] = []     # (sources, latest data) per register
    for v in values:
        n, late = writes[v]
        for r, members in enumerate(regs_members):
            if bd.reg_width[r] != v.width or members & interf[v]:
                continue
            k, worst = reg_writes[r][0] + n, max(reg_writes[r][1], late)
            if target.chain_budget_ns - worst < target.port_mux_ns(k) - 1e-9:
                continue    # the register's input multiplexer would not fit the cycle
            regs_members[r] |= 1 << bit[v]
            reg_writes[r] = (k, worst)
            bd.reg_of[v] = r
            break
        else:
            bd.reg_of[v] = len(bd.reg_width)
            bd.reg_width.append(v.width)
            regs_members.append(1 << bit[v])
            reg_writes.append((n, late))


def _register_writes(bd: Binding, values: list[Value]) -> dict[Value, tuple[int, float]]:
    """Value -> (writes of its register, the latest time in its cycle the data of one
    arrives).  An op is written once, at its birth, by its chain's arrival (a multi-cycle
    op: its output delay there); a phi once per incoming edge, by the incoming value's
    arrival when the predecessor's last step chains it (0 from a register or a constant).
    A register shared by values with ``k`` writes in all has a ``k``-input multiplexer
    in front of it: the step overhead holds a 2:1 one, more must fit in what the latest
    write leaves of the cycle (``Target.port_mux_ns``), or the values keep apart.
    Values of pipelined loops count as arriving at 0 (their pipeline registers)."""
    fs = bd.fsched
    out: dict[Op, float] = {}
    for blk, bs in fs.blocks.items():
        if blk in fs.pipelines:
            continue
        for i, op in enumerate(bs.ops):
            t = op_timing(fs.target, op)
            out[op] = t.delay_ns if t.latency else bs.schedule.arrival_ns.get(i, 0.0)

    def done(v) -> float:
        return out.get(v, 0.0) if isinstance(v, Op) and v.kind != "phi" else 0.0

    res: dict[Value, tuple[int, float]] = {}
    for v in values:
        if v.kind != "phi":
            res[v] = (1, done(v))
            continue
        late = 0.0
        for pred, x in v.incoming:
            if pred not in fs.pipelines and is_wire_use(fs, x, pred, _last(fs, pred)):
                late = max(late, done(x))
        res[v] = (max(1, len(v.incoming)), late)
    return res


def _mask(bit: dict[Value, int], vs) -> int:
    m = 0
    for v in vs:
        m |= 1 << bit[v]
    return m


def _bind_units(bd: Binding, share_min_width: int) -> None:
    fs = bd.fsched
    busy: dict[str, list[list[tuple[Block, int, int]]]] = {}
    for blk in bd.func.blocks:
        if blk in fs.pipelines:
            continue  # a pipeline gives every op its own hardware
        ops = sorted((op for op in blk.ops if op.kind != "phi"), key=lambda o: fs.step[o])
        for op in ops:
            t = op_timing(fs.target, op)
            if t.resource is None:
                continue
            if op.kind == "mul" and op.width < share_min_width:
                continue
            cls = t.resource
            lo, hi = fs.step[op], fs.step[op] + max(1, t.occupancy) - 1
            insts = busy.setdefault(cls, [])
            members = bd.units.setdefault(cls, [])
            for i, iv in enumerate(insts):
                if all(bb is not blk or hi < a or lo > z for bb, a, z in iv):
                    iv.append((blk, lo, hi))
                    members[i].append(op)
                    bd.unit_of[op] = (cls, i)
                    break
            else:
                insts.append([(blk, lo, hi)])
                members.append([op])
                bd.unit_of[op] = (cls, len(members) - 1)


def pipelined_mul_key(op: Op) -> str:
    """The unit class of a two-stage multiply (``hls.rtl.PipelinedMul``): its result and
    operand widths, which fix its tiles."""
    return f"pmul{op.width}_{op.operands[0].width}_{op.operands[1].width}"


def _bind_fp_units(bd: Binding, limited: bool = False) -> None:
    """Share the pipelined units of FSM states (floating-point units, and the two-stage
    multiplies of a target that builds them, ``TechParams.mul_tile``: ECP5's over
    several MULT18X18D blocks, which a design of many would run out of): per unit class,
    the ops whose first stage leaves room for the multiplexer of the sharers (as many
    sources as there are such ops, an upper bound on any unit's) take the lowest unit
    free in their issue step; ops of one state never share.  Under unit limits
    (``limited``) every two-stage multiply of a class shares: the scheduler kept each
    state's to the limit, and the units are as many as the busiest state needs."""
    fs = bd.fsched
    target = fs.target
    budget = target.chain_budget_ns
    cands: dict[str, list[tuple[Op, float]]] = {}
    for blk in bd.func.blocks:
        if blk in fs.pipelines:
            continue
        bs = fs.blocks[blk]
        ids = {op: i for i, op in enumerate(bs.ops)}
        for op in blk.ops:
            if not (op_def(op.kind).float or op.kind == "mul") or op not in ids:
                continue
            t = op_timing(target, op)
            if t.latency == 0:
                continue   # combinational: a shared one would put its muxes in the chain
            first = bs.schedule.arrival_ns.get(ids[op], 0.0) + t.in_delay_ns
            key = pipelined_mul_key(op) if op.kind == "mul" else fp_unit_key(op, t.latency)
            cands.setdefault(key, []).append((op, budget - first))
    for key in sorted(cands):
        # the most sharers k whose k largest slacks all hold a k-source multiplexer
        order = sorted(range(len(cands[key])), key=lambda j: (-cands[key][j][1], j))
        k = next((k for k in range(len(order), 1, -1)
                  if cands[key][order[k - 1]][1] >= target.port_mux_ns(k) - 1e-9), 0)
        if limited and key.startswith("pmul"):
            k = len(order)
        if k < 2:
            continue
        ops = [cands[key][j][0] for j in sorted(order[:k])]
        insts: list[set[tuple[Block, int]]] = []
        members = bd.units.setdefault(key, [])
        for op in ops:
            at = (op.block, fs.step[op])
            i = next((i for i, busy in enumerate(insts) if at not in busy), len(insts))
            if i == len(insts):
                insts.append(set())
                members.append([])
            insts[i].add(at)
            members[i].append(op)
            bd.unit_of[op] = (key, i)


def _bind_ports(bd: Binding) -> None:
    fs = bd.fsched
    for blk in bd.func.blocks:
        if blk in fs.pipelines:
            continue  # ports by modulo slot: LoopPipeline.port_of
        used: dict[tuple[int, object], int] = {}
        for op in stores_first(blk.ops):
            k = (fs.step[op], op.mem)
            n = used.get(k, 0)
            bd.port_of[op] = n
            used[k] = n + 1


def _simple_dual_port(bd: Binding) -> None:
    """Make a local memory simple dual port when it both stores and loads, never twice of
    either in one cycle (FSM step or modulo slot), and is not handed to a callee (whose
    port set serves both ports): its loads move to port 1, its stores are on port 0
    already (``stores_first``).  One write and one read port is what a RAMB36 holds 72
    bits wide (512 x 72), where two read/write ports take at most 36."""
    fs, func = bd.fsched, bd.func
    passed = {mem for op in func.ops() if op.kind == "call"
              for _, mem in op.attrs.get("ptr_args", [])}
    cand = {m for m in func.memories
            if m.kind == "local" and not m.async_read and not m.readonly and m not in passed}
    slots: dict[tuple, list[int]] = {}   # (memory, block, slot) -> [loads, stores]
    where: dict[Op, dict] = {}
    for op in bd.port_of:
        if op.mem in cand:
            slots.setdefault((op.mem, op.block, fs.step[op]), [0, 0])[op.kind == "store"] += 1
            where[op] = bd.port_of
    for blk, lp in fs.pipelines.items():
        for op in lp.port_of:
            if op.mem in cand:
                key = (op.mem, blk, lp.time[op] % lp.ii)
                slots.setdefault(key, [0, 0])[op.kind == "store"] += 1
                where[op] = lp.port_of
    loads, stores, busy = set(), set(), set()
    for (mem, _b, _s), (n_ld, n_st) in slots.items():
        if n_ld > 1 or n_st > 1:
            busy.add(mem)
        if n_ld:
            loads.add(mem)
        if n_st:
            stores.add(mem)
    sdp = (loads & stores) - busy
    for op, ports in where.items():
        if op.mem in sdp:
            if op.kind == "store":
                assert ports[op] == 0, op   # the only store of its cycle: port 0
            else:
                ports[op] = 1
    bd.simple_dual_port = sdp
