"""Loop-invariant code motion: an op a loop computes from values that do not change while
it runs is computed once, before the loop.

clang -O1 runs LLVM's LICM on each C function alone (pyhls asks it to inline nothing),
and the canonicaliser that runs after pyhls inlines the callees has none: ``y[i] =
scale(a, b, x[i])`` with ``scale`` computing ``a * b`` keeps the multiply (and a Vitis
helper's table lookup at a fixed index, its ``base + off``) in every iteration of the
loop, where it lengthens the iteration, takes a multiplier or a memory port from the
pipeline, and is unrolled with the body.  The rewrite, per natural loop ``L``
(innermost first, so that what an inner loop hoists into its preheader can leave the
outer loop too):

* an op of ``L`` is *invariant* when each operand is a constant, a parameter, an op
  outside ``L`` or an invariant op; phis, terminators and calls never are;
* a pure op (``OpDef.pure``: arithmetic, logic, compares, selects, casts, floating
  point) moves: it computes the same value before the loop as in any iteration, and
  where LLVM would give poison (a shift by the width, a signed overflow) the
  interpreter's poison flows to the same uses as before -- except the divisions
  (``udiv``/``sdiv``/``urem``/``srem``, and the ``*c`` kinds by constants), which are
  immediate undefined behaviour in C and LLVM: one moves only when its divisor is a
  constant that cannot trap (non-zero; for the signed kinds not -1, whose
  ``INT_MIN / -1`` overflows), or when it runs on every entry of the loop anyway
  (*guaranteed*: its block dominates every latch and every block that leaves the loop,
  so the first iteration reaches it);
* a load moves when its memory is a ROM, or no store of the loop may write its memory
  (the same array, a bank
  of the same whole array, or -- in a function other than the top -- any pointer
  parameter or global: a callee's pointer parameters may be windows on one caller
  array), no call of the loop may (a callee whose calls store anything, given the
  memory or able to reach it as a global or through its pointer parameters), it is no
  ``hls::stream`` (each read is a position of its own) and carries no guard, and it
  cannot read out of bounds where the loop would not have read: its word address is a
  constant within the memory or its width cannot reach past the end, or the load is
  guaranteed as above;
* a load of a loop with a requested II (``#pragma HLS pipeline II=N``, a directive, or
  clang's loop metadata) stays when its memory's accesses in the loop already fit the
  port slots of that II (``ceil(accesses / ports) <= II``): the pipeline cannot run
  faster than asked, so moving them gains nothing per iteration, while before the loop
  they cost cycles on every entry (two loads per cycle, then the data a cycle later)
  and a register each (examples/vitis/biquad.cpp: five coefficient loads at II=3 moved
  cost 2 cycles over two calls and 163 flip-flops);
* the invariant ops worth the move are those with a cost of their own (everything but
  width changes, slices, concatenations and shifts by constants, which are wires), plus
  the wires they read: a wire that only loop ops read stays, since moving it would put
  its value in a register of its own for nothing;
* they go, in definition order, at the end of the loop's preheader: the one block
  outside ``L`` that enters the header, when the header is its only successor, else a
  new block on that edge (so that nothing runs on the paths that skip the loop).  A
  loop entered from several blocks outside it is left alone.

The affine analysis of addresses (:class:`hls.analysis.AffineAnalysis`) reads through
ops outside the loop block, so an address whose base moved out of the loop keeps its
form (banks, dependence distances).
"""

from __future__ import annotations

from math import ceil

from ..analysis import find_loops, loop_line
from ..analysis._loops import Loop
from ..ir import Block, Const, Function, Op, dominates, dominators, op_def
from ._scalars import _edge_block

#: the divisions: immediate undefined behaviour on a zero (or, signed, overflowing)
#: divisor, so they move only where that cannot happen or they ran anyway
_DIVISIONS = frozenset({"udiv", "sdiv", "urem", "srem"})
_DIV_CONST = frozenset({"udivc", "uremc", "sdivc", "sremc"})
#: kinds that are wires in hardware (no logic, no delay): worth no register of their own
_WIRES = frozenset({"trunc", "zext", "sext", "slice", "concat"})
_SHIFTS = frozenset({"shl", "lshr", "ashr"})


