"""Evaluating design points: the synthesis of one compilation with a point's knobs.

The frontend runs once per kernel (:func:`compile_design`); each evaluation is the
flow's build (``hls.flow.plan_and_lower`` then ``hls.flow.build_lowered``) of the same
compilation with the point's directives and options, on a clone of the frontend's
module.  Between the two halves the lowered design is hashed (:func:`ir_hash`): two
points whose hashes are equal build the same design, so an evaluation given the results
seen so far (``seen``) returns the earlier one instead of scheduling it again.
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path

from .. import flow
from ..analysis import find_loops
from ..directives import resolve_directives
from ..errors import HLSError
from ..estimate import TopLatency
from ..fpu import FPFormat
from ..ir import Module, print_module
from ..names import defined_functions
from ..scheduling import loop_directives
from ..transforms import share_report, wrap_report
from ._point import DesignPoint


@dataclass(frozen=True)
class Compiled:
    """A kernel through the frontend, once: its compilation (``hls.flow.Compilation``),
    the frontend's module (never lowered: every evaluation lowers a clone of it) and the
    top's declared C types."""

    comp: flow.Compilation
    front: Module = field(compare=False)
    ctypes: object = field(compare=False)


def compile_design(path, opts: flow.SynthOptions, inp=None) -> Compiled:
    """The :class:`Compiled` kernel ``path`` with the options ``opts`` (its directives
    file and ``#pragma HLS`` are the base every point's knobs go over)."""
    return Compiled(*flow.prepare(path, opts, inp))


@dataclass(frozen=True, slots=True)
class Resources:
    """The report's area estimate of the whole design (``report["resources"]``)."""

    lut: int
    ff: int
    dsp: int
    bram18: int


@dataclass(frozen=True)
class Result:
    """What one evaluation gave.  ``status`` is ``"ok"`` or ``"error"`` (``message``: the
    user error that stopped it, e.g. an II that cannot be met, a knob naming no loop).
    ``latency``: cycles of one call of the top (report.json's ``latency``; its ``max``
    None where it is unbounded, or only ``min`` is a bound, as on Alveo); ``resources``:
    the area estimate;
    ``clock_period_ns`` the clock it was scheduled for and ``clock_estimated_ns`` the
    longest path the model claims; ``verilog`` and ``report``: the files written (with
    an output directory); ``ir_hash``: :func:`ir_hash`.  ``time_s`` (wall time) is the
    one field that is not deterministic: it is left out of comparisons."""

    point: DesignPoint
    status: str
    message: str | None = None
    ir_hash: str | None = None
    latency: TopLatency | None = None
    resources: Resources | None = None
    clock_period_ns: float | None = None
    clock_estimated_ns: float | None = None
    verilog: Path | None = None
    report: Path | None = None
    time_s: float = field(default=0.0, compare=False)
    #: the cycles of one call of the top spent in each loop (:func:`loop_cycles`):
    #: ``((function, source line, header block), cycles, limit)``, the loops inside it
    #: included, and what bounds a pipelined loop's II
    loops: tuple = ()

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def loop_cycles(report: dict) -> tuple:
    """Per loop of ``report`` (report.json's ``loops``, every loop the design keeps): its
    function, source line and header block, the most cycles one call of the top spends
    in it (its latency per entry times its entries per call, each the bound ``max``,
    else ``min`` where unbounded), the loops inside it included, and what bounds its II
    where it is pipelined above II 1 (:func:`ii_limit`); in the report's order.  What
    the search reads to find a point's bottleneck."""
    out = []
    for lp in report.get("loops", []):
        lat = lp.get("latency") or {}
        ent = lat.get("entries_per_call") or {"min": 1, "max": 1}
        per = lat.get("max") if lat.get("max") is not None else lat.get("min")
        n = ent.get("max") if ent.get("max") is not None else ent.get("min")
        if per is None or n is None:
            continue
        out.append(((lp["function"], lp.get("source_line"), lp["loop"]), per * n, ii_limit(lp)))
    return tuple(out)


def ii_limit(loop: dict) -> str | None:
    """What bounds the II of a report.json loop: ``"mem:NAME"`` where the ports of memory
    NAME do (its resource MII is the II, and ``limited_by`` names that memory),
    ``"recurrence"`` where a loop-carried dependence does, ``"resource"`` where another
    resource does; None for a loop not pipelined, at II 1, or at an II above both
    bounds (a directive's)."""
    ii = loop.get("ii")
    if not loop.get("pipelined") or ii is None or ii <= 1:
        return None
    if loop.get("rec_mii") == ii:
        return "recurrence"
    if loop.get("res_mii") == ii:
        why = loop.get("limited_by") or ""
        if why.startswith("resource 'mem:"):
            return "mem:" + why[len("resource 'mem:"):].split("'", 1)[0]
        return "resource"
    return None


