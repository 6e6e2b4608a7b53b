"""``cosim``: synthesise, compute golden results natively, simulate, compare.

Stimulus modes (ARCHITECTURE.md): a C testbench (``tb``: every call of the top during
native execution of its ``main`` is captured and replayed), whole program (``top ==
'main'``: return value and final globals), or random (``seed``, ``fixed``, ``runs``).
The golden model is the same canonicalised LLVM IR the hardware was built from.
"""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path

import llvmlite.binding as llvm

from .. import progress
from ..errors import CosimError, FrontendError
from ..flow import SynthOptions, SynthResult, synthesize
from ..frontend import INTERNAL_GLOBALS, read_input
from ..frontend._libm import link_libm
from ..fpu import FPFormat
from ._axi_cosim import DEFAULT_LATENCY, DEFAULT_STALL, run_axi_cosim
from ._compare import CosimResult, run_cosim, run_cosim_main
from ._fpgolden import rewrite_ll
from ._irdiag import ir_diagnosis
from ._profile import loop_profiles
from ._golden import (Call, NativeCrash, capture_tb_calls, random_calls, run_calls, run_main,
                      scalar_ports)
from ._sanitize import NO_SANITIZER, SanitizerFinding, sanitize_run


def _tb_files(tb) -> list[Path]:
    """``tb``: one file, a comma-separated list, or a sequence of either."""
    items = [tb] if isinstance(tb, (str, Path)) else list(tb)
    out = []
    for t in items:
        out += [Path(x) for x in str(t).split(",") if x.strip()] if isinstance(t, str) else [Path(t)]
    return out


def _tb_module_text(result: SynthResult, tb, cc: str | None, cflags=()) -> str:
    """LLVM text holding the testbench ``main`` and the top function.  Testbench files that
    are inputs of the design are taken from the design; the others are compiled (with the
    design's C flags) and linked with it."""
    design = {Path(p).resolve() for p in (result.source.paths or (result.source.path,))}
    tbs = [t for t in _tb_files(tb) if t.resolve() not in design]
    if not tbs:
        return golden_ir(result.module)
    tbp = tbs[0]
    tb_in = read_input(tbs, cc=cc, cflags=cflags)
    tb_mod = llvm.parse_assembly(tb_in.text)
    top = result.module.top.name
    fn = None
    try:
        fn = tb_mod.get_function(top)
    except NameError:
        fn = None
    if fn is not None and not fn.is_declaration:
        # the testbench's own copy of the top: its exp, sin, ... are pyhls's libm too, as
        # in the design (hls.frontend._libm), not the host's
        return str(link_libm(tb_mod, cc))
    try:
        tb_mod.get_function("main")
    except NameError:
        raise FrontendError("the testbench defines no main function", str(tbp), None) from None
    kernel = llvm.parse_assembly(golden_ir(result.module))
    try:
        kernel.get_function("main")
        raise FrontendError("both the testbench and the kernel define main; give the kernel "
                            "file itself as --tb", str(tbp), None)
    except NameError:
        pass
    tb_mod.link_in(kernel)
    return str(tb_mod)


def _program_sources(result: SynthResult, tb) -> list[list[str]]:
    """The source files of the program the native run executes, as ``_tb_module_text``
    makes it: the testbench files and the design's (the design's alone for a whole
    program or a testbench among them), else (a testbench that defines the top itself)
    the testbench's alone."""
    design = [str(p) for p in (result.source.paths or (result.source.path,))]
    seen = {Path(p).resolve() for p in design}
    tbs = [str(t) for t in _tb_files(tb) if Path(t).resolve() not in seen] if tb else []
    return [tbs + design, tbs] if tbs else [design]


def explain_crash(exc: NativeCrash, programs: list[list[str]], cc, cflags,
                  timeout: float) -> CosimError:
    """``exc`` located by a build with the sanitizers (:mod:`._sanitize`) of the first
    of ``programs`` (lists of sources) that builds: ``file:line: error: <what>: <the
    sanitizer's finding>``, the native run's own output kept; else ``exc`` with a hint
    of why there is no such location."""
    head, _, tail = exc.message.partition("\n")
    head = head.removesuffix(":")       # (it introduced the run's output, the tail)
    for sources in programs:
        found = sanitize_run(sources, cc, cflags, timeout)
        if found != NO_SANITIZER:
            break
    if isinstance(found, SanitizerFinding):
        what = head.split(": native execution crashed")[0]
        return CosimError(f"{what}: the program crashed natively: {found.message}"
                          + (f"\n{tail}" if tail else ""), found.file, found.line)
    return CosimError(f"{head}\n(hint: no line found by AddressSanitizer: {found})"
                      + (f"\n{tail}" if tail else ""), exc.file, exc.line)


def name_aborts(result: CosimResult, sites: dict) -> None:
    """Calls that ended in abort() or a failed assert: their message names the site."""
    for c in result.calls:
        if c.status == "aborted":
            k = int(c.message.rsplit(" ", 1)[-1])
            c.message = f"the design aborted: {sites.get(k, f'site {k}')}"


