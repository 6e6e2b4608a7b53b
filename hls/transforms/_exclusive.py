"""Accesses of one memory that never run together share one access (one port use).

Partitioning an array whose bank an access cannot know at compile time gives that access
a guarded copy for every bank (``bank == b``); unrolling such a loop ``U`` times gives
each bank ``U`` guarded copies per iteration, and the modulo scheduler counts a port use
for each, so the partition buys nothing.  Yet the copies of one bank are often
*exclusive*: in any execution of the block at most one of their guards holds (the four
words ``val[j..j+3]`` of a row lie in four different banks of a cyclic 4 partition; an
FFT butterfly's even and odd words are different words, so in a complete partition they
never hit the same bank).  Such a group becomes one access: its address (and a store's
data) selected by the guards, its guard the OR of theirs.  Each load of the group takes
the merged load's value, which is its own whenever its guard holds (a guarded load's
value is only ever used under its guard: the banks' selects, if-conversion's phis).

Two guards are exclusive when a conjunct of one and a conjunct of the other cannot both
hold: ``x`` and ``x xor 1``; ``A == c1`` and ``B == c2`` with ``A - B`` a known constant
modulo ``2**k`` (equal affine forms up to the constant: :class:`hls.analysis.AffineAnalysis`)
that ``c1 - c2`` is not; or, in a single-block loop whose guards are enumerable
(:class:`hls.analysis.Enumeration`), no iteration of any entry performs both.

The merged load goes where the group's first load was, with the pure ops that compute
the later loads' addresses and guards moved ahead of it; the merged store where the last
store was.  Moving an access past another access of the same memory needs the two to be
exclusive (or both loads); a call in between, or an address computed from a load, keeps
the group apart.
"""

from __future__ import annotations

from ..analysis import AffineAnalysis, Enumeration, find_loops
from ..analysis._deps import constant_difference
from ..ir import Block, Const, Function, Op, op_def, replace_uses

__all__ = ["merge_exclusive_accesses"]


def _conjuncts(g, out: list) -> list:
    if isinstance(g, Op) and g.kind == "and" and g.width == 1:
        for o in g.operands:
            _conjuncts(o, out)
    else:
        out.append(g)
    return out


def _never_both(a, b, an: AffineAnalysis) -> bool:
    """The i1 values ``a`` and ``b`` are never both 1."""
    for x, y in ((a, b), (b, a)):
        if (isinstance(x, Op) and x.kind == "xor" and y in x.operands
                and any(isinstance(o, Const) and o.value & 1 for o in x.operands)):
            return True
    if not (isinstance(a, Op) and isinstance(b, Op) and a.kind == b.kind == "icmp"
            and a.attrs.get("pred") == b.attrs.get("pred") == "eq"):
        return False
    (xa, ca), (xb, cb) = a.operands, b.operands
    if not (isinstance(ca, Const) and isinstance(cb, Const)) or xa.width != xb.width:
        return False
    w = xa.width
    diff = (ca.value - cb.value) % (1 << w)
    if xa is xb:
        return diff != 0
    fa, fb = an.form(xa), an.form(xb)
    known = constant_difference(fa, fb) if fa is not None and fb is not None else None
    if known is None:
        return False
    # xa - xb == delta (mod 2**bits), and xa == ca, xb == cb together would need ca - cb
    # to be that too (a form is never known in more bits than its value's width)
    delta, bits = known
    return (diff - delta) & ((1 << bits) - 1) != 0


class _Exclusion:
    def __init__(self, block: Block, loop):
        self.an = AffineAnalysis(block)
        self.loop = loop
        self.enum: Enumeration | None = None

    def __call__(self, x: Op, y: Op) -> bool:
        gx = x.operands[x.attrs["guard"]] if "guard" in x.attrs else None
        gy = y.operands[y.attrs["guard"]] if "guard" in y.attrs else None
        if gx is None or gy is None:
            return False
        cx, cy = _conjuncts(gx, []), _conjuncts(gy, [])
        if any(_never_both(a, b, self.an) for a in cx for b in cy):
            return True
        if self.loop is None:
            return False
        if self.enum is None:
            self.enum = Enumeration(self.loop)
        return self.enum.never_together(x, y)


def _cone(op: Op, block: Block, after: int, pos: dict, into: dict) -> bool:
    """Collect into ``into`` the ops of ``block`` at positions above ``after`` that
    ``op``'s operands are computed by; False when one of them is not pure."""
    for v in op.operands:
        if not isinstance(v, Op) or v.block is not block or pos[v] < after or v in into:
            continue
        if pos[v] == after:   # the group's first access itself: no place before it
            return False
        if v.kind == "phi" or not op_def(v.kind).pure:
            return False
        into[v] = None
        if not _cone(v, block, after, pos, into):
            return False
    return True


