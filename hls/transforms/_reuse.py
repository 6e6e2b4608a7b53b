"""Load reuse (predictive commoning): in a single-block loop that does not write a memory,
a word loaded at offset ``c + d`` in iteration ``t`` is loaded again at offset ``c`` in
iteration ``t + 1``; the later load reads a register instead.

The stencil ``b[j] = a[j - 1] + a[j] + a[j + 1]`` loads three words of ``a`` per
iteration and, with two ports per memory, a pipelined loop over ``j`` starts an
iteration every 2 cycles at best; ``a[j]`` of iteration ``t`` is ``a[j + 1]`` of
``t - 1`` and ``a[j - 1]`` is ``a[j + 1]`` of ``t - 2``.  For a loop block ``B`` with one
predecessor outside the loop (``P``) and one exit:

* a memory ``M`` with no store in ``B`` (and no call in ``B``: a callee could write it),
  not a pointer parameter of a function other than the top (two of those may be windows
  on one caller array, as scalar replacement assumes);
* its unguarded loads of one lane, size and width whose word addresses are affine in the
  iteration number ``t`` (:class:`hls.analysis.AffineAnalysis`, known in every bit of the
  address): ``addr = base + a * t + c`` with one loop-invariant ``base`` and one stride
  ``a != 0``, and constants ``c`` differing by multiples of ``a`` -- a *chain* of loads at
  offsets ``c0 + k * a`` (``k = kmin .. kmax``, at most :data:`MAX_SPAN` apart);
* the loads at ``kmax`` stay; each ``k < kmax`` becomes a register (a phi) ``r_k`` whose
  value in iteration ``t + 1`` is ``r_{k+1}`` of iteration ``t`` (``r_kmax``: the kept
  load), and whose value on entry is a load, before the loop, of the iteration-0 address
  of offset ``k``: the kept load's address computed again before the loop (its operation
  cone with each loop phi replaced by its value from ``P``) plus ``(k - kmax) * a``.  The
  loads before the loop go at the end of ``P`` when ``B`` is its only successor, else in
  a new block on the edge ``P -> B``, so they run only when the loop is entered; the loop
  block runs at least once per entry, and its first iteration loads offsets ``kmin`` and
  ``kmax`` (unguarded), so every address in between is a word of ``M`` too.

By induction ``r_k`` holds ``M[base + a * t + c0 + k * a]`` in iteration ``t`` (``M`` does
not change while the loop runs): the loop now loads ``kmax - kmin`` fewer words per
iteration for ``kmax - kmin`` registers.  Loop-invariant addresses (``a == 0``) are
scalar replacement's business.

The canonicaliser often carries one such word itself (``a[j]`` of ``a[j - 1] + a[j] +
a[j + 1]``: a phi whose back-edge value is the load of ``a[j + 1]`` and whose entry value
is a load of the first ``a[j]`` before the loop).  A phi whose back-edge value is a load
of the chain at offset ``k`` and whose entry value is a load of ``M`` in ``P`` (no store
to ``M`` or call after it there) at the iteration-0 address of offset ``k - 1`` (equal
affine forms over the values computed before the loop) serves as ``r_{k-1}``.

A memory's chains are rewritten only where its accesses per iteration fall below a
multiple of its ports (``ceil(accesses / ports)``, the bound they put on a pipelined
loop's II, falls): otherwise the loads before the loop cost cycles on every entry of the
loop and the registers area, for nothing (``always``: regardless, for tests).
"""

from __future__ import annotations

from ..analysis import AffineAnalysis, find_loops
from ..analysis._deps import JKEY, _norm
from ..ir import Block, Const, Function, Op, op_def, replace_uses
from ..targets import MEMORY
from ._scalars import _edge_block

#: the most registers one chain may take (offsets kmin .. kmax - 1)
MAX_SPAN = 8


def reuse_loads(func: Function, is_top: bool = False, always: bool = False) -> int:
    """Rewrite the qualifying chains of loads of every single-block loop of ``func``;
    returns how many loads became registers.  ``is_top``: ``func`` is the top, whose
    pointer parameters are port sets of their own (distinct storage).  ``always``: also
    when the loop's port bound for the memory stays (tests)."""
    n = 0
    for lp in find_loops(func):
        if len(lp.blocks) == 1:
            n += _reuse(func, lp.header, is_top, always)
    return n


