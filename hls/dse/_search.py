"""Searching a design space: which points to evaluate, and the Pareto front of those
evaluated.

The front is on two costs, both minimised: the **worst-case latency** of one call of the
top (``Result.latency.max``, in cycles: the bound a user can rely on) and the **LUTs**
of the area estimate (``Result.resources.lut``).  A point without both (an error, or a
latency with no upper bound), or whose estimate needs more than the resource
``budget`` (:class:`Budget`), is never on the front.

:func:`explore` evaluates every point of the space when it has at most ``max_points``;
otherwise it runs a deterministic local search: from the default point, in rounds, the
next moves of every front point not yet expanded.  A point's moves are the coupled moves
(:meth:`Space.coupled`: one loop unrolled one step further with the arrays it accesses
partitioned to feed the copies, the move that pays where neither step alone does), then
the points one knob one step away (:meth:`Space.neighbours`), grouped by the loop they
act on, the point's bottleneck first (:meth:`Space.move_groups`, from the cycles per loop
of its evaluation, ``Result.loops``): a round takes each front point's next group.  When
every front point is expanded (a local optimum: a partitioning that pays
only with unrolling is two steps away), the next group of the one point best by the
objective among those with costs not expanded yet.  Where nothing is left to expand, the neighbours
of the best point with steps to more banks that :meth:`Space.banks_useful` left out come
next.  It stops when ``max_points`` points are evaluated, no point is left to expand, or ``stop()`` (a time limit) says so after a
round.  Where a round would pass the budget, the
neighbours of the points best by the objective come first.  The evaluations of a round are handed over as one
batch (``evaluate_many``: a cluster runs them in parallel), and every decision is taken
on results sorted by the points' keys, so that the outcome does not depend on the order
in which they come back.

**Pre-ranking** (``estimate_many``, at most ``max_estimates`` points): the points a round
would evaluate are first estimated (:func:`hls.dse._estimate.estimate`: the schedule
and the cost models, no RTL), and only those the estimates put in the first
:data:`NEAR_LAYERS` Pareto layers of the estimated and evaluated costs together (on the
front, or on the front of what is left without it) are evaluated in full; the others
are recorded as pre-ranked (``Exploration.estimated``), expanded only at a local
optimum, like the evaluated points off the front (by the objective).  A space
larger than ``max_points`` but within ``max_estimates`` is estimated whole, and its
first layers are evaluated (search ``"exhaustive-prerank"``).  Past ``max_estimates``
the points are evaluated as without pre-ranking.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ._evaluate import Result
from ._space import Space

__all__ = ["Budget", "Exploration", "costs", "explore", "pareto_front", "pareto_layers"]

#: ``--objective``: how the best point is chosen (and the neighbours of which front
#: points are evaluated first), from its costs (latency, LUTs)
OBJECTIVES: dict[str, Callable[[tuple], tuple]] = {
    "latency": lambda c: (c[0], c[1]),
    "area": lambda c: (c[1], c[0]),
    "product": lambda c: (c[0] * c[1], c[0]),
}


def pareto_front(costs: Sequence[tuple | None]) -> list[int]:
    """The indices of the non-dominated cost vectors (every cost minimised), in the
    order given.  A vector is dominated by one no larger in every cost and smaller in
    one; of equal vectors only the first is kept; ``None`` (no costs) is never on the
    front."""
    front: list[int] = []
    for i, c in enumerate(costs):
        if c is None:
            continue
        if any(d is not None and (d == c and j < i or _dominates(d, c))
               for j, d in enumerate(costs)):
            continue
        front.append(i)
    return front


#: how many Pareto layers of the estimates the pre-ranking evaluates in full
NEAR_LAYERS = 2


def pareto_layers(costs: Sequence[tuple | None]) -> list[int | None]:
    """Each cost vector's Pareto layer: 0 on the front (:func:`pareto_front`), 1 on the
    front of the rest, ...; None for ``None`` (no costs).  Equal vectors share a layer."""
    layer: list[int | None] = [None] * len(costs)
    left = [i for i, c in enumerate(costs) if c is not None]
    n = 0
    while left:
        here = {c for i in left for c in [costs[i]]
                if not any(_dominates(costs[j], c) for j in left)}
        for i in left:
            if costs[i] in here:
                layer[i] = n
        left = [i for i in left if layer[i] is None]
        n += 1
    return layer


def _dominates(a: tuple, b: tuple) -> bool:
    return all(x <= y for x, y in zip(a, b)) and a != b


def costs(result: Result, budget: Budget | None = None) -> tuple[int, int] | None:
    """A result's (worst-case latency, LUTs), or None where it has no such costs, or
    its area estimate is beyond ``budget``."""
    if not result.ok or result.latency is None or result.latency.max is None:
        return None
    if budget is not None and budget.over(result.resources):
        return None
    return (result.latency.max, result.resources.lut)


_costs = costs      # (explore's own costs() are within its budget)

#: ``--budget`` names of the resources (``bram`` is the 18-Kb block RAMs of the estimate)
BUDGET_KINDS = {"lut": "lut", "ff": "ff", "dsp": "dsp", "bram": "bram18", "bram18": "bram18"}


@dataclass(frozen=True)
class Budget:
    """The most of each resource (the area estimate's units: LUTs, flip-flops, DSP
    blocks, 18-Kb block RAMs) a design point may need to count: a point beyond it in
    any one is evaluated and recorded, but never on the front, never the best and never
    expanded.  None: no limit on that resource.  ``source``: where the limits come from
    (``--budget`` or the target's part)."""

    lut: int | None = None
    ff: int | None = None
    dsp: int | None = None
    bram18: int | None = None
    source: str = "--budget"

    def over(self, resources) -> list[str]:
        """The resources ``resources`` (a :class:`Resources`) needs beyond the budget,
        in the order lut, ff, dsp, bram18; empty when it fits (or has no estimate)."""
        if resources is None:
            return []
        return [k for k in ("lut", "ff", "dsp", "bram18")
                if getattr(self, k) is not None and getattr(resources, k) > getattr(self, k)]

    def to_json(self) -> dict:
        return {"lut": self.lut, "ff": self.ff, "dsp": self.dsp, "bram18": self.bram18,
                "source": self.source}

    @classmethod
    def parse(cls, text: str, device=None) -> Budget:
        """``--budget lut=N,ff=N,dsp=N,bram=N``: the resources named; those not named
        are the part's (``device``, a :class:`hls.targets.Device`), or unlimited without
        one.  ValueError with the reason for anything else."""
        base = {k: (device.capacity(k) if device is not None else None)
                for k in ("lut", "ff", "dsp", "bram18")}
        seen = set()
        for item in text.split(","):
            name, eq, value = item.strip().partition("=")
            kind = BUDGET_KINDS.get(name.strip().lower())
            if not eq or kind is None:
                raise ValueError(f"'{item}' is not a resource limit: expected KIND=N with KIND "
                                 f"one of lut, ff, dsp, bram (the number of points to "
                                 f"evaluate is --max-points)")
            if kind in seen:
                raise ValueError(f"{name.strip()} is limited twice")
            seen.add(kind)
            try:
                n = int(value)
            except ValueError:
                n = -1
            if n < 0:
                raise ValueError(f"{name.strip()}={value}: the limit must be a count >= 0")
            base[kind] = n
        src = "--budget" if device is None else f"--budget, else the part {device.name}"
        return cls(**base, source=src)

    @classmethod
    def of_device(cls, device) -> Budget:
        """The whole part ``device``."""
        return cls(device.lut, device.ff, device.dsp, device.bram18,
                   source=f"the part {device.name}")


@dataclass(frozen=True)
class Exploration:
    """What a search found: every point evaluated with its result (in key order),
    the front (indices into ``evaluated``, by latency then LUTs), the best front point
    by the objective (an index into ``evaluated``, None without a front), and whether
    the search was ``"exhaustive"`` or ``"local"``; ``stopped`` is ``"time-limit"``
    where ``stop()`` ended the search early."""

    evaluated: tuple[tuple[tuple[int, ...], Result], ...]
    front: tuple[int, ...]
    best: int | None
    search: str
    stopped: str | None = None
    #: every point the pre-ranking estimated, with its estimate, in key order (those
    #: evaluated in full among them), and the keys of those it found near the front
    #: (the others were skipped as dominated; a near one not evaluated was cut by the
    #: budget)
    estimated: tuple = ()
    near: frozenset = frozenset()
    #: the resources a point may need to count (None: no limit)
    budget: Budget | None = None


def explore(space: Space, evaluate_many: Callable[[list], list[Result]], max_points: int,
            objective: str = "latency",
            progress: Callable[[int, list[tuple]], None] | None = None,
            stop: Callable[[], bool] | None = None,
            estimate_many: Callable[[list], list] | None = None,
            max_estimates: int = 0, budget: Budget | None = None) -> Exploration:
    """Search ``space`` (see the module's docstring).  ``evaluate_many`` takes a list of
    :class:`DesignPoint` and returns their results in the same order; ``progress`` is
    called after each batch with the number of points evaluated and the front's costs;
    ``stop`` after each batch of the local search, which ends where it says True;
    ``estimate_many`` (as ``evaluate_many``, returning estimates) pre-ranks up to
    ``max_estimates`` points; ``budget``: the resources a point may need to count
    (:class:`Budget`; beyond it, a point is treated as one without costs)."""
    rank = OBJECTIVES[objective]

    def costs(r):
        return _costs(r, budget)

    done: dict[tuple, Result] = {}
    estimated: dict[tuple, object] = {}
    chosen: set = set()
    prerank = estimate_many is not None and max_estimates > 0

    def near(batch: list[tuple]) -> list[tuple]:
        """The points of ``batch`` worth evaluating in full: with pre-ranking, those
        estimated (within the budget) in the first layers, by layer (in the batch's
        order within one), then those past the budget."""
        if not prerank or not batch:
            return batch
        room = max(0, max_estimates - len(estimated))
        ranked, rest = batch[:room], batch[room:]
        for index, est in zip(ranked, estimate_many([space.point(i) for i in ranked])):
            estimated[index] = est
        keys = sorted(done) + ranked
        layer = pareto_layers([costs(done[k]) for k in sorted(done)]
                              + [costs(estimated[k]) for k in ranked])
        at = {k: n for k, n in zip(keys, layer) if n is not None and n < NEAR_LAYERS}
        chosen.update(k for k in ranked if k in at)
        # the front's estimates first, so that a budget cuts the farther layer
        return sorted((k for k in ranked if k in at), key=lambda k: at[k]) + rest

    def run(batch: list[tuple]) -> list[tuple]:
        for index, res in zip(batch, evaluate_many([space.point(i) for i in batch])):
            done[index] = res
        keys = sorted(done)
        front = [keys[i] for i in pareto_front([costs(done[k]) for k in keys])]
        if progress is not None:
            progress(len(done), [costs(done[k]) for k in front])
        return front

    stopped = None
    if space.size() <= max_points:
        search = "exhaustive"
        run(list(space.points()))
    elif prerank and space.size() <= max_estimates:
        search = "exhaustive-prerank"
        run(near(list(space.points()))[:max_points])
    else:
        search = "local"
        groups: dict = {}       # point -> its move groups (Space.move_groups)
        taken: dict = {}        # point -> how many of them were expanded

        def exhausted(k: tuple) -> bool:
            if k not in groups:
                r = done.get(k, estimated.get(k))
                groups[k] = space.move_groups(k, getattr(r, "loops", ()))
            return taken.get(k, 0) >= len(groups[k])

        def expand(k: tuple) -> list[tuple]:
            """The next group of ``k``'s moves with points neither evaluated nor
            estimated (the groups without any are passed over)."""
            while not exhausted(k):
                g = groups[k][taken.get(k, 0)]
                taken[k] = taken.get(k, 0) + 1
                new = [n for n in g if n not in done and n not in estimated]
                if new:
                    return new
            return []

        def candidates(front: list[tuple]) -> list[tuple]:
            """The next round's points: the next moves of the front points not
            expanded yet (see the module's docstring), neither evaluated nor
            estimated."""
            known = {k: costs(r) for k, r in estimated.items()} | \
                {k: costs(r) for k, r in done.items()}
            todo = sorted((k for k in front if not exhausted(k)),
                          key=lambda k: (rank(costs(done[k])), k))
            if not todo:    # a local optimum: on from the best point not expanded yet
                # (pre-ranked, an estimated point is one too: the search walks on
                # through the points it did not evaluate)
                todo = sorted((k for k in known if not exhausted(k) and known[k]),
                              key=lambda k: (rank(known[k]), k))[:1]
            batch: list[tuple] = []
            for k in todo:
                batch += [n for n in expand(k) if n not in batch]
            if not batch:   # nothing left but the steps to more banks thought useless
                for k in sorted((k for k in known if known[k]),
                                key=lambda k: (rank(known[k]), k)):
                    batch = [n for n in space.neighbours(k, every=True)
                             if n not in done and n not in estimated]
                    if batch:
                        break
            return batch

        batch = [space.default]
        while batch:
            front = run(batch)
            if stop is not None and stop():
                stopped = "time-limit"
                break
            batch = candidates(front)
            if prerank:     # every candidate estimated off the front: expand on
                batch = near(batch)
                while not batch and (more := candidates(front)):
                    batch = near(more)
            batch = batch[:max_points - len(done)]
    keys = sorted(done)
    evaluated = tuple((k, done[k]) for k in keys)
    front = pareto_front([costs(r) for _, r in evaluated])
    front.sort(key=lambda i: (costs(evaluated[i][1]), i))
    best = min(front, key=lambda i: (rank(costs(evaluated[i][1])), i)) if front else None
    return Exploration(evaluated, tuple(front), best, search, stopped,
                       tuple(sorted(estimated.items())), frozenset(chosen), budget)

