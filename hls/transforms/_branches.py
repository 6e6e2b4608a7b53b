"""Branch merging: a block that only decodes and branches again is folded into the
branch of its only predecessor, so that both decisions are taken in one state.

The FSMD spends at least one state per block.  An interpreter's dispatch (``switch (op)``
whose ``R`` case extracts ``funct`` and switches on it, whose default extracts the
immediate fields and switches on ``op`` again; CHStone's ``mips``) or a nest of ``if``
tests whose inner test is a few cheap ops spends a state on the inner block although its
ops would chain into the outer block's last state.  This pass moves those ops into the
outer block (they are pure, so running them on the paths that did not need them changes
nothing) and replaces the two branches by one ``switch`` on the index of the block
finally reached, computed from both conditions::

    A:  switch v -> D, B, T cases [c1, c2]       A:  ...B's ops...
    B:  ...cheap ops...                      =>      idx = one-hot OR of (v == c1 ? i_B : 0),
        switch w -> U0, U1 cases [e1]                                   (v == c2 ? i_T : 0), ...
                                                     switch idx -> D, U0, U1, T cases [1, 2, 3]

with ``i_B`` itself B's index function (``w == e1 ? 2 : 1``).  The index is a balanced OR
of selects whose conditions exclude each other (the cases of one switch are distinct
values), so its depth grows with the logarithm of the targets, not their number.

A successor ``B`` of ``A`` is merged when:

* ``A`` is its only predecessor, and both end in ``condbr`` or ``switch`` without loop
  metadata;
* ``B`` holds at most :data:`MAX_OPS` ops besides its phis and terminator, each of a kind
  in :data:`CHEAP` (no memory access, call, multiply or division), a shift only by a
  constant;
* ``A`` and ``B`` lie in the same innermost loop, neither is a latch, and neither branches
  to a latch that only jumps back: the tests a counted loop's trip count is read from
  (``hls.analysis.counted_tests``) keep their ``condbr``;
* a block both reach directly gets the same incoming value from both in its phis (they
  become one edge from ``A``);
* the merged branch has at most :data:`MAX_TARGETS` targets.

All eligible successors of a block are merged at once, and a block's merged branch is
not merged again (``attrs["merged"]``), so the index stays one level of selects deep.
Scheduled together, ``A``'s last state and ``B``'s ops take at most the states they took
apart, and fewer when ``B``'s ops and the index chain into ``A``'s last state.
"""

from __future__ import annotations

from ..analysis import find_loops
from ..ir import Block, Const, Function, Op, dominates, dominators, replace_uses

#: at most this many ops (besides phis and the terminator) in a merged block
MAX_OPS = 16
#: at most this many targets of a merged branch
MAX_TARGETS = 64
#: pure ops at most a few LUT levels deep (a shift: by a constant amount only)
CHEAP = frozenset({"and", "or", "xor", "add", "sub", "icmp", "select", "zext", "sext", "trunc",
                   "slice", "concat", "shl", "lshr", "ashr", "smax", "smin", "umax", "umin"})


def merge_branches(func: Function) -> int:
    """Fold every eligible branch block into its predecessor's branch; returns how many
    blocks were removed."""
    n = 0
    while True:
        idom = dominators(func)
        preds = func.predecessors()
        inner = _innermost_loops(func)
        for a in func.blocks:
            if (a not in idom and a is not func.entry) or not _branches(a) or a.terminator.attrs.get("merged"):
                continue
            if not _stays(a, inner, idom):
                continue
            bs = [b for b in a.successors
                  if b is not a and preds[b] == [a] and _branches(b) and _cheap(b)
                  and inner.get(b) is inner.get(a) and _stays(b, inner, idom)]
            bs = _compatible(a, bs)
            if bs:
                _merge(func, a, bs)
                n += len(bs)
                break
        else:
            return n


def _branches(b: Block) -> bool:
    t = b.terminator
    return t.kind in ("condbr", "switch") and not t.attrs.get("loop_md") \
        and not t.attrs.get("unrolled")


def _cheap(b: Block) -> bool:
    body = [op for op in b.ops[:-1] if op.kind != "phi"]
    if len(body) > MAX_OPS:
        return False
    for op in body:
        if op.kind not in CHEAP or op.attrs.get("guard") is not None:
            return False
        if op.kind in ("shl", "lshr", "ashr") and not isinstance(op.operands[1], Const):
            return False
    return True


def _innermost_loops(func: Function) -> dict[Block, Block]:
    """Block -> the header of the smallest natural loop holding it (absent: in none)."""
    out: dict[Block, Block] = {}
    size: dict[Block, int] = {}
    for lp in find_loops(func):
        for b in lp.blocks:
            if b not in out or len(lp.blocks) < size[b]:
                out[b], size[b] = lp.header, len(lp.blocks)
    return out


def _stays(b: Block, inner: dict, idom: dict) -> bool:
    """No edge of ``b`` goes back to a loop header, nor to a latch of its own loop that
    only jumps back (the blocks that branch to such a latch are the counted tests of an
    if/else body, ``hls.analysis.counted_tests``): the counted loops keep their tests."""
    own = inner.get(b)
    for t in b.terminator.targets:
        if dominates(idom, t, b):
            return False
        if own is not None and inner.get(t) is own and t.terminator.kind == "br" \
                and t.terminator.targets[0] is own:
            return False
    return True


def _phi_value(phi: Op, pred: Block):
    return next(v for q, v in phi.incoming if q is pred)


