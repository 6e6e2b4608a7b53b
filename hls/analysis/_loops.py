"""Natural loops from back edges (an edge whose target dominates its source), and
constant trip counts of canonical counted loops (Aho, Sethi, Ullman: natural loops)."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field

from ..ir import Block, Const, Function, Op, dominates, dominators, op_def


@dataclass(eq=False)
class Loop:
    header: Block
    blocks: list[Block] = field(default_factory=list)
    latches: list[Block] = field(default_factory=list)
    trip_count: int | None = None
    parent: "Loop | None" = None


def header_phi_parts(phi: Op, lp: Loop) -> tuple | None:
    """``(initial, latch)``: the values the header phi ``phi`` of ``lp`` takes on entry
    (from outside the loop) and round the back edge, when there is exactly one of each
    (None otherwise)."""
    init = [v for p, v in phi.incoming if p not in lp.blocks]
    latch = [v for p, v in phi.incoming if p in lp.blocks]
    return (init[0], latch[0]) if len(init) == 1 and len(latch) == 1 else None


def loop_line(lp: Loop) -> int | None:
    """The source line of a loop: the line of its ``for``/``while``/``do`` statement
    (the frontend's ``loop_md["line"]`` on a latch branch, from clang's loop metadata),
    else its header's first non-phi op with a location (phis carry the line of the
    function when clang gives them none)."""
    for latch in lp.latches:
        line = latch.terminator.attrs.get("loop_md", {}).get("line")
        if line is not None:
            return line
    for op in lp.header.ops:
        if op.kind != "phi" and op.loc is not None and op.loc.line is not None:
            return op.loc.line
    return None


def loop_name(func: Function, lp: Loop) -> str:
    """A loop's name in reports and messages: its C label (``row: for (...)``, kept in
    the latches' ``loop_md`` by the frontend), else ``FUNCTION/L<line>`` with the line of
    its ``for``/``while``/``do`` statement (:func:`loop_line`), else its header block's."""
    from ..names import short_name
    for latch in lp.latches:
        label = latch.terminator.attrs.get("loop_md", {}).get("label")
        if label:
            return label
    line = loop_line(lp)
    return f"{short_name(func.name)}/L{line}" if line is not None else lp.header.name


def find_loops(func: Function) -> list[Loop]:
    """Natural loops of ``func`` in block order of their headers (outer before inner)."""
    idom = dominators(func)
    preds = func.predecessors()
    dom = _dominance_test(func, idom)
    loops: dict[Block, Loop] = {}
    for b in func.blocks:
        if b not in idom:
            continue
        for s in b.successors:
            if dom(s, b):
                lp = loops.setdefault(s, Loop(s))
                lp.latches.append(b)
    order = {b: i for i, b in enumerate(func.blocks)}
    for h, lp in loops.items():
        body = {h}
        work = [l for l in lp.latches if l is not h]
        body.update(work)
        while work:
            x = work.pop()
            for p in preds[x]:
                if p not in body:
                    body.add(p)
                    work.append(p)
        lp.blocks = sorted(body, key=order.__getitem__)
        lp.trip_count = _trip_count(lp)
    result = sorted(loops.values(), key=lambda l: order[l.header])
    members = [(o, set(o.blocks)) for o in result]
    for lp in result:
        enclosing = [o for o, blocks in members if o is not lp and lp.header in blocks]
        if enclosing:
            lp.parent = min(enclosing, key=lambda o: len(o.blocks))
    return result


def _dominance_test(func: Function, idom: dict):
    """``dom(a, b)``: does ``a`` dominate ``b`` (both reached from the entry), as
    :func:`hls.ir.dominates` answers it, in constant time: ``a``'s interval of the
    dominator tree's depth-first numbering holds ``b``'s."""
    kids: dict = {}
    for b, d in idom.items():
        if d is not b:
            kids.setdefault(d, []).append(b)
    enter: dict = {}
    leave: dict = {}
    clock = 0
    stack = [(func.entry, iter(kids.get(func.entry, ())))]
    enter[func.entry] = clock
    while stack:
        node, it = stack[-1]
        nxt = next(it, None)
        if nxt is None:
            stack.pop()
            clock += 1
            leave[node] = clock
        else:
            clock += 1
            enter[nxt] = clock
            stack.append((nxt, iter(kids.get(nxt, ()))))

    def dom(a, b) -> bool:
        if a not in enter or b not in enter:
            return dominates(idom, a, b)
        return enter[a] <= enter[b] and leave[b] <= leave[a]
    return dom