def _profitable(b: Block, chains: list[tuple]) -> list[tuple]:
    """The chains of the memories whose port bound ``ceil(accesses / ports)`` in ``b``
    falls when they are rewritten (see the module docstring)."""
    saved: dict = {}
    for mem, ch, _a, _w in chains:
        saved[mem] = saved.get(mem, 0) + sum(len(ch[k]) for k in ch if k != max(ch))
    keep = set()
    for mem, r in saved.items():
        n = sum(1 for op in b.ops if op.kind in ("load", "store") and op.mem is mem)
        if -(-n // MEMORY.ports) > -(-(n - r) // MEMORY.ports):
            keep.add(mem)
    return [c for c in chains if c[0] in keep]


def _signed(v: int, w: int) -> int:
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v


def _chains(b: Block, is_top: bool) -> list[tuple]:
    """The chains of loads of ``b`` that can be rewritten: (memory, {k: [loads at offset
    k]}, stride a (signed, in words), address width)."""
    an = AffineAnalysis(b)
    stored = {op.mem for op in b.ops if op.kind == "store"}
    buckets: dict = {}
    for op in b.ops:
        if op.kind != "load" or "guard" in op.attrs or op.mem in stored:
            continue
        mem = op.mem
        if mem.kind == "arg" and not is_top:
            continue
        addr = op.operands[0]
        w = addr.width
        f = an.form(addr)
        if f is None or f.bits < w or w < 2:
            continue
        a = _signed(f.coeff(JKEY), w)
        if a == 0:
            continue
        sym = tuple((k, c) for k, c in f.terms if k is not JKEY)
        key = (id(mem), op.attrs["lane"], op.attrs["size"], op.width, w, a,
               tuple((id(k), c) for k, c in sym))
        buckets.setdefault(key, (mem, sym, []))[2].append((f.const, op))
    out = []
    for key, (mem, _sym, loads) in buckets.items():
        w, a = key[4], key[5]
        chains: list[tuple[int, dict]] = []   # (reference const, {k: loads})
        for c, op in loads:
            for ref, ch in chains:
                diff = _signed(c - ref, w)
                if diff % a == 0 and abs(diff // a) <= MAX_SPAN:
                    ch.setdefault(diff // a, []).append(op)
                    break
            else:
                chains.append((c, {0: [op]}))
        for ch in (part for _ref, whole in chains for part in _split(whole)):
            kmin, kmax = min(ch), max(ch)
            if kmax == kmin or kmax - kmin > MAX_SPAN:
                continue
            if len(ch) < kmax - kmin + 1:
                # a gap: its words are loaded before the loop only; they lie between
                # two words of M when neither address computation wrapped around
                lim = 1 << (w - 2)
                if mem.depth_words > lim or (kmax - kmin) * abs(a) >= lim:
                    continue
            out.append((mem, ch, a, w))
    return out


def _split(ch: dict) -> list[dict]:
    """``ch`` ({k: loads}) cut at its widest gaps until each part spans at most
    :data:`MAX_SPAN`: rows ``g[i - 1][j]``, ``g[i][j - 1 .. j + 1]``, ``g[i + 1][j]`` of
    one base (their row addresses seen through, :class:`AffineAnalysis`) are three
    chains, not one too long to keep."""
    ks = sorted(ch)
    if ks[-1] - ks[0] <= MAX_SPAN:
        return [ch]
    cut = max(range(1, len(ks)), key=lambda i: (ks[i] - ks[i - 1], -i))
    return [part for side in (ks[:cut], ks[cut:]) for part in _split({k: ch[k] for k in side})]


class _Anywhere(AffineAnalysis):
    """Affine forms through the pure ops of every block, each phi, load or op the forms
    do not model being a symbol of its own: two addresses computed before the loop are
    equal when their forms are (every bit known)."""

    def __init__(self) -> None:  # noqa: D107 -- no loop block, no induction phis
        self.block = None
        self.memo = {}
        self.residuals = {}
        self.step = {}

    def _form(self, v):
        if isinstance(v, Op) and v.kind != "phi":
            self.block = v.block     # analysed, not a symbol (see AffineAnalysis._form)
            f = super()._form(v)
            if f is not None:
                return f
        elif not isinstance(v, Op):
            return super()._form(v)  # a constant, or a parameter (a symbol)
        return _norm({v: 1}, 0, v.width)


def _same_word(flat: _Anywhere, x, kept: Op, base, off: int, w: int, home: Block) -> bool:
    """Is ``x`` (a phi's value from before the loop) a load of the word at ``base + off``
    of ``kept``'s memory, in ``home`` (the loop's predecessor, at whose end ``base`` is
    computed) with no store to that memory (or call) after it?"""
    if not (isinstance(x, Op) and x.kind == "load" and "guard" not in x.attrs
            and x.block is home and x.mem is kept.mem and x.width == kept.width
            and x.operands[0].width == w
            and all(x.attrs[k] == kept.attrs[k] for k in ("lane", "size"))):
        return False
    if any(o.kind == "call" or (o.kind == "store" and o.mem is x.mem)
           for o in home.ops[home.ops.index(x) + 1:]):
        return False
    fx, fb = flat.form(x.operands[0]), flat.form(base)
    if fx is None or fb is None or fx.bits < w or fb.bits < w:
        return False
    if len(fx.terms) != len(fb.terms) or any(
            kx is not kb or cx != cb for (kx, cx), (kb, cb) in zip(fx.terms, fb.terms)):
        return False
    return (fx.const - fb.const - off) % (1 << w) == 0


def _reuse(func: Function, b: Block, is_top: bool, always: bool) -> int:
    t = b.terminator
    if t.kind != "condbr" or (t.targets[0] is b) == (t.targets[1] is b):
        return 0
    if any(op.kind == "call" for op in b.ops):
        return 0
    outside = [p for p in func.predecessors()[b] if p is not b]
    if len(outside) != 1:
        return 0
    chains = _chains(b, is_top)
    if not always:
        chains = _profitable(b, chains)
    if not chains:
        return 0
    home = pre = outside[0]
    if pre.successors != [b]:
        pre = _edge_block(func, pre, b, f"{b.name}_pre")
    existing = b.phis
    flat = _Anywhere()
    clone: dict = {}
    placed: list[Op] = []
    new_phis: list[Op] = []
    replace: dict = {}
    n = 0

    def place(op: Op) -> Op:
        op.block = pre
        pre.ops.insert(len(pre.ops) - 1, op)
        placed.append(op)
        return op

    def entry_value(v):
        """``v`` (an address operand in ``b``) in iteration 0, computed in ``pre``."""
        if not isinstance(v, Op) or v.block is not b:
            return v
        if v in clone:
            return clone[v]
        if v.kind == "phi":
            (x,) = [x for p, x in v.incoming if p is pre]
            clone[v] = x
            return x
        assert op_def(v.kind).pure and not v.is_terminator, v.kind
        c = Op(width=v.width, kind=v.kind, operands=[entry_value(o) for o in v.operands],
               attrs=dict(v.attrs), loc=v.loc)
        clone[v] = place(c)
        return c

    for _mem, ch, a, w in chains:
        kmin, kmax = min(ch), max(ch)
        kept = min(ch[kmax], key=b.ops.index)
        base = entry_value(kept.operands[0])
        attrs = {k: kept.attrs[k] for k in ("mem", "lane", "size")}
        # phis the canonicaliser made already (``x = a[j + 1]; ...; prev = x``): a phi
        # whose back-edge value is a load at offset k and whose value on entry is the
        # word at offset k - 1 of iteration 0 is the register of offset k - 1
        have: dict[int, Op] = {}
        for p in existing:
            back = [v for q, v in p.incoming if q is b]
            init = [v for q, v in p.incoming if q is not b]
            if len(back) != 1 or len(init) != 1:
                continue
            ky = next((k for k, ops in ch.items() if back[0] in ops), None)
            if ky is None or not kmin <= ky - 1 < kmax or ky - 1 in have:
                continue
            if _same_word(flat, init[0], kept, base, (ky - 1 - kmax) * a, w, home):
                have[ky - 1] = p
        nxt = kept
        for k in range(kmax - 1, kmin - 1, -1):
            reg = have.get(k)
            if reg is None:
                addr = base
                if k != kmax:
                    addr = place(Op(width=w, kind="add",
                                    operands=[base, Const(w, (k - kmax) * a)], loc=kept.loc))
                init = place(Op(width=kept.width, kind="load", operands=[addr],
                                attrs=dict(attrs), loc=kept.loc))
                reg = Op(width=kept.width, kind="phi", loc=kept.loc)
                reg.block = b
                reg.incoming = [(pre, init), (b, nxt)]
                new_phis.append(reg)
            for op in ch.get(k, ()):
                replace[op] = reg
                n += 1
            nxt = reg
    np = len(existing)
    b.ops = b.ops[:np] + new_phis + [op for op in b.ops[np:] if op not in replace]
    replace_uses(func, replace)
    _drop_unused(func, pre, placed)
    return n


def _drop_unused(func: Function, pre: Block, placed: list[Op]) -> None:
    """Remove the address ops placed in ``pre`` that nothing uses (every register of
    their chain was there already)."""
    uses: dict[int, int] = {}
    for op in func.ops():
        for v in list(op.operands) + [v for _, v in op.incoming]:
            uses[id(v)] = uses.get(id(v), 0) + 1
    for op in reversed(placed):
        if uses.get(id(op), 0) == 0:
            pre.ops.remove(op)
            for v in op.operands:
                uses[id(v)] -= 1
