"""Analyses over the hls IR: the loop tree (natural loops) and trip counts."""

from ._loops import Loop, dominators, find_loops

__all__ = ["Loop", "dominators", "find_loops"]
