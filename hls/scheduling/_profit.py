"""Whether pipelining a loop pays: its estimated cycles with and without the pipeline.

* **Sequential.**  The FSMD runs a loop block by block, a block's steps being consecutive
  states: an iteration costs the states of the blocks it executes (a block holding only a
  ``br`` costs none: the FSM skips it).  Over the run, a loop costs the sum over its
  blocks of visits x states.
* **Pipelined.**  One entry of ``n`` iterations costs ``(n - 1) * II + depth`` cycles in
  the pipeline's state (what the loop profiles of co-simulation check), so ``I``
  iterations over ``E`` entries cost ``(I - E) * II + E * depth``.

The counts come from a profile of the run when there is one (:class:`hls.analysis.Profile`:
block visits and edge traversals), else from the trip count analysis per entry (one
entry), else :data:`DEFAULT_TRIPS` iterations per entry are assumed; without a profile
the blocks of an iteration are weighted as if each branch went either way with equal
probability.  With a constant trip count from analysis, it wins over the profile's
iterations per entry (unrolling changes a loop's trip count, not its entries).

An if-converted loop is compared with the loop as it was before if-conversion (its
blocks scheduled without it): if-conversion only serves pipelining, so a converted loop
that does not pay is left with its branches (:func:`hls.flow.synthesize`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..analysis import Loop, Profile
from ..ir import Block

#: iterations per entry assumed for a loop without a constant trip count or a profile
DEFAULT_TRIPS = 16


@dataclass(frozen=True)
class LoopCounts:
    iterations: int         # of the header, over the run (or per entry: entries == 1)
    entries: int
    source: str             # "profile", "analysis" or "assumed"

    @property
    def per_entry(self) -> float:
        return self.iterations / self.entries


@dataclass(frozen=True)
class LoopEstimate:
    """Estimated cycles of a loop over the run (``counts``), block by block and
    pipelined at ``ii`` with ``depth`` (None: no pipeline to compare)."""

    counts: LoopCounts
    sequential: float
    pipelined: float | None = None
    ii: int | None = None
    depth: int | None = None

    @property
    def pays(self) -> bool:
        """Pipelining is not slower (a tie keeps the pipeline: one state for the loop, as
        before estimates were made)."""
        return self.pipelined is not None and self.pipelined <= self.sequential

    def why_not(self, converted: bool = False) -> str:
        c = self.counts
        return (("its branches are kept: if-converted and " if converted else "")
                + f"pipelining does not pay: II={self.ii}, depth {self.depth} over "
                f"{c.per_entry:g} iteration(s) per entry ({c.source}) is "
                f"{_num(self.pipelined)} cycles against {_num(self.sequential)} sequential")

    def to_json(self) -> dict:
        c = self.counts
        return {"iterations": c.iterations, "entries": c.entries, "counts_from": c.source,
                "sequential_cycles": _num(self.sequential),
                "pipelined_cycles": None if self.pipelined is None else _num(self.pipelined)}


def _num(x: float | None):
    if x is None:
        return None
    return int(x) if float(x).is_integer() else round(x, 1)


def unroll_factor(lp: Loop) -> int:
    """How many iterations of the source loop one iteration of ``lp`` runs (the
    ``unrolled`` note unrolling leaves on the back edge)."""
    for latch in lp.latches:
        got = latch.terminator.attrs.get("unrolled")
        if got is not None:
            return got[0]
    return 1


def loop_counts(lp: Loop, profile: Profile | None) -> LoopCounts:
    got = profile.loop_counts(lp) if profile is not None else None
    if got is not None:
        iters, entries = got
        if lp.trip_count is not None:
            iters = entries * lp.trip_count
        else:   # the profile ran the source loop: an unrolled one runs fewer iterations
            u = unroll_factor(lp)
            if u > 1:
                iters = entries * -(-iters // (entries * u))
        return LoopCounts(iters, entries, "profile")
    if lp.trip_count is not None:
        return LoopCounts(lp.trip_count, 1, "analysis")
    return LoopCounts(-(-DEFAULT_TRIPS // unroll_factor(lp)), 1, "assumed")


def skipped(b: Block) -> bool:
    """A block holding nothing but ``br`` (no phis, no ops) costs no state: edges into it
    go straight on to its successor (``hls.rtl`` skips it; Bambu and Vitis merge such
    states too)."""
    return len(b.ops) == 1 and b.ops[0].kind == "br" and b.ops[0].targets[0] is not b


def iteration_weights(lp: Loop, profile: Profile | None) -> dict[Block, float]:
    """How often each block of ``lp`` runs per iteration of its header: from the profile
    when it saw the loop, else with equal branch probabilities over the loop's body
    without its back edges (an inner loop's blocks count once per iteration)."""
    fn = lp.header.function.name
    if profile is not None:
        h = profile.visits_of(fn, lp.header.name)
        if h:
            return {b: profile.visits_of(fn, b.name) / h for b in lp.blocks}
    body = set(lp.blocks)
    order = {b: i for i, b in enumerate(lp.blocks)}
    w = {b: 0.0 for b in lp.blocks}
    w[lp.header] = 1.0
    # blocks in the function's order (forward edges go down it, as the frontend emits
    # them); an edge back to the header or upwards is a back edge and carries nothing
    for b in lp.blocks:
        succs = b.successors
        if not succs:
            continue
        share = w[b] / len(succs)
        for s in succs:
            if s in body and s is not lp.header and order[s] > order[b]:
                w[s] += share
    return w


def iteration_states(lp: Loop, lengths: dict[Block, int], profile: Profile | None) -> float:
    """The expected states of one iteration of ``lp`` run block by block (``lengths``:
    states per block)."""
    w = iteration_weights(lp, profile)
    return sum(w[b] * (0 if skipped(b) else lengths.get(b, 1)) for b in lp.blocks)


def pipelined_cycles(counts: LoopCounts, ii: int, depth: int) -> float:
    return (counts.iterations - counts.entries) * ii + counts.entries * depth


@dataclass
class Profitability:
    """What the scheduler weighs a pipeline against (``schedule_function(profit=...)``)."""

    profile: Profile | None = None
    #: states per iteration of loops before if-conversion (the loop with its branches,
    #: scheduled block by block), by (function name, header name)
    before_ifconv: dict[tuple[str, str], float] | None = None
    #: loops left with their branches because their pipeline did not pay: the estimate
    #: that said so, by (function name, header name)
    kept: dict[tuple[str, str], LoopEstimate] = field(default_factory=dict)

    def estimate(self, lp: Loop, lengths: dict[Block, int], ii: int | None = None,
                 depth: int | None = None) -> LoopEstimate:
        counts = loop_counts(lp, self.profile)
        key = (lp.header.function.name, lp.header.name)
        if self.before_ifconv and key in self.before_ifconv:
            # states per source iteration, with its branches; unrolled: that many each
            seq = counts.iterations * unroll_factor(lp) * self.before_ifconv[key]
        else:
            seq = counts.iterations * iteration_states(lp, lengths, self.profile)
        pipe = pipelined_cycles(counts, ii, depth) if ii is not None else None
        return LoopEstimate(counts, seq, pipe, ii, depth)