def _trip_count(lp: Loop) -> int | None:
    """Constant trip count of ``for (i = c0; i != / < c1; i += c)`` shaped loops: the
    latch tests the counter, or (a body with a branch whose join the test was duplicated
    into) each path of the body tests it the same way, either as a latch of its own or
    jumping to a latch that only jumps back."""
    if len(lp.latches) == 1:
        t = lp.latches[0].terminator
        unrolled = t.attrs.get("unrolled", ())
        if len(unrolled) > 2 and len(lp.blocks) == 1:   # hls.transforms.unroll_block's note
            return unrolled[2]
    tests = counted_tests(lp)
    if not tests:
        return None
    counts = {_exit_iteration(lp, b) for b in tests}
    return counts.pop() if len(counts) == 1 else None


def counted_tests(lp: Loop) -> list[Block]:
    """The blocks whose test of the counter ends an iteration of ``lp``: its latch when
    that branches, else (the test duplicated into the paths of an if/else body) the
    blocks that jump to the latch, or several latches that each branch, when they are
    all the loop's exits."""
    if not lp.latches:
        return []
    latch = lp.latches[0]
    t = latch.terminator
    if len(lp.latches) == 1 and t.kind == "condbr":
        return [latch]
    if len(lp.latches) > 1:
        tests = list(lp.latches)
    elif t.kind != "br" or latch is lp.header:
        return []
    else:
        tests = [b for b in lp.blocks if latch in b.successors]
    exiting = [b for b in lp.blocks if any(s not in lp.blocks for s in b.successors)]
    if not tests or any(b.terminator.kind != "condbr" for b in tests) or \
            set(exiting) != set(tests):
        return []
    return tests


def _step(phi: Op, v):
    """How a counter's next value ``v`` follows from ``phi``: ``("add", c)`` for ``phi +
    c``, ``("lshr"|"shl", c)`` for a shift by a constant (``span >>= 1``); also through a
    phi of the latch whose every incoming value is the same update, one per path through
    the body.  None: no such update."""
    if isinstance(v, Op) and v.kind == "phi":
        steps = {_step(phi, x) for _p, x in v.incoming}
        return steps.pop() if len(steps) == 1 else None
    if (isinstance(v, Op) and v.kind in ("add", "lshr", "shl") and v.operands[0] is phi
            and isinstance(v.operands[1], Const)):
        c = v.operands[1].signed() if v.kind == "add" else v.operands[1].value
        return (v.kind, c)
    return None


#: icmp predicates on the counter's values (signed, as _exit_iteration models them)
_TESTS = {"eq": operator.eq, "ne": operator.ne, "slt": operator.lt, "sle": operator.le,
          "sgt": operator.gt, "sge": operator.ge, "ult": operator.lt, "ule": operator.le,
          "ugt": operator.gt, "uge": operator.ge}


