"""Natural loops from back edges (an edge whose target dominates its source), and
constant trip counts of canonical counted loops (Aho, Sethi, Ullman: natural loops)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ir import Block, Const, Function, Op, dominates, dominators


@dataclass(eq=False)
class Loop:
    header: Block
    blocks: list[Block] = field(default_factory=list)
    latches: list[Block] = field(default_factory=list)
    trip_count: int | None = None
    parent: "Loop | None" = None


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


def find_loops(func: Function) -> list[Loop]:
    """Natural loops of ``func`` in block order of their headers (outer before inner)."""
    idom = dominators(func)
    preds = func.predecessors()
    loops: dict[Block, Loop] = {}
    for b in func.blocks:
        if b not in idom:
            continue
        for s in b.successors:
            if dominates(idom, s, b):
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
    for lp in result:
        enclosing = [o for o in result if o is not lp and lp.header in o.blocks]
        if enclosing:
            lp.parent = min(enclosing, key=lambda o: len(o.blocks))
    return result


def _trip_count(lp: Loop) -> int | None:
    """Constant trip count of ``for (i = c0; i != / < c1; i += c)`` shaped loops."""
    if len(lp.latches) != 1:
        return None
    latch = lp.latches[0]
    t = latch.terminator
    unrolled = t.attrs.get("unrolled", ())
    if len(unrolled) > 2 and len(lp.blocks) == 1:   # hls.transforms.unroll_block's note
        return unrolled[2]
    if t.kind != "condbr" or not isinstance(t.operands[0], Op):
        return None
    cmp = t.operands[0]
    if cmp.kind != "icmp" or not isinstance(cmp.operands[1], Const):
        return None
    # the tested value is phi + off, with the phi updated by phi + step on the back edge
    tested = cmp.operands[0]
    if isinstance(tested, Op) and tested.kind == "phi":
        phi, off = tested, 0
    elif (isinstance(tested, Op) and tested.kind == "add" and isinstance(tested.operands[1], Const)
          and isinstance(tested.operands[0], Op) and tested.operands[0].kind == "phi"):
        phi, off = tested.operands[0], tested.operands[1].signed()
    else:
        return None
    if phi.block is not lp.header:
        return None
    upd = [v for p, v in phi.incoming if p in lp.blocks]
    if (len(upd) != 1 or not isinstance(upd[0], Op) or upd[0].kind != "add"
            or upd[0].operands[0] is not phi or not isinstance(upd[0].operands[1], Const)):
        return None
    nxt = upd[0]
    inits = [v for p, v in phi.incoming if p not in lp.blocks]
    if len(inits) != 1 or not isinstance(inits[0], Const):
        return None
    start, step, end = inits[0].signed(), nxt.operands[1].signed(), cmp.operands[1].signed()
    exits_on_true = t.targets[0] not in lp.blocks
    pred = cmp.attrs["pred"]
    if step == 0:
        return None
    # the first iteration n >= 1 whose test (of start + (n - 1) * step + off) exits
    for n in range(1, 1 << 20):
        i = start + (n - 1) * step + off
        cond = {"eq": i == end, "ne": i != end, "slt": i < end, "sle": i <= end,
                "sgt": i > end, "sge": i >= end, "ult": i < end, "ule": i <= end,
                "ugt": i > end, "uge": i >= end}[pred]
        if cond == exits_on_true:
            return n
        if abs(i) > (1 << 40):
            return None
    return None
