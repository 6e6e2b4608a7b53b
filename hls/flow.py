"""The synthesis flow: input -> CDFG -> schedules -> binding -> RTL -> Verilog + report.

Each stage is a plain call on plain data (see ARCHITECTURE.md); this module only strings
them together, builds ``report.json`` and writes outputs atomically (a failed run leaves
nothing in the output directory).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx
from amaranth.hdl import CombinationalCycle

from . import progress, transforms
from .analysis import find_loops, loop_line, loop_name, profile_top, stream_order_problem
from .binding import Binding, bind
from .dataflow import (
    choose_channels, choose_instances, extract_graph, graph_report, load_task_graph,
    region_estimate, region_ir, task_graph_nx,
)
from .directives import (Directives, LoopDirective, apply_pragmas, directive_entries,
                         directives_from_entries, function_pragmas, interface_options,
                         load_directives, pragma_report, resolve_directives)
from .errors import HLSError, InternalError
from .estimate import (area_report, axi_adapter_area, dataflow_resources, latency_report,
                       memory_bram18, yosys_area, yosys_ecp5_area)
from .estimate._summary import summary_table
from .report import report_html, schedule_report
from .frontend._common import warn
from .pnr import flow_for_target, stage_base, timing_report
from .pnr._wrapper import HARNESS_TOP, pnr_harness
from .frontend import FrontendOptions, LoadedInput, arg_c_types, load, read_input, warnings_off
from .frontend import parse_module as parse_llvm
from .interface import TopInterface
from .ir import Function, Module, op_def, print_module
from .names import (defined_functions, demangle_text, display_names, hardware_names,
                    resolve_function, resolve_lenient)
from .transforms import auto_partition_plan, partition_array
from .package import write_vitis_package
from .rtl import AlveoTop, TopRTL, emit_verilog
from .scheduling import (
    FunctionSchedule,
    Profitability,
    iteration_states,
    loop_directives,
    op_key,
    op_timing,
    pipeline_unit_class,
    schedule_function,
    schedule_memo,
    unroll_factor,
)
from .targets import Platform, Target, get_target
from .transforms import (
    IfConversionOptions,
    PartitionOptions,
    PassManager,
    ScalarOptions,
    LicmOptions,
    SmallMemoryOptions,
    UnrollOptions,
    array_entry,
    DivConstOptions,
    PlmOptions,
    ShareOptions,
    auto_unrollable,
    share_report,
    wrap_report,
    if_conversion_candidates,
    resolve_pass,
    run_passes,
)


@dataclass
class SynthOptions:
    top: str
    target: str = "generic"
    clock_period_ns: float | None = None
    depth: dict[str, int] = field(default_factory=dict)
    cc: str | None = None
    #: C compiler flags for .c inputs (and testbenches): -I DIR, -D NAME[=VALUE], -U NAME,
    #: -std=...
    cflags: tuple[str, ...] = ()
    scheduler: str = "sdc"
    check_schedules: bool = True
    #: functional-unit limits per block, by class ("mul32") or kind ("mul", "div")
    max_units: dict[str, int] = field(default_factory=dict)
    #: pipeline innermost single-block loops (modulo scheduling)
    pipeline: bool = True
    #: custom floating-point formats: function name (or "*") -> hls.fpu.FPFormat
    fp_format: dict = field(default_factory=dict)
    #: alveo targets: pointer argument (name or position) -> m_axi bundle (default gmem)
    m_axi: dict[str, str] = field(default_factory=dict)
    #: alveo targets: pointer arguments (name or position) that are AXI4-Stream interfaces
    axis: list[str] = field(default_factory=list)
    #: alveo targets: AXI data width (bits) and beats per line/burst of each bundle
    axi_data_width: int = 64
    axi_line_beats: int = 16
    #: alveo targets: sequential read prefetch in the m_axi adapters (a second line buffer
    #: per read port and a second read burst in flight)
    axi_prefetch: bool = True
    #: a directives file (hls.directives) and whether unmet II requests are accepted
    directives: str | None = None
    relax_ii: bool = False
    #: function pipelining by option (``--pipeline-function F=II``): ``(function, II or
    #: None)`` pairs, each as the function's ``#pragma HLS pipeline`` (hls.directives)
    pipeline_functions: tuple = ()
    #: profiling outputs, one per pipelined loop (hls.verify loop profiles); plain top only
    loop_probes: bool = False
    #: pipeline (and if-convert) a loop only where the estimated cycles say it pays
    #: (hls.scheduling.Profitability); False: wherever it can be
    profitability: bool = True
    #: profile a top without arguments to count iterations and branches for those
    #: estimates (hls.analysis.profile_top); False: trip counts from analysis only
    profile: bool = True
    #: partition arrays whose ports hold a pipelined loop above its other II bounds
    auto_partition: bool = True
    #: unroll pipelined loops (by 2 or 4, with automatic partitioning) where the estimated
    #: cycles say it pays (with ``profitability`` only)
    auto_unroll: bool = True
    #: the top's pointer arguments get on-chip PLMs with load and drain loops (the
    #: ``plm`` pass); None: for .ekl inputs only
    plm: bool | None = None
    #: local arrays whose lifetimes never overlap share a block RAM (the
    #: ``share-memories`` pass); False: every array its own
    share_memories: bool = True
    #: pipelined loops share their multipliers and FP units across the II's modulo
    #: slots, ceil(uses / II) per class (hls.scheduling.share_units); False: every op its own
    share_pipeline_units: bool = True
    #: loop-invariant ops computed once before their loop (the ``licm`` pass); False:
    #: every op stays where the frontend put it (``--no-licm``)
    licm: bool = True
    #: small on-chip arrays in LUT RAM, read in the load's own cycle (the
    #: ``small-memories`` pass); False: every array a synchronous block RAM
    small_memories: bool = True
    #: memories (by name) kept in block RAM all the same (the flow adds those whose
    #: combinational reads would close a loop in the netlist)
    block_ram: tuple[str, ...] = ()
    #: on-chip memories (``function/memory``) scheduled with one port (``MemoryObject.ports``):
    #: on a target whose block RAM takes one write per cycle, the flow adds each one its
    #: first schedule wrote twice in a cycle
    single_port: tuple[str, ...] = ()
    #: also synthesise the Verilog with Yosys synth_xilinx (hls.estimate.yosys_area; on an
    #: ecp5 target synth_ecp5, hls.estimate.yosys_ecp5_area) and record the counts as
    #: report["resources_yosys"]; slow (seconds to minutes)
    estimate_area: bool = False
    #: the same, stopped once memories are mapped: block RAM only, in minutes
    #: (``yosys_area(memories_only=True)``); ignored with ``estimate_area``
    estimate_memories: bool = False
    #: the synth_xilinx family of that estimate
    area_family: str = "xcup"
    #: synthesise, place and route the design with the target's open flow (hls.pnr;
    #: ``--target ecp5``) and record report["timing"]; 10-90 s
    place_route: bool = False
    #: place with nextpnr seeds 1 to N until one placement meets the clock (every try
    #: reported in report["timing"]["seeds"])
    pnr_seeds: int = 1
    #: clock uncertainty in ns (Vitis HLS's ``-clock_uncertainty``): kept free in every
    #: cycle on top of the target's step overhead; None: 0
    clock_uncertainty_ns: float | None = None
    #: timing closure (implies ``place_route``): while place and route misses the clock,
    #: back-annotate the critical path's ops (or raise the clock uncertainty) and
    #: synthesise again, at most this many more times (0: off; :func:`close_timing`)
    close_timing: int = 0
    #: print the IR text after these passes (names of ``transforms.PASSES``, "frontend",
    #: or "all") to the file ``print_ir_to`` (default: stderr)
    print_ir_after: tuple[str, ...] = ()
    print_ir_to: str | None = None
    #: dataflow regions by function name (``--dataflow``: the top); ``[[dataflow]]``
    #: directives and ``annotate("pyhls_dataflow")`` add to them
    dataflow: tuple[str, ...] = ()
    #: a dataflow top gets deadlock-monitor outputs (``df_deadlock``, ``df_waits``) that
    #: co-simulation watches (``pyhls cosim`` turns it on)
    dataflow_monitor: bool = False
    #: an explicit task graph (JSON, hls.dataflow.load_task_graph): its region function is
    #: written into the module and becomes the top, a dataflow region
    task_graph: str | None = None
    #: every ``depth`` must name a pointer argument of the top (``--depth``: an error
    #: otherwise); False: entries for other tops' arguments are left unused
    check_depth: bool = False
    #: while the estimate needs more DSP blocks than the target's part has, share the
    #: multipliers, then raise the II of (or give up) the pipelines that cost the fewest
    #: cycles
    #: (:func:`fit_device`); None: on a target with a part, what cannot be fitted a
    #: warning; True (``--fit-device``): what cannot be fitted an error; False
    #: (``--no-fit-device``): build what the options say, with a warning if it does not fit
    fit_device: bool | None = None


@dataclass
class SynthResult:
    module: Module
    target: Target
    schedules: dict[Function, FunctionSchedule]
    bindings: dict[Function, Binding]
    rtl: TopRTL
    verilog: str
    interface: TopInterface
    report: dict
    source: LoadedInput
    #: a platform with AXI ports (Alveo): the m_axi bundles of the top
    #: (hls.rtl.AxiDescription); else None
    axi: object | None = None


def source_cflags(opts: SynthOptions, file_dirs: Directives | None) -> tuple[str, ...]:
    """The C flags of the design's sources: the user's, and with dataflow regions asked
    for by option or directive (``file_dirs``: the directives file of ``opts``, parsed)
    ``-fno-unroll-loops``, so that clang does not unroll a frames loop of a few
    iterations into copies of its calls (each would be a task, and the arrays between
    them channels with several producers)."""
    extra = ("-fno-unroll-loops",) if (opts.dataflow or (
        file_dirs is not None and file_dirs.dataflow)) else ()
    return tuple(opts.cflags) + extra


def module_name(top: str, functions=()) -> str:
    """The Verilog module name of the top ``top`` (an LLVM symbol) among ``functions``
    (the symbols of the design's functions): a mangled C++ symbol is named by its C++
    name (:func:`hls.names.verilog_names`: ``ns::f`` -> ``ns_f``)."""
    if top.startswith("_Z"):
        return hardware_names([*functions, top])[top]
    return top if top.isidentifier() else "top_" + "".join(c if c.isalnum() else "_" for c in top)


def with_task_graph(path, opts: SynthOptions, inp: LoadedInput | None,
                    file_dirs: Directives | None = None):
    """With ``opts.task_graph``: the input with the graph's region function added, and
    the options that make it the top and a dataflow region (its ports' depths given).
    Without ``inp``, the input is read first (``file_dirs``: the directives file of
    ``opts``, parsed, whose dataflow regions add a C flag: :func:`source_cflags`)."""
    inp = inp or read_input(path, cc=opts.cc, cflags=source_cflags(opts, file_dirs))
    if opts.plm is None:        # PLMs by default for tensor kernels (.ekl)
        opts = dataclasses.replace(opts, plm=inp.kind == "ekl")
    if not opts.task_graph:
        return resolve_names(opts, inp), inp
    spec = load_task_graph(opts.task_graph)
    if opts.top != spec.top:
        raise HLSError(f"--top {opts.top}: the task graph's top is '{spec.top}'",
                       spec.path, None)
    text = inp.text.rstrip("\n") + "\n\n" + region_ir(spec, parse_llvm(inp)) + "\n"
    inp = dataclasses.replace(inp, text=text)
    opts = dataclasses.replace(opts, task_graph=None,
                               dataflow=tuple(dict.fromkeys(opts.dataflow + (spec.top,))),
                               depth={**spec.depths, **opts.depth})
    return resolve_names(opts, inp), inp


def resolve_names(opts: SynthOptions, inp: LoadedInput) -> SynthOptions:
    """The options that name functions (``--top``, ``--dataflow``, ``--fp-format``) as
    the symbols of the input's LLVM module: a C++ name (``ns::f``, an overload's whole
    signature) becomes its mangled symbol (:func:`hls.names.resolve_function`; an unknown
    or ambiguous ``--top`` is an error).  A ``--dataflow``/``--fp-format`` name that names
    nothing is left as given, for the checks that say so later."""
    syms = defined_functions(inp.text)
    if inp.hir is not None:      # an IR text without (or beside) its LLVM module
        syms += [n for n in re.findall(r"^func @([^\s(]+)", inp.hir, re.M) if n not in syms]
    top = resolve_function(opts.top, syms, "--top", inp.path)
    dataflow = tuple(resolve_lenient(d, syms, "--dataflow", inp.path) for d in opts.dataflow)
    fp = {resolve_lenient(k, syms, "--fp-format", inp.path): v for k, v in opts.fp_format.items()}
    if (top, dataflow, fp) == (opts.top, tuple(opts.dataflow), dict(opts.fp_format)):
        return opts
    return dataclasses.replace(opts, top=top, dataflow=dataflow, fp_format=fp)


def synthesize(path: str | Path, opts: SynthOptions, inp: LoadedInput | None = None) -> SynthResult:
    """Synthesise ``path``; with ``opts.close_timing``, again while place and route misses
    the clock (:func:`close_timing`)."""
    if opts.close_timing < 0:
        raise HLSError(f"--close-timing {opts.close_timing}: the number of attempts must be at least 0")
    if opts.close_timing:
        return close_timing(path, opts, inp)
    return _synthesize(path, opts, inp)


#: added to the measured shortfall at each closure step (ns): nextpnr's placement moves
#: with the netlist, so a step of exactly the shortfall often misses by a little again
CLOSURE_STEP_NS = 0.2


def close_timing(path: str | Path, opts: SynthOptions, inp: LoadedInput | None = None) -> SynthResult:
    """Timing closure by back-annotation: place and route the design; while it misses the
    clock, give the ops its critical path runs through the delay nextpnr measured beyond
    the model (:func:`path_annotations`: the schedulers split that chain and leave the
    others alone), or, when the path names no op, raise the clock uncertainty (the time
    kept free in every cycle) by the shortfall plus :data:`CLOSURE_STEP_NS`; and
    synthesise again, at most ``opts.close_timing`` more times.  Stops early when an
    attempt after a raised uncertainty does not raise fmax (the path is inside one
    operator or the controller, which rescheduling cannot split), when two attempts in a
    row after back-annotation do not (placement moves the path as fast as it is
    shortened), or when no time would be left for logic.  Every attempt is
    recorded in ``report["timing"]["closure"]``; the result is the first attempt that met
    the clock, else the one with the highest fmax (``closure["chosen"]``, its index).
    The frontend runs once: every attempt builds from its module, with another target."""
    opts = dataclasses.replace(opts, place_route=True)
    base = opts.clock_uncertainty_ns or 0.0
    attempts, stopped, results = [], None, []
    t0 = time.perf_counter()
    comp, front, ctypes = prepare(path, dataclasses.replace(opts, close_timing=0), inp)
    comp, res = _build_fitted(comp, front, ctypes, t0)
    while True:
        results.append(res)
        t = res.report["timing"]
        attempts.append({"clock_uncertainty_ns": res.target.uncertainty_ns,
                         "fmax_mhz": t["fmax_mhz"], "met": t["met"],
                         "latency_min": res.report["latency"]["min"],
                         "latency_max": res.report["latency"]["max"]})
        if t["met"]:
            break
        if len(attempts) > opts.close_timing:
            stopped = f"{opts.close_timing} more attempt(s) allowed, all made"
            break
        if len(attempts) > 1 and not _raised(attempts, -1):
            if not attempts[-2].get("annotated"):
                stopped = ("the last attempt did not raise fmax: the critical path is inside "
                           "one operator or the controller, which rescheduling cannot split")
                break
            # a back-annotated attempt moves the path elsewhere, and placement with it:
            # one more try on the new path before giving up
            if len(attempts) > 2 and not _raised(attempts, -2):
                stopped = ("two attempts in a row did not raise fmax: the critical path moves "
                           "as fast as back-annotation shortens it")
                break
        if not t["fmax_mhz"]:
            stopped = "place and route reported no fmax"
            break
        extra = path_annotations(res, t)
        if extra:
            # the ops on the path take what place and route measured beyond the model:
            # the schedulers split their chain, and every other chain stays as it was
            attempts[-1]["annotated"] = [{"op": _key_text(k), "extra_ns": ns}
                                         for k, ns in sorted(extra.items())]
            target = res.target.with_annotations(extra)
        else:
            short = 1000.0 / t["fmax_mhz"] - t["clock_ns"]
            u = math.ceil((res.target.uncertainty_ns + short + CLOSURE_STEP_NS) * 10) / 10
            if u >= res.target.usable_ns:
                stopped = (f"a clock uncertainty of {u:g} ns would leave no time for logic "
                           f"in a {res.target.clock_period_ns:g} ns cycle")
                break
            target = res.target.with_uncertainty(u)
        t0 = time.perf_counter()
        res = _build_all(dataclasses.replace(comp, target=target), front, ctypes, t0)
    chosen = max(range(len(attempts)),
                 key=lambda i: (attempts[i]["met"], attempts[i]["fmax_mhz"] or 0.0, -i))
    res = results[chosen]
    res.report["timing"]["closure"] = {"attempts": attempts, "chosen": chosen,
                                       "met": attempts[chosen]["met"],
                                       "initial_uncertainty_ns": base,
                                       "stopped_because": stopped}
    return res


def _raised(attempts: list[dict], i: int) -> bool:
    """Whether attempt ``i`` reached a higher fmax than every attempt before it."""
    i %= len(attempts)
    return (attempts[i]["fmax_mhz"] or 0) > max(a["fmax_mhz"] or 0 for a in attempts[:i])


def path_annotations(res: SynthResult, timing: dict) -> dict:
    """Op key -> extra delay (ns) for the ops a missed critical path runs through, as its
    generated signals name them (:meth:`hls.rtl.TopRTL.op_signals`; a pipeline stage's
    copy ``..._s2`` names its op): the path's measured delay beyond what the model gives
    those ops (their delays and the step overhead), at least the shortfall, plus
    :data:`CLOSURE_STEP_NS`, shared equally among them.  Empty when no op is named (the
    path is control: the state register, a pipeline's valid bits, bound registers; or
    the flow reported no path)."""
    through = (timing.get("critical_path") or {}).get("through") or ()
    if not through:
        return {}
    named = res.rtl.op_signals()
    ops: list = []
    for entry in through:
        sig = entry["signal"]
        for op in named.get(sig) or named.get(stage_base(sig)) or ():
            if op not in ops and op_def(op.kind).timing is not None:   # (not a phi)
                ops.append(op)
    if not ops:
        return {}
    target = res.target
    path_ns = timing["critical_path"]["delay_ns"]
    model_ns = sum(op_timing(target, op).delay_ns for op in ops) + target.tech.step_overhead_ns
    over = max(path_ns - model_ns, path_ns - timing["clock_ns"]) + CLOSURE_STEP_NS
    each = math.ceil(over / len(ops) * 100) / 100
    out: dict = {}
    for op in ops:
        key = op_key(op)
        out[key] = round(out.get(key, 0.0) + each, 4)
    return out


def _key_text(key: tuple) -> str:
    """An op key as report.json shows it: ``function/block: kind (line L, #k)``."""
    fn, blk, kind, line, k = key
    return f"{fn}/{blk}: {kind} (line {line}, #{k})"


class BuildAgain(Exception):
    """The design must be built again with ``opts`` (memories given one port, LUT RAM
    back to block RAM): from the frontend's module, not from the frontend."""

    def __init__(self, opts: SynthOptions) -> None:
        super().__init__()
        self.opts = opts


@dataclass(frozen=True)
class Compilation:
    """What one synthesis is of, decided once before the stages and passed to them:
    the input (``path``, and ``inp``: the sources read), the options (``opts``: functions
    named by their symbols, a task graph's region added, the interface pragmas' AXI
    interfaces merged into ``m_axi``/``axis`` on Alveo targets), the target (clock and clock
    uncertainty applied; its ``platform``: what the top's ports are) and the directives
    (``dirs``: the directives file parsed once, its function names resolved, with the
    ``#pragma HLS`` of the sources merged in; ``pragmas``: one
    :class:`hls.directives.PragmaUse` per pragma, for the report).  A
    design built again is the same compilation with other options
    (``dataclasses.replace``)."""

    path: object
    inp: LoadedInput
    opts: SynthOptions
    target: Target
    dirs: Directives | None
    pragmas: tuple = ()

    @property
    def platform(self) -> Platform:
        """What the top's ports are (the target's :class:`hls.targets.Platform`)."""
        return self.target.platform


def _compile(path, opts: SynthOptions, inp: LoadedInput | None,
             target: Target) -> tuple[Compilation, Module]:
    """The :class:`Compilation` of ``path`` and the frontend's module, by the one run of
    the frontend.  The directives file is parsed once: before the input is read when the
    flow reads it and needs the file's regions for the C flags (:func:`source_cflags`),
    else after the task graph; so errors come in the order they always did."""
    early = opts.directives and inp is None and not opts.dataflow
    file_dirs = load_directives(opts.directives) if early else None
    opts, inp = with_task_graph(path, opts, inp, file_dirs)
    if opts.directives and file_dirs is None:
        file_dirs = load_directives(opts.directives)
    if file_dirs is not None:       # its function names as the input's symbols
        file_dirs = resolve_directives(file_dirs, defined_functions(inp.text))
    progress.stage("frontend", str(path if isinstance(path, (str, Path)) else path[0]))
    front = _load(path, opts, inp, file_dirs)
    if front.directives:      # a .hir written by pyhls ir: its source's directives
        file_dirs = directives_from_entries(front.directives, str(path), file_dirs)
    dirs, pragmas = apply_pragmas(inp, front, file_dirs, target, opts.pipeline_functions)
    if dirs is not None and dirs.interfaces:    # (Alveo targets only)
        m_axi, axis = interface_options(front, opts.m_axi, opts.axis, dirs.interfaces)
        opts = dataclasses.replace(opts, m_axi=m_axi, axis=axis)
    return Compilation(path, inp, opts, target, dirs, tuple(pragmas)), front


def synth_target(opts: SynthOptions) -> Target:
    """The target of ``opts``, its clock and clock uncertainty applied."""
    target = get_target(opts.target)
    if opts.clock_period_ns is not None:
        target = target.with_clock(opts.clock_period_ns)
    if opts.clock_uncertainty_ns:
        target = target.with_uncertainty(opts.clock_uncertainty_ns)
    return target


def prepare(path, opts: SynthOptions, inp: LoadedInput | None = None) -> tuple[Compilation,
                                                                             Module, object]:
    """The checks made before the frontend, the :class:`Compilation`, the frontend's
    module and the top's declared C types."""
    target = synth_target(opts)
    _print_ir_names(opts)
    if opts.place_route:
        flow_for_target(target, opts.pnr_seeds)  # no open flow for the target: say so first
    comp, front = _compile(path, opts, inp, target)
    # the C types name the AXI4-Lite registers and the Vitis package's arguments (a
    # platform with AXI ports, Alveo) and show co-simulated values as C shows them (every
    # target); only where they name ports is a struct passed by value, whose types cannot
    # be placed, worth a warning
    with contextlib.nullcontext() if comp.platform.axi else warnings_off():
        return comp, front, arg_c_types(comp.inp, front)


def _synthesize(path: str | Path, opts: SynthOptions, inp: LoadedInput | None = None) -> SynthResult:
    t0 = time.perf_counter()
    # the frontend runs once: the planning trials, the design and a design built again
    # each lower a clone of its module (Module.clone), which stays as the frontend made it
    comp, front, ctypes = prepare(path, opts, inp)
    with schedule_memo():     # a loop each planning trial schedules again is solved once
        return _build_fitted(comp, front, ctypes, t0)[1]


def _build_fitted(comp: Compilation, front: Module, ctypes,
                  t0: float) -> tuple[Compilation, SynthResult]:
    """The first build of a compilation: :func:`fit_device` on a target with a part
    (unless ``opts.fit_device`` is False), else the compilation as it is."""
    fit = comp.opts.fit_device
    if fit is False or (fit is None and comp.target.device is None):
        return comp, _build_all(comp, front, ctypes, t0)
    return fit_device(comp, front, ctypes, t0)


def _device_excess(target: Target, report: dict) -> list[tuple[str, int, int]]:
    dev = target.device
    return dev.over(report["resources"]) if dev is not None else []


def _will_fail(over) -> str:
    """What an estimate beyond the part means for place and route: the DSP count is
    Yosys's own (``benchmarks/area_ecp5.py``), the LUT and FF counts within 25 % on the
    kernels only (binary64 units and whole programs estimate high)."""
    if all(k == "dsp" for k, _, _ in over):
        return "place and route will fail"
    return "place and route may fail (the LUT and FF estimates are approximate)"


def _excess_text(target: Target, over) -> str:
    dev = target.device
    return ", ".join(f"{n} {dev.cell(k)} of the {dev.name}'s {c} ({100 * n // c} %)"
                     for k, n, c in over)


def fit_device(comp: Compilation, front: Module, ctypes,
               t0: float) -> tuple[Compilation, SynthResult]:
    """Build the design so that its estimate fits the target's part
    (:class:`hls.targets.Device`), trading cycles for DSP blocks, and return the
    compilation with its design.  While the estimate needs more DSP blocks than the part
    has:

    1. the multiplies outside pipelines share one unit per width (``--max-units mul=1``,
       unless the user limited multiplies already or none of them has a DSP block);
    2. then pipelines pyhls chose itself (no ``pipeline`` or ``II`` directive asks for
       them) go to twice their II (their units shared) or are given up: the moves whose
       DSP blocks (``report.json["loops"][*]["dsp"]``) cover the excess for the fewest
       estimated cycles in all (:func:`_fit_moves`, :func:`_with_moves`); a loop is
       named by its source line, so every inlined copy of it goes together.  A raised
       II the modulo scheduler does not reach falls back to giving the loop up.

    Each step builds the design again from the frontend's module, without place and
    route (the steps after the first without their warnings); the last one is the
    design, and the Yosys count and place and route (:func:`_run_tools`) run on it.  A
    design that fits at first is the design a build without fitting makes.  An excess
    of LUTs, flip-flops or block RAM, or DSP blocks that remain with no pipeline left to
    give up, cannot be traded: an error with ``--fit-device`` (``opts.fit_device``
    True), else a warning and the last design (the default on a target with a part:
    no automatic decision of pyhls's goes beyond the part).  ``report.json["fit_device"]``
    lists the steps of a design that had to change."""
    target = comp.target
    dev = target.device
    opts = comp.opts
    asked = opts.fit_device is True
    if dev is None:
        raise HLSError(f"--fit-device: target '{target.name}' has no part to fit (choose "
                       f"--target ecp5[:PART] or an Alveo card)")
    trial = dataclasses.replace(comp, opts=dataclasses.replace(
        opts, place_route=False, close_timing=0, estimate_area=False, estimate_memories=False))
    steps: list[dict] = []
    change: dict = {}
    stuck = None
    loc = front.top.loc
    where = (loc.file if loc else None, loc.line if loc else None)
    while True:
        with warnings_off() if steps else contextlib.nullcontext():
            try:
                res = _build_all(trial, front, ctypes, t0)
            except HLSError:
                # an II this loop asked for that the modulo scheduler did not reach: those
                # pipelines are given up instead
                raised = [lp for lp in change.get("loops", []) if "ii" in lp]
                if not raised:
                    raise
                trial = _with_moves(trial, [m for m in change["moves"] if m[4][0] == "ii"],
                                    off=True)
                for lp in raised:
                    del lp["ii"]
                    lp["pipelined"] = False
                continue
        rep = res.report
        over = _device_excess(target, rep)
        steps.append({"dsp": rep["resources"]["dsp"], "lut": rep["resources"]["lut"],
                      "latency_max": rep["latency"]["max"], "fits": not over}
                     | {k: v for k, v in change.items() if k != "moves"})
        if not over:
            break
        if [k for k, _, _ in over] != ["dsp"]:
            stuck = (f"its estimate needs {_excess_text(target, over)}; only DSP blocks "
                     f"can be traded for cycles (choose a larger part, or unroll and "
                     f"partition less)")
            break
        outside = rep["resources"]["dsp"] - sum(lp.get("dsp", 0) for lp in rep["loops"])
        if outside > 0 and not any(k.startswith("mul") for k in trial.opts.max_units):
            change = {"change": "multiplies outside pipelines share one unit per width",
                      "max_units": {"mul": 1}}
            trial = dataclasses.replace(trial, opts=dataclasses.replace(
                trial.opts, max_units={**trial.opts.max_units, "mul": 1}))
            continue
        picked = _fit_moves(rep, trial.dirs, over[0][1] - over[0][2])
        if not picked:
            stuck = (f"its estimate needs {_excess_text(target, over)} with its multiplies "
                     f"shared and no pipeline left that pyhls chose itself (choose a larger "
                     f"part, or ask for fewer parallel multiplies)")
            break
        trial = _with_moves(trial, picked)
        change = {"moves": picked, "change": "pipelines shared or given up",
                  "loops": [{"loop": name, "dsp": got, "cycles_lost": lost}
                            | ({"ii": action[1]} if action[0] == "ii" else {"pipelined": False})
                            for _, _, _, name, action, got, lost in picked]}
    if stuck and asked:
        raise HLSError(f"--fit-device: {opts.top} does not fit: {stuck}")
    how = "--fit-device" if asked else f"fitting the {dev.name} (--no-fit-device: do not)"
    places = _loop_places(front) if len(steps) > 1 else {}
    for step in steps[1:]:
        if "max_units" in step:
            warn(*where, f"{how}: {step['change']} (--max-units mul=1)")
        for lp in step.get("loops", []):
            at = places.get(lp["loop"], where)      # the loop's own line
            if "ii" in lp:
                warn(*at, f"{how}: loop {lp['loop']} is pipelined at II {lp['ii']}, its "
                          f"multipliers shared: {lp['dsp']} {dev.dsp_cell} fewer for about "
                          f"{lp['cycles_lost']} more estimated cycles")
            else:
                warn(*at, f"{how}: loop {lp['loop']} is not pipelined: its {lp['dsp']} "
                          f"{dev.dsp_cell} bought {lp['cycles_lost']} estimated cycles")
    if stuck:
        warn(*where, f"{opts.top} does not fit: {stuck}; {_will_fail(over)}")
    comp = dataclasses.replace(comp, opts=dataclasses.replace(
        opts, max_units=trial.opts.max_units), dirs=trial.dirs)
    res.report["device"]["fits"] = not stuck
    if len(steps) > 1:
        given_up, raised = [], {}
        for d in comp.dirs.loops if comp.dirs is not None else ():
            if d.origin[:1] == (FIT_ORIGIN,):
                if d.pipeline is False:
                    given_up.append(d.origin[1])
                else:
                    raised[d.origin[1]] = d.ii
        res.report["fit_device"] = {"device": dev.name, "steps": steps,
                                    "max_units": dict(sorted(comp.opts.max_units.items())),
                                    "given_up": given_up, "ii_raised": raised}
    _run_tools(res, opts, res.interface.module_name)
    return comp, res


#: the origin of the loop directives :func:`fit_device` adds
FIT_ORIGIN = "fitting the part"


def _loop_places(module: Module) -> dict[str, tuple[str | None, int | None]]:
    """Each loop's report name -> (file, line) of its ``for``/``while``/``do`` statement
    (the file of its latch's branch: a loop inlined from an included file is there)."""
    out: dict[str, tuple[str | None, int | None]] = {}
    for f in module.functions:
        for lp in find_loops(f):
            line = loop_line(lp)
            file = next((b.terminator.loc.file for b in lp.latches
                         if b.terminator.loc is not None and b.terminator.loc.file), None)
            if line is not None and file is not None:
                out.setdefault(loop_name(f, lp), (file, line))
    return out


def _fit_moves(report: dict, dirs, excess: int) -> list[tuple]:
    """The pipelines :func:`fit_device` changes next, grouped by source line (every
    inlined copy of a loop at once), among those pyhls chose (no directive or pragma of
    the user's asks for the pipeline or its II): ``(function, line, label, name, action,
    DSP blocks freed, cycles lost)``, ``action`` ``("ii", k)`` (the pipeline at II ``k``,
    twice its II, at most one op per unit: its multiply and FP units shared,
    ``ceil(uses / k)`` per class, ``report.json["loops"][*]["unit_uses"]``; about ``k - II``
    more cycles per iteration) or ``("off",)`` (not pipelined: its DSP blocks, for the
    sequential less the pipelined estimate of the profile's iterations).  The moves, at
    most one per loop, cover ``excess`` for the fewest cycles in all (a group knapsack by
    dynamic programming over the blocks freed, capped at the excess; ties: fewer moves,
    then source order); else every loop given up."""
    groups: dict[tuple, dict] = {}
    # (a C++ function is shown by its display name; directives name its symbol)
    symbol = {f["name"]: f.get("symbol", f["name"]) for f in report.get("functions", [])}
    user = Directives(loops=[d for d in (dirs.loops if dirs is not None else ())
                             if d.origin[:1] != (FIT_ORIGIN,)])
    ours = {(d.function, d.line, d.label) for d in (dirs.loops if dirs is not None else ())
            if d.origin[:1] == (FIT_ORIGIN,)}
    for lp in report["loops"]:
        if not lp.get("pipelined") or not lp.get("dsp"):
            continue
        fn = symbol.get(lp["function"], lp["function"])
        line = lp["source_line"]
        key = (fn, line, None if line is not None else lp["loop"])
        asked = user.for_loop(fn, line, lp["loop"])
        if asked.get("pipeline") or asked.get("ii") or (
                "requested_ii" in lp and key not in ours):
            continue         # the user asked for this pipeline
        est = lp.get("estimate") or {}
        g = groups.setdefault(key, {"name": lp["name"], "dsp": 0, "gain": 0, "ii": 0,
                                    "iters": 0, "units": []})
        g["dsp"] += lp["dsp"]
        g["gain"] += max(0, (est.get("sequential_cycles") or 0)
                         - (est.get("pipelined_cycles") or 0))
        g["ii"] = max(g["ii"], lp["ii"])
        g["iters"] += est.get("iterations") or lp.get("trip_count") or 0
        g["units"] += [(u["ops"], u["instances"])
                       for u in (lp.get("unit_uses") or lp.get("units") or {}).values()]
    items = []
    for key, g in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0,
                                                          kv[0][2] or "")):
        opts = []
        most = max((n for n, _ in g["units"]), default=0)
        k = min(2 * g["ii"], most)
        if k > g["ii"]:
            now = sum(i for _, i in g["units"])
            then = sum(-(-n // k) for n, _ in g["units"])
            freed = g["dsp"] - -(-g["dsp"] * then // now)
            if freed > 0:
                opts.append((("ii", k), freed, (k - g["ii"]) * g["iters"]))
        opts.append((("off",), g["dsp"], g["gain"]))
        items.append((key, g, opts))
    best: dict[int, tuple] = {0: (0, 0, ())}
    for n, (_, _, opts) in enumerate(items):
        nxt = dict(best)
        for freed, (cost, moves, picks) in sorted(best.items()):
            for o, (_, got, lost) in enumerate(opts):
                f, cand = min(excess, freed + got), (cost + lost, moves + 1, picks + ((n, o),))
                if f not in nxt or cand < nxt[f]:
                    nxt[f] = cand
        best = nxt
    picks = best[excess][2] if excess in best else tuple(
        (n, len(opts) - 1) for n, (_, _, opts) in enumerate(items))
    out = []
    for n, o in picks:
        (fn, line, label), g, opts = items[n]
        action, got, lost = opts[o]
        out.append((fn, line, label, g["name"], action, got, lost))
    return out


def _with_moves(comp: Compilation, moves, off: bool = False) -> Compilation:
    """``comp`` with the loop directives of :func:`_fit_moves`' ``moves`` (``off``: each
    loop given up, whatever its move), each replacing an earlier one of the fit's on the
    same loop."""
    dirs = comp.dirs or Directives(source=FIT_ORIGIN)
    keys = {(fn, line, label) for fn, line, label, *_ in moves}
    loops = [d for d in dirs.loops if not (d.origin[:1] == (FIT_ORIGIN,)
                                           and (d.function, d.line, d.label) in keys)]
    for fn, line, label, name, action, _, _ in moves:
        if action[0] == "ii" and not off:
            loops.append(LoopDirective(fn, line=line, label=label, pipeline=True,
                                       ii=action[1], origin=(FIT_ORIGIN, name)))
        else:
            loops.append(LoopDirective(fn, line=line, label=label, pipeline=False,
                                       origin=(FIT_ORIGIN, name)))
    return dataclasses.replace(comp, dirs=dataclasses.replace(dirs, loops=loops))


def _build_all(comp: Compilation, front: Module, ctypes, t0: float) -> SynthResult:
    """:func:`_build`, again with the options it asks for while it asks."""
    while True:
        try:
            # (a design built again: its time_s["frontend"] counts the attempts before it)
            return _build(comp, front, ctypes, t0)
        except BuildAgain as again:
            comp = dataclasses.replace(comp, opts=again.opts)


def _build(comp: Compilation, front: Module, ctypes, t0: float) -> SynthResult:
    """Plan, lower, schedule, bind and build a clone of the frontend's module ``front``
    and its report; raises :class:`BuildAgain` when the design must be built again with
    other options."""
    return build_lowered(comp, plan_and_lower(comp, front), ctypes, t0)


@dataclass
class Lowered:
    """A design planned and lowered (:func:`plan_and_lower`), not yet scheduled: the
    module after the passes, what the scheduler weighs pipelines against (``profit``),
    the partitions made (report.json entries), the memories automatic partitioning must
    leave whole, and the time the passes ended.  It is built once: scheduling goes on
    in its module (automatic partitioning) and adds to its partitions."""

    module: Module
    profit: Profitability | None
    partitions: list
    keep_whole: set
    t1: float
    #: when the planning began (the frontend's end, for a first build) and ended
    t_plan: tuple[float, float]


def plan_and_lower(comp: Compilation, front: Module) -> Lowered:
    """The first half of a build: the loops planned (:func:`plan_loops`) and a clone of
    the frontend's module ``front`` lowered by the passes.  What a design is follows from
    it and the compilation (:func:`build_lowered`)."""
    t_plan = time.perf_counter()
    module = front.clone()
    with _pragma_notes(comp.pragmas):
        progress.stage("planning loops", comp.opts.top)
        profit, keep, unroll = plan_loops(comp, front)
        t_lower = time.perf_counter()
        partitions, keep_whole, t1 = _lower(module, comp, keep, unroll=unroll)
    return Lowered(module, profit, partitions, keep_whole, t1, (t_plan, t_lower))


def build_lowered(comp: Compilation, lowered: Lowered, ctypes, t0: float) -> SynthResult:
    """The second half of a build: schedules, bindings, automatic partitioning, the RTL,
    the Verilog and the report of the lowered design; raises :class:`BuildAgain` when the
    design must be built again with other options."""
    opts, inp, target, dirs, platform = comp.opts, comp.inp, comp.target, comp.dirs, comp.platform
    pragmas = comp.pragmas
    module, partitions, t1 = lowered.module, lowered.partitions, lowered.t1
    with _pragma_notes(pragmas):
        schedules, bindings = _schedule(module, comp, lowered.profit, partitions,
                                        lowered.keep_whole)
    t2 = time.perf_counter()
    if opts.m_axi and not platform.axi:
        raise HLSError(f"m_axi interfaces need an Alveo target (--target alveo), not "
                       f"'{target.name}'")
    if opts.axis and not platform.axi:
        raise HLSError(f"axis interfaces need an Alveo target (--target alveo), not "
                       f"'{target.name}'")
    axis = list(opts.axis) + (stream_args(module, opts) if platform.axi else [])
    pragma_at = {d.port: d.origin for d in (dirs.interfaces if dirs else ()) if d.mode == "axis"}
    for arg in axis:
        check_stream_arg(module, arg, pragma_at.get(arg))
    if target.tech.ram_single_writer:
        two = two_writers(module, schedules)
        if two and set(two) <= set(opts.single_port):
            raise InternalError(f"memories given one port are still written twice in a "
                                f"cycle: {', '.join(two)}")
        if two:
            raise BuildAgain(dataclasses.replace(
                opts, single_port=tuple(sorted(set(opts.single_port) | set(two)))))
    # an AXI top keeps writable globals on chip (only pointer arguments go over m_axi)
    ext = () if platform.axi else tuple(g for g in module.globals if not g.readonly)
    if opts.loop_probes and platform.axi:
        raise HLSError("loop profiling (loop probes) is available for the plain "
                       "ap_ctrl_hs top only, not for Alveo targets")
    graphs = dataflow_graphs(module, dirs, target, schedules)
    for d in opts.dataflow:
        if d not in {f.name for f in module.functions}:
            raise HLSError(f"--dataflow: '{d}' is not a hardware function of this design")
    progress.stage("RTL", module.top.name)
    rtl = TopRTL(bindings, module.top, ext, probes=opts.loop_probes, dataflow=graphs,
                 monitor=opts.dataflow_monitor and not platform.axi)
    top_loc = module.top.loc
    for cname, port in rtl.renamed:
        warn(top_loc.file if top_loc else None, top_loc.line if top_loc else None,
             f"argument '{cname}' of {module.top.name} is named like a port pyhls generates "
             f"(the handshake, another argument's memory ports): its port is '{port}'")
    name = module_name(opts.top, [f.name for f in module.functions])
    iface = rtl.interface(name).with_c_types(ctypes.args, ctypes.ret)
    axi = None
    progress.stage("Verilog emission", name)
    try:
        if platform.axi:
            top_rtl = AlveoTop(rtl, iface, opts.m_axi, axis=axis,
                               data_width=opts.axi_data_width, line_beats=opts.axi_line_beats,
                               prefetch=opts.axi_prefetch)
            iface = top_rtl.interface          # stream arguments marked
            axi = dataclasses.replace(top_rtl.description, internal_globals=tuple(
                g.name for g in module.globals if not g.readonly))
            verilog = emit_verilog(top_rtl, name)
        else:
            verilog = emit_verilog(rtl, name)
    except CombinationalCycle as exc:
        # LUT RAM reads are combinational: with the muxes of shared units and ports, two
        # of them can close a loop that no state takes but the netlist has.  Those
        # memories go back to block RAM (a register on the read path) and the design is
        # built again; a loop through no such memory is a bug.
        names = _lut_rams_in(str(exc), module)
        if not names:
            raise
        raise BuildAgain(dataclasses.replace(opts, block_ram=opts.block_ram + names)) from None
    t3 = time.perf_counter()
    report = build_report(module, target, schedules, bindings, iface, dirs,
                          external=frozenset(ext))
    report["arrays"] = partitions
    if pragmas:
        report["pragmas"] = pragma_report(pragmas, report)
    if opts.single_port:
        report["single_port"] = {
            "memories": list(opts.single_port),
            "why": "scheduled with one port: the first schedule wrote them twice in a cycle, "
                   f"and {target.name}'s block RAM and LUT RAM take one write per cycle"}
    est = estimated_fmax_mhz(target, schedules)
    report["clock_estimated_ns"] = round(1000.0 / est, 3) if est else None
    if share_report(module) or wrap_report(module):
        report["plm"] = plm_report(module, schedules, bindings)
    if graphs:
        regions = [graph_report(g, schedules) for g in graphs.values()]
        report["dataflow"] = regions[0] if len(regions) == 1 else {"regions": regions}
        dataflow_resources(report, graphs, _regions(report))
    if axi is not None:
        # the AXI4 master adapters between the core and its m_axi bundles
        adapters = [axi_adapter_area(ad) for _b, ad in sorted(top_rtl.adapters.items())]
        if adapters:
            part = {k: sum(a[k] for a in adapters) for k in ("lut", "ff", "dsp", "bram18")}
            for k, v in part.items():
                report["resources"][k] += v
            report["resources"]["axi_adapters"] = part
    if target.device is not None:
        over = _device_excess(target, report)
        report["device"] = target.device.to_json() | {"fits": not over}
        if over and opts.fit_device is False:   # (else fit_device fits it, or says why not)
            top_loc = module.top.loc
            warn(top_loc.file if top_loc else None, top_loc.line if top_loc else None,
                 f"{module.top.name} does not fit: its estimate needs "
                 f"{_excess_text(target, over)}; {_will_fail(over)} (--fit-device "
                 f"shares multipliers and gives up pipelines for DSP blocks; or choose a "
                 f"larger part)")
    report["schedule"] = schedule_report(module, schedules)
    # frontend: to the planning (a design built again: with the attempts before it);
    # planning: the trial lowerings and schedules (plan_loops); passes: the lowering
    p0, p1 = lowered.t_plan
    report["time_s"] = {"frontend": round(p0 - t0, 3), "planning": round(p1 - p0, 3),
                        "passes": round(t1 - p1, 3), "schedule_bind": round(t2 - t1, 3),
                        "rtl": round(t3 - t2, 3)}
    if axi is not None:
        report["axi"] = axi.to_json()
    res = SynthResult(module, target, schedules, bindings, rtl, verilog, iface, report, inp,
                      axi)
    _run_tools(res, opts, name)
    return res


def _run_tools(res: SynthResult, opts: SynthOptions, name: str) -> None:
    """The end of a build: the Yosys area count (``estimate_area``/``estimate_memories``)
    and the place and route (``place_route``) of its Verilog into its report, then the
    report's names as the user wrote them (:func:`display_report`).  A fitting trial
    (:func:`fit_device`) is built without them, and they run on the design it keeps."""
    report, verilog, target = res.report, res.verilog, res.target
    t3 = time.perf_counter()
    if opts.estimate_area or opts.estimate_memories:
        progress.stage("area estimate (Yosys)", name)
    if opts.estimate_area and target.family == "ecp5":
        report["resources_yosys"] = yosys_ecp5_area(verilog, name)
    elif opts.estimate_area or opts.estimate_memories:
        report["resources_yosys"] = yosys_area(verilog, name, opts.area_family,
                                               memories_only=not opts.estimate_area)
        report["time_s"]["yosys"] = round(time.perf_counter() - t3, 3)
    if opts.place_route:
        t4 = time.perf_counter()
        progress.stage("place and route", name)
        report["timing"] = place_and_route(verilog, res.interface, target, res.schedules,
                                           opts.pnr_seeds)
        report["time_s"]["place_route"] = round(time.perf_counter() - t4, 3)
    display_report(report, [f.name for f in res.module.functions])


def display_report(report: dict, symbols) -> None:
    """report.json names functions as the user wrote them: a C++ function's ``top``,
    ``function`` and ``functions[*].name`` are its display name
    (:func:`hls.names.display_names`: ``ns::f``; its symbol in ``top_symbol`` and
    ``functions[*].symbol``), and a mangled symbol anywhere else in the report's text
    is demangled.  A C design's report is left as it is."""
    names = {s: d for s, d in display_names(symbols).items() if s != d}
    if not names:
        return

    def walk(x, key=None):
        if isinstance(x, dict):
            return {demangle_text(k) if isinstance(k, str) else k: walk(v, k)
                    for k, v in x.items()}
        if isinstance(x, list):
            return [walk(v, key) for v in x]
        if isinstance(x, str):
            if key in ("symbol", "top_symbol"):
                return x
            if key in ("top", "function") and x in names:
                return names[x]
            return demangle_text(x)
        return x

    for f in report.get("functions", []):
        if f["name"] in names:
            f["symbol"] = f["name"]
            f["name"] = names[f["name"]]
    top = report.get("top")
    new = walk(report)
    report.clear()
    report.update(new)
    if top in names:
        report["top_symbol"] = top


def estimated_fmax_mhz(target: Target, schedules) -> float | None:
    """The clock the model claims: the longest chained path of any cycle of any schedule
    (block or pipeline) plus the target's step overhead."""
    worst = 0.0
    for fs in schedules.values():
        for bs in fs.blocks.values():
            worst = max([worst, *bs.schedule.arrival_ns.values()])
            if bs.pipeline is not None and bs.pipeline.schedule is not None:
                worst = max([worst, *bs.pipeline.schedule.arrival_ns.values()])
    path = worst + target.tech.step_overhead_ns
    return round(1000.0 / path, 3) if path > 0 else None


def place_and_route(verilog: str, iface: TopInterface, target: Target, schedules,
                    seeds: int = 1) -> dict:
    """``report["timing"]``: the design in its place-and-route harness (hls.pnr) through
    the target's open flow, against the target's clock, placed with seeds 1 to ``seeds``
    until one placement meets it."""
    if target.platform.axi:
        raise HLSError("--place-route: Alveo tops (AXI adapters) have no open flow; "
                       "use --target ecp5")
    flow = flow_for_target(target, seeds)
    wrapped = pnr_harness(verilog, iface)
    result = flow.run(wrapped, HARNESS_TOP, target.clock_period_ns)
    return timing_report(result, wrapped, estimated_fmax_mhz(target, schedules))


def _load(path, opts: SynthOptions, inp: LoadedInput, file_dirs: Directives | None = None) -> Module:
    """The frontend (``file_dirs``: the directives file of ``opts``, parsed and resolved,
    whose dataflow regions it keeps apart; parsed here when not given)."""
    if file_dirs is None and opts.directives:
        file_dirs = resolve_directives(load_directives(opts.directives),
                                       defined_functions(inp.text))
    regions = tuple(opts.dataflow)
    if file_dirs is not None:
        regions += tuple(file_dirs.dataflow)
    pragma_regions, noinline = function_pragmas(inp)
    regions += pragma_regions
    return load(path, opts.top, FrontendOptions(depth=dict(opts.depth), cc=opts.cc,
                                                cflags=tuple(opts.cflags),
                                                fp_format=dict(opts.fp_format),
                                                dataflow=tuple(dict.fromkeys(regions)),
                                                noinline=noinline,
                                                check_depth=opts.check_depth),
                inp=inp)


@contextlib.contextmanager
def _pragma_notes(uses):
    """An error at the line of a loop a ``#pragma HLS`` addresses names the pragma."""
    try:
        yield
    except HLSError as exc:
        for u in uses:
            lp = u.pragma.loop
            if (u.loops and lp is not None and exc.line == lp.line and exc.file is not None
                    and Path(exc.file).name == Path(lp.file).name
                    and "#pragma HLS" not in exc.message):
                exc.message += f" (asked by #pragma {u.pragma.shown} at line {u.pragma.line})"
                exc.args = (exc.message,)
                break
        raise


def dataflow_streams(module: Module, dirs=None, target: Target | None = None,
                     all_useful: bool = True) -> set:
    """The memories of dataflow tasks (callee side) through which tasks pass a channel of
    their region as a provable in-order stream at both ends (so it can be a FIFO), whose
    loops automatic unrolling leaves rolled (an unrolled loop moves several elements per
    cycle, not one stream): those a ``[[channel]]`` directive makes FIFOs (``kind =
    "fifo"`` or a ``depth``), and with ``all_useful`` every one whose FIFO would overlap
    its producer and consumer (:func:`plan_unrolling` weighs that against unrolling).
    Every ``hls::stream`` (``MemoryObject.stream``) is one of them: a stream moves one
    element per cycle, as its in-order proofs (FIFO channels, AXI4-Stream) expect."""
    out = {m for f in module.functions for m in list(f.memories)
           + [p.mem for p in f.ptr_params] if m.stream}
    byname = {f.name: f for f in module.functions}
    for name in module.dataflow:
        f = byname.get(name)
        if f is None:
            continue
        try:
            g = extract_graph(module, f)
            if target is not None:
                choose_instances(g, target, dirs)
        except HLSError:
            continue
        G = task_graph_nx(g)
        able = [c for c in g.channels if len(c.users) == 2 and not any(
            g.shares(t) for t, _cm, _o in c.users) and all(
            stream_order_problem(t.function, cm) is None for t, cm, _o in c.users)]
        asked = {d.name for d in (dirs.channels if dirs is not None else ())
                 if d.function == name and (d.kind == "fifo" or d.depth is not None)}
        for c in able:
            if c.name in asked:
                out.update(cm for _t, cm, _o in c.users)
        if not all_useful:
            continue
        # a FIFO overlaps its ends only when the consumer does not also wait for the
        # producer's whole frame along another path (a ping-pong buffer, a scalar result,
        # the order of an argument's users): such channels are left to unrolling, and
        # the others are checked again without them
        while True:
            fifo_edges = {(c.producer, c.consumers[0]) for c in able}
            others = [e for e in G.edges if e not in fifo_edges]
            keep = [c for c in able if not any(
                (u == c.producer or nx.has_path(G, c.producer, u))
                and (v == c.consumers[0] or nx.has_path(G, v, c.consumers[0]))
                for u, v in others)]
            if len(keep) == len(able):
                break
            able = keep
        for c in able:
            out.update(cm for _t, cm, _o in c.users)
    return out


def dataflow_graphs(module: Module, dirs, target: Target, schedules=None) -> dict:
    """The task graph of each dataflow region of ``module`` (after lowering), with its
    channels chosen."""
    graphs = {}
    byname = {f.name: f for f in module.functions}
    for name in module.dataflow:
        f = byname.get(name)
        if f is None:
            continue
        g = extract_graph(module, f)
        choose_instances(g, target, dirs)
        choose_channels(g, dirs, schedules)
        graphs[f] = g
    if dirs is not None:
        for d in dirs.channels:
            if d.function not in {f.name for f in graphs}:
                raise HLSError(f"[[channel]] names function '{d.function}', which is not a "
                               "dataflow region of this design", dirs.source, None)
    return graphs


def _single_port(module: Module, opts: SynthOptions) -> None:
    """Give the memories ``opts.single_port`` names (``function/memory``) one port."""
    if not opts.single_port:
        return
    for f in module.functions:
        for op in f.ops():
            if op.mem is not None and f"{f.name}/{op.mem.name}" in opts.single_port:
                op.mem.ports = 1


def _lower_and_schedule(module: Module, comp: Compilation, profit: Profitability | None,
                        keep: frozenset, quiet: bool = False, bind_too: bool = True,
                        unroll: tuple = ()):
    """The passes on ``module`` (lowered in place), then a schedule (and binding) per
    function, then automatic partitioning and the schedules of the functions it changed.
    Returns the partitions (report.json entries), schedules, bindings and the time the
    passes ended."""
    partitions, keep_whole, t1 = _lower(module, comp, keep, quiet=quiet, unroll=unroll)
    schedules, bindings = _schedule(module, comp, profit, partitions, keep_whole,
                                    bind_too=bind_too)
    return partitions, schedules, bindings, t1


def _lower(module: Module, comp: Compilation, keep: frozenset, quiet: bool = False,
           unroll: tuple = ()) -> tuple[list[dict], set, float]:
    """The passes on ``module`` (lowered in place; ``keep``: the loops if-conversion
    leaves alone, ``unroll``: the loops the flow unrolls); returns the partitions
    (report.json entries), the memories automatic partitioning must leave whole and the
    time the passes ended."""
    opts, dirs, target = comp.opts, comp.dirs, comp.target
    partitions, keep_whole = lower_module(module, opts, dirs, target.platform, keep=keep,
                                          quiet=quiet, unroll=unroll)
    _single_port(module, opts)
    return partitions, keep_whole, time.perf_counter()


def _schedule(module: Module, comp: Compilation, profit: Profitability | None,
              partitions: list, keep_whole: set, bind_too: bool = True) -> tuple[dict, dict]:
    """A schedule (and binding) per function of the lowered ``module``, then automatic
    partitioning (its entries appended to ``partitions``) and the schedules of the
    functions it changed."""
    opts, dirs, target = comp.opts, comp.dirs, comp.target
    schedules, bindings = {}, {}
    # an II a directive asks for may need the banks automatic partitioning makes: the
    # first schedules take the least II above it, and every function where that was not
    # the II asked for is scheduled again after the partitioning, as asked (an error
    # where the banks did not reach it, unless --relax-ii)
    auto = opts.pipeline and opts.auto_partition

    def schedule_and_bind(f, relax: bool = opts.relax_ii):
        fs = schedule_function(f, target, method=opts.scheduler, check=opts.check_schedules,
                               resources=opts.max_units or None, pipeline=opts.pipeline,
                               directives=dirs, relax_ii=relax, profit=profit,
                               share_units=opts.share_pipeline_units)
        schedules[f] = fs
        if bind_too:  # with explicit unit limits every multiplier is shared, whatever its width
            progress.stage("binding", f"@{f.name}")
            bindings[f] = bind(fs, share_min_width=1 if opts.max_units else 16,
                               limited=bool(opts.max_units))

    for f in module.functions:
        schedule_and_bind(f, relax=opts.relax_ii or auto)
    if auto:
        plan = auto_partition_plan(module, schedules, keep_whole)
        again = {f for f in module.functions if not opts.relax_ii and any(
            p.relaxed is not None for p in schedules[f].pipelines.values())}
        redo = set()
        for mem, part in plan.items():
            users = partition_array(module, mem, part)
            partitions.append(array_entry(users[0], mem, part, auto=True))
            redo.update(users)
        _single_port(module, opts)     # the banks of an automatic partition are new memories
        for f in module.functions:
            if f in redo:
                run_passes(f, options={"div-by-constant": divconst_options(opts),
                                       "forward-stores": ScalarOptions(top=module.top.name)})
            if f in redo or f in again:
                schedule_and_bind(f)
    return schedules, bindings


def plan_loops(comp: Compilation, module: Module) -> tuple[Profitability | None, frozenset,
                                                          tuple]:
    """What the scheduler weighs pipelines against, the loops if-conversion leaves alone,
    and the loops to unroll (``module``: as the frontend made it; it is not changed,
    every trial lowers a clone of it).

    * A top without arguments is profiled first (:func:`hls.analysis.profile_top`).
    * The loops if-conversion would convert are costed as they are, with their branches:
      the module is lowered once with none of them converted and their blocks scheduled.
    * Then once with all of them converted and pipelined where that pays: a converted loop
      left sequential (its pipeline does not pay) is better off with its branches, and
      the real lowering keeps them (``IfConversionOptions.keep``).
    * Then the pipelined loops are unrolled (:func:`plan_unrolling`)."""
    opts, dirs, target = comp.opts, comp.dirs, comp.target
    if not (opts.pipeline and opts.profitability):
        return None, frozenset(), ()
    profile = profile_top(module) if opts.profile else None
    cands = frozenset((f.name, lp.header.name) for f in module.functions
                      for lp in if_conversion_candidates(f))
    if not cands:
        profit = Profitability(profile)
        return profit, frozenset(), plan_unrolling(comp, module, profit, frozenset(),
                                                   regions=bool(module.dataflow))
    with warnings_off():      # trial lowerings: the real one warns
        plain = module.clone()
        lower_module(plain, opts, dirs, comp.platform, keep=cands, quiet=True)
    before = {}
    for f in plain.functions:
        loops = [lp for lp in find_loops(f) if (f.name, lp.header.name) in cands]
        if not loops:
            continue
        fs = schedule_function(f, target, method=opts.scheduler, check=opts.check_schedules,
                               resources=opts.max_units or None, pipeline=False)
        lengths = {b: bs.schedule.length for b, bs in fs.blocks.items()}
        for lp in loops:
            before[(f.name, lp.header.name)] = iteration_states(lp, lengths, profile)
    profit = Profitability(profile, before)
    with warnings_off():
        trial = module.clone()
        parts, schedules, _, _ = _lower_and_schedule(trial, comp, profit, frozenset(),
                                                     quiet=True, bind_too=False)
    for f, fs in schedules.items():
        for lp, why in fs.loops:
            if why is not None and (f.name, lp.header.name) in cands:
                est = fs.estimates.get(lp.header)
                if est is not None and est.pipelined is not None:
                    profit.kept[(f.name, lp.header.name)] = est
    # a converted loop not pipelined for another reason is better off with its branches too
    keep = frozenset((f.name, lp.header.name) for f, fs in schedules.items()
                     for lp, why in fs.loops
                     if why is not None and (f.name, lp.header.name) in cands)
    # with nothing kept, that trial is the lowering plan_unrolling starts from
    pre = (trial, parts, schedules) if not keep else None
    return profit, keep, plan_unrolling(comp, module, profit, keep, pre,
                                        regions=bool(module.dataflow))


#: unroll factors tried, each on the loops the one before paid for
UNROLL_FACTORS = (2, 4)
#: an unrolled loop must save this share of the loop's estimated cycles (it costs area)
UNROLL_GAIN = 0.9
#: inner loops of at most this many iterations (and ops x iterations) may be unrolled
#: fully, so that their parent loop pipelines over the nest
FULL_UNROLL_TRIPS = 16
FULL_UNROLL_OPS = 1024
#: at most this many ops in an unrolled loop body (modulo scheduling time grows fast)
UNROLL_OPS = 1024


def plan_unrolling(comp: Compilation, front: Module, profit: Profitability, keep: frozenset,
                   pre: tuple | None = None, regions: bool = False) -> tuple:
    """The loops worth unrolling (:func:`plan_unrolling_with`; ``front``: the frontend's
    module, each trial a clone of it).  With dataflow regions,
    twice: with the task loops that pass a FIFO-able channel left rolled (their FIFOs
    overlap producer and consumer within a frame) and with every loop free to unroll
    (faster tasks, ping-pong channels); the plan whose regions' estimated cycles
    (:func:`hls.dataflow.region_estimate`) are lower is kept."""
    free = plan_unrolling_with(comp, front, profit, keep, pre, streams=False)
    if not comp.opts.auto_unroll or not regions:
        return free
    rolled = plan_unrolling_with(comp, front, profit, keep, pre, streams=True)
    if rolled == free:
        return free

    def cycles(unroll: tuple) -> float:
        with warnings_off():
            mod = front.clone()
            _, schedules, _, _ = _lower_and_schedule(mod, comp, profit, keep, quiet=True,
                                                     bind_too=False, unroll=unroll)
            try:
                graphs = dataflow_graphs(mod, comp.dirs, comp.target, schedules)
            except HLSError:
                return float("inf")
        return sum(region_estimate(g, schedules) for g in graphs.values())

    return rolled if cycles(rolled) <= cycles(free) else free


def plan_unrolling_with(comp: Compilation, front: Module, profit: Profitability,
                        keep: frozenset, pre: tuple | None = None,
                        streams: bool = False) -> tuple:
    """The loops worth unrolling, as ((function, header), factor or "full") pairs.

    A clone of the frontend's module ``front`` is lowered and scheduled as the flow will
    (``keep``), then other clones:

    1. with every innermost loop of a constant trip count of at most
       :data:`FULL_UNROLL_TRIPS`, the only loop of its parent, unrolled fully: the parent
       becomes one block and may be pipelined over the whole nest.  Kept where the
       parent's estimate is at most :data:`UNROLL_GAIN` of the nest's before (the inner
       loop's estimate and the parent's own states);
    2. with every pipelined innermost loop of at least 2 iterations per entry that nothing
       asks to unroll or pipeline at a given II unrolled by 2, then by 4 those that paid
       (a loop of a data-dependent trip count too: a ``while`` loop of 3 iterations per
       entry in the profile runs in 1 or 2), with automatic partitioning
       (spare ports of dual-port memories, or banks, and spare units take the copies).  A
       factor is kept where the loop's estimated cycles (:class:`hls.scheduling.LoopEstimate`,
       the unrolled loop running fewer iterations) are at most :data:`UNROLL_GAIN` of the
       factor before.

    Partitioning for the copies is module-wide: an array split for one loop can cost
    another loop that reaches it at addresses of no static bank (ports of every bank, and
    dependences the analysis can no longer rule out).  So every loop of the trial is
    compared with the loop before, and where one got slower, the unrolled loops that
    share an array with it are dropped and the trial is made again."""
    dirs, target = comp.dirs, comp.target
    if not comp.opts.auto_unroll:
        return ()

    def trial(unroll: dict) -> dict:
        """{(function, header): _Trial} for every loop, lowered and scheduled with
        ``unroll`` (``pre``: the module, partitions and schedules of the lowering without
        any)"""
        if not unroll and pre is not None:
            mod, parts, schedules = pre
        else:
            with warnings_off():
                mod = front.clone()
                parts, schedules, _, _ = _lower_and_schedule(
                    mod, comp, profit, keep, quiet=True, bind_too=False,
                    unroll=tuple(sorted(unroll.items())))
        out = _TrialRun()
        args = {p.mem.name for p in mod.top.ptr_params}
        out.top_banked = frozenset((e["name"], e["banks"]) for e in parts if e["name"] in args)
        # on a platform with AXI ports the top's pointer arguments are m_axi or
        # AXI4-Stream ports: a stream takes exactly one access per iteration, and a bundle
        # has one port
        axi = {p.mem for p in mod.top.ptr_params} if comp.platform.axi else set()
        # a dataflow task's loop over a channel it reads or writes in order stays rolled:
        # the channel can then be a FIFO (one element per cycle, in order)
        axi |= dataflow_streams(mod, dirs, target, streams)
        for f, fs in schedules.items():
            kids: dict = {}
            for lp, _ in fs.loops:
                kids.setdefault(lp.parent, []).append(lp)
            for lp, why in fs.loops:
                est = fs.estimates.get(lp.header)
                if est is None:
                    continue
                inner = lp not in kids
                mems = [op.mem for b in lp.blocks for op in b.ops if op.mem is not None]
                nested = {b for k in kids.get(lp, ()) for b in k.blocks}
                own = iteration_states(lp, {b: 0 if b in nested else fs.blocks[b].schedule.length
                                            for b in lp.blocks}, profit.profile)
                out[(f.name, lp.header.name)] = _Trial(
                    lp, est.sequential if why is not None else est.pipelined, inner,
                    why is None and lp.header in fs.pipelines and not any(m in axi for m in mems),
                    any(m in axi for b in lp.blocks for op in b.ops
                        for m in [op.mem] + [c for _p, c, _o in (op.call_ptr_args()
                                                                if op.kind == "call" else ())]),
                    frozenset((m.whole or m).name for m in mems),
                    est.counts.iterations * own, est.counts.per_entry,
                    (f.name, lp.parent.header.name) if lp.parent is not None else None,
                    tuple((f.name, k.header.name) for k in kids.get(lp, ())))
        return out

    def settle(chosen: dict, want: dict, base: dict, gain) -> tuple[dict, dict]:
        """``want`` (added to ``chosen``) without the requests whose trial did not pay
        (``gain(key, trial)``: True when it paid), shared an array with an innermost loop
        of ``base`` that the trial made slower, or touch an argument of the top that the
        trial split into banks (the top's interface: its port sets stay as they were);
        returns the requests and the trial."""
        got = {}
        for _ in range(3):
            got = trial(chosen | want)
            victims = [v.arrays for k, v in got.items() if v.inner and k in base
                       and base[k].inner and k not in want and v.cycles > base[k].cycles]
            victims.append(frozenset(n for n, _ in got.top_banked - base.top_banked))
            shared = {k for k in want if any(_touches(got, base, k) & v for v in victims)}
            want = {k: f for k, f in want.items() if k not in shared and gain(k, got)}
            if not shared:
                return want, got
        return {}, got

    def asked(lp) -> bool:
        return "ii" in loop_directives(lp, dirs) or _unroll_asked(lp, dirs)

    # 1. inner loops of a few iterations fully unrolled: their parent becomes one block,
    #    pipelined over the nest (the nest's estimate: the inner loop's cycles and the
    #    parent's own states, against the parent's after)
    base = trial({})
    full = {}
    for key, t in base.items():
        par = base.get(t.parent)
        if (t.inner and par is not None and par.children == (key,) and auto_unrollable(t.loop)
                and t.loop.trip_count is not None and 2 <= t.loop.trip_count <= FULL_UNROLL_TRIPS
                and len(t.loop.header.ops) * t.loop.trip_count <= FULL_UNROLL_OPS
                and not asked(t.loop) and not asked(par.loop) and not t.fixed):
            full[key] = "full"
    before = {base[k].parent: base[k].cycles + base[base[k].parent].own for k in full}
    chosen: dict = {}
    if full:
        def nest_pays(k, got, base=base):
            p = got.get(base[k].parent)
            return p is not None and p.inner and p.cycles <= UNROLL_GAIN * before[base[k].parent]
        chosen, _ = settle({}, full, base, nest_pays)
        if chosen:
            base = trial(chosen)
    # 2. pipelined innermost loops unrolled by 2, then by 4 where 2 paid
    tried = {key: t.cycles for key, t in base.items()
             if t.inner and t.piped and auto_unrollable(t.loop) and not asked(t.loop)
             and t.per_entry >= 2}
    for factor in UNROLL_FACTORS:
        if not tried:
            break

        def pays(k, got, tried=tried):
            return k in got and got[k].piped and got[k].cycles <= UNROLL_GAIN * tried[k]
        want = {k: factor for k in tried
                if len(base[k].loop.header.ops) * factor <= UNROLL_OPS}
        if not want:
            break
        want, got = settle(chosen, want, base, pays)
        chosen.update(want)
        tried = {k: got[k].cycles for k in want}
    return tuple(sorted(chosen.items()))


class _TrialRun(dict):
    """{(function, header): _Trial} of one trial lowering, and ``top_banked``: the
    top's pointer arguments it split into banks, as (name, banks)."""

    top_banked: frozenset = frozenset()


@dataclass(frozen=True)
class _Trial:
    """A loop in a trial lowering (:func:`plan_unrolling`)."""

    loop: object
    cycles: float          # estimated: pipelined, or sequential (outer loops: means little)
    inner: bool
    piped: bool            # pipelined, and free to unroll (no m_axi/axis port)
    fixed: bool            # touches an m_axi/axis port or a dataflow stream: not unrolled
    arrays: frozenset      # names of the (whole) arrays it touches
    own: float             # states of its own blocks (not those of inner loops) over the run
    per_entry: float       # iterations per entry
    parent: tuple | None
    children: tuple


def _touches(got: dict, base: dict, key) -> frozenset:
    """Arrays of the loop ``key`` in a trial, or in ``base`` (fully unrolled: gone)."""
    t = got.get(key) or base.get(key)
    return t.arrays if t is not None else frozenset()


def _unroll_asked(lp, dirs) -> bool:
    """A pragma or directive says how to unroll ``lp`` (a directive's 1: not at all; a
    pragma's 1 is every loop's note from clang, see :func:`hls.transforms.unroll_requests`)."""
    f = lp.header.function
    return any(latch.terminator.attrs.get("loop_md", {}).get("unroll", 1) != 1
               for latch in lp.latches) or (
        dirs is not None and "unroll" in dirs.for_loop(f.name, loop_line(lp), lp.header.name))


def two_writers(module: Module, schedules) -> list[str]:
    """The on-chip memories (``function/memory``) a schedule stores to twice in one cycle
    (FSM step, or modulo slot of a pipelined loop): every memory but the top's interface
    arrays and the globals (which are outside the design).  A block RAM that takes one
    write per cycle cannot hold them (:attr:`TechParams.ram_single_writer`), nor can a
    LUT RAM (``async_read``): ECP5's ``TRELLIS_DPR16X4`` has one write port, and an array
    written twice in a cycle becomes flip-flops with a read multiplexer over every word
    and a write decoder per port (a 32 x 32-bit array: 3,476 LUT4 and 5.1 ns, against
    98 LUT4 and 2.7 ns in LUT RAM; PolyBench's jacobi-1d at 59 MHz)."""
    top = module.top
    out = set()
    for f in module.functions:
        fs = schedules[f]
        count: dict = {}
        for op in f.ops():
            if op.kind != "store" or op.mem.ports < 2 or op.mem.kind == "global":
                continue
            if f is top and op.mem.kind == "arg":
                continue
            pl = fs.pipelines.get(op.block)
            slot = (pl.time[op] % pl.ii) if pl is not None else fs.step[op]
            key = (op.mem.name, op.block, slot)
            count[key] = count.get(key, 0) + 1
            if count[key] > 1:
                out.add(f"{f.name}/{op.mem.name}")
    return sorted(out)


def _lut_rams_in(message: str, module: Module) -> tuple[str, ...]:
    """The LUT RAM memories whose port signals (``m<i>_<name>_address<k>``,
    ``..._q<k>``) a combinational-cycle report names."""
    mems = {op.mem for f in module.functions for op in f.ops()
            if op.mem is not None and op.mem.async_read}
    names = {(m.whole or m).name for m in mems
             if re.search(rf"\bm\d+_{re.escape(m.name)}_(address|q)\d", message)}
    return tuple(sorted(names))


#: where ``pyhls ir --after`` may stop: after the frontend or after a registered pass
#: (``transforms.PASSES``, in pipeline order); ``transforms.ALIASES`` are accepted too
STAGES = ("frontend",) + tuple(p.name for p in transforms.PASSES)


def lower_module(module: Module, opts: SynthOptions, dirs, platform: Platform,
                 after: str = "passes", keep: frozenset = frozenset(),
                 quiet: bool = False, unroll: tuple = ()) -> tuple[list[dict], set]:
    """The CDFG-to-CDFG passes between the frontend and the scheduler
    (``transforms.PASSES`` by one ``PassManager``), in place, up to and including the pass
    ``after`` (or none: "frontend").  Automatic partitioning comes later: it needs
    schedules.  Returns the partitions made (report.json entries) and the memories
    automatic partitioning must leave whole."""
    after = _stage(after)
    printed = set() if quiet else _print_ir_names(opts)
    if dirs is not None:
        _check_loop_directives(module, dirs)
    with contextlib.ExitStack() as stack:
        out = (stack.enter_context(open(opts.print_ir_to, "w")) if printed and opts.print_ir_to
               else sys.stderr)
        if printed & {"frontend", "all"}:
            out.write("; ----- IR after frontend -----\n" + print_module(module))
            out.flush()
        if after == "frontend":
            return [], set()
        pm = PassManager(transforms.PASSES, {
            "plm": PlmOptions(enabled=bool(opts.plm)),
            "licm": LicmOptions(enabled=opts.licm, top=module.top.name, directives=dirs,
                                regions=frozenset(module.dataflow)),
            "if-conversion": IfConversionOptions(pipeline=opts.pipeline, keep=keep,
                                                 top=module.top.name),
            "unroll": UnrollOptions(directives=dirs, auto=unroll, keep=keep),
            "partition": PartitionOptions(directives=dirs, platform=platform),
            "forward-stores": ScalarOptions(top=module.top.name),
            "scalar-replacement": ScalarOptions(top=module.top.name),
            "load-reuse": ScalarOptions(top=module.top.name),
            "small-memories": SmallMemoryOptions(enabled=opts.small_memories,
                                                 exclude=frozenset(opts.block_ram)),
            "share-memories": ShareOptions(enabled=opts.share_memories),
            "div-by-constant": divconst_options(opts),
        }, until=after, print_after=printed - {"frontend"}, print_to=out if printed else None)
        return pm.run(module).get("partition", ([], set()))


def divconst_options(opts: SynthOptions) -> DivConstOptions:
    """On a target whose delays are measured (``Target.library``), a division whose
    constant-multiplier form does not fit a cycle keeps the sequential divider; the
    uncalibrated models rewrite every division by a constant, as before."""
    target = get_target(opts.target)
    if target.library is None:
        return DivConstOptions()
    if opts.clock_period_ns is not None:
        target = target.with_clock(opts.clock_period_ns)
    return DivConstOptions(target=target)


def _stage(name: str) -> str:
    return resolve_pass(name, transforms.PASSES, transforms.ALIASES, extra=("frontend",),
                        context=f"--after {name}: ", what="stage")


def _print_ir_names(opts: SynthOptions) -> set[str]:
    """The checked names of ``opts.print_ir_after`` (a wrong one is an error before the
    frontend runs, not after)."""
    return {resolve_pass(n, transforms.PASSES, transforms.ALIASES, extra=("frontend", "all"),
                         context=f"--print-ir-after {n}: ") for n in opts.print_ir_after}


def ir_module(path, opts: SynthOptions, after: str = "frontend",
              inp: LoadedInput | None = None) -> Module:
    """The module as ``synthesize`` holds it after the stage ``after`` (``pyhls ir``)."""
    _stage(after)
    _print_ir_names(opts)
    target = get_target(opts.target)
    if opts.clock_period_ns is not None:
        target = target.with_clock(opts.clock_period_ns)
    comp, module = _compile(path, opts, inp, target)
    if _stage(after) == "frontend":
        # the IR text carries the directives (the source's #pragma HLS; those of a
        # .hir read again), which the frontend's module is built without
        module.directives = directive_entries(comp.dirs)
    keep, unroll = frozenset(), ()
    if _stage(after) != "frontend":  # the loops synthesize leaves unconverted, likewise
        _, keep, unroll = plan_loops(comp, module)
    lower_module(module, comp.opts, comp.dirs, comp.platform, after, keep=keep, unroll=unroll)
    return module


def _check_loop_directives(module: Module, dirs) -> None:
    """Every ``[[loop]]`` entry must name a loop: a directive that matches nothing is an
    error, not silently ignored."""
    loops = {f.name: [(loop_line(lp), lp.header.name) for lp in find_loops(f)]
             for f in module.functions}
    for d in dirs.loops:
        if d.function not in loops:
            raise HLSError(f"loop directive for '{d.function}': no such hardware function "
                           f"(functions: {', '.join(loops)})", dirs.source, None)
        here = loops[d.function]
        if not any((d.line is not None and d.line == line) or (d.label is not None and d.label == lab)
                   for line, lab in here):
            what = f"line {d.line}" if d.line is not None else f"label '{d.label}'"
            have = ", ".join(f"{lab} (line {line})" for line, lab in here) or "none"
            raise HLSError(f"loop directive for {d.function} at {what} matches no loop "
                           f"(loops: {have})", dirs.source, None)


def stream_args(module: Module, opts: SynthOptions) -> list[str]:
    """The ``hls::stream`` arguments of the top (``MemoryObject.stream``) that no
    ``--interface`` names: AXI4-Stream interfaces on Alveo targets."""
    named = set(opts.axis) | set(opts.m_axi)
    return [p.name for p in module.top.ptr_params
            if p.mem.stream and p.index >= 0 and p.name not in named
            and str(p.index) not in named]


def _region_task_of(module: Module, f, mem):
    """(callee, its memory) of the one call of the dataflow region ``f`` that receives
    its argument ``mem`` (at offset 0, ``f`` accessing it no other way, one frame per
    call), or None."""
    if f.name not in module.dataflow or find_loops(f):     # (a frames loop re-reads it)
        return None
    calls = [(op, pp) for op in f.ops() if op.kind == "call"
             for pp, m, off in op.call_ptr_args() if m is mem
             and getattr(off, "value", None) == 0]
    direct = any(op.kind in ("load", "store") and op.mem is mem for op in f.ops())
    if len(calls) != 1 or direct:
        return None
    op, pp = calls[0]
    return op.attrs["callee"], pp.mem


def check_stream_arg(module: Module, arg: str, pragma: tuple | None = None) -> None:
    """``--interface ARG=axis``: ARG (a pointer argument's name or position) must be
    accessed as one in-order stream (:func:`hls.analysis.stream_order_problem`); the
    error is at the interface pragma that asked for it when one did (``pragma``: its file
    and line)."""
    f = module.top
    pp = next((p for p in f.ptr_params if p.name == arg or str(p.index) == str(arg)), None)
    if pp is None:
        return      # not a pointer argument: AlveoTop reports it with the candidates
    why = stream_order_problem(f, pp.mem)
    task = _region_task_of(module, f, pp.mem)
    if task is not None:        # a dataflow region's port read or written by one task
        why = stream_order_problem(*task)
    if why is not None:
        loc = pp.mem.loc
        what = "hls::stream argument" if pp.mem.stream else "argument"
        how = ("on --target alveo" if pp.mem.stream else "(#pragma HLS interface axis)"
               if pragma else f"(--interface {arg}=axis)")
        where = pragma or (loc.file if loc else None, loc.line if loc else None)
        raise HLSError(f"{what} '{pp.name}' of {f.name} cannot be an AXI4-Stream "
                       f"{how}: {why}", *where)


def plm_report(module: Module, schedules=None, bindings=None) -> dict:
    """report.json["plm"]: the share-memories groups, each array's lifetime (top-level
    units of its function, and, when every loop of the function has a constant trip
    count, the cycles those units run in one call by the schedule, as
    hls.dataflow.function_cycles counts them), and block RAM tiles: ``bram36`` as built
    (each group's memory, or its banks when automatic partitioning split it; simple dual
    port where binding made them so),
    ``bram36_unpartitioned`` the groups' memories whole, and ``bram36_unshared`` every
    array a memory of its own (unpartitioned); the
    arguments the PLM wrapper gave on-chip memories (``wrapped``)."""
    from .dataflow import function_cycles
    from .transforms import unit_cycles
    groups, arrays = [], []
    shared = unshared = whole = 0.0
    byname = {f.name: f for f in module.functions}
    for fn in share_report(module):
        f = byname.get(fn["function"])
        spans = None
        # cycles only where every loop's trip count is known (an estimate would mislead)
        if (schedules is not None and f in schedules
                and all(lp.trip_count is not None for lp in find_loops(f))):
            fs = schedules[f]
            spans = unit_cycles(f, fs, lambda lp, f=f, fs=fs: function_cycles(f, fs, lp))
        for g in fn["groups"]:
            # as built: automatic partitioning may have split the group's memory in banks
            banks = [m for m in (f.memories if f is not None else [])
                     if m.name == g["memory"] or (m.whole is not None
                                                  and m.whole.name == g["memory"])]
            sdp = bindings[f].simple_dual_port if bindings and f in bindings else set()
            built = (sum(memory_bram18(m, m in sdp) for m in banks) / 2 if banks
                     else g["bram36"])
            whole += g["bram36"]
            g = dict(g, bram36=built)
            groups.append({"function": fn["function"], "memory": g["memory"],
                           "arrays": g["arrays"], "offsets": g["offsets"],
                           "depth_words": g["depth_words"],
                           "width": g["width"], "banks": max(1, len(banks)),
                           "bram36": built})
            for name, life in g["lifetimes"].items():
                entry = {"function": fn["function"], "name": name, "lifetime_units": life}
                if spans is not None and life[1] < len(spans):
                    entry["lifetime_cycles"] = [spans[life[0]][0], spans[life[1]][1]]
                arrays.append(entry)
            shared += g["bram36"]
            unshared += g["bram36_unshared"]
    out = {"groups": groups, "arrays": arrays, "bram36": shared,
           "bram36_unpartitioned": whole, "bram36_unshared": unshared}
    if wrap_report(module):
        out["wrapped"] = wrap_report(module)
    return out


def _regions(report: dict) -> list:
    df = report.get("dataflow")
    return [] if df is None else df.get("regions", [df])


def loop_tripcounts(module: Module, dirs):
    """The latency model's ``tripcount(f, lp)`` from the ``tripcount`` settings of loop
    directives (iterations of the source loop; an unrolled loop runs ceil(n / factor)
    times), or None without any.  A directive on a loop with a constant trip count is
    ignored, with a warning at the loop."""
    if dirs is None or not any(d.tripcount is not None for d in dirs.loops):
        return None
    for f in module.functions:
        for lp in find_loops(f):
            got = dirs.for_loop(f.name, loop_line(lp), lp.header.name).get("tripcount")
            if got is not None and lp.trip_count is not None:
                warn(f.loc.file if f.loc else None, loop_line(lp),
                     f"tripcount directive {got[0]}..{got[1]} for loop {lp.header.name} of "
                     f"@{f.name} ignored: its trip count is the constant {lp.trip_count}")

    def tripcount(f: Function, lp):
        got = dirs.for_loop(f.name, loop_line(lp), lp.header.name).get("tripcount")
        if got is None:
            return None
        k = unroll_factor(lp)
        return (-(-got[0] // k), -(-got[1] // k))

    return tripcount


def build_report(module: Module, target: Target, schedules, bindings, iface: TopInterface,
                 dirs=None, external: frozenset = frozenset()) -> dict:
    funcs, loops = [], []
    lat = latency_report(module, schedules, target.platform,
                         tripcount=loop_tripcounts(module, dirs))
    resources, per_function = area_report(module, target, schedules, bindings, external)
    for f in module.functions:
        fs, bd = schedules[f], bindings[f]
        states = sum(bs.length for bs in fs.blocks.values()) + 1
        funcs.append({
            "name": f.name,
            "blocks": {b.name: fs.blocks[b].length for b in f.blocks},
            "states": states,
            "binding": bd.summary(),
            "memories": [{"name": m.name, "kind": m.kind, "word_bytes": m.word_bytes,
                          "depth_words": m.depth_words, "rom": m.readonly} for m in f.memories],
            "resources": {k: v for k, v in per_function[f.name].items()
                          if k not in ("parts", "loop_dsp")},
        } | ({"latency": lat.function(f)} if lat.function(f) else {}))
        for lp, why in fs.loops:
            pl = fs.pipelines.get(lp.header)
            entry = {"function": f.name, "loop": lp.header.name, "name": loop_name(f, lp),
                     "source_line": loop_line(lp), "trip_count": lp.trip_count}
            if unroll_factor(lp) > 1:   # by a pragma, a directive or the flow's estimate
                entry["unrolled"] = unroll_factor(lp)
            if pl is not None:
                entry.update({"pipelined": True, "ii": pl.ii, "mii": pl.mii,
                              "res_mii": pl.res_mii, "rec_mii": pl.rec_mii, "depth": pl.depth,
                              "stages": pl.stages, "limited_by": pl.limiting,
                              "ii_proven_optimal": pl.optimal, "scheduler": pl.method})
                if pl.requested_ii is not None:
                    entry["requested_ii"] = pl.requested_ii
                if pl.relaxed:
                    entry["ii_relaxed_because"] = pl.relaxed
                if pl.exit_wait:     # hls.scheduling.exit_waits
                    entry["exit_waits_a_stage"] = True
                if target.device is not None:   # its own multipliers' and units' DSP
                    # blocks (hls.estimate), and its ops per class of unit it could share
                    # (hls.scheduling.share_units at a larger II): what fitting the part
                    # weighs (fit_device)
                    entry["dsp"] = per_function[f.name].get("loop_dsp", {}).get(
                        lp.header.name, 0)
                    uses: dict[str, int] = {}
                    for op in pl.block.ops:
                        cls = (pipeline_unit_class(target, op, op_timing(target, op))
                               if op.kind != "phi" else None)
                        if cls is not None:
                            uses[cls] = uses.get(cls, 0) + 1
                    entry["unit_uses"] = {cls: {"ops": n, "instances": pl.units.get(
                        cls, (n, n))[1]} for cls, n in sorted(uses.items())}
                if pl.units:         # hls.scheduling.share_units
                    entry["units"] = {cls: {"ops": n, "instances": k}
                                      for cls, (n, k) in sorted(pl.units.items())}
            else:
                body_steps = sum(fs.blocks[b].length for b in lp.blocks)
                entry.update({"pipelined": False, "ii": None, "mii": None, "res_mii": None,
                              "rec_mii": None, "depth": body_steps, "not_pipelined_reason": why})
            est = fs.estimates.get(lp.header)
            if est is not None:
                entry["estimate"] = est.to_json()
            if lat.loop(f, lp) is not None:
                entry["latency"] = lat.loop(f, lp)
            loops.append(entry)
    return {
        "top": module.top.name,
        "module": iface.module_name,
        "target": target.name,
        "clock_period_ns": target.clock_period_ns,
        "functions": funcs,
        "loops": loops,
        "latency": lat.top().to_json(),
        "resources": resources,
        "interface": {
            "scalars": [{"name": s.name, "width": s.width} for s in iface.scalars],
            "memories": [{"name": m.name, "word_bytes": m.word_bytes, "depth_words": m.depth_words,
                          "ports": m.nports, "global": m.global_name}
                         | ({"stream": m.stream} if m.stream else {}) for m in iface.memories],
            "return_width": iface.return_width,
        },
    }


def latency_estimate(module: Module, schedules) -> dict:
    """report.json's ``latency`` (:func:`hls.estimate.latency_report`)."""
    return latency_report(module, schedules).top().to_json()


def write_outputs(result: SynthResult, out_dir: str | Path, extra: dict | None = None) -> Path:
    """Write ``rtl/<module>.v``, ``report.json``, ``report.rpt`` (the summary table),
    ``report.html`` (the visual report, :func:`hls.report.report_html`) and ``time.json``
    (wall-clock seconds per stage) atomically into ``out_dir``."""
    out = Path(out_dir)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".pyhls-", dir=out.parent))
    try:
        (tmp / "rtl").mkdir()
        (tmp / "rtl" / f"{result.interface.module_name}.v").write_text(result.verilog)
        report = dict(result.report)
        if extra:
            report.update(extra)
        # wall-clock times go beside the report, so that report.json is byte-identical
        # for the same input and options
        times = report.pop("time_s", None)
        (tmp / "report.json").write_text(json.dumps(report, indent=2, sort_keys=False) + "\n")
        (tmp / "report.rpt").write_text(summary_table(report))
        (tmp / "report.html").write_text(report_html(report))
        if times is not None:
            (tmp / "time.json").write_text(json.dumps(times, indent=2) + "\n")
        extra_files = getattr(getattr(result, "source", None), "extra_files", None) or {}
        for name, text in extra_files.items():      # e.g. an .ekl's NAME.ll and NAME.h
            (tmp / name).write_text(text)
        if result.axi is not None:     # alveo: the Vitis RTL-kernel package
            write_vitis_package(tmp / "vitis", result.interface, verilog=result.verilog,
                                m_axi=result.axi.m_axi(), bundles=result.axi.bundle_of)
        if out.exists():
            for item in tmp.iterdir():
                dst = out / item.name
                if dst.is_dir():
                    shutil.rmtree(dst)
                elif dst.exists():
                    dst.unlink()
                os.replace(item, dst)
            shutil.rmtree(tmp)
        else:
            os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out
