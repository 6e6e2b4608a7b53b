"""The PLM wrapper: every array of the top lives in on-chip memories (private local
memories, PLMs), loaded from and drained to the top's pointer arguments.

Each pointer argument the top accesses gets a local array of its size (``NAME_plm``); every
access of the argument, and every call that receives it, moves to that array.  The
argument's port set then serves only two copy loops, one load and one store per word:

* **load** (argument -> PLM), when the argument's initial contents may be read: always,
  unless the first top-level unit that touches it (see ``share-memories``: the blocks
  outside loops and the outermost loops, in control-flow order) dominates every access and
  writes every word, in order, exactly once, before anything reads it (its one access in
  that unit is an unguarded whole-word store that :func:`hls.analysis.access_order_problem`
  proves to cover words ``0 .. depth - 1``);
* **drain** (PLM -> argument), when it is written.

A load goes on the edge into the first unit that accesses the argument when that unit's
entry dominates every access (and every ``ret``, when the argument is drained: what is
drained must have been loaded on every path) and has one predecessor outside it, so the
PLM's lifetime starts where its data is first needed (``share-memories`` gives the same
block RAM to arrays whose lifetimes never overlap); else at the function's entry.  The
proof that an argument needs no load likewise asks its first unit to dominate every
``ret``.  A drain goes before
each ``ret``.  The copy loops are ordinary counted loops, pipelined like any other (on
Alveo targets, bursts over m_axi).

The top's interface and its C semantics do not change: the same words are read and
written through the same ports (an unwritten word is written back with the value it was
loaded with).  Arguments that are partitioned into banks, passed to a dataflow region
(the top is one) or pointed to by values in memory are left alone.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from ..analysis import access_elements, access_order_problem
from ..ir import Block, Const, Function, MemoryObject, Module, Op, dominates, dominators
from ._share import _units

__all__ = ["PlmOptions", "wrap_report", "wrap_in_plms"]

_REPORTS: "weakref.WeakKeyDictionary[Module, list]" = weakref.WeakKeyDictionary()


def wrap_report(module: Module) -> list[dict]:
    """The wrapper's entries of the last run on ``module``: one per wrapped argument."""
    return _REPORTS.get(module, [])


@dataclass(frozen=True, slots=True)
class PlmOptions:
    #: the flow turns it on for .ekl inputs or with ``--plm`` (SynthOptions.plm)
    enabled: bool = True


def _accesses(func: Function, mem: MemoryObject) -> tuple[list[Op], bool, bool]:
    """(ops touching ``mem``, may read, may write): loads, stores, and calls receiving it
    (through the callee parameter's read/write flags)."""
    ops, reads, writes = [], False, False
    for op in func.ops():
        if op.kind in ("load", "store") and op.mem is mem:
            ops.append(op)
            reads |= op.kind == "load"
            writes |= op.kind == "store"
        elif op.kind == "call":
            for pp, m, _off in op.call_ptr_args():
                if m is mem:
                    ops.append(op)
                    reads |= not pp.mem.writeonly
                    writes |= not pp.mem.readonly
    return ops, reads, writes


def _unit_entry(func: Function, unit: dict, pos: int, idom) -> Block | None:
    """The block of unit ``pos`` that dominates the others (a loop's header)."""
    blocks = [b for b in func.blocks if unit.get(b) == pos]
    for b in blocks:
        if all(dominates(idom, b, c) for c in blocks):
            return b
    return None


def _rets(func: Function) -> list[Block]:
    return [b for b in func.blocks if b.terminator.kind == "ret"]


def _dead_on_entry(func: Function, mem: MemoryObject, ops: list[Op], unit: dict,
                   idom) -> bool:
    """Is every word of ``mem`` written before it is read, on every path to a ``ret``
    (module docstring)?"""
    if any(op.kind == "call" for op in ops):
        return False
    first = min(unit[op.block] for op in ops)
    head = _unit_entry(func, unit, first, idom)
    if head is None or not all(dominates(idom, head, b)
                               for b in [op.block for op in ops] + _rets(func)):
        return False
    here = [op for op in ops if unit[op.block] == first]
    if len(here) != 1 or here[0].kind != "store":
        return False
    st = here[0]
    if st.attrs.get("lane", 0) != 0 or st.attrs["size"] != mem.word_bytes:
        return False
    return (access_order_problem(func, st) is None
            and access_elements(func, st) == mem.depth_words)


def _load_edge(func: Function, ops: list[Op], drained: bool, unit: dict, idom,
               preds) -> tuple:
    """(pred, block): the edge a load goes on (pred None: before the entry): into the
    first unit that accesses the memory when that unit's entry dominates every access
    and, for a drained memory, every ``ret`` (the drain must copy back what was loaded
    on every path)."""
    first = min(unit[op.block] for op in ops)
    head = _unit_entry(func, unit, first, idom)
    must = [op.block for op in ops] + (_rets(func) if drained else [])
    if head is not None and head is not func.entry and all(
            dominates(idom, head, b) for b in must):
        outside = [p for p in preds[head] if unit.get(p) != first]
        if len(outside) == 1:
            return outside[0], head
    return None, func.entry


