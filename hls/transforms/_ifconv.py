"""If-conversion of innermost loop bodies, so that loops with branches can be pipelined.

A natural loop qualifies when it is innermost, has one latch that is also its only exit
(every other block branches inside the loop), holds no call and no switch, and its blocks
without the back edge form a DAG.  Its blocks are merged into the header in topological
order:

* every block ``b`` gets a predicate ``p(b)`` (an ``i1``): ``p(header) = 1`` and
  ``p(b) = OR over in-loop predecessors q of (p(q) AND edge condition q -> b)``;
* ops run unconditionally (speculation: they have no side effects), except loads and
  stores, which take their block's predicate as an extra operand (``attrs["guard"]``
  names its position) and touch memory only when it holds;
* a phi of a non-header block becomes a chain of selects on the edge predicates;
* the latch's branch becomes the merged block's branch, and phis after the loop take the
  latch's values from the merged block;
* stores to one memory from blocks no path joins (the arms of a switch or an if-else)
  become one store of selected address and data under the OR of their guards, when every
  other access to that memory in the body runs before them on every path or never with
  them: one port use instead of one per arm, and no write-after-write chain between arms
  that never run together (``out[n] = x`` in several cases of a state machine).
"""

from __future__ import annotations

from ..analysis import find_loops
from ..ir import Block, Const, Function, Op, add_guard, replace_uses

TRUE = Const(1, 1)


def _and(a, b, out: list[Op], loc):
    if a is TRUE or (isinstance(a, Const) and a.value == 1):
        return b
    if b is TRUE or (isinstance(b, Const) and b.value == 1):
        return a
    op = Op(width=1, kind="and", operands=[a, b], loc=loc)
    out.append(op)
    return op


def _or(vals: list, out: list[Op], loc):
    acc = vals[0]
    for v in vals[1:]:
        op = Op(width=1, kind="or", operands=[acc, v], loc=loc)
        out.append(op)
        acc = op
    return acc


def _not(v, out: list[Op], loc):
    op = Op(width=1, kind="xor", operands=[v, TRUE], loc=loc)
    out.append(op)
    return op


def convertible(func: Function, lp, loops) -> bool:
    if len(lp.blocks) < 2 or len(lp.latches) != 1:
        return False
    if any(o is not lp and o.parent is lp for o in loops):
        return False  # not innermost
    latch = lp.latches[0]
    body = set(lp.blocks)
    for b in lp.blocks:
        t = b.terminator
        if t.kind not in ("br", "condbr", "switch") or (t.kind == "switch" and b is latch):
            return False
        if any(op.kind == "call" for op in b.ops):
            return False
        outside = [s for s in t.targets if s not in body]
        if b is latch:
            if t.kind != "condbr" or len(outside) != 1 or lp.header not in t.targets:
                return False
        elif outside:
            return False
    if lp.header is latch:
        return False
    # the loop's blocks minus the back edge must be acyclic (natural loop: they are when
    # the latch -> header edge is the only one into the header from inside)
    preds = func.predecessors()
    if [p for p in preds[lp.header] if p in body] != [latch]:
        return False
    return True


def _topo(lp) -> list[Block]:
    body = set(lp.blocks)
    indeg = {b: 0 for b in lp.blocks}
    for b in lp.blocks:
        for s in b.terminator.targets:
            if s in body and s is not lp.header:
                indeg[s] += 1
    order, ready = [], [lp.header]
    while ready:
        b = ready.pop(0)
        order.append(b)
        for s in b.terminator.targets:
            if s in body and s is not lp.header:
                indeg[s] -= 1
                if indeg[s] == 0:
                    ready.append(s)
    return order if len(order) == len(lp.blocks) else []


def candidates(func: Function) -> list:
    """The loops of ``func`` that :func:`if_convert` converts (innermost loops: converting
    one makes no other loop qualify)."""
    loops = find_loops(func)
    return [lp for lp in loops if convertible(func, lp, loops) and _topo(lp)]


def if_convert(func: Function, keep=frozenset(), distinct_params: bool = False) -> int:
    """If-convert every qualifying innermost loop of ``func``, except those whose header
    is named in ``keep``; returns how many.  ``distinct_params``: ``func``'s pointer
    parameters are distinct storage (the top's port sets; a callee's two pointers may
    be windows on one array, so its stores are not moved past its other accesses)."""
    params = [p.mem for p in func.ptr_params]
    fixed = set(params) if len(params) > 1 and not distinct_params else set()
    n = 0
    while True:
        loops = find_loops(func)
        for lp in loops:
            if lp.header.name not in keep and convertible(func, lp, loops) and _topo(lp):
                _convert(func, lp, fixed)
                n += 1
                break
        else:
            return n


