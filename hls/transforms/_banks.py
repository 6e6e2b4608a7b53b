"""Array partitioning: one array becomes ``factor`` banks with two ports each.

A pipelined loop that makes ``n`` accesses per iteration to one dual-port memory cannot
start iterations more often than every ``ceil(n / 2)`` cycles.  Partitioning spreads the
words over banks (Vitis HLS ``ARRAY_PARTITION``):

* ``cyclic`` (factor F): word ``w`` is word ``w // F`` of bank ``w % F``;
* ``block`` (factor F): bank ``b`` holds the ``b``-th run of ``ceil(depth / F)`` words;
* ``complete``: cyclic with one word per bank.

Each access is rewritten against the banks.  When the bank is known at compile time the
access goes to that bank only: the word address is then affine in the loop's iteration
with every non-constant coefficient a multiple of F (``a[4*i + 1]``, the fields of
``r[i]`` of a 2-word struct), or a constant, or in a single-block loop every word the
access touches in every iteration, enumerated (:class:`hls.analysis.Enumeration`: an
FFT's butterflies with the stage loop unrolled), lies in one bank.  Otherwise the access goes to every bank,
guarded by ``bank == b`` (a load reads all banks and selects; a store writes one of
them): still correct, never faster.

The decision is per array: a directive (``[[array]]`` in the directives file) or, for
pipelined loops whose II is held above the recurrence bound by the ports of one memory,
automatically (:func:`auto_partition_plan`): the smallest power-of-two cyclic factor
that brings that memory's port bound down to the loop's other bounds, using the static
bank of every access of the loop.  Arrays passed to a non-inlined call, used by more
than one function or served by an AXI master are not partitioned.

Banks of a top-level argument or of an external global have port sets of their own
(``A_0_address0`` ...); :class:`hls.ir.Bank` says which words of the whole array each
holds, and co-simulation splits and merges the array contents accordingly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..analysis import (AffineAnalysis, Enumeration, dominators, extent_trip_bound, find_loops,
                        low_bits, window_memories)
from ..analysis._deps import JKEY, _term_zeros
from ..errors import HLSError
from ..ir import Bank, Block, Const, Function, MemoryObject, Module, Op, add_guard, replace_uses
from ..targets import MEMORY

__all__ = ["Partition", "partition_array", "static_bank", "auto_partition_plan",
           "partitionable"]

KINDS = ("cyclic", "block", "complete")
MEM_PORTS = MEMORY.ports


@dataclass(frozen=True)
class Partition:
    kind: str          # cyclic | block | complete
    factor: int = 0    # banks (complete: the depth)
    #: cyclic: runs of this many consecutive words are dealt out (:class:`hls.ir.Bank`)
    granule: int = 1

    def banks(self, depth_words: int) -> int:
        if self.kind == "complete":
            return depth_words
        return min(self.factor, -(-depth_words // self.granule))

    def __str__(self) -> str:
        s = self.kind if self.kind == "complete" else f"{self.kind} factor {self.factor}"
        return s + (f" in runs of {self.granule} words" if self.granule != 1 else "")


def _users(module: Module, mem: MemoryObject) -> tuple[set[Function], list[str]]:
    """Functions accessing ``mem`` and reasons it cannot be partitioned."""
    users: set[Function] = set()
    why: list[str] = []
    for f in module.functions:
        for op in f.ops():
            if op.kind in ("load", "store") and op.mem is mem:
                users.add(f)
            if op.kind == "call" and any(m is mem for _, m, _ in op.call_ptr_args()):
                why.append(f"it is passed to the non-inlined function {op.attrs['callee'].name}")
        for p in f.ptr_params:
            if p.mem is mem and f is not module.top:
                why.append(f"it is a pointer parameter of the non-inlined function {f.name}")
    if len(users) > 1:
        why.append("it is used by more than one hardware function ("
                   + ", ".join(sorted(u.name for u in users)) + ")")
    return users, why


def partitionable(module: Module, mem: MemoryObject) -> list[str]:
    """Why ``mem`` cannot be partitioned ([] when it can)."""
    if mem.bank is not None:
        return ["it is partitioned already"]
    if mem.depth_words < 2:
        return ["it holds a single word"]
    return _users(module, mem)[1]


def _pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def static_bank(an: AffineAnalysis, addr, part: Partition, depth_words: int,
                trip: int | None = None) -> int | None:
    """The bank every execution of an access with word address ``addr`` hits, when the
    affine form of the address tells (None: it depends on run-time values).

    With a granule ``g`` (runs of ``g`` words dealt out), the bank is bits
    ``[log g, log g + log banks)`` of the address.  Terms that are multiples of
    ``g * banks`` do not move it; a term of the iteration number ``j`` (``trip``
    iterations: ``0 <= j < trip``) that stays within the run the constant part starts
    in does not either (``A[k][j]`` partitioned on its first dimension, ``k`` constant
    after unrolling, ``j`` the loop's counter running along a row)."""
    nb = part.banks(depth_words)
    g = part.granule
    if isinstance(addr, Const):
        w = addr.value
        if part.kind == "block":
            return min(w // Bank("block", nb, 0, depth_words).block_words, nb - 1)
        return (w // g) % nb
    if part.kind == "block":
        return _block_bank(an.form(addr), nb, depth_words, trip)
    if not _pow2(nb) or not _pow2(g):
        return None
    a = an.form(addr)
    if a is None:
        return None
    lg, k = g.bit_length() - 1, (g * nb).bit_length() - 1
    if g == 1:
        return low_bits(a, k)
    if k > a.bits:
        return None
    # the terms that may move the address within a run: the iteration number's only
    span = _iteration_span([(key, c) for key, c in a.terms
                            if _term_zeros(key, c, a.bits) < k], a.bits, trip)
    if span is None:
        return None
    base = a.const % (1 << k)
    if not (0 <= base % g + span[0] and base % g + span[1] < g):
        return None
    return base >> lg


def _iteration_span(terms, bits: int, trip: int | None) -> tuple[int, int] | None:
    """(least, greatest) of the sum of ``terms`` (``(key, coefficient)`` of an affine
    form known modulo ``2**bits``) over the iterations ``0 <= j < trip``, when they are
    all terms of the iteration number ``j`` (None: another symbol, or no known trip)."""
    lo = hi = 0
    for key, c in terms:
        if key != JKEY or trip is None or trip < 1:
            return None
        c = c - (1 << bits) if c >= 1 << (bits - 1) else c
        lo, hi = lo + min(0, c * (trip - 1)), hi + max(0, c * (trip - 1))
    return lo, hi


def _block_bank(a, nb: int, depth_words: int, trip: int | None) -> int | None:
    """The bank of a block partition every execution hits: the address is ``c + s*j``
    with ``j`` the iteration number (``0 <= j < trip``) and both ends of its range in one
    block (``buf[i]`` and ``buf[2N-1-i]`` over ``i < N``, two blocks of ``N``)."""
    span = _iteration_span(a.terms, a.bits, trip) if a is not None else None
    if span is None:
        return None
    lo, hi = a.const + span[0], a.const + span[1]
    if lo < 0 or hi >= min(depth_words, 1 << a.bits):
        return None
    size = Bank("block", nb, 0, depth_words).block_words
    first, last = min(lo // size, nb - 1), min(hi // size, nb - 1)
    return first if first == last else None


def _insert(block: Block, before: Op, op: Op) -> Op:
    op.block = block
    block.ops.insert(block.ops.index(before), op)
    return op


def _split_address(block: Block, at: Op, addr, part: Partition, nb: int, depth: int,
                   need_bank: bool):
    """(bank number, word within the bank) of ``addr`` as IR values inserted before
    ``at`` (the bank number only when ``need_bank``)."""
    w = addr.width
    loc = at.loc
    if part.granule != 1:
        bank, local = _split_runs(addr, part.granule, nb, loc)
        _insert_value(block, at, local)
        if need_bank:
            _insert_value(block, at, bank)
        return bank, local
    size = Bank("block", nb, 0, depth).block_words if part.kind == "block" else nb
    if _pow2(size):
        k = size.bit_length() - 1
        if k == 0:
            quot, rem = addr, Const(1, 0)
        else:
            quot = (Op(width=w - k, kind="slice", operands=[addr], attrs={"lo": k}, loc=loc)
                    if w > k else Const(1, 0))
            rem = Op(width=min(k, w), kind="slice", operands=[addr], attrs={"lo": 0}, loc=loc)
    else:
        c = Const(w, size)
        quot = Op(width=w, kind="udiv", operands=[addr, c], loc=loc)
        rem = Op(width=w, kind="urem", operands=[addr, c], loc=loc)
    bank, local = (quot, rem) if part.kind == "block" else (rem, quot)
    _insert_value(block, at, local)
    if need_bank:
        _insert_value(block, at, bank)
    return bank, local


def _split_runs(addr, g: int, nb: int, loc):
    """(bank, word within the bank) of ``addr`` when runs of ``g`` words are dealt out
    cyclically to ``nb`` banks: run ``u = addr // g`` is run ``u // nb`` of bank
    ``u % nb``.  The ops are returned uninserted (:func:`_insert_value` inserts them
    with their operands).""" 
    w = addr.width
    if _pow2(g) and _pow2(nb):
        lg, lb = g.bit_length() - 1, nb.bit_length() - 1
        low = Op(width=min(lg, w), kind="slice", operands=[addr], attrs={"lo": 0}, loc=loc)
        bank = (Op(width=min(lb, w - lg), kind="slice", operands=[addr], attrs={"lo": lg},
                   loc=loc) if w > lg else Const(1, 0))
        if w <= lg + lb:
            return bank, low
        high = Op(width=w - lg - lb, kind="slice", operands=[addr], attrs={"lo": lg + lb},
                  loc=loc)
        return bank, Op(width=w - lb, kind="concat", operands=[low, high], loc=loc)
    run = Op(width=w, kind="udiv", operands=[addr, Const(w, g)], loc=loc)
    low = Op(width=w, kind="urem", operands=[addr, Const(w, g)], loc=loc)
    bank = Op(width=w, kind="urem", operands=[run, Const(w, nb)], loc=loc)
    inner = Op(width=w, kind="udiv", operands=[run, Const(w, nb)], loc=loc)
    start = Op(width=w, kind="mul", operands=[inner, Const(w, g)], loc=loc)
    return bank, Op(width=w, kind="add", operands=[start, low], loc=loc)


def _enumerated_bank(enum: Enumeration, op: Op, part: Partition, depth: int) -> int | None:
    """The bank of ``op`` when every word it touches in every iteration of every entry
    (:class:`hls.analysis.Enumeration`) lies in one bank (None: several, or none)."""
    words = enum.words(op)
    if words is None:
        return None
    banks = {static_bank(None, Const(64, w), part, depth)
             for ws in words for w in ws if w is not None}
    return banks.pop() if len(banks) == 1 else None


def _insert_value(block: Block, at: Op, v) -> None:
    """Insert ``v`` before ``at``, after those of its operands not inserted yet."""
    if isinstance(v, Op) and v.block is None:
        for o in v.operands:
            _insert_value(block, at, o)
        _insert(block, at, v)


def _block_trips(f: Function) -> dict[Block, int]:
    """The constant trip counts of ``f``'s single-block loops, by block."""
    return {lp.header: lp.trip_count for lp in find_loops(f)
            if lp.blocks == [lp.header] and lp.trip_count is not None}


def _record_extent_bounds(f: Function, loops, mem: MemoryObject, windows: set) -> None:
    """Record on each loop's back-edge branch the trip bound that an access of ``mem``
    gives (:func:`hls.analysis.extent_trip_bound`) before the rewrite splits that access
    into guarded bank accesses, which give none; the tighter of two bounds is kept.  Only
    loops without a constant trip count: nothing reads the bound of the others."""
    idom = None
    for lp in loops:
        if len(lp.latches) != 1 or lp.trip_count is not None:
            continue
        idom = idom if idom is not None else dominators(f)
        ext = extent_trip_bound(f, lp, windows, idom)
        if ext is None or ext.memory != mem.name:
            continue
        t = lp.latches[0].terminator
        old = t.attrs.get("extent_bound")
        if old is None or old[0] != lp.header.name or ext.trips < old[1]:
            t.attrs["extent_bound"] = ext.as_attr(lp.header.name)


def partition_array(module: Module, mem: MemoryObject, part: Partition) -> list[Function]:
    """Split ``mem`` into banks and rewrite its accesses; returns the functions whose
    accesses were rewritten (in module order)."""
    if part.kind not in KINDS:
        raise HLSError(f"partition kind must be one of {', '.join(KINDS)}, not "
                       f"'{part.kind}'")
    if part.kind != "complete" and part.factor < 2:
        raise HLSError(f"partition factor must be >= 2, not {part.factor}")
    why = partitionable(module, mem)
    if why:
        raise HLSError(f"array '{mem.name}' cannot be partitioned: {why[0]}")
    users, _ = _users(module, mem)
    depth = mem.depth_words
    nb = part.banks(depth)
    if nb > 1024:
        raise HLSError(f"partitioning '{mem.name}' into {nb} banks is too many "
                       "(at most 1024)")
    kind = "cyclic" if part.kind == "complete" else part.kind
    banks: list[MemoryObject] = []
    for b in range(nb):
        info = Bank(kind, nb, b, depth, part.granule if kind == "cyclic" else 1)
        words = info.words()
        init = info.view(mem.init, mem.word_bytes) if mem.init is not None else None
        banks.append(MemoryObject(
            name=f"{mem.name}_{b}", kind=mem.kind, word_bytes=mem.word_bytes,
            depth_words=max(1, len(words)), elem_bytes=mem.elem_bytes, init=init,
            readonly=mem.readonly, writeonly=mem.writeonly, arg_index=mem.arg_index,
            loc=mem.loc, symbol=mem.symbol, float_bits=mem.float_bits, bank=info, whole=mem,
            async_read=mem.async_read))
    eff = Partition(kind, nb, part.granule if kind == "cyclic" else 1)
    windows = window_memories(module)
    for f in users:
        trips = _block_trips(f) if eff.granule != 1 or kind == "block" else {}
        loops = None
        if any(o.kind in ("load", "store") and o.mem is mem and not isinstance(o.operands[0], Const)
               for b in f.blocks for o in b.ops):
            loops = {lp.header: lp for lp in find_loops(f)}
            _record_extent_bounds(f, loops.values(), mem, windows)
        for block in f.blocks:
            an = AffineAnalysis(block)
            accs = [o for o in block.ops if o.kind in ("load", "store") and o.mem is mem]
            sbs = [static_bank(an, o.operands[0], eff, depth, trips.get(block)) for o in accs]
            if any(sb is None and not isinstance(o.operands[0], Const)
                   for o, sb in zip(accs, sbs)):
                if loops is None:
                    loops = {lp.header: lp for lp in find_loops(f)}
                lp = loops.get(block)
                enum = Enumeration(lp) if lp is not None and lp.blocks == [block] else None
                if enum is not None and enum.ok:
                    sbs = [sb if sb is not None else _enumerated_bank(enum, o, eff, depth)
                           for o, sb in zip(accs, sbs)]
            for op, sb in zip(accs, sbs):
                addr = op.operands[0]
                bank_no, local = _split_address(block, op, addr, eff, nb, depth, sb is None)
                if sb is not None:
                    op.attrs["mem"] = banks[sb]
                    op.operands[0] = local
                    continue
                copies = []
                for b in range(nb):
                    cp = Op(width=op.width, kind=op.kind, operands=[local] + op.operands[1:],
                            attrs=dict(op.attrs, mem=banks[b]), loc=op.loc)
                    sel = _insert(block, op, Op(width=1, kind="icmp", operands=[
                        bank_no, Const(bank_no.width, b)], attrs={"pred": "eq"}, loc=op.loc))
                    _insert(block, op, cp)
                    add_guard(cp, sel, lambda a, cp=cp: _insert(block, cp, a))
                    copies.append((sel, cp))
                if op.kind == "load":
                    res = copies[-1][1]
                    for sel, cp in reversed(copies[:-1]):
                        res = _insert(block, op, Op(width=op.width, kind="select",
                                                    operands=[sel, cp, res], loc=op.loc))
                    replace_uses(f, {op: res})
                block.ops.remove(op)
        if mem in f.memories:
            i = f.memories.index(mem)
            f.memories[i:i + 1] = banks
        for p in f.ptr_params:
            if p.mem is mem:
                p.banks = banks
    if mem in module.globals:
        i = module.globals.index(mem)
        module.globals[i:i + 1] = banks
    return [f for f in module.functions if f in users]


# ------------------------------------------------------------------ automatic choice


def _bank_bound(accesses: list[Op], part: Partition, depth: int, an: AffineAnalysis) -> int:
    """ceil(max accesses per bank / ports) for the accesses of one loop body: an access
    with a static bank uses that bank, any other one a port of every bank."""
    nb = part.banks(depth)
    count = [0] * nb
    for op in accesses:
        b = static_bank(an, op.operands[0], part, depth)
        if b is None:
            count = [c + 1 for c in count]
        else:
            count[b] += 1
    return math.ceil(max(count) / MEM_PORTS)


def auto_partition_plan(module: Module, schedules: dict, exclude: set) -> dict:
    """{memory: Partition} for memories whose ports hold a pipelined loop's II above its
    other bounds (recurrence, other memories): the smallest power-of-two cyclic factor
    that brings every such loop to its best bound, over all pipelined loops using it."""
    # per memory: (accesses of one loop, the loop's other bound, its affine analysis)
    uses: dict[MemoryObject, list[tuple[list[Op], int, AffineAnalysis]]] = {}
    held: set = set()
    for f in module.functions:
        for block, lp in schedules[f].pipelines.items():
            acc: dict[MemoryObject, list[Op]] = {}
            for op in block.ops:
                if op.kind in ("load", "store"):
                    acc.setdefault(op.mem, []).append(op)
            port = {m: math.ceil(len(a) / MEM_PORTS) for m, a in acc.items()}
            an = AffineAnalysis(block)
            for mem, n in port.items():
                others = max([lp.rec_mii, 1] + [v for m, v in port.items() if m is not mem])
                uses.setdefault(mem, []).append((acc[mem], others, an))
                if n > others and lp.ii > lp.rec_mii:
                    held.add(mem)
    plan: dict[MemoryObject, Partition] = {}
    for mem in uses:
        if mem not in held or mem in exclude or partitionable(module, mem):
            continue

        def cost(factor: int) -> int:  # factor 1: the whole array, one bank
            part = Partition("cyclic", factor)
            return sum(max(others, _bank_bound(a, part, mem.depth_words, an))
                       for a, others, an in uses[mem])

        base, best, factor = cost(1), None, 2
        while factor <= min(64, mem.depth_words):
            c = cost(factor)
            if c < base and (best is None or c < best[0]):
                best = (c, factor)
            factor *= 2
        if best is not None:
            plan[mem] = Partition("cyclic", best[1])
    return plan