def _exit_iteration(lp: Loop, b: Block) -> int | None:
    """The iteration (1-based) in which the counted test ending ``b`` leaves the loop,
    the same in every entry (None: no counted test with constant bounds)."""
    t = b.terminator
    if t.kind != "condbr" or not isinstance(t.operands[0], Op):
        return None
    cmp = t.operands[0]
    if cmp.kind != "icmp" or not isinstance(cmp.operands[1], Const):
        return None
    # the tested value: the counter, the counter plus a constant, or its next value
    tested = cmp.operands[0]
    if not isinstance(tested, Op):
        return None
    if tested.kind == "phi":
        phi, shown = tested, None               # the counter itself
    elif tested.operands and isinstance(tested.operands[0], Op) and tested.operands[0].kind == "phi":
        phi = tested.operands[0]
        shown = _step(phi, tested)              # the counter updated as the test shows it
        if shown is None:
            return None
    else:
        return None
    if phi.block is not lp.header:
        return None
    steps = {_step(phi, v) for p, v in phi.incoming if p in lp.blocks}
    step = steps.pop() if len(steps) == 1 else None
    inits = [v for p, v in phi.incoming if p not in lp.blocks]
    if step is None or len(inits) != 1 or not isinstance(inits[0], Const):
        return None
    kind, c = step
    if (kind == "add" and c == 0) or (kind != "add" and inits[0].signed() < 0):
        return None
    mask = (1 << phi.width) - 1
    start, end = inits[0].signed(), cmp.operands[1].signed()
    if sum(s not in lp.blocks for s in t.targets) != 1:
        return None
    exits_on_true = t.targets[0] not in lp.blocks
    pred = cmp.attrs["pred"]

    def update(x: int, op: str, k: int) -> int:
        return x + k if op == "add" else (x >> k) if op == "lshr" else (x << k) & mask

    # the first iteration n >= 1 whose test (of the counter's n-th value, shown) exits
    test = _TESTS[pred]
    i = start
    for n in range(1, 1 << 20):
        v = i if shown is None else update(i, *shown)
        if kind != "add" and not 0 <= v < 1 << (phi.width - 1):
            return None             # a shifted value's sign or wrap: not modelled
        if test(v, end) == exits_on_true:
            return n
        i = update(i, kind, c)
        if abs(i) > (1 << 40):
            return None
    return None


@dataclass(frozen=True)
class ExtentBound:
    """At most ``trips`` header executions per entry of a loop: its unguarded access
    (a ``kind``, load or store, at source line ``line``, 0 if unknown) runs in every
    iteration at a word address that moves by ``stride`` words per iteration, and the
    memory named ``memory`` has ``depth`` words (:func:`extent_trip_bound`).  As a tuple
    (:meth:`as_attr`) it is the ``extent_bound`` attribute of a loop's back-edge branch,
    where array partitioning records the bounds its rewrite would hide."""

    trips: int
    kind: str
    memory: str
    line: int
    stride: int
    depth: int

    def as_attr(self, header: str) -> tuple:
        """The ``extent_bound`` attribute of the back-edge branch of the loop whose header
        block is named ``header``."""
        return (header, self.trips, self.kind, self.memory, self.line, self.stride, self.depth)


def _stride(v, lp: Loop, iv: Op, step: int, memo: dict) -> int | None:
    """How much ``v`` moves from one iteration of ``lp`` to the next, modulo
    ``2**v.width`` (``v(t + 1) == v(t) + stride``): 0 for a value computed outside the
    loop, ``step`` for the induction variable ``iv``; None where that is unknown (another
    phi of the loop, a non-linear op, an extension of a moving value: its wrap in the
    narrower width is a jump in the wider one)."""
    if not isinstance(v, Op) or v.block not in lp.blocks:
        return 0
    if v in memo:
        return memo[v]
    memo[v] = None              # a cycle through the loop's ops: unknown
    mask = (1 << v.width) - 1
    k, ops = v.kind, v.operands
    out = None
    if v is iv:
        out = step & mask
    elif k in ("add", "sub") and len(ops) == 2:
        a, b = (_stride(x, lp, iv, step, memo) for x in ops)
        if a is not None and b is not None:
            out = (a + b if k == "add" else a - b) & mask
    elif k in ("mul", "shl") and len(ops) == 2:
        x, c = ops
        if k == "mul" and isinstance(x, Const):
            x, c = c, x
        s = _stride(x, lp, iv, step, memo) if isinstance(c, Const) else None
        if s is not None:
            out = (s * c.value if k == "mul" else s << c.value) & mask
    elif k in ("trunc", "slice"):
        # bits [lo, lo + width): a multiple of 2**lo moves them without a carry in
        lo = v.attrs.get("lo", 0) if k == "slice" else 0
        s = _stride(ops[0], lp, iv, step, memo)
        if s is not None and s % (1 << lo) == 0:
            out = (s >> lo) & mask
    elif k in ("zext", "sext"):
        out = 0 if _stride(ops[0], lp, iv, step, memo) == 0 else None
    elif k != "phi" and op_def(k).pure and all(_stride(x, lp, iv, step, memo) == 0 for x in ops):
        out = 0                 # a function of loop-invariant values
    memo[v] = out
    return out


