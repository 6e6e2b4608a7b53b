"""The design space of a kernel: each loop's and each array's candidate knob values,
read from the frontend's module, and the points they make.

A :class:`Space` is a tuple of :class:`Knob` dimensions, each an ordered tuple of
candidate values whose first is the value of the **default point** (every loop rolled
and pipelined where it is innermost, every array whole).  A point of the space is an
index per dimension (a tuple of ints, its stable key: points sort by it), and
:meth:`Space.point` makes it a :class:`DesignPoint`.  The candidates:

* a loop with a constant trip count ``n``: ``unroll`` among 1 and the powers of two
  2, 4, ... below ``n`` that divide it, up to :data:`MAX_UNROLL`, and ``"full"`` where
  ``n <= MAX_UNROLL`` (a factor of ``n`` would leave a loop of one iteration, whose
  parent keeps an inner loop); a loop whose trip count is not a constant: 1, 2 and 4
  (:data:`VARIABLE_UNROLL`; the flow unrolls it with the exit tested in every copy, as
  its own automatic unrolling does);
* an innermost loop: ``pipeline`` on, then off; and where the space is given the
  pipelined loops of the default point (``bounds``: their MII and iteration depth, from
  its schedule, :func:`hls.dse._estimate.estimate`), ``ii``: ``None`` (the least II the
  scheduler meets, from the MII up: the MII where it is met), then 2 and 4 times the
  MII where that is at most the iteration's depth (:func:`ii_candidates`; a larger II
  overlaps no iterations at all): fewer ports and units, smaller multiplexers, for a
  longer latency;
* every pointer argument of the top (not on AXI platforms, whose arguments go over
  m_axi and stay whole) and every local array or ROM of a function that can be
  partitioned (``hls.transforms.partitionable``): ``partition`` whole (``"none"``: not
  partitioned automatically either), then cyclic 2, 4, ... below the depth, up to
  :data:`MAX_BANKS` banks, then ``"complete"`` where the depth is at most
  :data:`MAX_BANKS`.  Globals are not knobs yet;
* only where the exploration is given floating-point formats (``fp_formats``, ``pyhls
  dse --fp-formats``: reduced precision changes the results, so it is never a knob by
  default), each function with floating-point ops and no ``--fp-format`` of its own:
  ``fp`` None (its C types' IEEE formats), then each format given.  These knobs come
  after every loop and array knob.

A setting that the compilation's directives file or ``#pragma HLS`` give (a loop's
unroll or pipeline, an array's partitioning) is not a knob: the exploration keeps what
the user fixed, and a front point's directives file never contradicts a pragma.

Not every product of values is a point: unrolling needs a loop whose body is one block,
so a loop unrolled by more than 1 needs every loop inside it fully unrolled; a
fully unrolled loop has no pipeline setting (its pipeline stays at the first value, so
that one design is not two points); and an II is set only on a loop pipelined and not
unrolled (pipeline off has no II, and the candidates are multiples of the rolled body's
MII, which unrolling changes).  :meth:`Space.feasible` says which are.
"""

from __future__ import annotations

import itertools
from math import gcd
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..analysis import AffineAnalysis, find_loops, loop_line
from ..analysis._deps import JKEY
from ..ir import FLOAT_KINDS
from ..transforms import partitionable
from ..transforms._partition import _local_name
from ._evaluate import Compiled
from ._point import ArrayKnob, DesignPoint, LoopKnob

#: the largest unroll factor tried, and the largest trip count fully unrolled
MAX_UNROLL = 64
#: the most banks a partition candidate makes (cyclic factor, or a complete partition)
MAX_BANKS = 64


