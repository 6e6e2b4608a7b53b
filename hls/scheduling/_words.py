"""Which accesses of one memory need an order: word addresses as ``forward-stores`` keys
them, shared by the block scheduler and the loop pipeliner."""

from __future__ import annotations

from ..analysis import AffineAnalysis
from ..ir import Block, Op


def word_keys(block: Block, ops: list[Op]) -> dict[Op, tuple]:
    """The word address of each load and store of ``block`` as ``forward-stores`` keys
    it (an affine form known in every bit, constants included, else the expression)."""
    from ..transforms._forward import _affine      # (hls.transforms imports this module)
    from ..transforms._loadcomb import _addr_key
    an, memo = AffineAnalysis(block), {}
    return {op: _affine(k) or k for op in ops if op.kind in ("load", "store")
            for k in [_addr_key(op.operands[0], memo, an)]}


def distinct_words(k1, k2) -> bool:
    """Two word-address keys that can never be equal: affine forms in the same terms
    whose constants differ modulo the address width (``a[4]`` and ``a[5]``; ``a[i]`` and
    ``a[i + 1]``)."""
    from ..transforms._forward import _distinct
    return _distinct(k1, k2)


def unordered(a: Op, c: Op, words: dict, two_stores: bool) -> bool:
    """Do accesses ``a`` then ``c`` of one memory need no order?  Yes when their words
    (``words``: :func:`word_keys`) are provably different, except for two stores unless
    ``two_stores`` (a store and a load of different words may share a step; two stores
    only where the schedule lets them)."""
    return (a in words and c in words and distinct_words(words[a], words[c])
            and (two_stores or not a.kind == c.kind == "store"))
