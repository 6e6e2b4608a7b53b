"""Loop unrolling of single-block loops (after if-conversion), by clang's loop pragmas
(``#pragma clang loop unroll_count(N)`` / ``unroll(full)``) or an ``unroll`` directive.

A single-block loop ``B`` (phis, body, ``condbr`` back to ``B`` or out) unrolled by ``U``
holds ``U`` copies of its body; copy ``k`` takes the phis' back-edge values of copy
``k - 1``.  Unless the trip count is a known multiple of ``U``, copy ``k`` runs only if
every earlier copy decided to continue: its loads and stores are guarded by that
*active* predicate (as if-conversion guards them), the block loops back only when the
last copy continues, and each value used after the loop is the one of the last active
copy (a select chain).  Full unrolling needs a constant trip count; the loop then
becomes straight-line code (no back edge), and :func:`merge_blocks` lets an enclosing
loop become a single block that can be pipelined in turn.

``add(add(x, c1), c2)`` chains of induction variables are folded while copying, so copy
``k`` addresses ``a[i + k]`` directly: affine analysis then sees the static banks of a
cyclic partition of factor ``U`` (the usual unroll + partition pairing).
"""

from __future__ import annotations

from ..analysis import find_loops
from ..errors import HLSError
from ..ir import Block, Const, Function, Op

MAX_COPIES = 256


def _and(a, b, out: list[Op], loc):
    if isinstance(a, Const) and a.value == 1:
        return b
    op = Op(width=1, kind="and", operands=[a, b], loc=loc)
    out.append(op)
    return op


def _clone(op: Op, vmap: dict, out: list[Op]) -> Op:
    ops = [vmap.get(v, v) for v in op.operands]
    # fold add(add(x, c1), c2) -> add(x, c1 + c2) (induction chains of the copies)
    if (op.kind == "add" and isinstance(ops[1], Const) and isinstance(ops[0], Op)
            and ops[0].kind == "add" and isinstance(ops[0].operands[1], Const)
            and ops[0].width == op.width and ops[0] in out):
        inner = ops[0]
        ops = [inner.operands[0], Const(op.width, inner.operands[1].value + ops[1].value)]
    new = Op(width=op.width, kind=op.kind, operands=ops, attrs=dict(op.attrs), loc=op.loc,
             name=f"{op.name}_u" if op.name else "")
    out.append(new)
    return new


def _guard(op: Op, act, out: list[Op]) -> None:
    base = 1 if op.kind == "load" else 2
    if "guard" in op.attrs:
        op.operands[base] = _and(op.operands[base], act, out, op.loc)
        # _and appended the and-op after ``op``; move it before
        out.remove(op)
        out.append(op)
    else:
        op.operands.append(act)
        op.attrs["guard"] = base


