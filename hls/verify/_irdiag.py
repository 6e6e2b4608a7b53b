"""Which half of the compiler a failed co-simulation points at.

When the RTL disagrees with native execution, the final CDFG (the IR the scheduler was
given, after every rewrite) is interpreted (:mod:`hls.ir._interp`) on the same calls.  If
the interpretation already disagrees, the bug is in translation or a rewrite; if it
agrees, the bug is in scheduling, binding or RTL generation.  Run only on failure.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..ir import Interpreter, Module
from ._golden import Call, without_dangling

__all__ = ["ir_diagnosis", "ir_differences"]


def _first_diff(a: bytes, b: bytes) -> int:
    return next(i for i in range(min(len(a), len(b))) if a[i] != b[i])


def call_interpreter(module: Module, calls: Sequence[Call], max_steps: int) -> Interpreter:
    """One interpreter for running ``calls`` in order, its globals preset from the first
    call's ``glob_in`` (they persist across calls, as in the harness and native runs)."""
    it = Interpreter(max_steps=max_steps)
    if calls and calls[0].glob_in:
        for g in module.globals:
            if g.symbol in calls[0].glob_in:
                it.preset[g.name] = bytes(calls[0].glob_in[g.symbol])
    return it


def ir_differences(module: Module, calls: Sequence[Call], skip_globals=(),
                   max_steps: int = 5_000_000, limit: int = 8) -> list[str]:
    """Interpret the top of ``module`` on ``calls`` in order (one interpreter: globals
    persist across calls, as in the harness and in native execution) and compare with
    their expected ``ret``, ``mem_out`` and ``glob_out``; returns up to ``limit``
    differences (``call i: what``), at most one per call.  Interpreter errors propagate."""
    f = module.top
    it = call_interpreter(module, calls, max_steps)
    out: list[str] = []
    for i, c in enumerate(calls):
        bufs = it.load_args(f, c.mem_in)
        ret = it.call(f, c.scalars)
        what = None
        if f.return_width and c.ret is not None:
            mask = (1 << f.return_width) - 1
            if (ret or 0) & mask != c.ret & mask:
                what = f"it returns {(ret or 0) & mask}, native {c.ret & mask}"
        for a, exp in (c.mem_out or {}).items():
            got = bytes(bufs.get(a, b""))[:len(exp)]
            if what is None and a in bufs and got != bytes(exp)[:len(got)]:
                k = _first_diff(got, bytes(exp))
                what = f"argument {a} byte {k} is {got[k]:#x}, native {exp[k]:#x}"
        for g in module.globals:
            exp = (c.glob_out or {}).get(g.symbol)
            if what is None and exp is not None and g.symbol not in skip_globals:
                got = bytes(it.buffer(g))[:len(exp)]
                exp = without_dangling(exp, got, c.glob_dangling.get(g.symbol))
                if got != bytes(exp)[:len(got)]:
                    k = _first_diff(got, bytes(exp))
                    what = f"global {g.symbol} byte {k} is {got[k]:#x}, native {exp[k]:#x}"
        if what is not None:
            out.append(f"call {i}: {what}")
            if len(out) >= limit:
                break
    return out


def ir_diagnosis(module: Module, calls: Sequence[Call], skip_globals=(),
                 max_steps: int = 5_000_000) -> str:
    """One sentence on whether the final CDFG agrees with native execution on ``calls``
    (their expected ``ret``, ``mem_out`` and ``glob_out``)."""
    try:
        diffs = ir_differences(module, calls, skip_globals, max_steps, limit=1)
    except Exception as exc:  # noqa: BLE001 - a diagnosis must never hide the failure itself
        return f"the IR interpreter could not run the CDFG ({type(exc).__name__}: {exc})"
    if diffs:
        return (f"the CDFG after all rewrites already disagrees with native execution "
                f"({diffs[0]}): a translation or rewrite bug, not an RTL one")
    return ("the CDFG after all rewrites agrees with native execution on every call: the "
            "error is in scheduling, binding or RTL generation")
