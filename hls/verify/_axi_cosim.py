"""Co-simulation of Alveo tops (:class:`hls.rtl.AlveoTop`): cocotb + cocotbext-axi in
Verilator, with random stalls on every AXI channel.

:func:`run_axi_cosim` takes the same golden :class:`~hls.verify.Call` list as the C++
harness (:func:`hls.verify.run_cosim`), replays it through :mod:`hls.verify.cocotb_axi_tb`
(host-style register writes over ``s_axi_control``, buffers in AxiRam models behind the
``m_axi`` masters) and compares every byte of every pointer argument and the return value
with :func:`hls.verify.compare_calls`, so results and mismatches have the
:class:`CosimResult` format of the plain flow.

AXI4-Stream arguments (``--interface ARG=axis``): the stream length of a call is the
argument's extent (``--depth ARG=N``, or what the IR says): an input stream gets all N
elements of the call's input buffer from a cocotbext-axi ``AxiStreamSource`` with random
pauses, and must take all of them (elements left in the source are an error); an output
stream is collected by an ``AxiStreamSink`` with random back-pressure and must deliver
exactly N elements, with ``TLAST`` on the last one and on no other, which are then
compared with the native call's N output elements like a buffer.  A set sticky order
error of a stream adapter (``stream_error``) fails the call.  Writable globals of a whole-program top
stay on chip and are not compared (only the return value is).

The Verilator build is cached by a hash of the Verilog, the cocotb and Verilator versions
and the C++ flags, under ``$PYHLS_CACHE/cocotb`` (default ``~/.cache/pyhls/cocotb``).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import random
import shutil
import tempfile
from pathlib import Path
from typing import Sequence

from hls.errors import CosimError, ToolError
from hls.interface import TopInterface

from ._compare import MAX_MISMATCHES_TOTAL, CosimResult, compare_calls
from ._golden import Call
from ._harness import RawCallResult
from ..rtl import register_map
from ..toolchain import default_cache_dir, enforce_limit, find_verilator, touch

__all__ = ["run_axi_cosim", "axi_layout", "DEFAULT_STALL", "DEFAULT_LATENCY"]

#: probability scale of a pause cycle on each AXI channel (each channel draws its own
#: probability in [0.5, 1.5) times this)
DEFAULT_STALL = 0.3
#: at most this many extra cycles before a burst is served (on a quarter of the bursts)
DEFAULT_LATENCY = 6
PAGE = 4096
#: host offsets are ``HIGH + local``: above 4 GiB, so both pointer words matter
HIGH = 1 << 34
TB_MODULE = "hls.verify.cocotb_axi_tb"


def axi_layout(iface: TopInterface, bundle_of: dict[str, str], seed: int) -> tuple[list[dict], int]:
    """Buffers of the pointer arguments: 4 KiB aligned, distinct, one to three guard pages
    apart (seeded).  Returns (memories, RAM size: a power of two above the last buffer)."""
    rng = random.Random(seed ^ 0x5EED)
    mems, at = [], PAGE * (1 + rng.randrange(4))
    for m in iface.memories:
        if m.arg_index is None or m.stream:
            continue
        mems.append({"name": m.name, "arg_index": m.arg_index, "size": m.size_bytes,
                     "base": at, "bundle": bundle_of[m.name]})
        at += -(-m.size_bytes // PAGE) * PAGE + PAGE * (1 + rng.randrange(3))
    size = 1 << max(16, (at + PAGE).bit_length())
    return mems, size


@contextlib.contextmanager
def _verilator_env(vl):
    """The environment cocotb's Verilator runner needs (:meth:`Verilator.cocotb_env`),
    for the duration of the block."""
    saved = dict(os.environ)
    try:
        os.environ.update(vl.cocotb_env())
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def cocotb_build_key(vl, *parts: str) -> str:
    """The content key of a cocotb Verilator build of ``parts`` (the Verilog, ...): also
    cocotb's version *and installation directory* (the binary links its VPI library by
    path, so another venv is another build), Verilator's version and the C++ flags."""
    import cocotb  # noqa: PLC0415

    return hashlib.sha256("\0".join([
        *parts, cocotb.__version__, str(Path(cocotb.__file__).resolve().parent), vl.version,
        os.environ.get("CXXFLAGS", ""), os.environ.get("MAKEFLAGS", "")]).encode()).hexdigest()[:20]


def _build(runner, verilog: str, module: str, vl, cache_dir: Path | None, log: Path) -> Path:
    key = cocotb_build_key(vl, verilog, module)
    cache = Path(cache_dir) if cache_dir else default_cache_dir().parent / "cocotb"
    build = cache / f"{module}-{key}"
    if (build / module).exists() and touch(build):   # (False: evicted meanwhile)
        return build
    cache.mkdir(parents=True, exist_ok=True)
    tmp = cache / f"{module}-{key}.tmp{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    src = tmp / f"{module}.v"
    src.write_text(verilog)
    try:
        runner.build(sources=[src], hdl_toplevel=module, build_dir=tmp,
                     build_args=["-Wno-fatal"], timescale=("1ns", "1ps"), always=True,
                     log_file=log)
    except (SystemExit, RuntimeError) as exc:   # the runner raises either on failure
        text = log.read_text(errors="replace")[-4000:] if log.exists() else ""
        shutil.rmtree(tmp, ignore_errors=True)
        raise ToolError(f"the Verilator build of {module} for cocotb failed:\n{text}") from exc
    try:
        os.replace(tmp, build)
    except OSError:          # another process cached it meanwhile
        shutil.rmtree(tmp, ignore_errors=True)
    if not cache_dir:        # the user's cache: within its size limit
        enforce_limit(keep=build)
    return build