def _select(guards: list, values: list, loc, out: list):
    v = values[0]
    for g, x in zip(guards[1:], values[1:]):
        if x is v:
            continue
        v = Op(width=v.width, kind="select", operands=[g, x, v], loc=loc)
        out.append(v)
    return v


def _any(guards: list, loc, out: list):
    g = guards[0]
    for h in guards[1:]:
        g = Op(width=1, kind="or", operands=[g, h], loc=loc)
        out.append(g)
    return g


def _merge_block(func: Function, block: Block, loop_of) -> int:
    groups: dict[tuple, list[Op]] = {}
    for op in block.ops:
        if op.kind in ("load", "store") and "guard" in op.attrs:
            k = (id(op.mem), op.kind, op.attrs["lane"], op.attrs["size"], op.width,
                 op.operands[0].width, op.operands[1].width if op.kind == "store" else 0)
            groups.setdefault(k, []).append(op)
    if all(len(accs) < 2 for accs in groups.values()):
        return 0
    excl = _Exclusion(block, loop_of(block))
    n = 0
    for accs in groups.values():
        if len(accs) < 2:
            continue
        cliques: list[list[Op]] = []
        for op in accs:
            for c in cliques:
                if all(excl(op, m) for m in c):
                    c.append(op)
                    break
            else:
                cliques.append([op])
        for c in cliques:
            if len(c) > 1:
                n += _merge(func, block, c, excl)
    return n


def _merge(func: Function, block: Block, group: list[Op], excl: _Exclusion) -> int:
    pos = {op: i for i, op in enumerate(block.ops)}
    mem = group[0].mem
    first, last = group[0], group[-1]
    between = [o for o in block.ops[pos[first]:pos[last] + 1]
               if o.kind == "call" or (o.kind in ("load", "store") and o.mem is mem
                                        and o not in group)]
    if any(o.kind == "call" for o in between):
        return 0
    loc = first.loc
    if first.kind == "load":
        # every later member moves up to the first: past the stores between
        for m in group[1:]:
            if any(o.kind == "store" and pos[o] < pos[m] and not excl(o, m) for o in between):
                return 0
        cone: dict[Op, None] = {}
        for m in group[1:]:
            if not _cone(m, block, pos[first], pos, cone):
                return 0
        new: list[Op] = sorted(cone, key=pos.__getitem__)
        guards = [m.operands[1] for m in group]
        addr = _select(guards, [m.operands[0] for m in group], loc, new)
        g = _any(guards, loc, new)
        merged = Op(width=first.width, kind="load", operands=[addr, g],
                    attrs=dict(first.attrs, guard=1), loc=loc)
        new.append(merged)
        moved = set(cone) | set(group)
        rest = [o for o in block.ops if o not in moved]
        at = rest.index(block.ops[pos[first] - 1]) + 1 if pos[first] > 0 else 0
        block.ops[:] = rest[:at] + new + rest[at:]
        for o in new:
            o.block = block
        for o in group:
            o.block = None
        replace_uses(func, {m: merged for m in group})
        return len(group) - 1
    # stores: every earlier member moves down to the last, past the accesses between
    for m in group[:-1]:
        if any(pos[o] > pos[m] and not excl(o, m) for o in between):
            return 0
    new = []
    guards = [m.operands[2] for m in group]
    addr = _select(guards, [m.operands[0] for m in group], loc, new)
    data = _select(guards, [m.operands[1] for m in group], loc, new)
    g = _any(guards, loc, new)
    merged = Op(width=0, kind="store", operands=[addr, data, g],
                attrs=dict(first.attrs, guard=2), loc=loc)
    new.append(merged)
    at = pos[last]
    block.ops[at:at + 1] = new
    for o in new:
        o.block = block
    for m in group[:-1]:
        block.ops.remove(m)
    for o in group:
        o.block = None
    return len(group) - 1


def merge_exclusive_accesses(func: Function) -> int:
    """Merge the groups of guarded accesses of each block that never run together (see
    the module docstring); returns the accesses removed."""
    loops: dict | None = None

    def loop_of(block: Block):
        """The single-block loop ``block`` is, if any (the loops found once, when a block
        first has a group to merge)."""
        nonlocal loops
        if loops is None:
            loops = {lp.header: lp for lp in find_loops(func) if lp.blocks == [lp.header]}
        return loops.get(block)

    return sum(_merge_block(func, b, loop_of) for b in func.blocks)
