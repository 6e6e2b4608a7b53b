"""CDFG-to-CDFG passes, registered in one explicit table (``PASSES``, in pipeline order)
and run by one :class:`PassManager` that re-verifies the IR after each pass.

The order is the flow's: if-conversion first (loops with branches become single blocks
that can be pipelined and unrolled), unrolling, partitioning by directive (banks are
chosen on the unrolled addresses), then the local rewrites, which also run again on the
functions automatic partitioning touches (``run_passes``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..directives import Directives
from ..ir import Function, Module
from ..targets import PLAIN, Platform
from ._banks import Partition, auto_partition_plan, partition_array, partitionable, static_bank
from ._divconst import DivConstOptions, divide_by_constants, magic_unsigned
from ._ifconv import candidates as if_conversion_candidates
from ._ifconv import if_convert
from ._licm import hoist_invariants
from ._forward import forward_stores
from ._exclusive import merge_exclusive_accesses
from ._loadcomb import combine_loads
from ._manager import Pass, PassError, PassManager, resolve_pass
from ._narrow import narrow_widths
from ._plm import PlmOptions, wrap_in_plms, wrap_report
from ._reuse import reuse_loads
from ._scalars import replace_scalars
from ._share import (
    ShareOptions, bram36_tiles, lifetimes, share_memories, share_report, unit_cycles,
)
from ._smallmem import small_memories
from ._taildup import duplicate_tails
from ._branches import merge_branches
from ._known import merge_known_stores
from ._partition import array_entry, partition_by_directives
from ._unroll import auto_unrollable, merge_blocks, unroll_block, unroll_loops, unroll_requests


@dataclass(frozen=True, slots=True)
class IfConversionOptions:
    #: if-conversion only serves pipelining: without it, branches stay branches
    pipeline: bool = True
    #: loops left with their branches, by (function name, header block name): the flow
    #: keeps those whose pipeline would not pay (hls.scheduling.Profitability)
    keep: frozenset = frozenset()
    #: the top function: its pointer parameters are distinct storage
    top: str | None = None


@dataclass(frozen=True, slots=True)
class ScalarOptions:
    #: the top function: its pointer parameters are port sets of their own (a callee's
    #: may be windows on one caller array, so scalar replacement leaves those alone)
    top: str | None = None


@dataclass(frozen=True, slots=True)
class LicmOptions:
    #: False: no op moves (``--no-licm``)
    enabled: bool = True
    #: directives (the pragmas included): the II each loop asks for
    directives: Directives | None = None
    #: the top function: its pointer parameters are distinct storage (a callee's may be
    #: windows on one caller array or a global, so a store to one may write another)
    top: str | None = None
    #: dataflow regions (function names): their frames loop must keep its glue, which
    #: each task evaluates on its own frame (hls.dataflow), so they are left alone
    regions: frozenset = frozenset()


def _hoist(func: Function, opts: LicmOptions) -> int:
    if func.name in opts.regions:
        return 0
    return hoist_invariants(func, func.name == opts.top, opts.directives)


@dataclass(frozen=True, slots=True)
class SmallMemoryOptions:
    #: False: every on-chip array stays a synchronous block RAM (``--bram-only``)
    enabled: bool = True
    #: memories (by name; a partitioned array by its whole name) kept in block RAM
    exclude: frozenset = frozenset()


@dataclass(frozen=True, slots=True)
class UnrollOptions:
    #: ``unroll`` entries of ``[[loop]]`` directives (pragmas are read from the IR)
    directives: Directives | None = None
    #: loops the flow unrolls where the estimated cycles say it pays, as
    #: ((function name, header name), factor) pairs; a pragma or directive wins
    auto: tuple = ()
    #: loops if-conversion leaves alone (IfConversionOptions.keep)
    keep: frozenset = frozenset()


@dataclass(frozen=True, slots=True)
class PartitionOptions:
    directives: Directives | None = None
    #: the target's platform: with AXI ports (Alveo) the top's pointer arguments go over
    #: m_axi and stay whole
    platform: Platform = PLAIN


def _unroll(func: Function, opts: UnrollOptions) -> int:
    return unroll_loops(func, opts.directives, dict(opts.auto),
                        {h for fn, h in opts.keep if fn == func.name})


def _share(module: Module, opts: ShareOptions) -> list[dict]:
    return share_memories(module, opts)


def _partition(module: Module, opts: PartitionOptions) -> tuple[list[dict], set]:
    return partition_by_directives(module, opts.directives, opts.platform)


PASSES: tuple[Pass, ...] = (
    Pass("plm", "the top's pointer arguments -> on-chip PLMs with load and drain loops",
         wrap_in_plms, scope="module", options=PlmOptions,
         when=lambda o: o.enabled),
    Pass("licm", "loop-invariant ops (pure; loads of memories the loop never writes) -> preheader",
         _hoist, options=LicmOptions, when=lambda o: o.enabled),
    Pass("if-conversion", "loops whose body branches -> one predicated block (pipelining only)",
         lambda f, o: if_convert(f, {h for fn, h in o.keep if fn == f.name}, f.name == o.top),
         options=IfConversionOptions, when=lambda o: o.pipeline),
    Pass("unroll", "unroll loops by pragma or directive, innermost first",
         _unroll, options=UnrollOptions),
    Pass("partition", "split arrays into banks as [[array]] directives ask",
         _partition, scope="module", options=PartitionOptions),
    Pass("forward-stores", "a load of a word the block just stored or loaded -> that value; "
         "a store overwritten unread -> removed",
         lambda f, o: forward_stores(f, f.name == o.top), options=ScalarOptions),
    Pass("scalar-replacement", "a word a loop reads/writes at one invariant address -> a register",
         lambda f, o: replace_scalars(f, f.name == o.top), options=ScalarOptions),
    Pass("load-reuse", "a stencil's load of the word an earlier iteration loaded -> a register",
         lambda f, o: reuse_loads(f, f.name == o.top), options=ScalarOptions),
    Pass("combine-loads", "loads of the same word (no store between) -> one load and slices",
         combine_loads),
    Pass("exclusive-accesses", "guarded accesses of one memory that never run together "
         "(the bank copies of a partitioned array) -> one access",
         merge_exclusive_accesses),
    Pass("div-by-constant", "division/remainder by a constant -> multiply-high by the reciprocal",
         divide_by_constants, options=DivConstOptions),
    Pass("narrow-widths", "compute add/sub/mul/logic/shl in the bits their uses demand",
         narrow_widths),
    Pass("tail-duplication", "a small join block reached by plain branches -> a copy in each predecessor",
         duplicate_tails),
    Pass("known-stores", "a store of the constant its word is known to hold -> removed, or "
         "merged into the store before it", lambda f, o: merge_known_stores(f, f.name == o.top),
         options=ScalarOptions),
    Pass("merge-branches", "a block of cheap ops and a branch, reached from one branch -> "
         "one multiway branch in its predecessor", merge_branches),
    Pass("small-memories", "small on-chip arrays -> LUT RAM, read in the load's own cycle",
         lambda m, o: small_memories(m, o.exclude), scope="module", options=SmallMemoryOptions,
         when=lambda o: o.enabled),
    Pass("share-memories", "local arrays never live together -> one block RAM (by lifetime)",
         _share, scope="module", options=ShareOptions, when=lambda o: o.enabled),
)

#: old stage names of ``pyhls ir --after``: "passes" was the end of the pipeline
ALIASES: dict[str, str] = {"passes": PASSES[-1].name}


def pass_named(name: str) -> Pass:
    return next(p for p in PASSES if p.name == resolve_pass(name, PASSES, ALIASES))


def run_passes(func: Function, enabled: tuple[str, ...] | None = None,
               verify_each: bool = True, options: dict | None = None) -> dict[str, int]:
    """The passes after partitioning (the local rewrites) on ``func``, or only those of
    them ``enabled``: what runs again on a function automatic partitioning rewrote."""
    after = [p.name for p in PASSES].index("partition") + 1
    local = [p for p in PASSES[after:] if enabled is None or p.name in enabled]
    given = {k: v for k, v in (options or {}).items() if k in {p.name for p in local}}
    return PassManager(local, given, verify_each=verify_each).run_function(func)


__all__ = [
    "ALIASES",
    "PASSES",
    "IfConversionOptions",
    "LicmOptions",
    "Partition",
    "PartitionOptions",
    "ScalarOptions",
    "SmallMemoryOptions",
    "Pass",
    "PassError",
    "PassManager",
    "UnrollOptions",
    "array_entry",
    "auto_unrollable",
    "auto_partition_plan",
    "combine_loads",
    "merge_exclusive_accesses",
    "forward_stores",
    "DivConstOptions",
    "divide_by_constants",
    "if_convert",
    "hoist_invariants",
    "replace_scalars",
    "reuse_loads",
    "small_memories", "ShareOptions", "bram36_tiles", "lifetimes", "share_memories",
    "unit_cycles", "share_report", "PlmOptions", "wrap_report", "wrap_in_plms",
    "duplicate_tails",
    "merge_branches",
    "merge_known_stores",
    "if_conversion_candidates",
    "magic_unsigned",
    "merge_blocks",
    "narrow_widths",
    "partition_array",
    "partition_by_directives",
    "partitionable",
    "pass_named",
    "resolve_pass",
    "run_passes",
    "static_bank",
    "unroll_block",
    "unroll_loops",
    "unroll_requests",
]
