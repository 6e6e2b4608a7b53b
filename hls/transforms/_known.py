"""Stores of a value the word already holds.

An interpreter keeps a register that always reads zero by writing it again after every
instruction (CHStone's ``mips``: ``reg[rd] = ...; ... reg[0] = 0;`` at the end of the
dispatch loop).  After tail duplication each case ends with two stores to the register
file, ``reg[rd] = v`` then ``reg[0] = 0``, and the second costs a state of its own (the
array has one write port a cycle).  Yet ``reg[0]`` already holds 0 whenever an iteration
starts: it was cleared before the loop, and every path round the loop clears it last.

The pass computes, for every block entry, the words of on-chip memories known to hold a
constant (a must-analysis over the CFG: a fact is a memory, a constant word address, the
lane and size, and the constant; an unguarded store of a constant to a constant address
makes one, a store that may write the word ends it, a call ends them all; at a join the
facts of every predecessor hold).  Then in each block:

* a store of ``k`` to word ``c`` while ``M[c] == k`` is known is removed;
* a store ``M[x] = v`` followed by ``M[c] = k`` with no access of ``M`` or call between,
  while ``M[c] == k`` is known before the first, becomes the single store
  ``M[x] = (x == c ? k : v)``: where ``x == c`` the pair left ``k`` there, and elsewhere
  ``M[c]`` keeps the ``k`` it held.

Memories follow :func:`hls.transforms.forward_stores` (``tracked_memory``): ``hls::stream``
memories and, in a function other than the top, pointer parameters and globals (windows on
one another) are left alone.
"""

from __future__ import annotations

from ..ir import Block, Const, Function, Op, Undefined, eval_op, op_def
from ._forward import tracked_memory

#: a fact: (memory, word, lane, size, value)


def _constant(v, depth: int = 4) -> Const | None:
    """``v`` as a constant: a constant, or a pure op of constants (the pieces of a
    ``memset`` of wide words: ``slice 0:i64``), a few levels deep."""
    if isinstance(v, Const):
        return v
    if not isinstance(v, Op) or depth == 0 or v.kind in ("load", "store", "call", "phi") \
            or not op_def(v.kind).pure or op_def(v.kind).float:
        return None
    args = [_constant(a, depth - 1) for a in v.operands]
    if any(a is None for a in args):
        return None
    try:
        val = eval_op(v.kind, v.width, v.attrs, [a.value for a in args], [a.width for a in args])
    except (Undefined, ValueError):
        return None
    return Const(v.width, val)


def merge_known_stores(func: Function, is_top: bool = False) -> int:
    """Remove or merge the stores of known values in ``func``; returns how many stores
    were removed."""
    entry = _entry_facts(func, is_top)
    n = 0
    for b in func.blocks:
        if b in entry:
            n += _rewrite(func, b, set(entry[b]), is_top)
    return n


def _transfer(facts: set, op: Op, is_top: bool) -> None:
    """The facts after ``op`` (in place)."""
    if op.kind == "call":
        facts.clear()
        return
    if op.kind != "store" or not tracked_memory(op, is_top):
        return
    mem, addr, val = op.mem, op.operands[0], op.operands[1]
    lane, size = op.attrs["lane"], op.attrs["size"]
    if isinstance(addr, Const):
        gone = {f for f in facts if f[0] is mem and f[1] == addr.value
                and f[2] < lane + size and lane < f[2] + f[3]}
    else:
        gone = {f for f in facts if f[0] is mem}
    facts -= gone
    val = _constant(val)
    if "guard" not in op.attrs and isinstance(addr, Const) and val is not None:
        facts.add((mem, addr.value, lane, size, val.value))


def _entry_facts(func: Function, is_top: bool) -> dict[Block, frozenset]:
    """Block -> the facts that hold whenever it is entered (reachable blocks only)."""
    preds = func.predecessors()
    order = _rpo(func)
    inn: dict[Block, frozenset | None] = {b: None for b in order}   # None: not yet reached
    inn[func.entry] = frozenset()
    out: dict[Block, frozenset] = {}
    changed = True
    while changed:
        changed = False
        for b in order:
            if b is not func.entry:
                ins = [out[p] for p in preds[b] if p in out]
                if not ins:
                    continue
                inn[b] = frozenset.intersection(*ins)
            if inn[b] is None:
                continue
            facts = set(inn[b])
            for op in b.ops:
                _transfer(facts, op, is_top)
            f = frozenset(facts)
            if out.get(b) != f:
                out[b] = f
                changed = True
    return {b: f for b, f in inn.items() if f is not None}


def _rpo(func: Function) -> list[Block]:
    seen, post = set(), []
    stack = [(func.entry, iter(func.entry.successors))]
    seen.add(func.entry)
    while stack:
        b, it = stack[-1]
        s = next(it, None)
        if s is None:
            post.append(b)
            stack.pop()
        elif s not in seen:
            seen.add(s)
            stack.append((s, iter(s.successors)))
    return post[::-1]


def _rewrite(func: Function, b: Block, facts: set, is_top: bool) -> int:
    dead: set = set()
    new_ops: dict[Op, list[Op]] = {}     # store -> the ops to put before it
    last: dict = {}                      # memory -> (store, facts before it)
    for op in b.ops:
        if op.kind == "call":
            last.clear()
        elif op.kind == "load" and tracked_memory(op, is_top):
            last.pop(op.mem, None)
        elif op.kind == "store" and tracked_memory(op, is_top):
            mem, addr, val = op.mem, op.operands[0], _constant(op.operands[1])
            lane, size = op.attrs["lane"], op.attrs["size"]
            fact = None
            if "guard" not in op.attrs and isinstance(addr, Const) and val is not None:
                fact = (mem, addr.value, lane, size, val.value)
            prev = last.pop(mem, None)
            if fact is not None and fact in facts:
                dead.add(op)                     # the word holds the value already
            elif fact is not None and prev is not None and fact in prev[1] \
                    and _mergeable(prev[0], op):
                _merge(prev[0], addr, val, new_ops)
                dead.add(op)
            else:
                last[mem] = (op, frozenset(facts))
        _transfer(facts, op, is_top)
    if not dead:
        return 0
    ops = []
    for op in b.ops:
        if op in dead:
            continue
        for extra in new_ops.get(op, []):
            extra.block = b
            ops.append(extra)
        ops.append(op)
    b.ops = ops
    return len(dead)


def _mergeable(first: Op, second: Op) -> bool:
    return "guard" not in first.attrs and first.attrs["lane"] == second.attrs["lane"] \
        and first.attrs["size"] == second.attrs["size"] \
        and first.operands[1].width == second.operands[1].width


def _merge(first: Op, c: Const, k: Const, new_ops: dict) -> None:
    """``first`` (``M[x] = v``) also does the work of ``M[c] = k``."""
    x, v = first.operands[0], first.operands[1]
    if c.value >> x.width:
        return                  # x never reaches word c: M[c] keeps k, first is unchanged
    eq = Op(width=1, kind="icmp", operands=[x, Const(x.width, c.value)], attrs={"pred": "eq"},
            loc=first.loc)
    sel = Op(width=v.width, kind="select", operands=[eq, Const(v.width, k.value), v],
             loc=first.loc)
    new_ops.setdefault(first, []).extend([eq, sel])
    first.operands = [x, sel] + first.operands[2:]
