"""Golden results by native execution of LLVM IR (llvmlite MCJIT).

All native execution happens in a child process (``_golden_worker.py`` run with the
current interpreter), so a crash or a hang of the compiled code becomes a
:class:`hls.errors.CosimError` instead of taking the caller down.

* :func:`capture_tb_calls` runs the C testbench's ``main`` and records every call of the
  top function (scalars, input bytes of each pointer argument, output bytes, return value).
* :func:`run_main` runs ``main`` and returns its value and the final bytes of globals.
* :func:`random_calls` + :func:`run_calls`: random stimulus and its expected results.
"""

from __future__ import annotations

import os
import pickle
import random
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from hls import progress
from hls.errors import CosimError

__all__ = ["Call", "NativeCrash", "capture_tb_calls", "run_main", "run_calls", "random_calls",
           "scalar_ports"]

_WORKER = Path(__file__).with_name("_golden_worker.py")


@dataclass
class Call:
    """One call of the top function: inputs and (expected or observed) outputs.

    ``scalars``: argument index -> raw bits (masked to the width); ``mem_in``/``mem_out``:
    pointer argument index -> bytes before/after the call; ``ret``: raw return bits (None
    for void).  ``glob_in``/``glob_out``: LLVM global name -> bytes before/after the call
    (only filled for the globals that were asked for)."""

    scalars: dict[int, int]
    mem_in: dict[int, bytes]
    mem_out: dict[int, bytes] = field(default_factory=dict)
    ret: int | None = None
    glob_in: dict[str, bytes] = field(default_factory=dict)
    glob_out: dict[str, bytes] = field(default_factory=dict)
    #: whole-program mode: byte offsets, per global, of 8-byte pointer slots left dangling
    #: into main's frame when main returned (not compared)
    glob_dangling: dict[str, list[int]] = field(default_factory=dict)


def without_dangling(expected: bytes, got: bytes, offsets) -> bytes:
    """``expected`` with the 8-byte pointer slots at ``offsets`` (pointers left dangling
    into main's finished frame, :attr:`Call.glob_dangling`) taken from ``got``: those
    slots are not compared."""
    if not offsets:
        return bytes(expected)
    out = bytearray(expected)
    for o in offsets:
        out[o:o + 8] = got[o:o + 8]
    return bytes(out)


class NativeCrash(CosimError):
    """The native run ended by a signal or an unexpected exit (not a timeout, not an
    error the worker reported): ``hls.verify._sanitize`` may tell where."""


def _call_from_dict(d: Mapping[str, Any]) -> Call:
    return Call(
        scalars=dict(d["scalars"]),
        mem_in=dict(d["mem_in"]),
        mem_out=dict(d.get("mem_out") or {}),
        ret=d.get("ret"),
        glob_in=dict(d.get("glob_in") or {}),
        glob_out=dict(d.get("glob_out") or {}),
    )


def _run_worker(req: dict[str, Any], timeout: float, what: str) -> dict[str, Any]:
    progress.stage("native execution", what)
    with tempfile.TemporaryDirectory(prefix="pyhls-golden-") as tmp:
        req_path = Path(tmp) / "req.pkl"
        resp_path = Path(tmp) / "resp.pkl"
        with open(req_path, "wb") as f:
            pickle.dump(req, f, protocol=pickle.HIGHEST_PROTOCOL)
        argv = [sys.executable, str(_WORKER), str(req_path), str(resp_path)]
        try:
            proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, errors="replace", timeout=timeout,
                                  env=dict(os.environ))
        except subprocess.TimeoutExpired as exc:
            raise CosimError(f"{what}: native execution did not finish within {timeout:g} s, "
                             "the limit --native-timeout sets (cosim's native_timeout); "
                             "raise it, or make the program end") from exc
        if proc.returncode != 0 or not resp_path.exists():
            rc = proc.returncode
            how = f"exit status {rc}"
            if rc < 0:
                try:
                    how = f"signal {signal.Signals(-rc).name}"
                except ValueError:
                    how = f"signal {-rc}"
            if rc == -signal.SIGILL:
                how += ", a trap: __builtin_trap() or a check clang inserted"
            tail = (proc.stdout or "")[-3000:]
            raise NativeCrash(f"{what}: native execution crashed ({how})"
                              + (f":\n{tail}" if tail else ""))
        with open(resp_path, "rb") as f:
            resp = pickle.load(f)
    if not resp.get("ok"):
        raise CosimError(f"{what}: {resp.get('error', 'unknown error')}")
    resp["stdout"] = proc.stdout or ""
    return resp


