"""Bit-width narrowing by demanded bits.

The low ``k`` bits of ``add``, ``sub``, ``mul``, ``and``, ``or``, ``xor`` and ``shl`` (by a
constant) depend only on the low ``k`` bits of their operands (the ``narrow`` flag of their
definitions, :mod:`hls.ir._ops`).  When every use of such an
op reads only its low ``k`` bits (a ``trunc``, a ``slice`` or another such op that is
itself narrowed), the op is computed in ``k`` bits.  A memory port takes only the low
``addr_bits`` of a word address, so address slices narrow to that.  Address arithmetic that C performs in
64 bits (``i * 40`` on an ``i64`` induction variable, truncated to a 32-bit byte offset
and sliced to a word address) thus becomes a narrow multiplier instead of a 64-bit one.
"""

from __future__ import annotations

from ..ir import Const, Function, Op, Value, op_def


def _low_closed(op: Op) -> bool:
    """Do the low k bits of ``op`` depend on the low k bits of its operands only?  Its
    definition says so (``narrow``); a shift only when the amount is a constant."""
    narrow = op_def(op.kind).narrow
    return narrow == "low" or (narrow == "low-shift" and isinstance(op.operands[1], Const))


def _shift_amount_of(u: Op, op: Op) -> bool:
    """Is ``op`` the shift amount of ``u`` (whose bits all matter, not its low ones)?"""
    return op_def(u.kind).narrow == "low-shift" and u.operands[1] is op


def narrow_widths(func: Function) -> int:
    ops = [op for op in func.ops()]
    users: dict[Value, list[Op]] = {}
    for op in ops:
        for v in op.operands:
            users.setdefault(v, []).append(op)
        for _, v in op.incoming:
            users.setdefault(v, []).append(op)
    demand: dict[Op, int] = {}
    changed = True  # iterate to a fixpoint (loops make uses precede definitions)
    while changed:
        changed = False
        for op in reversed(ops):
            if not op.width or not (_low_closed(op) or op.kind in ("slice", "trunc")):
                continue
            d = 0
            for u in users.get(op, []):
                if u.kind == "trunc":
                    need = demand.get(u, u.width)
                elif u.kind == "slice":
                    need = u.attrs["lo"] + demand.get(u, u.width)
                elif u.kind in ("load", "store") and u.operands[0] is op and (
                        u.kind == "load" or u.operands[1] is not op):
                    need = u.mem.addr_bits  # the port takes the low address bits
                elif _low_closed(u) and not _shift_amount_of(u, op):
                    need = demand.get(u, u.width)
                else:
                    need = op.width
                d = max(d, need)
            d = min(op.width, max(d, 1))
            if demand.get(op) != d:
                demand[op] = d
                changed = True
    n = 0
    new_w = {op: d for op, d in demand.items() if d < op.width}
    for op in ops:
        if op in new_w:
            w = new_w[op]
            op.width = w
            n += 1
            if op.kind in ("slice", "trunc"):
                continue
            shift = op_def(op.kind).narrow == "low-shift"
            for i in range(1 if shift else 2):
                op.operands[i] = _trunc_to(op, op.operands[i], w)
            if shift:  # a constant amount, below the old width; the operands keep one width
                op.operands[1] = Const(w, op.operands[1].value)
    return n


def _trunc_to(anchor: Op, v: Value, w: int) -> Value:
    if v.width == w:
        return v
    if isinstance(v, Const):
        return Const(w, v.value)
    t = Op(width=w, kind="trunc", operands=[v], loc=anchor.loc)
    b = anchor.block
    t.block = b
    b.ops.insert(b.ops.index(anchor), t)
    return t
