"""Store-to-load forwarding and dead stores within a block.

Unrolling copies a loop body that reads and writes memory: ``prod[i][j] += a * m2[k][j]``
over ``k`` and ``j``, unrolled fully, is a block of sixteen loads and sixteen stores of
four words of ``prod``, each word loaded again right after it was stored.  Each access
takes a port slot (a pipeline over ``i`` at II 16 with two ports), and each load waits for
the store before it.  LLVM's GVN and dead-store elimination would remove them, but they
run before pyhls unrolls.  The rewrite walks each block in order and keeps, per memory,
the words whose value it knows:

* an unguarded ``store`` of ``v`` to word ``a`` (lane ``l``, size ``s``) makes ``v`` the
  known value of ``(a, l, s)``; an unguarded ``load`` makes its own result the known value;
* a later unguarded load of a known ``(a, l, s)`` of the same width reads the known value
  instead (and is removed): no store between may have written those bytes;
* a store forgets every known word of its memory it may write: the same word (bytes that
  overlap) or a word not *provably distinct* (distinct: both addresses affine in the same
  terms, known in every bit, with constants that differ modulo the address width --
  ``base + 1`` and ``base + 2``; anything else may be equal);
* an unguarded store to ``(a, l, s)`` makes an earlier store to the same ``(a, l, s)`` dead
  (removed) when no load or call between may have read it; a guarded store is only a
  possible write: it forgets, and neither kills nor is known.

A ``call`` forgets everything and counts as a read of every pending store (the callee may
read or write any memory it is given or any global).  Memories are distinct storage, as
the memory dependence analysis assumes, except that in a function other than the top the
pointer parameters and globals may be windows on one another: there they are left alone.
``hls::stream`` memories (each access is a position of its own) are left alone.
"""

from __future__ import annotations

from ..analysis import AffineAnalysis
from ..ir import Block, Function, Op, replace_uses
from ._loadcomb import _addr_key


def forward_stores(func: Function, is_top: bool = False) -> int:
    """Forward and remove in every block of ``func``; returns how many loads and stores
    were removed.  ``is_top``: ``func`` is the top, whose pointer parameters are distinct
    storage."""
    n = 0
    for b in func.blocks:
        n += _block(func, b, is_top)
    return n


def tracked_memory(op: Op, is_top: bool) -> bool:
    """Whether the passes that reason about memory contents (this one, ``known-stores``)
    may treat ``op``'s memory as distinct storage: not an ``hls::stream``, and outside the
    top not a pointer parameter or global (windows on one another there)."""
    m = op.mem
    return not m.stream and (is_top or m.kind not in ("arg", "global"))


def _affine(k):
    """A word-address key as an affine one (a constant is one with no terms), or None."""
    if k[0] == "c":
        return ("affine", k[1], (), k[2])
    return k if k[0] == "affine" else None


def _distinct(k1, k2) -> bool:
    """Two word-address keys (``_addr_key``, constants as affine forms) that can never
    be equal."""
    if k1[0] != "affine" or k2[0] != "affine":
        return False
    (_, w1, t1, c1), (_, w2, t2, c2) = k1, k2
    return w1 == w2 and t1 == t2 and (c1 - c2) % (1 << w1) != 0


def _overlap(l1: int, s1: int, l2: int, s2: int) -> bool:
    return l1 < l2 + s2 and l2 < l1 + s1


class _Word:
    __slots__ = ("key", "lane", "size", "value", "store", "read")

    def __init__(self, key, lane, size, value, store):
        self.key, self.lane, self.size, self.value, self.store = key, lane, size, value, store
        self.read = False     # a load or call since ``store`` may have read it


def _block(func: Function, b: Block, is_top: bool) -> int:
    an = AffineAnalysis(b)
    memo: dict = {}
    known: dict = {}              # memory -> [_Word]: the words whose value is known
    pending: dict = {}            # memory -> [_Word]: unguarded stores not yet read
    dead: set = set()
    replace: dict = {}

    def may_alias(w: _Word, key, lane, size) -> bool:
        if w.key == key:
            return _overlap(w.lane, w.size, lane, size)
        return not _distinct(w.key, key)

    for op in b.ops:
        if op.kind == "call":
            known.clear()
            pending.clear()
            continue
        if op.kind not in ("load", "store") or not tracked_memory(op, is_top):
            continue
        mem = op.mem
        key = _addr_key(op.operands[0], memo, an)
        key = _affine(key) or key          # a constant address as an affine form
        lane, size = op.attrs["lane"], op.attrs["size"]
        guarded = "guard" in op.attrs
        words = known.setdefault(mem, [])
        if op.kind == "load":
            hit = None if guarded else next(
                (w for w in words if w.key == key and w.lane == lane and w.size == size
                 and w.value.width == op.width), None)
            if hit is not None:       # the value is known: the load reads no memory
                replace[op] = replace.get(hit.value, hit.value)
                dead.add(op)
                continue
            for w in pending.get(mem, []):
                if may_alias(w, key, lane, size):
                    w.read = True
            if not guarded:
                words.append(_Word(key, lane, size, op, None))
            continue
        # a store: what it may write is no longer known
        known[mem] = [w for w in words if not may_alias(w, key, lane, size)]
        if guarded:
            continue
        stores = pending.setdefault(mem, [])
        for w in stores:
            if not w.read and w.key == key and w.lane == lane and w.size == size:
                dead.add(w.store)
        pending[mem] = [w for w in stores if w.store not in dead
                        and not may_alias(w, key, lane, size)]
        word = _Word(key, lane, size, op.operands[1], op)
        known[mem].append(word)
        pending[mem].append(word)
    if not dead:
        return 0
    b.ops = [op for op in b.ops if op not in dead]
    replace_uses(func, replace)
    return len(dead)