def _compatible(a: Block, bs: list[Block]) -> list[Block]:
    """The blocks of ``bs`` that can be merged into ``a`` together: every block two of
    the edges would reach gets one value from them, and the targets stay few."""
    out: list[Block] = []
    for b in bs:
        trial = out + [b]
        if len(_final_targets(a, trial)) > MAX_TARGETS:
            continue
        if _phis_agree(a, trial):
            out = trial
    return out


def _phis_agree(a: Block, bs: list[Block]) -> bool:
    """The value each target's phis would take from ``a`` after merging ``bs``: one per
    phi (B's own phis read as their single incoming value)."""
    bmap = {phi: _phi_value(phi, a) for b in bs for phi in b.phis}
    sources: dict[Block, list[Block]] = {}
    for t in a.successors:
        if t not in bs:
            sources.setdefault(t, []).append(a)
    for b in bs:
        for t in b.successors:
            sources.setdefault(t, []).append(b)
    for t, via in sources.items():
        if len(via) < 2:
            continue
        for phi in t.phis:
            vals = {id(bmap.get(v, v)) for v in (_phi_value(phi, p) for p in via)}
            if len(vals) > 1:
                return False
    return True


def _final_targets(a: Block, bs: list[Block]) -> list[Block]:
    """``a``'s targets in order, each of ``bs`` replaced by its own targets (each once)."""
    out: list[Block] = []
    for t in a.terminator.targets:
        for u in (t.terminator.targets if t in bs else [t]):
            if u not in out:
                out.append(u)
    return out


class _Builder:
    """Appends the index computation's ops to a list, with one location."""

    def __init__(self, width: int, loc):
        self.w = width
        self.loc = loc
        self.ops: list[Op] = []

    def op(self, kind: str, width: int, operands: list, **attrs) -> Op:
        o = Op(width=width, kind=kind, operands=operands, attrs=attrs, loc=self.loc)
        self.ops.append(o)
        return o

    def tree_or(self, vals: list, width: int):
        """A balanced OR of ``vals`` (a constant zero when there are none)."""
        vals = [v for v in vals if not (isinstance(v, Const) and v.value == 0)]
        if not vals:
            return Const(width, 0)
        while len(vals) > 1:
            vals = [self.op("or", width, [vals[i], vals[i + 1]]) if i + 1 < len(vals) else vals[i]
                    for i in range(0, len(vals), 2)]
        return vals[0]

    def index(self, term: Op, of) -> object:
        """The index of the target ``term`` takes: ``of(target)`` is the target's index
        (a constant, or a value computed already)."""
        w = self.w
        if term.kind == "condbr":
            t, f = (of(x) for x in term.targets[:2])
            if isinstance(t, Const) and isinstance(f, Const) and t.value == f.value:
                return t
            return self.op("select", w, [term.operands[0], t, f])
        v = term.operands[0]
        default = of(term.targets[0])
        conds: dict[int, list] = {}
        order: list = []
        for c, t in zip(term.cases, term.targets[1:]):
            key = id(t)
            if key not in conds:
                conds[key] = []
                order.append(t)
            eq = self.op("icmp", 1, [v, Const(v.width, c)], pred="eq")
            conds[key].append(eq)
        parts, anys = [], []
        for t in order:
            cond = self.tree_or(conds[id(t)], 1)
            anys.append(cond)
            idx = of(t)
            if isinstance(idx, Const) and idx.value == 0:
                continue
            parts.append(self.op("select", w, [cond, idx, Const(w, 0)]))
        total = self.tree_or(parts, w)
        if isinstance(default, Const) and default.value == 0:
            return total
        anyc = self.tree_or(anys, 1)
        if isinstance(anyc, Const):          # no cases: always the default
            return default
        return self.op("select", w, [anyc, total, default])


def _merge(func: Function, a: Block, bs: list[Block]) -> None:
    finals = _final_targets(a, bs)
    # B's phis have one incoming value (from A): uses of them read it
    replace_uses(func, {phi: _phi_value(phi, a) for b in bs for phi in b.phis})
    w = max(1, (len(finals) - 1).bit_length())
    term = a.terminator
    bld = _Builder(w, term.loc)
    index_of = {t: Const(w, i) for i, t in enumerate(finals)}
    b_index = {b: bld.index(b.terminator, lambda t: index_of[t]) for b in bs}
    # B's ops come first: the index of its branch reads them
    moved = [op for b in bs for op in b.ops[:-1] if op.kind != "phi"]
    idx_ops_b = list(bld.ops)
    bld.ops = []
    idx = bld.index(term, lambda t: b_index[t] if t in b_index else index_of[t])
    a.ops.pop()
    for op in moved + idx_ops_b + bld.ops:
        a.append(op)
    if len(finals) == 2:
        if isinstance(idx, Const):
            new = Op(width=0, kind="br", operands=[], targets=[finals[idx.value]], loc=term.loc)
        else:
            new = Op(width=0, kind="condbr", operands=[idx], targets=[finals[1], finals[0]],
                     loc=term.loc, attrs={"merged": True})
    elif isinstance(idx, Const):
        new = Op(width=0, kind="br", operands=[], targets=[finals[idx.value]], loc=term.loc)
    else:
        new = Op(width=0, kind="switch", operands=[idx], targets=list(finals),
                 cases=list(range(1, len(finals))), loc=term.loc, attrs={"merged": True})
    a.append(new)
    # the targets' phis: the edges from B become (one) edge from A
    for t in finals:
        for phi in t.phis:
            out, seen = [], False
            for q, v in phi.incoming:
                if q is a or q in bs:
                    if not seen:
                        out.append((a, v))
                        seen = True
                else:
                    out.append((q, v))
            phi.incoming = out
    for b in bs:
        func.blocks.remove(b)