@dataclass(frozen=True, slots=True)
class Knob:
    """One dimension of a space: the ``setting`` (``"unroll"``, ``"pipeline"``, ``"ii"``,
    ``"partition"`` or ``"fp"``) of the loop, array or function ``site`` (a loop:
    ``(function, line, label)`` as a :class:`LoopKnob` names it, exactly one of line and
    label; an array: ``(function, name)``; a format: ``(function,)``) and its candidate ``values`` in order (a partition value is
    ``(kind, factor)``; an II None: the scheduler's least).  An II knob keeps the
    bounds its values come from (``bound``: the loop's MII and iteration depth at the
    default point)."""

    setting: str
    site: tuple
    values: tuple
    bound: tuple | None = None

    def to_json(self) -> dict:
        where = ({"function": self.site[0], "name": self.site[1]} if self.setting == "partition"
                 else {"function": self.site[0]} if self.setting == "fp"
                 else {"function": self.site[0]}
                 | ({"line": self.site[1]} if self.site[1] is not None else {"label": self.site[2]}))
        vals = [f"{k} {f}" if f else k for k, f in self.values] \
            if self.setting == "partition" else \
            ["least" if v is None else v for v in self.values] if self.setting == "ii" \
            else ["ieee" if v is None else v for v in self.values] if self.setting == "fp" \
            else list(self.values)
        out = where | {"setting": self.setting, "values": vals}
        if self.bound is not None:
            out |= {"mii": self.bound[0], "depth": self.bound[1]}
        return out