def _copy_loop(func: Function, src: MemoryObject, dst: MemoryObject, pred: Block,
               name: str, loc) -> tuple[Block, Op]:
    """One single-block loop copying every word of ``src`` to ``dst``, entered from
    ``pred``; returns the block and its terminator (whose exit target is set later)."""
    b = Block(name, function=func)
    i = b.append(Op(width=64, kind="phi", loc=loc))
    a = b.append(Op(width=src.addr_bits, kind="trunc", operands=[i], loc=loc))
    x = b.append(Op(width=8 * src.word_bytes, kind="load", operands=[a], loc=loc,
                    attrs={"mem": src, "size": src.word_bytes, "lane": 0}))
    b.append(Op(width=0, kind="store", operands=[a, x], loc=loc,
                attrs={"mem": dst, "size": dst.word_bytes, "lane": 0}))
    n = b.append(Op(width=64, kind="add", operands=[i, Const(64, 1)], loc=loc))
    c = b.append(Op(width=1, kind="icmp", operands=[n, Const(64, src.depth_words)], loc=loc,
                    attrs={"pred": "eq"}))
    t = b.append(Op(width=0, kind="condbr", operands=[c], loc=loc))
    t.targets = [None, b]
    i.incoming = [(pred, Const(64, 0)), (b, n)]
    return b, t


def _chain(func: Function, copies: list[tuple], pred: Block, dst: Block) -> Block:
    """Copy loops one after another from ``pred`` to ``dst`` (placed before ``dst`` in
    the block list); returns the first.  ``copies``: (src, dst memory, name, loc)."""
    blocks, prev, first, last_t = [], pred, None, None
    for src, to, name, loc in copies:
        b, t = _copy_loop(func, src, to, prev, name, loc)
        if last_t is not None:
            last_t.targets[0] = b
        first = first or b
        blocks.append(b)
        prev, last_t = b, t
    last_t.targets[0] = dst
    at = func.blocks.index(dst)
    func.blocks[at:at] = blocks
    for op in dst.phis:
        op.incoming = [(prev if p is pred else p, v) for p, v in op.incoming]
    return first


def _unique(base: str, taken: set) -> str:
    name, k = base, 1
    while name in taken:
        k += 1
        name = f"{base}{k}"
    return name


def _fresh(module: Module, base: str) -> str:
    """A memory name no memory of the module has."""
    return _unique(base, {m.name for f in module.functions for m in f.memories} | {
        m.name for m in module.globals} | {p.mem.name for f in module.functions
                                           for p in f.ptr_params})


def _uniq_block(func: Function, base: str) -> str:
    return _unique(base, {b.name for b in func.blocks})


def wrap_in_plms(module: Module, options: PlmOptions | None = None) -> list[dict]:
    """Give the top's pointer arguments on-chip PLMs with load and drain loops (module
    docstring); returns one report entry per wrapped argument."""
    f = module.top
    report: list[dict] = []
    _REPORTS[module] = report
    if f.name in (getattr(module, "dataflow", []) or []) or f.entry.phis:
        return report
    unit, idom, preds = _units(f), dominators(f), f.predecessors()
    loads: dict[tuple, list] = {}
    drains: list[tuple] = []
    for pp in f.ptr_params:
        arg = pp.mem
        if pp.banks or arg.kind != "arg" or arg.depth_words < 1:
            continue
        ops, reads, writes = _accesses(f, arg)
        if not ops:
            continue
        dead = _dead_on_entry(f, arg, ops, unit, idom)
        edge = _load_edge(f, ops, writes, unit, idom, preds)
        plm = MemoryObject(
            name=_fresh(module, f"{arg.name}_plm"), kind="local", word_bytes=arg.word_bytes,
            depth_words=arg.depth_words, elem_bytes=arg.elem_bytes,
            init=bytes(arg.size_bytes), loc=arg.loc, float_bits=arg.float_bits,
            elem_dims=arg.elem_dims, elem_fields=arg.elem_fields)
        f.memories.append(plm)
        for op in ops:
            if op.kind == "call":
                op.attrs["ptr_args"] = [(q, plm if m is arg else m)
                                        for q, m in op.attrs["ptr_args"]]
            else:
                op.attrs["mem"] = plm
        load = not dead
        if load:
            loads.setdefault(edge, []).append((arg, plm, f"plm_load_{pp.name}", arg.loc))
        if writes:
            drains.append((plm, arg, f"plm_drain_{pp.name}", arg.loc))
        report.append({"argument": pp.name, "memory": plm.name, "load": load,
                       "drain": writes, "read": reads,
                       "load_at": None if not load else (
                           "entry" if edge[0] is None else edge[1].name)})
    for (pred, dst), copies in loads.items():
        copies = [(s, d, _uniq_block(f, n), loc) for s, d, n, loc in copies]
        if pred is None:
            start = Block(_uniq_block(f, "plm_entry"), function=f)
            f.blocks.insert(0, start)
            first = _chain(f, copies, start, dst)
            start.append(Op(width=0, kind="br", loc=copies[0][3])).targets = [first]
        else:
            first = _chain(f, copies, pred, dst)
            t = pred.terminator
            t.targets = [first if x is dst else x for x in t.targets]
    if drains:
        for r in _rets(f):
            ret = r.ops.pop()
            tail = Block(_uniq_block(f, f"{r.name}_ret"), function=f)
            f.blocks.insert(f.blocks.index(r) + 1, tail)
            tail.append(ret)
            copies = [(s, d, _uniq_block(f, n), loc) for s, d, n, loc in drains]
            first = _chain(f, copies, r, tail)
            r.append(Op(width=0, kind="br", loc=ret.loc)).targets = [first]
    return report
