"""Per-loop cycle profile of a co-simulation: RTL cycles spent in each pipelined loop
against the modulo-schedule model ``trip_count x II + depth``.

The design is built with loop probes (``SynthOptions(loop_probes=True)``): one output
per pipelined loop instance, high while its function's FSM is in the loop's state.  The
harness counts the cycles each probe is high and its rising edges (loop entries).  The
iterations come from native execution: the same LLVM IR with a counter per block, run
in the golden worker; the header of a pipelined (single-block) loop runs once per
iteration.

Model: iteration ``i`` of an entry starts ``i * II`` cycles after loop entry and the last
one ends ``depth`` cycles after its start, so an entry with ``n`` iterations costs
``(n - 1) * II + depth`` cycles plus a constant entry/exit overhead of the controller
(``overhead`` per entry, reported, not assumed).
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from typing import Any, Sequence

from hls.errors import CosimError
from hls.frontend import sanitize_name

from ._golden import run_main

__all__ = ["LoopProfile", "native_block_visits", "loop_profiles"]


def _block_name(label: str) -> str:
    return sanitize_name(label)


def _instrument(ll: str, funcs: Sequence[str]) -> tuple[str, list[tuple[str, str]]]:
    """``ll`` with an i64 counter global incremented at the top of every block of
    ``funcs`` (after its phis); returns the text and the (function, label) per counter."""
    out: list[str] = []
    counters: list[tuple[str, str]] = []
    fn: str | None = None
    pending: str | None = None
    for line in ll.splitlines():
        m = re.match(r"define [^@]*@(\"[^\"]+\"|[-\w.$]+)\(", line)
        if m and m.group(1).strip('"') in funcs:
            fn = m.group(1).strip('"')
            out.append(line)
            pending = "entry"
            continue
        if fn and line.startswith("}"):
            fn = None
        if fn:
            lab = re.match(r"^([-\w.$]+):", line)
            if lab:
                pending = lab.group(1)
                out.append(line)
                continue
            s = line.strip()
            if pending and s and " = phi " not in s and not s.startswith(("#dbg", ";")):
                k = len(counters)
                counters.append((fn, pending))
                out.append(f"  %__pyhls_c{k} = load i64, ptr @__pyhls_cnt{k}")
                out.append(f"  %__pyhls_d{k} = add i64 %__pyhls_c{k}, 1")
                out.append(f"  store i64 %__pyhls_d{k}, ptr @__pyhls_cnt{k}")
                pending = None
        out.append(line)
    out += [f"@__pyhls_cnt{k} = global i64 0" for k in range(len(counters))]
    return "\n".join(out) + "\n", counters


def native_block_visits(ll: str, funcs: Sequence[str]) -> dict[tuple[str, str], int]:
    """Run ``main`` of ``ll`` natively (in the golden worker) and count the executions of
    every block of ``funcs``: (function, hls block name) -> count."""
    text, counters = _instrument(ll, funcs)
    if not counters:
        return {}
    names = [f"__pyhls_cnt{k}" for k in range(len(counters))]
    _, globs = run_main(text, names, {n: 8 for n in names})
    visits: dict[tuple[str, str], int] = {}
    for n, (fn, label) in zip(names, counters):
        key = (fn, _block_name(label))
        visits[key] = visits.get(key, 0) + struct.unpack("<q", globs[n])[0]
    return visits


@dataclass(frozen=True)
class LoopProfile:
    function: str
    loop: str            # the loop's (header) block
    ii: int
    depth: int
    entries: int         # loop entries over the whole co-simulation (RTL)
    #: iterations over the whole co-simulation (native execution; an exactly unrolled
    #: loop's native iterations divided by its factor; a loop unrolled with guarded
    #: copies: its header visits in the interpreted CDFG); None when none is known
    iterations: int | None
    cycles: int          # cycles in the loop's state (RTL)

    @property
    def model_cycles(self) -> int | None:
        """sum over entries of (trip - 1) * II + depth"""
        if self.iterations is None:
            return None
        return (self.iterations - self.entries) * self.ii + self.entries * self.depth

    @property
    def overhead_per_entry(self) -> float | None:
        if self.model_cycles is None:
            return None
        return (self.cycles - self.model_cycles) / self.entries if self.entries else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"function": self.function, "loop": self.loop, "ii": self.ii,
                "depth": self.depth, "entries": self.entries, "iterations": self.iterations,
                "cycles": self.cycles, "model_cycles": self.model_cycles,
                "overhead_per_entry": (None if self.overhead_per_entry is None
                                       else round(self.overhead_per_entry, 2))}

    def __str__(self) -> str:
        head = (f"{self.function}/{self.loop}: {self.entries} entries, II {self.ii}, depth "
                f"{self.depth}: {self.cycles} cycles")
        if self.iterations is None:
            return head + " (unrolled with guarded copies: no iteration count to model)"
        return (head + f", {self.iterations} iterations (model {self.model_cycles}, "
                f"{self.overhead_per_entry:+.2f}/entry)")


def unrolled_header_visits(synth: Any, calls: Sequence[Any]) -> dict[tuple[str, str], int] | None:
    """Header visits of the synthesised CDFG (after its passes) over ``calls``
    (hls.verify.Call: the co-simulated calls of the top), by the IR interpreter: a loop
    unrolled with guarded copies runs ``ceil(n / factor)`` iterations per entry of ``n``,
    which the native block counts of the source loop do not tell.  None when a call
    cannot be interpreted (a result with no defined meaning, a step limit)."""
    from hls.ir import InterpError, Undefined, run_function

    top = synth.module.top
    glob = [m for m in synth.module.globals if m.symbol]
    total: dict[tuple[str, str], int] = {}
    for c in calls:
        presets = {m.name: c.glob_in[m.symbol] for m in glob if m.symbol in c.glob_in}
        try:
            r = run_function(top, c.scalars, c.mem_in, presets or None)
        except (Undefined, InterpError, RecursionError):
            return None
        for key, n in r.visits.items():
            total[key] = total.get(key, 0) + n
    return total


def loop_profiles(synth: Any, activity: dict[tuple[str, str], tuple[int, int]],
                  ll: str, calls: Sequence[Any] = ()) -> list[LoopProfile]:
    """Profiles of every pipelined loop of ``synth`` (an hls.flow.SynthResult built with
    loop probes) from the probe counts ``activity`` and a native run of ``main`` of
    ``ll`` (the testbench or whole-program IR that was co-simulated); a loop unrolled
    with guarded copies, or made by the frontend (no native block), takes its iterations
    from the interpreted ``calls`` (:func:`unrolled_header_visits`)."""
    funcs = [f.name for f in synth.module.functions]
    visits = native_block_visits(ll, funcs)
    ir_visits = None
    if calls and any((f.name, b.name) not in visits or not b.terminator.attrs.get(
            "unrolled", (1, True))[1] for f in synth.module.functions
            for b in synth.schedules[f].pipelines):
        ir_visits = unrolled_header_visits(synth, calls)
    out = []
    for f in synth.module.functions:
        for b, lp in synth.schedules[f].pipelines.items():
            cyc, ent = activity.get((f.name, b.name), (0, 0))
            unrolled = b.terminator.attrs.get("unrolled")
            if (f.name, b.name) not in visits:
                # a loop the frontend made (a memcpy's copy loop): the interpreted CDFG's
                if ir_visits is None:
                    raise CosimError(f"loop profile: block {b.name} of {f.name} has no "
                                     "native counterpart")
                out.append(LoopProfile(f.name, b.name, lp.ii, lp.depth, ent,
                                       ir_visits.get((f.name, b.name), 0), cyc))
                continue
            its: int | None = visits[(f.name, b.name)]
            if unrolled is not None:
                factor, exact = unrolled[:2]
                if exact:
                    its = its // factor
                else:
                    its = None if ir_visits is None else ir_visits.get((f.name, b.name), 0)
            out.append(LoopProfile(f.name, b.name, lp.ii, lp.depth, ent, its, cyc))
    return out