def _convert(func: Function, lp, fixed: set = frozenset()) -> None:
    header, latch = lp.header, lp.latches[0]
    body = set(lp.blocks)
    order = _topo(lp)
    origin: dict[Op, Block] = {}
    pred: dict[Block, object] = {header: TRUE}
    edge: dict[tuple[Block, Block], object] = {}
    merged: list[Op] = list(header.phis)
    for b in order:
        loc = b.terminator.loc
        if b is not header:
            ins = [q for q in order if q in body and (q, b) in edge]
            pred[b] = _or([edge[(q, b)] for q in ins], merged, loc) if ins else TRUE
            for phi in b.phis:
                inc = [(p, v) for p, v in phi.incoming]
                val = inc[-1][1]
                for p, v in reversed(inc[:-1]):
                    sel = Op(width=phi.width, kind="select", operands=[edge[(p, b)], v, val],
                             loc=phi.loc)
                    merged.append(sel)
                    val = sel
                replace_uses(func, {phi: val})
        for op in b.ops:
            if op.kind == "phi" or op.is_terminator:
                continue
            if op.kind in ("load", "store") and not (pred[b] is TRUE):
                add_guard(op, pred[b], merged.append)  # ANDed with a guard it has
            if op.kind in ("load", "store"):
                origin[op] = b
            merged.append(op)
        t = b.terminator
        if b is latch:
            continue
        if t.kind == "br":
            edge[(b, t.targets[0])] = pred[b]
        elif t.kind == "switch":
            # one predicate per distinct target: the cases that lead there (the default:
            # none of the cases), each ANDed with the block's predicate
            v = t.operands[0]
            eqs = []
            by_target: dict[Block, list] = {}
            for case, tgt in zip(t.cases, t.targets[1:]):
                eq = Op(width=1, kind="icmp", operands=[v, Const(v.width, case)],
                        attrs={"pred": "eq"}, loc=t.loc)
                merged.append(eq)
                eqs.append(eq)
                by_target.setdefault(tgt, []).append(eq)
            dflt = _not(_or(eqs, merged, t.loc), merged, t.loc) if eqs else TRUE
            by_target.setdefault(t.targets[0], []).append(dflt)
            for tgt, conds in by_target.items():
                edge[(b, tgt)] = _and(pred[b], _or(conds, merged, t.loc), merged, t.loc)
        else:
            c = t.operands[0]
            tt, ff = t.targets
            if tt is ff:
                edge[(b, tt)] = pred[b]
            else:
                edge[(b, tt)] = _and(pred[b], c, merged, t.loc)
                edge[(b, ff)] = _and(pred[b], _not(c, merged, t.loc), merged, t.loc)
    merged = _merge_exclusive_stores(merged, origin, _reach(order, body, header), fixed)
    term = latch.terminator
    term.targets = [header if s is header else s for s in term.targets]
    merged.append(term)
    for op in merged:
        op.block = header
    header.ops = merged
    # header phis: the back edge now comes from the merged block itself
    for phi in header.phis:
        phi.incoming = [(header if p is latch else p, v) for p, v in phi.incoming]
    # phis after the loop: the latch's values now come from the merged block
    for b in func.blocks:
        if b in body:
            continue
        for phi in b.phis:
            phi.incoming = [(header if p is latch else p, v) for p, v in phi.incoming]
    func.blocks = [b for b in func.blocks if b is header or b not in body]


def _reach(order: list[Block], body: set, header: Block) -> dict[Block, set]:
    """Blocks reachable from each block of the loop body without the back edge."""
    reach: dict[Block, set] = {}
    for b in reversed(order):
        r = {b}
        for s in b.terminator.targets:
            if s in body and s is not header:
                r |= reach[s]
        reach[b] = r
    return reach


def _merge_exclusive_stores(merged: list[Op], origin: dict, reach: dict,
                            fixed: set) -> list[Op]:
    """``merged`` with each memory's stores from mutually exclusive blocks made one
    store at the end of the body (see the module docstring for when); the stores of the
    memories in ``fixed`` (that may alias others) stay where they are."""
    by_mem: dict = {}
    for op in merged:
        if op.kind in ("load", "store"):
            by_mem.setdefault(op.mem, []).append(op)
    pos = {op: i for i, op in enumerate(merged)}

    def apart(a: Block, b: Block) -> bool:
        return a not in reach[b] and b not in reach[a]

    drop: set = set()
    tail: list[Op] = []
    for mem, accs in by_mem.items():
        stores = [op for op in accs if op.kind == "store"]
        blocks = [origin[op] for op in stores]
        if (len(stores) < 2 or len(set(blocks)) != len(blocks) or mem in fixed
                or any("guard" not in o.attrs for o in stores)):
            continue
        if any(not apart(a, b) for i, a in enumerate(blocks) for b in blocks[i + 1:]):
            continue
        first = stores[0]
        if any((o.attrs["size"], o.attrs["lane"], o.operands[1].width)
               != (first.attrs["size"], first.attrs["lane"], first.operands[1].width)
               for o in stores):
            continue
        ok = True
        for ld in accs:
            if ld.kind == "store":
                continue
            lb = origin[ld]
            for st, sb in zip(stores, blocks):
                before = (sb in reach[lb] and lb is not sb) or (lb is sb and pos[ld] < pos[st])
                if not (before or apart(lb, sb)):
                    ok = False
        if not ok:
            continue
        loc = first.loc
        guards = [o.operands[o.attrs["guard"]] for o in stores]
        addr, data = stores[-1].operands[0], stores[-1].operands[1]
        for o, g in zip(reversed(stores[:-1]), reversed(guards[:-1])):
            addr = Op(width=addr.width, kind="select", operands=[g, o.operands[0], addr], loc=loc)
            data = Op(width=data.width, kind="select", operands=[g, o.operands[1], data], loc=loc)
            tail += [addr, data]
        st = Op(width=0, kind="store", operands=[addr, data],
                attrs={"mem": mem, "size": first.attrs["size"], "lane": first.attrs["lane"]},
                loc=loc)
        add_guard(st, _or(guards, tail, loc), tail.append)
        tail.append(st)
        drop.update(stores)
    return [op for op in merged if op not in drop] + tail