def hoist_invariants(func: Function, is_top: bool = False, directives=None) -> int:
    """Move the loop-invariant ops of every loop of ``func`` before it; returns how many
    ops moved.  ``is_top``: ``func`` is the top, whose pointer parameters are distinct
    storage (a callee's may alias each other and the globals).  ``directives``
    (:class:`hls.directives.Directives`, the pragmas included): the II each loop asks
    for, besides clang's loop metadata."""
    moved = 0
    done: set[Block] = set()
    shape = None
    while True:
        # the loops and dominators again only when the CFG changed (a preheader made)
        if shape != len(func.blocks):
            shape, every, idom = len(func.blocks), find_loops(func), dominators(func)
        loops = [lp for lp in every if lp.header not in done]
        if not loops:
            return moved
        lp = max(loops, key=_depth)   # an innermost loop first (deepest nesting)
        done.add(lp.header)
        moved += _hoist_loop(func, lp, is_top, directives, idom)


def _depth(lp: Loop) -> int:
    d = 0
    while lp.parent is not None:
        d, lp = d + 1, lp.parent
    return d


def is_wire(op: Op) -> bool:
    """Is ``op`` only wiring in hardware (a width change, a slice, a concatenation, a
    shift by a constant)?"""
    return op.kind in _WIRES or (op.kind in _SHIFTS and isinstance(op.operands[1], Const))


def _divisor_safe(op: Op) -> bool:
    """Can the division ``op`` never be undefined, whatever its dividend?"""
    if op.kind in _DIV_CONST:
        d = op.attrs["divisor"] & ((1 << op.width) - 1)
        return d != 0 and (op.kind[0] == "u" or d != (1 << op.width) - 1)
    d = op.operands[1]
    if not isinstance(d, Const):
        return False
    v = d.value & ((1 << d.width) - 1)
    return v != 0 and (op.kind[0] == "u" or v != (1 << d.width) - 1)


def _in_bounds(op: Op) -> bool:
    """Can the load ``op`` never address a word past its memory's end?"""
    addr, depth = op.operands[0], op.mem.depth_words
    if isinstance(addr, Const):
        return addr.value < depth
    return (1 << addr.width) <= depth


def _root(mem):
    return mem.whole if mem.whole is not None else mem


def _may_alias(a, b, is_top: bool) -> bool:
    """May the memories ``a`` and ``b`` share storage?  The same array (or banks of one
    whole array) always; in a function other than the top, a pointer parameter and any
    other pointer parameter or global too (windows on one caller array)."""
    if _root(a) is _root(b):
        return True
    if is_top:
        return False
    kinds = {a.kind, b.kind}
    return "arg" in kinds and kinds <= {"arg", "global"}


def _stores_anything(callee: Function) -> bool:
    return any(op.kind == "store" for f in callee.call_closure() for op in f.ops())


def _call_may_write(call: Op, mem, is_top: bool) -> bool:
    """May ``call`` (its callee or anything that calls) write ``mem``?  Only a callee
    that stores somewhere can; it reaches the memories given to it, and a global or (in
    a function other than the top) a pointer parameter's storage by any other way."""
    if not _stores_anything(call.attrs["callee"]):
        return False
    if mem.kind == "global" or (mem.kind == "arg" and not is_top):
        return True
    return any(_may_alias(m, mem, is_top) for _, m, _ in call.call_ptr_args())


class _LoopFacts:
    """What the loop ``lp`` writes and which of its blocks run in every entry."""

    def __init__(self, func: Function, lp: Loop, is_top: bool, directives=None,
                 idom: dict | None = None):
        self.body = set(lp.blocks)
        self.is_top = is_top
        self.ii = _requested_ii(func, lp, directives)
        #: loads and stores per memory in the loop
        self.accesses: dict = {}
        for b in lp.blocks:
            for op in b.ops:
                if op.kind in ("load", "store"):
                    self.accesses[op.mem] = self.accesses.get(op.mem, 0) + 1
        self.stores = [op for b in lp.blocks for op in b.ops if op.kind == "store"]
        self.calls = [op for b in lp.blocks for op in b.ops if op.kind == "call"]
        idom = idom if idom is not None else dominators(func)
        exiting = [b for b in lp.blocks if any(s not in self.body for s in b.successors)]
        ends = set(exiting) | set(lp.latches)
        #: blocks the first iteration of every entry reaches (before it leaves the loop
        #: or starts the next iteration)
        self.guaranteed = {b for b in lp.blocks if all(dominates(idom, b, e) for e in ends)}

    def fits_ii(self, mem) -> bool:
        """Do ``mem``'s accesses in the loop fit the port slots of the requested II?"""
        return self.ii is not None and ceil(self.accesses.get(mem, 0) / mem.ports) <= self.ii

    def written(self, mem) -> bool:
        if mem.readonly and mem.kind != "arg":
            return False      # a ROM: nothing writes it (a callee's readonly pointer
            #                   parameter may still see its array written by another)
        return (any(_may_alias(s.mem, mem, self.is_top) for s in self.stores)
                or any(_call_may_write(c, mem, self.is_top) for c in self.calls))


