"""Combine loads of one memory word: two loads in a block that read the same memory at the
same word address (equal affine forms, or equal expressions compared structurally), under
the same guard, with no store to that memory between them, read the word once; each
becomes a slice of that load.  The fields of a struct packed into one word (``r[i].id``,
``r[i].delta``, ``r[i].level``) then cost one memory port instead of one each, which is
what holds a pipelined loop's II when ports are the bound."""

from __future__ import annotations

from ..analysis import AffineAnalysis
from ..ir import Const, Function, Op, op_def


def _vkey(v, memo: dict):
    """A structural key: equal keys compute equal values (same ops on the same inputs).
    Keys are interned numbers (``memo[None]`` maps each flat key to its number): a nested
    tuple of a deep expression DAG would take exponential time to hash."""
    if isinstance(v, Const):
        return ("c", v.width, v.value)
    if not isinstance(v, Op) or not op_def(v.kind).pure:
        return ("v", id(v))
    k = memo.get(id(v))
    if k is None:
        attrs = tuple(sorted((a, x) for a, x in v.attrs.items()
                             if isinstance(x, (int, str)) and not isinstance(x, bool)))
        flat = (v.kind, v.width, attrs, tuple(_vkey(o, memo) for o in v.operands))
        table = memo.setdefault(None, {})
        k = ("e", table.setdefault(flat, len(table)))
        memo[id(v)] = k
    return k


def _addr_key(a, memo: dict, an: AffineAnalysis):
    """Equal keys: equal word addresses.  An affine form known in all the address's bits
    compares ``(16*i + 2) >> 3`` with ``(16*i + 1) >> 3``; else the expression's structure."""
    f = an.form(a) if isinstance(a, Op) else None
    if f is not None and f.bits >= a.width:
        return ("affine", a.width, tuple((k if isinstance(k, str) else id(k), c)
                                         for k, c in f.terms), f.const)
    return _vkey(a, memo)


def _key(op: Op, memo: dict, an: AffineAnalysis):
    g = op.operands[op.attrs["guard"]] if "guard" in op.attrs else None
    return (id(op.mem), _addr_key(op.operands[0], memo, an),
            None if g is None else _vkey(g, memo))


def combine_loads(func: Function) -> int:
    n = 0
    for b in func.blocks:
        done: list[list[Op]] = []
        seen: dict[tuple, list[Op]] = {}
        memo: dict = {}
        an = AffineAnalysis(b)
        for op in b.ops:   # groups of loads between stores of their memory, in block order
            if op.kind == "store":
                seen = {k: v for k, v in seen.items() if k[0] != id(op.mem)}
                continue
            if op.kind == "load":
                k = _key(op, memo, an)
                if k in seen:
                    seen[k].append(op)
                else:
                    seen[k] = [op]
                    done.append(seen[k])
        for grp in done:
            if len(grp) < 2:
                continue
            first = grp[0]
            wb = first.mem.word_bytes
            lo_byte = min(o.attrs["lane"] for o in grp)
            hi_byte = max(o.attrs["lane"] + o.attrs["size"] for o in grp)
            # the first load reads the bytes all of them need
            old_lane, old_size = first.attrs["lane"], first.attrs["size"]
            if (lo_byte, hi_byte) != (old_lane, old_lane + old_size):
                wide = Op(width=8 * (hi_byte - lo_byte), kind="load",
                          operands=list(first.operands),
                          attrs=dict(first.attrs, lane=lo_byte, size=hi_byte - lo_byte),
                          loc=first.loc)
                wide.block = b
                b.ops.insert(b.ops.index(first), wide)
                members = grp
            else:
                wide = first
                members = grp[1:]
            assert hi_byte <= wb
            for o in members:
                lo = 8 * (o.attrs["lane"] - lo_byte)
                o.kind = "slice"
                o.operands = [wide]
                o.attrs = {"lo": lo}
                n += 1
    return n
