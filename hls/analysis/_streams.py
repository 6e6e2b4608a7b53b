"""Can a pointer argument be an AXI4-Stream?  A compile-time proof that its accesses are
one stream of elements 0, 1, 2, ... in order (``--interface ARG=axis``).

What is proved (and nothing more; anything else is rejected):

* every access of the argument's memory in the top function is a load (an input stream)
  or every one is a store (an output stream), and the memory is passed to no call;
* there is exactly one access operation, and it is unconditional (no if-conversion guard);
* it is either outside every loop with word address 0 (a one-element stream), or in the
  body of a single-block loop, with a word address that is the iteration number: the
  affine form of :class:`hls.analysis.AffineAnalysis` is ``1 * j`` plus induction-variable
  start values that are constants summing to 0;
* or that loop is the innermost of a perfect nest of loops with constant trip counts
  ``T1, ..., Tk`` (each loop's own blocks branch only at its latch, so the inner loop runs
  whole once per outer iteration), and the word address is the row-major position
  ``j1 * T2 * ... * Tk + ... + jk`` of the iteration numbers, its start values and the
  outer loops' counters being affine in the outer iteration numbers (``+``, ``-``,
  ``*`` and ``<<`` by constants, extensions).

Then the ``j``-th executed access touches word ``j``, in iteration order; the schedule
keeps iteration order for one operation (a pipelined loop starts iteration ``j + 1`` II
cycles after ``j``), so the core's requests are the in-order stream.  Kernels that read
two elements per iteration (``x[2*i]``, ``x[2*i+1]``), or re-read elements, are sequential
too but are not recognised.  The stream adapters (:mod:`hls.memory._axis`) check the order
again at run time.
"""

from __future__ import annotations

from ..ir import Const, Function, MemoryObject, Op
from ._deps import JKEY, AffineAnalysis
from ._loops import find_loops, header_phi_parts

__all__ = ["access_elements", "access_order_problem", "stream_elements", "stream_order_problem"]


def stream_order_problem(func: Function, mem: MemoryObject) -> str | None:
    """Why the accesses of ``mem`` in ``func`` are not provably one in-order stream, or
    None when they are (see the module docstring)."""
    acc: list[Op] = []
    for op in func.ops():
        if op.kind == "call" and any(m is mem for _pp, m, _o in op.call_ptr_args()):
            return "it is passed to a function call"
        if op.kind in ("load", "store") and op.mem is mem:
            acc.append(op)
    kinds = {op.kind for op in acc}
    if not acc:
        return "it is never accessed"
    if kinds == {"load", "store"}:
        return "it is both read and written (a stream is read only or written only)"
    what = "read" if kinds == {"load"} else "written"
    if len(acc) > 1:
        lines = sorted({op.loc.line for op in acc if op.loc is not None and op.loc.line})
        where = f" (lines {', '.join(map(str, lines))})" if lines else ""
        return (f"it is {what} by {len(acc)} operations{where}; a stream needs exactly one "
                f"access, in a loop, at the loop's iteration number")
    return access_order_problem(func, acc[0])


def access_order_problem(func: Function, op: Op) -> str | None:
    """Why the one load or store ``op`` does not provably touch words 0, 1, 2, ... of its
    memory in order, once each, or None when it does (the module docstring's proof, for
    one operation whatever other accesses its memory has)."""
    what = "read" if op.kind == "load" else "written"
    if "guard" in op.attrs:
        return f"it is {what} conditionally (an element may be skipped)"
    addr = op.operands[0]
    loops = [lp for lp in find_loops(func) if op.block in lp.blocks]
    if not loops:
        if isinstance(addr, Const) and addr.value == 0:
            return None
        return f"it is {what} once outside any loop, at a word address that is not 0"
    lp = min(loops, key=lambda x: len(x.blocks))
    if len(lp.blocks) != 1:
        return (f"it is {what} in a loop whose body is not one block (after if-conversion), "
                f"where the element order is not proved")
    chain = sorted(loops, key=lambda x: -len(x.blocks))     # outermost first
    for outer, inner in zip(chain, chain[1:]):
        why = _perfect(outer, inner)
        if why is not None:
            return f"it is {what} in a loop nest that {why}"
    if len(chain) > 1 and any(x.trip_count is None for x in chain):
        return (f"it is {what} in a loop nest whose trip counts are not all constant (the "
                "element order across the outer loops is not proved)")
    mod = 1 << addr.width
    total = _outer_form(addr, chain)
    if total is None and len(chain) == 1:
        total = _single_loop_form(lp, addr)
        if isinstance(total, str):
            return total
    if total is None:
        return ("its word address is not an affine function of the iteration numbers of the "
                "loops around it")
    coeff = {x: total.get(x, 0) % mod for x in chain}
    if coeff[lp] == 0:
        return "its word address does not change from one iteration to the next"
    if coeff[lp] != 1:
        c = coeff[lp]
        return (f"its word address advances by {c if c < mod // 2 else c - mod} "
                f"per iteration, not 1")
    span = 1
    for x, y in zip(reversed(chain), list(reversed(chain))[1:]):
        span *= x.trip_count
        if coeff[y] != span % mod:
            return (f"its word address advances by {coeff[y]} per iteration of the loop "
                    f"around it, not {span} (the elements its inner loop covers)")
    if total.get("c", 0) % mod:
        return f"its first word address is {total['c'] % mod}, not 0"
    return None