def _fp_formats(spec: dict | None) -> dict:
    return {k: v if isinstance(v, FPFormat) else FPFormat.parse(v) for k, v in (spec or {}).items()}


def golden_ir(module) -> str:
    """The LLVM IR native execution runs: the canonicalised input, with the arithmetic of
    custom-format functions replaced by calls of the reference models."""
    if not module.fp_formats:
        return module.llvm_ir
    return rewrite_ll(module.llvm_ir, module.fp_formats)


def _axi_runners(res: SynthResult, seed: int, stall: float | None):
    stall = DEFAULT_STALL if stall is None else stall
    latency = DEFAULT_LATENCY if stall else 0

    def run(_vfiles, iface, calls, max_cycles, waves, work):
        return run_axi_cosim(res.verilog, iface, res.axi, calls, max_cycles=max_cycles,
                             seed=seed, stall=stall, latency=latency, workdir=work)

    def run_main_(_vfiles, iface, exp_ret, _globs, max_cycles, waves, work):
        # writable globals stay on chip in an Alveo top: only the return value is compared
        return run(_vfiles, iface, [Call(scalars={}, mem_in={}, ret=exp_ret)], max_cycles,
                   waves, work)

    return run, run_main_


def _timeout_diagnosis(report: dict, max_cycles: int) -> str:
    """What report.json's latency says of a call stopped at ``max_cycles``: more cycles
    than that at the least (the bound is too low), or at most that many with nothing
    assumed (the design should have finished: a hardware bug); '' when it says neither.
    (A call of ``max_cycles`` cycles finishes: the harness stops one that needs more.)"""
    lat = report.get("latency") or {}
    if lat.get("min") is not None and lat["min"] > max_cycles:
        return (f"report.json's latency: a call takes at least {lat['min']} cycles, more "
                f"than the limit of {max_cycles}; the design was stopped, not found wrong")
    if lat.get("max") is not None and lat["max"] <= max_cycles and not lat.get("assumptions"):
        return (f"report.json's latency bounds a call at {lat['max']} cycles, within the "
                f"limit of {max_cycles}: the design should have finished (a "
                "scheduling, binding or RTL bug)")
    return ""


