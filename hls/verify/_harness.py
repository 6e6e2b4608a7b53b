"""Generate, build (with a content-addressed cache) and run the Verilator C++ harness.

The harness (template ``hls/verify/pyhls_harness.cpp.in``, package data) drives an ``ap_ctrl_hs`` top
module through a sequence of calls and models its memories exactly as ``hls/interface.py``
describes.  Binary files, all integers little-endian:

Stimulus (written by :func:`write_stimulus`)::

    "PYHLSST1"  u32 ncalls  u32 iface_hash
    for each persistent memory (``arg_index is None``; globals), in interface order:
        size_bytes bytes            -- initial contents, loaded once before the first call
    for each call:
        for each scalar, in interface order:  ceil(width/8) bytes (raw bits, masked)
        for each argument memory, in order:   size_bytes bytes   (reloaded every call)

Results (read by :func:`read_results`)::

    "PYHLSRS1"  u32 ncalls
    for each call:
        u64 cycles  u32 status (0 ok, 1 timeout, 2 error, 3 skipped)  u32 nerrors
        u32 msglen  msg bytes (first design error / timeout text)
        ceil(return_width/8) bytes of ap_return (sampled in the ap_done cycle)
        for every memory, in interface order: size_bytes bytes (contents after the call)
        for every probe (``TopInterface.probes``): u64 cycles high, u64 rising edges
    u64 total_cycles

Progress (``--progress FILE``, given only while :mod:`hls.progress` shows anything): one
fixed-width line ``CALLS_DONE CYCLES`` rewritten every 2^16 cycles and after the last
call, polled by :func:`_run_watched`.

``iface_hash`` guards against feeding a stimulus file to a harness of another interface.
Cycle counting: from the first rising edge with ``ap_start`` high up to and including the
edge that ends the ``ap_done`` cycle.  A call that does not finish within ``max_cycles``
is reported as a timeout and later calls are skipped (the design is stuck).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from hls import progress
from hls.errors import CosimError, ToolError
from hls.interface import MemoryPort, TopInterface

from ._golden import Call
from ..toolchain import (VERILATOR_FLAGS, default_cache_dir, enforce_limit, find_verilator,
                         model_cache_key, touch, verilate_and_make)

__all__ = [
    "RawCallResult",
    "generate_harness",
    "build_harness",
    "write_stimulus",
    "read_results",
    "run_harness",
    "default_cache_dir",
    "VERILATOR_FLAGS",
]

HARNESS_FORMAT_VERSION = "pyhls-harness-2"
BINARY_NAME = "pyhls_sim"
STATUS_NAMES = {0: "ok", 1: "timeout", 2: "error", 3: "skipped", 4: "deadlock"}

def _template_path() -> Path:
    return Path(__file__).resolve().parent / "pyhls_harness.cpp.in"


# --------------------------------------------------------------------------- layout


def _nbytes(width: int) -> int:
    return (width + 7) // 8


def _persistent(m: MemoryPort) -> bool:
    return m.arg_index is None


def _iface_hash(iface: TopInterface) -> int:
    parts = [HARNESS_FORMAT_VERSION, str(iface.return_width)]
    parts += [f"s{s.name}:{s.width}" for s in iface.scalars]
    parts += [f"m{m.name}:{m.size_bytes}:{int(_persistent(m))}" for m in iface.memories]
    parts += [f"p{p.name}" for p in iface.probes]
    digest = hashlib.sha256("|".join(parts).encode()).digest()
    return int.from_bytes(digest[:4], "little")


_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _check_iface(iface: TopInterface) -> None:
    names = [s.name for s in iface.scalars] + [m.name for m in iface.memories]
    names += [p.name for p in iface.probes]
    for n in names:
        if not _IDENT.match(n):
            raise CosimError(f"port name {n!r} of {iface.module_name} is not a C identifier")
    for m in iface.memories:
        if m.nports not in (1, 2):
            raise CosimError(f"memory {m.name}: nports must be 1 or 2, not {m.nports}")
        if m.word_bytes not in (1, 2, 4, 8, 16):
            raise CosimError(f"memory {m.name}: unsupported word_bytes {m.word_bytes}")
        if m.depth_words < 1:
            raise CosimError(f"memory {m.name}: depth_words must be >= 1")


# --------------------------------------------------------------------------- generation


def generate_harness(iface: TopInterface) -> str:
    """The C++ source of the harness for ``iface`` (deterministic: it is part of the
    cache key)."""
    _check_iface(iface)
    tpl = _template_path()
    if not tpl.exists():
        raise ToolError(f"harness template {tpl} is missing (is pyhls installed from a checkout?)")
    template = tpl.read_text()
    decls: list[str] = []
    edge: list[str] = []
    drive_q: list[str] = []
    zero: list[str] = []
    load_globals: list[str] = []
    load_call: list[str] = []
    write_mems: list[str] = []

    for s in iface.scalars:
        nb = _nbytes(s.width)
        load_call.append(
            f"        {{ const uint8_t* p = rd.take({nb}); put_bytes(top->{s.name}, p, {nb}); }}"
        )
        zero.append(f"    {{ uint8_t z[{nb}] = {{0}}; put_bytes(top->{s.name}, z, {nb}); }}")

    for k, m in enumerate(iface.memories):
        wb, depth, size = m.word_bytes, m.depth_words, m.size_bytes
        full = (1 << wb) - 1
        decls.append(f"// memory {k}: {m.name} ({wb} B x {depth} words, {m.nports} port(s))")
        decls.append(f"uint8_t mem{k}[{size}];")
        for p in range(m.nports):
            decls.append(f"uint8_t q{k}_{p}[{wb}];")
            decls.append(f"bool qv{k}_{p} = false;")
            zero.append(f"    {{ uint8_t z[{wb}] = {{0}}; put_bytes(top->{m.name}_q{p}, z, {wb}); }}")
        if _persistent(m):
            load_globals.append(f"    std::memcpy(mem{k}, rd.take({size}), {size});")
        else:
            load_call.append(f"        std::memcpy(mem{k}, rd.take({size}), {size});")
        write_mems.append(f"        wr.bytes(mem{k}, {size});")

        lines = ["                {"]
        for p in range(m.nports):
            lines += [
                f"                    bool ok{p} = false; uint64_t a{p} = 0;",
                f"                    if (top->{m.name}_ce{p}) {{",
                f"                        a{p} = get_u64(top->{m.name}_address{p});",
                f"                        if (a{p} >= {depth}u) {{",
                f'                            design_error("call %" PRIu64 ": memory \'{m.name}\' port {p}: '
                f'address %" PRIu64 " out of range (depth {depth}) at cycle %" PRIu64,',
                f"                                         g_call.call_index, a{p}, g_call.cycle + 1);",
                "                        } else {",
                f"                            ok{p} = true;",
                f"                            std::memcpy(q{k}_{p}, mem{k} + a{p} * {wb}, {wb});",
                f"                            qv{k}_{p} = true;",
                "                        }",
                "                    }",
            ]
        if m.nports == 2:
            lines += [
                f"                    if (ok0 && ok1 && a0 == a1 && top->{m.name}_we0 && top->{m.name}_we1)",
                f'                        design_error("call %" PRIu64 ": memory \'{m.name}\': both ports '
                f'write word %" PRIu64 " at cycle %" PRIu64,',
                "                                     g_call.call_index, a0, g_call.cycle + 1);",
            ]
        for p in range(m.nports):
            lines += [
                f"                    if (ok{p}) {{",
                f"                        const uint32_t we = (uint32_t)top->{m.name}_we{p};",
                "                        if (we) {",
                f"                            uint8_t d[{wb}];",
                f"                            get_bytes(top->{m.name}_d{p}, d, {wb});",
                f"                            uint8_t* w = mem{k} + a{p} * {wb};",
                f"                            if (we == {full}u) std::memcpy(w, d, {wb});",
                f"                            else for (int b = 0; b < {wb}; ++b) if ((we >> b) & 1u) w[b] = d[b];",
                "                        }",
                "                    }",
            ]
        lines.append("                }")
        edge += lines
        for p in range(m.nports):
            drive_q.append(
                f"                if (qv{k}_{p}) {{ put_bytes(top->{m.name}_q{p}, q{k}_{p}, {wb}); qv{k}_{p} = false; }}"
            )

    probe_decls, probe_reset, probe_sample, write_probes = [], [], [], []
    for k, p in enumerate(iface.probes):
        probe_decls.append(f"uint64_t pc{k}, pe{k}; bool pp{k};  // probe {p.name}: "
                           f"{p.function}/{p.block}")
        probe_reset.append(f"        pc{k} = pe{k} = 0; pp{k} = false;")
        probe_sample.append(f"                {{ const bool h = top->{p.name}; pc{k} += h; "
                            f"pe{k} += h && !pp{k}; pp{k} = h; }}")
        write_probes.append(f"        wr.u64(pc{k}); wr.u64(pe{k});")
    monitor = []
    if iface.monitor is not None:
        nb = _nbytes(max(1, len(iface.monitor.wait_list)))
        monitor = [
            f"                if (top->{iface.monitor.deadlock}) {{  // the deadlock monitor",
            f"                    uint8_t wb[{nb}];",
            f"                    get_bytes(top->{iface.monitor.waits}, wb, {nb});",
            "                    int n = std::snprintf(g_call.msg, sizeof g_call.msg, "
            "\"deadlock: waits=\");",
            f"                    for (int b = {nb} - 1; b >= 0 && n < (int)sizeof g_call.msg - 3; --b)",
            "                        n += std::snprintf(g_call.msg + n, sizeof g_call.msg - n, "
            "\"%02x\", wb[b]);",
            "                    status = ST_DEADLOCK;",
            "                    dead = true;",
            "                    break;",
            "                }",
        ]
    rb = _nbytes(iface.return_width) if iface.return_width else 0
    sample_ret = (
        f"                if (done) get_bytes(top->ap_return, ret_bytes, {rb});" if rb else ""
    )
    subst = {
        "VTOP": "Vtop",
        "IFACE_HASH": str(_iface_hash(iface)),
        "MEM_DECLS": "\n".join(decls),
        "LOAD_GLOBALS": "\n".join(load_globals),
        "ZERO_INPUTS": "\n".join(zero),
        "LOAD_CALL": "\n".join(load_call),
        "SAMPLE_RET": sample_ret,
        "MEM_EDGE": "\n".join(edge),
        "MEM_DRIVE_Q": "\n".join(drive_q),
        "WRITE_MEMS": "\n".join(write_mems),
        "PROBE_DECLS": "\n".join(probe_decls),
        "PROBE_RESET": "\n".join(probe_reset),
        "PROBE_SAMPLE": "\n".join(probe_sample),
        "WRITE_PROBES": "\n".join(write_probes),
        "MONITOR_CHECK": "\n".join(monitor),
        "RET_NBYTES": str(rb),
        "RET_NBYTES_ALLOC": str(max(rb, 1)),
    }
    src = re.sub(r"@@([A-Z_]+)@@", lambda mo: subst[mo.group(1)], template)
    header = f"// Generated by pyhls for top module {iface.module_name} ({iface.function}).\n"
    return header + src


# --------------------------------------------------------------------------- build + cache


def build_harness(
    verilog_files: Sequence[str | Path],
    iface: TopInterface,
    *,
    trace: bool = False,
    cache_dir: str | Path | None = None,
    timeout: float = 1800,
) -> Path:
    """Build (or find in the cache) the simulator binary for the design; return its path.

    The cache directory ``<cache>/<sha256>`` is keyed by the Verilog text, the harness
    source, the Verilator version and the flags.  Builds happen in a private temporary
    directory that is atomically renamed into place, so concurrent processes are safe."""
    vfiles = [Path(f).resolve() for f in verilog_files]
    if not vfiles:
        raise CosimError("no Verilog files given")
    for f in vfiles:
        if not f.exists():
            raise CosimError(f"Verilog file {f} does not exist")
    verilator = find_verilator()
    harness_src = generate_harness(iface)
    flags = list(VERILATOR_FLAGS)
    opt = os.environ.get("PYHLS_SIM_OPT")
    if opt:
        if not re.fullmatch(r"-O[0-3sg]", opt):
            raise ToolError(f"PYHLS_SIM_OPT must be a C++ optimisation flag such as -O2, not {opt!r}")
        flags[flags.index("-O0")] = opt
    if trace:
        flags += ["--trace", "-CFLAGS", "-DPYHLS_TRACE=1"]
    texts = [(f.name, f.read_bytes()) for f in vfiles]
    key = model_cache_key(HARNESS_FORMAT_VERSION, texts, harness_src, verilator.version, flags,
                          iface.module_name)
    root = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    final = root / key
    binary = final / BINARY_NAME
    if binary.exists() and touch(final):   # (False: evicted meanwhile, build it again)
        return binary
    root.mkdir(parents=True, exist_ok=True)
    progress.stage("Verilator build", iface.module_name)
    tmp = Path(tempfile.mkdtemp(prefix=f".build-{key[:12]}-", dir=root))
    try:
        src_dir = tmp / "src"
        src_dir.mkdir()
        # Copy the Verilog so the cache entry is self-describing (and robust to edits).
        local_v = []
        for i, (name, text) in enumerate(texts):
            p = src_dir / f"{i:02d}_{name}"
            p.write_bytes(text)
            local_v.append(p)
        cpp = src_dir / "pyhls_harness.cpp"
        cpp.write_text(harness_src)
        obj = tmp / "obj"
        obj.mkdir()
        verilate_and_make(verilator, flags, root, obj, [str(cpp), *[str(p) for p in local_v]],
                          iface.module_name, BINARY_NAME, timeout)
        built = obj / BINARY_NAME
        if not built.exists():
            raise ToolError(f"verilator build finished but {built} is missing")
        out = tmp / "out"
        out.mkdir()
        shutil.copy2(built, out / BINARY_NAME)
        shutil.copy2(cpp, out / "pyhls_harness.cpp")
        (out / "meta.json").write_text(json.dumps({
            "top": iface.module_name,
            "verilog": [str(f) for f in vfiles],
            "verilator": verilator.version,
            "flags": flags,
            "trace": trace,
        }, indent=2))
        try:
            os.rename(out, final)
        except OSError:
            if not binary.exists():  # not a lost race: a real failure
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if cache_dir is None:       # the user's cache: within its size limit
        enforce_limit(keep=final)
    return binary


# --------------------------------------------------------------------------- files


def _fit(data: bytes | None, size: int) -> bytes:
    if data is None:
        return bytes(size)
    data = bytes(data)
    if len(data) >= size:
        return data[:size]
    return data + bytes(size - len(data))


def write_stimulus(path: str | Path, iface: TopInterface, calls: Sequence[Call]) -> None:
    """Write the stimulus file for ``calls`` (see the module docstring)."""
    chunks: list[bytes] = [b"PYHLSST1", struct.pack("<II", len(calls), _iface_hash(iface))]
    for m in iface.memories:
        if _persistent(m):
            chunks.append(_fit(m.view(_fit(m.init, m.whole_bytes)), m.size_bytes))
    for i, call in enumerate(calls):
        for s in iface.scalars:
            if s.arg_index not in call.scalars:
                raise CosimError(f"call {i}: no value for scalar '{s.name}' (argument {s.arg_index})")
            v = call.scalars[s.arg_index] & ((1 << s.width) - 1)
            chunks.append(v.to_bytes(_nbytes(s.width), "little"))
        for m in iface.memories:
            if not _persistent(m):
                chunks.append(_fit(m.view(_fit(call.mem_in.get(m.arg_index),  # type: ignore[arg-type]
                                                m.whole_bytes)), m.size_bytes))
    Path(path).write_bytes(b"".join(chunks))


@dataclass
class RawCallResult:
    """What the harness reports for one call."""

    cycles: int
    status: str               # "ok" | "timeout" | "error" | "skipped"
    message: str              # first design error or timeout text ("" when ok)
    nerrors: int              # number of design errors (memory misuse) during the call
    ret: int | None           # ap_return in the ap_done cycle (None for void)
    mems: dict[str, bytes]    # memory name -> contents after the call
    #: per probe of the interface: (cycles high, rising edges) during the call
    probes: list[tuple[int, int]] = field(default_factory=list)


def read_results(path: str | Path, iface: TopInterface) -> tuple[list[RawCallResult], int]:
    """Parse a results file; returns (per-call results, total cycles)."""
    data = Path(path).read_bytes()
    pos = 0

    def take(n: int) -> bytes:
        nonlocal pos
        if pos + n > len(data):
            raise CosimError(f"truncated harness results file {path}")
        b = data[pos:pos + n]
        pos += n
        return b

    if take(8) != b"PYHLSRS1":
        raise CosimError(f"bad harness results file {path}")
    (ncalls,) = struct.unpack("<I", take(4))
    rb = _nbytes(iface.return_width) if iface.return_width else 0
    out: list[RawCallResult] = []
    for _ in range(ncalls):
        cycles, status, nerr, mlen = struct.unpack("<QIII", take(20))
        msg = take(mlen).decode("utf-8", "replace")
        ret = int.from_bytes(take(rb), "little") if rb else None
        if ret is not None:
            ret &= (1 << iface.return_width) - 1
        mems = {m.name: take(m.size_bytes) for m in iface.memories}
        probes = [struct.unpack("<QQ", take(16)) for _ in iface.probes]
        out.append(RawCallResult(cycles, STATUS_NAMES.get(status, f"status{status}"), msg,
                                 nerr, ret, mems, probes))
    (total,) = struct.unpack("<Q", take(8))
    return out, total


def run_harness(
    binary: str | Path,
    iface: TopInterface,
    calls: Sequence[Call],
    workdir: str | Path,
    *,
    max_cycles: int,
    waves: str | Path | None = None,
    timeout: float | None = None,
) -> tuple[list[RawCallResult], int]:
    """Write the stimulus, run the simulator binary, read its results."""
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    stim = workdir / "stimulus.bin"
    res = workdir / "results.bin"
    if res.exists():
        res.unlink()
    write_stimulus(stim, iface, calls)
    argv = [str(binary), str(stim), str(res), "--max-cycles", str(int(max_cycles))]
    if waves is not None:
        argv += ["--waves", str(waves)]
    progress.stage("simulation", iface.module_name)
    try:
        if progress.active():
            returncode, out = _run_watched(argv, workdir / "progress.txt", len(calls), timeout)
        else:
            proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, errors="replace", timeout=timeout)
            returncode, out = proc.returncode, proc.stdout
    except subprocess.TimeoutExpired as exc:
        raise CosimError(f"simulation of {iface.module_name} exceeded {timeout} s wall time") from exc
    if returncode != 0:
        raise CosimError(
            f"simulator {binary} failed with exit status {returncode}:\n{out[-4000:]}"
        )
    return read_results(res, iface)


_PROGRESS_LINE = re.compile(r" *(\d+) +(\d+)\n")


def _run_watched(argv: list[str], prog: Path, ncalls: int,
                 timeout: float | None) -> tuple[int, str]:
    """Run the simulator with ``--progress prog`` and show the calls it has finished and
    its speed (cycles per second of wall time) while it runs (:mod:`hls.progress`);
    returns its exit status and output.  Only the display depends on the timing."""
    prog.unlink(missing_ok=True)
    proc = subprocess.Popen([*argv, "--progress", str(prog)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, errors="replace")
    start = last_t = time.monotonic()
    last_cycles, rate = 0, None
    try:
        while True:
            out = None
            try:
                out, _ = proc.communicate(timeout=0.25)
            except subprocess.TimeoutExpired:
                pass
            now = time.monotonic()
            if out is None and timeout is not None and now - start > timeout:
                raise subprocess.TimeoutExpired(argv, timeout)
            try:        # (read once more at the end: the last line counts every call)
                m = _PROGRESS_LINE.fullmatch(prog.read_text())
            except OSError:
                m = None
            if m is not None:
                done, cycles = int(m.group(1)), int(m.group(2))
                if cycles > last_cycles and now > last_t:
                    rate = (cycles - last_cycles) / (now - last_t)
                    last_t, last_cycles = now, cycles
                progress.count("calls", done, ncalls, f"{cycles:,} cycles"
                               + (f", {_si(rate)} cycles/s" if rate and out is None else ""))
            if out is not None:
                return proc.returncode, out
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        prog.unlink(missing_ok=True)


def _si(x: float) -> str:
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:.1f} {unit}"
    return f"{x:.0f}"