def _single_loop_form(lp, addr):
    """The word address of an access in the single-block loop ``lp`` as ``{lp: a, "c":
    b}`` by :class:`AffineAnalysis` (induction variables whose start values are
    constants), or why not."""
    an = AffineAnalysis(lp.header)
    form = an.form(addr)
    if form is None:
        return "its word address is not an affine function of the loop's iteration"
    total = {"c": form.const}
    for key, c in form.terms:
        if key == JKEY:
            total[lp] = total.get(lp, 0) + c
            continue
        if not (isinstance(key, Op) and key.kind == "phi" and key in an.step):
            return "its word address depends on a value other than the loop's iteration"
        init = [v for p, v in key.incoming if p not in lp.blocks]
        if len(init) != 1 or not isinstance(init[0], Const):
            return "its word address starts at a value that is not a constant"
        total["c"] += c * init[0].value
    return total


def stream_elements(func: Function, mem: MemoryObject) -> int | None:
    """The elements of a proven stream (:func:`stream_order_problem` is None): the
    product of the trip counts of the loops around its one access (1 outside loops), or
    None when one is not constant."""
    acc = [op for op in func.ops() if op.kind in ("load", "store") and op.mem is mem]
    if len(acc) != 1:
        return None
    return access_elements(func, acc[0])


def access_elements(func: Function, op: Op) -> int | None:
    """How many times ``op`` runs per call when it is outside loops (1) or inside loops
    of constant trip counts (their product); None otherwise."""
    n = 1
    for lp in find_loops(func):
        if op.block in lp.blocks:
            if lp.trip_count is None:
                return None
            n *= lp.trip_count
    return n


def _perfect(outer, inner) -> str | None:
    """Why ``inner`` does not run exactly once, whole, per iteration of ``outer`` (its
    parent): the blocks of ``outer`` around it may branch only at ``outer``'s latch."""
    if inner.parent is not outer:
        return "is not a perfect nest"
    own = [b for b in outer.blocks if b not in inner.blocks]
    for b in own:
        t = b.terminator
        if t.kind == "br":
            continue
        if (b in outer.latches and t.kind == "condbr" and outer.header in t.targets
                and any(x not in outer.blocks for x in t.targets)):
            continue
        return "branches around its inner loop (the inner loop may not run every iteration)"
    for b in inner.blocks:
        for s in b.successors:
            if s not in inner.blocks and s not in outer.blocks:
                return "leaves from its inner loop"
    return None


def _range(form: dict, chain) -> tuple[int, int] | None:
    """Smallest and largest value of ``form`` over the iterations of its loops (constant
    trip counts), or None."""
    lo = hi = form.get("c", 0)
    for key, c in form.items():
        if key == "c":
            continue
        if key.trip_count is None or key.trip_count < 1:
            return None
        span = c * (key.trip_count - 1)
        lo, hi = lo + min(0, span), hi + max(0, span)
    return lo, hi


def _outer_form(v, chain) -> dict | None:
    """``v`` as ``{loop: coefficient, "c": const}`` over the iteration numbers of the
    loops of ``chain`` (integers: every operation's result is checked to stay within
    ``0 .. 2**width - 1`` over those iterations, so no wrap-around is assumed away), or
    None."""
    got = _form_of(v, chain)
    if got is None or isinstance(v, Const) or not isinstance(v, Op):
        return got
    if v.kind in ("add", "sub", "mul", "shl"):
        rng = _range(got, chain)
        if rng is None or rng[0] < 0 or rng[1] >= 1 << v.width:
            return None
    return got


def _form_of(v, chain) -> dict | None:
    if isinstance(v, Const):
        return {"c": v.value}
    if not isinstance(v, Op):
        return None
    k = v.kind
    if k == "phi":
        lp = next((x for x in chain if x.header is v.block), None)
        parts = header_phi_parts(v, lp) if lp is not None else None
        if parts is None:
            return None
        init, upd = parts
        if not (isinstance(upd, Op) and upd.kind == "add" and upd.operands[0] is v
                and isinstance(upd.operands[1], Const)):
            return None
        got = _outer_form(init, chain)
        if got is None:
            return None
        step = upd.operands[1].value
        if step >= 1 << (upd.width - 1):
            step -= 1 << upd.width
        got = dict(got)
        got[lp] = got.get(lp, 0) + step
        return got
    if k in ("zext", "sext", "trunc", "slice"):
        # the same number when it fits: its range over the loops' iterations is checked
        x = _outer_form(v.operands[0], chain)
        rng = _range(x, chain) if x is not None else None
        if rng is None or rng[0] < 0:
            return None
        src = v.operands[0].width
        top = {"zext": src, "trunc": v.width, "sext": src - 1,
               "slice": v.attrs.get("lo", 0) + v.width}[k]
        if rng[1] >= 1 << min(src, top):
            return None
        if k != "slice":
            return x
        q = 1 << v.attrs["lo"]     # a byte address to a word address: exact division
        if any(c % q for c in x.values()):
            return None
        return {key: c // q for key, c in x.items()}
    a = v.operands[0] if v.operands else None
    b = v.operands[1] if len(v.operands) > 1 else None
    if k in ("add", "sub"):
        x, y = _outer_form(a, chain), _outer_form(b, chain)
        if x is None or y is None:
            return None
        out = dict(x)
        for key, c in y.items():
            out[key] = out.get(key, 0) + (c if k == "add" else -c)
        return out
    if k in ("mul", "shl"):
        if isinstance(b, Const):
            x, c = _outer_form(a, chain), b.value
        elif isinstance(a, Const) and k == "mul":
            x, c = _outer_form(b, chain), a.value
        else:
            return None
        if x is None:
            return None
        f = c if k == "mul" else 1 << c
        return {key: f * cc for key, cc in x.items()}
    return None