def capture_tb_calls(
    tb_ll_text: str,
    top: str,
    ptr_args: Mapping[int, int],
    timeout: float = 120.0,
    globals_: Mapping[str, int] | None = None,
    output: list[str] | None = None,
    streams: Mapping[int, str] | None = None,
    ports: Mapping[int, tuple[int, bool]] | None = None,
) -> list[Call]:
    """Run the testbench ``main`` of ``tb_ll_text`` natively and record each call of
    ``top``: scalar bits, ``ptr_args[k]`` bytes at pointer argument ``k`` before and after
    the call, and the return value.  ``globals_`` (name -> bytes) additionally records
    those globals before/after each call (``Call.glob_in``/``glob_out``).  ``output``:
    a list to append the program's standard output (printf, puts) to.  ``streams``
    (argument index -> "r" or "w"): the pointer arguments that are hls::stream objects,
    recorded as arrays of their elements (``_golden_worker``).  ``ports`` (argument
    index -> (width, signed)): the top's scalar ports, by which a C argument the ABI
    passes in pieces is recorded as one value (:func:`scalar_ports`)."""
    req = {"kind": "capture", "ll": tb_ll_text, "top": top,
           "ptr_args": {int(k): int(v) for k, v in ptr_args.items()},
           "globals": dict(globals_ or {}), "streams": dict(streams or {}),
           "ports": dict(ports or {})}
    resp = _run_worker(req, timeout, f"capturing calls of {top}")
    if output is not None:
        output.append(resp["stdout"])
    return [_call_from_dict(d) for d in resp["calls"]]


def run_main(
    ll_text: str,
    global_names: Sequence[str],
    sizes: Mapping[str, int] | Sequence[int],
    timeout: float = 120.0,
    ptr_tags: Mapping[str, tuple[int, int]] | None = None,
    ptr_slots: Mapping[str, Sequence[int]] | None = None,
    output: list[str] | None = None,
    dangling: dict[str, list[int]] | None = None,
) -> tuple[int, dict[str, bytes]]:
    """Execute ``main()``; return its value (the status of ``exit`` if it calls that) and
    the final bytes of the listed globals (``sizes``: name -> bytes, or a list parallel to
    ``global_names``).  ``output``: a list to append the program's standard output to.
    ``dangling``: a dict to fill with the byte offsets, per global, of pointers left
    pointing into main's frame (dangling once main returns: not to be compared)."""
    if isinstance(sizes, Mapping):
        gs = {n: int(sizes[n]) for n in global_names}
    else:
        if len(sizes) != len(global_names):
            raise CosimError("run_main: sizes and global_names differ in length")
        gs = {n: int(s) for n, s in zip(global_names, sizes)}
    req = {"kind": "main", "ll": ll_text, "globals": gs}
    if ptr_slots:  # pointers held in globals: as the hardware encodes them
        req["ptr_tags"] = {k: list(v) for k, v in (ptr_tags or {}).items()}
        req["ptr_slots"] = {k: list(v) for k, v in ptr_slots.items()}
    resp = _run_worker(req, timeout, "running main")
    if output is not None:
        output.append(resp["stdout"])
    if dangling is not None:
        dangling.update({k: list(v) for k, v in (resp.get("dangling") or {}).items()})
    return int(resp["main_ret"]), dict(resp["globals"])


