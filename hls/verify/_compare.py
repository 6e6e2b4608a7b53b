"""Co-simulation entry points: run the design in the Verilator harness and compare every
byte of every memory and the return value of every call against golden results.

* :func:`run_cosim`: per-call mode (calls captured from a C testbench or random).
* :func:`run_cosim_main`: whole-program mode (the top is ``main``: its return value and the
  final contents of each global after one call; globals start from ``MemoryPort.init``).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from hls.errors import CosimError
from hls.frontend import ABORT_GLOBAL
from hls.interface import MemoryPort, TopInterface

from ._deadlock import deadlock_report

from ._golden import Call, without_dangling
from ._harness import RawCallResult, build_harness, run_harness

__all__ = ["Mismatch", "CallResult", "CosimResult", "run_cosim", "run_cosim_main",
           "compare_calls"]

MAX_MISMATCHES_PER_CALL = 8
MAX_MISMATCHES_TOTAL = 8


@dataclass
class Mismatch:
    call: int               # call number (0-based)
    arg: str                # memory / argument name, or "return"
    index: int | None       # element index (byte offset // elem_bytes); None for the return
    expected: int
    got: int
    #: the scalar of the element that differs: its C path (``[1][2]``, ``.0``) after the
    #: array name, its size in bytes (0: the return value) and float bits (32/64) if a float
    where: str = ""
    size: int = 0
    float_bits: int = 0

    def to_json(self) -> dict[str, Any]:
        d = {"call": self.call, "arg": self.arg, "index": self.index,
             "expected": self.expected, "got": self.got}
        if self.where and self.where != f"[{self.index}]":  # a field or a 2-D position
            d["where"] = self.where
        return d

    def __str__(self) -> str:
        if self.index is None:
            where = self.arg
        else:
            where = self.arg + (self.where or f"[{self.index}]")
        return (f"call {self.call}: {where}: expected {format_value(self.expected, self.size, self.float_bits)}, "
                f"got {format_value(self.got, self.size, self.float_bits)}")


def format_value(v: int, size: int, float_bits: int = 0) -> str:
    """A scalar as C would show it: a float's value, else the signed decimal (with the
    unsigned hex when negative); ``size`` 0: plain decimal."""
    if float_bits in (32, 64) and size * 8 == float_bits:
        f = struct.unpack("<f" if float_bits == 32 else "<d", v.to_bytes(size, "little"))[0]
        return f"{f!r} ({v:#0{2 + 2 * size}x})"
    if size <= 0:
        return str(v)
    bits = 8 * size
    if v >> (bits - 1):
        return f"{v - (1 << bits)} ({v:#x})"
    return str(v)


def _element_path(index: int, dims: tuple) -> str:
    """``[i][j]...`` of flat element ``index`` in an array of extents ``dims``."""
    if len(dims) < 2:
        return f"[{index}]"
    parts = []
    for n in reversed(dims[1:]):
        parts.append(index % n)
        index //= n
    parts.append(index)
    return "".join(f"[{p}]" for p in reversed(parts))


@dataclass
class CallResult:
    cycles: int
    passed: bool
    status: str                          # "ok" | "timeout" | "error" | "skipped" | "aborted"
    mismatches: list[Mismatch] = field(default_factory=list)  # first few of this call
    n_mismatches: int = 0                # all mismatching elements (+ return) of this call
    message: str = ""                    # harness message (design error / timeout)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"cycles": self.cycles, "passed": self.passed}
        if self.status != "ok":
            d["status"] = self.status
            d["message"] = self.message
        return d


@dataclass
class CosimResult:
    passed: bool
    calls: list[CallResult]
    total_cycles: int
    mismatches: list[Mismatch]           # the first few over all calls
    workdir: Path | None = None
    waves: Path | None = None
    #: designs with loop probes: (function, block) -> (cycles in the loop's state,
    #: entries), summed over all calls
    loop_activity: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    #: with ``cosim(..., profile_loops=True)``: one hls.verify.LoopProfile per loop
    loops: list = field(default_factory=list)
    #: on failure: whether the final CDFG, interpreted, agrees with native execution
    #: (hls.verify._irdiag): a translation/rewrite bug or a scheduling/binding/RTL one
    diagnosis: str = ""
    #: what the program printed (printf, puts, putchar) in its native run (--tb, --top main)
    native_output: str = ""
    #: the calls that were run, in order (hls.verify.Call: scalars, memories in, expected
    #: results), e.g. to interpret the final CDFG on them (benchmarks/latency_check.py)
    stimulus: list = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "calls": [c.to_json() for c in self.calls],
            "total_cycles": self.total_cycles,
            "mismatches": [m.to_json() for m in self.mismatches],
        }

    def summary(self, limit: str = "max_cycles") -> str:
        """A short human-readable account of the failures ('' when passed).  ``limit``:
        what the caller calls the cycle bound per call (the CLI: ``--max-cycles``), named
        where a call ran into it."""
        if self.passed:
            return ""
        lines = []
        for i, c in enumerate(self.calls):
            if c.status == "timeout":
                head, _, rest = c.message.partition("; ")
                lines.append(f"call {i}: {head}, the limit {limit} sets; raise it"
                             + (f" ({rest})" if rest else ""))
            elif c.status != "ok":
                lines.append(f"call {i}: {c.status}: {c.message}")
        lines += [str(m) for m in self.mismatches]
        total = sum(c.n_mismatches for c in self.calls)
        if total > len(self.mismatches):
            lines.append(f"... and {total - len(self.mismatches)} more mismatching value(s)")
        if self.diagnosis:
            lines.append(f"diagnosis: {self.diagnosis}")
        nfail = sum(1 for c in self.calls if not c.passed)
        lines.insert(0, f"co-simulation failed: {nfail} of {len(self.calls)} call(s) failed")
        return "\n".join(lines)

    def raise_on_failure(self) -> None:
        if not self.passed:
            raise CosimError(self.summary())


def _fit(data: bytes | None, size: int) -> bytes:
    data = bytes(data or b"")
    return data[:size] if len(data) >= size else data + bytes(size - len(data))


def _expected_bytes(m: MemoryPort, call: Call) -> bytes | None:
    """Expected contents of memory ``m`` after ``call`` (None: nothing to check).  A short
    expectation is padded with the (padded) input bytes, i.e. 'unchanged beyond'."""
    size = m.whole_bytes
    if m.arg_index is not None:
        exp = call.mem_out.get(m.arg_index)
        if exp is None:
            return None
        base = _fit(call.mem_in.get(m.arg_index), size)
    elif m.global_name is not None and m.global_name in call.glob_out:
        exp = call.glob_out[m.global_name]
        base = _fit(m.init, size)
    else:
        return None
    exp = bytes(exp)
    whole = exp[:size] if len(exp) >= size else exp + base[len(exp):]
    return m.view(whole)


def is_nan(bits: int, float_bits: int) -> bool:
    """Is ``bits`` a NaN of binary32 (``float_bits`` 32) or binary64 (64)?"""
    e, m = (8, 23) if float_bits == 32 else (11, 52)
    return (bits >> m) & ((1 << e) - 1) == (1 << e) - 1 and bits & ((1 << m) - 1) != 0


def _same(e: int, g: int, float_bits: int) -> bool:
    """Equal bits, or (for floats) both NaN: NaN payloads need not match the host's."""
    return e == g or (float_bits and is_nan(e, float_bits) and is_nan(g, float_bits))


