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

from ..analysis import find_loops, loop_line
from ..errors import HLSError
from ..ir import Block, Const, Function, Op, add_guard, replace_uses, uses_outside
from ._ifconv import _and, _not, if_convert

MAX_COPIES = 256


def _clone(op: Op, vmap: dict) -> Op:
    """``op`` with its operands mapped through ``vmap`` (not yet placed in a block)."""
    ops = [vmap.get(v, v) for v in op.operands]
    # fold add(add(x, c1), c2) -> add(x, c1 + c2) (induction chains of the copies)
    if (op.kind == "add" and isinstance(ops[1], Const) and isinstance(ops[0], Op)
            and ops[0].kind == "add" and isinstance(ops[0].operands[1], Const)
            and ops[0].width == op.width):
        inner = ops[0]
        ops = [inner.operands[0], Const(op.width, inner.operands[1].value + ops[1].value)]
    return Op(width=op.width, kind=op.kind, operands=ops, attrs=dict(op.attrs), loc=op.loc,
              name=f"{op.name}_u" if op.name else "")


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
        return c if cont_true else _not(c, out, loc)

    guarded = not (exact or full)
    maps = [{}]                     # copy 0: the original values
    acts = [Const(1, 1)]
    conts = [cont_of(maps[0])] if guarded else []
    for k in range(1, factor):
        prev = maps[-1]
        act = _and(acts[-1], conts[-1], out, loc) if guarded else Const(1, 1)
        vmap = {p: prev.get(back[p], back[p]) for p in phis}
        for op in body:
            new = _clone(op, vmap)
            vmap[op] = new
            if op.kind in ("load", "store") and guarded:
                add_guard(new, act, out.append)
            out.append(new)
        maps.append(vmap)
        acts.append(act)
        if guarded:
            conts.append(cont_of(vmap))
    last = maps[-1]

    # values used after the loop: the last active copy's
    outside = uses_outside(func, b)
    used_after = [v for v in phis + body if v in outside]
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
    replace_uses(func, repl, skip_block=b)

    init = {}
    if full:
        # straight-line code: phis take their initial values, no back edge
        init = {p: next(v for q, v in p.incoming if q is not b) for p in phis}
        new_term = Op(width=0, kind="br", operands=[], loc=loc)
        new_term.targets = [exit_blk]
        ops = out + [new_term]
    else:
        for p in phis:
            p.incoming = [(q, last.get(back[p], back[p]) if q is b else v) for q, v in p.incoming]
        md = {k: v for k, v in term.attrs.get("loop_md", {}).items() if k != "unroll"}
        attrs = {"loop_md": md} if md else {}
        # (factor, exact, the unrolled loop's own trip count when the source loop's is
        # constant: a guarded loop runs ceil(trip / factor) times, which its exit test
        # (an and of the copies' tests) does not show find_loops)
        attrs["unrolled"] = (factor, exact) if trip is None else (
            factor, exact, -(-trip // factor))
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
    replace_uses(func, init)


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
            replace_uses(func, {phi: phi.incoming[0][1] for phi in s.phis})  # one incoming each
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


def unroll_requests(func: Function, directives=None,
                    auto: dict | None = None) -> dict[Block, int | str]:
    """{loop header: unroll factor or "full"} from pragmas and directives (a factor of 1
    means "do not unroll"), else from ``auto`` ({(function name, header name): factor},
    the flow's choice by estimated cycles) for a loop that is one block without calls.

    clang at -O1 marks every loop ``llvm.loop.unroll.disable`` (its unroller is done with
    it), so that note cannot tell a ``#pragma clang loop unroll(disable)``: it does not
    stop ``auto``; a directive ``unroll = 1`` or ``--no-auto-unroll`` does."""
    out: dict[Block, int | str] = {}
    for lp in find_loops(func):
        want = None
        for latch in lp.latches:
            want = latch.terminator.attrs.get("loop_md", {}).get("unroll", want)
        asked = (directives.for_loop(func.name, loop_line(lp), lp.header.name).get("unroll")
                 if directives is not None else None)
        if asked is not None:
            want = asked
        elif (want in (None, 1) and auto and (func.name, lp.header.name) in auto
              and auto_unrollable(lp)):
            want = auto[(func.name, lp.header.name)]
        if want is not None and want != 1:
            out[lp.header] = want
    return out


def auto_unrollable(lp) -> bool:
    """A loop the flow may unroll of its own accord: one block, no call."""
    return lp.blocks == [lp.header] and not any(op.kind == "call" for op in lp.header.ops)


def unroll_loops(func: Function, directives=None, auto: dict | None = None,
                 keep=frozenset()) -> int:
    """Unroll the loops that pragmas or directives ask for (and those of ``auto``),
    innermost first; a fully unrolled inner loop leaves straight-line code that merges
    into its enclosing loop, which if-conversion (of the loops not named in ``keep``) may
    then turn into a single block (and unroll in turn).  Returns the number of loops
    unrolled."""
    done: set = set()
    full = False
    while True:
        reqs = {h: u for h, u in unroll_requests(func, directives, auto).items()
                if h not in done}
        if not reqs:
            if full:    # the enclosing loops of fully unrolled ones, one block if they can
                if_convert(func, keep)
            return len(done)
        if_convert(func, set(keep) - {h.name for h in reqs})  # asked for: converted
        loops = find_loops(func)
        for lp in reversed(loops):  # inner loops first
            if lp.header in reqs and lp.blocks == [lp.header]:
                full = full or reqs[lp.header] == "full"
                unroll_block(func, lp.header, reqs[lp.header], lp.trip_count)
                done.add(lp.header)
                merge_blocks(func)
                break
        else:
            lp = next(lp for lp in loops if lp.header in reqs)
            loc = func.loc
            raise HLSError(f"loop {lp.header.name} of @{func.name}: unrolling needs a loop "
                           "whose body is one block after if-conversion (no inner loops "
                           "left, no exits from the middle of the body)",
                           loc.file if loc else None, loop_line(lp))
