"""A profile of the program: how often each block runs and each edge is taken.

A top with no arguments (a whole program, ``--top main``) can be run before it is
synthesised.  :func:`profile_top` interprets it on the CDFG as the frontend produced it
(:class:`hls.ir.Interpreter`, the same semantics the passes are checked against) and
counts block visits and edge traversals.  The run has a budget of blocks; a longer run
is cut there and its counts are those of its prefix (``complete`` is False), which still
gives the loops' iterations per entry and the branches' frequencies.  A run that cannot
be interpreted (an undefined value, an access out of bounds) gives no profile: the
estimates then fall back to trip counts from analysis.

The counts are keyed by function and block *names*, so that they still apply after the
passes (if-conversion merges a loop into its header, which keeps its name).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import HLSError
from ..ir import Interpreter, Module, StepLimit, Undefined
from ._loops import Loop, find_loops

#: blocks one profiling run may execute (a few seconds of interpretation at most)
PROFILE_STEPS = 50_000


@dataclass
class Profile:
    visits: dict[tuple[str, str], int]
    edges: dict[tuple[str, str, str], int]
    #: False when the run was cut at the budget (the counts of its prefix)
    complete: bool
    steps: int
    #: (iterations, entries) of each loop that ran, by (function name, header name), on
    #: the loops of the profiled CDFG (passes change a loop's blocks, not its header)
    loops: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)

    def visits_of(self, func: str, block: str) -> int:
        return self.visits.get((func, block), 0)

    def loop_counts(self, lp: Loop) -> tuple[int, int] | None:
        """(iterations, entries) of ``lp`` over the run: visits of its header, and
        traversals of edges into the header from outside the loop.  None when the loop
        never ran (or the profile does not know it)."""
        return self.loops.get((lp.header.function.name, lp.header.name))


def profile_top(module: Module, max_steps: int = PROFILE_STEPS) -> Profile | None:
    """Interpret the top of ``module`` once when it takes no arguments; None otherwise
    or when the run has no defined meaning.  The module is not changed."""
    top = module.top
    if top.params:
        return None
    it = Interpreter(max_steps)
    complete = True
    try:
        it.call(top)
    except StepLimit:
        complete = False
    except (HLSError, Undefined, RecursionError):
        return None
    into: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for (fn, src, dst), n in it.edges.items():
        into.setdefault((fn, dst), []).append((src, n))
    loops = {}
    for f in module.functions:
        for lp in find_loops(f):
            iters = it.visits.get((f.name, lp.header.name), 0)
            body = {b.name for b in lp.blocks}
            entries = sum(n for src, n in into.get((f.name, lp.header.name), ()) if src not in body)
            if iters and entries:
                loops[(f.name, lp.header.name)] = (iters, entries)
    return Profile(dict(it.visits), dict(it.edges), complete, it.steps, loops)
