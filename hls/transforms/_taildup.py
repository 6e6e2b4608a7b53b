"""Tail duplication: a small block reached only by unconditional branches is copied into
each of its predecessors, so that its ops share their predecessor's last state.

The FSMD spends at least one state per block.  A join block after an ``if``/``else`` or a
``switch`` (the epilogue of an interpreter's dispatch loop: ``reg[0] = 0; pc != HALT``)
costs a state on every path through it, although its few ops would chain into the last
state of each case.  Copying the block into every predecessor removes that state:
scheduled together, a predecessor and the copy take at most the states they took apart
(the separate schedules, one after the other, are a schedule of the merged block), and
fewer when the copy fits into the predecessor's last state.

A block ``E`` is copied when:

* some predecessors end in ``br E`` (they get the copies; ``E`` stays for the others,
  whose edges are conditional), there are at most :data:`MAX_PREDS` predecessors, and
  ``E`` is neither the entry nor a loop header (``E`` dominates none of them);
* ``E`` holds at most :data:`MAX_OPS` ops besides its phis and no call;
* no value ``E`` defines (an op or a phi) is used outside ``E``, except as the incoming
  value of a successor's phi on the edge from ``E``.  Those become one incoming value per
  copy, so no new phi is needed anywhere.

Each copy replaces ``E``'s phis by the predecessor's incoming values and its ops by
clones; the successors' phis get one entry per copy (and keep ``E``'s while it stays).
"""

from __future__ import annotations

from ..ir import Block, Function, Op, dominates, dominators

MAX_OPS = 12
MAX_PREDS = 64


def duplicate_tails(func: Function) -> int:
    """Copy every qualifying block into its predecessors (again after each copy: a copy
    may make its successor qualify); returns how many blocks were removed."""
    n = 0
    while True:
        idom = dominators(func)
        preds = func.predecessors()
        escaping = _escaping(func)
        for e in func.blocks:
            if _qualifies(func, e, preds[e], idom, escaping):
                _duplicate(func, e, [p for p in preds[e] if p.terminator.kind == "br"],
                           [p for p in preds[e] if p.terminator.kind != "br"])
                n += 1
                break
        else:
            return n


def _escaping(func: Function) -> set[Op]:
    """The ops used outside their block other than as a phi's incoming value on the edge
    from that block (one pass over the function, not one per candidate block)."""
    out: set[Op] = set()
    for op in func.ops():
        for v in op.operands:
            if isinstance(v, Op) and v.block is not op.block:
                out.add(v)
        for p, v in op.incoming:
            if isinstance(v, Op) and v.block is not op.block and p is not v.block:
                out.add(v)
    return out


def _qualifies(func: Function, e: Block, ps: list[Block], idom: dict, escaping: set) -> bool:
    if e is func.entry or not ps or len(ps) > MAX_PREDS or e not in idom:
        return False
    if e in ps or not any(p.terminator.kind == "br" for p in ps):
        return False
    if any(dominates(idom, e, p) for p in ps):
        return False            # a loop header: the back edge comes from a block it dominates
    body = [op for op in e.ops if op.kind != "phi"]
    if len(body) - 1 > MAX_OPS or any(op.kind == "call" for op in body):
        return False
    return not any(op in escaping for op in e.ops)


def _duplicate(func: Function, e: Block, ps: list[Block], rest: list[Block]) -> None:
    """Copy ``e`` into the predecessors ``ps`` (each ends in ``br e``); ``e`` stays for
    the predecessors ``rest`` (conditional edges), or goes when there are none."""
    succs = e.successors
    phis = e.phis
    copies: dict[Block, dict] = {}
    for p in ps:
        vmap: dict = {phi: next(v for q, v in phi.incoming if q is p) for phi in phis}
        p.ops.pop()               # its br e
        for op in e.ops:
            if op.kind == "phi":
                continue
            c = Op(width=op.width, kind=op.kind, operands=[vmap.get(v, v) for v in op.operands],
                   attrs=dict(op.attrs), loc=op.loc, targets=list(op.targets),
                   cases=list(op.cases))
            p.append(c)
            vmap[op] = c
        copies[p] = vmap
    for s in succs:
        for phi in s.phis:
            out = []
            for q, v in phi.incoming:
                if q is e:
                    out += [(p, copies[p].get(v, v)) for p in ps]
                    if rest:
                        out.append((q, v))
                else:
                    out.append((q, v))
            phi.incoming = out
    if rest:
        for phi in phis:
            phi.incoming = [(q, v) for q, v in phi.incoming if q in rest]
    else:
        func.blocks.remove(e)