def cosim(path: str | Path, top: str, *, tb: str | Path | None = None,
          depth: dict[str, int] | None = None, fixed: dict[str, int] | None = None,
          seed: int = 0, runs: int = 4, max_cycles: int = 10_000_000, waves: bool = False,
          target: str = "generic", clock_period_ns: float | None = None,
          cc: str | None = None, workdir: str | Path | None = None,
          scheduler: str = "sdc", pipeline: bool = True, fp_format: dict | None = None,
          synth: SynthResult | None = None, axi_stall: float | None = None,
          profile_loops: bool = False, cflags=(), native_timeout: float = 120.0) -> CosimResult:
    """Co-simulate ``top`` of ``path`` against native execution; returns a CosimResult
    (``passed``, per-call cycles, mismatches) with ``.synth`` holding the SynthResult.
    ``profile_loops`` (testbench or whole-program mode): build the design with loop probes
    and fill ``.loops`` with the cycles of every pipelined loop against its
    trip x II + depth model (hls.verify.LoopProfile).
    ``path`` and ``tb`` may name several files (a list; ``tb`` also a comma-separated
    string), compiled with ``cflags`` (-I, -D, -U, -std=; give the same as to ``synth``).
    Alveo targets run in cocotb with random AXI stalls (``axi_stall``: pause probability
    scale, 0 for an ideal memory; the stall pattern follows ``seed``).
    ``native_timeout``: seconds the native run of the testbench, program or stimulus may
    take (a testbench that never ends is an error after it, not a hang)."""
    res = synth or synthesize(path, SynthOptions(top=top, target=target,
                                                 clock_period_ns=clock_period_ns,
                                                 depth=dict(depth or {}), cc=cc,
                                                 cflags=tuple(cflags),
                                                 scheduler=scheduler, pipeline=pipeline,
                                                 fp_format=_fp_formats(fp_format),
                                                 loop_probes=profile_loops))
    if profile_loops and not res.interface.probes and res.schedules and any(
            fs.pipelines for fs in res.schedules.values()):
        raise CosimError("profile_loops needs a design synthesised with loop_probes=True")
    if profile_loops and tb is None and not (res.module.top.name == "main"
                                             and not res.module.top.params):
        raise CosimError("loop profiles need a testbench (--tb) or a whole-program top "
                         "(main): the iteration counts come from its native run")
    native_text = None
    iface = res.interface
    own_tmp = None
    if workdir is None:
        own_tmp = tempfile.TemporaryDirectory(prefix="pyhls-cosim-")
        workdir = own_tmp.name
    work = Path(workdir)
    work.mkdir(parents=True, exist_ok=True)
    vfile = work / f"{iface.module_name}.v"
    vfile.write_text(res.verilog)
    run_, run_main_ = run_cosim, run_cosim_main
    if res.target.platform.axi:     # AXI top (Alveo): cocotb + AXI models with random stalls
        run_, run_main_ = _axi_runners(res, seed, axi_stall)
    ptr_sizes = {m.arg_index: m.whole_bytes for m in iface.memories if m.arg_index is not None}
    glob_sizes = {m.global_name: m.whole_bytes for m in iface.memories
                  if m.global_name and m.global_name not in INTERNAL_GLOBALS}
    func = res.module.top
    # hls::stream arguments: arrays of their elements in order (hls.verify._golden_worker)
    streams = {p.index: "w" if p.mem.writeonly else "r" for p in func.ptr_params
               if p.mem.stream and p.index >= 0}
    if res.module.ptr_slots and not (tb is None and func.name == "main" and not func.params):
        raise CosimError("globals holding pointers (" + ", ".join(sorted(res.module.ptr_slots))
                         + ") are co-simulated only as a whole program (--top main): a "
                         "testbench or random stimulus would give them host addresses")
    printed: list[str] = []
    try:
        progress.stage("co-simulation", func.name)
        if tb is not None:
            text = native_text = _tb_module_text(res, tb, cc, tuple(cflags))
            try:
                calls = capture_tb_calls(text, func.name, ptr_sizes, timeout=native_timeout,
                                         globals_=glob_sizes or None, output=printed,
                                         streams=streams, ports=scalar_ports(iface))
            except NativeCrash as exc:
                raise explain_crash(exc, _program_sources(res, tb), cc, tuple(cflags),
                                    native_timeout) from None
            if not calls:
                raise CosimError(f"the testbench never calls {func.name}",
                                 str(_tb_files(tb)[0]), None)
            if glob_sizes:
                # globals start as the testbench left them before its first call
                iface = dataclasses.replace(iface, memories=tuple(
                    dataclasses.replace(m, init=calls[0].glob_in.get(m.global_name, m.init))
                    if m.global_name else m for m in iface.memories))
            result = run_([vfile], iface, calls, max_cycles, waves, work)
        elif func.name == "main" and not func.params:
            native_text = golden_ir(res.module)
            dangling: dict[str, list[int]] = {}
            try:
                ret, globs = run_main(native_text, list(glob_sizes), glob_sizes,
                                      timeout=native_timeout, output=printed,
                                      ptr_tags=res.module.ptr_tags,
                                      ptr_slots=res.module.ptr_slots, dangling=dangling)
            except NativeCrash as exc:
                raise explain_crash(exc, _program_sources(res, None), cc, tuple(cflags),
                                    native_timeout) from None
            w = func.return_width
            exp_ret = ret & ((1 << w) - 1) if w else None
            if run_main_ is run_cosim_main:
                result = run_main_([vfile], iface, exp_ret, globs, max_cycles, waves, work,
                                   dangling=dangling)
            else:
                result = run_main_([vfile], iface, exp_ret, globs, max_cycles, waves, work)
            calls = [Call(scalars={}, mem_in={}, ret=exp_ret, glob_out=dict(globs),
                          glob_dangling=dangling)]
        else:
            fixed_idx: dict[int, int] = {}
            names = {p.name: p.index for p in func.scalar_params}
            for k, v in (fixed or {}).items():
                idx = names.get(k, int(k) if str(k).isdigit() else None)
                if idx is None:
                    raise CosimError(f"--set {k}=...: '{k}' is not a scalar argument of "
                                     f"{func.name}; scalars: {', '.join(names) or 'none'}")
                fixed_idx[idx] = int(v, 0) if isinstance(v, str) else int(v)
            stim = random_calls(iface, k=runs, seed=seed, fixed=fixed_idx)
            for c in stim:      # parameters without a port (unread descriptor fields): 0
                c.scalars.update({k: 0 for k in res.module.absent_params
                                  if k not in c.scalars})
            calls = run_calls(golden_ir(res.module), func.name, stim, ptr_sizes,
                              timeout=native_timeout, globals_=glob_sizes or None,
                              streams=streams, ports=scalar_ports(iface))
            result = run_([vfile], iface, calls, max_cycles, waves, work)
    finally:
        if own_tmp is not None and not waves:
            own_tmp.cleanup()
    result.synth = res
    result.stimulus = list(calls)
    result.native_output = "".join(printed)
    for i, c in enumerate(result.calls):
        if c.status == "deadlock":     # the run stops here: no comparison means anything
            loc = res.module.top.loc
            raise CosimError(f"{c.message}\n(call {i} of {len(result.calls)}; "
                             f"{c.cycles} cycles)", loc.file if loc else None,
                             loc.line if loc else None)
    failed = [c for c in result.calls if not c.passed]
    if failed and all(c.status in ("timeout", "skipped") for c in failed):
        # the cycle bound ended the run: nothing was compared, so the CDFG has no
        # disagreement to be told apart; the latency report says whether it should have
        result.diagnosis = _timeout_diagnosis(res.report, max_cycles)
    elif failed and not any(c.status == "aborted" for c in result.calls):
        result.diagnosis = ir_diagnosis(res.module, calls, skip_globals=INTERNAL_GLOBALS)
    name_aborts(result, res.module.abort_sites)
    if profile_loops and native_text is not None:
        result.loops = loop_profiles(res, result.loop_activity, native_text, calls)
    return result