def _fields(m: MemoryPort, eb: int, fb: int) -> tuple:
    """The scalars of one element (offset, bytes, suffix, float bits): the C layout when
    known, else the element itself, in pieces of at most 8 bytes."""
    if m.elem_fields and sum(f[1] for f in m.elem_fields) <= eb:
        return m.elem_fields
    if eb <= 8:
        return ((0, eb, "", fb),)
    return tuple((o, min(8, eb - o), f"+{o}", 0) for o in range(0, eb, 8))


def _compare_memory(call_no: int, m: MemoryPort, exp: bytes, got: bytes,
                    out: list[Mismatch], limit: int) -> int:
    """Count the differing scalars of ``m`` (NaN-aware for floats); append the first
    ones to ``out`` while it holds fewer than ``limit``."""
    if exp == got:
        return 0
    eb = m.elem_bytes or m.word_bytes
    fb = m.float_bits if m.float_bits and m.float_bits // 8 == eb else 0
    name = m.global_name if (m.arg_index is None and m.global_name) else (m.array_name or m.name)
    fields = _fields(m, eb, fb)
    covered = sum(f[1] for f in fields)
    n = 0
    for off in range(0, len(exp), eb):
        e_el = exp[off:off + eb]
        g_el = got[off:off + eb]
        if e_el == g_el:
            continue
        idx = m.element_index(off)
        path = _element_path(idx, m.elem_dims)
        for (fo, fs, suffix, ffb) in fields:
            e = int.from_bytes(e_el[fo:fo + fs], "little")
            g = int.from_bytes(g_el[fo:fo + fs], "little")
            if _same(e, g, ffb if ffb // 8 == fs else 0):
                continue
            n += 1
            if len(out) < limit:
                out.append(Mismatch(call_no, name, idx, e, g, where=path + suffix, size=fs,
                                    float_bits=ffb))
        if covered < len(e_el):  # padding between fields
            pad = [k for k in range(len(e_el)) if not any(fo <= k < fo + fs for fo, fs, _, _ in fields)]
            if any(e_el[k] != g_el[k] for k in pad if k < len(g_el)):
                n += 1
    return n


def compare_calls(iface: TopInterface, calls: Sequence[Call],
                  raw: Sequence[RawCallResult]) -> list[CallResult]:
    """Compare harness results with the expected outputs of ``calls``."""
    if len(raw) != len(calls):
        raise CosimError(f"harness returned {len(raw)} results for {len(calls)} calls")
    results = []
    for i, (call, r) in enumerate(zip(calls, raw)):
        mism: list[Mismatch] = []
        n = 0
        aborted = 0
        if r.status in ("timeout", "skipped"):
            # a call that never finished has no outputs to compare: what its memories and
            # return port hold is where the cycle bound stopped it
            results.append(CallResult(cycles=r.cycles, passed=False, status=r.status,
                                      message=r.message.removeprefix("timeout: ")))
            continue
        for m in iface.memories:
            if m.global_name == ABORT_GLOBAL:  # abort()/a failed assert: its site number
                aborted = int.from_bytes(r.mems[m.name][:4], "little")
                continue
            exp = _expected_bytes(m, call)
            if exp is not None and m.bank is None:   # dangling pointers: not compared
                exp = without_dangling(exp, r.mems[m.name], call.glob_dangling.get(m.global_name))
            if exp is not None:
                n += _compare_memory(i, m, exp, r.mems[m.name], mism, MAX_MISMATCHES_PER_CALL)
        if iface.return_width and call.ret is not None:
            mask = (1 << iface.return_width) - 1
            e, g = call.ret & mask, (r.ret or 0) & mask
            if not _same(e, g, iface.return_float):
                n += 1
                if len(mism) < MAX_MISMATCHES_PER_CALL:
                    size = (iface.return_width + 7) // 8
                    mism.append(Mismatch(i, "return", None, e, g, size=size,
                                         float_bits=iface.return_float))
        status, message = r.status, r.message
        if aborted and status == "ok":
            status, message = "aborted", f"the design aborted at site {aborted}"
        passed = status == "ok" and n == 0
        results.append(CallResult(cycles=r.cycles, passed=passed, status=status,
                                  mismatches=mism, n_mismatches=n, message=message))
    return results


def run_cosim(
    verilog_files: Sequence[str | Path],
    iface: TopInterface,
    calls: Sequence[Call],
    max_cycles: int,
    waves: bool = False,
    workdir: str | Path = "cosim",
    *,
    cache_dir: str | Path | None = None,
    timeout: float | None = None,
) -> CosimResult:
    """Build (cached) and run the harness on ``calls``; compare with their expected
    outputs (``mem_out``/``glob_out``/``ret``).  Mismatches and timeouts are reported in
    the result (``passed`` False), not raised; tool failures raise ToolError, a crashed
    simulator raises CosimError.  ``waves``: write ``workdir/waves.vcd``."""
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    binary = build_harness(verilog_files, iface, trace=waves, cache_dir=cache_dir)
    vcd = workdir / "waves.vcd" if waves else None
    raw, total = run_harness(binary, iface, calls, workdir, max_cycles=max_cycles,
                             waves=vcd, timeout=timeout)
    results = compare_calls(iface, calls, raw)
    for c in results:
        if c.status == "deadlock":
            c.message = deadlock_report(iface, c.message)
    mismatches = [m for c in results for m in c.mismatches][:MAX_MISMATCHES_TOTAL]
    activity: dict[tuple[str, str], tuple[int, int]] = {}
    for r in raw:
        for p, (cyc, ent) in zip(iface.probes, r.probes):
            c0, e0 = activity.get((p.function, p.block), (0, 0))
            activity[(p.function, p.block)] = (c0 + cyc, e0 + ent)
    return CosimResult(
        passed=all(c.passed for c in results),
        calls=results,
        total_cycles=total,
        mismatches=mismatches,
        workdir=workdir,
        waves=vcd,
        loop_activity=activity,
    )


def run_cosim_main(
    verilog_files: Sequence[str | Path],
    iface: TopInterface,
    expected_ret: int | None,
    expected_globals: Mapping[str, bytes],
    max_cycles: int,
    waves: bool = False,
    workdir: str | Path = "cosim",
    *,
    cache_dir: str | Path | None = None,
    timeout: float | None = None,
    dangling: Mapping[str, Sequence[int]] | None = None,
) -> CosimResult:
    """Whole-program mode: one call of the top (``main``, no arguments); compare its
    return value with ``expected_ret`` and each global memory (``MemoryPort.global_name``)
    with ``expected_globals[name]`` (e.g. from :func:`run_main`), except the pointer slots
    in ``dangling`` (global -> byte offsets of pointers into main's finished frame)."""
    call = Call(scalars={}, mem_in={}, ret=expected_ret, glob_out=dict(expected_globals),
                glob_dangling=dict(dangling or {}))
    return run_cosim(verilog_files, iface, [call], max_cycles, waves, workdir,
                     cache_dir=cache_dir, timeout=timeout)
