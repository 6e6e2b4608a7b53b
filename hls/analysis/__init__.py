"""Analyses over the hls IR: the loop tree (natural loops) and trip counts, affine memory
dependences, and the in-order proof of AXI4-Stream arguments."""

from ._deps import (AffineAnalysis, Enumeration, MemDep, dependence_distance, low_bits, memory_dependences,
                    trailing_zeros)
from ._loops import (
    ExtentBound, Loop, counted_tests, dominators, extent_trip_bound, find_loops, loop_line,
    window_memories,
    loop_name,
)
from ._profile import PROFILE_STEPS, Profile, profile_top
from ._streams import access_elements, access_order_problem, stream_elements, stream_order_problem

__all__ = ["AffineAnalysis", "Enumeration", "counted_tests", "ExtentBound", "extent_trip_bound", "window_memories", "Loop", "MemDep", "dependence_distance", "dominators", "find_loops", "loop_line", "loop_name",
           "memory_dependences", "PROFILE_STEPS", "Profile", "profile_top", "stream_elements", "stream_order_problem", "access_elements", "access_order_problem",
           "low_bits", "trailing_zeros"]