@dataclass(frozen=True)
class Space:
    """The knobs of a kernel (:func:`design_space`), per loop site the loop sites nested
    in it (``inner``: what its unrolling needs fully unrolled), and the unroll settings
    the compilation's directives and pragmas give (``given``, by site: not knobs)."""

    knobs: tuple[Knob, ...]
    inner: dict
    given: dict = field(default_factory=dict)
    #: per loop site: its trip count (None where it is not a constant) and the array
    #: knobs its blocks' loads and stores access, ``(knob index, stride)`` per access
    #: (the words between two iterations' addresses, None where unknown:
    #: :func:`design_space`); empty where unknown (every partition step is then tried)
    trips: dict = field(default_factory=dict)
    touches: dict = field(default_factory=dict)
    #: per loop site: the array knob of each load and store in its own blocks (not in a
    #: loop inside it), and the loop site around it (None: none)
    own: dict = field(default_factory=dict)
    parent: dict = field(default_factory=dict)

    @property
    def default(self) -> tuple[int, ...]:
        """The default point: every knob at its first value."""
        return (0,) * len(self.knobs)

    def values(self, index: tuple[int, ...]) -> dict:
        """``{(setting, site): value}`` of a point."""
        return {(k.setting, k.site): k.values[i] for k, i in zip(self.knobs, index)}

    def feasible(self, index: tuple[int, ...]) -> bool:
        """Whether the point is one design the flow can build as its knobs say: a loop
        unrolled by more than 1 has every loop inside it fully unrolled, a fully
        unrolled loop's pipeline knob is at its first value, and a loop's II is set
        (not None) only where the loop is pipelined and not unrolled."""
        got = self.values(index)
        for site, inner in self.inner.items():
            unroll = got.get(("unroll", site), self.given.get(site, 1))
            if unroll != 1 and any(got.get(("unroll", s), self.given.get(s, 1)) != "full"
                                   for s in inner):
                return False
            if unroll == "full" and ("pipeline", site) in got and \
                    got[("pipeline", site)] != self._first("pipeline", site):
                return False
            if got.get(("ii", site)) is not None and \
                    (unroll != 1 or got.get(("pipeline", site), True) is not True):
                return False
        return True

    def _first(self, setting: str, site: tuple):
        return next(k.values[0] for k in self.knobs if (k.setting, k.site) == (setting, site))

    def points(self) -> Iterator[tuple[int, ...]]:
        """Every feasible point, in the order of their keys."""
        for index in itertools.product(*(range(len(k.values)) for k in self.knobs)):
            if self.feasible(index):
                yield index

    def size(self) -> int:
        """The number of feasible points: the feasible settings of the loops (counted
        one by one) times the product of the arrays' and formats' candidates (free of
        each other)."""
        loops = [i for i, k in enumerate(self.knobs) if k.setting not in ("partition", "fp")]
        arrays = 1
        for k in self.knobs:
            if k.setting in ("partition", "fp"):
                arrays *= len(k.values)
        n = 0
        for sub in itertools.product(*(range(len(self.knobs[i].values)) for i in loops)):
            index = [0] * len(self.knobs)
            for i, v in zip(loops, sub):
                index[i] = v
            n += self.feasible(tuple(index))
        return n * arrays

    def neighbours(self, index: tuple[int, ...], every: bool = False) -> list[tuple[int, ...]]:
        """The feasible points one knob one step away (its previous or next value), in
        key order; an array gets more banks only where they can serve parallel
        accesses (:meth:`banks_useful`), unless ``every``."""
        out = []
        for d, k in enumerate(self.knobs):
            for step in (-1, 1):
                v = index[d] + step
                if step == 1 and k.setting == "partition" and not every \
                        and not self.banks_useful(index, d):
                    continue
                if 0 <= v < len(k.values):
                    n = index[:d] + (v,) + index[d + 1:]
                    if self.feasible(n):
                        out.append(n)
        return sorted(out)

    def banks_useful(self, index: tuple[int, ...], knob: int) -> bool:
        """Whether more banks for the array of partition knob ``knob`` may make the
        point faster: in one iteration of some loop that stays a loop (not fully
        unrolled), the copies of its accesses (each access once per iteration of the
        loops around it up to that one that are fully unrolled, times that loop's unroll
        factor: ``own``) are more than a memory's two ports.  True where the space has
        no access information."""
        if not self.own:
            return True
        got = self.values(index)

        def unroll(site):
            return got.get(("unroll", site), self.given.get(site, 1))

        copies: dict = {}
        for site, acc in self.own.items():
            n = acc.count(knob)
            if not n:
                continue
            s = site
            while s is not None and unroll(s) == "full":
                n *= self.trips.get(s) or 1
                s = self.parent.get(s)
            if s is not None and isinstance(unroll(s), int):
                n *= unroll(s)
            copies[s] = copies.get(s, 0) + n
        return any(n > 2 for n in copies.values())

    def coupled(self, index: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The feasible points where one loop is unrolled one step further and the
        arrays it accesses are partitioned to match (:func:`matching_partition`: the
        least candidate whose banks take the unrolled copies of each access one to a
        bank, or two to a bank, a memory's two ports; and, for the arrays an access
        without a constant stride touches (an address of masks and shifts, which no
        cyclic factor spreads for sure), a complete partition where the array has one,
        its bank copies merged where they never run together), in key order; the points one
        knob step away (:meth:`neighbours`) are not among them.  Unrolling pays only
        with banks to feed it: the two are one step here, not two."""
        plain = set(self.neighbours(index))
        out: set = set()
        for d, k in enumerate(self.knobs):
            if k.setting != "unroll" or index[d] + 1 >= len(k.values):
                continue
            v = k.values[index[d] + 1]
            u = self.trips.get(k.site) if v == "full" else v
            for per_bank in (1, 2, None):
                n = list(index)
                n[d] = index[d] + 1
                for a, stride in self.touches.get(k.site, ()):
                    values = self.knobs[a].values
                    if per_bank is None:    # no stride: a word a bank, where there is one
                        if stride is None and values[-1][0] == "complete":
                            n[a] = len(values) - 1
                        continue
                    n[a] = max(n[a], matching_partition(values, u, stride, per_bank))
                n = tuple(n)
                if n not in plain and n != index and self.feasible(n):
                    out.add(n)
        return sorted(out)

    def move_groups(self, index: tuple[int, ...], loops: tuple = ()) -> list[list[tuple]]:
        """The moves from a point (its coupled moves, then its neighbours, as
        :meth:`coupled` and :meth:`neighbours` give them) grouped by the loop they act
        on, the point's **bottleneck** first, as AutoDSE orders its moves.  ``loops``:
        the cycles one call spends in each loop the point's design keeps
        (:attr:`hls.dse.Result.loops`); a loop's own cycles are its cycles less those of
        the loops directly inside it that the design keeps (so a fully unrolled loop's
        cycles are its parent's).  The loops go by their own cycles, most first (the
        bottleneck), then by site; a loop's group has the moves that change one of its
        knobs (unroll, pipeline, II: a coupled move changes its unroll) and the
        partition moves of the arrays it accesses, where no loop before it accesses
        them; the moves no loop takes (an array no loop accesses, a format: knobs of
        the whole design) join the first group.  Where a loop's II is bound (the third
        field of a ``loops`` entry, :func:`hls.dse._evaluate.ii_limit`) by a recurrence,
        or by the ports of another memory, more banks for an array cannot lower it: its
        partition-only moves go to one last group, after every loop's (AutoDSE's rule:
        the resource that bounds the bottleneck's II says which moves can pay).
        Without ``loops`` (an evaluation that has none: an estimate, an error), one
        group of every move."""
        moves = self.coupled(index) + self.neighbours(index)
        cycles: dict = {}
        limits: dict = {}
        for entry in loops:
            (func, line, header), c = entry[:2]
            site = (func, line, None)
            if site not in self.inner:
                site = (func, None, header)
            if site in self.inner:
                cycles[site] = cycles.get(site, 0) + c
                if len(entry) > 2 and entry[2] is not None:
                    limits[site] = entry[2]
        if not cycles:
            return [moves] if moves else []
        own = {s: c - sum(cycles.get(t, 0) for t in self.inner if self.parent.get(t) == s)
               for s, c in cycles.items()}
        order = sorted(self.inner, key=lambda s: (-own.get(s, 0), repr(s)))
        rank = {s: i for i, s in enumerate(order)}
        loop_of = {d: k.site for d, k in enumerate(self.knobs)
                   if k.setting in ("unroll", "pipeline", "ii")}
        touched: dict = {}
        for site in order:
            for a, _ in self.touches.get(site, ()):
                touched.setdefault(a, site)
        groups: dict = {site: [] for site in order}
        rest, later = [], []
        for n in moves:
            diff = [d for d, (a, b) in enumerate(zip(index, n)) if a != b]
            sites = [loop_of[d] for d in diff if d in loop_of]
            if not sites and diff and all(d in touched for d in diff):
                site = min((touched[d] for d in diff), key=rank.__getitem__)
                if not all(self._may_lift(limits.get(site), self.knobs[d].site) for d in diff):
                    later.append(n)     # banks of an array that does not bound the II
                    continue
                sites = [site]
            if sites:
                groups[min(sites, key=rank.__getitem__)].append(n)
            else:
                rest.append(n)
        out = [g for g in (groups[site] for site in order) if g]
        if rest:            # in the order of the moves, as one group would have them
            first = set(out[0] + rest) if out else set(rest)
            out[:1] = [[n for n in moves if n in first]]
        return out + ([later] if later else [])

    @staticmethod
    def _may_lift(limit: str | None, array: tuple) -> bool:
        """Whether more banks for ``array`` (an array knob's site, ``(function, name)``)
        may lower the II of a loop whose II ``limit`` bounds
        (:func:`hls.dse._evaluate.ii_limit`): yes for a loop at II 1 or unbounded
        (``None``: its unrolling may want them) and for a loop bound by that array's
        own ports (the memory, or one of its banks, ``NAME_<b>``); no where a recurrence,
        another memory or another resource bounds it."""
        if limit is None:
            return True
        if not limit.startswith("mem:"):
            return False
        func, name = array
        mem = limit[4:]
        base, _, bank = mem.rpartition("_")
        names = {name, f"{func}_{name}"}
        return mem in names or (bank.isdigit() and base in names)

    def point(self, index: tuple[int, ...]) -> DesignPoint:
        """The :class:`DesignPoint` of a point: every knob of the space pinned."""
        loops: dict[tuple, dict] = {}
        arrays, fps = [], []
        for (setting, site), v in self.values(index).items():
            if setting == "partition":
                arrays.append(ArrayKnob(site[0], site[1], v[0], v[1]))
            elif setting == "fp":
                if v is not None:
                    fps.append((site[0], v))
            else:
                loops.setdefault(site, {})[setting] = v
        return DesignPoint(tuple(LoopKnob(*site, **s) for site, s in loops.items()),
                           tuple(arrays), fp_formats=tuple(fps))

    def to_json(self) -> dict:
        return {"knobs": [k.to_json() for k in self.knobs], "points": self.size()}


#: the unroll factors of a loop whose trip count is not a constant
VARIABLE_UNROLL = (1, 2, 4)


#: the multiples of a loop's MII that its II knob tries beyond the least II
II_FACTORS = (2, 4)


def ii_candidates(mii: int, depth: int) -> tuple:
    """A pipelined loop's II values: None (the scheduler's least, from the MII up), then
    each of :data:`II_FACTORS` times the MII that is at most the iteration's ``depth``
    (the cycles of one iteration: an II beyond it overlaps nothing)."""
    return (None,) + tuple(k * mii for k in II_FACTORS if k * mii <= depth)


def unroll_candidates(trip_count: int | None) -> tuple:
    """A loop's unroll values (see the module's docstring)."""
    if trip_count is None:
        return VARIABLE_UNROLL
    if trip_count < 2:
        return (1,)
    out: list = [1]
    k = 2
    while k < trip_count and k <= MAX_UNROLL:
        if trip_count % k == 0:
            out.append(k)
        k *= 2
    if trip_count <= MAX_UNROLL:
        out.append("full")
    return tuple(out)


def matching_partition(values: tuple, unroll: int | None, stride: int | None,
                       per_bank: int) -> int:
    """The index of the least partition candidate among ``values`` (``(kind, factor)``
    in order of more banks) that spreads ``unroll`` copies of an access whose address
    steps by ``stride`` words an iteration over banks with at most ``per_bank`` copies
    in one bank (cyclic ``f``: the copies meet every ``f / gcd(f, stride)``-th bank), else
    the last candidate.  An unknown stride counts as 1; a stride of 0 (the same word in
    every copy) needs no banks."""
    if not unroll or stride == 0:
        return 0
    stride = abs(stride) if stride is not None else 1
    for i, (kind, factor) in enumerate(values):
        if kind == "complete":
            return i
        banks = 1 if kind == "none" else factor // gcd(factor, stride)
        if -(-unroll // min(banks, unroll)) <= per_bank:
            return i
    return len(values) - 1


def partition_candidates(depth: int) -> tuple:
    """An array's partition values, ``(kind, factor)`` (see the module's docstring)."""
    out: list = [("none", 0)]
    k = 2
    while k < depth and k <= MAX_BANKS:
        out.append(("cyclic", k))
        k *= 2
    if depth <= MAX_BANKS:
        out.append(("complete", 0))
    return tuple(out)


def design_space(design: Compiled, bounds: tuple = (), fp_formats: tuple = ()) -> Space:
    """The space of a compiled kernel, from the frontend's module: its loops (in
    function order, outer before inner) and arrays (the top's pointer arguments, then
    each function's local arrays, by name).  A loop is named by its source line where
    that is known and no other loop of its function starts on it, else by its header
    block's name (its C label where it has one), as a directives file names it.
    ``bounds``: the pipelined loops of the default point
    (:class:`hls.dse._estimate.LoopBound`, met with the frontend's loops by function and
    header block), whose II knobs they give; without them, no II knobs.
    ``fp_formats``: the floating-point formats to try (``"eEmM"`` texts, in order) on
    each function with float ops that the options give no format."""
    module = design.front
    bound_of = {(b.function, b.header): b for b in bounds}
    dirs = design.comp.dirs
    knobs: list[Knob] = []
    inner: dict = {}
    fixed: dict = {}
    trips: dict = {}
    accesses: dict = {}     # loop site -> [(memory, stride)]
    own_mems: dict = {}     # loop site -> [memory]
    parent: dict = {}
    for f in module.functions:
        loops = find_loops(f)
        lines = [loop_line(lp) for lp in loops]
        site_of = {}
        for lp, line in zip(loops, lines):
            named = line is not None and lines.count(line) == 1
            site_of[lp.header] = (f.name, line, None) if named else (f.name, None, lp.header.name)
        for lp, line in zip(loops, lines):
            site = site_of[lp.header]
            below = [site_of[q.header] for q in loops if _inside(q, lp)]
            inner[site] = tuple(below)
            trips[site] = lp.trip_count
            accesses[site] = _accesses(lp)
            parent[site] = site_of[lp.parent.header] if lp.parent is not None else None
            nested = {id(b) for q in loops if _inside(q, lp) for b in q.blocks}
            own_mems[site] = [op.attrs["mem"] for b in lp.blocks if id(b) not in nested
                              for op in b.ops if op.kind in ("load", "store")
                              and op.attrs.get("mem") is not None]
            given = dirs.for_loop(f.name, line, lp.header.name) if dirs is not None else {}
            if "unroll" in given:
                fixed[site] = given["unroll"]
            else:
                knobs.append(Knob("unroll", site, unroll_candidates(lp.trip_count)))
            if not below and "pipeline" not in given:
                knobs.append(Knob("pipeline", site, (True, False)))
                b = bound_of.get((f.name, lp.header.name))
                if b is not None and "ii" not in given and len(ii_candidates(b.mii, b.depth)) > 1:
                    knobs.append(Knob("ii", site, ii_candidates(b.mii, b.depth),
                                      (b.mii, b.depth)))
    axi = design.comp.platform.axi
    arrays = [] if axi else [(module.top, p.name, p.mem) for p in module.top.ptr_params
                             if not p.mem.stream]
    for f in module.functions:
        arrays += sorted(((f, _local_name(module, f, m), m) for m in f.memories
                          if m.kind == "local"),
                         key=lambda a: a[1])
    pinned = {(d.function, d.name) for d in (dirs.arrays if dirs is not None else ())}
    for f, name, mem in arrays:
        if not partitionable(module, mem) and not pinned & {(f.name, name), (f.name, mem.name)}:
            knobs.append(Knob("partition", (f.name, name), partition_candidates(mem.depth_words)))
    knob_of = {}
    for f, name, mem in arrays:
        for i, k in enumerate(knobs):
            if k.setting == "partition" and k.site == (f.name, name):
                knob_of.setdefault(id(mem), i)
    given_fp = design.comp.opts.fp_format
    if fp_formats and "*" not in given_fp:
        for f in module.functions:
            if f.name not in given_fp and any(op.kind in FLOAT_KINDS for op in f.ops()):
                knobs.append(Knob("fp", (f.name,), (None,) + tuple(fp_formats)))
    touches = {site: tuple(sorted(((knob_of[id(m)], s) for m, s in acc if id(m) in knob_of),
                                  key=lambda t: (t[0], t[1] is None, t[1] or 0)))
               for site, acc in accesses.items()}
    own = {site: tuple(knob_of[id(m)] for m in mems if id(m) in knob_of)
           for site, mems in own_mems.items()}
    return Space(tuple(knobs), inner, fixed, trips, touches, own, parent)


def _accesses(lp) -> list:
    """The memories the loads and stores of a loop's blocks access, each with the
    words its address steps by an iteration where the loop is one block (its affine
    form, :class:`hls.analysis.AffineAnalysis`), else None."""
    an = AffineAnalysis(lp.header) if lp.blocks == [lp.header] else None
    out = []
    for b in lp.blocks:
        for op in b.ops:
            if op.kind in ("load", "store") and op.attrs.get("mem") is not None:
                form = an.form(op.operands[0]) if an is not None else None
                out.append((op.attrs["mem"], form.coeff(JKEY) if form is not None else None))
    return out


def _inside(q, lp) -> bool:
    p = q.parent
    while p is not None:
        if p is lp:
            return True
        p = p.parent
    return False

