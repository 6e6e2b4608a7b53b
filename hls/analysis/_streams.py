"""Can a pointer argument be an AXI4-Stream?  A compile-time proof that its accesses are
one stream of elements 0, 1, 2, ... in order (``--interface ARG=axis``).

What is proved (and nothing more; anything else is rejected):

* every access of the argument's memory in the top function is a load (an input stream)
  or every one is a store (an output stream), and the memory is passed to no call;
* there is exactly one access operation, and it is unconditional (no if-conversion guard);
* it is either outside every loop with word address 0 (a one-element stream), or in the
  body of a single-block loop that is not nested in another loop (so the loop runs at most
  once per call and the access runs once per iteration), with a word address that is the
  iteration number: the affine form of :class:`hls.analysis.AffineAnalysis` is ``1 * j``
  plus induction-variable start values that are constants summing to 0.

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
from ._loops import find_loops

__all__ = ["stream_order_problem"]


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
    op = acc[0]
    if "guard" in op.attrs:
        return f"it is {what} conditionally (an element may be skipped)"
    addr = op.operands[0]
    loops = [lp for lp in find_loops(func) if op.block in lp.blocks]
    if not loops:
        if isinstance(addr, Const) and addr.value == 0:
            return None
        return f"it is {what} once outside any loop, at a word address that is not 0"
    lp = min(loops, key=lambda x: len(x.blocks))
    if lp.parent is not None or len(loops) > 1:
        return f"it is {what} in a nested loop (the element order across the outer loop is not proved)"
    if len(lp.blocks) != 1:
        return (f"it is {what} in a loop whose body is not one block (after if-conversion), "
                f"where the element order is not proved")
    an = AffineAnalysis(lp.header)
    form = an.form(addr)
    if form is None:
        return "its word address is not an affine function of the loop's iteration"
    mod = 1 << form.bits
    total = form.const
    for key, c in form.terms:
        if key == JKEY:
            if c % mod != 1:
                return (f"its word address advances by {c if c < mod // 2 else c - mod} "
                        f"per iteration, not 1")
            continue
        if not (isinstance(key, Op) and key.kind == "phi" and key in an.step):
            return "its word address depends on a value other than the loop's iteration"
        init = [v for p, v in key.incoming if p not in lp.blocks]
        if len(init) != 1 or not isinstance(init[0], Const):
            return "its word address starts at a value that is not a constant"
        total += c * init[0].value
    if JKEY not in {k for k, _ in form.terms}:
        return "its word address does not change from one iteration to the next"
    if total % mod:
        return f"its first word address is {total % mod}, not 0"
    return None
