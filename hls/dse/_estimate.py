"""The cheap estimate of a design point: its schedule and binding only, no RTL.

A full evaluation (:func:`hls.dse.evaluate`) lowers, schedules and binds the design,
then builds its RTL and emits the Verilog; on the MachSuite-style kernels the RTL and
the emission are most of its time (about nine tenths at the default points).  The
latency and area a point is judged by are the flow's cost models on the schedules and
bindings (``hls.estimate.latency_report``, ``hls.estimate.area_report``), so
:func:`estimate` stops there: it lowers and schedules as the build does and reads the
two models, and the pre-ranking of the search (:func:`hls.dse.explore`,
``estimate_many``) spends full evaluations only on the points it puts on or near the
front.

Where the estimate can differ from the evaluation: a design that the RTL stage would
build again (LUT RAMs on a combinational loop go back to block RAM, ``BuildAgain`` of
``emit_verilog``) is estimated as first lowered; a dataflow region's resources are its
functions' sum, without ``dataflow_resources``'s corrections.  The benchmark
``benchmarks/dse_machsuite.py --prerank`` measures the rank correlation on evaluated
points.

An estimate also records each pipelined loop's II, MII and iteration depth
(``loops``): the II knob's candidates come from the default point's
(:func:`hls.dse.design_space`).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field

from .. import flow
from ..analysis import loop_line
from ..errors import HLSError
from ..estimate import TopLatency, area_report, latency_report
from ._evaluate import Compiled, Resources, check_formats, with_point
from ._point import DesignPoint


@dataclass(frozen=True, slots=True)
class LoopBound:
    """A pipelined loop of an estimated design: its function, header block and source
    line (None: unknown), the II scheduled, the MII (the larger of the resource and
    recurrence bounds) and the cycles of one iteration (``depth``)."""

    function: str
    header: str
    line: int | None
    ii: int
    mii: int
    depth: int


@dataclass(frozen=True)
class Estimate:
    """What :func:`estimate` gave for ``point``: ``status`` ``"ok"`` or ``"error"`` (a
    user error, ``message``), the latency and area of the cost models on its schedules
    and bindings, its pipelined loops (``loops``).  ``time_s`` is left out of
    comparisons."""

    point: DesignPoint
    status: str
    message: str | None = None
    latency: TopLatency | None = None
    resources: Resources | None = None
    loops: tuple[LoopBound, ...] = ()
    time_s: float = field(default=0.0, compare=False)

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def estimate(design: Compiled, point: DesignPoint) -> Estimate:
    """The schedule-only estimate of ``design`` at ``point`` (see the module's
    docstring).  A user error is an estimate of status ``"error"``; a compiler bug is
    raised."""
    check_formats(design, point)
    t0 = time.perf_counter()
    try:
        comp = with_point(design.comp, point)
        while True:
            lowered = flow.plan_and_lower(comp, design.front)
            module = lowered.module
            schedules, bindings = flow._schedule(module, comp, lowered.profit,
                                                 lowered.partitions, lowered.keep_whole)
            two = flow.two_writers(module, schedules) if comp.target.tech.ram_single_writer \
                else []
            if not two or set(two) <= set(comp.opts.single_port):
                break
            # as the build does: those memories scheduled again with one port
            comp = dataclasses.replace(comp, opts=dataclasses.replace(
                comp.opts, single_port=tuple(sorted(set(comp.opts.single_port) | set(two)))))
        lat = latency_report(module, schedules, comp.platform,
                             tripcount=flow.loop_tripcounts(module, comp.dirs)).top()
        # (an AXI top keeps its writable globals on chip, as the build does)
        ext = () if comp.platform.axi else tuple(g for g in module.globals if not g.readonly)
        area, _ = area_report(module, comp.target, schedules, bindings, frozenset(ext))
    except HLSError as exc:
        return Estimate(point, "error", message=exc.format(),
                        time_s=round(time.perf_counter() - t0, 3))
    loops = tuple(LoopBound(f.name, lp.header.name, loop_line(lp), pl.ii, pl.mii, pl.depth)
                  for f in module.functions for lp, _ in schedules[f].loops
                  if (pl := schedules[f].pipelines.get(lp.header)) is not None)
    return Estimate(point, "ok", latency=lat,
                    resources=Resources(area["lut"], area["ff"], area["dsp"], area["bram18"]),
                    loops=loops, time_s=round(time.perf_counter() - t0, 3))
