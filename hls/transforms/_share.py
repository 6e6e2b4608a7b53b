"""Memory sharing by lifetime, in the manner of Mnemosyne: local arrays whose lifetimes
never overlap share one block RAM (the same banks and addresses).

**Lifetimes.**  A function runs its top level in order: the blocks outside every loop and
its outermost loops (each a unit, however many times it iterates) follow one another
along the control flow.  :func:`lifetimes` numbers these units in a topological order of
that graph and gives each local array the span of units from its first access to its
last (a call that receives the array accesses it where the call is).  Two arrays whose
spans share no unit are never live together: the first is dead (read for the last time)
before the second is first written, whatever path the run takes (units of two arms of a
branch are ordered one after the other, and an array live across the branch spans both).
Reading an array before writing it (in C, reading an uninitialised local) would see the
other array's data; C leaves that value undefined, and pyhls's golden model does too.

**Grouping** is an exact optimisation (OR-Tools CP-SAT) per function and word width.
Each array goes to one memory at a word offset; in the plane of (lifetime span x
addresses) the arrays of one memory are rectangles that never overlap
(``AddNoOverlap2D``):

* arrays whose spans are disjoint may take the same addresses (address-space
  compatible, in Mnemosyne's terms);
* arrays live together sit at different offsets, and only when no block accesses both
  (interface compatible: the FSMD runs one block at a time, so they are never accessed
  in the same cycle and share the memory's ports without slowing either);
* a memory is as deep as its highest array end, and the sum of the memories' block RAM
  tiles (:func:`bram36_tiles`, the device's tiling rules; exact on a 512-word grid,
  which every aspect ratio's depth is a multiple of) is minimal, then the offsets.

Arrays passed to calls stay at offset 0.
Arrays that fit in a fraction of a tile anyway (at most ``MIN_BITS``), LUT RAMs
(``small-memories``), ROMs, banks of partitioned arrays, arrays whose address is taken
(pointers held in memory) and the arrays of dataflow regions (channels) are left alone.

**Rewrite.**  A group's first array (by its first unit) becomes the group's memory, as
deep as its members need; every access and call argument of the others is moved to it,
and a load's or store's word address gains its array's offset (an ``add``).
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass

import networkx as nx

from ..analysis import find_loops
from ..ir import Const, Function, MemoryObject, Module, Op

__all__ = ["ShareOptions", "bram36_tiles", "lifetimes", "share_memories", "share_report",
           "unit_cycles"]

#: what the pass did to each module (beside the IR, not in it: the text form does not
#: carry it); read by report.json's plm
_REPORTS: "weakref.WeakKeyDictionary[Module, list]" = weakref.WeakKeyDictionary()


def share_report(module: Module) -> list[dict]:
    """The report entries of the last share-memories run on ``module`` ([] if none)."""
    return _REPORTS.get(module, [])

#: arrays of at most this many bits are not shared (a LUT RAM or a part of one tile)
MIN_BITS = 1024

#: block RAM aspect ratios (depth, width): RAMB36 (true dual port up to 36 bits wide,
#: 512 x 72 simple dual port only) and RAMB18, half a RAMB36 (512 x 36 simple dual port)
RAMB36 = ((32768, 1), (16384, 2), (8192, 4), (4096, 9), (2048, 18), (1024, 36), (512, 72))
RAMB18 = ((16384, 1), (8192, 2), (4096, 4), (2048, 9), (1024, 18), (512, 36))


def bram36_tiles(depth_words: int, width_bits: int, true_dual_port: bool = True) -> float:
    """RAMB36 tiles (halves for RAMB18s) of a ``depth_words`` x ``width_bits`` memory:
    the cheapest aspect ratio, whole tiles side by side and stacked.  pyhls's on-chip
    memories have two read/write ports (``hls.rtl.InternalMemory``): true dual port, at
    most 36 bits wide per RAMB36 (18 per RAMB18); ``true_dual_port=False`` counts a
    simple dual-port memory (one write, one read port), which may be 72 bits wide."""
    if depth_words <= 0 or width_bits <= 0:
        return 0.0
    top = 36 if true_dual_port else 72

    def n(ratios, widest):
        return min(math.ceil(width_bits / w) * math.ceil(depth_words / d)
                   for d, w in ratios if w <= widest)
    return min(float(n(RAMB36, top)), n(RAMB18, top // 2) / 2)


@dataclass(frozen=True, slots=True)
class ShareOptions:
    enabled: bool = True


def _units(func: Function) -> dict:
    """Block -> the position of its top-level unit (module docstring)."""
    loops = find_loops(func)
    unit_of = {b: b for b in func.blocks}
    for lp in loops:
        if lp.parent is None:
            for b in lp.blocks:
                unit_of[b] = lp.header
    G = nx.DiGraph()
    order = {b: i for i, b in enumerate(func.blocks)}
    for b in func.blocks:
        G.add_node(unit_of[b])
        for s in b.successors:
            if unit_of[s] is not unit_of[b]:
                G.add_edge(unit_of[b], unit_of[s])
    pos = {u: i for i, u in enumerate(nx.lexicographical_topological_sort(G, key=order.get))}
    return {b: pos[unit_of[b]] for b in func.blocks}


def unit_cycles(func: Function, fs, loop_cost) -> list[tuple[int, int]]:
    """(start, end) cycles of each top-level unit of ``func`` run one after another from
    cycle 0 (block states; ``loop_cost(lp)``: one entry of an outermost loop)."""
    unit = _units(func)
    loops = {lp.header: lp for lp in find_loops(func) if lp.parent is None}
    cost: dict[int, float] = {}
    for b in func.blocks:
        p = unit[b]
        if p in cost:
            continue
        lp = next((x for x in loops.values() if b in x.blocks), None)
        if lp is not None:
            cost[p] = loop_cost(lp)
        else:
            only_br = len(b.ops) == 1 and b.ops[0].kind == "br"
            cost[p] = 0 if only_br else fs.blocks[b].length
    out, t = [], 0.0
    for p in range(len(cost)):
        out.append((round(t), round(t + cost[p])))
        t += cost[p]
    return out


def lifetimes(func: Function) -> dict[MemoryObject, tuple[int, int]]:
    """The span of top-level units (first, last) in which each memory of ``func`` is
    accessed (module docstring)."""
    unit = _units(func)
    out: dict[MemoryObject, tuple[int, int]] = {}
    for op in func.ops():
        mems = [op.mem] if op.mem is not None else []
        if op.kind == "call":
            mems += [m for _pp, m in op.attrs.get("ptr_args", [])]
        for m in mems:
            p = unit[op.block]
            lo, hi = out.get(m, (p, p))
            out[m] = (min(lo, p), max(hi, p))
    return out


def _candidates(module: Module, func: Function) -> list[MemoryObject]:
    tagged = {t for t in getattr(module, "ptr_tags", {}) or {}}
    out = []
    for m in func.memories:
        bits = m.depth_words * m.word_bytes * 8
        if (m.kind != "local" or m.readonly or m.async_read or m.bank is not None
                or m.whole is not None or bits <= MIN_BITS
                or (m.symbol is not None and m.symbol in tagged)):
            continue
        out.append(m)
    return out


def access_blocks(func: Function) -> dict[MemoryObject, set]:
    """The blocks in which each memory of ``func`` is accessed (a call that receives it
    accesses it in the call's block)."""
    out: dict[MemoryObject, set] = {}
    for op in func.ops():
        mems = [op.mem] if op.mem is not None else []
        if op.kind == "call":
            mems += [m for _pp, m in op.attrs.get("ptr_args", [])]
        for m in mems:
            out.setdefault(m, set()).add(op.block)
    return out


def _passed(func: Function) -> set:
    return {m for op in func.ops() if op.kind == "call"
            for _pp, m in op.attrs.get("ptr_args", [])}


def _group(mems: list[MemoryObject], life: dict, blocks: dict, fixed: set,
           ) -> list[list[tuple[MemoryObject, int]]]:
    """Memories of ``mems`` (one word width) with each array's word offset in its
    memory, minimising the sum of their tiles (module docstring)."""
    from ortools.sat.python import cp_model

    n = len(mems)
    width = 8 * mems[0].word_bytes
    depth = [m.depth_words for m in mems]
    top = sum(depth)
    q = 512                 # every aspect ratio's depth is a multiple: tiles(d) is exact
    table = [round(2 * bram36_tiles(k * q, width)) for k in range(-(-top // q) + 1)]
    live = [[not (life[a][1] < life[b][0] or life[b][1] < life[a][0]) for b in mems]
            for a in mems]
    md = cp_model.CpModel()
    x = {(i, g): md.NewBoolVar(f"x{i}_{g}") for i in range(n) for g in range(i + 1)}
    off = [md.NewIntVar(0, 0 if mems[i] in fixed else top - depth[i], f"o{i}")
           for i in range(n)]
    for i in range(n):
        md.AddExactlyOne(x[i, g] for g in range(i + 1))
    cost = []
    for g in range(n):
        members = range(g, n)
        d = md.NewIntVar(0, top, f"d{g}")
        k = md.NewIntVar(0, len(table) - 1, f"k{g}")
        c = md.NewIntVar(0, max(table), f"c{g}")
        md.Add(q * k >= d)
        md.AddElement(k, table, c)
        for i in members:
            md.Add(d >= off[i] + depth[i]).OnlyEnforceIf(x[i, g])
        xs, ys = [], []
        for i in members:
            # (lifetime x addresses) rectangles of one memory never overlap
            xs.append(md.NewOptionalFixedSizeIntervalVar(
                life[mems[i]][0], life[mems[i]][1] - life[mems[i]][0] + 1, x[i, g], f"t{i}_{g}"))
            ys.append(md.NewOptionalFixedSizeIntervalVar(off[i], depth[i], x[i, g],
                                                        f"a{i}_{g}"))
            for j in members:
                if j > i and live[i][j] and blocks.get(mems[i], set()) & blocks.get(mems[j], set()):
                    # live together and accessed in one block: not interface compatible
                    md.AddBoolOr([x[i, g].Not(), x[j, g].Not()])
        md.AddNoOverlap2D(xs, ys)
        cost.append(c)
    md.Minimize(sum(cost) * (top + 1) + sum(off))     # then the lowest offsets
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1           # deterministic
    solver.parameters.max_deterministic_time = 10.0
    status = solver.Solve(md)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return [[(m, 0)] for m in mems]
    groups: dict[int, list] = {}
    for i in range(n):
        g = next(g for g in range(i + 1) if solver.Value(x[i, g]))
        groups.setdefault(g, []).append((mems[i], solver.Value(off[i])))
    return list(groups.values())


def share_memories(module: Module, options: ShareOptions | None = None) -> list[dict]:
    """Share the local arrays of every function by lifetime (module docstring); returns
    report entries, one per function with candidates."""
    regions = set(getattr(module, "dataflow", []) or [])
    report = []
    for f in module.functions:
        if f.name in regions:
            continue
        cands = _candidates(module, f)
        if not cands:
            continue
        life = lifetimes(f)
        cands = [m for m in cands if m in life]
        by_width: dict[int, list] = {}
        for m in cands:
            by_width.setdefault(m.word_bytes, []).append(m)
        groups = []
        blocks, fixed = access_blocks(f), _passed(f)
        for wb in sorted(by_width):
            mems = sorted(by_width[wb], key=lambda m: (life[m][0], f.memories.index(m)))
            groups += (_group(mems, life, blocks, fixed) if len(mems) > 1
                       else [[(mems[0], 0)]])
        moved: dict[MemoryObject, tuple[MemoryObject, int]] = {}
        entries = []
        for grp in groups:
            grp = sorted(grp, key=lambda mo: (life[mo[0]][0], mo[1]))
            host = grp[0][0]
            width = 8 * host.word_bytes
            unshared = sum(bram36_tiles(m.depth_words, width) for m, _o in grp)
            depth = max(m.depth_words + o for m, o in grp)
            for m, o in grp:
                if m is not host or o:
                    moved[m] = (host, o)
            if len(grp) > 1:
                host.depth_words = depth
                host.init = bytes(depth * host.word_bytes)
            entries.append({"memory": host.name, "arrays": [m.name for m, _o in grp],
                            "offsets": {m.name: o for m, o in grp},
                            "depth_words": depth,
                            "width": width, "bram36": bram36_tiles(depth, width),
                            "bram36_unshared": unshared,
                            "lifetimes": {m.name: list(life[m]) for m, _o in grp}})
        if moved:
            _move(f, moved)
        report.append({"function": f.name, "groups": entries})
    _REPORTS[module] = report
    return report


def _move(func: Function, moved: dict) -> None:
    """Move every access of a key of ``moved`` to its (memory, word offset): the
    offset is added to a load's or store's word address (the arrays passed to calls
    stay at offset 0)."""
    for b in func.blocks:
        ops = []
        for op in b.ops:
            if op.mem is not None and op.mem in moved:
                host, o = moved[op.mem]
                op.attrs["mem"] = host
                if o:
                    w = host.addr_bits
                    a = op.operands[0]
                    kind = "zext" if a.width < w else "trunc"
                    if a.width != w:
                        a = Op(width=w, kind=kind, operands=[a], loc=op.loc, block=b)
                        ops.append(a)
                    a = Op(width=w, kind="add", operands=[a, Const(w, o)], loc=op.loc,
                           block=b)
                    ops.append(a)
                    op.operands = [a] + op.operands[1:]
            if op.kind == "call" and op.attrs.get("ptr_args"):
                op.attrs["ptr_args"] = [(pp, moved[m][0] if m in moved else m)
                                        for pp, m in op.attrs["ptr_args"]]
            ops.append(op)
        b.ops = ops
    gone = {m for m, (h, _o) in moved.items() if m is not h}
    func.memories = [m for m in func.memories if m not in gone]