def _movable(op: Op, facts: _LoopFacts) -> bool:
    """May the invariant ``op`` run before the loop (see the module docstring)?"""
    if op.kind == "load":
        if "guard" in op.attrs or op.mem.stream or facts.written(op.mem):
            return False
        if facts.fits_ii(op.mem):
            return False      # free in the pipeline's port slots: not worth a register
        return _in_bounds(op) or op.block in facts.guaranteed
    d = op_def(op.kind)
    if not d.pure or d.terminator:
        return False
    if op.kind in _DIVISIONS or op.kind in _DIV_CONST:
        return _divisor_safe(op) or op.block in facts.guaranteed
    return True


def _invariants(lp: Loop, facts: _LoopFacts) -> list[Op]:
    """The movable invariant ops of ``lp``, operands before users."""
    found: dict[Op, None] = {}
    changed = True
    while changed:
        changed = False
        for b in lp.blocks:
            for op in b.ops:
                if op in found or op.kind == "phi" or op.is_terminator or op.kind == "call":
                    continue
                if all(not isinstance(v, Op) or v.block not in facts.body or v in found
                       for v in op.operands) and _movable(op, facts):
                    found[op] = None
                    changed = True
    return list(found)


def _worth(invariant: list[Op]) -> list[Op]:
    """The ops of ``invariant`` to move: those with logic of their own and the invariant
    ops they read (in the order of ``invariant``)."""
    inv = set(invariant)
    keep: set[Op] = set()
    work = [op for op in invariant if not is_wire(op)]
    while work:
        op = work.pop()
        if op in keep:
            continue
        keep.add(op)
        work += [v for v in op.operands if isinstance(v, Op) and v in inv]
    return [op for op in invariant if op in keep]


def _preheader(func: Function, lp: Loop) -> Block | None:
    """The block the moved ops go to (made on the entry edge when the entering block
    has other successors); None when the loop is entered from several blocks."""
    body = set(lp.blocks)
    outside = [p for p in func.predecessors()[lp.header] if p not in body]
    if len(outside) != 1:
        return None
    (pre,) = outside
    if pre.successors == [lp.header]:
        return pre
    return _edge_block(func, pre, lp.header, f"{lp.header.name}_pre")


def _requested_ii(func: Function, lp: Loop, directives) -> int | None:
    """The II the loop asks for: clang's loop metadata on its latches, overridden by the
    directives (which hold the ``#pragma HLS pipeline`` settings), as the scheduler
    reads them (:func:`hls.scheduling.loop_directives`)."""
    out: dict = {}
    for latch in lp.latches:
        out.update({k: v for k, v in latch.terminator.attrs.get("loop_md", {}).items()
                    if k in ("pipeline", "ii")})
    if directives is not None:
        out.update(directives.for_loop(func.name, loop_line(lp), lp.header.name))
    ii = out.get("ii")
    return ii if isinstance(ii, int) and ii >= 1 and out.get("pipeline", True) else None


def _hoist_loop(func: Function, lp: Loop, is_top: bool, directives=None,
                idom: dict | None = None) -> int:
    facts = _LoopFacts(func, lp, is_top, directives, idom)
    ops = _worth(_invariants(lp, facts))
    if not ops:
        return 0
    pre = _preheader(func, lp)
    if pre is None:
        return 0
    for op in ops:
        op.block.ops.remove(op)
        op.block = pre
        pre.ops.insert(len(pre.ops) - 1, op)
    return len(ops)