def check_formats(design: Compiled, point: DesignPoint) -> None:
    """A point's floating-point formats are in the frontend's module: ``design`` must be
    the kernel compiled with them (``compile_design(path, point_options(opts, point))``,
    as the cluster's tasks do), else the point would be built at the wrong format."""
    have = design.comp.opts.fp_format
    for func, text in point.fp_formats:
        if have.get(func) != FPFormat.parse(text):
            raise ValueError(f"the point's format {func}={text} is not the compiled "
                             f"kernel's ({have.get(func)}): compile it with "
                             "point_options(opts, point)")


def with_point(comp: flow.Compilation, point: DesignPoint) -> flow.Compilation:
    """The compilation ``comp`` with the point's knobs: its directives over the
    compilation's (names resolved as the input's symbols), its memory sharing and clock
    in the options and the target."""
    opts = comp.opts
    if point.share_memories is not None:
        opts = dataclasses.replace(opts, share_memories=point.share_memories)
    if point.clock_period_ns is not None:
        opts = dataclasses.replace(opts, clock_period_ns=point.clock_period_ns)
    dirs = resolve_directives(point.to_directives(comp.dirs), defined_functions(comp.inp.text))
    return dataclasses.replace(comp, opts=opts, target=flow.synth_target(opts), dirs=dirs)


def ir_hash(comp: flow.Compilation, lowered: flow.Lowered) -> str:
    """SHA-256 of a lowered design and of what builds it besides its IR: the IR text
    (after the passes), the memory groups kept beside it, the target and clock, the
    pipelining settings the scheduler reads for each loop (directives and pragmas), the
    estimates it weighs pipelines against and the options.  Within one compilation, two
    points with the same hash build the same design."""
    h = hashlib.sha256()
    module = lowered.module

    def put(x) -> None:
        h.update(repr(x).encode())
        h.update(b"\0")

    put(print_module(module))
    put((share_report(module), wrap_report(module)))
    t = comp.target
    put((t.name, t.clock_period_ns, t.uncertainty_ns))
    put([(f.name, lp.header.name, sorted((k, v) for k, v in loop_directives(lp, comp.dirs).items()
                                         if k in ("pipeline", "ii")))
         for f in module.functions for lp in find_loops(f)])
    profit = lowered.profit
    if profit is not None:
        put((sorted((profit.before_ifconv or {}).items()), sorted(profit.kept.items())))
    # the knobs of a point are in the IR (sharing) and the target (clock) already
    put(dataclasses.replace(comp.opts, share_memories=True, clock_period_ns=None,
                            directives=None))
    return h.hexdigest()


def evaluate(design: Compiled, point: DesignPoint, out_dir: str | Path | None = None,
             seen: dict | None = None) -> Result:
    """Synthesise ``design`` at ``point``.  With ``out_dir`` the outputs are written
    there (``hls.flow.write_outputs``: the Verilog, report.json).  ``seen`` maps the
    :func:`ir_hash` of the points evaluated so far to their results: a point whose
    lowered design is among them gets that result (for this point, with the files that
    point wrote) without being scheduled again, and a new result is added to it.  A user error (``HLSError``) is
    a result with status ``"error"``; a compiler bug is raised."""
    check_formats(design, point)
    t0 = time.perf_counter()
    key = None
    try:
        comp = with_point(design.comp, point)
        while True:
            try:
                lowered = flow.plan_and_lower(comp, design.front)
                if key is None:     # (a design built again keeps its first hash)
                    key = ir_hash(comp, lowered)
                    if seen is not None and key in seen:
                        return dataclasses.replace(seen[key], point=point,
                                                   time_s=round(time.perf_counter() - t0, 3))
                res = flow.build_lowered(comp, lowered, design.ctypes, t0)
                break
            except flow.BuildAgain as again:
                comp = dataclasses.replace(comp, opts=again.opts)
    except HLSError as exc:
        return Result(point, "error", message=exc.format(), ir_hash=key,
                      time_s=round(time.perf_counter() - t0, 3))
    verilog = report = None
    if out_dir is not None:
        out = flow.write_outputs(res, out_dir)
        verilog = out / "rtl" / f"{res.interface.module_name}.v"
        report = out / "report.json"
    rep = res.report
    area = rep["resources"]
    result = Result(point, "ok", ir_hash=key, latency=TopLatency.from_json(rep["latency"]),
                    resources=Resources(area["lut"], area["ff"], area["dsp"], area["bram18"]),
                    clock_period_ns=rep["clock_period_ns"],
                    clock_estimated_ns=rep["clock_estimated_ns"], verilog=verilog,
                    report=report, time_s=round(time.perf_counter() - t0, 3),
                    loops=loop_cycles(rep))
    if seen is not None:
        seen[key] = result
    return result