def run_calls(
    ll_text: str,
    top: str,
    calls_in: Sequence[Call],
    ptr_sizes: Mapping[int, int] | None = None,
    timeout: float = 120.0,
    globals_: Mapping[str, int] | None = None,
    streams: Mapping[int, str] | None = None,
    ports: Mapping[int, tuple[int, bool]] | None = None,
) -> list[Call]:
    """Execute ``top`` natively on each call's ``scalars``/``mem_in`` (in one process, so
    globals persist across calls like in the harness).  Returns new Calls with ``mem_out``
    and ``ret`` filled.  ``ptr_sizes`` (arg index -> bytes) defaults to the ``mem_in``
    lengths of the first call."""
    if ptr_sizes is None:
        ptr_sizes = {k: len(v) for k, v in (calls_in[0].mem_in if calls_in else {}).items()}
    req = {"kind": "calls", "ll": ll_text, "top": top,
           "ptr_args": {int(k): int(v) for k, v in ptr_sizes.items()},
           "globals": dict(globals_ or {}), "streams": dict(streams or {}),
           "ports": dict(ports or {}),
           "calls": [{"scalars": dict(c.scalars), "mem_in": dict(c.mem_in)} for c in calls_in]}
    resp = _run_worker(req, timeout, f"running {top} on random stimulus")
    return [_call_from_dict(d) for d in resp["calls"]]


def scalar_ports(iface: Any) -> dict[int, tuple[int, bool]]:
    """Argument index -> (width, signed) of each scalar port of ``iface`` (a
    TopInterface): signed when its C value is (an ``int``, an ``ap_int``), which is how
    its caller extends it to the pieces the ABI passes it in."""
    return {s.arg_index: (s.width, bool(s.ctype and s.ctype.value_signed))
            for s in iface.scalars}


def random_calls(
    iface: Any,
    k: int = 8,
    seed: int = 0,
    fixed: Mapping[int, int] | None = None,
    ptr_sizes: Mapping[int, int] | None = None,
) -> list[Call]:
    """``k`` random calls for the top of ``iface`` (a TopInterface): random raw bits for
    each scalar (``fixed`` arg index -> value overrides, as from ``--set``) and random bytes
    for each pointer-argument memory (``ptr_sizes`` overrides the default size_bytes)."""
    rng = random.Random(seed)
    fixed = dict(fixed or {})
    sizes = {m.arg_index: m.whole_bytes for m in iface.memories if m.arg_index is not None}
    sizes.update(ptr_sizes or {})
    types = {m.arg_index: m.ctype for m in iface.memories if m.arg_index is not None}
    out = []
    for _ in range(k):
        scalars = {}
        for s in iface.scalars:
            v = fixed[s.arg_index] if s.arg_index in fixed else rng.getrandbits(s.width)
            scalars[s.arg_index] = v & ((1 << s.width) - 1)
        mem_in = {a: _valid(rng.randbytes(n), types.get(a)) for a, n in sizes.items()}
        out.append(Call(scalars=scalars, mem_in=mem_in))
    return out


def _valid(data: bytes, t: Any) -> bytes:
    """Random bytes of a memory of elements of C type ``t`` made values the C code may
    hold: an ``ap_uint<65>``'s or ``_BitInt(70)``'s bits beyond its width are its
    extension (a caller extends them; the compiled code relies on it), not noise."""
    if t is None or t.value_bits >= 8 * t.size:
        return data
    n, w = t.size, t.value_bits
    out = bytearray(data)
    for o in range(0, len(out) - n + 1, n):
        v = int.from_bytes(out[o:o + n], "little") & ((1 << w) - 1)
        if t.value_signed and v >> (w - 1):
            v -= 1 << w
        out[o:o + n] = (v % (1 << (8 * n))).to_bytes(n, "little")
    return bytes(out)