def window_memories(module, functions=None) -> set:
    """The memories of pointer parameters of the functions (default: every function of
    ``module``) other than the top: a callee's pointer is a window on its caller's array,
    so its word addresses are not words of one array of its depth (the ``exclude`` of
    :func:`extent_trip_bound`)."""
    funcs = module.functions if functions is None else functions
    return {p.mem for g in funcs if g is not module.top for p in g.ptr_params}


def extent_trip_bound(func: Function, lp: Loop, exclude=frozenset(),
                      idom=None) -> ExtentBound | None:
    """The fewest header executions per entry of ``lp`` that the depths of the memories
    it accesses prove, if any: for the loop's induction variable ``i`` (a header phi
    stepped by a constant on the one back edge) and an unguarded load or store that
    runs in every iteration, at a word address moving by ``s`` words per iteration
    (modulo ``2**w``, ``w`` its width) in a memory of ``D`` words, the ``m`` accesses of
    an entry are all words of the memory, as C requires of every access; they cannot
    step over the ``2**w - D`` addresses past its end when ``|s|`` is at most that many,
    so ``(m - 1) * |s| <= D - 1``.  The access runs in every header execution when its
    block dominates every block leaving the loop, else in every one that goes round.
    ``exclude``: memories whose addresses are not words of one array of that depth (a
    pointer parameter of a function called with a window on its caller's array).

    A bound recorded on the loop's back-edge branch (``extent_bound``: array
    partitioning records it before its banks guard the access) counts too."""
    if len(lp.latches) != 1:
        return None
    latch = lp.latches[0]
    rec = latch.terminator.attrs.get("extent_bound")
    # (a back-edge branch can be the latch of two loops: the header's name says whose)
    recorded = ExtentBound(*rec[1:]) if rec is not None and rec[0] == lp.header.name else None
    found = _extent_from_accesses(func, lp, latch, exclude, idom)
    if found is None or (recorded is not None and recorded.trips < found.trips):
        return recorded
    return found


def _extent_from_accesses(func: Function, lp: Loop, latch, exclude, idom) -> ExtentBound | None:
    """:func:`extent_trip_bound` from the loop's own accesses."""
    iv, step = None, 0
    for phi in lp.header.phis:
        back = [x for p, x in phi.incoming if p in lp.blocks]
        if (len(back) == 1 and isinstance(back[0], Op) and back[0].kind == "add"
                and phi in back[0].operands):
            c = next((x for x in back[0].operands if x is not phi), None)
            if isinstance(c, Const) and c.signed():
                iv, step = phi, c.signed()
                break
    if iv is None:
        return None
    idom = idom if idom is not None else dominators(func)
    exiting = [b for b in lp.blocks if any(s not in lp.blocks for s in b.successors)]
    memo: dict = {}
    best = None
    for b in lp.blocks:
        if not dominates(idom, b, latch):
            continue
        every = all(dominates(idom, b, e) for e in exiting)
        for op in b.ops:
            if op.kind not in ("load", "store") or "guard" in op.attrs:
                continue
            mem = op.attrs.get("mem")
            depth = getattr(mem, "depth_words", 0)
            addr = op.operands[0]
            if mem in exclude or depth < 1:
                continue
            s = _stride(addr, lp, iv, step, memo)
            w = addr.width
            if not s:
                continue
            s = s - (1 << w) if s >= 1 << (w - 1) else s
            if abs(s) > (1 << w) - depth:
                continue        # could step over the addresses past the end
            trips = (depth - 1) // abs(s) + 1 + (0 if every else 1)
            if best is None or trips < best.trips:
                best = ExtentBound(trips, op.kind, mem.name,
                                   op.loc.line if op.loc is not None else 0, s, depth)
    return best
