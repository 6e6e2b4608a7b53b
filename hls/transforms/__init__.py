"""CDFG-to-CDFG passes, registered in one explicit table (``PASSES``) and run in order
by :func:`run_passes`; each pass keeps :func:`hls.ir.verify` true."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..ir import Function, verify
from ._divconst import divide_by_constants, magic_unsigned
from ._ifconv import if_convert
from ._loadcomb import combine_loads
from ._narrow import narrow_widths
from ._unroll import merge_blocks, unroll_block, unroll_requests


@dataclass(frozen=True, slots=True)
class Pass:
    name: str
    run: Callable[[Function], int]   # returns the number of rewrites
    doc: str


PASSES: tuple[Pass, ...] = (
    Pass("combine-loads", combine_loads,
         "loads of the same word (no store between) -> one load and slices"),
    Pass("div-by-constant", divide_by_constants,
         "division/remainder by a constant -> multiply-high by the reciprocal"),
    Pass("narrow-widths", narrow_widths,
         "compute add/sub/mul/logic/shl in the bits their uses demand"),
)


def run_passes(func: Function, enabled: tuple[str, ...] | None = None,
               verify_each: bool = True) -> dict[str, int]:
    counts = {}
    for p in PASSES:
        if enabled is not None and p.name not in enabled:
            continue
        counts[p.name] = p.run(func)
        if verify_each:
            verify(func)
    return counts


__all__ = ["PASSES", "Pass", "combine_loads", "divide_by_constants", "if_convert", "magic_unsigned",
           "merge_blocks", "narrow_widths", "run_passes", "unroll_block", "unroll_requests"]