def unroll_block(func: Function, b: Block, factor: int | str, trip: int | None) -> None:
    """Unroll the single-block loop ``b`` by ``factor`` (an int >= 2, or ``"full"``)."""
    term = b.terminator
    where = f"loop {b.name} of @{func.name}"
    if term.kind != "condbr" or b not in term.targets:
        raise HLSError(f"{where}: only single-block loops can be unrolled", None, None)
    if any(op.kind == "call" for op in b.ops):
        raise HLSError(f"{where}: a loop that calls a function cannot be unrolled")
    full = factor == "full"
    if full:
        if trip is None:
            raise HLSError(f"{where}: unroll(full) needs a constant trip count")
        factor = trip
    if factor > MAX_COPIES:
        raise HLSError(f"{where}: unrolling by {factor} makes more than {MAX_COPIES} copies")
    if factor < 2:
        return
    exact = trip is not None and trip % factor == 0
    cont_true = term.targets[0] is b
    exit_blk = term.targets[1] if cont_true else term.targets[0]
    phis = b.phis
    body = [op for op in b.ops if op.kind != "phi" and not op.is_terminator]
    back = {p: next(v for q, v in p.incoming if q is b) for p in phis}
    out: list[Op] = list(body)
    loc = term.loc

    def cont_of(vmap):
        c = vmap.get(term.operands[0], term.operands[0])
        if cont_true:
            return c
        n = Op(width=1, kind="xor", operands=[c, Const(1, 1)], loc=loc)
        out.append(n)
        return n

    guarded = not (exact or full)
    maps = [{}]                     # copy 0: the original values
    acts = [Const(1, 1)]
    conts = [cont_of(maps[0])] if guarded else []
    for k in range(1, factor):
        prev = maps[-1]
        act = _and(acts[-1], conts[-1], out, loc) if guarded else Const(1, 1)
        vmap = {p: prev.get(back[p], back[p]) for p in phis}
        for op in body:
            new = _clone(op, vmap, out)
            vmap[op] = new
            if op.kind in ("load", "store") and not (isinstance(act, Const) and act.value == 1):
                _guard(new, act, out)
        maps.append(vmap)
        acts.append(act)
        if guarded:
            conts.append(cont_of(vmap))
    last = maps[-1]

    # values used after the loop: the last active copy's
    inside = set(b.ops)
    used_after = [v for v in phis + body if _used_outside(func, b, v)]
    repl = {}
    for v in used_after:
        val = maps[0].get(v, v)
        if guarded:
            for k in range(1, factor):
                sel = Op(width=v.width, kind="select", operands=[acts[k], maps[k][v], val],
                         loc=v.loc)
                out.append(sel)
                val = sel
        else:
            val = last[v]
        repl[v] = val
    for op in func.ops():
        if op in inside or op in out:
            continue
        op.operands = [repl.get(v, v) for v in op.operands]
        if op.incoming:
            op.incoming = [(p, repl.get(v, v)) for p, v in op.incoming]

    if full:
        # straight-line code: phis take their initial values, no back edge
        init = {p: next(v for q, v in p.incoming if q is not b) for p in phis}
        for op in out:
            op.operands = [init.get(v, v) for v in op.operands]
        for op in func.ops():
            if op.block is not b:
                op.operands = [init.get(v, v) for v in op.operands]
                if op.incoming:
                    op.incoming = [(q, init.get(v, v)) for q, v in op.incoming]
        new_term = Op(width=0, kind="br", operands=[], loc=loc)
        new_term.targets = [exit_blk]
        ops = out + [new_term]
    else:
        for p in phis:
            p.incoming = [(q, last.get(back[p], back[p]) if q is b else v) for q, v in p.incoming]
        md = {k: v for k, v in term.attrs.get("loop_md", {}).items() if k != "unroll"}
        attrs = {"loop_md": md} if md else {}
        attrs["unrolled"] = (factor, exact)
        if guarded:   # loop back only when every copy continued
            new_term = Op(width=0, kind="condbr", operands=[_and(acts[-1], conts[-1], out, loc)],
                          loc=loc, attrs=attrs)
            new_term.targets = [b, exit_blk]
        else:         # the last copy's own exit test, as the loop had it
            c = last.get(term.operands[0], term.operands[0])
            new_term = Op(width=0, kind="condbr", operands=[c], loc=loc, attrs=attrs)
            new_term.targets = list(term.targets)
        ops = phis + out + [new_term]
    for op in ops:
        op.block = b
    b.ops = ops


def _used_outside(func: Function, b: Block, v) -> bool:
    for op in func.ops():
        if op.block is b:
            continue
        if v in op.operands or any(val is v for _, val in op.incoming):
            return True
    return False


def merge_blocks(func: Function) -> int:
    """Merge a block into its predecessor when it is that block's only successor (``br``)
    and has no other predecessor: straight-line code left by full unrolling."""
    n = 0
    changed = True
    while changed:
        changed = False
        preds = func.predecessors()
        for a in func.blocks:
            t = a.terminator
            if t.kind != "br":
                continue
            s = t.targets[0]
            if s is a or s is func.entry or preds[s] != [a]:
                continue
            for phi in s.phis:  # a single incoming value
                v = phi.incoming[0][1]
                for op in func.ops():
                    op.operands = [v if x is phi else x for x in op.operands]
                    if op.incoming:
                        op.incoming = [(q, v if x is phi else x) for q, x in op.incoming]
            rest = [op for op in s.ops if op.kind != "phi"]
            a.ops = a.ops[:-1] + rest
            for op in rest:
                op.block = a
            for blk in func.blocks:
                for phi in blk.phis:
                    phi.incoming = [(a if q is s else q, v) for q, v in phi.incoming]
            func.blocks.remove(s)
            n += 1
            changed = True
            break
    return n


def unroll_requests(func: Function, directives=None) -> dict[Block, int | str]:
    """{loop header: unroll factor or "full"} from pragmas and directives (a factor of 1
    means "do not unroll")."""
    from ..scheduling._pipeline import loop_line

    out: dict[Block, int | str] = {}
    for lp in find_loops(func):
        want = None
        for latch in lp.latches:
            want = latch.terminator.attrs.get("loop_md", {}).get("unroll", want)
        if directives is not None:
            want = directives.for_loop(func.name, loop_line(lp), lp.header.name).get("unroll", want)
        if want is not None and want != 1:
            out[lp.header] = want
    return out
