"""Scalar replacement: a memory word that a single-block loop reads and writes at one
loop-invariant address lives in a register while the loop runs.

``tmp[i] += A[i][j] * x[j]`` in a loop over ``j`` loads and stores ``tmp[i]`` every
iteration: two port uses and a recurrence through memory (load -> add -> store -> the
next load) that holds a pipeline at II = 2.  Without LLVM's LICM (the canonicaliser runs
none), every such accumulator stays in memory.  The rewrite, for a loop block ``B``
with one predecessor outside the loop (``P``) and one exit:

* a memory ``M`` whose accesses in ``B`` (all of one lane, size and width) include
  accesses to one word at a loop-invariant address: equal addresses (affine forms equal
  in every bit, or the same expression) computed from values that do not change in the
  loop, and no other invariant address; one of them unguarded (the loop surely touches
  the word, so its address is valid and the load before the loop and the store after it
  touch nothing the loop would not);
* the word is loaded once before the loop (at the end of ``P`` when ``B`` is its only
  successor, else in a new block on the edge ``P -> B``), carried by a phi, and each load
  in ``B`` reads the register instead; each store sets it (a guarded store, after
  if-conversion: ``select(guard, data, register)``);
* the other accesses of ``M`` (``x[j]`` beside ``x[i]``) stay, and compare their address
  with the word's at run time: a load that hits it reads the register
  (``select(addr == a, register, load)``), a store that hits it sets the register too;
* when ``B`` stored to it, the word is stored once after the loop (at the start of the
  exit block when ``B`` is its only predecessor, else in a new block on the exit edge).

``B`` holds no call (a callee could touch ``M``).  Memories are distinct storage (the
assumption the memory dependence analysis makes too), except the pointer parameters of a
function other than the top: two of them may be windows on one caller array, so those
are left alone.
"""

from __future__ import annotations

from ..analysis import AffineAnalysis, find_loops
from ..ir import Block, Function, Op, op_def, replace_uses
from ._forward import _affine
from ._loadcomb import _addr_key


def replace_scalars(func: Function, is_top: bool = False) -> int:
    """Promote every qualifying word of every single-block loop of ``func``; returns how
    many words were promoted.  ``is_top``: ``func`` is the top, whose pointer parameters
    are port sets of their own (distinct storage)."""
    n = 0
    for lp in find_loops(func):
        if len(lp.blocks) == 1:
            n += _promote(func, lp.header, is_top)
    return n


def _invariant_ops(v, b: Block, out: list[Op]) -> bool:
    """Is ``v`` computed from values of other blocks only?  Collects the ops of ``b`` on
    the way (operands before users) into ``out``."""
    if not isinstance(v, Op) or v.block is not b:
        return True
    if v.kind == "phi" or not op_def(v.kind).pure or v.is_terminator:
        return False
    if v in out:
        return True
    if not all(_invariant_ops(o, b, out) for o in v.operands):
        return False
    out.append(v)
    return True


def _promote(func: Function, b: Block, is_top: bool) -> int:
    t = b.terminator
    if t.kind != "condbr" or (t.targets[0] is b) == (t.targets[1] is b):
        return 0
    if any(op.kind == "call" for op in b.ops):
        return 0
    preds = func.predecessors()
    outside = [p for p in preds[b] if p is not b]
    if len(outside) != 1:
        return 0
    an = AffineAnalysis(b)
    memo: dict = {}
    by_mem: dict = {}
    for op in b.ops:
        if op.kind in ("load", "store"):
            by_mem.setdefault(op.mem, []).append(op)
    n = 0
    for mem, accs in by_mem.items():
        if mem.kind == "arg" and not is_top:
            continue
        shapes = {(op.attrs["lane"], op.attrs["size"], op.operands[0].width,
                   op.width if op.kind == "load" else op.operands[1].width) for op in accs}
        if len(shapes) != 1:
            continue
        groups: dict = {}
        chains: dict = {}
        for op in accs:
            chain: list[Op] = []
            if _invariant_ops(op.operands[0], b, chain):
                k = _addr_key(op.operands[0], memo, an)
                groups.setdefault(k, []).append(op)
                chains.setdefault(k, chain)
        if len(groups) != 1:
            continue
        (key, word), = groups.items()
        if not any(op.kind == "store" for op in word) and len(word) < 2:
            continue  # one load of an invariant word: nothing to save
        if all("guard" in op.attrs for op in word) and not _always_valid(mem, key):
            continue  # the loop may never touch the word: its address may not be valid
        _rewrite(func, b, accs, word, chains[key], shapes.pop()[3])
        n += 1
    return n


