"""Analyses over the hls IR: the loop tree (natural loops) and trip counts."""

from ._deps import AffineAnalysis, MemDep, dependence_distance, memory_dependences
from ._loops import Loop, dominators, find_loops

__all__ = ["AffineAnalysis", "Loop", "MemDep", "dependence_distance", "dominators", "find_loops",
           "memory_dependences"]