def run_axi_cosim(verilog: str, iface: TopInterface, axi, calls: Sequence[Call], *,
                  max_cycles: int = 10_000_000, seed: int = 0, stall: float = DEFAULT_STALL,
                  latency: int = DEFAULT_LATENCY, workdir: str | Path | None = None,
                  cache_dir: str | Path | None = None, waves: bool = False) -> CosimResult:
    """Replay ``calls`` on the Alveo top ``verilog`` (interface ``iface``, m_axi bundles
    ``axi``: a :class:`hls.rtl.AxiDescription`) with random AXI stalls (``stall`` 0 and
    ``latency`` 0: an ideal memory); returns a :class:`CosimResult`."""
    try:
        import cocotb  # noqa: F401, PLC0415
        import cocotbext.axi  # noqa: F401, PLC0415
        from cocotb_tools.runner import get_results, get_runner  # noqa: PLC0415
    except ImportError as exc:
        raise ToolError(f"co-simulation of alveo targets needs cocotb and cocotbext-axi "
                        f"({exc}); install them: pip install cocotb cocotbext-axi") from None
    vl = find_verilator()
    own = None
    if workdir is None:
        own = tempfile.TemporaryDirectory(prefix="pyhls-axicosim-")
        workdir = own.name
    work = Path(workdir).resolve()  # the simulator runs elsewhere: paths it reads are absolute
    work.mkdir(parents=True, exist_ok=True)
    try:
        mems, ram_size = axi_layout(iface, dict(axi.bundle_of), seed)
        base_of = {m["arg_index"]: m["base"] for m in mems}
        regs = register_map(iface)
        ret = next(((r.offset, r.width) for r in regs if r.kind == "return"), None)
        job = {
            "seed": seed, "stall": stall, "latency": latency, "max_cycles": max_cycles,
            "ram_size": ram_size, "high": HIGH, "bundles": [b.name for b in axi.bundles],
            "memories": mems, "return": ret,
            "streams": [{"name": m.name, "arg_index": m.arg_index, "direction": m.stream,
                         "word_bytes": m.word_bytes, "depth": m.depth_words}
                        for m in iface.memories if m.stream],
            "args": [{"kind": r.kind, "offset": r.offset, "width": r.width,
                      "arg_index": r.arg_index, "base": base_of.get(r.arg_index, 0)}
                     for r in regs if r.is_arg],
            "calls": [{"scalars": dict(c.scalars), "mem_in": dict(c.mem_in)} for c in calls],
            "result_path": str(work / "axi_results.pkl"),
        }
        (work / "axi_results.pkl").unlink(missing_ok=True)
        job_path = work / "axi_job.pkl"
        with open(job_path, "wb") as f:
            pickle.dump(job, f)
        module = iface.module_name
        with _verilator_env(vl):
            runner = get_runner("verilator")
            build = _build(runner, verilog, module, vl, cache_dir, work / "build.log")
            xml = work / "results.xml"
            try:
                runner.test(test_module=TB_MODULE, hdl_toplevel=module, build_dir=build,
                            hdl_toplevel_lang="verilog", test_dir=work, results_xml=str(xml),
                            extra_env={"PYHLS_AXI_JOB": str(job_path)}, seed=seed,
                            log_file=work / "sim.log")
            except SystemExit:   # the runner exits when a test fails; the results say why
                pass
        res_path = Path(job["result_path"])
        if not res_path.exists():
            log = (work / "sim.log").read_text(errors="replace") if (work / "sim.log").exists() else ""
            raise CosimError(f"the cocotb simulation of {module} did not finish:\n{log[-4000:]}")
        with open(res_path, "rb") as f:
            out = pickle.load(f)
        if xml.exists():
            _n, nfailed = get_results(xml)
            if nfailed:
                log = (work / "sim.log").read_text(errors="replace")
                raise CosimError(f"the cocotb testbench of {module} failed:\n{log[-4000:]}")
        raw = [RawCallResult(cycles=r["cycles"], status=r["status"], message=r["message"],
                             nerrors=int(r["status"] == "error"), ret=r["ret"],
                             mems={m.name: r["mems"].get(m.name, bytes(m.size_bytes))
                                   for m in iface.memories})
               for r in out["calls"]]
        results = compare_calls(iface, calls, raw)
        mismatches = [m for c in results for m in c.mismatches][:MAX_MISMATCHES_TOTAL]
        return CosimResult(passed=all(c.passed for c in results), calls=results,
                           total_cycles=sum(c.cycles for c in results),
                           mismatches=mismatches, workdir=work if own is None else None)
    finally:
        if own is not None:
            own.cleanup()