def _always_valid(mem, key) -> bool:
    """Is the word address ``key`` (:func:`_addr_key`) a constant word of ``mem``, an
    array of the accelerator's own (a global or local, not a bank)?  Loading it before
    the loop and storing the value back after it is then safe even when every access of
    the loop is guarded: a global flag word such as softfloat's
    ``float_exception_flags |= flags``."""
    if mem.kind not in ("global", "local") or mem.bank is not None or mem.stream:
        return False
    k = _affine(key)
    return k is not None and not k[2] and 0 <= k[3] < mem.depth_words


def _edge_block(func: Function, src: Block, dst: Block, name: str) -> Block:
    """A new block on the edge ``src -> dst`` (phis of ``dst`` now come from it)."""
    names = {blk.name for blk in func.blocks}
    k, nm = 0, name
    while nm in names:
        k += 1
        nm = f"{name}{k}"
    mid = Block(nm, function=func)
    mid.append(Op(width=0, kind="br", targets=[dst], loc=src.terminator.loc))
    src.terminator.targets = [mid if s is dst else s for s in src.terminator.targets]
    for phi in dst.phis:
        phi.incoming = [(mid if p is src else p, v) for p, v in phi.incoming]
    func.blocks.insert(func.blocks.index(dst), mid)
    return mid


def _rewrite(func: Function, b: Block, accs: list[Op], word: list[Op], chain: list[Op],
             width: int) -> None:
    """``word``: the accesses of ``accs`` (all of one memory in ``b``) to the invariant
    word; the others touch it only when their address equals it at run time, so each
    compares its address: a load then reads the register, a store sets it."""
    first = word[0]
    loc = first.loc
    attrs = {k: first.attrs[k] for k in ("mem", "lane", "size")}
    preds = func.predecessors()
    (pre,) = [p for p in preds[b] if p is not b]
    if pre.successors != [b]:
        pre = _edge_block(func, pre, b, f"{b.name}_pre")
    # the address, computed again before the loop
    clone: dict = {}
    at = len(pre.ops) - 1
    for op in chain:
        c = Op(width=op.width, kind=op.kind, operands=[clone.get(v, v) for v in op.operands],
               attrs=dict(op.attrs), loc=op.loc)
        c.block = pre
        pre.ops.insert(at, c)
        at += 1
        clone[op] = c
    addr = clone.get(first.operands[0], first.operands[0])
    init = Op(width=width, kind="load", operands=[addr], attrs=dict(attrs), loc=loc)
    init.block = pre
    pre.ops.insert(at, init)
    reg = Op(width=width, kind="phi", loc=loc)
    reg.block = b
    cur = reg
    stored = False
    replace: dict = {}
    keep_operand: list[Op] = []
    new_ops: list[Op] = [reg]

    def emit(kind: str, w: int, *operands) -> Op:
        o = Op(width=w, kind=kind, operands=list(operands), loc=op.loc)
        o.block = b
        new_ops.append(o)
        return o

    for op in b.ops:
        if op not in accs:
            new_ops.append(op)
            continue
        guard = op.operands[op.attrs["guard"]] if "guard" in op.attrs else None
        if op in word:
            if op.kind == "load":
                replace[op] = cur
                continue
            stored = True
            data = op.operands[1]
            cur = data if guard is None else emit("select", width, guard, data, cur)
            continue
        new_ops.append(op)   # another address: performed, and compared with the word's
        same = emit("icmp", 1, op.operands[0], addr)
        same.attrs["pred"] = "eq"
        if op.kind == "load":
            sel = emit("select", width, same, cur, op)
            replace[op] = sel
            keep_operand.append(sel)
        else:
            stored = True
            hit = same if guard is None else emit("and", 1, same, guard)
            cur = emit("select", width, hit, op.operands[1], cur)
    b.ops = new_ops
    cur = replace.get(cur, cur)  # a store of a loaded value: the register itself
    reg.incoming = [(pre, init), (b, cur)]
    originals = {sel: sel.operands[2] for sel in keep_operand}
    replace_uses(func, replace)
    for sel, load in originals.items():   # a forwarding select keeps reading its load
        sel.operands[2] = load
    if not stored:
        return
    t = b.terminator
    exit_ = t.targets[1] if t.targets[0] is b else t.targets[0]
    if func.predecessors()[exit_] != [b]:
        exit_ = _edge_block(func, b, exit_, f"{b.name}_exit")
    st = Op(width=0, kind="store", operands=[addr, cur], attrs=dict(attrs), loc=loc)
    st.block = exit_
    exit_.ops.insert(len(exit_.phis), st)
